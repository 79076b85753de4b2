//! The rows of PresentMon's family, in CSV: PresentMon 1.x and 2.x (console and capture
//! app), OCAT, FrameView and CapFrameX's CSV. Each column is found by name and given its
//! role; every writer adds and drops columns by version and flag, so no position is trusted.
//!
//! Read with the `csv` crate, which keeps what real files carry: quoted fields with commas
//! (OCAT's motherboard), rows shorter than the header (OCAT's system columns, filled on the
//! first row only), CRLF, a last line with no line end, and numbers padded with spaces
//! (FrameView's).

use super::format::{ColumnSet, Found};
use super::streams::{Columns, Streams};
use super::{CaptureError, FormatError, Frame, Latency, Place, RowError, Timeline, number};

/// The largest animation error taken for one: an hour.
const LONGEST_ERROR_MS: f64 = 3_600_000.0;

/// Where each role's column is in a header.
#[derive(Clone, Debug, Default)]
struct Roles {
    application: Option<usize>,
    swap_chain: Option<usize>,
    frame_type: Option<usize>,
    interval: usize,
    cpu_busy: Option<usize>,
    gpu_busy: Option<usize>,
    in_present: Option<usize>,
    render_complete: Option<usize>,
    dropped: Option<usize>,
    until_displayed: Option<usize>,
    screen: Option<usize>,
    animation_error: Option<usize>,
    pc_latency: Option<usize>,
    instrumented: Option<usize>,
    input_to_photon: Option<usize>,
    sync_interval: Option<usize>,
    allows_tearing: Option<usize>,
    present_mode: Option<usize>,
}

/// The first of `names` the header has, by whole name.
fn find(header: &csv::StringRecord, names: &[&str]) -> Option<usize> {
    names
        .iter()
        .find_map(|name| header.iter().position(|h| h == *name))
}

impl Roles {
    fn of(header: &csv::StringRecord, set: ColumnSet) -> Result<Roles, FormatError> {
        let interval_names: &[&str] = match set {
            // `FrameTime` is CPU start to CPU start; the set has no present-to-present column.
            ColumnSet::PresentMon2Metrics => &["FrameTime", "MsBetweenPresents"],
            _ => &["MsBetweenPresents", "msBetweenPresents"],
        };
        let interval =
            find(header, interval_names).ok_or_else(|| FormatError::NoFrameTimeColumn {
                names: interval_names.join(" or "),
            })?;
        Ok(Roles {
            application: find(header, &["Application"]),
            swap_chain: find(header, &["SwapChainAddress"]),
            frame_type: find(header, &["FrameType"]),
            interval,
            cpu_busy: find(header, &["MsCPUBusy", "CPUBusy"]),
            gpu_busy: find(
                header,
                &[
                    "MsGPUBusy",
                    "GPUBusy",
                    "msGPUActive",
                    "MsGPUTime",
                    "GPUTime",
                ],
            ),
            in_present: find(header, &["MsInPresentAPI", "msInPresentAPI"]),
            render_complete: find(
                header,
                &[
                    "MsUntilRenderComplete",
                    "msUntilRenderComplete",
                    "MsRenderPresentLatency",
                ],
            ),
            dropped: find(header, &["Dropped"]),
            until_displayed: find(
                header,
                &["MsUntilDisplayed", "msUntilDisplayed", "DisplayLatency"],
            ),
            screen: find(
                header,
                &[
                    "MsBetweenDisplayChange",
                    "msBetweenDisplayChange",
                    "DisplayedTime",
                ],
            ),
            animation_error: find(header, &["MsAnimationError", "AnimationError"]),
            pc_latency: find(header, &["MsPCLatency"]),
            instrumented: find(header, &["MsInstrumentedLatency", "InstrumentedLatency"]),
            input_to_photon: find(
                header,
                &["MsAllInputToPhotonLatency", "AllInputToPhotonLatency"],
            ),
            sync_interval: find(header, &["SyncInterval"]),
            allows_tearing: find(header, &["AllowsTearing"]),
            present_mode: find(header, &["PresentMode"]),
        })
    }
}

/// Reads the rows of `text` from the header `found` points at into `streams`.
pub(super) fn read(text: &str, found: &Found, streams: &mut Streams) -> Result<(), CaptureError> {
    let body = &text[found.header_at..];
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(body.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| csv_error(Some(found.header_line), &e))?
        .clone();
    let roles = Roles::of(&header, found.format.columns)?;
    roles.name_columns(&header, streams);
    let mut rows = RowsAhead::new(reader, body, found.header_line);
    let mut width_before = None;
    while let Some((record, line)) = rows.next()? {
        // The last row, shorter than the one before: the file was cut in it, and its values
        // may be too.
        if rows.at_end()?
            && let Some(width) = width_before
            && record.len() < width
        {
            streams.notes.push(format!(
                "line {line}, the last, ends after {} of {width} fields (the file was cut short): left out",
                record.len()
            ));
            break;
        }
        width_before = Some(record.len());
        let fields = Fields {
            record: &record,
            header: &header,
            line,
        };
        streams.push(roles.row(&fields)?, Place::Line(line))?;
    }
    Ok(())
}

/// A CSV's rows after its header, blank lines skipped, each with its line number in the
/// file (from 1), one row read ahead so the last is known as such.
struct RowsAhead<'a> {
    reader: csv::Reader<&'a [u8]>,
    lines: LineOf<'a>,
    ahead: Option<(csv::StringRecord, usize)>,
    done: bool,
}

impl<'a> RowsAhead<'a> {
    fn new(reader: csv::Reader<&'a [u8]>, body: &'a str, header_line: usize) -> Self {
        Self {
            reader,
            lines: LineOf::new(body, header_line),
            ahead: None,
            done: false,
        }
    }

    /// The next row that is not blank, and its line; refused with its line where it is not
    /// CSV.
    fn read(&mut self) -> Result<Option<(csv::StringRecord, usize)>, RowError> {
        let mut record = csv::StringRecord::new();
        loop {
            let read = self.reader.read_record(&mut record);
            match read {
                Ok(true) if record.len() == 1 && record.get(0) == Some("") => continue,
                Ok(true) => {
                    let at = record.position().map_or(0, |p| p.byte() as usize);
                    let line = self.lines.line(at);
                    return Ok(Some((record, line)));
                }
                Ok(false) => return Ok(None),
                Err(e) => {
                    let at = e.position().map_or(0, |p| p.byte() as usize);
                    return Err(csv_error(Some(self.lines.line(at)), &e));
                }
            }
        }
    }

    fn next(&mut self) -> Result<Option<(csv::StringRecord, usize)>, RowError> {
        match self.ahead.take() {
            Some(row) => Ok(Some(row)),
            None if self.done => Ok(None),
            None => self.read(),
        }
    }

    /// Whether no row follows the last one handed out.
    fn at_end(&mut self) -> Result<bool, RowError> {
        if self.ahead.is_none() && !self.done {
            self.ahead = self.read()?;
            self.done = self.ahead.is_none();
        }
        Ok(self.ahead.is_none())
    }
}

impl Roles {
    /// Tells `streams` which of `header`'s columns the frame time and the costs come
    /// from, for the summary to name.
    fn name_columns(&self, header: &csv::StringRecord, streams: &mut Streams) {
        let name = |i: Option<usize>| i.map(|i| column_name(header, i));
        let frame_time = column_name(header, self.interval);
        streams.timeline = if frame_time == "FrameTime" {
            Timeline::CpuStart
        } else {
            Timeline::PresentStart
        };
        streams.columns = Columns {
            frame_time,
            cpu_busy: name(self.cpu_busy),
            gpu_busy: name(self.gpu_busy),
            in_present: name(self.in_present),
            render_complete: name(self.render_complete),
            screen: name(self.screen),
            until_displayed: name(self.until_displayed),
            animation_error: name(self.animation_error),
            pc_latency: name(self.pc_latency),
            instrumented_latency: name(self.instrumented),
            input_to_photon: name(self.input_to_photon),
        };
    }

    /// The row `f`, each value read from its role's column; refused where it has no
    /// frame time or a value is not a number.
    fn row<'a>(&self, f: &Fields<'a>) -> Result<super::Row<'a>, RowError> {
        let Some(interval) = f.number(Some(self.interval))? else {
            return Err(RowError::NoFrameTime {
                place: Place::Line(f.line),
                column: column_name(f.header, self.interval),
            });
        };
        let displayed = self.displayed(f)?;
        let generated = f
            .text(self.frame_type)
            .is_some_and(|t| !t.is_empty() && t != "Application" && t != "NA");
        let frame = Frame {
            interval_ms: interval,
            cpu_busy_ms: f.number(self.cpu_busy)?,
            gpu_busy_ms: f.number(self.gpu_busy)?,
            in_present_ms: f.number(self.in_present)?,
            until_render_complete_ms: f.number(self.render_complete)?,
            displayed,
            screen_ms: f.number(self.screen)?.filter(|&s| s > 0.0),
            until_displayed_ms: f
                .number(self.until_displayed)?
                .filter(|_| displayed != Some(false)),
            // Only a displayed frame has one (the capture app writes overflowed values, near
            // -2^64 microseconds, for frames it dropped).
            animation_error_ms: f
                .number(self.animation_error)?
                .filter(|e| displayed != Some(false) && e.abs() <= LONGEST_ERROR_MS),
            latency: Latency {
                pc_ms: f.number(self.pc_latency)?,
                instrumented_ms: f.number(self.instrumented)?,
                input_to_photon_ms: f.number(self.input_to_photon)?,
            },
            work_ms: 0.0,
            more: 0,
        };
        let sync = f.number(self.sync_interval)?;
        let tearing = f.number(self.allows_tearing)?;
        Ok(super::Row {
            application: f.text(self.application).unwrap_or(""),
            swap_chain: f.text(self.swap_chain),
            frame,
            generated,
            // PresentMon writes -1 where it does not know the interval (Direct3D 9).
            sync_interval: sync.filter(|&s| s >= 0.0).map(|s| s as u32),
            allows_tearing: tearing.map(|t| t != 0.0),
            present_mode: f.text(self.present_mode).filter(|m| !m.is_empty()),
        })
    }

    /// Whether the display showed row `f`'s frame: from `Dropped` where the set has it,
    /// else from whether it has a time until displayed; `None` where neither says.
    fn displayed(&self, f: &Fields<'_>) -> Result<Option<bool>, RowError> {
        let until_displayed = f.number(self.until_displayed)?;
        let dropped = f.number(self.dropped)?;
        Ok(match (dropped, self.until_displayed) {
            (Some(d), _) => Some(d == 0.0),
            // 2.x writes NA where a frame was not displayed.
            (None, Some(_)) if self.dropped.is_none() => {
                Some(until_displayed.is_some_and(|u| u > 0.0))
            }
            _ => None,
        })
    }
}

/// The line of a row of a text whose first line is line `first` of the file, for rows
/// asked in order: CRLF and LF alike (the `csv` crate's own line count is one short on CRLF
/// files).
pub(super) struct LineOf<'a> {
    text: &'a [u8],
    at: usize,
    line: usize,
}

impl<'a> LineOf<'a> {
    pub(super) fn new(text: &'a str, first: usize) -> Self {
        Self {
            text: text.as_bytes(),
            at: 0,
            line: first,
        }
    }

    /// The line of the row the `csv` crate says begins at byte `at` (no earlier than the
    /// last asked). On a CRLF file the crate puts a row's start at the line end before it,
    /// the `\n` of its `\r\n`: the row begins after it.
    pub(super) fn line(&mut self, at: usize) -> usize {
        let at = at.min(self.text.len());
        let at = if self.text.get(at) == Some(&b'\n') {
            at + 1
        } else {
            at
        };
        if at > self.at {
            self.line += self.text[self.at..at]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            self.at = at;
        }
        self.line
    }
}

/// One row's fields, with what a refusal names: its line and the header's column names.
struct Fields<'a> {
    record: &'a csv::StringRecord,
    header: &'a csv::StringRecord,
    line: usize,
}

impl<'a> Fields<'a> {
    /// Column `i`'s text, where the role has a column and the row reaches it.
    fn text(&self, i: Option<usize>) -> Option<&'a str> {
        i.and_then(|i| self.record.get(i))
    }

    /// Column `i`'s number (`None` where the role has no column or the value is missing),
    /// refused with its line and column where it is not a number.
    fn number(&self, i: Option<usize>) -> Result<Option<f64>, RowError> {
        match i {
            None => Ok(None),
            Some(i) => number(self.record.get(i))
                .map_err(|bad| bad.at(Place::Line(self.line), &column_name(self.header, i))),
        }
    }
}

/// Column `i`'s name in `header`, as the summary and refusals give it.
fn column_name(header: &csv::StringRecord, i: usize) -> String {
    header.get(i).unwrap_or("?").to_string()
}

/// A CSV error on `line`, in one line without the crate's position.
fn csv_error(line: Option<usize>, e: &csv::Error) -> RowError {
    let why = match e.kind() {
        csv::ErrorKind::Io(e) => format!("cannot be read: {e}"),
        csv::ErrorKind::Utf8 { .. } => "is not UTF-8 text".into(),
        _ => crate::failure::one_line(&e.to_string()),
    };
    RowError::Csv { line, why }
}
