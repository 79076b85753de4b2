//! The driver on a desktop: the event loop runs on the main thread until the window
//! closes, the loop waits for its wake times itself (the OS timer, then a spin), and the run
//! writes its files when it ends.

use std::sync::Arc;
use std::time::Duration;

use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};

use super::{App, Phase};
use crate::app::demo::{Demo, Nap};
use crate::app::display_rate::RefreshSource;
use crate::app::overlay::{PacedBy, PlacedText};
use crate::app::stats::Platform;
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

/// What only a native window keeps: `--record`'s file, written as the run goes.
#[derive(Default)]
pub(super) struct NativeState {
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

impl NativeState {
    /// Esc and Q end a native run.
    pub(super) const CLOSED_WITH_ITS_TAB: bool = false;
    /// A native loop may sleep until a frame's start: just in time can pace it.
    pub(super) const CAN_SLEEP: bool = true;
    /// The layout tests check a native window's screens with no GPU (`tests/layout.rs`).
    pub(super) const CHECKS_ITS_LAYOUT: bool = false;

    /// The overlay was laid out at `size`: a native window does not check it.
    pub(super) fn laid_out(&mut self, _size: (u32, u32), _texts: &[PlacedText]) {}

    /// A frame's updates have run: steering changes they made go to `--record`'s file.
    pub(super) fn updates_ran(&mut self, demo: &Demo) {
        let Some(stream) = &mut self.recording else {
            return;
        };
        let changes = demo.session().steering().changes();
        for change in &changes[stream.changes..] {
            stream.file.append(&Recording::change_line(change));
        }
        stream.changes = changes.len();
    }

    /// The window was hidden: nothing of a native window's own changes.
    pub(super) fn hidden(&mut self) {}
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
    app.platform.recording = recording;
    event_loop
        .run_app(&mut app)
        .map_err(|e| Failure::runtime(format!("the event loop failed: {e}")))?;
    app.finish()
}

impl App {
    /// Makes the window and its GPU state; the loop starts.
    pub(super) fn open_window(
        &mut self,
        event_loop: &ActiveEventLoop,
        instance: Option<wgpu::Instance>,
    ) {
        let Some(instance) = instance else {
            return;
        };
        let platform = platform_of(event_loop);
        let paced_by = if platform == Platform::Wayland {
            log::info!(
                "platform: Wayland; the compositor paces the window (a frame is drawn when the \
                 last one's frame callback comes), so vsync off and an uncapped loop cannot \
                 outrun it; a frame cap below its rate still applies"
            );
            PacedBy::Compositor
        } else {
            PacedBy::Loop
        };
        let hooks = &self.options.hooks;
        let opened = event_loop
            .create_window(self.window_attributes())
            .map_err(|e| format!("cannot create a window: {e}"))
            .and_then(|window| {
                pollster::block_on(Graphics::create(
                    Arc::new(window),
                    instance,
                    (self.demo.knobs().present, self.demo.knobs().latency),
                    hooks.bare_renderer,
                    hooks.surface_faults.map(SurfaceFaults::every),
                ))
            });
        match opened {
            Ok(gfx) => self.window_opened(gfx, platform, paced_by),
            Err(message) => self.fail(event_loop, Failure::runtime(message)),
        }
    }

    /// A native window asks for no GPU by event: it has one when it opens.
    pub(super) fn gpu_ready(&mut self, _event_loop: &ActiveEventLoop) {}

    /// Only a browser takes a context from its page; a native window hears of a lost
    /// device from wgpu's callback.
    pub(super) fn gpu_context_lost(&mut self) {}
    pub(super) fn gpu_context_restored(&mut self) {}

    pub(super) fn redraw_requested(&mut self, event_loop: &ActiveEventLoop) {
        self.lose_device_on_cue();
        let lost = self.window.as_ref().is_some_and(|w| w.gfx.gpu.is_lost());
        if lost && !self.replace_lost_device(event_loop) {
            return;
        }
        self.draw();
    }

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
        self.count_lost_device(&old, w.platform);
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

    /// The frame of `plan`, let draw at `let_draw`, was presented at `presented`.
    ///
    /// Frames keep the display's grid when it paces them and the loop asks for no wait of
    /// its own: a compositor at its frame callbacks, which let the frame draw; FIFO at the
    /// vertical blank that frees an image, when the frame waited `acquire` for one (a
    /// display with no vertical blank, as Xvfb's, never makes it wait, and its presents
    /// keep the loop's pace, not a display's). Where the platform told no refresh rate,
    /// those presents measure it for snapping.
    pub(super) fn presented(
        &mut self,
        plan: &FramePlan,
        let_draw: Duration,
        presented: Duration,
        acquire: Duration,
    ) {
        let Some(w) = &mut self.window else {
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
            display_paced && plan.wake == Wake::Immediately && !self.demo.knobs().just_in_time;
        let first = w.display.source() != RefreshSource::Presents;
        if let Some(rate) = w.display.presented(on_grid_at, on_the_grid) {
            if first {
                log::info!("display: {rate}, measured from the presents");
            } else {
                log::debug!("display: {rate}, measured from the presents");
            }
            self.demo.set_display(rate);
        }
    }

    /// What the event loop does next (waking for `--exit-after` at the latest), and the
    /// frame started if it is time for one.
    pub(super) fn next_step(&mut self, event_loop: &ActiveEventLoop) -> ControlFlow {
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
                Pace::Go => self.start_frame(event_loop, wake, since),
            },
        }
    }

    /// The wake time `wake` has come (the last frame ended at `since`): the frame starts.
    fn start_frame(
        &mut self,
        event_loop: &ActiveEventLoop,
        wake: Wake,
        since: Duration,
    ) -> ControlFlow {
        // Wait, then collect input, then update: input that arrived during the wait belongs
        // to this frame.
        self.apply_input(event_loop);
        if self.phase.is_quitting() {
            return ControlFlow::Wait;
        }
        // A wait the machine made late is one uneven interval, not two.
        if self.pacer.take_late() {
            self.demo.restart_deadlines();
        }
        // The loop slept only if its wake time was still to come when the last frame ended;
        // the moments between frames of a loop that goes straight on are the event loop's,
        // not a nap.
        self.begin_frame(Nap::before(wake, since, false));
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
        let stream = self.platform.recording.take();
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
fn platform_of(event_loop: &ActiveEventLoop) -> Platform {
    use winit::raw_window_handle::{HasDisplayHandle, RawDisplayHandle};
    match event_loop.display_handle().map(|h| h.as_raw()) {
        Ok(RawDisplayHandle::Xlib(_) | RawDisplayHandle::Xcb(_)) => Platform::X11,
        Ok(RawDisplayHandle::Wayland(_)) => Platform::Wayland,
        Ok(RawDisplayHandle::Windows(_)) => Platform::Windows,
        Ok(RawDisplayHandle::AppKit(_)) => Platform::MacOs,
        _ => Platform::Other,
    }
}
