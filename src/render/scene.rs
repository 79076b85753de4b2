//! What the GPU is given each frame, computed without a GPU: the view transform, the blend
//! that applies the strategy's view in the shader, and the instances of everything but the
//! bullet stream: the demonstrations' regions, the ship, the metronome and its wall-clock
//! marker, balls, darts, wall, ghosts and the timeline strip.

use std::time::Duration;

use glam::Vec2;

use super::shapes::{BULLET_SIZE, Globals, Shape, ShapeInstance, ViewTransform, marker};
use super::sprites::SpriteFrame;
use super::timeline::strip_shapes;
use crate::session::timeline::Strip;
use crate::world::World;
use crate::world::layout::{CAPTION_HEIGHT, LAYOUT};
use looplab_timing::View;

/// Uniforms for the ghost pass: every straight bullet at its exact position at `game_now`.
/// A straight bullet's state is exact at the world's time, so its truth at `game_now` is its
/// position plus its velocity times the time owed.
pub fn ghost_globals(transform: &ViewTransform, world: &World, game_now: Duration) -> Globals {
    let (scale, offset) = transform.clip_transform();
    let owed = game_now.saturating_sub(world.time()).as_secs_f32();
    Globals {
        scale,
        offset,
        blend: [0.0, owed],
        bullet_size: BULLET_SIZE * 1.6,
        _pad: 0,
    }
}

const METRONOME: [u8; 4] = [255, 255, 255, 255];
const MARKER: [u8; 4] = [255, 90, 90, 230];
const GHOST: [u8; 4] = [255, 255, 255, 140];
const BALL: [u8; 4] = [120, 170, 255, 255];
/// Darts are long gold bars, unlike the round bullets; one that went through the wall turns
/// magenta and grows, so a tunnel is seen at once.
const DART: [u8; 4] = [255, 205, 60, 255];
pub const DART_THROUGH: [u8; 4] = [255, 60, 210, 255];
const WALL: [u8; 4] = [200, 200, 210, 255];
const FRAME_LINE: [u8; 4] = [90, 90, 110, 255];
pub const SHIP: [u8; 4] = [110, 255, 170, 255];
/// A demonstration's region's border.
const REGION_BORDER: [u8; 4] = [52, 56, 76, 255];

fn body(prev: Vec2, pos: Vec2, vel: Vec2, size: f32, color: [u8; 4]) -> ShapeInstance {
    ShapeInstance {
        prev: prev.to_array(),
        pos: pos.to_array(),
        vel: vel.to_array(),
        size: [size, size],
        color,
        shape: Shape::Sprite as u32,
    }
}

/// Colour of the overlay's panels.
const PANEL: [u8; 4] = [22, 24, 32, 248];

/// Backgrounds for overlay panels given as surface-pixel rectangles (min, max). They are
/// drawn by the sprite pipeline rather than by egui: a software rasteriser fills a large
/// egui window several times slower than one plain quad.
pub fn panel_backgrounds(
    transform: &ViewTransform,
    panels: &[(Vec2, Vec2)],
    out: &mut Vec<ShapeInstance>,
) {
    out.clear();
    for &(min, max) in panels {
        let (a, b) = (transform.to_world(min), transform.to_world(max));
        out.push(marker((a + b) * 0.5, b - a, PANEL, Shape::Rect));
    }
}

/// What a frame of the world shows, beside the world itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SceneView {
    /// The planner's view (latest, interpolated or extrapolated).
    pub view: View,
    /// The update step the view blends over.
    pub step: Duration,
    /// The game-clock instant the frame shows.
    pub game_now: Duration,
    /// The game time the wall-clock marker shows.
    pub reference: Duration,
    /// Draw ghosts: true positions at `game_now`.
    pub ghosts: bool,
}

/// The sprite frame of `world` as `showing` says, with the timeline `strip` when it is
/// shown, placed on the target by `transform`: the one place a world becomes sprites, for
/// the window, the bench and the tests. `shapes` is scratch space kept between frames.
pub fn sprite_frame<'a>(
    world: &'a World,
    showing: &SceneView,
    strip: Option<&Strip>,
    transform: ViewTransform,
    shapes: &'a mut Vec<ShapeInstance>,
) -> SpriteFrame<'a> {
    let behind = build_shapes(world, showing, shapes);
    // The strip comes last: plain rectangles and lines, drawn with the cheaper pipeline.
    let plain_from = shapes.len();
    if let Some(strip) = strip {
        strip_shapes(strip, LAYOUT.timeline, shapes);
    }
    let bullets = &world.bullets;
    SpriteFrame {
        ghosts: showing
            .ghosts
            .then(|| ghost_globals(&transform, world, showing.game_now)),
        shapes,
        behind,
        plain_from,
        // Under the caption band the stream is not drawn, so its words stay readable.
        clip: Some(LAYOUT.stream.inset(0.0, CAPTION_HEIGHT, 0.0, 0.0)),
        ..SpriteFrame::bullets(
            &bullets.prev,
            &bullets.pos,
            &bullets.vel,
            transform,
            showing.view,
            showing.step,
        )
    }
}

/// The regions' borders, drawn under everything else. The fill is the clear colour: a
/// software rasteriser pays for every pixel a quad covers, and quads filling the regions
/// cost more than all the bullets at 2000.
fn region_borders(out: &mut Vec<ShapeInstance>) {
    let regions = [
        LAYOUT.stream,
        LAYOUT.metronome,
        LAYOUT.balls,
        LAYOUT.wall,
        LAYOUT.timeline,
    ];
    for r in regions {
        let (min, max, size) = (r.min, r.max, r.size());
        let lines = [
            (Vec2::new(r.centre().x, min.y), Vec2::new(size.x + 1.0, 1.0)),
            (Vec2::new(r.centre().x, max.y), Vec2::new(size.x + 1.0, 1.0)),
            (Vec2::new(min.x, r.centre().y), Vec2::new(1.0, size.y + 1.0)),
            (Vec2::new(max.x, r.centre().y), Vec2::new(1.0, size.y + 1.0)),
        ];
        for (at, size) in lines {
            out.push(marker(at, size, REGION_BORDER, Shape::Rect));
        }
    }
}

fn rect_body(prev: Vec2, pos: Vec2, vel: Vec2, size: Vec2, color: [u8; 4]) -> ShapeInstance {
    ShapeInstance {
        size: size.to_array(),
        shape: Shape::Rect as u32,
        ..body(prev, pos, vel, 0.0, color)
    }
}

/// Fills `out` with everything but the stream bullets and the timeline strip; returns how
/// many of them (the regions' borders, first: plain rectangles) go under the bullets.
pub fn build_shapes(world: &World, showing: &SceneView, out: &mut Vec<ShapeInstance>) -> usize {
    out.clear();
    region_borders(out);
    let behind = out.len();
    let m = &world.metronome;
    let track = Vec2::new((m.left + m.right) * 0.5, m.pos.y);
    out.push(marker(
        track,
        Vec2::new(m.right - m.left, 2.0),
        FRAME_LINE,
        Shape::Rect,
    ));
    let b = &world.balls;
    let centre = (b.lo + b.hi) * 0.5;
    let size = b.hi - b.lo;
    out.push(marker(
        Vec2::new(centre.x, b.hi.y + 3.0),
        Vec2::new(size.x + 12.0, 2.0),
        FRAME_LINE,
        Shape::Rect,
    ));
    let w = world.darts.wall;
    out.push(marker(
        Vec2::new(w.x + w.thickness * 0.5, (w.top + w.bottom) * 0.5),
        Vec2::new(w.thickness, w.bottom - w.top),
        WALL,
        Shape::Rect,
    ));

    out.push(marker(
        world.metronome_truth(showing.reference),
        Vec2::splat(26.0),
        MARKER,
        Shape::Ring,
    ));
    out.push(body(m.prev, m.pos, m.vel, 16.0, METRONOME));
    if showing.ghosts {
        out.push(marker(
            world.metronome_truth(showing.game_now),
            Vec2::splat(22.0),
            GHOST,
            Shape::Ring,
        ));
    }
    for i in 0..b.pos.len() {
        out.push(body(b.prev[i], b.pos[i], b.vel[i], 14.0, BALL));
    }
    let d = &world.darts;
    for i in 0..d.pos.len() {
        let (size, colour) = if dart_through(world, i) {
            (Vec2::new(24.0, 7.0), DART_THROUGH)
        } else {
            (Vec2::new(18.0, 4.0), DART)
        };
        out.push(rect_body(d.prev[i], d.pos[i], d.vel[i], size, colour));
    }
    let ship = &world.ship;
    out.push(ShapeInstance {
        shape: Shape::Ship as u32,
        size: [22.0, 26.0],
        ..body(ship.prev, ship.pos, ship.vel, 0.0, SHIP)
    });
    behind
}

/// Whether dart `i` has gone through the wall (it is past it, still flying away).
pub fn dart_through(world: &World, i: usize) -> bool {
    let d = &world.darts;
    d.pos[i].x > d.wall.x + d.wall.thickness && d.vel[i].x > 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::shapes::{EXACT, uniform_blend};
    use crate::world::{WORLD_SIZE, WorldConfig};

    #[test]
    fn panels_cover_their_pixels_in_world_space() {
        let t = ViewTransform::new(WORLD_SIZE, 640, 640);
        let mut out = vec![];
        panel_backgrounds(
            &t,
            &[(Vec2::new(10.0, 150.0), Vec2::new(110.0, 200.0))],
            &mut out,
        );
        let p = out[0];
        assert_eq!(
            t.to_pixel(Vec2::from(p.pos) - Vec2::from(p.size) * 0.5),
            Vec2::new(10.0, 150.0)
        );
        assert_eq!(
            t.to_pixel(Vec2::from(p.pos) + Vec2::from(p.size) * 0.5),
            Vec2::new(110.0, 200.0)
        );
        assert_eq!(p.shape, Shape::Rect as u32 | EXACT);
    }

    #[test]
    fn ghosts_sit_on_the_truth() {
        let mut world = World::new(&WorldConfig {
            seed: 2,
            bullets: 50,
        });
        let step = Duration::from_nanos(16_666_667);
        for _ in 0..30 {
            world.step(step);
        }
        let game_now = world.time() + step / 3;
        let t = ViewTransform::new(WORLD_SIZE, 1280, 720);
        let g = ghost_globals(&t, &world, game_now);
        for i in 0..50 {
            let (prev, pos, vel) = (
                world.bullets.prev[i],
                world.bullets.pos[i],
                world.bullets.vel[i],
            );
            let ghost = uniform_blend(g.blend).apply(prev, pos, vel);
            let truth = world.bullet_truth(i, game_now).unwrap();
            assert!((ghost - truth).length() < 0.05);
        }
    }

    #[test]
    fn shapes_include_every_body_and_the_marker() {
        let world = World::new(&WorldConfig {
            seed: 2,
            bullets: 10,
        });
        let showing = |reference, ghosts| SceneView {
            view: View::Latest,
            step: Duration::from_millis(16),
            game_now: Duration::ZERO,
            reference,
            ghosts,
        };
        let mut shapes = vec![];
        let behind = build_shapes(&world, &showing(Duration::from_secs(1), false), &mut shapes);
        assert!(
            shapes[..behind].iter().all(|s| s.shape & EXACT != 0),
            "backdrops"
        );
        let bodies = 2 + world.balls.pos.len() + world.darts.pos.len();
        let markers = shapes.iter().filter(|s| s.shape & EXACT != 0).count();
        assert_eq!(
            shapes.len() - markers,
            bodies,
            "ship, metronome, balls, darts"
        );
        let marker = shapes.iter().find(|s| s.color == MARKER).unwrap();
        assert_eq!(
            marker.pos,
            world.metronome_truth(Duration::from_secs(1)).to_array()
        );
        let ship = shapes
            .iter()
            .find(|s| s.shape == Shape::Ship as u32)
            .unwrap();
        assert_eq!(ship.pos, world.ship.pos.to_array());
        let mut with_ghosts = vec![];
        build_shapes(&world, &showing(Duration::ZERO, true), &mut with_ghosts);
        assert_eq!(with_ghosts.len(), shapes.len() + 1);
        assert_eq!(std::mem::size_of::<ShapeInstance>(), 40);
        assert_eq!(std::mem::size_of::<Globals>(), 32);
    }

    #[test]
    fn a_dart_through_the_wall_is_drawn_apart() {
        let mut world = World::new(&WorldConfig {
            seed: 2,
            bullets: 0,
        });
        let wall = world.darts.wall;
        world.darts.pos[0].x = wall.x + wall.thickness + 20.0;
        world.darts.prev[0] = world.darts.pos[0];
        let showing = SceneView {
            view: View::Latest,
            step: Duration::from_millis(16),
            game_now: Duration::ZERO,
            reference: Duration::ZERO,
            ghosts: false,
        };
        let mut shapes = vec![];
        build_shapes(&world, &showing, &mut shapes);
        let through: Vec<_> = shapes.iter().filter(|s| s.color == DART_THROUGH).collect();
        assert_eq!(through.len(), 1);
        assert_eq!(through[0].pos, world.darts.pos[0].to_array());
        assert!(
            through[0].size[0] > through[0].size[1] * 2.0,
            "a long bar, not a bullet"
        );
        assert!(dart_through(&world, 0) && !dart_through(&world, 1));
    }
}
