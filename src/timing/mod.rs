//! The timing core: loop strategies as clock-free planners, their settings, clocks, and frame
//! statistics. No window, GPU or sleeping in here; see the crate docs for how it is driven.

pub mod clock;
pub mod planner;
pub mod settings;
pub mod stats;
pub mod strategy;
pub mod units;

pub use clock::{Clock, ManualClock, SystemClock};
pub use planner::{FramePlan, Planner, View, Wake};
pub use settings::LoopSettings;
pub use stats::{FrameStats, StatsSummary};
pub use strategy::{DrawMode, Family, Strategy};
pub use units::{Rate, TimeScale};
