//! What a capture holds, in figures and words: the head of `looplab lab --capture`'s report.
//! The display comes from [`super::display`], a frame limiter from [`super::limiter`], what
//! a frame cost from [`super::work`] and the field's figures from [`super::figures`]; this
//! puts them in one place, typed for the JSON and in a line each for a person.

use crate::text::table::Table;

use serde::Serialize;

use super::display::Display;
use super::figures::ShownFigures;
use super::limiter::Limiter;
use super::{Capture, CostFrom, Other, Presenting};
use crate::metrics::quantile_of;

/// A capture's summary.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub tool: &'static str,
    pub columns: &'static str,
    pub application: String,
    pub swap_chain: Option<String>,
    /// Rows read in all, every process's.
    pub rows: usize,
    /// The application's frames replayed (a sampled log's: the frames its samples stand
    /// for).
    pub frames: u64,
    /// Left out: frames the game did not make (frame generation).
    pub generated: usize,
    /// Frames the display never showed (kept: the game did their work); `None` where the
    /// capture does not say.
    pub not_displayed: Option<usize>,
    /// Left out: the other processes and swap chains.
    pub others: Vec<Other>,
    pub span_seconds: f64,
    /// The column the frame times come from, and their median and 99th percentile.
    pub frame_time_column: String,
    pub median_ms: f64,
    pub p99_ms: f64,
    /// What a frame cost, and from which columns.
    pub cost_from: CostFrom,
    pub cost_columns: String,
    pub cost_median_ms: f64,
    pub cost_p99_ms: f64,
    pub display: Display,
    pub presenting: Presenting,
    /// The frame limiter that held the frames, where one was told.
    pub limiter: Option<Limiter>,
    /// What the capture measured, in the field's terms.
    pub as_captured: ShownFigures,
    /// Whether presents waited for the display, as the lab models it.
    pub vsync: bool,
    /// A log sampled every so often rather than each frame: the interval and the samples.
    pub sampled_every_ms: Option<f64>,
    pub samples: Option<usize>,
    pub notes: Vec<String>,
}

impl Summary {
    /// The summary of `c`, shown on a display of `refresh_hz` where a person gave one.
    pub fn of(c: &Capture, refresh_hz: Option<f64>) -> Summary {
        let times: Vec<f64> = c.frames.iter().map(|f| f.interval_ms).collect();
        let costs: Vec<f64> = c.frames.iter().map(|f| f.work_ms).collect();
        let not_displayed = c.frames.iter().any(|f| f.displayed.is_some()).then(|| {
            c.frames
                .iter()
                .filter(|f| f.displayed == Some(false))
                .count()
        });
        let display = super::display::of(c, refresh_hz);
        Summary {
            tool: c.format.tool.name(),
            columns: c.format.columns.name(),
            application: c.application.clone(),
            swap_chain: c.swap_chain.clone(),
            rows: c.rows,
            frames: c.frame_count(),
            generated: c.generated,
            not_displayed,
            others: c.others.clone(),
            span_seconds: c.span().as_secs_f64(),
            frame_time_column: c.columns.frame_time.clone(),
            median_ms: quantile_of(&times, 0.5),
            p99_ms: quantile_of(&times, 0.99),
            cost_from: c.cost_from,
            cost_columns: c.cost_columns.clone(),
            cost_median_ms: quantile_of(&costs, 0.5),
            cost_p99_ms: quantile_of(&costs, 0.99),
            as_captured: ShownFigures::of_capture(c, &display),
            display,
            presenting: c.presenting.clone(),
            limiter: c.limiter,
            vsync: c.presenting.vsync().unwrap_or(false),
            sampled_every_ms: c.sampled.map(|s| s.every.as_secs_f64() * 1e3),
            samples: c.sampled.map(|s| s.samples),
            notes: c.notes.clone(),
        }
    }

    /// The summary as the report's head: the tool and columns, then a line for each fact.
    pub fn text(&self) -> String {
        let mut table = Table::new(&["", ""]).left(2).indent("  ").gap(1).grouped();
        for (label, value) in self.facts() {
            table.row([label.to_string(), value]);
        }
        format!("Capture: {}, {}\n{}", self.tool, self.columns, table.text())
    }

    /// What the capture held and how the lab reads it, a label and a line each.
    fn facts(&self) -> Vec<(&'static str, String)> {
        let app = if self.application.is_empty() {
            "(the log does not name it)".to_string()
        } else {
            self.application.clone()
        };
        let chain = self
            .swap_chain
            .as_ref()
            .map_or(String::new(), |s| format!(", swap chain {s}"));
        let mut left = vec![format!("{} generated frames", self.generated)];
        if !self.others.is_empty() {
            left.push(format!(
                "{} (--process NAME to choose)",
                others_in_words(&self.application, &self.others)
            ));
        }
        let mut facts = vec![
            (
                "application",
                format!(
                    "{app}{chain}: {} frames of {} rows read",
                    self.frames, self.rows
                ),
            ),
            ("as captured", self.figures_text()),
            ("left out", left.join("; ")),
        ];
        if let Some(n) = self.not_displayed {
            facts.push((
                "not displayed",
                format!("{n} frames (kept: the game did their work)"),
            ));
        }
        facts.push((
            "span",
            format!(
                "{:.2} s; frame time median {:.2} ms, p99 {:.2} ms ({})",
                self.span_seconds, self.median_ms, self.p99_ms, self.frame_time_column
            ),
        ));
        if let (Some(every), Some(samples)) = (self.sampled_every_ms, self.samples) {
            facts.push((
                "sampled",
                format!(
                    "every {every:.0} ms, {samples} samples: each stands for its interval's frames, at the frame time it carries; a hitch between samples is not in the log"
                ),
            ));
        }
        facts.push((
            "frame cost",
            format!(
                "median {:.2} ms, p99 {:.2} ms, from {}",
                self.cost_median_ms, self.cost_p99_ms, self.cost_columns
            ),
        ));
        facts.push(("display", self.display_text()));
        facts.push(("presents", self.presents_text()));
        if let Some(cap) = &self.limiter {
            facts.push((
                "limiter",
                format!(
                    "capped at {:.1} FPS: {:.0}% of its 30-frame stretches kept to it; the capture's own loop is replayed under that cap",
                    cap.fps,
                    cap.held_share * 100.0
                ),
            ));
        }
        facts.extend(self.notes.iter().map(|n| ("note", n.clone())));
        facts
    }

    /// The capture's figures in the field's terms, in a line.
    fn figures_text(&self) -> String {
        let f = &self.as_captured;
        let t = &f.frame_times;
        let mut parts = vec![format!("{:.1} FPS presented", f.presented_fps)];
        if let Some(shown) = f.shown_fps {
            parts.push(format!("{shown:.1} shown"));
        }
        parts.push(format!("P1 {:.1}, 1% low {:.1}", t.p1_fps, t.low1_fps));
        if let Some(a) = f.animation_error {
            parts.push(format!(
                "animation error p99 {:.2} ms, {:.1}% of frames over 2 ms",
                a.p99_abs_ms,
                a.over_2ms_share * 100.0
            ));
        }
        if let (Some(w), Some(r)) = (f.without_new_frame, f.refreshes) {
            parts.push(format!("{w} of {r} refreshes without a new frame"));
        }
        parts.join("; ")
    }

    fn display_text(&self) -> String {
        let d = &self.display;
        match (d.hz, d.refreshes, d.repeated) {
            (Some(hz), Some(r), Some(rep)) => format!(
                "{hz:.2} Hz, {}; as captured, {rep} of {r} refreshes showed no new frame",
                d.source
            ),
            (Some(hz), _, _) => format!("{hz:.2} Hz, {}", d.source),
            _ => format!("not known, 60 Hz modelled: {}", d.source),
        }
    }

    fn presents_text(&self) -> String {
        let p = &self.presenting;
        let mut how = Vec::new();
        if let Some(s) = p.sync_interval {
            how.push(format!("SyncInterval {s}"));
        }
        if let Some(t) = p.allows_tearing {
            how.push(if t { "tearing allowed" } else { "no tearing" }.to_string());
        }
        if let Some(m) = &p.present_mode {
            how.push(m.clone());
        }
        let why = if how.is_empty() {
            "the capture does not say how it presented".to_string()
        } else {
            how.join(", ")
        };
        let vsync = if self.vsync {
            "vsync: each waits for a refresh"
        } else {
            "no vsync"
        };
        format!("{vsync} ({why})")
    }
}

/// The other streams a file held, by application, the busiest first: "dwm.exe 197
/// frames; Presenter.exe 108 frames in 6 swap chains".
fn others_in_words(chosen: &str, others: &[Other]) -> String {
    let mut apps: Vec<(&str, usize, usize)> = Vec::new();
    for o in others {
        match apps.iter_mut().find(|(a, _, _)| *a == o.application) {
            Some(entry) => {
                entry.1 += o.frames;
                entry.2 += 1;
            }
            None => apps.push((&o.application, o.frames, 1)),
        }
    }
    apps.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut words: Vec<String> = apps
        .iter()
        .take(4)
        .map(|&(app, frames, chains)| {
            let name = if app.is_empty() { "(unnamed)" } else { app };
            match (app == chosen, chains) {
                (true, 1) => format!("{frames} frames of its other swap chain"),
                (true, n) => format!("{frames} frames of its {n} other swap chains"),
                (false, 1) => format!("{name} {frames} frames"),
                (false, n) => format!("{name} {frames} frames in {n} swap chains"),
            }
        })
        .collect();
    if apps.len() > 4 {
        words.push(format!("{} more processes", apps.len() - 4));
    }
    words.join("; ")
}
