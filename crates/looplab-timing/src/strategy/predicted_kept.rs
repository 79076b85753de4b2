//! # Predicted, kept: the render tick's copy, carried on frame by frame
//!
//! The loop of [`predicted`](super::predicted), except that the copy is kept between
//! frames. A frame that ran a real update copies the state afresh; a frame that ran none
//! advances the copy it kept by the time since it was drawn:
//!
#![doc = concat!("```text\n", include_str!("loops/predicted_kept.txt"), "```")]
//!
//! Jakub Tomšů's *accumulated render tick* ("Fixed timestep without interpolation", 2024).
//! Between two real updates the copy moves in the frame's own small steps, not in one long
//! one, so a curve or a bounce is followed more closely at a low update rate. The price is
//! that the copy runs on input at the frame rate and the real state at the update rate:
//! the two can disagree, and when the next real update arrives the picture jumps to where
//! the real state is.
//!
//! In this crate: the updates of [`catch_up`], and
//! [`View::Predict`](crate::View::Predict) to the frame's `game_now`, from
//! [`PredictFrom::Latest`](crate::PredictFrom::Latest) in a frame that ran an update (and
//! the first under this strategy), else from [`PredictFrom::Kept`](crate::PredictFrom::Kept):
//! advance the kept copy by [`View::ahead_of`](crate::View::ahead_of) its own game time.

use super::{DrawMode, Family, Rules, catch_up};

pub(crate) const RULES: Rules = Rules {
    family: Family::Accumulator,
    draw_mode: DrawMode::PredictKept,
    updates: catch_up::updates,
    wake: catch_up::wake,
};

#[cfg(test)]
mod tests {
    use crate::testing::ms;
    use crate::{LoopSettings, Planner, PredictFrom, Rate, Strategy, View};

    fn from(view: View) -> PredictFrom {
        match view {
            View::Predict { from, .. } => from,
            other => panic!("a prediction, got {other:?}"),
        }
    }

    #[test]
    fn the_copy_is_made_afresh_after_an_update_and_kept_otherwise() {
        let s = LoopSettings::default().with_update_rate(Rate::hz(10.0).unwrap());
        let mut p = Planner::new(Strategy::PredictedKept, s);
        assert_eq!(from(p.plan_frame(ms(0)).view), PredictFrom::Latest, "first");
        let kept = p.plan_frame(ms(16));
        assert_eq!((kept.updates, from(kept.view)), (0, PredictFrom::Kept));
        assert_eq!(kept.view.ahead_of(ms(0)), ms(16));
        let updated = p.plan_frame(ms(112));
        assert_eq!(
            (updated.updates, from(updated.view)),
            (1, PredictFrom::Latest)
        );
        assert_eq!(updated.view.ahead_of(updated.simulated), ms(12));
        assert_eq!(from(p.plan_frame(ms(128)).view), PredictFrom::Kept);
        // Switching away and back starts from a fresh copy.
        p.set_strategy(Strategy::Predicted);
        p.plan_frame(ms(144));
        p.set_strategy(Strategy::PredictedKept);
        assert_eq!(from(p.plan_frame(ms(160)).view), PredictFrom::Latest);
    }
}
