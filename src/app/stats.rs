//! What the window writes when a run ends: `--stats` as a typed report (which the tests read
//! back into the same struct, so a renamed field is a compile error, not a silent miss), the
//! frame log, the trace and the recording.

use std::collections::BTreeMap;
use std::time::Duration;

use looplab_timing::Strategy;
use serde::{Deserialize, Serialize};

use super::display_rate::DisplayReport;
use super::run_log::StrategyTotals;
use super::visibility::HiddenReport;
use crate::lab::compare::{Compare, Preset};
use crate::lab::lane::Agreement;
use crate::platform::frame_wait::FrameWaitReport;
use crate::platform::signals::Signal;
use crate::render::SurfaceRecoveries;
use crate::session::ship_input::{Dashes, InputMode, Taps};
use crate::tour::FramesJudged;
use crate::world::hash::StateHash;

/// Which windowing system the window ran under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WindowSystem {
    X11,
    /// A Wayland client: its compositor paces it.
    Wayland,
    Windows,
    /// macOS (AppKit).
    MacOs,
    /// A browser page: `requestAnimationFrame` paces it.
    Browser,
    /// Another windowing system, or none yet (the window never opened).
    Other,
}

impl RunEnd {
    /// The end a signal makes.
    pub fn of_signal(signal: Signal) -> Self {
        match signal {
            Signal::Interrupt => RunEnd::Interrupted,
            Signal::Terminate => RunEnd::Terminated,
            Signal::HangUp => RunEnd::HungUp,
        }
    }

    /// The signal that made this end, if one did.
    pub fn signal(self) -> Option<Signal> {
        Signal::ALL
            .into_iter()
            .find(|&s| RunEnd::of_signal(s) == self)
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunEnd {
    /// Esc or Q.
    QuitKey,
    /// The window's close button (or the window manager).
    WindowClosed,
    /// `--exit-after`'s time was up.
    ExitAfter,
    /// Something failed (no GPU, no window); the error says what.
    Failed,
    /// SIGINT: Ctrl+C in the terminal.
    Interrupted,
    /// SIGTERM: `kill`, a service manager, the end of a session.
    Terminated,
    /// SIGHUP: the terminal closed.
    HungUp,
    /// Not ended: a page's report of the run so far.
    Running,
}

/// `--stats`: the run as a whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsReport {
    /// Real time the run lasted.
    pub seconds: f64,
    pub window_system: WindowSystem,
    pub end: RunEnd,
    /// Per strategy, the frames it drew while it was active.
    #[serde(with = "crate::text::serde_ids::strategy_map")]
    pub strategies: BTreeMap<Strategy, StrategyTotals>,
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub final_strategy: Strategy,
    /// The knobs as they were at the end.
    pub knobs: KnobsReport,
    /// Keys pressed and buttons clicked that took effect.
    pub inputs_applied: u64,
    pub frames_presented: u64,
    pub frames_skipped: u64,
    /// Surfaces found outdated or lost, and rebuilt.
    pub surface_recoveries: SurfaceRecoveries,
    /// GPU devices lost (a driver reset, a GPU gone) and replaced by a new one.
    #[serde(default)]
    pub gpu_recoveries: u64,
    pub gpu_errors: u64,
    pub adapter: Option<String>,
    /// The surface's present mode by its id (`fifo`, `relaxed`, `mailbox`, `immediate`).
    pub present_mode: Option<String>,
    pub surface_size: Option<(u32, u32)>,
    pub bullets: usize,
    pub peak_rss_kib: Option<u64>,
    /// The game-speed warning as last checked.
    pub speed_warning: Option<String>,
    pub frame_wait: FrameWaitReport,
    /// The display's refresh rate snapped deltas used at the end, and where it came from.
    pub display: DisplayReport,
    /// The guided tour, if it was taken: the stops visited and what each showed.
    pub tour: Option<TourReport>,
    pub hidden: HiddenReport,
    pub metronome: MetronomeReport,
    pub ship: ShipReport,
    pub compare: Option<CompareReport>,
    pub replay: Option<ReplayReport>,
}

/// The driver's part of `--stats`: the windowing system, the window's surface and GPU, the loop's
/// waits, and how the run ended. The demo adds the rest ([`crate::app::demo::Demo::stats_report`]).
#[derive(Clone, Debug)]
pub struct WindowReport {
    pub window_system: WindowSystem,
    pub end: RunEnd,
    pub surface_recoveries: SurfaceRecoveries,
    pub gpu_recoveries: u64,
    pub gpu_errors: u64,
    pub adapter: Option<String>,
    pub present_mode: Option<String>,
    pub surface_size: Option<(u32, u32)>,
    pub frame_wait: FrameWaitReport,
    pub display: DisplayReport,
    pub hidden: HiddenReport,
}

/// The knobs that are not loop settings, at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KnobsReport {
    pub vsync: bool,
    /// Frames in flight asked of the surface (Shift+V, `--frame-latency`).
    #[serde(default = "default_latency")]
    pub frame_latency: u32,
    /// Whether the loop started its frames just in time (J, `--just-in-time`), and what
    /// the controller had learnt by the end.
    #[serde(default)]
    pub just_in_time: bool,
    #[serde(default)]
    pub just_in_time_lead_ms: Option<f64>,
    #[serde(default)]
    pub just_in_time_missed: u64,
    /// A refresh the controller's grid runs through (its period the display's), on the
    /// frame log's clock: where a test finds the refresh each paced frame aimed at.
    #[serde(default)]
    pub just_in_time_grid_ms: Option<f64>,
    pub ghosts: bool,
    pub help: bool,
    pub overlay: bool,
    pub timeline: bool,
    pub update_cost_ms: f64,
    pub render_cost_ms: f64,
}

fn default_latency() -> u32 {
    crate::session::present::DEFAULT_LATENCY
}

/// The metronome's figures in the last presented frame: how far the game drawn was from the
/// wall clock, and how much of that hitches dropped (what its caption says).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MetronomeReport {
    /// Game time the wall-clock marker was ahead of what was drawn, ms (negative: behind).
    pub behind_ms: f64,
    /// Game time the stall clamp dropped since the strategy was chosen, ms.
    pub hitches_ms: f64,
}

/// Where the ship went, and how long steering took to show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShipReport {
    pub position: [f32; 2],
    pub travelled_px: f64,
    /// How the updates read the keys at the end of the run.
    pub input_mode: InputMode,
    /// Taps of the arrows, and how many reached the game.
    pub taps: Taps,
    /// Presses of the dash key, and the dashes the ship made.
    pub dashes: Dashes,
    /// How long the arrows were held in all, ms, press to release as the window received
    /// them (see [`ShipKeys::held_for`](crate::session::ship_input::ShipKeys::held_for)).
    #[serde(default)]
    pub held_ms: f64,
    /// Steering changes measured from their key to the screen.
    pub input_delays: usize,
    pub input_delay_median_ms: Option<f64>,
    pub input_delay_max_ms: Option<f64>,
}

/// Compare mode at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    pub preset: Preset,
    pub lanes: Vec<LaneReport>,
}

/// One lane at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneReport {
    /// Machine and strategy.
    pub lane: String,
    /// Pictures and updates in the last second.
    pub fps: usize,
    pub ups: u32,
    pub game_real_ratio: f64,
    /// The last state hash taken, every second of game time.
    pub last_hash: Option<StateHash>,
    /// How many were taken.
    pub checkpoints: usize,
    /// Every common checkpoint agreed with the first lane's (`None` for the first lane, and
    /// before the first common checkpoint).
    pub in_step: Option<bool>,
    /// The first second of game time at which it did not.
    pub diverged_at_seconds: Option<u64>,
}

/// A replay (`--replay`) at the end of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayReport {
    pub end_game_seconds: f64,
    /// Whether the game clock reached the recording's end.
    pub reached: bool,
    pub same_state: Option<bool>,
    pub ship_offset_px: Option<f64>,
}

/// Compare mode's part of `--stats`: each lane's figures and agreement at `now`.
pub fn compare_report(c: &Compare, now: Duration) -> CompareReport {
    let lanes = (0..c.lanes.len())
        .map(|i| {
            let s = c.status(i, now);
            LaneReport {
                lane: s.title.clone(),
                fps: s.fps,
                ups: s.ups,
                game_real_ratio: s.ratio,
                last_hash: c.lanes[i].hashes().last().map(|&(_, h)| h),
                checkpoints: c.lanes[i].hashes().len(),
                in_step: match s.agreement {
                    Some(Agreement::InStep(_)) => Some(true),
                    Some(Agreement::DivergedAt(_)) => Some(false),
                    _ => None,
                },
                diverged_at_seconds: match s.agreement {
                    Some(Agreement::DivergedAt(t)) => Some(t.as_secs()),
                    _ => None,
                },
            }
        })
        .collect();
    CompareReport {
        preset: c.preset,
        lanes,
    }
}

/// The tour in `--stats`: the stops visited, in the table's order, and what each showed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TourReport {
    pub stops: Vec<StopReport>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StopReport {
    pub id: String,
    /// Seconds from the stop's start to its claim coming true, and the figure that showed
    /// it; `None` if it did not while the stop was on.
    pub seen_after_s: Option<f64>,
    pub seen: Option<String>,
    /// Why it was not seen, when its time ran out first: what was expected, and what this
    /// machine measured or may lack.
    #[serde(default)]
    pub missed: Option<String>,
    /// The stop's need of the machine was measured unmet: it was too slow for the claim.
    #[serde(default)]
    pub too_slow: bool,
    /// The frames it was judged too slow on.
    #[serde(default)]
    pub too_slow_on: Option<SlowFramesReport>,
    /// Why the stop's last try (its hint's keys) did not show in time, and the frames it
    /// judged this machine too slow on, where it did.
    #[serde(default)]
    pub tried_missed: Option<String>,
    #[serde(default)]
    pub tried_too_slow_on: Option<SlowFramesReport>,
    /// Where the stop asked which of two unnamed lanes was smoother or sooner: the answer.
    #[serde(default)]
    pub feel: Option<FeelReport>,
}

/// The frames a stop judged this machine too slow on: those shown from `first_s` to
/// `last_s` on the frame log's clock, of which `over` took longer than `within_ms` from the
/// picture before, the loop's own sleep not counted.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SlowFramesReport {
    pub first_s: f64,
    pub last_s: f64,
    pub within_ms: f64,
    pub frames: u32,
    pub over: u32,
}

impl From<FramesJudged> for SlowFramesReport {
    fn from(j: FramesJudged) -> Self {
        Self {
            first_s: j.first.as_secs_f64(),
            last_s: j.last.as_secs_f64(),
            within_ms: j.within.as_secs_f64() * 1e3,
            frames: j.frames,
            over: j.over,
        }
    }
}

/// A stop's "which is smoother?" in `--stats`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeelReport {
    /// The question, as the stop asked it.
    pub question: String,
    /// Whether the person answered (Enter before an answer leaves it unanswered).
    pub answered: bool,
    /// The lane chosen, `A` or `B`.
    pub chose: Option<String>,
    /// Whether the choice is the lane the figures favour; `None` where unanswered, or the
    /// figures did not tell the lanes apart.
    pub agreed_with_figures: Option<bool>,
    /// Each lane's name and figure.
    pub figures: Option<String>,
}
