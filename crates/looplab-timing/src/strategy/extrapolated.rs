//! # Extrapolated: catch-up's fixed steps, drawn ahead by the velocity
//!
//! The loop of catch-up, with the renderer predicting where things are by now:
//!
#![doc = concat!("```text\n", include_str!("loops/extrapolated.txt"), "```")]
//!
//! Drawing each object where its velocity would have carried it by the present moment is
//! smooth like interpolation and has no delay. The guess is wrong whenever the motion is not
//! straight: an object that turned, bounced or stopped during the owed time is drawn where
//! it would have been had it not, and snaps back at the next update.
//!
//! In this crate: the updates of [`catch_up`], and
//! [`View::Extrapolate`](crate::View::Extrapolate) with the same `alpha` as interpolation;
//! the renderer draws `current + velocity * alpha * step`
//! ([`View::apply`](crate::View::apply)).

use super::{DrawMode, Family, Rules, catch_up};

pub(crate) const RULES: Rules = Rules {
    family: Family::Accumulator,
    draw_mode: DrawMode::Extrapolate,
    updates: catch_up::updates,
    wake: catch_up::wake,
};

#[cfg(test)]
mod tests {
    use core::time::Duration;

    use crate::{LoopSettings, Planner, Strategy, View};

    #[test]
    fn draws_ahead_by_the_same_alpha_interpolation_uses() {
        let mut a = Planner::new(Strategy::Interpolated, LoopSettings::default());
        let mut b = Planner::new(Strategy::Extrapolated, LoopSettings::default());
        for t in [0, 7, 19, 33, 52, 70] {
            let pa = a.plan_frame(Duration::from_millis(t));
            let pb = b.plan_frame(Duration::from_millis(t));
            assert_eq!(pa.updates, pb.updates);
            assert_eq!(
                pb.view,
                View::Extrapolate {
                    alpha: pa.view.alpha()
                }
            );
        }
    }
}
