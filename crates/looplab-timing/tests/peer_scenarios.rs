//! The scenarios two peers test their own fixed steps with, asked of this crate: `bevy_time`
//! 0.20 (`Time<Fixed>`, `Time<Virtual>` and its App-level fixed schedule) and `game-loop`
//! 1.3. The situations and the figures they expect are theirs; the tests are written here, in
//! this crate's terms, and none of their code is used. Where this crate deliberately behaves
//! otherwise, the test says so, and why, and checks what it does instead.
//!
//! Every planner here reads deltas as measured (the crate's default, timer sync, would move
//! the figures to its own grid) and has neither the stall clamp nor the update limit unless a
//! scenario is about them, as the peers' own scenarios have neither.

use std::time::Duration;

use looplab_timing::{
    Accumulator, DeltaMode, FramePlan, LoopSettings, Planner, Rate, Strategy, TimeScale,
};

fn ms(x: u64) -> Duration {
    Duration::from_millis(x)
}

fn us(x: u64) -> Duration {
    Duration::from_micros(x)
}

/// An interpolating planner at `hz` with no clamp, no limit and measured deltas.
fn planner(hz: f64) -> Planner {
    Planner::new(Strategy::Interpolated, unguarded(hz))
}

fn unguarded(hz: f64) -> LoopSettings {
    LoopSettings::default()
        .with_update_rate(Rate::hz(hz).unwrap())
        .with_max_updates(None)
        .unwrap()
        .with_max_frame_time(None)
        .unwrap()
        .with_delta_mode(DeltaMode::Measured)
}

fn alpha(plan: &FramePlan) -> f32 {
    plan.view.alpha()
}

// bevy_time, `Time<Fixed>`: a step of 2 s, fed a second at a time.
#[test]
fn bevy_expend_a_step_is_taken_once_a_whole_step_is_owed() {
    let step = Duration::from_secs(2);
    let mut lag = Accumulator::new();
    lag.accumulate(Duration::from_secs(1));
    assert_eq!(lag.overstep_fraction(step), 0.5);
    assert!(!lag.expend(step), "half a step owed: no update");
    assert_eq!(lag.overstep(), Duration::from_secs(1));
    lag.accumulate(Duration::from_secs(1));
    assert!(lag.expend(step), "a whole step owed: one update");
    assert_eq!(
        (lag.overstep(), lag.overstep_fraction(step)),
        (Duration::ZERO, 0.0)
    );
    assert!(!lag.expend(step));
    lag.accumulate(Duration::from_secs(1));
    assert_eq!(lag.overstep_fraction(step), 0.5);

    // The same through the planner, frames a second apart: 0, 1, 0 updates, the view half,
    // none, then half a step between the states.
    let mut p = planner(0.5);
    p.plan_frame(Duration::ZERO);
    let plans: Vec<FramePlan> = (1..=3)
        .map(|s| p.plan_frame(Duration::from_secs(s)))
        .collect();
    let seen: Vec<(u32, f32)> = plans.iter().map(|f| (f.updates, alpha(f))).collect();
    assert_eq!(seen, [(0, 0.5), (1, 0.0), (0, 0.5)]);
    assert_eq!(plans[1].simulated, Duration::from_secs(2));
}

// bevy_time, `Time<Fixed>`: 7 s owed at a 2 s step.
#[test]
fn bevy_expend_multiple_a_long_frame_pays_every_whole_step_and_keeps_the_rest() {
    let mut lag = Accumulator::new();
    lag.accumulate(Duration::from_secs(7));
    let step = Duration::from_secs(2);
    let mut updates = 0;
    while lag.expend(step) {
        updates += 1;
    }
    assert_eq!((updates, lag.overstep()), (3, Duration::from_secs(1)));

    let mut p = planner(0.5);
    p.plan_frame(Duration::ZERO);
    let plan = p.plan_frame(Duration::from_secs(7));
    assert_eq!((plan.updates, alpha(&plan)), (3, 0.5));
    assert_eq!(plan.simulated, Duration::from_secs(6));
}

// bevy_time, its App with `TimePlugin`: 64 Hz, frames of half a step and a millisecond.
#[test]
fn bevy_fixed_main_sixty_four_hz_under_frames_of_half_a_step_and_a_millisecond() {
    // 15.625 ms steps, frames of 8.8125 ms; bevy's first frame only anchors the clock, as a
    // planner's first frame does. Updates so far 0, 0, 1, 1, 2; owed time 0, 8.8125, 2,
    // 10.8125, 4 ms.
    let mut p = planner(64.0);
    let frame = us(8812) + Duration::from_nanos(500);
    let mut updates = 0;
    let mut seen = Vec::new();
    for k in 0..5u32 {
        updates += p.plan_frame(frame * k).updates;
        seen.push((updates, p.overstep()));
    }
    let owed = [0, 8_812_500, 2_000_000, 10_812_500, 4_000_000].map(Duration::from_nanos);
    assert_eq!(
        seen,
        [0, 0, 1, 1, 2].into_iter().zip(owed).collect::<Vec<_>>()
    );
}

// bevy_time, `Time<Virtual>`: relative speed.
#[test]
fn bevy_relative_speed_scales_the_game_time_of_the_frames_after_it_is_set() {
    let settings = unguarded(60.0);
    let mut p = Planner::new(Strategy::Interpolated, settings.clone());
    p.plan_frame(Duration::ZERO);
    assert_eq!(p.plan_frame(ms(250)).delta, ms(250));
    p.set_time_scale(TimeScale::ratio(2, 1).unwrap());
    assert_eq!(p.plan_frame(ms(500)).delta, ms(500), "twice the speed");
    p.set_time_scale(TimeScale::ratio(1, 2).unwrap());
    assert_eq!(p.plan_frame(ms(750)).delta, ms(125), "half the speed");
    assert_eq!(p.game_now(), ms(875));
}

// bevy_time, `Time<Virtual>`: pause.
#[test]
fn bevy_pause_a_paused_frame_advances_nothing_and_unpausing_pays_nothing_back() {
    let mut p = planner(60.0);
    p.plan_frame(Duration::ZERO);
    p.plan_frame(ms(250));
    let before = (p.game_now(), p.overstep());
    p.set_paused(true);
    let paused = p.plan_frame(ms(500));
    assert_eq!((paused.delta, paused.updates), (Duration::ZERO, 0));
    assert_eq!((p.game_now(), p.overstep()), before, "the lag is frozen");
    p.set_paused(false);
    // The 250 ms while paused are not owed: the next frame simulates its own 250 ms only.
    let next = p.plan_frame(ms(750));
    assert_eq!(next.delta, ms(250));
    assert_eq!(p.game_now(), ms(500));
}

// bevy_time, `Time<Virtual>`: `max_delta` of 500 ms, then 1 s.
#[test]
fn bevy_max_delta_a_frame_longer_than_the_clamp_counts_as_the_clamp() {
    // bevy's max_delta is this crate's stall clamp. Like bevy's, a frame of exactly the
    // clamp is not clamped.
    let mut p = Planner::new(
        Strategy::Interpolated,
        unguarded(60.0).with_max_frame_time(Some(ms(500))).unwrap(),
    );
    p.plan_frame(Duration::ZERO);
    let mut t = Duration::ZERO;
    let mut frame = |p: &mut Planner, length: Duration| {
        t += length;
        let plan = p.plan_frame(t);
        (plan.delta, plan.clamped)
    };
    assert_eq!(frame(&mut p, ms(250)), (ms(250), Duration::ZERO));
    assert_eq!(frame(&mut p, ms(500)), (ms(500), Duration::ZERO));
    assert_eq!(frame(&mut p, ms(750)), (ms(500), ms(250)));
    p.set_max_frame_time(Some(ms(1000))).unwrap();
    assert_eq!(frame(&mut p, ms(750)), (ms(750), Duration::ZERO));
    assert_eq!(frame(&mut p, ms(1250)), (ms(1000), ms(250)));
    assert_eq!(p.game_now(), ms(3000));
}

// bevy_time 0.20: its clamp falls on the scaled delta. This crate's stall clamp falls on
// the real time a frame took, deliberately: it is there for a stall (a debugger, a swap
// storm, a suspend), which is a fact of real time whatever the game's speed.
#[test]
fn bevy_clamp_after_speed_differs_here_the_clamp_is_on_real_time_and_the_step_budget_on_game_time()
{
    // bevy at speed 0.01, clamp 10 ms, a 16 ms frame: 160 us of game time, unclamped. Here
    // the 16 ms are a stall beyond the clamp: 10 ms of them count, scaled to 100 us.
    let mut p = Planner::new(
        Strategy::Interpolated,
        unguarded(60.0)
            .with_max_frame_time(Some(ms(10)))
            .unwrap()
            .with_time_scale(TimeScale::new(0.01).unwrap()),
    );
    p.plan_frame(Duration::ZERO);
    let plan = p.plan_frame(ms(16));
    assert_eq!((plan.clamped, plan.delta), (ms(6), us(100)));

    // bevy at speed 2000, clamp 1 s, a 16 ms frame: its clamp keeps the frame to 1 s of game
    // time. Here (at this crate's fastest, 1000 times) 16 ms is no stall; 16 s of game time
    // are owed, and the step budget (the crate's default, ten updates a frame) bounds the
    // updates and says what it dropped.
    let mut p = Planner::new(
        Strategy::Interpolated,
        unguarded(60.0)
            .with_max_updates(Some(LoopSettings::DEFAULT_MAX_UPDATES))
            .unwrap()
            .with_max_frame_time(Some(ms(1000)))
            .unwrap()
            .with_time_scale(TimeScale::new(TimeScale::MAX).unwrap()),
    );
    p.plan_frame(Duration::ZERO);
    let plan = p.plan_frame(ms(16));
    assert_eq!(plan.clamped, Duration::ZERO);
    assert_eq!(plan.updates, LoopSettings::DEFAULT_MAX_UPDATES);
    // What the frame shows is ten steps and the fraction owed; the rest of the 16 s is
    // dropped, and said to be.
    let step = Rate::hz(60.0).unwrap().period();
    assert_eq!(plan.delta, step * plan.updates + p.overstep());
    assert_eq!(plan.skipped + plan.delta, ms(16_000));
}

// game-loop: 100 updates a second, frames of 10 ms.
#[test]
fn game_loop_updates_per_second_frames_of_one_step_run_one_update_each() {
    let mut p = planner(100.0);
    p.plan_frame(Duration::ZERO);
    let mut updates = 0;
    let mut simulated = Vec::new();
    let mut t = Duration::ZERO;
    // game-loop's test stops once more than 0.1 s has run: ten updates.
    while p.game_now() <= ms(100) {
        t += ms(10);
        let plan = p.plan_frame(t);
        assert_eq!(plan.updates, 1, "one step a frame at {t:?}");
        updates += plan.updates;
        simulated.push(plan.simulated);
    }
    assert_eq!(updates, 11);
    assert_eq!(&simulated[..3], [ms(10), ms(20), ms(30)]);
}

// game-loop: `max_frame_time` of 0.1 s at 100 updates a second, a frame of 0.2 s.
#[test]
fn game_loop_max_frame_time_a_long_frame_runs_the_clamps_updates_not_its_own() {
    let mut p = Planner::new(
        Strategy::Interpolated,
        unguarded(100.0).with_max_frame_time(Some(ms(100))).unwrap(),
    );
    assert_eq!(p.plan_frame(Duration::ZERO).updates, 0);
    let plan = p.plan_frame(ms(200));
    // "10 updates instead of 20".
    assert_eq!((plan.updates, plan.clamped), (10, ms(100)));
}

// game-loop: the blending factor of a first frame that took almost no time.
#[test]
fn game_loop_blending_factor_a_tiny_frame_shows_a_tiny_fraction_of_a_step() {
    let mut p = planner(100.0);
    p.plan_frame(Duration::ZERO);
    let plan = p.plan_frame(Duration::from_nanos(500));
    let a = alpha(&plan);
    assert!(a > 0.0 && a < 0.0001, "{a}");
    assert_eq!(plan.updates, 0);
}

// game-loop: its `re_accumulate` lets a render measure the time again, unclamped, and its
// blending factor then reads 20 after a 200 ms render. This crate has no second reading:
// a frame's view is planned once, from the time the frame started, and its fraction stays
// below one step, so interpolation never runs past the newest state; the time the render
// took is owed by the next frame, through the clamp like any other.
#[test]
fn game_loop_re_accumulate_differs_here_the_fraction_is_always_below_one_step() {
    let mut p = Planner::new(
        Strategy::Interpolated,
        unguarded(100.0).with_max_frame_time(Some(ms(100))).unwrap(),
    );
    p.plan_frame(Duration::ZERO);
    let first = p.plan_frame(Duration::from_nanos(500));
    assert!(alpha(&first) < 1.0);
    // The 200 ms render ends; the next frame owes it, clamped to 100 ms.
    let next = p.plan_frame(ms(200) + Duration::from_nanos(500));
    assert_eq!((next.updates, next.clamped), (10, ms(100)));
    assert!((0.0..1.0).contains(&alpha(&next)));
}
