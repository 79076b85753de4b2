//! # Variable step: one update a frame, as long as the frame took
//!
//! The loop that hands the real time since the last frame to the update:
//!
#![doc = concat!("```text\n", include_str!("loops/variable.txt"), "```")]
//!
//! The game keeps real-time speed on any machine. The price is that the step is whatever
//! the frame took: two machines, or two runs of one, take different steps and so compute
//! different worlds (floating-point sums depend on how they are split), and a long step
//! lets a fast object jump through a thin wall or a spring gain energy.
//!
//! In this crate: one update as long as the frame's game time (its real time clamped by
//! [`LoopSettings::max_frame_time`] and scaled), plus any lag left by an accumulator strategy
//! this one took over from; no update for a frame in which no game time passed, and none
//! while frozen. The latest state is drawn; the next frame starts at once or at the frame
//! cap ([`LoopSettings::frame_cap`]).

use super::{DrawMode, Family, Rules, Updates};
use crate::accumulator::Accumulator;
use crate::deadline::DeadlineGrid;
use crate::game_clock::FrameTime;
use crate::plan::Wake;
use crate::settings::LoopSettings;

pub(crate) const RULES: Rules = Rules {
    family: Family::VariableStep,
    draw_mode: DrawMode::Latest,
    updates,
    wake,
};

/// One update of everything owed.
fn updates(frame: &FrameTime, lag: &mut Accumulator, _: &LoopSettings) -> Updates {
    if frame.frozen {
        return Updates::fixed(0, frame.advance);
    }
    lag.accumulate(frame.advance);
    let dt = lag.take();
    Updates::fixed(u32::from(!dt.is_zero()), dt)
}

/// At once, or at the frame cap.
fn wake(grid: &mut DeadlineGrid, frame: &FrameTime, settings: &LoopSettings) -> Wake {
    grid.wake_for_cap(frame.now, settings.frame_cap)
}

#[cfg(test)]
mod tests {

    use crate::{LoopSettings, ManualClock, Planner, Strategy, View};

    use crate::testing::ms;

    #[test]
    fn one_update_as_long_as_the_frame() {
        let mut p = Planner::new(Strategy::Variable, LoopSettings::default());
        let mut clock = ManualClock::new();
        assert_eq!(
            p.plan_frame(clock.now()).updates,
            0,
            "no time has passed yet"
        );
        for cost in [ms(3), ms(27), ms(8)] {
            clock.advance(cost);
            let before = p.simulated();
            let plan = p.plan_frame(clock.now());
            assert_eq!((plan.updates, plan.step), (1, cost));
            assert_eq!(plan.simulated, before + cost);
            assert_eq!(plan.game_now, plan.simulated, "nothing owed");
            assert_eq!(plan.view, View::Latest);
        }
        assert_eq!(p.plan_frame(clock.now()).updates, 0, "a frame of no time");
    }

    #[test]
    fn a_stall_is_clamped() {
        let mut p = Planner::new(Strategy::Variable, LoopSettings::default());
        p.plan_frame(ms(0));
        let plan = p.plan_frame(ms(3000));
        assert_eq!(plan.step, ms(250));
        assert_eq!(plan.clamped, ms(2750));
        assert_eq!(plan.simulated, ms(250));
    }

    #[test]
    fn nothing_runs_while_paused_even_with_lag_owed() {
        let mut p = Planner::new(Strategy::Interpolated, LoopSettings::default());
        p.plan_frame(ms(0));
        p.plan_frame(ms(25)); // one step run, 8.3 ms owed
        let owed = p.overstep();
        p.set_paused(true);
        p.set_strategy(Strategy::Variable);
        assert_eq!(p.plan_frame(ms(40)).updates, 0);
        assert_eq!(p.overstep(), owed, "kept for when the game runs again");
        p.set_paused(false);
        let plan = p.plan_frame(ms(50));
        assert_eq!(plan.step, owed + ms(10));
    }
}
