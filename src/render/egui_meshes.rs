//! egui's tessellated output (its meshes and their textures) drawn with the app's wgpu
//! device.
//!
//! Why not egui-wgpu, which does the same job: its fragment shader chooses at run time
//! between the texture unit's filtering and a four-tap manual filter kept for reproducible
//! test snapshots. A GPU skips the branch it does not take; lavapipe, the CPU rasteriser that
//! CI and machines without a GPU draw with, pays for both on every pixel. Measured offscreen
//! at 1280x720: 300 glyphs of 12.5 px text cost 1.2 ms there, and 0.47 ms with a single
//! sample (`shaders/egui.wgsl`). The overlay needs nothing else from it: no callbacks, no
//! native textures, one target format.
//!
//! The meshes are drawn unindexed, each triangle's three vertices written out: lavapipe
//! takes a quicker path for plain triangle lists. Measured offscreen at 1280x720 with the
//! captions of the default screen (251 glyphs), in frames drawn in turn: 0.45-0.48 ms
//! unindexed against 0.61-0.65 ms indexed, the same pixels.

use std::collections::HashMap;
use std::ops::Range;

use egui::epaint::{ImageData, ImageDelta, Primitive, Vertex};
use egui::{ClippedPrimitive, TextureFilter, TextureId, TextureOptions, TextureWrapMode};

use super::descriptors::{sampler_entry, texture_2d, texture_entry, uniform_entry, wgsl};

const SHADER: &str = include_str!("../../shaders/egui.wgsl");

/// The shader's uniforms; layout matches `Locals` in `egui.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Locals {
    screen_size: [f32; 2],
    _pad: [f32; 2],
}

/// A texture egui asked for, ready to draw with.
struct MeshTexture {
    texture: wgpu::Texture,
    options: TextureOptions,
    bind_group: wgpu::BindGroup,
}

/// One mesh of a frame: which texture, where it may draw, and its vertices in the buffer
/// (three a triangle).
struct Draw {
    texture: TextureId,
    scissor: [u32; 4],
    vertices: Range<u32>,
}

/// Draws egui's meshes into targets of one format.
pub struct EguiMeshes {
    pipeline: wgpu::RenderPipeline,
    texture_layout: wgpu::BindGroupLayout,
    locals: wgpu::Buffer,
    locals_group: wgpu::BindGroup,
    samplers: HashMap<TextureOptions, wgpu::Sampler>,
    textures: HashMap<TextureId, MeshTexture>,
    vertices: GrowingBuffer,
    /// This frame's meshes, in painting order.
    draws: Vec<Draw>,
    /// Scratch for the frame's vertices, kept to avoid allocating.
    triangles: Vec<Vertex>,
}

impl EguiMeshes {
    /// The pipeline for a target of `format` (a `Unorm` format: see the shader).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Self {
        let module = wgsl(device, "egui.wgsl", SHADER);
        let locals_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("egui locals"),
            entries: &[uniform_entry(0, wgpu::ShaderStages::VERTEX)],
        });
        let texture_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("egui texture"),
            entries: &[texture_entry(0), sampler_entry(1)],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("egui"),
            bind_group_layouts: &[Some(&locals_layout), Some(&texture_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("egui meshes"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: std::mem::size_of::<Vertex>() as u64,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    // pos, uv, and the colour as four bytes read as 0-1.
                    attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Unorm8x4],
                })],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format,
                    blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let locals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("egui locals"),
            size: std::mem::size_of::<Locals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let locals_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("egui locals"),
            layout: &locals_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: locals.as_entire_binding(),
            }],
        });
        Self {
            pipeline,
            texture_layout,
            locals,
            locals_group,
            samplers: HashMap::new(),
            textures: HashMap::new(),
            vertices: GrowingBuffer::new(device, "egui vertices", wgpu::BufferUsages::VERTEX),
            draws: Vec::new(),
            triangles: Vec::new(),
        }
    }

    /// Creates, replaces or patches texture `id` as egui asks. A patch of a texture that does
    /// not exist is logged and dropped (egui sends a whole texture before any patch of it).
    pub fn set_texture(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        id: TextureId,
        delta: &ImageDelta,
    ) {
        let ImageData::Color(image) = &delta.image;
        let [width, height] = image.size.map(|s| s as u32);
        if width == 0 || height == 0 {
            return;
        }
        let origin = match delta.pos {
            None => {
                self.create_texture(device, id, width, height, delta.options);
                wgpu::Origin3d::ZERO
            }
            Some([x, y]) => {
                let Some(existing) = self.textures.get_mut(&id) else {
                    log::warn!("egui patched texture {id:?} before creating it; patch dropped");
                    return;
                };
                if existing.options != delta.options {
                    existing.bind_group = bind_texture(
                        device,
                        &self.texture_layout,
                        &mut self.samplers,
                        &existing.texture,
                        delta.options,
                    );
                    existing.options = delta.options;
                }
                wgpu::Origin3d {
                    x: x as u32,
                    y: y as u32,
                    z: 0,
                }
            }
        };
        let texture = &self.textures[&id].texture;
        queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin,
                aspect: wgpu::TextureAspect::All,
            },
            bytemuck::cast_slice(&image.pixels),
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * width),
                rows_per_image: Some(height),
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
    }

    /// Makes texture `id` anew, `width` by `height`, sampled with `options`; its pixels come
    /// after.
    fn create_texture(
        &mut self,
        device: &wgpu::Device,
        id: TextureId,
        width: u32,
        height: u32,
        options: TextureOptions,
    ) {
        // Gamma-encoded bytes sampled as they are: see the shader.
        let texture = device.create_texture(&texture_2d(
            "egui texture",
            width,
            height,
            wgpu::TextureFormat::Rgba8Unorm,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        ));
        let bind_group = bind_texture(
            device,
            &self.texture_layout,
            &mut self.samplers,
            &texture,
            options,
        );
        self.textures.insert(
            id,
            MeshTexture {
                texture,
                options,
                bind_group,
            },
        );
    }

    /// Forgets texture `id`. The caller makes sure no frame still to be submitted uses it.
    pub fn free_texture(&mut self, id: TextureId) {
        self.textures.remove(&id);
    }

    /// Uploads a frame's meshes for a target of `size` pixels with `pixels_per_point`.
    /// Meshes of unknown textures and paint callbacks (the overlay makes none) are skipped.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        primitives: &[ClippedPrimitive],
        pixels_per_point: f32,
        size: (u32, u32),
    ) {
        self.draws.clear();
        self.triangles.clear();
        for ClippedPrimitive {
            clip_rect,
            primitive,
        } in primitives
        {
            let Primitive::Mesh(mesh) = primitive else {
                continue;
            };
            if mesh.indices.is_empty() || !self.textures.contains_key(&mesh.texture_id) {
                continue;
            }
            let Some(scissor) = scissor(clip_rect, pixels_per_point, size) else {
                continue;
            };
            let first = self.triangles.len() as u32;
            unroll(&mesh.vertices, &mesh.indices, &mut self.triangles);
            self.draws.push(Draw {
                texture: mesh.texture_id,
                scissor,
                vertices: first..self.triangles.len() as u32,
            });
        }
        self.vertices
            .write(device, queue, bytemuck::cast_slice(&self.triangles));
        let locals = Locals {
            screen_size: [
                size.0 as f32 / pixels_per_point,
                size.1 as f32 / pixels_per_point,
            ],
            _pad: [0.0; 2],
        };
        queue.write_buffer(&self.locals, 0, bytemuck::bytes_of(&locals));
    }

    /// Draws the prepared meshes; leaves the scissor covering the whole target of `size`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, size: (u32, u32)) {
        if self.draws.is_empty() {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.locals_group, &[]);
        pass.set_vertex_buffer(0, self.vertices.buffer.slice(..));
        let mut bound = None;
        for draw in &self.draws {
            if bound != Some(draw.texture) {
                pass.set_bind_group(1, &self.textures[&draw.texture].bind_group, &[]);
                bound = Some(draw.texture);
            }
            let [x, y, w, h] = draw.scissor;
            pass.set_scissor_rect(x, y, w, h);
            pass.draw(draw.vertices.clone(), 0..1);
        }
        pass.set_scissor_rect(0, 0, size.0, size.1);
    }
}

/// Appends the triangles `indices` make of `vertices` to `out`, three vertices each (an
/// index past the end, which egui does not make, is skipped with its triangle).
fn unroll(vertices: &[Vertex], indices: &[u32], out: &mut Vec<Vertex>) {
    let at = |i: u32| vertices.get(i as usize).copied();
    for t in indices.chunks_exact(3) {
        if let (Some(a), Some(b), Some(c)) = (at(t[0]), at(t[1]), at(t[2])) {
            out.extend([a, b, c]);
        }
    }
}

/// A clip rectangle in points as a scissor `[x, y, width, height]` in pixels on a target of
/// `size`; `None` when nothing of it is on the target.
fn scissor(clip: &egui::Rect, pixels_per_point: f32, size: (u32, u32)) -> Option<[u32; 4]> {
    let pixel = |v: f32, max: u32| ((v * pixels_per_point).round().max(0.0) as u32).min(max);
    let (x0, y0) = (pixel(clip.min.x, size.0), pixel(clip.min.y, size.1));
    let (x1, y1) = (pixel(clip.max.x, size.0), pixel(clip.max.y, size.1));
    (x1 > x0 && y1 > y0).then_some([x0, y0, x1 - x0, y1 - y0])
}

/// A bind group for `texture` sampled as `options` ask (one sampler per set of options).
fn bind_texture(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    samplers: &mut HashMap<TextureOptions, wgpu::Sampler>,
    texture: &wgpu::Texture,
    options: TextureOptions,
) -> wgpu::BindGroup {
    let sampler = samplers
        .entry(options)
        .or_insert_with(|| sampler(device, options));
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("egui texture"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(
                    &texture.create_view(&Default::default()),
                ),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(sampler),
            },
        ],
    })
}

fn sampler(device: &wgpu::Device, options: TextureOptions) -> wgpu::Sampler {
    let filter = |f: TextureFilter| match f {
        TextureFilter::Nearest => wgpu::FilterMode::Nearest,
        TextureFilter::Linear => wgpu::FilterMode::Linear,
    };
    let address = match options.wrap_mode {
        TextureWrapMode::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        TextureWrapMode::Repeat => wgpu::AddressMode::Repeat,
        TextureWrapMode::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
    };
    device.create_sampler(&wgpu::SamplerDescriptor {
        label: Some("egui sampler"),
        mag_filter: filter(options.magnification),
        min_filter: filter(options.minification),
        address_mode_u: address,
        address_mode_v: address,
        ..Default::default()
    })
}

/// A GPU buffer rewritten each frame, grown (to the next power of two) when a frame needs
/// more room than it has.
struct GrowingBuffer {
    buffer: wgpu::Buffer,
    label: &'static str,
    usage: wgpu::BufferUsages,
}

impl GrowingBuffer {
    fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        Self {
            buffer: Self::create(device, label, usage, 16 * 1024),
            label,
            usage,
        }
    }

    fn create(
        device: &wgpu::Device,
        label: &str,
        usage: wgpu::BufferUsages,
        size: u64,
    ) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Replaces the buffer's start with `bytes` (a multiple of 4 long, as vertices of 20
    /// bytes are).
    fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let needed = bytes.len() as u64;
        if needed > self.buffer.size() {
            let size = needed.next_power_of_two();
            self.buffer = Self::create(device, self.label, self.usage, size);
        }
        queue.write_buffer(&self.buffer, 0, bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mesh_is_unrolled_into_its_triangles_in_order() {
        let vertex = |x: f32| Vertex {
            pos: egui::pos2(x, 0.0),
            uv: egui::pos2(0.0, 0.0),
            color: egui::Color32::WHITE,
        };
        let vertices: Vec<Vertex> = (0..4).map(|i| vertex(i as f32)).collect();
        let mut out = vec![vertex(-1.0)];
        // A quad as two triangles, then a triangle with an index past the end.
        unroll(&vertices, &[0, 1, 2, 2, 1, 3, 0, 9, 1], &mut out);
        let xs: Vec<f32> = out.iter().map(|v| v.pos.x).collect();
        assert_eq!(xs, [-1.0, 0.0, 1.0, 2.0, 2.0, 1.0, 3.0]);
    }

    #[test]
    fn scissors_are_clamped_to_the_target_and_empty_ones_dropped() {
        let rect =
            |x0, y0, x1, y1| egui::Rect::from_min_max(egui::pos2(x0, y0), egui::pos2(x1, y1));
        assert_eq!(
            scissor(&rect(10.0, 20.0, 110.0, 70.0), 2.0, (1280, 720)),
            Some([20, 40, 200, 100])
        );
        assert_eq!(
            scissor(&rect(-50.0, -5.0, 2000.0, 2000.0), 1.0, (1280, 720)),
            Some([0, 0, 1280, 720])
        );
        assert_eq!(
            scissor(&rect(1300.0, 0.0, 1400.0, 10.0), 1.0, (1280, 720)),
            None
        );
        assert_eq!(scissor(&rect(5.0, 5.0, 5.0, 9.0), 1.0, (1280, 720)), None);
    }
}
