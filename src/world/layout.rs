//! Where each demonstration lives on the logical 1280x720 screen: the overlay's column on
//! the left, the bullet stream, the metronome's lane, the balls' box, the wall with its
//! darts, and the timeline strip along the bottom. Each has a region of its own, so nothing
//! is hidden under the stream or the overlay; the world places its bodies in these regions
//! and the window draws captions over them.

use glam::Vec2;

use super::WORLD_SIZE;

/// An axis-aligned rectangle in world pixels (y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    pub min: Vec2,
    pub max: Vec2,
}

impl Region {
    pub const fn new(x0: f32, y0: f32, x1: f32, y1: f32) -> Self {
        Self {
            min: Vec2::new(x0, y0),
            max: Vec2::new(x1, y1),
        }
    }

    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    pub fn centre(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// The point `(fx, fy)` of the way across and down.
    pub fn at(&self, fx: f32, fy: f32) -> Vec2 {
        self.min + self.size() * Vec2::new(fx, fy)
    }

    /// The region shrunk by `left`, `top`, `right` and `bottom` pixels.
    pub fn inset(&self, left: f32, top: f32, right: f32, bottom: f32) -> Self {
        Self {
            min: self.min + Vec2::new(left, top),
            max: self.max - Vec2::new(right, bottom),
        }
    }

    /// True when the two share any area (touching edges do not count).
    pub fn overlaps(&self, other: &Region) -> bool {
        self.min.x < other.max.x
            && other.min.x < self.max.x
            && self.min.y < other.max.y
            && other.min.y < self.max.y
    }

    /// True when `other` lies wholly inside.
    pub fn contains(&self, other: &Region) -> bool {
        self.min.cmple(other.min).all() && other.max.cmple(self.max).all()
    }
}

/// Height of the caption band at the top of each demonstration's region.
pub const CAPTION_HEIGHT: f32 = 18.0;

/// The regions of the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// The overlay's column: the status panel stays inside it.
    pub panel: Region,
    /// The bullet stream and the ship.
    pub stream: Region,
    /// The metronome's track, with its wall-clock marker.
    pub metronome: Region,
    /// The box of bouncing balls.
    pub balls: Region,
    /// The thin wall and the darts thrown at it.
    pub wall: Region,
    /// The live timeline of the loop.
    pub timeline: Region,
}

/// The one layout, in world pixels of a 1280x720 screen.
pub const LAYOUT: Layout = Layout {
    panel: Region::new(8.0, 8.0, 316.0, 596.0),
    stream: Region::new(324.0, 8.0, 1272.0, 372.0),
    metronome: Region::new(324.0, 380.0, 1272.0, 436.0),
    balls: Region::new(324.0, 444.0, 716.0, 596.0),
    wall: Region::new(724.0, 444.0, 1272.0, 596.0),
    timeline: Region::new(8.0, 604.0, 1272.0, 712.0),
};

impl Layout {
    /// Every region with its name, the overlay's column first.
    pub fn regions(&self) -> [(&'static str, Region); 6] {
        [
            ("overlay", self.panel),
            ("stream", self.stream),
            ("metronome", self.metronome),
            ("balls", self.balls),
            ("wall", self.wall),
            ("timeline", self.timeline),
        ]
    }

    /// The screen the regions are laid out on.
    pub fn screen(&self) -> Region {
        Region::new(0.0, 0.0, WORLD_SIZE.x, WORLD_SIZE.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_on_screen_and_apart() {
        let regions = LAYOUT.regions();
        for (i, (name, a)) in regions.iter().enumerate() {
            assert!(LAYOUT.screen().contains(a), "{name} is on screen");
            assert!(a.size().min_element() > 40.0, "{name} has room");
            for (other, b) in &regions[i + 1..] {
                assert!(!a.overlaps(b), "{name} and {other} overlap");
            }
        }
    }

    #[test]
    fn overlap_and_containment() {
        let a = Region::new(0.0, 0.0, 10.0, 10.0);
        assert!(a.overlaps(&Region::new(9.0, 9.0, 20.0, 20.0)));
        assert!(
            !a.overlaps(&Region::new(10.0, 0.0, 20.0, 10.0)),
            "edges touch"
        );
        assert!(a.contains(&a.inset(1.0, 2.0, 3.0, 4.0)));
        assert_eq!(a.inset(1.0, 2.0, 3.0, 4.0).size(), Vec2::new(6.0, 4.0));
        assert_eq!(a.at(0.5, 0.25), Vec2::new(5.0, 2.5));
    }
}
