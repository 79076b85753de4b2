//! The bullet stream: straight-flying bullets in structure-of-arrays form.
//!
//! The hot arrays (`pos`, `prev`, `vel`) are separate, contiguous `Vec2` slices so one update
//! is a streaming pass the compiler vectorizes, and so the renderer can upload them as they
//! are. The cold arrays (`origin`, `born`) are read only on respawn and when the exact truth
//! is asked for.

use glam::Vec2;
use oorandom::Rand32;

use super::emitters::Emitter;

/// Bullets are checked for leaving the screen this many at a time: the check of a chunk is
/// a vectorized "any out?" and the rare respawn work happens outside the tight loop.
const CHUNK: usize = 64;

/// Straight-flying bullets. Bullet `i` is `(pos[i], prev[i], vel[i], origin[i], born[i])`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bullets {
    /// Position after the last update, in pixels.
    pub pos: Vec<Vec2>,
    /// Position before the last update (for interpolation).
    pub prev: Vec<Vec2>,
    /// Velocity in pixels per second; constant over a bullet's life.
    pub vel: Vec<Vec2>,
    /// Where the bullet was at `born`.
    pub origin: Vec<Vec2>,
    /// Game time in nanoseconds when it was at `origin` (negative for the bullets placed in
    /// flight at the start).
    pub born: Vec<i64>,
    /// Indices that left the screen in the last update; kept to reuse the allocation.
    leaving: Vec<u32>,
}

impl Bullets {
    /// Number of bullets.
    pub fn len(&self) -> usize {
        self.pos.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// Adds a bullet that was at `origin` at game time `born` and is now at `pos`.
    pub fn push(&mut self, origin: Vec2, vel: Vec2, born: i64, pos: Vec2) {
        self.pos.push(pos);
        self.prev.push(pos);
        self.vel.push(vel);
        self.origin.push(origin);
        self.born.push(born);
    }

    /// Makes these bullets a copy of `source`, reusing the arrays' memory.
    pub fn copy_from(&mut self, source: &Bullets) {
        self.pos.clone_from(&source.pos);
        self.prev.clone_from(&source.prev);
        self.vel.clone_from(&source.vel);
        self.origin.clone_from(&source.origin);
        self.born.clone_from(&source.born);
        self.leaving.clear();
    }

    /// Keeps the first `n` bullets.
    pub fn truncate(&mut self, n: usize) {
        self.pos.truncate(n);
        self.prev.truncate(n);
        self.vel.truncate(n);
        self.origin.truncate(n);
        self.born.truncate(n);
    }

    /// Moves every bullet by `vel * dt` and respawns the ones that left `bounds` from their
    /// emitter (bullet `i` belongs to emitter `i % emitters.len()`), born at `now`.
    pub fn step(
        &mut self,
        dt: f32,
        bounds: (Vec2, Vec2),
        now: i64,
        emitters: &mut [Emitter],
        rng: &mut Rand32,
    ) {
        let (lo, hi) = bounds;
        self.leaving.clear();
        let chunks = self
            .pos
            .chunks_mut(CHUNK)
            .zip(self.prev.chunks_mut(CHUNK))
            .zip(self.vel.chunks(CHUNK));
        for (c, ((pos, prev), vel)) in chunks.enumerate() {
            let mut out = false;
            for ((p, q), v) in pos.iter_mut().zip(prev.iter_mut()).zip(vel) {
                *q = *p;
                let next = *p + *v * dt;
                *p = next;
                out |= (next.x < lo.x) | (next.x > hi.x) | (next.y < lo.y) | (next.y > hi.y);
            }
            if out {
                let base = c * CHUNK;
                for (i, p) in pos.iter().enumerate() {
                    if !(lo.x..=hi.x).contains(&p.x) || !(lo.y..=hi.y).contains(&p.y) {
                        self.leaving.push((base + i) as u32);
                    }
                }
            }
        }
        if emitters.is_empty() {
            return;
        }
        for k in 0..self.leaving.len() {
            let i = self.leaving[k] as usize;
            let (origin, vel) = emitters[i % emitters.len()].fire(rng);
            self.pos[i] = origin;
            self.prev[i] = origin;
            self.vel[i] = vel;
            self.origin[i] = origin;
            self.born[i] = now;
        }
    }

    /// The exact position of bullet `i` at game time `t_ns`, from its origin and velocity in
    /// double precision; `None` if it was not yet born then.
    pub fn truth(&self, i: usize, t_ns: i64) -> Option<Vec2> {
        let age = t_ns - self.born[i];
        if age < 0 {
            return None;
        }
        let secs = age as f64 * 1e-9;
        let o = self.origin[i].as_dvec2();
        let v = self.vel[i].as_dvec2();
        Some((o + v * secs).as_vec2())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::emitters::Pattern;

    fn emitter() -> Vec<Emitter> {
        vec![Emitter::new(Pattern::Spiral {
            center: Vec2::new(50.0, 50.0),
            arms: 1,
            turn_per_shot: 0.0,
            speed: 10.0,
        })]
    }

    #[test]
    fn step_moves_by_velocity_and_remembers_the_previous_position() {
        let mut b = Bullets::default();
        for i in 0..200 {
            b.push(Vec2::ZERO, Vec2::new(i as f32, 2.0), 0, Vec2::new(1.0, 1.0));
        }
        let bounds = (Vec2::splat(-1e6), Vec2::splat(1e6));
        b.step(
            0.5,
            bounds,
            500_000_000,
            &mut emitter(),
            &mut Rand32::new(1),
        );
        for i in 0..200 {
            assert_eq!(b.prev[i], Vec2::new(1.0, 1.0));
            assert_eq!(b.pos[i], Vec2::new(1.0 + 0.5 * i as f32, 2.0));
        }
    }

    #[test]
    fn bullets_leaving_the_bounds_respawn_at_their_emitter() {
        let mut b = Bullets::default();
        // Bullet 70 (in the second chunk) is about to leave; the others stay.
        for i in 0..100 {
            let v = if i == 70 {
                Vec2::new(100.0, 0.0)
            } else {
                Vec2::ZERO
            };
            b.push(Vec2::ZERO, v, 0, Vec2::new(95.0, 10.0));
        }
        let bounds = (Vec2::ZERO, Vec2::splat(100.0));
        b.step(0.1, bounds, 100, &mut emitter(), &mut Rand32::new(1));
        assert_eq!(b.pos[70], Vec2::new(50.0, 50.0));
        assert_eq!(
            b.prev[70],
            Vec2::new(50.0, 50.0),
            "no streak from the old position"
        );
        assert_eq!(b.vel[70], Vec2::new(10.0, 0.0));
        assert_eq!((b.origin[70], b.born[70]), (Vec2::new(50.0, 50.0), 100));
        assert_eq!(b.pos[69], Vec2::new(95.0, 10.0));
    }

    #[test]
    fn truth_is_exact_and_undefined_before_birth() {
        let mut b = Bullets::default();
        b.push(
            Vec2::new(10.0, 20.0),
            Vec2::new(300.0, -60.0),
            1_000_000_000,
            Vec2::ZERO,
        );
        assert_eq!(b.truth(0, 0), None);
        assert_eq!(b.truth(0, 1_000_000_000), Some(Vec2::new(10.0, 20.0)));
        assert_eq!(b.truth(0, 1_500_000_000), Some(Vec2::new(160.0, -10.0)));
    }
}
