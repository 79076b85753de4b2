//! # Predicted: catch-up's fixed steps, drawn from a copy run one more update to the present
//!
//! The loop of catch-up, with one extra update each frame that only the picture sees:
//!
#![doc = concat!("```text\n", include_str!("loops/predicted.txt"), "```")]
//!
//! Jakub Tomšů calls this the *render tick* ("Fixed timestep without interpolation",
//! 2024, and his fixed-timestep demo). Interpolation draws a blend of the last two states
//! and so is always up to a step behind: 100 ms at ten updates a second, which a player
//! steering feels. The render tick draws the present instead: a copy of the state, advanced
//! by the owed time with the newest input. The real state never sees the odd-length update,
//! so the simulation keeps its fixed, deterministic steps. There is no second state to keep
//! and no blending code to write: the game's own update does the work.
//!
//! The price: one more update a frame (a copy and a partial step), and a prediction that is
//! as good as one long step is. At a low update rate a curve is cut by a straight line, and
//! a collision the partial step misses pops in at the next real update.
//!
//! In this crate: the updates of [`catch_up`], and [`View::Predict`](crate::View::Predict)
//! from [`PredictFrom::Latest`](crate::PredictFrom::Latest) to the frame's game-clock instant
//! (`game_now`): advance the copy by [`View::ahead_of`](crate::View::ahead_of) the state's
//! game time, which is the lag. [`InputAccumulator::preview`](crate::InputAccumulator::preview)
//! gives the copy the input of the owed time without taking it from the real updates.
//!
//! ```
//! use core::time::Duration;
//! use looplab_timing::{LoopSettings, ManualClock, Planner, Rate, Strategy, View, Wake};
//!
//! let settings = LoopSettings::default()
//!     .with_update_rate(Rate::hz(10.0)?)
//!     .with_frame_cap(Some(Rate::SIXTY_HZ));
//! let mut planner = Planner::new(Strategy::Predicted, settings);
//! let mut clock = ManualClock::new();
//! let update = |x: &mut f32, dt: Duration| *x += 100.0 * dt.as_secs_f32(); // 100 px/s
//! let (mut x, mut time) = (0.0_f32, Duration::ZERO); // the real state and its game time
//! for _frame in 0..30 {
//!     let plan = planner.plan_frame(clock.now());
//!     for _ in 0..plan.updates {
//!         update(&mut x, plan.step);
//!         time += plan.step;
//!     }
//!     let mut shown = x; // the copy
//!     update(&mut shown, plan.view.ahead_of(time));
//!     // render(shown): where the thing is now, not a step ago.
//!     let truth = 100.0 * plan.game_now.as_secs_f32();
//!     assert!((shown - truth).abs() < 1e-3);
//!     if let Wake::At(t) = plan.wake {
//!         clock.advance_to(t);
//!     }
//! }
//! assert_eq!(time, planner.simulated(), "the real state kept its fixed steps");
//! # Ok::<(), looplab_timing::TimingError>(())
//! ```

use super::{DrawMode, Family, Rules, catch_up};

pub(crate) const RULES: Rules = Rules {
    family: Family::Accumulator,
    draw_mode: DrawMode::Predict,
    updates: catch_up::updates,
    wake: catch_up::wake,
};

#[cfg(test)]
mod tests {
    use crate::testing::{STEP, ms};
    use crate::{LoopSettings, Planner, PredictFrom, Strategy, View};

    #[test]
    fn the_copy_is_advanced_by_the_lag_to_the_present() {
        let mut p = Planner::new(Strategy::Predicted, LoopSettings::default());
        p.plan_frame(ms(0));
        for t in [7, 19, 33, 52, 70] {
            let plan = p.plan_frame(ms(t));
            assert_eq!(
                plan.view,
                View::Predict {
                    to: plan.game_now,
                    from: PredictFrom::Latest
                }
            );
            assert_eq!(plan.view.ahead_of(plan.simulated), p.overstep());
            assert!(plan.view.ahead_of(plan.simulated) < STEP);
        }
        // Drawn later than planned: the copy goes further, to the redraw's present.
        assert_eq!(
            p.view_at(ms(75)).ahead_of(p.simulated()),
            p.overstep() + ms(5)
        );
    }
}
