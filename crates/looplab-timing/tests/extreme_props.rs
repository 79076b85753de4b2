//! The planner never panics, whatever the timestamps: the largest `Duration`, a clock that
//! starts near it, time that goes back, gaps of centuries, under every strategy, delta mode
//! and limit. Its clocks still never go back, and no frame runs more updates than allowed.

use std::time::Duration;

use looplab_timing::{
    DeltaMode, LoopSettings, Planner, Rate, Strategy as LoopStrategy, TimeScale, View,
};
use proptest::prelude::*;

/// When a frame starts.
#[derive(Clone, Debug)]
enum At {
    /// This many nanoseconds after the last frame.
    After(u64),
    /// This long after the last frame, up to centuries.
    AfterSecs(u64),
    /// At this instant, which may be before the last frame.
    Exactly(Duration),
}

fn at() -> impl Strategy<Value = At> {
    prop_oneof![
        4 => (0u64..40_000_000).prop_map(At::After),
        1 => any::<u64>().prop_map(At::After),
        1 => any::<u64>().prop_map(At::AfterSecs),
        1 => prop_oneof![
            Just(Duration::ZERO),
            Just(Duration::MAX),
            (0u64..1_000_000_000).prop_map(|n| Duration::MAX - Duration::from_nanos(n)),
            any::<u64>().prop_map(Duration::from_nanos),
            any::<u64>().prop_map(Duration::from_secs),
        ]
        .prop_map(At::Exactly),
    ]
}

fn delta_mode() -> impl Strategy<Value = DeltaMode> {
    prop_oneof![
        Just(DeltaMode::Measured),
        Just(DeltaMode::synced()),
        Just(DeltaMode::smoothed()),
        prop_oneof![Just(60.0), Just(59.94), Just(144.0), 1.0f64..1000.0]
            .prop_map(|hz| DeltaMode::snapped(Rate::hz(hz).unwrap())),
    ]
}

fn settings() -> impl Strategy<Value = LoopSettings> {
    (
        prop_oneof![Just(60.0), Just(1000.0), Just(0.5), 0.5f64..2000.0],
        proptest::option::of(1.0f64..1000.0),
        proptest::option::of(1u32..30),
        proptest::option::of(prop_oneof![Just(u64::MAX), 1_000_000u64..1_000_000_000]),
        proptest::option::of(prop_oneof![Just(u64::MAX), 1_000_000u64..1_000_000_000]),
        prop_oneof![Just(1.0), Just(1000.0), Just(0.0), 0.0f64..4.0],
        any::<bool>(),
        delta_mode(),
    )
        .prop_map(|(ups, cap, max, clamp, resync, scale, substeps, mode)| {
            LoopSettings::default()
                .with_update_rate(Rate::hz(ups).unwrap())
                .with_frame_cap(cap.map(|hz| Rate::hz(hz).unwrap()))
                .with_max_updates(max)
                .unwrap()
                .with_max_frame_time(clamp.map(Duration::from_nanos))
                .unwrap()
                .with_resync_after(resync.map(Duration::from_nanos))
                .unwrap()
                .with_time_scale(TimeScale::new(scale).unwrap())
                .with_substeps(substeps)
                .with_delta_mode(mode)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn extreme_timestamps_neither_panic_nor_turn_a_clock_back(
        strategy in 0usize..LoopStrategy::ALL.len(),
        settings in settings(),
        first in prop_oneof![Just(Duration::ZERO), Just(Duration::MAX), any::<u64>().prop_map(Duration::from_secs)],
        frames in proptest::collection::vec(at(), 1..60),
    ) {
        let max_updates = settings.max_updates();
        let mut planner = Planner::new(LoopStrategy::ALL[strategy], settings);
        let mut now = first;
        let mut last = planner.plan_frame(now);
        for frame in frames {
            now = match frame {
                At::After(ns) => now.saturating_add(Duration::from_nanos(ns)),
                At::AfterSecs(s) => now.saturating_add(Duration::from_secs(s)),
                At::Exactly(at) => at,
            };
            let plan = planner.plan_frame(now);
            prop_assert!(plan.simulated >= last.simulated, "{plan:?} after {last:?}");
            prop_assert!(plan.game_now >= last.game_now, "{plan:?} after {last:?}");
            if let Some(max) = max_updates {
                prop_assert!(plan.updates <= max, "{plan:?}");
            }
            if let View::Interpolate { alpha } | View::Extrapolate { alpha } = plan.view {
                prop_assert!((0.0..1.0).contains(&alpha), "{plan:?}");
            }
            // What a driver asks between frames holds too.
            let _ = planner.view_at(now.saturating_add(Duration::from_millis(5)));
            let _ = planner.game_now_at(Duration::MAX);
            last = plan;
        }
    }
}

/// The case that panicked: the default loop, then a frame at the end of time.
#[test]
fn a_frame_at_the_largest_duration_is_planned() {
    for strategy in LoopStrategy::ALL {
        let mut planner = Planner::new(strategy, LoopSettings::default());
        planner.plan_frame(Duration::ZERO);
        let plan = planner.plan_frame(Duration::MAX);
        assert!(
            plan.updates <= LoopSettings::DEFAULT_MAX_UPDATES,
            "{plan:?}"
        );
        assert!(
            !plan.clamped.is_zero(),
            "{strategy:?}: the stall clamp took the rest: {plan:?}"
        );
    }
}
