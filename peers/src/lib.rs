//! The loops Rust game developers pick instead of `looplab-timing`, run on the same work in
//! one run: `game-loop` and `bevy_time` through their own code on a virtual clock, ggez's,
//! macroquad's and fixedstep's loops as ports of their documented algorithms (they read the
//! real clock inside), each on the lab's modelled machines (`looplab-peers lab`, or
//! `looplab lab peers` once this package is built); and the frame limiters in real time
//! (`looplab-peers bench`, or `looplab bench --peers`).
//!
//! A package of its own so that neither the app nor the timing crate carries a peer.

pub mod drive;
pub mod loops;
pub mod pacing;
pub mod report;
