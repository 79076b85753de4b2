//! The window: a winit `ApplicationHandler` that owns nothing but wiring.
//!
//! - `window_event` only records input (and follows resizes and visibility);
//! - `about_to_wait` is where frames start: it waits for the strategy's wake time (the OS
//!   timer for most of it, a spin for the last stretch), applies the recorded input, runs the
//!   planned updates and asks for a redraw;
//! - `RedrawRequested` composes the frame, paints and presents it.
//!
//! Where the loop is between those steps is one value, [`Phase`]. The timing decisions are
//! the planner's (the `looplab-timing` crate), the same code the lab drives with a virtual
//! clock; what a frame draws is the composer's ([`compose`]), the same code `looplab motion`
//! and the bench draw with.

pub mod capture_load;
pub mod compose;
pub mod controls;
pub mod display_rate;
mod frames;
pub mod input_queue;
pub mod lanes_view;
#[cfg(not(target_arch = "wasm32"))]
mod outputs;
pub mod overlay;
pub mod overlay_host;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod record;
pub mod replay;
pub mod stats;
pub mod touring;
pub mod visibility;

use std::path::PathBuf;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;
use std::time::Duration;

use looplab_timing::{FramePlan, LoopSettings, Rate, Strategy, Wake};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::ActiveEventLoop;
#[cfg(not(target_arch = "wasm32"))]
use winit::event_loop::ControlFlow;
#[cfg(not(target_arch = "wasm32"))]
use winit::event_loop::EventLoop;
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowId};

use crate::failure::Failure;
use crate::hooks::Hooks;
use crate::hooks::key_script::ScriptedKey;
#[cfg(not(target_arch = "wasm32"))]
use crate::hooks::surface_faults::SurfaceFaults;
use crate::input::{self, Action};
use crate::lab::compare::{Compare, LaneSpec, Preset};
use crate::platform::clock::WallClock;
#[cfg(not(target_arch = "wasm32"))]
use crate::platform::files;
use crate::platform::frame_wait::FramePacer;
#[cfg(not(target_arch = "wasm32"))]
use crate::platform::frame_wait::{HIDDEN_FRAME_INTERVAL, Pace};
use crate::platform::signals::Signal;
use crate::render::Graphics;
use crate::session::frame::FrameRecord;
use crate::session::recording::Recording;
use crate::session::steering::SteerScript;
use crate::text::settings::describe_settings;
use crate::text::strategy as strategy_text;
use crate::world::{WORLD_SIZE, WorldConfig};
use compose::{Composer, Readouts};
use controls::{Controls, Effect, Knobs};
use display_rate::DisplayRate;
use input_queue::{Input, InputQueue};
use overlay::PacedBy;
use record::RunRecord;
use replay::ReplayCheck;
use stats::RunEnd;
use visibility::{Change, Moment, Visibility};

/// What a person sees when there is no display to open a window on.
pub const NO_DISPLAY_HELP: &str = "no display: neither DISPLAY nor WAYLAND_DISPLAY is set. \
     To run the window without a screen, use a virtual one: xvfb-run -s '-screen 0 1280x720x24' looplab \
     (Debian package xvfb). For results without any window, run: looplab lab";

#[cfg(not(target_arch = "wasm32"))]
/// A planned frame whose redraw has not come within this long is given up (a minimized or
/// unmapped window may never be asked to redraw).
const REDRAW_TIMEOUT: Duration = Duration::from_millis(250);

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
    /// The tests' and the bench's hidden options.
    pub hooks: Hooks,
}

/// Events sent to the event loop from elsewhere.
#[derive(Clone, Copy, Debug)]
pub enum AppEvent {
    /// A key of `--key-script` fell due.
    ScriptedKey(ScriptedKey),
    /// In a page: the GPU asked for when the window opened has answered.
    GpuReady,
    /// SIGINT, SIGTERM or SIGHUP came: end the run as Esc does.
    Signal(Signal),
}

/// Opens the window and runs until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(options: AppOptions) -> Result<(), Failure> {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        return Err(Failure::runtime(NO_DISPLAY_HELP));
    }
    let event_loop = EventLoop::<AppEvent>::with_user_event()
        .build()
        .map_err(|e| {
            Failure::runtime(format!("cannot open the display ({e}). {NO_DISPLAY_HELP}"))
        })?;
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
        Box::new(event_loop.owned_display_handle()),
    ));
    let clock = WallClock::start();
    if let Some(script) = options.hooks.key_script.clone() {
        let proxy = event_loop.create_proxy();
        script
            .feed(clock, move |key| {
                proxy.send_event(AppEvent::ScriptedKey(key)).is_ok()
            })
            .map_err(Failure::runtime)?;
    }
    let proxy = event_loop.create_proxy();
    crate::platform::signals::watch(
        move |signal| {
            let _ = proxy.send_event(AppEvent::Signal(signal));
        },
        files::remove_unfinished,
    )?;
    let recording_stream = match &options.outputs.record {
        Some(path) => {
            let mut stream = files::Appender::create("--record", path)?;
            stream.append(&Recording::header_line(
                options.strategy,
                &options.settings,
                &options.world,
            ));
            Some(stream)
        }
        None => None,
    };
    let mut app = App::new(options, Some(instance), clock);
    app.recording_stream = recording_stream;
    event_loop
        .run_app(&mut app)
        .map_err(|e| Failure::runtime(format!("the event loop failed: {e}")))?;
    app.finish()
}

/// Opens the window on the page and returns: the browser runs the loop from here.
#[cfg(target_arch = "wasm32")]
pub fn run(options: AppOptions) -> Result<(), Failure> {
    page::spawn(options, false)
}

/// A frame planned and its updates run, waiting for its redraw.
#[derive(Clone, Copy, Debug)]
struct Pending {
    plan: FramePlan,
    record: FrameRecord,
}

/// Where the window's loop is.
// One value, held by the window: boxing the frame in flight would allocate every frame.
#[allow(clippy::large_enum_variant)]
enum Phase {
    /// No window yet: it is made when the event loop resumes, from this instance. In a page
    /// there is none (the instance is made once the browser has said whether its WebGPU
    /// works), and the loop stays here, its window open, until the GPU has answered.
    Starting(Option<wgpu::Instance>),
    /// Waiting for the next frame's wake time; the last frame finished at `since`.
    Idle { wake: Wake, since: Duration },
    /// A frame's updates have run and its redraw has been asked for.
    Drawing(Pending),
    /// Nobody can see the window: no frames, no spinning, until it is shown again.
    Resting,
    /// The event loop has been asked to end, for this reason.
    Quitting(RunEnd),
}

/// The window and what draws in it.
struct WindowParts {
    gfx: Graphics,
    composer: Composer,
    /// Who starts the frames: the loop, a Wayland compositor or a browser.
    paced_by: PacedBy,
}

struct App {
    options: AppOptions,
    clock: WallClock,
    controls: Controls,
    phase: Phase,
    window: Option<WindowParts>,
    /// Waits for frame deadlines without blocking the event loop.
    pacer: FramePacer,
    /// The display's refresh rate, for snapped deltas, and where it came from.
    display: DisplayRate,
    input: InputQueue,
    readouts: Readouts,
    visibility: Visibility,
    /// Compare mode's lanes, while it is on.
    compare: Option<Compare>,
    run: RunRecord,
    /// The recording being played back, and the state reached at its end.
    replay: Option<ReplayCheck>,
    /// The guided tour, once started.
    touring: Option<touring::Touring>,
    failure: Option<Failure>,
    /// `--record`'s file, written as the run goes, and the steering changes in it so far.
    #[cfg(not(target_arch = "wasm32"))]
    recording_stream: Option<files::Appender>,
    #[cfg(not(target_arch = "wasm32"))]
    streamed_changes: usize,
    /// In a page: the browser's frame callbacks and what the page shows of the run.
    #[cfg(target_arch = "wasm32")]
    page: page::PageLoop,
}

impl App {
    fn new(options: AppOptions, instance: Option<wgpu::Instance>, clock: WallClock) -> Self {
        let mut controls = Controls::new(
            options.strategy,
            options.settings.clone(),
            options.knobs.clone(),
            &options.world,
        );
        let replay = options.replay.as_ref().map(|recording| {
            controls
                .session_mut()
                .play(SteerScript::new(recording.changes.clone()));
            ReplayCheck::new(recording)
        });
        let outputs = &options.outputs;
        let mut input = InputQueue::default();
        if options.tour {
            // As if Enter were pressed before the first frame: the tour's first stop.
            input.clicked([Action::TourNext], Duration::ZERO);
        }
        Self {
            clock,
            controls,
            phase: Phase::Starting(instance),
            window: None,
            pacer: FramePacer::new(options.hooks.pacing),
            display: DisplayRate::new(),
            input,
            readouts: Readouts::default(),
            visibility: Visibility::default(),
            compare: None,
            run: RunRecord::new(outputs.frame_log.is_some(), outputs.trace.is_some()),
            replay,
            touring: None,
            failure: None,
            #[cfg(not(target_arch = "wasm32"))]
            recording_stream: None,
            #[cfg(not(target_arch = "wasm32"))]
            streamed_changes: 0,
            #[cfg(target_arch = "wasm32")]
            page: page::PageLoop::default(),
            options,
        }
    }

    /// Asks the event loop to end; the first reason given stands, but a failure wins.
    fn quit(&mut self, event_loop: &ActiveEventLoop, why: RunEnd) {
        if why == RunEnd::Failed || !matches!(self.phase, Phase::Quitting(_)) {
            self.phase = Phase::Quitting(why);
        }
        event_loop.exit();
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        self.failure.get_or_insert(failure);
        self.quit(event_loop, RunEnd::Failed);
    }

    fn title(&self) -> String {
        let s = self.controls.strategy();
        format!("Looplab: {} {}", input::strategy_key(s), s.id())
    }

    /// A moment of the run, for the hidden spells' totals.
    fn moment(&self) -> Moment {
        Moment {
            at: self.clock.now(),
            cpu: crate::platform::process::cpu_time().unwrap_or_default(),
            presented: self.run.presented,
        }
    }

    /// The window was hidden or shown again.
    fn visibility_changed(&mut self, change: Option<Change>) {
        let run_hidden = self.options.run_hidden;
        // A loop that is quitting (its window going away) stays so.
        if matches!(self.phase, Phase::Starting(_) | Phase::Quitting(_)) {
            return;
        }
        match change {
            Some(Change::Hidden) => {
                // Nobody would see the frame waiting for its redraw.
                if let Phase::Drawing(pending) = self.phase {
                    self.skip_frame(pending);
                }
                #[cfg(target_arch = "wasm32")]
                self.page_hidden();
                if run_hidden {
                    log::info!("window hidden: the game runs on without drawing (--run-hidden)");
                } else {
                    self.phase = Phase::Resting;
                    log::info!(
                        "window hidden: the game pauses and the loop rests until it is shown"
                    );
                }
            }
            Some(Change::Shown { after }) => {
                // Whatever wake-up was asked before is stale.
                self.pacer.forget();
                if run_hidden {
                    log::info!("window shown after {:.1} s hidden", after.as_secs_f64());
                } else {
                    // The hidden time is neither simulated nor clamped: the game goes on
                    // from where it paused.
                    let now = self.clock.now();
                    self.controls.session_mut().resync(now);
                    self.phase = Phase::Idle {
                        wake: Wake::Immediately,
                        since: now,
                    };
                    log::info!(
                        "window shown after {:.1} s hidden: the game goes on from where it paused",
                        after.as_secs_f64()
                    );
                }
            }
            None => {}
        }
    }

    /// Applies the input recorded since the last frame.
    fn apply_input(&mut self, event_loop: &ActiveEventLoop) {
        for (input, arrival) in self.input.take() {
            let effect = match input {
                Input::Press(action) => {
                    self.run.key_applied(arrival);
                    if let Some(effect) = self.tour_key(action, arrival) {
                        effect
                    } else {
                        match self.act_on_lanes(action) {
                            Some(line) => Effect::log(line),
                            None => self.controls.apply_at(action, arrival),
                        }
                    }
                }
                Input::Release(direction) => self.controls.release(direction, arrival),
            };
            // Every press counts as input; a release only when it let go of a held key (a
            // lost focus lets go of all four, held or not).
            if matches!(input, Input::Press(_)) || effect.steered {
                self.input.count_applied();
                self.run.inputs_applied += 1;
            }
            if effect.steered {
                self.follow_steering(input, arrival);
            }
            self.take_effect(event_loop, effect, arrival);
        }
        self.sync_compare();
    }

    /// An arrow pressed or let go at `arrival` changed the ship's controls: its press is
    /// followed to the screen (see [`InputDelay`](crate::session::input_delay::InputDelay)).
    fn follow_steering(&mut self, input: Input, arrival: Duration) {
        let session = self.controls.session();
        let delays = &mut self.readouts.steer_delay;
        match input {
            Input::Press(Action::Steer(direction)) => {
                let from = session.press_acts_from(arrival);
                delays.pressed(arrival, controls::button_of(direction), from);
            }
            Input::Release(direction) => delays.released(controls::button_of(direction)),
            Input::Press(_) => {}
        }
    }

    /// Does what an applied input asks of the window, besides its change of the knobs.
    fn take_effect(&mut self, event_loop: &ActiveEventLoop, effect: Effect, arrival: Duration) {
        if effect.steered {
            // A replay steers by its recording; the arrows do nothing, in the lanes too.
            if let Some(c) = self.compare.as_mut().filter(|_| self.replay.is_none()) {
                c.steer(self.controls.steer_held(), arrival);
            }
        }
        if let Some(line) = &effect.log {
            log::info!("{line}");
        }
        let title = effect.strategy_changed.then(|| self.title());
        if let Some(w) = &mut self.window {
            if effect.vsync_changed {
                w.gfx.set_vsync(self.controls.knobs.vsync);
                log::info!("present mode: {:?}", w.gfx.present_mode());
            }
            if let Some(title) = &title {
                w.gfx.window.set_title(title);
            }
        }
        if effect.strategy_changed {
            self.readouts.history.clear();
        }
        self.input.stall = effect.stall.or(self.input.stall);
        if effect.quit {
            if cfg!(target_arch = "wasm32") {
                log::info!("a page is closed with its tab: Esc and Q do nothing here");
            } else {
                self.quit(event_loop, RunEnd::QuitKey);
            }
        }
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

    #[cfg(not(target_arch = "wasm32"))]
    /// What the event loop does next (waking for `--exit-after` at the latest), and the
    /// frame started if it is time for one.
    fn next_step(&mut self, event_loop: &ActiveEventLoop) -> ControlFlow {
        let flow = self.next_flow(event_loop);
        let Some(exit) = self.options.exit_after.map(|t| self.clock.instant_at(t)) else {
            return flow;
        };
        match flow {
            ControlFlow::Wait => ControlFlow::WaitUntil(exit),
            ControlFlow::WaitUntil(t) => ControlFlow::WaitUntil(t.min(exit)),
            poll => poll,
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn next_flow(&mut self, event_loop: &ActiveEventLoop) -> ControlFlow {
        let now = self.clock.now();
        if let Phase::Drawing(pending) = self.phase
            && now.saturating_sub(pending.plan.now) >= REDRAW_TIMEOUT
        {
            // The redraw never came (an unmapped window, a compositor that stopped asking
            // for frames): close the frame and go on.
            self.skip_frame(pending);
        }
        match self.phase {
            Phase::Starting(_) | Phase::Quitting(_) => ControlFlow::Wait,
            // Wait for the redraw, but not past the time it is given up.
            Phase::Drawing(p) => {
                ControlFlow::WaitUntil(self.clock.instant_at(p.plan.now + REDRAW_TIMEOUT))
            }
            Phase::Resting => {
                // Keys still act (Escape quits); the loop wakes for the next event.
                self.apply_input(event_loop);
                ControlFlow::Wait
            }
            Phase::Idle { wake, since } => match self.pacer.pace(&self.clock, wake) {
                Pace::SleepUntil(t) => ControlFlow::WaitUntil(t),
                Pace::Spin => ControlFlow::Poll,
                Pace::Go => {
                    // Wait, then collect input, then update: input that arrived during the
                    // wait belongs to this frame.
                    self.apply_input(event_loop);
                    if matches!(self.phase, Phase::Quitting(_)) {
                        return ControlFlow::Wait;
                    }
                    // The loop slept only if its wake time was still to come when the last
                    // frame ended; the moments between frames of a loop that goes straight on
                    // are the event loop's, not a nap.
                    let slept = matches!(wake, Wake::At(t) if t > since);
                    self.begin_frame(slept.then_some(since));
                    match self.phase {
                        // Running on hidden (`--run-hidden`): updates without drawing, a
                        // frame every few milliseconds rather than a spin.
                        _ if self.visibility.is_hidden() => ControlFlow::WaitUntil(
                            self.clock
                                .instant_at(self.clock.now() + HIDDEN_FRAME_INTERVAL),
                        ),
                        // Uncapped loops spin; paced ones wait for their redraw, then for
                        // their wake time.
                        Phase::Drawing(p) if p.plan.wake == Wake::Immediately => ControlFlow::Poll,
                        _ => ControlFlow::Wait,
                    }
                }
            },
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// Writes the outputs and reports how the run ended. A failure of the run itself is
    /// reported before one of writing its files.
    /// Writes the outputs; a run a signal ended then exits with the signal's status.
    fn finish(mut self) -> Result<(), Failure> {
        let written = self.write_outputs();
        let signal = match self.phase {
            Phase::Quitting(why) => why.signal(),
            _ => None,
        };
        match (self.failure.take(), written, signal) {
            (Some(f), _, _) | (None, Err(f), _) => Err(f),
            (None, Ok(()), Some(signal)) => Err(Failure::from(signal)),
            (None, Ok(()), None) => Ok(()),
        }
    }

    /// Makes the window and its GPU state.
    #[cfg(not(target_arch = "wasm32"))]
    fn open_window(
        &mut self,
        event_loop: &ActiveEventLoop,
        instance: wgpu::Instance,
    ) -> Result<WindowParts, Failure> {
        let paced_by = if is_wayland(event_loop) {
            log::info!(
                "platform: Wayland; the compositor paces the window (a frame is drawn when the \
                 last one's frame callback comes), so vsync off and an uncapped loop cannot \
                 outrun it; a frame cap below its rate still applies"
            );
            PacedBy::Compositor
        } else {
            PacedBy::Loop
        };
        let window = event_loop
            .create_window(self.window_attributes())
            .map_err(|e| Failure::runtime(format!("cannot create a window: {e}")))?;
        let hooks = &self.options.hooks;
        let gfx = Graphics::new(
            Arc::new(window),
            instance,
            self.controls.knobs.vsync,
            hooks.bare_renderer,
            hooks.surface_faults.map(SurfaceFaults::every),
        )
        .map_err(Failure::runtime)?;
        Ok(self.window_parts(gfx, paced_by))
    }

    /// What the window is made with.
    fn window_attributes(&self) -> winit::window::WindowAttributes {
        Window::default_attributes()
            .with_title(self.title())
            // The scene is dark; saying so also spares a Wayland window's decorations from
            // asking the desktop portal for its colour scheme (without a portal that logs an
            // error after a 100 ms wait).
            .with_theme(Some(winit::window::Theme::Dark))
            .with_inner_size(winit::dpi::PhysicalSize::new(
                WORLD_SIZE.x as u32,
                WORLD_SIZE.y as u32,
            ))
    }

    /// The window's parts around its GPU state, once it has one.
    fn window_parts(&mut self, gfx: Graphics, paced_by: PacedBy) -> WindowParts {
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
                if let Some(r) = self.display.told(r) {
                    self.controls.set_display(r);
                }
            }
            None => log::info!(
                "display: refresh rate unknown; snapped deltas assume {} until the presents \
                 measure it",
                self.controls.display()
            ),
        }
        let composer = Composer::for_window(&gfx.window, gfx.max_texture_side());
        WindowParts {
            gfx,
            composer,
            paced_by,
        }
    }
}

impl ApplicationHandler<AppEvent> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        // Resumed again (a mobile platform's lifecycle): the window is there, or coming.
        let Phase::Starting(instance) = &mut self.phase else {
            return;
        };
        #[cfg(target_arch = "wasm32")]
        {
            let _no_instance_yet = instance;
            self.open_page_window(event_loop);
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let Some(instance) = instance.take() else {
                return;
            };
            match self.open_window(event_loop, instance) {
                Ok(parts) => {
                    self.window = Some(parts);
                    self.phase = Phase::Idle {
                        wake: Wake::Immediately,
                        since: self.clock.now(),
                    };
                }
                Err(failure) => self.fail(event_loop, failure),
            }
        }
    }

    fn user_event(&mut self, _event_loop: &ActiveEventLoop, event: AppEvent) {
        match event {
            AppEvent::ScriptedKey(k) => {
                self.input
                    .key_with_shift(k.code, k.shift, k.down, self.clock.now());
            }
            #[cfg(target_arch = "wasm32")]
            AppEvent::GpuReady => self.gpu_ready(_event_loop),
            #[cfg(not(target_arch = "wasm32"))]
            AppEvent::GpuReady => {}
            AppEvent::Signal(signal) => {
                log::info!(
                    "{}: writing what the run was asked for, then quitting (a second one quits at once)",
                    signal.name()
                );
                self.quit(_event_loop, RunEnd::of_signal(signal));
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        if let Some(w) = &mut self.window
            && !matches!(event, WindowEvent::RedrawRequested)
            && w.composer.on_window_event(&w.gfx.window, &event)
            && !matches!(event, WindowEvent::KeyboardInput { .. })
        {
            return;
        }
        match event {
            WindowEvent::CloseRequested => {
                log::info!("window closed");
                self.quit(event_loop, RunEnd::WindowClosed);
            }
            WindowEvent::Resized(size) => {
                if let Some(w) = &mut self.window {
                    w.gfx.resize(size.width, size.height);
                }
                let change = self
                    .visibility
                    .resized(size.width, size.height, self.moment());
                self.visibility_changed(change);
            }
            WindowEvent::Occluded(occluded) => {
                let change = self.visibility.occluded(occluded, self.moment());
                self.visibility_changed(change);
            }
            WindowEvent::ModifiersChanged(m) => self.input.set_shift(m.state().shift_key()),
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                if let PhysicalKey::Code(code) = event.physical_key
                    && !event.repeat
                {
                    let down = event.state == ElementState::Pressed;
                    self.input.key(code, down, is_synthetic, self.clock.now());
                }
            }
            WindowEvent::Focused(false) => self.input.focus_lost(self.clock.now()),
            #[cfg(not(target_arch = "wasm32"))]
            WindowEvent::RedrawRequested => self.draw(),
            #[cfg(target_arch = "wasm32")]
            WindowEvent::RedrawRequested => self.animation_frame(event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(limit) = self.options.exit_after
            && self.clock.now() >= limit
            && !matches!(self.phase, Phase::Quitting(_))
        {
            log::info!("exit after {} s", limit.as_secs_f64());
            self.quit(event_loop, RunEnd::ExitAfter);
        }
        #[cfg(target_arch = "wasm32")]
        let flow = self.page_step(event_loop);
        #[cfg(not(target_arch = "wasm32"))]
        let flow = self.next_step(event_loop);
        event_loop.set_control_flow(flow);
    }
}

#[cfg(not(target_arch = "wasm32"))]
/// Whether the event loop talks to a Wayland compositor (its display handle says so, on any
/// platform).
fn is_wayland(event_loop: &ActiveEventLoop) -> bool {
    use winit::raw_window_handle::{HasDisplayHandle, RawDisplayHandle};
    event_loop
        .display_handle()
        .is_ok_and(|h| matches!(h.as_raw(), RawDisplayHandle::Wayland(_)))
}
