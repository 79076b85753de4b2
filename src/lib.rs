//! Looplab: the classic game-loop strategies, made visible and measurable.
//!
//! The strategies themselves are the `looplab-timing` crate: pure planners that turn
//! timestamps into decisions (how many updates, what to draw, when to wake). This crate is
//! the demonstration built on it:
//!
//! - [`failure`]: the one error a user can cause, as a line and an exit status.
//! - [`platform`]: what the app asks of the machine (wall clock, frame-cap wait, files,
//!   signals, process figures), each behind one small module a browser build swaps.
//! - [`world`]: the deterministic bullet world, with the exact truth of where each bullet is.
//! - [`session`]: a planner driving a world, shared by the window, the lab and the tests.
//! - [`tour`]: the guided tour's stops and the figures that show each stop's claim.
//! - [`capture`]: frame captures of real games, from the field's tools (PresentMon, OCAT,
//!   CapFrameX, FrameView, MangoHud), for the lab and the lanes to replay.
//! - [`view`]: how the loop's records look (the timeline's geometry and colours), shared by
//!   the window and the lab's plots.
//! - [`text`]: words shared by the window and the reports: the table writer, the strategies'
//!   and the settings' descriptions.
//! - [`metrics`]: the field's figures (average FPS, P1, the 1% low, animation error), each
//!   defined once, as the field's tools define it.
//! - [`hooks`]: the tests' and the bench's hidden options, off the frame path.
//! - [`render`]: the GPU drawing: sprites, the overlay's meshes, offscreen targets.
//! - [`lab`]: headless experiments that run every strategy against modelled hardware (one
//!   [`lab::machine::Machine`], which compare mode's lanes run too).
//! - [`app`]: the window: a driver that owns the window and the loop, and the demo it drives.
//! - [`bench`]: the real loop, measured.
//! - [`cli`]: the command line and `looplab motion`.
//! - [`web`]: the page's address as options, and (in a browser) its entry point.
//! - [`untrusted`]: every reader of what a person hands Looplab, in one list, for the fuzz
//!   targets and the property tests.
//!
//! The window and the lab drive the same planner: the window with the real clock, the lab and
//! the tests with a manual one. Imports run one way (`architecture.md` at the repository's
//! root draws the layers): the timing crate; failure, text and metrics; world and platform; session;
//! capture, view and hooks; render and lab; tour; app; bench; cli; web; untrusted.

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
