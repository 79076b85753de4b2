//! The knobs every strategy honours where they apply.

use core::time::Duration;

use crate::delta::DeltaMode;
use crate::error::TimingError;
use crate::units::{Rate, TimeScale};

/// Loop settings shared by all strategies.
///
/// Any of them may change between two frames ([`Planner::set_settings`] and its small
/// setters); the planner keeps game time continuous across the change. Build them from the
/// defaults:
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{LoopSettings, Rate};
///
/// let settings = LoopSettings::default()
///     .with_update_rate(Rate::hz(30.0)?)
///     .with_frame_cap(Some(Rate::SIXTY_HZ))
///     .with_max_updates(Some(5))?;
/// assert_eq!(settings.step(), Duration::from_nanos(33_333_333));
/// # Ok::<(), looplab_timing::TimingError>(())
/// ```
///
/// [`Planner::set_settings`]: crate::Planner::set_settings
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct LoopSettings {
    /// Updates per second of game time for the fixed-step strategies; the step is its
    /// period.
    pub update_rate: Rate,
    /// Frames per second at most, for the strategies that render at their own pace (all but
    /// `uncapped` and `fixed-sleep`, which have their own). `None` renders as fast as the
    /// machine, or vsync, allows.
    pub frame_cap: Option<Rate>,
    /// See [`max_updates`](LoopSettings::max_updates): never `Some(0)`.
    pub(crate) max_updates: Option<u32>,
    /// See [`max_frame_time`](LoopSettings::max_frame_time): never `Some(0)`.
    pub(crate) max_frame_time: Option<Duration>,
    /// See [`resync_after`](LoopSettings::resync_after): never `Some(0)`.
    pub(crate) resync_after: Option<Duration>,
    /// For the accumulator strategies: after the whole steps, simulate the fraction of a
    /// step still owed as one shorter update
    /// ([`FramePlan::substep`](crate::FramePlan::substep)), so the state ends exactly at the
    /// frame's time and is drawn as it is. For simulations that must agree with the clock each frame; the
    /// price is an update of odd length every frame, so runs at different frame rates are
    /// no longer identical.
    pub substeps: bool,
    /// Game time per real time.
    pub time_scale: TimeScale,
    /// When paused, no updates run except single steps.
    pub paused: bool,
    /// How the real time between frames is read: as measured, snapped to the display's
    /// refresh, smoothed, or synchronised to the updates as Godot does.
    pub delta_mode: DeltaMode,
}

impl LoopSettings {
    /// 60 updates a second: the refresh rate of most displays and the step most physics
    /// engines are tuned for.
    pub const DEFAULT_UPDATE_RATE: Rate = Rate::SIXTY_HZ;
    /// Ten updates a frame. At 60 updates a second the game only starts to slow down when
    /// frames take longer than a sixth of a second (below 6 FPS): long after it has stopped
    /// being playable, early enough that a machine too slow for its updates still answers
    /// its input several times a second.
    pub const DEFAULT_MAX_UPDATES: u32 = 10;
    /// A quarter of a second: longer than any ordinary slow frame, so none is cut, and short
    /// enough that a stall owes at most fifteen 60 Hz steps rather than hundreds (of which
    /// [`DEFAULT_MAX_UPDATES`](Self::DEFAULT_MAX_UPDATES) run in the frame). It is also the bound the widely read "Fix Your Timestep!" article and
    /// bevy's `Time<Virtual>` chose.
    pub const DEFAULT_MAX_FRAME_TIME: Duration = Duration::from_millis(250);

    /// The fixed step: the period of [`LoopSettings::update_rate`].
    pub fn step(&self) -> Duration {
        self.update_rate.period()
    }

    /// These settings with another update rate.
    #[must_use]
    pub fn with_update_rate(mut self, rate: Rate) -> Self {
        self.update_rate = rate;
        self
    }

    /// These settings with another frame cap (`None`: no cap).
    #[must_use]
    pub fn with_frame_cap(mut self, cap: Option<Rate>) -> Self {
        self.frame_cap = cap;
        self
    }

    /// Fixed updates allowed in one frame before the game is let slow down instead: the cap
    /// that stops the "spiral of death", where updates that take longer than the time they
    /// simulate make every frame owe more of them. `None` is unlimited.
    pub fn max_updates(&self) -> Option<u32> {
        self.max_updates
    }

    /// The longest real time one frame may account for. A longer gap (a debugger break, a
    /// suspended laptop, a dragged window) is dropped rather than simulated in a burst, and
    /// reported in [`FramePlan::clamped`](crate::FramePlan::clamped). `None` disables the
    /// clamp.
    pub fn max_frame_time(&self) -> Option<Duration> {
        self.max_frame_time
    }

    /// A frame longer than this is a hitch (a level load, a debugger break, a window
    /// dragged): none of its time is simulated and the loop resyncs, so no burst of
    /// catch-up updates follows it, where the stall clamp would still simulate
    /// [`max_frame_time`](LoopSettings::max_frame_time) of it. The plan says so in
    /// [`FramePlan::hitch`](crate::FramePlan::hitch). `None` (the default) leaves long frames
    /// to the clamp; a game that would rather pause over a hitch than run to catch up sets
    /// it a little above its slowest ordinary frame.
    pub fn resync_after(&self) -> Option<Duration> {
        self.resync_after
    }

    /// These settings with another limit of updates per frame (`None`: unlimited). Zero
    /// is refused: no update would ever run.
    ///
    /// ```
    /// use looplab_timing::{LoopSettings, TimingError};
    ///
    /// let settings = LoopSettings::default().with_max_updates(Some(5))?;
    /// assert_eq!(settings.max_updates(), Some(5));
    /// assert_eq!(settings.with_max_updates(Some(0)), Err(TimingError::ZeroMaxUpdates));
    /// # Ok::<(), TimingError>(())
    /// ```
    pub fn with_max_updates(mut self, max: Option<u32>) -> Result<Self, TimingError> {
        if max == Some(0) {
            return Err(TimingError::ZeroMaxUpdates);
        }
        self.max_updates = max;
        Ok(self)
    }

    /// These settings with another stall clamp (`None`: no clamp). Zero is refused: no
    /// time would ever pass.
    pub fn with_max_frame_time(mut self, max: Option<Duration>) -> Result<Self, TimingError> {
        if max == Some(Duration::ZERO) {
            return Err(TimingError::ZeroMaxFrameTime);
        }
        self.max_frame_time = max;
        Ok(self)
    }

    /// These settings with another time scale.
    #[must_use]
    pub fn with_time_scale(mut self, scale: TimeScale) -> Self {
        self.time_scale = scale;
        self
    }

    /// These settings, paused or running.
    #[must_use]
    pub fn with_paused(mut self, paused: bool) -> Self {
        self.paused = paused;
        self
    }

    /// These settings reading frame deltas another way.
    #[must_use]
    pub fn with_delta_mode(mut self, mode: DeltaMode) -> Self {
        self.delta_mode = mode;
        self
    }

    /// These settings treating frames longer than `limit` as hitches (`None`: never). Zero
    /// is refused: every frame would be a hitch, and the game would never move.
    ///
    /// ```
    /// use core::time::Duration;
    /// use looplab_timing::{DeltaMode, LoopSettings, Planner, Strategy};
    ///
    /// let ms = Duration::from_millis;
    /// let settings = LoopSettings::default().with_delta_mode(DeltaMode::Measured);
    /// let mut clamped = Planner::new(Strategy::CatchUp, settings.clone());
    /// let mut resynced = Planner::new(Strategy::CatchUp, settings.with_resync_after(Some(ms(100)))?);
    /// for planner in [&mut clamped, &mut resynced] {
    ///     planner.plan_frame(ms(0));
    /// }
    /// // A 2 s frame (a level load). Clamped to 250 ms, it still owes a burst of updates
    /// // (10, the most a frame may run); as a hitch, nothing, and the plan says why.
    /// let burst = clamped.plan_frame(ms(2000));
    /// let hitch = resynced.plan_frame(ms(2000));
    /// assert_eq!((burst.updates, burst.hitch), (10, false));
    /// assert_eq!((hitch.updates, hitch.hitch), (0, true));
    /// // From there on, one update a step, as before it.
    /// assert_eq!(resynced.plan_frame(ms(2017)).updates, 1);
    /// # Ok::<(), looplab_timing::TimingError>(())
    /// ```
    pub fn with_resync_after(mut self, limit: Option<Duration>) -> Result<Self, TimingError> {
        if limit == Some(Duration::ZERO) {
            return Err(TimingError::ZeroResyncAfter);
        }
        self.resync_after = limit;
        Ok(self)
    }

    /// These settings with sub-stepping on or off.
    ///
    /// ```
    /// use core::time::Duration;
    /// use looplab_timing::{DeltaMode, LoopSettings, Planner, Strategy, View};
    ///
    /// let ms = Duration::from_millis;
    /// let settings = LoopSettings::default()
    ///     .with_update_rate("50".parse().unwrap()) // 20 ms steps
    ///     .with_delta_mode(DeltaMode::Measured)
    ///     .with_substeps(true);
    /// let mut planner = Planner::new(Strategy::Interpolated, settings);
    /// planner.plan_frame(ms(0));
    /// // 30 ms later: one whole step, then the 10 ms still owed as one shorter update, so
    /// // the state stands at the frame's time and is drawn as it is, not blended.
    /// let plan = planner.plan_frame(ms(30));
    /// assert_eq!((plan.updates, plan.step, plan.substep), (1, ms(20), ms(10)));
    /// assert_eq!(plan.view, View::Latest);
    /// assert_eq!(plan.simulated, plan.game_now);
    /// ```
    #[must_use]
    pub fn with_substeps(mut self, substeps: bool) -> Self {
        self.substeps = substeps;
        self
    }

    /// True when game time stands still: paused, or a time scale of zero.
    pub fn is_frozen(&self) -> bool {
        self.paused || self.time_scale.is_zero()
    }
}

impl Default for LoopSettings {
    /// 60 updates a second, no frame cap, at most 10 updates a frame, a 250 ms stall clamp,
    /// no hitch limit, no sub-steps, real-time speed, running, and deltas read with timer
    /// sync ([`DeltaMode::synced`]): on the commonest display, 60 Hz with a noisy timer, it
    /// neither doubles nor skips updates, and needs no refresh rate (the crate README's
    /// "Defaults, and why" has the table).
    fn default() -> Self {
        Self {
            update_rate: Self::DEFAULT_UPDATE_RATE,
            frame_cap: None,
            max_updates: Some(Self::DEFAULT_MAX_UPDATES),
            max_frame_time: Some(Self::DEFAULT_MAX_FRAME_TIME),
            resync_after: None,
            substeps: false,
            time_scale: TimeScale::ONE,
            paused: false,
            delta_mode: DeltaMode::synced(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::Planner;
    use crate::strategy::Strategy;

    #[test]
    fn limits_of_zero_are_refused_and_change_nothing() {
        let s = LoopSettings::default();
        assert_eq!(
            s.clone().with_max_updates(Some(0)),
            Err(TimingError::ZeroMaxUpdates)
        );
        assert_eq!(
            s.clone().with_max_frame_time(Some(Duration::ZERO)),
            Err(TimingError::ZeroMaxFrameTime)
        );
        assert_eq!(
            s.clone().with_resync_after(Some(Duration::ZERO)),
            Err(TimingError::ZeroResyncAfter)
        );
        let one = s.clone().with_max_updates(Some(1)).unwrap();
        assert_eq!(one.max_updates(), Some(1));
        let nanosecond = Some(Duration::from_nanos(1));
        let short = s.clone().with_max_frame_time(nanosecond).unwrap();
        assert_eq!(short.max_frame_time(), nanosecond);
        assert_eq!(
            s.clone().with_resync_after(None).unwrap().resync_after(),
            None
        );

        let mut planner = Planner::new(Strategy::CatchUp, s.clone());
        assert_eq!(
            planner.set_max_updates(Some(0)),
            Err(TimingError::ZeroMaxUpdates)
        );
        assert_eq!(
            planner.set_max_frame_time(Some(Duration::ZERO)),
            Err(TimingError::ZeroMaxFrameTime)
        );
        assert_eq!(planner.settings(), &s, "a refused limit changes nothing");
    }
}
