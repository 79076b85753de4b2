//! Why a recording cannot be replayed: each reason is one line, after the file's name.

use std::fmt;

use looplab_timing::TimingError;

use super::json_lines::HeaderError;
use crate::world::WorldConfig;

/// Why a recording is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordingError {
    /// Its first line is not a recording's header (of this version).
    Header(HeaderError),
    /// A version 1 recording, of held arrows, which the updates do not read.
    Version1,
    /// A line, and what is wrong on it.
    Line { line: usize, problem: LineProblem },
    /// Lines after the checksum line, the first of them here.
    MoreAfterChecksum { line: usize },
    /// It has no end: the run that wrote these many changes never finished.
    CutShort { changes: usize },
    /// Its checksum is not that of the lines above it.
    Changed,
}

/// What is wrong on a recording's line.
#[derive(Clone, Debug, PartialEq)]
pub enum LineProblem {
    /// The header's strategy is none Looplab has.
    Strategy(TimingError),
    /// A rate of the header's is none a loop can run at.
    Rate {
        field: &'static str,
        error: TimingError,
    },
    /// More bullets than a world holds.
    Bullets(usize),
    /// An update limit of zero.
    NoUpdates,
    /// A change's thrust is not two numbers at most 1 long.
    Thrust,
    /// A change with more dashes than an update may make.
    Dashes { most: u32 },
    /// A change that does not come after the one above it.
    StepsMustIncrease,
    /// A change or an end line after the end line.
    AfterTheEnd,
    /// None of the lines a recording has.
    NotALine,
    /// The end line's hash is not one.
    Hash,
    /// The end line's game time is more than a day.
    EndsAfterADay,
    /// The end comes before the last change.
    EndsBeforeLastChange,
}

impl From<HeaderError> for RecordingError {
    fn from(e: HeaderError) -> Self {
        match e {
            HeaderError::Version { found: 1, .. } => RecordingError::Version1,
            e => RecordingError::Header(e),
        }
    }
}

impl fmt::Display for RecordingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordingError::Header(e) => e.fmt(f),
            RecordingError::Version1 => write!(
                f,
                "is a version 1 recording, of held arrows; this Looplab records what each \
                 update received (version 2) and cannot replay it exactly: record it again"
            ),
            RecordingError::Line { line, problem } => write!(f, "line {line}{problem}"),
            RecordingError::MoreAfterChecksum { line } => {
                write!(f, "has more after its checksum line (line {line})")
            }
            RecordingError::CutShort { changes } => write!(
                f,
                "was cut short after {changes} change{}: the run that made it did not finish \
                 (it was killed, or the machine stopped), so it has no end state to check a \
                 replay against",
                if *changes == 1 { "" } else { "s" }
            ),
            RecordingError::Changed => write!(
                f,
                "was changed after it was written (its checksum does not match)"
            ),
        }
    }
}

/// What follows the line's number: ": " and the problem, or " is not ..." for a line that
/// is none of a recording's.
impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::Strategy(e) => write!(f, ": strategy: {e}"),
            LineProblem::Rate { field, error } => write!(f, ": {field}: {error}"),
            LineProblem::Bullets(n) => write!(
                f,
                ": bullets: {n} is more than the {} a world holds",
                WorldConfig::MAX_BULLETS
            ),
            LineProblem::NoUpdates => write!(f, ": max_updates must be at least 1 (or null)"),
            LineProblem::Thrust => write!(f, ": thrust must be two numbers, at most 1 long"),
            LineProblem::Dashes { most } => {
                write!(f, ": dashes must be at most {most} an update")
            }
            LineProblem::StepsMustIncrease => write!(f, ": steps must increase"),
            LineProblem::AfterTheEnd => write!(f, ": only the checksum may follow the end line"),
            LineProblem::NotALine => {
                write!(f, " is not an input line, the end line or the checksum")
            }
            LineProblem::Hash => write!(f, ": hash is not 16 hex digits"),
            LineProblem::EndsAfterADay => {
                write!(f, ": it ends after more than a day of game time")
            }
            LineProblem::EndsBeforeLastChange => {
                write!(f, ": it ends before its last input change")
            }
        }
    }
}

impl std::error::Error for RecordingError {}
