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

use super::keys::{FeelResult, KeyInput};
use super::machine::Machine;
use super::profile::Profile;
use super::scorecard::{Present, ScoreKeeper, Scorecard};
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
use looplab_timing::{LoopSettings, Strategy};

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
    /// Updates per second of real time.
    pub ups: f64,
    /// Game time over real time, for the whole run.
    pub ratio: f64,
    /// Most updates in one frame.
    pub max_updates: u32,
    /// Share of frames that ran no update since the previous one (a repeated picture unless
    /// the view blends).
    pub repeat_share: f64,
    /// Drawn-position error and judder, pixels.
    pub mean_error: f64,
    pub max_error: f64,
    pub mean_judder: f64,
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

/// Runs one experiment.
pub fn run(config: &RunConfig) -> RunResult {
    let profile = &config.profile;
    let mut session = Session::new(config.strategy, config.settings.clone(), &config.world);
    let mut machine = Machine::new(profile.clone(), config.world.seed, Duration::ZERO);
    let mut scores = ScoreKeeper::new(profile.refresh.period(), Duration::ZERO);
    let mut drift = 0.0f64;
    let mut checkpoint = Checkpoint::new(config.aligned_checkpoint());
    if let Some(replay) = &config.replay {
        session.play(replay.script.clone());
    }
    let mut keys = config.keys.as_ref().map(|k| {
        session.set_input_mode(k.mode);
        (
            k.events.iter().peekable(),
            InputDelay::default(),
            Vec::new(),
        )
    });
    let (mut frames, mut updates, mut repeats, mut most) = (0u64, 0u64, 0u64, 0u32);
    let mut busy = Duration::ZERO;
    let mut trace = Vec::new();
    let mut next_trace = Duration::ZERO;
    // Frame errors since the last trace point, averaged so the trace does not alias with a
    // per-frame oscillation.
    let (mut error_sum, mut error_frames) = (0.0f64, 0u32);

    let mut strip_frames = Vec::new();
    let strip_from = STRIP_END.saturating_sub(TIMELINE_SPAN * 3 / 2);
    let (mut now, mut idle_since) = (Duration::ZERO, Duration::ZERO);
    while now < config.duration {
        let begun = machine.begin_frame(now);
        if let Some((events, delays, _)) = &mut keys {
            // The keys that arrived before the frame starts, with their arrival times.
            while let Some(e) = events.next_if(|e| e.at <= begun.start) {
                if e.down {
                    let from = session.press_acts_from(e.at);
                    if session.press(e.button, e.at) {
                        delays.pressed(e.at, e.button, from);
                    }
                } else if session.release(e.button, e.at) {
                    delays.released(e.button);
                }
            }
        }
        let plan = session.frame(begun.reading, |world, step| {
            checkpoint.before_update(world, step);
        });
        let times = machine.finish_frame(&begun, plan.updates);
        let record = FrameRecord {
            waited: begun.start - idle_since,
            update_time: times.updated - begun.start,
            render: RenderTimes {
                // The modelled present is the wait for the display's refresh.
                present: times.shown - times.drawn,
                ..RenderTimes::default()
            },
            presented: Some(times.shown),
            ..session.record(&plan)
        };
        if let Some((_, delays, shown)) = &mut keys {
            delays.frame_ran(&record);
            shown.extend(delays.presented(&record));
        }
        frames += 1;
        updates += plan.updates as u64;
        repeats += u64::from(plan.updates == 0);
        most = most.max(plan.updates);
        busy += times.busy;
        scores.push(Present {
            at: times.shown,
            updates_so_far: updates,
        });
        drift = plan.game_now.as_secs_f64() - begun.start.as_secs_f64();
        idle_since = times.shown;
        if begun.start >= strip_from && begun.start <= STRIP_END {
            strip_frames.push(record);
        }

        let accuracy = session.measure_accuracy(&plan);
        error_sum += accuracy.mean_error as f64;
        error_frames += 1;
        if plan.now >= next_trace {
            trace.push(TracePoint {
                real: plan.now.as_secs_f64(),
                game: plan.game_now.as_secs_f64(),
                error: error_sum / error_frames as f64,
            });
            (error_sum, error_frames) = (0.0, 0);
            next_trace = plan.now + config.trace_interval;
        }
        now = machine.next_start(plan.wake, times.shown);
        if config.replay.is_some() && session.world().time() >= checkpoint.at() {
            break;
        }
        if config.until_updates.is_some_and(|n| updates >= n) {
            break;
        }
    }
    checkpoint.finish(session.world());

    let real = now.as_secs_f64();
    let per_sec = |x: f64| x / real;
    let AccuracySummary {
        mean_error,
        max_error,
        mean_judder,
        ..
    } = session.accuracy().summary();
    let game = session.planner().game_now();
    RunResult {
        strategy: config.strategy,
        profile: profile.name.clone(),
        delta: DeltaKind::of(&config.settings.delta_mode),
        fps: per_sec(frames as f64),
        ups: per_sec(updates as f64),
        ratio: per_sec(game.as_secs_f64()),
        max_updates: most,
        repeat_share: repeats as f64 / frames.max(1) as f64,
        mean_error,
        max_error,
        mean_judder,
        checkpoint,
        end_hash: session.world().state_hash(),
        busy_share: busy.as_secs_f64() / real,
        tunnel_share: session.world().darts.tunnel_fraction(),
        energy_drift: session.world().balls.energy_drift(),
        game_seconds: game.as_secs_f64(),
        updates,
        scorecard: scores.finish(drift),
        trace,
        frames: strip_frames,
        feel: keys.map(|(_, _, shown)| {
            FeelResult::new(session.controls().mode(), session.controls().taps(), &shown)
        }),
    }
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
