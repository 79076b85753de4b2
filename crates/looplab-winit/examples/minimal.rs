//! The smallest window on `looplab-winit`: a square crossing it, updated 20 times a second
//! and drawn at a 60 Hz cap between its last two states, into a CPU pixel buffer. Esc quits.
//! `cargo run --release -p looplab-winit --example minimal`
use looplab_winit::{Driver, Game, LoopSettings, Rate, UpdateInput, View, winit::window::Window};
use std::{num::NonZeroU32, sync::Arc};

/// The window's pixels, and how far the square had gone before and after the last update.
struct Square(softbuffer::Surface<Arc<Window>, Arc<Window>>, [f32; 2]);

impl Game for Square {
    type Button = ();
    fn update(&mut self, input: &UpdateInput<'_, ()>) {
        self.1 = [self.1[1], self.1[1] + 300.0 * input.step().as_secs_f32()];
    }
    fn draw(&mut self, view: View) {
        let (w, h) = self.0.window().inner_size().into();
        let [w, h] = [w, h].map(|n| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN));
        self.0.resize(w, h).expect("a pixel buffer");
        let (w, x) = (w.get() as usize, view.lerp(self.1[0], self.1[1]) as usize);
        let mut pixels = self.0.buffer_mut().expect("the window's pixels");
        pixels.fill(0x10121c);
        for row in pixels.chunks_mut(w).skip(80).take(80) {
            row[x % w..(x % w + 80).min(w)].fill(0xffbf33);
        }
        pixels.present().expect("the frame shown");
    }
}

fn main() -> Result<(), looplab_winit::RunError> {
    let settings = LoopSettings::default().with_update_rate(Rate::hz(20.0).expect("a rate"));
    Driver::new(settings.with_frame_cap(Some(Rate::SIXTY_HZ))).run(|window| async move {
        let context = softbuffer::Context::new(window.clone()).expect("a display");
        let surface = softbuffer::Surface::new(&context, window).expect("a pixel buffer");
        Square(surface, [0.0; 2])
    })?;
    Ok(())
}
