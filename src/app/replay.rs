//! `--record` and `--replay` in the window: the session's steering log written out as a
//! recording at exit, and a recording played back with its end state checked.

use crate::session::Session;
use crate::session::checkpoint::Checkpoint;
use crate::session::recording::{RecordedEnd, Recording, ReplayOutcome};
use crate::world::WorldConfig;
use crate::world::ship::ShipInput;
use looplab_timing::{LoopSettings, Strategy};

/// The recording of a run that started with `strategy`, `settings` and `world`: every
/// steering change and the state reached. The end state is hashed with the steering the
/// last update used, which is what a replay has there (a key pressed after the last update
/// has not been applied to anything yet).
pub fn recording_of(
    strategy: Strategy,
    settings: &LoopSettings,
    world: &WorldConfig,
    session: &Session,
) -> Recording {
    let changes = session.steering().changes().to_vec();
    let mut end = session.world().clone();
    end.set_ship_input(changes.last().map_or(ShipInput::NONE, |c| c.input));
    Recording {
        world: world.clone(),
        strategy,
        update_rate: settings.update_rate,
        max_updates: settings.max_updates(),
        frame_cap: settings.frame_cap,
        changes,
        end: RecordedEnd {
            steps: end.steps(),
            game_time: end.time(),
            hash: end.state_hash(),
            ship: end.ship.pos.to_array(),
        },
    }
}

/// A recording being played: where it ended, and the state the replay reached there.
#[derive(Clone, Debug)]
pub struct ReplayCheck {
    end: RecordedEnd,
    pub checkpoint: Checkpoint,
}

impl ReplayCheck {
    pub fn new(recording: &Recording) -> Self {
        Self {
            end: recording.end.clone(),
            checkpoint: Checkpoint::new(recording.end.game_time),
        }
    }

    /// Once the replay has reached the recording's end: whether it reached the same state.
    pub fn outcome(&self) -> Option<ReplayOutcome> {
        self.end.compare(&self.checkpoint)
    }

    /// Logs whether the replay reached the recorded state, once it has got to the
    /// recording's end.
    pub fn log_outcome(&self) {
        let Some(o) = self.outcome() else {
            return;
        };
        if o.same_state {
            log::info!(
                "replay: at {:.2} s of game time the state is the recorded one",
                self.end_seconds()
            );
        } else {
            log::warn!(
                "replay: at {:.2} s of game time the state differs from the recording; the ship is {:.1} px from where it was",
                self.end_seconds(),
                o.ship_offset_px
            );
        }
    }

    /// The recording's end, in game seconds.
    pub fn end_seconds(&self) -> f64 {
        self.end.game_time.as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::ship::Steer;
    use looplab_timing::{ManualClock, Wake};
    use std::time::Duration;

    fn run(session: &mut Session, check: &mut Option<ReplayCheck>, frames: u32, steer: bool) {
        let mut clock = ManualClock::default();
        for frame in 0..frames {
            if steer {
                let held = (frame / 20) % 3;
                session.steer(
                    Steer::from_held(held == 0, false, held == 1, false),
                    clock.now(),
                );
            }
            let plan = session.frame(clock.now(), |world, step| {
                if let Some(c) = check.as_mut() {
                    c.checkpoint.before_update(world, step);
                }
            });
            clock.advance(Duration::from_millis(7));
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            }
        }
        if let Some(c) = check.as_mut() {
            c.checkpoint.finish(session.world());
        }
    }

    #[test]
    fn a_window_run_recorded_and_replayed_reaches_the_same_state() {
        let world = WorldConfig {
            seed: 4,
            bullets: 100,
        };
        let settings = LoopSettings::default();
        let mut recorded = Session::new(Strategy::Interpolated, settings.clone(), &world);
        run(&mut recorded, &mut None, 150, true);
        // A key still held after the last update does not count.
        recorded.steer(Steer::from_held(false, true, false, true), Duration::ZERO);
        let recording = recording_of(Strategy::Interpolated, &settings, &world, &recorded);
        let text = recording.to_text();
        let recording = Recording::parse(&text).unwrap();

        let mut replay = Session::new(recording.strategy, recording.settings(), &recording.world);
        replay.play(crate::session::steering::SteerScript::new(
            recording.changes.clone(),
        ));
        let mut check = Some(ReplayCheck::new(&recording));
        // Keys pressed during a replay are ignored.
        replay.steer(Steer::from_held(true, false, false, false), Duration::ZERO);
        run(&mut replay, &mut check, 200, false);
        let outcome = check.unwrap().outcome().expect("reached the end");
        assert_eq!(
            outcome,
            ReplayOutcome {
                same_state: true,
                ship_offset_px: 0.0
            }
        );
    }
}
