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
use crate::metrics::animation::{AnimationErrorFigures, AnimationErrors};
use crate::metrics::frame_times::FrameTimeFigures;
use crate::metrics::picture_lag::{PictureLagFigures, PictureLags};
use crate::platform::files;
use crate::session::frame::{FrameLog, FrameRecord, KeyLatency};
use crate::session::trace::TraceFrame;
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
    /// The field's figures of the times between its presents ([`FrameTimeFigures`]).
    #[serde(default)]
    pub frame_times: FrameTimeFigures,
    /// Animation error of its presented frames, each taken as shown when its present
    /// returned (a window does not see the refresh).
    #[serde(default)]
    pub animation_error: AnimationErrorFigures,
    /// Picture lag of the same frames, to the same times.
    #[serde(default)]
    pub picture_lag: PictureLagFigures,
    #[serde(skip)]
    presents: Vec<f64>,
    #[serde(skip)]
    errors: AnimationErrors,
    #[serde(skip)]
    lags: PictureLags,
}

/// A frame that started and is not yet finished.
#[derive(Clone, Copy, Debug)]
struct OpenFrame {
    start: Duration,
    strategy: Strategy,
    updates: u32,
    game_advance: Duration,
}

/// Per-strategy totals over a whole run.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    totals: BTreeMap<Strategy, StrategyTotals>,
    open: Option<OpenFrame>,
    /// The strategy of the last presented frame: a frame of another starts its figures
    /// afresh (no error across a switch).
    last_presented: Option<Strategy>,
}

impl Recorder {
    /// Records a frame drawn by `strategy`; the previous frame is closed and its duration
    /// (start to start) counted to the strategy that drew it. A presented frame counts to
    /// the strategy's frame times, animation error and picture lag.
    pub fn frame(&mut self, record: &FrameRecord, strategy: Strategy) {
        self.close(record.start);
        self.open = Some(OpenFrame {
            start: record.start,
            strategy,
            updates: record.updates,
            game_advance: record.game_advance(),
        });
        let Some(presented) = record.presented else {
            return;
        };
        let t = self.totals.entry(strategy).or_default();
        if self.last_presented != Some(strategy) {
            t.errors.restart();
        }
        self.last_presented = Some(strategy);
        let at_ms = ms(presented);
        if t.presents.len() < crate::metrics::animation::KEPT {
            t.presents.push(at_ms);
        }
        t.errors.displayed(ms(record.animation_time()), at_ms);
        t.lags.displayed(ms(record.picture_lag(presented)));
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
    }

    /// The totals with their rates and figures computed.
    pub fn totals(&self) -> BTreeMap<Strategy, StrategyTotals> {
        self.totals
            .iter()
            .map(|(s, t)| {
                let mut t = t.clone();
                let per_sec = |x: f64| if t.seconds > 0.0 { x / t.seconds } else { 0.0 };
                t.fps = per_sec(t.frames as f64);
                t.ups = per_sec(t.updates as f64);
                t.ratio = per_sec(t.game_seconds);
                // Presents of a strategy chosen twice are apart by the time between: only
                // each stretch's own intervals count.
                let intervals: Vec<f64> = t
                    .presents
                    .windows(2)
                    .map(|w| w[1] - w[0])
                    .filter(|&d| d > 0.0 && d < 1000.0)
                    .collect();
                t.frame_times = FrameTimeFigures::of(&intervals);
                t.animation_error = t.errors.figures();
                t.picture_lag = t.lags.figures();
                (*s, t)
            })
            .collect()
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
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
        let frame = |start, updates, step| FrameRecord {
            start,
            updates,
            step,
            ..FrameRecord::default()
        };
        // Fixed-sleep: 4 frames of 40 ms, one 16.7 ms update each: ratio 0.42.
        for i in 0..4 {
            let f = frame(ms(40 * i), 1, Duration::from_nanos(16_666_667));
            r.frame(&f, Strategy::FixedSleep);
        }
        // Interpolated: 10 frames of 40 ms owing 40 ms each.
        for i in 0..10 {
            let f = frame(ms(160 + 40 * i), 2, ms(20));
            r.frame(&f, Strategy::Interpolated);
        }
        r.close(ms(560));
        let t = r.totals();
        let fs = &t[&Strategy::FixedSleep];
        assert_eq!((fs.frames, fs.updates), (4, 4));
        assert!((fs.seconds - 0.16).abs() < 1e-9);
        assert!((fs.fps - 25.0).abs() < 1e-9);
        assert!((fs.ratio - 0.0666666668 / 0.16).abs() < 1e-6);
        let i = &t[&Strategy::Interpolated];
        assert_eq!(i.frames, 10);
        assert!((i.ratio - 1.0).abs() < 1e-9);
        assert_eq!(i.max_updates_in_frame, 2);
    }

    #[test]
    fn presented_frames_give_their_strategy_its_smoothness_and_lag() {
        let mut r = Recorder::default();
        // Latest state at 60 UPS, frames every 10 ms presented 4 ms after they start: the
        // picture moves on 16.7 ms at some frames and not at others.
        let step = Duration::from_nanos(16_666_667);
        let mut simulated = Duration::ZERO;
        for k in 0..100u32 {
            let start = ms(10) * k;
            let mut updates = 0;
            while simulated + step <= start {
                simulated += step;
                updates += 1;
            }
            r.frame(
                &FrameRecord {
                    start,
                    updates,
                    step,
                    game_before: simulated - step * updates,
                    game_shown: start,
                    time_scale: 1.0,
                    presented: Some(start + ms(4)),
                    ..FrameRecord::default()
                },
                Strategy::CatchUp,
            );
        }
        // Then interpolated frames, each exactly 10 ms on: no error at all.
        for k in 100..200u32 {
            let start = ms(10) * k;
            r.frame(
                &FrameRecord {
                    start,
                    updates: 1,
                    step: ms(10),
                    game_before: start - ms(10),
                    game_shown: start,
                    view: crate::session::frame::ViewKind::Interpolate,
                    alpha: 1.0,
                    time_scale: 1.0,
                    presented: Some(start + ms(4)),
                    ..FrameRecord::default()
                },
                Strategy::Interpolated,
            );
        }
        let t = r.totals();
        let (c, i) = (&t[&Strategy::CatchUp], &t[&Strategy::Interpolated]);
        assert_eq!(c.animation_error.frames, 99);
        // Each error is +6.7 or -10 ms: all over 2 ms.
        assert_eq!(c.animation_error.over_2ms_share, 1.0, "{c:?}");
        assert!(c.animation_error.mean_abs_ms > 6.0, "{c:?}");
        // The switch is no error: the interpolated stretch starts afresh.
        assert_eq!(i.animation_error.frames, 99);
        assert!(i.animation_error.mean_abs_ms < 1e-9, "{i:?}");
        // Interpolated at alpha 1 shows the game clock's time: 4 ms to its present.
        assert!((i.picture_lag.mean_ms - 4.0).abs() < 1e-9, "{i:?}");
        // The latest state is behind the clock by what is owed: 4 ms plus 0 to 16.7.
        assert!(
            c.picture_lag.mean_ms > 8.0 && c.picture_lag.mean_ms < 16.0,
            "{c:?}"
        );
        assert!((i.frame_times.average_fps - 100.0).abs() < 1e-6, "{i:?}");
    }
}

/// Everything kept of a run: the totals, the frame log when asked for, and the counts of
/// frames presented and skipped.
#[derive(Debug, Default)]
pub struct RunLog {
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

impl RunLog {
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
        steer_delays: Vec<Duration>,
    ) {
        self.totals.frame(record, strategy);
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
        let mut run = RunLog::new(true, false);
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

        let mut no_log = RunLog::new(false, false);
        no_log.key_applied(ms(1));
        no_log.presented(&shown);
        assert!(no_log.log.is_none() && no_log.unshown_keys.is_empty());
        no_log
            .write_frame_log(Path::new("/nonexistent/dir/log.json"))
            .unwrap();
    }
}
