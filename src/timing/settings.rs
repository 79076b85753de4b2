//! The knobs every planner honours where they apply.

use std::time::Duration;

use super::units::{Rate, TimeScale};

/// Loop settings shared by all strategies. Changing any of them mid-run is allowed; the
/// planner keeps game time continuous across the change.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopSettings {
    /// Updates per second of game time for the fixed-step strategies (the step is its period).
    pub update_rate: Rate,
    /// Frames per second at most, for the strategies that render at their own pace.
    /// `None` renders as fast as the machine allows (or as vsync allows).
    pub frame_cap: Option<Rate>,
    /// deWiTTERS' `MAX_FRAMESKIP`: fixed updates allowed in one frame before the game is
    /// allowed to slow down instead. `None` is unlimited, which shows the spiral of death.
    pub max_updates: Option<u32>,
    /// Longest real time one frame may account for. A stall longer than this (a debugger
    /// break, a suspended laptop) is dropped rather than simulated in a burst. `None` disables
    /// the clamp.
    pub max_frame_time: Option<Duration>,
    /// Game time per real time.
    pub time_scale: TimeScale,
    /// When paused, no updates run except single steps.
    pub paused: bool,
}

impl LoopSettings {
    /// 60 updates a second: the step most displays and physics engines assume.
    pub const DEFAULT_UPDATE_RATE: Rate = Rate::SIXTY_HZ;
    /// Ten catch-up updates a frame, as in deWiTTERS' first fixed-update loop: at 60 UPS the
    /// game only starts to slow down once rendering falls below 6 FPS.
    pub const DEFAULT_MAX_UPDATES: u32 = 10;
    /// A quarter of a second, the clamp "Fix Your Timestep!" suggests: long enough that no
    /// ordinary slow frame is cut, short enough that a stall does not become a burst of
    /// hundreds of updates.
    pub const DEFAULT_MAX_FRAME_TIME: Duration = Duration::from_millis(250);

    /// The fixed step: the period of [`LoopSettings::update_rate`].
    pub fn step(&self) -> Duration {
        self.update_rate.period()
    }
}

impl Default for LoopSettings {
    fn default() -> Self {
        Self {
            update_rate: Self::DEFAULT_UPDATE_RATE,
            frame_cap: None,
            max_updates: Some(Self::DEFAULT_MAX_UPDATES),
            max_frame_time: Some(Self::DEFAULT_MAX_FRAME_TIME),
            time_scale: TimeScale::ONE,
            paused: false,
        }
    }
}
