//! MangoHud's log (Linux): a system line and its values, then `fps,frametime,...,elapsed`.
//!
//! Its units changed with its versions, and the file does not say which wrote it, so they
//! are told from the values: `frametime` is milliseconds from 0.6.9 and microseconds in
//! 0.6.0-0.6.8 (a median over a thousand is taken for microseconds); 0.5 has no
//! `frametime` (the frame time is then `1000 / fps`) and counts `elapsed` in microseconds,
//! later versions in nanoseconds.
//!
//! With `log_interval` above zero (the default before 0.6.9) a row is a sample written
//! every so often, carrying the latest frame's time, not one row per frame. That is told
//! from `elapsed`: rows much further apart than their frame times. A sample then stands
//! for the frames of its interval, each as long as the frame it carries: what the log
//! knows, and the summary says that a hitch between two samples is not in it.

use std::time::Duration;

use super::format::Found;
use super::presentmon::LineOf;
use super::streams::{Row, Streams};
use super::{CaptureError, FormatError, Frame, Place, RowError, Sampling, number};

/// Reads MangoHud's rows from the header `found` points at.
pub(super) fn read(text: &str, found: &Found, streams: &mut Streams) -> Result<(), CaptureError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(&text.as_bytes()[found.header_at..]);
    let header = reader
        .headers()
        .map_err(|e| RowError::Csv {
            line: Some(found.header_line),
            why: crate::failure::one_line(&e.to_string()),
        })?
        .clone();
    let columns = Columns::of(&header)?;
    let rows = logged_rows(&mut reader, text, found, &columns, &mut streams.notes)?;
    in_time_order(&rows, columns.frametime.is_some())?;
    streams.columns.frame_time = columns.frame_time_name().into();
    let units = Units::of(&rows, columns.frametime.is_some(), &mut streams.notes);
    let sampling = sampling(&rows, &units);
    if sampling.is_some() {
        streams.sampled = sampling;
    }
    for (i, row) in rows.iter().enumerate() {
        let ms = row.time * units.frame_to_ms;
        let before = i.checked_sub(1).and_then(|j| rows[j].elapsed);
        let count = match (sampling, before, row.elapsed) {
            (Some(_), Some(before), Some(now)) if ms > 0.0 => {
                frames_since(before, now, ms, units.elapsed_to_ms)
            }
            _ => 1.0,
        };
        streams.push(frame_row(ms, count), Place::Line(row.line))?;
    }
    streams.rows = rows.len();
    Ok(())
}

/// Where the columns the frame times come from are in the header: `frametime` where the
/// version has it, else `fps`; `elapsed` to tell a sampled log from a row a frame.
struct Columns {
    fps: Option<usize>,
    frametime: Option<usize>,
    elapsed: Option<usize>,
}

impl Columns {
    /// The columns of `header`, refused where it has neither frame-time column.
    fn of(header: &csv::StringRecord) -> Result<Columns, FormatError> {
        let col = |name: &str| header.iter().position(|h| h == name);
        let (fps, frametime, elapsed) = (col("fps"), col("frametime"), col("elapsed"));
        if frametime.is_none() && fps.is_none() {
            return Err(FormatError::NoFrameTimeColumn {
                names: "frametime or fps".into(),
            });
        }
        Ok(Columns {
            fps,
            frametime,
            elapsed,
        })
    }

    /// The name of the column the frame times come from, for the summary.
    fn frame_time_name(&self) -> &'static str {
        if self.frametime.is_some() {
            "frametime"
        } else {
            "fps"
        }
    }

    /// Row `record`'s frame time, in the file's unit (`1000 / fps` where there is no
    /// `frametime`); refused where it has none, since a row without one is no frame.
    fn frame_time(&self, record: &csv::StringRecord, line: usize) -> Result<f64, RowError> {
        let time = match self.frametime {
            Some(_) => number_at(record, self.frametime, "frametime", line)?,
            None => number_at(record, self.fps, "fps", line)?
                .filter(|&f| f > 0.0)
                .map(|f| 1000.0 / f),
        };
        time.ok_or_else(|| RowError::NoFrameTime {
            place: Place::Line(line),
            column: self.frame_time_name().into(),
        })
    }
}

/// A row as the log holds it, its values still in the file's units: they can only be told
/// once every row is read.
struct LoggedRow {
    time: f64,
    elapsed: Option<f64>,
    line: usize,
}

/// Every row after the header, blank lines skipped, at most [`super::MAX_FRAMES`] of them;
/// a last row shorter than the one before (the file was cut in it) left out with a note.
fn logged_rows(
    reader: &mut csv::Reader<&[u8]>,
    text: &str,
    found: &Found,
    columns: &Columns,
    notes: &mut Vec<String>,
) -> Result<Vec<LoggedRow>, RowError> {
    let mut records: Vec<(csv::StringRecord, usize)> = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut lines = LineOf::new(&text[found.header_at..], found.header_line);
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(RowError::Csv {
                    line: None,
                    why: crate::failure::one_line(&e.to_string()),
                });
            }
        }
        let line = lines.line(record.position().map_or(0, |p| p.byte() as usize));
        if record.len() == 1 && record.get(0) == Some("") {
            continue;
        }
        if records.len() >= super::MAX_FRAMES {
            return Err(RowError::TooManyRows);
        }
        records.push((record.clone(), line));
    }
    if let [.., (before, _), (last, line)] = records.as_slice()
        && last.len() < before.len()
    {
        notes.push(format!(
            "line {line}, the last, ends after {} of {} fields (the file was cut short): left out",
            last.len(),
            before.len()
        ));
        records.pop();
    }
    records
        .iter()
        .map(|(record, line)| {
            Ok(LoggedRow {
                time: columns.frame_time(record, *line)?,
                elapsed: number_at(record, columns.elapsed, "elapsed", *line)?,
                line: *line,
            })
        })
        .collect()
}

/// Refuses a log whose `elapsed` goes back: its rows are not in the order they were
/// written, and a sample's frames (the time since the one before) could not be told.
fn in_time_order(rows: &[LoggedRow], has_frametime: bool) -> Result<(), RowError> {
    let to_s = if has_frametime { 1e-9 } else { 1e-6 };
    for pair in rows.windows(2) {
        if let (Some(a), Some(b)) = (pair[0].elapsed, pair[1].elapsed)
            && b < a
        {
            let back = (a - b) * to_s;
            return Err(RowError::OutOfOrder {
                line: pair[1].line,
                value: shown(b),
                before: shown(a),
                back_s: back.is_finite().then_some(back),
            });
        }
    }
    Ok(())
}

/// Column `i`'s value in `record` (`None` where there is no such column or it is empty),
/// refused, with its line and column `name`, where it is not a number.
fn number_at(
    record: &csv::StringRecord,
    i: Option<usize>,
    name: &str,
    line: usize,
) -> Result<Option<f64>, RowError> {
    number(i.and_then(|i| record.get(i))).map_err(|bad| bad.at(Place::Line(line), name))
}

/// How the file's values become milliseconds, told from the values (see the module's
/// head): the file does not say which version wrote it.
struct Units {
    /// The frame time's factor: 1e-3 for 0.6.0-0.6.8's microseconds.
    frame_to_ms: f64,
    /// `elapsed`'s factor: nanoseconds, or 0.5's microseconds.
    elapsed_to_ms: f64,
    /// The median frame time, in the file's unit.
    median_time: f64,
}

impl Units {
    /// The units of `rows`, adding a note for each that the summary should name.
    fn of(rows: &[LoggedRow], has_frametime: bool, notes: &mut Vec<String>) -> Units {
        let times: Vec<f64> = rows.iter().map(|r| r.time).collect();
        let median_time = median(&times);
        let frame_to_ms = if has_frametime && median_time > 1000.0 {
            notes.push("frametime in microseconds (MangoHud 0.6.0-0.6.8)".into());
            1e-3
        } else {
            1.0
        };
        let elapsed_to_ms = if has_frametime { 1e-6 } else { 1e-3 };
        if !has_frametime {
            notes.push("no frametime column (MangoHud 0.5): frame times are 1000 / fps".into());
        }
        Units {
            frame_to_ms,
            elapsed_to_ms,
            median_time,
        }
    }
}

/// How often the log was written, where its rows are samples rather than a row a frame:
/// rows much further apart (by `elapsed`) than the frame times they carry.
fn sampling(rows: &[LoggedRow], units: &Units) -> Option<Sampling> {
    let gaps: Vec<f64> = rows
        .windows(2)
        .filter_map(|w| Some((w[1].elapsed? - w[0].elapsed?) * units.elapsed_to_ms))
        .collect();
    let median_gap = median(&gaps);
    let sampled = gaps.len() >= 3 && median_gap > 2.0 * units.median_time * units.frame_to_ms;
    // A gap no duration can hold (an `elapsed` of 1e308 after -1e308) samples nothing.
    let every = Duration::try_from_secs_f64(median_gap / 1e3).ok()?;
    sampled.then_some(Sampling {
        every,
        samples: rows.len(),
    })
}

/// The frames a sample at `now` stands for: those of `ms` each since the sample at
/// `before` (both `elapsed`), at least one.
fn frames_since(before: f64, now: f64, ms: f64, elapsed_to_ms: f64) -> f64 {
    let span = (now - before) * elapsed_to_ms;
    (span / ms).round().clamp(1.0, f64::from(u32::MAX))
}

/// A row of `count` frames of `ms` each: MangoHud's log names no application and says
/// nothing of how a frame was presented, so its time is all a row has.
fn frame_row(ms: f64, count: f64) -> Row<'static> {
    Row {
        application: "",
        swap_chain: None,
        frame: Frame {
            interval_ms: ms,
            work_ms: ms,
            more: count as u32 - 1,
            ..Frame::default()
        },
        generated: false,
        sync_interval: None,
        allows_tearing: None,
        present_mode: None,
    }
}

/// A value of `elapsed` as a refusal shows it: whole, or in scientific notation where it
/// has more digits than a person reads.
fn shown(x: f64) -> String {
    if x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:e}")
    }
}

/// The median of `xs`; zero for none.
fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    crate::metrics::median(xs)
}
