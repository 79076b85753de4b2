//! Reading the files a person names on the command line (recordings, traces, frame
//! captures), each with a size limit and one line saying what is wrong with a bad one.

use std::path::Path;

use super::args::AppArgs;
use crate::app::AppOptions;
use crate::failure::Failure;
use crate::lab::profile::Profile;
use crate::platform::files;
use crate::session::recording::Recording;
use crate::session::trace::Trace;

/// The largest recording read: about 900,000 steering changes.
pub const MAX_RECORDING_BYTES: u64 = 64 << 20;
/// The largest trace read: about 1.1 million frames, five hours at 60 FPS. Read whole and
/// parsed, it takes about twice its size in memory.
pub const MAX_TRACE_BYTES: u64 = 256 << 20;

/// The one line that says what is wrong with the `noun` file at `path` (exit status 2).
fn bad_file<E: std::fmt::Display>(noun: &str, path: &Path) -> impl Fn(E) -> Failure {
    move |problem| Failure::usage(format!("{noun} {}: {problem}", path.display()))
}

/// Reads a recording, or says in one line what is wrong with the file (exit status 2).
pub fn load_recording(path: &Path) -> Result<Recording, Failure> {
    let text = files::read_text(path, MAX_RECORDING_BYTES).map_err(bad_file("recording", path))?;
    Recording::parse(&text).map_err(bad_file("recording", path))
}

/// Reads a frame-timing trace, or says in one line what is wrong with the file (exit
/// status 2).
pub fn load_trace(path: &Path) -> Result<Trace, Failure> {
    let text = files::read_text(path, MAX_TRACE_BYTES).map_err(bad_file("trace", path))?;
    Trace::parse(&text).map_err(bad_file("trace", path))
}

/// A capture and its summary, as the lab and the window read it.
pub type ReadCapture = (crate::capture::Capture, crate::capture::summary::Summary);

/// Reads a frame capture for the application `process` (or the one with the most frames)
/// and summarises it, on a `refresh` display where one is given (else the one the capture
/// shows); or says in one line what is wrong with the file (exit status 2).
pub fn read_capture(
    path: &Path,
    process: Option<&str>,
    refresh: Option<looplab_timing::Rate>,
) -> Result<ReadCapture, Failure> {
    let capture = load_capture(path, process)?;
    let summary = crate::capture::summary::Summary::of(&capture, refresh.map(|r| r.as_hz()));
    Ok((capture, summary))
}

/// Reads a frame capture for the application `process` (or the one with the most frames),
/// or says in one line what is wrong with the file (exit status 2).
pub fn load_capture(
    path: &Path,
    process: Option<&str>,
) -> Result<crate::capture::Capture, Failure> {
    let bytes =
        files::read_bytes(path, crate::capture::MAX_BYTES).map_err(bad_file("capture", path))?;
    crate::capture::Capture::read(&bytes, process).map_err(bad_file("capture", path))
}

/// Reads the captures the window was given: `--capture FILE` as its load, and each
/// `--lane capture=FILE` as its lane's machine (a capture's lane given alone gets the fast
/// machine beside it, under the same strategy).
pub(super) fn resolve_captures(args: &AppArgs, options: &mut AppOptions) -> Result<(), Failure> {
    let process = args.process.as_deref();
    if process.is_some()
        && args.capture.is_none()
        && options.lanes.iter().all(|l| l.capture.is_none())
    {
        return Err(Failure::usage(
            "--process names the application of a capture: give --capture FILE or --lane capture=FILE too",
        ));
    }
    if let Some(path) = &args.capture {
        let (capture, summary) = read_capture(path, process, None)?;
        log::info!(
            "load: {} frames of {} ({}), cost median {:.2} ms, p99 {:.2} ms",
            summary.frames,
            lane_name(&capture),
            capture.format,
            summary.cost_median_ms,
            summary.cost_p99_ms
        );
        options.knobs.capture = crate::app::capture_load::CaptureLoad::new(
            lane_name(&capture),
            capture.costs(crate::capture::MAX_FRAMES).collect(),
        );
    }
    for lane in &mut options.lanes {
        if let Some(path) = lane.capture.take() {
            let (capture, summary) = read_capture(&path, process, None)?;
            lane.profile = Profile::from_capture(lane_name(&capture), &capture, &summary);
        }
    }
    if let [only] = options.lanes.as_slice()
        && args.lanes.first().is_some_and(|l| l.capture.is_some())
    {
        let fast = crate::lab::compare::LaneSpec {
            delta: only.delta,
            ..crate::lab::compare::LaneSpec::new(
                Profile::parse("fast").map_err(|e| Failure::usage(e.to_string()))?,
                only.strategy,
            )
        };
        options.lanes.insert(0, fast);
    }
    Ok(())
}

/// A capture's lane as the overlay names it: its application, or "capture".
fn lane_name(capture: &crate::capture::Capture) -> &str {
    capture.application_name().unwrap_or("capture")
}
