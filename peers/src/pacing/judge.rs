//! `looplab-timing` against the best of the other frame limiters, cap by cap, on the
//! figures a limiter is judged by: the time it keeps, how evenly it paces its steady frames
//! and the CPU its waiting costs (see [`Judged`]). Each limiter runs each cap three times;
//! the spread of its three values (lowest to highest) is the noise of its figure, so
//! `looplab-timing` meets the target where its worst run is better than the best peer's
//! best, misses it where its best run is worse than that peer's worst, and is within noise
//! where the two spreads overlap.

use std::fmt::Write as _;

use serde::Serialize;

use looplab::text::table::Table;

use super::{Limiter, PacingRun};

/// A figure the limiters are judged by; on each, lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Judged {
    /// |mean interval / period - 1|: a limiter that runs slow or fast keeps the cap's time
    /// the worse, whatever its spread.
    TimeKept,
    /// The standard deviation of the steady intervals, ms (the hitch's, the one after it
    /// and the first left out).
    SteadySpread,
    /// The 99th percentile of |interval - period| over the steady intervals, ms.
    SteadyOff,
    /// The thread's CPU time over the run's wall time, the frames' work included.
    Cpu,
}

impl Judged {
    pub const ALL: [Judged; 4] = [
        Judged::TimeKept,
        Judged::SteadySpread,
        Judged::SteadyOff,
        Judged::Cpu,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Judged::TimeKept => "time kept |mean/period - 1|",
            Judged::SteadySpread => "steady sd ms",
            Judged::SteadyOff => "steady p99 |off| ms",
            Judged::Cpu => "CPU",
        }
    }

    /// The run's value.
    pub fn of(self, r: &PacingRun) -> f64 {
        let f = &r.figures;
        match self {
            Judged::TimeKept => f.mean_off_period.abs(),
            Judged::SteadySpread => f.steady_stddev_ms,
            Judged::SteadyOff => f.steady_p99_off_ms,
            Judged::Cpu => r.cpu_share,
        }
    }

    /// A value as the report writes it.
    pub fn show(self, v: f64) -> String {
        match self {
            Judged::TimeKept => format!("{:.4}%", v * 100.0),
            Judged::SteadySpread | Judged::SteadyOff => format!("{v:.3}"),
            Judged::Cpu => format!("{:.1}%", v * 100.0),
        }
    }
}

/// One limiter's values of a figure over its runs of a cap.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

impl Spread {
    /// The spread of `values`; `None` for none.
    pub fn of(values: &[f64]) -> Option<Self> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        Some(Spread {
            min: sorted[0],
            median: looplab::metrics::quantile(&sorted, 0.5),
            max: sorted[sorted.len() - 1],
        })
    }
}

/// Where `looplab-timing` stands against the best peer on a figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    /// Its worst run is better than the best peer's best.
    Met,
    /// The two spreads overlap.
    WithinNoise,
    /// Its best run is worse than the best peer's worst.
    Missed,
}

impl Verdict {
    /// `ours` against `best`, lower being better.
    pub fn of(ours: Spread, best: Spread) -> Self {
        if ours.max < best.min {
            Verdict::Met
        } else if ours.min > best.max {
            Verdict::Missed
        } else {
            Verdict::WithinNoise
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Verdict::Met => "met",
            Verdict::WithinNoise => "within noise",
            Verdict::Missed => "missed",
        }
    }
}

/// `looplab-timing` against the best peer on one figure at one cap. The best peer is the
/// one with the lowest median of its runs.
#[derive(Clone, Debug, Serialize)]
pub struct Judgement {
    pub cap_hz: f64,
    pub figure: Judged,
    pub looplab: Spread,
    pub best_peer: &'static str,
    pub best: Spread,
    pub verdict: Verdict,
}

/// Every cap's judgements, in the order the runs name the caps.
pub fn judge(runs: &[PacingRun]) -> Vec<Judgement> {
    let mut caps: Vec<f64> = Vec::new();
    for r in runs {
        if !caps.contains(&r.cap_hz) {
            caps.push(r.cap_hz);
        }
    }
    caps.iter()
        .flat_map(|&hz| Judged::ALL.map(|figure| judge_one(runs, hz, figure)))
        .flatten()
        .collect()
}

/// `figure`'s spread of `limiter`'s runs at `hz`.
fn spread(runs: &[PacingRun], limiter: Limiter, hz: f64, figure: Judged) -> Option<Spread> {
    let values: Vec<f64> = runs
        .iter()
        .filter(|r| r.limiter == limiter && r.cap_hz == hz)
        .map(|r| figure.of(r))
        .collect();
    Spread::of(&values)
}

/// `looplab-timing` against the best peer on `figure` at `hz`; `None` where either has no
/// run there.
fn judge_one(runs: &[PacingRun], hz: f64, figure: Judged) -> Option<Judgement> {
    let looplab = spread(runs, Limiter::Looplab, hz, figure)?;
    let (best_peer, best) = Limiter::ALL
        .into_iter()
        .filter(|&l| l != Limiter::Looplab)
        .filter_map(|l| Some((l, spread(runs, l, hz, figure)?)))
        .min_by(|a, b| a.1.median.total_cmp(&b.1.median))?;
    Some(Judgement {
        cap_hz: hz,
        figure,
        looplab,
        best_peer: best_peer.name(),
        best,
        verdict: Verdict::of(looplab, best),
    })
}

/// The judgements at `hz` as lines: each figure, `looplab-timing`'s spread over its runs,
/// the best peer's, and the verdict.
pub fn lines(judgements: &[Judgement], hz: f64) -> String {
    let mut table = Table::new(&["figure", "looplab-timing", "best peer", "", "verdict"])
        .text_column(3)
        .text_column(4)
        .indent("  ");
    for j in judgements.iter().filter(|j| j.cap_hz == hz) {
        let range = |s: Spread| format!("{}..{}", j.figure.show(s.min), j.figure.show(s.max));
        table.row([
            j.figure.name().to_string(),
            range(j.looplab),
            range(j.best),
            format!("({})", j.best_peer),
            j.verdict.name().to_string(),
        ]);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "looplab-timing against the best peer at {hz} Hz, the lowest to the highest of each's runs (lower is better):"
    );
    out += &table.text();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pacing::figures::tests::{PERIOD, never_recovering_by, recovering};

    /// Three runs of `limiter` at 100 Hz, one for each interval series, each at `cpu`.
    fn runs(limiter: Limiter, series: [Vec<f64>; 3], cpu: [f64; 3]) -> Vec<PacingRun> {
        (0..3)
            .map(|k| PacingRun::new(limiter, 1e3 / PERIOD, k as u32 + 1, &series[k], cpu[k]))
            .collect()
    }

    fn judgement(all: &[PacingRun], figure: Judged) -> Judgement {
        let j = judge(all);
        j.into_iter().find(|j| j.figure == figure).expect("judged")
    }

    #[test]
    fn the_limiter_that_makes_a_hitch_up_keeps_time_better_than_one_that_never_does() {
        let mut all = runs(
            Limiter::Looplab,
            [recovering(), recovering(), recovering()],
            [0.15, 0.16, 0.17],
        );
        // thread::sleep oversleeping 0.05, 0.08 and 0.12 ms: (10 + 119 * e) / 1210 slow,
        // 1.318%, 1.613% and 2.007%.
        all.extend(runs(
            Limiter::ThreadSleep,
            [0.05, 0.08, 0.12].map(never_recovering_by),
            [0.14, 0.14, 0.14],
        ));
        let kept = judgement(&all, Judged::TimeKept);
        assert_eq!(kept.best_peer, "thread::sleep");
        assert!(kept.looplab.max < 1e-12, "{kept:?}");
        assert!((kept.best.min - 15.95 / 1210.0).abs() < 1e-9, "{kept:?}");
        assert!((kept.best.median - 19.52 / 1210.0).abs() < 1e-9, "{kept:?}");
        assert!((kept.best.max - 24.28 / 1210.0).abs() < 1e-9, "{kept:?}");
        assert_eq!(kept.verdict, Verdict::Met);
        // thread::sleep's steady intervals are each the period and one oversleep: no spread,
        // against the recovering one's 0.3 ms pair (0.039 ms).
        assert_eq!(
            judgement(&all, Judged::SteadySpread).verdict,
            Verdict::Missed
        );
        // 0.3 ms off at the 99th percentile against 0.05 to 0.12.
        assert_eq!(judgement(&all, Judged::SteadyOff).verdict, Verdict::Missed);
        // 15-17% of a core against 14%.
        assert_eq!(judgement(&all, Judged::Cpu).verdict, Verdict::Missed);
    }

    #[test]
    fn spreads_that_overlap_are_within_noise_and_the_best_peer_has_the_lowest_median() {
        let s = |min, median, max| Spread { min, median, max };
        assert_eq!(
            Verdict::of(s(1.0, 1.5, 2.0), s(2.5, 3.0, 4.0)),
            Verdict::Met
        );
        assert_eq!(
            Verdict::of(s(1.0, 1.5, 2.5), s(2.5, 3.0, 4.0)),
            Verdict::WithinNoise
        );
        assert_eq!(
            Verdict::of(s(3.0, 3.5, 5.0), s(2.5, 3.0, 4.0)),
            Verdict::WithinNoise
        );
        assert_eq!(
            Verdict::of(s(4.5, 5.0, 6.0), s(2.5, 3.0, 4.0)),
            Verdict::Missed
        );
        assert_eq!(Spread::of(&[3.0, 1.0, 2.0]), Some(s(1.0, 2.0, 3.0)));

        let mut all = runs(Limiter::Looplab, [0, 1, 2].map(|_| recovering()), [0.2; 3]);
        // Burst's CPU runs 0.10, 0.11 and 0.30 (median 0.11); Delay's 0.12 to 0.13: Burst
        // is the best peer, and its spread reaches looplab-timing's 0.2.
        all.extend(runs(
            Limiter::IntervalBurst,
            [0, 1, 2].map(|_| recovering()),
            [0.10, 0.11, 0.30],
        ));
        all.extend(runs(
            Limiter::IntervalDelay,
            [0, 1, 2].map(|_| recovering()),
            [0.12, 0.12, 0.13],
        ));
        let cpu = judgement(&all, Judged::Cpu);
        assert_eq!(cpu.best_peer, "spin_sleep_util Burst", "{cpu:?}");
        assert_eq!(cpu.verdict, Verdict::WithinNoise, "{cpu:?}");
        // Every limiter's time kept is exact: level, within noise.
        assert_eq!(
            judgement(&all, Judged::TimeKept).verdict,
            Verdict::WithinNoise
        );
    }
}
