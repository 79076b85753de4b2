//! A game-loop core with no platform in it: the classic loop strategies as a planner that
//! turns the time a frame starts into what the frame should do.
//!
//! # Quick start
//!
//! A complete loop: 60 updates a second, drawn between the last two states at a 60 FPS cap.
//! [`GameLoop`] makes each frame one call: it reads its clock, plans the frame and runs each
//! update with the input of the game time it simulates. On [`SystemClock`] it runs a game;
//! on a [`ManualClock`], as here, a test, where waiting for the wake time moves the clock
//! instead of sleeping:
//!
//! ```
//! use core::time::Duration;
//! use looplab_timing::{Clock, GameLoop, Interpolated, LoopSettings, ManualClock, Rate, Strategy};
//!
//! /// Runs the loop for `how_long`; returns where the thing was drawn each frame.
//! fn run(clock: impl Clock, how_long: Duration) -> Vec<f32> {
//!     let settings = LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ));
//!     let mut game: GameLoop<_> = GameLoop::new(clock, Strategy::Interpolated, settings);
//!     let mut x = Interpolated::new(0.0_f32); // the world: one thing moving at 120 px/s
//!     let mut drawn = Vec::new();
//!     while game.now() < how_long {
//!         let plan = game.frame(|input| x.update(|x| x + 120.0 * input.step().as_secs_f32()));
//!         drawn.push(x.drawn(plan.view)); // draw it
//!         game.wait(&plan);
//!     }
//!     drawn
//! }
//!
//! // In a game: run(SystemClock::start(), ...). In a test, exactly:
//! let drawn = run(ManualClock::new(), Duration::from_secs(1));
//! assert_eq!(drawn.len(), 60); // sixty frames in a second
//! for pair in drawn[2..].windows(2) {
//!     assert!((pair[1] - pair[0] - 2.0).abs() < 0.01); // 2 px a frame, every frame
//! }
//! ```
//!
//! Input goes in as it arrives ([`GameLoop::press`]), and each update reads exactly what
//! happened during its own span of game time ([`UpdateInput`]): no tap lost between two
//! updates, no press counted by two.
//!
//! # The crate at a glance
//!
//! Every public item, by what it is for:
//!
//! | for | items |
//! |---|---|
//! | the loop, one call a frame | [`GameLoop`] |
//! | the loop, in parts | [`Planner`], [`FramePlan`], [`View`], [`Wake`] |
//! | its settings | [`LoopSettings`], [`Strategy`], [`Rate`], [`TimeScale`], [`DeltaMode`], [`TimingError`] |
//! | clocks | [`Clock`], [`SystemClock`], [`ManualClock`], `InstantClock` |
//! | input for fixed steps | [`InputAccumulator`], [`UpdateInput`], [`InputEvent`] |
//! | drawing between states | [`Interpolated`], [`Blend`], [`Blendable`], [`lerp`], [`extrapolate`], [`PredictFrom`] |
//! | the planner's parts | [`Accumulator`], [`GameClock`], [`FrameTime`], [`DeadlineGrid`], [`UpdateBudget`] |
//! | the display and pacing | [`RefreshEstimator`], [`FrameCallbacks`], [`JustInTime`], [`Margin`], `FrameWait`, `WaitMode`, `WakeMargin`, `SpinTally` |
//! | measuring frames | [`FrameStats`], [`FrameSample`], [`FrameTimes`], [`StatsSummary`], [`summarize`], [`quantile`] |
//! | the strategies' own loops | [`strategy`] (its modules), [`DrawMode`], [`Family`] |
//!
//! The items in plain text need the `spin` feature (see [Features](#features)).
//!
//! # The model
//!
//! Every game loop does four things a frame, and this crate decides the numbers for each.
//! [`GameLoop`] does the first two and the last in one call each; the parts below stay
//! public for a loop that needs them apart (an event loop that waits for its own events, a
//! renderer that draws later than the frame was planned).
//!
//! 1. **Plan the frame.** Call [`Planner::plan_frame`] with the time the frame starts, on
//!    any clock: [`SystemClock`], a [`ManualClock`], or the engine's own. The answer, a
//!    [`FramePlan`], says the rest.
//! 2. **Run its updates**: [`FramePlan::updates`] of them, each [`FramePlan::step`] long,
//!    each with its input: [`InputAccumulator::frame`] once the frame is planned, then
//!    [`InputAccumulator::update`] for each update. Or hand your update to
//!    [`Planner::run_updates`] with an [`UpdateBudget`], so a machine too slow for its
//!    updates lets the game slow down instead of freezing.
//! 3. **Draw its view**: [`FramePlan::view`], the latest state, a blend of the last two
//!    ([`View::apply`]; [`Blend`] gives the two numbers a shader needs), or a copy of the
//!    state run one more update to the present ([`View::Predict`]). When the picture is
//!    drawn some time after the frame was planned, [`Planner::view_at`] gives a fresher one.
//! 4. **Wait until its wake time**: [`FramePlan::wake`], at once or at a deadline. With the
//!    `spin` feature, `FrameWait` waits for a deadline to within tens of microseconds where
//!    the thread has a core to run on.
//!
//! The planner reads no clock and never sleeps, so a loop driven by the real clock and a
//! test driven by a [`ManualClock`] get the same decisions for the same timestamps, and the
//! test can assert them exactly. Time is whole nanoseconds (`Duration`) throughout, the time
//! scale an exact ratio: a day at 60 updates a second, at any time scale, loses not one
//! nanosecond.
//!
//! # The strategies
//!
//! | [`Strategy`] | updates per frame | what is drawn | the next frame |
//! |---|---|---|---|
//! | [`uncapped`](strategy::uncapped) | one fixed step | the latest state | at once |
//! | [`fixed-sleep`](strategy::fixed_sleep) | one fixed step | the latest state | a step after the last deadline |
//! | [`variable`](strategy::variable) | one, as long as the frame | the latest state | at once, or at the frame cap |
//! | [`catch-up`](strategy::catch_up) | the fixed steps owed, at most `max_updates` | the latest state | at once, or at the frame cap |
//! | [`interpolated`](strategy::interpolated) | as catch-up | between the last two states | as catch-up |
//! | [`extrapolated`](strategy::extrapolated) | as catch-up | ahead by the velocity | as catch-up |
//! | [`predicted`](strategy::predicted) | as catch-up | a copy run one update more, to the present | as catch-up |
//! | [`predicted-kept`](strategy::predicted_kept) | as catch-up | that copy, run on frame by frame | as catch-up |
//!
//! Each has a module that opens with its loop as the classic texts write it and says what
//! it trades away. Strategy and settings may change between any two frames: game time stays
//! continuous ([`Planner::set_strategy`], [`Planner::set_settings`]).
//!
//! # The pieces
//!
//! The planner is made of small parts that work alone, in the manner of `bevy_time`:
//! an [`Accumulator`] (the lag, paid off in steps: `accumulate`, `expend`,
//! `overstep_fraction`), a [`GameClock`] (real time between frames, clamped after a stall,
//! scaled and paused, its deltas read as [`DeltaMode`] says: synced to the updates, as
//! measured, snapped to the display's refresh or smoothed), a [`DeadlineGrid`] (frame
//! deadlines that keep a cap's rate on average), [`FrameStats`] (FPS, UPS and the game's speed over the last second), an
//! [`InputAccumulator`] (input events handed to the fixed updates that simulate their
//! moments: no tap lost or counted twice, and each held for its share of a step), and an
//! [`UpdateBudget`] (real time a frame's updates may take).
//!
//! For the display: a [`RefreshEstimator`] finds its rate from the times frames were
//! presented, where nothing tells it; [`FrameCallbacks`] paces a loop driven by a browser's
//! `requestAnimationFrame` (a frame cap below the display's rate, and the rate the callbacks
//! keep); [`JustInTime`] starts each frame as late as the next refresh allows, so the
//! input it reads is fresh when it is shown.
//!
//! # Defaults, and why
//!
//! [`LoopSettings::default`]: 60 updates a second (the refresh rate of most displays and the
//! step physics engines are tuned for), with frame deltas read by timer sync
//! ([`DeltaMode::Synced`]). A 60 Hz step on a 60 Hz display is the worst case for a plain
//! accumulator: it sits on a step boundary, and half a percent of timer noise makes one
//! refresh in five show two updates and another none (2117 and 2118 of 10,000 in the lab's
//! model of Glaiel's MonitorSim). Snapping removes them but must be told the refresh rate;
//! timer sync removes them without it (0 and 0), keeps the game clock within half a step of
//! real time, and matches snapping on 59.94 and 144 Hz displays. Then: at most 10 updates a
//! frame (a 60 Hz game slows down only below 6 FPS, and a machine too slow for its updates
//! still answers input several times a second); a 250 ms stall clamp (no ordinary slow
//! frame is cut, and a debugger break becomes 250 ms of game time, at most 10 updates,
//! not a burst of hundreds); no frame cap; real-time speed.
//!
//! # Features
//!
//! - `std` (default): [`SystemClock`]. Without it the crate is `#![no_std]` and needs only
//!   `alloc` (for [`FrameStats`] and error messages).
//! - `spin`: `FrameWait`, the precise frame-deadline wait: a sleep to an approach, naps in
//!   halving steps, and a spin of a margin learnt from how late the naps wake
//!   (`WakeMargin`), and what the spins did (`SpinTally`); `InstantClock`, a clock it can
//!   wait on by a plan's own times. No dependency.
//! - `serde`: `Serialize` and `Deserialize` for [`LoopSettings`], [`Rate`], [`TimeScale`],
//!   [`DeltaMode`] and [`Strategy`], for a game's options file: a rate in hertz, a strategy
//!   by its id, missing settings at their defaults, and what the loop cannot run with
//!   refused with its [`TimingError`] message. The crate's one dependency, `serde`, only
//!   with this feature.
//!
//! # Examples
//!
//! A catch-up loop on a slow machine. A game would use [`SystemClock`] and sleep until the
//! wake time; here a [`ManualClock`] stands in, advanced by what each frame costs:
//!
//! ```
//! use core::time::Duration;
//! use looplab_timing::{LoopSettings, ManualClock, Planner, Strategy, Wake};
//!
//! let mut planner = Planner::new(Strategy::CatchUp, LoopSettings::default());
//! let mut clock = ManualClock::new();
//! let mut position = 0.0_f32; // the world: one thing moving at 120 px/s
//! let mut most = 0;
//! for _frame in 0..100 {
//!     let plan = planner.plan_frame(clock.now());
//!     for _ in 0..plan.updates {
//!         position += 120.0 * plan.step.as_secs_f32(); // update(step)
//!     }
//!     most = most.max(plan.updates);
//!     // render(position): the latest state
//!     clock.advance(Duration::from_millis(45)); // rendering is slow: 22 frames a second
//!     if let Wake::At(t) = plan.wake {
//!         clock.advance_to(t); // sleep until t
//!     }
//! }
//! // The game kept real-time speed by running up to three 16.7 ms updates a frame.
//! assert_eq!(most, 3);
//! assert_eq!(planner.game_now(), Duration::from_millis(99 * 45));
//! assert!((position - 120.0 * planner.simulated().as_secs_f32()).abs() < 0.01);
//! ```
//!
//! An interpolated loop at 10 updates a second and a 60 Hz frame cap. The thing is drawn
//! between its last two states, so it moves every frame although it is updated every sixth:
//!
//! ```
//! use core::time::Duration;
//! use looplab_timing::{LoopSettings, ManualClock, Planner, Rate, Strategy, View, Wake};
//!
//! let settings = LoopSettings::default()
//!     .with_update_rate(Rate::hz(10.0)?)
//!     .with_frame_cap(Some(Rate::SIXTY_HZ));
//! let mut planner = Planner::new(Strategy::Interpolated, settings);
//! let mut clock = ManualClock::new();
//! let (mut previous, mut current) = (0.0_f32, 0.0_f32);
//! let velocity = 100.0; // px/s
//! let mut drawn = Vec::new();
//! for _frame in 0..30 {
//!     let plan = planner.plan_frame(clock.now());
//!     for _ in 0..plan.updates {
//!         previous = current;
//!         current += velocity * plan.step.as_secs_f32();
//!     }
//!     assert!(matches!(plan.view, View::Interpolate { .. }));
//!     drawn.push(plan.view.apply(previous, current, velocity, plan.step));
//!     clock.advance(Duration::from_millis(2)); // a cheap frame
//!     if let Wake::At(t) = plan.wake {
//!         clock.advance_to(t);
//!     }
//! }
//! // Every frame after the first update moved the drawing forward, by 1.67 px (100 px/s at
//! // 60 FPS), one step (10 px) behind the present.
//! for pair in drawn[7..].windows(2) {
//!     assert!((pair[1] - pair[0] - 1.6667).abs() < 0.01, "{pair:?}");
//! }
//! let now = planner.game_now().as_secs_f32() * velocity;
//! assert!((now - drawn[29] - 10.0).abs() < 0.01);
//! # Ok::<(), looplab_timing::TimingError>(())
//! ```
//!
//! Pause and single step: while paused no update runs and the view holds still; each single
//! step runs exactly one update; resuming does not simulate the paused time:
//!
//! ```
//! use core::time::Duration;
//! use looplab_timing::{LoopSettings, Planner, Strategy};
//!
//! let ms = Duration::from_millis;
//! let mut planner = Planner::new(Strategy::Interpolated, LoopSettings::default());
//! planner.plan_frame(ms(0));
//! let running = planner.plan_frame(ms(25));
//! assert_eq!(running.updates, 1);
//!
//! planner.set_paused(true);
//! let paused = planner.plan_frame(ms(1000));
//! assert_eq!(paused.updates, 0);
//! assert_eq!(paused.view, running.view);
//!
//! planner.single_step();
//! planner.single_step();
//! assert_eq!(planner.plan_frame(ms(1016)).updates, 1);
//! assert_eq!(planner.plan_frame(ms(1032)).updates, 1);
//! assert_eq!(planner.plan_frame(ms(1048)).updates, 0);
//! assert_eq!(planner.simulated(), running.simulated + 2 * planner.settings().step());
//!
//! planner.set_paused(false);
//! let resumed = planner.plan_frame(ms(1058));
//! assert_eq!(resumed.game_now, running.game_now + 2 * planner.settings().step() + ms(10));
//! ```

#![cfg_attr(not(any(feature = "std", test)), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

/// The README's code blocks, compiled as doc-tests so its quick start cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

extern crate alloc;

mod accepted;
mod accumulator;
mod budget;
mod callbacks;
mod clock;
mod deadline;
mod delta;
mod error;
mod game_clock;
mod game_loop;
mod input;
mod interpolated;
mod just_in_time;
mod plan;
mod planner;
mod refresh;
#[cfg(feature = "serde")]
mod serde_impls;
mod settings;
mod stats;
pub mod strategy;
mod units;
#[cfg(feature = "spin")]
mod wait;

pub use accumulator::Accumulator;
pub use budget::UpdateBudget;
pub use callbacks::FrameCallbacks;
#[cfg(feature = "std")]
pub use clock::SystemClock;
pub use clock::{Clock, ManualClock};
pub use deadline::DeadlineGrid;
pub use delta::DeltaMode;
pub use error::TimingError;
pub use game_clock::{FrameTime, GameClock};
pub use game_loop::GameLoop;
pub use input::{InputAccumulator, InputEvent, UpdateInput};
pub use interpolated::Interpolated;
pub use just_in_time::{JustInTime, Margin};
pub use plan::{Blend, Blendable, FramePlan, PredictFrom, View, Wake, extrapolate, lerp};
pub use planner::Planner;
pub use refresh::RefreshEstimator;
pub use settings::LoopSettings;
pub use stats::{FrameSample, FrameStats, FrameTimes, StatsSummary, quantile, summarize};
// Inline: the loop's strategy belongs on the front page, not only in its module.
#[doc(inline)]
pub use strategy::{DrawMode, Family, Strategy};
pub use units::{Rate, TimeScale};
#[cfg(feature = "spin")]
pub use wait::{FrameWait, InstantClock, SpinTally, WaitMode, WakeMargin};

/// What the unit tests share.
#[cfg(test)]
mod testing {
    use core::time::Duration;

    /// The default step, 60 Hz.
    pub const STEP: Duration = Duration::from_nanos(16_666_667);

    /// `x` milliseconds.
    pub fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    /// The default settings reading deltas as measured, for tests of exact arithmetic
    /// (the default's timer sync may read a frame up to half a step off the clock).
    pub fn measured() -> crate::LoopSettings {
        crate::LoopSettings::default().with_delta_mode(crate::DeltaMode::Measured)
    }
}
