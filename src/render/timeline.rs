//! The timeline strip as sprite-pipeline rectangles: the marks of a
//! [`Strip`](crate::session::timeline::Strip) placed in the strip's region. The words (row
//! names, the legend, how far behind the game is) are the overlay's.

use glam::Vec2;

use super::scene::{Shape, ShapeInstance, marker};
use crate::session::timeline::{Mark, MarkKind, Strip};
use crate::world::layout::{CAPTION_HEIGHT, Region};

/// Width of the row names on the strip's left.
pub const LABEL_WIDTH: f32 = 48.0;

/// Where the strip's parts are, inside its region.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StripGeometry {
    /// The area the marks span, left to right.
    pub plot: Region,
    /// The real-time row.
    pub real: Region,
    /// The game-time row.
    pub game: Region,
}

impl StripGeometry {
    pub fn new(region: Region) -> Self {
        let plot = region.inset(LABEL_WIDTH, CAPTION_HEIGHT + 4.0, 8.0, 6.0);
        let h = plot.size().y;
        let real = Region::new(plot.min.x, plot.min.y, plot.max.x, plot.min.y + h * 0.42);
        let game = Region::new(plot.min.x, plot.max.y - h * 0.26, plot.max.x, plot.max.y);
        Self { plot, real, game }
    }

    fn x(&self, f: f32) -> f32 {
        self.plot.min.x + f * self.plot.size().x
    }
}

/// The colour each mark is drawn in; the overlay's legend and the lab's SVG use the same.
pub fn mark_colour(kind: MarkKind) -> [u8; 4] {
    match kind {
        MarkKind::Wait => [95, 95, 110, 255],
        MarkKind::Input => [90, 225, 255, 255],
        MarkKind::Update { of } => update_colour(of),
        MarkKind::Render => [80, 140, 255, 255],
        MarkKind::Present => [175, 115, 255, 255],
        MarkKind::Deadline => [255, 255, 255, 150],
        MarkKind::Dropped => [235, 70, 60, 255],
        MarkKind::GameUpdate => [90, 200, 110, 255],
        MarkKind::Shown => [255, 255, 255, 230],
        MarkKind::Link => [150, 150, 165, 150],
    }
}

/// An update's colour by how many its frame ran: one green, two yellow, more orange, ten or
/// more (the default limit) red; as the frame-time graph colours its bars.
pub fn update_colour(of: u32) -> [u8; 4] {
    match of {
        0 => [110, 110, 110, 255],
        1 => [90, 200, 110, 255],
        2 => [230, 210, 80, 255],
        3..=9 => [240, 150, 60, 255],
        _ => [235, 70, 60, 255],
    }
}

/// Dots drawn along each link.
const LINK_DOTS: u32 = 5;

/// Appends the strip's shapes for `region` to `out`: row backgrounds, then the marks.
pub fn strip_shapes(strip: &Strip, region: Region, out: &mut Vec<ShapeInstance>) {
    let g = StripGeometry::new(region);
    for row in [g.real, g.game] {
        out.push(marker(
            row.centre(),
            row.size(),
            [255, 255, 255, 14],
            Shape::Rect,
        ));
    }
    // Spans first, ticks over them.
    let order = |m: &&Mark| {
        !matches!(
            m.kind,
            MarkKind::Wait | MarkKind::Render | MarkKind::Present
        )
    };
    let (spans, ticks): (Vec<&Mark>, Vec<&Mark>) = strip.marks.iter().partition(|m| !order(m));
    for m in spans.into_iter().chain(ticks) {
        mark_shape(m, &g, out);
    }
}

fn mark_shape(m: &Mark, g: &StripGeometry, out: &mut Vec<ShapeInstance>) {
    let colour = mark_colour(m.kind);
    let real = g.real;
    let h = real.size().y;
    let (x0, x1) = (g.x(m.from), g.x(m.to));
    let span = |y0: f32, y1: f32, out: &mut Vec<ShapeInstance>| {
        let w = (x1 - x0).max(1.0);
        out.push(marker(
            Vec2::new(x0 + w * 0.5, (y0 + y1) * 0.5),
            Vec2::new(w, y1 - y0),
            colour,
            Shape::Rect,
        ));
    };
    let top = real.min.y;
    match m.kind {
        MarkKind::Wait => span(top + h * 0.45, top + h * 0.55, out),
        MarkKind::Render | MarkKind::Present => span(top + h * 0.3, top + h * 0.7, out),
        MarkKind::Update { .. } => out.push(marker(
            Vec2::new(x0, real.centre().y),
            Vec2::new(2.0, h),
            colour,
            Shape::Rect,
        )),
        MarkKind::Input => out.push(marker(
            Vec2::new(x0, top - 1.0),
            Vec2::splat(6.0),
            colour,
            Shape::Rect,
        )),
        MarkKind::Deadline => out.push(marker(
            Vec2::new(x0, real.centre().y),
            Vec2::new(1.0, h + 6.0),
            colour,
            Shape::Rect,
        )),
        MarkKind::Dropped => out.push(marker(
            Vec2::new(x0, real.max.y + 3.0),
            Vec2::splat(6.0),
            colour,
            Shape::Rect,
        )),
        MarkKind::GameUpdate => out.push(marker(
            Vec2::new(x0, g.game.centre().y),
            Vec2::new(2.0, g.game.size().y),
            colour,
            Shape::Rect,
        )),
        MarkKind::Shown => out.push(marker(
            Vec2::new(x0, g.game.max.y - 3.0),
            Vec2::splat(5.0),
            colour,
            Shape::Rect,
        )),
        MarkKind::Link => {
            let (a, b) = (
                Vec2::new(x0, real.max.y + 2.0),
                Vec2::new(x1, g.game.min.y - 2.0),
            );
            for i in 0..LINK_DOTS {
                let t = (i as f32 + 0.5) / LINK_DOTS as f32;
                out.push(marker(a.lerp(b, t), Vec2::splat(1.5), colour, Shape::Rect));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn marks_land_inside_their_rows() {
        let region = Region::new(0.0, 600.0, 1000.0, 710.0);
        let strip = Strip {
            marks: vec![
                Mark {
                    kind: MarkKind::Update { of: 2 },
                    from: 0.5,
                    to: 0.5,
                },
                Mark {
                    kind: MarkKind::GameUpdate,
                    from: 0.25,
                    to: 0.25,
                },
                Mark {
                    kind: MarkKind::Render,
                    from: 0.0,
                    to: 1.0,
                },
            ],
            end: Duration::from_secs(2),
            span: Duration::from_secs(1),
            behind: 0.0,
        };
        let mut out = vec![];
        strip_shapes(&strip, region, &mut out);
        let g = StripGeometry::new(region);
        assert!(region.contains(&g.plot) && !g.real.overlaps(&g.game));
        let update = out.iter().find(|s| s.color == update_colour(2)).unwrap();
        assert_eq!(update.pos[0], g.plot.min.x + 0.5 * g.plot.size().x);
        assert_eq!(update.pos[1], g.real.centre().y);
        let game = out
            .iter()
            .find(|s| s.color == mark_colour(MarkKind::GameUpdate))
            .unwrap();
        assert_eq!(game.pos[1], g.game.centre().y);
        let render = out
            .iter()
            .find(|s| s.color == mark_colour(MarkKind::Render))
            .unwrap();
        assert_eq!(render.size[0], g.plot.size().x, "a span covers its time");
        // The render span is drawn before the update tick on it.
        let index = |c| out.iter().position(|s| s.color == c).unwrap();
        assert!(index(mark_colour(MarkKind::Render)) < index(update_colour(2)));
    }
}
