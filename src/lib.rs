//! Looplab: the classic game-loop strategies, made visible and measurable.
//!
//! The strategies themselves are the `looplab-timing` crate: pure planners that turn
//! timestamps into decisions (how many updates, what to draw, when to wake). This crate is
//! the demonstration built on it:
//!
//! - [`platform`]: what the app asks of the machine (wall clock, frame-cap wait, files,
//!   process figures), each behind one small module a browser build swaps.
//! - [`world`]: the deterministic bullet world, with the exact truth of where each bullet is.
//! - [`session`]: a planner driving a world, shared by the window, the lab and the tests.
//! - [`capture`]: frame captures of real games, from the field's tools (PresentMon, OCAT,
//!   CapFrameX, FrameView, MangoHud), for the lab and the lanes to replay.
//! - [`render`] and [`app`]: the window, its GPU drawing, its frame composer, overlay and keys.
//! - [`lab`]: headless experiments that run every strategy against modelled hardware (one
//!   [`lab::machine::Machine`], which compare mode's lanes run too).
//! - [`bench`]: the real loop, measured.
//! - [`hooks`]: the tests' and the bench's hidden options, off the frame path.
//! - [`untrusted`]: every reader of user input in one list, for the fuzz targets and the
//!   property tests.
//!
//! The window and the lab drive the same planner: the window with the real clock, the lab and
//! the tests with a manual one. Imports run one way: timing and platform, then world, session,
//! render and lab, app and bench, cli (the renderer takes the hooks' surface faults, a leaf;
//! the key script, which reads the key table, is the app's).

pub mod app;
pub mod bench;
pub mod capture;
pub mod cli;
pub mod failure;
pub mod hooks;
pub mod lab;
pub mod motion;
pub mod page_args;
pub mod platform;
pub mod render;
pub mod session;
pub mod testkit;
pub mod text;
pub mod tour;
pub mod untrusted;
#[cfg(target_arch = "wasm32")]
pub mod web;
pub mod world;
