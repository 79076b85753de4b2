//! The ship a person steers. Its input is a [`Steer`] (which arrow keys are held) that the
//! world applies in each fixed update, as in the texts' `processInput(); update(); render();`:
//! at 10 updates a second the ship moves in 10 steps a second and answers a key up to a step
//! late, whatever the frame rate. It flies at a constant speed while a key is held and stops
//! when none is, so an extrapolated view overshoots every stop and turn.

use glam::Vec2;

use super::layout::Region;

/// Ship speed in world pixels per second.
pub const SHIP_SPEED: f32 = 420.0;

/// Which way the held keys point: each axis -1, 0 or 1 (y down).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Steer {
    pub x: i8,
    pub y: i8,
}

impl Steer {
    /// No key held.
    pub const NONE: Steer = Steer { x: 0, y: 0 };

    /// From the four held directions; opposite keys cancel.
    pub fn from_held(left: bool, right: bool, up: bool, down: bool) -> Self {
        Self {
            x: i8::from(right) - i8::from(left),
            y: i8::from(down) - i8::from(up),
        }
    }

    /// The unit direction (diagonals as fast as straight moves); zero when none.
    pub fn direction(self) -> Vec2 {
        let d = Vec2::new(f32::from(self.x), f32::from(self.y));
        if self.x != 0 && self.y != 0 {
            d * std::f32::consts::FRAC_1_SQRT_2
        } else {
            d
        }
    }
}

/// The ship: a body that moves where it is steered, inside `bounds`.
#[derive(Clone, Debug, PartialEq)]
pub struct Ship {
    pub pos: Vec2,
    pub prev: Vec2,
    pub vel: Vec2,
    pub bounds: Region,
    /// The input the next update applies.
    pub steer: Steer,
    /// World pixels flown so far.
    pub travelled: f64,
}

impl Ship {
    /// A ship at rest at `pos`, kept inside `bounds`.
    pub fn new(pos: Vec2, bounds: Region) -> Self {
        Self {
            pos,
            prev: pos,
            vel: Vec2::ZERO,
            bounds,
            steer: Steer::NONE,
            travelled: 0.0,
        }
    }

    /// One update of `dt` seconds under the current steer. At an edge the ship stops on that
    /// axis, and so does its velocity (an extrapolated view does not fly through the edge).
    pub fn step(&mut self, dt: f32) {
        self.prev = self.pos;
        self.vel = self.steer.direction() * SHIP_SPEED;
        let wanted = self.pos + self.vel * dt;
        self.pos = wanted.clamp(self.bounds.min, self.bounds.max);
        for axis in 0..2 {
            if self.pos[axis] != wanted[axis] {
                self.vel[axis] = 0.0;
            }
        }
        self.travelled += f64::from((self.pos - self.prev).length());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ship() -> Ship {
        Ship::new(Vec2::new(100.0, 100.0), Region::new(0.0, 0.0, 200.0, 200.0))
    }

    #[test]
    fn moves_only_while_steered() {
        let mut s = ship();
        s.step(0.1);
        assert_eq!(s.pos, Vec2::new(100.0, 100.0));
        s.steer = Steer::from_held(false, true, false, false);
        s.step(0.1);
        assert_eq!(s.pos, Vec2::new(142.0, 100.0));
        assert_eq!(s.vel, Vec2::new(SHIP_SPEED, 0.0));
        assert_eq!(s.prev, Vec2::new(100.0, 100.0));
        s.steer = Steer::NONE;
        s.step(0.1);
        assert_eq!((s.pos, s.vel), (Vec2::new(142.0, 100.0), Vec2::ZERO));
        assert!((s.travelled - 42.0).abs() < 1e-4);
    }

    #[test]
    fn diagonals_are_as_fast_and_opposites_cancel() {
        let d = Steer::from_held(true, false, true, false).direction();
        assert!((d.length() - 1.0).abs() < 1e-6);
        assert!(d.x < 0.0 && d.y < 0.0, "left and up: {d}");
        assert_eq!(Steer::from_held(true, true, false, false), Steer::NONE);
    }

    #[test]
    fn stops_at_the_edge_with_no_velocity_through_it() {
        let mut s = ship();
        s.steer = Steer::from_held(false, false, false, true);
        for _ in 0..10 {
            s.step(0.1);
        }
        assert_eq!(s.pos.y, 200.0);
        assert_eq!(s.vel, Vec2::ZERO);
    }
}
