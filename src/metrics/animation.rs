//! Animation error, as PresentMon defines it (GameTechDev/PresentMon, MIT,
//! `ComputeAnimationError` in `IntelPresentMon/CommonUtilities/mc/MetricsCalculatorAnimation.cpp`
//! at v2.5.1; `MsAnimationError` in its CSV, `AnimationError` with `--v2_metrics`): for each
//! displayed frame, the change in its animation time since the last displayed frame, less
//! the change in its display time, in milliseconds. Positive: the picture moved on further
//! than the display did (it jumps ahead); negative: less (it lags, or stops). A perfectly
//! paced loop scores zero on every frame, whatever its rate.
//!
//! PresentMon has to estimate a frame's animation time: from the game's own markers where
//! it has them, else from when the CPU began the frame. Looplab's loops know it exactly:
//! it is the game time the picture shows (taken back to real time by the time scale), so
//! the lab's animation error is the ground truth the tools estimate. Only displayed frames
//! count; the first has no error. PresentMon writes `NA` where the animation time did not
//! advance, which its CPU-start estimate never does unless the data is wrong; a loop's
//! picture can truly repeat (a frame that ran no update), and that repeat is the stutter to
//! count, so here it is counted.
//!
//! The figures a report gives: the mean and the 99th percentile of the errors' sizes, and
//! the share of frames off by more than [`NOTICEABLE_MS`] (PresentMon's capture app writes
//! the mean size as `AnimationErrorPerFrame`).

use serde::{Deserialize, Serialize};

use super::quantile;

/// An error above which a frame counts as off: 2 ms, an eighth of a 60 Hz refresh, where a
/// bullet crossing a 1280-pixel screen in two seconds is off by more than a pixel.
pub const NOTICEABLE_MS: f64 = 2.0;

/// The most errors kept for the 99th percentile: an hour of frames at 1,000 FPS. A longer
/// run's mean and share count every frame, its percentile the first this many.
pub const KEPT: usize = 1 << 22;

/// The animation error of a frame showing `animation_ms` at `display_ms`, after a frame
/// that showed `last.0` at `last.1`; `None` where it was not shown later than that one.
pub fn error_ms(last: (f64, f64), animation_ms: f64, display_ms: f64) -> Option<f64> {
    let (animation, display) = last;
    (display_ms > display).then_some((animation_ms - animation) - (display_ms - display))
}

/// Each displayed frame's animation error, as the frames come.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnimationErrors {
    /// The last displayed frame's animation and display times, ms.
    last: Option<(f64, f64)>,
    /// Errors counted, their sizes' sum, and those over [`NOTICEABLE_MS`].
    count: usize,
    sum_abs: f64,
    over: usize,
    /// The first [`KEPT`] errors.
    errors_ms: Vec<f64>,
}

impl AnimationErrors {
    /// A frame displayed at `display_ms` showing animation time `animation_ms` (both on
    /// any one clock, in order of display).
    pub fn displayed(&mut self, animation_ms: f64, display_ms: f64) {
        if let Some(error) = self
            .last
            .and_then(|last| error_ms(last, animation_ms, display_ms))
        {
            self.count += 1;
            self.sum_abs += error.abs();
            self.over += usize::from(error.abs() > NOTICEABLE_MS);
            if self.errors_ms.len() < KEPT {
                self.errors_ms.push(error);
            }
        }
        self.last = Some((animation_ms, display_ms));
    }

    /// Forgets the last frame: the next displayed one starts a new stretch, with no error
    /// against a frame before it.
    pub fn restart(&mut self) {
        self.last = None;
    }

    /// The errors so far (the first [`KEPT`]), ms, in order.
    pub fn errors_ms(&self) -> &[f64] {
        &self.errors_ms
    }

    pub fn figures(&self) -> AnimationErrorFigures {
        if self.count == 0 {
            return AnimationErrorFigures::default();
        }
        AnimationErrorFigures {
            frames: self.count,
            mean_abs_ms: self.sum_abs / self.count as f64,
            over_2ms_share: self.over as f64 / self.count as f64,
            ..AnimationErrorFigures::of(&self.errors_ms)
        }
    }
}

/// What a run of animation errors adds up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AnimationErrorFigures {
    /// Displayed frames with an error.
    pub frames: usize,
    /// The mean size of the errors, ms.
    pub mean_abs_ms: f64,
    /// The 99th percentile of their sizes, ms.
    pub p99_abs_ms: f64,
    /// The share of frames off by more than [`NOTICEABLE_MS`].
    pub over_2ms_share: f64,
}

impl AnimationErrorFigures {
    /// The figures of `errors_ms` (signed, any order); all zero for none.
    pub fn of(errors_ms: &[f64]) -> Self {
        if errors_ms.is_empty() {
            return Self::default();
        }
        let mut sizes: Vec<f64> = errors_ms.iter().map(|e| e.abs()).collect();
        sizes.sort_unstable_by(f64::total_cmp);
        let n = sizes.len();
        Self {
            frames: n,
            mean_abs_ms: sizes.iter().sum::<f64>() / n as f64,
            p99_abs_ms: quantile(&sizes, 0.99),
            over_2ms_share: sizes.iter().filter(|&&e| e > NOTICEABLE_MS).count() as f64 / n as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_steady_picture_has_none_and_a_repeat_or_a_jump_has_its_size() {
        let mut e = AnimationErrors::default();
        // A 60 Hz display, each refresh showing the game 16.7 ms on: no error.
        for k in 0..10 {
            let t = f64::from(k) * 16.7;
            e.displayed(t, 1000.0 + t);
        }
        assert_eq!(e.errors_ms().len(), 9);
        assert!(
            e.errors_ms().iter().all(|x| x.abs() < 1e-9),
            "{:?}",
            e.errors_ms()
        );
        // The picture stops for a refresh, then catches up by two steps.
        e.displayed(10.0 * 16.7 - 16.7, 1000.0 + 10.0 * 16.7);
        e.displayed(11.0 * 16.7, 1000.0 + 11.0 * 16.7);
        let last: Vec<f64> = e.errors_ms()[9..].to_vec();
        assert!(
            (last[0] + 16.7).abs() < 1e-9 && (last[1] - 16.7).abs() < 1e-9,
            "{last:?}"
        );
        let f = e.figures();
        assert_eq!(f.frames, 11);
        assert!((f.mean_abs_ms - 2.0 * 16.7 / 11.0).abs() < 1e-9, "{f:?}");
        assert!((f.over_2ms_share - 2.0 / 11.0).abs() < 1e-12);
        // The 99th percentile's rank (11 + 1/3) 0.99 + 1/3 = 11.553 is past the last: the
        // largest size.
        assert!((f.p99_abs_ms - 16.7).abs() < 1e-9);
    }

    #[test]
    fn a_frame_shown_no_later_than_the_last_has_no_error() {
        let mut e = AnimationErrors::default();
        e.displayed(0.0, 10.0);
        e.displayed(5.0, 10.0);
        e.displayed(10.0, 20.0);
        // The second came at the same time (no display change): only the third counts,
        // against the second.
        assert_eq!(e.errors_ms(), [-5.0]);
        assert_eq!(
            AnimationErrorFigures::of(&[]),
            AnimationErrorFigures::default()
        );
    }
}
