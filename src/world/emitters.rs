//! Emitters: where bullets come from and which way they fly.
//!
//! Directions use `libm`'s pure-Rust `sinf`/`cosf` rather than the target's, so a spawn
//! pattern (and with it the state hash) is the same on every machine.

use glam::Vec2;
use oorandom::Rand32;

use super::layout::Region;

/// A spawn pattern.
#[derive(Clone, Debug, PartialEq)]
pub enum Pattern {
    /// Arms rotating around a centre, like a bullet-hell boss.
    Spiral {
        center: Vec2,
        arms: u32,
        turn_per_shot: f32,
        speed: f32,
    },
    /// A spread of shots around a heading, from a point, with random speeds.
    Fan {
        origin: Vec2,
        heading: f32,
        spread: f32,
        speed: (f32, f32),
    },
    /// Drops falling from random points along a horizontal line.
    Rain {
        y: f32,
        x_range: (f32, f32),
        speed: (f32, f32),
    },
}

/// An emitter: a pattern and how many shots it has fired, which drives the pattern.
#[derive(Clone, Debug, PartialEq)]
pub struct Emitter {
    pub pattern: Pattern,
    pub shots: u64,
}

impl Emitter {
    pub fn new(pattern: Pattern) -> Self {
        Self { pattern, shots: 0 }
    }

    /// Fires one shot: its start position and velocity (pixels per second).
    pub fn fire(&mut self, rng: &mut Rand32) -> (Vec2, Vec2) {
        let n = self.shots;
        self.shots += 1;
        match self.pattern {
            Pattern::Spiral {
                center,
                arms,
                turn_per_shot,
                speed,
            } => {
                let arm = (n % arms.max(1) as u64) as f32;
                let turn = (n / arms.max(1) as u64) as f32 * turn_per_shot;
                let angle = turn + arm * std::f32::consts::TAU / arms.max(1) as f32;
                (center, direction(angle) * speed)
            }
            Pattern::Fan {
                origin,
                heading,
                spread,
                speed,
            } => {
                let angle = heading + (rng.rand_float() - 0.5) * spread;
                (origin, direction(angle) * between(rng, speed))
            }
            Pattern::Rain { y, x_range, speed } => {
                let x = between(rng, x_range);
                (Vec2::new(x, y), Vec2::new(0.0, between(rng, speed)))
            }
        }
    }
}

/// The default set of emitters for the stream's `region`: a spiral in its middle, fans from
/// both sides and rain from the top.
pub fn default_emitters(region: Region) -> Vec<Emitter> {
    use std::f32::consts::PI;
    let (min, max) = (region.min, region.max);
    vec![
        Emitter::new(Pattern::Spiral {
            center: region.at(0.5, 0.45),
            arms: 5,
            turn_per_shot: 0.21,
            speed: 170.0,
        }),
        Emitter::new(Pattern::Fan {
            origin: Vec2::new(min.x, region.at(0.0, 0.3).y),
            heading: 0.0,
            spread: PI / 3.0,
            speed: (180.0, 320.0),
        }),
        Emitter::new(Pattern::Fan {
            origin: Vec2::new(max.x, region.at(0.0, 0.5).y),
            heading: PI,
            spread: PI / 4.0,
            speed: (140.0, 260.0),
        }),
        Emitter::new(Pattern::Rain {
            y: min.y,
            x_range: (region.at(0.05, 0.0).x, region.at(0.95, 0.0).x),
            speed: (110.0, 210.0),
        }),
    ]
}

/// A unit vector at `angle` radians.
pub fn direction(angle: f32) -> Vec2 {
    Vec2::new(libm::cosf(angle), libm::sinf(angle))
}

/// A uniform random value in `[lo, hi)`.
pub fn between(rng: &mut Rand32, (lo, hi): (f32, f32)) -> f32 {
    lo + rng.rand_float() * (hi - lo)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spiral_arms_are_evenly_spaced_and_turn_each_round() {
        let mut e = Emitter::new(Pattern::Spiral {
            center: Vec2::ZERO,
            arms: 4,
            turn_per_shot: 0.5,
            speed: 100.0,
        });
        let mut rng = Rand32::new(1);
        let shots: Vec<Vec2> = (0..8).map(|_| e.fire(&mut rng).1).collect();
        for v in &shots {
            assert!((v.length() - 100.0).abs() < 1e-3);
        }
        // Shots 0-3 point at 0, 90, 180, 270 degrees.
        assert!((shots[0] - Vec2::new(100.0, 0.0)).length() < 1e-3);
        assert!((shots[1] - Vec2::new(0.0, 100.0)).length() < 1e-3);
        // The next round is turned by 0.5 rad.
        assert!((shots[4] - direction(0.5) * 100.0).length() < 1e-3);
    }

    #[test]
    fn fan_and_rain_stay_in_their_ranges() {
        let mut rng = Rand32::new(7);
        let mut fan = Emitter::new(Pattern::Fan {
            origin: Vec2::new(1.0, 2.0),
            heading: 0.0,
            spread: 1.0,
            speed: (10.0, 20.0),
        });
        let mut rain = Emitter::new(Pattern::Rain {
            y: 5.0,
            x_range: (0.0, 50.0),
            speed: (1.0, 2.0),
        });
        for _ in 0..1000 {
            let (o, v) = fan.fire(&mut rng);
            assert_eq!(o, Vec2::new(1.0, 2.0));
            assert!((10.0..20.0).contains(&v.length()) || (v.length() - 20.0).abs() < 1e-3);
            assert!(v.y.atan2(v.x).abs() <= 0.5 + 1e-6);
            let (o, v) = rain.fire(&mut rng);
            assert!(o.y == 5.0 && (0.0..50.0).contains(&o.x));
            assert!(v.x == 0.0 && (1.0..2.0).contains(&v.y));
        }
    }

    #[test]
    fn libm_directions_are_bit_exact_reference_values() {
        // Pure-Rust libm gives these bits everywhere; the target's libm need not.
        assert_eq!(direction(0.0), Vec2::new(1.0, 0.0));
        assert_eq!(direction(1.0).x.to_bits(), 0.540_302_3_f32.to_bits());
        assert_eq!(direction(1.0).y.to_bits(), 0.841_470_96_f32.to_bits());
    }
}
