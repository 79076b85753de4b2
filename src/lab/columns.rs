//! The lab's default table, column by column: each a figure of the glossary
//! ([`crate::metrics::glossary`]) and how a run gives it, so the text table, the CSV and the
//! JSON's `figures` print the same figures under the same definitions.

use super::run::RunResult;
use crate::metrics::glossary::{self, Figure};

/// One figure column: its figure, its value for a run (`None` where the run has none), and
/// how the text table writes that value.
pub struct Column {
    pub figure: &'static Figure,
    pub value: fn(&RunResult) -> Option<f64>,
    text: fn(&RunResult, f64) -> String,
}

impl Column {
    /// The cell of a text table: `-` where the run has no value.
    pub fn cell(&self, r: &RunResult) -> String {
        (self.value)(r).map_or_else(|| "-".into(), |v| (self.text)(r, v))
    }
}

fn one(_: &RunResult, v: f64) -> String {
    format!("{v:.1}")
}

fn two(_: &RunResult, v: f64) -> String {
    format!("{v:.2}")
}

fn percent(_: &RunResult, v: f64) -> String {
    format!("{:.1}%", v * 100.0)
}

/// The default table's figures, in order. The key's column is left out of a table whose
/// runs were given no keys.
pub const DEFAULT: [Column; 11] = [
    Column {
        figure: &glossary::FPS,
        value: |r| Some(r.frame_times.average_fps),
        text: one,
    },
    Column {
        figure: &glossary::UPS,
        value: |r| Some(r.ups),
        text: one,
    },
    Column {
        figure: &glossary::SPEED,
        value: |r| Some(r.ratio),
        text: |_, v| format!("{v:.2}x"),
    },
    Column {
        figure: &glossary::SHOWN,
        value: |r| Some(r.shown_fps),
        text: one,
    },
    Column {
        figure: &glossary::MISSED,
        value: |r| Some(r.scorecard.missed as f64),
        text: |r, v| {
            let share = v / (r.scorecard.refreshes.max(1) as f64);
            format!("{v:.0} ({:.1}%)", share * 100.0)
        },
    },
    Column {
        figure: &glossary::ANIMATION_ERROR,
        value: |r| Some(r.scorecard.animation_error.mean_abs_ms),
        text: two,
    },
    Column {
        figure: &glossary::ANIMATION_ERROR_P99,
        value: |r| Some(r.scorecard.animation_error.p99_abs_ms),
        text: two,
    },
    Column {
        figure: &glossary::ANIMATION_ERROR_OVER,
        value: |r| Some(r.scorecard.animation_error.over_2ms_share),
        text: percent,
    },
    Column {
        figure: &glossary::PICTURE_LAG,
        value: |r| Some(r.scorecard.picture_lag.mean_ms),
        text: one,
    },
    Column {
        figure: &glossary::KEY_TO_PHOTON,
        value: |r| r.feel.as_ref().and_then(|f| f.delay_mean_ms),
        text: one,
    },
    Column {
        figure: &glossary::DROPPED,
        value: |r| Some(r.dropped_game_s),
        text: |_, v| format!("{v:.2}"),
    },
];

/// The default columns for `runs`: the key's only where a run was given keys.
pub fn default_for(runs: &[&RunResult]) -> Vec<&'static Column> {
    let keys = runs.iter().any(|r| r.feel.is_some());
    DEFAULT
        .iter()
        .filter(|c| keys || c.figure.key != glossary::KEY_TO_PHOTON.key)
        .collect()
}
