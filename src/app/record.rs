//! What the window measured, per strategy, for `--stats FILE.json`: so a script (and the
//! end-to-end test) can check that each strategy behaved as the texts say while it was
//! active.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use crate::world::accuracy::FrameAccuracy;
use looplab_timing::Strategy;

/// Totals of the frames drawn under one strategy.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StrategyTotals {
    /// Real time the strategy was active, seconds.
    pub seconds: f64,
    pub frames: u64,
    pub updates: u64,
    /// Game time it advanced, seconds.
    pub game_seconds: f64,
    pub fps: f64,
    pub ups: f64,
    /// Game time per real time.
    pub ratio: f64,
    pub max_updates_in_frame: u32,
    pub mean_error_px: f64,
    pub max_error_px: f64,
    pub mean_judder_px: f64,
    #[serde(skip)]
    error_sum: f64,
    #[serde(skip)]
    judder_sum: f64,
}

/// A frame that started and is not yet finished.
#[derive(Clone, Copy, Debug)]
struct OpenFrame {
    start: Duration,
    strategy: Strategy,
    updates: u32,
    game_advance: Duration,
    accuracy: FrameAccuracy,
}

/// Per-strategy totals over a whole run.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    totals: BTreeMap<Strategy, StrategyTotals>,
    open: Option<OpenFrame>,
}

impl Recorder {
    /// Records a frame that started at `start`; the previous frame is closed and its
    /// duration (start to start) counted to the strategy that drew it.
    pub fn frame(
        &mut self,
        start: Duration,
        strategy: Strategy,
        updates: u32,
        game_advance: Duration,
        accuracy: FrameAccuracy,
    ) {
        self.close(start);
        self.open = Some(OpenFrame {
            start,
            strategy,
            updates,
            game_advance,
            accuracy,
        });
    }

    /// Closes the open frame at `end` (the start of the next frame, or the end of the run).
    pub fn close(&mut self, end: Duration) {
        let Some(f) = self.open.take() else {
            return;
        };
        let t = self.totals.entry(f.strategy).or_default();
        t.seconds += end.saturating_sub(f.start).as_secs_f64();
        t.frames += 1;
        t.updates += f.updates as u64;
        t.game_seconds += f.game_advance.as_secs_f64();
        t.max_updates_in_frame = t.max_updates_in_frame.max(f.updates);
        t.error_sum += f.accuracy.mean_error as f64;
        t.max_error_px = t.max_error_px.max(f.accuracy.max_error as f64);
        t.judder_sum += f.accuracy.judder as f64;
    }

    /// The totals with their rates computed, keyed by strategy id.
    pub fn totals(&self) -> BTreeMap<String, StrategyTotals> {
        self.totals
            .iter()
            .map(|(s, t)| {
                let mut t = t.clone();
                let per_sec = |x: f64| if t.seconds > 0.0 { x / t.seconds } else { 0.0 };
                t.fps = per_sec(t.frames as f64);
                t.ups = per_sec(t.updates as f64);
                t.ratio = per_sec(t.game_seconds);
                let frames = t.frames.max(1) as f64;
                t.mean_error_px = t.error_sum / frames;
                t.mean_judder_px = t.judder_sum / frames;
                (s.id().to_string(), t)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn frames_are_counted_to_the_strategy_that_drew_them() {
        let mut r = Recorder::default();
        let acc = FrameAccuracy {
            mean_error: 2.0,
            max_error: 5.0,
            judder: 1.0,
        };
        // Fixed-sleep: 4 frames of 40 ms, one 16.7 ms update each: ratio 0.42.
        for i in 0..4 {
            r.frame(
                ms(40 * i),
                Strategy::FixedSleep,
                1,
                Duration::from_nanos(16_666_667),
                acc,
            );
        }
        // Interpolated: 10 frames of 40 ms owing 40 ms each.
        for i in 0..10 {
            r.frame(
                ms(160 + 40 * i),
                Strategy::Interpolated,
                2,
                ms(40),
                FrameAccuracy::default(),
            );
        }
        r.close(ms(560));
        let t = r.totals();
        let fs = &t["fixed-sleep"];
        assert_eq!((fs.frames, fs.updates), (4, 4));
        assert!((fs.seconds - 0.16).abs() < 1e-9);
        assert!((fs.fps - 25.0).abs() < 1e-9);
        assert!((fs.ratio - 0.0666666668 / 0.16).abs() < 1e-6);
        assert_eq!(
            (fs.mean_error_px, fs.max_error_px, fs.mean_judder_px),
            (2.0, 5.0, 1.0)
        );
        let i = &t["interpolated"];
        assert_eq!(i.frames, 10);
        assert!((i.ratio - 1.0).abs() < 1e-9);
        assert_eq!(i.max_updates_in_frame, 2);
    }
}

/// At most this many frames are kept in a frame log (an hour at 55 FPS); later frames are
/// counted but not kept.
const FRAME_LOG_CAPACITY: usize = 200_000;

/// One frame of a frame log: `[start, updates, acquire, overlay, upload, encode, present,
/// presented, cpu, game]`, times in nanoseconds (`start` and `presented` on the app's clock,
/// `cpu` the process CPU time so far, `game` the game clock the frame shows, the others
/// durations).
pub type FrameLogEntry = [u64; 10];

/// Every frame's timings and every key's latency, for `looplab bench` (`--frame-log`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct FrameLog {
    /// The fields of each entry, in order.
    pub fields: [&'static str; 10],
    pub frames: Vec<FrameLogEntry>,
    /// For each key: `[latency, render]`, nanoseconds. Latency runs from the key event's
    /// arrival to the end of the present of the first frame showing its effect; render is
    /// that frame's own start-to-present time (so latency minus render is the wait for the
    /// frame to start).
    pub input_latency_ns: Vec<[u64; 2]>,
    /// Wall-clock time of the first present, nanoseconds since the Unix epoch, so a parent
    /// process can measure start-up.
    pub first_present_unix_ns: Option<u128>,
    /// Peak resident memory (Linux `VmHWM`), KiB.
    pub peak_rss_kib: Option<u64>,
}

impl FrameLog {
    pub fn new() -> Self {
        Self {
            fields: [
                "start",
                "updates",
                "acquire",
                "overlay",
                "upload",
                "encode",
                "present",
                "presented",
                "cpu",
                "game",
            ],
            ..Self::default()
        }
    }

    /// Records a presented frame.
    pub fn frame(&mut self, entry: FrameLogEntry) {
        if self.first_present_unix_ns.is_none() {
            self.first_present_unix_ns = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .ok()
                .map(|d| d.as_nanos());
        }
        if self.frames.len() < FRAME_LOG_CAPACITY {
            self.frames.push(entry);
        }
    }
}

/// Peak resident memory of this process in KiB, where the OS reports it (Linux).
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[cfg(test)]
mod frame_log_tests {
    use super::*;

    #[test]
    fn the_first_present_is_stamped_once_and_capacity_is_kept() {
        let mut log = FrameLog::new();
        log.frame([1; 10]);
        let first = log.first_present_unix_ns.unwrap();
        log.frame([2; 10]);
        assert_eq!(log.first_present_unix_ns, Some(first));
        assert_eq!(log.frames.len(), 2);
        if cfg!(target_os = "linux") {
            assert!(peak_rss_kib().unwrap() > 100);
        }
    }
}
