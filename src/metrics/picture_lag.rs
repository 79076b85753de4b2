//! Picture lag: for each displayed frame, how far the game time its picture shows is behind
//! the game clock at the moment it is shown, in milliseconds of real time. It is the part
//! of a key's way to the screen that the loop's view adds: interpolation shows the state a
//! step back, drawing the latest state shows it as of the last update, extrapolation and
//! prediction show the clock's own time; each then waits for its present and its refresh.
//!
//! The field measures the whole way instead (PresentMon's `DisplayLatency`, from a frame's
//! CPU start to its display; input-to-photon with a sensor); picture lag is that display
//! latency plus what the view sets the picture back, which only the loop itself knows.

use serde::{Deserialize, Serialize};

use super::animation::KEPT;
use super::quantile;

/// Each displayed frame's picture lag, as the frames come.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PictureLags {
    count: usize,
    sum_ms: f64,
    /// The first [`KEPT`] lags, ms.
    lags_ms: Vec<f64>,
}

impl PictureLags {
    /// A frame shown `lag_ms` after the game clock stood at the time its picture shows.
    pub fn displayed(&mut self, lag_ms: f64) {
        self.count += 1;
        self.sum_ms += lag_ms;
        if self.lags_ms.len() < KEPT {
            self.lags_ms.push(lag_ms);
        }
    }

    pub fn figures(&self) -> PictureLagFigures {
        if self.count == 0 {
            return PictureLagFigures::default();
        }
        PictureLagFigures {
            frames: self.count,
            mean_ms: self.sum_ms / self.count as f64,
            ..PictureLagFigures::of(&self.lags_ms)
        }
    }
}

/// What a run of picture lags adds up to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PictureLagFigures {
    /// Displayed frames counted.
    pub frames: usize,
    /// The mean lag, ms.
    pub mean_ms: f64,
    /// Its 99th percentile, ms.
    pub p99_ms: f64,
}

impl PictureLagFigures {
    /// The figures of `lags_ms` (any order); all zero for none.
    pub fn of(lags_ms: &[f64]) -> Self {
        if lags_ms.is_empty() {
            return Self::default();
        }
        let mut sorted = lags_ms.to_vec();
        sorted.sort_unstable_by(f64::total_cmp);
        Self {
            frames: sorted.len(),
            mean_ms: sorted.iter().sum::<f64>() / sorted.len() as f64,
            p99_ms: quantile(&sorted, 0.99),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_counts_every_frame_and_the_percentile_the_kept_ones() {
        let mut l = PictureLags::default();
        for k in 0..100 {
            l.displayed(if k == 99 { 50.0 } else { 10.0 });
        }
        let f = l.figures();
        assert_eq!(f.frames, 100);
        assert!((f.mean_ms - 10.4).abs() < 1e-9, "{f:?}");
        // Rank 0.99 (100 + 1/3) + 1/3 = 99.66: two thirds of the way from 10 to 50.
        assert!(
            (f.p99_ms - (10.0 + 40.0 * (0.99 * (100.0 + 1.0 / 3.0) + 1.0 / 3.0 - 99.0))).abs()
                < 1e-9,
            "{f:?}"
        );
        assert_eq!(
            PictureLags::default().figures(),
            PictureLagFigures::default()
        );
    }
}
