//! The clock-free loop planner: given the time a frame starts, it decides how many updates of
//! which length to run, what to draw, and when the next frame should start.
//!
//! Nothing here reads a clock or sleeps. The window drives it with `Instant::now()`, the lab
//! and the tests with a virtual clock, and all of them get the same decisions for the same
//! timestamps. Time is integer nanoseconds (`Duration`) throughout; the only float is the
//! `alpha` handed to the renderer, computed fresh from integers each frame.

use std::time::Duration;

use super::settings::LoopSettings;
use super::strategy::{DrawMode, Family, Strategy};
use super::units::{TimeScaler, duration_from_nanos};

/// The largest `f32` below 1.0. Alpha is clamped to it: `lag / step` is below one in exact
/// arithmetic, but rounding to `f32` could otherwise turn 0.999999999 into 1.0.
const ALPHA_MAX: f32 = 1.0 - f32::EPSILON / 2.0;

/// What to draw this frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View {
    /// The state after the last update.
    Latest,
    /// `lerp(previous, current, alpha)`, `alpha` in `[0, 1)`.
    Interpolate { alpha: f32 },
    /// `current + velocity * alpha * step`, `alpha` in `[0, 1)`.
    Extrapolate { alpha: f32 },
}

impl View {
    /// The blend factor, or 0 when the view draws the latest state.
    pub fn alpha(self) -> f32 {
        match self {
            View::Latest => 0.0,
            View::Interpolate { alpha } | View::Extrapolate { alpha } => alpha,
        }
    }
}

/// When the next frame should start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// Start the next frame at once (poll).
    Immediately,
    /// Wait until this time (on the planner's clock) before starting the next frame. It may
    /// already have passed when the frame's work is done; then there is no wait.
    At(Duration),
}

/// The planner's decision for one frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FramePlan {
    /// When the frame started.
    pub now: Duration,
    /// Real time since the previous frame started.
    pub elapsed: Duration,
    /// Real time the stall clamp dropped this frame (`elapsed` beyond `max_frame_time`).
    pub clamped: Duration,
    /// Game time dropped this frame: owed steps beyond `max_updates`, or the lag a one-step
    /// strategy forgives when it takes over from an accumulator.
    pub skipped: Duration,
    /// Number of updates to run now.
    pub updates: u32,
    /// Length of each of those updates.
    pub step: Duration,
    /// What to draw after them.
    pub view: View,
    /// When to start the next frame.
    pub wake: Wake,
    /// Simulated game time once the updates have run.
    pub game_time: Duration,
    /// The game-clock instant this frame shows: the simulated time plus the lag not yet
    /// simulated. The truth a drawn position is measured against is taken at this instant.
    pub game_now: Duration,
}

impl FramePlan {
    /// Game time the updates of this frame add.
    pub fn game_advance(&self) -> Duration {
        mul_duration(self.step, self.updates as u64)
    }
}

/// Keeps frame deadlines on a fixed grid, so a cap or a fixed-sleep loop does not drift.
#[derive(Clone, Debug, Default)]
struct Pacer {
    deadline: Option<Duration>,
}

impl Pacer {
    /// The deadline for the frame starting at `now`: one `interval` after the previous
    /// deadline, or one `interval` after `now` when the loop is more than `tolerance` late
    /// (then the grid is given up and restarted).
    fn next(&mut self, now: Duration, interval: Duration, tolerance: Option<Duration>) -> Duration {
        let next = match self.deadline {
            Some(d) if tolerance.is_none_or(|tol| now <= d.saturating_add(tol)) => {
                d.saturating_add(interval)
            }
            _ => now.saturating_add(interval),
        };
        self.deadline = Some(next);
        next
    }
}

/// The loop planner for one strategy and its settings.
///
/// Call [`Planner::plan_frame`] once at the start of every frame with the current time;
/// run the updates it asks for, draw what it asks, and start the next frame at its wake
/// time. Strategy and settings may change between any two frames.
#[derive(Clone, Debug)]
pub struct Planner {
    strategy: Strategy,
    settings: LoopSettings,
    /// Start of the previous frame, `None` before the first one.
    last_frame: Option<Duration>,
    /// Game time owed but not yet simulated: the accumulator. Below one step, except for the
    /// frames right after the step shrank.
    lag: Duration,
    /// Carries the sub-nanosecond remainder of time scaling.
    scaler: TimeScaler,
    /// Game time simulated so far.
    game_time: Duration,
    pacer: Pacer,
    /// Single steps requested while paused and not yet run.
    pending_steps: u32,
}

impl Planner {
    /// A planner at game time zero. The first frame runs one update for the one-step
    /// strategies and none for the others (no time has passed yet).
    pub fn new(strategy: Strategy, settings: LoopSettings) -> Self {
        Self {
            strategy,
            settings,
            last_frame: None,
            lag: Duration::ZERO,
            scaler: TimeScaler::default(),
            game_time: Duration::ZERO,
            pacer: Pacer::default(),
            pending_steps: 0,
        }
    }

    /// The active strategy.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The active settings.
    pub fn settings(&self) -> &LoopSettings {
        &self.settings
    }

    /// Game time simulated so far.
    pub fn game_time(&self) -> Duration {
        self.game_time
    }

    /// Game time owed and not yet simulated (below one step, unless the step just shrank).
    pub fn lag(&self) -> Duration {
        self.lag
    }

    /// The game-clock instant: simulated time plus lag.
    pub fn game_now(&self) -> Duration {
        self.game_time.saturating_add(self.lag)
    }

    /// Switches strategy from the next frame on. Game time, lag and the frame clock carry
    /// over, so the world does not jump: a variable step takes the lag into its next update,
    /// the accumulator strategies keep paying it off in steps, and a one-step strategy
    /// forgives it (less than one step) with its first update.
    pub fn set_strategy(&mut self, strategy: Strategy) {
        if strategy != self.strategy {
            self.strategy = strategy;
            self.pacer = Pacer::default();
        }
    }

    /// Replaces the settings from the next frame on. The owed time (lag) is kept as it is:
    /// nothing is lost or invented, so the game clock stays continuous. When the step
    /// shrinks below the lag, the whole steps now owed are paid at the next running frame
    /// (never while paused), within `max_updates`.
    pub fn set_settings(&mut self, settings: LoopSettings) {
        let pacing_changed = settings.frame_cap != self.settings.frame_cap
            || settings.update_rate != self.settings.update_rate
            || settings.time_scale != self.settings.time_scale;
        if pacing_changed {
            self.pacer = Pacer::default();
        }
        if !settings.paused {
            self.pending_steps = 0;
        }
        self.settings = settings;
    }

    /// Takes back the last `unrun` updates of `plan` (the caller ran out of time to run
    /// them): they are dropped like updates beyond `max_updates`, and `plan` is corrected.
    /// At least one update of the plan must have run, so the game clock still moves forward.
    pub fn abandon(&mut self, plan: &mut FramePlan, unrun: u32) {
        let unrun = unrun.min(plan.updates.saturating_sub(1));
        let dropped = mul_duration(plan.step, unrun as u64);
        self.game_time = self.game_time.saturating_sub(dropped);
        plan.updates -= unrun;
        plan.skipped += dropped;
        plan.game_time = self.game_time;
        plan.game_now = self.game_now();
    }

    /// Pauses (if running) and asks for exactly one update of one step in the next frame.
    pub fn single_step(&mut self) {
        self.settings.paused = true;
        self.pending_steps = self.pending_steps.saturating_add(1).min(1000);
    }

    /// Plans the frame that starts at `now`.
    ///
    /// `now` is expected not to go backwards; if it does, the frame counts as having taken
    /// no time.
    pub fn plan_frame(&mut self, now: Duration) -> FramePlan {
        let elapsed = self
            .last_frame
            .map_or(Duration::ZERO, |last| now.saturating_sub(last));
        self.last_frame = Some(self.last_frame.map_or(now, |last| last.max(now)));

        let counted = match self.settings.max_frame_time {
            Some(max) => elapsed.min(max),
            None => elapsed,
        };
        let clamped = elapsed - counted;
        let frozen = self.settings.paused || self.settings.time_scale.is_zero();
        let advance = if frozen {
            Duration::ZERO
        } else {
            self.scaler.scale(counted, self.settings.time_scale)
        };
        let single = self.pending_steps > 0;
        self.pending_steps = self.pending_steps.saturating_sub(1);

        let step = self.settings.step();
        let (updates, update_len, skipped) = match self.strategy.family() {
            Family::OneStepPerFrame => {
                let n = u32::from(!frozen) + u32::from(single);
                // These loops have no owed time: a lag left by an accumulator strategy is
                // forgiven, at most one step with each update (which advances a whole
                // step), so the game clock never goes back.
                let forgiven = if n > 0 {
                    let f = self.lag.min(step);
                    self.lag -= f;
                    f
                } else {
                    Duration::ZERO
                };
                (n, step, forgiven)
            }
            Family::VariableStep => {
                let dt = if single {
                    step
                } else {
                    std::mem::take(&mut self.lag).saturating_add(advance)
                };
                (u32::from(!dt.is_zero()), dt, Duration::ZERO)
            }
            Family::Accumulator => {
                let (n, skipped) = if frozen {
                    (0, Duration::ZERO)
                } else {
                    self.pay_lag(advance, step)
                };
                (n + u32::from(single), step, skipped)
            }
        };
        self.game_time = self
            .game_time
            .saturating_add(mul_duration(update_len, updates as u64));

        // The fraction of a step owed. The lag is below one step except right after the
        // step shrank (then whole steps are still owed and paid over the next frames).
        let alpha = alpha_of(
            duration_from_nanos(self.lag.as_nanos() % step.as_nanos().max(1)),
            step,
        );
        let view = match self.strategy.draw_mode() {
            DrawMode::Latest => View::Latest,
            DrawMode::Interpolate => View::Interpolate { alpha },
            DrawMode::Extrapolate => View::Extrapolate { alpha },
        };

        FramePlan {
            now,
            elapsed,
            clamped,
            skipped,
            updates,
            step: update_len,
            view,
            wake: self.wake(now, step),
            game_time: self.game_time,
            game_now: self.game_now(),
        }
    }

    /// Adds `advance` to the lag and takes as many whole steps out of it as allowed.
    /// Returns the number of steps and the game time dropped beyond `max_updates`. Only
    /// whole steps are dropped, so the fraction of a step owed (alpha) is kept, and never
    /// more than this frame's `advance`, so the game clock never goes back (steps owed from
    /// a shrunken step stay owed and are paid over the next frames).
    fn pay_lag(&mut self, advance: Duration, step: Duration) -> (u32, Duration) {
        self.lag = self.lag.saturating_add(advance);
        if step.is_zero() {
            return (0, Duration::ZERO);
        }
        let owed_steps = self.lag.as_nanos() / step.as_nanos();
        let max = self.settings.max_updates.unwrap_or(u32::MAX).max(1) as u128;
        let run = owed_steps.min(max);
        let dropped = (owed_steps - run).min(advance.as_nanos() / step.as_nanos());
        self.lag -= mul_duration(step, (run + dropped) as u64);
        (run as u32, mul_duration(step, dropped as u64))
    }

    /// When the frame starting at `now` should be followed by the next one.
    fn wake(&mut self, now: Duration, step: Duration) -> Wake {
        match self.strategy {
            Strategy::Uncapped => Wake::Immediately,
            Strategy::FixedSleep => {
                // deWiTTERS: `next_game_tick += SKIP_TICKS`, then sleep until it. A frame that
                // overran is made up by not sleeping; a stall past the clamp restarts the grid.
                let scale = self.settings.time_scale;
                let interval = if self.settings.paused {
                    step
                } else {
                    scale.real_time_for(step).unwrap_or(step)
                };
                Wake::At(self.pacer.next(now, interval, self.settings.max_frame_time))
            }
            _ => match self.settings.frame_cap {
                // A frame cap never bursts to catch up: more than one interval late restarts
                // the grid.
                Some(cap) => {
                    let interval = cap.period();
                    Wake::At(self.pacer.next(now, interval, Some(interval)))
                }
                None => Wake::Immediately,
            },
        }
    }
}

/// `lag / step` as an `f32` strictly below one.
fn alpha_of(lag: Duration, step: Duration) -> f32 {
    if step.is_zero() {
        return 0.0;
    }
    let a = lag.as_nanos() as f64 / step.as_nanos() as f64;
    (a as f32).clamp(0.0, ALPHA_MAX)
}

/// `d * n`, saturating rather than panicking on overflow.
fn mul_duration(d: Duration, n: u64) -> Duration {
    duration_from_nanos(d.as_nanos().saturating_mul(n as u128))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timing::clock::ManualClock;
    use crate::timing::units::{Rate, TimeScale};

    const STEP: Duration = Duration::from_nanos(16_666_667);

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    fn planner(strategy: Strategy) -> Planner {
        Planner::new(strategy, LoopSettings::default())
    }

    /// Runs one frame the way a real loop does: plan at the clock's time, spend `cost` of
    /// work, then wait until the wake time if it is still ahead.
    fn frame(p: &mut Planner, clock: &mut ManualClock, cost: Duration) -> FramePlan {
        let plan = p.plan_frame(clock.now());
        clock.advance(cost);
        if let Wake::At(t) = plan.wake {
            clock.advance_to(t);
        }
        plan
    }

    #[test]
    fn uncapped_runs_one_step_per_frame_however_long_the_frame() {
        let mut p = planner(Strategy::Uncapped);
        let mut clock = ManualClock::default();

        let first = p.plan_frame(clock.now());
        assert_eq!((first.updates, first.step), (1, STEP));
        assert_eq!(first.wake, Wake::Immediately);
        assert_eq!(first.view, View::Latest);
        assert_eq!(first.game_time, STEP);

        // A 1 ms frame still advances a whole step: the game runs 16.7 times too fast.
        clock.advance(ms(1));
        let fast = p.plan_frame(clock.now());
        assert_eq!((fast.updates, fast.game_time), (1, STEP * 2));
        assert_eq!(fast.elapsed, ms(1));

        // A 100 ms frame also advances one step: the game crawls.
        clock.advance(ms(100));
        let slow = p.plan_frame(clock.now());
        assert_eq!((slow.updates, slow.game_time), (1, STEP * 3));
    }

    #[test]
    fn fixed_sleep_wakes_on_a_grid_of_steps() {
        let mut p = planner(Strategy::FixedSleep);
        let mut clock = ManualClock::default();
        for i in 1..=5u32 {
            let plan = frame(&mut p, &mut clock, ms(2));
            assert_eq!(plan.updates, 1);
            assert_eq!(plan.wake, Wake::At(STEP * i));
            assert_eq!(clock.now(), STEP * i, "slept to the deadline");
            assert_eq!(plan.game_time, STEP * i);
        }
    }

    #[test]
    fn fixed_sleep_slows_the_game_when_frames_overrun_their_budget() {
        let mut p = planner(Strategy::FixedSleep);
        let mut clock = ManualClock::default();
        // Every frame costs 40 ms, more than twice its 16.7 ms budget, for 4 seconds.
        let mut last = None;
        while clock.now() < Duration::from_secs(4) {
            last = Some(frame(&mut p, &mut clock, ms(40)));
        }
        let plan = last.unwrap();
        let ratio = plan.game_time.as_secs_f64() / clock.now().as_secs_f64();
        // One 16.7 ms step per 40 ms frame: the game runs at 0.42 of real time.
        assert!((ratio - 16.666667 / 40.0).abs() < 0.01, "ratio {ratio}");
        assert!(plan.game_time < clock.now());
    }

    #[test]
    fn fixed_sleep_makes_up_a_short_overrun_but_restarts_after_a_stall() {
        let mut p = planner(Strategy::FixedSleep);
        let mut clock = ManualClock::default();
        frame(&mut p, &mut clock, ms(1)); // deadline 1 step
        // A 40 ms frame: about two deadlines missed, inside the 250 ms clamp.
        let late = p.plan_frame(clock.now());
        assert_eq!(late.wake, Wake::At(STEP * 2));
        clock.advance(ms(40));
        // The next frames do not sleep until the grid is reached again.
        let catch1 = p.plan_frame(clock.now());
        assert_eq!(catch1.wake, Wake::At(STEP * 3));
        assert!(clock.now() > STEP * 3, "behind the grid, so no sleep");
        clock.advance(ms(1));
        let catch2 = p.plan_frame(clock.now());
        assert_eq!(catch2.wake, Wake::At(STEP * 4));
        assert!(clock.now() < STEP * 4, "back on the grid: it sleeps again");

        // A 3 second stall is beyond the clamp: the grid restarts from now.
        clock.advance_to(STEP * 4);
        clock.advance(Duration::from_secs(3));
        let after = p.plan_frame(clock.now());
        assert_eq!(after.wake, Wake::At(clock.now() + STEP));
        assert_eq!(after.updates, 1);
    }

    #[test]
    fn variable_runs_one_update_as_long_as_the_frame() {
        let mut p = planner(Strategy::Variable);
        let mut clock = ManualClock::default();
        let first = p.plan_frame(clock.now());
        assert_eq!(
            first.updates, 0,
            "no time has passed before the first frame"
        );
        assert_eq!(first.wake, Wake::Immediately);

        for cost in [ms(3), ms(27), ms(8)] {
            clock.advance(cost);
            let before = p.game_time();
            let plan = p.plan_frame(clock.now());
            assert_eq!((plan.updates, plan.step), (1, cost));
            assert_eq!(plan.game_time, before + cost);
            assert_eq!(plan.game_now, plan.game_time, "nothing owed");
            assert_eq!(plan.view, View::Latest);
        }
        // Two frames at the same instant: nothing to simulate.
        let same = p.plan_frame(clock.now());
        assert_eq!(same.updates, 0);
    }

    #[test]
    fn variable_step_is_clamped_after_a_stall() {
        let mut p = planner(Strategy::Variable);
        let mut clock = ManualClock::default();
        p.plan_frame(clock.now());
        clock.advance(Duration::from_secs(3));
        let plan = p.plan_frame(clock.now());
        assert_eq!(plan.step, ms(250));
        assert_eq!(plan.clamped, ms(2750));
        assert_eq!(plan.game_time, ms(250));
    }

    #[test]
    fn catch_up_keeps_real_time_speed_when_rendering_is_slow() {
        let mut p = planner(Strategy::CatchUp);
        let mut clock = ManualClock::default();
        let mut most = 0;
        // 45 ms frames (22 FPS) against a 16.7 ms step.
        for _ in 0..200 {
            let plan = frame(&mut p, &mut clock, ms(45));
            most = most.max(plan.updates);
            assert_eq!(plan.view, View::Latest);
            assert_eq!(plan.skipped, Duration::ZERO);
            // Game clock equals real time exactly: nothing lost, nothing invented.
            assert_eq!(plan.game_now, plan.now);
            assert!(p.lag() < STEP);
        }
        assert_eq!(most, 3, "45 ms holds two or three 16.7 ms steps");
    }

    #[test]
    fn catch_up_stops_at_max_updates_and_the_game_slows_down() {
        let settings = LoopSettings {
            max_updates: Some(4),
            ..LoopSettings::default()
        };
        let mut p = Planner::new(Strategy::CatchUp, settings);
        let mut clock = ManualClock::default();
        p.plan_frame(clock.now());
        // 150 ms frames owe 9 steps each; only 4 run.
        for _ in 0..20 {
            clock.advance(ms(150));
            let before_lag = p.lag();
            let plan = p.plan_frame(clock.now());
            assert_eq!(plan.updates, 4);
            let owed = before_lag + ms(150);
            let owed_steps = (owed.as_nanos() / STEP.as_nanos()) as u32;
            assert_eq!(plan.skipped, STEP * (owed_steps - 4));
            assert!(p.lag() < STEP, "only whole steps are dropped");
            assert_eq!(p.lag(), owed - STEP * owed_steps);
        }
        let ratio = p.game_time().as_secs_f64() / clock.now().as_secs_f64();
        assert!(
            (ratio - 4.0 * 16.666667 / 150.0).abs() < 0.01,
            "ratio {ratio}"
        );
    }

    #[test]
    fn unlimited_updates_pay_all_the_lag_up_to_the_clamp() {
        let settings = LoopSettings {
            max_updates: None,
            ..LoopSettings::default()
        };
        let mut p = Planner::new(Strategy::CatchUp, settings);
        let mut clock = ManualClock::default();
        p.plan_frame(clock.now());
        clock.advance(ms(201));
        assert_eq!(p.plan_frame(clock.now()).updates, 12);
        clock.advance(Duration::from_secs(10));
        let plan = p.plan_frame(clock.now());
        // 250 ms clamp plus the 1 ms left over: 15 steps.
        assert_eq!(plan.updates, 15);
        assert_eq!(plan.clamped, Duration::from_millis(9750));
    }

    #[test]
    fn interpolated_alpha_is_the_owed_fraction_of_a_step() {
        let mut p = planner(Strategy::Interpolated);
        let mut clock = ManualClock::default();
        p.plan_frame(clock.now());
        let mut expected_lag = Duration::ZERO;
        for cost in [ms(5), ms(5), ms(5), ms(5), ms(13), ms(1), ms(40)] {
            clock.advance(cost);
            let plan = p.plan_frame(clock.now());
            let owed = expected_lag + cost;
            let n = (owed.as_nanos() / STEP.as_nanos()) as u32;
            expected_lag = owed - STEP * n;
            assert_eq!(plan.updates, n);
            assert_eq!(p.lag(), expected_lag);
            let View::Interpolate { alpha } = plan.view else {
                panic!("interpolated draws with a blend")
            };
            let exact = expected_lag.as_secs_f64() / STEP.as_secs_f64();
            assert!((alpha as f64 - exact).abs() < 1e-6);
            assert!((0.0..1.0).contains(&alpha));
            assert_eq!(plan.game_now, plan.game_time + expected_lag);
        }
    }

    #[test]
    fn alpha_never_rounds_up_to_one() {
        // A one-second step owing one nanosecond less than a step.
        let settings = LoopSettings {
            update_rate: Rate::hz(1.0).unwrap(),
            max_frame_time: None,
            ..LoopSettings::default()
        };
        let mut p = Planner::new(Strategy::Extrapolated, settings);
        p.plan_frame(Duration::ZERO);
        let plan = p.plan_frame(Duration::from_nanos(999_999_999));
        assert_eq!(plan.updates, 0);
        assert!(plan.view.alpha() < 1.0);
        assert!(plan.view.alpha() > 0.999);
    }

    #[test]
    fn extrapolated_uses_the_same_alpha_as_interpolated() {
        let mut a = planner(Strategy::Interpolated);
        let mut b = planner(Strategy::Extrapolated);
        for t in [0, 7, 19, 33, 52, 70] {
            let pa = a.plan_frame(ms(t));
            let pb = b.plan_frame(ms(t));
            assert_eq!(pa.updates, pb.updates);
            assert!(matches!(pb.view, View::Extrapolate { alpha } if alpha == pa.view.alpha()));
        }
    }

    #[test]
    fn frame_cap_wakes_on_a_grid_and_never_bursts() {
        let settings = LoopSettings {
            frame_cap: Some(Rate::hz(100.0).unwrap()),
            ..LoopSettings::default()
        };
        let mut p = Planner::new(Strategy::Interpolated, settings);
        let mut clock = ManualClock::default();
        for i in 1..=3u32 {
            let plan = frame(&mut p, &mut clock, ms(1));
            assert_eq!(plan.wake, Wake::At(ms(10) * i));
        }
        // 15 ms late (more than one interval): the grid restarts instead of bursting.
        clock.advance(ms(15));
        let plan = p.plan_frame(clock.now());
        assert_eq!(plan.wake, Wake::At(clock.now() + ms(10)));
        // 4 ms late (less than an interval): the grid is kept.
        clock.advance_to(clock.now() + ms(14));
        let plan = p.plan_frame(clock.now());
        assert_eq!(plan.wake, Wake::At(ms(30) + ms(15) + ms(10) + ms(10)));
    }

    #[test]
    fn pause_freezes_the_game_and_single_step_runs_exactly_one_update() {
        let mut p = planner(Strategy::Interpolated);
        p.plan_frame(ms(0));
        let running = p.plan_frame(ms(25));
        assert_eq!(running.updates, 1);
        let alpha = running.view.alpha();

        let mut paused = p.settings().clone();
        paused.paused = true;
        p.set_settings(paused);
        let frozen = p.plan_frame(ms(500));
        assert_eq!(frozen.updates, 0);
        assert_eq!(frozen.view.alpha(), alpha, "the picture holds still");
        assert_eq!(frozen.game_time, running.game_time);

        p.single_step();
        let stepped = p.plan_frame(ms(520));
        assert_eq!(stepped.updates, 1);
        assert_eq!(stepped.game_time, running.game_time + STEP);
        assert_eq!(stepped.view.alpha(), alpha);
        assert_eq!(p.plan_frame(ms(540)).updates, 0, "one step only");

        // Unpausing does not simulate the paused time.
        let mut resumed = p.settings().clone();
        resumed.paused = false;
        p.set_settings(resumed);
        let next = p.plan_frame(ms(550));
        assert_eq!(next.game_now, stepped.game_now + ms(10));
    }

    #[test]
    fn single_step_pauses_every_family() {
        for s in Strategy::ALL {
            let mut p = planner(s);
            p.plan_frame(ms(0));
            p.plan_frame(ms(20));
            let before = p.game_time();
            p.single_step();
            assert!(p.settings().paused);
            let plan = p.plan_frame(ms(400));
            assert_eq!((plan.updates, plan.step), (1, STEP), "{s}");
            assert_eq!(plan.game_time, before + STEP, "{s}");
            assert_eq!(p.plan_frame(ms(800)).updates, 0, "{s}");
        }
    }

    #[test]
    fn time_scale_slows_accumulators_variable_and_fixed_sleep_alike() {
        let half = TimeScale::new(0.5).unwrap();
        for s in [Strategy::Variable, Strategy::CatchUp, Strategy::FixedSleep] {
            let settings = LoopSettings {
                time_scale: half,
                ..LoopSettings::default()
            };
            let mut p = Planner::new(s, settings);
            let mut clock = ManualClock::default();
            while clock.now() < Duration::from_secs(2) {
                frame(&mut p, &mut clock, ms(5));
            }
            let ratio = p.game_now().as_secs_f64() / clock.now().as_secs_f64();
            assert!((ratio - 0.5).abs() < 0.02, "{s}: ratio {ratio}");
        }
    }

    #[test]
    fn time_scale_zero_freezes_every_strategy() {
        for s in Strategy::ALL {
            let settings = LoopSettings {
                time_scale: TimeScale::ZERO,
                ..LoopSettings::default()
            };
            let mut p = Planner::new(s, settings);
            let mut clock = ManualClock::default();
            for _ in 0..10 {
                let plan = frame(&mut p, &mut clock, ms(5));
                assert_eq!(plan.updates, 0, "{s}");
            }
            assert_eq!(p.game_now(), Duration::ZERO);
        }
    }

    #[test]
    fn switching_strategy_keeps_the_game_clock_continuous() {
        let mut p = planner(Strategy::Interpolated);
        let mut clock = ManualClock::default();
        p.plan_frame(clock.now());
        for t in [9, 18, 27] {
            clock.advance_to(ms(t));
            p.plan_frame(clock.now());
        }
        let before = p.game_now();
        assert!(p.lag() > Duration::ZERO);
        // Interpolated to variable: the owed lag goes into the next variable step.
        p.set_strategy(Strategy::Variable);
        clock.advance(ms(5));
        let plan = p.plan_frame(clock.now());
        assert_eq!(plan.game_now, before + ms(5));
        assert_eq!(p.lag(), Duration::ZERO);
        // Variable to catch-up and on: still one continuous clock.
        for s in [
            Strategy::CatchUp,
            Strategy::Extrapolated,
            Strategy::Interpolated,
        ] {
            p.set_strategy(s);
            let before = p.game_now();
            clock.advance(ms(7));
            assert_eq!(p.plan_frame(clock.now()).game_now, before + ms(7), "{s}");
        }
        // Into a one-step strategy the lag is forgiven by the first update, which moves the
        // clock a whole step: forward, never back.
        let lag = p.lag();
        let before = p.game_now();
        p.set_strategy(Strategy::FixedSleep);
        let plan = p.plan_frame(clock.now());
        assert_eq!(p.lag(), Duration::ZERO);
        assert_eq!(plan.skipped, lag);
        assert_eq!(plan.game_now, plan.game_time);
        assert!(plan.game_now >= before);
    }

    #[test]
    fn changing_the_update_rate_keeps_the_owed_time() {
        let mut p = planner(Strategy::Interpolated);
        p.plan_frame(ms(0));
        p.plan_frame(ms(25)); // one step run, 8.33 ms owed
        let owed = p.lag();
        let before = p.game_now();
        let settings = LoopSettings {
            update_rate: Rate::hz(20.0).unwrap(),
            ..p.settings().clone()
        };
        p.set_settings(settings);
        assert_eq!(p.lag(), owed, "nothing lost or invented");
        let next = p.plan_frame(ms(25));
        assert_eq!(next.updates, 0);
        assert_eq!(next.game_now, before);
        let exact = owed.as_secs_f64() / 0.05;
        assert!((next.view.alpha() as f64 - exact).abs() < 1e-6);
    }

    #[test]
    fn a_shrunken_step_pays_its_owed_steps_when_running_and_never_while_paused() {
        // 1 Hz, 900 ms owed, then 1000 Hz: 900 steps are owed.
        let settings = LoopSettings {
            update_rate: Rate::hz(1.0).unwrap(),
            max_frame_time: None,
            ..LoopSettings::default()
        };
        let mut p = Planner::new(Strategy::CatchUp, settings);
        p.plan_frame(ms(0));
        p.plan_frame(ms(900));
        let fast = LoopSettings {
            update_rate: Rate::hz(1000.0).unwrap(),
            paused: true,
            ..p.settings().clone()
        };
        p.set_settings(fast);
        let before = p.game_now();
        let paused = p.plan_frame(ms(910));
        assert_eq!(paused.updates, 0, "no updates while paused");
        assert!(paused.view.alpha() < 1.0);
        let running = LoopSettings {
            paused: false,
            ..p.settings().clone()
        };
        p.set_settings(running);
        let mut last = before;
        let mut t = 910;
        let mut skipped = Duration::ZERO;
        while p.lag() >= ms(1) {
            t += 10;
            let plan = p.plan_frame(ms(t));
            assert!(plan.updates <= 10, "within max_updates");
            assert!(plan.game_now >= last, "the clock never goes back");
            assert!(
                plan.skipped <= ms(10),
                "drops no more than the frame's own time"
            );
            skipped += plan.skipped;
            last = plan.game_now;
        }
        // Every nanosecond is accounted for: simulated, still owed, or dropped in the open.
        assert_eq!(p.game_now() + skipped, before + ms(t - 910));
        assert!(p.game_time() >= ms(890));
    }

    #[test]
    fn abandoned_updates_are_dropped_in_the_open() {
        let mut p = planner(Strategy::CatchUp);
        p.plan_frame(ms(0));
        let before = p.game_now();
        let mut plan = p.plan_frame(ms(101)); // six steps owed
        assert_eq!(plan.updates, 6);
        p.abandon(&mut plan, 4);
        assert_eq!(plan.updates, 2);
        assert_eq!(plan.skipped, STEP * 4);
        assert_eq!(plan.game_time, STEP * 2);
        assert_eq!(p.game_time(), STEP * 2);
        assert_eq!(plan.game_now + plan.skipped, before + ms(101));
        // One update always stays, so the clock moves forward.
        let mut plan = p.plan_frame(ms(200));
        p.abandon(&mut plan, 100);
        assert_eq!(plan.updates, 1);
        assert!(plan.game_now > before);
    }

    #[test]
    fn time_going_backwards_counts_as_no_time() {
        let mut p = planner(Strategy::CatchUp);
        p.plan_frame(ms(100));
        let back = p.plan_frame(ms(50));
        assert_eq!((back.elapsed, back.updates), (Duration::ZERO, 0));
        let plan = p.plan_frame(ms(117));
        assert_eq!(
            plan.elapsed,
            ms(17),
            "measured from the latest frame, not the earlier one"
        );
    }
}
