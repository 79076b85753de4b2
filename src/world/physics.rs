//! The physics group: balls under gravity bouncing elastically in a box. Their total energy
//! should stay constant; how far it wanders shows how a large or varying time step makes a
//! simulation unstable.

use glam::Vec2;
use oorandom::Rand32;

/// Gravity in pixels per second squared (down is +y on screen).
pub const GRAVITY: f32 = 900.0;

/// Balls in an axis-aligned box, integrated with semi-implicit Euler.
#[derive(Clone, Debug, PartialEq)]
pub struct Balls {
    pub pos: Vec<Vec2>,
    pub prev: Vec<Vec2>,
    pub vel: Vec<Vec2>,
    /// Top-left and bottom-right corners of the box; the floor is `hi.y`.
    pub lo: Vec2,
    pub hi: Vec2,
    /// Total energy at the start, per unit mass.
    pub initial_energy: f64,
}

impl Balls {
    /// `count` balls dropped from random heights in the box, drifting sideways.
    pub fn new(count: usize, lo: Vec2, hi: Vec2, rng: &mut Rand32) -> Self {
        let mut pos = Vec::with_capacity(count);
        let mut vel = Vec::with_capacity(count);
        for i in 0..count {
            let x = lo.x + (i as f32 + 0.5) / count as f32 * (hi.x - lo.x);
            let y = lo.y + (0.05 + 0.5 * rng.rand_float()) * (hi.y - lo.y);
            pos.push(Vec2::new(x, y));
            vel.push(Vec2::new((rng.rand_float() - 0.5) * 120.0, 0.0));
        }
        let mut balls = Self {
            prev: pos.clone(),
            pos,
            vel,
            lo,
            hi,
            initial_energy: 0.0,
        };
        balls.initial_energy = balls.energy();
        balls
    }

    /// One step of `dt` seconds: gravity, then motion, then reflection off the walls.
    pub fn step(&mut self, dt: f32) {
        let (lo, hi) = (self.lo, self.hi);
        for ((p, q), v) in self.pos.iter_mut().zip(&mut self.prev).zip(&mut self.vel) {
            *q = *p;
            v.y += GRAVITY * dt;
            *p += *v * dt;
            for axis in 0..2 {
                // A step can be longer than the box: reflect until inside.
                for _ in 0..8 {
                    if p[axis] > hi[axis] {
                        p[axis] = 2.0 * hi[axis] - p[axis];
                        v[axis] = -v[axis].abs();
                    } else if p[axis] < lo[axis] {
                        p[axis] = 2.0 * lo[axis] - p[axis];
                        v[axis] = v[axis].abs();
                    } else {
                        break;
                    }
                }
                p[axis] = p[axis].clamp(lo[axis], hi[axis]);
            }
        }
    }

    /// Kinetic plus potential energy of all balls, per unit mass, in double precision.
    pub fn energy(&self) -> f64 {
        self.pos
            .iter()
            .zip(&self.vel)
            .map(|(p, v)| {
                0.5 * v.as_dvec2().length_squared() + GRAVITY as f64 * (self.hi.y - p.y) as f64
            })
            .sum()
    }

    /// Relative change of the total energy since the start: 0 is perfect.
    pub fn energy_drift(&self) -> f64 {
        if self.initial_energy == 0.0 {
            return 0.0;
        }
        (self.energy() - self.initial_energy) / self.initial_energy
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn balls() -> Balls {
        Balls::new(
            8,
            Vec2::new(0.0, 0.0),
            Vec2::new(400.0, 300.0),
            &mut Rand32::new(3),
        )
    }

    #[test]
    fn balls_fall_bounce_and_stay_in_the_box() {
        let mut b = balls();
        let start_y = b.pos[0].y;
        b.step(1.0 / 60.0);
        assert!(b.pos[0].y > start_y, "gravity pulls down (+y)");
        for _ in 0..6000 {
            b.step(1.0 / 60.0);
            for p in &b.pos {
                assert!(p.x >= 0.0 && p.x <= 400.0 && p.y >= 0.0 && p.y <= 300.0);
            }
        }
    }

    #[test]
    fn energy_holds_with_small_steps_and_wanders_with_large_ones() {
        // Same 100 seconds of game time, at 1 ms and at 100 ms steps.
        let mut fine = balls();
        for _ in 0..100_000 {
            fine.step(0.001);
        }
        let mut coarse = balls();
        for _ in 0..1_000 {
            coarse.step(0.1);
        }
        let (f, c) = (fine.energy_drift().abs(), coarse.energy_drift().abs());
        assert!(f < 0.02, "1 ms steps keep energy within 2%: {f}");
        assert!(c > 5.0 * f, "100 ms steps drift far more: {c} vs {f}");
    }
}
