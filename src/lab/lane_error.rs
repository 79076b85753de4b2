//! Why a `--lane` is refused: one line each.

use std::fmt;

use looplab_timing::TimingError;

use super::profile_error::ProfileError;
use crate::text::value_error::ValueError;

/// Why a lane's argument is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum LaneError {
    /// `capture=` with no file after it.
    NoCaptureFile {
        spec: String,
    },
    /// No `/` between a profile and a strategy.
    NotProfileStrategy {
        spec: String,
    },
    Profile(ProfileError),
    /// The strategy is none the timing crate has.
    Strategy(TimingError),
    /// The way deltas are read, after `+`, is none.
    Delta(ValueError),
}

impl From<ProfileError> for LaneError {
    fn from(e: ProfileError) -> Self {
        LaneError::Profile(e)
    }
}

impl fmt::Display for LaneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaneError::NoCaptureFile { spec } => {
                write!(f, "{spec:?} names no capture file (capture=FILE)")
            }
            LaneError::NotProfileStrategy { spec } => {
                write!(
                    f,
                    "{spec:?} is not PROFILE/STRATEGY, like weak-gpu/variable"
                )
            }
            LaneError::Profile(e) => e.fmt(f),
            LaneError::Strategy(e) => e.fmt(f),
            LaneError::Delta(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LaneError {}
