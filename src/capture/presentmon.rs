//! The rows of PresentMon's family, in CSV: PresentMon 1.x and 2.x (console and capture
//! app), OCAT, FrameView and CapFrameX's CSV. Each column is found by name and given its
//! role; every writer adds and drops columns by version and flag, so no position is trusted.
//!
//! Read with the `csv` crate, which keeps what real files carry: quoted fields with commas
//! (OCAT's motherboard), rows shorter than the header (OCAT's system columns, filled on the
//! first row only), CRLF, a last line with no line end, and numbers padded with spaces
//! (FrameView's).

use super::format::{ColumnSet, Found};
use super::{Frame, Streams, number};

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
    dropped: Option<usize>,
    until_displayed: Option<usize>,
    screen: Option<usize>,
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
    fn of(header: &csv::StringRecord, set: ColumnSet) -> Result<Roles, String> {
        let interval_names: &[&str] = match set {
            // `FrameTime` is CPU start to CPU start; the set has no present-to-present column.
            ColumnSet::PresentMon2Metrics => &["FrameTime", "MsBetweenPresents"],
            _ => &["MsBetweenPresents", "msBetweenPresents"],
        };
        let interval = find(header, interval_names).ok_or_else(|| {
            format!(
                "the header has no frame-time column ({})",
                interval_names.join(" or ")
            )
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
            sync_interval: find(header, &["SyncInterval"]),
            allows_tearing: find(header, &["AllowsTearing"]),
            present_mode: find(header, &["PresentMode"]),
        })
    }
}

/// Reads the rows of `text` from the header `found` points at into `streams`.
pub(super) fn read(text: &str, found: &Found, streams: &mut Streams) -> Result<(), String> {
    let body = &text[found.header_at..];
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(body.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| format!("line {}: {}", found.header_line, csv_error(&e)))?
        .clone();
    let roles = Roles::of(&header, found.format.columns)?;
    roles.name_columns(&header, streams);
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(format!(
                    "line {}: {}",
                    found.header_line + streams.rows + 1,
                    csv_error(&e)
                ));
            }
        }
        let line = found.header_line - 1 + record.position().map_or(0, |p| p.line() as usize);
        // A blank line, or a row cut short before its frame time: not a frame.
        if record.len() == 1 && record.get(0) == Some("") {
            continue;
        }
        let fields = Fields {
            record: &record,
            header: &header,
            line,
        };
        streams.push(roles.row(&fields)?, line)?;
    }
    Ok(())
}

impl Roles {
    /// Tells `streams` which of `header`'s columns the frame time and the costs come
    /// from, for the summary to name.
    fn name_columns(&self, header: &csv::StringRecord, streams: &mut Streams) {
        let name = |i: usize| column_name(header, i);
        streams.frame_time_column = column_name(header, self.interval);
        streams.cpu_column = self.cpu_busy.map(name);
        streams.gpu_column = self.gpu_busy.map(name);
        streams.in_present_column = self.in_present.map(name);
        streams.screen_column = self.screen.map(name);
    }

    /// The row `f`, each value read from its role's column; refused where it has no
    /// frame time or a value is not a number.
    fn row<'a>(&self, f: &Fields<'a>) -> Result<super::Row<'a>, String> {
        let Some(interval) = f.number(Some(self.interval))? else {
            return Err(format!(
                "line {}: no {} (the row ends before it, or it is empty)",
                f.line,
                column_name(f.header, self.interval)
            ));
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
            displayed,
            screen_ms: f.number(self.screen)?.filter(|&s| s > 0.0),
            more: 0,
        };
        let sync = f.number(self.sync_interval)?;
        let tearing = f.number(self.allows_tearing)?;
        Ok(super::Row {
            application: f.text(self.application).unwrap_or(""),
            swap_chain: f.text(self.swap_chain),
            frame,
            generated,
            sync_interval: sync.map(|s| s as u32),
            allows_tearing: tearing.map(|t| t != 0.0),
            present_mode: f.text(self.present_mode).filter(|m| !m.is_empty()),
        })
    }

    /// Whether the display showed row `f`'s frame: from `Dropped` where the set has it,
    /// else from whether it has a time until displayed; `None` where neither says.
    fn displayed(&self, f: &Fields<'_>) -> Result<Option<bool>, String> {
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
    fn number(&self, i: Option<usize>) -> Result<Option<f64>, String> {
        match i {
            None => Ok(None),
            Some(i) => number(self.record.get(i)).map_err(|bad| {
                format!(
                    "line {}, {}: {bad} is not a number",
                    self.line,
                    column_name(self.header, i)
                )
            }),
        }
    }
}

/// Column `i`'s name in `header`, as the summary and refusals give it.
fn column_name(header: &csv::StringRecord, i: usize) -> String {
    header.get(i).unwrap_or("?").to_string()
}

/// A CSV error in one line, without the crate's position (the caller says the line).
fn csv_error(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::Io(e) => format!("cannot be read: {e}"),
        csv::ErrorKind::Utf8 { .. } => "is not UTF-8 text".into(),
        _ => crate::failure::one_line(&e.to_string()),
    }
}
