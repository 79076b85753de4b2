//! One running loop: a planner, the world it advances, and the measurements taken on it.
//!
//! The window and the lab both drive a `Session`, so what the lab measures is what the
//! window does: only the clock (real or virtual) and the cost of a frame differ.

pub mod checkpoint;
pub mod frame;
pub mod input_delay;
pub mod json_lines;
pub mod present;
pub mod recording;
pub mod recording_error;
pub mod ship_input;
pub mod steering;
pub mod timeline;
pub mod trace;

use std::ops::ControlFlow;
use std::time::Duration;

use glam::Vec2;

use crate::world::accuracy::{AccuracyTracker, FrameAccuracy};
use crate::world::ship::{ShipInput, Steer};
use crate::world::{World, WorldConfig};
use frame::FrameRecord;
use looplab_timing::{FramePlan, FrameStats, LoopSettings, Planner, PredictFrom, Strategy, View};
use ship_input::{Button, InputMode, ShipKeys, Taps};
use steering::{SteerChange, SteerLog, SteerScript};

/// A planner, its world and their statistics. The world only ever advances by the
/// planner's steps, so the two are changed only through the methods here.
#[derive(Clone, Debug)]
pub struct Session {
    planner: Planner,
    world: World,
    stats: FrameStats,
    accuracy: AccuracyTracker,
    /// Game time had the game kept to real time (times the time scale) since the counting
    /// began.
    reference: Duration,
    /// Game time the stall clamp dropped since the counting began: the part of the gap
    /// between the game clock and the reference that hitches made.
    hitches: Duration,
    /// Every change of the ship's steering, with the update it applied to.
    steering: SteerLog,
    /// The arrows and the dash as pressed, turned into each update's input.
    ship_keys: ShipKeys,
    /// When set, the ship is steered by this recording instead of the keys.
    script: Option<SteerScript>,
    /// The render tick's copy of the world, run one more update to the present, when the
    /// last frame's view is a prediction. The real world never sees that update.
    prediction: Option<World>,
    /// Where the world's running counts stood when the counting began afresh, so the
    /// captions measure the loop that runs now, not the ones before it.
    since: Baseline,
    /// What began the counting.
    counting: CountFrom,
}

/// What the captions and the frame statistics count from: the last change to the loop,
/// named on screen so that two figures shown together are seen to count over the same time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CountFrom {
    /// The run's start.
    #[default]
    Start,
    /// A strategy chosen.
    Strategy,
    /// The update rate changed: a step of another length is another loop.
    Rate,
    /// A stop of the tour began.
    Stop,
    /// The person pressed a key that changed the loop, at a tour stop's hint.
    Keys,
    /// A hitch (a frame the stall clamp cut short) at a tour stop: its figures begin again.
    Hitch,
}

impl CountFrom {
    /// The window's name, as a caption ends with it.
    pub fn words(self) -> &'static str {
        match self {
            CountFrom::Start => "since the start",
            CountFrom::Strategy => "since the strategy was chosen",
            CountFrom::Rate => "since the update rate changed",
            CountFrom::Stop => "since the stop began",
            CountFrom::Keys => "since your keys",
            CountFrom::Hitch => "since the hitch",
        }
    }
}

/// The world's running measures at a moment: its game time, the darts' counts and the
/// balls' energy. The world keeps counting from its start (its state hash covers the
/// counts); what a caption shows is counted from a baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Baseline {
    game: Duration,
    hits: u64,
    tunnels: u64,
    energy: f64,
    taps: Taps,
}

impl Baseline {
    fn of(world: &World, keys: &ShipKeys) -> Self {
        Self {
            game: world.time(),
            hits: world.darts.hits,
            tunnels: world.darts.tunnels,
            energy: world.balls.energy(),
            taps: keys.taps(),
        }
    }
}

/// The world's measures since the counting began, as the captions give them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinceChosen {
    /// Game time they span.
    pub game: Duration,
    /// Darts that reached the wall, and those of them that went through.
    pub darts: u64,
    pub tunnels: u64,
    /// The balls' relative change of energy: 0 is perfect.
    pub energy_drift: f64,
    /// The arrows' taps and what became of them.
    pub taps: Taps,
    /// What began the counting.
    pub from: CountFrom,
}

impl Session {
    /// A fresh world driven by `strategy` with `settings`.
    pub fn new(strategy: Strategy, settings: LoopSettings, world: &WorldConfig) -> Self {
        Self {
            planner: Planner::new(strategy, settings),
            world: World::new(world),
            stats: FrameStats::default(),
            accuracy: AccuracyTracker::default(),
            reference: Duration::ZERO,
            hitches: Duration::ZERO,
            steering: SteerLog::default(),
            ship_keys: ShipKeys::default(),
            script: None,
            prediction: None,
            since: Baseline::default(),
            counting: CountFrom::Start,
        }
        .with_baseline()
    }

    fn with_baseline(mut self) -> Self {
        self.since = Baseline::of(&self.world, &self.ship_keys);
        self
    }

    /// Starts the frame at `now`: plans it and runs its updates, calling `before_update`
    /// with the world and the step before each one (where a caller models or measures the
    /// cost of an update). Returns the plan; draw with its `view`.
    pub fn frame(
        &mut self,
        now: Duration,
        mut before_update: impl FnMut(&World, Duration),
    ) -> FramePlan {
        self.frame_within(now, |world, step| {
            before_update(world, step);
            ControlFlow::Continue(())
        })
    }

    /// Like [`Session::frame`], but `before_update` may answer [`ControlFlow::Break`] to make
    /// that update the frame's last: the updates not yet run are dropped (and reported in
    /// the plan's `skipped`). The window uses this to keep answering input when updates cost
    /// more than the time they simulate and no update limit is set (the spiral of death).
    pub fn frame_within(
        &mut self,
        now: Duration,
        before_update: impl FnMut(&World, Duration) -> ControlFlow<()>,
    ) -> FramePlan {
        let mut plan = self.plan_frame(now);
        self.run_frame(&mut plan, before_update);
        plan
    }

    /// Plans the frame that starts at `now` without running its updates: a modelled machine
    /// (a compare-mode lane) knows from the plan how long the frame will take, and runs the
    /// updates with [`Session::run_frame`] when its modelled frame completes.
    pub fn plan_frame(&mut self, now: Duration) -> FramePlan {
        self.planner.plan_frame(now)
    }

    /// Runs the updates of `plan` (from [`Session::plan_frame`], nothing else in between),
    /// as [`Session::frame_within`] describes.
    pub fn run_frame(
        &mut self,
        plan: &mut FramePlan,
        mut before_update: impl FnMut(&World, Duration) -> ControlFlow<()>,
    ) {
        let (world, script, steering, keys) = (
            &mut self.world,
            &mut self.script,
            &mut self.steering,
            &mut self.ship_keys,
        );
        keys.frame(plan);
        self.planner.run_updates(plan, |step| {
            match script.as_mut() {
                Some(script) => {
                    if let Some(input) = script.due(world.time()) {
                        world.set_ship_input(input);
                    }
                }
                None => world.set_ship_input(keys.update(step)),
            }
            steering.observe(world);
            let flow = before_update(world, step);
            world.step(step);
            flow
        });
        keys.frame_done();
        self.stats.record_plan(plan);
        self.predict(plan.view);
        let s = self.planner.settings();
        if !s.paused {
            let scale = s.time_scale.factor();
            self.reference += Duration::from_secs_f64(plan.measured.as_secs_f64() * scale);
            self.hitches += Duration::from_secs_f64(plan.clamped.as_secs_f64() * scale);
        }
    }

    /// Makes the copy a prediction `view` draws, or lets it go for any other view: a fresh
    /// copy of the world, or the one kept since the last frame, run one update to the
    /// view's present with the newest input. The copy flies with the newest thrust; a
    /// dash waits for the real update that makes it.
    fn predict(&mut self, view: View) {
        let View::Predict { to, from } = view else {
            self.prediction = None;
            return;
        };
        let world = &self.world;
        let thrust = match &self.script {
            Some(script) => script.peek(to).unwrap_or(world.ship.input).thrust,
            None => self.ship_keys.preview(to.saturating_sub(world.time())),
        };
        let newest = ShipInput { thrust, dashes: 0 };
        let copy = match (&mut self.prediction, from) {
            (Some(kept), PredictFrom::Kept) => kept,
            (Some(copy), _) => {
                copy.copy_from(world);
                copy
            }
            (None, _) => self.prediction.insert(world.clone()),
        };
        copy.set_ship_input(newest);
        let ahead = view.ahead_of(copy.time());
        if !ahead.is_zero() {
            copy.step(ahead);
        }
    }

    /// The world the last frame draws: the prediction when its view is one, else the world
    /// as the last update left it.
    pub fn shown(&self) -> &World {
        self.prediction.as_ref().unwrap_or(&self.world)
    }

    /// The record of the frame `plan` (just returned by [`Session::frame`]), its timings
    /// still to be filled in.
    pub fn record(&self, plan: &FramePlan) -> FrameRecord {
        FrameRecord {
            reference: self.reference,
            time_scale: self.planner.settings().time_scale.factor(),
            ..FrameRecord::planned(plan)
        }
    }

    /// Where the game clock would be had it kept to real time (times the time scale) since
    /// the counting began ([`Session::count_afresh`]).
    pub fn reference(&self) -> Duration {
        self.reference
    }

    /// Game time the stall clamp dropped since the counting began (hitches: a frame
    /// that took longer than the clamp allows).
    pub fn hitches(&self) -> Duration {
        self.hitches
    }

    /// `button` went down at `arrival` (on the clock the frames are planned on). Returns
    /// whether it changed anything. Ignored while a recording steers the ship.
    pub fn press(&mut self, button: Button, arrival: Duration) -> bool {
        self.script.is_none() && self.ship_keys.press(button, arrival)
    }

    /// `button` came up at `arrival`. Returns whether it was held.
    pub fn release(&mut self, button: Button, arrival: Duration) -> bool {
        self.script.is_none() && self.ship_keys.release(button, arrival)
    }

    /// Holds exactly the arrows of `steer` from `arrival` on. Ignored while a recording
    /// steers the ship.
    pub fn steer(&mut self, steer: Steer, arrival: Duration) {
        if self.script.is_none() {
            self.ship_keys.steer(steer, arrival);
        }
    }

    /// The game time from which a press that arrived at `arrival` (on the clock the frames
    /// are planned on) acts on the ship, when that is known already: with accumulated input,
    /// the game-clock instant it arrived. `None` with sampled input, where it acts from the
    /// first update that reads it. What a key-to-screen delay is measured from
    /// ([`InputDelay`](input_delay::InputDelay)).
    pub fn press_acts_from(&self, arrival: Duration) -> Option<Duration> {
        (self.ship_keys.mode() == InputMode::Accumulated).then(|| self.planner.game_now_at(arrival))
    }

    /// The ship's keys: how the updates read them, and the taps and dashes so far.
    pub fn ship_keys(&self) -> &ShipKeys {
        &self.ship_keys
    }

    /// Switches how the updates read the keys.
    pub fn set_input_mode(&mut self, mode: InputMode) {
        self.ship_keys.set_mode(mode);
    }

    /// Steers the ship by `script` from now on (a recording played back).
    pub fn play(&mut self, script: SteerScript) {
        self.script = Some(script);
    }

    /// The recording being played, if any.
    pub fn script(&self) -> Option<&SteerScript> {
        self.script.as_ref()
    }

    /// Adds a change to the script that steers the ship (starting one if none plays): live
    /// input that several sessions apply at the same game time.
    pub fn schedule(&mut self, change: SteerChange) {
        self.script
            .get_or_insert_with(|| SteerScript::new(Vec::new()))
            .push(change);
    }

    /// Every change of the ship's steering so far, with the update it applied to.
    pub fn steering(&self) -> &SteerLog {
        &self.steering
    }

    /// The planner: its strategy, settings and clocks.
    /// Starts the next frame's measure at `now`: the time before is neither simulated nor
    /// clamped (a window that was hidden and paused goes on from where it was).
    pub fn resync(&mut self, now: Duration) {
        self.planner.resync(now);
    }

    /// The wait for this frame ended late because the CPU was away: the cap's next deadline
    /// is one interval after this frame, not made up (see `Planner::restart_deadlines`).
    pub fn restart_deadlines(&mut self) {
        self.planner.restart_deadlines();
    }

    pub fn planner(&self) -> &Planner {
        &self.planner
    }

    /// The world as the last update left it.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// Frame statistics since the counting began.
    pub fn stats(&self) -> &FrameStats {
        &self.stats
    }

    /// How far drawn positions have been from the truth.
    pub fn accuracy(&self) -> &AccuracyTracker {
        &self.accuracy
    }

    /// The loop's settings.
    pub fn settings(&self) -> &LoopSettings {
        self.planner.settings()
    }

    /// Changes the settings from the next frame on.
    pub fn set_settings(&mut self, settings: LoopSettings) {
        let rate = self.planner.settings().update_rate;
        self.planner.set_settings(settings);
        if self.planner.settings().update_rate != rate {
            self.count_afresh(CountFrom::Rate);
        }
    }

    /// Switches strategy (conserving time, as the planner does) and starts the statistics
    /// afresh, so they describe the new strategy alone.
    pub fn set_strategy(&mut self, strategy: Strategy) {
        self.planner.set_strategy(strategy);
        self.count_afresh(CountFrom::Strategy);
    }

    /// Starts the statistics, the metronome's gap and the captions' counts afresh, `from`
    /// naming why.
    pub fn count_afresh(&mut self, from: CountFrom) {
        self.stats.clear();
        self.reference = self.planner.game_now();
        self.hitches = Duration::ZERO;
        self.since = Baseline::of(&self.world, &self.ship_keys);
        self.counting = from;
    }

    /// The darts' counts, the balls' energy drift and the taps since the counting began (a
    /// change of strategy or update rate, a tour stop, a key at one, or a reset starts them
    /// afresh).
    pub fn since_chosen(&self) -> SinceChosen {
        let now = Baseline::of(&self.world, &self.ship_keys);
        let tunnels = now.tunnels.saturating_sub(self.since.tunnels);
        let (taps, before) = (now.taps, self.since.taps);
        SinceChosen {
            game: now.game.saturating_sub(self.since.game),
            darts: now.hits.saturating_sub(self.since.hits) + tunnels,
            tunnels,
            energy_drift: if self.since.energy == 0.0 {
                0.0
            } else {
                (now.energy - self.since.energy) / self.since.energy
            },
            taps: Taps {
                made: taps.made.saturating_sub(before.made),
                reached: taps.reached.saturating_sub(before.reached),
                lost: taps.lost.saturating_sub(before.lost),
                doubled: taps.doubled.saturating_sub(before.doubled),
            },
            from: self.counting,
        }
    }

    /// While paused: lets the next frame run exactly one update.
    pub fn single_step(&mut self) {
        self.planner.single_step();
    }

    /// Grows or shrinks the bullet stream to `count` bullets.
    pub fn set_bullet_count(&mut self, count: usize) {
        self.world.set_bullet_count(count);
    }

    /// Where the frame `plan` draws the metronome, and where it truly is at the game time
    /// the frame shows: how late (or early) the picture is.
    pub fn metronome_drawn(&self, plan: &FramePlan) -> (Vec2, Vec2) {
        let m = &self.shown().metronome;
        (
            plan.view.apply(m.prev, m.pos, m.vel, plan.step),
            self.world.metronome_truth(plan.game_now),
        )
    }

    /// How far past the walls of their box the frame `plan` draws the bouncing balls, px:
    /// a guess ahead that went on where a ball turned. (The metronome turns on a whole
    /// number of round steps, so no guess overshoots it.)
    pub fn overshoot(&self, plan: &FramePlan) -> f32 {
        let b = &self.shown().balls;
        (0..b.pos.len())
            .map(|i| {
                let p = plan.view.apply(b.prev[i], b.pos[i], b.vel[i], plan.step);
                (b.lo - p).max(p - b.hi).max_element()
            })
            .fold(0.0, f32::max)
    }

    /// Measures how far the frame `plan` draws things from their true positions.
    pub fn measure_accuracy(&mut self, plan: &FramePlan) -> FrameAccuracy {
        let shown = self.prediction.as_ref().unwrap_or(&self.world);
        self.accuracy
            .observe(shown, plan.view, plan.step, plan.game_now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use looplab_timing::{ManualClock, Wake};

    /// Runs `seconds` of real time with frames costing `frame_cost`, sleeping when told.
    /// Returns the session and the state hash seen just after the 100th update.
    fn run(
        strategy: Strategy,
        frame_cost: Duration,
        seconds: u64,
    ) -> (Session, Option<crate::world::hash::StateHash>) {
        let mut s = Session::new(
            strategy,
            LoopSettings::default(),
            &WorldConfig {
                seed: 3,
                bullets: 100,
            },
        );
        let mut clock = ManualClock::default();
        let mut hash_at_100 = None;
        while clock.now() < Duration::from_secs(seconds) {
            let plan = s.frame(clock.now(), |world, _| {
                if world.steps() == 100 {
                    hash_at_100 = Some(world.state_hash());
                }
            });
            clock.advance(frame_cost);
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            }
        }
        (s, hash_at_100)
    }

    #[test]
    fn the_captions_measures_start_afresh_when_the_strategy_is_chosen() {
        // A variable step on 80 ms frames sends darts through the wall; catch-up's fixed
        // step after it sends none, and its counts do not inherit the variable step's.
        let mut s = Session::new(
            Strategy::Variable,
            LoopSettings::default(),
            &WorldConfig {
                seed: 3,
                bullets: 10,
            },
        );
        let mut clock = ManualClock::default();
        let mut run_for = |s: &mut Session, seconds: u64, cost: Duration| {
            let until = clock.now() + Duration::from_secs(seconds);
            while clock.now() < until {
                s.frame(clock.now(), |_, _| {});
                clock.advance(cost);
            }
        };
        run_for(&mut s, 6, Duration::from_millis(80));
        let variable = s.since_chosen();
        assert!(variable.tunnels > 0, "{variable:?}");
        assert!(variable.energy_drift.abs() > 0.01, "{variable:?}");
        s.set_strategy(Strategy::CatchUp);
        let fresh = s.since_chosen();
        assert_eq!(
            (fresh.darts, fresh.tunnels, fresh.game),
            (0, 0, Duration::ZERO)
        );
        assert_eq!(fresh.energy_drift, 0.0);
        run_for(&mut s, 6, Duration::from_millis(5));
        let fixed = s.since_chosen();
        assert!(fixed.darts > 0 && fixed.tunnels == 0, "{fixed:?}");
        assert!(
            fixed.energy_drift.abs() < variable.energy_drift.abs(),
            "{fixed:?}"
        );
        assert!(fixed.game >= Duration::from_secs(5), "{fixed:?}");
        // The world itself still counts from its start.
        assert_eq!(s.world().darts.tunnels, variable.tunnels);
    }

    #[test]
    fn fixed_steps_give_the_same_world_whatever_the_frame_rate() {
        // 3 ms frames and 41 ms frames group the updates differently; the steps are the same.
        for strategy in Strategy::ALL.into_iter().filter(|s| s.is_fixed_step()) {
            let (_, fast) = run(strategy, Duration::from_millis(3), 5);
            let (_, slow) = run(strategy, Duration::from_millis(41), 5);
            assert!(fast.is_some(), "{strategy} reached 100 updates");
            assert_eq!(fast, slow, "{strategy}");
        }
    }

    #[test]
    fn the_render_ticks_draw_the_present_and_leave_the_world_alone() {
        let config = WorldConfig {
            seed: 3,
            bullets: 100,
        };
        let settings =
            LoopSettings::default().with_update_rate(looplab_timing::Rate::hz(10.0).unwrap());
        let mut plain = Session::new(Strategy::CatchUp, settings.clone(), &config);
        let mut ticks = [Strategy::Predicted, Strategy::PredictedKept]
            .map(|s| Session::new(s, settings.clone(), &config));
        let mut clock = ManualClock::default();
        let right = Steer::from_held(false, true, false, false);
        let mut ahead_frames = 0;
        for frame in 0..120 {
            if frame == 40 {
                plain.steer(right, clock.now());
                ticks.iter_mut().for_each(|s| s.steer(right, clock.now()));
            }
            let plan = plain.frame(clock.now(), |_, _| {});
            for s in &mut ticks {
                let p = s.frame(clock.now(), |_, _| {});
                assert_eq!(p.updates, plan.updates);
                // The real world is the plain loop's, update for update.
                assert_eq!(s.world().state_hash(), plain.world().state_hash());
                // What is drawn stands at the present.
                assert_eq!(s.shown().time(), p.game_now);
                if s.shown().ship.pos.x > s.world().ship.pos.x {
                    ahead_frames += 1;
                }
            }
            assert!(std::ptr::eq(plain.shown(), plain.world()), "no copy");
            clock.advance(Duration::from_millis(16));
        }
        // Steering right, the drawn ship is ahead of the simulated one between updates.
        assert!(ahead_frames > 100, "{ahead_frames}");
        // A prediction that is not drawn any more is let go.
        ticks[0].set_strategy(Strategy::Interpolated);
        ticks[0].frame(clock.now(), |_, _| {});
        assert!(std::ptr::eq(ticks[0].shown(), ticks[0].world()));
    }

    #[test]
    fn variable_steps_depend_on_the_frame_rate() {
        let (fast, _) = run(Strategy::Variable, Duration::from_millis(3), 3);
        let (slow, _) = run(Strategy::Variable, Duration::from_millis(41), 3);
        assert_ne!(fast.world.state_hash(), slow.world.state_hash());
    }

    #[test]
    fn a_frame_can_stop_its_updates_early() {
        let mut s = Session::new(
            Strategy::CatchUp,
            LoopSettings::default(),
            &WorldConfig {
                seed: 3,
                bullets: 10,
            },
        );
        s.frame(Duration::ZERO, |_, _| {});
        let mut calls = 0;
        let plan = s.frame_within(Duration::from_millis(101), |_, _| {
            calls += 1;
            if calls < 2 {
                ControlFlow::Continue(())
            } else {
                ControlFlow::Break(())
            }
        });
        assert_eq!(plan.updates, 2, "the second update was the last");
        assert_eq!(s.world.steps(), 2);
        assert_eq!(s.world.time(), s.planner.simulated());
        assert_eq!(plan.skipped, plan.step * 4);
    }

    #[test]
    fn stats_and_world_follow_the_plan() {
        let (s, _) = run(Strategy::CatchUp, Duration::from_millis(20), 2);
        let summary = s.stats.summary();
        assert!((summary.fps - 50.0).abs() < 0.5, "{summary:?}");
        assert!((summary.ups - 60.0).abs() < 1.5, "{summary:?}");
        assert!((summary.ratio - 1.0).abs() < 0.03, "{summary:?}");
        assert_eq!(s.world.time(), s.planner.simulated());
    }
}
