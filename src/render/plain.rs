//! Plain rectangles and lines (the regions' borders, the timeline strip, the overlay's
//! panels) as one triangle list built on the CPU, drawn in their colour alone.
//!
//! Why not instances, like the other bodies: these are the most numerous shapes after the
//! bullets (the strip alone is about 450 a frame), and lavapipe, the CPU rasteriser that CI
//! and machines without a GPU draw with, pays per triangle. Written out as plain triangles
//! with nothing but a position and a colour, the 453 pieces of the bench's strip cost it
//! 0.36-0.49 ms a frame, against 0.53-0.60 ms as instances through the bodies' vertex stage
//! (offscreen at 1280x720, frames drawn in turn), with the same pixels. The corners are the
//! ones `vs_shape` computes.

use bytemuck::{Pod, Zeroable};
use glam::Vec2;
use looplab_timing::Blend;

use super::shapes::{EXACT, Shape, ShapeInstance};

/// A corner of a plain shape; layout matches `vs_plain`'s inputs.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct PlainVertex {
    /// World pixels.
    pub at: [f32; 2],
    pub color: [u8; 4],
}

/// Vertices a shape takes: two triangles.
pub const VERTICES_A_SHAPE: usize = 6;

/// The four corners of `shape` in world pixels, in the order of a unit quad's
/// `(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)`: a segment runs from `prev` to `pos`,
/// `size[0]` wide; anything else is its rectangle, placed by `blend` unless it is
/// [`EXACT`].
pub fn corners(shape: &ShapeInstance, blend: Blend) -> [Vec2; 4] {
    let (prev, pos, vel) = (
        Vec2::from(shape.prev),
        Vec2::from(shape.pos),
        Vec2::from(shape.vel),
    );
    let size = Vec2::from(shape.size);
    let unit = [
        Vec2::new(-0.5, -0.5),
        Vec2::new(0.5, -0.5),
        Vec2::new(-0.5, 0.5),
        Vec2::new(0.5, 0.5),
    ];
    if shape.shape & 255 == Shape::Segment as u32 {
        let along = pos - prev;
        let across = along.perp() / along.length().max(1e-4);
        return unit.map(|c| prev.lerp(pos, c.x + 0.5) + across * (c.y * size.x));
    }
    let centre = if shape.shape & EXACT == 0 {
        blend.apply(prev, pos, vel)
    } else {
        pos
    };
    unit.map(|c| centre + c * size)
}

/// Appends `shapes` to `out` as triangles, [`VERTICES_A_SHAPE`] vertices each.
pub fn triangles(shapes: &[ShapeInstance], blend: Blend, out: &mut Vec<PlainVertex>) {
    for shape in shapes {
        let [a, b, c, d] = corners(shape, blend);
        let vertex = |at: Vec2| PlainVertex {
            at: at.to_array(),
            color: shape.color,
        };
        out.extend([a, b, c, c, b, d].map(vertex));
    }
}

const ATTRIBUTES: [wgpu::VertexAttribute; 2] =
    wgpu::vertex_attr_array![0 => Float32x2, 1 => Unorm8x4];

/// The vertex stream of `vs_plain`.
pub fn vertex_stream() -> wgpu::VertexBufferLayout<'static> {
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<PlainVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRIBUTES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::shapes::{marker, segment};

    #[test]
    fn a_marker_is_its_rectangle_wherever_the_view_would_put_a_body() {
        let m = marker(
            Vec2::new(10.0, 20.0),
            Vec2::new(4.0, 2.0),
            [1, 2, 3, 4],
            Shape::Rect,
        );
        let ahead = Blend {
            back: 0.0,
            ahead: 1.0,
        };
        let expected = [
            Vec2::new(8.0, 19.0),
            Vec2::new(12.0, 19.0),
            Vec2::new(8.0, 21.0),
            Vec2::new(12.0, 21.0),
        ];
        assert_eq!(corners(&m, ahead), expected);
        // A body that is not exact is moved by the view, as the shader moves it.
        let body = ShapeInstance {
            vel: [6.0, 0.0],
            shape: Shape::Rect as u32,
            ..m
        };
        assert_eq!(
            corners(&body, ahead),
            expected.map(|c| c + Vec2::new(6.0, 0.0))
        );
    }

    #[test]
    fn a_segment_runs_from_prev_to_pos_as_wide_as_asked() {
        let s = segment(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), 2.0, [9; 4]);
        let [a, b, c, d] = corners(&s, Blend::LATEST);
        assert_eq!((a, b), (Vec2::new(0.0, -1.0), Vec2::new(10.0, -1.0)));
        assert_eq!((c, d), (Vec2::new(0.0, 1.0), Vec2::new(10.0, 1.0)));
    }

    #[test]
    fn each_shape_becomes_two_triangles_of_its_colour_covering_its_quad() {
        let shapes = [
            marker(Vec2::ZERO, Vec2::splat(2.0), [1; 4], Shape::Rect),
            marker(Vec2::splat(5.0), Vec2::splat(2.0), [2; 4], Shape::Rect),
        ];
        let mut out = vec![];
        triangles(&shapes, Blend::LATEST, &mut out);
        assert_eq!(out.len(), 2 * VERTICES_A_SHAPE);
        assert!(out[..6].iter().all(|v| v.color == [1; 4]));
        assert!(out[6..].iter().all(|v| v.color == [2; 4]));
        // Both triangles of a quad turn the same way, and together they cover it.
        let area = |t: &[PlainVertex]| {
            let [a, b, c] = [t[0].at, t[1].at, t[2].at].map(Vec2::from);
            (b - a).perp_dot(c - a) * 0.5
        };
        assert_eq!(area(&out[0..3]), area(&out[3..6]));
        assert_eq!(area(&out[0..3]).abs() + area(&out[3..6]).abs(), 4.0);
    }
}
