//! The keys a modelled run is given, and what became of them: the data the lab's runs take
//! and give back, apart from the experiment that makes them (`feel`), so that a run and the
//! experiment each import this and not each other.

use std::time::Duration;

use serde::Serialize;

use crate::session::ship_input::{Button, InputMode, Taps};

/// A key going down or up at a time of the person's (real time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyEvent {
    pub at: Duration,
    pub button: Button,
    pub down: bool,
}

/// The keys a run is given, how its updates read them, and when the loop learns of each.
#[derive(Clone, Debug)]
pub struct KeyInput {
    pub mode: InputMode,
    pub events: Vec<KeyEvent>,
    pub arrival: KeyArrival,
}

/// When the loop learns of a key, the time its delay is measured from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KeyArrival {
    /// When the person pressed it: the delay a player feels.
    #[default]
    AsPressed,
    /// When the loop was next free to take it, as a window's event loop stamps a key: one
    /// pressed while a frame is being made waits, unseen, until that frame is presented.
    /// The delay a window can measure (`looplab bench`'s ship delay).
    WhenLoopFree,
}

/// What a run with keys measured.
#[derive(Clone, Debug, Serialize)]
pub struct FeelResult {
    pub mode: InputMode,
    pub taps: Taps,
    /// Presses shown on screen, and their delay from arrival to present, ms.
    pub shown: usize,
    pub delay_p50_ms: Option<f64>,
    pub delay_p99_ms: Option<f64>,
    /// The delays' mean: unlike the median, it moves smoothly as presses shift between
    /// the few values a frame apart that a delay can take.
    pub delay_mean_ms: Option<f64>,
}

impl FeelResult {
    pub fn new(mode: InputMode, taps: Taps, delays: &[Duration]) -> Self {
        let mut sorted: Vec<f64> = delays.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        sorted.sort_unstable_by(f64::total_cmp);
        let at = |q: f64| (!sorted.is_empty()).then(|| crate::metrics::quantile(&sorted, q));
        Self {
            mode,
            taps,
            shown: sorted.len(),
            delay_p50_ms: at(0.5),
            delay_p99_ms: at(0.99),
            delay_mean_ms: (!sorted.is_empty())
                .then(|| sorted.iter().sum::<f64>() / sorted.len() as f64),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mean_moves_with_every_delay_where_the_median_keeps_to_one() {
        let ms = |v: &[u64]| {
            v.iter()
                .map(|&m| Duration::from_millis(m))
                .collect::<Vec<_>>()
        };
        // Six values a frame apart, the middle falling between the third and the fourth.
        let even = FeelResult::new(
            InputMode::Accumulated,
            Taps::default(),
            &ms(&[14, 31, 48, 65, 82, 97]),
        );
        assert_eq!(even.shown, 6);
        let mean = even.delay_mean_ms.unwrap();
        assert!((mean - 337.0 / 6.0).abs() < 1e-9, "{mean}");
        // One press moved from the lowest value to the highest: the median (the mean of the
        // two middle values) jumps a frame, the mean moves by 83 ms over six.
        let moved = FeelResult::new(
            InputMode::Accumulated,
            Taps::default(),
            &ms(&[31, 48, 65, 82, 97, 97]),
        );
        assert_eq!(
            (even.delay_p50_ms, moved.delay_p50_ms),
            (Some(56.5), Some(73.5))
        );
        let shift = moved.delay_mean_ms.unwrap() - even.delay_mean_ms.unwrap();
        assert!((shift - 83.0 / 6.0).abs() < 1e-9, "{shift}");
        let none = FeelResult::new(InputMode::Accumulated, Taps::default(), &[]);
        assert_eq!((none.delay_mean_ms, none.delay_p50_ms), (None, None));
    }
}
