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
//!    generated frames left out, a frame limiter told ([`limiter`]), what each frame cost
//!    ([`work`]), the display ([`display`]), what the capture measured in the field's terms
//!    ([`figures`]) and the [`summary`].
//!
//! [`write`] goes the other way: a Looplab window's frames in PresentMon's 1.x columns, so
//! the field's tools open a Looplab run.

pub mod capframex;
pub mod display;
pub mod error;
pub mod figures;
pub mod format;
pub mod limiter;
pub mod mangohud;
pub mod presentmon;
pub mod streams;
pub mod summary;
pub mod work;
pub mod write;

use std::time::Duration;

pub use error::{CaptureError, ChoiceError, FormatError, Place, RowError};
use format::{ColumnSet, Format, Tool};
use limiter::Limiter;
pub use streams::Columns;
use streams::{Row, Streams};

/// The largest capture read: a PresentMon file of every process on a machine for an hour
/// or so. A larger one is refused before it is read.
pub const MAX_BYTES: u64 = 512 << 20;

/// The most frames a capture may hold for the application: an hour at 1000 FPS.
pub const MAX_FRAMES: usize = 3_600_000;

/// One of the game's frames, as its capture tells it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Frame {
    /// Milliseconds since the frame before: present to present, or (PresentMon 2.x's
    /// `FrameTime`) CPU start to CPU start (see [`Timeline`]).
    pub interval_ms: f64,
    /// The CPU's work on the frame, where the column set has it.
    pub cpu_busy_ms: Option<f64>,
    /// The GPU's work on the frame, where the column set has it.
    pub gpu_busy_ms: Option<f64>,
    /// Time inside the present call (where a vsync'd present waits for the display).
    pub in_present_ms: Option<f64>,
    /// From the start of the present call until the GPU finished the frame
    /// (`MsUntilRenderComplete`, 2.x's and FrameView's `MsRenderPresentLatency`).
    pub until_render_complete_ms: Option<f64>,
    /// Whether the display showed it; `None` where the capture does not say.
    pub displayed: Option<bool>,
    /// Milliseconds between the display change that showed it and its neighbour (PresentMon's
    /// `MsBetweenDisplayChange` counts back, 2.x's `DisplayedTime` forward: a run of either
    /// adds up to the display's changes).
    pub screen_ms: Option<f64>,
    /// From the frame's place on the timeline (its present's start, or with `--v2_metrics`
    /// its CPU start) until the display showed it: `MsUntilDisplayed`, `DisplayLatency`.
    pub until_displayed_ms: Option<f64>,
    /// The capture's own animation error for it (`MsAnimationError`, `AnimationError`).
    pub animation_error_ms: Option<f64>,
    /// The latencies the capture measured, where it has their columns.
    pub latency: Latency,
    /// What the frame cost the machine, by [`Capture::cost_from`]: set once every frame is
    /// read ([`work`]).
    pub work_ms: f64,
    /// Further frames this row stands for, each like it: a sampled log's row stands for
    /// the frames of its interval (see [`mangohud`]); zero for a row a frame.
    pub more: u32,
}

/// The latencies a capture's columns carry for a frame, ms.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Latency {
    /// NVIDIA's PC latency (Reflex markers): from input to the frame sent to the display
    /// (`MsPCLatency`; CapFrameX's `PcLatency`).
    pub pc_ms: Option<f64>,
    /// From the game's own instrumented start (its sleep's end, or simulation start) to the
    /// display (`InstrumentedLatency`, `MsInstrumentedLatency`).
    pub instrumented_ms: Option<f64>,
    /// From the earliest keyboard or mouse input to the display (`AllInputToPhotonLatency`,
    /// `MsAllInputToPhotonLatency`).
    pub input_to_photon_ms: Option<f64>,
}

/// How a frame's cost is measured, by what the column set holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CostFrom {
    /// The CPU's and the GPU's busy time, the larger (they work on different frames at once).
    Busy,
    /// The CPU's part of the frame (the time between presents less the frame before's time
    /// in its present call, where a vsync'd or back-pressured present waits) and the GPU's
    /// (busy, or its render measured to when it completed), the larger.
    OutsidePresent,
    /// Only the GPU's: the game's frame limiter waits before its present, so the CPU's
    /// columns hold the wait and its work is hidden (a lower bound of what a frame cost).
    GpuUnderLimiter,
    /// Only the time between presents: waits for the display or a frame limiter count as
    /// work (an upper bound).
    Interval,
}

/// Where a frame's place on the capture's timeline is: what its `interval_ms` runs between.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Timeline {
    /// The start of its present call (`MsBetweenPresents`).
    #[default]
    PresentStart,
    /// The start of its CPU work (`FrameTime`, `--v2_metrics`).
    CpuStart,
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

/// What a file held of the desktop compositor (`dwm.exe`), whose presents wait for each
/// refresh: the display's own grid, whatever the game did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Compositor {
    pub application: String,
    /// Milliseconds between its display changes, in order.
    pub changes_ms: Vec<f64>,
    pub vsync: Option<bool>,
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
    /// The column each role was read from.
    pub columns: Columns,
    /// What a frame's `interval_ms` runs between.
    pub timeline: Timeline,
    pub cost_from: CostFrom,
    /// The columns a frame's cost comes from, in words.
    pub cost_columns: String,
    pub presenting: Presenting,
    /// The frame limiter the frames were held by, where one was told.
    pub limiter: Option<Limiter>,
    /// The compositor's presents, where the file holds them.
    pub compositor: Option<Compositor>,
    pub sampled: Option<Sampling>,
    /// What the reader noticed and the summary should say (a unit told from the values).
    pub notes: Vec<String>,
}

impl Capture {
    /// The captured application's name as a person reads it, without `.exe`; `None` where
    /// the capture does not name it.
    pub fn application_name(&self) -> Option<&str> {
        let name = self.application.trim();
        let name = name.strip_suffix(".exe").unwrap_or(name);
        (!name.is_empty()).then_some(name)
    }

    /// Reads a capture of any format Looplab knows, for the application named `process`
    /// (case-insensitively, `.exe` optional), or the one with the most frames.
    pub fn read(bytes: &[u8], process: Option<&str>) -> Result<Capture, CaptureError> {
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

    fn choose(
        format: Format,
        mut s: Streams,
        process: Option<&str>,
    ) -> Result<Capture, CaptureError> {
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
            .ok_or(ChoiceError::NoFrames)?;
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
        let compositor = compositor(&s, app);
        let mut stream = std::mem::take(&mut s.streams[chosen]);
        check_frames(&stream.frames, app, &s.columns.frame_time)?;
        let presenting = Presenting {
            sync_interval: stream.sync_interval.most().copied(),
            allows_tearing: stream.allows_tearing.most().copied(),
            present_mode: stream.present_mode.most().cloned(),
        };
        let limiter = match s.sampled {
            Some(_) => None,
            None => limiter::detect(
                &stream.frames,
                &presenting,
                compositor
                    .as_ref()
                    .and_then(|dwm| display::compositor_rate(dwm, &[])),
            ),
        };
        let work = work::fill(&mut stream.frames, &s.columns, s.timeline, limiter.as_ref());
        s.notes.extend(work.note);
        Ok(Capture {
            format,
            application: stream.application,
            swap_chain: stream.swap_chain,
            generated: stream.generated,
            presenting,
            frames: stream.frames,
            others,
            rows: s.rows,
            columns: s.columns,
            timeline: s.timeline,
            cost_from: work.from,
            cost_columns: work.columns,
            limiter,
            compositor,
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
                let cost = Duration::from_secs_f64(f.work_ms / 1e3);
                std::iter::repeat_n(cost, 1 + f.more as usize)
            })
            .take(limit)
    }

    /// Whether this is the tool's format, whatever the column set.
    pub fn is_from(&self, tool: Tool) -> bool {
        self.format.tool == tool
    }
}

/// Refuses frames a replay cannot be made of: fewer than two, or no time between them.
fn check_frames(frames: &[Frame], app: &str, column: &str) -> Result<(), ChoiceError> {
    if frames.len() < 2 {
        return Err(ChoiceError::TooFewFrames {
            frames: frames.len(),
            application: app.to_string(),
        });
    }
    if frames.iter().all(|f| f.interval_ms == 0.0) {
        return Err(ChoiceError::NoTime {
            frames: frames.len(),
            application: app.to_string(),
            column: column.to_string(),
        });
    }
    Ok(())
}

/// The desktop compositor's busiest swap chain, where the file holds one beside `app`.
fn compositor(s: &Streams, app: &str) -> Option<Compositor> {
    let is_dwm = |a: &str| a.eq_ignore_ascii_case("dwm.exe");
    if is_dwm(app) {
        return None;
    }
    let stream = s
        .streams
        .iter()
        .filter(|x| is_dwm(&x.application))
        .max_by_key(|x| x.frames.len())?;
    Some(Compositor {
        application: stream.application.clone(),
        changes_ms: stream
            .frames
            .iter()
            .filter(|f| f.displayed != Some(false))
            .filter_map(|f| f.screen_ms)
            .collect(),
        vsync: stream.sync_interval.most().map(|&i| i > 0),
    })
}

/// A field that is not a finite number: the field, cut short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct NotANumber(pub String);

impl NotANumber {
    /// The refusal of this value at `place`, in `column`.
    pub(crate) fn at(self, place: Place, column: &str) -> RowError {
        RowError::NotANumber {
            place,
            column: column.to_string(),
            value: self.0,
        }
    }
}

/// A field as a number of milliseconds (or a count): `None` where it is empty or `NA`;
/// `Err` with the field, cut short, where it is not a finite number.
pub(crate) fn number(field: Option<&str>) -> Result<Option<f64>, NotANumber> {
    let Some(f) = field.map(str::trim) else {
        return Ok(None);
    };
    if f.is_empty() || f.eq_ignore_ascii_case("NA") || f == "-" {
        return Ok(None);
    }
    match f.parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(Some(v)),
        _ => Err(NotANumber(f.chars().take(24).collect())),
    }
}

/// The application replayed: `process` (its name with or without `.exe`, in any case), or
/// the one with the most frames; when `process` holds none, the applications the capture
/// does hold, by frames.
fn application(s: &Streams, process: Option<&str>) -> Result<String, ChoiceError> {
    let mut apps: Vec<(&str, usize)> = Vec::new();
    for x in &s.streams {
        if !apps.iter().any(|(a, _)| *a == x.application) {
            apps.push((&x.application, s.frames_of(&x.application)));
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
    Err(ChoiceError::NoSuchProcess {
        process: p.to_string(),
        holds: apps
            .iter()
            .take(8)
            .map(|&(a, n)| (a.to_string(), n))
            .collect(),
        more: apps.len() > 8,
    })
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
        assert_eq!(number(Some("NaN")), Err(NotANumber("NaN".into())));
        assert_eq!(number(Some("abc")), Err(NotANumber("abc".into())));
    }
}
