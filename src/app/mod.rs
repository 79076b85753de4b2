//! The window: a winit `ApplicationHandler` that owns nothing but wiring.
//!
//! - `window_event` only records input (and follows resizes);
//! - `about_to_wait` is where frames start: it applies the recorded input, waits for the
//!   strategy's wake time (the OS timer for most of it, a spin for the last stretch), runs the
//!   planned updates and asks for a redraw;
//! - `RedrawRequested` draws the planned view and presents.
//!
//! The timing decisions are the planner's (the `looplab-timing` crate), the same code the lab
//! drives with a virtual clock.

pub mod controls;
pub mod faults;
pub mod key_script;
pub mod lanes_view;
pub mod overlay;
pub mod overlay_host;
pub mod record;
pub mod replay;
pub mod visibility;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use looplab_timing::{
    Clock, FramePlan, FrameWait, LoopSettings, Rate, Strategy, SystemClock, UpdateBudget, WaitMode,
    Wake,
};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};

use key_script::KeyScript;
use visibility::{Change, Visibility};
use winit::window::{Window, WindowId};

use crate::failure::Failure;
use crate::input::{self, Action, Direction};
use crate::lab::compare::{Compare, LaneSpec, Preset};
use crate::platform::files;
use crate::platform::process::CpuMeter;
use crate::render::lanes::LanesScratch;
use crate::render::scene::{self, ShapeInstance, Showing, ViewTransform};
use crate::render::{FrameOutcome, Graphics};
use crate::session::frame::{FrameRecord, RenderTimes};
use crate::session::input_delay::{self, InputDelay};
use crate::session::recording::Recording;
use crate::session::steering::SteerScript;
use crate::session::timeline::{FrameHistory, TIMELINE_SPAN};
use crate::session::trace::{self, Trace, TraceFrame, TraceHeader};
use crate::settings_text::describe_settings;
use crate::strategy_text;
use crate::world::accuracy::FrameAccuracy;
use crate::world::{WORLD_SIZE, WorldConfig};
use controls::{Controls, Effect, Knobs};
use faults::SurfaceFaults;
use lanes_view::compare_frame;
use overlay::{OverlayModel, SpeedWatch};
use overlay_host::OverlayHost;
use record::RunRecord;
use replay::ReplayCheck;

/// What a person sees when there is no display to open a window on.
pub const NO_DISPLAY_HELP: &str = "no display: neither DISPLAY nor WAYLAND_DISPLAY is set. \
     To run the window without a screen, use a virtual one: xvfb-run -s '-screen 0 1280x720x24' looplab \
     (Debian package xvfb). For results without any window, run: looplab lab";

/// A planned frame whose redraw has not come within this long is given up (a minimized or
/// unmapped window may never be asked to redraw).
const REDRAW_TIMEOUT: Duration = Duration::from_millis(250);

/// Real time the updates of one frame may take before the rest are dropped: a quarter of a
/// second, so even with no update limit (the spiral of death) the window answers input
/// several times a second.
const UPDATE_BUDGET: Duration = UpdateBudget::DEFAULT_LIMIT;

/// Weight of the newest frame in the smoothed error the overlay shows.
const ERROR_SMOOTHING: f32 = 0.05;

/// How the window starts.
#[derive(Clone, Debug)]
pub struct AppOptions {
    pub strategy: Strategy,
    pub settings: LoopSettings,
    pub world: WorldConfig,
    pub knobs: Knobs,
    /// Quit by itself after this much real time.
    pub exit_after: Option<Duration>,
    /// Write per-strategy results here on exit.
    pub stats_path: Option<PathBuf>,
    /// How a frame-cap wait ends (`looplab bench` compares the two).
    pub pacing: WaitMode,
    /// Write every frame's timings and every key's latency here on exit.
    pub frame_log: Option<PathBuf>,
    /// Draw bullets with the bare instanced renderer (the benchmark's yardstick).
    pub bare_renderer: bool,
    /// Report every n-th surface as outdated or lost (to test recovery).
    pub surface_faults: Option<u32>,
    /// Write the run's steering and end state here on exit (`--record`).
    pub record: Option<PathBuf>,
    /// Where to write the trace of every presented frame's timings.
    pub trace: Option<PathBuf>,
    /// Keys pressed by a script (tests on displays with no way to type).
    pub key_script: Option<KeyScript>,
    /// Keep simulating while the window is hidden (it never draws then).
    pub run_hidden: bool,
    /// Steer the ship by this recording and check the state at its end (`--replay`).
    pub replay: Option<Recording>,
    /// Compare mode's lanes given with `--lane` (its `custom` preset).
    pub lanes: Vec<LaneSpec>,
}

/// Opens the window and runs until it is closed.
pub fn run(options: AppOptions) -> Result<(), Failure> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return Err(Failure::runtime(NO_DISPLAY_HELP));
    }
    let event_loop = EventLoop::new().map_err(|e| {
        Failure::runtime(format!("cannot open the display ({e}). {NO_DISPLAY_HELP}"))
    })?;
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
        Box::new(event_loop.owned_display_handle()),
    ));
    let mut app = App::new(options, instance);
    event_loop
        .run_app(&mut app)
        .map_err(|e| Failure::runtime(format!("the event loop failed: {e}")))?;
    app.finish()
}

/// A key or click, as `window_event` records it.
#[derive(Clone, Copy, Debug)]
enum Input {
    Press(Action),
    /// A steering key let go.
    Release(Direction),
}

/// The window and what draws in it, once it exists.
struct WindowParts {
    gfx: Graphics,
    overlay: OverlayHost,
}

/// A frame planned and its updates run, waiting for its redraw.
#[derive(Clone, Copy)]
struct Pending {
    plan: FramePlan,
    record: FrameRecord,
}

/// Where the loop is between frames.
struct LoopState {
    pending: Option<Pending>,
    /// When the next frame may start.
    wake: Wake,
    /// Waits for the wake time: the event loop's timer, then a spin for the last stretch.
    wait: FrameWait,
    /// A stall asked for by key, to happen before the next frame.
    stall: Option<Duration>,
    /// When the last frame finished: the next frame's wait is counted from here.
    idle_since: Duration,
    /// Input events applied since the last frame started.
    inputs: u32,
}

/// What the drawing keeps between frames.
#[derive(Default)]
struct DrawState {
    /// Drawn-position error, smoothed for the overlay.
    accuracy: FrameAccuracy,
    shapes: Vec<ShapeInstance>,
    /// The last presented frame, for the overlay.
    last: FrameRecord,
    /// Recent frames, for the timeline strip (not added to while paused, so it freezes).
    history: FrameHistory,
    /// The ship's input-to-display delay.
    steer_delay: InputDelay,
    lanes: LanesScratch,
}

impl DrawState {
    fn smooth(&mut self, latest: FrameAccuracy) {
        let a = &mut self.accuracy;
        a.mean_error += (latest.mean_error - a.mean_error) * ERROR_SMOOTHING;
        a.max_error += (latest.max_error - a.max_error) * ERROR_SMOOTHING;
        a.judder += (latest.judder - a.judder) * ERROR_SMOOTHING;
    }
}

struct App {
    options: AppOptions,
    instance: Option<wgpu::Instance>,
    clock: SystemClock,
    controls: Controls,
    window: Option<WindowParts>,
    frame: LoopState,
    draw: DrawState,
    /// Input recorded by `window_event` with its arrival time, applied before the next frame.
    actions: Vec<(Input, Duration)>,
    shift: bool,
    /// Keys still to be pressed by `--key-script`.
    script: Option<KeyScript>,
    /// The window is a Wayland client (its compositor paces it).
    wayland: bool,
    /// Whether anyone can see the window.
    visibility: Visibility,
    /// Frames presented, real time and CPU time spent while the window was hidden.
    hidden: HiddenTotals,
    run: RunRecord,
    cpu: CpuMeter,
    speed: SpeedWatch,
    faults: Option<SurfaceFaults>,
    /// The recording being played back, and the state reached at its end.
    replay: Option<ReplayCheck>,
    /// Compare mode's lanes, while it is on.
    compare: Option<Compare>,
    failure: Option<Failure>,
    exiting: bool,
}

impl App {
    fn new(options: AppOptions, instance: wgpu::Instance) -> Self {
        let mut controls = Controls::new(
            options.strategy,
            options.settings.clone(),
            options.knobs.clone(),
            &options.world,
        );
        let replay = options.replay.as_ref().map(|recording| {
            let script = SteerScript::new(recording.changes.clone());
            controls.session_mut().play(script);
            ReplayCheck::new(recording)
        });
        Self {
            instance: Some(instance),
            clock: SystemClock::start(),
            controls,
            window: None,
            frame: LoopState {
                pending: None,
                wake: Wake::Immediately,
                wait: FrameWait::new(options.pacing),
                stall: None,
                idle_since: Duration::ZERO,
                inputs: 0,
            },
            draw: DrawState::default(),
            actions: Vec::new(),
            shift: false,
            script: options.key_script.clone(),
            wayland: false,
            visibility: Visibility::default(),
            hidden: HiddenTotals::default(),
            run: RunRecord::new(options.frame_log.is_some(), options.trace.is_some()),
            cpu: CpuMeter::default(),
            speed: SpeedWatch::default(),
            faults: options.surface_faults.map(SurfaceFaults::every),
            replay,
            compare: None,
            failure: None,
            exiting: false,
            options,
        }
    }

    fn exit(&mut self, event_loop: &ActiveEventLoop) {
        self.exiting = true;
        event_loop.exit();
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        if self.failure.is_none() {
            self.failure = Some(failure);
        }
        self.exit(event_loop);
    }

    fn title(&self) -> String {
        let s = self.controls.strategy();
        format!("Looplab: {} {}", input::strategy_key(s), s.id())
    }

    /// What the overlay says of the last time the window was hidden, for ten seconds after.
    fn hidden_note(&self, now: Duration) -> Option<String> {
        let (shown, after) = self.visibility.last_spell()?;
        if now.saturating_sub(shown) > Duration::from_secs(10) {
            return None;
        }
        let did = if self.options.run_hidden {
            "ran on"
        } else {
            "paused"
        };
        Some(format!(
            "was hidden {:.1} s: the game {did}",
            after.as_secs_f64()
        ))
    }

    /// The window was hidden or shown again.
    fn visibility_changed(&mut self, change: Option<Change>) {
        let now = self.clock.now();
        let cpu = crate::platform::process::cpu_time().unwrap_or_default();
        match change {
            Some(Change::Hidden) => {
                self.hidden.since = Some((now, cpu, self.run.presented));
                if self.options.run_hidden {
                    log::info!("window hidden: the game runs on without drawing (--run-hidden)");
                } else {
                    log::info!(
                        "window hidden: the game pauses and the loop rests until it is shown"
                    );
                }
            }
            Some(Change::Shown { after }) => {
                if let Some((since, cpu_then, presented_then)) = self.hidden.since.take() {
                    self.hidden.seconds += now.saturating_sub(since).as_secs_f64();
                    self.hidden.cpu_seconds += cpu.saturating_sub(cpu_then).as_secs_f64();
                    self.hidden.presented += self.run.presented.saturating_sub(presented_then);
                }
                // Whatever wake-up was asked before is stale.
                self.frame.wait.forget();
                self.hidden.spells += 1;
                if self.options.run_hidden {
                    log::info!("window shown after {:.1} s hidden", after.as_secs_f64());
                } else {
                    // The hidden time is neither simulated nor clamped: the game goes on
                    // from where it paused.
                    self.controls.session_mut().resync(now);
                    self.frame.wake = Wake::Immediately;
                    log::info!(
                        "window shown after {:.1} s hidden: the game goes on from where it paused",
                        after.as_secs_f64()
                    );
                }
            }
            None => {}
        }
    }

    /// A key went down or up at `arrival`: its action waits for the next frame.
    fn key(&mut self, code: KeyCode, shift: bool, down: bool, arrival: Duration) {
        if down {
            if let Some(action) = input::action_for(code, shift) {
                self.actions.push((Input::Press(action), arrival));
            }
        } else if let Some(direction) = input::steer_direction(code) {
            self.actions.push((Input::Release(direction), arrival));
        }
    }

    /// Applies the input recorded since the last frame.
    fn apply_actions(&mut self, event_loop: &ActiveEventLoop) {
        for (input, arrival) in std::mem::take(&mut self.actions) {
            let effect = match input {
                Input::Press(action) => {
                    self.run.key_applied(arrival);
                    match self.act_on_lanes(action) {
                        Some(line) => Effect::log(line),
                        None => self.controls.apply(action),
                    }
                }
                Input::Release(direction) => self.controls.release(direction),
            };
            let Effect {
                log,
                quit,
                vsync_changed,
                stall,
                strategy_changed,
                steered,
            } = effect;
            // Every press counts as input; a release only when it let go of a held key (a
            // lost focus lets go of all four, held or not).
            if matches!(input, Input::Press(_)) || steered {
                self.frame.inputs += 1;
            }
            if steered {
                self.draw.steer_delay.changed(arrival);
                // A replay steers by its recording; the arrows do nothing, in the lanes too.
                if let Some(c) = self.compare.as_mut().filter(|_| self.replay.is_none()) {
                    c.steer(self.controls.steer_held(), arrival);
                }
            }
            if let Some(line) = log {
                log::info!("{line}");
            }
            if vsync_changed && let Some(w) = &mut self.window {
                w.gfx.set_vsync(self.controls.knobs.vsync);
                log::info!("present mode: {:?}", w.gfx.present_mode());
            }
            if strategy_changed {
                self.draw.history.clear();
                if let Some(w) = &self.window {
                    w.gfx.window.set_title(&self.title());
                }
            }
            self.frame.stall = stall.or(self.frame.stall);
            if quit {
                self.exit(event_loop);
            }
        }
        self.sync_compare();
    }

    /// In compare mode: K selects the lanes, and the strategy and loop keys act on them.
    /// `None` for any other key, or outside compare mode: it acts on the window.
    fn act_on_lanes(&mut self, action: Action) -> Option<String> {
        let compare = self.compare.as_mut()?;
        let selected = self.controls.knobs.selected_lane;
        if action == Action::SelectLane {
            let next = lanes_view::next_selection(compare, selected);
            self.controls.knobs.selected_lane = next;
            return Some(match next {
                Some(i) => format!(
                    "compare: keys act on lane {} ({})",
                    i + 1,
                    compare.lanes[i].profile().name
                ),
                None => "compare: keys act on all lanes".to_string(),
            });
        }
        lanes_view::act_on_lanes(compare, selected, action)
    }

    /// Starts or ends compare mode, or changes its preset, as the knob says. The lanes start
    /// now, from the seed and bullet count in use, with the loop's current settings and
    /// the arrows held now.
    fn sync_compare(&mut self) {
        let wanted = self.controls.knobs.compare;
        if self.compare.as_ref().map(|c| c.preset) == wanted {
            return;
        }
        let now = self.clock.now();
        self.controls.knobs.selected_lane = None;
        self.compare = wanted.map(|preset| {
            let world = WorldConfig {
                seed: self.options.world.seed,
                bullets: self.controls.session().world().bullets.len(),
            };
            let settings = self.controls.settings().clone().with_paused(false);
            let lanes = match preset {
                Preset::Custom => self.options.lanes.clone(),
                p => p.lanes(),
            };
            let mut c = Compare::with_lanes(preset, lanes, &settings, &world, now);
            c.steer(self.controls.steer_held(), now);
            c
        });
    }

    /// Starts a frame: runs its updates and asks for its redraw.
    fn begin_frame(&mut self) {
        if let Some(stall) = self.frame.stall.take() {
            std::thread::sleep(stall);
        }
        let now = self.clock.now();
        let update_cost = self.controls.knobs.update_cost;
        let budget = UpdateBudget::new(now, UPDATE_BUDGET);
        let clock = self.clock;
        self.draw.steer_delay.frame_starts();
        let mut replay = self.replay.as_mut();
        let reached_before = replay.as_ref().is_some_and(|r| r.outcome().is_some());
        let plan = self
            .controls
            .session_mut()
            .frame_within(now, |world, step| {
                if let Some(r) = replay.as_mut() {
                    r.checkpoint.before_update(world, step);
                }
                crate::platform::clock::spin_for(update_cost);
                budget.check(clock.now())
            });
        if let Some(r) = self.replay.as_mut() {
            r.checkpoint.finish(self.controls.session().world());
            if let (false, Some(o)) = (reached_before, r.outcome()) {
                if o.same_state {
                    log::info!(
                        "replay: at {:.2} s of game time the state is the recorded one",
                        r.end_seconds()
                    );
                } else {
                    log::warn!(
                        "replay: at {:.2} s of game time the state differs from the recording; the ship is {:.1} px from where it was",
                        r.end_seconds(),
                        o.ship_offset_px
                    );
                }
            }
        }
        let updated = self.clock.now();
        if plan.skipped > Duration::ZERO && budget.spent(updated) {
            log::debug!("update budget spent: {} updates run", plan.updates);
        }
        let record = FrameRecord {
            waited: now.saturating_sub(self.frame.idle_since),
            update_time: updated - now,
            inputs: std::mem::take(&mut self.frame.inputs),
            ..self.controls.session().record(&plan)
        };
        match &self.window {
            Some(w) if w.gfx.size().0 > 0 && !self.visibility.is_hidden() => {
                self.frame.pending = Some(Pending { plan, record });
                w.gfx.window.request_redraw();
            }
            _ => {
                // Nothing to draw on (minimized): the loop keeps time without rendering.
                self.run.skipped += 1;
                self.finish_frame(&plan, &record, FrameAccuracy::default());
            }
        }
    }

    /// Draws the pending frame.
    fn draw(&mut self) {
        let Some(Pending { plan, mut record }) = self.frame.pending.take() else {
            return;
        };
        if self.visibility.is_hidden() {
            // Hidden since the redraw was asked for: nobody would see the frame.
            self.run.skipped += 1;
            self.finish_frame(&plan, &record, FrameAccuracy::default());
            return;
        }
        crate::platform::clock::spin_for(self.controls.knobs.render_cost);
        let accuracy = self.controls.session_mut().measure_accuracy(&plan);
        self.draw.smooth(accuracy);
        let hidden_note = self.hidden_note(self.clock.now());
        let Some(w) = &mut self.window else {
            return;
        };
        let outcome = match self.faults.as_mut().and_then(SurfaceFaults::next_frame) {
            Some(trouble) => w.gfx.recover(trouble),
            None => {
                let knobs = &self.controls.knobs;
                let size = w.gfx.size();
                let session = self.controls.session();
                let showing = Showing {
                    view: plan.view,
                    step: plan.step,
                    game_now: plan.game_now,
                    reference: session.reference(),
                    ghosts: knobs.ghosts,
                };
                let transform = ViewTransform::new(WORLD_SIZE, size.0, size.1);
                let now = self.clock.now();
                let (strip, sprites, lane_captions) = match &mut self.compare {
                    Some(compare) => {
                        compare.advance_to(now);
                        let (frame, captions) = compare_frame(
                            compare,
                            knobs.selected_lane,
                            now,
                            transform,
                            plan.step,
                            &mut self.draw.lanes,
                        );
                        (None, frame, captions)
                    }
                    None => {
                        let strip = knobs
                            .timeline
                            .then(|| self.draw.history.strip(TIMELINE_SPAN));
                        let frame = scene::sprite_frame(
                            session.world(),
                            &showing,
                            strip.as_ref(),
                            transform,
                            &mut self.draw.shapes,
                        );
                        (strip, frame, Vec::new())
                    }
                };
                let adapter = Arc::clone(&w.gfx.adapter);
                let model = OverlayModel {
                    controls: &self.controls,
                    plan: &plan,
                    last: &self.draw.last,
                    summary: session.stats().summary(),
                    accuracy: self.draw.accuracy,
                    present_mode: w.gfx.present_mode(),
                    compositor_paced: self.wayland,
                    hidden_note,
                    cpu_percent: self.cpu.percent(),
                    adapter: &adapter,
                    steer_delay: &self.draw.steer_delay,
                    strip: strip.as_ref(),
                    lane_captions: &lane_captions,
                    transform,
                };
                let overlay = w.overlay.run(Some(&w.gfx.window), size, &model);
                let clicked = overlay.actions.into_iter();
                self.actions.extend(clicked.map(|a| (Input::Press(a), now)));
                let (outcome, render) = w.gfx.render(&sprites, Some(overlay.paint));
                record.render = RenderTimes {
                    overlay: overlay.took,
                    ..render
                };
                outcome
            }
        };
        match outcome {
            FrameOutcome::Presented => {
                record.presented = Some(self.clock.now());
                record.cpu = crate::platform::process::cpu_time().unwrap_or_default();
                self.run.presented(&record);
                self.draw.last = record;
            }
            FrameOutcome::Skipped(why) => {
                self.run.skipped += 1;
                log::debug!("frame skipped: {why}");
            }
        }
        self.finish_frame(&plan, &record, accuracy);
    }

    fn finish_frame(&mut self, plan: &FramePlan, record: &FrameRecord, accuracy: FrameAccuracy) {
        self.run
            .totals
            .frame(record, self.controls.strategy(), accuracy);
        if let Some(delay) = self.draw.steer_delay.frame_done(record) {
            self.run.steer_delays.push(delay);
        }
        if !self.controls.settings().paused {
            self.draw.history.push(*record);
        }
        if let Some(trace) = &mut self.run.trace
            && record.presented.is_some()
        {
            trace.push(TraceFrame::of(record));
        }
        self.cpu.sample();
        self.frame.wake = plan.wake;
        self.frame.idle_since = self.clock.now();
        self.speed.check(&self.controls);
    }

    /// Writes `--stats` and the frame log, and reports how the run ended. A failure of the
    /// run itself is reported before one of writing its files.
    fn finish(mut self) -> Result<(), Failure> {
        let written = self.write_outputs();
        match self.failure.take() {
            Some(f) => Err(f),
            None => written,
        }
    }

    fn write_outputs(&mut self) -> Result<(), Failure> {
        self.run.totals.close(self.clock.now());
        if let Some(path) = &self.options.stats_path {
            let gfx = self.window.as_ref().map(|w| &w.gfx);
            let report = serde_json::json!({
                "seconds": self.clock.now().as_secs_f64(),
                "platform": if self.wayland { "wayland" } else { "x11" },
                "hidden": {
                    "spells": self.hidden.spells,
                    "seconds": self.hidden.seconds,
                    "cpu_percent": (self.hidden.seconds > 0.0)
                        .then(|| self.hidden.cpu_seconds / self.hidden.seconds * 100.0),
                    "frames_presented": self.hidden.presented,
                    "run_hidden": self.options.run_hidden,
                },
                "strategies": self.run.totals.totals(),
                "final_strategy": self.controls.strategy().id(),
                "frames_presented": self.run.presented,
                "frames_skipped": self.run.skipped,
                "gpu_errors": gfx.map_or(0, |g| g.gpu.error_count()),
                "adapter": gfx.map(|g| g.gpu.adapter_summary()),
                "present_mode": gfx.map(|g| format!("{:?}", g.present_mode())),
                "bullets": self.controls.session().world().bullets.len(),
                "peak_rss_kib": crate::platform::process::peak_rss_kib(),
                "surface_size": gfx.map(|g| g.size()),
                "speed_warning": self.speed.warning(),
                "frame_wait": {
                    "mode": self.frame.wait.mode().id(),
                    "early_ms": self.frame.wait.early().as_secs_f64() * 1e3,
                    "wake_readings": self.frame.wait.wake_margin().readings(),
                },
                "ship": self.ship_report(),
                "compare": self.compare.as_ref().map(|c| self.compare_report(c)),
                "replay": self.replay.as_ref().map(|r| serde_json::json!({
                    "end_game_seconds": r.end_seconds(),
                    "reached": r.outcome().is_some(),
                    "same_state": r.outcome().map(|o| o.same_state),
                    "ship_offset_px": r.outcome().map(|o| o.ship_offset_px),
                })),
            });
            let text = files::to_json("stats", &report, true)?;
            files::write_file("--stats", path, text.as_bytes())?;
        }
        if let Some(path) = &self.options.frame_log {
            self.run.write_frame_log(path)?;
        }
        if let (Some(path), Some(frames)) = (&self.options.trace, self.run.trace.take()) {
            let trace = Trace {
                header: TraceHeader {
                    looplab_trace: trace::VERSION,
                    strategy: self.controls.strategy(),
                    update_hz: self.controls.settings().update_rate.as_hz(),
                    frame_cap_hz: self.controls.settings().frame_cap.map(Rate::as_hz),
                    refresh_hz: self.controls.display().as_hz(),
                    vsync: self.controls.knobs.vsync,
                    bullets: self.options.world.bullets,
                },
                frames,
            };
            files::write_file("--trace", path, trace.to_text().as_bytes())?;
        }
        if let Some(path) = &self.options.record {
            let o = &self.options;
            let recording =
                replay::recording_of(o.strategy, &o.settings, &o.world, self.controls.session());
            files::write_file("--record", path, recording.to_text().as_bytes())?;
        }
        Ok(())
    }
}

impl App {
    /// Compare mode's part of `--stats`: each lane's figures and agreement at exit.
    fn compare_report(&self, c: &Compare) -> serde_json::Value {
        let now = self.clock.now();
        let lanes: Vec<serde_json::Value> = (0..c.lanes.len())
            .map(|i| {
                let s = c.status(i, now);
                serde_json::json!({
                    "lane": s.title,
                    "fps": s.fps,
                    "ups": s.ups,
                    "game_real_ratio": s.ratio,
                    "last_hash": s.hash.as_ref().map(|(_, h)| h),
                    "checkpoints": c.lanes[i].hashes().len(),
                    "agreement": s.agreement_text(),
                })
            })
            .collect();
        serde_json::json!({ "preset": c.preset.id(), "lanes": lanes })
    }

    /// The ship's part of `--stats`: where it is, how far it flew, and its measured
    /// input-to-display delays.
    fn ship_report(&self) -> serde_json::Value {
        let ship = &self.controls.session().world().ship;
        let delays = &self.run.steer_delays;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        serde_json::json!({
            "position": [ship.pos.x, ship.pos.y],
            "travelled_px": ship.travelled,
            "input_delays": delays.len(),
            "input_delay_median_ms": input_delay::median(delays).map(ms),
            "input_delay_max_ms": delays.iter().max().copied().map(ms),
        })
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let Some(instance) = self.instance.take() else {
            return;
        };
        self.wayland = is_wayland(event_loop);
        if self.wayland {
            log::info!(
                "platform: Wayland; the compositor paces the window (a frame is drawn when the \
                 last one's frame callback comes), so vsync off and an uncapped loop cannot \
                 outrun it; a frame cap below its rate still applies"
            );
        }
        let attributes = Window::default_attributes()
            .with_title(self.title())
            // The scene is dark; saying so also spares a Wayland window's decorations from
            // asking the desktop portal for its colour scheme (without a portal that logs an
            // error after a 100 ms wait).
            .with_theme(Some(winit::window::Theme::Dark))
            .with_inner_size(winit::dpi::PhysicalSize::new(
                WORLD_SIZE.x as u32,
                WORLD_SIZE.y as u32,
            ));
        let window = match event_loop.create_window(attributes) {
            Ok(w) => Arc::new(w),
            Err(e) => {
                return self.fail(
                    event_loop,
                    Failure::runtime(format!("cannot create a window: {e}")),
                );
            }
        };
        match Graphics::new(
            window,
            instance,
            self.controls.knobs.vsync,
            self.options.bare_renderer,
        ) {
            Ok(gfx) => {
                let strategy = self.controls.strategy();
                log::info!(
                    "strategy: {} ({}), {}, {}",
                    strategy.id(),
                    strategy_text::text(strategy).name,
                    describe_settings(self.controls.settings()),
                    self.options.world
                );
                let refresh = gfx
                    .window
                    .current_monitor()
                    .and_then(|m| m.refresh_rate_millihertz())
                    .and_then(|mhz| Rate::hz(f64::from(mhz) / 1000.0).ok());
                match refresh {
                    Some(r) => {
                        log::info!("display: {r}");
                        self.controls.set_display(r);
                    }
                    None => log::info!(
                        "display: refresh rate unknown; snapped deltas assume {}",
                        self.controls.display()
                    ),
                }
                let overlay = OverlayHost::for_window(&gfx.window, gfx.max_texture_side());
                self.window = Some(WindowParts { gfx, overlay });
                self.frame.wake = Wake::Immediately;
            }
            Err(message) => self.fail(event_loop, Failure::runtime(message)),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if let Some(w) = &mut self.window
            && !matches!(event, WindowEvent::RedrawRequested)
            && w.overlay.on_window_event(&w.gfx.window, &event)
            && !matches!(event, WindowEvent::KeyboardInput { .. })
        {
            return;
        }
        match event {
            WindowEvent::CloseRequested => {
                log::info!("window closed");
                self.exit(event_loop);
            }
            WindowEvent::Resized(size) => {
                if let Some(w) = &mut self.window {
                    w.gfx.resize(size.width, size.height);
                }
                let change = self
                    .visibility
                    .resized(size.width, size.height, self.clock.now());
                self.visibility_changed(change);
            }
            WindowEvent::Occluded(occluded) => {
                let change = self.visibility.occluded(occluded, self.clock.now());
                self.visibility_changed(change);
            }
            WindowEvent::ModifiersChanged(m) => self.shift = m.state().shift_key(),
            WindowEvent::KeyboardInput { event, .. } => {
                let PhysicalKey::Code(code) = event.physical_key else {
                    return;
                };
                let now = self.clock.now();
                match event.state {
                    ElementState::Pressed if !event.repeat => self.key(code, self.shift, true, now),
                    ElementState::Released => self.key(code, self.shift, false, now),
                    _ => {}
                }
            }
            WindowEvent::Focused(false) => {
                // Keys let go while the window is not focused never arrive: let go of all.
                let now = self.clock.now();
                for direction in input::DIRECTIONS {
                    self.actions.push((Input::Release(direction), now));
                }
            }
            WindowEvent::RedrawRequested => self.draw(),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.exiting || self.window.is_none() {
            return;
        }
        let now = self.clock.now();
        if let Some(script) = &mut self.script {
            let due = script.due(now).to_vec();
            for k in due {
                self.key(k.code, k.shift, k.down, k.at);
            }
        }
        if let Some(limit) = self.options.exit_after
            && now >= limit
        {
            log::info!("exit after {} s", limit.as_secs_f64());
            self.exit(event_loop);
            return;
        }
        if self.visibility.is_hidden() && !self.options.run_hidden {
            // Nobody can see it: no frames, no spinning, until an event shows it again, a
            // scripted key is due or it is time to quit. Keys still act (Escape quits).
            self.apply_actions(event_loop);
            if self.exiting {
                return;
            }
            let next_key = self.script.as_ref().and_then(KeyScript::next_due);
            let wake = [self.options.exit_after, next_key]
                .into_iter()
                .flatten()
                .min();
            event_loop.set_control_flow(match wake {
                Some(t) => ControlFlow::WaitUntil(self.clock.instant_at(t)),
                None => ControlFlow::Wait,
            });
            return;
        }
        if let Some(Pending { plan, record }) = self.frame.pending {
            if now.saturating_sub(plan.now) < REDRAW_TIMEOUT {
                event_loop.set_control_flow(ControlFlow::Wait);
                return;
            }
            // The redraw never came (an unmapped window): close the frame and go on.
            self.frame.pending = None;
            self.run.skipped += 1;
            self.finish_frame(&plan, &record, FrameAccuracy::default());
        }
        if let Wake::At(t) = self.frame.wake {
            let deadline = self.clock.instant_at(t);
            if let Some(wait_until) = self.frame.wait.os_wake(deadline, Instant::now()) {
                event_loop.set_control_flow(ControlFlow::WaitUntil(wait_until));
                return;
            }
            // The last stretch is spun through the event loop, not in here, so a key that
            // arrives meanwhile is delivered and reaches this frame.
            if Instant::now() < deadline {
                event_loop.set_control_flow(ControlFlow::Poll);
                return;
            }
        }
        // Wait, then collect input, then update: input that arrived during the wait belongs
        // to this frame.
        self.apply_actions(event_loop);
        if self.exiting {
            return;
        }
        self.begin_frame();
        // Uncapped loops spin (Poll); paced ones wait for their redraw, then for their wake
        // time (WaitUntil, set when the next `about_to_wait` sees how far off it is).
        if self.visibility.is_hidden() {
            // Running on hidden (`--run-hidden`): updates without drawing, at most a frame
            // every 10 ms rather than a spin.
            let next = Instant::now() + HIDDEN_FRAME_INTERVAL;
            event_loop.set_control_flow(ControlFlow::WaitUntil(next));
            return;
        }
        let spin = self
            .frame
            .pending
            .is_some_and(|p| p.plan.wake == Wake::Immediately);
        event_loop.set_control_flow(if spin {
            ControlFlow::Poll
        } else {
            ControlFlow::Wait
        });
    }
}

/// How often a hidden window that runs on (`--run-hidden`) runs a frame at most.
const HIDDEN_FRAME_INTERVAL: Duration = Duration::from_millis(10);

/// What happened while the window was hidden, for `--stats`.
#[derive(Clone, Debug, Default)]
struct HiddenTotals {
    /// When the current spell began, on the loop's clock, and the CPU time and frames
    /// presented then.
    since: Option<(Duration, Duration, u64)>,
    spells: u32,
    seconds: f64,
    cpu_seconds: f64,
    presented: u64,
}

/// Whether the event loop talks to a Wayland compositor (its display handle says so, on any
/// platform).
fn is_wayland(event_loop: &ActiveEventLoop) -> bool {
    use winit::raw_window_handle::{HasDisplayHandle, RawDisplayHandle};
    event_loop
        .display_handle()
        .is_ok_and(|h| matches!(h.as_raw(), RawDisplayHandle::Wayland(_)))
}
