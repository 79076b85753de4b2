//! The smallest window on `looplab-winit`: a square crossing it, updated 20 times a second
//! and drawn at a 60 Hz cap between its last two states, into a CPU pixel buffer. Esc quits.
//! `cargo run --release -p looplab-winit --example minimal`
use looplab_timing::{LoopSettings, Rate, UpdateInput, View};
use looplab_winit::{Driver, Game, winit::window::Window};
use std::{num::NonZeroU32, sync::Arc};

type Surface = softbuffer::Surface<Arc<Window>, Arc<Window>>;
struct Square(Surface, [f32; 2]); // the pixels, and how far it went before and after an update

impl Game for Square {
    type Button = ();
    fn update(&mut self, input: &UpdateInput<'_, ()>) {
        self.1 = [self.1[1], self.1[1] + 300.0 * input.step().as_secs_f32()];
    }
    fn draw(&mut self, view: View) {
        let size = self.0.window().inner_size();
        let [w, h] =
            [size.width, size.height].map(|n| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN));
        self.0
            .resize(w, h)
            .expect("a pixel buffer the size of the window");
        let mut pixels = self.0.buffer_mut().expect("the window's pixels");
        pixels.fill(0x10121c);
        let (x, w) = (view.lerp(self.1[0], self.1[1]) as usize, w.get() as usize);
        for start in (0..80).map(|y| (y + (h.get() as usize / 2).saturating_sub(40)) * w + x % w) {
            if let Some(run) = pixels.get_mut(start..start + 80) {
                run.fill(0xffbf33);
            }
        }
        pixels.present().expect("the frame shown");
    }
}

fn main() -> Result<(), looplab_winit::RunError> {
    let settings = LoopSettings::default().with_update_rate(Rate::hz(20.0).expect("a rate"));
    let driver = Driver::new(settings.with_frame_cap(Some(Rate::SIXTY_HZ)));
    driver.run(|window| async move {
        let context = softbuffer::Context::new(Arc::clone(&window)).expect("a display");
        Square(
            Surface::new(&context, window).expect("a pixel buffer"),
            [0.0; 2],
        )
    })?;
    Ok(())
}
