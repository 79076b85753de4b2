//! The one error type of the crate: a value the loop cannot run with.

use alloc::string::String;
use core::fmt;
use core::time::Duration;

use crate::accepted::{
    MAX_HZ, MAX_JITTER_FIX, MAX_TIME_SCALE, MIN_HZ, MIN_TIME_SCALE, SMOOTHED_FRAMES, STRATEGY_IDS,
};

/// A value the loop cannot run with. Every message names the value and says what would be
/// accepted, so it can be shown to a person as it is.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TimingError {
    /// A rate in hertz that is not finite, not positive, or outside
    /// [`Rate::MIN_HZ`](crate::Rate::MIN_HZ)..=[`Rate::MAX_HZ`](crate::Rate::MAX_HZ).
    InvalidRate(f64),
    /// A period that no accepted rate has (zero, or longer than `1 / Rate::MIN_HZ`).
    InvalidPeriod(Duration),
    /// A time scale that is negative, not finite, above
    /// [`TimeScale::MAX`](crate::TimeScale::MAX), or above zero and below
    /// [`TimeScale::MIN`](crate::TimeScale::MIN), where it would round to a frozen game.
    InvalidTimeScale(f64),
    /// A bound for timer sync ([`DeltaMode::synced_within`](crate::DeltaMode::synced_within))
    /// that is not a number from 0 to
    /// [`DeltaMode::MAX_JITTER_FIX`](crate::DeltaMode::MAX_JITTER_FIX) steps.
    InvalidJitterFix(f32),
    /// A number of frames to smooth over
    /// ([`DeltaMode::smoothed_over`](crate::DeltaMode::smoothed_over)) outside
    /// [`DeltaMode::MIN_SMOOTHED_FRAMES`](crate::DeltaMode::MIN_SMOOTHED_FRAMES)..=[`DeltaMode::MAX_SMOOTHED_FRAMES`](crate::DeltaMode::MAX_SMOOTHED_FRAMES).
    InvalidSmoothedFrames(u8),
    /// A limit of zero updates a frame
    /// ([`LoopSettings::with_max_updates`](crate::LoopSettings::with_max_updates)), which
    /// would stop the game.
    ZeroMaxUpdates,
    /// A stall clamp of zero
    /// ([`LoopSettings::with_max_frame_time`](crate::LoopSettings::with_max_frame_time)),
    /// which would let no time pass.
    ZeroMaxFrameTime,
    /// A hitch limit of zero
    /// ([`LoopSettings::with_resync_after`](crate::LoopSettings::with_resync_after)), which
    /// would make every frame a hitch.
    ZeroResyncAfter,
    /// Text that is not a rate.
    ParseRate(String),
    /// Text that is not a time scale.
    ParseTimeScale(String),
    /// Text that names no strategy.
    UnknownStrategy(String),
}

impl fmt::Display for TimingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimingError::InvalidRate(hz) if !hz.is_finite() => {
                write!(f, "{hz} is not a finite rate")
            }
            TimingError::InvalidRate(hz) if *hz <= 0.0 => {
                write!(f, "rate must be positive, got {hz}")
            }
            TimingError::InvalidRate(hz) => {
                write!(f, "rate {hz} Hz is outside {} to {} Hz", MIN_HZ, MAX_HZ)
            }
            TimingError::InvalidPeriod(d) => write!(
                f,
                "a period of {d:?} is not a rate (periods from 1 us to 100 s are accepted)"
            ),
            TimingError::InvalidTimeScale(x) if *x > 0.0 && *x < MIN_TIME_SCALE => write!(
                f,
                "time scale {x} is below {MIN_TIME_SCALE}, the finest kept (0 stops game time)"
            ),
            TimingError::InvalidTimeScale(x) if x.is_finite() && *x > MAX_TIME_SCALE => {
                write!(f, "time scale {x} is larger than {MAX_TIME_SCALE}")
            }
            TimingError::InvalidTimeScale(x) => write!(
                f,
                "time scale must be a number from 0 to {MAX_TIME_SCALE}, got {x}"
            ),
            TimingError::InvalidJitterFix(x) => write!(
                f,
                "a timer sync bound must be a number from 0 to {MAX_JITTER_FIX} steps, got {x}"
            ),
            TimingError::InvalidSmoothedFrames(n) => write!(
                f,
                "deltas are smoothed over {} to {} frames, got {n}",
                SMOOTHED_FRAMES.0, SMOOTHED_FRAMES.1
            ),
            TimingError::ZeroMaxUpdates => f.write_str(
                "at most 0 updates a frame would stop the game (at least 1; None is unlimited)",
            ),
            TimingError::ZeroMaxFrameTime => f.write_str(
                "a stall clamp of 0 s would let no time pass (None turns the clamp off)",
            ),
            TimingError::ZeroResyncAfter => f.write_str(
                "a hitch limit of 0 s would make every frame a hitch (None never resyncs)",
            ),
            TimingError::ParseRate(s) => {
                write!(
                    f,
                    "{s:?} is not a rate (expected a number of hertz, like 60)"
                )
            }
            TimingError::ParseTimeScale(s) => {
                write!(f, "{s:?} is not a time scale (expected a factor, like 0.5)")
            }
            TimingError::UnknownStrategy(s) => {
                write!(f, "unknown strategy {s:?} (choose from ")?;
                for (i, id) in STRATEGY_IDS.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(id)?;
                }
                f.write_str(")")
            }
        }
    }
}

impl core::error::Error for TimingError {}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn messages_name_the_value_and_what_is_accepted() {
        let cases = [
            (
                TimingError::InvalidRate(f64::NAN),
                "NaN is not a finite rate",
            ),
            (
                TimingError::InvalidRate(-5.0),
                "rate must be positive, got -5",
            ),
            (
                TimingError::InvalidRate(5e6),
                "rate 5000000 Hz is outside 0.01 to 1000000 Hz",
            ),
            (
                TimingError::InvalidTimeScale(2000.0),
                "time scale 2000 is larger than 1000",
            ),
            (
                TimingError::InvalidTimeScale(1e-7),
                "time scale 0.0000001 is below 0.000001, the finest kept (0 stops game time)",
            ),
            (
                TimingError::InvalidTimeScale(-1.0),
                "time scale must be a number from 0 to 1000, got -1",
            ),
            (
                TimingError::InvalidJitterFix(2.5),
                "a timer sync bound must be a number from 0 to 2 steps, got 2.5",
            ),
            (
                TimingError::ZeroMaxUpdates,
                "at most 0 updates a frame would stop the game (at least 1; None is unlimited)",
            ),
            (
                TimingError::InvalidSmoothedFrames(1),
                "deltas are smoothed over 2 to 32 frames, got 1",
            ),
            (
                TimingError::ParseRate("fast".into()),
                "\"fast\" is not a rate (expected a number of hertz, like 60)",
            ),
            (
                TimingError::UnknownStrategy("warp".into()),
                "unknown strategy \"warp\" (choose from uncapped, fixed-sleep, variable, \
                 catch-up, interpolated, extrapolated, predicted, predicted-kept)",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
    }
}
