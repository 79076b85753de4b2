//! CapFrameX's JSON capture: `Info` (the process, the machine) and `Runs`, each run's
//! `CaptureData` holding one array per PresentMon column, all of one length.
//!
//! The names are CapFrameX's own (`SessionCaptureData` in `source/CapFrameX.Data/Classes`,
//! CXWorld/CapFrameX at 3ba66ff5, serialised by Newtonsoft with its property names as they
//! are): PresentMon's column names in their PresentMon 1.x spelling, `MsInPresentAPI` with a
//! capital API, `PresentMode` as the number of its `EPresentMode`, `Dropped` as booleans,
//! and its own `GpuActive`, `CpuActive`, `PcLatency` and `AnimationError`.
//!
//! CapFrameX writes it with .NET's defaults: a missing value in a number array is the
//! string `"NaN"`, an array it did not record is `null` or absent (`CpuActive` only since
//! 2025, `GpuActive` since 2023), and newer builds put a BOM first. Its importer stores a
//! PresentMon `NA` animation error as 0, so a zero there is read as missing. A file of
//! several runs (CapFrameX aggregates them) is read for its longest. Arrays of a run are
//! one a frame: a run whose arrays differ in length is refused, since no frame's values
//! could then be trusted to belong together.

use serde::Deserialize;

use super::streams::{Columns, Row, Streams};
use super::{CaptureError, FormatError, Frame, Latency, Place, RowError, Timeline};

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Session {
    #[serde(default)]
    info: Info,
    runs: Vec<Run>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Info {
    #[serde(default)]
    process_name: Option<String>,
    #[serde(default)]
    game_name: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Run {
    capture_data: Option<CaptureData>,
}

#[derive(Default, Deserialize)]
struct CaptureData {
    #[serde(default, rename = "MsBetweenPresents")]
    ms_between_presents: Numbers,
    #[serde(default, rename = "MsInPresentAPI")]
    ms_in_present_api: Numbers,
    #[serde(default, rename = "MsBetweenDisplayChange")]
    ms_between_display_change: Numbers,
    #[serde(default, rename = "MsUntilRenderComplete")]
    ms_until_render_complete: Numbers,
    #[serde(default, rename = "MsUntilDisplayed")]
    ms_until_displayed: Numbers,
    #[serde(default, rename = "Dropped")]
    dropped: Option<Vec<Option<bool>>>,
    #[serde(default, rename = "SyncInterval")]
    sync_interval: Numbers,
    #[serde(default, rename = "AllowsTearing")]
    allows_tearing: Numbers,
    #[serde(default, rename = "PresentMode")]
    present_mode: Numbers,
    #[serde(default, rename = "GpuActive")]
    gpu_active: Numbers,
    #[serde(default, rename = "CpuActive")]
    cpu_active: Numbers,
    #[serde(default, rename = "PcLatency")]
    pc_latency: Numbers,
    #[serde(default, rename = "AnimationError")]
    animation_error: Numbers,
}

/// A number array as .NET writes it: numbers, `"NaN"` and kin as strings, `null`s.
#[derive(Default)]
struct Numbers(Option<Vec<Option<f64>>>);

impl<'de> Deserialize<'de> for Numbers {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Value {
            Number(f64),
            Text(String),
            Nothing(()),
        }
        let values: Option<Vec<Value>> = Option::deserialize(d)?;
        Ok(Numbers(values.map(|vs| {
            vs.into_iter()
                .map(|v| match v {
                    Value::Number(x) => Some(x),
                    Value::Text(t) => t.trim().parse::<f64>().ok().filter(|x| x.is_finite()),
                    Value::Nothing(()) => None,
                })
                .collect()
        })))
    }
}

impl Numbers {
    fn at(&self, i: usize) -> Option<f64> {
        self.0.as_ref().and_then(|v| v.get(i).copied().flatten())
    }

    fn has(&self) -> bool {
        self.0.as_ref().is_some_and(|v| !v.is_empty())
    }

    /// The array's length, where it has one.
    fn len(&self) -> Option<usize> {
        self.0.as_ref().map(Vec::len)
    }
}

/// PresentMon's present modes as CapFrameX numbers them.
const PRESENT_MODES: [&str; 10] = [
    "Unknown",
    "Hardware: Legacy Flip",
    "Hardware: Legacy Copy to front buffer",
    "Hardware: Independent Flip",
    "Composed: Flip",
    "Composed: Copy with GPU GDI",
    "Composed: Copy with CPU GDI",
    "Composed: Composition Atlas",
    "Hardware Composed: Independent Flip",
    "Other",
];

/// Reads the JSON `text` into `streams`.
pub(super) fn read(text: &str, streams: &mut Streams) -> Result<(), CaptureError> {
    let session: Session = serde_json::from_str(text)
        .map_err(|e| FormatError::NotCapFrameX(crate::failure::one_line(&e.to_string())))?;
    let runs = session.runs.len();
    let data = longest_run(session.runs)?;
    data.check_lengths()?;
    if runs > 1 {
        streams
            .notes
            .push(format!("the longest of its {runs} runs"));
    }
    let application = session
        .info
        .process_name
        .or(session.info.game_name)
        .unwrap_or_default();
    data.name_columns(streams);
    for i in 0..data.frames() {
        // The JSON has no line numbers: a frame is told by its place in the arrays.
        streams.push(data.row(i, &application)?, Place::Frame(i + 1))?;
    }
    Ok(())
}

/// The capture data of the run with the most frames (CapFrameX aggregates several runs
/// in one file), refused where there is none or it has no frame times.
fn longest_run(runs: Vec<Run>) -> Result<CaptureData, FormatError> {
    let Some(data) = runs
        .into_iter()
        .filter_map(|r| r.capture_data)
        .max_by_key(CaptureData::frames)
    else {
        return Err(FormatError::NoRuns);
    };
    if !data.ms_between_presents.has() {
        return Err(FormatError::NoMsBetweenPresents);
    }
    Ok(data)
}

impl CaptureData {
    /// Frames in the run: the length of its frame-time array.
    fn frames(&self) -> usize {
        self.ms_between_presents.0.as_ref().map_or(0, Vec::len)
    }

    /// Refuses a run whose arrays are not all as long as its frame times.
    fn check_lengths(&self) -> Result<(), FormatError> {
        let frames = self.frames();
        let arrays = [
            ("MsInPresentAPI", self.ms_in_present_api.len()),
            (
                "MsBetweenDisplayChange",
                self.ms_between_display_change.len(),
            ),
            ("MsUntilRenderComplete", self.ms_until_render_complete.len()),
            ("MsUntilDisplayed", self.ms_until_displayed.len()),
            ("Dropped", self.dropped.as_ref().map(Vec::len)),
            ("SyncInterval", self.sync_interval.len()),
            ("AllowsTearing", self.allows_tearing.len()),
            ("PresentMode", self.present_mode.len()),
            ("GpuActive", self.gpu_active.len()),
            ("CpuActive", self.cpu_active.len()),
            ("PcLatency", self.pc_latency.len()),
            ("AnimationError", self.animation_error.len()),
        ];
        match arrays.iter().find(|(_, n)| n.is_some_and(|n| n != frames)) {
            Some((name, Some(n))) => Err(FormatError::ArraysDiffer {
                frames,
                name,
                values: *n,
            }),
            _ => Ok(()),
        }
    }

    /// Tells `streams` which arrays the frame time and the costs come from, for the
    /// summary to name: only those the run recorded.
    fn name_columns(&self, streams: &mut Streams) {
        let named = |has: bool, name: &str| has.then(|| name.to_string());
        streams.timeline = Timeline::PresentStart;
        streams.columns = Columns {
            frame_time: "MsBetweenPresents".into(),
            cpu_busy: named(self.cpu_active.has(), "CpuActive"),
            gpu_busy: named(self.gpu_active.has(), "GpuActive"),
            in_present: named(self.ms_in_present_api.has(), "MsInPresentAPI"),
            render_complete: named(self.ms_until_render_complete.has(), "MsUntilRenderComplete"),
            screen: named(
                self.ms_between_display_change.has(),
                "MsBetweenDisplayChange",
            ),
            until_displayed: named(self.ms_until_displayed.has(), "MsUntilDisplayed"),
            animation_error: named(self.animation_error.has(), "AnimationError"),
            pc_latency: named(self.pc_latency.has(), "PcLatency"),
            instrumented_latency: None,
            input_to_photon: None,
        };
    }

    /// Frame `i` of `application` as a row, refused where it has no frame time.
    fn row<'a>(&self, i: usize, application: &'a str) -> Result<Row<'a>, RowError> {
        let Some(interval) = self.ms_between_presents.at(i) else {
            return Err(RowError::NoFrameTime {
                place: Place::Frame(i + 1),
                column: "MsBetweenPresents".into(),
            });
        };
        let displayed = self.displayed(i);
        let mode = self
            .present_mode
            .at(i)
            .and_then(|m| PRESENT_MODES.get(m as usize).copied());
        Ok(Row {
            application,
            swap_chain: None,
            frame: Frame {
                interval_ms: interval,
                cpu_busy_ms: self.cpu_active.at(i),
                gpu_busy_ms: self.gpu_active.at(i),
                in_present_ms: self.ms_in_present_api.at(i),
                until_render_complete_ms: self.ms_until_render_complete.at(i),
                displayed,
                screen_ms: self.ms_between_display_change.at(i).filter(|&s| s > 0.0),
                until_displayed_ms: self
                    .ms_until_displayed
                    .at(i)
                    .filter(|_| displayed != Some(false)),
                animation_error_ms: self.animation_error.at(i).filter(|&e| e != 0.0),
                latency: Latency {
                    pc_ms: self.pc_latency.at(i),
                    ..Latency::default()
                },
                work_ms: 0.0,
                more: 0,
            },
            generated: false,
            sync_interval: self
                .sync_interval
                .at(i)
                .filter(|&s| s >= 0.0)
                .map(|s| s as u32),
            allows_tearing: self.allows_tearing.at(i).map(|t| t != 0.0),
            present_mode: mode,
        })
    }

    /// Whether the display showed frame `i`: not dropped and, where the run says, some
    /// time until displayed; `None` where neither array says.
    fn displayed(&self, i: usize) -> Option<bool> {
        let dropped = self
            .dropped
            .as_ref()
            .and_then(|d| d.get(i).copied().flatten());
        let until = self.ms_until_displayed.at(i);
        match dropped {
            Some(d) => Some(!d && until.is_none_or(|u| u > 0.0)),
            None => until.map(|u| u > 0.0),
        }
    }
}
