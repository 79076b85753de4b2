//! One experiment: a strategy on a hardware profile, on a virtual clock.
//!
//! The loop is the window's loop (a [`Session`]) with the clock advanced by the profile's
//! costs instead of by doing the work: each update costs `update`, each frame `render`
//! (plus seeded jitter), a vsync present waits for the next refresh, the loop reads the
//! clock with the profile's timer noise, and a sleep until a wake time ends as late as the
//! profile's timer makes it. Twenty seconds of such a machine take a few milliseconds to
//! run. Every present is scored against the display's refreshes ([`Scorecard`]).

use std::time::Duration;

use serde::Serialize;

use super::keys::{FeelResult, KeyArrival, KeyEvent, KeyInput};
use super::machine::{FrameTimes, Machine};
use super::profile::Profile;
use super::scorecard::{Present, ScoreKeeper, Scorecard};
use crate::capture::write::PresentedFrame;
use crate::metrics::animation;
use crate::metrics::frame_times::FrameTimeFigures;
use crate::session::Session;
use crate::session::checkpoint::Checkpoint;
use crate::session::frame::{FrameRecord, RenderTimes};
use crate::session::input_delay::InputDelay;
use crate::session::steering::SteerScript;
use crate::session::timeline::{self, Strip, TIMELINE_SPAN};
use crate::text::settings::DeltaKind;
use crate::world::WorldConfig;
use crate::world::accuracy::AccuracySummary;
use crate::world::hash::StateHash;
use looplab_timing::{JustInTime, LoopSettings, Margin, Strategy};

/// What to run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub strategy: Strategy,
    pub profile: Profile,
    pub settings: LoopSettings,
    pub world: WorldConfig,
    /// Real (virtual) time to run for.
    pub duration: Duration,
    /// Game time at which the state is hashed to compare runs (rounded down to a whole
    /// number of steps, so every fixed-step run can land on it exactly).
    pub checkpoint: Duration,
    /// Real time between two points of the trace.
    pub trace_interval: Duration,
    /// When set, the ship is steered by a recording and the run ends once its game clock
    /// reaches the recording's end, which is then the checkpoint, exactly.
    pub replay: Option<ReplayInput>,
    /// When set, the run ends once this many updates have run (as MonitorSim's runs do),
    /// or at `duration`, whichever comes first.
    pub until_updates: Option<u64>,
    /// When set, a person at the arrows: the keys are handed to the loop as each frame
    /// starts, and the run measures what became of them ([`FeelResult`]).
    pub keys: Option<KeyInput>,
    /// When set, each frame starts just in time for its refresh ([`JustInTime`]), its
    /// margin kept so. The modelled loop knows the display's exact grid, when the GPU
    /// finished each frame and the refresh that showed it, as a driver's latency mode or
    /// presentation timestamps would tell it.
    pub just_in_time: Option<Margin>,
    /// How far the frames fall behind the update steps' grid: the second frame starts this
    /// much after its time and the cap's deadline grid restarts there, as a window's grid
    /// does after a wait the machine made late. From then on each frame carries this much
    /// unspent time (modulo the frame interval) into the next, so a key that arrives in the
    /// last `step_phase` before a frame waits for a later update. Zero: the grids coincide.
    pub step_phase: Duration,
}

/// A recording's inputs and where it ended, for a run that plays it back.
#[derive(Clone, Debug)]
pub struct ReplayInput {
    pub script: SteerScript,
    pub until: Duration,
}

impl RunConfig {
    /// Twenty seconds: long enough for the 4 s stall, a few metronome sweeps and a stable
    /// average at 2 FPS.
    pub const DEFAULT_DURATION: Duration = Duration::from_secs(20);
    /// Five seconds of game time: reached by every built-in pair, even the slowest.
    pub const DEFAULT_CHECKPOINT: Duration = Duration::from_secs(5);
    /// A trace point every 50 ms of real time: 400 points over the default run.
    pub const DEFAULT_TRACE_INTERVAL: Duration = Duration::from_millis(50);

    /// The checkpoint as a whole number of steps; a replay's end as it is.
    pub fn aligned_checkpoint(&self) -> Duration {
        if let Some(r) = &self.replay {
            return r.until;
        }
        let step = self.settings.step().as_nanos().max(1);
        let n = self.checkpoint.as_nanos() / step;
        Duration::from_nanos(u64::try_from(n * step).unwrap_or(u64::MAX))
    }
}

/// One point of the trace, for the plots.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TracePoint {
    /// Real time, seconds.
    pub real: f64,
    /// Game-clock time, seconds.
    pub game: f64,
    /// Mean drawn-position error of the frames since the previous point, pixels.
    pub error: f64,
}

/// What a run measured.
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub strategy: Strategy,
    /// The profile's name.
    pub profile: String,
    /// How the loop read frame deltas.
    pub delta: DeltaKind,
    /// Frames per second of real time.
    pub fps: f64,
    /// Frames the display showed, a second of real time.
    pub shown_fps: f64,
    /// The field's figures of the times between presents ([`FrameTimeFigures`]).
    pub frame_times: FrameTimeFigures,
    /// Updates per second of real time.
    pub ups: f64,
    /// Game time over real time, for the whole run.
    pub ratio: f64,
    /// Most updates in one frame.
    pub max_updates: u32,
    /// Share of frames that ran no update since the previous one (a repeated picture unless
    /// the view blends).
    pub repeat_share: f64,
    /// Game time dropped to stay near real time (the update limit, the update budget, the
    /// stall clamp), seconds.
    pub dropped_game_s: f64,
    /// The drawn positions' distance from the exact ones at the frame's game-clock instant,
    /// pixels: the mean over frames of each frame's mean, and the largest.
    pub drawn_error_mean_px: f64,
    pub drawn_error_max_px: f64,
    /// The state at the checkpoint game time, written as its hash (`None` if the run never
    /// got there).
    #[serde(rename = "checkpoint_hash", serialize_with = "checkpoint_hash")]
    pub checkpoint: Checkpoint,
    /// State hash at the end of the run.
    pub end_hash: StateHash,
    /// Share of real time spent working (updates and rendering) rather than waiting.
    pub busy_share: f64,
    /// Share of darts that reached the wall and went through.
    pub tunnel_share: f64,
    /// Relative change of the physics group's energy at the end.
    pub energy_drift: f64,
    /// Game time reached, seconds.
    pub game_seconds: f64,
    /// Updates run in all.
    pub updates: u64,
    /// What the display showed, refresh by refresh.
    pub scorecard: Scorecard,
    #[serde(skip)]
    pub trace: Vec<TracePoint>,
    /// The frames around [`STRIP_END`], for the timeline strip.
    #[serde(skip)]
    pub frames: Vec<FrameRecord>,
    /// What became of the keys, for a run given some.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feel: Option<FeelResult>,
    /// Each shown press's delay (the feel's), so that runs can be pooled.
    #[serde(skip)]
    pub key_delays: Vec<Duration>,
    /// Where a frame waited, on average, ms: for an image of a full swapchain, and from
    /// its present to the refresh that showed it (zero without a swapchain).
    #[serde(skip_serializing_if = "is_zero")]
    pub acquire_wait_ms: f64,
    #[serde(skip_serializing_if = "is_zero")]
    pub display_wait_ms: f64,
    /// With keys: the median delay from a key to the return of the present that carried
    /// it, ms: what a window measures, where it cannot see the refresh. Not in the lab's
    /// reports, which give the delay to the refresh.
    #[serde(skip)]
    pub to_present_p50_ms: Option<f64>,
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

/// The lab's timeline strips show the second of real time that ends here: after the start,
/// before the stall of the stall profile.
pub const STRIP_END: Duration = Duration::from_secs(3);

fn checkpoint_hash<S: serde::Serializer>(c: &Checkpoint, s: S) -> Result<S::Ok, S::Error> {
    c.hash().serialize(s)
}

impl RunResult {
    /// The strategy, and how it read deltas unless as measured: `catch-up+snapped`.
    pub fn label(&self) -> String {
        match self.delta {
            DeltaKind::Measured => self.strategy.id().to_string(),
            delta => format!("{}+{delta}", self.strategy.id()),
        }
    }

    /// The loop's timeline over the second before [`STRIP_END`], as the window draws it.
    pub fn strip(&self) -> Strip {
        timeline::strip(&self.frames, STRIP_END, TIMELINE_SPAN)
    }
}

/// The keys a run is given, handed to the session as they arrive, and the delay of each
/// press to the first frame that shows it.
struct KeyFeed<'a> {
    events: std::iter::Peekable<std::slice::Iter<'a, KeyEvent>>,
    delays: InputDelay,
    shown: Vec<Duration>,
    /// The same presses timed to the return of the present that carried them, as a
    /// window measures them (it cannot see the refresh that shows a frame).
    to_present: InputDelay,
    presented: Vec<Duration>,
    arrival: KeyArrival,
    /// The last frame's start and the end of its present: the loop was busy between.
    busy: Option<(Duration, Duration)>,
}

impl<'a> KeyFeed<'a> {
    fn new(keys: &'a KeyInput, session: &mut Session) -> Self {
        session.set_input_mode(keys.mode);
        Self {
            events: keys.events.iter().peekable(),
            delays: InputDelay::default(),
            shown: Vec::new(),
            to_present: InputDelay::default(),
            presented: Vec::new(),
            arrival: keys.arrival,
            busy: None,
        }
    }

    /// The keys that arrived before a frame that starts at `start`, with their arrival
    /// times (as [`KeyArrival`] says).
    fn deliver(&mut self, session: &mut Session, start: Duration) {
        while let Some(e) = self.events.next_if(|e| e.at <= start) {
            let at = match (self.arrival, self.busy) {
                (KeyArrival::WhenLoopFree, Some((from, until)))
                    if (from..until).contains(&e.at) =>
                {
                    until
                }
                _ => e.at,
            };
            if e.down {
                let from = session.press_acts_from(at);
                if session.press(e.button, at) {
                    self.delays.pressed(at, e.button, from);
                    self.to_present.pressed(at, e.button, from);
                }
            } else if session.release(e.button, at) {
                self.delays.released(e.button);
                self.to_present.released(e.button);
            }
        }
    }

    /// A frame that started at `start` and whose present returned at `present_returned` was
    /// shown at `record.presented`.
    fn frame_presented(
        &mut self,
        record: &FrameRecord,
        start: Duration,
        present_returned: Duration,
    ) {
        self.busy = Some((start, present_returned));
        self.delays.frame_ran(record);
        self.shown.extend(self.delays.presented(record));
        let returned = FrameRecord {
            presented: Some(present_returned),
            ..*record
        };
        self.to_present.frame_ran(&returned);
        self.presented.extend(self.to_present.presented(&returned));
    }
}

/// The run's counts, frame by frame.
#[derive(Default)]
struct Tally {
    frames: u64,
    updates: u64,
    /// Frames that ran no update (the previous state drawn again).
    repeats: u64,
    most: u32,
    busy: Duration,
    /// Game time dropped.
    dropped: Duration,
    acquire_wait: Duration,
    display_wait: Duration,
}

impl Tally {
    /// Counts a frame that ran `updates`.
    fn count(&mut self, updates: u32, times: &FrameTimes, record: &FrameRecord) {
        self.frames += 1;
        self.updates += updates as u64;
        self.repeats += u64::from(updates == 0);
        self.most = self.most.max(updates);
        self.busy += times.busy;
        self.dropped += record.dropped + record.clamped.mul_f64(record.time_scale);
        self.acquire_wait += times.acquire_wait;
        self.display_wait += times.shown - times.cpu_free;
    }
}

/// A modelled frame's record, begun at `start`: the session's `record` of its plan with the
/// machine's times in it.
fn modelled_record(record: FrameRecord, start: Duration, times: &FrameTimes) -> FrameRecord {
    FrameRecord {
        update_time: times.updated - start,
        render: RenderTimes {
            // A full swapchain's wait for an image, and a blocking present's wait for the
            // display's refresh.
            acquire: times.acquire_wait,
            present: times.cpu_free - times.drawn,
            ..RenderTimes::default()
        },
        presented: Some(times.shown),
        ..record
    }
}

/// The game clock against real time, sampled every `interval`, with the drawn error
/// averaged since the previous point so that the trace does not alias with a per-frame
/// oscillation.
struct Tracer {
    interval: Duration,
    next: Duration,
    error_sum: f64,
    error_frames: u32,
    points: Vec<TracePoint>,
}

impl Tracer {
    fn new(interval: Duration) -> Self {
        Self {
            interval,
            next: Duration::ZERO,
            error_sum: 0.0,
            error_frames: 0,
            points: Vec::new(),
        }
    }

    fn frame(&mut self, now: Duration, game_now: Duration, error: f64) {
        self.error_sum += error;
        self.error_frames += 1;
        if now >= self.next {
            self.points.push(TracePoint {
                real: now.as_secs_f64(),
                game: game_now.as_secs_f64(),
                error: self.error_sum / f64::from(self.error_frames),
            });
            (self.error_sum, self.error_frames) = (0.0, 0);
            self.next = now + self.interval;
        }
    }
}

/// Runs one experiment.
pub fn run(config: &RunConfig) -> RunResult {
    run_logged(config, false).0
}

/// Runs one experiment, keeping each presented frame's times (the first
/// [`animation::KEPT`]): when its present began and returned, when the display showed it
/// and the time its picture shows, for a capture tool's columns
/// ([`crate::capture::write::presentmon_v2_metrics`]).
pub fn run_presents(config: &RunConfig) -> (RunResult, Vec<PresentedFrame>) {
    let (result, frames) = run_logged(config, true);
    (result, frames.unwrap_or_default())
}

fn run_logged(config: &RunConfig, log: bool) -> (RunResult, Option<Vec<PresentedFrame>>) {
    let mut session = Session::new(config.strategy, config.settings.clone(), &config.world);
    let mut machine = Machine::new(config.profile.clone(), config.world.seed, Duration::ZERO);
    let mut screen = Screen::new(config, log);
    let mut drift = 0.0f64;
    let mut checkpoint = Checkpoint::new(config.aligned_checkpoint());
    if let Some(replay) = &config.replay {
        session.play(replay.script.clone());
    }
    let mut keys = config.keys.as_ref().map(|k| KeyFeed::new(k, &mut session));
    let mut tally = Tally::default();
    let mut tracer = Tracer::new(config.trace_interval);
    let mut strip_frames = Vec::new();
    let strip_from = STRIP_END.saturating_sub(TIMELINE_SPAN * 3 / 2);
    let mut jit = config.just_in_time.map(|margin| {
        let mut jit = JustInTime::new().with_margin(margin);
        jit.set_grid(config.profile.refresh.period(), Duration::ZERO);
        jit
    });
    let (mut now, mut idle_since) = (Duration::ZERO, Duration::ZERO);
    while now < config.duration {
        let begun = machine.begin_frame(now);
        if let Some(keys) = &mut keys {
            keys.deliver(&mut session, begun.start);
        }
        let plan = session.frame(begun.reading, |world, step| {
            checkpoint.before_update(world, step);
        });
        let times = machine.finish_frame(&begun, plan.updates);
        let record = FrameRecord {
            waited: begun.start - idle_since,
            ..modelled_record(session.record(&plan), begun.start, &times)
        };
        if let Some(keys) = &mut keys {
            keys.frame_presented(&record, begun.start, times.cpu_free);
        }
        tally.count(plan.updates, &times, &record);
        screen.frame(&times, tally.updates, &record);
        drift = plan.game_now.as_secs_f64() - begun.start.as_secs_f64();
        idle_since = times.cpu_free;
        if begun.start >= strip_from && begun.start <= STRIP_END {
            strip_frames.push(record);
        }
        let accuracy = session.measure_accuracy(&plan);
        tracer.frame(plan.now, plan.game_now, accuracy.mean_error as f64);
        let wake = times.wake(begun.start, jit.as_mut(), plan.wake);
        now = machine.next_start(wake, times.cpu_free);
        if tally.frames == 1 && !config.step_phase.is_zero() {
            now += config.step_phase;
            session.restart_deadlines();
        }
        if config.replay.is_some() && session.world().time() >= checkpoint.at() {
            break;
        }
        if config.until_updates.is_some_and(|n| tally.updates >= n) {
            break;
        }
    }
    checkpoint.finish(session.world());
    let frame_times = screen.presents.figures();
    let (scorecard, presented) = screen.finish(drift);
    let ended = Ended {
        real: now,
        tally,
        scorecard,
        checkpoint,
        trace: tracer.points,
        frames: strip_frames,
        frame_times,
        presented: keys.as_ref().map(|k| k.presented.clone()),
        shown: keys.map(|k| k.shown),
    };
    (result(config, &session, ended), presented)
}

/// What the display showed of a run's frames, and when they were presented.
struct Screen {
    scores: ScoreKeeper,
    presents: Presents,
    /// Each frame's present and animation times, where asked for (when each was shown is
    /// the scorecard's to say).
    log: Option<Vec<PresentedFrame>>,
}

impl Screen {
    fn new(config: &RunConfig, log: bool) -> Self {
        let scores = ScoreKeeper::new(config.profile.refresh.period(), Duration::ZERO)
            .tearing(config.profile.tears());
        Self {
            scores: if log { scores.logging() } else { scores },
            presents: Presents::default(),
            log: log.then(Vec::new),
        }
    }

    /// The scorecard, with the run's `drift`, and where kept, each frame's times with when
    /// it was shown.
    fn finish(self, drift: f64) -> (Scorecard, Option<Vec<PresentedFrame>>) {
        let (scorecard, shown) = self.scores.finish_logged(drift);
        let presented = self.log.map(|frames| {
            frames
                .into_iter()
                .zip(shown)
                .map(|(f, (_, shown_ms))| PresentedFrame { shown_ms, ..f })
                .collect()
        });
        (scorecard, presented)
    }

    /// A frame presented at `times`, the game having run `updates` updates by then.
    fn frame(&mut self, times: &FrameTimes, updates: u64, record: &FrameRecord) {
        self.scores.push(Present {
            at: times.shown,
            updates_so_far: updates,
            animation: record.animation_time(),
            start: record.start,
            behind: record.picture_behind(),
        });
        self.presents.push(times.drawn);
        if let Some(log) = &mut self.log
            && log.len() < animation::KEPT
        {
            let ms = |d: Duration| d.as_secs_f64() * 1e3;
            log.push(PresentedFrame {
                start_ms: ms(record.start),
                present_start_ms: ms(times.drawn),
                present_end_ms: ms(times.cpu_free),
                shown_ms: None,
                animation_ms: ms(record.animation_time()),
            });
        }
    }
}

/// When each frame was presented (its present call), kept for the frame-time figures: the
/// first [`animation::KEPT`] intervals, as the animation errors' percentile keeps.
#[derive(Default)]
struct Presents {
    last: Option<Duration>,
    intervals_ms: Vec<f64>,
}

impl Presents {
    fn push(&mut self, at: Duration) {
        if let Some(last) = self.last
            && self.intervals_ms.len() < animation::KEPT
        {
            self.intervals_ms
                .push(at.saturating_sub(last).as_secs_f64() * 1e3);
        }
        self.last = Some(at);
    }

    fn figures(&self) -> FrameTimeFigures {
        FrameTimeFigures::of(&self.intervals_ms)
    }
}

/// What a run left when it ended, for its result.
struct Ended {
    real: Duration,
    frame_times: FrameTimeFigures,
    tally: Tally,
    scorecard: Scorecard,
    checkpoint: Checkpoint,
    trace: Vec<TracePoint>,
    frames: Vec<FrameRecord>,
    /// With keys: each press's delay to the screen, and to the return of its present.
    shown: Option<Vec<Duration>>,
    presented: Option<Vec<Duration>>,
}

/// The run's figures from its session and what it left.
fn result(config: &RunConfig, session: &Session, ended: Ended) -> RunResult {
    let real = ended.real.as_secs_f64();
    let per_sec = |x: f64| x / real;
    let AccuracySummary {
        mean_error,
        max_error,
        ..
    } = session.accuracy().summary();
    let game = session.planner().game_now();
    let tally = ended.tally;
    RunResult {
        strategy: config.strategy,
        profile: config.profile.name.clone(),
        delta: DeltaKind::of(&config.settings.delta_mode),
        fps: per_sec(tally.frames as f64),
        shown_fps: per_sec(ended.scorecard.shown_frames as f64),
        frame_times: ended.frame_times,
        ups: per_sec(tally.updates as f64),
        ratio: per_sec(game.as_secs_f64()),
        max_updates: tally.most,
        repeat_share: tally.repeats as f64 / tally.frames.max(1) as f64,
        dropped_game_s: tally.dropped.as_secs_f64(),
        drawn_error_mean_px: mean_error,
        drawn_error_max_px: max_error,
        checkpoint: ended.checkpoint,
        end_hash: session.world().state_hash(),
        busy_share: tally.busy.as_secs_f64() / real,
        tunnel_share: session.world().darts.tunnel_fraction(),
        energy_drift: session.world().balls.energy_drift(),
        game_seconds: game.as_secs_f64(),
        updates: tally.updates,
        scorecard: ended.scorecard,
        trace: ended.trace,
        frames: ended.frames,
        key_delays: ended.shown.clone().unwrap_or_default(),
        feel: ended.shown.map(|shown| {
            FeelResult::new(
                session.ship_keys().mode(),
                session.ship_keys().taps(),
                &shown,
            )
        }),
        to_present_p50_ms: ended.presented.and_then(|presented| {
            FeelResult::new(
                session.ship_keys().mode(),
                session.ship_keys().taps(),
                &presented,
            )
            .delay_p50_ms
        }),
        acquire_wait_ms: per_frame_ms(tally.acquire_wait, tally.frames),
        display_wait_ms: per_frame_ms(tally.display_wait, tally.frames),
    }
}

fn per_frame_ms(total: Duration, frames: u64) -> f64 {
    total.as_secs_f64() * 1e3 / frames.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(strategy: Strategy, profile: &str) -> RunConfig {
        RunConfig {
            strategy,
            profile: Profile::parse(profile).unwrap(),
            settings: LoopSettings::default(),
            world: WorldConfig {
                seed: 1,
                bullets: 200,
            },
            duration: RunConfig::DEFAULT_DURATION,
            checkpoint: RunConfig::DEFAULT_CHECKPOINT,
            trace_interval: RunConfig::DEFAULT_TRACE_INTERVAL,
            replay: None,
            until_updates: None,
            keys: None,
            just_in_time: None,
            step_phase: Duration::ZERO,
        }
    }

    #[test]
    fn checkpoint_is_a_whole_number_of_steps() {
        let c = config(Strategy::CatchUp, "fast");
        assert_eq!(
            c.aligned_checkpoint(),
            Duration::from_nanos(16_666_667) * 299
        );
    }

    #[test]
    fn the_fast_machine_runs_uncapped_far_too_fast() {
        let r = run(&config(Strategy::Uncapped, "fast"));
        // 1.2 ms frames with one 16.7 ms step each: about 14 times real time.
        assert!(r.fps > 800.0 && r.ratio > 12.0, "{r:?}");
        assert_eq!(r.busy_share, 1.0);
        assert_eq!(r.max_updates, 1);
    }
}
