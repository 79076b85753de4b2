// Looplab's sprite shader: instanced quads for bullets and for the other bodies.
//
// Bullets arrive as drawn positions. Each other body carries its state before and after the
// last update and its velocity, and the strategy's view is applied here with the two weights
// of `looplab_timing::Blend` from the uniforms (`View::blend`; the CPU applies the same
// `Blend::apply` to the bullets):
//
//   drawn = pos + (pos - prev) * blend.x + vel * blend.y
//
// The sprite texture is an atlas of the bullet sprite in five cells (four tints, one by
// emitter, then white), each 32 texels with a 1-texel transparent border (see
// `render::sprites::upload_sprite_atlas`). A bullet's tint is chosen by the cell it samples,
// so its fragments interpolate nothing but one texture coordinate.

struct Globals {
    // World pixels to clip space: clip = world * scale + offset (letterboxed, y down).
    scale: vec2<f32>,
    offset: vec2<f32>,
    blend: vec2<f32>,
    // Bullet quad size in world pixels.
    bullet_size: f32,
    _pad: u32,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var sprite_texture: texture_2d<f32>;
@group(0) @binding(2) var sprite_sampler: sampler;

const SHAPE_SPRITE: u32 = 0u;
const SHAPE_RING: u32 = 1u;
const SHAPE_RECT: u32 = 2u;
const SHAPE_SEGMENT: u32 = 4u;

const ATLAS_CELLS: f32 = 5.0;
const WHITE_CELL: u32 = 4u;
const CELL_TEXELS: f32 = 34.0;
const SPRITE_TEXELS: f32 = 32.0;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    // Position within the quad, 0 to 1.
    @location(0) uv: vec2<f32>,
    // Where the quad samples the atlas (white cell).
    @location(1) atlas: vec2<f32>,
    @location(2) color: vec4<f32>,
    @location(3) @interpolate(flat) shape: u32,
};

// Corner of a unit quad for a 4-vertex triangle strip, centred on the origin.
fn corner(vertex: u32) -> vec2<f32> {
    return vec2<f32>(f32(vertex & 1u) - 0.5, f32(vertex >> 1u) - 0.5);
}

fn to_clip(world: vec2<f32>) -> vec4<f32> {
    return vec4<f32>(world * globals.scale + globals.offset, 0.0, 1.0);
}

fn drawn(prev: vec2<f32>, pos: vec2<f32>, vel: vec2<f32>) -> vec2<f32> {
    return pos + (pos - prev) * globals.blend.x + vel * globals.blend.y;
}

// The atlas coordinate of a quad corner (`c` in -0.5..0.5) in `cell`.
fn atlas_uv(c: vec2<f32>, cell: u32) -> vec2<f32> {
    let texel = vec2<f32>(f32(cell) * CELL_TEXELS + 1.0, 1.0) + (c + 0.5) * SPRITE_TEXELS;
    return texel / vec2<f32>(ATLAS_CELLS * CELL_TEXELS, CELL_TEXELS);
}

// What a bullet passes to its fragments: one texture coordinate. A software rasteriser pays
// per pixel for every value it interpolates (an interpolated tint cost 7% at 100k bullets),
// and at 100k bullets the pixels are most of the frame.
struct SpriteOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

// Bullets arrive already placed by the view (blended on the CPU, see `render::sprites`).
@vertex
fn vs_bullet(
    @builtin(vertex_index) vertex: u32,
    @builtin(instance_index) instance: u32,
    @location(0) at: vec2<f32>,
) -> SpriteOut {
    let c = corner(vertex);
    var out: SpriteOut;
    out.clip = to_clip(at + c * globals.bullet_size);
    // Bullet i belongs to emitter i % 4, and takes its tint.
    out.uv = atlas_uv(c, instance % 4u);
    return out;
}

// The ghost pass: the bullets at their true positions, drawn as hollow rings.
@vertex
fn vs_ghost(@builtin(vertex_index) vertex: u32, @location(0) at: vec2<f32>) -> VertexOut {
    let c = corner(vertex);
    var out: VertexOut;
    out.clip = to_clip(at + c * globals.bullet_size);
    out.uv = c + 0.5;
    out.atlas = atlas_uv(c, WHITE_CELL);
    out.color = vec4<f32>(1.0, 1.0, 1.0, 0.55);
    out.shape = SHAPE_RING;
    return out;
}

@vertex
fn vs_shape(
    @builtin(vertex_index) vertex: u32,
    @location(0) prev: vec2<f32>,
    @location(1) pos: vec2<f32>,
    @location(2) vel: vec2<f32>,
    @location(3) size: vec2<f32>,
    @location(4) color: vec4<f32>,
    @location(5) shape_and_view: u32,
) -> VertexOut {
    let c = corner(vertex);
    let shape = shape_and_view & 255u;
    // Bit 8 set: draw at `pos` exactly (a marker placed by the CPU), not by the view.
    var centre = pos;
    if (shape_and_view & 256u) == 0u {
        centre = drawn(prev, pos, vel);
    }
    var at = centre + c * size;
    if shape == SHAPE_SEGMENT {
        // From `prev` to `pos`, `size.x` wide: the quad's x runs along the line.
        let along = pos - prev;
        let across = vec2<f32>(-along.y, along.x) / max(length(along), 1e-4);
        at = mix(prev, pos, c.x + 0.5) + across * (c.y * size.x);
    }
    var out: VertexOut;
    out.clip = to_clip(at);
    out.uv = c + 0.5;
    out.atlas = atlas_uv(c, WHITE_CELL);
    out.color = color;
    out.shape = shape;
    return out;
}

// The bullets' fragment shader: one sample of the tinted sprite, because at 100k bullets a
// software rasteriser spends most of the frame here.
@fragment
fn fs_sprite(in: SpriteOut) -> @location(0) vec4<f32> {
    return textureSample(sprite_texture, sprite_sampler, in.uv);
}

// Everything else: sprites, rings (ghosts, markers), solid rectangles and lines, the ship.
@fragment
fn fs_shape(in: VertexOut) -> @location(0) vec4<f32> {
    // Sampled and differentiated in uniform control flow; used only by some shapes.
    let texel = textureSample(sprite_texture, sprite_sampler, in.atlas);
    let r = length(in.uv - vec2<f32>(0.5)) * 2.0;
    let w = max(fwidth(r), 1e-4);
    // The ship's edge: a triangle pointing up, inside while |x| is under the height left.
    // Differentiated here too: WebGPU allows fwidth only outside the switch.
    let edge = abs(in.uv.x - 0.5) - in.uv.y * 0.5;
    let fw = max(fwidth(edge), 1e-4);
    switch in.shape {
        case 0u: {
            return texel * in.color;
        }
        case 1u: {
            // A ring from 0.6 to 0.95 of the radius, antialiased by the pixel footprint.
            let outer = 1.0 - smoothstep(0.95 - w, 0.95, r);
            let inner = smoothstep(0.6 - w, 0.6, r);
            return vec4<f32>(in.color.rgb, in.color.a * outer * inner);
        }
        case 3u: {
            return vec4<f32>(in.color.rgb, in.color.a * (1.0 - smoothstep(-fw, 0.0, edge)));
        }
        default: {
            return in.color;
        }
    }
}

// Plain rectangles and lines (backdrops, the timeline strip, panels): triangles whose
// corners the CPU placed (`render::plain`), in their colour only. A CPU rasteriser runs
// every case of `fs_shape` for every pixel, and pays for every value a vertex passes on.
struct PlainOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) color: vec4<f32>,
};

@vertex
fn vs_plain(@location(0) at: vec2<f32>, @location(1) color: vec4<f32>) -> PlainOut {
    var out: PlainOut;
    out.clip = to_clip(at);
    out.color = color;
    return out;
}

@fragment
fn fs_plain(in: PlainOut) -> @location(0) vec4<f32> {
    return in.color;
}
