//! The world's state at one game time, taken the same way whether an update lands on that
//! time exactly or steps over it (then a copy of the world is advanced to it, leaving the
//! run untouched). The lab compares machines at a checkpoint; a replay compares itself with
//! its recording at the recording's end.

use std::time::Duration;

use crate::world::World;
use crate::world::hash::StateHash;

/// A game time to take the state at, and the state once taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    at: Duration,
    hash: Option<StateHash>,
    ship: Option<[u32; 2]>,
}

impl Checkpoint {
    /// Waits for game time `at`.
    pub fn new(at: Duration) -> Self {
        Self {
            at,
            hash: None,
            ship: None,
        }
    }

    /// Call before each update of length `step`.
    pub fn before_update(&mut self, world: &World, step: Duration) {
        if self.hash.is_some() {
            return;
        }
        let t = world.time();
        if t == self.at {
            self.take(world);
        } else if t < self.at && t + step > self.at {
            let mut copy = world.clone();
            copy.step(self.at - t);
            self.take(&copy);
        }
    }

    /// Call at the end, in case the last update landed on it exactly.
    pub fn finish(&mut self, world: &World) {
        if self.hash.is_none() && world.time() == self.at {
            self.take(world);
        }
    }

    fn take(&mut self, world: &World) {
        self.hash = Some(world.state_hash());
        self.ship = Some(world.ship.pos.to_array().map(f32::to_bits));
    }

    /// The game time it waits for.
    pub fn at(&self) -> Duration {
        self.at
    }

    /// The state hash at that time, once reached.
    pub fn hash(&self) -> Option<StateHash> {
        self.hash
    }

    /// Where the ship was at that time, once reached.
    pub fn ship(&self) -> Option<[f32; 2]> {
        self.ship.map(|s| s.map(f32::from_bits))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::WorldConfig;

    #[test]
    fn checkpoint_hash_is_taken_at_the_checkpoint_time_exactly() {
        let mut w = World::new(&WorldConfig {
            seed: 1,
            bullets: 50,
        });
        let at = Duration::from_millis(100);
        let mut exact = Checkpoint::new(at);
        let mut over = Checkpoint::new(at);
        // 10 steps of 10 ms land on it; a 30 ms step from 80 ms steps over it.
        let mut a = w.clone();
        for _ in 0..10 {
            exact.before_update(&a, Duration::from_millis(10));
            a.step(Duration::from_millis(10));
        }
        exact.finish(&a);
        for _ in 0..8 {
            w.step(Duration::from_millis(10));
        }
        let mut b = w.clone();
        b.step(Duration::from_millis(20));
        over.before_update(&w, Duration::from_millis(30));
        assert_eq!(over.hash(), Some(b.state_hash()));
        assert_eq!(exact.hash(), Some(a.state_hash()));
        // Both are the state at 100 ms, reached by different steps: not the same state.
        assert_ne!(exact.hash(), over.hash);
    }
}
