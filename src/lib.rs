//! Looplab: the classic game-loop strategies, made visible and measurable.
//!
//! - [`timing`]: the strategies as pure planners that turn timestamps into decisions
//!   (how many updates, what to draw, when to wake), plus frame statistics.
//! - [`world`]: the deterministic bullet world, with the exact truth of where each bullet is.
//! - [`lab`]: headless experiments that run every strategy against modelled hardware.
//!
//! The window and the lab drive the same planner: the window with the real clock, the lab and
//! the tests with a manual one.

pub mod app;
pub mod bench;
pub mod cli;
pub mod input;
pub mod lab;
pub mod render;
pub mod session;
pub mod timing;
pub mod world;
