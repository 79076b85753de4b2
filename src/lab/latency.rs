//! Latency, key to photon, through the swapchain's queue (`looplab lab latency`).
//!
//! The same seeded person steers the same machine behind each present mode with 1, 2 and 3
//! frames in flight, once with a loop that goes straight on to its next frame and once
//! with one that starts each frame just in time for its refresh ([`JustInTime`]). Each
//! run reports the median and 99th percentile of the delay from a key to the first
//! refresh that shows it, and the share of refreshes that showed no new frame (a missed
//! refresh: the previous picture shown again).
//!
//! The curve then trades one for the other: the just-in-time loop with its margin fixed
//! at each of a row of values (a frame limiter's safety margin), and with the controller
//! keeping it from each of those floors.
//!
//! [`JustInTime`]: looplab_timing::JustInTime

use std::time::Duration;

use serde::Serialize;

use super::feel::with_keys;
use super::profile::Profile;
use super::run::{RunConfig, RunResult};
use super::swapchain::SwapchainSpec;
use crate::session::present::{LATENCIES, PresentMode};
use crate::session::ship_input::InputMode;
use crate::text::table::Table;
use looplab_timing::{LoopSettings, Margin, Strategy};

/// How the loop chooses when its next frame starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pacing {
    /// As soon as the last frame's present returns (or at the plan's own wake time).
    Plain,
    /// As late as the next refresh allows ([`looplab_timing::JustInTime`]).
    JustInTime,
}

impl Pacing {
    pub fn label(self) -> &'static str {
        match self {
            Pacing::Plain => "plain",
            Pacing::JustInTime => "just in time",
        }
    }
}

/// One run of the latency table.
#[derive(Clone, Debug, Serialize)]
pub struct LatencyRow {
    #[serde(serialize_with = "mode_id")]
    pub mode: PresentMode,
    pub latency: u32,
    pub pacing: Pacing,
    pub fps: f64,
    pub delay_p50_ms: Option<f64>,
    pub delay_p99_ms: Option<f64>,
    /// Refreshes that showed no new frame, as a share of all.
    pub missed_share: f64,
    /// Mean wait per frame for a swapchain image, and from present to the refresh that
    /// showed it, ms.
    pub acquire_wait_ms: f64,
    pub display_wait_ms: f64,
}

fn mode_id<S: serde::Serializer>(m: &PresentMode, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(m.id())
}

/// One point of the curve: a margin, and what it gave.
#[derive(Clone, Debug, Serialize)]
pub struct CurvePoint {
    /// `fixed`, or `adaptive` (the controller, from this floor).
    pub policy: &'static str,
    pub margin_ms: f64,
    pub delay_p50_ms: Option<f64>,
    pub missed_share: f64,
}

/// The latency experiment on one machine.
#[derive(Clone, Debug, Serialize)]
pub struct LatencyReport {
    pub profile: String,
    pub description: String,
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub strategy: Strategy,
    pub seconds: f64,
    pub rows: Vec<LatencyRow>,
    /// FIFO with 2 frames in flight, just in time, the margin varied.
    pub curve: Vec<CurvePoint>,
}

/// The margins the curve runs, ms.
pub const CURVE_MARGINS_MS: [f64; 9] = [0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];

/// The swapchain the curve and the report's headline comparison use: FIFO, 2 in flight
/// (wgpu's default).
pub const HEADLINE: SwapchainSpec = SwapchainSpec {
    mode: PresentMode::Fifo,
    latency: 2,
};

/// Runs every present mode with 1 to 3 frames in flight, plain and just in time, and the
/// margin curve, on `machine` (its display; its own swapchain, if any, is replaced).
pub fn run_latency(machine: &Profile, strategy: Strategy, seconds: Duration) -> LatencyReport {
    let mut cases = Vec::new();
    for mode in PresentMode::ALL {
        for latency in LATENCIES {
            for pacing in [Pacing::Plain, Pacing::JustInTime] {
                let margin = (pacing == Pacing::JustInTime).then_some(Margin::Adaptive {
                    least: looplab_timing::JustInTime::MIN_MARGIN,
                });
                cases.push(config(
                    machine,
                    SwapchainSpec { mode, latency },
                    margin,
                    strategy,
                    seconds,
                ));
            }
        }
    }
    let mut curve_cases = Vec::new();
    for ms in CURVE_MARGINS_MS {
        let margin = Duration::from_secs_f64(ms / 1e3);
        for policy in [Margin::Fixed(margin), Margin::Adaptive { least: margin }] {
            curve_cases.push(config(machine, HEADLINE, Some(policy), strategy, seconds));
        }
    }
    let results = super::run_groups(&[cases.clone(), curve_cases.clone()]);
    let (table, curve) = results.split_at(cases.len());
    let rows = table
        .iter()
        .zip(&cases)
        .map(|(r, c)| {
            let spec = c.profile.swapchain.unwrap_or(HEADLINE);
            LatencyRow {
                mode: spec.mode,
                latency: spec.latency,
                pacing: if c.just_in_time.is_some() {
                    Pacing::JustInTime
                } else {
                    Pacing::Plain
                },
                fps: r.fps,
                delay_p50_ms: r.feel.as_ref().and_then(|f| f.delay_p50_ms),
                delay_p99_ms: r.feel.as_ref().and_then(|f| f.delay_p99_ms),
                missed_share: missed_share(r),
                acquire_wait_ms: r.acquire_wait_ms,
                display_wait_ms: r.display_wait_ms,
            }
        })
        .collect();
    let curve = curve
        .iter()
        .zip(&curve_cases)
        .map(|(r, c)| {
            let (policy, margin) = match c.just_in_time {
                Some(Margin::Fixed(m)) => ("fixed", m),
                Some(Margin::Adaptive { least }) => ("adaptive", least),
                None => ("plain", Duration::ZERO),
            };
            CurvePoint {
                policy,
                margin_ms: margin.as_secs_f64() * 1e3,
                delay_p50_ms: r.feel.as_ref().and_then(|f| f.delay_p50_ms),
                missed_share: missed_share(r),
            }
        })
        .collect();
    LatencyReport {
        profile: machine.name.clone(),
        description: machine.description.clone(),
        strategy,
        seconds: seconds.as_secs_f64(),
        rows,
        curve,
    }
}

/// Refreshes that showed no new frame, of all the run's.
fn missed_share(r: &RunResult) -> f64 {
    r.scorecard.missed as f64 / r.scorecard.refreshes.max(1) as f64
}

/// A run of `strategy` at 60 updates a second on `machine` behind `spec`, the seeded
/// person steering with accumulated input, paced just in time when `margin` is given.
fn config(
    machine: &Profile,
    spec: SwapchainSpec,
    margin: Option<Margin>,
    strategy: Strategy,
    seconds: Duration,
) -> RunConfig {
    RunConfig {
        just_in_time: margin,
        ..with_keys(
            strategy,
            machine.with_swapchain(spec),
            LoopSettings::default(),
            seconds,
            InputMode::Accumulated,
        )
    }
}

impl LatencyReport {
    /// The row of `mode`, `latency` and `pacing`.
    pub fn row(&self, mode: PresentMode, latency: u32, pacing: Pacing) -> Option<&LatencyRow> {
        self.rows
            .iter()
            .find(|r| r.mode == mode && r.latency == latency && r.pacing == pacing)
    }

    /// The table: one line per mode, latency and pacing.
    pub fn table(&self) -> Table {
        let mut table = Table::new(&[
            "present",
            "in flight",
            "pacing",
            "FPS",
            "delay p50",
            "p99",
            "missed refreshes",
            "waits: acquire",
            "present to shown",
        ])
        .left(3);
        let ms = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1} ms"));
        for r in &self.rows {
            table.row([
                r.mode.id().to_string(),
                r.latency.to_string(),
                r.pacing.label().to_string(),
                format!("{:.1}", r.fps),
                ms(r.delay_p50_ms),
                ms(r.delay_p99_ms),
                format!("{:.2}%", r.missed_share * 100.0),
                format!("{:.1} ms", r.acquire_wait_ms),
                format!("{:.1} ms", r.display_wait_ms),
            ]);
        }
        table
    }

    /// The report as text: what ran, the table, and the headline comparison.
    pub fn text(&self) -> String {
        let mut out = format!(
            "Key to photon on {} ({}), {} at 60 UPS, {} s per run\n\n{}",
            self.profile,
            self.description,
            self.strategy.id(),
            self.seconds,
            self.table().text()
        );
        if let Some(line) = self.headline() {
            out += &format!("\n{line}\n");
        }
        out
    }

    /// FIFO with 2 in flight, plain against just in time, in one sentence.
    pub fn headline(&self) -> Option<String> {
        let plain = self.row(HEADLINE.mode, HEADLINE.latency, Pacing::Plain)?;
        let jit = self.row(HEADLINE.mode, HEADLINE.latency, Pacing::JustInTime)?;
        let (p, j) = (plain.delay_p50_ms?, jit.delay_p50_ms?);
        Some(format!(
            "FIFO, 2 in flight: just in time shows a key {:.1} ms sooner (median {j:.1} ms against {p:.1} ms), with {:.2}% missed refreshes against {:.2}%.",
            p - j,
            jit.missed_share * 100.0,
            plain.missed_share * 100.0
        ))
    }
}

/// The lab's median delays from a key for the window's loop on a display that paces it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ModelledDelay {
    /// To the return of the present that carried the key: what a window can time.
    pub to_present_ms: Option<f64>,
    /// To the refresh that showed it: key to photon.
    pub to_shown_ms: Option<f64>,
}

/// The median delays the lab models for the window's loop on a display that paces it: the
/// interpolated strategy at 60 UPS, FIFO with `latency` frames in flight on a display
/// refreshing every `period`, frames that take `render` of work, paced as `pacing` says,
/// with the seeded person at the arrows.
pub fn modelled_delay(
    pacing: Pacing,
    render: Duration,
    period: Duration,
    latency: u32,
) -> ModelledDelay {
    let hz = 1.0 / period.as_secs_f64();
    let Ok(machine) = Profile::parse(&format!(
        "window:render={}us,refresh={hz}",
        render.as_micros()
    )) else {
        return ModelledDelay::default();
    };
    let margin = (pacing == Pacing::JustInTime).then_some(Margin::Adaptive {
        least: looplab_timing::JustInTime::MIN_MARGIN,
    });
    let spec = SwapchainSpec {
        mode: PresentMode::Fifo,
        latency,
    };
    let run = super::run::run(&config(
        &machine,
        spec,
        margin,
        Strategy::Interpolated,
        Duration::from_secs(20),
    ));
    ModelledDelay {
        to_present_ms: run.to_present_p50_ms,
        to_shown_ms: run.feel.and_then(|f| f.delay_p50_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(profile: &str) -> LatencyReport {
        let machine = Profile::builtin()
            .into_iter()
            .find(|p| p.name == profile)
            .unwrap();
        run_latency(&machine, Strategy::Interpolated, Duration::from_secs(20))
    }

    #[test]
    fn just_in_time_cuts_a_refresh_from_fifo_with_two_in_flight_on_the_jitter_machine() {
        let r = report("jitter");
        let plain = r.row(PresentMode::Fifo, 2, Pacing::Plain).unwrap();
        let jit = r.row(PresentMode::Fifo, 2, Pacing::JustInTime).unwrap();
        let period = 1e3 / 60.0;
        let (p, j) = (plain.delay_p50_ms.unwrap(), jit.delay_p50_ms.unwrap());
        assert!(p - j >= period, "{}", r.text());
        assert!(jit.missed_share <= 0.01, "{}", r.text());
        // Plain FIFO waits in acquire, the queue full; just in time hardly waits there.
        assert!(
            plain.acquire_wait_ms > 5.0 && jit.acquire_wait_ms < 0.5,
            "{}",
            r.text()
        );
    }

    #[test]
    fn more_frames_in_flight_cost_a_refresh_each_under_plain_fifo() {
        let r = report("vsync-60");
        let p50 = |latency| {
            r.row(PresentMode::Fifo, latency, Pacing::Plain)
                .unwrap()
                .delay_p50_ms
                .unwrap()
        };
        let period = 1e3 / 60.0;
        for latency in [1, 2] {
            let step = p50(latency + 1) - p50(latency);
            assert!(
                (step - period).abs() < 2.0,
                "{latency}: {step}\n{}",
                r.text()
            );
        }
        // Mailbox and immediate never queue: their delay is under FIFO's with one in flight.
        for mode in [PresentMode::Mailbox, PresentMode::Immediate] {
            let row = r.row(mode, 3, Pacing::Plain).unwrap();
            assert!(row.delay_p50_ms.unwrap() < p50(1), "{mode}\n{}", r.text());
        }
    }

    #[test]
    fn a_smaller_fixed_margin_misses_more_and_the_controller_misses_less_than_it() {
        let r = report("jitter");
        let point = |policy: &str, ms: f64| {
            r.curve
                .iter()
                .find(|p| p.policy == policy && p.margin_ms == ms)
                .unwrap()
        };
        let (tight, loose) = (point("fixed", 0.0), point("fixed", 6.0));
        assert!(tight.missed_share > loose.missed_share, "{:?}", r.curve);
        assert!(tight.delay_p50_ms < loose.delay_p50_ms, "{:?}", r.curve);
        assert!(
            point("adaptive", 0.0).missed_share < tight.missed_share,
            "{:?}",
            r.curve
        );
    }
}
