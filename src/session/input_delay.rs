//! The ship's input-to-display delay: from an arrow's arrival to the end of the present of
//! the first frame that shows it. The window measures it live and the lab models it
//! (`looplab lab feel`) by these same rules.
//!
//! A frame shows a press once the state it draws was computed with the press and depicts a
//! moment after it:
//!
//! - *When its effect starts.* With accumulated input, at the game-clock instant it
//!   arrived: the update whose span holds that instant moves the ship for the rest of its
//!   step. With sampled input, at the start of the first update of the first frame that runs
//!   updates after it arrived (a press let go before then never shows: it was lost).
//! - *What a frame depicts* ([`FrameRecord::drawn_time`]). The latest state: its game time.
//!   An interpolation: a step back, so it shows the press a step later. A prediction (the
//!   render tick): the present, computed with the newest input, so the next frame drawn
//!   shows it. An extrapolation depicts the present, but guesses it from the last update,
//!   so it shows a press only once an update has taken it.

use std::time::Duration;

use super::frame::{FrameRecord, ViewKind};
use super::ship_input::Button;

/// Delays kept for the overlay's median.
const KEEP: usize = 64;

/// Presses on their way to the screen, and the delays of those shown.
#[derive(Clone, Debug, Default)]
pub struct InputDelay {
    /// Presses handed to the loop and not yet shown: when each arrived, its button, and the
    /// game time its effect starts at, once known.
    pending: Vec<(Duration, Button, Option<Duration>)>,
    recent: Vec<Duration>,
    count: u64,
}

impl InputDelay {
    /// A press that arrived at `arrival` was handed to the loop. `from` is the game time
    /// its effect starts at when that is known now (accumulated input: the instant it
    /// arrived), `None` when the next frame's updates will say (sampled input).
    pub fn pressed(&mut self, arrival: Duration, button: Button, from: Option<Duration>) {
        self.pending.push((arrival, button, from));
    }

    /// `button` was let go: a press of it that no update has taken yet will never show.
    pub fn released(&mut self, button: Button) {
        self.pending
            .retain(|&(_, b, from)| b != button || from.is_some());
    }

    /// A frame ran its updates: the presses waiting for an update take effect from its
    /// first one (or, drawn by a prediction, from where that starts).
    pub fn frame_ran(&mut self, record: &FrameRecord) {
        if record.updates > 0 || record.view == ViewKind::Predict {
            for p in &mut self.pending {
                p.2.get_or_insert(record.game_before);
            }
        }
    }

    /// A frame is done (presented or not); returns the delays of the presses it showed.
    pub fn presented(&mut self, record: &FrameRecord) -> Vec<Duration> {
        let Some(shown) = record.presented else {
            return Vec::new();
        };
        let drawn = match record.view {
            ViewKind::Extrapolate => record.game_before + record.game_advance(),
            _ => record.drawn_time(),
        };
        let mut delays = Vec::new();
        self.pending.retain(|&(arrival, _, from)| match from {
            Some(from) if drawn > from => {
                delays.push(shown.saturating_sub(arrival));
                false
            }
            _ => true,
        });
        for &d in &delays {
            if self.recent.len() == KEEP {
                self.recent.remove(0);
            }
            self.recent.push(d);
            self.count += 1;
        }
        delays
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

/// The median of `delays` ([`crate::metrics::median`]); `None` when there are none.
pub fn median(delays: &[Duration]) -> Option<Duration> {
    let nanos: Vec<f64> = delays.iter().map(|d| d.as_nanos() as f64).collect();
    (!nanos.is_empty()).then(|| Duration::from_nanos(crate::metrics::median(&nanos).round() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::ship_input::Direction;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    /// A frame with `updates` of 100 ms from `game_before`, drawing `view` with `alpha`
    /// (the lag as a share of a step), presented 5 ms after it starts.
    fn frame(
        start: u64,
        updates: u32,
        game_before: u64,
        view: ViewKind,
        alpha: f32,
    ) -> FrameRecord {
        let step = ms(100);
        let latest = ms(game_before) + step * updates;
        FrameRecord {
            start: ms(start),
            updates,
            step,
            game_before: ms(game_before),
            view,
            alpha,
            game_shown: latest + step.mul_f32(alpha),
            presented: Some(ms(start + 5)),
            ..FrameRecord::default()
        }
    }

    fn run(d: &mut InputDelay, f: &FrameRecord) -> Vec<Duration> {
        d.frame_ran(f);
        d.presented(f)
    }

    #[test]
    fn sampled_the_latest_state_shows_it_in_the_frame_that_applies_it() {
        let mut d = InputDelay::default();
        d.pressed(ms(3), Button::Arrow(Direction::Right), None);
        // No update this frame (10 UPS): nothing shown yet.
        assert!(run(&mut d, &frame(10, 0, 0, ViewKind::Latest, 0.1)).is_empty());
        assert_eq!(
            run(&mut d, &frame(27, 1, 0, ViewKind::Latest, 0.27)),
            [ms(29)]
        );
        assert_eq!(
            (d.count(), d.last(), d.median()),
            (1, Some(ms(29)), Some(ms(29)))
        );
    }

    #[test]
    fn a_sampled_press_let_go_before_any_update_never_shows() {
        let mut d = InputDelay::default();
        d.pressed(ms(3), Button::Arrow(Direction::Right), None);
        d.released(Button::Arrow(Direction::Right));
        assert!(run(&mut d, &frame(10, 1, 0, ViewKind::Latest, 0.1)).is_empty());
        assert_eq!(d.count(), 0);
    }

    #[test]
    fn accumulated_interpolation_shows_it_a_step_after_the_render_tick() {
        // A press at game instant 130: the update from 100 to 200 takes it.
        let shown_at = |view: ViewKind| {
            let mut d = InputDelay::default();
            d.pressed(ms(0), Button::Arrow(Direction::Up), Some(ms(130)));
            // Frames every 20 ms from game time 140; an update every 100 ms.
            for i in 0..20u64 {
                let now = 140 + 20 * i;
                let updates = u32::from(now % 100 < 20);
                let before = (now / 100 - u64::from(updates)) * 100;
                let lag = (now % 100) as f32 / 100.0;
                if !run(&mut d, &frame(now, updates, before, view, lag)).is_empty() {
                    return now;
                }
            }
            panic!("never shown");
        };
        assert_eq!(shown_at(ViewKind::Predict), 140, "the next frame");
        assert_eq!(shown_at(ViewKind::Latest), 200, "once the update ran");
        assert_eq!(shown_at(ViewKind::Extrapolate), 200, "once the update ran");
        assert_eq!(
            shown_at(ViewKind::Interpolate),
            240,
            "a step after the press"
        );
    }
}
