//! Why a capture cannot be read: one line each, after the file's name. The file's format is
//! told first, then its rows are read, then one application's frames are chosen, and each
//! step refuses in its own terms.

/// The formats Looplab reads, as a refusal lists them.
pub const READS: &str = "PresentMon 1.x and 2.x CSV, OCAT, CapFrameX JSON and CSV, FrameView's per-frame log, MangoHud's log";

use std::fmt;

/// Where in a capture a refused value is: a line of a CSV file, or a frame of CapFrameX's
/// JSON (whose arrays have no lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    Line(usize),
    Frame(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(n) => write!(f, "line {n}"),
            Place::Frame(n) => write!(f, "frame {n}"),
        }
    }
}

/// A tool's summary of a capture, handed in where its frames were meant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SummaryFile {
    FrameView,
    PresentMonApp,
    MangoHud,
}

/// Why a capture is refused: its format could not be told, a row could not be read, or no
/// frames of one application could be chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum CaptureError {
    Format(FormatError),
    Row(RowError),
    Choice(ChoiceError),
}

/// Why a capture's format is none Looplab reads, told from its first lines (or, for
/// CapFrameX's JSON, its shape).
#[derive(Clone, Debug, PartialEq)]
pub enum FormatError {
    /// Nothing but blank lines.
    Empty,
    /// Its first line is none of the formats Looplab reads.
    NotACapture,
    /// A tool's summary, not its frames.
    Summary(SummaryFile),
    /// MangoHud's system line with no column header after it.
    MangoHudWithoutHeader,
    /// CapFrameX's `//` lines with no column header after them.
    CapFrameXWithoutHeader,
    /// A PresentMon-style header with none of the frame-time columns of its versions.
    PresentMonWithoutFrameTime,
    /// A header without the frame-time column its format reads, by these names.
    NoFrameTimeColumn {
        names: String,
    },
    /// CapFrameX's JSON that does not read as one: serde's words.
    NotCapFrameX(String),
    /// CapFrameX's JSON with no run, or none with frame times.
    NoRuns,
    NoMsBetweenPresents,
    /// A CapFrameX run whose array `name` holds `values`, where the frame times hold
    /// `frames`.
    ArraysDiffer {
        frames: usize,
        name: &'static str,
        values: usize,
    },
}

/// Why a row of a capture cannot be read.
#[derive(Clone, Debug, PartialEq)]
pub enum RowError {
    /// A line the CSV reader refused (where it says which), in its words.
    Csv { line: Option<usize>, why: String },
    /// A value that is not a number, quoted and cut short.
    NotANumber {
        place: Place,
        column: String,
        value: String,
    },
    /// A row with no frame time in `column`.
    NoFrameTime { place: Place, column: String },
    /// A frame time (or busy time) below zero or over an hour.
    NotAFrameTime { place: Place, what: String, ms: f64 },
    /// More rows than a capture may hold.
    TooManyRows,
    /// More frames of one application than a capture may hold.
    TooManyFrames { application: String },
    /// MangoHud's `elapsed` going back from one row to the next, by `back_s` seconds where
    /// that is a number.
    OutOfOrder {
        line: usize,
        value: String,
        before: String,
        back_s: Option<f64>,
    },
}

/// Why no application's frames can be replayed.
#[derive(Clone, Debug, PartialEq)]
pub enum ChoiceError {
    /// No frame of the application chosen.
    NoFrames,
    /// `--process` names an application the capture does not hold; it holds these, by
    /// frames (the first eight), and `more` beside them.
    NoSuchProcess {
        process: String,
        holds: Vec<(String, usize)>,
        more: bool,
    },
    /// Fewer than the two frames a replay needs.
    TooFewFrames { frames: usize, application: String },
    /// Frames whose frame times are all zero: no time to replay.
    NoTime {
        frames: usize,
        application: String,
        column: String,
    },
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaptureError::Format(e) => e.fmt(f),
            CaptureError::Row(e) => e.fmt(f),
            CaptureError::Choice(e) => e.fmt(f),
        }
    }
}

impl From<FormatError> for CaptureError {
    fn from(e: FormatError) -> Self {
        CaptureError::Format(e)
    }
}

impl From<RowError> for CaptureError {
    fn from(e: RowError) -> Self {
        CaptureError::Row(e)
    }
}

impl From<ChoiceError> for CaptureError {
    fn from(e: ChoiceError) -> Self {
        CaptureError::Choice(e)
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FormatError::Empty => write!(f, "is empty"),
            FormatError::NotACapture => write!(
                f,
                "is not a frame capture Looplab reads (it reads {READS}; told from the first \
                 line)"
            ),
            FormatError::Summary(SummaryFile::FrameView) => write!(
                f,
                "is FrameView's summary, not a capture: read its per-frame FrameView_..._Log.csv"
            ),
            FormatError::Summary(SummaryFile::PresentMonApp) => write!(
                f,
                "is the PresentMon capture app's -stats.csv summary, not a capture: read the \
                 .csv beside it"
            ),
            FormatError::Summary(SummaryFile::MangoHud) => write!(
                f,
                "is MangoHud's _summary.csv, not a capture: read the log beside it"
            ),
            FormatError::MangoHudWithoutHeader => write!(
                f,
                "is a MangoHud log with no column header (fps,frametime,...)"
            ),
            FormatError::CapFrameXWithoutHeader => write!(
                f,
                "is a CapFrameX file with only // lines and no column header"
            ),
            FormatError::PresentMonWithoutFrameTime => write!(
                f,
                "has a PresentMon-style header with no frame-time column (MsBetweenPresents, \
                 MsCPUBusy or FrameTime)"
            ),
            FormatError::NoFrameTimeColumn { names } => {
                write!(f, "the header has no frame-time column ({names})")
            }
            FormatError::NotCapFrameX(why) => write!(f, "is not a CapFrameX capture: {why}"),
            FormatError::NoRuns => write!(f, "is a CapFrameX capture with no runs"),
            FormatError::NoMsBetweenPresents => {
                write!(f, "is a CapFrameX capture with no MsBetweenPresents")
            }
            FormatError::ArraysDiffer {
                frames,
                name,
                values,
            } => write!(
                f,
                "is a CapFrameX capture whose arrays differ in length: MsBetweenPresents has \
                 {frames} values, {name} {values}"
            ),
        }
    }
}

impl fmt::Display for RowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowError::Csv { line: Some(n), why } => write!(f, "line {n}: {why}"),
            RowError::Csv { line: None, why } => f.write_str(why),
            RowError::NotANumber {
                place,
                column,
                value,
            } => write!(f, "{place}, {column}: {value:?} is not a number"),
            RowError::NoFrameTime {
                place: place @ Place::Line(_),
                column,
            } => write!(
                f,
                "{place}: no {column} (the row ends before it, or it is empty)"
            ),
            RowError::NoFrameTime { place, column } => write!(f, "{place} has no {column}"),
            RowError::NotAFrameTime { place, what, ms } => write!(
                f,
                "{place}, {what}: {ms} ms is not a frame time (0 to an hour)"
            ),
            RowError::TooManyRows => write!(f, "holds more than {} rows", super::MAX_FRAMES),
            RowError::TooManyFrames { application } => write!(
                f,
                "holds more than {} frames of {application}",
                super::MAX_FRAMES
            ),
            RowError::OutOfOrder {
                line,
                value,
                before,
                back_s,
            } => {
                let by = back_s.map_or_else(String::new, |s| format!(" {s:.3} s"));
                write!(
                    f,
                    "line {line}, elapsed: {value} goes back{by} from the row before \
                     ({before}): the log's rows are not in time order"
                )
            }
        }
    }
}

impl fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChoiceError::NoFrames => write!(f, "holds no frames"),
            ChoiceError::NoSuchProcess {
                process,
                holds,
                more,
            } => {
                let list: Vec<String> = holds.iter().map(|(a, n)| format!("{a} {n}")).collect();
                let more = if *more { ", ..." } else { "" };
                write!(
                    f,
                    "holds no frames of {process:?} (it holds, by frames: {}{more})",
                    list.join(", ")
                )
            }
            ChoiceError::TooFewFrames {
                frames,
                application,
            } => write!(
                f,
                "holds {frames} frame{} of {}: a replay needs two or more",
                if *frames == 1 { "" } else { "s" },
                named(application)
            ),
            ChoiceError::NoTime {
                frames,
                application,
                column,
            } => write!(
                f,
                "holds {frames} frames of {} whose frame times ({column}) are all zero: they \
                 span no time to replay",
                named(application)
            ),
        }
    }
}

/// An application as a refusal names it: its name, or "its application" where the
/// capture names none.
fn named(application: &str) -> &str {
    if application.is_empty() {
        "its application"
    } else {
        application
    }
}

impl std::error::Error for CaptureError {}
