//! The lab's report: every run as an aligned table, CSV or JSON, with the determinism verdict
//! that compares each strategy's checkpoint hashes across profiles.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::text::table::Table;

use serde::Serialize;

use super::capture_report::CaptureReport;
use super::columns;
use super::profile::Profile;
use super::run::RunResult;
use super::scorecard::Scorecard;
use crate::metrics::glossary::{self, Figure};
use crate::text::settings::DeltaKind;
use crate::world::hash::StateHash;
use looplab_timing::Strategy;

/// Everything a lab invocation found.
#[derive(Clone, Debug, Serialize)]
pub struct LabReport {
    /// Settings shared by every run, in words.
    pub settings: String,
    /// Real seconds each run lasted.
    pub seconds: f64,
    /// Game time of the checkpoint hash, seconds.
    pub checkpoint_seconds: f64,
    pub profiles: Vec<Profile>,
    /// What each of the runs' `figures` is ([`crate::metrics::glossary`]).
    pub legend: Vec<Defined>,
    pub runs: Vec<RunRow>,
    /// With `--trace`: the scorecard of the frames the window really presented.
    pub recorded: Option<Scorecard>,
    /// With `--capture`: the capture answered ([`CaptureReport`]).
    pub capture: Option<CaptureReport>,
}

/// A run and its determinism verdict.
#[derive(Clone, Debug, Serialize)]
pub struct RunRow {
    #[serde(flatten)]
    pub result: RunResult,
    /// Whether this strategy's checkpoint hash was the same on every profile that reached
    /// the checkpoint.
    pub deterministic: Option<bool>,
    /// The default table's figures under their glossary keys (`null` where the run has
    /// none), as the text table and the CSV print them.
    pub figures: BTreeMap<&'static str, Option<f64>>,
}

/// A figure's key, header and definition, for the JSON's legend.
#[derive(Clone, Debug, Serialize)]
pub struct Defined {
    pub key: &'static str,
    pub header: &'static str,
    pub definition: &'static str,
}

impl LabReport {
    /// Builds the report, judging determinism per strategy.
    pub fn new(
        settings: String,
        seconds: f64,
        checkpoint_seconds: f64,
        profiles: Vec<Profile>,
        results: Vec<RunResult>,
    ) -> Self {
        // Judged per strategy and way of reading deltas: snapping may make a strategy agree
        // with itself across profiles where measured deltas do not.
        let mut hashes: BTreeMap<(Strategy, DeltaKind), Vec<StateHash>> = BTreeMap::new();
        for r in &results {
            if let Some(h) = r.checkpoint.hash() {
                hashes.entry((r.strategy, r.delta)).or_default().push(h);
            }
        }
        let verdict: BTreeMap<(Strategy, DeltaKind), bool> = hashes
            .into_iter()
            .filter(|(_, hs)| hs.len() >= 2)
            .map(|(key, hs)| (key, hs.iter().all(|h| *h == hs[0])))
            .collect();
        let runs = results
            .into_iter()
            .map(|result| RunRow {
                deterministic: verdict.get(&(result.strategy, result.delta)).copied(),
                figures: columns::DEFAULT
                    .iter()
                    .map(|c| (c.figure.key, (c.value)(&result)))
                    .collect(),
                result,
            })
            .collect();
        Self {
            settings,
            seconds,
            checkpoint_seconds,
            profiles,
            legend: columns::DEFAULT
                .iter()
                .map(|c| Defined {
                    key: c.figure.key,
                    header: c.figure.header,
                    definition: c.figure.definition,
                })
                .collect(),
            runs,
            recorded: None,
            capture: None,
        }
    }

    /// The row for a strategy and profile.
    pub fn row(&self, strategy: Strategy, profile: &str) -> Option<&RunRow> {
        self.runs
            .iter()
            .find(|r| r.result.strategy == strategy && r.result.profile == profile)
    }

    /// The report as a person reads it: a capture's answer, with every run's tables after
    /// it where `verbose`; otherwise the runs' tables, the pacing scorecard too where
    /// `verbose`.
    pub fn text(&self, verbose: bool) -> String {
        match &self.capture {
            Some(c) if verbose => format!(
                "{}\nEvery run, in detail\n\n{}{}",
                c.text(),
                self.table(),
                self.pacing_table()
            ),
            Some(c) => c.text(),
            None if verbose => self.table() + &self.pacing_table(),
            None => self.table(),
        }
    }

    fn results(&self) -> Vec<&RunResult> {
        self.runs.iter().map(|r| &r.result).collect()
    }

    /// The runs' figures (the glossary's, [`columns::DEFAULT`]), each defined under the
    /// table; then the world's checks of the texts' claims in a table of their own.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Looplab lab: {} s of real time per run; {}",
            // A capture's or a trace's span, to the millisecond; a whole --seconds as given.
            format!("{:.3}", self.seconds)
                .trim_end_matches('0')
                .trim_end_matches('.'),
            self.settings
        );
        for p in &self.profiles {
            let _ = writeln!(out, "  {:<10} {}", p.name, p.description);
        }
        out.push('\n');
        let columns = columns::default_for(&self.results());
        let mut headers = vec!["strategy", "profile"];
        headers.extend(columns.iter().map(|c| c.figure.header));
        let rows: Vec<Vec<String>> = self
            .runs
            .iter()
            .map(|row| {
                let r = &row.result;
                let mut cells = vec![r.label(), r.profile.clone()];
                cells.extend(columns.iter().map(|c| c.cell(r)));
                cells
            })
            .collect();
        out.push_str(&self.aligned(&headers, &rows));
        out.push('\n');
        let figures: Vec<&Figure> = columns.iter().map(|c| c.figure).collect();
        out.push_str(&glossary::legend(&figures));
        out.push_str(&self.world_table());
        out
    }

    const WORLD_HEADERS: [&'static str; 9] = [
        "strategy",
        "profile",
        "hash@checkpoint",
        "determ",
        "tunnel",
        "energy",
        "max upd",
        "repeats",
        "drawn px",
    ];

    /// The texts' claims about determinism and physics, and the drawn positions' error in
    /// pixels, run by run.
    pub fn world_table(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .runs
            .iter()
            .map(|row| {
                let r = &row.result;
                vec![
                    r.label(),
                    r.profile.clone(),
                    r.checkpoint
                        .hash()
                        .map_or_else(|| "-".into(), |h| h.to_string()),
                    match row.deterministic {
                        Some(true) => "yes".into(),
                        Some(false) => "no".into(),
                        None => "-".into(),
                    },
                    format!("{:.0}%", r.tunnel_share * 100.0),
                    format!("{:+.1}%", r.energy_drift * 100.0),
                    r.max_updates.to_string(),
                    format!("{:.0}%", r.repeat_share * 100.0),
                    format!("{:.2} ({:.1})", r.drawn_error_mean_px, r.drawn_error_max_px),
                ]
            })
            .collect();
        let mut out = String::from(
            "\nThe texts' claims about determinism and physics: the world each loop ran\n\n",
        );
        out.push_str(&self.aligned(&Self::WORLD_HEADERS, &rows));
        let _ = write!(
            out,
            "\nhash@checkpoint: the world's state at {:.3} s of game time; determ: the same hash on every\n\
             profile. tunnel: darts that went through the thin wall. energy: drift of the bouncing balls'\n\
             total energy. max upd: most updates in one frame. repeats: frames that ran no update. drawn px:\n\
             the drawn positions' distance from the exact ones at the frame's game-clock instant, mean (max).\n",
            self.checkpoint_seconds
        );
        out
    }

    const PACING_HEADERS: [&'static str; 11] = [
        "strategy",
        "profile",
        "updates",
        "refreshes",
        "0 new",
        "1 new",
        "2 new",
        "3+ new",
        "doubles",
        "skipped",
        "drift ms",
    ];

    /// The pacing scorecard of every run, with a legend.
    pub fn pacing_table(&self) -> String {
        let rows: Vec<Vec<String>> = self
            .runs
            .iter()
            .map(|row| {
                let r = &row.result;
                let c = &r.scorecard;
                let h = |i: usize| c.histogram[i].to_string();
                vec![
                    r.label(),
                    r.profile.clone(),
                    r.updates.to_string(),
                    c.refreshes.to_string(),
                    h(0),
                    h(1),
                    h(2),
                    h(3),
                    c.doubles.to_string(),
                    format!("{} ({} missed)", c.skipped, c.missed),
                    format!("{:+.1}", c.drift_ms),
                ]
            })
            .collect();
        let mut out =
            String::from("\nPacing: what each display refresh showed (MonitorSim's terms)\n\n");
        out.push_str(&self.aligned(&Self::PACING_HEADERS, &rows));
        if let Some(c) = &self.recorded {
            let _ = writeln!(
                out,
                "\nAs the window really presented them: {} refreshes, 0/1/2/3+ new: {}/{}/{}/{}, {} doubles, {} skipped ({} missed), drift {:+.1} ms",
                c.refreshes,
                c.histogram[0],
                c.histogram[1],
                c.histogram[2],
                c.histogram[3],
                c.doubles,
                c.skipped,
                c.missed,
                c.drift_ms
            );
        }
        out.push_str(
            "\nN new: refreshes that showed N updates the previous refresh had not. doubles: refreshes\n\
             with 2 or more (the motion jumps). skipped: refreshes with none while the game ran (the\n\
             motion stops); missed: of those, refreshes that got no new frame at all. drift: game time\n\
             minus real time at the end.\n",
        );
        out
    }

    /// `rows` under `headers`, columns aligned (the first two to the left), a blank line
    /// between strategies.
    fn aligned(&self, headers: &[&str], rows: &[Vec<String>]) -> String {
        let mut table = Table::new(headers).left(2);
        let mut last_strategy = None;
        for (row, cells) in self.runs.iter().zip(rows) {
            if last_strategy.is_some_and(|s| s != row.result.strategy) {
                table.blank();
            }
            last_strategy = Some(row.result.strategy);
            table.row(cells.iter().cloned());
        }
        table.text()
    }

    /// Comma-separated values with a header row: the default table's figures under their
    /// glossary keys, then the world's checks and the pacing scorecard. Fields never contain
    /// commas or quotes: they are ids, numbers and hex hashes (profile names are restricted
    /// accordingly).
    pub fn csv(&self) -> String {
        let mut out = String::from("strategy,profile,delta");
        for c in &columns::DEFAULT {
            out.push(',');
            out.push_str(c.figure.key);
        }
        out.push_str(
            ",p1_fps,low1_fps,low01_fps,animation_error_frames,picture_lag_p99_ms,max_updates,\
             repeat_share,drawn_error_mean_px,drawn_error_max_px,checkpoint_hash,deterministic,\
             busy_share,tunnel_share,energy_drift,game_seconds,updates,refreshes,refreshes_0,\
             refreshes_1,refreshes_2,refreshes_3_or_more,doubles,skipped,drift_ms\n",
        );
        for row in &self.runs {
            let r = &row.result;
            let _ = write!(out, "{},{},{}", r.strategy.id(), r.profile, r.delta);
            for c in &columns::DEFAULT {
                out.push(',');
                if let Some(v) = (c.value)(r) {
                    let _ = write!(out, "{v:.5}");
                }
            }
            let c = &r.scorecard;
            let _ = writeln!(
                out,
                ",{:.3},{:.3},{:.3},{},{:.4},{},{:.5},{:.4},{:.4},{},{},{:.5},{:.5},{:.6},{:.4},{},{},{},{},{},{},{},{},{:.3}",
                r.frame_times.p1_fps,
                r.frame_times.low1_fps,
                r.frame_times.low01_fps,
                c.animation_error.frames,
                c.picture_lag.p99_ms,
                r.max_updates,
                r.repeat_share,
                r.drawn_error_mean_px,
                r.drawn_error_max_px,
                r.checkpoint.hash().map_or(String::new(), |h| h.to_string()),
                row.deterministic.map_or(String::new(), |d| d.to_string()),
                r.busy_share,
                r.tunnel_share,
                r.energy_drift,
                r.game_seconds,
                r.updates,
                c.refreshes,
                c.histogram[0],
                c.histogram[1],
                c.histogram[2],
                c.histogram[3],
                c.doubles,
                c.skipped,
                c.drift_ms,
            );
        }
        out
    }
}
