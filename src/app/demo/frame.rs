//! A frame as the demo sees it: its updates run, what it draws, and what the driver
//! reports back once it was presented (or not).

use std::time::Duration;

use looplab_timing::{Clock, FramePlan, UpdateBudget, Wake};

use super::Demo;
use crate::app::compose::FrameInputs;
use crate::app::overlay::WindowFacts;
use crate::platform::clock::{block_for, spin_for};
use crate::session::frame::FrameRecord;

/// Real time the updates of one frame may take before the rest are dropped: a quarter of a
/// second, so even with no update limit (the spiral of death) the window answers input
/// several times a second.
const UPDATE_BUDGET: Duration = UpdateBudget::DEFAULT_LIMIT;

/// A frame whose updates have run: its plan, and its record so far.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    pub plan: FramePlan,
    pub record: FrameRecord,
}

/// The loop's own sleep before a frame: from the end of the frame before to its strategy's
/// wake time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nap {
    /// When the frame before ended.
    pub since: Duration,
    /// The wake time, where a host calls the loop back (a browser's frame callback): time
    /// past it is the host's lateness, not the loop's nap. `None` where the loop wakes
    /// itself, and a late wake (an OS timer's) is part of its sleep.
    pub host_wakes_at: Option<Duration>,
}

impl Nap {
    /// The nap before the frame a strategy wakes at `wake`, the frame before having ended at
    /// `since`: none where the loop goes straight on (its wake time had come). `called_back`:
    /// a host calls the loop back (a page), rather than the loop waking itself.
    pub fn before(wake: Wake, since: Duration, called_back: bool) -> Option<Nap> {
        match wake {
            Wake::At(t) if t > since => Some(Nap {
                since,
                host_wakes_at: called_back.then_some(t),
            }),
            _ => None,
        }
    }

    /// How long of it the loop slept, woken at `now`.
    pub fn slept(self, now: Duration) -> Duration {
        let woke = self.host_wakes_at.map_or(now, |at| at.min(now));
        woke.saturating_sub(self.since)
    }
}

/// What preparing a frame's picture measured.
#[derive(Clone, Copy, Debug, Default)]
pub struct Prepared {
    /// The simulated render load (and a capture's) spun before drawing.
    pub load: Duration,
    /// When it was prepared: the frame's time for the composer (the lanes were run to it).
    pub at: Duration,
}

impl Demo {
    /// Starts a frame at `clock`'s now: runs its planned updates (after the loop's `nap`, or
    /// straight on from the last frame).
    pub fn run_updates(&mut self, clock: &impl Clock, nap: Option<Nap>) -> Frame {
        if let Some(stall) = self.input.stall.take() {
            block_for(stall);
        }
        let now = clock.now();
        let update_cost = self.controls.knobs.update_cost;
        let budget = UpdateBudget::new(now, UPDATE_BUDGET);
        let mut replay = self.replay.as_mut();
        let reached_before = replay.as_ref().is_some_and(|r| r.outcome().is_some());
        let plan = self
            .controls
            .session_mut()
            .frame_within(now, |world, step| {
                if let Some(r) = replay.as_mut() {
                    r.checkpoint.before_update(world, step);
                }
                spin_for(update_cost);
                budget.check(clock.now())
            });
        if let Some(r) = self.replay.as_mut() {
            r.checkpoint.finish(self.controls.session().world());
            if !reached_before {
                r.log_outcome();
            }
        }
        let updated = clock.now();
        if plan.skipped > Duration::ZERO && budget.spent(updated) {
            log::debug!("update budget spent: {} updates run", plan.updates);
        }
        let record = FrameRecord {
            waited: nap.map_or(Duration::ZERO, |nap| nap.slept(now)),
            update_time: updated - now,
            inputs: self.input.take_applied(),
            ..self.controls.session().record(&plan)
        };
        Frame { plan, record }
    }

    /// Before the picture of `plan` is composed: spins the simulated render load and runs
    /// compare mode's lanes to now.
    pub fn prepare_draw(&mut self, clock: &impl Clock) -> Prepared {
        let captured = self
            .controls
            .knobs
            .capture
            .as_mut()
            .map_or(Duration::ZERO, |c| c.take());
        let spun_from = clock.now();
        spin_for(self.controls.knobs.render_cost + captured);
        let load = clock.now().saturating_sub(spun_from);
        let at = clock.now();
        if let Some(compare) = &mut self.compare {
            compare.advance_to(at);
        }
        Prepared { load, at }
    }

    /// Calls `draw` with what the frame of `plan` shows at `now` (the composer's inputs),
    /// and returns what it returns.
    pub fn with_frame_inputs<R>(
        &self,
        plan: &FramePlan,
        facts: &WindowFacts,
        now: Duration,
        draw: impl FnOnce(&FrameInputs) -> R,
    ) -> R {
        let tour = self
            .touring
            .as_ref()
            .filter(|t| t.on)
            .and_then(|t| t.tour.panel(&t.status));
        let inputs = FrameInputs::new(
            self.controls.session(),
            &self.controls.knobs,
            plan,
            &self.readouts,
            facts,
        )
        .with_lanes(self.compare.as_ref(), now)
        .with_tour(tour.as_ref())
        // The invitation stays until the person presses a key (Enter takes it up).
        .with_tour_invite(self.touring.is_none() && self.run.inputs_applied == 0)
        .framed(self.framed());
        draw(&inputs)
    }

    /// The frame of `plan` reached the screen at `clock`'s now: its time goes in `record`,
    /// the tour watches it and the run counts it. Returns when it was presented.
    pub fn presented(
        &mut self,
        clock: &impl Clock,
        plan: &FramePlan,
        record: &mut FrameRecord,
    ) -> Duration {
        if self.run.presented == 0 {
            // The loop starts with its first picture on screen: the time it took to get
            // there (the GPU warming up, the first present) is neither simulated nor
            // counted against the wall clock, so the metronome's gap means what its caption
            // says.
            self.resync(clock.now());
        }
        let presented = clock.now();
        record.presented = Some(presented);
        self.watch_tour(presented, plan, record.waited);
        record.cpu = crate::platform::process::cpu_time().unwrap_or_default();
        self.run.presented(record);
        self.readouts.last = *record;
        presented
    }

    /// The frame was not drawn (nothing to draw on, or the surface would not give a frame).
    pub fn skipped(&mut self) {
        self.run.skipped += 1;
    }

    /// Records a finished frame at `now`.
    pub fn finish_frame(&mut self, record: &FrameRecord, now: Duration) {
        self.readouts.steer_delay.frame_ran(record);
        let steer_delay = self.readouts.steer_delay.presented(record);
        let strategy = self.controls.strategy();
        self.run.frame_done(record, strategy, steer_delay);
        self.readouts.live.presented(record, strategy);
        if !self.controls.settings().paused {
            self.readouts.history.push(*record);
        }
        self.readouts.cpu.sample();
        self.run.speed.check(self.controls.session(), now);
    }
}
