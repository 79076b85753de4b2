//! The display's refresh rate, estimated from when frames were presented.

use alloc::collections::VecDeque;
use core::time::Duration;

use crate::units::Rate;

/// Estimates the display's refresh rate from the times frames were presented.
///
/// Snapping frame deltas ([`DeltaMode::Snapped`](crate::DeltaMode::Snapped)) needs the
/// refresh rate, and often nothing tells it: a browser has no API for it, Wayland reports
/// it only per output and late, and a monitor's nominal 60 Hz may really be 59.94. Feed
/// this the time each frame was presented (with vsync, the time the loop wakes from
/// presenting is close enough) and it answers the rate the frames actually keep to.
///
/// How: presented frames land on a grid of refresh periods, one or more periods apart. A
/// median of the last few intervals gives the rough period; each frame is then numbered
/// by the whole periods since the last one, and the period is the slope of a least-squares
/// line through (number, time) over the last second. A line through sixty points is far
/// steadier than any one interval: with ±0.5 ms of timer noise it tells 59.94 Hz from
/// 60 Hz within a second. A frame that missed refreshes counts as several periods; a hitch
/// that lands off the grid starts a new run of numbers (the line is fitted across runs,
/// each with its own offset), so neither bends the estimate, and the estimate from before
/// the hitch holds until the fit across it is as sure. When the rough period moves
/// by more than a tenth, the display's rate changed: the old frames are forgotten.
///
/// It answers the rate frames are presented at when the loop keeps up. A loop that
/// presents every other refresh, steadily, looks like a display of half the rate.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::RefreshEstimator;
///
/// let mut refresh = RefreshEstimator::new();
/// let period = Duration::from_nanos(16_683_350); // 59.94 Hz
/// let mut refresh_count = 0;
/// for k in 0..60u32 {
///     // One frame in ten misses a refresh; each is read up to 0.8 ms late.
///     refresh_count += if k % 10 == 9 { 2 } else { 1 };
///     let noise = Duration::from_micros(u64::from(k * 37 % 9) * 100);
///     refresh.observe(period * refresh_count + noise);
/// }
/// let hz = refresh.rate().unwrap().as_hz();
/// assert!((hz - 59.94).abs() < 0.01, "{hz}");
/// ```
#[derive(Clone, Debug, Default)]
pub struct RefreshEstimator {
    /// Frames in the window: their number in periods, their time, the run they belong to.
    points: VecDeque<Point>,
    /// The last few intervals in nanoseconds, for the rough period.
    recent: [u64; RefreshEstimator::MEDIAN_OF],
    recent_len: usize,
    recent_next: usize,
    /// The rough period in nanoseconds, once there is one.
    rough: Option<u64>,
    /// The last frame seen.
    last: Option<Duration>,
    /// The current run: its number and the last frame's number in it.
    run: u32,
    tick: u64,
    /// The last estimate, kept until a better one is ready.
    estimate: Option<Duration>,
    /// Its fit: the slope's variance relative to the period squared, and the frame it came
    /// with. A later fit across a hitch replaces it only when no less sure, or when it is a
    /// window old.
    estimate_fit: Option<(f64, Duration)>,
}

#[derive(Clone, Copy, Debug)]
struct Point {
    tick: u64,
    at: Duration,
    run: u32,
}

impl RefreshEstimator {
    /// How far back frames are fitted: a second keeps the estimate within 0.05% on a
    /// noisy timer (±0.5 ms) and follows a drifting display within a second.
    pub const WINDOW: Duration = Duration::from_secs(1);
    /// Frames kept at most, so a loop at thousands of frames a second costs bounded time.
    pub const MAX_POINTS: usize = 512;
    /// Intervals the rough period is the median of.
    pub const MEDIAN_OF: usize = 9;
    /// An interval further than this share of a period from a whole number of periods is
    /// off the grid: a hitch, not a frame.
    pub const GRID_TOLERANCE: f64 = 0.2;
    /// Missed refreshes up to this many still count as on the grid.
    pub const MAX_PERIODS: u64 = 8;
    /// The estimate is published once its standard error is below this share of the
    /// period (or the window is full): two hundredths of a percent, a fifth of the gap
    /// between 60 and 59.94 Hz.
    pub const PRECISION: f64 = 2e-4;

    /// An estimator that has seen no frame.
    pub fn new() -> Self {
        Self::default()
    }

    /// A frame was presented at `at` (on any clock, in order).
    pub fn observe(&mut self, at: Duration) {
        let Some(last) = self.last else {
            self.last = Some(at);
            return;
        };
        if at < last {
            // Another clock, or one that jumped back: start over, keeping the estimate
            // until the first new fit.
            self.points.clear();
            self.estimate_fit = None;
            self.last = Some(at);
            return;
        }
        let interval = at - last;
        if interval.is_zero() {
            return;
        }
        self.last = Some(at);
        let interval = u64::try_from(interval.as_nanos()).unwrap_or(u64::MAX);
        self.recent[self.recent_next] = interval;
        self.recent_next = (self.recent_next + 1) % Self::MEDIAN_OF;
        self.recent_len = (self.recent_len + 1).min(Self::MEDIAN_OF);
        if self.recent_len < Self::MEDIAN_OF / 2 + 1 {
            return;
        }
        let median = self.median();
        let changed = self
            .rough
            .is_some_and(|r| median.abs_diff(r) as f64 > r as f64 / 10.0);
        if self.rough.is_none() || changed {
            // The first rough period, or a new display rate: start the fit afresh, and let
            // the first new fit replace the old estimate however rough.
            self.rough = Some(median);
            self.points.clear();
            self.estimate_fit = None;
            self.new_run(at);
            return;
        }
        let rough = self.rough.unwrap_or(median) as f64;
        // The rough period follows the median within its tenth.
        self.rough = Some(median);
        // (No `f64::round`, `abs` or `sqrt`: the crate builds without `std`.)
        let periods = round_nanos(interval as f64 / rough) as f64;
        let off = interval as f64 - periods * rough;
        let off = if off < 0.0 { -off } else { off };
        if periods >= 1.0
            && periods <= Self::MAX_PERIODS as f64
            && off <= Self::GRID_TOLERANCE * rough
        {
            self.tick += periods as u64;
            self.push(at);
        } else {
            self.new_run(at);
        }
        while self.points.len() > Self::MAX_POINTS
            || self
                .points
                .front()
                .is_some_and(|p| at.saturating_sub(p.at) > Self::WINDOW)
        {
            self.points.pop_front();
        }
        if let Some((period, variance, runs)) = self.fit() {
            // A hitch in the window splits the fit and leaves it less sure for a while: the
            // estimate from before holds until a fit is as sure, or until it is a window old
            // (by then the window holds only frames after the hitch).
            let replace = match self.estimate_fit {
                Some((kept, since)) if runs > 1 => {
                    variance <= kept || at.saturating_sub(since) >= Self::WINDOW
                }
                _ => true,
            };
            if replace {
                self.estimate = Some(period);
                self.estimate_fit = Some((variance, at));
            }
        }
    }

    /// The refresh period, once estimated.
    pub fn period(&self) -> Option<Duration> {
        self.estimate
    }

    /// The refresh rate, once estimated.
    pub fn rate(&self) -> Option<Rate> {
        self.estimate.and_then(|p| Rate::from_period(p).ok())
    }

    /// Forgets everything (another display, say).
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    fn new_run(&mut self, at: Duration) {
        self.run = self.run.wrapping_add(1);
        self.tick = 0;
        self.push(at);
    }

    fn push(&mut self, at: Duration) {
        self.points.push_back(Point {
            tick: self.tick,
            at,
            run: self.run,
        });
    }

    fn median(&self) -> u64 {
        let mut sorted = self.recent;
        let sorted = &mut sorted[..self.recent_len];
        sorted.sort_unstable();
        sorted[sorted.len() / 2]
    }

    /// The period as the slope of one line through every run (each run its own offset), the
    /// slope's variance relative to it squared, and the number of runs, if it is precise
    /// enough or the window is full.
    fn fit(&self) -> Option<(Duration, f64, usize)> {
        let origin = self.points.front()?.at;
        let (mut sxx, mut sxy, mut syy, mut n, mut runs) = (0.0, 0.0, 0.0, 0usize, 0usize);
        let mut i = 0;
        let points = &self.points;
        while i < points.len() {
            let run = points[i].run;
            let mut j = i;
            let (mut sk, mut st) = (0.0, 0.0);
            while j < points.len() && points[j].run == run {
                sk += points[j].tick as f64;
                st += (points[j].at - origin).as_nanos() as f64;
                j += 1;
            }
            let count = (j - i) as f64;
            let (mk, mt) = (sk / count, st / count);
            for p in points.range(i..j) {
                let dk = p.tick as f64 - mk;
                let dt = (p.at - origin).as_nanos() as f64 - mt;
                sxx += dk * dk;
                sxy += dk * dt;
                syy += dt * dt;
            }
            n += j - i;
            runs += 1;
            i = j;
        }
        if sxx <= 0.0 || n < runs + 3 {
            return None;
        }
        let slope = sxy / sxx;
        let residual = (syy - slope * sxy).max(0.0) / (n - runs - 1) as f64;
        // The slope's standard error below PRECISION of it, compared as squares.
        if slope <= 0.0 {
            return None;
        }
        let variance = residual / sxx / (slope * slope);
        let precise = variance < Self::PRECISION * Self::PRECISION;
        let span = points.back()?.at - origin;
        let full = span + span / 10 >= Self::WINDOW;
        (precise || full).then(|| (Duration::from_nanos(round_nanos(slope)), variance, runs))
    }
}

/// Rounds a non-negative float to the nearest integer (`f64::round` needs `std`).
fn round_nanos(x: f64) -> u64 {
    (x + 0.5) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic noise in `[-amplitude, amplitude]` (a linear congruential
    /// generator: the tests need no dependency).
    struct Noise(u64);
    impl Noise {
        fn next(&mut self, amplitude: Duration) -> i64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let unit = (self.0 >> 11) as f64 / (1u64 << 53) as f64; // [0, 1)
            ((unit * 2.0 - 1.0) * amplitude.as_nanos() as f64) as i64
        }
    }

    /// Presents frames on a display of `hz` from `start` for `seconds`, each read off by up
    /// to `noise` either way; returns when the estimate first came within 0.05% of the
    /// true period and stayed there, relative to `start`.
    fn lock_time(
        refresh: &mut RefreshEstimator,
        hz: f64,
        start: Duration,
        seconds: f64,
        noise: Duration,
        seed: u64,
    ) -> Option<Duration> {
        let period = Duration::from_secs_f64(1.0 / hz);
        let mut rng = Noise(seed);
        // Clear of zero, so noise never makes a time negative.
        let start = start + Duration::from_secs(1);
        let frames = (seconds * hz) as u32;
        let mut locked: Option<Duration> = None;
        for k in 0..frames {
            let ideal = start + period * k;
            let at = Duration::from_nanos((ideal.as_nanos() as i64 + rng.next(noise)) as u64);
            refresh.observe(at);
            let close = refresh
                .period()
                .is_some_and(|p| (p.as_secs_f64() / period.as_secs_f64() - 1.0).abs() < 5e-4);
            match (close, locked) {
                (true, None) => locked = Some(ideal - start),
                (false, Some(_)) => locked = None,
                _ => {}
            }
        }
        locked
    }

    #[test]
    fn it_locks_onto_common_rates_within_a_second() {
        for hz in [59.94, 60.0, 75.0, 120.0, 143.86, 144.0] {
            for noise_us in [0, 500] {
                let mut r = RefreshEstimator::new();
                let noise = Duration::from_micros(noise_us);
                let t = lock_time(&mut r, hz, Duration::ZERO, 4.0, noise, 7);
                let t = t.unwrap_or_else(|| panic!("{hz} Hz, noise {noise:?}: no lock"));
                std::println!(
                    "{hz:>7} Hz, noise ±{noise_us} us: locked after {:.0} ms",
                    t.as_secs_f64() * 1e3
                );
                assert!(
                    t < Duration::from_secs(1),
                    "{hz} Hz, noise {noise:?}: {t:?}"
                );
            }
        }
    }

    #[test]
    fn hitches_and_missed_refreshes_do_not_bend_it() {
        let mut r = RefreshEstimator::new();
        let period = Rate::hz(60.0).unwrap().period();
        let mut t = Duration::ZERO;
        for k in 0..600u32 {
            t += match k % 100 {
                50 => Duration::from_millis(237), // a hitch, off the grid
                25 | 75 => period * 2,            // a missed refresh
                _ => period,
            };
            r.observe(t);
        }
        let p = r.period().unwrap();
        assert!(p.abs_diff(period) < Duration::from_nanos(200), "{p:?}");
    }

    #[test]
    fn the_estimate_holds_through_a_hitch_on_a_noisy_timer() {
        // 143.86 Hz read with ±0.5 ms of noise, and a 300 ms hitch at 2.5 s: the fit across
        // the hitch is less sure for a second (published, it strays 0.07%); the estimate
        // from before the hitch holds instead.
        let hz = 143.86;
        let period = Duration::from_secs_f64(1.0 / hz);
        let mut noise = Noise(11);
        let mut r = RefreshEstimator::new();
        let mut worst: f64 = 0.0;
        let mut refresh = 0u32;
        for k in 0..720u32 {
            refresh += if k == 360 { 43 } else { 1 };
            let at = period * refresh + Duration::from_millis(1);
            let jitter = noise.next(Duration::from_micros(500));
            r.observe(Duration::from_nanos((at.as_nanos() as i64 + jitter) as u64));
            if k > 144 {
                let off = r.rate().unwrap().as_hz() / hz - 1.0;
                worst = worst.max(off.abs());
            }
        }
        assert!(worst < 5e-4, "strayed {:.3}%", worst * 100.0);
    }

    #[test]
    fn it_follows_a_change_of_rate() {
        let mut r = RefreshEstimator::new();
        let noise = Duration::from_micros(500);
        lock_time(&mut r, 60.0, Duration::ZERO, 3.0, noise, 1).unwrap();
        // Moved to a 144 Hz monitor.
        let t = lock_time(&mut r, 144.0, Duration::from_secs(3), 3.0, noise, 2).unwrap();
        assert!(t < Duration::from_secs(1), "{t:?}");
        // Then a tenth of a percent slower (143.86 Hz): too little to reset, followed anyway.
        let t = lock_time(&mut r, 143.86, Duration::from_secs(6), 3.0, noise, 3).unwrap();
        assert!(t < Duration::from_millis(1500), "{t:?}");
    }

    #[test]
    fn nothing_is_claimed_from_too_little() {
        let mut r = RefreshEstimator::new();
        assert_eq!(r.rate(), None);
        for k in 0..5u32 {
            r.observe(Duration::from_millis(16) * k);
        }
        assert_eq!(r.rate(), None);
        r.reset();
        assert_eq!(r.period(), None);
    }
}
