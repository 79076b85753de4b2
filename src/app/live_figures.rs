//! The overlay's smoothness figures, live: the animation error and picture lag of the last
//! [`LiveFigures::FRAMES`] presented frames, each taken as shown when its present returned
//! (a window does not see the refresh). A strategy switch starts them afresh.

use std::collections::VecDeque;
use std::time::Duration;

use crate::metrics::animation::{self, AnimationErrorFigures};
use crate::metrics::picture_lag::PictureLagFigures;
use crate::session::frame::FrameRecord;
use looplab_timing::Strategy;

/// The recent frames' errors and lags.
#[derive(Clone, Debug, Default)]
pub struct LiveFigures {
    /// The last presented frame's strategy, animation time and present, ms.
    last: Option<(Strategy, f64, f64)>,
    errors: VecDeque<f64>,
    lags: VecDeque<f64>,
}

/// What the overlay shows of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Smoothness {
    pub animation_error: AnimationErrorFigures,
    pub picture_lag: PictureLagFigures,
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn push(values: &mut VecDeque<f64>, v: f64) {
    if values.len() == LiveFigures::FRAMES {
        values.pop_front();
    }
    values.push_back(v);
}

impl LiveFigures {
    /// About two seconds at 60 FPS.
    pub const FRAMES: usize = 120;

    /// A frame of `strategy` was presented (its record says when; one not presented is
    /// left out).
    pub fn presented(&mut self, record: &FrameRecord, strategy: Strategy) {
        let Some(at) = record.presented else {
            return;
        };
        let (animation, shown) = (ms(record.animation_time()), ms(at));
        match self.last {
            Some((s, _, _)) if s != strategy => {
                self.errors.clear();
                self.lags.clear();
            }
            Some((_, a, d)) => {
                if let Some(e) = animation::error_ms((a, d), animation, shown) {
                    push(&mut self.errors, e);
                }
            }
            None => {}
        }
        push(&mut self.lags, ms(record.picture_lag(at)));
        self.last = Some((strategy, animation, shown));
    }

    pub fn smoothness(&self) -> Smoothness {
        let errors: Vec<f64> = self.errors.iter().copied().collect();
        let lags: Vec<f64> = self.lags.iter().copied().collect();
        Smoothness {
            animation_error: AnimationErrorFigures::of(&errors),
            picture_lag: PictureLagFigures::of(&lags),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(start_ms: u64, drawn_ms: u64, presented_ms: u64) -> FrameRecord {
        FrameRecord {
            start: Duration::from_millis(start_ms),
            game_before: Duration::from_millis(drawn_ms),
            game_shown: Duration::from_millis(start_ms),
            time_scale: 1.0,
            presented: Some(Duration::from_millis(presented_ms)),
            ..FrameRecord::default()
        }
    }

    #[test]
    fn the_last_frames_give_the_figures_and_a_switch_starts_afresh() {
        let mut live = LiveFigures::default();
        // A picture 10 ms on every 10 ms, then one that stays: a -10 ms error.
        for k in 0..10 {
            live.presented(&frame(10 * k, 10 * k, 10 * k + 5), Strategy::Variable);
        }
        live.presented(&frame(100, 90, 105), Strategy::Variable);
        let s = live.smoothness();
        assert_eq!(s.animation_error.frames, 10);
        assert!((s.animation_error.mean_abs_ms - 1.0).abs() < 1e-9, "{s:?}");
        assert!((s.animation_error.over_2ms_share - 0.1).abs() < 1e-12);
        // 5 ms to each present, 10 more for the picture that stayed behind.
        assert!((s.picture_lag.mean_ms - (5.0 * 11.0 + 10.0) / 11.0).abs() < 1e-9);
        live.presented(&frame(110, 110, 115), Strategy::CatchUp);
        let s = live.smoothness();
        assert_eq!((s.animation_error.frames, s.picture_lag.frames), (0, 1));
        for k in 0..200 {
            live.presented(&frame(120 + k, 120 + k, 125 + k), Strategy::CatchUp);
        }
        assert_eq!(
            live.smoothness().animation_error.frames,
            LiveFigures::FRAMES
        );
    }
}
