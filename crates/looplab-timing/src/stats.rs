//! Frame statistics over a sliding window of real time: FPS, UPS, frame-time spread,
//! updates per frame, and how fast game time runs against real time.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::time::Duration;

/// One finished frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameSample {
    /// When the frame started.
    pub start: Duration,
    /// Time from its start to the start of the next frame.
    pub duration: Duration,
    /// Updates it ran.
    pub updates: u32,
    /// Game time those updates added.
    pub game_advance: Duration,
}

/// Frame-time spread over the window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct FrameTimes {
    /// Mean frame time.
    pub avg: Duration,
    /// Shortest frame.
    pub min: Duration,
    /// Longest frame.
    pub max: Duration,
    /// 99th percentile ([`quantile`]).
    pub p99: Duration,
}

/// A summary of the frames in the window.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct StatsSummary {
    /// Frames in the window.
    pub frames: usize,
    /// Frames per second of real time.
    pub fps: f64,
    /// Updates per second of real time.
    pub ups: f64,
    /// Game time per real time: 1.0 is real-time speed, below is slow motion.
    pub ratio: f64,
    /// Frame-time spread.
    pub frame_time: FrameTimes,
    /// Mean updates per frame.
    pub updates_per_frame: f64,
    /// Most updates in one frame.
    pub max_updates: u32,
    /// Frames that ran no update (a repeat, unless the view blends).
    pub frames_without_update: usize,
}

/// Frame statistics over the last `window` of real time.
///
/// Call [`FrameStats::record_plan`] once a frame's updates have run (after
/// [`Planner::run_updates`](crate::Planner::run_updates) or
/// [`Planner::abandon`](crate::Planner::abandon) corrected the plan, so updates given up
/// are not counted as run). A frame is counted once the next one is recorded, because only
/// then is its duration known.
#[derive(Clone, Debug)]
pub struct FrameStats {
    window: Duration,
    capacity: usize,
    samples: VecDeque<FrameSample>,
    /// The frame started but not finished: start, updates, game advance.
    open: Option<(Duration, u32, Duration)>,
}

impl FrameStats {
    /// One second: long enough to average out the beat of a 60 Hz loop on a display that is
    /// not quite 60 Hz, short enough that the figures follow a change within a second.
    pub const DEFAULT_WINDOW: Duration = Duration::from_secs(1);
    /// At most this many frames are kept, so an uncapped loop at thousands of FPS keeps its
    /// memory and summary cost bounded; the window then covers the most recent frames only.
    pub const DEFAULT_CAPACITY: usize = 20_000;

    /// Statistics over the last `window`, keeping at most `capacity` frames.
    pub fn new(window: Duration, capacity: usize) -> Self {
        Self {
            window,
            capacity: capacity.max(1),
            samples: VecDeque::new(),
            open: None,
        }
    }

    /// Records a frame from its plan, once its updates have run: it started at
    /// [`FramePlan::now`](crate::FramePlan::now) and ran the plan's updates.
    pub fn record_plan(&mut self, plan: &crate::FramePlan) {
        self.record(plan.now, plan.updates, plan.game_advance());
    }

    /// Records a frame that started at `start` and ran `updates` updates adding
    /// `game_advance` (what [`record_plan`](FrameStats::record_plan) takes from a plan).
    pub fn record(&mut self, start: Duration, updates: u32, game_advance: Duration) {
        if let Some((prev_start, prev_updates, prev_advance)) = self.open.take() {
            self.samples.push_back(FrameSample {
                start: prev_start,
                duration: start.saturating_sub(prev_start),
                updates: prev_updates,
                game_advance: prev_advance,
            });
        }
        self.open = Some((start, updates, game_advance));
        let horizon = start.saturating_sub(self.window);
        while self
            .samples
            .front()
            .is_some_and(|s| s.start < horizon || self.samples.len() > self.capacity)
        {
            self.samples.pop_front();
        }
    }

    /// Forgets every frame (after a change of strategy, say, so the figures describe only the
    /// new one).
    pub fn clear(&mut self) {
        self.samples.clear();
        self.open = None;
    }

    /// Finished frames in the window, oldest first.
    pub fn samples(&self) -> impl ExactSizeIterator<Item = &FrameSample> {
        self.samples.iter()
    }

    /// The summary of the window.
    pub fn summary(&self) -> StatsSummary {
        summarize(self.samples.iter().copied())
    }
}

impl Default for FrameStats {
    fn default() -> Self {
        Self::new(Self::DEFAULT_WINDOW, Self::DEFAULT_CAPACITY)
    }
}

/// The `q` quantile (0 to 1) of `sorted` (ascending), interpolated between the two values
/// around it: Hyndman and Fan's definition 8 ("Sample quantiles in statistical packages",
/// 1996), the median-unbiased one that MathNet.Numerics' `Statistics.Quantile` computes and
/// CapFrameX's frame-time figures use. With `N` values, the rank `h = (N + 1/3) q + 1/3`
/// (from 1) lies between values `floor(h)` and `floor(h) + 1`; below the first rank it is the
/// least value, above the last the greatest. The median of an even count is the mean of the
/// middle two. `NaN` for no values or a `q` outside 0 to 1.
///
/// ```
/// use looplab_timing::quantile;
/// let xs = [10.0, 20.0, 30.0, 40.0];
/// assert_eq!(quantile(&xs, 0.5), 25.0);
/// assert_eq!(quantile(&xs, 0.0), 10.0);
/// assert_eq!(quantile(&xs, 1.0), 40.0);
/// ```
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    if n == 0 || !(0.0..=1.0).contains(&q) {
        return f64::NAN;
    }
    let h = (n as f64 + 1.0 / 3.0) * q + 1.0 / 3.0;
    // `h` is positive: truncation is its floor.
    let below = h as usize;
    if below == 0 {
        return sorted[0];
    }
    if below >= n {
        return sorted[n - 1];
    }
    let (a, b) = (sorted[below - 1], sorted[below]);
    a + (h - below as f64) * (b - a)
}

/// Summarizes any sequence of finished frames.
pub fn summarize(samples: impl Iterator<Item = FrameSample>) -> StatsSummary {
    let mut durations: Vec<Duration> = Vec::new();
    let mut real = Duration::ZERO;
    let mut game = Duration::ZERO;
    let mut updates: u64 = 0;
    let mut max_updates = 0;
    let mut frames_without_update = 0;
    for s in samples {
        durations.push(s.duration);
        real += s.duration;
        game += s.game_advance;
        updates += s.updates as u64;
        max_updates = max_updates.max(s.updates);
        frames_without_update += usize::from(s.updates == 0);
    }
    let frames = durations.len();
    if frames == 0 {
        return StatsSummary::default();
    }
    let secs = real.as_secs_f64();
    let per_sec = |x: f64| if secs > 0.0 { x / secs } else { 0.0 };
    durations.sort_unstable();
    let nanos: Vec<f64> = durations.iter().map(|d| d.as_nanos() as f64).collect();
    let p99 = Duration::from_nanos(quantile(&nanos, 0.99) as u64);
    StatsSummary {
        frames,
        fps: per_sec(frames as f64),
        ups: per_sec(updates as f64),
        ratio: per_sec(game.as_secs_f64()),
        frame_time: FrameTimes {
            avg: real / frames as u32,
            min: durations[0],
            max: durations[frames - 1],
            p99,
        },
        updates_per_frame: updates as f64 / frames as f64,
        max_updates,
        frames_without_update,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::ms;

    #[test]
    fn a_frame_counts_once_the_next_one_starts() {
        let mut stats = FrameStats::default();
        stats.record(ms(0), 1, ms(16));
        assert_eq!(stats.summary().frames, 0);
        stats.record(ms(20), 2, ms(32));
        let s = stats.summary();
        assert_eq!(s.frames, 1);
        assert_eq!(s.frame_time.avg, ms(20));
        assert_eq!(
            s.max_updates, 1,
            "the first frame's updates, not the open one's"
        );
    }

    #[test]
    fn steady_frames_give_exact_rates() {
        let mut stats = FrameStats::default();
        // 50 FPS, 2 updates of 10 ms per frame: 100 UPS, game at real-time speed.
        for i in 0..=50 {
            stats.record(ms(20 * i), 2, ms(20));
        }
        let s = stats.summary();
        assert_eq!(s.frames, 50);
        assert!((s.fps - 50.0).abs() < 1e-9);
        assert!((s.ups - 100.0).abs() < 1e-9);
        assert!((s.ratio - 1.0).abs() < 1e-9);
        assert_eq!(s.updates_per_frame, 2.0);
        assert_eq!(
            s.frame_time,
            FrameTimes {
                avg: ms(20),
                min: ms(20),
                max: ms(20),
                p99: ms(20)
            }
        );
        assert_eq!(s.frames_without_update, 0);
    }

    #[test]
    fn spread_and_p99_come_from_the_window() {
        let mut stats = FrameStats::new(Duration::from_secs(10), 1000);
        let mut t = ms(0);
        // 99 frames of 10 ms and one of 110 ms.
        for i in 0..100 {
            stats.record(t, u32::from(i % 2 == 0), ms(5));
            t += if i == 50 { ms(110) } else { ms(10) };
        }
        stats.record(t, 0, Duration::ZERO);
        let s = stats.summary();
        assert_eq!(s.frames, 100);
        assert_eq!(s.frame_time.min, ms(10));
        assert_eq!(s.frame_time.max, ms(110));
        // The 99th percentile's rank is (100 + 1/3) 0.99 + 1/3 = 99.663: two thirds of the
        // way from the 99th frame (10 ms) to the 100th (110 ms).
        assert_eq!(
            s.frame_time.p99,
            Duration::from_nanos(76_333_333),
            "{:?}",
            s.frame_time.p99
        );
        assert_eq!(s.frame_time.avg, ms(11));
        assert_eq!(s.frames_without_update, 50);
        assert!((s.ratio - 500.0 / 1100.0).abs() < 1e-9);
    }

    #[test]
    fn old_frames_leave_the_window() {
        let mut stats = FrameStats::new(Duration::from_secs(1), 1000);
        for i in 0..=100 {
            stats.record(ms(100 * i), 1, ms(100));
        }
        // Frames starting in the last second before the latest start are kept.
        let s = stats.summary();
        assert_eq!(s.frames, 10);
        assert!(stats.samples().all(|f| f.start >= ms(9000)));
    }

    #[test]
    fn capacity_bounds_memory_at_high_frame_rates() {
        let mut stats = FrameStats::new(Duration::from_secs(1), 100);
        for i in 0..10_000 {
            stats.record(Duration::from_micros(50 * i), 0, Duration::ZERO);
        }
        assert_eq!(stats.samples().len(), 100);
        assert!((stats.summary().fps - 20_000.0).abs() < 1e-6);
    }

    #[test]
    fn quantiles_interpolate_by_definition_8() {
        let mut sorted = [5.0, 1.0, 4.0, 2.0, 3.0];
        sorted.sort_by(f64::total_cmp);
        // Rank (5 + 1/3) 0.5 + 1/3 = 3: the third value exactly.
        assert_eq!(quantile(&sorted, 0.5), 3.0);
        // 1 to 100: rank (100 + 1/3) 0.01 + 1/3 = 1.336667, a third of the way to 2.
        let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        assert!((quantile(&hundred, 0.01) - 1.336_667).abs() < 1e-6);
        // Symmetric: the 99th percentile is as far below the greatest.
        assert!((quantile(&hundred, 0.99) - 99.663_333).abs() < 1e-6);
        // Past the ends, the least and the greatest; nothing for no values or a bad q.
        assert_eq!(quantile(&[7.0, 9.0], 0.001), 7.0);
        assert_eq!(quantile(&[7.0, 9.0], 0.999), 9.0);
        assert!(quantile(&[], 0.5).is_nan());
        assert!(quantile(&[1.0], 1.5).is_nan());
    }

    #[test]
    fn clear_starts_over() {
        let mut stats = FrameStats::default();
        stats.record(ms(0), 1, ms(16));
        stats.record(ms(16), 1, ms(16));
        stats.clear();
        stats.record(ms(32), 1, ms(16));
        assert_eq!(stats.summary().frames, 0);
    }

    #[test]
    fn a_plan_is_recorded_as_corrected_by_the_updates_that_ran() {
        use crate::{LoopSettings, Planner, Strategy};
        use core::ops::ControlFlow;
        let mut planner = Planner::new(Strategy::CatchUp, LoopSettings::default());
        let mut stats = FrameStats::default();
        stats.record_plan(&planner.plan_frame(Duration::ZERO));
        let mut plan = planner.plan_frame(Duration::from_millis(101)); // six steps owed
        assert_eq!(plan.updates, 6);
        let mut ran = 0;
        planner.run_updates(&mut plan, |_| {
            ran += 1;
            if ran == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        stats.record_plan(&plan);
        stats.record(Duration::from_millis(116), 0, Duration::ZERO);
        let last = stats.samples().last().copied().unwrap();
        assert_eq!(last.updates, 2, "the four given up are not counted");
        assert_eq!(last.game_advance, plan.step * 2);
    }
}
