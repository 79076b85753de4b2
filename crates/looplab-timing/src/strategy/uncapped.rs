//! # Uncapped: one update a frame, as fast as the machine goes
//!
//! The first loop of every text on the subject:
//!
#![doc = concat!("```text\n", include_str!("loops/uncapped.txt"), "```")]
//!
//! Nothing here looks at a clock, so the game runs exactly as fast as the machine does: with
//! 1 ms frames a 60 Hz game runs sixteen times too fast, with 50 ms frames at a third of its
//! speed. What it keeps is determinism, since every update is the same step.
//!
//! In this crate: one update of [`LoopSettings::step`] in every frame that is not frozen
//! (paused, or a time scale of zero; any other time scale has nothing to act on), the latest
//! state drawn, and the next frame at once ([`Wake::Immediately`]); the frame cap does not
//! apply, since running flat out is the point.

use super::{DrawMode, Family, Rules, Updates};
use crate::accumulator::Accumulator;
use crate::deadline::DeadlineGrid;
use crate::game_clock::FrameTime;
use crate::plan::Wake;
use crate::settings::LoopSettings;

pub(crate) const RULES: Rules = Rules {
    family: Family::OneStepPerFrame,
    draw_mode: DrawMode::Latest,
    updates,
    wake,
};

/// One step, unless the game is frozen. The fixed-sleep loop runs the same updates.
pub(crate) fn updates(frame: &FrameTime, _: &mut Accumulator, settings: &LoopSettings) -> Updates {
    Updates::fixed(u32::from(!frame.frozen), settings.step())
}

/// Never waits.
fn wake(_: &mut DeadlineGrid, _: &FrameTime, _: &LoopSettings) -> Wake {
    Wake::Immediately
}

#[cfg(test)]
mod tests {
    use core::time::Duration;

    use crate::{LoopSettings, ManualClock, Planner, Strategy, View, Wake};

    #[test]
    fn game_speed_is_the_machine_speed() {
        let mut p = Planner::new(Strategy::Uncapped, LoopSettings::default());
        let step = p.settings().step();
        let mut clock = ManualClock::new();
        for frame_ms in [1, 1, 50, 50] {
            let plan = p.plan_frame(clock.now());
            assert_eq!((plan.updates, plan.step), (1, step));
            assert_eq!((plan.view, plan.wake), (View::Latest, Wake::Immediately));
            clock.advance(Duration::from_millis(frame_ms));
        }
        // Four frames, four steps: 66.7 ms of game time in 102 ms of real time.
        assert_eq!(p.simulated(), step * 4);
    }
}
