//! The thin wall and the darts thrown at it. The collision check is discrete, as in most
//! simple games: a dart that is inside the wall after a step bounces; a dart that jumps
//! clean over it in one step has tunnelled. With the default 60 Hz step a dart moves less
//! than the wall is thick and never tunnels; a large variable step lets it through.

use glam::Vec2;
use oorandom::Rand32;

/// Dart speed in pixels per second: 10 px per 60 Hz step.
pub const DART_SPEED: f32 = 600.0;
/// Wall thickness in pixels: thicker than a 60 Hz step of a dart, thinner than a 30 Hz one.
pub const WALL_THICKNESS: f32 = 12.0;

/// Relaunched darts start up to this far past the launch line.
const LAUNCH_SPREAD: f32 = 40.0;

/// A vertical wall from `top` to `bottom` at `x..x + thickness`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Wall {
    pub x: f32,
    pub thickness: f32,
    pub top: f32,
    pub bottom: f32,
}

/// Darts launched at the wall from `launch_x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Darts {
    pub pos: Vec<Vec2>,
    pub prev: Vec<Vec2>,
    pub vel: Vec<Vec2>,
    pub wall: Wall,
    pub launch_x: f32,
    /// Right edge past which a tunnelled dart is relaunched.
    pub far_x: f32,
    /// Darts stopped by the wall.
    pub hits: u64,
    /// Darts that passed through it.
    pub tunnels: u64,
}

impl Darts {
    /// `count` darts spread over the launch line.
    pub fn new(count: usize, wall: Wall, launch_x: f32, far_x: f32, rng: &mut Rand32) -> Self {
        let mut darts = Self {
            pos: vec![],
            prev: vec![],
            vel: vec![],
            wall,
            launch_x,
            far_x,
            hits: 0,
            tunnels: 0,
        };
        for i in 0..count {
            let x = launch_x + (wall.x - launch_x) * i as f32 / count.max(1) as f32;
            let y = darts.random_y(rng);
            darts.pos.push(Vec2::new(x, y));
            darts.vel.push(Vec2::new(DART_SPEED, 0.0));
        }
        darts.prev = darts.pos.clone();
        darts
    }

    fn random_y(&self, rng: &mut Rand32) -> f32 {
        let margin = 10.0;
        self.wall.top
            + margin
            + rng.rand_float() * (self.wall.bottom - self.wall.top - 2.0 * margin)
    }

    /// One step of `dt` seconds with a discrete collision check against the wall.
    pub fn step(&mut self, dt: f32, rng: &mut Rand32) {
        let w = self.wall;
        for i in 0..self.pos.len() {
            let before = self.pos[i];
            self.prev[i] = before;
            let mut p = before + self.vel[i] * dt;
            if self.vel[i].x > 0.0 && before.x < w.x {
                if p.x >= w.x && p.x <= w.x + w.thickness {
                    p.x = 2.0 * w.x - p.x;
                    self.vel[i].x = -self.vel[i].x;
                    self.hits += 1;
                } else if p.x > w.x + w.thickness {
                    self.tunnels += 1;
                }
            }
            let gone = p.x > self.far_x || (self.vel[i].x < 0.0 && p.x < self.launch_x);
            if gone {
                // A random start along the launch line, so the step grid does not always
                // meet the wall at the same phase.
                let x = self.launch_x + rng.rand_float() * LAUNCH_SPREAD;
                p = Vec2::new(x, self.random_y(rng));
                self.vel[i] = Vec2::new(DART_SPEED, 0.0);
                self.prev[i] = p;
            }
            self.pos[i] = p;
        }
    }

    /// Share of the darts that reached the wall and went through it.
    pub fn tunnel_fraction(&self) -> f64 {
        let total = self.hits + self.tunnels;
        if total == 0 {
            0.0
        } else {
            self.tunnels as f64 / total as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn darts() -> Darts {
        let wall = Wall {
            x: 500.0,
            thickness: WALL_THICKNESS,
            top: 0.0,
            bottom: 100.0,
        };
        Darts::new(6, wall, 100.0, 800.0, &mut Rand32::new(9))
    }

    #[test]
    fn sixty_hertz_steps_never_tunnel() {
        let mut d = darts();
        let mut rng = Rand32::new(1);
        for _ in 0..60 * 30 {
            d.step(1.0 / 60.0, &mut rng);
        }
        assert!(d.hits > 50);
        assert_eq!(d.tunnels, 0);
    }

    #[test]
    fn large_steps_tunnel_through() {
        let mut d = darts();
        let mut rng = Rand32::new(1);
        for _ in 0..20 * 30 {
            d.step(1.0 / 20.0, &mut rng); // 30 px a step through a 12 px wall
        }
        assert!(d.tunnels > 10);
        let f = d.tunnel_fraction();
        assert!(f > 0.3 && f < 0.9, "about (30-12)/30 of them: {f}");
    }

    #[test]
    fn a_bounced_dart_comes_back_and_is_relaunched() {
        let mut d = darts();
        let mut rng = Rand32::new(1);
        d.pos[0] = Vec2::new(495.0, 50.0);
        d.step(1.0 / 60.0, &mut rng);
        assert_eq!(d.pos[0].x, 495.0, "reflected off the face at 500");
        assert!(d.vel[0].x < 0.0);
        for _ in 0..60 {
            d.step(1.0 / 60.0, &mut rng);
        }
        assert!(
            d.vel[0].x > 0.0,
            "relaunched after flying back past the launch line"
        );
    }
}
