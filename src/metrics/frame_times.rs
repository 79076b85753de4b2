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

use serde::Serialize;

use super::quantile;

/// The field's frame-time figures of a run of frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
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
        if frame_times_ms.is_empty() {
            return Self::default();
        }
        let mut times = frame_times_ms.to_vec();
        times.sort_unstable_by(f64::total_cmp);
        // The rates in ascending order: the frame times' reversed.
        let rates: Vec<f64> = times.iter().rev().map(|&ms| rate(ms)).collect();
        let n = times.len();
        let total: f64 = times.iter().sum();
        Self {
            frames: n,
            average_fps: rate(total / n as f64),
            p1_fps: quantile(&rates, 0.01),
            p01_fps: quantile(&rates, 0.001),
            low1_fps: low(&times, 0.99),
            low01_fps: low(&times, 0.999),
            median_ms: quantile(&times, 0.5),
            p99_ms: quantile(&times, 0.99),
        }
    }
}

/// Frames per second of frames `ms` long (infinite for zero: a frame no time apart).
fn rate(ms: f64) -> f64 {
    1000.0 / ms
}

/// The rate of the mean of the `sorted` frame times at or above their `q` quantile.
fn low(sorted: &[f64], q: f64) -> f64 {
    let at = quantile(sorted, q);
    let slow: Vec<f64> = sorted.iter().copied().filter(|&ms| ms >= at).collect();
    rate(slow.iter().sum::<f64>() / slow.len().max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
