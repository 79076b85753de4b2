//! The vocabulary the sprite pipeline draws in, shared by everything that builds a frame
//! (the scene, the bullet sprites, the timeline strip, the compare lanes): a shape instance
//! and its kinds, the view transform from world to surface pixels, the shader's uniforms,
//! and the blend that applies a strategy's view. Nothing here knows the world or the scene.

use std::time::Duration;

use bytemuck::{Pod, Zeroable};
use glam::Vec2;
use looplab_timing::{Blend, View};

use crate::world::layout::Region;

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

    /// Maps the world's `region` alone onto a surface of `width` x `height`, as large as it
    /// fits and centred: the book's embedded view of one stop, where the rest of the world
    /// falls outside the surface.
    pub fn framing(region: Region, width: u32, height: u32) -> Self {
        let surface = Vec2::new(width.max(1) as f32, height.max(1) as f32);
        let size = region.size().max(Vec2::ONE);
        let zoom = (surface.x / size.x).min(surface.y / size.y);
        let origin = (surface - size * zoom) * 0.5 - region.min * zoom;
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

/// A shape placed exactly at `at`, whatever the view.
pub fn marker(at: Vec2, size: Vec2, color: [u8; 4], shape: Shape) -> ShapeInstance {
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
pub fn segment(from: Vec2, to: Vec2, width: f32, color: [u8; 4]) -> ShapeInstance {
    ShapeInstance {
        prev: from.to_array(),
        pos: to.to_array(),
        vel: [0.0, 0.0],
        size: [width, 0.0],
        color,
        shape: Shape::Segment as u32 | EXACT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::WORLD_SIZE;

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
    fn framing_puts_the_region_alone_on_the_surface() {
        // A region twice as wide as tall on a 480 x 240 surface: its corners are the
        // surface's, and the world beyond it falls off the surface.
        let near = |a: Vec2, b: Vec2| assert!((a - b).length() < 1e-3, "{a} against {b}");
        let region = Region::new(300.0, 100.0, 500.0, 200.0);
        let t = ViewTransform::framing(region, 480, 240);
        assert_eq!(t.zoom, 2.4);
        near(t.to_pixel(region.min), Vec2::ZERO);
        near(t.to_pixel(region.max), Vec2::new(480.0, 240.0));
        assert!(t.to_pixel(Vec2::ZERO).x < -700.0);
        // On a taller surface it is centred, with bars above and below.
        let t = ViewTransform::framing(region, 480, 480);
        near(t.to_pixel(region.min), Vec2::new(0.0, 120.0));
        near(t.to_world(Vec2::new(240.0, 240.0)), region.centre());
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
        // Worked out by hand: a step moves the bullet (10, 4), from prev to pos, and its
        // velocity carries it as far again in a step.
        for (view, expected) in [
            (View::Latest, Vec2::new(20.0, 8.0)),
            (View::Interpolate { alpha: 0.3 }, Vec2::new(13.0, 5.2)),
            (View::Extrapolate { alpha: 0.7 }, Vec2::new(27.0, 10.8)),
        ] {
            // What sprites.wgsl computes from the uniform.
            let [a, b] = blend_uniform(view.blend(step));
            let shader = pos + (pos - prev) * a + vel * b;
            assert!((shader - expected).length() < 1e-4, "{view:?}: {shader}");
        }
    }

    #[test]
    fn cpu_blend_matches_every_view() {
        let prev = [Vec2::new(1.0, 2.0), Vec2::new(-4.0, 8.0)];
        let pos = [Vec2::new(3.0, 2.5), Vec2::new(-1.0, 9.0)];
        let vel = [Vec2::new(120.0, 30.0), Vec2::new(180.0, 60.0)];
        let step = Duration::from_nanos(16_666_667);
        // Worked out by hand: the velocities carry the bullets (2, 0.5) and (3, 1) in a step.
        for (view, expected) in [
            (View::Latest, pos),
            (
                View::Interpolate { alpha: 0.4 },
                [Vec2::new(1.8, 2.2), Vec2::new(-2.8, 8.4)],
            ),
            (
                View::Extrapolate { alpha: 0.9 },
                [Vec2::new(4.8, 2.95), Vec2::new(1.7, 9.9)],
            ),
        ] {
            let mut out = [Vec2::ZERO; 2];
            blend_positions(&prev, &pos, &vel, view.blend(step), &mut out);
            for i in 0..2 {
                assert!((out[i] - expected[i]).length() < 1e-4, "{view:?}: {out:?}");
            }
        }
    }
}
