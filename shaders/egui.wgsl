// egui's meshes: positions in points, one texture sample times the vertex colour.
//
// Colours and texels are gamma-encoded with premultiplied alpha, as egui makes them, and the
// target is a plain `Unorm` format, so nothing is converted: what egui computed is what the
// screen shows, blended in display space as egui expects. The fragment shader has no
// branches: a CPU rasteriser (lavapipe) runs every branch of a shader for every pixel.

struct Locals {
    // The target's size in points.
    screen_size: vec2<f32>,
    _pad: vec2<f32>,
};

@group(0) @binding(0) var<uniform> locals: Locals;
@group(1) @binding(0) var mesh_texture: texture_2d<f32>;
@group(1) @binding(1) var mesh_sampler: sampler;

struct VertexOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) color: vec4<f32>,
};

@vertex
fn vs_main(
    @location(0) pos: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
) -> VertexOut {
    var out: VertexOut;
    let ndc = pos / locals.screen_size * 2.0 - vec2<f32>(1.0);
    out.clip = vec4<f32>(ndc.x, -ndc.y, 0.0, 1.0);
    out.uv = uv;
    out.color = color;
    return out;
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    return in.color * textureSample(mesh_texture, mesh_sampler, in.uv);
}
