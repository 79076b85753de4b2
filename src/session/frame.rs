//! The one record of a frame: what the loop planned, ran, drew and waited for, on the loop's
//! own clock. The window fills one per frame; the per-strategy totals of `--stats`, the frame
//! log, the bench and the tests all read it, so its format is kept in exactly one place.
//!
//! Times are `Duration`s in memory and whole nanoseconds in JSON (`serde`), so a script reads
//! `start`, `updates` or `presented` by name.

use std::time::Duration;

use looplab_timing::{FramePlan, View, Wake};
use serde::{Deserialize, Serialize};

/// What a frame drew: the latest state, a blend of the last two states, or a prediction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ViewKind {
    /// The state after the last update.
    #[default]
    Latest,
    /// Between the previous and the current state, `alpha` of the way.
    Interpolate,
    /// Ahead of the current state by its velocity, `alpha` of a step.
    Extrapolate,
    /// A copy of the state run one more update to the present, `alpha` of a step ahead of
    /// the latest state (the render tick).
    Predict,
}

/// Where a presented frame's render time went, as measured on the CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RenderTimes {
    /// Waiting for a surface texture (with FIFO presentation, this is where vsync waits).
    #[serde(with = "nanos")]
    pub acquire: Duration,
    /// Laying out and tessellating the overlay (egui).
    #[serde(with = "nanos")]
    pub overlay: Duration,
    /// Writing instance, uniform and overlay buffers.
    #[serde(with = "nanos")]
    pub upload: Duration,
    /// Recording the render pass and finishing the command buffer.
    #[serde(with = "nanos")]
    pub encode: Duration,
    /// Submitting the commands and presenting (offscreen: submitting and waiting for the GPU).
    #[serde(with = "nanos")]
    pub present: Duration,
    /// The simulated load's busy time: the render-cost knob and a capture's frames
    /// (`--capture`), spun before drawing.
    #[serde(default, with = "nanos")]
    pub load: Duration,
    /// The GPU device was lost before this frame drew: from noticing that to a new device,
    /// surface and pipelines (nothing could be drawn meanwhile).
    #[serde(default, with = "nanos")]
    pub gpu_lost: Duration,
}

/// One frame of the loop, from its start to the end of its present.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameRecord {
    /// When the frame started, on the loop's clock.
    #[serde(with = "nanos")]
    pub start: Duration,
    /// Real time since the previous frame started.
    #[serde(with = "nanos")]
    pub elapsed: Duration,
    /// Real time the loop waited (slept or spun) for this frame's wake time.
    #[serde(with = "nanos")]
    pub waited: Duration,
    /// Input events (keys, clicks) handled at the frame's start.
    pub inputs: u32,
    /// Updates run this frame.
    pub updates: u32,
    /// Game time each update simulated.
    #[serde(with = "nanos")]
    pub step: Duration,
    /// Game time before the first update: update `i` simulates from
    /// [`FrameRecord::update_game_time`]`(i)`.
    #[serde(with = "nanos")]
    pub game_before: Duration,
    /// Real time the updates took.
    #[serde(with = "nanos")]
    pub update_time: Duration,
    /// Game time dropped this frame (the update limit, the update budget, a strategy switch).
    #[serde(with = "nanos")]
    pub dropped: Duration,
    /// Real time the stall clamp dropped this frame.
    #[serde(with = "nanos")]
    pub clamped: Duration,
    /// What was drawn.
    pub view: ViewKind,
    /// How far the drawing blended (0 for the latest state).
    pub alpha: f32,
    /// The game clock at the frame: the simulated time plus the lag not yet simulated
    /// (where things truly are "now"). What the frame draws is [`FrameRecord::drawn_time`].
    #[serde(with = "nanos")]
    pub game_shown: Duration,
    /// Where the game clock would be had it kept to real time (times the time scale) since
    /// the strategy was chosen: what the metronome's wall-clock marker shows.
    #[serde(with = "nanos")]
    pub reference: Duration,
    /// When the next frame may start (a frame-cap deadline), on the loop's clock; `None`
    /// when it starts at once.
    #[serde(with = "opt_nanos")]
    pub deadline: Option<Duration>,
    /// Where the render time went (zero for a frame that was not presented).
    pub render: RenderTimes,
    /// When the present ended, on the loop's clock; `None` for a frame that was not shown.
    #[serde(with = "opt_nanos")]
    pub presented: Option<Duration>,
    /// CPU time of the whole process at the end of the frame (0 where unknown).
    #[serde(with = "nanos")]
    pub cpu: Duration,
    /// Game time per real time while the frame ran (0 where not known: taken as 1).
    #[serde(default)]
    pub time_scale: f64,
}

impl FrameRecord {
    /// The record of a frame as planned and its updates run: timings and the wall-clock
    /// reference still to be filled in.
    pub fn planned(plan: &FramePlan) -> Self {
        let (view, alpha) = match plan.view {
            View::Interpolate { alpha } => (ViewKind::Interpolate, alpha),
            View::Extrapolate { alpha } => (ViewKind::Extrapolate, alpha),
            View::Predict { to, .. } => (
                ViewKind::Predict,
                fraction(to.saturating_sub(plan.simulated), plan.step),
            ),
            _ => (ViewKind::Latest, 0.0),
        };
        Self {
            start: plan.now,
            elapsed: plan.measured,
            updates: plan.updates,
            step: plan.step,
            game_before: plan.simulated.saturating_sub(plan.game_advance()),
            dropped: plan.skipped,
            clamped: plan.clamped,
            view,
            alpha,
            game_shown: plan.game_now,
            deadline: match plan.wake {
                Wake::At(t) => Some(t),
                _ => None,
            },
            ..Self::default()
        }
    }

    /// Game time the frame's updates added.
    pub fn game_advance(&self) -> Duration {
        self.step.saturating_mul(self.updates)
    }

    /// The game time update `i` (from 0) of this frame starts at.
    pub fn update_game_time(&self, i: u32) -> Duration {
        self.game_before + self.step.saturating_mul(i)
    }

    /// The game time of the state the frame draws: the latest state, a blend back towards
    /// the previous one (interpolation), ahead of it (extrapolation) or the present (a
    /// prediction).
    pub fn drawn_time(&self) -> Duration {
        let latest = self.game_before + self.game_advance();
        let part = self.step.mul_f64(f64::from(self.alpha.clamp(0.0, 1.0)));
        match self.view {
            ViewKind::Latest => latest,
            ViewKind::Interpolate => latest.saturating_sub(self.step) + part,
            ViewKind::Extrapolate => latest + part,
            ViewKind::Predict => self.game_shown,
        }
    }

    /// Game time over the time scale: `game` in real time.
    fn in_real_time(&self, game: Duration) -> Duration {
        if self.time_scale > 0.0 {
            game.div_f64(self.time_scale)
        } else {
            game
        }
    }

    /// The game time the picture shows in real time, the time scale taken out: its
    /// animation time, in PresentMon's word ([`crate::metrics::animation`]).
    pub fn animation_time(&self) -> Duration {
        self.in_real_time(self.drawn_time())
    }

    /// How far the picture's game time is behind the game clock at the frame's start, in
    /// real time: where its picture lag ([`crate::metrics::picture_lag`]) starts from (zero
    /// for a picture at or ahead of the clock).
    pub fn picture_behind(&self) -> Duration {
        self.in_real_time(self.game_shown.saturating_sub(self.drawn_time()))
    }

    /// Its picture lag when shown at `shown`: from the frame's start to then, and how far
    /// its picture was behind the game clock at the start.
    pub fn picture_lag(&self, shown: Duration) -> Duration {
        shown.saturating_sub(self.start) + self.picture_behind()
    }

    /// Real time from the end of the updates to the end of the present: drawing, the
    /// overlay, and presenting (with FIFO, the wait for vsync).
    pub fn draw_time(&self) -> Option<Duration> {
        self.start_to_present()
            .map(|d| d.saturating_sub(self.update_time))
    }

    /// The frame's work: its updates, the overlay, the upload, the encoding, the present
    /// call and the simulated load, without the waits between them (for a surface image,
    /// or for a compositor to let it draw).
    pub fn work(&self) -> Duration {
        let r = &self.render;
        self.update_time + r.overlay + r.upload + r.encode + r.present + r.load
    }

    /// Real time from the frame's start to the end of its present.
    pub fn start_to_present(&self) -> Option<Duration> {
        self.presented.map(|p| p.saturating_sub(self.start))
    }
}

/// `part` as a fraction of `whole` (0 for a zero `whole`).
fn fraction(part: Duration, whole: Duration) -> f32 {
    if whole.is_zero() {
        0.0
    } else {
        (part.as_secs_f64() / whole.as_secs_f64()) as f32
    }
}

/// At most this many frames are kept in a frame log (an hour at 55 FPS); later frames are
/// counted but not kept.
pub const FRAME_LOG_CAPACITY: usize = 200_000;

/// How long one key took to reach the screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeyLatency {
    /// From the key event's arrival to the end of the present of the first frame showing it.
    #[serde(with = "nanos")]
    pub latency: Duration,
    /// That frame's own start-to-present time (so `latency - render` is the wait for the
    /// frame to start).
    #[serde(with = "nanos")]
    pub render: Duration,
}

/// Every presented frame and every key's latency of a window run (`--frame-log FILE`), read
/// back by `looplab bench` and the tests.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FrameLog {
    /// The presented frames, in order (at most [`FRAME_LOG_CAPACITY`]).
    pub frames: Vec<FrameRecord>,
    /// Frames presented beyond the capacity, counted only.
    pub frames_not_kept: u64,
    /// Every key press applied, with its latency to the screen.
    pub keys: Vec<KeyLatency>,
    /// Every arrow press's delay to the first frame that showed its effect on the ship
    /// ([`InputDelay`](super::input_delay::InputDelay)), nanoseconds.
    #[serde(default)]
    pub ship_delays_ns: Vec<u64>,
    /// Wall-clock time of the first present, nanoseconds since the Unix epoch, so a parent
    /// process can measure start-up.
    pub first_present_unix_ns: Option<u128>,
    /// Peak resident memory, KiB, where the OS reports it.
    pub peak_rss_kib: Option<u64>,
}

impl FrameLog {
    /// Records a presented frame.
    pub fn frame(&mut self, record: FrameRecord) {
        if self.first_present_unix_ns.is_none() {
            self.first_present_unix_ns = Some(crate::platform::clock::unix_time_ns());
        }
        if self.frames.len() < FRAME_LOG_CAPACITY {
            self.frames.push(record);
        } else {
            self.frames_not_kept += 1;
        }
    }

    /// The frames that started at least `skip` after the first one (start-up frames are
    /// not steady).
    pub fn steady(&self, skip: Duration) -> &[FrameRecord] {
        let Some(first) = self.frames.first() else {
            return &[];
        };
        let from = first.start + skip;
        let index = self.frames.partition_point(|f| f.start < from);
        &self.frames[index..]
    }
}

/// A `Duration` as whole nanoseconds (saturating at `u64::MAX`, 584 years).
mod nanos {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        u64::deserialize(d).map(Duration::from_nanos)
    }
}

/// An optional `Duration` as whole nanoseconds, or null.
mod opt_nanos {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => super::nanos::serialize(d, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
        Option::<u64>::deserialize(d).map(|n| n.map(Duration::from_nanos))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use looplab_timing::{LoopSettings, ManualClock, Planner, Strategy};

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn a_record_follows_its_plan() {
        let mut planner = Planner::new(Strategy::Interpolated, LoopSettings::default());
        let mut clock = ManualClock::default();
        let mut plan = planner.plan_frame(clock.now());
        planner.run_updates(&mut plan, |_| std::ops::ControlFlow::Continue(()));
        clock.advance(ms(40));
        let mut plan = planner.plan_frame(clock.now());
        planner.run_updates(&mut plan, |_| std::ops::ControlFlow::Continue(()));
        let r = FrameRecord::planned(&plan);
        assert_eq!((r.start, r.elapsed, r.updates), (ms(40), ms(40), 2));
        assert_eq!(r.game_before + r.game_advance(), plan.simulated);
        assert_eq!(r.update_game_time(1), r.game_before + plan.step);
        assert_eq!(r.view, ViewKind::Interpolate);
        assert!(r.alpha > 0.0 && r.alpha < 1.0, "{}", r.alpha);
        assert_eq!(r.game_shown, plan.game_now);
        assert_eq!(r.presented, None);
    }

    #[test]
    fn the_log_is_read_back_by_name_and_skips_its_start() {
        let mut log = FrameLog::default();
        for i in 0..5 {
            log.frame(FrameRecord {
                start: ms(500 * i),
                updates: i as u32,
                presented: Some(ms(500 * i + 3)),
                render: RenderTimes {
                    acquire: Duration::from_nanos(1_234_567),
                    ..RenderTimes::default()
                },
                ..FrameRecord::default()
            });
        }
        let text = serde_json::to_string(&log).unwrap();
        assert!(text.contains("\"start\":1000000000"), "{text}");
        assert!(text.contains("\"acquire\":1234567"), "{text}");
        let back: FrameLog = serde_json::from_str(&text).unwrap();
        assert_eq!(back, log);
        assert!(back.first_present_unix_ns.is_some());
        let steady = back.steady(Duration::from_secs(1));
        assert_eq!(steady.len(), 3, "frames at 1.0, 1.5 and 2.0 s");
        assert_eq!(steady[0].start_to_present(), Some(ms(3)));
        let with_updates = FrameRecord {
            update_time: ms(1),
            ..steady[0]
        };
        assert_eq!(with_updates.draw_time(), Some(ms(2)));
        assert!(FrameLog::default().steady(ms(1)).is_empty());
    }
}
