//! The loop's own work, timed the same way natively and in a page: the planner planning
//! frames, and the world stepping. `looplab bench --kernel` runs it natively and the page's
//! `looplab.kernel()` in the browser's wasm; `cargo xtask web measure` sets one against the
//! other on the same machine.

use std::hint::black_box;
use std::time::Duration;

use looplab_timing::{LoopSettings, Planner, Strategy};
use serde::{Deserialize, Serialize};

use crate::platform::clock::Stopwatch;
use crate::world::{World, WorldConfig};

/// What one frame's planning and one update cost.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelCosts {
    /// One `plan_frame` and its updates' bookkeeping (interpolated, 60 UPS, frames a little
    /// over a step apart), nanoseconds.
    pub planner_frame_ns: f64,
    /// One update of a world of `bullets`, microseconds.
    pub world_update_us: f64,
    pub bullets: usize,
}

/// Rounds of each measurement; the fastest is kept (what the machine can do when nothing
/// else gets in the way).
const ROUNDS: usize = 5;

/// Times the planner and a world of `bullets`.
pub fn kernel(bullets: usize) -> KernelCosts {
    KernelCosts {
        planner_frame_ns: best(|| planner_round(200_000)) * 1e9,
        world_update_us: best(|| world_round(bullets, 2_000)) * 1e6,
        bullets,
    }
}

/// The fastest of the rounds, in seconds per item.
fn best(mut round: impl FnMut() -> f64) -> f64 {
    (0..ROUNDS).map(|_| round()).fold(f64::INFINITY, f64::min)
}

/// Seconds per frame over `frames` frames.
fn planner_round(frames: u32) -> f64 {
    let mut planner = Planner::new(Strategy::Interpolated, LoopSettings::default());
    // A little over 60 Hz, with a varying remainder, so the accumulator carries lag.
    let spacing = Duration::from_micros(16_900);
    let watch = Stopwatch::start();
    let mut updates = 0u64;
    for i in 0..frames {
        let now = spacing * i + Duration::from_micros(u64::from(i % 7) * 300);
        let plan = planner.plan_frame(black_box(now));
        updates += u64::from(plan.updates);
    }
    black_box(updates);
    watch.elapsed().as_secs_f64() / f64::from(frames)
}

/// Seconds per update over `steps` updates of a world of `bullets`.
fn world_round(bullets: usize, steps: u32) -> f64 {
    let mut world = World::new(&WorldConfig { seed: 1, bullets });
    let step = LoopSettings::default().step();
    let watch = Stopwatch::start();
    for _ in 0..steps {
        world.step(black_box(step));
    }
    black_box(&world);
    watch.elapsed().as_secs_f64() / f64::from(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_times_both_parts() {
        let costs = kernel(200);
        assert_eq!(costs.bullets, 200);
        assert!(costs.planner_frame_ns > 0.0 && costs.planner_frame_ns.is_finite());
        assert!(costs.world_update_us > 0.0 && costs.world_update_us.is_finite());
    }
}
