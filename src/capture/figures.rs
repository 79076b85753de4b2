//! What a capture measured, in the field's terms: the frame rate presented and shown, the
//! refreshes that showed no new frame, the frame-time figures ([`FrameTimeFigures`]),
//! animation error ([`AnimationErrorFigures`]) and the latencies its columns carry. The lab
//! computes the same figures for a replayed loop, so the two can be laid side by side.
//!
//! Animation error is read from the capture's own column where it has one (PresentMon 2.x
//! `MsAnimationError`, `--v2_metrics` `AnimationError`, CapFrameX's `AnimationError`);
//! otherwise it is computed as PresentMon computes it from CPU starts
//! ([`crate::metrics::animation`]): a frame's animation time is when the CPU started it
//! (the end of the frame before's present call), its display time its present's start
//! plus `MsUntilDisplayed`.

use serde::Serialize;

use super::display::Display;
use super::{Capture, Timeline};
use crate::metrics::animation::{AnimationErrorFigures, AnimationErrors};
use crate::metrics::frame_times::FrameTimeFigures;
use crate::metrics::quantile_of;

/// What a run of frames showed: the capture's, or a loop's replayed in the lab.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct ShownFigures {
    /// Frames presented a second: the frame times' average FPS.
    pub presented_fps: f64,
    /// Frames the display showed a second; `None` where the capture does not say.
    pub shown_fps: Option<f64>,
    /// Refreshes spanned, and of them those that showed no new frame, where the display's
    /// rate is known and the presents did not tear.
    pub refreshes: Option<u64>,
    pub without_new_frame: Option<u64>,
    pub frame_times: FrameTimeFigures,
    /// Where the capture has what it needs.
    pub animation_error: Option<AnimationErrorFigures>,
    /// Where the animation errors come from: a column's name, or how they were computed.
    pub animation_error_from: Option<String>,
    pub latencies: Vec<LatencyFigure>,
}

/// One latency column's figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LatencyFigure {
    pub column: String,
    pub frames: usize,
    pub median_ms: f64,
    pub p99_ms: f64,
}

impl ShownFigures {
    /// The figures of capture `c`, shown on `display`.
    pub fn of_capture(c: &Capture, display: &Display) -> Self {
        // A sampled log's row stands for the frames of its interval.
        let runs: Vec<(f64, u64)> = c
            .frames
            .iter()
            .map(|f| (f.interval_ms, 1 + u64::from(f.more)))
            .collect();
        let frame_times = FrameTimeFigures::of_runs(&runs);
        let span_s: f64 = runs.iter().map(|&(ms, n)| ms * n as f64).sum::<f64>() / 1e3;
        let says = c.frames.iter().any(|f| f.displayed.is_some());
        let shown = c
            .frames
            .iter()
            .filter(|f| f.displayed == Some(true))
            .count();
        let (animation_error, animation_error_from) = match animation_errors(c) {
            Some((errors, from)) => (Some(AnimationErrorFigures::of(&errors)), Some(from)),
            None => (None, None),
        };
        Self {
            presented_fps: frame_times.average_fps,
            shown_fps: says.then(|| shown as f64 / span_s),
            refreshes: display.refreshes,
            without_new_frame: display.repeated,
            frame_times,
            animation_error,
            animation_error_from,
            latencies: latencies(c),
        }
    }
}

/// The capture's animation errors, ms, and where they come from: its own column, or
/// computed from its times; `None` where it has neither.
fn animation_errors(c: &Capture) -> Option<(Vec<f64>, String)> {
    if let Some(column) = &c.columns.animation_error {
        let errors: Vec<f64> = c
            .frames
            .iter()
            .filter_map(|f| f.animation_error_ms)
            .collect();
        if !errors.is_empty() {
            return Some((errors, column.clone()));
        }
    }
    let until = c.columns.until_displayed.as_ref()?;
    let mut errors = AnimationErrors::default();
    // The CPU started a frame when the frame before's present call returned (with
    // `--v2_metrics`, the timeline's own point): unknown for the first.
    let (mut at, mut cpu_start) = (0.0f64, None);
    for f in &c.frames {
        at += f.interval_ms;
        if c.timeline == Timeline::CpuStart {
            cpu_start = Some(at);
        }
        if let Some(start) = cpu_start
            && f.displayed != Some(false)
            && let Some(u) = f.until_displayed_ms
        {
            errors.displayed(start, at + u);
        }
        if c.timeline == Timeline::PresentStart {
            cpu_start = Some(at + f.in_present_ms.unwrap_or(0.0));
        }
    }
    let errors = errors.errors_ms().to_vec();
    (!errors.is_empty()).then(|| {
        (
            errors,
            format!("computed from CPU starts and {until}, as PresentMon does"),
        )
    })
}

/// The figures of each latency column the capture carries.
fn latencies(c: &Capture) -> Vec<LatencyFigure> {
    let cols = &c.columns;
    let mut out = Vec::new();
    let mut add = |column: &Option<String>, get: &dyn Fn(&super::Frame) -> Option<f64>| {
        let Some(column) = column else { return };
        let xs: Vec<f64> = c.frames.iter().filter_map(get).collect();
        if !xs.is_empty() {
            out.push(LatencyFigure {
                column: column.clone(),
                frames: xs.len(),
                median_ms: quantile_of(&xs, 0.5),
                p99_ms: quantile_of(&xs, 0.99),
            });
        }
    };
    add(&cols.until_displayed, &|f| {
        f.until_displayed_ms.filter(|_| f.displayed != Some(false))
    });
    add(&cols.pc_latency, &|f| f.latency.pc_ms);
    add(&cols.instrumented_latency, &|f| f.latency.instrumented_ms);
    add(&cols.input_to_photon, &|f| f.latency.input_to_photon_ms);
    out
}
