//! Looplab: the classic game-loop strategies, made visible and measurable.
//!
//! The strategies themselves are the `looplab-timing` crate: pure planners that turn
//! timestamps into decisions (how many updates, what to draw, when to wake). This crate is
//! the demonstration built on it.
//!
//! The window and the lab drive the same planner: the window with the real clock, the lab and
//! the tests with a manual one. The modules, the layers they sit in (imports run one way,
//! from the timing crate up to `untrusted`) and what each holds are mapped once, in
//! `architecture.md` at the repository's root; each module's own docs say the rest.

pub mod app;
pub mod bench;
pub mod capture;
pub mod cli;
pub mod failure;
pub mod hooks;
pub mod lab;
pub mod metrics;
pub mod platform;
pub mod render;
pub mod session;
pub mod text;
pub mod tour;
pub mod untrusted;
pub mod view;
pub mod web;
pub mod world;
