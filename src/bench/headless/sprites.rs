//! Sprite throughput offscreen: each renderer drawing the same frames in turn, and each
//! one's ratio to the bare renderer with its spread.

use crate::metrics::frame_times::FrameTimeFigures;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::app::compose::{Composer, FrameInputs, Readouts};
use crate::app::controls::Knobs;
use crate::app::overlay::WindowFacts;
use crate::bench::measure::{Spread, bootstrap, median};
use crate::render::gpu::Gpu;
use crate::render::offscreen::OffscreenTarget;
use crate::render::painter::Painter;
use crate::session::Session;
use crate::session::frame::{FrameRecord, RenderTimes};
use crate::world::WorldConfig;
use looplab_timing::{FramePlan, LoopSettings, Rate, Strategy};

/// What draws the bullets in a throughput run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SpriteVariant {
    /// The sprite path: bullets and bodies, no words, no timeline, overlay hidden.
    Sprites,
    /// The sprite path with the captions and the timeline strip, overlay hidden (offscreen
    /// only: in the window the captions and the strip are always drawn).
    Story,
    /// Everything: captions, timeline strip and the overlay.
    SpritesOverlay,
    /// The bare instanced renderer.
    Bare,
}

impl SpriteVariant {
    pub fn label(self) -> &'static str {
        match self {
            SpriteVariant::Sprites => "sprites",
            SpriteVariant::Story => "+captions+timeline",
            SpriteVariant::SpritesOverlay => "sprites+overlay",
            SpriteVariant::Bare => "bare",
        }
    }
}

/// Where a throughput run drew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawTarget {
    /// A texture, waiting for the GPU after every frame.
    Offscreen,
    /// The app's own window.
    Window,
}

/// Frames per second and where a frame's time went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThroughputResult {
    pub bullets: usize,
    pub variant: SpriteVariant,
    pub target: DrawTarget,
    pub frames: usize,
    pub fps: f64,
    /// The field's figures of its frame times (CapFrameX's: the 1% low among them).
    #[serde(default)]
    pub frame_times: FrameTimeFigures,
    /// Medians per frame, milliseconds: acquiring the surface texture (window only), the
    /// words (egui; offscreen also the strip and shapes), uploads, encoding, and
    /// submit-to-done (offscreen: submit and wait
    /// for the GPU; window: submit and present).
    pub acquire_ms: f64,
    pub overlay_ms: f64,
    pub upload_ms: f64,
    pub encode_ms: f64,
    pub present_ms: f64,
}

/// A second of frames as a window capped at 60 Hz makes them (a wait, an update, the
/// drawing, the present, the deadline), so that the timeline strip has its usual content:
/// the last frame's plan and the readouts with their history.
fn a_second_of_frames(session: &mut Session) -> (FramePlan, Readouts) {
    let mut readouts = Readouts::default();
    let mut plan = session.frame(Duration::ZERO, |_, _| {});
    for i in 1..=60 {
        let start = Duration::from_nanos(16_666_667 * i);
        plan = session.frame(start, |_, _| {});
        readouts.history.push(FrameRecord {
            waited: Duration::from_millis(11),
            update_time: Duration::from_micros(200),
            inputs: u32::from(i % 20 == 0),
            render: RenderTimes {
                present: Duration::from_millis(1),
                ..RenderTimes::default()
            },
            presented: Some(start + Duration::from_millis(5)),
            ..session.record(&plan)
        });
    }
    (plan, readouts)
}

/// What a variant draws: the knobs of the window that shows it, and the composer with its
/// words or without them.
fn composition(variant: SpriteVariant) -> (Knobs, Composer) {
    let story = matches!(
        variant,
        SpriteVariant::Story | SpriteVariant::SpritesOverlay
    );
    let knobs = Knobs {
        overlay: variant == SpriteVariant::SpritesOverlay,
        // The full panel: every row and the graph, the most the overlay draws.
        everything: variant == SpriteVariant::SpritesOverlay,
        timeline: story,
        ..Knobs::default()
    };
    let composer = if story {
        Composer::headless()
    } else {
        Composer::headless().without_words()
    };
    (knobs, composer)
}

/// One renderer drawing offscreen at 1280x720, frame after frame, each frame composed by
/// the window's own composer from the same second of frames.
struct OffscreenDrawer {
    painter: Painter,
    knobs: Knobs,
    composer: Composer,
}

impl OffscreenDrawer {
    /// `variant`'s painter and composition, drawing to an offscreen target.
    fn new(gpu: &Gpu, variant: SpriteVariant) -> Result<Self, String> {
        let (knobs, composer) = composition(variant);
        Ok(OffscreenDrawer {
            painter: Painter::new(
                &gpu.device,
                &gpu.queue,
                OffscreenTarget::FORMAT,
                variant == SpriteVariant::Bare,
            )?,
            knobs,
            composer,
        })
    }
}

/// The `k`th renderer's summary from the frames' times by cycle: its median frame's parts
/// and rate, and the frame-time figures of all its frames.
fn summary(
    bullets: usize,
    variant: SpriteVariant,
    cycles: &[Vec<FrameTimes>],
    k: usize,
) -> ThroughputResult {
    let column = |c: usize| median(&cycles.iter().map(|f| f[k][c]).collect::<Vec<_>>());
    ThroughputResult {
        bullets,
        variant,
        target: DrawTarget::Offscreen,
        frames: cycles.len(),
        // A frame after another with nothing between: the median frame's rate.
        fps: 1e3 / column(4).max(1e-9),
        frame_times: FrameTimeFigures::of(&cycles.iter().map(|f| f[k][4]).collect::<Vec<_>>()),
        acquire_ms: 0.0,
        overlay_ms: column(0),
        upload_ms: column(1),
        encode_ms: column(2),
        present_ms: column(3),
    }
}

/// A frame's times, milliseconds: composing, uploading, encoding, submit-to-done (waiting
/// for the GPU), and the whole.
type FrameTimes = [f64; 5];

/// Renders `bullets` offscreen at 1280x720 with every renderer of `variants` in turn, frame
/// by frame (A B C A B C ...), for about `seconds` in all, waiting for the GPU after every
/// frame (one frame in flight, as a swapchain would allow). A moment of the machine falls
/// on every renderer alike, so their ratios hold where separate runs' do not. Returns each
/// renderer's summary, in the order of `variants`, and the frames' times by cycle.
pub fn sprites_offscreen(
    gpu: &Gpu,
    bullets: usize,
    variants: &[SpriteVariant],
    seconds: f64,
) -> Result<(Vec<ThroughputResult>, Vec<Vec<FrameTimes>>), String> {
    let (width, height) = (1280, 720);
    let target = OffscreenTarget::new(&gpu.device, width, height);
    let mut session = Session::new(
        Strategy::Interpolated,
        LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ)),
        &WorldConfig { seed: 1, bullets },
    );
    let (plan, readouts) = a_second_of_frames(&mut session);
    let facts = WindowFacts::offscreen(wgpu::PresentMode::Immediate);
    let mut drawers = variants
        .iter()
        .map(|&variant| OffscreenDrawer::new(gpu, variant))
        .collect::<Result<Vec<_>, String>>()?;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut run_frame = |d: &mut OffscreenDrawer| -> Result<FrameTimes, String> {
        let t = Instant::now();
        let inputs = FrameInputs::new(&session, &d.knobs, &plan, &readouts, &facts);
        let frame = d.composer.compose(&inputs, None, (width, height));
        let compose_ms = ms(t.elapsed());
        let painted = d.painter.paint(
            &gpu.device,
            &gpu.queue,
            &target.view,
            (width, height),
            &frame.sprites,
            frame.words.map(|w| w.paint),
        );
        let submitted = Instant::now();
        gpu.queue.submit(painted.commands);
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("waiting for the GPU: {e}"))?;
        Ok([
            compose_ms,
            ms(painted.timings.upload),
            ms(painted.timings.encode),
            ms(submitted.elapsed()),
            ms(t.elapsed()),
        ])
    };
    for _ in 0..3 {
        for d in &mut drawers {
            run_frame(d)?;
        }
    }
    let mut cycles: Vec<Vec<FrameTimes>> = Vec::new();
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds || cycles.len() < 10 {
        let cycle = drawers
            .iter_mut()
            .map(&mut run_frame)
            .collect::<Result<Vec<_>, String>>()?;
        cycles.push(cycle);
    }
    let results = variants
        .iter()
        .enumerate()
        .map(|(k, &variant)| summary(bullets, variant, &cycles, k))
        .collect();
    Ok((results, cycles))
}

/// A renderer against the bare one and against the sprites alone, from interleaved frames.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpriteSpread {
    pub bullets: usize,
    pub variant: SpriteVariant,
    /// Its median frame's rate over the bare renderer's.
    pub vs_bare: Spread,
    /// What its median frame takes beyond the sprites' alone, ms.
    pub added_ms: Spread,
}

/// Cycles of interleaved frames grouped for the bootstrap: a group is this many cycles in a
/// row, so a busy spell of the machine stays in one or two groups.
pub const CYCLES_A_GROUP: usize = 4;

/// The spread of `statistic` of the median frame times (the whole frame, ms) of the
/// renderers at `a` and `b` in interleaved `cycles`.
pub fn interleaved_spread(
    cycles: &[Vec<FrameTimes>],
    a: usize,
    b: usize,
    statistic: impl Fn(f64, f64) -> f64,
) -> Spread {
    let groups: Vec<&[Vec<FrameTimes>]> = cycles.chunks(CYCLES_A_GROUP).collect();
    bootstrap(&groups, |drawn| {
        let frame = |k: usize| -> Vec<f64> {
            drawn
                .iter()
                .flat_map(|g| g.iter().map(move |c| c[k][4]))
                .collect()
        };
        statistic(median(&frame(a)), median(&frame(b)))
    })
}
