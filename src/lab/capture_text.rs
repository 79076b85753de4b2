//! A capture's answer as a person reads it: the capture's summary, the capture beside its
//! own loop replayed, every loop on the same machine, the latencies the capture measured,
//! and the verdict. Figures are the field's ([`crate::metrics`]); the lab's own world
//! columns are in the verbose report.

use std::fmt::Write as _;

use super::capture_figures::{LoopFigures, missed_share};
use super::capture_report::CaptureReport;
use crate::capture::figures::ShownFigures;
use crate::metrics::glossary::{self, Figure};
use crate::text::table::Table;

/// The figures of the two tables, defined under the second.
const LEGEND: [&Figure; 14] = [
    &glossary::FPS,
    &glossary::SHOWN,
    &glossary::P1,
    &glossary::P01,
    &glossary::LOW1,
    &glossary::LOW01,
    &glossary::ANIMATION_ERROR,
    &glossary::ANIMATION_ERROR_P99,
    &glossary::ANIMATION_ERROR_OVER,
    &glossary::MISSED,
    &glossary::PICTURE_LAG,
    &glossary::KEY_TO_PHOTON,
    &glossary::SPEED,
    &glossary::BUSY,
];

impl CaptureReport {
    /// The report: summary, figures, loops, verdict.
    pub fn text(&self) -> String {
        let mut out = self.capture.text();
        let _ = writeln!(
            out,
            "\nAs captured, and the game's own loop replayed as captured ({})",
            self.machine
        );
        out += &figures_table(&[
            ("as captured", &self.capture.as_captured),
            ("replayed as captured", &self.replayed.shown),
        ]);
        if let Some(why) = &self.agreement.why {
            let _ = writeln!(out, "  ! {why}");
        } else {
            let _ = writeln!(
                out,
                "  The replay shows the frames within 5% of the capture (shown FPS and refreshes without a new frame)."
            );
        }
        out += "\nEvery loop on this machine, the capture's frames replayed\n";
        out += &loops_table(&self.replayed, &self.loops);
        out.push('\n');
        out += &glossary::legend(&LEGEND);
        out += &self.latency_lines();
        out += "\nVerdict\n";
        for line in &self.verdict.lines {
            let _ = writeln!(out, "  - {line}");
        }
        out
    }

    /// The latencies the capture measured, beside the lab's key to photon for its loop.
    fn latency_lines(&self) -> String {
        let lat = &self.capture.as_captured.latencies;
        if lat.is_empty() {
            return String::new();
        }
        let mut out = String::from("\nLatency the capture measured\n");
        for l in lat {
            let _ = writeln!(
                out,
                "  {:<26} median {:>6.2} ms, p99 {:>6.2} ms ({} frames)",
                l.column, l.median_ms, l.p99_ms, l.frames
            );
        }
        if let Some(mean) = self.replayed.key_to_photon_mean_ms {
            let _ = writeln!(
                out,
                "  {:<26} mean   {mean:>6.2} ms: the lab's key to photon for the game's own loop (from a key's arrival to the refresh that shows it)",
                "modelled key to photon"
            );
        }
        out
    }
}

fn fps(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:.1}"))
}

fn missed(f: &ShownFigures) -> String {
    match (f.without_new_frame, missed_share(f)) {
        (Some(n), Some(share)) => format!("{n} ({:.1}%)", share * 100.0),
        _ => "-".into(),
    }
}

fn animation(f: &ShownFigures) -> [String; 3] {
    match f.animation_error {
        Some(a) if a.frames > 0 => [
            format!("{:.2}", a.mean_abs_ms),
            format!("{:.2}", a.p99_abs_ms),
            format!("{:.1}%", a.over_2ms_share * 100.0),
        ],
        _ => ["-".into(), "-".into(), "-".into()],
    }
}

/// The capture's figures beside its replay's.
fn figures_table(rows: &[(&str, &ShownFigures)]) -> String {
    let mut table = Table::new(&[
        "", "FPS", "shown", "P1", "P0.1", "1% low", "0.1% low", "anim err", "p99", ">2 ms",
        "missed",
    ])
    .indent("  ");
    for (label, f) in rows {
        let t = &f.frame_times;
        let [mean, p99, over] = animation(f);
        table.row([
            label.to_string(),
            format!("{:.1}", f.presented_fps),
            fps(f.shown_fps),
            format!("{:.1}", t.p1_fps),
            format!("{:.1}", t.p01_fps),
            format!("{:.1}", t.low1_fps),
            format!("{:.1}", t.low01_fps),
            mean,
            p99,
            over,
            missed(f),
        ]);
    }
    table.text()
}

/// Every loop's row, the game's own first.
fn loops_table(own: &LoopFigures, loops: &[LoopFigures]) -> String {
    let mut table = Table::new(&[
        "loop", "FPS", "shown", "1% low", "anim err", "p99", ">2 ms", "missed", "lag", "key",
        "speed", "busy",
    ])
    .indent("  ");
    for (k, l) in std::iter::once(own).chain(loops).enumerate() {
        if k == 1 {
            table.blank();
        }
        let f = &l.shown;
        let [mean, p99, over] = animation(f);
        let label = match l.cap_fps {
            Some(cap) => format!("{} (cap {cap:.0})", l.label),
            None => l.label.clone(),
        };
        table.row([
            label,
            format!("{:.1}", f.presented_fps),
            fps(f.shown_fps),
            format!("{:.1}", f.frame_times.low1_fps),
            mean,
            p99,
            over,
            missed(f),
            format!("{:.1}", l.picture_lag_ms),
            l.key_to_photon_mean_ms
                .map_or("-".into(), |d| format!("{d:.1}")),
            format!("{:.2}x", l.game_speed),
            format!("{:.0}%", l.busy_share * 100.0),
        ]);
    }
    table.text()
}
