//! Average FPS, P1 and P0.1, and the 1% and 0.1% lows of a run of frame times, as
//! CapFrameX defines them (CXWorld/CapFrameX, MIT,
//! `source/CapFrameX.Statistics.NetStandard/FrametimeStatisticProvider.cs`, read at commit
//! 3ba66ff5):
//!
//! - **average FPS**: frames per second of the time they span, `N * 1000 / sum(ms)`, not the
//!   mean of each frame's rate (`GetFpsMetricValue`, `Average`);
//! - **P1, P0.1**: the 1% and 0.1% quantiles of the frames' rates `1000 / ms`, the slow tail
//!   (`P1`, `P0dot1`: "1% percentile", "0.1% percentile"; CapFrameX shows P1 beside the
//!   average by default);
//! - **1% low, 0.1% low**: the mean of the frame times at or above their 99% (99.9%)
//!   quantile, as a rate, `1000 / mean` (`OnePercentLowAverage`, "1% low average").
//!
//! The quantile is the timing crate's [`quantile`](looplab_timing::quantile), definition 8,
//! which MathNet.Numerics computes for CapFrameX. The frame times are the tool's
//! `MsBetweenPresents` for a capture, and the time between presents for a Looplab loop.
//! PresentMon's capture app writes its "1st Percentile FPS" as `1 / p99` of the frame times
//! with another interpolation (Excel's); the two agree to a few hundredths of a frame per
//! second on captures of thousands of frames.

use serde::{Deserialize, Serialize};

/// The field's frame-time figures of a run of frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameTimeFigures {
    /// Frames counted.
    pub frames: usize,
    /// Frames per second of the time they span.
    pub average_fps: f64,
    /// The 1% and 0.1% quantiles of the frames' rates.
    pub p1_fps: f64,
    pub p01_fps: f64,
    /// The rate of the mean of the slowest 1% (0.1%) of frames.
    pub low1_fps: f64,
    pub low01_fps: f64,
    /// The frame times' median and 99th percentile, ms.
    pub median_ms: f64,
    pub p99_ms: f64,
}

impl FrameTimeFigures {
    /// The figures of `frame_times_ms`, in any order; all zero for no frames.
    pub fn of(frame_times_ms: &[f64]) -> Self {
        let runs: Vec<(f64, u64)> = frame_times_ms.iter().map(|&ms| (ms, 1)).collect();
        Self::of_runs(&runs)
    }

    /// The figures of frames given as runs of `(ms, count)` (a sampled log's row stands for
    /// the frames of its interval), in any order: the same figures as of every frame listed
    /// one by one, in memory for the runs alone.
    pub fn of_runs(runs: &[(f64, u64)]) -> Self {
        let mut times: Vec<(f64, u64)> = runs.iter().copied().filter(|r| r.1 > 0).collect();
        if times.is_empty() {
            return Self::default();
        }
        times.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        // The rates in ascending order: the frame times' reversed.
        let rates: Vec<(f64, u64)> = times.iter().rev().map(|&(ms, n)| (rate(ms), n)).collect();
        let n: u64 = times.iter().map(|r| r.1).sum();
        let total: f64 = times.iter().map(|&(ms, k)| ms * k as f64).sum();
        Self {
            frames: usize::try_from(n).unwrap_or(usize::MAX),
            average_fps: rate(total / n as f64),
            p1_fps: quantile_of_runs(&rates, 0.01),
            p01_fps: quantile_of_runs(&rates, 0.001),
            low1_fps: low(&times, 0.99),
            low01_fps: low(&times, 0.999),
            median_ms: quantile_of_runs(&times, 0.5),
            p99_ms: quantile_of_runs(&times, 0.99),
        }
    }
}

/// Frames per second of frames `ms` long (infinite for zero: a frame no time apart).
fn rate(ms: f64) -> f64 {
    1000.0 / ms
}

/// The `q` quantile of the values that `sorted` runs of `(value, count)` list: the same
/// definition as [`quantile`](super::quantile) (its rank `h = (N + 1/3) q + 1/3` between values `floor(h)`
/// and the next), each value found by the runs' cumulative counts rather than listed.
fn quantile_of_runs(sorted: &[(f64, u64)], q: f64) -> f64 {
    let n: u64 = sorted.iter().map(|r| r.1).sum();
    if n == 0 || !(0.0..=1.0).contains(&q) {
        return f64::NAN;
    }
    // The value at rank `k`, from 1.
    let at = |k: u64| {
        let mut seen = 0;
        for &(v, count) in sorted {
            seen += count;
            if seen >= k {
                return v;
            }
        }
        sorted[sorted.len() - 1].0
    };
    let h = (n as f64 + 1.0 / 3.0) * q + 1.0 / 3.0;
    let below = h as u64;
    if below == 0 {
        return at(1);
    }
    if below >= n {
        return at(n);
    }
    let (a, b) = (at(below), at(below + 1));
    a + (h - below as f64) * (b - a)
}

/// The rate of the mean of the `sorted` frame times (runs of `(ms, count)`) at or above
/// their `q` quantile.
fn low(sorted: &[(f64, u64)], q: f64) -> f64 {
    let at = quantile_of_runs(sorted, q);
    let (sum, count) = sorted
        .iter()
        .filter(|r| r.0 >= at)
        .fold((0.0, 0u64), |(s, c), &(ms, k)| (s + ms * k as f64, c + k));
    rate(sum / count.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::quantile;

    #[test]
    fn figures_worked_by_hand() {
        // 999 frames of 10 ms and one of 50 ms: 10.04 s in all.
        let mut times = vec![10.0; 999];
        times.insert(500, 50.0);
        let f = FrameTimeFigures::of(&times);
        assert_eq!(f.frames, 1000);
        // 1000 frames in 10.04 s.
        assert!((f.average_fps - 1000.0 / 10.04).abs() < 1e-9, "{f:?}");
        // P1: the rates' rank (1000 + 1/3) 0.01 + 1/3 = 10.34 lies among the 100 FPS frames.
        assert_eq!(f.p1_fps, 100.0);
        // P0.1: rank (1000 + 1/3) 0.001 + 1/3 = 1.3337, a third of the way from the 20 FPS
        // frame to the first 100 FPS one.
        assert!(
            (f.p01_fps - (20.0 + 0.333_667 * 80.0)).abs() < 1e-3,
            "{f:?}"
        );
        // 1% low: the 99% quantile of the times is 10 ms, so every frame is at or above it
        // and the low is the average (10.04 ms).
        assert!((f.low1_fps - 1000.0 / 10.04).abs() < 1e-9, "{f:?}");
        // 0.1% low: the 99.9% quantile (rank 999.666) is two thirds of the way from 10 to
        // 50 ms, 36.67 ms: only the 50 ms frame is above it.
        assert_eq!(f.low01_fps, 20.0);
        assert_eq!(f.median_ms, 10.0);
        assert_eq!(f.p99_ms, 10.0);
    }

    #[test]
    fn a_low_averages_the_slow_tail_where_a_percentile_picks_one_frame() {
        // 100 frames: 98 of 10 ms, then 30 and 70 ms.
        let mut times = vec![10.0; 98];
        times.extend([30.0, 70.0]);
        let f = FrameTimeFigures::of(&times);
        // The 99% quantile of the times: rank 99.663, 30 + 0.663 * 40 = 56.53 ms; only the
        // 70 ms frame is at or above it.
        assert!((f.p99_ms - (30.0 + 0.663_333 * 40.0)).abs() < 1e-3, "{f:?}");
        assert!((f.low1_fps - 1000.0 / 70.0).abs() < 1e-9, "{f:?}");
        // P1 interpolates between the rates of the two slow frames: 14.29 and 33.33 FPS.
        let p1 = 1000.0 / 70.0 + 0.336_667 * (1000.0 / 30.0 - 1000.0 / 70.0);
        assert!((f.p1_fps - p1).abs() < 1e-3, "{f:?}");
        assert_eq!(FrameTimeFigures::of(&[]), FrameTimeFigures::default());
    }

    #[test]
    fn runs_give_the_figures_of_their_frames_listed_one_by_one() {
        let runs = [(16.7, 500), (33.4, 3), (8.3, 40), (50.0, 1), (16.6, 250)];
        let listed: Vec<f64> = runs
            .iter()
            .flat_map(|&(ms, n)| std::iter::repeat_n(ms, n as usize))
            .collect();
        let (a, b) = (
            FrameTimeFigures::of_runs(&runs),
            FrameTimeFigures::of(&listed),
        );
        assert_eq!(a.frames, b.frames);
        for (x, y) in [
            (a.average_fps, b.average_fps),
            (a.p1_fps, b.p1_fps),
            (a.p01_fps, b.p01_fps),
            (a.low1_fps, b.low1_fps),
            (a.low01_fps, b.low01_fps),
            (a.median_ms, b.median_ms),
            (a.p99_ms, b.p99_ms),
        ] {
            assert!((x - y).abs() < 1e-9, "{a:?}\n{b:?}");
        }
        // Against the crate's quantile itself, on the listed frames.
        let mut sorted = listed.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(a.p99_ms, quantile(&sorted, 0.99));
    }
}
