//! What a capture holds, in figures and words: the head of `looplab lab --capture`'s report.
//!
//! The display's rate is estimated, not assumed: the times the display changed picture (a
//! run of `MsBetweenDisplayChange`, or 2.x's `DisplayedTime`) land on its refresh grid, and
//! the crate's [`RefreshEstimator`] finds the grid's period as it does for the window.
//! Where the changes keep to no grid (a variable-refresh display, or tearing presents) or
//! the capture has none, the summary says so and the lab models 60 Hz.

use crate::text::table::Table;

use serde::Serialize;

use super::{Capture, Other, Presenting};
use looplab_timing::RefreshEstimator;

/// The display a capture was shown on, as far as its frames tell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Display {
    /// Its refresh rate, where the display changes keep to one.
    pub hz: Option<f64>,
    /// Where the rate comes from, or why there is none.
    pub source: String,
    /// Refreshes from the first display change to the last, on that rate.
    pub refreshes: Option<u64>,
    /// Of those, refreshes that showed no new frame (the picture held).
    pub repeated: Option<u64>,
}

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
    pub cost_columns: String,
    pub cost_median_ms: f64,
    pub cost_p99_ms: f64,
    pub display: Display,
    pub presenting: Presenting,
    /// Whether presents waited for the display, as the lab models it.
    pub vsync: bool,
    /// A log sampled every so often rather than each frame: the interval and the samples.
    pub sampled_every_ms: Option<f64>,
    pub samples: Option<usize>,
    pub notes: Vec<String>,
}

/// The `q` quantile of sorted `xs` (nearest rank); zero for none.
pub fn quantile(xs: &[f64], q: f64) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs[((xs.len() as f64 - 1.0) * q).round() as usize]
}

impl Summary {
    pub fn of(c: &Capture) -> Summary {
        let mut times: Vec<f64> = c.frames.iter().map(|f| f.interval_ms).collect();
        times.sort_unstable_by(f64::total_cmp);
        let mut costs: Vec<f64> = c.frames.iter().map(|f| f.cost_ms(c.cost_from)).collect();
        costs.sort_unstable_by(f64::total_cmp);
        let not_displayed = c.frames.iter().any(|f| f.displayed.is_some()).then(|| {
            c.frames
                .iter()
                .filter(|f| f.displayed == Some(false))
                .count()
        });
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
            frame_time_column: c.frame_time_column.clone(),
            median_ms: quantile(&times, 0.5),
            p99_ms: quantile(&times, 0.99),
            cost_columns: c.cost_columns.clone(),
            cost_median_ms: quantile(&costs, 0.5),
            cost_p99_ms: quantile(&costs, 0.99),
            display: display_of(c),
            presenting: c.presenting.clone(),
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
                "median {:.2} ms, p99 {:.2} ms, from {}; each update the lab runs costs its own on top",
                self.cost_median_ms, self.cost_p99_ms, self.cost_columns
            ),
        ));
        facts.push(("display", self.display_text()));
        facts.push(("presents", self.presents_text()));
        facts.extend(self.notes.iter().map(|n| ("note", n.clone())));
        facts
    }

    fn display_text(&self) -> String {
        let d = &self.display;
        match (d.hz, d.refreshes, d.repeated) {
            (Some(hz), Some(r), Some(rep)) => format!(
                "{hz:.2} Hz, {}; as captured, {rep} of {r} refreshes showed no new frame",
                d.source
            ),
            _ => format!("60 Hz modelled: {}", d.source),
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

/// The display's rate from the capture's display changes, with the refreshes that showed
/// no new frame.
fn display_of(c: &Capture) -> Display {
    let Some(column) = &c.screen_column else {
        return Display::without_rate("the capture has no display times".into());
    };
    if c.presenting.vsync() == Some(false) && c.presenting.allows_tearing == Some(true) {
        return Display::without_rate(format!(
            "its presents tore (SyncInterval 0, tearing allowed), so the changes in {column} follow the game, not a refresh"
        ));
    }
    let screens = display_changes(c);
    if screens.len() < 10 {
        return Display::without_rate(format!(
            "{column} holds too few display changes ({})",
            screens.len()
        ));
    }
    let Some(hz) = median_rate(&screens) else {
        return Display::without_rate(format!(
            "the display changes in {column} keep to no refresh rate"
        ));
    };
    let grid = Grid::of(&screens, hz);
    if grid.on_grid * 10 < screens.len() * 9 {
        return Display::without_rate(format!(
            "the display changes in {column} keep to no refresh grid ({} of {} near {hz:.1} Hz's; a variable-refresh display, or tearing presents)",
            grid.on_grid,
            screens.len()
        ));
    }
    Display {
        hz: Some(hz),
        source: format!(
            "estimated from {} display changes ({column}), {:.0}% on its grid",
            screens.len(),
            grid.on_grid as f64 * 100.0 / screens.len() as f64
        ),
        refreshes: Some(grid.refreshes),
        repeated: Some(grid.repeated),
    }
}

impl Display {
    /// A display whose rate the capture does not tell, and `source`, why: the lab then
    /// models 60 Hz.
    fn without_rate(source: String) -> Display {
        Display {
            hz: None,
            source,
            refreshes: None,
            repeated: None,
        }
    }
}

/// The times between the display changes of the frames the display showed, ms: a frame
/// not displayed changed nothing.
fn display_changes(c: &Capture) -> Vec<f64> {
    c.frames
        .iter()
        .filter(|f| f.displayed != Some(false))
        .filter_map(|f| f.screen_ms)
        .collect()
}

/// The median of the rates the estimator finds as the changes `screens` come, once it
/// has seen 30 of them (fewer give it too little to go on); `None` where it finds none.
fn median_rate(screens: &[f64]) -> Option<f64> {
    let mut estimator = RefreshEstimator::new();
    let mut at = 0.0;
    let mut rates: Vec<f64> = Vec::new();
    for (k, s) in screens.iter().enumerate() {
        at += s;
        estimator.observe(std::time::Duration::from_secs_f64(at / 1e3));
        if k >= 30
            && let Some(r) = estimator.rate()
        {
            rates.push(r.as_hz());
        }
    }
    rates.sort_unstable_by(f64::total_cmp);
    (!rates.is_empty()).then(|| quantile(&rates, 0.5))
}

/// How the display changes sit on a refresh grid: a change is on it when it comes whole
/// periods after the one before, within a tenth of one.
struct Grid {
    /// Changes on the grid.
    on_grid: usize,
    /// Refreshes the changes span, on the grid's rate.
    refreshes: u64,
    /// Of those, refreshes that showed no new frame.
    repeated: u64,
}

impl Grid {
    /// The changes `screens` on the grid of `hz`.
    fn of(screens: &[f64], hz: f64) -> Grid {
        let period = 1e3 / hz;
        let (mut on_grid, mut refreshes, mut repeated) = (0usize, 0u64, 0u64);
        for s in screens {
            let whole = (s / period).round().max(1.0);
            if (s - whole * period).abs() <= 0.1 * period {
                on_grid += 1;
            }
            refreshes += whole as u64;
            repeated += whole as u64 - 1;
        }
        Grid {
            on_grid,
            refreshes,
            repeated,
        }
    }
}
