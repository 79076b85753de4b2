//! The metronome: one bullet that sweeps across the screen and back, one crossing every two
//! seconds of game time. Beside a marker driven by the wall clock, it shows at a glance
//! whether the game runs slow or fast.

use glam::Vec2;

/// Game time one crossing takes.
pub const CROSSING_SECS: f64 = 2.0;

/// A bullet bouncing between `left` and `right` at constant speed.
#[derive(Clone, Debug, PartialEq)]
pub struct Metronome {
    pub pos: Vec2,
    pub prev: Vec2,
    pub vel: Vec2,
    pub left: f32,
    pub right: f32,
}

impl Metronome {
    /// Starts at `left`, heading right, at height `y`.
    pub fn new(left: f32, right: f32, y: f32) -> Self {
        let speed = ((right - left) as f64 / CROSSING_SECS) as f32;
        let pos = Vec2::new(left, y);
        Self {
            pos,
            prev: pos,
            vel: Vec2::new(speed, 0.0),
            left,
            right,
        }
    }

    /// Advances by `dt` seconds, reflecting off the ends as often as the step requires.
    pub fn step(&mut self, dt: f32) {
        self.prev = self.pos;
        self.pos.x += self.vel.x * dt;
        while self.pos.x > self.right || self.pos.x < self.left {
            let edge = if self.pos.x > self.right {
                self.right
            } else {
                self.left
            };
            self.pos.x = 2.0 * edge - self.pos.x;
            self.vel.x = -self.vel.x;
        }
    }

    /// Where it is at game time `t_ns`, exactly: a triangle wave, in double precision.
    pub fn truth(&self, t_ns: i64) -> Vec2 {
        let width = (self.right - self.left) as f64;
        let speed = width / CROSSING_SECS;
        let travelled = (speed * t_ns as f64 * 1e-9).rem_euclid(2.0 * width);
        let offset = if travelled <= width {
            travelled
        } else {
            2.0 * width - travelled
        };
        Vec2::new((self.left as f64 + offset) as f32, self.pos.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crosses_once_every_two_seconds_and_matches_its_truth() {
        let mut m = Metronome::new(100.0, 1100.0, 40.0);
        assert_eq!(m.vel.x, 500.0);
        // 60 steps of 1/60 s ... a crossing takes 120 steps.
        for step in 1..=480i64 {
            m.step(1.0 / 60.0);
            let t = step * 1_000_000_000 / 60;
            assert!((m.pos.x - m.truth(t).x).abs() < 0.01, "step {step}");
        }
        assert_eq!(m.truth(2_000_000_000).x, 1100.0);
        assert_eq!(m.truth(4_000_000_000).x, 100.0);
        assert_eq!(m.truth(1_000_000_000).x, 600.0);
        assert_eq!(m.truth(3_000_000_000).x, 600.0);
    }

    #[test]
    fn a_huge_step_reflects_as_often_as_needed() {
        let mut m = Metronome::new(0.0, 100.0, 0.0);
        m.step(5.1); // 255 px: right end, back to the left end, then 55 px right.
        assert!((m.pos.x - 55.0).abs() < 1e-3);
        assert!(m.vel.x > 0.0);
        assert!((m.truth(5_100_000_000).x - 55.0).abs() < 1e-3);
    }
}
