//! The lab's report: every run as an aligned table, CSV or JSON, with the determinism verdict
//! that compares each strategy's checkpoint hashes across profiles.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::text::table::Table;

use serde::Serialize;

use super::capture_report::CaptureReport;
use super::profile::Profile;
use super::run::RunResult;
use super::scorecard::Scorecard;
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
                result,
            })
            .collect();
        Self {
            settings,
            seconds,
            checkpoint_seconds,
            profiles,
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

    const HEADERS: [&'static str; 15] = [
        "strategy",
        "profile",
        "fps",
        "ups",
        "game/real",
        "max upd",
        "repeats",
        "err mean",
        "err max",
        "judder",
        "hash@checkpoint",
        "determ",
        "busy",
        "tunnel",
        "energy",
    ];

    fn cells(row: &RunRow) -> [String; 15] {
        let r = &row.result;
        [
            r.label(),
            r.profile.clone(),
            format!("{:.1}", r.fps),
            format!("{:.1}", r.ups),
            format!("{:.3}", r.ratio),
            r.max_updates.to_string(),
            format!("{:.0}%", r.repeat_share * 100.0),
            format!("{:.2}", r.mean_error),
            format!("{:.2}", r.max_error),
            format!("{:.2}", r.mean_judder),
            r.checkpoint
                .hash()
                .map_or_else(|| "-".into(), |h| h.to_string()),
            match row.deterministic {
                Some(true) => "yes".into(),
                Some(false) => "no".into(),
                None => "-".into(),
            },
            format!("{:.0}%", r.busy_share * 100.0),
            format!("{:.0}%", r.tunnel_share * 100.0),
            format!("{:+.1}%", r.energy_drift * 100.0),
        ]
    }

    /// The report as a person reads it: a capture's answer, with every run's table after
    /// it where `verbose`; otherwise the table.
    pub fn text(&self, verbose: bool) -> String {
        match &self.capture {
            Some(c) if verbose => format!("{}\nEvery run, in detail\n\n{}", c.text(), self.table()),
            Some(c) => c.text(),
            None => self.table(),
        }
    }

    /// An aligned text table with a legend, then the pacing scorecard.
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
        let rows: Vec<Vec<String>> = self.runs.iter().map(|r| Self::cells(r).to_vec()).collect();
        out.push_str(&self.aligned(&Self::HEADERS, &rows));
        let _ = write!(
            out,
            "\ngame/real: game time per real time (1 = real-time speed). max upd: most updates in one frame.\n\
             repeats: frames with no update since the last. err: distance in px from the drawn to the exact\n\
             position at the frame's game-clock instant; judder: its change from frame to frame (smoothness).\n\
             hash@checkpoint: state at {:.3} s of game time; determ: same hash on every profile.\n\
             busy: share of wall time working, not waiting (a power proxy). tunnel: darts through the thin\n\
             wall. energy: drift of the bouncing balls' total energy.\n",
            self.checkpoint_seconds
        );
        out.push_str(&self.pacing_table());
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

    /// Comma-separated values with a header row. Fields never contain commas or quotes:
    /// they are ids, numbers and hex hashes (profile names are restricted accordingly).
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "strategy,profile,delta,fps,ups,ratio,max_updates,repeat_share,mean_error_px,max_error_px,\
             mean_judder_px,checkpoint_hash,deterministic,busy_share,tunnel_share,energy_drift,game_seconds,\
             updates,refreshes,refreshes_0,refreshes_1,refreshes_2,refreshes_3_or_more,doubles,skipped,\
             missed,drift_ms\n",
        );
        for row in &self.runs {
            let r = &row.result;
            let _ = writeln!(
                out,
                "{},{},{},{:.3},{:.3},{:.5},{},{:.5},{:.4},{:.4},{:.4},{},{},{:.5},{:.5},{:.6},{:.4},{},{},{},{},{},{},{},{},{},{:.3}",
                r.strategy.id(),
                r.profile,
                r.delta,
                r.fps,
                r.ups,
                r.ratio,
                r.max_updates,
                r.repeat_share,
                r.mean_error,
                r.max_error,
                r.mean_judder,
                r.checkpoint.hash().map_or(String::new(), |h| h.to_string()),
                row.deterministic.map_or(String::new(), |d| d.to_string()),
                r.busy_share,
                r.tunnel_share,
                r.energy_drift,
                r.game_seconds,
                r.updates,
                r.scorecard.refreshes,
                r.scorecard.histogram[0],
                r.scorecard.histogram[1],
                r.scorecard.histogram[2],
                r.scorecard.histogram[3],
                r.scorecard.doubles,
                r.scorecard.skipped,
                r.scorecard.missed,
                r.scorecard.drift_ms,
            );
        }
        out
    }
}
