//! One lane of compare mode as it is asked for (a machine, a strategy, how it reads deltas),
//! and the machines the comparisons share.

use std::path::PathBuf;

use looplab_timing::{Rate, Strategy};

use super::profile::Profile;
use super::swapchain::SwapchainSpec;
use crate::session::present::PresentMode;
use crate::text::settings::DeltaKind;

/// One lane: a machine, a strategy, how the strategy reads frame deltas, and an update
/// rate of its own where the comparison needs one.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneSpec {
    pub profile: Profile,
    pub strategy: Strategy,
    pub delta: DeltaKind,
    /// The lane's update rate, in place of the window's.
    pub update_rate: Option<Rate>,
    /// A frame capture whose machine is to replace `profile` before the lane runs
    /// (`--lane capture=FILE`): read where files are read, not while the argument is parsed.
    pub capture: Option<PathBuf>,
    /// Pace the lane's loop just in time for its refreshes.
    pub just_in_time: bool,
    /// Run with no frame cap, whatever the window's: a queue fills only behind a loop that
    /// runs faster than its display.
    pub uncapped: bool,
}

impl LaneSpec {
    /// `strategy` on `profile`, deltas as measured.
    pub fn new(profile: Profile, strategy: Strategy) -> Self {
        Self {
            profile,
            strategy,
            delta: DeltaKind::Measured,
            update_rate: None,
            capture: None,
            just_in_time: false,
            uncapped: false,
        }
    }
}

/// MonitorSim's case: a 60 Hz display, 5 ms renders, timer noise of 0.5% of a frame.
pub fn noisy_monitor() -> Profile {
    Profile::parse("monitor:refresh=60,render=5ms,noise=0.5%").expect("a valid profile")
}

/// Interpolation behind FIFO with `latency` frames in flight, paced `just_in_time` or not,
/// on frames of 3 to 9 ms: quick enough to fill any queue of a 60 Hz display.
pub fn in_flight(latency: u32, just_in_time: bool) -> LaneSpec {
    let game = Profile::parse("game:render=6ms,jitter=3ms").expect("a valid profile");
    let behind = Profile {
        name: format!("{latency} in flight"),
        ..game.with_swapchain(SwapchainSpec {
            mode: PresentMode::Fifo,
            latency,
        })
    };
    LaneSpec {
        just_in_time,
        uncapped: true,
        ..LaneSpec::new(behind, Strategy::Interpolated)
    }
}
