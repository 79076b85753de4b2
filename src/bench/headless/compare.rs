//! Compare mode's lanes against the single view, offscreen, the same bullets in all.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::app::compose::{Composer, FrameInputs, Readouts};
use crate::app::controls::Knobs;
use crate::app::overlay::WindowFacts;
use crate::bench::measure::median;
use crate::lab::compare::{Compare, Preset};
use crate::render::gpu::Gpu;
use crate::render::offscreen::OffscreenTarget;
use crate::render::painter::Painter;
use crate::session::Session;
use crate::session::frame::FrameRecord;
use crate::world::WorldConfig;
use looplab_timing::{LoopSettings, Rate, Strategy};

/// Compare mode against the single view at the same number of bullets in all.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareResult {
    /// The compare preset, or `None` for the single view.
    pub preset: Option<Preset>,
    pub lanes: usize,
    pub bullets_per_lane: usize,
    pub frames: usize,
    pub fps: f64,
    /// Median wall time of a whole frame (simulation, composition, drawing, GPU), ms.
    pub frame_ms: f64,
}

impl CompareResult {
    /// `single view` or the preset's id.
    pub fn view(&self) -> &'static str {
        self.preset.map_or("single view", Preset::id)
    }
}

/// Renders `total` bullets offscreen at 1280x720 for about `seconds`, as the single view
/// (captions and timeline, overlay hidden) or as compare mode's `preset` (the bullets
/// shared among its lanes), advancing the loop by a sixtieth of a second of modelled time a
/// frame, so each frame also runs the updates the window would.
pub fn compare_offscreen(
    gpu: &Gpu,
    preset: Option<Preset>,
    total: usize,
    seconds: f64,
) -> Result<CompareResult, String> {
    let (width, height) = (1280, 720);
    let mut painter = Painter::new(&gpu.device, &gpu.queue, OffscreenTarget::FORMAT, false)?;
    let target = OffscreenTarget::new(&gpu.device, width, height);
    let settings = LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ));
    let lanes = preset.map_or(1, |p| p.lanes().len());
    let world = WorldConfig {
        seed: 1,
        bullets: total / lanes,
    };
    let mut session = Session::new(Strategy::Interpolated, settings.clone(), &world);
    let knobs = Knobs {
        overlay: false,
        compare: preset,
        ..Knobs::default()
    };
    let mut compare = preset.map(|p| Compare::new(p, &settings, &world, Duration::ZERO));
    let facts = WindowFacts::offscreen(wgpu::PresentMode::Immediate);
    let mut composer = Composer::headless();
    let mut readouts = Readouts::default();
    let period = Rate::SIXTY_HZ.period();
    let mut now = Duration::ZERO;
    let mut frame = |painter: &mut Painter| -> Result<f64, String> {
        let t = Instant::now();
        now += period;
        let plan = session.frame(now, |_, _| {});
        readouts.history.push(FrameRecord {
            update_time: Duration::from_micros(200),
            presented: Some(now + Duration::from_millis(5)),
            ..session.record(&plan)
        });
        if let Some(c) = &mut compare {
            c.advance_to(now);
        }
        let inputs = FrameInputs::new(&session, &knobs, &plan, &readouts, &facts)
            .with_lanes(compare.as_ref(), now);
        let composed = composer.compose(&inputs, None, (width, height));
        let painted = painter.paint(
            &gpu.device,
            &gpu.queue,
            &target.view,
            (width, height),
            &composed.sprites,
            composed.words.map(|w| w.paint),
        );
        gpu.queue.submit(painted.commands);
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("waiting for the GPU: {e}"))?;
        Ok(t.elapsed().as_secs_f64() * 1e3)
    };
    for _ in 0..10 {
        frame(&mut painter)?;
    }
    let mut times = Vec::new();
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds || times.len() < 10 {
        times.push(frame(&mut painter)?);
    }
    let elapsed = start.elapsed().as_secs_f64();
    Ok(CompareResult {
        preset,
        lanes,
        bullets_per_lane: world.bullets,
        frames: times.len(),
        fps: times.len() as f64 / elapsed,
        frame_ms: median(&times),
    })
}
