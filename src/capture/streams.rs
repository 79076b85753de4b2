//! What the readers hand over: every process's and swap chain's frames, row by row, and the
//! columns each role was read from. [`super::Capture::read`] then chooses the application.

use std::collections::HashMap;

use super::{Frame, MAX_FRAMES, Place, RowError, Sampling, Timeline};

/// The longest a frame may take: beyond it, a capture's frame time is taken for a mistake.
const LONGEST_FRAME_MS: f64 = 3_600_000.0;

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
    pub fn most(&self) -> Option<&T> {
        self.counts.iter().max_by_key(|(_, n)| *n).map(|(v, _)| v)
    }
}

/// One swap chain's frames (a process may present to several).
#[derive(Clone, Debug, Default)]
pub(crate) struct Stream {
    pub application: String,
    pub swap_chain: Option<String>,
    pub frames: Vec<Frame>,
    pub generated: usize,
    /// The time of generated frames since the last game frame, added to the next one's
    /// interval: a game frame's time is since the game's frame before.
    pending_ms: f64,
    pub sync_interval: Tally<u32>,
    pub allows_tearing: Tally<bool>,
    pub present_mode: Tally<String>,
}

/// The column each role was read from, as the report names them; `None` where the file
/// has no such column.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Columns {
    pub frame_time: String,
    pub cpu_busy: Option<String>,
    pub gpu_busy: Option<String>,
    pub in_present: Option<String>,
    pub render_complete: Option<String>,
    pub screen: Option<String>,
    pub until_displayed: Option<String>,
    pub animation_error: Option<String>,
    pub pc_latency: Option<String>,
    pub instrumented_latency: Option<String>,
    pub input_to_photon: Option<String>,
}

/// Every stream a file holds, and what its reader learnt of its columns.
#[derive(Clone, Debug, Default)]
pub(crate) struct Streams {
    pub streams: Vec<Stream>,
    /// Stream index by application, then swap chain.
    index: HashMap<String, Vec<(Option<String>, usize)>>,
    pub rows: usize,
    pub columns: Columns,
    pub timeline: Timeline,
    pub sampled: Option<Sampling>,
    pub notes: Vec<String>,
}

impl Streams {
    /// Adds a row read from `place`.
    pub(crate) fn push(&mut self, row: Row<'_>, place: Place) -> Result<(), RowError> {
        let f = row.frame;
        for (value, what) in [
            (Some(f.interval_ms), self.columns.frame_time.as_str()),
            (f.cpu_busy_ms, "the CPU's busy time"),
            (f.gpu_busy_ms, "the GPU's busy time"),
        ] {
            if let Some(v) = value
                && !(0.0..=LONGEST_FRAME_MS).contains(&v)
            {
                return Err(RowError::NotAFrameTime {
                    place,
                    what: what.to_string(),
                    ms: v,
                });
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
            return Err(RowError::TooManyFrames {
                application: s.application.clone(),
            });
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

    /// The frames of `application`, every swap chain's, by frames.
    pub fn frames_of(&self, application: &str) -> usize {
        self.streams
            .iter()
            .filter(|x| x.application == application)
            .map(|x| x.frames.len())
            .sum()
    }
}
