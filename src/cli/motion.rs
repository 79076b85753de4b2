//! `looplab motion`: the same few seconds of the scene, with the same steering, rendered
//! offscreen under each of several strategies, one PNG per frame. `scripts/motion.sh` stacks
//! them into the README's animation: catch-up and interpolated at 10 updates a second, seen
//! side by side, with no window and no person at the keys.
//!
//! The loop runs on a manual clock at a steady frame rate, so the pictures are the same on
//! every machine; each frame is the window's own (its composer and painter), with the
//! captions and the timeline strip, the overlay panel hidden.

use std::path::Path;
use std::time::Duration;

use looplab_timing::{LoopSettings, ManualClock, Rate, Strategy};

use crate::app::compose::{Composer, FrameInputs, Readouts};
use crate::app::controls::Knobs;
use crate::app::overlay::WindowFacts;
use crate::platform::files;
use crate::render::gpu::Gpu;
use crate::render::offscreen::{OffscreenTarget, render};
use crate::render::painter::Painter;
use crate::session::Session;
use crate::session::frame::FrameRecord;
use crate::world::WorldConfig;
use crate::world::ship::Steer;

/// What to render.
#[derive(Clone, Debug)]
pub struct MotionOptions {
    pub strategies: Vec<Strategy>,
    pub update_rate: Rate,
    /// Frames per second of the pictures (and of the modelled display).
    pub fps: u32,
    pub seconds: f64,
    /// Size of each picture.
    pub width: u32,
    pub height: u32,
    pub bullets: usize,
}

/// The steering the ship gets, the same for every strategy: from this many seconds, this
/// way, until the next entry.
const STEERING: [(f64, Steer); 6] = [
    (0.0, Steer { x: 0, y: 0 }),
    (0.3, Steer { x: 1, y: 0 }),
    (1.3, Steer { x: 0, y: -1 }),
    (1.8, Steer { x: -1, y: 0 }),
    (2.5, Steer { x: 0, y: 1 }),
    (2.9, Steer { x: 0, y: 0 }),
];

fn steer_at(t: f64) -> Steer {
    STEERING
        .iter()
        .rev()
        .find(|(from, _)| t >= *from)
        .map_or(Steer::NONE, |&(_, s)| s)
}

/// Renders every strategy's frames into `dir` as `STRATEGY-NNN.png`; returns how many
/// frames each has.
pub fn render_motion(options: &MotionOptions, dir: &Path) -> Result<usize, String> {
    let gpu = Gpu::headless()?;
    let frames = (options.seconds * f64::from(options.fps)).round().max(1.0) as usize;
    for &strategy in &options.strategies {
        render_strategy(&gpu, options, strategy, frames, dir)?;
    }
    Ok(frames)
}

fn render_strategy(
    gpu: &Gpu,
    options: &MotionOptions,
    strategy: Strategy,
    frames: usize,
    dir: &Path,
) -> Result<(), String> {
    let (width, height) = (options.width, options.height);
    let mut session = Session::new(
        strategy,
        LoopSettings::default().with_update_rate(options.update_rate),
        &WorldConfig {
            seed: 1,
            bullets: options.bullets,
        },
    );
    let knobs = Knobs {
        overlay: false,
        ..Knobs::default()
    };
    let facts = WindowFacts::offscreen(wgpu::PresentMode::Fifo);
    let mut painter = Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false)?;
    let target = OffscreenTarget::new(&gpu.device, width, height);
    let mut composer = Composer::headless();
    let mut readouts = Readouts::default();
    let mut clock = ManualClock::default();
    let interval = Duration::from_secs(1) / options.fps.max(1);
    for i in 0..frames {
        let now = clock.now();
        session.steer(steer_at(now.as_secs_f64()), now);
        let plan = session.frame(now, |_, _| {});
        let record = FrameRecord {
            presented: Some(now + interval / 4),
            ..session.record(&plan)
        };
        readouts.history.push(record);
        readouts.last = record;
        let inputs = FrameInputs::new(&session, &knobs, &plan, &readouts, &facts);
        let frame = composer.compose(&inputs, None, (width, height));
        let words = frame.words.map(|w| w.paint);
        render(gpu, &mut painter, &target, &frame.sprites, words)?;
        let pixels = target.read_rgba(gpu)?;
        let path = dir.join(format!("{}-{i:03}.png", strategy.id()));
        files::write_file("motion", &path, &encode_png(width, height, &pixels)?)
            .map_err(|f| f.to_string())?;
        clock.advance(interval);
    }
    Ok(())
}

/// RGBA pixels as PNG bytes.
fn encode_png(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder
            .write_header()
            .map_err(|e| format!("cannot encode PNG: {e}"))?;
        writer
            .write_image_data(rgba)
            .map_err(|e| format!("cannot encode PNG: {e}"))?;
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steering_follows_its_script() {
        assert_eq!(steer_at(0.1), Steer::NONE);
        assert_eq!(steer_at(0.3), Steer { x: 1, y: 0 });
        assert_eq!(steer_at(2.0), Steer { x: -1, y: 0 });
        assert_eq!(steer_at(9.0), Steer::NONE);
    }
}
