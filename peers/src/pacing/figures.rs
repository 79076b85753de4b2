//! The figures of one paced run, from the intervals between its frame starts, and which of
//! those intervals are the modelled hitch's.
//!
//! Every run carries a hitch of one and a half periods every [`HITCH_EVERY`]th frame. The
//! hitch's own interval is long whatever the limiter, and the interval after it is where a
//! limiter decides whether to make the lost time up (a short frame) or let it go (a full
//! one). Over all intervals, a limiter that makes the time up shows the larger spread for
//! keeping time; so the figures a limiter is judged by keep the two apart: the time kept
//! over every interval, and the spread of the *steady* intervals, the hitch's and the
//! recovery's left out.

use serde::Serialize;

/// The hitch's frame comes once in this many frames, the last of each such run of frames.
pub const HITCH_EVERY: usize = 60;

/// Whether frame `k` (from 0) is a hitch: its work takes one and a half periods.
pub fn is_hitch(k: usize) -> bool {
    k % HITCH_EVERY == HITCH_EVERY - 1
}

/// Whether interval `k` (frame `k`'s start to frame `k + 1`'s) is steady: neither a
/// hitch's, nor the one after a hitch (the recovery), nor the first (the limiter's start,
/// which spin_sleep_util's `Interval` does not wait for at all). What a limiter does in the
/// steady intervals is how evenly it paces frames that did not overrun.
pub fn is_steady(k: usize) -> bool {
    k != 0 && !is_hitch(k) && !is_hitch(k - 1)
}

/// A frame interval more than this far from the period is late or early, ms.
const LATE_EARLY_MS: f64 = 1.0;

/// The figures of one run's intervals, ms, against the cap's `period_ms`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct IntervalFigures {
    /// The mean interval over every interval: the time the limiter kept.
    pub mean_ms: f64,
    /// `(mean - period) / period`: above 0 the limiter runs slow (fewer frames than the
    /// cap allows, and a game paced by it falls behind), below 0 fast.
    pub mean_off_period: f64,
    /// The population standard deviation of every interval, the hitches' included: it
    /// counts a recovery's short frame against the limiter that made the time up, so it is
    /// shown and not judged.
    pub stddev_ms: f64,
    /// The 99th percentile interval over every interval.
    pub p99_ms: f64,
    /// Intervals more than a millisecond longer than the period, the hitches' own left out.
    pub late: usize,
    /// Intervals more than a millisecond shorter than the period.
    pub early: usize,
    /// How many intervals are steady ([`is_steady`]).
    pub steady_intervals: usize,
    /// The population standard deviation of the steady intervals (about their own mean).
    pub steady_stddev_ms: f64,
    /// The 99th percentile of |interval - period| over the steady intervals.
    pub steady_p99_off_ms: f64,
}

impl IntervalFigures {
    /// The figures of `intervals` (interval `k` is frame `k`'s, ms) paced to `period_ms`.
    pub fn of(intervals: &[f64], period_ms: f64) -> Self {
        let mean = mean(intervals);
        let steady: Vec<f64> = intervals
            .iter()
            .enumerate()
            .filter(|&(k, _)| is_steady(k))
            .map(|(_, &x)| x)
            .collect();
        let off: Vec<f64> = steady.iter().map(|x| (x - period_ms).abs()).collect();
        IntervalFigures {
            mean_ms: mean,
            mean_off_period: (mean - period_ms) / period_ms,
            stddev_ms: stddev(intervals),
            p99_ms: p99(intervals),
            late: intervals
                .iter()
                .enumerate()
                .filter(|&(k, &x)| !is_hitch(k) && x > period_ms + LATE_EARLY_MS)
                .count(),
            early: intervals
                .iter()
                .filter(|&&x| x < period_ms - LATE_EARLY_MS)
                .count(),
            steady_intervals: steady.len(),
            steady_stddev_ms: stddev(&steady),
            steady_p99_off_ms: p99(&off),
        }
    }
}

/// The mean of `xs`; 0 for none.
fn mean(xs: &[f64]) -> f64 {
    xs.iter().sum::<f64>() / xs.len().max(1) as f64
}

/// The population standard deviation of `xs`; 0 for none.
fn stddev(xs: &[f64]) -> f64 {
    let m = mean(xs);
    (xs.iter().map(|x| (x - m).powi(2)).sum::<f64>() / xs.len().max(1) as f64).sqrt()
}

/// The 99th percentile of `xs` in any order; 0 for none.
fn p99(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        looplab::metrics::quantile_of(xs, 0.99)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The period of the synthetic runs, ms: round, so the figures can be worked by hand.
    pub const PERIOD: f64 = 10.0;

    /// 121 intervals: hitches at 59 and 119, recoveries at 60 and 120.
    const N: usize = 121;

    /// A limiter that makes a hitch's time up: the hitch's interval is 1.5 periods, the
    /// next 0.5; the steady ones are the period but for one 0.3 ms late (interval 10) and
    /// the next 0.3 ms early (11), so that they have a spread to compute.
    pub fn recovering() -> Vec<f64> {
        (0..N)
            .map(|k| match k {
                10 => PERIOD + 0.3,
                11 => PERIOD - 0.3,
                _ if is_hitch(k) => 1.5 * PERIOD,
                _ if k > 0 && is_hitch(k - 1) => 0.5 * PERIOD,
                _ => PERIOD,
            })
            .collect()
    }

    /// A limiter that never makes a hitch's time up (`thread::sleep` for the period less
    /// the work): the hitch's interval is 1.5 periods, and every other one oversleeps by
    /// `oversleep` ms.
    pub fn never_recovering_by(oversleep: f64) -> Vec<f64> {
        (0..N)
            .map(|k| {
                if is_hitch(k) {
                    1.5 * PERIOD
                } else {
                    PERIOD + oversleep
                }
            })
            .collect()
    }

    /// Oversleeping by 0.08 ms: 1.6% slow.
    fn never_recovering() -> Vec<f64> {
        never_recovering_by(0.08)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn the_steady_intervals_leave_out_the_first_each_hitch_and_the_one_after() {
        let steady: Vec<usize> = (0..N).filter(|&k| !is_steady(k)).collect();
        assert_eq!(steady, [0, 59, 60, 119, 120]);
        assert!(is_hitch(59) && is_hitch(119) && !is_hitch(0) && !is_hitch(60));
    }

    #[test]
    fn a_limiter_that_recovers_keeps_time_and_paces_its_steady_frames_as_worked() {
        let f = IntervalFigures::of(&recovering(), PERIOD);
        // 116 steady intervals of 10 but two (10.3, 9.7), the first 10, two hitches of 15
        // and two recoveries of 5: 1210 ms over 121 intervals.
        assert!(close(f.mean_ms, 10.0), "{f:?}");
        assert!(close(f.mean_off_period, 0.0), "{f:?}");
        assert_eq!(f.steady_intervals, 116);
        // Their mean is 10: two deviations of 0.3 over 116 intervals.
        assert!(close(f.steady_stddev_ms, (0.18f64 / 116.0).sqrt()), "{f:?}");
        // 114 zeros and two of 0.3: the 99th percentile (h = 116.33 * 0.99 + 1/3 = 115.5,
        // between the 115th and 116th values, both 0.3) is 0.3.
        assert!(close(f.steady_p99_off_ms, 0.3), "{f:?}");
        // Over every interval, the hitches and recoveries, 5 ms either side: 4 * 25 + 0.18.
        assert!(close(f.stddev_ms, (100.18f64 / 121.0).sqrt()), "{f:?}");
        assert_eq!((f.late, f.early), (0, 2));
    }

    #[test]
    fn a_limiter_that_never_recovers_runs_slow_with_the_smaller_raw_spread() {
        let f = IntervalFigures::of(&never_recovering(), PERIOD);
        // 119 intervals of 10.08 and two of 15: 1229.52 ms over 121, 1.613% slow.
        assert!(close(f.mean_ms, 1229.52 / 121.0), "{f:?}");
        assert!(close(f.mean_off_period, 1229.52 / 1210.0 - 1.0), "{f:?}");
        assert!((0.016..0.0162).contains(&f.mean_off_period), "{f:?}");
        // Every steady interval is 10.08: no spread, each 0.08 off the period.
        assert_eq!(f.steady_intervals, 116);
        assert!(close(f.steady_stddev_ms, 0.0), "{f:?}");
        assert!(close(f.steady_p99_off_ms, 0.08), "{f:?}");
        // Over every interval its spread is the smaller: the raw stddev favours the limiter
        // that lets the hitch's time go, which is why it is not judged.
        let m: f64 = 1229.52 / 121.0;
        let squares = 119.0 * (10.08 - m) * (10.08 - m) + 2.0 * (15.0 - m) * (15.0 - m);
        assert!(close(f.stddev_ms, (squares / 121.0).sqrt()), "{f:?}");
        assert!(f.stddev_ms < IntervalFigures::of(&recovering(), PERIOD).stddev_ms);
        assert_eq!((f.late, f.early), (0, 0));
    }
}
