//! The ship's input-to-display delay: from a steering key's arrival to the end of the
//! present of the first frame whose drawn ship reflects it.
//!
//! A change of steer is applied by the first update of the next frame that runs updates,
//! starting at game time `g`. A frame reflects it once it shows game time past `g`: at once
//! for the latest state or an extrapolation, but an interpolated frame shows the state
//! *before* that update until its blend moves past `g`, which is the interpolation's step
//! of delay. At 10 updates a second, the wait for the next update is most of the delay.
//! A prediction (the render tick) runs its copy with the newest input, so the next frame
//! drawn shows the change whether or not it ran an update.

use std::time::Duration;

use super::frame::{FrameRecord, ViewKind};

/// Delays kept for the median.
const KEEP: usize = 64;

/// Follows one steering change at a time from its arrival to the screen.
#[derive(Clone, Debug, Default)]
pub struct InputDelay {
    /// Arrival of a change not yet handed to a frame.
    waiting: Option<Duration>,
    /// Arrival of the change the current frame's updates apply.
    due: Option<Duration>,
    /// A change applied by an update from this game time, not yet on screen.
    applied: Option<(Duration, Duration)>,
    recent: Vec<Duration>,
    count: u64,
}

impl InputDelay {
    /// A steering change arrived at `arrival` (the loop's clock).
    pub fn changed(&mut self, arrival: Duration) {
        if self.waiting.is_none() {
            self.waiting = Some(arrival);
        }
    }

    /// A frame is about to run its updates: a change that arrived before now is theirs.
    pub fn frame_starts(&mut self) {
        if self.due.is_none() {
            self.due = self.waiting.take();
        }
    }

    /// The frame is done (presented or not); returns the delay if it was the first to show
    /// the change.
    pub fn frame_done(&mut self, record: &FrameRecord) -> Option<Duration> {
        if (record.updates > 0 || record.view == ViewKind::Predict)
            && let Some(arrival) = self.due.take()
            && self.applied.is_none()
        {
            self.applied = Some((arrival, record.game_before));
        }
        let (arrival, from) = self.applied?;
        let presented = record.presented?;
        if record.drawn_time() <= from {
            return None;
        }
        self.applied = None;
        let delay = presented.saturating_sub(arrival);
        if self.recent.len() == KEEP {
            self.recent.remove(0);
        }
        self.recent.push(delay);
        self.count += 1;
        Some(delay)
    }

    /// The latest delay measured.
    pub fn last(&self) -> Option<Duration> {
        self.recent.last().copied()
    }

    /// The median of the recent delays.
    pub fn median(&self) -> Option<Duration> {
        median(&self.recent)
    }

    /// Delays measured so far.
    pub fn count(&self) -> u64 {
        self.count
    }
}

/// The median of `delays` (the upper one of an even count); `None` when there are none.
pub fn median(delays: &[Duration]) -> Option<Duration> {
    let mut sorted = delays.to_vec();
    sorted.sort_unstable();
    sorted.get(sorted.len() / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    /// A frame with `updates` of 100 ms from `game_before`, drawing the latest state or,
    /// with `alpha`, an interpolation.
    fn frame(start: u64, updates: u32, game_before: u64, alpha: Option<f32>) -> FrameRecord {
        FrameRecord {
            start: ms(start),
            updates,
            step: ms(100),
            game_before: ms(game_before),
            view: if alpha.is_some() {
                ViewKind::Interpolate
            } else {
                ViewKind::Latest
            },
            alpha: alpha.unwrap_or(0.0),
            presented: Some(ms(start + 5)),
            ..FrameRecord::default()
        }
    }

    #[test]
    fn latest_view_shows_the_change_in_the_frame_that_applies_it() {
        let mut d = InputDelay::default();
        d.changed(ms(3));
        d.frame_starts();
        // No update this frame (10 UPS): nothing shown yet.
        assert_eq!(d.frame_done(&frame(10, 0, 0, None)), None);
        d.frame_starts();
        assert_eq!(d.frame_done(&frame(27, 1, 0, None)), Some(ms(29)));
        assert_eq!(
            (d.count(), d.last(), d.median()),
            (1, Some(ms(29)), Some(ms(29)))
        );
    }

    #[test]
    fn interpolation_shows_it_only_once_the_blend_passes_the_update() {
        let mut d = InputDelay::default();
        d.changed(ms(0));
        d.frame_starts();
        // The update from game time 100 ran; at alpha 0 the frame draws game time 100: the
        // state before it.
        assert_eq!(d.frame_done(&frame(10, 1, 100, Some(0.0))), None);
        d.frame_starts();
        assert_eq!(d.frame_done(&frame(27, 0, 200, Some(0.17))), Some(ms(32)));
    }

    #[test]
    fn a_change_during_a_frame_waits_for_the_next_one() {
        let mut d = InputDelay::default();
        d.frame_starts();
        d.changed(ms(12)); // arrives while the frame's redraw is pending
        assert_eq!(
            d.frame_done(&frame(10, 1, 0, None)),
            None,
            "not this frame's"
        );
        d.frame_starts();
        assert_eq!(d.frame_done(&frame(27, 1, 100, None)), Some(ms(20)));
    }
}
