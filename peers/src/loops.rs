//! Each loop behind one small trait: told when a frame begins, it says how many fixed
//! updates to run, what fraction of a step the picture lies past the newest state, and how
//! much time it let go. The crates are driven through their own code on a virtual clock
//! (`looplab-timing`, `game-loop`, `bevy_time`, `renew-frame`); loops that read the real clock inside
//! (ggez, macroquad, fixedstep) are ports of their documented algorithms, marked as such.

use std::cell::Cell;
use std::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::prelude::{ResMut, Resource};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy, Virtual};
use game_loop::{GameLoop, TimeTrait};
use looplab_timing::{LoopSettings, Planner, Strategy};

/// What a loop decided for one frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Decision {
    pub updates: u32,
    /// The picture's place past the newest state, in steps (interpolation's alpha); `None`
    /// for a loop that draws the newest state as it is.
    pub alpha: Option<f64>,
    /// Game time owed once the updates have run, in steps: where the game clock is past the
    /// newest state.
    pub owed: f64,
    /// Real time the loop let go this frame (a clamp, a step budget, frame skipping).
    pub dropped: Duration,
}

/// A fixed-step loop driven frame by frame.
pub trait FixedLoop {
    /// A frame begins at `now` (from the run's start; the first call is at zero).
    fn frame(&mut self, now: Duration) -> Decision;
}

/// How a game reads a tap with this loop, as its documentation shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum InputWay {
    /// Each tap reaches exactly one update (an accumulator, or events kept until a fixed
    /// run reads them).
    ExactlyOnce,
    /// "Pressed this frame", read by every update the frame runs: lost in a frame of none,
    /// seen twice in a frame of two.
    PerFrame,
}

/// A loop to compare: what it is, where it comes from, and how to make one at a step.
pub struct Peer {
    pub name: &'static str,
    /// The crate and version driven, or what was ported.
    pub source: &'static str,
    /// A port of a documented algorithm, not the crate's own code.
    pub port: bool,
    pub input: InputWay,
    /// What its documentation says a game should do with input.
    pub input_doc: &'static str,
    /// Its update rate: 60 Hz for all but bevy's own default.
    pub hz: f64,
    pub make: fn() -> Box<dyn FixedLoop>,
}

/// The update rate every loop runs at, so that all do the same work (bevy_time also runs
/// once at its own default, 64 Hz).
pub const HZ: u32 = 60;

/// Every loop compared, `looplab-timing` first.
pub fn all() -> &'static [Peer] {
    &PEERS
}

/// The loops as a table.
static PEERS: [Peer; 9] = [
    Peer {
        name: "looplab-timing",
        source: "looplab-timing 0.1.0 (this workspace), defaults",
        port: false,
        input: InputWay::ExactlyOnce,
        input_doc: "the input accumulator: every tap reaches exactly one update",
        hz: HZ as f64,
        make: || Box::new(LooplabTiming::new()),
    },
    Peer {
        name: "looplab-timing catch-up",
        source: "looplab-timing 0.1.0, Strategy::CatchUp: the newest state drawn (shown, not ranked)",
        port: false,
        input: InputWay::ExactlyOnce,
        input_doc: "as above",
        hz: HZ as f64,
        make: || Box::new(LooplabTiming::with(Strategy::CatchUp)),
    },
    Peer {
        name: "game-loop",
        source: "game-loop 1.3.0, max_frame_time 0.25 s",
        port: false,
        input: InputWay::PerFrame,
        input_doc: "says nothing; its window helpers hand each event to a handler, which stores it in the game for update to read",
        hz: HZ as f64,
        make: || Box::new(GameLoopCrate::new()),
    },
    Peer {
        name: "bevy_time",
        source: "bevy_time 0.20.1 Time<Fixed> at 60 Hz in an App with TimePlugin",
        port: false,
        input: InputWay::ExactlyOnce,
        input_doc: "its fixed-timestep example accumulates input each frame and clears it after a fixed run",
        hz: HZ as f64,
        make: || Box::new(BevyTime::new(f64::from(HZ))),
    },
    Peer {
        name: "bevy_time 64 Hz",
        source: "bevy_time 0.20.1 Time<Fixed> at its default 64 Hz",
        port: false,
        input: InputWay::ExactlyOnce,
        input_doc: "as above",
        hz: 64.0,
        make: || Box::new(BevyTime::new(64.0)),
    },
    Peer {
        name: "renew-frame",
        source: "renew-frame 0.1.1 FrameLoop, StepBudget::DEFAULT (5)",
        port: false,
        input: InputWay::PerFrame,
        input_doc: "says nothing; each Step carries its tick, dt and simulation time, not input",
        hz: HZ as f64,
        make: || Box::new(RenewFrame::new()),
    },
    Peer {
        name: "ggez (port)",
        source: "port of ggez 0.10.0 check_update_time",
        port: true,
        input: InputWay::PerFrame,
        input_doc: "key state per frame (is_key_just_pressed), read in update",
        hz: HZ as f64,
        make: || Box::new(GgezPort::default()),
    },
    Peer {
        name: "macroquad (port)",
        source: "port of macroquad 0.4.16 experimental::scene fixed_update",
        port: true,
        input: InputWay::PerFrame,
        input_doc: "is_key_pressed per frame, read in fixed_update",
        hz: HZ as f64,
        make: || Box::new(MacroquadPort::default()),
    },
    Peer {
        name: "fixedstep (port)",
        source: "port of fixedstep 0.3.0 (limit 3, render_delta)",
        port: true,
        input: InputWay::PerFrame,
        input_doc: "says nothing",
        hz: HZ as f64,
        make: || Box::new(FixedstepPort::default()),
    },
];

/// `looplab-timing`'s planner at its defaults (interpolated, ten updates a frame at most, a
/// 250 ms stall clamp, deltas read with timer sync).
pub struct LooplabTiming(Planner);

impl LooplabTiming {
    pub fn new() -> Self {
        Self::with(Strategy::Interpolated)
    }

    /// Another of its strategies, at the same settings.
    pub fn with(strategy: Strategy) -> Self {
        let settings = LoopSettings::default()
            .with_update_rate(looplab_timing::Rate::hz(f64::from(HZ)).expect("60 Hz"));
        Self(Planner::new(strategy, settings))
    }
}

impl Default for LooplabTiming {
    fn default() -> Self {
        Self::new()
    }
}

impl FixedLoop for LooplabTiming {
    fn frame(&mut self, now: Duration) -> Decision {
        let plan = self.0.plan_frame(now);
        let step = self.0.settings().step().as_secs_f64();
        Decision {
            updates: plan.updates,
            alpha: match plan.view {
                looplab_timing::View::Interpolate { alpha } => Some(f64::from(alpha)),
                _ => None,
            },
            owed: self.0.overstep().as_secs_f64() / step,
            dropped: plan.clamped + plan.skipped,
        }
    }
}

thread_local! {
    /// The virtual clock game-loop reads: its `TimeTrait::now` takes no `self`.
    static VIRTUAL_NOW: Cell<u64> = const { Cell::new(0) };
}

/// An instant of the virtual clock, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct VirtualInstant(u64);

impl TimeTrait for VirtualInstant {
    fn now() -> Self {
        Self(VIRTUAL_NOW.with(Cell::get))
    }
    fn sub(&self, other: &Self) -> f64 {
        // Subtracted in whole nanoseconds before the conversion, as a real Instant is.
        self.0.saturating_sub(other.0) as f64 / 1e9
    }
    fn supports_sleep() -> bool {
        false
    }
    fn sleep(_seconds: f64) {}
}

/// game-loop's own `GameLoop`, on the virtual clock.
pub struct GameLoopCrate {
    game: GameLoop<(), VirtualInstant, ()>,
    last: Duration,
}

impl GameLoopCrate {
    pub fn new() -> Self {
        VIRTUAL_NOW.with(|n| n.set(0));
        Self {
            game: GameLoop::new((), HZ, 0.25, ()),
            last: Duration::ZERO,
        }
    }
}

impl Default for GameLoopCrate {
    fn default() -> Self {
        Self::new()
    }
}

impl FixedLoop for GameLoopCrate {
    fn frame(&mut self, now: Duration) -> Decision {
        VIRTUAL_NOW.with(|n| n.set(u64::try_from(now.as_nanos()).unwrap_or(u64::MAX)));
        let before = self.game.number_of_updates();
        self.game.next_frame(|_| {}, |_| {});
        let measured = now.saturating_sub(self.last);
        self.last = now;
        // What it counted of the frame (its clamp's doing), in f64 seconds: a difference
        // under a microsecond is the conversion's, not a drop.
        let counted = Duration::from_secs_f64(self.game.last_frame_time().max(0.0));
        let dropped = measured.saturating_sub(counted);
        Decision {
            updates: (self.game.number_of_updates() - before) as u32,
            alpha: Some(self.game.blending_factor()),
            owed: self.game.accumulated_time() / self.game.fixed_time_step(),
            dropped: if dropped < Duration::from_micros(1) {
                Duration::ZERO
            } else {
                dropped
            },
        }
    }
}

/// renew-frame's own `FrameLoop` at 60 Hz and its default step budget, handed each frame's
/// instant in integer nanoseconds. It has no elapsed-time clamp: the budget alone bounds a
/// frame, and whole steps past it are thrown away, the remainder kept.
pub struct RenewFrame(renew_frame::FrameLoop);

impl RenewFrame {
    pub fn new() -> Self {
        use renew_frame::{FrameLoop, StepBudget, Timestamp, Timestep};
        Self(FrameLoop::new(
            Timestep::HZ_60,
            StepBudget::DEFAULT,
            Timestamp::from_nanos(0),
        ))
    }
}

impl Default for RenewFrame {
    fn default() -> Self {
        Self::new()
    }
}

impl FixedLoop for RenewFrame {
    fn frame(&mut self, now: Duration) -> Decision {
        let now = u64::try_from(now.as_nanos()).unwrap_or(u64::MAX);
        let plan = self.0.begin_frame(renew_frame::Timestamp::from_nanos(now));
        let step = plan.timestep().nanos().get();
        // Its alpha lives in a sibling crate (renew-math) as remainder over timestep; the
        // same division here.
        let alpha = plan.remainder().get() as f64 / step as f64;
        Decision {
            updates: plan.step_count(),
            alpha: Some(alpha),
            owed: alpha,
            dropped: Duration::from_nanos(plan.dropped().saturating_mul(step)),
        }
    }
}

/// Counts the fixed updates bevy's schedule runs.
#[derive(Resource, Default)]
struct FixedRuns(u64);

fn count_fixed_run(mut runs: ResMut<FixedRuns>) {
    runs.0 += 1;
}

/// bevy_time's `Time<Fixed>` in an App of `TimePlugin` alone, each frame's real time handed
/// over with `TimeUpdateStrategy::ManualDuration`.
pub struct BevyTime {
    app: App,
    last: Duration,
}

impl BevyTime {
    pub fn new(hz: f64) -> Self {
        let mut app = App::new();
        app.add_plugins(TimePlugin)
            .insert_resource(Time::<Fixed>::from_hz(hz))
            .init_resource::<FixedRuns>()
            .add_systems(FixedUpdate, count_fixed_run);
        // bevy's first update only anchors its clock (a zero delta), as a loop's first
        // frame does: it is the run's start.
        app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO));
        app.update();
        Self {
            app,
            last: Duration::ZERO,
        }
    }
}

impl FixedLoop for BevyTime {
    fn frame(&mut self, now: Duration) -> Decision {
        let raw = now.saturating_sub(self.last);
        self.last = now;
        if now.is_zero() {
            return Decision {
                alpha: Some(0.0),
                ..Decision::default()
            };
        }
        let before = self.app.world().resource::<FixedRuns>().0;
        self.app
            .insert_resource(TimeUpdateStrategy::ManualDuration(raw));
        self.app.update();
        let world = self.app.world();
        let counted = world.resource::<Time<Virtual>>().delta();
        let fixed = world.resource::<Time<Fixed>>();
        Decision {
            updates: (world.resource::<FixedRuns>().0 - before) as u32,
            alpha: Some(fixed.overstep_fraction_f64()),
            owed: fixed.overstep().as_secs_f64() / fixed.timestep().as_secs_f64(),
            dropped: raw.saturating_sub(counted),
        }
    }
}

/// ggez's `check_update_time`, ported: the residual grows by each frame's time, and an
/// update runs while it is strictly more than a step. No clamp, no limit.
#[derive(Default)]
pub struct GgezPort {
    residual: Duration,
    last: Duration,
}

impl FixedLoop for GgezPort {
    fn frame(&mut self, now: Duration) -> Decision {
        let target = Duration::from_secs_f64(1.0 / f64::from(HZ));
        self.residual += now.saturating_sub(self.last);
        self.last = now;
        let mut updates = 0;
        while self.residual > target {
            self.residual -= target;
            updates += 1;
        }
        Decision {
            updates,
            // `remaining_update_time`, for interpolation: in (0, 1] steps.
            alpha: Some(self.residual.as_secs_f64() / target.as_secs_f64()),
            owed: self.residual.as_secs_f64() / target.as_secs_f64(),
            dropped: Duration::ZERO,
        }
    }
}

/// macroquad's scene loop, ported: the frame time in f64 seconds, snapped to 1/120, 1/60 or
/// 1/30 s when within 0.2 ms of one; fixed updates of 1/60 s while the accumulator is
/// strictly more than one; no alpha (the newest state is drawn), no limit.
#[derive(Default)]
pub struct MacroquadPort {
    acc: f64,
    last: f64,
}

impl FixedLoop for MacroquadPort {
    fn frame(&mut self, now: Duration) -> Decision {
        let now = now.as_secs_f64();
        let mut frame_time = now - self.last;
        self.last = now;
        for snap in [1.0 / 120.0, 1.0 / 60.0, 1.0 / 30.0] {
            if (frame_time - snap).abs() < 0.0002 {
                frame_time = snap;
                break;
            }
        }
        self.acc += frame_time;
        let step = 1.0 / 60.0;
        let mut updates = 0;
        while self.acc > step {
            self.acc -= step;
            updates += 1;
        }
        Decision {
            updates,
            alpha: None,
            owed: self.acc / step,
            dropped: Duration::ZERO,
        }
    }
}

/// fixedstep's `FixedStep`, ported: a step of 1/60 s truncated to whole nanoseconds; at most
/// `limit` (3) updates between two renders, and when one more is due the whole accumulator
/// is thrown away; `render_delta` is the accumulator over the step.
#[derive(Default)]
pub struct FixedstepPort {
    acc: Duration,
    last: Duration,
}

impl FixedLoop for FixedstepPort {
    fn frame(&mut self, now: Duration) -> Decision {
        const LIMIT: u32 = 3;
        let interval = Duration::new(0, (1e9 / f64::from(HZ)) as u32);
        self.acc += now.saturating_sub(self.last);
        self.last = now;
        let (mut updates, mut counter, mut dropped) = (0, 0, Duration::ZERO);
        while self.acc >= interval {
            counter += 1;
            if counter > LIMIT {
                dropped = std::mem::take(&mut self.acc);
                break;
            }
            self.acc -= interval;
            updates += 1;
        }
        Decision {
            updates,
            alpha: Some(self.acc.as_secs_f64() / interval.as_secs_f64()),
            owed: self.acc.as_secs_f64() / interval.as_secs_f64(),
            dropped,
        }
    }
}
