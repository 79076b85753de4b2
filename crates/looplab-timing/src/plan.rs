//! What the planner decides for a frame: updates, a view to draw and a time to wake.

use core::ops::{Add, Mul, Sub};
use core::time::Duration;

use crate::units::mul_duration;

/// The planner's decision for one frame.
///
/// Run [`updates`](FramePlan::updates) updates of [`step`](FramePlan::step) each (then one
/// of [`substep`](FramePlan::substep) if it is not zero), advance once-per-frame systems by
/// [`delta`](FramePlan::delta), draw [`view`](FramePlan::view), and start the next frame at
/// [`wake`](FramePlan::wake). The other fields say what the frame's real time amounted to,
/// for statistics and overlays.
///
/// Three times, three names: [`now`](FramePlan::now) is real time on the caller's clock;
/// [`simulated`](FramePlan::simulated) is the game time the updates have reached;
/// [`game_now`](FramePlan::game_now) is the game clock's present, `simulated` plus what is
/// owed but not yet simulated.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct FramePlan {
    /// When the frame started.
    pub now: Duration,
    /// Real time since the previous frame started, as the loop reads it
    /// ([`LoopSettings::delta_mode`](crate::LoopSettings::delta_mode)): what the game clock
    /// counts.
    pub elapsed: Duration,
    /// Real time since the previous frame started, as measured.
    pub measured: Duration,
    /// Real time the stall clamp dropped this frame (`elapsed` beyond
    /// [`LoopSettings::max_frame_time`](crate::LoopSettings::max_frame_time)), or all of
    /// it for a hitch.
    pub clamped: Duration,
    /// True when the frame was longer than
    /// [`LoopSettings::resync_after`](crate::LoopSettings::resync_after): a hitch, so none
    /// of its time was simulated and the loop resynced (no burst of updates follows).
    pub hitch: bool,
    /// Game time dropped this frame: steps owed beyond
    /// [`LoopSettings::max_updates`](crate::LoopSettings::max_updates), updates given up
    /// with [`Planner::abandon`](crate::Planner::abandon), or the lag a one-step strategy
    /// forgives when it takes over from an accumulator.
    pub skipped: Duration,
    /// Number of updates to run now.
    pub updates: u32,
    /// Length of each of those updates.
    pub step: Duration,
    /// A last, shorter update to run after them, so the state ends exactly at
    /// [`game_now`](FramePlan::game_now); zero unless
    /// [`LoopSettings::substeps`](crate::LoopSettings::substeps) is on.
    pub substep: Duration,
    /// What to draw once they have run.
    pub view: View,
    /// When to start the next frame.
    pub wake: Wake,
    /// Game time simulated once the updates have run.
    pub simulated: Duration,
    /// The game-clock instant the frame shows: the simulated time plus the lag not yet
    /// simulated. Where something truly is "now" is its position at this game time.
    pub game_now: Duration,
    /// Game time since the previous frame's [`game_now`](FramePlan::game_now): scaled, zero
    /// while paused, what systems that run once a frame (animation, particles, the camera)
    /// advance by. Zero for the first frame.
    ///
    /// ```
    /// use core::time::Duration;
    /// use looplab_timing::{DeltaMode, LoopSettings, Planner, Strategy, TimeScale};
    ///
    /// let ms = Duration::from_millis;
    /// let settings = LoopSettings::default().with_delta_mode(DeltaMode::Measured);
    /// let mut planner = Planner::new(Strategy::Interpolated, settings.clone());
    /// assert_eq!(planner.plan_frame(ms(0)).delta, Duration::ZERO);
    /// assert_eq!(planner.plan_frame(ms(20)).delta, ms(20));
    /// // At half speed, half the real time; paused, none.
    /// planner.set_settings(settings.clone().with_time_scale(TimeScale::ratio(1, 2).unwrap()));
    /// assert_eq!(planner.plan_frame(ms(40)).delta, ms(10));
    /// planner.set_settings(settings.with_paused(true));
    /// assert_eq!(planner.plan_frame(ms(60)).delta, Duration::ZERO);
    /// ```
    pub delta: Duration,
}

impl FramePlan {
    /// Game time the updates of this frame add (the sub-step included).
    pub fn game_advance(&self) -> Duration {
        mul_duration(self.step, u64::from(self.updates)).saturating_add(self.substep)
    }
}

/// When the next frame should start.
///
/// Exhaustive on purpose, like [`Strategy`](crate::Strategy): a loop that matches on it
/// should stop compiling, not fall through, if a new way to wait is ever added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// At once: the loop polls.
    Immediately,
    /// At this time on the planner's clock. It may have passed by the time the frame's work
    /// is done; then there is no wait.
    At(Duration),
}

/// What to draw: the last state, a blend of the last two states and the velocity, or a
/// prediction run on a copy of the state.
///
/// Exhaustive on purpose: a renderer that matches on it must handle every way of drawing,
/// and a new one would be a compile error rather than a silent fallthrough.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum View {
    /// The state after the last update.
    Latest,
    /// Between the previous and the current state: `lerp(previous, current, alpha)`, with
    /// `alpha` in `[0, 1)` the owed fraction of a step. Always right, one step late.
    Interpolate {
        /// How far between the two states, in `[0, 1)`.
        alpha: f32,
    },
    /// Ahead of the current state by its velocity: `current + velocity * alpha * step`.
    /// On time, and wrong whenever the motion turns.
    Extrapolate {
        /// How far ahead, as a fraction of a step in `[0, 1)`.
        alpha: f32,
    },
    /// A prediction: a copy of the state advanced by one more update to the game-clock
    /// instant `to`, with the newest input, and drawn as it is. The real state stays on
    /// its fixed steps; only the copy runs the odd-length update. On time, and as right as
    /// the update is over a part of a step (see [`predicted`](crate::strategy::predicted)).
    Predict {
        /// The game-clock instant the copy is advanced to.
        to: Duration,
        /// What the copy starts from.
        from: PredictFrom,
    },
}

/// Where a [`View::Predict`] copy starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PredictFrom {
    /// A fresh copy of the state after the last update, advanced by
    /// [`View::ahead_of`] that state's game time: the lag (the render tick).
    Latest,
    /// The copy drawn last frame, advanced on from its own game time to `to` (the
    /// accumulated render tick). Only when no update ran since that copy was made.
    Kept,
}

impl View {
    /// The blend factor, or 0 when the view draws a state as it is (the latest, or a
    /// prediction).
    pub fn alpha(self) -> f32 {
        match self {
            View::Latest | View::Predict { .. } => 0.0,
            View::Interpolate { alpha } | View::Extrapolate { alpha } => alpha,
        }
    }

    /// For a prediction, the game time to advance a copy that stands at `time` (the copy's
    /// own game time): its one odd-length update. Zero for the other views, and when the
    /// copy is already there.
    ///
    /// ```
    /// use core::time::Duration;
    /// use looplab_timing::{PredictFrom, View};
    ///
    /// let ms = Duration::from_millis;
    /// let view = View::Predict { to: ms(130), from: PredictFrom::Latest };
    /// assert_eq!(view.ahead_of(ms(100)), ms(30));
    /// assert_eq!(View::Latest.ahead_of(ms(100)), Duration::ZERO);
    /// ```
    pub fn ahead_of(self, time: Duration) -> Duration {
        match self {
            View::Predict { to, .. } => to.saturating_sub(time),
            _ => Duration::ZERO,
        }
    }

    /// The view as two weights, for a renderer that applies it to many values (or in a
    /// shader): see [`Blend`]. A prediction is drawn as it is: the weights of the latest
    /// state, applied to the copy.
    pub fn blend(self, step: Duration) -> Blend {
        match self {
            View::Latest | View::Predict { .. } => Blend::LATEST,
            View::Interpolate { alpha } => Blend {
                back: alpha - 1.0,
                ahead: 0.0,
            },
            View::Extrapolate { alpha } => Blend {
                back: 0.0,
                ahead: alpha * step.as_secs_f32(),
            },
        }
    }

    /// The view as one number `t` for `lerp(previous, current, t)`: 1 draws the latest
    /// state, `alpha` in `[0, 1)` interpolates, and `1 + alpha` extrapolates along the last
    /// update's change (the velocity that update moved at). A prediction is 1: its copy is
    /// drawn as it is.
    pub fn lerp_t(self) -> f32 {
        match self {
            View::Latest | View::Predict { .. } => 1.0,
            View::Interpolate { alpha } => alpha,
            View::Extrapolate { alpha } => 1.0 + alpha,
        }
    }

    /// Where to draw something that was `previous` before the last update and is `current`
    /// after it: [`lerp`]`(previous, current, self.lerp_t())`. Needs nothing but the two
    /// states, so it is the one call most renderers want. Extrapolation continues the last
    /// update's change; use [`apply`](View::apply) to extrapolate by a velocity of your own.
    /// For a prediction, `current` is the copy's state and is drawn as it is.
    ///
    /// ```
    /// use looplab_timing::View;
    ///
    /// let (previous, current) = (0.0_f32, 10.0);
    /// assert_eq!(View::Latest.lerp(previous, current), 10.0);
    /// assert_eq!(View::Interpolate { alpha: 0.25 }.lerp(previous, current), 2.5);
    /// assert_eq!(View::Extrapolate { alpha: 0.5 }.lerp(previous, current), 15.0);
    /// ```
    pub fn lerp<T: Blendable>(self, previous: T, current: T) -> T {
        match self {
            View::Latest | View::Predict { .. } => current,
            _ => lerp(previous, current, self.lerp_t()),
        }
    }

    /// Where to draw something whose state was `previous` before the last update and is
    /// `current` after it, moving at `velocity` per second, when the updates are `step`
    /// long. Works for anything that adds, subtracts and scales by an `f32`: `f32` itself,
    /// vector types such as glam's, or a type of the caller's. For a prediction, `current`
    /// is the copy's state and is drawn as it is.
    ///
    /// ```
    /// use core::time::Duration;
    /// use looplab_timing::View;
    ///
    /// let step = Duration::from_millis(100);
    /// let (previous, current, velocity) = (0.0_f32, 10.0, 100.0);
    /// assert_eq!(View::Latest.apply(previous, current, velocity, step), 10.0);
    /// assert_eq!(View::Interpolate { alpha: 0.25 }.apply(previous, current, velocity, step), 2.5);
    /// assert_eq!(View::Extrapolate { alpha: 0.5 }.apply(previous, current, velocity, step), 15.0);
    /// ```
    pub fn apply<T: Blendable>(self, previous: T, current: T, velocity: T, step: Duration) -> T {
        self.blend(step).apply(previous, current, velocity)
    }
}

/// A view as two weights: `drawn = current + (current - previous) * back + velocity * ahead`.
///
/// One formula covers all three views: the latest state is `(0, 0)`, interpolation is
/// `(alpha - 1, 0)` (which is `lerp(previous, current, alpha)`), extrapolation is
/// `(0, alpha * step)` in seconds. A renderer can hand the two numbers to a shader and
/// apply the same formula there, and every drawn position agrees with [`View::apply`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Blend {
    /// Weight of `current - previous`: between -1 (the previous state) and 0.
    pub back: f32,
    /// Seconds of velocity to add.
    pub ahead: f32,
}

impl Blend {
    /// The latest state, unblended.
    pub const LATEST: Blend = Blend {
        back: 0.0,
        ahead: 0.0,
    };

    /// Applies the blend to one value.
    pub fn apply<T: Blendable>(self, previous: T, current: T, velocity: T) -> T {
        current + (current - previous) * self.back + velocity * self.ahead
    }
}

/// A value a [`View`] can blend: anything `Copy` that adds, subtracts and scales by an
/// `f32`. Implemented for every such type.
pub trait Blendable:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<f32, Output = Self>
{
}

impl<T> Blendable for T where T: Copy + Add<Output = T> + Sub<Output = T> + Mul<f32, Output = T> {}

/// `a + (b - a) * t`: linear interpolation over any [`Blendable`] value.
pub fn lerp<T: Blendable>(a: T, b: T, t: f32) -> T {
    a + (b - a) * t
}

/// `current + velocity * ahead`: where something moving at `velocity` per second will be
/// `ahead` from now.
pub fn extrapolate<T: Blendable>(current: T, velocity: T, ahead: Duration) -> T {
    current + velocity * ahead.as_secs_f32()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-component type of the caller's, to show the blend is not tied to `f32`.
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct P(f32, f32);
    impl Add for P {
        type Output = P;
        fn add(self, o: P) -> P {
            P(self.0 + o.0, self.1 + o.1)
        }
    }
    impl Sub for P {
        type Output = P;
        fn sub(self, o: P) -> P {
            P(self.0 - o.0, self.1 - o.1)
        }
    }
    impl Mul<f32> for P {
        type Output = P;
        fn mul(self, k: f32) -> P {
            P(self.0 * k, self.1 * k)
        }
    }

    #[test]
    fn every_view_agrees_with_lerp_and_extrapolate() {
        let step = Duration::from_nanos(16_666_667);
        let (prev, cur, vel) = (P(1.0, 2.0), P(3.0, 2.5), P(120.0, 30.0));
        assert_eq!(View::Latest.apply(prev, cur, vel, step), cur);
        for alpha in [0.0, 0.25, 0.4, 0.999] {
            let i = View::Interpolate { alpha }.apply(prev, cur, vel, step);
            let l = lerp(prev, cur, alpha);
            assert!(
                (i.0 - l.0).abs() < 1e-5 && (i.1 - l.1).abs() < 1e-5,
                "{alpha}"
            );
            let e = View::Extrapolate { alpha }.apply(prev, cur, vel, step);
            let x = extrapolate(cur, vel, step.mul_f32(alpha));
            assert!(
                (e.0 - x.0).abs() < 1e-4 && (e.1 - x.1).abs() < 1e-4,
                "{alpha}"
            );
        }
    }

    #[test]
    fn the_weights_are_the_documented_ones() {
        let step = Duration::from_millis(20);
        assert_eq!(View::Latest.blend(step), Blend::LATEST);
        assert_eq!(
            View::Interpolate { alpha: 0.25 }.blend(step),
            Blend {
                back: -0.75,
                ahead: 0.0
            }
        );
        assert_eq!(
            View::Extrapolate { alpha: 0.5 }.blend(step),
            Blend {
                back: 0.0,
                ahead: 0.01
            }
        );
        assert_eq!(View::Extrapolate { alpha: 0.5 }.alpha(), 0.5);
        assert_eq!(View::Latest.alpha(), 0.0);
    }

    #[test]
    fn game_advance_is_updates_times_step() {
        let plan = FramePlan {
            now: Duration::ZERO,
            elapsed: Duration::ZERO,
            measured: Duration::ZERO,
            clamped: Duration::ZERO,
            hitch: false,
            skipped: Duration::ZERO,
            updates: 3,
            step: Duration::from_nanos(16_666_667),
            substep: Duration::ZERO,
            view: View::Latest,
            wake: Wake::Immediately,
            simulated: Duration::ZERO,
            game_now: Duration::ZERO,
            delta: Duration::ZERO,
        };
        assert_eq!(plan.game_advance(), Duration::from_nanos(50_000_001));
        let sub = FramePlan {
            substep: Duration::from_millis(5),
            ..plan
        };
        assert_eq!(sub.game_advance(), Duration::from_nanos(55_000_001));
    }
}
