//! Compare mode's picture: each lane's world drawn small in its own tile, all in one sprite
//! frame (one instance buffer, one render pass). A lane's strategy view is applied on the
//! CPU and its positions moved into its tile, so every lane shares the frame's uniforms;
//! each lane's bullets are one draw clipped to its own stream.

use glam::Vec2;

use super::scene::{self, SceneView};
use super::shapes::{EXACT, Shape, ShapeInstance, ViewTransform, marker};
use super::sprites::{BulletGroup, SpriteFrame};
use crate::world::World;
use crate::world::layout::{CAPTION_HEIGHT, LAYOUT, Region};
use looplab_timing::View;

/// The part of the world a lane shows: the demonstrations, without the overlay column and
/// the timeline.
pub const LANE_CROP: Region = Region {
    min: Vec2::new(324.0, 8.0),
    max: Vec2::new(1272.0, 596.0),
};

/// The window area the lanes share: everything right of the overlay column.
pub const LANES_AREA: Region = Region {
    min: Vec2::new(324.0, 8.0),
    max: Vec2::new(1272.0, 712.0),
};

/// The area the lanes share with the overlay hidden: the whole screen but its margin.
pub const LANES_AREA_WITHOUT_OVERLAY: Region = Region {
    min: Vec2::new(8.0, 8.0),
    max: Vec2::new(1272.0, 712.0),
};

/// The area the lanes share, with the overlay's column shown or not.
pub fn area(overlay: bool) -> Region {
    if overlay {
        LANES_AREA
    } else {
        LANES_AREA_WITHOUT_OVERLAY
    }
}

/// Where compare mode's `n` lanes go: beside the overlay's column, lined up with its top,
/// or, with the overlay hidden, over the whole screen and centred on it.
pub fn lane_tiles(n: usize, overlay: bool) -> Vec<Region> {
    let area = area(overlay);
    let mut tiles = tiles(n, area);
    if !overlay {
        let bottom = tiles.iter().map(|t| t.max.y).fold(area.min.y, f32::max);
        let down = Vec2::new(0.0, ((area.max.y - bottom) * 0.5).max(0.0));
        for t in &mut tiles {
            *t = Region {
                min: t.min + down,
                max: t.max + down,
            };
        }
    }
    tiles
}

/// Gap between tiles, world pixels.
const GAP: f32 = 8.0;

/// Height of a line of a lane's caption, world pixels (12-point words).
const CAPTION_LINE: f32 = 14.0;

/// How many lines a lane's caption takes in a tile this wide: its head and its figures on
/// one line, on two, or (narrow tiles) with the figures split over two.
pub fn caption_lines(width: f32) -> usize {
    if width >= 700.0 {
        1
    } else if width >= 400.0 {
        2
    } else {
        3
    }
}

/// The band a caption of `lines` lines takes at the top of a tile.
pub fn caption_band(lines: usize) -> f32 {
    4.0 + CAPTION_LINE * lines as f32
}

/// How the tiles of `n` lanes share `area`: in the grid (columns and rows) that shows the
/// lanes' scenes largest, each tile exactly its caption band and its scene, the grid at the
/// top of the area and centred across it.
pub fn tiles(n: usize, area: Region) -> Vec<Region> {
    let n = n.max(1);
    let crop = LANE_CROP.size();
    let size = area.size();
    // For every grid, the largest scene that fits a cell with the caption its width needs.
    let grids = (1..=n).flat_map(|cols| {
        let rows = n.div_ceil(cols);
        let cell = Vec2::new(
            (size.x - GAP * (cols - 1) as f32) / cols as f32,
            (size.y - GAP * (rows - 1) as f32) / rows as f32,
        );
        (1..=3).filter_map(move |lines| {
            let zoom = (cell.x / crop.x).min((cell.y - caption_band(lines)) / crop.y);
            (zoom > 0.0 && caption_lines(crop.x * zoom) <= lines)
                .then_some((zoom, cols, rows, lines))
        })
    });
    let Some((zoom, cols, rows)) = grids
        .map(|(zoom, cols, rows, _)| (zoom, cols, rows))
        .max_by(|a, b| a.0.total_cmp(&b.0))
    else {
        return vec![area; n];
    };
    // The caption takes the lines its width needs (a scene limited by the cell's width fits
    // with a band of more lines too).
    let band = caption_band(caption_lines(crop.x * zoom));
    let tile = Vec2::new(crop.x * zoom, band + crop.y * zoom);
    let grid = Vec2::new(
        tile.x * cols as f32 + GAP * (cols - 1) as f32,
        tile.y * rows as f32 + GAP * (rows - 1) as f32,
    );
    // Centred across, from the top: the lanes line up with the overlay's column.
    let origin = area.min + Vec2::new((size.x - grid.x) * 0.5, 0.0);
    (0..n)
        .map(|i| {
            let (c, r) = ((i % cols) as f32, (i / cols) as f32);
            let min = origin + Vec2::new(c * (tile.x + GAP), r * (tile.y + GAP));
            Region {
                min,
                max: min + tile,
            }
        })
        .collect()
}

/// Where a lane's world lands in the window: the crop scaled into its tile, below its
/// caption band, keeping its shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LaneView {
    pub tile: Region,
    pub zoom: f32,
    /// Where the crop's top left lands.
    pub origin: Vec2,
}

impl LaneView {
    pub fn new(tile: Region) -> Self {
        let band = caption_band(caption_lines(tile.size().x));
        let room = tile.inset(0.0, band, 0.0, 0.0);
        let crop = LANE_CROP.size();
        let zoom = (room.size().x / crop.x).min(room.size().y / crop.y);
        let origin = Vec2::new(room.centre().x - crop.x * zoom * 0.5, room.min.y);
        Self { tile, zoom, origin }
    }

    /// A world point of the lane's world, in the window.
    pub fn place(&self, p: Vec2) -> Vec2 {
        self.origin + (p - LANE_CROP.min) * self.zoom
    }

    /// A region of the lane's world, in the window.
    pub fn region(&self, r: Region) -> Region {
        Region {
            min: self.place(r.min),
            max: self.place(r.max),
        }
    }
}

/// What one lane shows.
pub struct LanePicture<'a> {
    pub world: &'a World,
    pub showing: SceneView,
    pub view: LaneView,
    pub selected: bool,
}

/// Scratch kept between frames.
#[derive(Default)]
pub struct LanesScratch {
    pos: Vec<Vec2>,
    zeros: Vec<Vec2>,
    shapes: Vec<ShapeInstance>,
    bodies: Vec<ShapeInstance>,
    groups: Vec<BulletGroup>,
}

/// Colour of a lane's frame; brighter when the lane is selected.
const TILE: [u8; 4] = [70, 78, 100, 255];
const TILE_SELECTED: [u8; 4] = [255, 210, 90, 255];

/// The sprite frame of every lane, placed on the target by `transform`.
pub fn lanes_frame<'a>(
    lanes: &[LanePicture],
    transform: ViewTransform,
    step: std::time::Duration,
    scratch: &'a mut LanesScratch,
) -> SpriteFrame<'a> {
    let s = scratch;
    s.pos.clear();
    s.shapes.clear();
    s.groups.clear();
    for lane in lanes {
        let outline = if lane.selected { TILE_SELECTED } else { TILE };
        frame_of(lane.view.tile, outline, &mut s.shapes);
    }
    let behind = s.shapes.len();
    for lane in lanes {
        let (world, v) = (lane.world, &lane.view);
        let blend = lane.showing.view.blend(lane.showing.step);
        let b = &world.bullets;
        let first = s.pos.len() as u32;
        s.pos.extend(
            b.prev
                .iter()
                .zip(&b.pos)
                .zip(&b.vel)
                .map(|((&q, &p), &vel)| v.place(blend.apply(q, p, vel))),
        );
        s.groups.push(BulletGroup {
            range: first..s.pos.len() as u32,
            clip: Some(v.region(LAYOUT.stream.inset(0.0, CAPTION_HEIGHT, 0.0, 0.0))),
        });
        // The bodies as the window draws them, then placed: the view applied here, sizes
        // scaled, and the regions' borders redrawn in the tile.
        let borders = scene::build_shapes(world, &lane.showing, &mut s.bodies);
        for r in [LAYOUT.stream, LAYOUT.metronome, LAYOUT.balls, LAYOUT.wall] {
            frame_of(v.region(r), [44, 48, 62, 255], &mut s.shapes);
        }
        s.shapes.extend(s.bodies[borders..].iter().map(|shape| {
            let at = if shape.shape & EXACT != 0 {
                Vec2::from(shape.pos)
            } else {
                blend.apply(shape.prev.into(), shape.pos.into(), shape.vel.into())
            };
            marker(
                v.place(at),
                Vec2::from(shape.size) * v.zoom,
                shape.color,
                shape_of(shape.shape & 0xff),
            )
        }));
    }
    s.zeros.clear();
    s.zeros.resize(s.pos.len(), Vec2::ZERO);
    let zoom = lanes.first().map_or(1.0, |l| l.view.zoom);
    let mut frame = SpriteFrame::bullets(&s.pos, &s.pos, &s.zeros, transform, View::Latest, step);
    frame.globals.bullet_size *= zoom;
    SpriteFrame {
        shapes: &s.shapes,
        behind,
        plain_from: s.shapes.len(),
        groups: &s.groups,
        ..frame
    }
}

fn shape_of(id: u32) -> Shape {
    match id {
        0 => Shape::Sprite,
        1 => Shape::Ring,
        3 => Shape::Ship,
        4 => Shape::Segment,
        _ => Shape::Rect,
    }
}

/// A one-pixel outline of `r`.
fn frame_of(r: Region, colour: [u8; 4], out: &mut Vec<ShapeInstance>) {
    let (c, size) = (r.centre(), r.size());
    for (at, s) in [
        (Vec2::new(c.x, r.min.y), Vec2::new(size.x + 1.0, 1.0)),
        (Vec2::new(c.x, r.max.y), Vec2::new(size.x + 1.0, 1.0)),
        (Vec2::new(r.min.x, c.y), Vec2::new(1.0, size.y + 1.0)),
        (Vec2::new(r.max.x, c.y), Vec2::new(1.0, size.y + 1.0)),
    ] {
        out.push(marker(at, s, colour, Shape::Rect));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_share_the_area_without_overlap() {
        for n in 2..=6 {
            let t = tiles(n, LANES_AREA);
            assert_eq!(t.len(), n);
            for (i, a) in t.iter().enumerate() {
                assert!(
                    LANES_AREA.inset(-0.5, -0.5, -0.5, -0.5).contains(a),
                    "{n}: {a:?}"
                );
                for b in &t[i + 1..] {
                    assert!(!a.overlaps(b), "{n}: {a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn a_lanes_scene_fills_its_tile_below_its_caption() {
        for n in 2..=6 {
            for tile in tiles(n, LANES_AREA) {
                let v = LaneView::new(tile);
                let placed = v.region(LANE_CROP);
                let band = caption_band(caption_lines(tile.size().x));
                assert!(
                    tile.inset(-0.5, -0.5, -0.5, -0.5).contains(&placed),
                    "{placed:?} in {tile:?}"
                );
                // Scaled to the tile's width (and its height less the caption): no empty
                // strip beside or below it.
                assert!(
                    (placed.size().x - tile.size().x).abs() < 0.5,
                    "{n}: {placed:?} {tile:?}"
                );
                assert!((placed.min.y - (tile.min.y + band)).abs() < 0.01);
                assert!(
                    (placed.max.y - tile.max.y).abs() < 0.5,
                    "{n}: {placed:?} {tile:?}"
                );
            }
        }
        // Two lanes stacked show the world at a bit over half size; six, at a third.
        let two = LaneView::new(tiles(2, LANES_AREA)[0]);
        assert!((0.5..0.6).contains(&two.zoom), "{}", two.zoom);
        let six = LaneView::new(tiles(6, LANES_AREA)[0]);
        assert!((0.3..0.35).contains(&six.zoom), "{}", six.zoom);
    }

    #[test]
    fn with_the_overlay_hidden_the_lanes_take_the_whole_screen() {
        for n in 2..=6 {
            let beside = LaneView::new(tiles(n, area(true))[0]).zoom;
            let alone = LaneView::new(tiles(n, area(false))[0]).zoom;
            assert!(alone >= beside, "{n}: {alone} against {beside}");
            let placed = lane_tiles(n, false);
            for t in &placed {
                assert!(LANES_AREA_WITHOUT_OVERLAY.contains(t), "{n}: {t:?}");
            }
            // Centred: as much room above the grid as below it.
            let (top, bottom) = (placed[0].min.y, placed[n - 1].max.y);
            let (above, below) = (top - 8.0, 712.0 - bottom);
            assert!((above - below).abs() < 0.5, "{n}: {above} {below}");
            assert_eq!(
                lane_tiles(n, true),
                tiles(n, LANES_AREA),
                "beside the overlay"
            );
        }
        // Two lanes side by side at two thirds of the world's size, six at over two fifths.
        let two = LaneView::new(tiles(2, area(false))[0]);
        assert!((0.62..0.7).contains(&two.zoom), "{}", two.zoom);
        let six = LaneView::new(tiles(6, area(false))[0]);
        assert!((0.4..0.45).contains(&six.zoom), "{}", six.zoom);
    }

    #[test]
    fn narrow_tiles_take_more_caption_lines() {
        assert_eq!(caption_lines(948.0), 1);
        assert_eq!(caption_lines(500.0), 2);
        assert_eq!(caption_lines(310.0), 3);
        assert!(caption_band(3) > caption_band(1));
    }
}
