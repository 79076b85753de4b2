//! Frame captures of real games, from the tools the field records them with: PresentMon
//! (1.x and 2.x, its console and its capture app), OCAT and CapFrameX (both built on
//! PresentMon), NVIDIA FrameView and MangoHud. A capture becomes one application's frames,
//! each with what it cost and whether the display showed it, for the lab to replay under
//! every strategy (`looplab lab --capture FILE`): what none of those tools can say is what
//! another loop would have done on that machine.
//!
//! Reading goes in three steps:
//! 1. [`format`]: the tool and column set, told from the file's first lines;
//! 2. [`presentmon`] (PresentMon's family, in CSV), [`capframex`] (CapFrameX's JSON) or
//!    [`mangohud`]: the rows, each column found by name and given its role;
//! 3. here: the application chosen (a PresentMon file holds every process on the machine),
//!    generated frames left out, and the [`summary`].
//!
//! [`write`] goes the other way: a Looplab window's frames in PresentMon's 1.x columns, so
//! the field's tools open a Looplab run.

pub mod capframex;
pub mod format;
pub mod mangohud;
pub mod presentmon;
pub mod summary;
pub mod write;

use std::collections::HashMap;
use std::time::Duration;

use format::{ColumnSet, Format, Tool};

/// The largest capture read: a PresentMon file of every process on a machine for an hour
/// or so. A larger one is refused before it is read.
pub const MAX_BYTES: u64 = 512 << 20;

/// The most frames a capture may hold for the application: an hour at 1000 FPS.
pub const MAX_FRAMES: usize = 3_600_000;

/// The longest a frame may take: beyond it, a capture's frame time is taken for a mistake.
const LONGEST_FRAME_MS: f64 = 3_600_000.0;

/// One of the game's frames, as its capture tells it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    /// Milliseconds since the frame before: present to present, or (PresentMon 2.x's
    /// `FrameTime`) CPU start to CPU start.
    pub interval_ms: f64,
    /// The CPU's work on the frame, where the column set has it.
    pub cpu_busy_ms: Option<f64>,
    /// The GPU's work on the frame, where the column set has it.
    pub gpu_busy_ms: Option<f64>,
    /// Time inside the present call (where a vsync'd present waits for the display).
    pub in_present_ms: Option<f64>,
    /// Whether the display showed it; `None` where the capture does not say.
    pub displayed: Option<bool>,
    /// Milliseconds between the display change that showed it and its neighbour (PresentMon's
    /// `MsBetweenDisplayChange` counts back, 2.x's `DisplayedTime` forward: a run of either
    /// adds up to the display's changes).
    pub screen_ms: Option<f64>,
    /// Further frames this row stands for, each like it: a sampled log's row stands for
    /// the frames of its interval (see [`mangohud`]); zero for a row a frame.
    pub more: u32,
}

/// How a frame's cost is measured, by what the column set holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CostFrom {
    /// The CPU's and the GPU's busy time, the larger (they work on different frames at once).
    Busy,
    /// The time between presents less the time inside the present call (a vsync'd present
    /// waits there), or the GPU's busy time where larger.
    OutsidePresent,
    /// Only the time between presents: waits for the display or a frame limiter count as
    /// work.
    Interval,
}

impl Frame {
    /// What the frame cost the machine, by `from` (falling back where a row lacks a value).
    pub fn cost_ms(&self, from: CostFrom) -> f64 {
        let gpu = self.gpu_busy_ms.unwrap_or(0.0);
        match (from, self.cpu_busy_ms, self.in_present_ms) {
            (CostFrom::Busy, Some(cpu), _) if cpu > 0.0 => cpu.max(gpu),
            (CostFrom::Busy | CostFrom::OutsidePresent, _, Some(p)) => {
                (self.interval_ms - p).max(gpu).max(0.0)
            }
            _ => self.interval_ms,
        }
    }
}

/// A row as a reader hands it over, before the application is chosen.
pub(crate) struct Row<'a> {
    pub application: &'a str,
    pub swap_chain: Option<&'a str>,
    pub frame: Frame,
    /// A frame the game did not make (PresentMon 2.x `FrameType` other than `Application`:
    /// frame generation).
    pub generated: bool,
    pub sync_interval: Option<u32>,
    pub allows_tearing: Option<bool>,
    pub present_mode: Option<&'a str>,
}

/// How often each value came, in order of first sight.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally<T> {
    counts: Vec<(T, usize)>,
}

impl<T: PartialEq> Tally<T> {
    fn add_with(&mut self, is: impl Fn(&T) -> bool, make: impl FnOnce() -> T) {
        match self.counts.iter().position(|(v, _)| is(v)) {
            Some(i) => self.counts[i].1 += 1,
            // A few distinct values are a capture's; a thousand are noise not worth keeping.
            None if self.counts.len() < 64 => self.counts.push((make(), 1)),
            None => {}
        }
    }

    /// The value seen most often.
    fn most(&self) -> Option<&T> {
        self.counts.iter().max_by_key(|(_, n)| *n).map(|(v, _)| v)
    }
}

/// One swap chain's frames (a process may present to several).
#[derive(Clone, Debug, Default)]
pub(crate) struct Stream {
    application: String,
    swap_chain: Option<String>,
    frames: Vec<Frame>,
    generated: usize,
    /// The time of generated frames since the last game frame, added to the next one's
    /// interval: a game frame's time is since the game's frame before.
    pending_ms: f64,
    sync_interval: Tally<u32>,
    allows_tearing: Tally<bool>,
    present_mode: Tally<String>,
}

/// Every stream a file holds, and what its reader learnt of its columns.
#[derive(Clone, Debug, Default)]
pub(crate) struct Streams {
    streams: Vec<Stream>,
    /// Stream index by application, then swap chain.
    index: HashMap<String, Vec<(Option<String>, usize)>>,
    pub rows: usize,
    pub frame_time_column: String,
    pub cpu_column: Option<String>,
    pub gpu_column: Option<String>,
    pub in_present_column: Option<String>,
    pub screen_column: Option<String>,
    pub sampled: Option<Sampling>,
    pub notes: Vec<String>,
}

impl Streams {
    /// Adds a row read from line `line`.
    pub(crate) fn push(&mut self, row: Row<'_>, line: usize) -> Result<(), String> {
        let f = row.frame;
        for (value, what) in [
            (Some(f.interval_ms), self.frame_time_column.as_str()),
            (f.cpu_busy_ms, "the CPU's busy time"),
            (f.gpu_busy_ms, "the GPU's busy time"),
        ] {
            if let Some(v) = value
                && !(0.0..=LONGEST_FRAME_MS).contains(&v)
            {
                return Err(format!(
                    "line {line}, {what}: {v} ms is not a frame time (0 to an hour)"
                ));
            }
        }
        self.rows += 1;
        let i = self.stream_of(row.application, row.swap_chain);
        let s = &mut self.streams[i];
        if let Some(v) = row.sync_interval {
            s.sync_interval.add_with(|x| *x == v, || v);
        }
        if let Some(v) = row.allows_tearing {
            s.allows_tearing.add_with(|x| *x == v, || v);
        }
        if let Some(m) = row.present_mode {
            s.present_mode.add_with(|x| x == m, || m.to_string());
        }
        if row.generated {
            s.generated += 1;
            s.pending_ms += f.interval_ms;
            return Ok(());
        }
        if s.frames.len() == MAX_FRAMES {
            return Err(format!(
                "holds more than {MAX_FRAMES} frames of {}",
                s.application
            ));
        }
        let interval_ms = f.interval_ms + std::mem::take(&mut s.pending_ms);
        s.frames.push(Frame { interval_ms, ..f });
        Ok(())
    }

    fn stream_of(&mut self, application: &str, swap_chain: Option<&str>) -> usize {
        if let Some(list) = self.index.get(application)
            && let Some((_, i)) = list.iter().find(|(s, _)| s.as_deref() == swap_chain)
        {
            return *i;
        }
        let i = self.streams.len();
        self.streams.push(Stream {
            application: application.to_string(),
            swap_chain: swap_chain.map(str::to_string),
            ..Stream::default()
        });
        self.index
            .entry(application.to_string())
            .or_default()
            .push((swap_chain.map(str::to_string), i));
        i
    }
}

/// A log written every so often rather than each frame (MangoHud's `log_interval`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// The typical time between samples.
    pub every: Duration,
    /// Samples in the file.
    pub samples: usize,
}

/// Another process or swap chain the file held.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Other {
    pub application: String,
    pub swap_chain: Option<String>,
    pub frames: usize,
}

/// How the capture presented, from its columns (the value most frames had).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Presenting {
    pub sync_interval: Option<u32>,
    pub allows_tearing: Option<bool>,
    pub present_mode: Option<String>,
}

impl Presenting {
    /// Whether presents waited for the display: a sync interval of one or more; `None`
    /// where the capture does not say.
    pub fn vsync(&self) -> Option<bool> {
        self.sync_interval.map(|s| s > 0)
    }
}

/// One application's frames from a capture.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    pub format: Format,
    pub application: String,
    pub swap_chain: Option<String>,
    /// The game's frames, in order, generated ones left out.
    pub frames: Vec<Frame>,
    /// Frames left out as generated (frame generation), not the game's.
    pub generated: usize,
    /// What else the file held.
    pub others: Vec<Other>,
    /// Rows read in all, every process's.
    pub rows: usize,
    /// The column the frame times come from.
    pub frame_time_column: String,
    pub cost_from: CostFrom,
    /// The columns a frame's cost comes from, in words.
    pub cost_columns: String,
    /// The column the display's changes come from, where there is one.
    pub screen_column: Option<String>,
    pub presenting: Presenting,
    pub sampled: Option<Sampling>,
    /// What the reader noticed and the summary should say (a unit told from the values).
    pub notes: Vec<String>,
}

impl Capture {
    /// Reads a capture of any format Looplab knows, for the application named `process`
    /// (case-insensitively, `.exe` optional), or the one with the most frames.
    pub fn read(bytes: &[u8], process: Option<&str>) -> Result<Capture, String> {
        let text = String::from_utf8_lossy(bytes);
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let found = format::detect(text)?;
        let mut streams = Streams::default();
        match found.format.columns {
            ColumnSet::CapFrameXJson => capframex::read(&text[found.header_at..], &mut streams)?,
            ColumnSet::MangoHud => mangohud::read(text, &found, &mut streams)?,
            _ => presentmon::read(text, &found, &mut streams)?,
        }
        Self::choose(found.format, streams, process)
    }

    fn choose(format: Format, s: Streams, process: Option<&str>) -> Result<Capture, String> {
        let app = application(&s, process)?;
        let app = app.as_str();
        // The application's busiest swap chain.
        let chosen = s
            .streams
            .iter()
            .enumerate()
            .filter(|(_, x)| x.application == app)
            .max_by_key(|(i, x)| (x.frames.len(), std::cmp::Reverse(*i)))
            .map(|(i, _)| i)
            .ok_or_else(|| "holds no frames".to_string())?;
        let others: Vec<Other> = s
            .streams
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != chosen)
            .map(|(_, x)| Other {
                application: x.application.clone(),
                swap_chain: x.swap_chain.clone(),
                frames: x.frames.len(),
            })
            .collect();
        let (cost_from, cost_columns) = cost_source(&s, &s.streams[chosen]);
        let stream = s.streams.into_iter().nth(chosen).unwrap_or_default();
        if stream.frames.len() < 2 {
            return Err(format!(
                "holds {} frame{} of {}: a replay needs two or more",
                stream.frames.len(),
                if stream.frames.len() == 1 { "" } else { "s" },
                if app.is_empty() {
                    "its application"
                } else {
                    app
                }
            ));
        }
        Ok(Capture {
            format,
            application: stream.application,
            swap_chain: stream.swap_chain,
            generated: stream.generated,
            presenting: Presenting {
                sync_interval: stream.sync_interval.most().copied(),
                allows_tearing: stream.allows_tearing.most().copied(),
                present_mode: stream.present_mode.most().cloned(),
            },
            frames: stream.frames,
            others,
            rows: s.rows,
            frame_time_column: s.frame_time_column,
            cost_from,
            cost_columns,
            screen_column: s.screen_column,
            sampled: s.sampled,
            notes: s.notes,
        })
    }

    /// Real time from the first frame to the last.
    pub fn span(&self) -> Duration {
        let ms: f64 = self
            .frames
            .iter()
            .enumerate()
            .map(|(i, f)| f.interval_ms * (f64::from(f.more) + f64::from(u8::from(i > 0))))
            .sum();
        Duration::from_secs_f64(ms / 1e3)
    }

    /// The game's frames, a sampled log's rows counted as the frames they stand for.
    pub fn frame_count(&self) -> u64 {
        self.frames.iter().map(|f| 1 + u64::from(f.more)).sum()
    }

    /// Each frame's cost in turn, a sampled log's rows repeated for the frames they stand
    /// for, at most `limit` of them.
    pub fn costs(&self, limit: usize) -> impl Iterator<Item = Duration> + '_ {
        self.frames
            .iter()
            .flat_map(|f| {
                let cost = Duration::from_secs_f64(f.cost_ms(self.cost_from) / 1e3);
                std::iter::repeat_n(cost, 1 + f.more as usize)
            })
            .take(limit)
    }

    /// Whether this is the tool's format, whatever the column set.
    pub fn is_from(&self, tool: Tool) -> bool {
        self.format.tool == tool
    }
}

/// A field as a number of milliseconds (or a count): `None` where it is empty or `NA`;
/// `Err` with the field, quoted and cut short, where it is not a finite number.
pub(crate) fn number(field: Option<&str>) -> Result<Option<f64>, String> {
    let Some(f) = field.map(str::trim) else {
        return Ok(None);
    };
    if f.is_empty() || f.eq_ignore_ascii_case("NA") || f == "-" {
        return Ok(None);
    }
    match f.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        _ => {
            let shown: String = f.chars().take(24).collect();
            Err(format!("{shown:?}"))
        }
    }
}

/// The application replayed: `process` (its name with or without `.exe`, in any case), or
/// the one with the most frames; when `process` holds none, the applications the capture
/// does hold, by frames.
fn application(s: &Streams, process: Option<&str>) -> Result<String, String> {
    let frames_of = |app: &str| -> usize {
        s.streams
            .iter()
            .filter(|x| x.application == app)
            .map(|x| x.frames.len())
            .sum()
    };
    let mut apps: Vec<(&str, usize)> = Vec::new();
    for x in &s.streams {
        if !apps.iter().any(|(a, _)| *a == x.application) {
            apps.push((&x.application, frames_of(&x.application)));
        }
    }
    apps.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let Some(p) = process else {
        return Ok(apps.first().map(|(a, _)| a.to_string()).unwrap_or_default());
    };
    let bare = |a: &str| {
        let a = a.trim().to_lowercase();
        a.strip_suffix(".exe").map(str::to_string).unwrap_or(a)
    };
    if let Some((a, _)) = apps.iter().find(|(a, _)| bare(a) == bare(p)) {
        return Ok(a.to_string());
    }
    let list: Vec<String> = apps
        .iter()
        .take(8)
        .map(|(a, n)| format!("{a} {n}"))
        .collect();
    let more = if apps.len() > 8 { ", ..." } else { "" };
    Err(format!(
        "holds no frames of {p:?} (it holds, by frames: {}{more})",
        list.join(", ")
    ))
}

/// Where a frame's cost comes from in this stream, and the columns it is read from: the
/// busy times where the capture has them, else the frame's time outside its present call,
/// else the frame interval itself.
fn cost_source(s: &Streams, stream: &Stream) -> (CostFrom, String) {
    let has_cpu = stream
        .frames
        .iter()
        .any(|f| f.cpu_busy_ms.is_some_and(|c| c > 0.0));
    let has_present = stream.frames.iter().any(|f| f.in_present_ms.is_some());
    let has_gpu = stream
        .frames
        .iter()
        .any(|f| f.gpu_busy_ms.is_some_and(|g| g > 0.0));
    let gpu = if has_gpu { s.gpu_column.clone() } else { None };
    match (&s.cpu_column, &s.in_present_column) {
        (Some(cpu), _) if has_cpu => (
            CostFrom::Busy,
            match &gpu {
                Some(g) => format!("{cpu} and {g}, the larger"),
                None => cpu.clone(),
            },
        ),
        (_, Some(p)) if has_present => (
            CostFrom::OutsidePresent,
            match &gpu {
                Some(g) => format!("{} less {p}, or {g} where larger", s.frame_time_column),
                None => format!("{} less {p}", s.frame_time_column),
            },
        ),
        _ => (CostFrom::Interval, s.frame_time_column.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_missing_values_and_words() {
        assert_eq!(number(Some(" 16.5 ")), Ok(Some(16.5)));
        assert_eq!(number(Some("NA")), Ok(None));
        assert_eq!(number(Some("")), Ok(None));
        assert_eq!(number(None), Ok(None));
        assert_eq!(number(Some("NaN")), Err("\"NaN\"".into()));
        assert_eq!(number(Some("abc")), Err("\"abc\"".into()));
    }

    #[test]
    fn a_frame_costs_what_its_columns_allow() {
        let f = Frame {
            interval_ms: 16.7,
            cpu_busy_ms: Some(5.0),
            gpu_busy_ms: Some(7.0),
            in_present_ms: Some(10.0),
            ..Frame::default()
        };
        assert_eq!(f.cost_ms(CostFrom::Busy), 7.0);
        assert!((f.cost_ms(CostFrom::OutsidePresent) - 7.0).abs() < 1e-9);
        let f = Frame {
            gpu_busy_ms: None,
            ..f
        };
        assert!((f.cost_ms(CostFrom::OutsidePresent) - 6.7).abs() < 1e-9);
        assert_eq!(f.cost_ms(CostFrom::Interval), 16.7);
        // A row whose CPU time is missing (2.x writes 0) falls back to what it has.
        let f = Frame {
            cpu_busy_ms: Some(0.0),
            ..f
        };
        assert!((f.cost_ms(CostFrom::Busy) - 6.7).abs() < 1e-9);
    }
}
