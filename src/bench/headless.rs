//! Measurements that need no display: pacing a loop with the real clock, the world update,
//! and sprite throughput rendered offscreen. The bench keeps its own stopwatch
//! (`std::time::Instant`): measuring this machine is its purpose.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::measure::{mean, median, percentile, stddev};
use crate::app::compose::{Composer, FrameInputs, Readouts};
use crate::app::controls::Knobs;
use crate::app::overlay::PlatformFacts;
use crate::lab::compare::{Compare, Preset};
use crate::render::gpu::Gpu;
use crate::render::offscreen::OffscreenTarget;
use crate::render::painter::Painter;
use crate::session::Session;
use crate::session::frame::{FrameRecord, RenderTimes};
use crate::world::{World, WorldConfig};
use looplab_timing::{
    FramePlan, FrameWait, LoopSettings, Rate, Strategy, SystemClock, WaitMode, Wake,
};

/// How precisely a frame cap held.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PacingResult {
    pub rate_hz: f64,
    /// How the wait for each deadline ended.
    #[serde(with = "crate::text::serde_ids::wait_mode")]
    pub mode: WaitMode,
    pub frames: usize,
    pub mean_interval_ms: f64,
    pub stddev_ms: f64,
    /// 99th percentile of |interval - target|.
    pub p99_error_ms: f64,
    /// Intervals more than [`STALL_MS`] off target: times the process did not run at all (a
    /// scheduler or hypervisor stall, or a frame that overran), not pacing error.
    pub stalls: usize,
    /// Standard deviation of the other intervals.
    pub stddev_without_stalls_ms: f64,
    /// Process CPU over the run, percent of one core.
    pub cpu_percent: f64,
}

impl PacingResult {
    /// Summarizes frame start times (in any clock's nanoseconds) and the CPU used.
    pub fn from_starts(
        rate_hz: f64,
        mode: WaitMode,
        starts_ns: &[u64],
        cpu: Duration,
        wall: Duration,
    ) -> Self {
        let intervals: Vec<f64> = starts_ns
            .windows(2)
            .map(|w| (w[1].saturating_sub(w[0])) as f64 / 1e6)
            .collect();
        let target = 1000.0 / rate_hz;
        let errors: Vec<f64> = intervals.iter().map(|i| (i - target).abs()).collect();
        let steady: Vec<f64> = intervals
            .iter()
            .copied()
            .filter(|i| (i - target).abs() <= STALL_MS)
            .collect();
        PacingResult {
            rate_hz,
            mode,
            frames: intervals.len(),
            mean_interval_ms: mean(&intervals),
            stddev_ms: stddev(&intervals),
            p99_error_ms: percentile(&errors, 99.0),
            stalls: intervals.len() - steady.len(),
            stddev_without_stalls_ms: stddev(&steady),
            cpu_percent: cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9) * 100.0,
        }
    }
}

/// An interval this far off target is a stall, not pacing error. On this kind of machine an
/// OS timer wakes a thread within 0.3 ms of the time asked for, except when the machine
/// takes the CPU away, and then it is 0.5 ms to several milliseconds late: measured over
/// 11,520 sleeps of each wait at 144 Hz, 2 wake-ups fell between 0.3 and 0.5 ms and 29 beyond
/// it, for the naive and the precise wait alike. No wait can make up for a CPU it does not
/// have, so these are counted apart from the wait's own error.
pub const STALL_MS: f64 = 0.5;

fn cpu_now() -> Duration {
    crate::platform::process::cpu_time().unwrap_or_default()
}

/// Runs the interpolated loop capped at `rate_hz` for `seconds` with a light world, waiting
/// for each deadline the way `mode` does (naive: one plain sleep to the deadline).
pub fn pacing(rate_hz: f64, mode: WaitMode, seconds: f64) -> PacingResult {
    let settings = LoopSettings::default().with_frame_cap(Rate::hz(rate_hz).ok());
    let mut session = Session::new(
        Strategy::Interpolated,
        settings,
        &WorldConfig {
            seed: 1,
            bullets: 200,
        },
    );
    let mut wait = FrameWait::new(mode);
    let clock = SystemClock::start();
    let end = Duration::from_secs_f64(seconds);
    let (cpu0, wall0) = (cpu_now(), Instant::now());
    let mut starts = Vec::new();
    while clock.now() < end {
        let now = clock.now();
        starts.push(now.as_nanos() as u64);
        let plan = session.frame(now, |_, _| {});
        session.measure_accuracy(&plan);
        if let Wake::At(t) = plan.wake {
            wait.sleep_until(clock.instant_at(t));
        }
    }
    PacingResult::from_starts(rate_hz, mode, &starts, cpu_now() - cpu0, wall0.elapsed())
}

/// One world update's cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldResult {
    pub bullets: usize,
    /// Median time of one update, milliseconds.
    pub update_ms: f64,
    pub bullet_steps_per_sec: f64,
}

/// Times `steps` updates of a world of `bullets` (after a warm-up) on this thread.
pub fn world_update(bullets: usize, steps: usize) -> WorldResult {
    let mut world = World::new(&WorldConfig { seed: 1, bullets });
    let step = LoopSettings::default().step();
    for _ in 0..10 {
        world.step(step);
    }
    let times: Vec<f64> = (0..steps)
        .map(|_| {
            let t = Instant::now();
            world.step(step);
            t.elapsed().as_secs_f64()
        })
        .collect();
    let m = median(&times);
    WorldResult {
        bullets,
        update_ms: m * 1e3,
        bullet_steps_per_sec: bullets as f64 / m,
    }
}

/// What the render tick adds to a frame: a copy of the world and one partial update of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RenderTickResult {
    pub bullets: usize,
    /// Median time to copy the world into the kept copy, milliseconds.
    pub copy_ms: f64,
    /// Median time of the copy's partial update (a third of a 60 Hz step), milliseconds.
    pub partial_update_ms: f64,
    /// Median of the two together, a frame's whole render-tick cost.
    pub total_ms: f64,
    /// Median time of one real update of the same world, measured in the same loop: the
    /// yardstick.
    pub update_ms: f64,
}

/// Times the render tick's work on a world of `bullets`, `frames` times, beside the real
/// update it rides along with.
pub fn render_tick_cost(bullets: usize, frames: usize) -> RenderTickResult {
    let mut world = World::new(&WorldConfig { seed: 1, bullets });
    let step = LoopSettings::default().step();
    for _ in 0..10 {
        world.step(step);
    }
    let mut copy = world.clone();
    let (mut copies, mut partials, mut totals, mut updates) = (vec![], vec![], vec![], vec![]);
    for _ in 0..frames {
        let t = Instant::now();
        world.step(step);
        let updated = Instant::now();
        copy.copy_from(&world);
        let copied = Instant::now();
        copy.step(step / 3);
        let done = Instant::now();
        updates.push((updated - t).as_secs_f64());
        copies.push((copied - updated).as_secs_f64());
        partials.push((done - copied).as_secs_f64());
        totals.push((done - updated).as_secs_f64());
    }
    let ms = |v: &[f64]| median(v) * 1e3;
    RenderTickResult {
        bullets,
        copy_ms: ms(&copies),
        partial_update_ms: ms(&partials),
        total_ms: ms(&totals),
        update_ms: ms(&updates),
    }
}

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

/// Renders `bullets` offscreen at 1280x720 with `variant` for about `seconds`, waiting for
/// the GPU after every frame (one frame in flight, as a swapchain would allow). Each frame
/// is composed by the window's own composer.
pub fn sprites_offscreen(
    gpu: &Gpu,
    bullets: usize,
    variant: SpriteVariant,
    seconds: f64,
) -> Result<ThroughputResult, String> {
    let (width, height) = (1280, 720);
    let mut painter = Painter::new(
        &gpu.device,
        &gpu.queue,
        OffscreenTarget::FORMAT,
        variant == SpriteVariant::Bare,
    )?;
    let target = OffscreenTarget::new(&gpu.device, width, height);
    let mut session = Session::new(
        Strategy::Interpolated,
        LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ)),
        &WorldConfig { seed: 1, bullets },
    );
    let (plan, readouts) = a_second_of_frames(&mut session);
    let facts = PlatformFacts::offscreen(wgpu::PresentMode::Immediate);
    let (knobs, mut composer) = composition(variant);
    let mut samples: Vec<[f64; 4]> = Vec::new();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    // Each frame is composed as the window composes it: the strip, the shapes, the words.
    let mut run_frame = |painter: &mut Painter| -> Result<[f64; 4], String> {
        let t = Instant::now();
        let inputs = FrameInputs::new(&session, &knobs, &plan, &readouts, &facts);
        let frame = composer.compose(&inputs, None, (width, height));
        let compose_ms = ms(t.elapsed());
        let painted = painter.paint(
            &gpu.device,
            &gpu.queue,
            &target.view,
            (width, height),
            &frame.sprites,
            frame.words.map(|w| w.paint),
        );
        let t = Instant::now();
        gpu.queue.submit(painted.commands);
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("waiting for the GPU: {e}"))?;
        Ok([
            compose_ms,
            ms(painted.timings.upload),
            ms(painted.timings.encode),
            ms(t.elapsed()),
        ])
    };
    for _ in 0..5 {
        run_frame(&mut painter)?;
    }
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds || samples.len() < 10 {
        samples.push(run_frame(&mut painter)?);
    }
    let elapsed = start.elapsed().as_secs_f64();
    let column = |k: usize| median(&samples.iter().map(|s| s[k]).collect::<Vec<_>>());
    Ok(ThroughputResult {
        bullets,
        variant,
        target: DrawTarget::Offscreen,
        frames: samples.len(),
        fps: samples.len() as f64 / elapsed,
        acquire_ms: 0.0,
        overlay_ms: column(0),
        upload_ms: column(1),
        encode_ms: column(2),
        present_ms: column(3),
    })
}

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
    let facts = PlatformFacts::offscreen(wgpu::PresentMode::Immediate);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pacing_summary_of_known_frame_starts() {
        // Starts every 16.7 and 16.3 ms alternately against a 60 Hz target.
        let starts: Vec<u64> = (0..101u64)
            .map(|i| i * 16_500_000 + (i % 2) * 200_000)
            .collect();
        let r = PacingResult::from_starts(
            60.0,
            WaitMode::Naive,
            &starts,
            Duration::from_millis(100),
            Duration::from_secs(1),
        );
        assert_eq!(r.frames, 100);
        assert!((r.mean_interval_ms - 16.5).abs() < 1e-9);
        assert!((r.stddev_ms - 0.2).abs() < 1e-9);
        assert!((r.p99_error_ms - (1000.0 / 60.0 - 16.3)).abs() < 1e-9);
        assert!((r.cpu_percent - 10.0).abs() < 1e-9);
        assert_eq!(r.stalls, 0);
        // 0.6 ms off is a stall (the CPU was away), 0.4 ms is not.
        let starts = [0, 16_666_667 + 600_000, 33_333_333 + 200_000, 50_000_000];
        let r = PacingResult::from_starts(
            60.0,
            WaitMode::Naive,
            &starts,
            Duration::ZERO,
            Duration::from_secs(1),
        );
        assert_eq!(r.stalls, 1, "intervals 0.6, 0.4 and 0.2 ms off");

        // One 10 ms stall (and the short frame after it that keeps the grid).
        let mut starts: Vec<u64> = (0..100u64).map(|i| i * 16_666_667).collect();
        for s in starts.iter_mut().skip(50) {
            *s += 10_000_000;
        }
        let r = PacingResult::from_starts(
            60.0,
            WaitMode::Precise,
            &starts,
            Duration::ZERO,
            Duration::from_secs(1),
        );
        assert_eq!(r.stalls, 1);
        assert!(r.stddev_ms > 0.9 && r.stddev_without_stalls_ms < 1e-6);
    }
}
