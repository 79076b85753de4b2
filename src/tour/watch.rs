//! What the tour watches: conditions on the figures Looplab measures every frame, each
//! saying, when it holds, the figure that showed it.

use std::time::Duration;

use crate::metrics::animation::AnimationErrorFigures;

/// A frame's figures, as the window's captions and the lanes show them. The window reads
/// them from its session and compare mode; the headless walk from the modelled machine.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// Real time since the stop began, seconds.
    pub seconds: f64,
    /// How far the game clock is behind the wall-clock marker, ms (negative: ahead).
    pub game_behind_ms: f64,
    /// Game time over real time since the stop began.
    pub game_per_real: f64,
    /// Share of the darts that went through the thin wall, of those that reached it.
    pub tunnel_share: f64,
    /// Darts that reached the wall since the stop began.
    pub darts: u64,
    /// Pictures in the last second that showed two or more new updates (the first lane's
    /// in compare mode).
    pub doubles_per_second: usize,
    /// Compare mode: every other lane's state the same as the first's at every common
    /// checkpoint, and up to what game time (s); `None` in the single view or before one.
    pub lanes_in_step_to: Option<f64>,
    /// Compare mode: a lane's state differed from the first's, at this game time (s).
    pub lanes_diverged_at: Option<f64>,
    /// The most updates one frame ran since the stop began.
    pub most_updates: u32,
    /// Share of the pictures in the last second that showed the same game time as the one
    /// before: the motion stood still.
    pub still_share: f64,
    /// The animation error of the last second's pictures ([`crate::metrics::animation`]),
    /// each taken as shown when it was presented.
    pub animation_error: AnimationErrorFigures,
    /// Pictures a second.
    pub fps: usize,
    /// Share of the last second the loop slept of its own accord (the grey of the timeline):
    /// time it gave back to the machine. A wait for the display is not the loop's and is
    /// not counted, nor is the CPU time of a software GPU's threads.
    pub asleep_share: f64,
    /// Share of the last second's pictures whose frame began after such a sleep.
    pub napped_share: f64,
    /// How many fifths of the step the last second's interpolated pictures were drawn in
    /// (LWJGL's alpha, the accumulator over the step), and the least and most alpha.
    pub alpha_fifths: usize,
    pub alpha_range: Option<(f32, f32)>,
    /// The most the last second's pictures drew the metronome away from where it truly
    /// was at the game time they show, and a ball past a wall of its box, px.
    pub metronome_error_px: f64,
    pub overshoot_px: f64,
    /// The most any picture drew a ball past a wall of its box since the stop began, px.
    pub most_overshoot_px: f64,
    /// Game time over real time across the last second's pictures.
    pub recent_game_per_real: f64,
    /// Taps of the arrows since the stop began, those some update saw, and those no update
    /// saw (the rest are still to be seen).
    pub taps_made: u64,
    pub taps_reached: u64,
    pub taps_lost: u64,
    /// Compare mode: each lane's median delay from a change of steering to the picture that
    /// shows it, ms (`None` for a lane that has shown none yet).
    pub lane_delays_ms: Vec<Option<f64>>,
    /// How the stop's frames measured against what its claim needs of the machine (see
    /// [`Need`](super::Need)); `None` for a claim that needs nothing of its speed.
    pub machine: Option<MachineVerdict>,
}

/// Whether a stop's frames showed the machine too slow for its claim, and in what figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MachineVerdict {
    pub too_slow: bool,
    /// `294 of 470 frames took longer than 16.7 ms to draw ...`, or `... were drawn within
    /// 16.7 ms, fast enough`.
    pub said: String,
    /// The frames it was reached on, for anyone to check it against a frame log.
    pub judged: FramesJudged,
}

/// The frames a [`MachineVerdict`] counted: those shown from `first` to `last` (on the
/// clock the frames are planned on), each against the need of `within`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FramesJudged {
    pub first: Duration,
    pub last: Duration,
    pub within: Duration,
    pub frames: u32,
    /// Frames that took longer than `within`.
    pub over: u32,
}

/// A condition on [`Figures`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Watch {
    /// The game runs ahead of the wall clock by at least this much, ms.
    GameAhead { at_least_ms: f64 },
    /// The game falls behind the wall clock by at least this much, ms.
    GameBehind { at_least_ms: f64 },
    /// The game keeps to the wall clock within this much, ms, for this many seconds.
    InStep { within_ms: f64, for_seconds: f64 },
    /// At least this share of the darts went through the wall.
    Tunnels { at_least: f64 },
    /// A lane's state differed from the first lane's.
    LanesDiverge,
    /// Every lane's state was the first's at every checkpoint up to this game time, s.
    LanesInStep { to_seconds: f64 },
    /// At least this many pictures a second showed two updates at once.
    Doubles { at_least: usize },
    /// For a whole second, the pictures' animation error at most this on average, ms.
    Smooth { error_at_most_ms: f64 },
    /// After two seconds, at least this share of a second's frames began after the loop
    /// slept out what was left of its step, rather than going straight on.
    Naps { before_at_least: f64 },
    /// A whole second of pictures at this rate, give or take one, and the game in step
    /// with the wall clock within `within_ms`: something other than the loop sets the pace.
    PacedAt { fps: usize, within_ms: f64 },
    /// The game runs slower than real time (game/real below this) while frames keep
    /// coming, and no frame runs more than `most_updates`.
    SlowsInsteadOfSpiralling { below: f64, most_updates: u32 },
    /// The pictures of one second were drawn at alphas in at least this many fifths of
    /// the step: the present falls anywhere between two updates.
    AlphaSweeps { fifths: usize },
    /// A picture drew a ball at least this far past a wall of its box: a guess ahead
    /// that the next update took back.
    Overshoots { at_least_px: f64 },
    /// For a whole second, every picture drew the metronome within this much of where it
    /// truly was at the game time it shows.
    OnTime { within_px: f64 },
    /// At least this many taps of the arrows never reached the game.
    TapsLost { at_least: u64 },
    /// Compare mode's lanes behind FIFO with 1, 2 and 3 frames in flight, then 2 just in
    /// time: each frame queued shows the steering at least `per_frame_ms` later, and just
    /// in time at least that much sooner than plain FIFO with 2.
    QueueDelays { per_frame_ms: f64 },
    /// After this many seconds, the last second's game time within `within` of its real
    /// time: the game keeps to real time (wherever it stands against the wall clock).
    KeepsRealTime { after_seconds: f64, within: f64 },
    /// At least this many darts reached the wall, and none went through.
    WallHolds { darts_at_least: u64 },
    /// For a whole second, the pictures' animation error at least this on average, ms.
    Stutters { error_at_least_ms: f64 },
    /// For this many seconds, no picture drew a ball past a wall of its box.
    StaysInside { for_seconds: f64 },
    /// For a whole second after two, no frame began after a sleep of the loop's own.
    NoNaps,
    /// The frames all but stop: after two seconds, fewer than this many a second.
    FramesStop { below_fps: usize },
    /// At least this many taps of the arrows, and every one reached the game.
    NoTapLost { taps_at_least: u64 },
    /// For a whole second, pictures drew the metronome at least this far from where it
    /// truly was.
    Trails { at_least_px: f64 },
}

impl Watch {
    /// The figure that shows the condition holds in `f`, if it does. A condition on one
    /// figure is read here; one that weighs several has a function of its own.
    pub fn seen(&self, f: &Figures) -> Option<String> {
        match *self {
            Watch::GameAhead { at_least_ms } => (-f.game_behind_ms >= at_least_ms).then(|| {
                format!(
                    "the game is {} ahead of the wall clock",
                    seconds(-f.game_behind_ms)
                )
            }),
            Watch::GameBehind { at_least_ms } => (f.game_behind_ms >= at_least_ms).then(|| {
                format!(
                    "the game is {} behind the wall clock",
                    seconds(f.game_behind_ms)
                )
            }),
            Watch::InStep {
                within_ms,
                for_seconds,
            } => in_step_seen(f, within_ms, for_seconds),
            Watch::Tunnels { at_least } => tunnels_seen(f, at_least),
            Watch::LanesDiverge => f
                .lanes_diverged_at
                .map(|at| format!("the lanes' worlds differed by game time {at:.1} s")),
            Watch::LanesInStep { to_seconds } => f
                .lanes_in_step_to
                .filter(|&to| to >= to_seconds)
                .map(|to| format!("the lanes' worlds are identical to game time {to:.1} s")),
            Watch::Doubles { at_least } => (f.doubles_per_second >= at_least).then(|| {
                format!(
                    "{} pictures a second show two updates at once",
                    f.doubles_per_second
                )
            }),
            Watch::Smooth { error_at_most_ms } => smooth_seen(f, error_at_most_ms),
            Watch::Naps { before_at_least } => naps_seen(f, before_at_least),
            Watch::PacedAt { fps, within_ms } => paced_at_seen(f, fps, within_ms),
            Watch::SlowsInsteadOfSpiralling {
                below,
                most_updates,
            } => slows_seen(f, below, most_updates),
            Watch::AlphaSweeps { fifths } => alpha_sweeps_seen(f, fifths),
            Watch::Overshoots { at_least_px } => (f.overshoot_px >= at_least_px).then(|| {
                format!(
                    "a ball drawn {:.0} px through the wall of its box, then taken back",
                    f.overshoot_px
                )
            }),
            Watch::OnTime { within_px } => on_time_seen(f, within_px),
            Watch::TapsLost { at_least } => (f.taps_lost >= at_least).then(|| {
                format!(
                    "{} of {} taps never reached the game",
                    f.taps_lost, f.taps_made
                )
            }),
            Watch::QueueDelays { per_frame_ms } => queue_delays_seen(f, per_frame_ms),
            Watch::KeepsRealTime {
                after_seconds,
                within,
            } => keeps_real_time_seen(f, after_seconds, within),
            Watch::WallHolds { darts_at_least } => wall_holds_seen(f, darts_at_least),
            Watch::Stutters { error_at_least_ms } => stutters_seen(f, error_at_least_ms),
            Watch::StaysInside { for_seconds } => stays_inside_seen(f, for_seconds),
            Watch::NoNaps => no_naps_seen(f),
            Watch::FramesStop { below_fps } => frames_stop_seen(f, below_fps),
            Watch::NoTapLost { taps_at_least } => no_tap_lost_seen(f, taps_at_least),
            Watch::Trails { at_least_px } => trails_seen(f, at_least_px),
        }
    }

    /// What the condition expects, in words.
    pub fn expected(&self) -> String {
        match *self {
            Watch::GameAhead { at_least_ms } => {
                format!("the game {} ahead of the wall clock", seconds(at_least_ms))
            }
            Watch::GameBehind { at_least_ms } => {
                format!("the game {} behind the wall clock", seconds(at_least_ms))
            }
            Watch::InStep {
                within_ms,
                for_seconds,
            } => format!(
                "the game within {within_ms:.0} ms of the wall clock after {for_seconds:.0} s"
            ),
            Watch::Tunnels { at_least } => {
                format!("{:.0}% of the darts through the wall", at_least * 100.0)
            }
            Watch::LanesDiverge => "the lanes' worlds to differ".into(),
            Watch::LanesInStep { to_seconds } => {
                format!("the lanes' worlds identical to game time {to_seconds:.0} s")
            }
            Watch::Doubles { at_least: n } => format!("{n} pictures a second showing two updates"),
            Watch::Smooth { error_at_most_ms } => format!(
                "a second of pictures whose time moves on with the display's, within {error_at_most_ms:.0} ms on average (animation error)"
            ),
            Watch::Naps { before_at_least } => format!(
                "the loop asleep before at least {:.0}% of its frames",
                before_at_least * 100.0
            ),
            Watch::PacedAt { fps, .. } => format!("{fps} pictures a second, the game in step"),
            Watch::SlowsInsteadOfSpiralling {
                below,
                most_updates,
            } => format!(
                "the game below {:.0}% of real time with frames still coming, at most {most_updates} updates a frame",
                below * 100.0
            ),
            Watch::AlphaSweeps { fifths } => {
                format!("pictures drawn in {fifths} fifths of the step between updates")
            }
            Watch::Overshoots { at_least_px } => {
                format!("a ball drawn {at_least_px:.0} px through a wall")
            }
            Watch::OnTime { within_px } => format!(
                "a second of pictures with the metronome within {within_px:.1} px of the truth"
            ),
            Watch::TapsLost { at_least } => format!("{at_least} taps lost between updates"),
            Watch::QueueDelays { per_frame_ms } => format!(
                "each frame in flight {per_frame_ms:.0} ms later, and just in time as much sooner"
            ),
            Watch::KeepsRealTime {
                after_seconds,
                within,
            } => format!(
                "after {after_seconds:.0} s, the game within {:.0}% of real time over a second",
                within * 100.0
            ),
            Watch::WallHolds { darts_at_least } => {
                format!("{darts_at_least} darts at the wall and none through it")
            }
            Watch::Stutters { error_at_least_ms } => format!(
                "a second of pictures whose time jumps and stops, off by {error_at_least_ms:.0} ms on average (animation error)"
            ),
            Watch::StaysInside { for_seconds } => {
                format!("{for_seconds:.0} s with no ball drawn through a wall")
            }
            Watch::NoNaps => "a second of frames with no nap before them".into(),
            Watch::FramesStop { below_fps: n } => format!("fewer than {n} pictures a second"),
            Watch::NoTapLost { taps_at_least } => {
                format!("{taps_at_least} taps, every one reaching the game")
            }
            Watch::Trails { at_least_px } => {
                format!("the metronome drawn {at_least_px:.0} px behind where it truly is")
            }
        }
    }
}

/// A second's game time against real time, `within` of 1 after `after_seconds`.
fn keeps_real_time_seen(f: &Figures, after_seconds: f64, within: f64) -> Option<String> {
    (f.seconds >= after_seconds && f.fps > 0 && (f.recent_game_per_real - 1.0).abs() <= within)
        .then(|| {
            format!(
                "{:.0} s in, the game keeps to real time: {:.2}x over the last second",
                f.seconds, f.recent_game_per_real
            )
        })
}

fn wall_holds_seen(f: &Figures, darts_at_least: u64) -> Option<String> {
    (f.darts >= darts_at_least && f.tunnel_share == 0.0)
        .then(|| format!("{} darts reached the wall and none went through", f.darts))
}

fn stutters_seen(f: &Figures, error_at_least_ms: f64) -> Option<String> {
    (f.seconds >= 1.5
        && f.animation_error.frames > 0
        && f.animation_error.mean_abs_ms >= error_at_least_ms)
        .then(|| animation_error_said(f))
}

fn stays_inside_seen(f: &Figures, for_seconds: f64) -> Option<String> {
    (f.seconds >= for_seconds && f.fps > 0 && f.most_overshoot_px < 1.0)
        .then(|| format!("{:.0} s and no ball drawn through a wall", f.seconds))
}

fn no_naps_seen(f: &Figures) -> Option<String> {
    (f.seconds >= 2.0 && f.fps > 0 && f.napped_share == 0.0).then(|| {
        format!(
            "{} frames a second, none after a nap: the loop never rests",
            f.fps
        )
    })
}

fn frames_stop_seen(f: &Figures, below_fps: usize) -> Option<String> {
    (f.seconds >= 2.0 && f.fps < below_fps).then(|| {
        format!(
            "{} pictures in the last second, up to {} updates in one frame",
            f.fps, f.most_updates
        )
    })
}

fn no_tap_lost_seen(f: &Figures, taps_at_least: u64) -> Option<String> {
    (f.taps_made >= taps_at_least && f.taps_reached == f.taps_made)
        .then(|| format!("all {} taps reached the game", f.taps_made))
}

fn trails_seen(f: &Figures, at_least_px: f64) -> Option<String> {
    (f.seconds >= 1.5 && f.fps > 0 && f.metronome_error_px >= at_least_px).then(|| {
        format!(
            "the metronome drawn up to {:.0} px behind where it truly is",
            f.metronome_error_px
        )
    })
}

/// Compare mode's four lanes (1, 2, 3 in flight, then 2 just in time), each with a measured
/// delay: each frame in flight later by `per_frame_ms`, just in time sooner by as much.
fn queue_delays_seen(f: &Figures, per_frame_ms: f64) -> Option<String> {
    let [one, two, three, jit] = f.lane_delays_ms[..] else {
        return None;
    };
    let (one, two, three, jit) = (one?, two?, three?, jit?);
    let queued = two - one >= per_frame_ms && three - two >= per_frame_ms;
    (queued && two - jit >= per_frame_ms).then(|| {
        format!(
            "a key showed after {one:.0}, {two:.0} and {three:.0} ms with 1, 2 and 3 in flight, {jit:.0} ms just in time"
        )
    })
}

/// Darts that must reach the wall before a share of them says anything.
const MIN_DARTS: u64 = 10;

/// [`Watch::InStep`]: only once the stop has run `for_seconds`, so a game that starts in
/// step and then drifts is not taken for one that keeps to the wall clock.
fn in_step_seen(f: &Figures, within_ms: f64, for_seconds: f64) -> Option<String> {
    (f.seconds >= for_seconds && f.game_behind_ms.abs() <= within_ms).then(|| {
        format!(
            "{:.0} s in and the game is within {:.0} ms of the wall clock",
            f.seconds,
            f.game_behind_ms.abs().max(1.0)
        )
    })
}

/// [`Watch::Tunnels`]: only once [`MIN_DARTS`] have reached the wall, so one early dart
/// through it is not a share.
fn tunnels_seen(f: &Figures, at_least: f64) -> Option<String> {
    (f.darts >= MIN_DARTS && f.tunnel_share >= at_least).then(|| {
        format!(
            "{:.0}% of {} darts went through the wall",
            f.tunnel_share * 100.0,
            f.darts
        )
    })
}

/// [`Watch::Smooth`]: only after a whole second of pictures, and with pictures at all,
/// since no pictures is not smooth motion.
fn smooth_seen(f: &Figures, error_at_most_ms: f64) -> Option<String> {
    (f.seconds >= 1.5
        && f.animation_error.frames > 0
        && f.animation_error.mean_abs_ms <= error_at_most_ms)
        .then(|| animation_error_said(f))
}

/// The last second's animation error in words, with the share of pictures standing still.
fn animation_error_said(f: &Figures) -> String {
    let a = &f.animation_error;
    format!(
        "{} pictures a second, their animation error {:.1} ms on average, {:.0}% off by more than 2 ms; {:.0}% stand still",
        f.fps,
        a.mean_abs_ms,
        a.over_2ms_share * 100.0,
        f.still_share * 100.0
    )
}

/// [`Watch::Naps`]: only after two seconds, so the frames counted are the loop's steady
/// pace rather than its start.
fn naps_seen(f: &Figures, before_at_least: f64) -> Option<String> {
    (f.seconds >= 2.0 && f.fps > 0 && f.napped_share >= before_at_least).then(|| {
        format!(
            "the loop slept before {:.0}% of {} frames: {:.0}% of the time given back",
            f.napped_share * 100.0,
            f.fps,
            f.asleep_share * 100.0
        )
    })
}

/// [`Watch::PacedAt`]: a whole second at the rate with the game in step, which together
/// say the pace comes from outside the loop.
fn paced_at_seen(f: &Figures, fps: usize, within_ms: f64) -> Option<String> {
    (f.seconds >= 1.5 && f.fps.abs_diff(fps) <= 1 && f.game_behind_ms.abs() <= within_ms).then(
        || {
            format!(
                "{} pictures a second with no wait of the loop's own, the game in step",
                f.fps
            )
        },
    )
}

/// [`Watch::SlowsInsteadOfSpiralling`]: the game slower than real time is only graceful
/// while frames keep coming and no frame runs more updates than the limit.
fn slows_seen(f: &Figures, below: f64, most_updates: u32) -> Option<String> {
    (f.seconds >= 2.0
        && f.game_per_real < below
        && f.fps > 0
        && f.most_updates <= most_updates)
        .then(|| {
            format!(
                "over the stop's {:.0} s the game ran at {:.0}% of real time, {} frames a second, never over {} updates a frame",
                f.seconds,
                f.game_per_real * 100.0,
                f.fps,
                most_updates
            )
        })
}

/// [`Watch::AlphaSweeps`]: said with the least and most alpha drawn, which show how far
/// between two updates the pictures fell.
fn alpha_sweeps_seen(f: &Figures, fifths: usize) -> Option<String> {
    (f.seconds >= 1.5 && f.alpha_fifths >= fifths)
        .then_some(f.alpha_range)
        .flatten()
        .map(|(lo, hi)| {
            format!(
                "{} pictures a second, drawn from {lo:.2} to {hi:.2} of the way to the next update",
                f.fps
            )
        })
}

/// [`Watch::OnTime`]: only after a whole second of pictures, since no pictures drawn is
/// not a metronome drawn where it truly is.
fn on_time_seen(f: &Figures, within_px: f64) -> Option<String> {
    (f.seconds >= 1.5 && f.fps > 0 && f.metronome_error_px <= within_px).then(|| {
        format!(
            "{} pictures a second, the metronome never more than {:.1} px from where it truly is",
            f.fps, f.metronome_error_px
        )
    })
}

/// Milliseconds as a person reads them: `350 ms`, `1.4 s`.
fn seconds(ms: f64) -> String {
    if ms.abs() < 1000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_queue_is_seen_only_in_four_lanes_a_refresh_apart_with_just_in_time_sooner() {
        let watch = Watch::QueueDelays { per_frame_ms: 12.0 };
        let lanes = |d: [Option<f64>; 4]| Figures {
            lane_delays_ms: d.to_vec(),
            ..Figures::default()
        };
        assert_eq!(
            watch
                .seen(&lanes([Some(36.0), Some(53.0), Some(70.0), Some(20.0)]))
                .as_deref(),
            Some(
                "a key showed after 36, 53 and 70 ms with 1, 2 and 3 in flight, 20 ms just in time"
            )
        );
        // The queue did not fill (a frame cap), just in time gained nothing, a lane has no
        // delay yet, or there are no lanes.
        assert_eq!(
            watch.seen(&lanes([Some(40.0), Some(40.0), Some(40.0), Some(23.0)])),
            None
        );
        assert_eq!(
            watch.seen(&lanes([Some(36.0), Some(53.0), Some(70.0), Some(50.0)])),
            None
        );
        assert_eq!(
            watch.seen(&lanes([Some(36.0), Some(53.0), None, Some(20.0)])),
            None
        );
        assert_eq!(watch.seen(&Figures::default()), None);
    }

    #[test]
    fn a_watch_says_the_figure_that_showed_it() {
        let behind = Figures {
            game_behind_ms: 1400.0,
            ..Figures::default()
        };
        let watch = Watch::GameBehind {
            at_least_ms: 1000.0,
        };
        assert_eq!(
            watch.seen(&behind).as_deref(),
            Some("the game is 1.4 s behind the wall clock")
        );
        assert_eq!(watch.seen(&Figures::default()), None);
        assert_eq!(watch.expected(), "the game 1.0 s behind the wall clock");
        let ahead = Watch::GameAhead { at_least_ms: 500.0 };
        assert_eq!(ahead.seen(&behind), None, "behind is not ahead");
        let in_step = Watch::InStep {
            within_ms: 20.0,
            for_seconds: 3.0,
        };
        let steady = Figures {
            seconds: 3.5,
            game_behind_ms: -4.0,
            ..Figures::default()
        };
        assert!(in_step.seen(&steady).is_some());
        assert_eq!(
            in_step.seen(&Figures {
                seconds: 1.0,
                ..steady.clone()
            }),
            None
        );
    }
}
