//! Input as `window_event` records it: each key or click with its arrival time, kept until
//! the next frame starts and applies it (the texts' "process input" step, done once a frame,
//! after the wait for the frame's start, so input that arrives during the wait is in time).

use std::time::Duration;

use winit::keyboard::KeyCode;

use crate::app::keys::{self, Action};
use crate::session::ship_input::{DIRECTIONS, Direction};

/// A key or click, as recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    Press(Action),
    /// A steering key let go.
    Release(Direction),
}

/// What waits for the next frame.
#[derive(Clone, Debug, Default)]
pub struct InputQueue {
    pending: Vec<(Input, Duration)>,
    /// Whether Shift is held, as the window last said.
    shift: bool,
    /// Input events applied since the last frame started (for its record).
    applied: u32,
    /// A stall asked for by key, to happen before the next frame.
    pub stall: Option<Duration>,
}

impl InputQueue {
    /// Shift went down or up.
    pub fn set_shift(&mut self, held: bool) {
        self.shift = held;
    }

    /// A key went down or up at `arrival`, with Shift as the window last said. A `synthetic`
    /// press is one winit makes up, when the window gains focus, for a key already held: it
    /// holds a steering key, but it is no new press of any other key (a toggle pressed to
    /// focus the window would otherwise toggle twice).
    pub fn key(&mut self, code: KeyCode, down: bool, synthetic: bool, arrival: Duration) {
        if synthetic && down && keys::steer_direction(code).is_none() {
            return;
        }
        self.key_with_shift(code, self.shift, down, arrival);
    }

    /// A key went down or up at `arrival`, with Shift held or not (a scripted key says).
    pub fn key_with_shift(&mut self, code: KeyCode, shift: bool, down: bool, arrival: Duration) {
        let input = if down {
            keys::action_for(code, shift).map(Input::Press)
        } else {
            keys::steer_direction(code).map(Input::Release)
        };
        self.pending.extend(input.map(|i| (i, arrival)));
    }

    /// The window lost focus at `now`: keys let go meanwhile never arrive, so let go of all.
    pub fn focus_lost(&mut self, now: Duration) {
        for direction in DIRECTIONS {
            self.pending.push((Input::Release(direction), now));
        }
    }

    /// Buttons of the overlay clicked at `now`.
    pub fn clicked(&mut self, actions: impl IntoIterator<Item = Action>, now: Duration) {
        self.pending
            .extend(actions.into_iter().map(|a| (Input::Press(a), now)));
    }

    /// Everything recorded since the last call, in order.
    pub fn take(&mut self) -> Vec<(Input, Duration)> {
        std::mem::take(&mut self.pending)
    }

    /// One input event took effect.
    pub fn count_applied(&mut self) {
        self.applied += 1;
    }

    /// The input events that took effect since the last frame started; counting starts over.
    pub fn take_applied(&mut self) -> u32 {
        std::mem::take(&mut self.applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::keys::{KnobKey, LoopKey, SettingKey, ShipKey};
    use looplab_timing::Strategy;

    #[test]
    fn a_key_held_as_the_window_gains_focus_steers_but_toggles_nothing() {
        let ms = Duration::from_millis;
        let mut q = InputQueue::default();
        q.key(KeyCode::KeyG, true, true, ms(1));
        q.key(KeyCode::ArrowUp, true, true, ms(1));
        q.key(KeyCode::KeyG, true, false, ms(2));
        assert_eq!(
            q.take(),
            [
                (
                    Input::Press(Action::Ship(ShipKey::Steer(Direction::Up))),
                    ms(1)
                ),
                (Input::Press(Action::Knob(KnobKey::Ghosts)), ms(2)),
            ]
        );
    }

    #[test]
    fn keys_wait_in_order_with_their_arrival_and_shift() {
        let ms = Duration::from_millis;
        let mut q = InputQueue::default();
        q.key(KeyCode::Digit4, true, false, ms(1));
        q.set_shift(true);
        q.key(KeyCode::KeyF, true, false, ms(2));
        q.key(KeyCode::KeyZ, true, false, ms(3));
        q.key(KeyCode::ArrowLeft, false, false, ms(4));
        q.key_with_shift(KeyCode::KeyF, false, true, ms(5));
        q.clicked([Action::Knob(KnobKey::Ghosts)], ms(6));
        assert_eq!(
            q.take(),
            [
                (
                    Input::Press(Action::Loop(LoopKey::Strategy(Strategy::CatchUp))),
                    ms(1)
                ),
                (
                    Input::Press(Action::Loop(LoopKey::Setting(SettingKey::UpdateRate(
                        false
                    )))),
                    ms(2)
                ),
                (Input::Release(Direction::Left), ms(4)),
                (
                    Input::Press(Action::Loop(LoopKey::Setting(SettingKey::UpdateRate(true)))),
                    ms(5)
                ),
                (Input::Press(Action::Knob(KnobKey::Ghosts)), ms(6)),
            ],
            "Z does nothing; Shift+F lowers the rate"
        );
        assert!(q.take().is_empty());
        q.focus_lost(ms(7));
        assert_eq!(q.take().len(), 4, "every arrow let go");
        q.count_applied();
        q.count_applied();
        assert_eq!((q.take_applied(), q.take_applied()), (2, 0));
    }
}
