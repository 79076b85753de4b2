//! The tour's stops, in the texts' order: *Game Programming Patterns*' "Game Loop" first,
//! then deWiTTERS' "Game loop" and the LWJGL "Game loops" tutorial, then what lies beyond
//! them. The claims are ours; the sources say where each comes from.

use std::time::Duration;

use looplab_timing::Strategy;

use super::{Focus, Need, Person, Setup, Stop, Try, Watch};
use crate::lab::blind::Pair;
use crate::lab::compare::Preset;
use crate::session::ship_input::InputMode;
use crate::text::settings::DeltaKind;

const GPP: &str = "Game Programming Patterns, \"Game Loop\"";

/// A weak GPU, as the R key makes one: 40 ms to draw a frame.
const WEAK_GPU: Duration = Duration::from_millis(40);

/// The steps of 60 and 30 updates a second.
const STEP_60: Duration = Duration::from_nanos(16_666_667);
const STEP_30: Duration = Duration::from_nanos(33_333_333);

/// How long most claims are given to come true.
const TEN_SECONDS: Duration = Duration::from_secs(10);

/// Every stop, in order.
pub fn stops() -> Vec<Stop> {
    STOPS.to_vec()
}

/// The stops a browser page can show. A page never draws faster than its display (the
/// browser calls it once a refresh), so "as fast as you can" there is the display's rate:
/// the tour's "Who owns the loop?" says so, and a page's tour does not open on a claim it
/// cannot show.
pub fn for_a_page() -> Vec<Stop> {
    STOPS
        .iter()
        .filter(|s| s.id != "as-fast-as-you-can")
        .cloned()
        .collect()
}

/// The stops as a table: the tour's script, data rather than code.
static STOPS: [Stop; 17] = [
    Stop {
        id: "as-fast-as-you-can",
        title: "Run, run as fast as you can",
        claim: "One update a frame and no waiting: the game runs as fast as the machine \
                    draws, so on a fast machine it races ahead of real time.",
        source: "Game Programming Patterns, \"Game Loop\": Run, run as fast as you can",
        // A step of 30 UPS: a machine drawing faster than that (most do, even a software
        // rasteriser's) sees the game race ahead, where at 60 UPS one drawing at 55 FPS
        // would see it fall behind and take that for the claim's opposite.
        setup: Setup {
            strategy: Strategy::Uncapped,
            ups: 30.0,
            ..Setup::BASE
        },
        focus: Focus::Metronome,
        line: "update()",
        feel: None,
        rows: &["FPS / UPS", "game / real"],
        hint: "watch the metronome leave the wall-clock marker behind",
        tries: None,
        watch: Watch::GameAhead {
            at_least_ms: 1000.0,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        // Each frame puts the game a step less the frame's time ahead: a second ahead
        // within ten needs frames of under a step over 1.1 (30.3 ms).
        needs: Need::DrawsWithin(Duration::from_millis(30)),
        may_differ: "a page never draws faster than its display",
    },
    Stop {
        id: "a-little-nap",
        title: "Take a little nap",
        claim: "Sleep out what is left of each step: on a machine fast enough, the game \
                    keeps to real time and the CPU rests.",
        source: "Game Programming Patterns, \"Game Loop\": Take a little nap",
        setup: Setup {
            strategy: Strategy::FixedSleep,
            ..Setup::BASE
        },
        focus: Focus::Metronome,
        line: "sleep(",
        feel: None,
        rows: &["FPS / UPS", "game / real", "idle upd draw"],
        hint: "the metronome and the marker stay together; the timeline shows the naps",
        tries: None,
        watch: Watch::InStep {
            within_ms: 50.0,
            for_seconds: 3.0,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::DrawsWithin(STEP_60),
        may_differ: "so the loop itself lost time: a bug worth reporting",
    },
    Stop {
        id: "a-nap-on-a-weak-gpu",
        title: "A nap on a weak GPU",
        claim: "The nap cannot give back time the frame did not have: when drawing takes \
                    longer than a step, the game slows down with the machine.",
        source: "Game Programming Patterns, \"Game Loop\": Take a little nap",
        setup: Setup {
            strategy: Strategy::FixedSleep,
            render_cost: WEAK_GPU,
            ..Setup::BASE
        },
        focus: Focus::Metronome,
        line: "render()",
        feel: None,
        rows: &["FPS / UPS", "game / real", "sim. load"],
        hint: "press Shift+R three times for a 5 ms GPU: the game keeps to real time again, after winning back at most the stall clamp's quarter second",
        tries: Some(Try {
            keys: &["Shift+R", "Shift+R", "Shift+R"],
            shows: Watch::KeepsRealTime {
                after_seconds: 3.0,
                within: 0.05,
            },
            needs: Need::DrawsWithin(STEP_60),
        }),
        watch: Watch::GameBehind {
            at_least_ms: 1000.0,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "the simulated 40 ms renderer did not slow this machine's frames",
    },
    Stop {
        id: "one-giant-step",
        title: "One small step, one giant step",
        claim: "A variable step keeps real time on any machine, but long frames make long \
                    steps, and a dart that moves past the thin wall in one step goes through it.",
        source: "Game Programming Patterns, \"Game Loop\": One small step, one giant step",
        setup: Setup {
            strategy: Strategy::Variable,
            render_cost: WEAK_GPU,
            ..Setup::BASE
        },
        focus: Focus::Wall,
        line: "update(elapsed)",
        feel: None,
        rows: &["FPS / UPS", "this frame", "sim. load"],
        hint: "press Shift+R three times for a 5 ms GPU: shorter steps, and the wall holds",
        tries: Some(Try {
            keys: &["Shift+R", "Shift+R", "Shift+R"],
            shows: Watch::WallHolds { darts_at_least: 20 },
            needs: Need::DrawsWithin(Duration::from_millis(20)),
        }),
        watch: Watch::Tunnels { at_least: 0.25 },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "frames here stayed short enough for the darts' steps to hit the wall",
    },
    Stop {
        id: "fred-and-george",
        title: "Fred and George",
        claim: "Two machines, one variable step: their worlds drift apart, because floating \
                    point gives a different answer for different steps.",
        source: "Game Programming Patterns, \"Game Loop\": One small step, one giant step",
        setup: Setup {
            strategy: Strategy::Variable,
            compare: Some(Preset::FredAndGeorge),
            ..Setup::BASE
        },
        focus: Focus::Lanes,
        line: "update(elapsed)",
        feel: None,
        rows: &[],
        hint: "press F6: the same two machines with a fixed step stay identical",
        tries: Some(Try {
            keys: &["F6"],
            shows: Watch::LanesInStep { to_seconds: 3.0 },
            needs: Need::Nothing,
        }),
        watch: Watch::LanesDiverge,
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "the lanes have not reached a common checkpoint yet",
    },
    Stop {
        id: "play-catch-up",
        title: "Play catch up",
        claim: "A fixed step, run as many times as real time owes: ten updates a second on a \
                    weak GPU, yet the game keeps to real time, though its motion moves in steps.",
        source: "Game Programming Patterns, \"Game Loop\": Play catch up",
        setup: Setup {
            strategy: Strategy::CatchUp,
            ups: 10.0,
            render_cost: WEAK_GPU,
            ..Setup::BASE
        },
        focus: Focus::Metronome,
        line: "while lag >= STEP",
        feel: None,
        rows: &["FPS / UPS", "this frame", "game / real", "sim. load"],
        hint: "the metronome jumps a tenth of a second at a time; the next stop smooths it",
        tries: None,
        watch: Watch::InStep {
            within_ms: 150.0,
            for_seconds: 3.0,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "this machine's updates take longer than the time they simulate",
    },
    Stop {
        id: "stuck-in-the-middle",
        title: "Stuck in the middle",
        claim: "Ten updates a second, sixty pictures: drawn between the last two states, \
                    every picture moves, at the cost of showing the game one step late.",
        source: "Game Programming Patterns, \"Game Loop\": Stuck in the middle",
        setup: Setup {
            strategy: Strategy::Interpolated,
            ups: 10.0,
            cap: Some(60.0),
            ..Setup::BASE
        },
        focus: Focus::Stream,
        line: "render(lerp(",
        feel: Some(Pair::Interpolation),
        rows: &["FPS / UPS", "this frame", "anim. err ms"],
        hint: "press 4 (catch-up): five pictures in six stand still; 5 brings it back",
        tries: Some(Try {
            keys: &["4"],
            shows: Watch::Stutters {
                error_at_least_ms: 10.0,
            },
            needs: Need::DrawsWithin(Duration::from_millis(30)),
        }),
        watch: Watch::Smooth {
            error_at_most_ms: 4.0,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "this machine draws fewer pictures than updates",
    },
    Stop {
        id: "a-guess-ahead",
        title: "Stuck in the middle: a guess ahead",
        claim: "Drawn ahead of the last state by its velocity, each picture is a guess at the \
                    present: right while things fly straight, wrong where they turn.",
        source: "Game Programming Patterns, \"Game Loop\": Stuck in the middle",
        setup: Setup {
            strategy: Strategy::Extrapolated,
            ups: 10.0,
            cap: Some(60.0),
            ..Setup::BASE
        },
        focus: Focus::Balls,
        line: "render(position",
        feel: None,
        rows: &["FPS / UPS", "this frame", "picture lag ms"],
        hint: "watch the balls dip into the floor as they bounce; press 5 for interpolation: they stay inside",
        tries: Some(Try {
            keys: &["5"],
            shows: Watch::StaysInside { for_seconds: 4.0 },
            needs: Need::Nothing,
        }),
        watch: Watch::Overshoots { at_least_px: 10.0 },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "the balls' bounces fell on updates here",
    },
    Stop {
        id: "who-owns-the-loop",
        title: "Who owns the loop?",
        claim: "With vsync the display sets the pace: even the loop that never waits shows \
                    sixty pictures a second, and the game keeps to real time. In a browser the \
                    page's frame callbacks own the loop outright.",
        source: "Game Programming Patterns, \"Game Loop\": Design decisions",
        setup: Setup {
            strategy: Strategy::Uncapped,
            vsync: true,
            ..Setup::BASE
        },
        focus: Focus::Metronome,
        line: "render()",
        feel: None,
        rows: &["FPS / UPS", "game / real", "present"],
        hint: "press V for no vsync: the same loop races ahead (not in a page, whose browser owns the loop)",
        tries: Some(Try {
            keys: &["V"],
            shows: Watch::GameAhead {
                at_least_ms: 1000.0,
            },
            needs: Need::DrawsWithin(Duration::from_millis(15)),
        }),
        watch: Watch::PacedAt {
            fps: 60,
            within_ms: 50.0,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "this display's refresh is not 60 Hz, or vsync does not pace presents \
                         here (Xvfb has no vertical blank)",
    },
    Stop {
        id: "power",
        title: "How do you manage power?",
        claim: "A loop that sleeps out what is left of each step gives that time back to \
                    the machine; one that never waits keeps it working all the time, on \
                    pictures nobody sees.",
        source: "Game Programming Patterns, \"Game Loop\": Design decisions",
        setup: Setup {
            strategy: Strategy::FixedSleep,
            // A long step leaves most of each frame to sleep, on a slow machine too.
            ups: 30.0,
            ..Setup::BASE
        },
        focus: Focus::Timeline,
        line: "sleep(",
        feel: None,
        rows: &["FPS / UPS", "idle upd draw", "process CPU"],
        hint: "press 1 (uncapped): the grey naps leave the timeline and the process CPU climbs",
        tries: Some(Try {
            keys: &["1"],
            shows: Watch::NoNaps,
            needs: Need::Nothing,
        }),
        watch: Watch::Naps {
            before_at_least: 0.9,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::DrawsWithin(STEP_30),
        may_differ: "so the loop itself did not sleep: a bug worth reporting",
    },
    Stop {
        id: "max-frameskip",
        title: "MAX_FRAMESKIP",
        claim: "When an update costs more than the step it simulates, catching up only owes \
                    more: a cap on updates per frame lets the game slow down instead of locking up.",
        source: "deWiTTERS, \"Game loop\": Constant game speed with maximum FPS",
        setup: Setup {
            strategy: Strategy::CatchUp,
            max_updates: Some(5),
            update_cost: Duration::from_millis(20),
            ..Setup::BASE
        },
        focus: Focus::Timeline,
        line: "n < MAX",
        feel: None,
        rows: &["FPS / UPS", "game / real", "max updates", "sim. load"],
        hint: "press M three times for no limit (10, 25, unlimited): the frames all but stop, the spiral of death",
        tries: Some(Try {
            keys: &["M", "M", "M"],
            shows: Watch::FramesStop { below_fps: 6 },
            needs: Need::Nothing,
        }),
        watch: Watch::SlowsInsteadOfSpiralling {
            below: 0.9,
            most_updates: 5,
        },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "this machine's updates are quicker than the simulated 20 ms",
    },
    Stop {
        id: "lwjgl-alpha",
        title: "alpha = accumulator / interval",
        claim: "Thirty updates a second, seventy-five pictures: each picture falls somewhere between \
                    two updates, and alpha, what is left in the accumulator over the step, says where.",
        source: "LWJGL, \"Game loops\": Fixed timestep",
        setup: Setup {
            strategy: Strategy::Interpolated,
            ups: 30.0,
            cap: Some(75.0),
            ..Setup::BASE
        },
        focus: Focus::Timeline,
        line: "alpha = lag / STEP",
        feel: None,
        rows: &["FPS / UPS", "this frame"],
        hint: "on the timeline's game row, each white picture tick sits alpha of the way to the next update",
        tries: None,
        watch: Watch::AlphaSweeps { fifths: 5 },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "this machine draws too few pictures to fall in every fifth of a step",
    },
    Stop {
        id: "noisy-display",
        title: "Beyond the texts: a noisy 60 Hz display",
        claim: "Deltas measured on a 60 Hz display with a noisy timer make some refreshes \
                    show two updates and the next none; snapped or synced, they do not.",
        source: "Beyond the texts: Unity's and Godot's frame pacing (MonitorSim)",
        setup: Setup {
            strategy: Strategy::CatchUp,
            delta: DeltaKind::Measured,
            compare: Some(Preset::Snapping),
            ..Setup::BASE
        },
        focus: Focus::Lanes,
        line: "lag += since_last_frame()",
        feel: Some(Pair::Snapping),
        rows: &[],
        hint: "compare the first lane's doubles with the snapped and synced lanes'",
        tries: None,
        watch: Watch::Doubles { at_least: 5 },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "the lanes' display model started off the step boundary",
    },
    Stop {
        id: "taps-lost",
        title: "Taps lost between ticks",
        claim: "Read the keys as each update starts and a tap that begins and ends between two \
                    updates never reaches the game; gathered over each update's span of game time, none is lost.",
        source: "Beyond the texts: input at a fixed step (bevy #6183)",
        setup: Setup {
            strategy: Strategy::Interpolated,
            ups: 10.0,
            cap: Some(60.0),
            input: InputMode::Sampled,
            ..Setup::BASE
        },
        focus: Focus::Stream,
        line: "process_input()",
        feel: None,
        rows: &["FPS / UPS", "ship delay"],
        hint: "tap an arrow key quickly a few times; press I for accumulated input: every tap counts",
        tries: Some(Try {
            keys: &["I"],
            shows: Watch::NoTapLost { taps_at_least: 3 },
            needs: Need::Nothing,
        }),
        watch: Watch::TapsLost { at_least: 2 },
        person: Person::TapsArrows,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "no quick taps of the arrows were made, or each was held over an update",
    },
    Stop {
        id: "render-tick",
        title: "The render tick",
        claim: "Run a copy of the world one short update on to the present and draw that: on time \
                    like the guess ahead, and right at the turns, at the cost of an update a frame.",
        source: "Beyond the texts: the render tick (a copy run to the present)",
        setup: Setup {
            strategy: Strategy::Predicted,
            ups: 10.0,
            cap: Some(60.0),
            ..Setup::BASE
        },
        focus: Focus::Metronome,
        line: "update(shown, lag)",
        feel: Some(Pair::RenderTick),
        rows: &["FPS / UPS", "this frame", "picture lag ms"],
        hint: "press 5 for interpolation: the metronome trails its true place by a step",
        tries: Some(Try {
            keys: &["5"],
            shows: Watch::Trails { at_least_px: 10.0 },
            needs: Need::Nothing,
        }),
        watch: Watch::OnTime { within_px: 1.0 },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "this machine's pictures are drawn later than the game time they show",
    },
    Stop {
        id: "fixed-step-determinism",
        title: "A fixed step is deterministic",
        claim: "Fixed steps run the same updates in the same order on any machine: the two \
                    lanes' worlds stay identical, checkpoint after checkpoint.",
        source: GPP,
        setup: Setup {
            strategy: Strategy::Interpolated,
            compare: Some(Preset::FixedStep),
            ..Setup::BASE
        },
        focus: Focus::Lanes,
        line: "update()",
        feel: None,
        rows: &[],
        hint: "steer the ship: both lanes take the keys, and stay in step",
        tries: None,
        watch: Watch::LanesInStep { to_seconds: 3.0 },
        person: Person::Watches,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "the lanes have not reached three seconds of game time",
    },
    Stop {
        id: "frames-in-flight",
        title: "Beyond the texts: frames in flight",
        claim: "Under vsync a loop faster than its display fills the queue of frames in front \
                    of it, and each frame queued shows a key a refresh later; start each frame \
                    just in time for its refresh and the queue stays empty.",
        source: "Beyond the texts: the swapchain's queue (NVIDIA Reflex, bevy_framepace)",
        setup: Setup {
            strategy: Strategy::Interpolated,
            compare: Some(Preset::FramesInFlight),
            ..Setup::BASE
        },
        focus: Focus::Lanes,
        line: "render(lerp(",
        feel: Some(Pair::Queue),
        rows: &[],
        hint: "steer the ship and compare the lanes' delays: 1, 2, 3 frames in flight, then just in time",
        tries: None,
        watch: Watch::QueueDelays { per_frame_ms: 12.0 },
        person: Person::TapsArrows,
        limit: TEN_SECONDS,
        needs: Need::Nothing,
        may_differ: "no arrow was pressed, so no lane has a delay to show",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_opens_on_a_claim_it_can_show_and_keeps_every_other_stop() {
        let page = for_a_page();
        assert_eq!(page[0].id, "a-little-nap");
        assert_eq!(page.len() + 1, stops().len());
        assert!(page.iter().all(|s| s.id != "as-fast-as-you-can"));
    }

    #[test]
    fn every_stop_has_its_words_and_a_unique_id() {
        let stops = stops();
        assert!(stops.len() >= 9);
        let mut ids: Vec<&str> = stops.iter().map(|s| s.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), stops.len(), "ids are unique");
        for s in &stops {
            assert!(!s.title.is_empty() && !s.hint.is_empty() && !s.may_differ.is_empty());
            assert!(
                s.claim.len() < 240,
                "{}: a claim is a sentence or two",
                s.id
            );
            assert!(s.limit <= Duration::from_secs(20), "{}", s.id);
        }
    }

    #[test]
    fn every_stop_lights_one_line_of_its_loop_and_keys_beside_it_fit_the_panel() {
        for s in stops() {
            let code = s.setup.strategy.pseudocode();
            let found = code.lines().filter(|l| l.contains(s.line)).count();
            assert_eq!(found, 1, "{}: '{}' in one line of\n{code}", s.id, s.line);
            let shown = super::super::LoopCode::of(&s).expect("its line is in its loop");
            let lit = &shown.lines[shown.lit];
            assert!(lit.contains(s.line), "{}: {lit}", s.id);
            let width = lit.chars().count() + shown.key.map_or(0, |k| k.chars().count() + 3);
            assert!(
                width <= 44,
                "{}: '{lit}' with its key is {width} wide",
                s.id
            );
        }
    }
}
