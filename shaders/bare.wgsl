// The bare instanced renderer `looplab bench` compares the sprite path against: one position
// per instance, one draw, the same 8x8 textured, alpha-blended quad from the same atlas
// (first cell), and nothing else.

struct Globals {
    scale: vec2<f32>,
    offset: vec2<f32>,
    size: f32,
};

@group(0) @binding(0) var<uniform> globals: Globals;
@group(0) @binding(1) var sprite_texture: texture_2d<f32>;
@group(0) @binding(2) var sprite_sampler: sampler;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) vertex: u32, @location(0) pos: vec2<f32>) -> VertexOut {
    let c = vec2<f32>(f32(vertex & 1u) - 0.5, f32(vertex >> 1u) - 0.5);
    var out: VertexOut;
    out.clip = vec4<f32>((pos + c * globals.size) * globals.scale + globals.offset, 0.0, 1.0);
    out.uv = (vec2<f32>(1.0, 1.0) + (c + 0.5) * 32.0) / vec2<f32>(5.0 * 34.0, 34.0);
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return textureSample(sprite_texture, sprite_sampler, in.uv);
}
