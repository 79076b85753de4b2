//! Why a value a person typed is refused: an option's, a profile's key's or a lane's part.
//! Each reason is one line, after the option's name (clap adds it) or the key's.

use std::fmt;

use looplab_timing::TimingError;

/// Why a value is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ValueError {
    /// A rate or a strategy the timing crate refuses, in its words.
    Timing(TimingError),
    /// Not of the form the value takes: the value, and what it should be (`a number of
    /// seconds`, `on or off`).
    Not { value: String, what: String },
    /// A number outside the range the value may have: the range, and the number given.
    OutOfRange { range: String, got: String },
    /// A duration with no unit.
    NoUnit { value: String },
    /// A duration below zero.
    Negative { value: String },
    /// A duration's unit that is none of ns, us, ms, s, m and h.
    NotATimeUnit { unit: String, value: String },
    /// A duration longer than the loop can count.
    TooLong { value: String },
    /// A limit of zero, where `off` says no limit.
    Zero,
    /// A strategy that is no id and no key.
    UnknownStrategy { value: String },
}

impl ValueError {
    /// `value` is not `what`.
    pub fn not(value: &str, what: impl Into<String>) -> Self {
        ValueError::Not {
            value: value.to_string(),
            what: what.into(),
        }
    }

    /// `got` is outside `range`.
    pub fn out_of_range(range: impl Into<String>, got: impl fmt::Display) -> Self {
        ValueError::OutOfRange {
            range: range.into(),
            got: got.to_string(),
        }
    }
}

impl From<TimingError> for ValueError {
    fn from(e: TimingError) -> Self {
        ValueError::Timing(e)
    }
}

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValueError::Timing(e) => e.fmt(f),
            ValueError::Not { value, what } => write!(f, "{value:?} is not {what}"),
            ValueError::OutOfRange { range, got } => write!(f, "must be {range}, got {got}"),
            ValueError::NoUnit { value } => {
                write!(
                    f,
                    "{value:?} has no unit (write it like 5ms, 1.5s or 200us)"
                )
            }
            ValueError::Negative { value } => write!(f, "duration {value:?} must not be negative"),
            ValueError::NotATimeUnit { unit, value } => write!(
                f,
                "{unit:?} in {value:?} is not a time unit (use ns, us, ms, s, m or h)"
            ),
            ValueError::TooLong { value } => write!(f, "duration {value:?} is too long"),
            ValueError::Zero => write!(f, "must be longer than zero (or 'off')"),
            ValueError::UnknownStrategy { value } => {
                let ids: Vec<&str> = looplab_timing::Strategy::ALL
                    .iter()
                    .map(|s| s.id())
                    .collect();
                write!(
                    f,
                    "unknown strategy {value:?}: name one ({}) or give its key in the window, \
                     1 to 8",
                    ids.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for ValueError {}
