//! Which tool wrote a capture, and with which column set: told from the file's first lines,
//! never from its name (people rename captures, and CapFrameX renames the ones it imports).
//!
//! Every PresentMon-family writer starts its header with `Application`; the columns beside
//! it tell them apart. Column names are compared whole and case-sensitively: PresentMon
//! 1.7-1.10 spells `msBetweenPresents` where 1.0-1.6 spell `MsBetweenPresents`, and
//! `Runtime` is a different column from 2.x's `PresentRuntime`.

use std::fmt;

pub use super::error::READS;
use super::error::{FormatError, SummaryFile};

/// The tool that recorded a capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// Intel's PresentMon console (1.x, 2.x).
    PresentMon,
    /// PresentMon 2.x's capture application (the overlay's "Capture" button).
    PresentMonApp,
    /// AMD's OCAT, a PresentMon 1.x fork with system columns.
    Ocat,
    /// CapFrameX, built on PresentMon: its JSON, or its CSV with `//` header lines.
    CapFrameX,
    /// NVIDIA FrameView's per-frame log.
    FrameView,
    /// MangoHud's log, on Linux.
    MangoHud,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::PresentMon => "PresentMon",
            Tool::PresentMonApp => "PresentMon capture app",
            Tool::Ocat => "OCAT",
            Tool::CapFrameX => "CapFrameX",
            Tool::FrameView => "FrameView",
            Tool::MangoHud => "MangoHud",
        }
    }
}

/// The columns a capture's rows carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnSet {
    /// PresentMon 1.x's (`MsBetweenPresents` or `msBetweenPresents`, `Dropped`,
    /// `MsUntilDisplayed`), also written by 2.x with `--v1_metrics`, OCAT, FrameView and
    /// CapFrameX's CSV.
    PresentMon1,
    /// PresentMon 2.4 and later's default (`MsBetweenPresents`, `MsCPUBusy`, `MsGPUBusy`,
    /// `NA` where a frame was not displayed).
    PresentMon2,
    /// PresentMon 2.x's `--v2_metrics` (and 2.0-2.3's default): `FrameTime`, `CPUBusy`,
    /// `GPUTime`, `DisplayedTime`.
    PresentMon2Metrics,
    /// CapFrameX's JSON: one array per column, PresentMon 1.x names.
    CapFrameXJson,
    /// MangoHud's: `fps`, `frametime`, `elapsed` and sensors.
    MangoHud,
}

impl ColumnSet {
    pub fn name(self) -> &'static str {
        match self {
            ColumnSet::PresentMon1 => "PresentMon 1.x columns",
            ColumnSet::PresentMon2 => "PresentMon 2.x default columns",
            ColumnSet::PresentMon2Metrics => "PresentMon 2.x --v2_metrics columns",
            ColumnSet::CapFrameXJson => "CapFrameX JSON arrays",
            ColumnSet::MangoHud => "MangoHud columns",
        }
    }
}

/// A capture's tool and column set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub tool: Tool,
    pub columns: ColumnSet,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}", self.tool.name(), self.columns.name())
    }
}

/// Where a capture's header is, once its format is known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    pub format: Format,
    /// Byte offset of the column header's line (the JSON's start for CapFrameX JSON).
    pub header_at: usize,
    /// Its line number, from 1.
    pub header_line: usize,
}

/// The format of `text` (a BOM already removed), or why it is not one Looplab reads.
pub fn detect(text: &str) -> Result<Found, FormatError> {
    let mut lines = LineIter::new(text);
    let Some((first, at, n)) = lines.next_non_empty() else {
        return Err(FormatError::Empty);
    };
    if first.trim_start().starts_with('{') {
        return Ok(Found {
            format: Format {
                tool: Tool::CapFrameX,
                columns: ColumnSet::CapFrameXJson,
            },
            header_at: at,
            header_line: n,
        });
    }
    if let Some(found) = mangohud_header(first, &mut lines)? {
        return Ok(found);
    }
    // CapFrameX's CSV: `//Key=Value` lines, then a PresentMon header.
    let mut tool = None;
    let (mut header, mut header_at, mut header_line) = (first, at, n);
    if first.trim_start().starts_with("//") {
        tool = Some(Tool::CapFrameX);
        (header, header_at, header_line) = after_comment_lines(&mut lines)?;
    }
    let cols = names(header);
    if let Some(summary) = summary_file(&cols) {
        return Err(FormatError::Summary(summary));
    }
    if cols.first() != Some(&"Application") {
        return Err(FormatError::NotACapture);
    }
    let columns = presentmon_columns(&cols)?;
    let tool = tool.unwrap_or_else(|| presentmon_tool(&cols, columns));
    Ok(Found {
        format: Format { tool, columns },
        header_at,
        header_line,
    })
}

/// MangoHud's column header, where `first` (the first line) starts a MangoHud log: a
/// system line, its values, then the columns (or, with log_versioning, a version block
/// first). `None` where it is not one, so the other formats are tried; refused where the
/// system line is there but no header follows within the first lines.
fn mangohud_header(first: &str, lines: &mut LineIter<'_>) -> Result<Option<Found>, FormatError> {
    let mango_system = |names: &[&str]| names.len() >= 6 && names[..6] == MANGO_SYSTEM;
    let first_names = names(first);
    if !mango_system(&first_names) && first.trim() != "v1" {
        return Ok(None);
    }
    let mut seen_system = mango_system(&first_names);
    while let Some((line, at, n)) = lines.next_non_empty() {
        let line_names = names(line);
        if line_names.first() == Some(&"fps") {
            return Ok(Some(Found {
                format: Format {
                    tool: Tool::MangoHud,
                    columns: ColumnSet::MangoHud,
                },
                header_at: at,
                header_line: n,
            }));
        }
        seen_system |= mango_system(&line_names);
        if n > 8 {
            break;
        }
    }
    if seen_system {
        return Err(FormatError::MangoHudWithoutHeader);
    }
    Ok(None)
}

/// The first line after CapFrameX's `//Key=Value` lines (its text, offset and number):
/// the PresentMon header they stand before.
fn after_comment_lines<'a>(
    lines: &mut LineIter<'a>,
) -> Result<(&'a str, usize, usize), FormatError> {
    loop {
        let Some((line, at, n)) = lines.next_non_empty() else {
            return Err(FormatError::CapFrameXWithoutHeader);
        };
        if !line.trim_start().starts_with("//") {
            return Ok((line, at, n));
        }
    }
}

/// Whether the header `cols` has a column named `name`, whole and case-sensitively.
fn has(cols: &[&str], name: &str) -> bool {
    cols.contains(&name)
}

/// The column set of a PresentMon-family header `cols`, told by the frame-time column each
/// set alone has; refused where it has none of them.
fn presentmon_columns(cols: &[&str]) -> Result<ColumnSet, FormatError> {
    if has(cols, "MsCPUBusy") {
        Ok(ColumnSet::PresentMon2)
    } else if has(cols, "CPUBusy") || has(cols, "FrameTime") {
        Ok(ColumnSet::PresentMon2Metrics)
    } else if has(cols, "MsBetweenPresents") || has(cols, "msBetweenPresents") {
        Ok(ColumnSet::PresentMon1)
    } else {
        Err(FormatError::PresentMonWithoutFrameTime)
    }
}

/// The PresentMon-family tool that wrote the header `cols` of `columns`, told by the
/// columns each adds to PresentMon's own.
fn presentmon_tool(cols: &[&str], columns: ColumnSet) -> Tool {
    if has(cols, "Render Queue Depth") || has(cols, "GPU0Clk(MHz)") || cols.get(1) == Some(&"GPU") {
        Tool::FrameView
    } else if has(cols, "Motherboard") && has(cols, "Driver Package") {
        Tool::Ocat
    } else if columns != ColumnSet::PresentMon1
        && (has(cols, "GPUPower") || has(cols, "CPUUtilization") || has(cols, "CPUFrameQPC"))
    {
        Tool::PresentMonApp
    } else {
        Tool::PresentMon
    }
}

/// MangoHud's system line (`cpuscheduler` after these since 0.6.2).
const MANGO_SYSTEM: [&str; 6] = ["os", "cpu", "gpu", "ram", "kernel", "driver"];

/// The tool's summary file `cols` are the header of, where they are one's.
fn summary_file(cols: &[&str]) -> Option<SummaryFile> {
    let starts = |a: &str, b: &str| cols.first() == Some(&a) && cols.get(1) == Some(&b);
    if starts("Timestamp", "Application") && cols.contains(&"Log Name") {
        Some(SummaryFile::FrameView)
    } else if starts("Duration", "Total Frames") {
        Some(SummaryFile::PresentMonApp)
    } else if cols.first() == Some(&"0.1% Min FPS") {
        Some(SummaryFile::MangoHud)
    } else {
        None
    }
}

/// The comma-separated names of a header line, trimmed (quotes kept: no header quotes its
/// names).
fn names(line: &str) -> Vec<&str> {
    line.split(',').map(str::trim).collect()
}

/// Lines with their byte offsets and numbers, CRLF or LF.
struct LineIter<'a> {
    text: &'a str,
    at: usize,
    number: usize,
}

impl<'a> LineIter<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            at: 0,
            number: 0,
        }
    }

    /// The next line with anything but whitespace on it: its text, offset and number.
    fn next_non_empty(&mut self) -> Option<(&'a str, usize, usize)> {
        while self.at < self.text.len() {
            let rest = &self.text[self.at..];
            let end = rest.find('\n').map_or(rest.len(), |i| i + 1);
            let (line, at) = (&rest[..end], self.at);
            self.at += end;
            self.number += 1;
            let line = line.trim_end_matches(['\n', '\r']);
            if !line.trim().is_empty() {
                return Some((line, at, self.number));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn format_of(text: &str) -> Format {
        detect(text)
            .unwrap_or_else(|e| panic!("{e}: {text}"))
            .format
    }

    #[test]
    fn each_tool_is_told_from_its_header() {
        let pm = |columns| Format {
            tool: Tool::PresentMon,
            columns,
        };
        assert_eq!(
            format_of(
                "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,msInPresentAPI,msBetweenPresents\n"
            ),
            pm(ColumnSet::PresentMon1)
        );
        assert_eq!(
            format_of(
                "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents\r\n"
            ),
            pm(ColumnSet::PresentMon1)
        );
        assert_eq!(
            format_of(
                "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,TimeInMs,MsBetweenPresents,CPUStartTimeInMs,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPUBusy"
            ),
            pm(ColumnSet::PresentMon2)
        );
        assert_eq!(
            format_of(
                "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,CPUStartQPC,FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime"
            ),
            pm(ColumnSet::PresentMon2Metrics)
        );
        let found = detect("\n//GameName=re2.exe\r\n//Comment=\r\nApplication,ProcessID,Dropped,TimeInSeconds,MsBetweenPresents\r\nx").unwrap();
        assert_eq!(
            found.format,
            Format {
                tool: Tool::CapFrameX,
                columns: ColumnSet::PresentMon1
            }
        );
        assert_eq!(found.header_line, 4);
        assert_eq!(
            format_of(
                "Application,ProcessID,Dropped,TimeInSeconds,MsBetweenPresents,MsUntilDisplayed,Motherboard,OS,Processor,System RAM,Base Driver Version,Driver Package,GPU #"
            ),
            Format {
                tool: Tool::Ocat,
                columns: ColumnSet::PresentMon1
            }
        );
        assert_eq!(
            format_of(
                "Application,GPU,CPU,Resolution,Runtime,AllowsTearing,ProcessID,SwapChainAddress,SyncInterval,PresentFlags,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,Render Queue Depth"
            ),
            Format {
                tool: Tool::FrameView,
                columns: ColumnSet::PresentMon1
            }
        );
        assert_eq!(
            format_of(
                "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,TimeInSeconds,MsBetweenPresents,MsCPUBusy,MsGPUBusy,GPUPower,CPUUtilization"
            ),
            Format {
                tool: Tool::PresentMonApp,
                columns: ColumnSet::PresentMon2
            }
        );
        let mango = Format {
            tool: Tool::MangoHud,
            columns: ColumnSet::MangoHud,
        };
        let found = detect("os,cpu,gpu,ram,kernel,driver,cpuscheduler\nArch,Ryzen,RX,32827044,6.9,,schedutil\nfps,frametime,elapsed\n1,2,3").unwrap();
        assert_eq!((found.format, found.header_line), (mango, 3));
        let versioned = "v1\n0.8.2\n---------------------SYSTEM INFO---------------------\nos,cpu,gpu,ram,kernel,driver,cpuscheduler\na,b,c,1,k,,s\n--------------------FRAME METRICS--------------------\nfps,frametime,elapsed\n";
        assert_eq!(detect(versioned).unwrap().header_line, 7);
        assert_eq!(
            format_of("  {\"Hash\":\"x\",\"Info\":{}}").columns,
            ColumnSet::CapFrameXJson
        );
    }

    #[test]
    fn what_is_not_a_capture_is_refused_in_words() {
        let err = |t: &str| detect(t).unwrap_err().to_string();
        assert_eq!(detect("").unwrap_err(), FormatError::Empty);
        assert_eq!(
            detect("Duration,Total Frames,Average FPS").unwrap_err(),
            FormatError::Summary(SummaryFile::PresentMonApp)
        );
        assert_eq!(err(""), "is empty");
        assert_eq!(err("\r\n \n"), "is empty");
        assert!(err("time,value\n1,2").contains("PresentMon 1.x and 2.x CSV, OCAT"));
        assert!(err("Application,ProcessID,TimeInSeconds\n").contains("no frame-time column"));
        assert!(err("Timestamp,Application,Log Name,Resolution").contains("FrameView's summary"));
        assert!(err("Duration,Total Frames,Average FPS").contains("-stats.csv"));
        assert!(err("0.1% Min FPS,1% Min FPS,97% Percentile FPS").contains("_summary.csv"));
        assert!(err("//Ignore=true\n//x=1\n").contains("no column header"));
        assert!(
            err("os,cpu,gpu,ram,kernel,driver\na,b,c,1,k,d\n")
                .contains("MangoHud log with no column header")
        );
        // The tests compare whole names: `Runtime` alone is no 2.x marker, and a header
        // that only mentions a name inside another is no capture.
        assert!(err("Application,MsBetweenPresentsX").contains("no frame-time column"));
    }
}
