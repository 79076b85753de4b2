//! What the GPU is given each frame, computed without a GPU: the view transform, the blend
//! that applies the strategy's view in the shader, and the instances of everything but the
//! bullet stream: the demonstrations' regions, the ship, the metronome and its wall-clock
//! marker, balls, darts, wall, ghosts and the timeline strip.

use std::time::Duration;

use bytemuck::{Pod, Zeroable};
use glam::Vec2;

use super::sprites::SpriteFrame;
use super::timeline::strip_shapes;
use crate::session::timeline::Strip;
use crate::world::World;
use crate::world::layout::{CAPTION_HEIGHT, LAYOUT};
use looplab_timing::{Blend, View};

/// Side of a bullet quad in world pixels (an 8x8 sprite at 1280x720).
pub const BULLET_SIZE: f32 = 8.0;

/// Shapes the fragment shader knows (see `shaders/sprites.wgsl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Shape {
    Sprite = 0,
    Ring = 1,
    Rect = 2,
    /// A triangle pointing up.
    Ship = 3,
    /// A straight line from `prev` to `pos`, `size[0]` wide.
    Segment = 4,
}

/// Set in [`ShapeInstance::shape`]: draw at `pos` as given, ignoring the view's blend.
pub const EXACT: u32 = 256;

/// The shader's uniforms; layout matches `Globals` in `sprites.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Globals {
    pub scale: [f32; 2],
    pub offset: [f32; 2],
    pub blend: [f32; 2],
    pub bullet_size: f32,
    pub _pad: u32,
}

/// One body other than a stream bullet; layout matches `vs_shape`'s inputs.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct ShapeInstance {
    pub prev: [f32; 2],
    pub pos: [f32; 2],
    pub vel: [f32; 2],
    pub size: [f32; 2],
    pub color: [u8; 4],
    /// A [`Shape`], plus [`EXACT`] for markers placed by the CPU.
    pub shape: u32,
}

/// Maps world pixels onto a surface of `width` x `height`, keeping the world's aspect ratio
/// (letterboxing) and centring it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ViewTransform {
    /// Surface pixels per world pixel.
    pub zoom: f32,
    /// Surface pixel of the world's origin.
    pub origin: Vec2,
    pub surface: Vec2,
}

impl ViewTransform {
    pub fn new(world: Vec2, width: u32, height: u32) -> Self {
        let surface = Vec2::new(width.max(1) as f32, height.max(1) as f32);
        let zoom = (surface.x / world.x).min(surface.y / world.y);
        let origin = (surface - world * zoom) * 0.5;
        Self {
            zoom,
            origin,
            surface,
        }
    }

    /// The surface pixel (y down) of a world point.
    pub fn to_pixel(&self, world: Vec2) -> Vec2 {
        self.origin + world * self.zoom
    }

    /// The world point under a surface pixel.
    pub fn to_world(&self, pixel: Vec2) -> Vec2 {
        (pixel - self.origin) / self.zoom
    }

    /// `scale` and `offset` for the shader: `clip = world * scale + offset`.
    pub fn clip_transform(&self) -> ([f32; 2], [f32; 2]) {
        // pixel -> clip: x' = 2 px / W - 1, y' = 1 - 2 py / H.
        let scale = Vec2::new(
            2.0 * self.zoom / self.surface.x,
            -2.0 * self.zoom / self.surface.y,
        );
        let offset = Vec2::new(
            2.0 * self.origin.x / self.surface.x - 1.0,
            1.0 - 2.0 * self.origin.y / self.surface.y,
        );
        (scale.to_array(), offset.to_array())
    }
}

/// A view's blend as the shader's uniform: `[back, ahead]` (see the header of
/// `sprites.wgsl`, which applies the formula of [`Blend`]).
pub fn blend_uniform(blend: Blend) -> [f32; 2] {
    [blend.back, blend.ahead]
}

/// The blend a uniform holds.
pub fn uniform_blend(uniform: [f32; 2]) -> Blend {
    Blend {
        back: uniform[0],
        ahead: uniform[1],
    }
}

/// Writes each bullet's drawn position under `blend` (the formula the shader applies to the
/// other bodies) into `out`. One streaming pass that the compiler vectorizes.
pub fn blend_positions(prev: &[Vec2], pos: &[Vec2], vel: &[Vec2], blend: Blend, out: &mut [Vec2]) {
    if blend == Blend::LATEST {
        out.copy_from_slice(&pos[..out.len()]);
        return;
    }
    for (((o, &p), &q), &v) in out.iter_mut().zip(pos).zip(prev).zip(vel) {
        *o = blend.apply(q, p, v);
    }
}

/// Uniforms for drawing the bullets with `view`.
pub fn globals(transform: &ViewTransform, view: View, step: Duration) -> Globals {
    let (scale, offset) = transform.clip_transform();
    Globals {
        scale,
        offset,
        blend: blend_uniform(view.blend(step)),
        bullet_size: BULLET_SIZE,
        _pad: 0,
    }
}

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

/// A shape placed exactly at `at`, whatever the view.
pub(crate) fn marker(at: Vec2, size: Vec2, color: [u8; 4], shape: Shape) -> ShapeInstance {
    ShapeInstance {
        prev: at.to_array(),
        pos: at.to_array(),
        vel: [0.0, 0.0],
        size: size.to_array(),
        color,
        shape: shape as u32 | EXACT,
    }
}

/// A line from `from` to `to`, `width` wide, as one instance.
pub(crate) fn segment(from: Vec2, to: Vec2, width: f32, color: [u8; 4]) -> ShapeInstance {
    ShapeInstance {
        prev: from.to_array(),
        pos: to.to_array(),
        vel: [0.0, 0.0],
        size: [width, 0.0],
        color,
        shape: Shape::Segment as u32 | EXACT,
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
pub struct Showing {
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
    showing: &Showing,
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
pub fn build_shapes(world: &World, showing: &Showing, out: &mut Vec<ShapeInstance>) -> usize {
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
    use crate::world::{WORLD_SIZE, WorldConfig};

    #[test]
    fn letterbox_keeps_the_aspect_and_centres() {
        let t = ViewTransform::new(WORLD_SIZE, 1280, 720);
        assert_eq!(t.zoom, 1.0);
        assert_eq!(t.to_pixel(Vec2::new(100.0, 50.0)), Vec2::new(100.0, 50.0));
        // A square window: full width, bars above and below.
        let t = ViewTransform::new(WORLD_SIZE, 640, 640);
        assert_eq!(t.zoom, 0.5);
        assert_eq!(t.to_pixel(Vec2::ZERO), Vec2::new(0.0, 140.0));
        assert_eq!(t.to_pixel(WORLD_SIZE), Vec2::new(640.0, 500.0));
    }

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
    fn clip_transform_maps_world_corners_to_clip_corners() {
        let t = ViewTransform::new(WORLD_SIZE, 1280, 720);
        let (s, o) = t.clip_transform();
        let clip = |p: Vec2| Vec2::new(p.x * s[0] + o[0], p.y * s[1] + o[1]);
        assert_eq!(clip(Vec2::ZERO), Vec2::new(-1.0, 1.0));
        assert_eq!(clip(WORLD_SIZE), Vec2::new(1.0, -1.0));
    }

    #[test]
    fn the_uniform_reproduces_each_view() {
        let (prev, pos, vel) = (
            Vec2::new(10.0, 4.0),
            Vec2::new(20.0, 8.0),
            Vec2::new(600.0, 240.0),
        );
        let step = Duration::from_nanos(16_666_667);
        for view in [
            View::Latest,
            View::Interpolate { alpha: 0.3 },
            View::Extrapolate { alpha: 0.7 },
        ] {
            // What sprites.wgsl computes from the uniform.
            let [a, b] = blend_uniform(view.blend(step));
            let shader = pos + (pos - prev) * a + vel * b;
            let expected = view.apply(prev, pos, vel, step);
            assert!((shader - expected).length() < 1e-4, "{view:?}");
        }
    }

    #[test]
    fn cpu_blend_matches_every_view() {
        let prev = [Vec2::new(1.0, 2.0), Vec2::new(-4.0, 8.0)];
        let pos = [Vec2::new(3.0, 2.5), Vec2::new(-1.0, 9.0)];
        let vel = [Vec2::new(120.0, 30.0), Vec2::new(180.0, 60.0)];
        let step = Duration::from_nanos(16_666_667);
        for view in [
            View::Latest,
            View::Interpolate { alpha: 0.4 },
            View::Extrapolate { alpha: 0.9 },
        ] {
            let mut out = [Vec2::ZERO; 2];
            blend_positions(&prev, &pos, &vel, view.blend(step), &mut out);
            for i in 0..2 {
                let expected = view.apply(prev[i], pos[i], vel[i], step);
                assert!((out[i] - expected).length() < 1e-4, "{view:?}");
            }
        }
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
        let showing = |reference, ghosts| Showing {
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
        let showing = Showing {
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
