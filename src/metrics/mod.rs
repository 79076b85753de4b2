//! The field's figures, defined once: what the window, the lab, the peers and a capture's
//! report call average FPS, P1, the 1% low or animation error is computed here, the way the
//! field's tools compute it, each definition cited where it is written.
//!
//! - [`frame_times`]: average FPS, the percentile frame rates P1 and P0.1, and the 1% and
//!   0.1% lows, as CapFrameX computes them from a run of frame times;
//! - [`animation`]: animation error as PresentMon computes it, for each displayed frame
//!   the change in the time its picture shows less the change in when it was shown;
//! - [`picture_lag`]: how far the time a picture shows is behind the game clock when it is
//!   shown (Looplab's own, beside the field's display latency).
//!
//! Every percentile in Looplab is the timing crate's one [`quantile`] (Hyndman and Fan's
//! definition 8, which CapFrameX's figures use): this module re-exports it for the app.

pub mod animation;
pub mod frame_times;
pub mod glossary;
pub mod picture_lag;

pub use looplab_timing::quantile;

/// The `q` quantile of `xs` in any order (sorted here); `NaN` for none.
pub fn quantile_of(xs: &[f64], q: f64) -> f64 {
    let mut sorted = xs.to_vec();
    sorted.sort_unstable_by(f64::total_cmp);
    quantile(&sorted, q)
}

/// The median of `xs` in any order; `NaN` for none.
pub fn median(xs: &[f64]) -> f64 {
    quantile_of(xs, 0.5)
}
