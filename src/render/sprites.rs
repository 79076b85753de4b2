//! The sprite pipeline: every stream bullet in one instanced draw.
//!
//! The strategy's view (latest, interpolated, extrapolated) is applied on the CPU in one
//! streaming pass over the world's arrays, and the instance buffer receives one position per
//! bullet, written once per frame. Blending on the GPU instead (uploading `prev`, `pos` and
//! `vel`) made a software rasteriser's vertex stage 5% slower at 10k bullets than a bare
//! renderer; the CPU pass costs about a nanosecond a bullet. The buffer only grows (to the
//! next power of two) when the bullet count outgrows it; a second region holds the ghost
//! positions when ghosts are shown. The other bodies (metronome, balls, darts, wall,
//! markers) are a few dozen instances in a small buffer, blended in the shader; the plain
//! rectangles and lines (borders, the timeline strip, panels) are triangles placed on the
//! CPU ([`plain`](super::plain)).

use glam::Vec2;
use wgpu::util::DeviceExt;

use super::descriptors::{sampler_entry, texture_2d, texture_entry, uniform_entry, wgsl};
use super::plain::{self, PlainVertex};
use super::shapes::{
    Globals, ShapeInstance, ViewTransform, blend_positions, globals, uniform_blend,
};
use crate::world::layout::Region;

const SHADER: &str = include_str!("../../shaders/sprites.wgsl");
const SPRITE_PNG: &[u8] = include_bytes!("../../assets/bullet.png");

/// Bytes of one `Vec2`.
const VEC2: u64 = std::mem::size_of::<Vec2>() as u64;
/// Smallest instance buffer, in bullets.
const MIN_CAPACITY: u64 = 1024;

/// The data of one frame's sprites. Built by [`scene::sprite_frame`](super::scene::sprite_frame)
/// for a world (the window, the bench), or by [`SpriteFrame::bullets`] for bare bullets
/// (the GPU tests).
pub struct SpriteFrame<'a> {
    pub prev: &'a [Vec2],
    pub pos: &'a [Vec2],
    pub vel: &'a [Vec2],
    /// From world units to the target's pixels.
    pub transform: ViewTransform,
    pub globals: Globals,
    /// Uniforms of the ghost pass, when ghosts are shown.
    pub ghosts: Option<Globals>,
    pub shapes: &'a [ShapeInstance],
    /// How many of `shapes`, from the first, are drawn under the bullets (backdrops: plain
    /// rectangles).
    pub behind: usize,
    /// `shapes[plain_from..]` (the timeline strip) are plain rectangles and lines, as are the
    /// backdrops and the panels: a pipeline that only fills them draws them more cheaply.
    pub plain_from: usize,
    /// The bullets (and ghosts) are drawn only inside this world region, when given.
    pub clip: Option<Region>,
    /// When not empty, the bullets are drawn in these groups instead, each clipped to its
    /// own region (compare mode's lanes) and without ghosts.
    pub groups: &'a [BulletGroup],
}

/// A range of a frame's bullets drawn together, clipped to a world region.
#[derive(Clone, Debug, PartialEq)]
pub struct BulletGroup {
    pub range: std::ops::Range<u32>,
    pub clip: Option<Region>,
}

impl<'a> SpriteFrame<'a> {
    /// Bullets alone (no other bodies, no ghosts), drawn with `view` of a `step`.
    pub fn bullets(
        prev: &'a [Vec2],
        pos: &'a [Vec2],
        vel: &'a [Vec2],
        transform: ViewTransform,
        view: looplab_timing::View,
        step: std::time::Duration,
    ) -> Self {
        Self {
            prev,
            pos,
            vel,
            globals: globals(&transform, view, step),
            transform,
            ghosts: None,
            shapes: &[],
            behind: 0,
            plain_from: 0,
            clip: None,
            groups: &[],
        }
    }
}

/// Pipelines and buffers of the sprite path.
pub struct SpriteRenderer {
    bullet_pipeline: wgpu::RenderPipeline,
    ghost_pipeline: wgpu::RenderPipeline,
    shape_pipeline: wgpu::RenderPipeline,
    /// Plain rectangles and lines only, as triangles placed on the CPU (`render::plain`): a
    /// fill with no texture sample and no branches, which a CPU rasteriser would otherwise
    /// run for every pixel.
    plain_pipeline: wgpu::RenderPipeline,
    /// The plain shapes' triangles: those under the bullets, then those over them.
    plain_vertices: wgpu::Buffer,
    plain_capacity: u64,
    /// The plain triangles being built for upload, kept to reuse the allocation.
    plain_scratch: Vec<PlainVertex>,
    /// Uniform buffers and bind groups: [0] the bullets and bodies, [1] the ghost pass.
    uniforms: [wgpu::Buffer; 2],
    bind_groups: [wgpu::BindGroup; 2],
    /// Drawn positions, then ghost positions: two regions of `capacity` bullets.
    instances: wgpu::Buffer,
    capacity: u64,
    /// The positions being computed for upload, kept to reuse the allocation.
    scratch: Vec<Vec2>,
    shapes: wgpu::Buffer,
    shape_capacity: u64,
    bullet_count: u32,
    shape_count: u32,
    /// Shapes drawn under the bullets.
    shapes_behind: u32,
    /// Where the plain shapes of the last prepared frame start (after them, the panels).
    plain_from: u32,
    /// The plain vertices drawn under the bullets, and in all.
    plain_behind: u32,
    plain_count: u32,
    ghosts: bool,
}

impl SpriteRenderer {
    /// Builds the pipelines for a target of `format` and uploads the sprite.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
    ) -> Result<Self, String> {
        let module = wgsl(device, "sprites.wgsl", SHADER);
        let shared = SpriteShared::new(device, queue, "sprites")?;
        let bullet_streams = [Some(position_stream())];
        let shape_stream = [Some(wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<ShapeInstance>() as u64,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![
                0 => Float32x2, 1 => Float32x2, 2 => Float32x2, 3 => Float32x2, 4 => Unorm8x4, 5 => Uint32
            ],
        })];
        let pipeline = |label, vertex, fragment, buffers: &[Option<wgpu::VertexBufferLayout>]| {
            let stages = QuadStages {
                module: &module,
                vertex,
                fragment,
                buffers,
            };
            quad_pipeline(device, &shared.pipeline_layout, label, stages, format)
        };
        let bullet_pipeline = pipeline("bullets", "vs_bullet", "fs_sprite", &bullet_streams);
        let ghost_pipeline = pipeline("ghosts", "vs_ghost", "fs_shape", &bullet_streams);
        let shape_pipeline = pipeline("shapes", "vs_shape", "fs_shape", &shape_stream);
        let plain_pipeline = triangle_pipeline(
            device,
            &shared.pipeline_layout,
            "plain shapes",
            QuadStages {
                module: &module,
                vertex: "vs_plain",
                fragment: "fs_plain",
                buffers: &[Some(plain::vertex_stream())],
            },
            format,
            wgpu::PrimitiveTopology::TriangleList,
        );

        let uniform = |label| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: std::mem::size_of::<Globals>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let uniforms = [uniform("globals"), uniform("ghost globals")];
        let bind_groups = [0, 1].map(|i| shared.bind(device, &uniforms[i]));
        Ok(Self {
            bullet_pipeline,
            ghost_pipeline,
            shape_pipeline,
            plain_pipeline,
            plain_vertices: plain_buffer(device, 64 * plain::VERTICES_A_SHAPE as u64),
            plain_capacity: 64 * plain::VERTICES_A_SHAPE as u64,
            plain_scratch: Vec::new(),
            uniforms,
            bind_groups,
            instances: instance_buffer(device, MIN_CAPACITY),
            capacity: MIN_CAPACITY,
            scratch: Vec::new(),
            shapes: shape_buffer(device, 64),
            shape_capacity: 64,
            bullet_count: 0,
            shape_count: 0,
            shapes_behind: 0,
            plain_from: 0,
            plain_behind: 0,
            plain_count: 0,
            ghosts: false,
        })
    }

    /// Uploads a frame: uniforms, the bullets' drawn (and ghost) positions, the bodies, and
    /// `panels` (drawn last, over everything). Grows a buffer only when the frame needs more room than it
    /// has.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        frame: &SpriteFrame,
        panels: &[ShapeInstance],
    ) {
        let n = frame.pos.len().min(frame.prev.len()).min(frame.vel.len()) as u64;
        if n > self.capacity {
            self.capacity = n.next_power_of_two();
            self.instances = instance_buffer(device, self.capacity);
            log::debug!("instance buffer grown to {} bullets", self.capacity);
        }
        let shapes = frame.shapes.len() as u64;
        if shapes > self.shape_capacity {
            self.shape_capacity = shapes.next_power_of_two();
            self.shapes = shape_buffer(device, self.shape_capacity);
        }
        queue.write_buffer(&self.uniforms[0], 0, bytemuck::bytes_of(&frame.globals));
        if let Some(ghost) = &frame.ghosts {
            queue.write_buffer(&self.uniforms[1], 0, bytemuck::bytes_of(ghost));
        }
        let len = n as usize;
        let (prev, pos, vel) = (&frame.prev[..len], &frame.pos[..len], &frame.vel[..len]);
        if n > 0 {
            self.scratch.resize(len, Vec2::ZERO);
            blend_positions(
                prev,
                pos,
                vel,
                uniform_blend(frame.globals.blend),
                &mut self.scratch,
            );
            queue.write_buffer(&self.instances, 0, bytemuck::cast_slice(&self.scratch));
            if let Some(ghost) = &frame.ghosts {
                blend_positions(
                    prev,
                    pos,
                    vel,
                    uniform_blend(ghost.blend),
                    &mut self.scratch,
                );
                let region = self.capacity * VEC2;
                queue.write_buffer(&self.instances, region, bytemuck::cast_slice(&self.scratch));
            }
        }
        if !frame.shapes.is_empty() {
            queue.write_buffer(&self.shapes, 0, bytemuck::cast_slice(frame.shapes));
        }
        self.bullet_count = n as u32;
        self.shape_count = shapes as u32;
        self.shapes_behind = frame.behind.min(frame.shapes.len()) as u32;
        self.plain_from = frame.plain_from.clamp(frame.behind, frame.shapes.len()) as u32;
        self.ghosts = frame.ghosts.is_some();
        self.prepare_plain(device, queue, frame, panels);
    }

    /// Builds and uploads the plain shapes' triangles: the backdrops, then the strip and
    /// the panels.
    fn prepare_plain(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        frame: &SpriteFrame,
        panels: &[ShapeInstance],
    ) {
        let blend = uniform_blend(frame.globals.blend);
        let (behind, plain) = (self.shapes_behind as usize, self.plain_from as usize);
        self.plain_scratch.clear();
        plain::triangles(&frame.shapes[..behind], blend, &mut self.plain_scratch);
        self.plain_behind = self.plain_scratch.len() as u32;
        plain::triangles(&frame.shapes[plain..], blend, &mut self.plain_scratch);
        plain::triangles(panels, blend, &mut self.plain_scratch);
        self.plain_count = self.plain_scratch.len() as u32;
        let needed = self.plain_scratch.len() as u64;
        if needed > self.plain_capacity {
            self.plain_capacity = needed.next_power_of_two();
            self.plain_vertices = plain_buffer(device, self.plain_capacity);
        }
        if needed > 0 {
            queue.write_buffer(
                &self.plain_vertices,
                0,
                bytemuck::cast_slice(&self.plain_scratch),
            );
        }
    }

    /// Records the draws of the last prepared frame under the bullets (the backdrops).
    pub fn draw_behind(&self, pass: &mut wgpu::RenderPass<'_>) {
        self.draw_plain(pass, 0..self.plain_behind);
    }

    /// Records the bullets' and ghosts' draws of the last prepared frame.
    pub fn draw_bullets(&self, pass: &mut wgpu::RenderPass<'_>) {
        let n = self.bullet_count as u64;
        if n > 0 {
            let region = self.capacity * VEC2;
            pass.set_pipeline(&self.bullet_pipeline);
            pass.set_vertex_buffer(0, self.instances.slice(0..n * VEC2));
            pass.set_bind_group(0, &self.bind_groups[0], &[]);
            pass.draw(0..4, 0..self.bullet_count);
            if self.ghosts {
                pass.set_pipeline(&self.ghost_pipeline);
                pass.set_vertex_buffer(0, self.instances.slice(region..region + n * VEC2));
                pass.set_bind_group(0, &self.bind_groups[1], &[]);
                pass.draw(0..4, 0..self.bullet_count);
            }
        }
    }

    /// Records the draw of the bullets in `range` of the last prepared frame.
    pub fn draw_bullet_range(&self, pass: &mut wgpu::RenderPass<'_>, range: std::ops::Range<u32>) {
        let n = self.bullet_count as u64;
        if n == 0 || range.is_empty() {
            return;
        }
        pass.set_pipeline(&self.bullet_pipeline);
        pass.set_vertex_buffer(0, self.instances.slice(0..n * VEC2));
        pass.set_bind_group(0, &self.bind_groups[0], &[]);
        pass.draw(0..4, range.start..range.end.min(self.bullet_count));
    }

    /// Records the draws over the bullets: the bodies and markers, then the strip and the
    /// panels.
    pub fn draw_over(&self, pass: &mut wgpu::RenderPass<'_>) {
        let (behind, plain) = (self.shapes_behind, self.plain_from);
        self.draw_shapes(pass, &self.shape_pipeline, behind..plain);
        self.draw_plain(pass, self.plain_behind..self.plain_count);
    }

    /// Records the draw of the plain triangles' `vertices`.
    fn draw_plain(&self, pass: &mut wgpu::RenderPass<'_>, vertices: std::ops::Range<u32>) {
        if vertices.is_empty() {
            return;
        }
        pass.set_pipeline(&self.plain_pipeline);
        pass.set_bind_group(0, &self.bind_groups[0], &[]);
        pass.set_vertex_buffer(0, self.plain_vertices.slice(..));
        pass.draw(vertices, 0..1);
    }

    fn draw_shapes(
        &self,
        pass: &mut wgpu::RenderPass<'_>,
        pipeline: &wgpu::RenderPipeline,
        range: std::ops::Range<u32>,
    ) {
        if range.is_empty() {
            return;
        }
        let bytes = self.shape_count as u64 * std::mem::size_of::<ShapeInstance>() as u64;
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, &self.bind_groups[0], &[]);
        pass.set_vertex_buffer(0, self.shapes.slice(0..bytes));
        pass.draw(0..4, range);
    }
}

/// The shader stages of a quad pipeline.
pub(crate) struct QuadStages<'a> {
    pub module: &'a wgpu::ShaderModule,
    pub vertex: &'a str,
    pub fragment: &'a str,
    pub buffers: &'a [Option<wgpu::VertexBufferLayout<'a>>],
}

/// A pipeline drawing alpha-blended, instanced 4-vertex quads (triangle strips) into a target
/// of `format`: what every sprite-like draw here is.
pub(crate) fn quad_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    label: &str,
    stages: QuadStages,
    format: wgpu::TextureFormat,
) -> wgpu::RenderPipeline {
    triangle_pipeline(
        device,
        layout,
        label,
        stages,
        format,
        wgpu::PrimitiveTopology::TriangleStrip,
    )
}

/// A pipeline drawing alpha-blended triangles of `topology` into a target of `format`.
fn triangle_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    label: &str,
    stages: QuadStages,
    format: wgpu::TextureFormat,
    topology: wgpu::PrimitiveTopology,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: stages.module,
            entry_point: Some(stages.vertex),
            compilation_options: Default::default(),
            buffers: stages.buffers,
        },
        primitive: wgpu::PrimitiveState {
            topology,
            ..Default::default()
        },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        fragment: Some(wgpu::FragmentState {
            module: stages.module,
            entry_point: Some(stages.fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// What every sprite-drawing renderer shares: the bind group layout (uniforms, the sprite
/// atlas, a sampler), a pipeline layout over it, the atlas and its linear sampler.
pub(crate) struct SpriteShared {
    pub bind_group_layout: wgpu::BindGroupLayout,
    pub pipeline_layout: wgpu::PipelineLayout,
    view: wgpu::TextureView,
    sampler: wgpu::Sampler,
}

impl SpriteShared {
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, label: &str) -> Result<Self, String> {
        let bind_group_layout = sprite_bind_group_layout(device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&bind_group_layout)],
            ..Default::default()
        });
        let view = upload_sprite_atlas(device, queue)?;
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some(label),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        Ok(Self {
            bind_group_layout,
            pipeline_layout,
            view,
            sampler,
        })
    }

    /// A bind group of `uniform`, the atlas and the sampler.
    pub fn bind(&self, device: &wgpu::Device, uniform: &wgpu::Buffer) -> wgpu::BindGroup {
        bind_group(
            device,
            &self.bind_group_layout,
            uniform,
            &self.view,
            &self.sampler,
        )
    }
}

const POSITION_ATTRIBUTES: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Float32x2];

/// One instance stream of `Vec2` positions at location 0.
pub(crate) fn position_stream() -> wgpu::VertexBufferLayout<'static> {
    wgpu::VertexBufferLayout {
        array_stride: VEC2,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &POSITION_ATTRIBUTES,
    }
}

/// The layout every sprite-drawing pipeline uses: uniforms, the sprite texture, a sampler.
fn sprite_bind_group_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("sprites"),
        entries: &[
            uniform_entry(0, wgpu::ShaderStages::VERTEX_FRAGMENT),
            texture_entry(1),
            sampler_entry(2),
        ],
    })
}

fn bind_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    uniform: &wgpu::Buffer,
    view: &wgpu::TextureView,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("sprites"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(view),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(sampler),
            },
        ],
    })
}

fn instance_buffer(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bullet positions (drawn | ghosts)"),
        size: 2 * capacity * VEC2,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn plain_buffer(device: &wgpu::Device, vertices: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("plain shapes' triangles"),
        size: vertices * std::mem::size_of::<PlainVertex>() as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

fn shape_buffer(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("shape instances"),
        size: capacity * std::mem::size_of::<ShapeInstance>() as u64,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Tints of the bullets, one per emitter (bullet `i` belongs to emitter `i % 4`).
pub const BULLET_TINTS: [[f32; 3]; 4] = [
    [1.0, 0.78, 0.32],
    [0.45, 0.85, 1.0],
    [1.0, 0.45, 0.62],
    [0.62, 1.0, 0.55],
];
/// Side of the sprite in texels (`assets/bullet.png`); the shaders assume it.
const SPRITE_TEXELS: u32 = 32;
/// A cell of the atlas: the sprite and a 1-texel transparent border, so linear filtering at
/// a quad's edge never reads the neighbouring cell.
const CELL_TEXELS: u32 = SPRITE_TEXELS + 2;
/// The four tints, then white (for the other bodies, which tint in the shader).
const ATLAS_CELLS: u32 = 5;

/// Decodes the embedded bullet sprite and uploads the atlas the shaders sample: the sprite
/// in each tint, then in white, side by side (display values, like every colour here).
fn upload_sprite_atlas(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
) -> Result<wgpu::TextureView, String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(SPRITE_PNG));
    let mut reader = decoder
        .read_info()
        .map_err(|e| format!("bullet sprite: {e}"))?;
    let mut pixels = vec![0; reader.output_buffer_size().unwrap_or(0)];
    let info = reader
        .next_frame(&mut pixels)
        .map_err(|e| format!("bullet sprite: {e}"))?;
    if info.color_type != png::ColorType::Rgba
        || info.bit_depth != png::BitDepth::Eight
        || info.width != SPRITE_TEXELS
        || info.height != SPRITE_TEXELS
    {
        return Err(format!(
            "bullet sprite: expected a {SPRITE_TEXELS}x{SPRITE_TEXELS} 8-bit RGBA PNG"
        ));
    }
    let (width, height) = (CELL_TEXELS * ATLAS_CELLS, CELL_TEXELS);
    let mut atlas = vec![0u8; (width * height * 4) as usize];
    let tints = BULLET_TINTS.iter().copied().chain([[1.0, 1.0, 1.0]]);
    for (cell, tint) in tints.enumerate() {
        for y in 0..SPRITE_TEXELS {
            for x in 0..SPRITE_TEXELS {
                let src = ((y * SPRITE_TEXELS + x) * 4) as usize;
                let (ax, ay) = (cell as u32 * CELL_TEXELS + 1 + x, 1 + y);
                let dst = ((ay * width + ax) * 4) as usize;
                for c in 0..3 {
                    atlas[dst + c] = (pixels[src + c] as f32 * tint[c]).round() as u8;
                }
                atlas[dst + 3] = pixels[src + 3];
            }
        }
    }
    let texture = device.create_texture_with_data(
        queue,
        &texture_2d(
            "bullet sprite atlas",
            width,
            height,
            wgpu::TextureFormat::Rgba8Unorm,
            wgpu::TextureUsages::TEXTURE_BINDING,
        ),
        wgpu::util::TextureDataOrder::LayerMajor,
        &atlas,
    );
    Ok(texture.create_view(&Default::default()))
}
