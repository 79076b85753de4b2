//! The driver on a desktop: the event loop runs on the main thread until the window
//! closes, the loop waits for its wake times itself (the OS timer, then a spin), and the run
//! writes its files when it ends.

use std::sync::Arc;
use std::time::Duration;

use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};

use super::{App, Phase, Target};
use crate::app::demo::{Demo, Nap};
use crate::app::display_rate::RefreshSource;
use crate::app::overlay::{PacedBy, PlacedText, ViewFigures};
use crate::app::stats::WindowSystem;
use crate::app::{AppEvent, AppOptions, NO_DISPLAY_HELP};
use crate::failure::Failure;
use crate::hooks::surface_faults::SurfaceFaults;
use crate::platform::clock::WallClock;
use crate::platform::files;
use crate::platform::frame_wait::{HIDDEN_FRAME_INTERVAL, Pace};
use crate::render::Graphics;
use crate::session::recording::Recording;
use looplab_timing::{FramePlan, Wake};

/// A planned frame whose redraw has not come within this long is given up (a minimized or
/// unmapped window may never be asked to redraw).
const REDRAW_TIMEOUT: Duration = Duration::from_millis(250);

/// A desktop window: the loop waits for its frames' starts itself (the OS timer, then a
/// spin), and what only it keeps is `--record`'s file, written as the run goes.
#[derive(Default)]
pub(super) struct Native {
    recording: Option<RecordingStream>,
}

/// `--record`'s file and the steering changes appended to it so far.
struct RecordingStream {
    file: files::Appender,
    changes: usize,
}

/// A wait for a surface image at least this long was a wait for the display: a free image
/// takes microseconds.
const WAITED_FOR_AN_IMAGE: Duration = Duration::from_millis(1);

impl Target for Native {
    const QUITS_BY_KEY: bool = true;
    const CAN_SLEEP: bool = true;
    const CHECKS_ITS_LAYOUT: bool = false;

    /// Makes the window and its GPU state, waiting for it; the loop starts.
    fn open_window(app: &mut App, event_loop: &ActiveEventLoop, instance: Option<wgpu::Instance>) {
        let Some(instance) = instance else {
            return;
        };
        let window_system = window_system_of(event_loop);
        let paced_by = if window_system == WindowSystem::Wayland {
            log::info!(
                "windowing system: Wayland; the compositor paces the window (a frame is drawn \
                 when the last one's frame callback comes), so vsync off and an uncapped loop \
                 cannot outrun it; a frame cap below its rate still applies"
            );
            PacedBy::Compositor
        } else {
            PacedBy::Loop
        };
        let opened = event_loop
            .create_window(app.window_attributes())
            .map_err(|e| format!("cannot create a window: {e}"))
            .and_then(|window| app.new_graphics(Arc::new(window), instance));
        match opened {
            Ok(gfx) => app.window_opened(gfx, window_system, paced_by),
            Err(message) => app.fail(event_loop, Failure::runtime(message)),
        }
    }

    /// A native window asks for no GPU by event: it has one when it opens.
    fn gpu_ready(_app: &mut App, _event_loop: &ActiveEventLoop) {}

    /// Only a browser takes a context from its page; a native window hears of a lost
    /// device from wgpu's callback.
    fn gpu_context_lost(_app: &mut App) {}
    fn gpu_context_restored(_app: &mut App) {}

    /// What the event loop does next (waking for `--exit-after` at the latest), and the
    /// frame started if it is time for one.
    fn next_step(app: &mut App, event_loop: &ActiveEventLoop) -> ControlFlow {
        let flow = app.next_flow(event_loop);
        let Some(exit) = app.options.exit_after.map(|t| app.clock.instant_at(t)) else {
            return flow;
        };
        match flow {
            ControlFlow::Wait => ControlFlow::WaitUntil(exit),
            ControlFlow::WaitUntil(t) => ControlFlow::WaitUntil(t.min(exit)),
            poll => poll,
        }
    }

    /// The frame waiting for its redraw is drawn, on a new device where the last was lost.
    fn redraw_requested(app: &mut App, event_loop: &ActiveEventLoop) {
        app.lose_device_on_cue();
        let lost = app.window.as_ref().is_some_and(|w| w.gfx.gpu.is_lost());
        if lost && !app.replace_lost_device(event_loop) {
            return;
        }
        app.draw();
    }

    /// A frame's updates have run: steering changes they made go to `--record`'s file.
    fn updates_ran(&mut self, demo: &Demo) {
        let Some(stream) = &mut self.recording else {
            return;
        };
        let changes = demo.session().steering().changes();
        for change in &changes[stream.changes..] {
            stream.file.append(&Recording::change_line(change));
        }
        stream.changes = changes.len();
    }

    /// A native window does not check its layout as it draws.
    fn laid_out(&mut self, _size: (u32, u32), _texts: &[PlacedText], _figures: ViewFigures) {}

    /// Frames keep the display's grid when it paces them and the loop asks for no wait of
    /// its own: a compositor at its frame callbacks, which let the frame draw; FIFO at the
    /// vertical blank that frees an image, when the frame waited `acquire` for one (a
    /// display with no vertical blank, as Xvfb's, never makes it wait, and its presents
    /// keep the loop's pace, not a display's). Where the windowing system told no refresh
    /// rate, those presents measure it for snapping.
    fn presented(
        app: &mut App,
        plan: &FramePlan,
        let_draw: Duration,
        presented: Duration,
        acquire: Duration,
    ) {
        let Some(w) = &mut app.window else {
            return;
        };
        let (display_paced, on_grid_at) = if w.paced_by == PacedBy::Compositor {
            (true, let_draw)
        } else {
            let fifo = matches!(
                w.gfx.present_mode(),
                wgpu::PresentMode::Fifo | wgpu::PresentMode::FifoRelaxed
            );
            (fifo && acquire >= WAITED_FOR_AN_IMAGE, presented)
        };
        // A loop paced just in time keeps to the grid it was given: measured from its own
        // presents, the grid would follow the loop and not the display.
        let on_the_grid =
            display_paced && plan.wake == Wake::Immediately && !app.demo.knobs().just_in_time;
        let first = w.display.source() != RefreshSource::Presents;
        if let Some(rate) = w.display.presented(on_grid_at, on_the_grid) {
            if first {
                log::info!("display: {rate}, measured from the presents");
            } else {
                log::debug!("display: {rate}, measured from the presents");
            }
            app.demo.set_display(rate);
        }
    }

    /// Nothing of a native window's own changes when it is hidden.
    fn hidden(&mut self) {}
}

/// Opens the window and runs until it is closed.
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
    let recording = match &options.outputs.record {
        Some(path) => {
            let mut file = files::Appender::create("--record", path)?;
            file.append(&Recording::header_line(
                options.strategy,
                &options.settings,
                &options.world,
            ));
            Some(RecordingStream { file, changes: 0 })
        }
        None => None,
    };
    let mut app = App::new(options, Some(instance), clock);
    app.target.recording = recording;
    event_loop
        .run_app(&mut app)
        .map_err(|e| Failure::runtime(format!("the event loop failed: {e}")))?;
    app.finish()
}

impl App {
    /// `--lose-device-at`: destroys the device once its time has come, which fires the
    /// real device-lost callback.
    fn lose_device_on_cue(&mut self) {
        let hooks = &mut self.options.hooks;
        if let (Some(at), Some(w)) = (hooks.lose_device_at, &self.window)
            && self.clock.now() >= at
        {
            hooks.lose_device_at = None;
            log::warn!("--lose-device-at: destroying the GPU device");
            w.gfx.gpu.device.destroy();
        }
    }

    /// The GPU device was lost: makes a new adapter, device, surface and pipelines for the
    /// same window (from the same instance, else a new one), and a new overlay painter,
    /// keeping the session, the world and every output. The time without a GPU goes to
    /// the next frame's record, and the game clock skips it as after a hidden spell.
    /// Where no device comes back, the run ends as Esc ends it, with its outputs written,
    /// and fails with one line. Returns whether there is a device to draw with.
    fn replace_lost_device(&mut self, event_loop: &ActiveEventLoop) -> bool {
        let began = self.clock.now();
        let Some(mut w) = self.window.take() else {
            return false;
        };
        let old = w.gfx;
        self.count_lost_device(&old, w.window_system);
        let window = Arc::clone(&old.window);
        let instance = old.gpu.instance.clone();
        // The old surface lets the window go before a new one is made for it.
        drop(old);
        let made = if self.options.hooks.refuse_new_device {
            Err("--refuse-new-device refused it".to_string())
        } else {
            self.new_graphics(Arc::clone(&window), instance)
                .or_else(|first| {
                    log::warn!(
                        "no new GPU device from the old instance ({first}): trying a new one"
                    );
                    let fresh = wgpu::Instance::new(
                        wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
                            event_loop.owned_display_handle(),
                        )),
                    );
                    self.new_graphics(window, fresh)
                })
        };
        match made {
            Ok(gfx) => {
                w.gfx = gfx;
                self.device_replaced(w, began);
                true
            }
            Err(e) => {
                self.fail(
                    event_loop,
                    Failure::runtime(format!(
                        "the GPU device was lost and no new one could be made: {e}"
                    )),
                );
                false
            }
        }
    }

    /// A new GPU state for `window` from `instance`, with the knobs' swapchain and hooks.
    fn new_graphics(
        &self,
        window: Arc<winit::window::Window>,
        instance: wgpu::Instance,
    ) -> Result<Graphics, String> {
        let hooks = &self.options.hooks;
        pollster::block_on(Graphics::create(
            window,
            instance,
            (self.demo.knobs().present, self.demo.knobs().latency),
            hooks.bare_renderer,
            hooks.surface_faults.map(SurfaceFaults::every),
        ))
    }

    fn next_flow(&mut self, event_loop: &ActiveEventLoop) -> ControlFlow {
        let now = self.clock.now();
        if let Phase::Drawing(frame) = self.phase
            && now.saturating_sub(frame.plan.now) >= REDRAW_TIMEOUT
        {
            // The redraw never came (an unmapped window, a compositor that stopped asking
            // for frames): close the frame and go on.
            self.skip_frame(frame);
        }
        match self.phase {
            Phase::Starting(_) | Phase::Quitting { .. } => ControlFlow::Wait,
            // Wait for the redraw, but not past the time it is given up.
            Phase::Drawing(f) => {
                ControlFlow::WaitUntil(self.clock.instant_at(f.plan.now + REDRAW_TIMEOUT))
            }
            Phase::Resting => {
                // Keys still act (Escape quits); the loop wakes for the next event.
                self.apply_input(event_loop);
                ControlFlow::Wait
            }
            Phase::Idle { wake, since } => match self.pacer.pace(&self.clock, wake) {
                Pace::SleepUntil(t) => ControlFlow::WaitUntil(t),
                Pace::Spin => ControlFlow::Poll,
                Pace::Go => self.start_frame_at(event_loop, wake, since),
            },
        }
    }

    /// The wake time `wake` has come (the last frame ended at `since`): the frame starts,
    /// and the event loop spins on or waits, as the frame asks.
    fn start_frame_at(
        &mut self,
        event_loop: &ActiveEventLoop,
        wake: Wake,
        since: Duration,
    ) -> ControlFlow {
        // The loop slept only if its wake time was still to come when the last frame ended;
        // the moments between frames of a loop that goes straight on are the event loop's,
        // not a nap.
        if !self.start_frame(event_loop, Nap::before(wake, since, false)) {
            return ControlFlow::Wait;
        }
        match self.phase {
            // Running on hidden (`--run-hidden`): updates without drawing, a frame every few
            // milliseconds rather than a spin.
            _ if self.visibility.is_hidden() => ControlFlow::WaitUntil(
                self.clock
                    .instant_at(self.clock.now() + HIDDEN_FRAME_INTERVAL),
            ),
            // Uncapped loops spin; paced ones wait for their redraw, then for their wake
            // time.
            Phase::Drawing(f) if f.plan.wake == Wake::Immediately => ControlFlow::Poll,
            _ => ControlFlow::Wait,
        }
    }

    /// Writes the outputs and reports how the run ended. A failure of the run itself is
    /// reported before one of writing its files; a run a signal ended then exits with the
    /// signal's status.
    fn finish(mut self) -> Result<(), Failure> {
        let written = self.write_outputs();
        let (failure, signal) = match std::mem::replace(&mut self.phase, Phase::Resting) {
            Phase::Quitting { why, failure } => (failure, why.signal()),
            _ => (None, None),
        };
        match (failure, written, signal) {
            (Some(f), _, _) | (None, Err(f), _) => Err(f),
            (None, Ok(()), Some(signal)) => Err(Failure::from(signal)),
            (None, Ok(()), None) => Ok(()),
        }
    }

    /// Writes every output the run was asked for, each whole or not at all. One that
    /// cannot be written does not keep the others from being written: the failure names
    /// each that failed, in one line (exit status 1).
    fn write_outputs(&mut self) -> Result<(), Failure> {
        self.demo.close_run(self.clock.now());
        let stats = self.stats_report();
        let stream = self.target.recording.take();
        let mut failed = self
            .demo
            .write_outputs(&self.options.outputs, &stats, |path, text| match stream {
                Some(stream) => stream.file.finish(text),
                None => files::write_file("--record", path, text.as_bytes()),
            });
        match failed.len() {
            0 => Ok(()),
            1 => Err(failed.remove(0)),
            _ => Err(Failure::runtime(
                failed
                    .iter()
                    .map(|f| f.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            )),
        }
    }
}

/// The windowing system the event loop talks to, as its display handle says.
fn window_system_of(event_loop: &ActiveEventLoop) -> WindowSystem {
    use winit::raw_window_handle::{HasDisplayHandle, RawDisplayHandle};
    match event_loop.display_handle().map(|h| h.as_raw()) {
        Ok(RawDisplayHandle::Xlib(_) | RawDisplayHandle::Xcb(_)) => WindowSystem::X11,
        Ok(RawDisplayHandle::Wayland(_)) => WindowSystem::Wayland,
        Ok(RawDisplayHandle::Windows(_)) => WindowSystem::Windows,
        Ok(RawDisplayHandle::AppKit(_)) => WindowSystem::MacOs,
        _ => WindowSystem::Other,
    }
}
