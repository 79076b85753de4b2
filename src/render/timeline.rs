//! The timeline strip as sprite-pipeline shapes: the pure model's [`strip_pieces`] placed
//! in the strip's region of the screen. The words (row names, the
//! legend, how far behind the game is) are the overlay's.

use super::shapes::{Shape, ShapeInstance, marker, segment};
use crate::session::timeline::Strip;
use crate::view::timeline::{StripGeometry, StripPiece, strip_pieces};
use crate::world::layout::{CAPTION_HEIGHT, Region};

/// Width of the row names on the strip's left.
pub const LABEL_WIDTH: f32 = 48.0;

/// The strip's rows in its region of the screen: the caption band above, the row names on
/// the left.
pub fn geometry(region: Region) -> StripGeometry {
    StripGeometry::within(region.inset(LABEL_WIDTH, CAPTION_HEIGHT + 4.0, 8.0, 6.0))
}

/// Appends the strip's shapes for `region` to `out`.
pub fn strip_shapes(strip: &Strip, region: Region, out: &mut Vec<ShapeInstance>) {
    let mut pieces: Vec<StripPiece> = Vec::with_capacity(strip.marks.len() + 2);
    strip_pieces(strip, &geometry(region), &mut pieces);
    out.extend(pieces.iter().map(|p| match *p {
        StripPiece::Rect { area, colour } => {
            marker(area.centre(), area.size(), colour, Shape::Rect)
        }
        StripPiece::Line {
            from,
            to,
            width,
            colour,
        } => segment(from, to, width, colour),
    }));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::timeline::{Mark, MarkKind};
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
        let g = geometry(region);
        assert!(region.contains(&g.plot) && !g.real.overlaps(&g.game));
        let colour = |k: MarkKind| k.colour();
        let find = |k| out.iter().position(|s| s.color == colour(k)).unwrap();
        let update = out[find(MarkKind::Update { of: 2 })];
        assert_eq!(update.pos[0], g.plot.min.x + 0.5 * g.plot.size().x);
        assert_eq!(update.pos[1], g.real.centre().y);
        assert_eq!(out[find(MarkKind::GameUpdate)].pos[1], g.game.centre().y);
        let render = out[find(MarkKind::Render)];
        assert_eq!(render.size[0], g.plot.size().x, "a span covers its time");
        // The render span is drawn before the update tick on it.
        assert!(find(MarkKind::Render) < find(MarkKind::Update { of: 2 }));
    }
}
