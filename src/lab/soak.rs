//! The soak: a day of virtual time for every strategy, with the settings changed at random
//! (seeded) every few seconds, checking that no time is lost, invented or drifted and that
//! memory stays flat.

use std::time::Duration;

use oorandom::Rand32;
use serde::Serialize;

use crate::platform::clock::Stopwatch;
use crate::session::Session;
use crate::world::WorldConfig;
use looplab_timing::{LoopSettings, ManualClock, Rate, Strategy, TimeScale, Wake};

/// One strategy's soak.
#[derive(Clone, Debug, Serialize)]
pub struct SoakResult {
    pub strategy: &'static str,
    pub virtual_hours: f64,
    pub frames: u64,
    pub updates: u64,
    pub settings_changes: u64,
    /// Game clock at the end, seconds.
    pub game_seconds: f64,
    /// What the game clock should read, from the test's own ledger, seconds: scaled real
    /// time (for the strategies that follow real time) or the steps run (for the one-step
    /// strategies), less what the planner reported dropping.
    pub expected_game_seconds: f64,
    /// `game clock - expected`, nanoseconds: zero when nothing drifted.
    pub drift_ns: i128,
    /// Simulated game time behind the game clock at the end, nanoseconds, and the step then.
    pub lag_ns: u128,
    pub step_ns: u128,
    pub wall_seconds: f64,
}

/// The knobs the soak turns, and how far.
fn random_settings(rng: &mut Rand32) -> LoopSettings {
    let pick = |rng: &mut Rand32, xs: &[f64]| xs[rng.rand_range(0..xs.len() as u32) as usize];
    LoopSettings::default()
        .with_update_rate(
            Rate::hz(pick(rng, &[10.0, 25.0, 30.0, 60.0, 120.0, 240.0, 59.94]))
                .unwrap_or(Rate::SIXTY_HZ),
        )
        .with_frame_cap(Rate::hz(pick(rng, &[0.0, 30.0, 60.0, 144.0])).ok())
        .with_max_updates(match rng.rand_range(0..4) {
            0 => None,
            k => Some([1, 5, 10][k as usize - 1]),
        })
        .expect("limits of 1 to 10 updates are accepted")
        .with_max_frame_time(match rng.rand_range(0..3) {
            0 => None,
            1 => Some(Duration::from_millis(100)),
            _ => Some(LoopSettings::DEFAULT_MAX_FRAME_TIME),
        })
        .expect("clamps of 100 and 250 ms are accepted")
        .with_time_scale(
            TimeScale::new(pick(rng, &[0.0, 0.25, 0.5, 1.0, 1.0, 2.0, 3.7]))
                .unwrap_or(TimeScale::ONE),
        )
        .with_paused(rng.rand_range(0..10) == 0)
}

/// Soaks `strategy` for `hours` of virtual time: frames cost 10-30 ms (seeded), a stall of
/// up to 2 s now and then, settings changed every 1-20 s, and the last minute at the
/// defaults so the ledger can be closed.
pub fn soak(strategy: Strategy, hours: f64, seed: u64) -> SoakResult {
    let started = Stopwatch::start();
    let index = Strategy::ALL
        .iter()
        .position(|&s| s == strategy)
        .unwrap_or(0);
    let mut rng = Rand32::new(seed ^ index as u64);
    let mut session = Session::new(
        strategy,
        LoopSettings::default(),
        &WorldConfig { seed, bullets: 0 },
    );
    let mut clock = ManualClock::default();
    let end = Duration::from_secs_f64(hours * 3600.0);
    let settle = end.saturating_sub(Duration::from_secs(60));
    let mut next_change = Duration::from_secs(5);
    let (mut frames, mut updates, mut changes) = (0u64, 0u64, 0u64);
    // The ledger: scaled real time in nanoseconds times a million, steps run, drops.
    let (mut scaled_ppm_ns, mut stepped, mut skipped) = (0u128, Duration::ZERO, Duration::ZERO);
    while clock.now() < end {
        if clock.now() >= next_change {
            let settings = if clock.now() >= settle {
                LoopSettings::default()
            } else {
                random_settings(&mut rng)
            };
            session.set_settings(settings);
            changes += 1;
            next_change =
                clock.now() + Duration::from_millis(1000 + rng.rand_range(0..19_000) as u64);
        }
        let s = session.planner().settings().clone();
        let plan = session.frame(clock.now(), |_, _| {});
        frames += 1;
        updates += plan.updates as u64;
        skipped += plan.skipped;
        stepped += plan.game_advance();
        if !(s.paused || s.time_scale.is_zero()) {
            scaled_ppm_ns += (plan.elapsed - plan.clamped).as_nanos() * s.time_scale.ppm() as u128;
        }
        let mut cost = Duration::from_millis(10 + rng.rand_range(0..20) as u64);
        if rng.rand_range(0..50_000) == 0 {
            cost += Duration::from_millis(rng.rand_range(0..2000) as u64);
        }
        clock.advance(cost);
        if let Wake::At(t) = plan.wake {
            clock.advance_to(t);
        }
    }
    let game_now = session.planner().game_now();
    let expected = if strategy.follows_real_time() {
        Duration::from_nanos((scaled_ppm_ns / 1_000_000) as u64).saturating_sub(skipped)
    } else {
        stepped
    };
    SoakResult {
        strategy: strategy.id(),
        virtual_hours: clock.now().as_secs_f64() / 3600.0,
        frames,
        updates,
        settings_changes: changes,
        game_seconds: game_now.as_secs_f64(),
        expected_game_seconds: expected.as_secs_f64(),
        drift_ns: game_now.as_nanos() as i128 - expected.as_nanos() as i128,
        lag_ns: session.planner().overstep().as_nanos(),
        step_ns: session.planner().settings().step().as_nanos(),
        wall_seconds: started.elapsed().as_secs_f64(),
    }
}

/// The soak report: every strategy, and the process's resident memory before and after.
#[derive(Clone, Debug, Serialize)]
pub struct SoakReport {
    pub hours: f64,
    pub seed: u64,
    pub results: Vec<SoakResult>,
    /// Resident memory (Linux `VmRSS`), KiB, after the first two strategies' soaks and at
    /// the end: a leak or an unbounded buffer would show as growth between the two.
    pub rss_start_kib: Option<u64>,
    pub rss_end_kib: Option<u64>,
    pub wall_seconds: f64,
}

/// Soaks every strategy, two at a time.
pub fn soak_all(hours: f64, seed: u64) -> SoakReport {
    let started = Stopwatch::start();
    let mut rss_start_kib = None;
    let mut results: Vec<SoakResult> = Vec::new();
    for pair in Strategy::ALL.chunks(2) {
        if !results.is_empty() && rss_start_kib.is_none() {
            rss_start_kib = crate::platform::process::rss_kib();
        }
        let pair_results: Vec<SoakResult> = std::thread::scope(|scope| {
            let handles: Vec<_> = pair
                .iter()
                .map(|&s| scope.spawn(move || soak(s, hours, seed)))
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        });
        results.extend(pair_results);
    }
    SoakReport {
        hours,
        seed,
        results,
        rss_start_kib,
        rss_end_kib: crate::platform::process::rss_kib(),
        wall_seconds: started.elapsed().as_secs_f64(),
    }
}

/// The report as text.
pub fn table(r: &SoakReport) -> String {
    use crate::text::table::Table;
    use std::fmt::Write as _;
    let mut out = format!(
        "Soak: {} h of virtual time per strategy, settings changed at random (seed {})\n",
        r.hours, r.seed
    );
    let mut table = Table::new(&[
        "strategy",
        "frames",
        "updates",
        "changes",
        "game s",
        "expected s",
        "drift ns",
        "lag/step",
        "wall s",
    ]);
    for s in &r.results {
        table.row([
            s.strategy.to_string(),
            s.frames.to_string(),
            s.updates.to_string(),
            s.settings_changes.to_string(),
            format!("{:.3}", s.game_seconds),
            format!("{:.3}", s.expected_game_seconds),
            s.drift_ns.to_string(),
            format!("{:.3}", s.lag_ns as f64 / s.step_ns.max(1) as f64),
            format!("{:.1}", s.wall_seconds),
        ]);
    }
    out += &table.text();
    let kib =
        |k: Option<u64>| k.map_or("-".to_string(), |k| format!("{:.1} MiB", k as f64 / 1024.0));
    let _ = writeln!(
        out,
        "resident memory: {} after the first two soaks, {} at the end; {:.1} s in all",
        kib(r.rss_start_kib),
        kib(r.rss_end_kib),
        r.wall_seconds
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hour_soak_keeps_every_nanosecond() {
        for strategy in [Strategy::CatchUp, Strategy::FixedSleep, Strategy::Variable] {
            let r = soak(strategy, 0.5, 7);
            assert_eq!(r.drift_ns, 0, "{r:?}");
            assert!(r.settings_changes > 50, "{r:?}");
            assert!(r.lag_ns < r.step_ns, "{r:?}");
        }
    }
}
