//! The window in a browser page, where the browser owns the loop.
//!
//! Game Programming Patterns asks first whether you own the game loop or the platform does,
//! and names the browser as the platform that does: the page asks for
//! `requestAnimationFrame` and is called back once a refresh. So here, unlike the native
//! window:
//!
//! - a frame starts only in the browser's callback (winit's `RedrawRequested` on the web),
//!   and a frame cap or fixed-sleep's nap can only let callbacks pass
//!   ([`FrameCallbacks`]); nothing waits, spins or sleeps between frames;
//! - the GPU is asked for without blocking (a page's thread may not), and the loop starts
//!   when it answers;
//! - a hidden tab gets no callbacks at all: the page's visibility (winit's `Occluded`, from
//!   `visibilitychange`) rests the loop and resyncs it on return, as the native window does
//!   after being covered;
//! - the run's figures are kept for the page to read ([`stats_json`]) instead of written to
//!   files;
//! - the GPU may be taken from the page at any time: a browser takes the WebGL context of
//!   a background tab, under memory pressure or when its GPU process crashes, and a
//!   WebGPU device can be lost too. A line over the canvas says so, nothing is drawn, and
//!   a new device is asked for (for WebGL, once the browser gives the context back); the
//!   run goes on from where it was.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use looplab_timing::{FrameCallbacks, FramePlan};
use serde::Serialize;
use wasm_bindgen::JsCast;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::platform::web::{EventLoopExtWebSys, WindowAttributesExtWebSys, WindowExtWebSys};

use super::{App, Phase, Target};
use crate::app::demo::{Demo, Nap};
use crate::app::keys::{Action, TourKey, key_named};
use crate::app::lessons;
use crate::app::overlay::{PacedBy, PlacedText, ViewFigures, layout_faults};
use crate::app::stats::{StatsReport, WindowSystem};
use crate::app::{AppEvent, AppOptions};
use crate::failure::Failure;
use crate::platform::clock::WallClock;
use crate::render::Graphics;

/// The id of the page's canvas (the window draws into it; without one, a canvas is added at
/// the end of the page).
pub const CANVAS_ID: &str = "looplab-canvas";

/// The id of the page element that shows a failure in words.
pub const STATUS_ID: &str = "looplab-status";

/// The id of the line shown over the canvas while the GPU is away.
pub const GPU_AWAY_ID: &str = "looplab-gpu-away";

/// How many recent presents, and frame callbacks, the page keeps for its pacing figures:
/// ten seconds at 60 Hz.
const PRESENTS_KEPT: usize = 600;

/// Frames the callbacks start before the page is past its start-up, and the refresh they
/// measure is taken as the display's.
const CALLBACKS_TO_MEASURE: u64 = 60;

thread_local! {
    /// The running app, for [`stats_json`]: the page's one thread runs both.
    static RUNNING: RefCell<Option<Rc<RefCell<App>>>> = const { RefCell::new(None) };
}

/// The GPU state, once the request made as the window opened has answered.
type GpuSlot = Rc<RefCell<Option<Result<Graphics, String>>>>;

/// A browser page: its frame callbacks start the frames, and what only it keeps is the
/// callbacks' record, the GPU it asked for, and the figures the page reads.
#[derive(Default)]
pub struct Page {
    callbacks: FrameCallbacks,
    /// A frame callback has been asked for and has not come.
    asked: bool,
    /// Callbacks that started a frame, and that were let pass.
    taken: u64,
    passed: u64,
    /// The backends the page may use (WebGPU and WebGL2, or WebGL2 alone when asked).
    backends: wgpu::Backends,
    gpu: GpuSlot,
    proxy: Option<EventLoopProxy<AppEvent>>,
    /// When recent frames were presented, on the app's clock.
    presents: VecDeque<Duration>,
    /// When recent frame callbacks came, on the app's clock, and whether each started a
    /// frame: what a frame cap's decisions can be checked against.
    recent_callbacks: VecDeque<(Duration, bool)>,
    /// `performance.now()` at the first present: from the page's navigation to its first
    /// frame.
    first_frame_ms: Option<f64>,
    /// The GPU was taken from the page and has not come back.
    away: Option<GpuAway>,
    /// A new GPU has come back and its first frame is still to be presented.
    back: Option<GpuAway>,
    /// The last time the GPU came back, as the page's figures report it.
    last_recovery: Option<RecoverySeen>,
    /// The last frame's layout, checked.
    layout: Option<LayoutSeen>,
    /// In the book's embedded view, the figures it hands to the book, as the last frame
    /// laid them out.
    figures: ViewFigures,
}

/// The overlay's layout as the last frame laid it out, checked as the layout tests check
/// every screen: no text outside its region, none over another.
#[derive(Clone, Debug, Serialize)]
pub struct LayoutSeen {
    /// The canvas's size in pixels.
    pub size: (u32, u32),
    /// Texts laid out.
    pub texts: usize,
    pub faults: Vec<String>,
}

/// The GPU taken from the page: since when, and when a new one was asked for.
#[derive(Clone, Copy, Debug)]
struct GpuAway {
    since: Duration,
    asked: Option<Duration>,
}

/// How long the page drew nothing, the last time its GPU was taken.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct RecoverySeen {
    /// From the loss to the first frame presented after it, ms.
    pub loss_to_frame_ms: f64,
    /// From asking for a new GPU (at once for WebGPU, at the context's restore for WebGL)
    /// to that frame, ms: the page's own part.
    pub asked_to_frame_ms: f64,
}

/// Opens the window on the page and returns: the browser runs the loop from here.
pub fn run(options: AppOptions) -> Result<(), Failure> {
    spawn(options, false)
}

impl Target for Page {
    const QUITS_BY_KEY: bool = false;
    const CAN_SLEEP: bool = false;
    const CHECKS_ITS_LAYOUT: bool = true;

    /// Opens the window on the page's canvas and asks for a GPU without waiting for it
    /// (a page makes its instance once the browser has said whether its WebGPU works).
    fn open_window(
        app: &mut App,
        event_loop: &ActiveEventLoop,
        _no_instance_yet: Option<wgpu::Instance>,
    ) {
        if app.target.proxy.is_none() {
            return;
        }
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(CANVAS_ID))
            .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        let mut attributes = app
            .window_attributes()
            .with_append(canvas.is_none())
            .with_canvas(canvas);
        // The page's style sizes the canvas (as wide as the page allows, at most the
        // world's 1280 by 720 CSS pixels), and winit follows it and the device's pixel
        // ratio: a size asked for here would be pinned to the canvas's style.
        attributes.inner_size = None;
        let window = match event_loop.create_window(attributes) {
            Ok(w) => Arc::new(w),
            Err(e) => {
                let failure = Failure::runtime(format!("cannot create the page's canvas: {e}"));
                show_failure(&failure.message);
                return app.fail(event_loop, failure);
            }
        };
        if let Some(canvas) = window.canvas() {
            // The page's one canvas takes the keys at once; a view of the book's waits to be
            // clicked, so that the book does not scroll to it.
            if !app.demo.framed() {
                let _ = canvas.focus();
            }
            if let Some(proxy) = &app.target.proxy {
                listen_for_context_loss(&canvas, proxy);
            }
        }
        app.ask_for_gpu(window);
    }

    /// The GPU has answered: the loop starts, or the page says why it cannot.
    fn gpu_ready(app: &mut App, event_loop: &ActiveEventLoop) {
        let Some(answer) = app.target.gpu.borrow_mut().take() else {
            return;
        };
        let away = app.target.away.take();
        match (answer, away, app.window.take()) {
            (Ok(gfx), Some(away), Some(mut w)) => {
                let old = std::mem::replace(&mut w.gfx, gfx);
                app.count_lost_device(&old, w.window_system);
                if old.gpu.adapter.get_info().backend == wgpu::Backend::Gl {
                    // Its objects went with the lost context; deleting them from the
                    // restored one only makes WebGL warn, once for each. A context is
                    // lost rarely: what is left of them in memory is let go.
                    std::mem::forget(old);
                }
                app.device_replaced(w, away.since);
                app.target.back = Some(away);
                show_gpu_away(None);
                app.phase = Phase::Idle {
                    wake: looplab_timing::Wake::Immediately,
                    since: app.clock.now(),
                };
            }
            (Err(message), Some(_), _) => {
                show_gpu_away(None);
                let message = format!("the GPU was lost and no new one could be made: {message}");
                show_failure(&format!("Looplab cannot draw in this page: {message}"));
                app.fail(event_loop, Failure::runtime(message));
            }
            (Ok(gfx), _, _) => {
                log::info!(
                    "window: a browser page; requestAnimationFrame paces the loop, which \
                     cannot outrun the display, and a frame cap lets callbacks pass"
                );
                app.window_opened(gfx, WindowSystem::Browser, PacedBy::Browser);
            }
            (Err(message), None, _) => {
                show_failure(&format!("Looplab cannot draw in this page: {message}"));
                app.fail(event_loop, Failure::runtime(message));
            }
        }
    }

    /// `webglcontextlost`: the browser took the canvas's WebGL context.
    fn gpu_context_lost(app: &mut App) {
        app.gpu_went_away("the browser took its WebGL context");
    }

    /// `webglcontextrestored`: the context is back, empty; everything is made again in it.
    fn gpu_context_restored(app: &mut App) {
        app.ask_for_new_gpu();
    }

    /// What the event loop does between callbacks: wait for the next one (asked for while
    /// the loop runs), or for input while it rests.
    fn next_step(app: &mut App, event_loop: &ActiveEventLoop) -> ControlFlow {
        match app.phase {
            Phase::Idle { .. } | Phase::Drawing(_) if !app.target.asked => {
                if let Some(w) = &app.window {
                    w.gfx.window.request_redraw();
                    app.target.asked = true;
                }
            }
            Phase::Resting => app.apply_input(event_loop),
            _ => {}
        }
        ControlFlow::Wait
    }

    /// A frame callback of the browser's (`requestAnimationFrame`): the frame starts now,
    /// unless the strategy's wake time is still more than a quarter refresh away.
    fn redraw_requested(app: &mut App, event_loop: &ActiveEventLoop) {
        app.target.asked = false;
        // A WebGPU device lost (its `lost` promise, through wgpu's callback): a new one
        // can be asked for at once. A lost WebGL context waits for the browser's restore.
        // While away the old device is left alone: polled after a restore, its fences
        // belong to no context WebGL knows.
        if app.target.away.is_none() && app.window.as_ref().is_some_and(|w| w.gfx.gpu.is_lost()) {
            app.gpu_went_away("its WebGPU device was lost");
            app.ask_for_new_gpu();
        }
        if app.target.away.is_some() {
            return;
        }
        match app.phase {
            Phase::Drawing(_) => app.draw(),
            Phase::Idle { wake, since } => {
                let now = app.clock.now();
                let taken = app.target.callbacks.take(now, wake);
                if app.target.recent_callbacks.len() == PRESENTS_KEPT {
                    app.target.recent_callbacks.pop_front();
                }
                app.target.recent_callbacks.push_back((now, taken));
                app.measure_display(now);
                if !taken {
                    app.target.passed += 1;
                    return;
                }
                app.target.taken += 1;
                // The loop's own nap is to its wake time; a callback that came later than
                // that was the browser's lateness (a slow or throttled page), which counts
                // against the frame as a slow machine's would.
                if !app.start_frame(event_loop, Nap::before(wake, since, true)) {
                    return;
                }
                if matches!(app.phase, Phase::Drawing(_)) {
                    app.draw();
                }
            }
            _ => {}
        }
    }

    /// A page streams no recording.
    fn updates_ran(&mut self, _demo: &Demo) {}

    /// The overlay was laid out at `size`: checked as the layout tests check every screen.
    fn laid_out(&mut self, size: (u32, u32), texts: &[PlacedText], figures: ViewFigures) {
        self.figures = figures;
        if texts.is_empty() {
            return;
        }
        self.layout = Some(LayoutSeen {
            size,
            texts: texts.len(),
            faults: layout_faults(texts),
        });
    }

    /// The frame of `_plan` was presented at `now`.
    fn presented(
        app: &mut App,
        _plan: &FramePlan,
        _let_draw: Duration,
        now: Duration,
        _acquire: Duration,
    ) {
        if app.target.first_frame_ms.is_none() {
            app.target.first_frame_ms = web_sys::window()
                .and_then(|w| w.performance())
                .map(|p| p.now());
        }
        if app.target.presents.len() == PRESENTS_KEPT {
            app.target.presents.pop_front();
        }
        app.target.presents.push_back(now);
        if let Some(back) = app.target.back.take() {
            let ms = |since: Duration| now.saturating_sub(since).as_secs_f64() * 1e3;
            app.target.last_recovery = Some(RecoverySeen {
                loss_to_frame_ms: ms(back.since),
                asked_to_frame_ms: ms(back.asked.unwrap_or(back.since)),
            });
        }
    }

    /// The page was hidden: the callbacks stop, and the gap is no refresh.
    fn hidden(&mut self) {
        self.callbacks.pause();
        self.asked = false;
    }
}

/// Starts the window in the page: the browser runs the event loop from here on, and this
/// returns at once.
pub fn spawn(options: AppOptions, webgl_only: bool) -> Result<(), Failure> {
    let event_loop = EventLoop::<AppEvent>::with_user_event()
        .build()
        .map_err(|e| Failure::runtime(format!("cannot start the page's event loop: {e}")))?;
    let mut app = App::new(options, None, WallClock::start());
    app.target.proxy = Some(event_loop.create_proxy());
    app.target.backends = if webgl_only {
        wgpu::Backends::GL
    } else {
        wgpu::Backends::BROWSER_WEBGPU | wgpu::Backends::GL
    };
    let app = Rc::new(RefCell::new(app));
    RUNNING.with(|running| *running.borrow_mut() = Some(Rc::clone(&app)));
    event_loop.spawn_app(PageHandler(app));
    Ok(())
}

/// The run so far as JSON ([`PageStats`]), or `null` before it has started.
pub fn stats_json() -> String {
    RUNNING.with(|running| match &*running.borrow() {
        Some(app) => match app.try_borrow() {
            Ok(app) => serde_json::to_string(&app.page_stats()).unwrap_or_default(),
            // Asked from inside the loop's own handler: not a state to report.
            Err(_) => "null".to_string(),
        },
        None => "null".to_string(),
    })
}

/// The tour's current stop as the book's embedded view shows it, as JSON
/// ([`lessons::LessonNow`]), or `null` off the tour and before the page has started.
pub fn lesson_json() -> String {
    RUNNING.with(|running| {
        let lesson = match &*running.borrow() {
            Some(app) => app
                .try_borrow()
                .ok()
                .and_then(|app| lessons::now(&app.demo, &app.target.figures)),
            None => None,
        };
        serde_json::to_string(&lesson).unwrap_or_default()
    })
}

/// What the book's view does to the running page: go to a stop, or press a key; false
/// when there is no page running or it is busy.
pub enum ViewCommand {
    /// Go to the page's stop with this id (as the view of it scrolls into sight).
    Visit(String),
    /// Press and let go of a key, named as the help names it (`Shift+R`, `A`).
    Press(String),
}

/// Does `command` to the running page, from the book's script; says why not where it
/// cannot (no such stop or key, or no page running).
pub fn command(command: ViewCommand) -> Result<(), String> {
    RUNNING.with(|running| {
        let running = running.borrow();
        let mut app = running
            .as_ref()
            .and_then(|app| app.try_borrow_mut().ok())
            .ok_or("the page has not started")?;
        let now = app.clock.now();
        match command {
            ViewCommand::Visit(id) => {
                let at = crate::tour::stops::for_a_page()
                    .iter()
                    .position(|s| s.id == id)
                    .ok_or_else(|| format!("no stop of a page's tour is {id:?}"))?;
                app.demo
                    .input()
                    .clicked([Action::Tour(TourKey::Visit(at))], now);
            }
            ViewCommand::Press(name) => {
                let key = key_named(&name).ok_or_else(|| format!("no key is named {name:?}"))?;
                let input = app.demo.input();
                input.key_with_shift(key.code, key.shift, true, now);
                input.key_with_shift(key.code, key.shift, false, now);
            }
        }
        Ok(())
    })
}

/// Shows `message` on the page (and in the console): how a failure reaches a person there.
pub fn show_failure(message: &str) {
    log::error!("{message}");
    if let Some(status) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(STATUS_ID))
    {
        status.set_text_content(Some(message));
    }
}

/// Shows `line` over the canvas while the GPU is away, or takes it down (`None`).
fn show_gpu_away(line: Option<&str>) {
    if let Some(element) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(GPU_AWAY_ID))
    {
        element.set_text_content(line);
    }
}

/// Hears the browser take the canvas's WebGL context and give it back. The loss is
/// answered with `preventDefault`: without it, the browser never restores the context.
fn listen_for_context_loss(canvas: &web_sys::HtmlCanvasElement, proxy: &EventLoopProxy<AppEvent>) {
    use wasm_bindgen::closure::Closure;
    for (name, event, prevent) in [
        ("webglcontextlost", AppEvent::GpuContextLost, true),
        ("webglcontextrestored", AppEvent::GpuContextRestored, false),
    ] {
        let proxy = proxy.clone();
        let listener = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            if prevent {
                e.prevent_default();
            }
            let _ = proxy.send_event(event);
        });
        let _ = canvas.add_event_listener_with_callback(name, listener.as_ref().unchecked_ref());
        // It listens for the page's life.
        listener.forget();
    }
}

/// Destroys the GPU device, as a driver reset or a crashed GPU process would take it:
/// a test hook (`looplabLoseDevice()`), for the WebGPU path, whose device has a `lost`
/// promise that `destroy` resolves.
pub fn lose_device() {
    RUNNING.with(|running| {
        if let Some(app) = &*running.borrow()
            && let Ok(app) = app.try_borrow()
            && let Some(w) = &app.window
        {
            log::warn!("looplabLoseDevice(): destroying the GPU device");
            w.gfx.gpu.device.destroy();
        }
    });
}

/// What the page shows of the run: `window.looplab.stats()` returns it, for the tests and
/// for anyone curious.
#[derive(Serialize)]
pub struct PageStats {
    /// The run as the native window's `--stats` writes it.
    pub run: StatsReport,
    /// The GPU backend: `webgpu` or `gl` (WebGL2), as wgpu names it.
    pub backend: Option<String>,
    /// From the page's navigation to its first frame on screen, ms.
    pub load_to_first_frame_ms: Option<f64>,
    /// The display's refresh as the frame callbacks measure it, ms.
    pub refresh_ms: f64,
    /// Frame callbacks that started a frame, and that were let pass (a frame cap).
    pub callbacks_taken: u64,
    pub callbacks_passed: u64,
    /// Intervals between the recent presented frames, ms, oldest first.
    pub present_intervals_ms: Vec<f64>,
    /// The recent frame callbacks, oldest first: when each came and whether it started a
    /// frame or was let pass.
    pub recent_callbacks: Vec<CallbackSeen>,
    /// Why the run stopped, when it failed.
    pub failure: Option<String>,
    /// The GPU is away now (taken from the page, not yet back).
    pub gpu_away: bool,
    /// The last time it came back.
    pub gpu_recovery: Option<RecoverySeen>,
    /// The last frame's layout, checked.
    pub layout: Option<LayoutSeen>,
}

/// A frame callback of the browser's, as [`PageStats`] reports it.
#[derive(Serialize)]
pub struct CallbackSeen {
    /// When it came, on the run's clock, ms.
    pub at_ms: f64,
    /// It started a frame (or was let pass: the frame's time had not come).
    pub taken: bool,
}

impl App {
    /// Asks for a GPU state for `window` without waiting: a new instance, adapter, device
    /// and surface, handed over by [`AppEvent::GpuReady`].
    fn ask_for_gpu(&mut self, window: Arc<winit::window::Window>) {
        let Some(proxy) = self.target.proxy.clone() else {
            return;
        };
        let slot = Rc::clone(&self.target.gpu);
        let backends = self.target.backends;
        let swapchain = (self.demo.knobs().present, self.demo.knobs().latency);
        wasm_bindgen_futures::spawn_local(async move {
            let instance =
                wgpu::util::new_instance_with_webgpu_detection(wgpu::InstanceDescriptor {
                    backends,
                    ..wgpu::InstanceDescriptor::new_without_display_handle()
                })
                .await;
            let gfx = Graphics::create(window, instance, swapchain, false, None).await;
            *slot.borrow_mut() = Some(gfx);
            let _ = proxy.send_event(AppEvent::GpuReady);
        });
    }

    /// The GPU was taken from the page (`why`): nothing is drawn until a new one answers,
    /// and a line over the canvas says so.
    fn gpu_went_away(&mut self, why: &str) {
        if self.target.away.is_some() || self.window.is_none() {
            return;
        }
        if let Phase::Drawing(frame) = self.phase {
            self.skip_frame(frame);
        }
        self.target.away = Some(GpuAway {
            since: self.clock.now(),
            asked: None,
        });
        log::warn!("{why}: nothing is drawn until the GPU comes back");
        show_gpu_away(Some(&format!(
            "The GPU was taken from this page ({why}).\nThe run goes on from here when it \
             comes back."
        )));
    }

    /// While the GPU is away: asks for a new one, once (for WebGL, only once the browser
    /// has given the context back).
    fn ask_for_new_gpu(&mut self) {
        let Some(w) = &self.window else {
            return;
        };
        let window = Arc::clone(&w.gfx.window);
        match &mut self.target.away {
            Some(away) if away.asked.is_none() => away.asked = Some(self.clock.now()),
            _ => return,
        }
        log::info!("asking for a new GPU device");
        self.ask_for_gpu(window);
    }

    /// A frame callback came at `now`: the callbacks measure the refresh, and once the page
    /// is past its start-up it is the display's (the page is never told it): snapped deltas
    /// snap to it.
    fn measure_display(&mut self, now: Duration) {
        let settled = self.target.taken >= CALLBACKS_TO_MEASURE;
        let Some(window) = self.window.as_mut() else {
            return;
        };
        let refresh = self.target.callbacks.refresh();
        if let Some(rate) = window.display.called_back(now, refresh, settled) {
            log::info!("display: {rate}, measured from the browser's frame callbacks");
            self.demo.set_display(rate);
        }
    }

    /// The failure that ended the run, if one did.
    fn failure(&self) -> Option<&Failure> {
        match &self.phase {
            Phase::Quitting { failure, .. } => failure.as_ref(),
            _ => None,
        }
    }

    fn page_stats(&self) -> PageStats {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let presents: Vec<Duration> = self.target.presents.iter().copied().collect();
        PageStats {
            run: self.stats_report(),
            backend: self
                .window
                .as_ref()
                .map(|w| w.gfx.gpu.adapter.get_info().backend.to_str().to_string()),
            load_to_first_frame_ms: self.target.first_frame_ms,
            refresh_ms: ms(self.target.callbacks.refresh()),
            callbacks_taken: self.target.taken,
            callbacks_passed: self.target.passed,
            present_intervals_ms: presents.windows(2).map(|p| ms(p[1] - p[0])).collect(),
            recent_callbacks: self
                .target
                .recent_callbacks
                .iter()
                .map(|&(at, taken)| CallbackSeen {
                    at_ms: ms(at),
                    taken,
                })
                .collect(),
            failure: self.failure().map(|f| f.message.clone()),
            gpu_away: self.target.away.is_some(),
            gpu_recovery: self.target.last_recovery,
            layout: self.target.layout.clone(),
        }
    }
}

/// Hands the browser's events to the app, which [`stats_json`] reads between them.
struct PageHandler(Rc<RefCell<App>>);

impl winit::application::ApplicationHandler<AppEvent> for PageHandler {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        self.0.borrow_mut().resumed(event_loop);
    }

    fn user_event(&mut self, event_loop: &ActiveEventLoop, event: AppEvent) {
        self.0.borrow_mut().user_event(event_loop, event);
    }

    fn window_event(
        &mut self,
        event_loop: &ActiveEventLoop,
        id: winit::window::WindowId,
        event: winit::event::WindowEvent,
    ) {
        self.0.borrow_mut().window_event(event_loop, id, event);
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        self.0.borrow_mut().about_to_wait(event_loop);
    }
}
