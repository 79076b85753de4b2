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
pub mod overlay;
pub mod pacing;
pub mod record;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use looplab_timing::{
    Clock, FramePlan, FrameWait, LoopSettings, Strategy, SystemClock, UpdateBudget, WaitMode, Wake,
};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowId};

use crate::failure::Failure;
use crate::input::{self, Action};
use crate::render::scene::{self, ShapeInstance, ViewTransform};
use crate::render::sprites::SpriteFrame;
use crate::render::{FrameOutcome, Graphics};
use crate::settings_text::describe_settings;
use crate::strategy_text;
use crate::world::accuracy::FrameAccuracy;
use crate::world::{WORLD_SIZE, WorldConfig};
use controls::{Controls, Effect, Knobs};
use overlay::{OverlayModel, speed_warning};
use pacing::CpuMeter;
use record::{FrameLog, Recorder};

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

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

/// How often the speed warning is checked (and logged when it changes).
const WARNING_INTERVAL: Duration = Duration::from_millis(500);

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

struct App {
    options: AppOptions,
    instance: Option<wgpu::Instance>,
    clock: SystemClock,
    controls: Controls,
    gfx: Option<Graphics>,
    /// The frame planned (and its updates run), waiting for its redraw, and when it started.
    pending: Option<FramePlan>,
    /// When the next frame may start.
    wake: Wake,
    /// Waits for the wake time: the event loop's timer, then a spin for the last stretch.
    wait: FrameWait,
    /// Input recorded by `window_event` with its arrival time, applied before the next frame.
    actions: Vec<(Action, Duration)>,
    /// Arrival times of applied input not yet shown by a presented frame.
    unshown_input: Vec<Duration>,
    frame_log: Option<FrameLog>,
    shift: bool,
    stall: Option<Duration>,
    recorder: Recorder,
    accuracy: FrameAccuracy,
    /// Game time the wall-clock marker shows: where the game would be had it kept to real
    /// time (times the time scale) since the strategy was chosen.
    reference: Duration,
    shapes: Vec<ShapeInstance>,
    cpu: CpuMeter,
    /// The overlay's speed warning as last logged, and when it was last checked.
    warning: Option<String>,
    warning_checked: Instant,
    presented: u64,
    skipped: u64,
    failure: Option<Failure>,
    exiting: bool,
}

impl App {
    fn new(options: AppOptions, instance: wgpu::Instance) -> Self {
        let controls = Controls::new(
            options.strategy,
            options.settings.clone(),
            options.knobs.clone(),
            &options.world,
        );
        Self {
            instance: Some(instance),
            clock: SystemClock::start(),
            controls,
            gfx: None,
            pending: None,
            wake: Wake::Immediately,
            wait: FrameWait::new(options.pacing),
            actions: Vec::new(),
            unshown_input: Vec::new(),
            frame_log: options.frame_log.is_some().then(FrameLog::new),
            shift: false,
            stall: None,
            recorder: Recorder::default(),
            accuracy: FrameAccuracy::default(),
            reference: Duration::ZERO,
            shapes: Vec::new(),
            cpu: CpuMeter::default(),
            warning: None,
            warning_checked: Instant::now(),
            presented: 0,
            skipped: 0,
            failure: None,
            exiting: false,
            options,
        }
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        if self.failure.is_none() {
            self.failure = Some(failure);
        }
        self.exiting = true;
        event_loop.exit();
    }

    fn title(&self) -> String {
        let s = self.controls.strategy();
        format!("Looplab: {} {}", input::strategy_key(s), s.id())
    }

    /// Applies the input recorded since the last frame.
    fn apply_actions(&mut self, event_loop: &ActiveEventLoop) {
        for (action, arrival) in std::mem::take(&mut self.actions) {
            if self.frame_log.is_some() {
                self.unshown_input.push(arrival);
            }
            let Effect {
                log,
                quit,
                vsync_changed,
                stall,
                strategy_changed,
            } = self.controls.apply(action);
            if let Some(line) = log {
                log::info!("{line}");
            }
            if vsync_changed && let Some(gfx) = &mut self.gfx {
                gfx.set_vsync(self.controls.knobs.vsync);
                log::info!("present mode: {:?}", gfx.present_mode());
            }
            if strategy_changed {
                self.reference = self.controls.session.planner.game_now();
                if let Some(gfx) = &self.gfx {
                    gfx.window.set_title(&self.title());
                }
            }
            self.stall = stall.or(self.stall);
            if quit {
                self.exiting = true;
                event_loop.exit();
            }
        }
    }

    /// Starts a frame: runs its updates and asks for its redraw.
    fn begin_frame(&mut self) {
        if let Some(stall) = self.stall.take() {
            std::thread::sleep(stall);
        }
        let now = self.clock.now();
        let update_cost = self.controls.knobs.update_cost;
        let budget = UpdateBudget::new(now, UPDATE_BUDGET);
        let clock = self.clock;
        let plan = self.controls.session.frame_within(now, |_, _| {
            pacing::busy_for(update_cost);
            budget.check(clock.now())
        });
        if plan.skipped > Duration::ZERO && budget.spent(self.clock.now()) {
            log::debug!("update budget spent: {} updates run", plan.updates);
        }
        let s = self.controls.settings();
        if !s.paused {
            let advance = plan.elapsed.as_secs_f64() * s.time_scale.factor();
            self.reference += Duration::from_secs_f64(advance);
        }
        match &self.gfx {
            Some(gfx) if gfx.size().0 > 0 => {
                self.pending = Some(plan);
                gfx.window.request_redraw();
            }
            _ => {
                // Nothing to draw on (minimized): the loop keeps time without rendering.
                self.finish_frame(&plan, FrameAccuracy::default());
                self.skipped += 1;
            }
        }
    }

    /// Draws the pending frame.
    fn draw(&mut self) {
        let Some(plan) = self.pending.take() else {
            return;
        };
        pacing::busy_for(self.controls.knobs.render_cost);
        let accuracy = self.controls.session.measure_accuracy(&plan);
        let a = &mut self.accuracy;
        a.mean_error += (accuracy.mean_error - a.mean_error) * ERROR_SMOOTHING;
        a.max_error += (accuracy.max_error - a.max_error) * ERROR_SMOOTHING;
        a.judder += (accuracy.judder - a.judder) * ERROR_SMOOTHING;
        let Some(gfx) = &mut self.gfx else {
            return;
        };
        let world = &self.controls.session.world;
        let knobs = &self.controls.knobs;
        let (w, h) = gfx.size();
        let transform = ViewTransform::new(WORLD_SIZE, w, h);
        scene::build_shapes(
            world,
            plan.game_now,
            self.reference,
            knobs.ghosts,
            &mut self.shapes,
        );
        let sprite_frame = SpriteFrame {
            prev: &world.bullets.prev,
            pos: &world.bullets.pos,
            vel: &world.bullets.vel,
            globals: scene::globals(&transform, plan.view, plan.step),
            ghosts: knobs
                .ghosts
                .then(|| scene::ghost_globals(&transform, world, plan.game_now)),
            shapes: &self.shapes,
        };
        let adapter = Arc::clone(&gfx.adapter);
        let present_mode = gfx.present_mode();
        let model = knobs.overlay.then(|| OverlayModel {
            controls: &self.controls,
            plan: &plan,
            summary: self.controls.session.stats.summary(),
            accuracy: self.accuracy,
            present_mode,
            cpu_percent: self.cpu.percent(),
            adapter: &adapter,
        });
        let mut clicked = Vec::new();
        let mut layout = |ctx: &egui::Context| {
            let Some(model) = &model else {
                return Vec::new();
            };
            let (actions, panels) = overlay::ui(ctx, model);
            clicked.extend(actions);
            panels
        };
        let ui: Option<crate::render::OverlayUi> = model
            .is_some()
            .then_some(&mut layout as crate::render::OverlayUi);
        let (outcome, timings) = gfx.render(&sprite_frame, ui);
        match outcome {
            FrameOutcome::Presented => {
                self.presented += 1;
                if let Some(log) = &mut self.frame_log {
                    let presented = self.clock.now();
                    let render = nanos(presented.saturating_sub(plan.now));
                    for arrival in self.unshown_input.drain(..) {
                        log.input_latency_ns
                            .push([nanos(presented.saturating_sub(arrival)), render]);
                    }
                    let cpu =
                        cpu_time::ProcessTime::try_now().map_or(0, |t| nanos(t.as_duration()));
                    log.frame([
                        nanos(plan.now),
                        plan.updates as u64,
                        nanos(timings.acquire),
                        nanos(timings.paint.overlay),
                        nanos(timings.paint.upload),
                        nanos(timings.paint.encode),
                        nanos(timings.present),
                        nanos(presented),
                        cpu,
                        nanos(plan.game_now),
                    ]);
                }
            }
            FrameOutcome::Skipped(why) => {
                self.skipped += 1;
                log::debug!("frame skipped: {why}");
            }
        }
        let now = self.clock.now();
        self.actions.extend(clicked.into_iter().map(|a| (a, now)));
        self.finish_frame(&plan, accuracy);
    }

    fn finish_frame(&mut self, plan: &FramePlan, accuracy: FrameAccuracy) {
        self.recorder.frame(
            plan.now,
            self.controls.strategy(),
            plan.updates,
            plan.game_advance(),
            accuracy,
        );
        self.cpu.sample();
        self.wake = plan.wake;
        if self.warning_checked.elapsed() >= WARNING_INTERVAL {
            self.warning_checked = Instant::now();
            let summary = self.controls.session.stats.summary();
            let warning = speed_warning(&summary, &self.controls);
            if warning != self.warning {
                match &warning {
                    Some(w) => log::info!("{w}"),
                    None => log::info!("game speed back to the expected rate"),
                }
                self.warning = warning;
            }
        }
    }

    /// Writes `--stats` and reports how the run ended.
    fn finish(mut self) -> Result<(), Failure> {
        self.recorder.close(self.clock.now());
        if let Some(path) = &self.options.stats_path {
            let report = serde_json::json!({
                "seconds": self.clock.now().as_secs_f64(),
                "strategies": self.recorder.totals(),
                "final_strategy": self.controls.strategy().id(),
                "frames_presented": self.presented,
                "frames_skipped": self.skipped,
                "gpu_errors": self.gfx.as_ref().map_or(0, |g| g.gpu.error_count()),
                "adapter": self.gfx.as_ref().map(|g| g.gpu.adapter_summary()),
                "present_mode": self.gfx.as_ref().map(|g| format!("{:?}", g.present_mode())),
                "bullets": self.controls.session.world.bullets.len(),
                "peak_rss_kib": record::peak_rss_kib(),
                "surface_size": self.gfx.as_ref().map(|g| g.size()),
                "speed_warning": self.warning,
            });
            let text = serde_json::to_string_pretty(&report).unwrap_or_default();
            if let Err(e) = std::fs::write(path, text) {
                let failure =
                    Failure::runtime(format!("cannot write --stats file {}: {e}", path.display()));
                return Err(self.failure.take().unwrap_or(failure));
            }
        }
        if let (Some(path), Some(log)) = (&self.options.frame_log, &mut self.frame_log) {
            log.peak_rss_kib = record::peak_rss_kib();
            let text = serde_json::to_string(log).unwrap_or_default();
            if let Err(e) = std::fs::write(path, text) {
                let failure = Failure::runtime(format!(
                    "cannot write --frame-log file {}: {e}",
                    path.display()
                ));
                return Err(self.failure.take().unwrap_or(failure));
            }
        }
        match self.failure.take() {
            Some(f) => Err(f),
            None => Ok(()),
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        let Some(instance) = self.instance.take() else {
            return;
        };
        let attributes = Window::default_attributes()
            .with_title(self.title())
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
            Ok(mut gfx) => {
                if let Some(n) = self.options.surface_faults {
                    gfx.inject_surface_faults(n);
                }
                let strategy = self.controls.strategy();
                log::info!(
                    "strategy: {} ({}), {}, {}",
                    strategy.id(),
                    strategy_text::text(strategy).name,
                    describe_settings(self.controls.settings()),
                    self.options.world
                );
                self.gfx = Some(gfx);
                self.wake = Wake::Immediately;
            }
            Err(message) => self.fail(event_loop, Failure::runtime(message)),
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if let Some(gfx) = &mut self.gfx
            && !matches!(event, WindowEvent::RedrawRequested)
            && gfx.overlay_event(&event)
            && !matches!(event, WindowEvent::KeyboardInput { .. })
        {
            return;
        }
        match event {
            WindowEvent::CloseRequested => {
                log::info!("window closed");
                self.exiting = true;
                event_loop.exit();
            }
            WindowEvent::Resized(size) => {
                if let Some(gfx) = &mut self.gfx {
                    gfx.resize(size.width, size.height);
                }
            }
            WindowEvent::ModifiersChanged(m) => self.shift = m.state().shift_key(),
            WindowEvent::KeyboardInput { event, .. } => {
                if event.state == ElementState::Pressed
                    && !event.repeat
                    && let PhysicalKey::Code(code) = event.physical_key
                    && let Some(action) = input::action_for(code, self.shift)
                {
                    self.actions.push((action, self.clock.now()));
                }
            }
            WindowEvent::RedrawRequested => self.draw(),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if self.exiting || self.gfx.is_none() {
            return;
        }
        self.apply_actions(event_loop);
        let now = self.clock.now();
        if let Some(limit) = self.options.exit_after
            && now >= limit
        {
            log::info!("exit after {} s", limit.as_secs_f64());
            self.exiting = true;
            event_loop.exit();
            return;
        }
        if let Some(plan) = self.pending {
            if now.saturating_sub(plan.now) < REDRAW_TIMEOUT {
                event_loop.set_control_flow(ControlFlow::Wait);
                return;
            }
            // The redraw never came (an unmapped window): close the frame and go on.
            self.pending = None;
            self.skipped += 1;
            self.finish_frame(&plan, FrameAccuracy::default());
        }
        if let Wake::At(t) = self.wake {
            let deadline = self.clock.instant_at(t);
            if let Some(wait_until) = self.wait.os_wake(deadline, Instant::now()) {
                event_loop.set_control_flow(ControlFlow::WaitUntil(wait_until));
                return;
            }
            self.wait.finish(deadline);
        }
        self.begin_frame();
        // Uncapped loops spin (Poll); paced ones wait for their redraw, then for their wake
        // time (WaitUntil, set when the next `about_to_wait` sees how far off it is).
        let spin = self.pending.is_some_and(|p| p.wake == Wake::Immediately);
        event_loop.set_control_flow(if spin {
            ControlFlow::Poll
        } else {
            ControlFlow::Wait
        });
    }
}
