//! Measurements that need no display: pacing a loop with the real clock, the world update,
//! and sprite throughput rendered offscreen. The bench keeps its own stopwatch
//! (`std::time::Instant`): measuring this machine is its purpose.

mod compare;
mod pacing;
mod sprites;
mod world;

pub use compare::{CompareResult, compare_offscreen};
pub use pacing::{PacedFrame, PacingPair, PacingResult, STALL_MS, StallCauses, WaitEnd, pacing};
pub use sprites::{
    CYCLES_A_GROUP, DrawTarget, SpriteSpread, SpriteVariant, ThroughputResult, interleaved_spread,
    sprites_offscreen,
};
pub use world::{RenderTickResult, WorldResult, render_tick_cost, world_update};
