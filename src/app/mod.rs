//! The window: a driver that owns the window, its surface and the loop, and a demo that
//! knows none of them.
//!
//! - [`driver`]: the winit `ApplicationHandler`, the loop's phases, the pacer and the
//!   surface; a frame's path for both targets, and a `Target` for what a native window and
//!   a browser page do apart, picked by the only `cfg(target_arch)` lines of the window (in
//!   the driver's `mod.rs`).
//! - [`demo`]: the controls and the session they steer, compare mode's lanes, the guided
//!   tour, the readouts and what the run keeps for its files; a frame's input, updates,
//!   picture and present, through a few calls that tests make without a window.
//! - the demo's parts: [`keys`] (the key table, each action in its owner's group),
//!   [`controls`] (what a key does to the loop, the knobs and the ship), [`input_queue`]
//!   (keys as they came, until the frame applies them), [`lanes_keys`] (compare mode's
//!   keys), [`lanes_view`] (its pictures), [`run_log`], [`replay`], [`speed`] (whether the
//!   game keeps to real time), [`stats`] (`--stats`), [`lessons`] (the tour's stops as the
//!   book's embedded views show them);
//! - the picture: [`compose`] (the sprites and the overlay's words of one frame),
//!   [`overlay`] and [`overlay_host`] (egui's words and panels), [`display_rate`] and
//!   [`visibility`] (what the driver learns of the display and the window).

pub mod capture_load;
pub mod compose;
pub mod controls;
pub mod demo;
pub mod display_rate;
pub mod driver;
pub mod input_queue;
pub mod keys;
pub mod lanes_keys;
pub mod lanes_view;
pub mod lessons;
pub mod live_figures;
pub mod overlay;
pub mod overlay_host;
pub mod pacing;
pub mod replay;
pub mod run_log;
pub mod speed;
pub mod stats;
pub mod visibility;

use std::path::PathBuf;
use std::time::Duration;

use looplab_timing::{LoopSettings, Rate, Strategy};

pub use driver::run;

use crate::hooks::Hooks;
use crate::hooks::key_script::ScriptedKey;
use crate::lab::compare::LaneSpec;
use crate::platform::signals::Signal;
use crate::session::recording::Recording;
use crate::world::WorldConfig;
use controls::Knobs;

/// What a person sees when there is no display to open a window on.
pub const NO_DISPLAY_HELP: &str = "no display: neither DISPLAY nor WAYLAND_DISPLAY is set. \
     To run the window without a screen, use a virtual one: xvfb-run -s '-screen 0 1280x720x24' looplab \
     (Debian package xvfb). For results without any window, run: looplab lab";

/// The files a run was asked to write when it ends.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outputs {
    /// Per-strategy results and the run's figures (`--stats`).
    pub stats: Option<PathBuf>,
    /// Every frame's timings and every key's latency (`--frame-log`).
    pub frame_log: Option<PathBuf>,
    /// The run's steering and end state (`--record`).
    pub record: Option<PathBuf>,
    /// Every presented frame's timings (`--trace`).
    pub trace: Option<PathBuf>,
}

impl Outputs {
    /// Each file asked for, with the option that named it.
    pub fn each(&self) -> impl Iterator<Item = (&'static str, &PathBuf)> {
        [
            ("--stats", &self.stats),
            ("--frame-log", &self.frame_log),
            ("--record", &self.record),
            ("--trace", &self.trace),
        ]
        .into_iter()
        .filter_map(|(option, path)| Some((option, path.as_ref()?)))
    }
}

/// How the window starts.
#[derive(Clone, Debug)]
pub struct AppOptions {
    pub strategy: Strategy,
    pub settings: LoopSettings,
    pub world: WorldConfig,
    pub knobs: Knobs,
    /// The display's refresh rate as given (`--refresh`), in place of what the windowing system or
    /// the frames say.
    pub refresh: Option<Rate>,
    /// The window's inner size in physical pixels (`--size`), where not the world's.
    pub size: Option<(u32, u32)>,
    /// Quit by itself after this much real time.
    pub exit_after: Option<Duration>,
    pub outputs: Outputs,
    /// Keep simulating while the window is hidden (it never draws then).
    pub run_hidden: bool,
    /// Steer the ship by this recording and check the state at its end (`--replay`).
    pub replay: Option<Recording>,
    /// Compare mode's lanes given with `--lane` (its `custom` preset).
    pub lanes: Vec<LaneSpec>,
    /// Start with the guided tour's first stop (`--tour`).
    pub tour: bool,
    /// One of the book's embedded views (a page's `embed=`): it opens on this stop of a
    /// page's tour (from 0), framed on the stop's region alone, and leaves the stop's words,
    /// keys and figures to the book around it.
    pub embedded: Option<usize>,
    /// The tests' and the bench's hidden options.
    pub hooks: Hooks,
}

/// Events sent to the event loop from elsewhere.
#[derive(Clone, Copy, Debug)]
pub enum AppEvent {
    /// A key of `--key-script` fell due.
    ScriptedKey(ScriptedKey),
    /// In a page: the GPU asked for when the window opened, or after one was lost, has
    /// answered.
    GpuReady,
    /// In a page: the browser took the canvas's WebGL context (`webglcontextlost`), or gave
    /// it back (`webglcontextrestored`).
    GpuContextLost,
    GpuContextRestored,
    /// SIGINT, SIGTERM or SIGHUP came: end the run as Esc does.
    Signal(Signal),
}
