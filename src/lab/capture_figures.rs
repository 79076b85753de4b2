//! The figures a loop shows a capture's frames with, laid beside the capture's own: one
//! loop's row ([`LoopFigures`]) and whether the game's own loop, replayed, reproduces the
//! capture ([`Agreement`]).

use serde::Serialize;

use super::run::RunResult;
use crate::capture::figures::ShownFigures;
use crate::capture::summary::Summary;
use looplab_timing::{Rate, Strategy};

/// How close the replay must come to the capture: 5% of its shown frame rate, and of its
/// refreshes in missed ones.
pub const AGREE: f64 = 0.05;

/// One loop on the capture's machine.
#[derive(Clone, Debug, Serialize)]
pub struct LoopFigures {
    /// The game's own loop, or the strategy's id.
    pub label: String,
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub strategy: Strategy,
    /// The frame cap it ran under, where one.
    pub cap_fps: Option<f64>,
    pub shown: ShownFigures,
    /// Game time per real time.
    pub game_speed: f64,
    /// Share of real time the CPU worked.
    pub busy_share: f64,
    /// Picture lag, mean ms.
    pub picture_lag_ms: f64,
    /// From a key to the first refresh that showed it, ms.
    pub key_to_photon_p50_ms: Option<f64>,
    pub key_to_photon_mean_ms: Option<f64>,
}

impl LoopFigures {
    pub fn of(label: &str, cap: Option<Rate>, r: &RunResult, tears: bool) -> Self {
        let c = &r.scorecard;
        LoopFigures {
            label: label.to_string(),
            strategy: r.strategy,
            cap_fps: cap.map(Rate::as_hz),
            shown: ShownFigures {
                presented_fps: r.frame_times.average_fps,
                shown_fps: Some(r.shown_fps),
                refreshes: (!tears).then_some(c.refreshes),
                without_new_frame: (!tears).then_some(c.missed),
                frame_times: r.frame_times,
                animation_error: Some(c.animation_error),
                animation_error_from: Some("the game time each picture shows".into()),
                latencies: Vec::new(),
            },
            game_speed: r.ratio,
            busy_share: r.busy_share,
            picture_lag_ms: c.picture_lag.mean_ms,
            key_to_photon_p50_ms: r.feel.as_ref().and_then(|f| f.delay_p50_ms),
            key_to_photon_mean_ms: r.feel.as_ref().and_then(|f| f.delay_mean_ms),
        }
    }

    /// Missed refreshes as a share of the refreshes, where known.
    pub fn missed_share(&self) -> Option<f64> {
        missed_share(&self.shown)
    }
}

/// Refreshes without a new frame as a share of all, where known.
pub fn missed_share(f: &ShownFigures) -> Option<f64> {
    match (f.without_new_frame, f.refreshes) {
        (Some(w), Some(r)) if r > 0 => Some(w as f64 / r as f64),
        _ => None,
    }
}

/// Whether the replay reproduces the capture.
#[derive(Clone, Debug, Serialize)]
pub struct Agreement {
    /// The replay's shown frame rate against the capture's, as a ratio less one.
    pub shown_fps_off: Option<f64>,
    /// The replay's share of refreshes without a new frame less the capture's.
    pub missed_share_off: Option<f64>,
    pub holds: bool,
    /// What differs and why it may, where it does not hold.
    pub why: Option<String>,
}

/// Whether `replayed` shows the frames as the capture did, within [`AGREE`].
pub fn agreement(summary: &Summary, replayed: &LoopFigures) -> Agreement {
    let captured = &summary.as_captured;
    let shown_fps_off = captured
        .shown_fps
        .zip(replayed.shown.shown_fps)
        .filter(|(c, _)| *c > 0.0)
        .map(|(c, r)| r / c - 1.0);
    let missed_share_off = missed_share(captured)
        .zip(replayed.missed_share())
        .map(|(c, r)| r - c);
    let mut off = Vec::new();
    if let Some(d) = shown_fps_off.filter(|d| d.abs() > AGREE) {
        off.push(format!(
            "shows {:.1} frames a second where the capture showed {:.1} ({:+.0}%)",
            replayed.shown.shown_fps.unwrap_or(0.0),
            captured.shown_fps.unwrap_or(0.0),
            d * 100.0
        ));
    }
    if missed_share_off.is_some_and(|d| d.abs() > AGREE) {
        off.push(format!(
            "misses {:.1}% of refreshes where the capture missed {:.1}%",
            replayed.missed_share().unwrap_or(0.0) * 100.0,
            missed_share(captured).unwrap_or(0.0) * 100.0,
        ));
    }
    let holds = off.is_empty();
    let why = (!holds).then(|| {
        format!(
            "The replay of the game's own loop {}: the model of its work ({}) or of how it presented ({}) is not what the capture ran, so the loops below are compared on the model, not on the capture.",
            off.join(" and "),
            summary.cost_columns,
            presents_in_words(summary)
        )
    });
    Agreement {
        shown_fps_off,
        missed_share_off,
        holds,
        why,
    }
}

/// How the capture presented, briefly.
fn presents_in_words(summary: &Summary) -> String {
    let p = &summary.presenting;
    match (p.sync_interval, p.allows_tearing) {
        (Some(s), Some(t)) => format!(
            "SyncInterval {s}, tearing {}",
            if t { "allowed" } else { "not allowed" }
        ),
        (Some(s), None) => format!("SyncInterval {s}"),
        _ => "not in the capture".into(),
    }
}
