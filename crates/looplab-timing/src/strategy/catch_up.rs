//! # Catch-up: fixed steps to keep up with real time, the latest state drawn
//!
//! The loop that keeps the update step fixed and lets the frame rate vary, paying off the
//! real time that passed in whole steps:
//!
#![doc = concat!("```text\n", include_str!("loops/catch_up.txt"), "```")]
//!
//! Every update is the same step, so the game is deterministic, and it keeps real-time speed
//! on a machine that renders slowly (a 45 ms frame runs two or three 16.7 ms updates). The
//! limit on updates per frame is what keeps a machine too slow for its *updates* from the
//! "spiral of death" (more updates owed each frame than the last); past it, the game slows
//! down instead. What it cannot hide is that frames fall between updates: at 20 updates a
//! second on a 60 Hz display the same picture is shown three times, then jumps.
//!
//! In this crate the `lag` is an [`Accumulator`]: the frame's game time (clamped by
//! [`LoopSettings::max_frame_time`] and scaled) is added, then
//! [`Accumulator::expend_up_to`] takes out the steps to run, at most
//! [`LoopSettings::max_updates`]. Whole steps still owed beyond that limit are dropped and
//! reported in [`FramePlan::skipped`](crate::FramePlan::skipped), so the lag stays below a
//! step and the fraction of a step is kept for the view. Nothing is paid while frozen. The
//! next frame starts at once or at the frame cap ([`LoopSettings::frame_cap`]).

use super::{DrawMode, Family, Rules, Updates};
use crate::accumulator::Accumulator;
use crate::deadline::DeadlineGrid;
use crate::game_clock::FrameTime;
use crate::plan::Wake;
use crate::settings::LoopSettings;
use crate::units::div_rem;

pub(crate) const RULES: Rules = Rules {
    family: Family::Accumulator,
    draw_mode: DrawMode::Latest,
    updates,
    wake,
};

/// Pays the lag off in whole steps, at most `max_updates` of them. The interpolated and
/// extrapolated strategies run the same updates.
pub(crate) fn updates(
    frame: &FrameTime,
    lag: &mut Accumulator,
    settings: &LoopSettings,
) -> Updates {
    let step = settings.step();
    if frame.frozen || step.is_zero() {
        return Updates::fixed(0, step);
    }
    lag.accumulate(frame.advance);
    let max = settings.max_updates.unwrap_or(u32::MAX).max(1);
    let mut planned = Updates::fixed(lag.expend_up_to(step, max), step);
    // Never drop more than this frame brought: steps owed since the step shrank (a higher
    // update rate) stay owed and are paid over the next frames.
    let brought = div_rem(frame.advance.as_nanos(), step.as_nanos()).0;
    planned.skipped = lag.discard_steps(u64::try_from(brought).unwrap_or(u64::MAX), step);
    planned
}

/// At once, or at the frame cap.
pub(crate) fn wake(grid: &mut DeadlineGrid, frame: &FrameTime, settings: &LoopSettings) -> Wake {
    grid.wake_for_cap(frame.now, settings.frame_cap)
}

#[cfg(test)]
mod tests {
    use core::time::Duration;

    use crate::{ManualClock, Planner, Strategy, View, Wake};

    use crate::testing::{STEP, ms};

    #[test]
    fn keeps_real_time_speed_when_rendering_is_slow() {
        let mut p = Planner::new(Strategy::CatchUp, crate::testing::measured());
        let mut clock = ManualClock::new();
        let mut most = 0;
        // 45 ms frames (22 FPS) against a 16.7 ms step.
        for _ in 0..200 {
            let plan = p.plan_frame(clock.now());
            clock.advance(ms(45));
            most = most.max(plan.updates);
            assert_eq!(plan.view, View::Latest);
            assert_eq!(plan.skipped, Duration::ZERO);
            // The game clock is real time exactly: nothing lost, nothing invented.
            assert_eq!(plan.game_now, plan.now);
            assert!(p.overstep() < STEP);
        }
        assert_eq!(most, 3, "45 ms holds two or three 16.7 ms steps");
    }

    #[test]
    fn stops_at_max_updates_and_the_game_slows_down() {
        let settings = crate::testing::measured()
            .with_max_updates(Some(4))
            .unwrap();
        let mut p = Planner::new(Strategy::CatchUp, settings);
        let mut clock = ManualClock::new();
        p.plan_frame(clock.now());
        // 150 ms frames owe nine steps each; four run.
        for _ in 0..20 {
            clock.advance(ms(150));
            let before_lag = p.overstep();
            let plan = p.plan_frame(clock.now());
            assert_eq!(plan.updates, 4);
            let owed = before_lag + ms(150);
            let owed_steps = (owed.as_nanos() / STEP.as_nanos()) as u32;
            assert_eq!(plan.skipped, STEP * (owed_steps - 4));
            assert_eq!(
                p.overstep(),
                owed - STEP * owed_steps,
                "only whole steps are dropped"
            );
        }
        let ratio = p.simulated().as_secs_f64() / clock.now().as_secs_f64();
        assert!(
            (ratio - 4.0 * 16.666667 / 150.0).abs() < 0.01,
            "ratio {ratio}"
        );
    }

    #[test]
    fn unlimited_updates_pay_all_the_lag_up_to_the_clamp() {
        let settings = crate::testing::measured().with_max_updates(None).unwrap();
        let mut p = Planner::new(Strategy::CatchUp, settings);
        p.plan_frame(ms(0));
        assert_eq!(p.plan_frame(ms(201)).updates, 12);
        let plan = p.plan_frame(ms(10_201));
        // The 250 ms clamp plus the 1 ms left over: 15 steps.
        assert_eq!(plan.updates, 15);
        assert_eq!(plan.clamped, ms(9750));
    }

    #[test]
    fn a_frame_cap_wakes_on_a_grid() {
        let settings = crate::testing::measured().with_frame_cap(crate::Rate::hz(100.0).ok());
        let mut p = Planner::new(Strategy::CatchUp, settings);
        let mut clock = ManualClock::new();
        for i in 1..=3u32 {
            let plan = p.plan_frame(clock.now());
            assert_eq!(plan.wake, Wake::At(ms(10) * i));
            clock.advance(ms(1));
            clock.advance_to(ms(10) * i);
        }
    }
}
