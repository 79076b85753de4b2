//! The driver: a winit `ApplicationHandler` that owns the loop. Input is stamped as it
//! arrives; natively each frame is planned in `about_to_wait` and its wake kept with
//! `ControlFlow::WaitUntil` and a precise last stretch, in a browser on the display's frame
//! callbacks (`requestAnimationFrame`).

use core::fmt;
use core::future::Future;
use core::pin::Pin;
use std::sync::Arc;

use looplab_timing::{
    DeltaMode, GameLoop, InputEvent, LoopSettings, Rate, RefreshEstimator, Strategy, Wake,
};
use winit::application::ApplicationHandler;
use winit::error::{EventLoopError, OsError};
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowAttributes, WindowId};

use crate::clock::WinitClock;
use crate::game::{Context, Game, Trigger};
use crate::pacing::Pacing;

/// How a game's start is kept until its window exists: an async function of the window (a
/// GPU is asked for with futures, and a page cannot block on one).
type Start<G> = Box<dyn FnOnce(Arc<Window>) -> Pin<Box<dyn Future<Output = G>>>>;

/// A run's settings, then [`run`](Driver::run): the window opens, the game starts, and the
/// driver runs the loop until the window closes (or Escape, or [`run_for`](Driver::run_for)
/// is up).
///
/// ```no_run
/// use looplab_timing::{LoopSettings, Rate, UpdateInput, View};
/// use looplab_winit::{Driver, Game};
///
/// struct Nothing;
/// impl Game for Nothing {
///     type Button = ();
///     fn update(&mut self, _: &UpdateInput<'_, ()>) {}
///     fn draw(&mut self, _: View) {}
/// }
///
/// let settings = LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ));
/// let pacing = Driver::new(settings).run(|_window| async { Nothing })?;
/// # Ok::<(), looplab_winit::RunError>(())
/// ```
#[derive(Debug)]
pub struct Driver {
    strategy: Strategy,
    settings: LoopSettings,
    attributes: WindowAttributes,
    escape_exits: bool,
    run_for: Option<core::time::Duration>,
}

impl Driver {
    /// A run of the interpolated strategy with `settings`, in a window titled "looplab",
    /// 960 by 540 logical pixels.
    pub fn new(settings: LoopSettings) -> Self {
        let attributes = Window::default_attributes()
            .with_title("looplab")
            .with_inner_size(winit::dpi::LogicalSize::new(960.0, 540.0));
        // In a page the window is a canvas, added to the document's body.
        #[cfg(target_arch = "wasm32")]
        let attributes =
            winit::platform::web::WindowAttributesExtWebSys::with_append(attributes, true);
        Self {
            strategy: Strategy::Interpolated,
            settings,
            attributes,
            escape_exits: true,
            run_for: None,
        }
    }

    /// Runs `strategy` instead.
    #[must_use]
    pub fn strategy(mut self, strategy: Strategy) -> Self {
        self.strategy = strategy;
        self
    }

    /// Titles the window.
    #[must_use]
    pub fn title(mut self, title: &str) -> Self {
        self.attributes = self.attributes.with_title(title);
        self
    }

    /// Opens the window with `attributes` (size, title, and in a page which canvas).
    #[must_use]
    pub fn window(mut self, attributes: WindowAttributes) -> Self {
        self.attributes = attributes;
        self
    }

    /// Whether Escape closes the window (it does unless told otherwise).
    #[must_use]
    pub fn escape_exits(mut self, exits: bool) -> Self {
        self.escape_exits = exits;
        self
    }

    /// Ends the run once the game has run this long (for demos and measurements).
    #[must_use]
    pub fn run_for(mut self, limit: core::time::Duration) -> Self {
        self.run_for = Some(limit);
        self
    }

    /// Opens the window, starts the game with `start` once the window exists, and runs
    /// the loop. Natively it returns when the run ends, with the pacing of the frames it
    /// presented. In a browser it returns `None` at once: the browser runs the loop from
    /// then on.
    pub fn run<G, F, Fut>(self, start: F) -> Result<Option<Pacing>, RunError>
    where
        G: Game,
        F: FnOnce(Arc<Window>) -> Fut + 'static,
        Fut: Future<Output = G> + 'static,
    {
        let event_loop = EventLoop::<Started<G>>::with_user_event()
            .build()
            .map_err(RunError::EventLoop)?;
        let start: Start<G> = Box::new(move |window| Box::pin(start(window)));
        let runner = Runner::new(self, start, &event_loop);
        #[cfg(not(target_arch = "wasm32"))]
        {
            let mut runner = runner;
            event_loop
                .run_app(&mut runner)
                .map_err(RunError::EventLoop)?;
            match runner.failed.take() {
                Some(error) => Err(error),
                None => Ok(Some(runner.pacing)),
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            winit::platform::web::EventLoopExtWebSys::spawn_app(event_loop, runner);
            Ok(None)
        }
    }
}

/// Why a run could not go on.
#[derive(Debug)]
#[non_exhaustive]
pub enum RunError {
    /// The event loop could not start or ended in error.
    EventLoop(EventLoopError),
    /// The window could not be opened.
    Window(OsError),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::EventLoop(e) => write!(f, "the event loop failed: {e}"),
            RunError::Window(e) => write!(f, "cannot open a window: {e}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::EventLoop(e) => Some(e),
            RunError::Window(e) => Some(e),
        }
    }
}

/// The game, once its start has finished (sent through the event loop in a page, where the
/// start runs as a future).
struct Started<G>(G);

/// A running game and its loop.
struct Running<G: Game> {
    game: G,
    game_loop: GameLoop<WinitClock, G::Button>,
}

/// The handler winit calls.
struct Runner<G: Game> {
    options: Driver,
    start: Option<Start<G>>,
    window: Option<Arc<Window>>,
    running: Option<Running<G>>,
    /// When the next frame starts.
    wake: Wake,
    /// Whether the frame last planned has been drawn (the next is not planned before).
    drawn: bool,
    /// The display's rate, from the frames presented at its pace.
    refresh: RefreshEstimator,
    /// The rate the monitor reports, until the frames have measured one.
    reported: Option<Rate>,
    pacing: Pacing,
    failed: Option<RunError>,
    #[cfg(not(target_arch = "wasm32"))]
    wait: looplab_timing::FrameWait,
    #[cfg(target_arch = "wasm32")]
    callbacks: looplab_timing::FrameCallbacks,
    #[cfg(target_arch = "wasm32")]
    proxy: winit::event_loop::EventLoopProxy<Started<G>>,
}

impl<G: Game> Runner<G> {
    fn new(options: Driver, start: Start<G>, event_loop: &EventLoop<Started<G>>) -> Self {
        #[cfg(not(target_arch = "wasm32"))]
        let _ = event_loop;
        Self {
            options,
            start: Some(start),
            window: None,
            running: None,
            wake: Wake::Immediately,
            drawn: true,
            refresh: RefreshEstimator::new(),
            reported: None,
            pacing: Pacing::default(),
            failed: None,
            #[cfg(not(target_arch = "wasm32"))]
            wait: looplab_timing::FrameWait::default(),
            #[cfg(target_arch = "wasm32")]
            callbacks: looplab_timing::FrameCallbacks::new(),
            #[cfg(target_arch = "wasm32")]
            proxy: event_loop.create_proxy(),
        }
    }

    /// The game has started: its loop's clock starts now.
    fn begin(&mut self, game: G) {
        let clock = WinitClock::start();
        let game_loop = GameLoop::new(clock, self.options.strategy, self.options.settings.clone());
        self.running = Some(Running { game, game_loop });
        if let Some(window) = &self.window {
            self.reported = window
                .current_monitor()
                .and_then(|m| m.refresh_rate_millihertz())
                .and_then(|mhz| Rate::hz(f64::from(mhz) / 1e3).ok());
            window.request_redraw();
        }
    }

    /// The display's rate as known: measured, else reported.
    fn display_rate(&self) -> Option<Rate> {
        self.refresh.rate().or(self.reported)
    }

    /// Plans a frame at the clock's present and runs its updates; false when the run is
    /// over.
    fn plan(&mut self, event_loop: &ActiveEventLoop) -> bool {
        let Some(Running { game, game_loop }) = &mut self.running else {
            return false;
        };
        if self
            .options
            .run_for
            .is_some_and(|limit| game_loop.now() >= limit)
        {
            event_loop.exit();
            return false;
        }
        let plan = game_loop.frame(|input| game.update(input));
        self.wake = plan.wake;
        self.drawn = false;
        true
    }

    /// Draws the frame planned, blended for the present, and notes when it was handed over.
    fn draw(&mut self) {
        let (Some(window), Some(Running { game, game_loop })) = (&self.window, &mut self.running)
        else {
            return;
        };
        let view = game_loop.view();
        window.pre_present_notify();
        game.draw(view);
        let presented = game_loop.now();
        self.pacing.presented(presented);
        self.drawn = true;
        // Frames the display paced say its rate; a frame cap's say the cap's.
        #[cfg(not(target_arch = "wasm32"))]
        if self.wake == Wake::Immediately {
            self.refresh.observe(presented);
        }
        self.follow_display();
    }

    /// A snapped delta follows the display's rate as it is measured.
    fn follow_display(&mut self) {
        let Some(rate) = self.display_rate() else {
            return;
        };
        let Some(Running { game_loop, .. }) = &mut self.running else {
            return;
        };
        let settings = game_loop.planner().settings();
        if let DeltaMode::Snapped { refresh, tolerance } = settings.delta_mode
            && (refresh.as_hz() - rate.as_hz()).abs() > rate.as_hz() * 1e-4
        {
            let settings = settings.clone().with_delta_mode(DeltaMode::Snapped {
                refresh: rate,
                tolerance,
            });
            game_loop.planner_mut().set_settings(settings);
        }
    }

    /// A button's press or release, stamped now.
    fn button(&mut self, trigger: Trigger<'_>, state: ElementState) {
        let Some(Running { game, game_loop }) = &mut self.running else {
            return;
        };
        if let Some(button) = game.button(trigger) {
            let event = match state {
                ElementState::Pressed => InputEvent::Press,
                ElementState::Released => InputEvent::Release,
            };
            game_loop.push(button, event, game_loop.now());
        }
    }

    /// Opens the window and starts the game (natively at once; in a page as a future whose
    /// game arrives as a user event).
    fn open(&mut self, event_loop: &ActiveEventLoop) {
        let window = match event_loop.create_window(self.options.attributes.clone()) {
            Ok(window) => Arc::new(window),
            Err(e) => {
                self.failed = Some(RunError::Window(e));
                return event_loop.exit();
            }
        };
        self.window = Some(Arc::clone(&window));
        let Some(start) = self.start.take() else {
            return;
        };
        #[cfg(not(target_arch = "wasm32"))]
        self.begin(pollster::block_on(start(window)));
        #[cfg(target_arch = "wasm32")]
        {
            let proxy = self.proxy.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let _ = proxy.send_event(Started(start(window).await));
            });
        }
    }
}

impl<G: Game> ApplicationHandler<Started<G>> for Runner<G> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_none() {
            self.open(event_loop);
        }
    }

    fn user_event(&mut self, _: &ActiveEventLoop, started: Started<G>) {
        self.begin(started.0);
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match &event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::KeyboardInput { event: key, .. } => {
                if self.options.escape_exits
                    && key.state == ElementState::Pressed
                    && key.logical_key == Key::Named(NamedKey::Escape)
                {
                    event_loop.exit();
                }
                if !key.repeat {
                    self.button(Trigger::Key(key), key.state);
                }
            }
            WindowEvent::MouseInput { state, button, .. } => {
                self.button(Trigger::Mouse(*button), *state);
            }
            WindowEvent::Resized(size) if size.width > 0 && size.height > 0 => {
                if let Some(Running { game, .. }) = &mut self.running {
                    game.resized(*size);
                }
            }
            WindowEvent::RedrawRequested => self.redraw(event_loop),
            _ => {}
        }
        let display_rate = self.display_rate();
        if let (Some(window), Some(Running { game, game_loop })) = (&self.window, &mut self.running)
        {
            let mut cx = Context {
                event_loop,
                window,
                game_loop,
                display_rate,
            };
            game.event(&event, &mut cx);
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        self.next_frame(event_loop);
    }
}

#[cfg(not(target_arch = "wasm32"))]
use winit::event_loop::ControlFlow;

#[cfg(not(target_arch = "wasm32"))]
impl<G: Game> Runner<G> {
    /// Natively the frame is planned once the last was drawn and its wake has come: the
    /// event loop sleeps until just before it (the margin learns how late the OS wakes),
    /// then turns without sleeping until it, so input that arrives meanwhile still reaches
    /// the frame.
    fn next_frame(&mut self, event_loop: &ActiveEventLoop) {
        let (Some(window), Some(running)) = (&self.window, &self.running) else {
            return;
        };
        if !self.drawn {
            return event_loop.set_control_flow(ControlFlow::Wait);
        }
        if let Wake::At(t) = self.wake {
            let clock = running.game_loop.clock();
            if let Some(wake) = self.wait.os_wake_on(clock, t) {
                let wake = clock.instant_at(wake);
                return event_loop.set_control_flow(ControlFlow::WaitUntil(wake));
            }
            if self.wait.spin_turn_on(clock, t) {
                return event_loop.set_control_flow(ControlFlow::Poll);
            }
            // The machine made this wait late: one uneven interval, not two.
            if self.wait.take_late().is_some()
                && let Some(running) = &mut self.running
            {
                running.game_loop.planner_mut().restart_deadlines();
            }
        }
        let window = Arc::clone(window);
        if self.plan(event_loop) {
            window.request_redraw();
        }
        event_loop.set_control_flow(ControlFlow::Wait);
    }

    fn redraw(&mut self, _: &ActiveEventLoop) {
        if !self.drawn {
            self.draw();
        }
    }
}

#[cfg(target_arch = "wasm32")]
impl<G: Game> Runner<G> {
    /// In a page the display's frame callbacks drive the loop: nothing to do between them.
    fn next_frame(&mut self, _: &ActiveEventLoop) {}

    /// A frame callback: it starts a frame when the wake is due within it (a cap below the
    /// display's rate comes out in whole refreshes), and asks for the next.
    fn redraw(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = &self.running else {
            return;
        };
        let now = running.game_loop.now();
        if self.callbacks.take(now, self.wake) {
            if self.callbacks.measured() {
                let hz = 1.0 / self.callbacks.refresh().as_secs_f64();
                self.reported = Rate::hz(hz).ok();
            }
            if !self.plan(event_loop) {
                return;
            }
            self.draw();
        }
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }
}
