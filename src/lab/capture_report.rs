//! A capture answered (`looplab lab --capture FILE`): the capture's own figures, its loop
//! replayed as it ran and held to them, every strategy on the same machine, and a verdict.
//!
//! "Replayed as captured" is the game's own loop as its columns show it: one variable step
//! a frame (PresentMon's animation time is when the CPU began the frame, which is what a
//! variable step's game clock reads), its frame limiter's cap where one held the frames,
//! no stall clamp, presenting as the capture did ([`Profile::from_capture`]). Where it
//! shows the frames at a rate or with missed refreshes more than
//! [`AGREE`](super::capture_figures::AGREE) away from the
//! capture's, the report says so and why it may be: the comparisons then rest on the
//! model, not on the capture.
//!
//! Every loop runs with the lab's seeded person at the arrows, so each row also says how
//! soon a key reaches the screen ([`super::keys`]); keys cost nothing on a modelled
//! machine, so the frames are the same as without them.

use std::time::Duration;

use serde::Serialize;

use super::capture_figures::{Agreement, LoopFigures, agreement};
use super::feel::with_keys;
use super::profile::Profile;
use super::run::RunConfig;
use super::verdict::Verdict;
use crate::capture::summary::Summary;
use crate::session::ship_input::InputMode;
use crate::text::settings::DeltaKind;
use looplab_timing::{DeltaMode, LoopSettings, Rate, Strategy};

/// The whole answer.
#[derive(Clone, Debug, Serialize)]
pub struct CaptureReport {
    pub capture: Summary,
    /// The machine every loop ran on.
    pub machine: String,
    /// The capture's own loop, replayed.
    pub replayed: LoopFigures,
    pub agreement: Agreement,
    /// Every strategy, deltas as measured.
    pub loops: Vec<LoopFigures>,
    pub verdict: Verdict,
}

/// The game's own loop's label in the report.
pub const OWN: &str = "game's own loop";

/// Replays the capture `summary` sums up as captured, and under each of `strategies` (with
/// `settings`, deltas as measured), on its `machine`, for `duration`.
pub fn answer(
    summary: &Summary,
    machine: &Profile,
    settings: &LoopSettings,
    strategies: &[Strategy],
    duration: Duration,
) -> CaptureReport {
    let cap = summary.limiter.and_then(|l| Rate::hz(l.fps).ok());
    let own = LoopSettings::default()
        .with_frame_cap(cap)
        .with_max_frame_time(None)
        .expect("no clamp is never refused")
        .with_delta_mode(DeltaMode::Measured);
    let mut configs = vec![with_keys(
        Strategy::Variable,
        machine.clone(),
        own,
        duration,
        InputMode::Accumulated,
    )];
    for &strategy in strategies {
        let settings = settings
            .clone()
            .with_delta_mode(DeltaKind::Measured.mode(machine.refresh));
        configs.push(with_keys(
            strategy,
            machine.clone(),
            settings,
            duration,
            InputMode::Accumulated,
        ));
    }
    let groups: Vec<Vec<RunConfig>> = configs.into_iter().map(|c| vec![c]).collect();
    let results = super::run_groups(&groups);
    let tears = machine.tears();
    let replayed = LoopFigures::of(OWN, cap, &results[0], tears);
    let loops: Vec<LoopFigures> = results[1..]
        .iter()
        .map(|r| LoopFigures::of(r.strategy.id(), settings.frame_cap, r, tears))
        .collect();
    let agreement = agreement(summary, &replayed);
    let verdict = Verdict::of(summary, &replayed, &agreement, &loops);
    CaptureReport {
        capture: summary.clone(),
        machine: machine.description.clone(),
        replayed,
        agreement,
        loops,
        verdict,
    }
}
