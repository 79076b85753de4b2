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
        let mut sorted = delays.to_vec();
        sorted.sort_unstable();
        let at = |q: f64| {
            (!sorted.is_empty()).then(|| {
                let i = ((sorted.len() - 1) as f64 * q).round() as usize;
                sorted[i].as_secs_f64() * 1e3
            })
        };
        Self {
            mode,
            taps,
            shown: sorted.len(),
            delay_p50_ms: at(0.5),
            delay_p99_ms: at(0.99),
            delay_mean_ms: (!sorted.is_empty())
                .then(|| sorted.iter().sum::<Duration>().as_secs_f64() * 1e3 / sorted.len() as f64),
        }
    }
}
