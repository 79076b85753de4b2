//! The two states an interpolated loop keeps: before and after the last update.

use crate::plan::{Blendable, View};

/// A value as it was before the last fixed update and as it is after it: what an
/// interpolated or extrapolated view is drawn from.
///
/// Every fixed-step loop that interpolates keeps these two copies, and forgetting to shift
/// them (or shifting them twice in a frame of two updates) is the classic bug: the drawing
/// then jumps back a step. [`push`](Interpolated::push) shifts them once per update;
/// [`teleport`](Interpolated::teleport) moves the thing without a blend, so a respawn or a
/// cut is not drawn sliding across the screen; [`drawn`](Interpolated::drawn) answers where
/// the frame's [`View`] puts it.
///
/// ```
/// use looplab_timing::{Interpolated, View};
///
/// let mut x = Interpolated::new(0.0_f32);
/// x.push(10.0); // one update moved it 10 units
/// assert_eq!(x.drawn(View::Interpolate { alpha: 0.5 }), 5.0);
/// x.teleport(100.0); // a respawn: no slide from 10 to 100
/// assert_eq!(x.drawn(View::Interpolate { alpha: 0.5 }), 100.0);
/// x.update(|x| x + 10.0); // the next update, written as a function of the state
/// assert_eq!((x.previous(), x.current()), (100.0, 110.0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Interpolated<T> {
    previous: T,
    current: T,
}

impl<T: Clone> Interpolated<T> {
    /// A value at rest: before and after are both `value`.
    pub fn new(value: T) -> Self {
        Self {
            previous: value.clone(),
            current: value,
        }
    }

    /// Records one update's result: the current value becomes the previous one. Call it
    /// once per update, so a frame of two updates blends across the second only.
    pub fn push(&mut self, next: T) {
        self.previous = core::mem::replace(&mut self.current, next);
    }

    /// Runs one update as a function of the current value and pushes the result.
    pub fn update(&mut self, step: impl FnOnce(&T) -> T) {
        let next = step(&self.current);
        self.push(next);
    }

    /// Puts the value at `to` with no motion to blend: both states become `to`.
    pub fn teleport(&mut self, to: T) {
        self.previous = to.clone();
        self.current = to;
    }

    /// The value before the last update.
    pub fn previous(&self) -> T {
        self.previous.clone()
    }

    /// The value after the last update.
    pub fn current(&self) -> T {
        self.current.clone()
    }

    /// The value after the last update, to change in place (an update that edits fields).
    /// Call [`save_previous`](Interpolated::save_previous) before the update edits it.
    pub fn current_mut(&mut self) -> &mut T {
        &mut self.current
    }

    /// Copies the current value into the previous one: the first half of
    /// [`push`](Interpolated::push), for updates that edit the value in place through
    /// [`current_mut`](Interpolated::current_mut).
    pub fn save_previous(&mut self) {
        self.previous = self.current.clone();
    }
}

impl<T: Blendable> Interpolated<T> {
    /// Where `view` draws the value: [`View::lerp`] of the two states.
    pub fn drawn(&self, view: View) -> T {
        view.lerp(self.previous, self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LoopSettings, ManualClock, Planner, Rate, Strategy, Wake};

    #[test]
    fn a_frame_of_two_updates_blends_across_the_second_only() {
        let mut x = Interpolated::new(0.0_f32);
        x.push(1.0);
        x.push(2.0);
        assert_eq!(x.drawn(View::Interpolate { alpha: 0.5 }), 1.5);
        assert_eq!(x.drawn(View::Latest), 2.0);
        assert_eq!(x.drawn(View::Extrapolate { alpha: 0.5 }), 2.5);
    }

    #[test]
    fn in_place_updates_keep_the_previous_state() {
        let mut p = Interpolated::new([0.0_f32, 0.0]);
        p.save_previous();
        p.current_mut()[0] = 4.0;
        assert_eq!(p.previous(), [0.0, 0.0]);
        assert_eq!(p.current(), [4.0, 0.0]);
    }

    #[test]
    fn an_interpolated_loop_draws_steady_motion_at_any_update_rate() {
        // 20 updates a second drawn at 60 FPS: the drawing moves the same each frame.
        let settings = LoopSettings::default()
            .with_update_rate(Rate::hz(20.0).unwrap())
            .with_frame_cap(Some(Rate::SIXTY_HZ));
        let mut planner = Planner::new(Strategy::Interpolated, settings);
        let mut clock = ManualClock::new();
        let mut x = Interpolated::new(0.0_f32);
        let mut drawn = Vec::new();
        for _ in 0..60 {
            let plan = planner.plan_frame(clock.now());
            for _ in 0..plan.updates {
                x.update(|x| x + 60.0 * plan.step.as_secs_f32());
            }
            drawn.push(x.drawn(plan.view));
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            }
        }
        for pair in drawn[10..].windows(2) {
            assert!((pair[1] - pair[0] - 1.0).abs() < 1e-3, "{pair:?}");
        }
    }
}
