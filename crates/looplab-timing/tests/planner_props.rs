//! Properties of the planner over any sequence of frame times and settings changes.

use std::time::Duration;

use looplab_timing::{
    FramePlan, LoopSettings, Planner, PredictFrom, Rate, Strategy as LoopStrategy, TimeScale, View,
};
use proptest::prelude::*;

/// Something that can happen between two frames.
#[derive(Clone, Debug)]
enum Op {
    /// A frame starting this many nanoseconds after the previous one.
    Frame(u64),
    Strategy(usize),
    Ups(f64),
    Cap(Option<f64>),
    MaxUpdates(Option<u32>),
    Clamp(Option<u64>),
    Scale(f64),
    Pause,
    Step,
}

fn op(strategies: &'static [usize]) -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => prop_oneof![0u64..40_000_000, 0u64..400_000_000, 0u64..5_000_000_000].prop_map(Op::Frame),
        1 => proptest::sample::select(strategies).prop_map(Op::Strategy),
        1 => prop_oneof![Just(1.0), Just(25.0), Just(60.0), Just(144.0), Just(1000.0), 1.0f64..2000.0].prop_map(Op::Ups),
        1 => proptest::option::of(1.0f64..1000.0).prop_map(Op::Cap),
        1 => proptest::option::of(1u32..30).prop_map(Op::MaxUpdates),
        1 => proptest::option::of(1_000_000u64..1_000_000_000).prop_map(Op::Clamp),
        1 => prop_oneof![Just(0.0), Just(0.5), Just(1.0), Just(2.0), Just(64.0), 0.0f64..8.0].prop_map(Op::Scale),
        1 => Just(Op::Pause),
        1 => Just(Op::Step),
    ]
}

const ALL: &[usize] = &[0, 1, 2, 3, 4, 5, 6, 7];
/// Variable and the accumulator strategies: the ones whose game clock follows real time.
const TIME_FOLLOWING: &[usize] = &[2, 3, 4, 5, 6, 7];

/// What the test knows independently of the planner.
struct Ledger {
    now: Duration,
    /// Sum of real time counted after the clamp, times the scale in millionths, over frames
    /// that were not frozen.
    scaled_ppm_ns: u128,
    single_steps: Duration,
    skipped: Duration,
}

fn apply(p: &mut Planner, op: &Op) {
    let mut s = p.settings().clone();
    match *op {
        Op::Strategy(i) => p.set_strategy(LoopStrategy::ALL[i]),
        Op::Ups(hz) => s.update_rate = Rate::hz(hz).unwrap(),
        Op::Cap(c) => s.frame_cap = c.map(|hz| Rate::hz(hz).unwrap()),
        Op::MaxUpdates(m) => s = s.with_max_updates(m).unwrap(),
        Op::Clamp(c) => s = s.with_max_frame_time(c.map(Duration::from_nanos)).unwrap(),
        Op::Scale(f) => s.time_scale = TimeScale::new(f).unwrap(),
        Op::Pause => s.paused = !s.paused,
        Op::Step => {
            p.single_step();
            return;
        }
        Op::Frame(_) => return,
    }
    p.set_settings(s);
}

/// Runs `ops`, checking after every frame what must always hold; returns the ledger.
fn run(ops: &[Op], mut check_frame: impl FnMut(&Planner, &FramePlan, bool)) -> (Planner, Ledger) {
    let mut p = Planner::new(LoopStrategy::Interpolated, LoopSettings::default());
    let mut ledger = Ledger {
        now: Duration::ZERO,
        scaled_ppm_ns: 0,
        single_steps: Duration::ZERO,
        skipped: Duration::ZERO,
    };
    let mut last_time = Duration::ZERO;
    let mut last_now = Duration::ZERO;
    let mut first = true;
    // Single steps asked for and not yet run: one runs at each frame; resuming drops them.
    let mut pending: u32 = 0;
    for op in ops {
        apply(&mut p, op);
        match op {
            Op::Step => pending += 1,
            Op::Pause if !p.settings().paused => pending = 0,
            _ => {}
        }
        let Op::Frame(dt) = *op else { continue };
        if !first {
            ledger.now += Duration::from_nanos(dt);
        }
        first = false;
        let s = p.settings().clone();
        let single = pending > 0;
        pending = pending.saturating_sub(1);
        let plan = p.plan_frame(ledger.now);
        let frozen = s.paused || s.time_scale.is_zero();
        if !frozen {
            let counted = plan.elapsed - plan.clamped;
            ledger.scaled_ppm_ns += counted.as_nanos() * s.time_scale.ppm() as u128;
        }
        if single {
            ledger.single_steps += s.step();
        }
        ledger.skipped += plan.skipped;

        assert!(
            plan.simulated >= last_time,
            "simulated time went back: {plan:?}"
        );
        assert!(
            plan.game_now >= last_now,
            "the game clock went back: {plan:?}"
        );
        let alpha = plan.view.alpha();
        assert!((0.0..1.0).contains(&alpha), "alpha {alpha}");
        if let Some(max) = s.max_updates() {
            let allowed = max + u32::from(single);
            assert!(
                plan.updates <= allowed,
                "{} updates over {allowed}",
                plan.updates
            );
        }
        if let View::Interpolate { .. } | View::Extrapolate { .. } = plan.view {
            assert_eq!(plan.step, s.step());
        }
        // A prediction is drawn at the present, and carries a kept copy on only through
        // frames that ran no real update.
        if let View::Predict { to, from } = plan.view {
            assert_eq!(to, plan.game_now);
            assert!(from == PredictFrom::Latest || plan.updates == 0, "{plan:?}");
        }
        // The view at draw time starts from the plan's and only moves forward within the
        // step, and only while the game runs.
        assert_eq!(p.view_at(plan.now), plan.view);
        let later = p.view_at(plan.now + Duration::from_millis(5)).alpha();
        assert!((0.0..1.0).contains(&later), "alpha at draw time {later}");
        if frozen {
            assert_eq!(later, alpha);
        } else {
            assert!(later >= alpha, "{later} < {alpha}");
        }
        check_frame(&p, &plan, frozen);
        last_time = plan.simulated;
        last_now = plan.game_now;
    }
    (p, ledger)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// Any strategy, any settings, any frame times: time never goes back, alpha stays in
    /// [0, 1), and no frame runs more updates than allowed.
    #[test]
    fn clocks_never_go_back_and_limits_hold(ops in proptest::collection::vec(op(ALL), 1..300)) {
        run(&ops, |_, _, _| {});
    }

    /// For the strategies whose game clock follows real time, every nanosecond of scaled real
    /// time is accounted for, exactly: simulated, still owed, single-stepped, or dropped in
    /// the open (by the stall clamp before scaling, or by `max_updates` after).
    #[test]
    fn scaled_real_time_is_conserved_exactly(ops in proptest::collection::vec(op(TIME_FOLLOWING), 1..300)) {
        let ops: Vec<Op> = std::iter::once(Op::Strategy(3)).chain(ops).collect();
        let (p, ledger) = run(&ops, |_, _, _| {});
        let scaled = Duration::from_nanos((ledger.scaled_ppm_ns / 1_000_000) as u64);
        prop_assert_eq!(p.game_now() + ledger.skipped, scaled + ledger.single_steps);
    }

    /// With a fixed step that the updates keep up with (no clamp reached, no update limit),
    /// the fixed-step strategies stay within one step of time scale times real time.
    #[test]
    fn fixed_steps_stay_within_one_step_of_scaled_real_time(
        strategy in proptest::sample::select(&[3usize, 4, 5][..]),
        ups in 1.0f64..1000.0,
        scale in prop_oneof![Just(1.0), Just(0.5), Just(2.0), 0.1f64..4.0],
        frames in proptest::collection::vec(0u64..200_000_000, 1..400),
    ) {
        // As measured: the bound is exact arithmetic (timer sync's own bound, half a step
        // either way, is the delta properties' to check).
        let settings = LoopSettings::default()
            .with_delta_mode(looplab_timing::DeltaMode::Measured)
            .with_update_rate(Rate::hz(ups).unwrap())
            .with_max_updates(None).unwrap()
            .with_max_frame_time(None).unwrap()
            .with_time_scale(TimeScale::new(scale).unwrap());
        let mut p = Planner::new(LoopStrategy::ALL[strategy], settings);
        let step = p.settings().step();
        let ppm = p.settings().time_scale.ppm() as u128;
        let mut now = Duration::ZERO;
        p.plan_frame(now);
        for dt in frames {
            now += Duration::from_nanos(dt);
            let plan = p.plan_frame(now);
            let expected = Duration::from_nanos((now.as_nanos() * ppm / 1_000_000) as u64);
            prop_assert!(plan.simulated <= expected);
            prop_assert!(expected - plan.simulated < step, "{:?} behind", expected - plan.simulated);
        }
    }
}
