//! The timeline strip's picture: where its marks go inside a rectangle, and their colours.
//! The window draws these pieces with its sprite pipeline, the lab writes them into its SVG;
//! what the marks are is the session's model ([`crate::session::timeline`]).

use glam::Vec2;

use crate::session::timeline::{Mark, MarkKind, Strip};
use crate::world::layout::Region;

impl MarkKind {
    /// The colour (RGBA) the mark is drawn in, in the window, its legend and the lab's SVG.
    pub fn colour(self) -> [u8; 4] {
        match self {
            MarkKind::Wait => [95, 95, 110, 255],
            MarkKind::Input => [90, 225, 255, 255],
            MarkKind::Update { of } => update_colour(of),
            MarkKind::Render => [80, 140, 255, 255],
            MarkKind::Queue => [255, 120, 190, 255],
            MarkKind::Present => [175, 115, 255, 255],
            MarkKind::GpuLost => [255, 90, 20, 255],
            MarkKind::Deadline => [255, 255, 255, 150],
            MarkKind::Dropped => [235, 70, 60, 255],
            MarkKind::GameUpdate => [90, 200, 110, 255],
            MarkKind::Shown => [255, 255, 255, 230],
            MarkKind::Link => [150, 150, 165, 150],
        }
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

/// Where a strip's rows are inside the rectangle its marks span.
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
    /// The rows of a strip whose marks span `plot`: real time on top, game time at the
    /// bottom, the links between them.
    pub fn within(plot: Region) -> Self {
        let h = plot.size().y;
        let real = Region::new(plot.min.x, plot.min.y, plot.max.x, plot.min.y + h * 0.42);
        let game = Region::new(plot.min.x, plot.max.y - h * 0.26, plot.max.x, plot.max.y);
        Self { plot, real, game }
    }

    fn x(&self, f: f32) -> f32 {
        self.plot.min.x + f * self.plot.size().x
    }
}

/// A piece of a strip's picture: a filled rectangle, or a straight line (the links between
/// the rows, which a rectangle per dot would make many times as costly to draw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StripPiece {
    Rect {
        area: Region,
        colour: [u8; 4],
    },
    Line {
        from: Vec2,
        to: Vec2,
        width: f32,
        colour: [u8; 4],
    },
}

impl StripPiece {
    pub fn colour(&self) -> [u8; 4] {
        match *self {
            StripPiece::Rect { colour, .. } | StripPiece::Line { colour, .. } => colour,
        }
    }
}

/// The strip's picture inside `g`: row baselines, the spans, then the ticks and links over
/// them. The window draws it with its sprite pipeline, the lab into its SVG.
pub fn strip_pieces(strip: &Strip, g: &StripGeometry, out: &mut Vec<StripPiece>) {
    // Each row's baseline, a line rather than a fill: a software rasteriser pays for every
    // pixel a rectangle covers.
    for row in [g.real, g.game] {
        out.push(StripPiece::Rect {
            area: Region::new(row.min.x, row.max.y, row.max.x, row.max.y + 1.0),
            colour: [255, 255, 255, 40],
        });
    }
    let is_span = |m: &&Mark| m.kind.is_span();
    let spans = strip.marks.iter().filter(is_span);
    let ticks = strip.marks.iter().filter(|m| !is_span(m));
    for m in spans.chain(ticks) {
        out.push(mark_piece(m, g));
    }
}

fn mark_piece(m: &Mark, g: &StripGeometry) -> StripPiece {
    let colour = m.kind.colour();
    let rect = |centre: Vec2, size: Vec2| {
        let half = size * 0.5;
        StripPiece::Rect {
            area: Region {
                min: centre - half,
                max: centre + half,
            },
            colour,
        }
    };
    let real = g.real;
    let (top, h) = (real.min.y, real.size().y);
    let (x0, x1) = (g.x(m.from), g.x(m.to));
    let span = |y0: f32, y1: f32| {
        let w = (x1 - x0).max(1.0);
        rect(
            Vec2::new(x0 + w * 0.5, (y0 + y1) * 0.5),
            Vec2::new(w, y1 - y0),
        )
    };
    match m.kind {
        MarkKind::Wait => span(top + h * 0.45, top + h * 0.55),
        MarkKind::Render | MarkKind::Queue | MarkKind::Present => {
            span(top + h * 0.3, top + h * 0.7)
        }
        // Taller than a frame's own bars: nothing of the loop's ran in it.
        MarkKind::GpuLost => span(top + h * 0.1, top + h * 0.9),
        MarkKind::Update { .. } => rect(Vec2::new(x0, real.centre().y), Vec2::new(2.0, h)),
        MarkKind::Input => rect(Vec2::new(x0, top - 1.0), Vec2::splat(6.0)),
        MarkKind::Deadline => rect(Vec2::new(x0, real.centre().y), Vec2::new(1.0, h + 6.0)),
        MarkKind::Dropped => rect(Vec2::new(x0, real.max.y + 3.0), Vec2::splat(6.0)),
        MarkKind::GameUpdate => rect(
            Vec2::new(x0, g.game.centre().y),
            Vec2::new(2.0, g.game.size().y),
        ),
        MarkKind::Shown => rect(Vec2::new(x0, g.game.max.y - 3.0), Vec2::splat(5.0)),
        MarkKind::Link => StripPiece::Line {
            from: Vec2::new(x0, real.max.y + 2.0),
            to: Vec2::new(x1, g.game.min.y - 2.0),
            width: 1.0,
            colour,
        },
    }
}
