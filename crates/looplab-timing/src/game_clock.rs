//! The game clock: real time between frames turned into game time to simulate.

use core::time::Duration;

use crate::delta::DeltaReader;
use crate::settings::LoopSettings;
use crate::units::Carry;

/// What one frame's real time amounts to, as measured by [`GameClock::tick`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct FrameTime {
    /// When the frame started.
    pub now: Duration,
    /// Real time since the previous frame started as the loop reads it: synced, measured,
    /// snapped or smoothed by [`LoopSettings::delta_mode`] (zero for the first frame, and
    /// when the clock went backwards).
    pub elapsed: Duration,
    /// Real time since the previous frame started as the clock measured it.
    pub measured: Duration,
    /// The part of `elapsed` beyond the stall clamp, dropped; all of it for a hitch.
    pub clamped: Duration,
    /// True when the frame was longer than
    /// [`LoopSettings::resync_after`](crate::LoopSettings::resync_after): none of it counts,
    /// and the next frame is read from this one's start.
    pub hitch: bool,
    /// Game time to simulate: the rest of `elapsed`, scaled; zero while frozen.
    pub advance: Duration,
    /// True when game time stands still (paused, or a time scale of zero).
    pub frozen: bool,
}

/// Turns the real time between frame starts into game time: it reads the delta as the
/// [`DeltaMode`](crate::DeltaMode) says, drops a hitch or clamps a stall, scales by the time
/// scale and stands still while paused.
///
/// Scaling is exact: the sub-nanosecond remainder of each frame is carried into the next,
/// so at a scale of [`TimeScale::ratio`](crate::TimeScale::ratio)`(1, 3)` a day of frames
/// adds up to a third of a day to the nanosecond (at `TimeScale::new(1.0 / 3.0)`, which is
/// 333 333 millionths, to 0.333333 of it: 28.8 ms short).
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{GameClock, LoopSettings, TimeScale};
///
/// let settings = LoopSettings::default().with_time_scale(TimeScale::new(0.5)?);
/// let mut clock = GameClock::new();
/// clock.tick(Duration::ZERO, &settings);
/// let frame = clock.tick(Duration::from_millis(20), &settings);
/// assert_eq!(frame.advance, Duration::from_millis(10));
/// // A two-second stall counts as the 250 ms clamp.
/// let frame = clock.tick(Duration::from_millis(2020), &settings);
/// assert_eq!(frame.clamped, Duration::from_millis(1750));
/// assert_eq!(frame.advance, Duration::from_millis(125));
/// # Ok::<(), looplab_timing::TimingError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameClock {
    /// Start of the previous frame, `None` before the first one.
    last_frame: Option<Duration>,
    /// The fraction of a nanosecond of scaled time not yet handed out.
    remainder: Carry,
    /// The snapping grid or the smoothing average.
    reader: DeltaReader,
}

impl GameClock {
    /// A clock that has seen no frame yet.
    pub const fn new() -> Self {
        Self {
            last_frame: None,
            remainder: Carry::new(),
            reader: DeltaReader::new(),
        }
    }

    /// Measures the frame that starts at `now`. A `now` earlier than the previous frame's
    /// counts as no time passing (and the later timestamp is kept).
    pub fn tick(&mut self, now: Duration, settings: &LoopSettings) -> FrameTime {
        self.tick_owing(now, settings, Duration::ZERO)
    }

    /// [`tick`](GameClock::tick) for a loop whose accumulator owes `lag` before this frame:
    /// what [`DeltaMode::Synced`](crate::DeltaMode::Synced) counts updates from. The
    /// [`Planner`](crate::Planner) calls this.
    pub fn tick_owing(
        &mut self,
        now: Duration,
        settings: &LoopSettings,
        lag: Duration,
    ) -> FrameTime {
        let measured = self
            .last_frame
            .map_or(Duration::ZERO, |last| now.saturating_sub(last));
        self.last_frame = Some(self.last_frame.map_or(now, |last| last.max(now)));
        let hitch = settings.resync_after.is_some_and(|limit| measured > limit);
        if hitch {
            // Not a slow frame but a stop: count none of it, and read the next frame from
            // here, as after a resync.
            self.reader.resync(now);
            return FrameTime {
                now,
                elapsed: measured,
                measured,
                clamped: measured,
                hitch,
                advance: Duration::ZERO,
                frozen: settings.is_frozen(),
            };
        }
        let elapsed = self
            .reader
            .read(now, measured, settings.delta_mode, settings.step(), lag);
        let counted = clamp(elapsed, settings.max_frame_time);
        let frozen = settings.is_frozen();
        let advance = if frozen {
            Duration::ZERO
        } else {
            settings
                .time_scale
                .scale_carrying(counted, &mut self.remainder)
        };
        FrameTime {
            now,
            elapsed,
            measured,
            clamped: elapsed - counted,
            hitch,
            advance,
            frozen,
        }
    }

    /// Game time that a frame starting at `now` would add, without measuring it: for a view
    /// drawn some time after its frame started.
    pub fn peek(&self, now: Duration, settings: &LoopSettings) -> Duration {
        let Some(last) = self.last_frame else {
            return Duration::ZERO;
        };
        if settings.is_frozen() {
            return Duration::ZERO;
        }
        let counted = clamp(now.saturating_sub(last), settings.max_frame_time);
        settings.time_scale.scale(counted)
    }

    /// Makes `now` the start of the previous frame, so the time before it is never counted:
    /// after a loading screen, or while a window was hidden and no frames ran.
    pub fn resync(&mut self, now: Duration) {
        self.last_frame = Some(now);
        self.reader.resync(now);
    }

    /// Start of the previous frame, if there was one.
    pub fn last_frame(&self) -> Option<Duration> {
        self.last_frame
    }
}

fn clamp(elapsed: Duration, max: Option<Duration>) -> Duration {
    max.map_or(elapsed, |max| elapsed.min(max))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::TimeScale;

    use crate::testing::ms;

    #[test]
    fn the_first_frame_counts_no_time() {
        let mut c = GameClock::new();
        let f = c.tick(ms(500), &LoopSettings::default());
        assert_eq!((f.elapsed, f.advance), (Duration::ZERO, Duration::ZERO));
        assert_eq!(c.last_frame(), Some(ms(500)));
    }

    #[test]
    fn pause_and_zero_scale_freeze_game_time_but_not_the_frame_clock() {
        let s = LoopSettings::default().with_paused(true);
        let mut c = GameClock::new();
        c.tick(ms(0), &s);
        let f = c.tick(ms(30), &s);
        assert!(f.frozen);
        assert_eq!((f.elapsed, f.advance), (ms(30), Duration::ZERO));
        let zero = LoopSettings::default().with_time_scale(TimeScale::ZERO);
        assert!(c.tick(ms(40), &zero).frozen);
        assert_eq!(c.peek(ms(50), &zero), Duration::ZERO);
    }

    #[test]
    fn time_going_backwards_counts_as_no_time() {
        let s = LoopSettings::default();
        let mut c = GameClock::new();
        c.tick(ms(100), &s);
        assert_eq!(c.tick(ms(50), &s).elapsed, Duration::ZERO);
        assert_eq!(c.tick(ms(117), &s).elapsed, ms(17), "from the latest frame");
    }

    #[test]
    fn resync_forgets_the_gap_and_peek_commits_nothing() {
        let s = LoopSettings::default();
        let mut c = GameClock::new();
        c.tick(ms(0), &s);
        assert_eq!(c.peek(ms(8), &s), ms(8));
        assert_eq!(c.peek(ms(8000), &s), ms(250), "clamped like a frame");
        c.resync(ms(9000));
        let f = c.tick(ms(9016), &s);
        assert_eq!(
            (f.elapsed, f.clamped, f.advance),
            (ms(16), Duration::ZERO, ms(16))
        );
    }
}
