//! What the app asks of the machine it runs on, each behind one small module: the wall
//! clock, the frame-cap wait, output files, and the process's CPU time and memory. Nothing
//! else in the app reads a real clock, sleeps, writes a file or looks at `/proc`, so a build
//! for a platform without them (a browser page, where the page owns the loop, time comes
//! from `performance.now()` and nothing may block) replaces these modules and keeps the
//! rest.
//!
//! The bench (`looplab bench`) and the test kit keep their own stopwatches: they measure
//! this machine, which is their purpose, and neither exists in such a build.

pub mod clock;
pub mod files;
pub mod frame_wait;
pub mod process;
