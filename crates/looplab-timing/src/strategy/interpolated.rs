//! # Interpolated: catch-up's fixed steps, drawn between the last two states
//!
//! The loop of catch-up, with the fraction of a step still owed handed to the renderer:
//!
#![doc = concat!("```text\n", include_str!("loops/interpolated.txt"), "```")]
//!
//! Drawing a blend of the last two states makes motion smooth at any frame rate, even from
//! ten updates a second, while the simulation keeps catch-up's fixed, deterministic steps.
//! The price is latency: what is drawn is always up to one step behind the present, which a
//! player steering at a low update rate can feel.
//!
//! In this crate: the updates of [`catch_up`] (including its limit and
//! drops), and [`View::Interpolate`](crate::View::Interpolate) with `alpha` from
//! [`Accumulator::overstep_fraction`](crate::Accumulator::overstep_fraction).
//! [`View::apply`](crate::View::apply) or [`Blend`](crate::Blend) draw it, and
//! [`Planner::view_at`](crate::Planner::view_at) gives a fresher `alpha` when the picture is
//! drawn some time after its frame was planned.

use super::{DrawMode, Family, Rules, catch_up};

pub(crate) const RULES: Rules = Rules {
    family: Family::Accumulator,
    draw_mode: DrawMode::Interpolate,
    updates: catch_up::updates,
    wake: catch_up::wake,
};

#[cfg(test)]
mod tests {
    use core::time::Duration;

    use crate::{ManualClock, Planner, Strategy, View};

    use crate::testing::{STEP, ms};

    #[test]
    fn alpha_is_the_owed_fraction_of_a_step() {
        let mut p = Planner::new(Strategy::Interpolated, crate::testing::measured());
        let mut clock = ManualClock::new();
        p.plan_frame(clock.now());
        let mut expected_lag = Duration::ZERO;
        for cost in [ms(5), ms(5), ms(5), ms(5), ms(13), ms(1), ms(40)] {
            clock.advance(cost);
            let plan = p.plan_frame(clock.now());
            let owed = expected_lag + cost;
            let n = (owed.as_nanos() / STEP.as_nanos()) as u32;
            expected_lag = owed - STEP * n;
            assert_eq!(plan.updates, n);
            assert_eq!(p.overstep(), expected_lag);
            let View::Interpolate { alpha } = plan.view else {
                panic!("interpolated draws a blend, got {:?}", plan.view)
            };
            let exact = expected_lag.as_secs_f64() / STEP.as_secs_f64();
            assert!((f64::from(alpha) - exact).abs() < 1e-6);
            assert_eq!(plan.game_now, plan.simulated + expected_lag);
        }
    }
}
