//! Looplab: the classic game-loop strategies, made visible and measurable.
//!
//! The strategies themselves are the `looplab-timing` crate: pure planners that turn
//! timestamps into decisions (how many updates, what to draw, when to wake). This crate is
//! the demonstration built on it:
//!
//! - [`world`]: the deterministic bullet world, with the exact truth of where each bullet is.
//! - [`session`]: a planner driving a world, shared by the window, the lab and the tests.
//! - [`render`] and [`app`]: the window, its GPU drawing and its overlay and keys.
//! - [`lab`]: headless experiments that run every strategy against modelled hardware.
//! - [`bench`]: the real loop, measured.
//!
//! The window and the lab drive the same planner: the window with the real clock, the lab and
//! the tests with a manual one. Imports run one way: timing, then world, session, render and
//! lab, app and bench, cli.

pub mod app;
pub mod bench;
pub mod cli;
pub mod failure;
pub mod hooks;
pub mod input;
pub mod lab;
pub mod motion;
pub mod platform;
pub mod render;
pub mod serde_ids;
pub mod session;
pub mod settings_text;
pub mod strategy_text;
pub mod testkit;
pub mod world;
