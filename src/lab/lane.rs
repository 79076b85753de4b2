//! A modelled machine run in real time: the lab's virtual machine, advanced by the real clock
//! and drawn, so several of them can run side by side in one window (compare mode).
//!
//! A lane starts a frame when its previous modelled frame has finished (and any wait its
//! strategy asked for is over), takes the profile's time for the frame's updates and its
//! rendering (with jitter, a stall, a display's refresh), and shows the frame's picture only
//! when that time has passed. A weak-GPU lane so changes its picture about 20 times a second
//! beside a fast lane's 60, while both are driven by the same clock. Behind a swapchain's
//! queue (a profile with `present=`), the next frame starts as soon as the CPU is done with
//! the last, and pictures wait for their refreshes with the state each was drawn from, so a
//! lane with three frames in flight shows the same steering three refreshes after it ran.
//!
//! Every lane gets the same steering at the same game time: a key applies, in every lane, from
//! the first update that starts at or after the game time the furthest-ahead lane has
//! planned to ([`steer_stamp`]), so no lane has run past it. Under a fixed step that is the
//! same update everywhere, so lanes on different machines stay bit-identical; under a
//! variable step it is not. The state is hashed every [`CHECK_EVERY`] of game time, so lanes
//! can be compared as they run.

use std::collections::VecDeque;
use std::time::Duration;

use super::keys::KeyEvent;
use super::machine::{FrameTimes, Machine};
use super::profile::Profile;
use crate::metrics::animation::{AnimationErrorFigures, AnimationErrors};
use crate::session::Session;
use crate::session::checkpoint::Checkpoint;
use crate::session::frame::FrameRecord;
use crate::session::input_delay::InputDelay;
use crate::session::ship_input::InputMode;
use crate::session::ship_input::{Button, Direction};
use crate::session::steering::SteerChange;
use crate::world::hash::StateHash;
use crate::world::ship::Steer;
use crate::world::{World, WorldConfig};
use looplab_timing::{FramePlan, JustInTime, LoopSettings, Strategy};

/// Game time between two state hashes.
pub const CHECK_EVERY: Duration = Duration::from_secs(1);

/// How far behind real time a lane may fall before it is brought back, as the window's own
/// loop clamps a stall: while the window is not drawn (minimised, stopped in a debugger) the
/// lanes wait instead of fast-forwarding through the gap on the next frame.
pub const MAX_BEHIND: Duration = Duration::from_millis(250);

/// Changes of steering a lane shows before it gives their median delay: two taps, each a
/// press and a release.
pub const DELAYS_TO_SAY: u64 = 4;

/// Frames one call of [`Lane::advance_to`] may run: a bound on its work whatever the profile.
const MAX_FRAMES_PER_CALL: u32 = 2000;

/// The game time from which a key that arrives now applies in every lane: the furthest game
/// time any lane has planned to. An `uncapped` lane is left out when others are not: its
/// clock runs at the machine's speed, not the real one, and would hold every key back.
pub fn steer_stamp(lanes: &[Lane]) -> Duration {
    let tied: Vec<&Lane> = lanes
        .iter()
        .filter(|l| l.session.planner().strategy() != Strategy::Uncapped)
        .collect();
    let from = if tied.is_empty() {
        lanes.iter().collect()
    } else {
        tied
    };
    from.iter()
        .map(|l| l.session.planner().simulated())
        .max()
        .unwrap_or_default()
}

/// A change a person makes to a lane's loop. The machine takes it at the start of its next
/// frame, as a real loop reads its settings between frames.
#[derive(Clone, Debug, PartialEq)]
pub enum LaneChange {
    Strategy(Strategy),
    Settings(LoopSettings),
    Bullets(usize),
    SingleStep,
}

/// A lane's modelled frame in progress: its plan, when the CPU is done with it, and when
/// its picture will be shown (later, behind a swapchain's queue).
#[derive(Clone, Debug)]
struct Working {
    plan: FramePlan,
    done: Duration,
    shown: Duration,
    /// How long the loop slept of its own accord before the frame began.
    waited: Duration,
    /// For just in time: the frame's start and the machine's times of it.
    started: Duration,
    times: FrameTimes,
}

/// A frame whose updates have run, waiting in the swapchain's queue to be shown: its
/// picture, its record and the session as that frame left it (the lane's own has moved on).
#[derive(Clone, Debug)]
struct Queued {
    picture: Picture,
    record: FrameRecord,
    session: Box<Session>,
}

/// The picture a lane shows: the plan of its last finished frame, drawn from its world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Picture {
    pub plan: FramePlan,
    /// Real time at which it appeared.
    pub shown_at: Duration,
    /// How long the loop slept of its own accord before its frame began (zero for a loop
    /// that went straight on; a wait for the display is the display's, not the loop's).
    pub waited: Duration,
}

/// One modelled machine running one strategy.
#[derive(Clone, Debug)]
pub struct Lane {
    /// The modelled hardware: the lab's machine.
    machine: Machine,
    session: Session,
    /// When the next frame starts, while none is in progress.
    next_start: Duration,
    /// How long the loop sleeps before that frame: the wait its strategy asked for.
    sleeps_before_next: Duration,
    working: Option<Working>,
    picture: Option<Picture>,
    /// Frames done but not shown yet, oldest first (only behind a swapchain's queue).
    queued: VecDeque<Queued>,
    /// The session as the picture shown now left it, while later frames are queued.
    shown_session: Option<Box<Session>>,
    /// Starts each frame just in time for its refresh, when set.
    just_in_time: Option<JustInTime>,
    /// Each steering change's delay from its arrival to the picture that shows it.
    delays: InputDelay,
    /// Steering that arrived but that the machine has not polled yet (it polls at the start
    /// of a frame): arrival time and change.
    unpolled: VecDeque<(Duration, SteerChange)>,
    /// Keys pressed or let go that the machine has not polled yet, oldest first.
    keys: VecDeque<KeyEvent>,
    /// Changes to take at the next frame start, in order.
    changes: Vec<LaneChange>,
    checkpoint: Checkpoint,
    /// State hashes every [`CHECK_EVERY`] of game time, oldest first.
    hashes: Vec<(Duration, StateHash)>,
    /// Real times at which recent pictures appeared (the last second), and their updates.
    recent: VecDeque<(Duration, u32)>,
    /// Each shown picture's animation error, as PresentMon defines it.
    animation: AnimationErrors,
}

impl Lane {
    /// A machine of `profile` running `strategy` with `settings` on a world of `world`,
    /// starting at real time `start`.
    pub fn new(
        profile: Profile,
        strategy: Strategy,
        settings: LoopSettings,
        world: &WorldConfig,
        start: Duration,
    ) -> Self {
        Self {
            machine: Machine::new(profile, world.seed, start),
            session: Session::new(strategy, settings, world),
            next_start: start,
            sleeps_before_next: Duration::ZERO,
            working: None,
            picture: None,
            queued: VecDeque::new(),
            shown_session: None,
            just_in_time: None,
            delays: InputDelay::default(),
            unpolled: VecDeque::new(),
            keys: VecDeque::new(),
            changes: Vec::new(),
            checkpoint: Checkpoint::new(CHECK_EVERY),
            hashes: Vec::new(),
            recent: VecDeque::new(),
            animation: AnimationErrors::default(),
        }
    }

    /// A key changed the steering at real time `arrived`: the machine polls it at its next
    /// frame start and applies it from game time `from` (see [`steer_stamp`]).
    pub fn steer(&mut self, steer: Steer, arrived: Duration, from: Duration) {
        let change = SteerChange {
            step: 0,
            game_time: from,
            input: steer.into(),
        };
        self.unpolled.push_back((arrived, change));
        // Its effect starts at a known game time, so the button it is filed under never
        // matters (only a press no update has taken yet is dropped on release).
        self.delays
            .pressed(arrived, Button::Arrow(Direction::Right), Some(from));
    }

    /// A person's key went down or up at real time `key.at`: the machine polls it at its
    /// next frame start, as a window hands keys to its loop, and the session's input mode
    /// decides which updates see it.
    pub fn key(&mut self, key: KeyEvent) {
        self.keys.push_back(key);
    }

    /// Paces the lane's loop just in time for its display's refreshes, as the lab's runs
    /// do ([`super::run::RunConfig::just_in_time`]).
    pub fn with_just_in_time(mut self) -> Self {
        let mut jit = JustInTime::new();
        jit.set_grid(self.machine.profile().refresh.period(), self.next_start);
        self.just_in_time = Some(jit);
        self
    }

    /// Whether the lane's loop is paced just in time.
    pub fn is_just_in_time(&self) -> bool {
        self.just_in_time.is_some()
    }

    /// How the session's updates read the keys.
    pub fn set_input_mode(&mut self, mode: InputMode) {
        self.session.set_input_mode(mode);
    }

    /// Runs the machine up to real time `now`: every frame that starts by then is planned,
    /// and every frame that finishes by then runs its updates and shows its picture.
    /// Returns whether a new picture appeared.
    pub fn advance_to(&mut self, now: Duration) -> bool {
        let mut new_picture = false;
        for _ in 0..MAX_FRAMES_PER_CALL {
            new_picture |= self.show_queued(now);
            match self.working.take() {
                None if self.next_start <= now => {
                    if now > self.next_start + MAX_BEHIND {
                        // Not advanced for a while: go on from now (the planner clamps the
                        // gap as the window's loop clamps a stall). The stall was the host's,
                        // not the modelled machine's, so its animation error begins again,
                        // as the tour's figures do after the window's own hitch.
                        self.next_start = now;
                        self.animation = AnimationErrors::default();
                    }
                    self.start_frame();
                }
                None => break,
                Some(w) if w.done <= now => {
                    new_picture |= self.finish_frame(w);
                }
                Some(w) => {
                    self.working = Some(w);
                    break;
                }
            }
        }
        new_picture
    }

    /// Asks for `change` from the machine's next frame on.
    pub fn change(&mut self, change: LaneChange) {
        self.changes.push(change);
    }

    /// The latest change `pick` takes that the machine has not taken yet.
    fn pending<T>(&self, pick: impl Fn(&LaneChange) -> Option<T>) -> Option<T> {
        self.changes.iter().rev().find_map(pick)
    }

    /// The strategy the next frame runs (with any change asked for).
    pub fn strategy(&self) -> Strategy {
        self.pending(|c| match c {
            LaneChange::Strategy(s) => Some(*s),
            _ => None,
        })
        .unwrap_or_else(|| self.session.planner().strategy())
    }

    /// The settings the next frame runs with (with the changes asked for, in order; a single
    /// step pauses, as it does in the window).
    pub fn settings(&self) -> LoopSettings {
        let mut settings = self.session.settings().clone();
        for change in &self.changes {
            match change {
                LaneChange::Settings(s) => settings = s.clone(),
                LaneChange::SingleStep => settings.paused = true,
                _ => {}
            }
        }
        settings
    }

    /// The bullets the next frame has (with any change asked for).
    pub fn bullets(&self) -> usize {
        self.pending(|c| match c {
            LaneChange::Bullets(n) => Some(*n),
            _ => None,
        })
        .unwrap_or_else(|| self.session.world().bullets.len())
    }

    fn start_frame(&mut self) {
        let start = self.next_start;
        // Single steps last: a change of settings after one would otherwise cancel it.
        let mut steps = 0;
        for change in std::mem::take(&mut self.changes) {
            match change {
                LaneChange::Strategy(s) => self.session.set_strategy(s),
                LaneChange::Settings(s) => self.session.set_settings(s),
                LaneChange::Bullets(n) => self.session.set_bullet_count(n),
                LaneChange::SingleStep => steps += 1,
            }
        }
        for _ in 0..steps {
            self.session.single_step();
        }
        while let Some(&(arrived, change)) = self.unpolled.front()
            && arrived <= start
        {
            self.session.schedule(change);
            self.unpolled.pop_front();
        }
        let begun = self.machine.begin_frame(start);
        while let Some(key) = self.keys.front().filter(|k| k.at <= begun.start).copied() {
            if key.down {
                self.session.press(key.button, key.at);
            } else {
                self.session.release(key.button, key.at);
            }
            self.keys.pop_front();
        }
        let plan = self.session.plan_frame(begun.reading);
        let times = self.machine.finish_frame(&begun, plan.updates);
        self.working = Some(Working {
            plan,
            done: times.cpu_free,
            shown: times.shown,
            waited: std::mem::take(&mut self.sleeps_before_next),
            started: begun.start,
            times,
        });
    }

    /// Shows the queued frames whose refresh has come by `now`; whether any was.
    fn show_queued(&mut self, now: Duration) -> bool {
        let mut shown = false;
        while self
            .queued
            .front()
            .is_some_and(|q| q.picture.shown_at <= now)
        {
            let Some(q) = self.queued.pop_front() else {
                break;
            };
            self.show(q.picture, &q.record);
            // Once nothing waits behind it, the frame shown is the lane's own state.
            self.shown_session = (!self.queued.is_empty()).then_some(q.session);
            shown = true;
        }
        shown
    }

    /// `picture`, of the frame `record` describes, is on the display now.
    fn show(&mut self, picture: Picture, record: &FrameRecord) {
        self.delays.presented(record);
        let at = picture.shown_at;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        self.animation
            .displayed(ms(record.animation_time()), ms(at));
        self.recent.push_back((at, picture.plan.updates));
        while self
            .recent
            .front()
            .is_some_and(|&(t, _)| t + Duration::from_secs(1) < at)
        {
            self.recent.pop_front();
        }
        self.picture = Some(picture);
    }

    /// Runs the frame's updates (its CPU work is done) and shows its picture, or queues it
    /// behind the frames ahead of it; whether a picture was shown.
    fn finish_frame(&mut self, mut w: Working) -> bool {
        let queues = w.shown > w.done || !self.queued.is_empty();
        if queues && self.shown_session.is_none() && self.picture.is_some() {
            // The picture on the display keeps the state it was drawn from.
            self.shown_session = Some(Box::new(self.session.clone()));
        }
        let (checkpoint, hashes) = (&mut self.checkpoint, &mut self.hashes);
        self.session.run_frame(&mut w.plan, |world, step| {
            take_hashes(checkpoint, hashes, world, step);
            std::ops::ControlFlow::Continue(())
        });
        let wake = w
            .times
            .wake(w.started, self.just_in_time.as_mut(), w.plan.wake);
        self.next_start = self.machine.next_start(wake, w.done);
        self.sleeps_before_next = self.next_start.saturating_sub(w.done);
        let picture = Picture {
            plan: w.plan,
            shown_at: w.shown,
            waited: w.waited,
        };
        let record = FrameRecord {
            presented: Some(w.shown),
            ..self.session.record(&w.plan)
        };
        if queues {
            self.queued.push_back(Queued {
                picture,
                record,
                session: Box::new(self.session.clone()),
            });
            false
        } else {
            self.show(picture, &record);
            true
        }
    }

    /// The machine's profile.
    pub fn profile(&self) -> &Profile {
        self.machine.profile()
    }

    /// The picture it shows now (`None` before its first frame finishes).
    pub fn picture(&self) -> Option<&Picture> {
        self.picture.as_ref()
    }

    /// The session as the picture on the display left it: its world, planner and
    /// statistics (behind a swapchain's queue, frames later than that have run already).
    pub fn session(&self) -> &Session {
        self.shown_session.as_deref().unwrap_or(&self.session)
    }

    /// Pictures in the last second of real time before `now` that showed two or more new
    /// updates: the jumps of a loop out of step with its display.
    pub fn doubles(&self, now: Duration) -> usize {
        let from = now.saturating_sub(Duration::from_secs(1));
        self.recent
            .iter()
            .filter(|&&(t, n)| t > from && t <= now && n >= 2)
            .count()
    }

    /// Pictures and updates in the last second of real time before `now`.
    pub fn rates(&self, now: Duration) -> (usize, u32) {
        let from = now.saturating_sub(Duration::from_secs(1));
        self.recent
            .iter()
            .filter(|&&(t, _)| t > from && t <= now)
            .fold((0, 0), |(f, u), &(_, n)| (f + 1, u + n))
    }

    /// The animation error of the pictures shown so far.
    pub fn animation_error(&self) -> AnimationErrorFigures {
        self.animation.figures()
    }

    /// The median delay from a change of steering to the picture that shows it, over the
    /// recent changes, once [`DELAYS_TO_SAY`] have been shown (one is no median).
    pub fn steer_delay(&self) -> Option<Duration> {
        (self.delays.count() >= DELAYS_TO_SAY)
            .then(|| self.delays.median())
            .flatten()
    }

    /// The state hashes taken so far, every [`CHECK_EVERY`] of game time.
    pub fn hashes(&self) -> &[(Duration, StateHash)] {
        &self.hashes
    }
}

/// Takes the state at every multiple of [`CHECK_EVERY`] an update reaches or steps over.
fn take_hashes(
    checkpoint: &mut Checkpoint,
    hashes: &mut Vec<(Duration, StateHash)>,
    world: &World,
    step: Duration,
) {
    loop {
        checkpoint.before_update(world, step);
        let Some(hash) = checkpoint.hash() else {
            return;
        };
        let at = checkpoint.at();
        hashes.push((at, hash));
        *checkpoint = Checkpoint::new(at + CHECK_EVERY);
    }
}

/// How a lane compares with the first lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// No common checkpoint yet.
    Unknown,
    /// Every common checkpoint had the same state, up to this game time.
    InStep(Duration),
    /// The first checkpoint where the states differed.
    DivergedAt(Duration),
}

/// Compares `lane`'s hashes with `first`'s at the game times both have reached.
pub fn agreement(first: &Lane, lane: &Lane) -> Agreement {
    let mut last = None;
    for (&(t, a), &(u, b)) in first.hashes.iter().zip(&lane.hashes) {
        debug_assert_eq!(t, u);
        if a != b {
            return Agreement::DivergedAt(t);
        }
        last = Some(t);
    }
    last.map_or(Agreement::Unknown, Agreement::InStep)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lane(profile: &str, strategy: Strategy) -> Lane {
        Lane::new(
            Profile::parse(profile).unwrap(),
            strategy,
            LoopSettings::default(),
            &WorldConfig {
                seed: 3,
                bullets: 100,
            },
            Duration::ZERO,
        )
    }

    /// Drives lanes with a manual clock in 1 ms ticks for `seconds`, pressing and releasing
    /// keys on the way; returns the pictures each showed.
    fn drive(lanes: &mut [Lane], seconds: u64) -> Vec<Vec<Duration>> {
        let mut pictures = vec![Vec::new(); lanes.len()];
        for ms in 0..seconds * 1000 {
            let now = Duration::from_millis(ms);
            let key = match ms {
                500 => Some(Steer::from_held(false, true, false, false)),
                1700 => Some(Steer::from_held(false, false, true, false)),
                2300 => Some(Steer::NONE),
                _ => None,
            };
            let from = steer_stamp(lanes);
            for (i, lane) in lanes.iter_mut().enumerate() {
                if let Some(steer) = key {
                    lane.steer(steer, now, from);
                }
                if lane.advance_to(now) {
                    pictures[i].push(lane.picture().unwrap().shown_at);
                }
            }
        }
        pictures
    }

    /// A trace of 40 frames whose drawing takes 3 to 42 ms, without vsync.
    fn recorded(name: &str) -> Profile {
        use crate::session::trace::{Trace, TraceFrame, TraceHeader};
        let frames = (0..40u64)
            .map(|i| TraceFrame {
                start_ns: i * 20_000_000,
                wait_ns: 0,
                updates: 1,
                update_ns: 300_000,
                redraw_wait_ns: 0,
                acquire_ns: 100_000,
                render_ns: 3_000_000 + (i * 7 % 40) * 1_000_000,
                present_ns: 200_000,
                presented_ns: i * 20_000_000 + 5_000_000,
                game_ns: i * 16_666_667,
                animation_ns: i * 16_666_667,
                behind_ns: 0,
            })
            .collect();
        let header = TraceHeader::interpolated_60hz(100);
        Profile::from_trace(name, &Trace { header, frames })
    }

    #[test]
    fn a_lane_runs_the_labs_machine_frame_for_frame() {
        use super::super::run::{RunConfig, run};
        let profiles = [
            Profile::parse(
                "mix:render=9ms,jitter=8ms,refresh=60,noise=1%,timer=coarse,stall=300ms@2s",
            )
            .unwrap(),
            Profile::parse("jitter").unwrap(),
            recorded("trace"),
            // Behind a swapchain: frames queue, the CPU runs ahead of the display.
            Profile::parse("queue:render=6ms,jitter=5ms,gpu=3ms,present=fifo,latency=3").unwrap(),
        ];
        let world = WorldConfig {
            seed: 9,
            bullets: 50,
        };
        let paced = [false, true];
        for (profile, just_in_time) in profiles.iter().flat_map(|p| paced.map(|j| (p, j))) {
            for strategy in [Strategy::CatchUp, Strategy::Variable] {
                let settings =
                    LoopSettings::default().with_frame_cap(looplab_timing::Rate::hz(90.0).ok());
                // The lab keeps the frames that start from 1.5 s to 3 s, for its strips.
                let lab = run(&RunConfig {
                    strategy,
                    profile: profile.clone(),
                    settings: settings.clone(),
                    world: world.clone(),
                    duration: Duration::from_secs(4),
                    checkpoint: RunConfig::DEFAULT_CHECKPOINT,
                    trace_interval: RunConfig::DEFAULT_TRACE_INTERVAL,
                    replay: None,
                    until_updates: None,
                    keys: None,
                    just_in_time: just_in_time.then_some(looplab_timing::Margin::Adaptive {
                        least: JustInTime::MIN_MARGIN,
                    }),
                    step_phase: Duration::ZERO,
                });
                let lab: Vec<(Duration, u32, Duration)> = lab
                    .frames
                    .iter()
                    .map(|f| (f.start, f.updates, f.presented.unwrap()))
                    .collect();
                // A lane opened at zero, and one opened at an odd moment, as in the window:
                // the same frames, that much later.
                for opened in [Duration::ZERO, Duration::from_micros(4_213_777)] {
                    let mut lane =
                        Lane::new(profile.clone(), strategy, settings.clone(), &world, opened);
                    if just_in_time {
                        lane = lane.with_just_in_time();
                    }
                    let mut pictures = Vec::new();
                    for ms in 0..=3100 {
                        if lane.advance_to(opened + Duration::from_millis(ms)) {
                            let p = lane.picture().unwrap();
                            pictures.push((
                                p.plan.now.saturating_sub(opened),
                                p.plan.updates,
                                p.shown_at - opened,
                            ));
                        }
                    }
                    let (first, last) = (lab[0].0, lab[lab.len() - 1].0);
                    let lane: Vec<_> = pictures
                        .into_iter()
                        .filter(|&(start, _, _)| start >= first && start <= last)
                        .collect();
                    assert!(lab.len() > 20, "{}: {} frames", profile.name, lab.len());
                    assert_eq!(
                        lab, lane,
                        "{} under {strategy}, opened at {opened:?}, just in time {just_in_time}",
                        profile.name
                    );
                }
            }
        }
    }

    #[test]
    fn behind_a_full_queue_the_lane_shows_the_state_its_picture_was_drawn_from() {
        let mut lane = lane(
            "queue:render=2ms,present=fifo,latency=3,refresh=60",
            Strategy::CatchUp,
        );
        let mut behind = Vec::new();
        for ms in 0..2000 {
            if lane.advance_to(Duration::from_millis(ms)) {
                let picture = lane.picture().unwrap();
                // What the display shows is the frame's own world, not the one the loop has
                // run on to: three frames further.
                assert_eq!(lane.session().planner().simulated(), picture.plan.simulated);
                behind.push(lane.session.planner().simulated() - picture.plan.simulated);
            }
        }
        let ahead = behind[60..].iter().filter(|d| !d.is_zero()).count();
        assert!(ahead * 10 > behind[60..].len() * 9, "{behind:?}");
    }

    #[test]
    fn a_lane_says_how_long_its_loop_slept_before_each_picture() {
        // The fast machine's frames take 1.2 ms: napping out the rest of each 16.7 ms step,
        // its loop sleeps about 15.5 ms before each frame; never waiting, not at all.
        let mut napping = lane("fast", Strategy::FixedSleep);
        let mut racing = lane("fast", Strategy::Uncapped);
        let (mut naps, mut races) = (Vec::new(), Vec::new());
        for ms in 0..=2000 {
            let now = Duration::from_millis(ms);
            if napping.advance_to(now) {
                naps.push(napping.picture().unwrap().waited);
            }
            if racing.advance_to(now) {
                races.push(racing.picture().unwrap().waited);
            }
        }
        // The first frame starts at once; every later one after a nap.
        let step = Duration::from_nanos(16_666_667);
        assert!(naps.len() >= 100, "{} pictures", naps.len());
        for &waited in &naps[1..] {
            assert!(
                waited > step * 9 / 10 && waited < step,
                "a nap of {waited:?} before a frame of a 16.7 ms step"
            );
        }
        assert!(races.len() > naps.len() * 5, "{} pictures", races.len());
        assert!(races.iter().all(Duration::is_zero), "{races:?}");
    }

    #[test]
    fn lanes_show_pictures_when_their_modelled_frames_finish() {
        let mut lanes = [
            lane("fast", Strategy::CatchUp),
            lane("weak-gpu", Strategy::CatchUp),
        ];
        let pictures = drive(&mut lanes, 3);
        // Uncapped catch-up: a fast machine's frames take 1 ms and a bit, the weak GPU's 45.
        let (fast, weak) = (pictures[0].len(), pictures[1].len());
        assert!(fast > 2000, "fast lane: {fast} pictures in 3 s");
        assert!(
            (60..=70).contains(&weak),
            "weak GPU: {weak} pictures in 3 s"
        );
        // Each weak-GPU picture appears 45 ms (plus its updates) after the one before.
        for w in pictures[1].windows(2) {
            let gap = w[1] - w[0];
            assert!(
                gap >= Duration::from_millis(45) && gap < Duration::from_millis(47),
                "{gap:?}"
            );
        }
        // Both keep to real time: about 180 updates each (the weak GPU shows a state up to
        // a frame old).
        for l in &lanes {
            let steps = l.session().world().steps();
            assert!((170..=181).contains(&steps), "{steps} steps");
        }
        let (fps, ups) = lanes[1].rates(Duration::from_secs(3));
        assert!((21..=23).contains(&fps), "{fps}");
        assert!((58..=62).contains(&ups), "{ups}");
    }

    #[test]
    fn fixed_steps_keep_lanes_in_step_and_variable_steps_do_not() {
        let mut fixed = [
            lane("fast", Strategy::Interpolated),
            lane("weak-gpu", Strategy::Interpolated),
        ];
        drive(&mut fixed, 4);
        assert!(fixed[0].session().world().ship.travelled > 300.0);
        assert_eq!(fixed[0].hashes().len(), 3);
        assert_eq!(
            agreement(&fixed[0], &fixed[1]),
            Agreement::InStep(Duration::from_secs(3))
        );

        let mut variable = [
            lane("fast", Strategy::Variable),
            lane("weak-gpu", Strategy::Variable),
        ];
        drive(&mut variable, 4);
        assert_eq!(
            agreement(&variable[0], &variable[1]),
            Agreement::DivergedAt(Duration::from_secs(1))
        );
    }

    #[test]
    fn a_lane_left_behind_waits_instead_of_fast_forwarding() {
        let mut l = lane("fast", Strategy::CatchUp);
        l.advance_to(Duration::from_secs(1));
        let steps = l.session().world().steps();
        // Ten seconds without a call (a minimised window): the next call catches up at most
        // the stall clamp, not ten seconds of updates.
        l.advance_to(Duration::from_secs(11));
        let caught_up = l.session().world().steps() - steps;
        assert!(caught_up <= 16, "{caught_up} updates");
        // A frame that costs nothing cannot hang a call.
        let mut free = Lane::new(
            Profile::parse("free:render=0ms,update=0ms").unwrap(),
            Strategy::Uncapped,
            LoopSettings::default(),
            &WorldConfig {
                seed: 1,
                bullets: 1,
            },
            Duration::ZERO,
        );
        free.advance_to(Duration::from_millis(1));
        assert!(free.session().world().steps() <= u64::from(MAX_FRAMES_PER_CALL));
    }

    #[test]
    fn a_single_step_survives_a_change_of_settings() {
        let mut l = lane("weak-gpu", Strategy::CatchUp);
        l.change(LaneChange::Settings(
            LoopSettings::default().with_paused(true),
        ));
        l.advance_to(Duration::from_millis(100));
        let steps = l.session().world().steps();
        l.change(LaneChange::SingleStep);
        assert!(l.settings().paused, "a single step pauses");
        let faster = l
            .settings()
            .with_time_scale(looplab_timing::TimeScale::new(2.0).unwrap());
        l.change(LaneChange::Settings(faster));
        l.advance_to(Duration::from_millis(300));
        assert_eq!(l.session().world().steps(), steps + 1);
        assert!(l.session().settings().paused);
    }

    #[test]
    fn a_change_waits_for_the_next_frame() {
        let mut l = lane("weak-gpu", Strategy::CatchUp);
        l.advance_to(Duration::from_millis(10));
        assert!(l.working.is_some(), "a 45 ms frame in progress");
        l.change(LaneChange::Strategy(Strategy::Variable));
        assert_eq!(l.strategy(), Strategy::Variable);
        assert_eq!(l.session().planner().strategy(), Strategy::CatchUp);
        l.advance_to(Duration::from_millis(50));
        assert_eq!(l.session().planner().strategy(), Strategy::Variable);
        let paused = LoopSettings::default().with_paused(true);
        l.change(LaneChange::Settings(paused));
        l.advance_to(Duration::from_millis(200));
        let steps = l.session().world().steps();
        l.advance_to(Duration::from_millis(600));
        assert_eq!(l.session().world().steps(), steps, "paused");
        l.change(LaneChange::SingleStep);
        l.advance_to(Duration::from_millis(700));
        assert_eq!(l.session().world().steps(), steps + 1, "one step");
    }

    #[test]
    fn a_key_applies_at_the_same_update_in_every_fixed_step_lane() {
        let mut lanes = [
            lane("fast", Strategy::CatchUp),
            lane("weak-gpu", Strategy::CatchUp),
            lane("jitter", Strategy::FixedSleep),
        ];
        drive(&mut lanes, 3);
        let first: Vec<Vec<u64>> = lanes
            .iter()
            .map(|l| l.session().steering().steps())
            .collect();
        // A key at 500 ms applies from update 30 (which starts at 500 ms) in all three.
        assert_eq!(first[0], vec![30, 102, 138]);
        assert!(first.iter().all(|f| *f == first[0]), "{first:?}");
    }
}
