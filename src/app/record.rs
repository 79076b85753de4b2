//! What the window keeps of a run: per-strategy totals for `--stats FILE.json` (so a script,
//! and the end-to-end test, can check that each strategy behaved as the texts say while it
//! was active), and the frame log of every presented frame for `--frame-log FILE.json`. Both
//! are made from the one [`FrameRecord`] of each frame.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::speed::SpeedWatch;
use crate::failure::Failure;
use crate::platform::files;
use crate::session::frame::{FrameLog, FrameRecord, KeyLatency};
use crate::session::trace::TraceFrame;
use crate::world::accuracy::FrameAccuracy;
use looplab_timing::Strategy;

/// Totals of the frames drawn under one strategy.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Records a frame drawn by `strategy`; the previous frame is closed and its duration
    /// (start to start) counted to the strategy that drew it.
    pub fn frame(&mut self, record: &FrameRecord, strategy: Strategy, accuracy: FrameAccuracy) {
        self.close(record.start);
        self.open = Some(OpenFrame {
            start: record.start,
            strategy,
            updates: record.updates,
            game_advance: record.game_advance(),
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

    /// The totals with their rates computed.
    pub fn totals(&self) -> BTreeMap<Strategy, StrategyTotals> {
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
                (*s, t)
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
        let frame = |start, updates, step| FrameRecord {
            start,
            updates,
            step,
            ..FrameRecord::default()
        };
        // Fixed-sleep: 4 frames of 40 ms, one 16.7 ms update each: ratio 0.42.
        for i in 0..4 {
            let f = frame(ms(40 * i), 1, Duration::from_nanos(16_666_667));
            r.frame(&f, Strategy::FixedSleep, acc);
        }
        // Interpolated: 10 frames of 40 ms owing 40 ms each.
        for i in 0..10 {
            let f = frame(ms(160 + 40 * i), 2, ms(20));
            r.frame(&f, Strategy::Interpolated, FrameAccuracy::default());
        }
        r.close(ms(560));
        let t = r.totals();
        let fs = &t[&Strategy::FixedSleep];
        assert_eq!((fs.frames, fs.updates), (4, 4));
        assert!((fs.seconds - 0.16).abs() < 1e-9);
        assert!((fs.fps - 25.0).abs() < 1e-9);
        assert!((fs.ratio - 0.0666666668 / 0.16).abs() < 1e-6);
        assert_eq!(
            (fs.mean_error_px, fs.max_error_px, fs.mean_judder_px),
            (2.0, 5.0, 1.0)
        );
        let i = &t[&Strategy::Interpolated];
        assert_eq!(i.frames, 10);
        assert!((i.ratio - 1.0).abs() < 1e-9);
        assert_eq!(i.max_updates_in_frame, 2);
    }
}

/// Everything kept of a run: the totals, the frame log when asked for, and the counts of
/// frames presented and skipped.
#[derive(Debug, Default)]
pub struct RunRecord {
    pub totals: Recorder,
    /// The game-speed warning, checked as the run goes.
    pub speed: SpeedWatch,
    /// Kept only with `--frame-log`.
    log: Option<FrameLog>,
    /// Arrival times of applied keys not yet shown by a presented frame.
    unshown_keys: Vec<Duration>,
    pub presented: u64,
    pub skipped: u64,
    /// Keys pressed and buttons clicked that took effect.
    pub inputs_applied: u64,
    /// Every measured input-to-display delay of the ship.
    pub steer_delays: Vec<Duration>,
    /// Every presented frame's timings, for `--trace`.
    pub trace: Option<Vec<TraceFrame>>,
}

impl RunRecord {
    /// A record that keeps a frame log when `frame_log`, and a trace when `trace`.
    pub fn new(frame_log: bool, trace: bool) -> Self {
        Self {
            log: frame_log.then(FrameLog::default),
            trace: trace.then(Vec::new),
            ..Self::default()
        }
    }

    /// A key that arrived at `arrival` has been applied: its latency is measured to the
    /// next presented frame.
    pub fn key_applied(&mut self, arrival: Duration) {
        if self.log.is_some() {
            self.unshown_keys.push(arrival);
        }
    }

    /// A frame drawn by `strategy` is done: counted to its strategy, the ship delays of the
    /// presses it showed kept and, presented, traced.
    pub fn frame_done(
        &mut self,
        record: &FrameRecord,
        strategy: Strategy,
        accuracy: FrameAccuracy,
        steer_delays: Vec<Duration>,
    ) {
        self.totals.frame(record, strategy, accuracy);
        self.steer_delays.extend(steer_delays);
        if let Some(trace) = &mut self.trace
            && record.presented.is_some()
        {
            trace.push(TraceFrame::of(record));
        }
    }

    /// A frame was presented (its record says when).
    pub fn presented(&mut self, record: &FrameRecord) {
        self.presented += 1;
        let (Some(log), Some(presented)) = (&mut self.log, record.presented) else {
            return;
        };
        let render = presented.saturating_sub(record.start);
        for arrival in self.unshown_keys.drain(..) {
            log.keys.push(KeyLatency {
                latency: presented.saturating_sub(arrival),
                render,
            });
        }
        log.frame(*record);
    }

    /// Writes the frame log to `path`, whole or not at all.
    pub fn write_frame_log(&mut self, path: &Path) -> Result<(), Failure> {
        let Some(log) = &mut self.log else {
            return Ok(());
        };
        log.peak_rss_kib = crate::platform::process::peak_rss_kib();
        log.ship_delays_ns = self
            .steer_delays
            .iter()
            .map(|d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
            .collect();
        let text = files::to_json("frame log", log, false)?;
        files::write_file("--frame-log", path, text.as_bytes())
    }
}

#[cfg(test)]
mod run_record_tests {
    use super::*;

    #[test]
    fn keys_are_measured_to_the_next_presented_frame() {
        let ms = Duration::from_millis;
        let mut run = RunRecord::new(true, false);
        run.key_applied(ms(10));
        run.key_applied(ms(12));
        let shown = FrameRecord {
            start: ms(16),
            presented: Some(ms(20)),
            ..FrameRecord::default()
        };
        run.presented(&shown);
        run.presented(&FrameRecord {
            start: ms(33),
            presented: Some(ms(37)),
            ..shown
        });
        let log = run.log.as_ref().unwrap();
        assert_eq!(log.frames.len(), 2);
        assert_eq!(
            log.keys,
            [
                KeyLatency {
                    latency: ms(10),
                    render: ms(4)
                },
                KeyLatency {
                    latency: ms(8),
                    render: ms(4)
                },
            ]
        );
        assert_eq!(run.presented, 2);

        let mut no_log = RunRecord::new(false, false);
        no_log.key_applied(ms(1));
        no_log.presented(&shown);
        assert!(no_log.log.is_none() && no_log.unshown_keys.is_empty());
        no_log
            .write_frame_log(Path::new("/nonexistent/dir/log.json"))
            .unwrap();
    }
}
