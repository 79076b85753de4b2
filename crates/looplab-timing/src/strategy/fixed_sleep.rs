//! # Fixed sleep: one update a frame, then sleep until the frame's time is up
//!
//! The loop that gives every frame the same length by sleeping away what is left of it:
//!
#![doc = concat!("```text\n", include_str!("loops/fixed_sleep.txt"), "```")]
//!
//! On a machine fast enough it keeps real-time speed and saves power, since the processor
//! rests between frames. On one that is not, there is nothing to sleep and every frame still
//! advances the game by one step only: the game itself slows down.
//!
//! In this crate: one update of [`LoopSettings::step`] per frame that is not frozen, the
//! latest state drawn, and the next frame at the next deadline of a [`DeadlineGrid`] one step
//! of real time apart (a step divided by the time scale, so half speed sleeps twice as
//! long). A frame that overran is made up by not sleeping; one that ran later than the stall
//! clamp ([`LoopSettings::max_frame_time`]) restarts the grid rather than racing to catch up.

use super::{DrawMode, Family, Rules, uncapped};
use crate::deadline::DeadlineGrid;
use crate::game_clock::FrameTime;
use crate::plan::Wake;
use crate::settings::LoopSettings;

pub(crate) const RULES: Rules = Rules {
    family: Family::OneStepPerFrame,
    draw_mode: DrawMode::Latest,
    // One step a frame, unless frozen: the uncapped loop's updates.
    updates: uncapped::updates,
    wake,
};

/// The next deadline of a grid one step of (scaled) real time apart.
fn wake(grid: &mut DeadlineGrid, frame: &FrameTime, settings: &LoopSettings) -> Wake {
    let step = settings.step();
    let interval = if frame.frozen {
        step
    } else {
        settings.time_scale.real_time_for(step).unwrap_or(step)
    };
    Wake::At(grid.next(frame.now, interval, settings.max_frame_time))
}

#[cfg(test)]
mod tests {
    use core::time::Duration;

    use crate::{LoopSettings, ManualClock, Planner, Strategy, Wake};

    use crate::testing::ms;

    /// Plans a frame, spends `cost` on it, then sleeps until its wake time.
    fn frame(p: &mut Planner, clock: &mut ManualClock, cost: Duration) {
        let plan = p.plan_frame(clock.now());
        clock.advance(cost);
        if let Wake::At(t) = plan.wake {
            clock.advance_to(t);
        }
    }

    #[test]
    fn sleeps_to_real_time_speed_when_frames_are_short() {
        let mut p = Planner::new(Strategy::FixedSleep, LoopSettings::default());
        let step = p.settings().step();
        let mut clock = ManualClock::new();
        for _ in 0..60 {
            frame(&mut p, &mut clock, ms(3));
        }
        assert_eq!(clock.now(), step * 60, "each frame lasts exactly one step");
        assert_eq!(p.simulated(), step * 60);
    }

    #[test]
    fn slows_the_game_down_when_frames_are_long() {
        let mut p = Planner::new(Strategy::FixedSleep, LoopSettings::default());
        let mut clock = ManualClock::new();
        for _ in 0..100 {
            frame(&mut p, &mut clock, ms(40));
        }
        let ratio = p.simulated().as_secs_f64() / clock.now().as_secs_f64();
        assert!((ratio - 16.666667 / 40.0).abs() < 1e-3, "ratio {ratio}");
    }

    #[test]
    fn one_late_frame_is_made_up_by_a_shorter_sleep() {
        let mut p = Planner::new(Strategy::FixedSleep, LoopSettings::default());
        let step = p.settings().step();
        let mut clock = ManualClock::new();
        frame(&mut p, &mut clock, ms(2));
        frame(&mut p, &mut clock, ms(25)); // overruns its 16.7 ms
        frame(&mut p, &mut clock, ms(2));
        frame(&mut p, &mut clock, ms(2));
        assert_eq!(clock.now(), step * 4, "back on the grid");
    }
}
