//! The world update's cost, and the render tick's copy and partial update beside it.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::bench::measure::median;
use crate::world::{World, WorldConfig};
use looplab_timing::LoopSettings;

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
