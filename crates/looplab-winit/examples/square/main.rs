//! A square bouncing across a window, updated 20 times a second and drawn up to 60 times a
//! second between its last two states; Space turns it round. The loop is `looplab-winit`'s:
//! this file is the game, `draw.rs` the wgpu that puts it on screen.
//!
//! `cargo run --release -p looplab-winit --example square` (Esc quits; `-- 3` quits after
//! three seconds and prints how evenly the frames came). In a browser: `cargo xtask web
//! example square`.

mod draw;

use looplab_winit::winit::keyboard::NamedKey;
use looplab_winit::{Driver, Game, LoopSettings, Rate, Trigger, UpdateInput, View};

#[derive(Clone, Copy, PartialEq)]
struct TurnRound;

struct Square {
    gpu: draw::Gpu,
    x: [f32; 2], // the state before the last update, and after it
    velocity: f32,
}

impl Game for Square {
    type Button = TurnRound;
    fn button(&self, trigger: Trigger<'_>) -> Option<TurnRound> {
        trigger.is(NamedKey::Space).then_some(TurnRound)
    }
    fn update(&mut self, input: &UpdateInput<'_, TurnRound>) {
        let right = self.gpu.width() - draw::SIZE;
        let x = self.x[1] + self.velocity * input.step().as_secs_f32();
        if (input.presses(TurnRound) % 2 == 1) != !(0.0..=right).contains(&x) {
            self.velocity = -self.velocity;
        }
        self.x = [self.x[1], x.clamp(0.0, right.max(0.0))];
    }
    fn draw(&mut self, view: View) {
        self.gpu.draw(view.lerp(self.x[0], self.x[1]));
    }
    fn resized(&mut self, size: looplab_winit::winit::dpi::PhysicalSize<u32>) {
        self.gpu.resize(size.width, size.height);
    }
}

fn main() -> Result<(), looplab_winit::RunError> {
    let settings = LoopSettings::default()
        .with_update_rate(Rate::hz(20.0).expect("20 Hz is a rate"))
        .with_frame_cap(Some(Rate::SIXTY_HZ));
    let mut driver = Driver::new(settings).title("looplab-winit: square");
    if let Some(seconds) = std::env::args().nth(1).and_then(|s| s.parse().ok()) {
        driver = driver.run_for(std::time::Duration::from_secs_f64(seconds));
    }
    #[cfg(target_arch = "wasm32")]
    console_error_panic_hook::set_once();
    let start = |window| async move {
        let gpu = draw::Gpu::new(window).await;
        Square {
            gpu,
            x: [0.0; 2],
            velocity: 400.0,
        }
    };
    if let Some(pacing) = driver.run(start)? {
        println!("{pacing}");
    }
    Ok(())
}
