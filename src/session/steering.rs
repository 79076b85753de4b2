//! The ship's inputs as data: each change of what an update gives the ship (its thrust and
//! dashes) stamped with the update it first applies to, logged as a loop runs and played
//! back into another loop.
//!
//! A change is stamped with the game time at which its update starts (and, for people
//! reading a recording, the update's number). Played back, it applies from the first update
//! that starts at or after that game time: under a fixed step that is the same update of
//! the same step, so the same inputs give the same world on any machine; under a variable
//! step the updates start elsewhere, which is the point the texts make.

use std::time::Duration;

use crate::world::World;
use crate::world::ship::ShipInput;

/// A change of the ship's input, applied from update number `step` on, which starts at
/// `game_time`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SteerChange {
    pub step: u64,
    pub game_time: Duration,
    pub input: ShipInput,
}

/// The input changes of a run, in the order they applied.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SteerLog {
    changes: Vec<SteerChange>,
}

impl SteerLog {
    /// Call before each update: notes the ship's input when it differs from the last noted
    /// (the ship starts with none).
    pub fn observe(&mut self, world: &World) {
        let input = world.ship.input;
        let last = self.changes.last().map_or(ShipInput::NONE, |c| c.input);
        if input != last {
            self.changes.push(SteerChange {
                step: world.steps(),
                game_time: world.time(),
                input,
            });
        }
    }

    pub fn changes(&self) -> &[SteerChange] {
        &self.changes
    }

    /// The update each change applied from, in order: the same in every session that got
    /// the same input at the same game times.
    #[cfg(test)]
    pub fn steps(&self) -> Vec<u64> {
        self.changes.iter().map(|c| c.step).collect()
    }
}

/// A log being played back.
#[derive(Clone, Debug, PartialEq)]
pub struct SteerScript {
    changes: Vec<SteerChange>,
    next: usize,
}

impl SteerScript {
    /// Plays `changes` (in the order they applied) from the start.
    pub fn new(changes: Vec<SteerChange>) -> Self {
        Self { changes, next: 0 }
    }

    /// The input for the update that starts at `game_time`, when it changes there: the
    /// latest change whose time has come.
    pub fn due(&mut self, game_time: Duration) -> Option<ShipInput> {
        let mut input = None;
        while let Some(c) = self.changes.get(self.next)
            && c.game_time <= game_time
        {
            input = Some(c.input);
            self.next += 1;
        }
        input
    }

    /// The input the update that starts at `game_time` would apply, without applying
    /// anything: the latest change due by then, if any is (a prediction's newest input).
    pub fn peek(&self, game_time: Duration) -> Option<ShipInput> {
        self.changes[self.next.min(self.changes.len())..]
            .iter()
            .take_while(|c| c.game_time <= game_time)
            .last()
            .map(|c| c.input)
    }

    /// Adds a change after the others (live input): it applies from its game time on, or
    /// from the next update if that time has passed.
    pub fn push(&mut self, change: SteerChange) {
        self.changes.push(change);
    }

    /// Whether every change has been applied.
    pub fn finished(&self) -> bool {
        self.next >= self.changes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::WorldConfig;
    use crate::world::ship::Steer;

    const STEP: Duration = Duration::from_nanos(16_666_667);

    fn world() -> World {
        World::new(&WorldConfig {
            seed: 5,
            bullets: 20,
        })
    }

    fn right() -> ShipInput {
        Steer::from_held(false, true, false, false).into()
    }

    #[test]
    fn the_log_notes_changes_only_with_their_update() {
        let mut w = world();
        let mut log = SteerLog::default();
        for i in 0..10u64 {
            match i {
                3 => w.set_ship_input(right()),
                6 => w.set_ship_input(ShipInput::NONE),
                _ => {}
            }
            log.observe(&w);
            w.step(STEP);
        }
        let steps: Vec<(u64, ShipInput)> =
            log.changes().iter().map(|c| (c.step, c.input)).collect();
        assert_eq!(steps, vec![(3, right()), (6, ShipInput::NONE)]);
        assert_eq!(log.changes()[0].game_time, STEP * 3);
    }

    #[test]
    fn a_script_applies_each_change_from_its_game_time() {
        let mut script = SteerScript::new(vec![
            SteerChange {
                step: 3,
                game_time: STEP * 3,
                input: right(),
            },
            SteerChange {
                step: 4,
                game_time: STEP * 4,
                input: ShipInput::NONE,
            },
        ]);
        assert_eq!(script.due(STEP * 2), None);
        assert_eq!(
            script.peek(STEP * 7),
            Some(ShipInput::NONE),
            "the latest due"
        );
        assert_eq!(script.peek(STEP * 3), Some(right()));
        assert_eq!(script.due(STEP * 3), Some(right()));
        assert!(!script.finished());
        // A long variable step that passes both: the latest wins.
        let mut late = script.clone();
        late.next = 0;
        assert_eq!(late.due(STEP * 10), Some(ShipInput::NONE));
        assert!(late.finished());
    }

    #[test]
    fn replaying_a_log_gives_the_same_world() {
        let mut recorded = world();
        let mut log = SteerLog::default();
        for i in 0..200u64 {
            let held = (i / 25) % 4;
            recorded.steer(Steer::from_held(held == 0, held == 1, held == 2, held == 3));
            log.observe(&recorded);
            recorded.step(STEP);
        }
        let mut replayed = world();
        let mut script = SteerScript::new(log.changes().to_vec());
        for _ in 0..200 {
            if let Some(s) = script.due(replayed.time()) {
                replayed.set_ship_input(s);
            }
            replayed.step(STEP);
        }
        assert!(recorded.ship.travelled > 1000.0);
        assert_eq!(replayed.state_hash(), recorded.state_hash());
    }
}
