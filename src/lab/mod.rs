//! The lab: every strategy run headless against modelled hardware on a virtual clock, with
//! the trade-offs reported as numbers and plots.

pub mod blind;
pub mod capture_figures;
pub mod capture_report;
pub mod capture_text;
pub mod columns;
pub mod compare;
pub mod drift;
pub mod feel;
pub mod keys;
pub mod lane;
pub mod lane_error;
pub mod lane_spec;
pub mod latency;
pub mod latency_plot;
pub mod machine;
pub mod plot;
pub mod profile;
pub mod profile_error;
pub mod replay;
pub mod report;
pub mod run;
pub mod scorecard;
pub mod soak;
pub mod swapchain;
pub mod verdict;

use std::time::Duration;

use looplab_timing::{LoopSettings, Strategy};

use crate::text::settings::{DeltaKind, describe_settings};
use crate::world::WorldConfig;
use profile::Profile;
use report::LabReport;
use run::{RunConfig, RunResult};

/// What a lab invocation runs: every listed strategy on every listed profile.
#[derive(Clone, Debug)]
pub struct LabOptions {
    pub strategies: Vec<Strategy>,
    pub profiles: Vec<Profile>,
    pub settings: LoopSettings,
    pub world: WorldConfig,
    pub duration: Duration,
    pub checkpoint: Duration,
    /// Each way of reading frame deltas to run the strategies that read them with (snapping
    /// to each profile's display).
    pub deltas: Vec<DeltaKind>,
    /// End each run after this many updates (or at `duration`).
    pub until_updates: Option<u64>,
}

impl LabOptions {
    /// A thousand bullets: enough for the error statistics, cheap to simulate.
    pub const DEFAULT_BULLETS: usize = 1000;
}

impl Default for LabOptions {
    fn default() -> Self {
        Self {
            strategies: Strategy::ALL.to_vec(),
            profiles: Profile::builtin(),
            settings: LoopSettings::default(),
            world: WorldConfig {
                seed: 1,
                bullets: Self::DEFAULT_BULLETS,
            },
            duration: RunConfig::DEFAULT_DURATION,
            checkpoint: RunConfig::DEFAULT_CHECKPOINT,
            deltas: vec![DeltaKind::Measured],
            until_updates: None,
        }
    }
}

/// Runs each group of configurations on a thread of its own, the runs of a group in turn;
/// the results come back in the order given. Each run is deterministic, so they are the same
/// whatever the scheduling.
pub fn run_groups(configs: &[Vec<RunConfig>]) -> Vec<RunResult> {
    std::thread::scope(|scope| {
        let handles: Vec<_> = configs
            .iter()
            .map(|group| scope.spawn(move || group.iter().map(run::run).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// The report's first line: the loop's settings, the ways deltas are read in its rows (not
/// the settings' own delta mode, which each row replaces), and the world.
fn header(options: &LabOptions) -> String {
    let settings = options
        .settings
        .clone()
        .with_delta_mode(looplab_timing::DeltaMode::Measured);
    let deltas: Vec<String> = options.deltas.iter().map(DeltaKind::to_string).collect();
    format!(
        "{}, deltas {}, {}",
        describe_settings(&settings),
        deltas.join(" / "),
        options.world
    )
}

/// Every run `options` asks for, grouped by strategy.
fn configs(options: &LabOptions) -> Vec<Vec<RunConfig>> {
    options
        .strategies
        .iter()
        .map(|&strategy| {
            // One-step strategies never read a delta: they run once.
            let deltas = if strategy.follows_real_time() {
                options.deltas.as_slice()
            } else {
                &[DeltaKind::Measured]
            };
            options
                .profiles
                .iter()
                .flat_map(|profile| {
                    deltas.iter().map(move |delta| RunConfig {
                        strategy,
                        profile: profile.clone(),
                        settings: options
                            .settings
                            .clone()
                            .with_delta_mode(delta.mode(profile.refresh)),
                        world: options.world.clone(),
                        duration: options.duration,
                        checkpoint: options.checkpoint,
                        trace_interval: RunConfig::DEFAULT_TRACE_INTERVAL,
                        replay: None,
                        until_updates: options.until_updates,
                        keys: None,
                        just_in_time: None,
                        step_phase: Duration::ZERO,
                    })
                })
                .collect()
        })
        .collect()
}

/// Every run's frames in PresentMon 2.x's `--v2_metrics` columns, one application a run
/// (`looplab-STRATEGY-PROFILE`, with `+DELTA` where it read deltas otherwise than as
/// measured), so that a capture tool opens Looplab's ground truth beside its captures
/// ([`crate::capture::write::presentmon_v2_metrics`]).
pub fn presentmon_csv(options: &LabOptions) -> String {
    use crate::capture::write::{SwapChainColumns, V2_HEADER, presentmon_v2_metrics};

    let mut out = String::new();
    for (k, config) in configs(options).iter().flatten().enumerate() {
        let (result, frames) = run::run_presents(config);
        let application = format!("looplab-{}-{}", result.label(), result.profile);
        let text = presentmon_v2_metrics(
            &frames,
            SwapChainColumns {
                application: &application,
                pid: 1000 + u32::try_from(k).unwrap_or(u32::MAX - 1000),
                sync_interval: u8::from(config.profile.vsync),
                allows_tearing: config.profile.tears(),
            },
        );
        // One header, then each run's rows.
        let rows = if out.is_empty() {
            text.as_str()
        } else {
            text.strip_prefix(V2_HEADER).unwrap_or(&text).trim_start()
        };
        out.push_str(rows);
    }
    out
}

/// Runs every strategy on every profile. Strategies run on separate threads; each run is
/// deterministic, so the report is the same whatever the scheduling.
pub fn run_lab(options: &LabOptions) -> LabReport {
    let configs = configs(options);
    let results = run_groups(&configs);
    let checkpoint = configs
        .first()
        .and_then(|g| g.first())
        .map_or(options.checkpoint, RunConfig::aligned_checkpoint);
    LabReport::new(
        header(options),
        options.duration.as_secs_f64(),
        checkpoint.as_secs_f64(),
        options.profiles.clone(),
        results,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_names_the_deltas_its_rows_ran_not_the_settings_default() {
        let mut options = LabOptions::default();
        // The settings' own delta mode is synced by default; the rows run measured.
        assert!(describe_settings(&options.settings).contains("deltas synced"));
        options.deltas = vec![DeltaKind::Measured];
        let h = header(&options);
        assert!(
            h.contains("deltas measured") && !h.contains("synced"),
            "{h}"
        );
        options.deltas = vec![DeltaKind::Measured, DeltaKind::Synced];
        let h = header(&options);
        assert!(h.contains("deltas measured / synced"), "{h}");
    }
}
