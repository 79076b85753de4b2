//! The soak: hours of virtual time for every strategy, with the settings changed at random
//! every few seconds, a stall now and then and an occasional resync, checking against a
//! ledger kept outside the planner that the game clock neither drifts nor loses time.

use std::time::Duration;

use looplab_timing::{LoopSettings, ManualClock, Planner, Rate, Strategy, TimeScale, Wake};

/// xorshift64*: a few lines of seeded randomness, so the soak needs no dependency.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) % n
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

fn random_settings(rng: &mut Rng) -> LoopSettings {
    LoopSettings::default()
        .with_update_rate(
            Rate::hz(rng.pick(&[10.0, 25.0, 30.0, 60.0, 120.0, 240.0, 59.94])).unwrap(),
        )
        .with_frame_cap(Rate::hz(rng.pick(&[0.0, 30.0, 60.0, 144.0])).ok())
        .with_max_updates(rng.pick(&[None, Some(1), Some(5), Some(10)]))
        .unwrap()
        .with_max_frame_time(rng.pick(&[
            None,
            Some(Duration::from_millis(100)),
            Some(LoopSettings::DEFAULT_MAX_FRAME_TIME),
        ]))
        .unwrap()
        .with_time_scale(TimeScale::new(rng.pick(&[0.0, 0.25, 0.5, 1.0, 1.0, 2.0, 3.7])).unwrap())
        .with_paused(rng.below(10) == 0)
}

/// What the soak of one strategy ended with.
#[derive(Debug)]
struct Soaked {
    /// Game clock minus what the ledger says it should read, in nanoseconds.
    drift_ns: i128,
    lag: Duration,
    step: Duration,
    changes: u32,
    resyncs: u32,
}

/// Soaks `strategy` for `hours` of virtual time: frames of 10 to 30 ms, a stall of up to two
/// seconds now and then, settings changed every 1 to 20 s, and the last minute at the
/// defaults.
fn soak(strategy: Strategy, hours: u64, seed: u64) -> Soaked {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut planner = Planner::new(strategy, LoopSettings::default());
    let mut clock = ManualClock::new();
    let end = Duration::from_secs(hours * 3600);
    let settle = end - Duration::from_secs(60);
    let mut next_change = Duration::from_secs(5);
    let (mut changes, mut resyncs) = (0, 0);
    // The ledger: scaled real time (in millionths of a nanosecond), steps run, drops.
    let (mut scaled_ppm_ns, mut stepped, mut skipped) = (0u128, Duration::ZERO, Duration::ZERO);
    while clock.now() < end {
        if clock.now() >= next_change {
            let settings = if clock.now() >= settle {
                LoopSettings::default()
            } else {
                random_settings(&mut rng)
            };
            planner.set_settings(settings);
            changes += 1;
            next_change = clock.now() + Duration::from_millis(1000 + rng.below(19_000));
        }
        let settings = planner.settings().clone();
        let plan = planner.plan_frame(clock.now());
        skipped += plan.skipped;
        stepped += plan.game_advance();
        if !settings.is_frozen() {
            scaled_ppm_ns +=
                (plan.elapsed - plan.clamped).as_nanos() * u128::from(settings.time_scale.ppm());
        }
        let mut cost = Duration::from_millis(10 + rng.below(20));
        if rng.below(50_000) == 0 {
            cost += Duration::from_millis(rng.below(2000));
        }
        clock.advance(cost);
        if let Wake::At(t) = plan.wake {
            clock.advance_to(t);
        }
        if rng.below(20_000) == 0 {
            // Hidden for a while: no frames, then a resync.
            clock.advance(Duration::from_millis(rng.below(30_000)));
            planner.resync(clock.now());
            resyncs += 1;
        }
    }
    let expected = if strategy.follows_real_time() {
        Duration::from_nanos((scaled_ppm_ns / 1_000_000) as u64) - skipped
    } else {
        stepped
    };
    Soaked {
        drift_ns: planner.game_now().as_nanos() as i128 - expected.as_nanos() as i128,
        lag: planner.overstep(),
        step: planner.settings().step(),
        changes,
        resyncs,
    }
}

fn check(hours: u64) {
    for (i, strategy) in Strategy::ALL.into_iter().enumerate() {
        let r = soak(strategy, hours, 7 + i as u64);
        assert_eq!(r.drift_ns, 0, "{strategy}: {r:?}");
        assert!(r.lag < r.step, "{strategy}: {r:?}");
        assert!(r.changes as u64 > 300 * hours, "{strategy}: {r:?}");
        assert!(r.resyncs > 0, "{strategy}: {r:?}");
    }
}

/// A day per strategy: about three seconds in a debug build.
#[test]
fn a_day_of_random_settings_keeps_every_nanosecond() {
    check(24);
}
