//! What a run's frames kept to: how many were drawn and how evenly, from the times they were
//! handed to the display.

use core::fmt;
use core::time::Duration;

/// The intervals between the frames a loop handed to the display, summed as they come (no
/// frame is kept, so an hour's run costs what a second's does).
///
/// ```
/// use core::time::Duration;
/// use looplab_winit::Pacing;
///
/// let mut pacing = Pacing::default();
/// for ms in [0, 16, 33, 50, 83] {
///     pacing.presented(Duration::from_millis(ms));
/// }
/// assert_eq!(pacing.frames(), 5);
/// assert_eq!(pacing.worst(), Duration::from_millis(33));
/// assert!((pacing.mean_ms() - 20.75).abs() < 1e-9);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pacing {
    frames: u64,
    first: Option<Duration>,
    last: Option<Duration>,
    /// Welford's running mean and sum of squared differences of the intervals, in ms.
    mean: f64,
    m2: f64,
    worst: Duration,
}

impl Pacing {
    /// A frame was handed to the display at `at`.
    pub fn presented(&mut self, at: Duration) {
        self.frames += 1;
        self.first.get_or_insert(at);
        if let Some(last) = self.last.replace(at) {
            let interval = at.saturating_sub(last);
            self.worst = self.worst.max(interval);
            let n = (self.frames - 1) as f64;
            let ms = interval.as_secs_f64() * 1e3;
            let delta = ms - self.mean;
            self.mean += delta / n;
            self.m2 += delta * (ms - self.mean);
        }
    }

    /// Frames presented.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// From the first frame presented to the last.
    pub fn span(&self) -> Duration {
        match (self.first, self.last) {
            (Some(first), Some(last)) => last.saturating_sub(first),
            _ => Duration::ZERO,
        }
    }

    /// The mean interval between frames, in milliseconds (0 before two frames).
    pub fn mean_ms(&self) -> f64 {
        self.mean
    }

    /// The intervals' standard deviation, in milliseconds (0 before three frames).
    pub fn stddev_ms(&self) -> f64 {
        let intervals = self.frames.saturating_sub(1);
        if intervals < 2 {
            return 0.0;
        }
        (self.m2 / (intervals - 1) as f64).sqrt()
    }

    /// The longest interval between two frames.
    pub fn worst(&self) -> Duration {
        self.worst
    }

    /// Frames a second over the run (0 before two frames).
    pub fn fps(&self) -> f64 {
        if self.mean > 0.0 {
            1e3 / self.mean
        } else {
            0.0
        }
    }
}

impl fmt::Display for Pacing {
    /// "presented 180 frames in 3.00 s: 60.0 FPS, intervals 16.67 ms ± 0.42, worst 18.10 ms"
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "presented {} frames in {:.2} s: {:.1} FPS, intervals {:.2} ms ± {:.2}, worst {:.2} ms",
            self.frames,
            self.span().as_secs_f64(),
            self.fps(),
            self.mean_ms(),
            self.stddev_ms(),
            self.worst.as_secs_f64() * 1e3
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_is_the_sample_standard_deviation_of_the_intervals() {
        let mut pacing = Pacing::default();
        let mut t = Duration::ZERO;
        pacing.presented(t);
        for ms in [10, 20, 30, 40] {
            t += Duration::from_millis(ms);
            pacing.presented(t);
        }
        assert_eq!(pacing.frames(), 5);
        assert_eq!(pacing.span(), Duration::from_millis(100));
        assert!((pacing.mean_ms() - 25.0).abs() < 1e-9);
        // Intervals 10, 20, 30, 40: the sample variance is 500 / 3.
        assert!((pacing.stddev_ms() - (500.0f64 / 3.0).sqrt()).abs() < 1e-9);
        assert!((pacing.fps() - 40.0).abs() < 1e-9);
        assert_eq!(pacing.worst(), Duration::from_millis(40));
        assert!(
            pacing
                .to_string()
                .starts_with("presented 5 frames in 0.10 s: 40.0 FPS")
        );
    }

    #[test]
    fn nothing_is_read_into_too_few_frames() {
        let mut pacing = Pacing::default();
        assert_eq!((pacing.fps(), pacing.stddev_ms()), (0.0, 0.0));
        pacing.presented(Duration::from_millis(5));
        assert_eq!((pacing.frames(), pacing.span()), (1, Duration::ZERO));
        assert_eq!((pacing.fps(), pacing.stddev_ms()), (0.0, 0.0));
    }
}
