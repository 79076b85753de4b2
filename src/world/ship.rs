//! The ship a person steers. Each fixed update gives it a [`ShipInput`]: how much of the
//! update each arrow was held (the thrust), and how many dashes to make. At 10 updates a
//! second the ship moves in 10 steps a second and answers a key up to a step late, whatever
//! the frame rate; a 30 ms tap moves it 30 ms worth. It flies at a constant speed while a
//! key is held and stops when none is, so an extrapolated view overshoots every stop and turn.
//! A dash (a one-shot action) jumps it ahead by [`DASH_DISTANCE`].

use glam::Vec2;

use super::layout::Region;

/// Ship speed in world pixels per second.
pub const SHIP_SPEED: f32 = 420.0;

/// How far a dash jumps the ship, world pixels.
pub const DASH_DISTANCE: f32 = 48.0;

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

/// What one update gives the ship.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShipInput {
    /// Thrust on each axis (y down), at most 1 long: the held arrows' direction, weighted by
    /// the share of the update each was held.
    pub thrust: Vec2,
    /// Dashes to make in this update.
    pub dashes: u32,
}

impl ShipInput {
    /// No thrust, no dash.
    pub const NONE: ShipInput = ShipInput {
        thrust: Vec2::ZERO,
        dashes: 0,
    };
}

impl From<Steer> for ShipInput {
    /// The held arrows for the whole update.
    fn from(steer: Steer) -> Self {
        Self {
            thrust: steer.direction(),
            dashes: 0,
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
    pub input: ShipInput,
    /// Where the ship last flew (a unit vector): the way a dash goes.
    pub heading: Vec2,
    /// World pixels flown so far, dashes not counted.
    pub travelled: f64,
    /// Dashes made so far.
    pub dashes: u64,
}

impl Ship {
    /// A ship at rest at `pos`, kept inside `bounds`.
    pub fn new(pos: Vec2, bounds: Region) -> Self {
        Self {
            pos,
            prev: pos,
            vel: Vec2::ZERO,
            bounds,
            input: ShipInput::NONE,
            heading: Vec2::X,
            travelled: 0.0,
            dashes: 0,
        }
    }

    /// One update of `dt` seconds under the current input: the dashes first, then the
    /// flight. At an edge the ship stops on that axis, and so does its velocity (an
    /// extrapolated view does not fly through the edge).
    pub fn step(&mut self, dt: f32) {
        self.prev = self.pos;
        let thrust = self.input.thrust.clamp_length_max(1.0);
        if thrust != Vec2::ZERO {
            self.heading = thrust.normalize();
        }
        for _ in 0..self.input.dashes {
            self.pos =
                (self.pos + self.heading * DASH_DISTANCE).clamp(self.bounds.min, self.bounds.max);
            self.dashes += 1;
        }
        let from = self.pos;
        self.vel = thrust * SHIP_SPEED;
        let wanted = self.pos + self.vel * dt;
        self.pos = wanted.clamp(self.bounds.min, self.bounds.max);
        for axis in 0..2 {
            if self.pos[axis] != wanted[axis] {
                self.vel[axis] = 0.0;
            }
        }
        self.travelled += f64::from((self.pos - from).length());
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
        s.input = Steer::from_held(false, true, false, false).into();
        s.step(0.1);
        assert_eq!(s.pos, Vec2::new(142.0, 100.0));
        assert_eq!(s.vel, Vec2::new(SHIP_SPEED, 0.0));
        assert_eq!(s.prev, Vec2::new(100.0, 100.0));
        s.input = ShipInput::NONE;
        s.step(0.1);
        assert_eq!((s.pos, s.vel), (Vec2::new(142.0, 100.0), Vec2::ZERO));
        assert!((s.travelled - 42.0).abs() < 1e-4);
    }

    #[test]
    fn a_share_of_thrust_moves_that_share_and_a_dash_jumps_along_the_heading() {
        let mut s = ship();
        s.input = ShipInput {
            thrust: Vec2::new(0.3, 0.0),
            dashes: 0,
        };
        s.step(0.1);
        assert!((s.pos.x - (100.0 + 0.3 * 42.0)).abs() < 1e-4, "{}", s.pos);
        s.input = ShipInput {
            thrust: Vec2::ZERO,
            dashes: 1,
        };
        s.step(0.1);
        assert!(
            (s.pos.x - (112.6 + DASH_DISTANCE)).abs() < 1e-3,
            "{}",
            s.pos
        );
        assert_eq!((s.dashes, s.vel), (1, Vec2::ZERO));
        assert!((s.travelled - 12.6).abs() < 1e-3, "a dash is no flight");
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
        s.input = Steer::from_held(false, false, false, true).into();
        for _ in 0..10 {
            s.step(0.1);
        }
        assert_eq!(s.pos.y, 200.0);
        assert_eq!(s.vel, Vec2::ZERO);
    }
}
