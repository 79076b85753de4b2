//! A trace of a real machine's frame timings: what each frame of a window's run cost, so a
//! stutter seen once on someone's machine can be replayed headless, under every strategy
//! (`looplab --trace FILE`, then `looplab lab --trace FILE`).
//!
//! The file is JSON lines: a header with the display and the loop the trace was taken
//! under, then one line per presented frame:
//!
//! ```text
//! {"looplab_trace":2,"strategy":"interpolated","update_hz":60.0,"frame_cap_hz":60.0,"refresh_hz":60.0,"vsync":false,"bullets":2000}
//! {"start_ns":16711000,"wait_ns":0,"updates":1,"update_ns":41000,"redraw_wait_ns":0,"acquire_ns":30000,"render_ns":7090000,"present_ns":310000,"presented_ns":24192000,"game_ns":16666667,"animation_ns":8333333,"behind_ns":8333334}
//! ```
//!
//! `start_ns` is when the frame started on the run's clock; `wait_ns` the time it waited for
//! its deadline before that; `update_ns` the time its `updates` updates took;
//! `redraw_wait_ns` the time it then waited for the windowing system to let it draw (on
//! Wayland, the compositor's frame callback); `acquire_ns` the time it waited for a surface
//! image (where a FIFO swapchain waits for the display); `render_ns` the time it took to draw
//! (the simulated load, laying out, uploading, encoding) and `present_ns` to submit and present (the GPU's work
//! on a software rasteriser, and where a FIFO present waits for the display); `presented_ns` when the present
//! ended, `game_ns` the game-clock instant of the frame, `animation_ns` the game time its
//! picture shows (its animation time, the time scale taken out) and `behind_ns` how far
//! that was behind the game clock at the frame's start, in real time.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::frame::FrameRecord;
use super::json_lines::{self, HeaderError};
use looplab_timing::{Strategy, TimingError};

/// The version this build writes and reads.
pub const VERSION: u32 = 2;

/// The most frames a trace may hold: an hour at 1000 FPS.
pub const MAX_FRAMES: usize = 3_600_000;

/// What the trace was taken under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceHeader {
    pub looplab_trace: u32,
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub strategy: Strategy,
    pub update_hz: f64,
    /// The frame cap, if there was one.
    pub frame_cap_hz: Option<f64>,
    /// The monitor's refresh rate as the window learnt it (60 where it could not).
    pub refresh_hz: f64,
    pub vsync: bool,
    pub bullets: usize,
}

impl TraceHeader {
    /// A run of `bullets` under `interpolated` at 60 updates a second on a 60 Hz display,
    /// with no cap and no vsync: where the made-up traces of the tests and the benches
    /// start.
    pub fn interpolated_60hz(bullets: usize) -> Self {
        TraceHeader {
            looplab_trace: VERSION,
            strategy: Strategy::Interpolated,
            update_hz: 60.0,
            frame_cap_hz: None,
            refresh_hz: 60.0,
            vsync: false,
            bullets,
        }
    }
}

/// One presented frame's timings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceFrame {
    pub start_ns: u64,
    pub wait_ns: u64,
    pub updates: u32,
    pub update_ns: u64,
    pub redraw_wait_ns: u64,
    pub acquire_ns: u64,
    pub render_ns: u64,
    pub present_ns: u64,
    pub presented_ns: u64,
    pub game_ns: u64,
    /// The game time the picture shows, in real time: its animation time.
    pub animation_ns: u64,
    /// How far that was behind the game clock at the frame's start, in real time.
    pub behind_ns: u64,
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

impl TraceFrame {
    /// The timings of a presented frame's record.
    pub fn of(record: &FrameRecord) -> Self {
        let r = &record.render;
        let render = r.load + r.overlay + r.upload + r.encode;
        let presented = record.presented.unwrap_or(record.start);
        let redraw_wait = presented
            .saturating_sub(record.start)
            .saturating_sub(record.update_time + r.acquire + render + r.present);
        Self {
            start_ns: nanos(record.start),
            wait_ns: nanos(record.waited),
            updates: record.updates,
            update_ns: nanos(record.update_time),
            redraw_wait_ns: nanos(redraw_wait),
            acquire_ns: nanos(r.acquire),
            render_ns: nanos(render),
            present_ns: nanos(r.present),
            presented_ns: nanos(presented),
            game_ns: nanos(record.game_shown),
            animation_ns: nanos(record.animation_time()),
            behind_ns: nanos(record.picture_behind()),
        }
    }

    /// Waiting for a surface image (where a FIFO swapchain's vsync waits).
    pub fn acquire(&self) -> Duration {
        Duration::from_nanos(self.acquire_ns)
    }

    /// The wait for the windowing system to let the frame draw.
    pub fn redraw_wait(&self) -> Duration {
        Duration::from_nanos(self.redraw_wait_ns)
    }

    pub fn render(&self) -> Duration {
        Duration::from_nanos(self.render_ns)
    }

    pub fn present(&self) -> Duration {
        Duration::from_nanos(self.present_ns)
    }

    /// What one of its updates took on average; `None` when it ran none.
    pub fn per_update(&self) -> Option<Duration> {
        (self.updates > 0).then(|| Duration::from_nanos(self.update_ns / u64::from(self.updates)))
    }
}

/// A whole trace.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub header: TraceHeader,
    pub frames: Vec<TraceFrame>,
}

impl Trace {
    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut out = serde_json::to_string(&self.header).unwrap_or_default();
        out.push('\n');
        for f in &self.frames {
            out.push_str(&serde_json::to_string(f).unwrap_or_default());
            out.push('\n');
        }
        out
    }

    /// Reads a trace, or says what is wrong with it.
    pub fn parse(text: &str) -> Result<Trace, TraceError> {
        let (header, lines): (TraceHeader, _) =
            json_lines::open(text, "looplab_trace", "trace", VERSION)?;
        let cap = header.frame_cap_hz.unwrap_or(60.0);
        for (hz, field) in [
            (header.update_hz, "update_hz"),
            (header.refresh_hz, "refresh_hz"),
            (cap, "frame_cap_hz"),
        ] {
            looplab_timing::Rate::hz(hz).map_err(|error| TraceError::Rate { field, error })?;
        }
        let mut frames: Vec<TraceFrame> = Vec::new();
        for (line, text) in lines {
            let at = |problem| TraceError::Frame { line, problem };
            let frame: TraceFrame = serde_json::from_str(text).map_err(|e| {
                at(FrameProblem::NotAFrame(crate::failure::one_line(
                    &e.to_string(),
                )))
            })?;
            if let Some(last) = frames.last()
                && frame.start_ns < last.start_ns
            {
                return Err(at(FrameProblem::StartsBeforeTheOneAbove));
            }
            if frame.presented_ns < frame.start_ns {
                return Err(at(FrameProblem::PresentedBeforeItStarts));
            }
            if frame.presented_ns - frame.start_ns > 86_400_000_000_000 {
                return Err(at(FrameProblem::PresentedADayLater));
            }
            if frames.len() == MAX_FRAMES {
                return Err(TraceError::TooManyFrames);
            }
            frames.push(frame);
        }
        if frames.len() < 2 {
            return Err(TraceError::TooFewFrames);
        }
        Ok(Trace { header, frames })
    }

    /// Real time from the first frame's start to the last's.
    pub fn span(&self) -> Duration {
        let (first, last) = (
            self.frames[0].start_ns,
            self.frames[self.frames.len() - 1].start_ns,
        );
        Duration::from_nanos(last - first)
    }
}

/// Why a trace cannot be read: each is one line, after the file's name.
#[derive(Clone, Debug, PartialEq)]
pub enum TraceError {
    /// Its first line is not a trace's header.
    Header(HeaderError),
    /// A rate of the header's is none a loop can run at.
    Rate {
        field: &'static str,
        error: TimingError,
    },
    /// A frame's line, and what is wrong with it.
    Frame { line: usize, problem: FrameProblem },
    /// More frames than a trace may hold.
    TooManyFrames,
    /// Fewer than the two frames a replay needs.
    TooFewFrames,
}

/// What is wrong with a trace's frame line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameProblem {
    /// Its fields are not a frame's: serde's words.
    NotAFrame(String),
    StartsBeforeTheOneAbove,
    PresentedBeforeItStarts,
    /// Presented more than a day after it starts: no frame takes that long.
    PresentedADayLater,
}

impl From<HeaderError> for TraceError {
    fn from(e: HeaderError) -> Self {
        TraceError::Header(e)
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Header(e) => e.fmt(f),
            TraceError::Rate { field, error } => write!(f, "line 1: {field}: {error}"),
            TraceError::Frame { line, problem } => match problem {
                FrameProblem::NotAFrame(why) => write!(f, "line {line} is not a frame: {why}"),
                FrameProblem::StartsBeforeTheOneAbove => {
                    write!(f, "line {line}: the frame starts before the one above it")
                }
                FrameProblem::PresentedBeforeItStarts => {
                    write!(f, "line {line}: the frame is presented before it starts")
                }
                FrameProblem::PresentedADayLater => write!(
                    f,
                    "line {line}: the frame is presented more than a day after it starts"
                ),
            },
            TraceError::TooManyFrames => write!(f, "holds more than {MAX_FRAMES} frames"),
            TraceError::TooFewFrames => write!(f, "holds fewer than two frames"),
        }
    }
}

impl std::error::Error for TraceError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::frame::RenderTimes;

    fn trace() -> Trace {
        let ms = Duration::from_millis;
        let frames = (0..3u32)
            .map(|k| {
                TraceFrame::of(&FrameRecord {
                    start: ms(17) * k,
                    waited: ms(1),
                    updates: k,
                    update_time: ms(2) * k,
                    presented: Some(ms(17) * k + ms(15)),
                    render: RenderTimes {
                        acquire: ms(1),
                        overlay: ms(2),
                        upload: ms(1),
                        encode: ms(1),
                        present: ms(3),
                        load: Duration::ZERO,
                        gpu_lost: Duration::ZERO,
                    },
                    ..FrameRecord::default()
                })
            })
            .collect();
        Trace {
            header: TraceHeader {
                frame_cap_hz: Some(30.0),
                refresh_hz: 59.94,
                vsync: true,
                ..TraceHeader::interpolated_60hz(2000)
            },
            frames,
        }
    }

    #[test]
    fn a_trace_reads_back_as_written() {
        let t = trace();
        assert_eq!(t.frames[1].render(), Duration::from_millis(4));
        assert_eq!(t.frames[1].acquire(), Duration::from_millis(1));
        assert_eq!(t.frames[1].present(), Duration::from_millis(3));
        assert_eq!(t.frames[2].per_update(), Some(Duration::from_millis(2)));
        assert_eq!(t.frames[0].per_update(), None);
        // Frame 1: 15 ms from start to presented, 2 ms of updates, 5 of drawing, 3 of
        // presenting: it waited 5 ms to be let draw.
        assert_eq!(t.frames[1].redraw_wait(), Duration::from_millis(5));
        let back = Trace::parse(&t.to_text()).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.span(), Duration::from_millis(34));
    }

    #[test]
    fn bad_traces_say_what_is_wrong() {
        let good = trace().to_text();
        let lines: Vec<&str> = good.lines().collect();
        let err = |text: &str| Trace::parse(text).unwrap_err().to_string();
        assert_eq!(
            Trace::parse("").unwrap_err(),
            TraceError::Header(HeaderError::Empty)
        );
        assert_eq!(err(""), "is empty");
        assert!(err("{\"looplab_recording\":1}").contains("not a Looplab trace"));
        assert!(
            err(&good.replace("\"looplab_trace\":2", "\"looplab_trace\":7")).contains("version 7")
        );
        assert!(err(&good.replace("59.94", "-1")).contains("refresh_hz"));
        assert_eq!(
            Trace::parse(&format!("{}\n{}\n", lines[0], lines[1])).unwrap_err(),
            TraceError::TooFewFrames
        );
        assert!(err(&format!("{}\n{}\n", lines[0], lines[1])).contains("fewer than two"));
        assert!(
            err(&format!("{}\n{}\n{{\"start_ns\":1}}\n", lines[0], lines[1]))
                .contains("line 3 is not a frame")
        );
        assert!(
            err(&format!("{}\n{}\n{}\n", lines[0], lines[2], lines[1]))
                .contains("line 3: the frame starts before")
        );
        assert!(
            err(&good.replace("\"updates\":1", "\"updates\":-1")).contains("line 3 is not a frame")
        );
        let early = lines[2].replace("\"presented_ns\":32000000", "\"presented_ns\":1");
        assert!(
            err(&format!("{}\n{}\n{early}\n", lines[0], lines[1]))
                .contains("line 3: the frame is presented before it starts")
        );
        let late = lines[2].replace(
            "\"presented_ns\":32000000",
            "\"presented_ns\":100000000000000000",
        );
        assert!(
            err(&format!("{}\n{}\n{late}\n", lines[0], lines[1])).contains("more than a day after")
        );
    }
}
