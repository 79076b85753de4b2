//! The screens a person sees, laid out as the window lays them out (its composer and egui),
//! with no GPU: every text's rectangle from egui's own layout, checked against the regions
//! of the screen. No text may leave the region or tile it belongs to, and no two texts may
//! overlap: the single view with the help open and closed, and each compare preset, at the
//! window's size and at a smaller one.

use std::time::Duration;

use looplab::app::compose::{Composer, FrameInputs, Readouts};
use looplab::app::controls::Knobs;
use looplab::app::overlay::{PacedBy, PlacedText, WindowFacts, layout_faults as faults};
use looplab::app::visibility::{Moment, Visibility};
use looplab::lab::blind::{Blind, Judged};
use looplab::lab::compare::{Compare, Preset};
use looplab::session::Session;
use looplab::session::frame::FrameRecord;
use looplab::tour::{
    Figures, FramesAgainst, Host, MachineVerdict, Need, StopStatus, Tour, TourPanel, stops, walk,
};
use looplab::world::WorldConfig;
use looplab::world::ship::Steer;
use looplab_timing::{LoopSettings, Strategy};

const SIZES: [(u32, u32); 2] = [(1280, 720), (960, 540)];

/// Everything a screen shows after a few seconds of running (so every caption has its
/// longest figures: hashes, "diverged at"), laid out at `size`. A `stressed` screen's loop
/// stalled for over a second, runs at 64 times real time and is paced by a compositor, so
/// its figures are as long as they get.
fn texts(knobs: &Knobs, size: (u32, u32), stressed: bool) -> Vec<PlacedText> {
    let screen = Screen {
        knobs,
        strategy: Strategy::Interpolated,
        settings: LoopSettings::default(),
        tour: None,
    };
    texts_of(&screen, size, stressed)
}

/// A screen: the knobs, the loop, and the tour's panel if a stop is on.
struct Screen<'a> {
    knobs: &'a Knobs,
    strategy: Strategy,
    settings: LoopSettings,
    tour: Option<TourPanel>,
}

fn texts_of(screen: &Screen, size: (u32, u32), stressed: bool) -> Vec<PlacedText> {
    let knobs = screen.knobs;
    let world = WorldConfig {
        seed: 1,
        bullets: 2000,
    };
    let settings = if stressed {
        screen
            .settings
            .clone()
            .with_time_scale(looplab_timing::TimeScale::new(64.0).unwrap())
            .with_max_updates(None)
            .unwrap()
    } else {
        screen.settings.clone()
    };
    let mut session = Session::new(screen.strategy, settings.clone(), &world);
    let mut compare = knobs
        .compare
        .map(|p| Compare::new(p, &settings, &world, Duration::ZERO));
    let mut plan = session.frame(Duration::ZERO, |_, _| {});
    let mut now = Duration::ZERO;
    let mut readouts = Readouts::default();
    for frame in 1..=200u32 {
        now = Duration::from_micros(16_667) * frame;
        if stressed && frame > 150 {
            now += Duration::from_millis(1234);
        }
        plan = session.frame(now, |_, _| {});
        // The timeline's frames; stressed, with the game 99.99 s behind the wall clock (the
        // widest the strip says it), so the strip says how far.
        let record = session.record(&plan);
        let lag = Duration::from_millis(if stressed { 99_990 } else { 0 });
        readouts.history.push(FrameRecord {
            presented: Some(now + Duration::from_millis(2)),
            reference: record.game_shown + lag,
            ..record
        });
        if let Some(c) = &mut compare {
            if frame == 30 {
                c.steer(Steer::from_held(false, true, true, false), now);
            }
            c.advance_to(now);
        }
    }
    if stressed {
        // The last frame's row at its widest.
        let ms = Duration::from_micros;
        readouts.last = FrameRecord {
            waited: ms(999_900),
            start: now,
            update_time: ms(250_000),
            presented: Some(now + ms(1_249_900)),
            ..readouts.last
        };
    }
    let mut visibility = Visibility::default();
    let moment = |secs: f64| Moment {
        at: Duration::from_secs_f64(secs),
        ..Moment::default()
    };
    visibility.occluded(true, moment(0.0));
    visibility.occluded(false, moment(12.34));
    let facts = WindowFacts {
        cpu_percent: Some(100.0),
        hidden_note: visibility.note(Duration::from_secs(13), true),
        // A page says the most: its present line and the strategy's note on pages.
        paced_by: if stressed {
            PacedBy::Browser
        } else {
            PacedBy::Loop
        },
        adapter: "llvmpipe (LLVM 15.0.6, 256 bits) (vulkan, CPU)".into(),
        // A display that does not pace, which the present row says at length.
        refresh_hz: Some(29.5),
        // The longest present row a window shows: just in time, with its widest figures.
        frame_latency: 3,
        just_in_time: Some(looplab::app::pacing::JitReadout {
            lead: Some(Duration::from_millis(99)),
            missed: 99_999,
            grid: None,
        }),
        ..WindowFacts::offscreen(wgpu::PresentMode::FifoRelaxed)
    };
    let inputs = FrameInputs::new(&session, knobs, &plan, &readouts, &facts)
        .with_lanes(compare.as_ref(), now)
        .with_tour(screen.tour.as_ref())
        .with_tour_invite(screen.tour.is_none());
    let mut composer = Composer::headless().audited();
    // egui sizes a new window over its first passes: lay it out until it settles.
    let mut texts = Vec::new();
    for _ in 0..4 {
        let words = composer.compose(&inputs, None, size).words;
        texts = words.expect("the window lays out words").texts;
    }
    texts
}

/// The faults of every screen, each headed by the screen's name and size.
fn check(screens: &[(&str, Knobs)], stressed: bool) {
    let mut all = Vec::new();
    for (name, knobs) in screens {
        for size in SIZES {
            let texts = texts(knobs, size, stressed);
            // At least a caption for each region or lane.
            assert!(
                texts.len() >= 2,
                "{name} at {size:?}: {} texts",
                texts.len()
            );
            all.extend(
                faults(&texts)
                    .into_iter()
                    .map(|f| format!("{name} at {}x{}: {f}", size.0, size.1)),
            );
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn the_single_view_keeps_every_text_in_its_place() {
    let screens = [
        ("the single view", Knobs::default()),
        (
            "the single view with help",
            Knobs {
                help: true,
                ..Knobs::default()
            },
        ),
        (
            "the single view without the overlay",
            Knobs {
                overlay: false,
                ..Knobs::default()
            },
        ),
        (
            "the full panel",
            Knobs {
                everything: true,
                ..Knobs::default()
            },
        ),
        (
            "the full panel with help",
            Knobs {
                everything: true,
                help: true,
                ..Knobs::default()
            },
        ),
    ];
    check(&screens, false);
    check(&screens, true);
    // The window opens on a short panel: FPS / UPS and the row its strategy is about
    // (interpolation's animation error); A grows it to every row.
    let labels = |knobs: &Knobs| -> Vec<String> {
        let texts = texts(knobs, SIZES[1], false);
        [
            "FPS / UPS",
            "frame ms",
            "anim. err ms",
            "frame deltas",
            "process CPU",
        ]
        .into_iter()
        .filter(|row| texts.iter().any(|t| t.text == *row))
        .map(String::from)
        .collect()
    };
    assert_eq!(labels(&Knobs::default()), ["FPS / UPS", "anim. err ms"]);
    let full = Knobs {
        everything: true,
        ..Knobs::default()
    };
    assert_eq!(labels(&full).len(), 5, "{:?}", labels(&full));
    // The invitation to the tour is among them, on one line.
    let invited = texts(&Knobs::default(), SIZES[1], false)
        .into_iter()
        .filter(|t| t.text == looplab::app::overlay::TOUR_INVITE)
        .count();
    assert_eq!(invited, 1, "the tour's invitation, whole on one line");
    // The timeline says how far the game is from the wall clock, among the texts checked.
    let gap = texts(&Knobs::default(), SIZES[1], true)
        .into_iter()
        .filter(|t| t.text.starts_with("game ") && t.text.contains(" s "))
        .count();
    assert_eq!(gap, 1, "the timeline's gap to the wall clock");
}

#[test]
fn every_compare_preset_keeps_every_text_in_its_tile() {
    // Beside the overlay's column (with the help open too), and over the whole screen with
    // the overlay hidden.
    let screens: Vec<(&str, Knobs)> = Preset::ALL
        .into_iter()
        .flat_map(|preset| {
            [(true, false), (true, true), (false, false)].map(|(overlay, help)| {
                let knobs = Knobs {
                    compare: Some(preset),
                    overlay,
                    help,
                    ..Knobs::default()
                };
                (preset.id(), knobs)
            })
        })
        .collect();
    check(&screens, false);
    check(&screens, true);
}

/// What `blind`'s lanes' figures say after 8 s of a person steering right and left, as a
/// stop says it when answered: the lanes' names and figures as long as a run gives them.
fn judged_as_run(blind: Blind) -> Judged {
    let world = WorldConfig {
        seed: 1,
        bullets: 200,
    };
    let settings = LoopSettings::default();
    let mut compare = Compare::new(Preset::Blind(blind), &settings, &world, Duration::ZERO);
    for tenth in 1..=80u32 {
        let at = Duration::from_millis(100) * tenth;
        compare.steer(
            Steer::from_held(tenth % 7 < 3, tenth % 7 >= 3, false, false),
            at,
        );
        compare.advance_to(at);
    }
    compare.judge(blind)
}

#[test]
fn every_tour_stop_keeps_every_text_in_its_place() {
    // Each stop as its setup leaves the window, its panel watching, seen (with the figure
    // the headless walk saw, as long as the window's) and not seen (the longest: what was
    // expected and why this machine may differ), with the help open and closed.
    let stops = stops::stops();
    let mut all = Vec::new();
    for (at, stop) in stops.iter().enumerate() {
        let mut tour = Tour::start(stops.clone(), Duration::ZERO);
        for _ in 0..at {
            assert!(tour.go(true, Duration::ZERO));
        }
        let figure = walk::walk(stop)
            .seen
            .expect("every stop comes true headless")
            .1;
        // Not seen, as the tour says it when the time runs out: for a stop that needs the
        // machine fast enough, both verdicts, with the longest figures a run can give.
        let past = stop.limit + Duration::from_secs(1);
        let verdicts: Vec<Option<MachineVerdict>> = match stop.needs {
            Need::Nothing => vec![None],
            Need::DrawsWithin(within) => [Host::Loop, Host::Browser]
                .into_iter()
                .flat_map(|host| {
                    [0, 99_999].map(|over| {
                        Some(
                            FramesAgainst {
                                host,
                                frames: 99_999,
                                first: Some(Duration::ZERO),
                                last: Duration::from_secs(1),
                                over,
                                overrun: Duration::from_secs(3_600) * over.min(1),
                                slowest: Duration::from_secs_f64(9.9999),
                            }
                            .verdict(within),
                        )
                    })
                })
                .collect(),
        };
        // A stop that asks first: its question, with its lanes unnamed; then the answer
        // the other way from the figures, with the longest names and figures a pair has.
        let mut asked = Vec::new();
        if let Some(blind) = tour.asking() {
            asked.push((
                tour.clone(),
                StopStatus::Watching,
                Some(Preset::Blind(blind)),
            ));
            let judged = judged_as_run(blind);
            let other_way = judged.favoured.map_or(0, |f| 1 - f);
            assert!(
                tour.answer(other_way, judged, Duration::ZERO).is_some(),
                "{}",
                stop.id
            );
        }
        let mut standings = vec![
            StopStatus::Watching,
            StopStatus::Seen(Duration::from_secs_f64(9.9), figure.clone()),
        ];
        if stop.tries.is_some() {
            // The hint tried: watching for what it promises, then seen (a figure as long).
            standings.push(StopStatus::Trying);
            standings.push(StopStatus::Tried(Duration::from_secs_f64(9.9), figure));
        }
        for machine in verdicts {
            let mut tour = tour.clone();
            let figures = Figures {
                machine,
                ..Figures::default()
            };
            match tour.watch(&figures, past) {
                StopStatus::NotSeen(why) => standings.push(StopStatus::NotSeen(why)),
                other => panic!("{}: {other:?} with no figures", stop.id),
            }
        }
        let setup = &stop.setup;
        let cases = asked.into_iter().chain(
            standings
                .into_iter()
                .map(|standing| (tour.clone(), standing, setup.compare)),
        );
        for (tour, standing, compare) in cases {
            let standing = &standing;
            for (help, everything) in [(false, false), (true, false), (false, true), (true, true)] {
                let knobs = Knobs {
                    present: looplab::session::present::PresentMode::for_vsync(setup.vsync),
                    update_cost: setup.update_cost,
                    render_cost: setup.render_cost,
                    compare,
                    help,
                    everything,
                    ..Knobs::default()
                };
                let screen = Screen {
                    knobs: &knobs,
                    strategy: setup.strategy,
                    settings: setup.settings(),
                    tour: tour.panel(standing),
                };
                for size in SIZES {
                    let texts = texts_of(&screen, size, false);
                    assert!(
                        texts.iter().any(|t| t.text.contains(stop.title)),
                        "{}: the panel heads with the stop",
                        stop.id
                    );
                    // The rows the stop is about are on screen, the others only with A.
                    let rows = screen.tour.as_ref().map_or(&[][..], |p| p.rows);
                    for row in rows {
                        assert!(
                            texts.iter().any(|t| t.text == *row),
                            "{}: its row {row:?}",
                            stop.id
                        );
                    }
                    let rows_shown = texts.iter().filter(|t| t.text == "frame deltas").count();
                    let expected = usize::from(
                        (everything && compare.is_none()) || rows.contains(&"frame deltas"),
                    );
                    assert_eq!(rows_shown, expected, "{}: everything {everything}", stop.id);
                    // No words point at rows that are not there.
                    let rows_below = texts.iter().any(|t| t.text == "FPS / UPS");
                    let pointing = texts.iter().find(|t| t.text.contains("below"));
                    assert!(
                        rows_below || pointing.is_none(),
                        "{}: {pointing:?} with no rows below",
                        stop.id
                    );
                    all.extend(faults(&texts).into_iter().map(|f| {
                        format!(
                            "{} ({standing:?}, help {help}, everything {everything}) at {size:?}: {f}",
                            stop.id
                        )
                    }));
                }
            }
        }
    }
    assert!(all.is_empty(), "{}", all.join("\n"));
}

#[test]
fn a_caption_pushed_out_of_its_region_is_caught() {
    // The check itself: a text wider than its region, and two texts on top of each other.
    use glam::Vec2;
    use looplab::world::layout::Region;
    let region = Region::new(0.0, 0.0, 100.0, 20.0);
    let text = |x: f32, w: f32| PlacedText {
        text: format!("at {x}"),
        rect: Region {
            min: Vec2::new(x, 2.0),
            max: Vec2::new(x + w, 16.0),
        },
        within: region,
    };
    assert!(faults(&[text(5.0, 40.0), text(50.0, 40.0)]).is_empty());
    assert_eq!(faults(&[text(5.0, 120.0)]).len(), 1, "leaves its region");
    assert_eq!(
        faults(&[text(5.0, 40.0), text(30.0, 40.0)]).len(),
        1,
        "overlap"
    );
}
