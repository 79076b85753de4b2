//! The planner: one strategy and its settings, turning frame timestamps into plans.

use core::ops::ControlFlow;
use core::time::Duration;

use crate::accumulator::{Accumulator, FRACTION_MAX};
use crate::deadline::DeadlineGrid;
use crate::error::TimingError;
use crate::game_clock::GameClock;
use crate::plan::{FramePlan, PredictFrom, View};
use crate::settings::LoopSettings;
use crate::strategy::{DrawMode, Family, Strategy, Updates};
use crate::units::{Rate, TimeScale, div_rem, mul_duration};

/// A loop strategy with its settings and state: call [`plan_frame`](Planner::plan_frame)
/// at the start of every frame and do what the plan says.
///
/// The planner reads no clock and never sleeps. It is handed the time each frame starts
/// and answers with how many updates of which length to run, what to draw and when to
/// start the next frame, so a real loop and a test driving it with a
/// [`ManualClock`](crate::ManualClock) get the same decisions for the same timestamps.
///
/// Strategy and settings may change between any two frames; game time stays continuous
/// across the change (see [`set_strategy`](Planner::set_strategy) and
/// [`set_settings`](Planner::set_settings)).
#[derive(Clone, Debug)]
pub struct Planner {
    strategy: Strategy,
    settings: LoopSettings,
    /// Real time between frames, clamped, scaled and paused.
    clock: GameClock,
    /// Game time owed but not yet simulated.
    lag: Accumulator,
    /// Game time simulated so far.
    simulated: Duration,
    /// The game-clock instant the last frame showed, for the next frame's delta.
    shown: Option<Duration>,
    /// Deadlines of the frame cap or of the fixed-sleep loop.
    grid: DeadlineGrid,
    /// Single steps asked for while paused and not yet run.
    pending_steps: u32,
    /// Where the last frame's prediction started, for [`DrawMode::PredictKept`]: afresh
    /// after an update, else from the copy kept since.
    prediction: PredictFrom,
    /// Whether the caller holds a prediction to carry on from (the last frame drew one of
    /// [`DrawMode::PredictKept`]).
    kept: bool,
}

impl Planner {
    /// A planner at game time zero. Its first frame starts the clock: it runs one update
    /// for the one-step strategies and none for the others, since no time has passed yet.
    pub fn new(strategy: Strategy, settings: LoopSettings) -> Self {
        Self {
            strategy,
            settings,
            clock: GameClock::new(),
            lag: Accumulator::new(),
            simulated: Duration::ZERO,
            shown: None,
            grid: DeadlineGrid::new(),
            pending_steps: 0,
            prediction: PredictFrom::Latest,
            kept: false,
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

    /// Game time simulated so far: the sum of every update's step.
    pub fn simulated(&self) -> Duration {
        self.simulated
    }

    /// Game time owed but not yet simulated ([`Accumulator::overstep`]): below one step,
    /// except for the frames right after the step shrank.
    pub fn overstep(&self) -> Duration {
        self.lag.overstep()
    }

    /// The game-clock instant of the last frame: [`simulated`](Planner::simulated) plus
    /// [`overstep`](Planner::overstep).
    pub fn game_now(&self) -> Duration {
        self.simulated.saturating_add(self.lag.overstep())
    }

    /// Plans the frame that starts at `now`.
    ///
    /// `now` should not go backwards; if it does, the frame counts as taking no time.
    pub fn plan_frame(&mut self, now: Duration) -> FramePlan {
        let frame = self
            .clock
            .tick_owing(now, &self.settings, self.lag.overstep());
        if frame.hitch {
            self.grid.reset();
        }
        let step = self.settings.step();
        let rules = self.strategy.rules();
        let mut updates = if self.take_single_step() {
            // A single step runs exactly one step, whatever the strategy.
            Updates::fixed(1, step)
        } else {
            (rules.updates)(&frame, &mut self.lag, &self.settings)
        };
        if rules.family == Family::OneStepPerFrame && updates.count > 0 {
            // One-step loops owe nothing: a lag left by an accumulator strategy is forgiven,
            // at most one step with each frame's update (which advances a whole step), so
            // the game clock never goes back.
            updates.skipped += self.lag.discard(step);
        }
        let substeps = self.settings.substeps
            && rules.family == Family::Accumulator
            && !frame.frozen
            && !step.is_zero();
        let substep = if substeps {
            // The fraction of a step owed is simulated now, in one shorter update, so the
            // state reaches the frame's time; whole steps still owed (the cap on updates
            // per frame, a step that shrank) stay owed.
            let fraction = div_rem(self.lag.overstep().as_nanos(), step.as_nanos()).1;
            self.lag.discard(Duration::from_nanos(fraction as u64))
        } else {
            Duration::ZERO
        };
        self.simulated = self
            .simulated
            .saturating_add(mul_duration(updates.step, u64::from(updates.count)))
            .saturating_add(substep);
        self.prediction = if updates.count > 0 || !self.kept {
            PredictFrom::Latest
        } else {
            PredictFrom::Kept
        };
        self.kept = rules.draw_mode == DrawMode::PredictKept && !substeps;
        let game_now = self.game_now();
        let delta = self
            .shown
            .map_or(Duration::ZERO, |shown| game_now.saturating_sub(shown));
        self.shown = Some(game_now);
        // A sub-stepped state is at the frame's time: nothing is left to blend or predict.
        let draw_mode = if substeps {
            DrawMode::Latest
        } else {
            rules.draw_mode
        };
        FramePlan {
            now,
            elapsed: frame.elapsed,
            measured: frame.measured,
            clamped: frame.clamped,
            hitch: frame.hitch,
            skipped: updates.skipped,
            updates: updates.count,
            step: updates.step,
            substep,
            view: self.view_of(draw_mode, self.lag.overstep_fraction(step), game_now),
            wake: (rules.wake)(&mut self.grid, &frame, &self.settings),
            simulated: self.simulated,
            game_now,
            delta,
        }
    }

    /// Runs the updates of `plan`: calls `update` with the step once for each, in order, and
    /// stops early when an update answers [`ControlFlow::Break`]. The updates not yet run are
    /// then given up as by [`abandon`](Planner::abandon), and `plan` is corrected. Returns the
    /// number of updates run (at least one if any were planned).
    ///
    /// This is how a loop keeps answering its input when updates take longer than the time
    /// they simulate: give them a real-time budget ([`UpdateBudget`](crate::UpdateBudget)) and
    /// let the game slow down rather than stop. A plan's [`substep`](FramePlan::substep), if
    /// any, is the last update run, and only when no update broke off before it; it counts
    /// in the number returned.
    pub fn run_updates(
        &mut self,
        plan: &mut FramePlan,
        mut update: impl FnMut(Duration) -> ControlFlow<()>,
    ) -> u32 {
        let planned = plan.updates;
        for ran in 1..=planned {
            if update(plan.step).is_break() {
                self.abandon(plan, planned - ran);
                return ran;
            }
        }
        if !plan.substep.is_zero() {
            // The sub-step's answer does not matter: it is the last update anyway.
            let _ = update(plan.substep);
            return planned + 1;
        }
        planned
    }

    /// Takes back the last `unrun` updates of `plan` because the caller ran out of time to
    /// run them: they are dropped like steps beyond `max_updates`, and `plan` is corrected
    /// (fewer updates, more skipped, an earlier game time, a shorter delta). At least one
    /// update of the plan stays, so the game clock still moves forward. A sub-step is given
    /// up with them.
    pub fn abandon(&mut self, plan: &mut FramePlan, unrun: u32) {
        let unrun = unrun.min(plan.updates.saturating_sub(1));
        let dropped = mul_duration(plan.step, u64::from(unrun)).saturating_add(plan.substep);
        self.simulated = self.simulated.saturating_sub(dropped);
        plan.updates -= unrun;
        plan.substep = Duration::ZERO;
        plan.skipped += dropped;
        plan.simulated = self.simulated;
        plan.game_now = self.game_now();
        plan.delta = plan.delta.saturating_sub(dropped);
        self.shown = Some(plan.game_now);
    }

    /// The view to draw at `now`, some time after the last frame was planned: the plan's
    /// view with the game time that has passed since added to its `alpha` (capped just
    /// below one, since nothing past the next update is known). Use it when the picture is
    /// drawn later than the frame started, as when a windowing system delivers the redraw.
    ///
    /// ```
    /// use core::time::Duration;
    /// use looplab_timing::{LoopSettings, Planner, Strategy, View};
    ///
    /// let mut planner = Planner::new(Strategy::Interpolated, LoopSettings::default());
    /// planner.plan_frame(Duration::ZERO);
    /// let plan = planner.plan_frame(Duration::from_millis(20)); // one step, 3.3 ms owed
    /// assert_eq!(planner.view_at(plan.now), plan.view);
    /// let later = planner.view_at(Duration::from_millis(25)); // 8.3 ms owed by the redraw
    /// assert!((later.alpha() - 0.5).abs() < 1e-6);
    /// ```
    pub fn view_at(&self, now: Duration) -> View {
        let step = self.settings.step().as_nanos();
        let to = self.game_now_at(now);
        if step == 0 {
            return self.view_of(self.strategy.draw_mode(), 0.0, to);
        }
        let owed =
            div_rem(self.lag.overstep().as_nanos(), step).1 + self.since_last_frame(now).as_nanos();
        let alpha = ((owed as f64 / step as f64) as f32).clamp(0.0, FRACTION_MAX);
        self.view_of(self.strategy.draw_mode(), alpha, to)
    }

    /// The game-clock instant at `now`: [`game_now`](Planner::game_now) plus the game time
    /// that has passed since the last frame. The one-step strategies advance game time by
    /// frames, not by real time, so for them it is `game_now` itself.
    pub fn game_now_at(&self, now: Duration) -> Duration {
        self.game_now().saturating_add(self.since_last_frame(now))
    }

    /// Game time passed since the last frame started, for the strategies whose game time
    /// follows real time.
    fn since_last_frame(&self, now: Duration) -> Duration {
        if self.strategy.follows_real_time() {
            self.clock.peek(now, &self.settings)
        } else {
            Duration::ZERO
        }
    }

    // ---- Changing strategy and settings -----------------------------------------------

    /// Switches strategy from the next frame on. Game time, lag and the frame clock carry
    /// over, so the world does not jump: a variable step takes the lag into its next update,
    /// the accumulator strategies go on paying it off in steps, and a one-step strategy
    /// forgives it (less than a step) with its first update. The frame-deadline grid starts
    /// afresh.
    pub fn set_strategy(&mut self, strategy: Strategy) {
        if strategy != self.strategy {
            self.strategy = strategy;
            self.grid.reset();
            self.kept = false;
        }
    }

    /// Replaces the settings from the next frame on.
    ///
    /// The owed time (lag) is kept as it is, so nothing is lost or invented and the game
    /// clock stays continuous. When the step shrinks below the lag, the whole steps now owed
    /// are paid from the next running frame on (never while paused), within `max_updates`.
    /// A change of frame cap, update rate or time scale restarts the deadline grid; resuming
    /// forgets single steps not yet run.
    pub fn set_settings(&mut self, settings: LoopSettings) {
        let pacing_changed = settings.frame_cap != self.settings.frame_cap
            || settings.update_rate != self.settings.update_rate
            || settings.time_scale != self.settings.time_scale;
        if pacing_changed {
            self.grid.reset();
        }
        if !settings.paused {
            self.pending_steps = 0;
        }
        self.settings = settings;
    }

    /// Pauses or resumes (see [`LoopSettings::paused`]). Resuming forgets the single steps
    /// asked for and not yet run: the game runs on from the next frame instead.
    ///
    /// ```
    /// use core::time::Duration;
    /// use looplab_timing::{LoopSettings, Planner, Strategy};
    ///
    /// let mut planner = Planner::new(Strategy::CatchUp, LoopSettings::default());
    /// planner.plan_frame(Duration::ZERO);
    /// planner.single_step();
    /// planner.single_step(); // two steps asked for, one a frame
    /// assert_eq!(planner.plan_frame(Duration::from_millis(10)).updates, 1);
    /// planner.set_paused(false); // the second is forgotten
    /// assert_eq!(planner.plan_frame(Duration::from_millis(20)).updates, 0);
    /// ```
    pub fn set_paused(&mut self, paused: bool) {
        self.set_settings(self.settings.clone().with_paused(paused));
    }

    /// Sets the time scale (see [`LoopSettings::time_scale`]).
    pub fn set_time_scale(&mut self, scale: TimeScale) {
        self.set_settings(self.settings.clone().with_time_scale(scale));
    }

    /// Sets the update rate (see [`LoopSettings::update_rate`]).
    pub fn set_update_rate(&mut self, rate: Rate) {
        self.set_settings(self.settings.clone().with_update_rate(rate));
    }

    /// Sets the frame cap (see [`LoopSettings::frame_cap`]).
    pub fn set_frame_cap(&mut self, cap: Option<Rate>) {
        self.set_settings(self.settings.clone().with_frame_cap(cap));
    }

    /// Sets the limit of updates per frame (see [`LoopSettings::max_updates`]); zero is
    /// refused and changes nothing.
    pub fn set_max_updates(&mut self, max: Option<u32>) -> Result<(), TimingError> {
        self.set_settings(self.settings.clone().with_max_updates(max)?);
        Ok(())
    }

    /// Sets the stall clamp (see [`LoopSettings::max_frame_time`]); zero is refused and
    /// changes nothing.
    pub fn set_max_frame_time(&mut self, max: Option<Duration>) -> Result<(), TimingError> {
        self.set_settings(self.settings.clone().with_max_frame_time(max)?);
        Ok(())
    }

    /// Pauses (if running) and asks for exactly one update of one step in the next frame.
    /// Steps asked for in a row run one a frame (at most a thousand are remembered);
    /// resuming ([`set_paused`](Planner::set_paused)`(false)`) forgets those not yet run.
    pub fn single_step(&mut self) {
        self.settings.paused = true;
        self.pending_steps = self.pending_steps.saturating_add(1).min(1000);
    }

    /// Makes `now` the start of the previous frame, so the real time before it is neither
    /// simulated nor clamped: the game neither fast-forwards nor counts the gap. Call it
    /// after a loading hitch, or when a window that was hidden (and ran no frames) is shown
    /// again. The lag and the game clock are kept; the deadline grid starts afresh.
    pub fn resync(&mut self, now: Duration) {
        self.clock.resync(now);
        self.grid.reset();
    }

    /// Restarts the frame cap's deadline grid at the next frame: its deadline is one interval
    /// after it, not made up by a shorter wait. Call it when the wait for this frame's start
    /// ended late because the CPU was away (the OS woke the loop after its margin, or took
    /// the CPU in the spin: `FrameWait::take_late` with the `spin` feature), so that a frame the
    /// machine delayed is one uneven interval, not two. A loop that makes up every late
    /// frame keeps its cap's rate to the nanosecond; one that restarts loses the stall's
    /// length, once.
    pub fn restart_deadlines(&mut self) {
        self.grid.reset();
    }

    fn take_single_step(&mut self) -> bool {
        let single = self.pending_steps > 0;
        self.pending_steps = self.pending_steps.saturating_sub(1);
        single
    }

    /// The view of `mode` for a frame owing `alpha` of a step, whose present is the
    /// game-clock instant `to`.
    fn view_of(&self, mode: DrawMode, alpha: f32, to: Duration) -> View {
        match mode {
            DrawMode::Latest => View::Latest,
            DrawMode::Interpolate => View::Interpolate { alpha },
            DrawMode::Extrapolate => View::Extrapolate { alpha },
            DrawMode::Predict => View::Predict {
                to,
                from: PredictFrom::Latest,
            },
            DrawMode::PredictKept => View::Predict {
                to,
                from: self.prediction,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ManualClock, Wake};

    use crate::testing::{STEP, ms};

    fn planner(strategy: Strategy) -> Planner {
        Planner::new(strategy, crate::testing::measured())
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
    fn alpha_never_rounds_up_to_one() {
        // A one-second step owing one nanosecond less than a step.
        let settings = crate::testing::measured()
            .with_update_rate(Rate::hz(1.0).unwrap())
            .with_max_frame_time(None)
            .unwrap();
        let mut p = Planner::new(Strategy::Extrapolated, settings);
        p.plan_frame(Duration::ZERO);
        let plan = p.plan_frame(Duration::from_nanos(999_999_999));
        assert_eq!(plan.updates, 0);
        assert!(plan.view.alpha() < 1.0);
        assert!(plan.view.alpha() > 0.999);
        assert!(p.view_at(Duration::from_secs(5)).alpha() < 1.0);
    }

    #[test]
    fn pause_freezes_the_game_and_single_step_runs_exactly_one_update() {
        let mut p = planner(Strategy::Interpolated);
        p.plan_frame(ms(0));
        let running = p.plan_frame(ms(25));
        assert_eq!(running.updates, 1);
        let alpha = running.view.alpha();

        p.set_paused(true);
        let frozen = p.plan_frame(ms(500));
        assert_eq!(frozen.updates, 0);
        assert_eq!(frozen.view.alpha(), alpha, "the picture holds still");
        assert_eq!(frozen.simulated, running.simulated);
        assert_eq!(p.view_at(ms(600)), frozen.view, "and still at draw time");

        p.single_step();
        let stepped = p.plan_frame(ms(520));
        assert_eq!(stepped.updates, 1);
        assert_eq!(stepped.simulated, running.simulated + STEP);
        assert_eq!(stepped.view.alpha(), alpha);
        assert_eq!(p.plan_frame(ms(540)).updates, 0, "one step only");

        // Resuming does not simulate the paused time.
        p.set_paused(false);
        let next = p.plan_frame(ms(550));
        assert_eq!(next.game_now, stepped.game_now + ms(10));
    }

    #[test]
    fn single_step_pauses_every_strategy() {
        for s in Strategy::ALL {
            let mut p = planner(s);
            p.plan_frame(ms(0));
            p.plan_frame(ms(20));
            let before = p.simulated();
            p.single_step();
            assert!(p.settings().paused);
            let plan = p.plan_frame(ms(400));
            assert_eq!((plan.updates, plan.step), (1, STEP), "{s}");
            assert_eq!(plan.simulated, before + STEP, "{s}");
            assert_eq!(p.plan_frame(ms(800)).updates, 0, "{s}");
        }
    }

    #[test]
    fn time_scale_slows_every_strategy_that_follows_real_time() {
        let half = TimeScale::new(0.5).unwrap();
        for s in [Strategy::Variable, Strategy::CatchUp, Strategy::FixedSleep] {
            let mut p = Planner::new(s, crate::testing::measured().with_time_scale(half));
            let mut clock = ManualClock::new();
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
            let settings = crate::testing::measured().with_time_scale(TimeScale::ZERO);
            let mut p = Planner::new(s, settings);
            let mut clock = ManualClock::new();
            for _ in 0..10 {
                assert_eq!(frame(&mut p, &mut clock, ms(5)).updates, 0, "{s}");
            }
            assert_eq!(p.game_now(), Duration::ZERO);
        }
    }

    #[test]
    fn switching_strategy_keeps_the_game_clock_continuous() {
        let mut p = planner(Strategy::Interpolated);
        let mut clock = ManualClock::new();
        p.plan_frame(clock.now());
        for t in [9, 18, 27] {
            clock.advance_to(ms(t));
            p.plan_frame(clock.now());
        }
        let before = p.game_now();
        assert!(p.overstep() > Duration::ZERO);
        // Interpolated to variable: the owed lag goes into the next variable step.
        p.set_strategy(Strategy::Variable);
        clock.advance(ms(5));
        let plan = p.plan_frame(clock.now());
        assert_eq!(plan.game_now, before + ms(5));
        assert_eq!(p.overstep(), Duration::ZERO);
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
        let lag = p.overstep();
        let before = p.game_now();
        p.set_strategy(Strategy::FixedSleep);
        let plan = p.plan_frame(clock.now());
        assert_eq!(p.overstep(), Duration::ZERO);
        assert_eq!(plan.skipped, lag);
        assert_eq!(plan.game_now, plan.simulated);
        assert!(plan.game_now >= before);
    }

    #[test]
    fn changing_the_update_rate_keeps_the_owed_time() {
        let mut p = planner(Strategy::Interpolated);
        p.plan_frame(ms(0));
        p.plan_frame(ms(25)); // one step run, 8.33 ms owed
        let owed = p.overstep();
        let before = p.game_now();
        p.set_update_rate(Rate::hz(20.0).unwrap());
        assert_eq!(p.overstep(), owed, "nothing lost or invented");
        let next = p.plan_frame(ms(25));
        assert_eq!(next.updates, 0);
        assert_eq!(next.game_now, before);
        let exact = owed.as_secs_f64() / 0.05;
        assert!((f64::from(next.view.alpha()) - exact).abs() < 1e-6);
    }

    #[test]
    fn a_shrunken_step_pays_its_owed_steps_when_running_and_never_while_paused() {
        // 1 Hz, 900 ms owed, then 1000 Hz: 900 steps are owed.
        let settings = crate::testing::measured()
            .with_update_rate(Rate::hz(1.0).unwrap())
            .with_max_frame_time(None)
            .unwrap();
        let mut p = Planner::new(Strategy::CatchUp, settings);
        p.plan_frame(ms(0));
        p.plan_frame(ms(900));
        let fast = p
            .settings()
            .clone()
            .with_update_rate(Rate::hz(1000.0).unwrap())
            .with_paused(true);
        p.set_settings(fast);
        let before = p.game_now();
        let paused = p.plan_frame(ms(910));
        assert_eq!(paused.updates, 0, "no updates while paused");
        assert!(paused.view.alpha() < 1.0);
        p.set_paused(false);
        let mut last = before;
        let mut t = 910;
        let mut skipped = Duration::ZERO;
        while p.overstep() >= ms(1) {
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
        assert!(p.simulated() >= ms(890));
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
        assert_eq!(plan.simulated, STEP * 2);
        assert_eq!(p.simulated(), STEP * 2);
        assert_eq!(plan.game_now + plan.skipped, before + ms(101));
        // One update always stays, so the clock moves forward.
        let mut plan = p.plan_frame(ms(200));
        p.abandon(&mut plan, 100);
        assert_eq!(plan.updates, 1);
        assert!(plan.game_now > before);
    }

    #[test]
    fn run_updates_stops_when_told_and_gives_the_rest_up() {
        let mut p = planner(Strategy::CatchUp);
        p.plan_frame(ms(0));
        let mut plan = p.plan_frame(ms(101)); // six steps owed
        let mut ran = 0;
        let n = p.run_updates(&mut plan, |step| {
            assert_eq!(step, STEP);
            ran += 1;
            if ran == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!((n, ran, plan.updates), (2, 2, 2));
        assert_eq!(plan.skipped, STEP * 4);
        assert_eq!(p.simulated(), STEP * 2);
        // A plan that runs to the end is left as it was.
        let mut plan = p.plan_frame(ms(135));
        let planned = plan;
        assert_eq!(p.run_updates(&mut plan, |_| ControlFlow::Continue(())), 2);
        assert_eq!(plan, planned);
    }

    #[test]
    fn resync_neither_simulates_nor_clamps_the_gap() {
        for s in Strategy::ALL {
            let mut p = planner(s);
            let mut clock = ManualClock::new();
            for _ in 0..10 {
                frame(&mut p, &mut clock, ms(5));
            }
            let before = p.game_now();
            // Hidden for ten seconds: no frames; then shown again.
            clock.advance(Duration::from_secs(10));
            p.resync(clock.now());
            clock.advance(ms(5));
            let plan = p.plan_frame(clock.now());
            assert_eq!((plan.elapsed, plan.clamped), (ms(5), Duration::ZERO), "{s}");
            assert!(plan.updates <= 1, "{s}: {} updates", plan.updates);
            assert!(plan.game_now - before <= STEP, "{s}");
            if let Wake::At(t) = plan.wake {
                assert!(
                    t > clock.now(),
                    "{s}: the grid restarted, no burst of frames"
                );
            }
        }
    }

    #[test]
    fn view_at_adds_the_time_since_the_frame() {
        let mut p = planner(Strategy::Extrapolated);
        p.plan_frame(ms(0));
        let plan = p.plan_frame(ms(4));
        assert_eq!(p.view_at(ms(4)), plan.view);
        let later = p.view_at(ms(12)).alpha();
        assert!(
            (f64::from(later) - 12.0 / 16.666667).abs() < 1e-5,
            "{later}"
        );
        assert_eq!(p.game_now_at(ms(12)), ms(12));
        // The latest state is the latest state, whenever it is drawn.
        let mut p = planner(Strategy::CatchUp);
        p.plan_frame(ms(0));
        assert_eq!(p.view_at(ms(8)), View::Latest);
        // One-step strategies do not follow real time between frames.
        let mut p = planner(Strategy::Uncapped);
        p.plan_frame(ms(0));
        assert_eq!(p.game_now_at(ms(8)), p.game_now());
    }

    #[test]
    fn small_setters_change_one_setting_each() {
        let mut p = planner(Strategy::CatchUp);
        p.set_frame_cap(Some(Rate::SIXTY_HZ));
        p.set_max_updates(None).unwrap();
        p.set_max_frame_time(Some(ms(100))).unwrap();
        p.set_time_scale(TimeScale::new(2.0).unwrap());
        let expected = crate::testing::measured()
            .with_frame_cap(Some(Rate::SIXTY_HZ))
            .with_max_updates(None)
            .unwrap()
            .with_max_frame_time(Some(ms(100)))
            .unwrap()
            .with_time_scale(TimeScale::new(2.0).unwrap());
        assert_eq!(p.settings(), &expected);
    }

    #[test]
    fn a_late_frame_is_made_up_unless_the_deadlines_restart() {
        let mut p = planner(Strategy::Interpolated);
        p.set_frame_cap(Some(Rate::hz(100.0).unwrap()));
        assert_eq!(p.plan_frame(ms(0)).wake, Wake::At(ms(10)));
        // Woken 3 ms late: the grid makes it up with a 7 ms wait.
        assert_eq!(p.plan_frame(ms(13)).wake, Wake::At(ms(20)));
        // Woken 3 ms late again, and told the machine did it: a whole interval follows.
        p.restart_deadlines();
        assert_eq!(p.plan_frame(ms(23)).wake, Wake::At(ms(33)));
        assert_eq!(p.plan_frame(ms(33)).wake, Wake::At(ms(43)));
    }

    #[test]
    fn the_frames_delta_is_game_time_since_the_last_frame() {
        let mut p = planner(Strategy::Interpolated);
        assert_eq!(p.plan_frame(ms(0)).delta, Duration::ZERO);
        assert_eq!(p.plan_frame(ms(10)).delta, ms(10));
        assert_eq!(p.plan_frame(ms(30)).delta, ms(20));
        p.set_time_scale(TimeScale::new(0.5).unwrap());
        assert_eq!(p.plan_frame(ms(50)).delta, ms(10), "scaled");
        p.set_paused(true);
        assert_eq!(p.plan_frame(ms(70)).delta, Duration::ZERO, "paused");
        // A one-step strategy's game time moves by its step, and so does its delta.
        let mut one = planner(Strategy::Uncapped);
        one.plan_frame(ms(0));
        assert_eq!(one.plan_frame(ms(3)).delta, STEP);
    }

    #[test]
    fn abandoned_updates_shorten_the_delta() {
        let mut p = planner(Strategy::CatchUp);
        p.plan_frame(ms(0));
        let mut plan = p.plan_frame(ms(100));
        assert_eq!(plan.delta, ms(100));
        p.abandon(&mut plan, 4);
        assert_eq!(plan.delta, ms(100) - STEP * 4);
        assert_eq!(p.plan_frame(ms(110)).delta, ms(10));
    }

    #[test]
    fn a_hitch_is_resynced_not_burst() {
        let settings = crate::testing::measured()
            .with_resync_after(Some(ms(100)))
            .unwrap();
        let mut p = Planner::new(Strategy::Interpolated, settings.clone());
        let mut clamped = Planner::new(Strategy::Interpolated, crate::testing::measured());
        for planner in [&mut p, &mut clamped] {
            planner.plan_frame(ms(0));
            planner.plan_frame(ms(16));
        }
        // A 3 s hitch.
        let hitch = p.plan_frame(ms(3016));
        assert!(hitch.hitch);
        assert_eq!((hitch.updates, hitch.clamped), (0, ms(3000)));
        let burst = clamped.plan_frame(ms(3016));
        assert!(!burst.hitch);
        assert_eq!(burst.updates, 10, "the clamp still bursts");
        // After the hitch the loop runs on as if nothing happened.
        let next = p.plan_frame(ms(3032));
        assert!(!next.hitch);
        assert_eq!(next.updates, 1);
        assert_eq!(next.game_now, ms(32), "the hitch's 3 s are not game time");
        // An ordinary slow frame is not a hitch.
        assert!(!p.plan_frame(ms(3120)).hitch);
    }

    #[test]
    fn substeps_end_every_frame_at_its_time() {
        let settings = crate::testing::measured().with_substeps(true);
        for s in [
            Strategy::CatchUp,
            Strategy::Interpolated,
            Strategy::PredictedKept,
        ] {
            let mut p = Planner::new(s, settings.clone());
            let mut clock = ManualClock::new();
            let mut state = Duration::ZERO; // the simulation's own time
            for k in 0..50u64 {
                let mut plan = p.plan_frame(clock.now());
                let ran = p.run_updates(&mut plan, |dt| {
                    state += dt;
                    ControlFlow::Continue(())
                });
                assert_eq!(state, plan.game_now, "{s}: frame {k}");
                assert_eq!(plan.simulated, plan.game_now);
                assert_eq!(plan.view, View::Latest, "{s}: nothing to blend");
                assert!(plan.substep < STEP);
                assert_eq!(ran, plan.updates + u32::from(!plan.substep.is_zero()));
                clock.advance(ms(7 + k % 5));
            }
        }
        // The one-step and variable strategies have no steps to divide.
        let mut v = Planner::new(Strategy::Variable, settings);
        v.plan_frame(ms(0));
        assert_eq!(v.plan_frame(ms(7)).substep, Duration::ZERO);
    }
}
