//! What the app asks of the machine it runs on, each behind one small module: the wall
//! clock, the frame-cap wait, files, and the process's CPU time and memory. Nothing else in
//! the app reads a real clock, sleeps, touches a file or looks at `/proc`, so a build for a
//! platform without them (a browser page, where the page owns the loop, time comes from
//! `performance.now()` and nothing may block) changes these modules and keeps the rest:
//! here, `cfg(target_arch = "wasm32")` gives the clock web-time's `Instant`, the frame-cap
//! wait the page's timer, the S key's stall a spin, and process CPU nothing.
//!
//! Outside it, and only where they measure or drive this machine from outside the loop:
//! the bench (`looplab bench`) and the test kit keep their own stopwatches, and the test
//! hook `--key-script` sleeps on a thread of its own until each key is due.

pub mod clock;
pub mod files;
pub mod frame_wait;
pub mod process;
pub mod signals;
