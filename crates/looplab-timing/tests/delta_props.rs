//! Snapping, smoothing and timer sync read frame deltas differently from the clock, but
//! over any long run on any display the game clock they drive stays within a bound of real
//! time.

use std::time::Duration;

use looplab_timing::{DeltaMode, LoopSettings, Planner, Rate, Strategy as LoopStrategy};
use proptest::prelude::*;

/// A display, a machine and a timer: frames start at refreshes (each frame takes one
/// refresh, or two now and then), read with uniform noise.
#[derive(Clone, Debug)]
struct Display {
    refresh_hz: f64,
    update_hz: f64,
    /// Timer noise on each reading, either way, in microseconds.
    noise_us: u64,
    /// Chance in a thousand that a frame misses a refresh.
    missed_per_mille: u32,
    seed: u64,
}

fn display() -> impl Strategy<Value = Display> {
    (
        prop_oneof![
            Just(59.94),
            Just(60.0),
            Just(143.86),
            Just(144.0),
            30.0f64..240.0
        ],
        prop_oneof![Just(60.0), Just(64.0), Just(30.0), 20.0f64..240.0],
        0u64..1_500,
        0u32..300,
        any::<u64>(),
    )
        .prop_map(
            |(refresh_hz, update_hz, noise_us, missed_per_mille, seed)| Display {
                refresh_hz,
                update_hz,
                noise_us,
                missed_per_mille,
                seed,
            },
        )
}

/// Runs 10,000 frames; returns the largest gap between game time and real time seen.
fn worst_drift(d: &Display, mode: DeltaMode, strategy: LoopStrategy) -> (Duration, Duration) {
    let settings = LoopSettings::default()
        .with_update_rate(Rate::hz(d.update_hz).unwrap())
        .with_max_updates(None)
        .unwrap()
        .with_delta_mode(mode);
    let step = settings.step();
    let mut planner = Planner::new(strategy, settings);
    let period = Rate::hz(d.refresh_hz).unwrap().period().as_nanos() as i128;
    let mut rng = d.seed | 1;
    let mut next = || {
        // xorshift: the test's own seeded noise
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let (mut refresh, mut worst) = (1_000i128, Duration::ZERO);
    let mut first = None;
    for _ in 0..10_000 {
        refresh += if next() % 1000 < u64::from(d.missed_per_mille) {
            2
        } else {
            1
        };
        let noise = (next() % (2 * d.noise_us + 1)) as i128 - d.noise_us as i128;
        let now = Duration::from_nanos((refresh * period + noise * 1000) as u64);
        let plan = planner.plan_frame(now);
        let real = now - *first.get_or_insert(now);
        worst = worst.max(plan.game_now.abs_diff(real));
    }
    (worst, step)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn snapping_keeps_the_game_clock_within_a_step(d in display()) {
        let mode = DeltaMode::snapped(Rate::hz(d.refresh_hz).unwrap());
        for strategy in [LoopStrategy::CatchUp, LoopStrategy::Interpolated, LoopStrategy::Variable] {
            let (worst, step) = worst_drift(&d, mode, strategy);
            prop_assert!(worst <= step, "{strategy}: {worst:?} > {step:?}");
        }
    }

    /// Smoothing owes at most a quarter of a frame, plus the noise of the reading it started
    /// from: within a step when a step is at least as long as a frame (60 updates a second
    /// on a 60 Hz or faster display).
    #[test]
    fn smoothing_keeps_the_game_clock_within_a_step_or_a_third_of_a_frame(d in display()) {
        let frame = Rate::hz(d.refresh_hz).unwrap().period();
        for strategy in [LoopStrategy::Extrapolated, LoopStrategy::Variable] {
            let (worst, step) = worst_drift(&d, DeltaMode::smoothed(), strategy);
            let bound = step.max(frame / 3);
            prop_assert!(worst <= bound, "{strategy}: {worst:?} > {bound:?}");
        }
    }

    /// Timer sync keeps the game clock within its bound (half a step by default, up to two)
    /// of real time, plus the noise of the first reading, on any display, for every
    /// strategy that reads deltas.
    #[test]
    fn timer_sync_keeps_the_game_clock_within_its_bound(
        d in display(),
        jitter_fix in prop_oneof![Just(0.5f32), Just(DeltaMode::MAX_JITTER_FIX), 0.0f32..=2.0],
    ) {
        let mode = DeltaMode::synced_within(jitter_fix).unwrap();
        for strategy in [LoopStrategy::CatchUp, LoopStrategy::Interpolated, LoopStrategy::Variable] {
            let (worst, step) = worst_drift(&d, mode, strategy);
            let bound = Duration::from_nanos((f64::from(jitter_fix) * step.as_nanos() as f64) as u64)
                + Duration::from_micros(d.noise_us)
                + Duration::from_nanos(1);
            prop_assert!(worst <= bound, "{strategy}: {worst:?} > {bound:?}");
        }
    }
}
