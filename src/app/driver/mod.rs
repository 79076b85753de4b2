//! The driver: a winit `ApplicationHandler` that owns the window, its surface and the loop's
//! phases, and hands everything a person sees and steers to the [`Demo`].
//!
//! - `window_event` only records input (and follows resizes and visibility);
//! - `about_to_wait` is where frames start: it waits for the strategy's wake time (the OS
//!   timer for most of it, a spin for the last stretch), has the demo apply the recorded
//!   input and run the planned updates, and asks for a redraw;
//! - `RedrawRequested` composes the frame, paints and presents it.
//!
//! Where the loop is between those steps is one value, [`Phase`]. The timing decisions are
//! the planner's (the `looplab-timing` crate), the same code the lab drives with a virtual
//! clock; what a frame draws is the composer's ([`compose`](crate::app::compose)), the same
//! code `looplab motion` and the bench draw with.
//!
//! A frame reads in order in two files: the wait for its start is the target's (`native.rs`
//! for a desktop, `page.rs` for a browser, each a [`Target`]), and from its input to its
//! finish it is one path for both (`frame.rs`). The `cfg(target_arch)` lines that pick the
//! target are in this file, the only one of the window's that names one.

mod frame;
#[cfg(not(target_arch = "wasm32"))]
mod native;
#[cfg(target_arch = "wasm32")]
pub mod page;

#[cfg(not(target_arch = "wasm32"))]
pub use native::run;
#[cfg(target_arch = "wasm32")]
pub use page::run;

/// The target this build is for.
#[cfg(not(target_arch = "wasm32"))]
type BuiltFor = native::Native;
#[cfg(target_arch = "wasm32")]
type BuiltFor = page::Page;

use std::time::Duration;

use looplab_timing::{Rate, Wake};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow};
use winit::keyboard::PhysicalKey;
use winit::window::{Window, WindowId};

use super::compose::Composer;
use super::demo::{Demo, DemoSetup, Frame};
use super::display_rate::DisplayRate;
use super::overlay::{PacedBy, PlacedText, ViewFigures};
use super::stats::{RunEnd, StatsReport, WindowReport, WindowSystem};
use super::visibility::{Change, Moment, Visibility};
use super::{AppEvent, AppOptions};
use crate::failure::Failure;
use crate::hooks::Hooks;
use crate::platform::clock::WallClock;
use crate::platform::frame_wait::FramePacer;
use crate::render::Graphics;
use crate::text::settings::describe_settings;
use crate::text::strategy as strategy_text;
use crate::world::WORLD_SIZE;
use looplab_timing::FramePlan;

/// What differs between a desktop window and a browser page, where the driver's paths part:
/// opening the window and getting its GPU, what the event loop does next (the wait for a
/// frame's start), a redraw, and what a present tells of the display. The frame from its
/// input to its finish is one path for both (`frame.rs`).
trait Target: Default {
    /// Esc and Q end the run (a page is closed with its tab instead).
    const QUITS_BY_KEY: bool;
    /// The loop may sleep until a frame's start, so just in time can pace it (a page is
    /// called back once a refresh and cannot start a frame later within one).
    const CAN_SLEEP: bool;
    /// It checks the overlay's layout as it draws: a page's canvas takes whatever size the
    /// page gives it (a native window's screens are checked by the layout tests).
    const CHECKS_ITS_LAYOUT: bool;

    /// The event loop has resumed with no window: makes it and asks for its GPU state.
    fn open_window(app: &mut App, event_loop: &ActiveEventLoop, instance: Option<wgpu::Instance>);

    /// The GPU state asked for has answered.
    fn gpu_ready(app: &mut App, event_loop: &ActiveEventLoop);

    /// The browser took the canvas's WebGL context (`webglcontextlost`).
    fn gpu_context_lost(app: &mut App);

    /// The browser gave the context back, empty (`webglcontextrestored`).
    fn gpu_context_restored(app: &mut App);

    /// What the event loop does next: waits for the frame's start, then starts it.
    fn next_step(app: &mut App, event_loop: &ActiveEventLoop) -> ControlFlow;

    /// winit's `RedrawRequested`: the frame waiting for it is drawn (a page's frame also
    /// starts here, in the browser's callback).
    fn redraw_requested(app: &mut App, event_loop: &ActiveEventLoop);

    /// A frame's updates have run.
    fn updates_ran(&mut self, demo: &Demo);

    /// The overlay was laid out at `size`, its texts where they landed; in the book's
    /// embedded view, with the figures it hands to the book.
    fn laid_out(&mut self, size: (u32, u32), texts: &[PlacedText], figures: ViewFigures);

    /// The frame of `plan`, let draw at `let_draw`, was presented at `presented`, after
    /// waiting `acquire` for its surface image.
    fn presented(
        app: &mut App,
        plan: &FramePlan,
        let_draw: Duration,
        presented: Duration,
        acquire: Duration,
    );

    /// The window was hidden.
    fn hidden(&mut self);
}

/// The refresh rate of the display `window` is on, where it tells one.
fn monitor_refresh(window: &Window) -> Option<Rate> {
    let mhz = window.current_monitor()?.refresh_rate_millihertz()?;
    Rate::hz(f64::from(mhz) / 1000.0).ok()
}

/// The composer for a window's GPU state; a page's checks its own layout as it draws.
fn composer_for(gfx: &Graphics) -> Composer {
    let composer = Composer::for_window(&gfx.window, gfx.max_texture_side());
    if BuiltFor::CHECKS_ITS_LAYOUT {
        composer.audited()
    } else {
        composer
    }
}

/// What the driver keeps of the options: how the run ends, what it writes, and the hooks.
// A page writes no files and takes no hooks.
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
struct DriverOptions {
    /// The display's refresh rate as given, in place of the monitor's.
    refresh: Option<Rate>,
    /// The window's inner size, where not the world's.
    size: Option<(u32, u32)>,
    /// Quit by itself after this much real time.
    exit_after: Option<Duration>,
    outputs: super::Outputs,
    /// Keep simulating while the window is hidden (it never draws then).
    run_hidden: bool,
    hooks: Hooks,
}

/// Where the window's loop is.
// One value, held by the driver: boxing the frame in flight would allocate every frame.
#[allow(clippy::large_enum_variant)]
enum Phase {
    /// No window yet: it is made when the event loop resumes, from this instance. In a page
    /// there is none (the instance is made once the browser has said whether its WebGPU
    /// works), and the loop stays here, its window open, until the GPU has answered.
    Starting(Option<wgpu::Instance>),
    /// Waiting for the next frame's wake time; the last frame finished at `since`.
    Idle { wake: Wake, since: Duration },
    /// A frame's updates have run and its redraw has been asked for.
    Drawing(Frame),
    /// Nobody can see the window: no frames, no spinning, until it is shown again.
    Resting,
    /// The event loop has been asked to end, for this reason (and, when it failed, why).
    Quitting {
        why: RunEnd,
        failure: Option<Failure>,
    },
}

impl Phase {
    fn is_quitting(&self) -> bool {
        matches!(self, Phase::Quitting { .. })
    }
}

/// The window and what draws in it.
struct WindowParts {
    gfx: Graphics,
    composer: Composer,
    /// The windowing system, as the event loop's display handle says.
    window_system: WindowSystem,
    /// Who starts the frames: the loop, a Wayland compositor or a browser.
    paced_by: PacedBy,
    /// The display's refresh rate, for snapped deltas, and where it came from.
    display: DisplayRate,
}

/// What the GPU devices lost during a run had counted, and how many were replaced.
#[derive(Clone, Copy, Debug, Default)]
struct LostDevices {
    recoveries: u64,
    surface_recoveries: crate::render::SurfaceRecoveries,
    gpu_errors: u64,
    /// The windowing system, for a run that ends with no device (and so no window parts).
    window_system: Option<WindowSystem>,
    /// Real time the last replacement took, not yet written to a frame's record.
    away: Duration,
}

/// The window's driver: see the module's docs.
struct App {
    options: DriverOptions,
    clock: WallClock,
    phase: Phase,
    window: Option<WindowParts>,
    /// Waits for frame deadlines without blocking the event loop.
    pacer: FramePacer,
    visibility: Visibility,
    demo: Demo,
    /// What only a native window, or only a page, keeps.
    target: BuiltFor,
    lost_devices: LostDevices,
}

impl App {
    fn new(options: AppOptions, instance: Option<wgpu::Instance>, clock: WallClock) -> Self {
        let AppOptions {
            strategy,
            settings,
            world,
            knobs,
            refresh,
            size,
            exit_after,
            outputs,
            run_hidden,
            replay,
            lanes,
            tour,
            embedded,
            hooks,
        } = options;
        let demo = Demo::new(DemoSetup {
            strategy,
            settings,
            world,
            knobs,
            replay,
            lanes,
            tour,
            embedded,
            in_a_page: cfg!(target_arch = "wasm32"),
            keep_frames: outputs.frame_log.is_some(),
            keep_trace: outputs.trace.is_some(),
        });
        Self {
            clock,
            phase: Phase::Starting(instance),
            window: None,
            pacer: FramePacer::new(hooks.pacing),
            visibility: Visibility::default(),
            demo,
            target: BuiltFor::default(),
            lost_devices: LostDevices::default(),
            options: DriverOptions {
                refresh,
                size,
                exit_after,
                outputs,
                run_hidden,
                hooks,
            },
        }
    }

    /// Asks the event loop to end; the first reason given stands, but a failure wins.
    fn quit(&mut self, event_loop: &ActiveEventLoop, why: RunEnd) {
        self.end(event_loop, why, None);
    }

    fn fail(&mut self, event_loop: &ActiveEventLoop, failure: Failure) {
        self.end(event_loop, RunEnd::Failed, Some(failure));
    }

    fn end(&mut self, event_loop: &ActiveEventLoop, why: RunEnd, failure: Option<Failure>) {
        match &mut self.phase {
            Phase::Quitting {
                why: ended,
                failure: first,
            } => {
                if first.is_none() && failure.is_some() {
                    *first = failure;
                    *ended = RunEnd::Failed;
                }
            }
            _ => self.phase = Phase::Quitting { why, failure },
        }
        event_loop.exit();
    }

    /// A moment of the run, for the hidden time's totals.
    fn moment(&self) -> Moment {
        Moment {
            at: self.clock.now(),
            cpu: crate::platform::process::cpu_time().unwrap_or_default(),
            presented: self.demo.presented_count(),
        }
    }

    /// The window was hidden or shown again.
    fn visibility_changed(&mut self, change: Option<Change>) {
        let run_hidden = self.options.run_hidden;
        // A loop that is quitting (its window going away) stays so.
        if matches!(self.phase, Phase::Starting(_)) || self.phase.is_quitting() {
            return;
        }
        match change {
            Some(Change::Hidden) => {
                // Nobody would see the frame waiting for its redraw.
                if let Phase::Drawing(frame) = self.phase {
                    self.skip_frame(frame);
                }
                self.target.hidden();
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
                    self.demo.resync(now);
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

    /// What the window is made with.
    fn window_attributes(&self) -> winit::window::WindowAttributes {
        Window::default_attributes()
            .with_title(self.demo.title())
            // The scene is dark; saying so also spares a Wayland window's decorations from
            // asking the desktop portal for its colour scheme (without a portal that logs an
            // error after a 100 ms wait).
            .with_theme(Some(winit::window::Theme::Dark))
            .with_inner_size(winit::dpi::PhysicalSize::<u32>::from(
                self.options
                    .size
                    .unwrap_or((WORLD_SIZE.x as u32, WORLD_SIZE.y as u32)),
            ))
    }

    /// The window's parts around its GPU state, once it has one; the loop starts.
    fn window_opened(&mut self, gfx: Graphics, window_system: WindowSystem, paced_by: PacedBy) {
        let strategy = self.demo.strategy();
        log::info!(
            "strategy: {} ({}), {}, {}",
            strategy.id(),
            strategy_text::text(strategy).name,
            describe_settings(self.demo.settings()),
            self.demo.world()
        );
        let mut display = DisplayRate::new();
        match (self.options.refresh, monitor_refresh(&gfx.window)) {
            (Some(r), told) => {
                let told = told.map_or_else(|| "tells none".to_owned(), |t| format!("tells {t}"));
                log::info!("display: {r}, as given (the windowing system {told})");
                if let Some(r) = display.given(r) {
                    self.demo.set_display(r);
                }
            }
            (None, Some(r)) => {
                log::info!("display: {r}");
                if let Some(r) = display.told(r) {
                    self.demo.set_display(r);
                }
            }
            (None, None) => log::info!(
                "display: refresh rate unknown; snapped deltas assume {} until the presents \
                 measure it",
                self.demo.display()
            ),
        }
        self.demo.offer_present_modes(gfx.offered_modes());
        let composer = composer_for(&gfx);
        self.window = Some(WindowParts {
            gfx,
            composer,
            window_system,
            paced_by,
            display,
        });
        self.phase = Phase::Idle {
            wake: Wake::Immediately,
            since: self.clock.now(),
        };
    }

    /// Keeps what a lost device's state had counted, before it goes.
    fn count_lost_device(&mut self, old: &Graphics, window_system: WindowSystem) {
        let lost = &mut self.lost_devices;
        lost.surface_recoveries = lost.surface_recoveries + old.recoveries();
        lost.gpu_errors += old.gpu.error_count();
        lost.window_system = Some(window_system);
    }

    /// `w` has a new GPU state, its device lost at `lost_at`: the overlay's painter is
    /// made again (its textures went with the old device), the time without a GPU goes to
    /// the next frame's record, and the game clock skips it as after a hidden spell.
    fn device_replaced(&mut self, mut w: WindowParts, lost_at: Duration) {
        w.composer = composer_for(&w.gfx);
        self.demo.offer_present_modes(w.gfx.offered_modes());
        self.window = Some(w);
        let now = self.clock.now();
        let away = now.saturating_sub(lost_at);
        self.lost_devices.recoveries += 1;
        self.lost_devices.away = away;
        self.demo.resync(now);
        log::warn!(
            "GPU device made again {:.0} ms after it was lost: the run goes on",
            away.as_secs_f64() * 1e3
        );
    }

    /// The window may be on another display now: where the display it is on tells its
    /// refresh rate and that differs, snapped deltas and just in time follow it.
    fn display_may_have_changed(&mut self) {
        let Some(w) = &mut self.window else {
            return;
        };
        if let Some(rate) = monitor_refresh(&w.gfx.window).and_then(|r| w.display.told(r)) {
            log::info!("display: {rate}, the window is on another display");
            self.demo.set_display(rate);
        }
    }

    /// The report `--stats` writes: the driver's part, and the demo's.
    fn stats_report(&self) -> StatsReport {
        let now = self.clock.now();
        let gfx = self.window.as_ref().map(|w| &w.gfx);
        let window = WindowReport {
            window_system: self.window.as_ref().map_or(
                self.lost_devices
                    .window_system
                    .unwrap_or(WindowSystem::Other),
                |w| w.window_system,
            ),
            end: match &self.phase {
                Phase::Quitting { why, .. } => *why,
                _ => RunEnd::Running,
            },
            surface_recoveries: self.lost_devices.surface_recoveries
                + gfx.map(|g| g.recoveries()).unwrap_or_default(),
            gpu_recoveries: self.lost_devices.recoveries,
            gpu_errors: self.lost_devices.gpu_errors + gfx.map_or(0, |g| g.gpu.error_count()),
            adapter: gfx.map(|g| g.gpu.adapter_summary()),
            present_mode: gfx
                .and_then(|g| crate::render::gpu::from_wgpu(g.present_mode()))
                .map(|mode| mode.id().to_string()),
            surface_size: gfx.map(|g| g.size()),
            frame_wait: self.pacer.report(),
            display: self
                .window
                .as_ref()
                .map_or_else(|| DisplayRate::new().report(), |w| w.display.report()),
            hidden: self.visibility.report(self.options.run_hidden),
        };
        self.demo.stats_report(now, window)
    }
}

impl ApplicationHandler<AppEvent> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        // Resumed again (a mobile platform's lifecycle): the window is there, or coming.
        if let Phase::Starting(instance) = &mut self.phase {
            let instance = instance.take();
            BuiltFor::open_window(self, event_loop, instance);
        }
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: AppEvent) {
        match event {
            AppEvent::ScriptedKey(k) => {
                let now = self.clock.now();
                self.demo
                    .input()
                    .key_with_shift(k.code, k.shift, k.down, now);
            }
            AppEvent::GpuReady => BuiltFor::gpu_ready(self, event_loop),
            AppEvent::GpuContextLost => BuiltFor::gpu_context_lost(self),
            AppEvent::GpuContextRestored => BuiltFor::gpu_context_restored(self),
            AppEvent::Signal(signal) => {
                log::info!(
                    "{}: writing what the run was asked for, then quitting (a second one quits at once)",
                    signal.name()
                );
                self.quit(event_loop, RunEnd::of_signal(signal));
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        // egui sees the pointer, for the overlay's buttons; a key is the game's alone (the
        // overlay has nothing to type into).
        if let Some(w) = &mut self.window
            && !matches!(
                event,
                WindowEvent::RedrawRequested | WindowEvent::KeyboardInput { .. }
            )
            && w.composer.on_window_event(&w.gfx.window, &event)
        {
            return;
        }
        let now = self.clock.now();
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
            // Moved, perhaps to another display: its refresh rate may differ.
            WindowEvent::Moved(_) | WindowEvent::ScaleFactorChanged { .. } => {
                self.display_may_have_changed();
            }
            WindowEvent::Occluded(occluded) => {
                let change = self.visibility.occluded(occluded, self.moment());
                self.visibility_changed(change);
            }
            WindowEvent::ModifiersChanged(m) => self.demo.input().set_shift(m.state().shift_key()),
            WindowEvent::KeyboardInput {
                event,
                is_synthetic,
                ..
            } => {
                if let PhysicalKey::Code(code) = event.physical_key
                    && !event.repeat
                {
                    let down = event.state == ElementState::Pressed;
                    self.demo.input().key(code, down, is_synthetic, now);
                }
            }
            WindowEvent::Focused(false) => self.demo.input().focus_lost(now),
            WindowEvent::RedrawRequested => BuiltFor::redraw_requested(self, event_loop),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        if let Some(limit) = self.options.exit_after
            && self.clock.now() >= limit
            && !self.phase.is_quitting()
        {
            log::info!("exit after {} s", limit.as_secs_f64());
            self.quit(event_loop, RunEnd::ExitAfter);
        }
        let flow = BuiltFor::next_step(self, event_loop);
        event_loop.set_control_flow(flow);
    }
}
