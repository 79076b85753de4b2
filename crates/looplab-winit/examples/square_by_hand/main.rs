//! The `square` example's game with its loop written out on `looplab-timing`, for a game
//! that owns its winit handler: a square bouncing across a window, updated 20 times a
//! second and drawn up to 60 times a second between its last two states.
//!
//! `cargo run --release -p looplab-winit --example square_by_hand` (Esc quits); `-- 3` quits
//! after three seconds and prints how evenly the frames came, measured as `looplab-winit`
//! measures its own. The loop is all here; `../square/draw.rs` puts the square on screen.

#[path = "../square/draw.rs"]
mod draw;

use std::sync::Arc;
use std::time::Duration;

use looplab_timing::{FrameWait, LoopSettings, Planner, Rate, Strategy, SystemClock, Wake};
use looplab_winit::Pacing;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

use draw::{Gpu, SIZE};

/// The game's state: where the square is and where it is going, in pixels.
#[derive(Clone, Copy)]
struct Square {
    x: f32,
    velocity: f32,
}

impl Square {
    /// One fixed step of the game: move, and bounce off the window's sides.
    fn update(&mut self, step: Duration, width: f32) {
        self.x += self.velocity * step.as_secs_f32();
        if self.x < 0.0 || self.x > width - SIZE {
            self.velocity = -self.velocity;
            self.x = self.x.clamp(0.0, (width - SIZE).max(0.0));
        }
    }
}

struct App {
    clock: SystemClock,
    planner: Planner,
    wait: FrameWait,
    wake: Wake,
    previous: Square,
    current: Square,
    window: Option<Arc<Window>>,
    gpu: Option<Gpu>,
    quit_after: Option<Duration>,
    pacing: Pacing,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.gpu.is_none() {
            let attributes =
                Window::default_attributes().with_title("looplab-timing: square by hand");
            let window = Arc::new(event_loop.create_window(attributes).expect("a window"));
            self.window = Some(Arc::clone(&window));
            self.gpu = Some(pollster::block_on(Gpu::new(window)));
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let (Some(window), Some(gpu)) = (&self.window, &mut self.gpu) else {
            return;
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::KeyboardInput { event, .. }
                if event.logical_key == Key::Named(NamedKey::Escape) =>
            {
                event_loop.exit()
            }
            WindowEvent::Resized(size) if size.width > 0 && size.height > 0 => {
                gpu.resize(size.width, size.height);
            }
            WindowEvent::RedrawRequested => {
                // The redraw comes a little after the frame was planned: blend for now.
                let view = self.planner.view_at(self.clock.now());
                let step = self.planner.settings().step();
                let x = view.apply(self.previous.x, self.current.x, self.current.velocity, step);
                window.pre_present_notify();
                gpu.draw(x);
                self.pacing.presented(self.clock.now());
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let (Some(window), Some(gpu)) = (&self.window, &self.gpu) else {
            return;
        };
        if let Wake::At(t) = self.wake {
            // Let the event loop sleep until just before the deadline (the margin learns how
            // late the OS wakes), then spin the rest through the event loop, a turn at a
            // time, so a key that arrives meanwhile still reaches this frame.
            if let Some(wake) = self.wait.os_wake_on(&self.clock, t) {
                let wake = self.clock.instant_at(wake);
                return event_loop.set_control_flow(ControlFlow::WaitUntil(wake));
            }
            if self.wait.spin_turn_on(&self.clock, t) {
                return event_loop.set_control_flow(ControlFlow::Poll);
            }
            // The machine made this wait late: one uneven interval, not two.
            if self.wait.take_late().is_some() {
                self.planner.restart_deadlines();
            }
        }
        let now = self.clock.now();
        if self.quit_after.is_some_and(|limit| now >= limit) {
            println!("{}", self.pacing);
            return event_loop.exit();
        }
        let plan = self.planner.plan_frame(now);
        for _ in 0..plan.updates {
            self.previous = self.current;
            self.current.update(plan.step, gpu.width());
        }
        self.wake = plan.wake;
        window.request_redraw();
        event_loop.set_control_flow(ControlFlow::Wait);
    }
}

fn main() {
    let quit_after = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .map(Duration::from_secs_f64);
    // Interpolated at 20 updates a second, capped at 60 frames a second.
    let settings = LoopSettings::default()
        .with_update_rate(Rate::hz(20.0).unwrap())
        .with_frame_cap(Some(Rate::SIXTY_HZ));
    let start = Square {
        x: 0.0,
        velocity: 400.0,
    };
    let mut app = App {
        clock: SystemClock::start(),
        planner: Planner::new(Strategy::Interpolated, settings),
        wait: FrameWait::default(),
        wake: Wake::Immediately,
        previous: start,
        current: start,
        window: None,
        gpu: None,
        quit_after,
        pacing: Pacing::default(),
    };
    EventLoop::new()
        .expect("an event loop")
        .run_app(&mut app)
        .expect("the event loop ran");
}
