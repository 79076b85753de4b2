//! The bare instanced renderer: the yardstick for the sprite path's overhead.
//!
//! One `Vec2` position per bullet uploaded each frame, one draw of the same 8x8 textured,
//! alpha-blended quad, no strategy view, no other bodies. `looplab bench` draws the same
//! bullets with it and with the sprite path, side by side.

use bytemuck::{Pod, Zeroable};
use glam::Vec2;

use super::descriptors::wgsl;
use super::shapes::{BULLET_SIZE, ViewTransform};
use super::sprites::{QuadStages, SpriteShared, position_stream, quad_pipeline};

const SHADER: &str = include_str!("../../shaders/bare.wgsl");
const VEC2: u64 = std::mem::size_of::<Vec2>() as u64;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default, Pod, Zeroable)]
struct BareGlobals {
    scale: [f32; 2],
    offset: [f32; 2],
    size: f32,
    _pad: [f32; 3],
}

/// Positions in, quads out.
pub struct BareRenderer {
    pipeline: wgpu::RenderPipeline,
    uniform: wgpu::Buffer,
    bind_group: wgpu::BindGroup,
    instances: wgpu::Buffer,
    capacity: u64,
    count: u32,
}

impl BareRenderer {
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
    ) -> Result<Self, String> {
        let module = wgsl(device, "bare.wgsl", SHADER);
        let shared = SpriteShared::new(device, queue, "bare")?;
        let buffers = [Some(position_stream())];
        let stages = QuadStages {
            module: &module,
            vertex: "vs_main",
            fragment: "fs_main",
            buffers: &buffers,
        };
        let pipeline = quad_pipeline(device, &shared.pipeline_layout, "bare", stages, format);
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("bare globals"),
            size: std::mem::size_of::<BareGlobals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind_group = shared.bind(device, &uniform);
        Ok(Self {
            pipeline,
            uniform,
            instances: positions_buffer(device, 1024),
            capacity: 1024,
            bind_group,
            count: 0,
        })
    }

    /// Uploads the positions and the view transform.
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        transform: &ViewTransform,
        positions: &[Vec2],
    ) {
        let n = positions.len() as u64;
        if n > self.capacity {
            self.capacity = n.next_power_of_two();
            self.instances = positions_buffer(device, self.capacity);
        }
        let (scale, offset) = transform.clip_transform();
        let globals = BareGlobals {
            scale,
            offset,
            size: BULLET_SIZE,
            _pad: [0.0; 3],
        };
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&globals));
        if n > 0 {
            queue.write_buffer(&self.instances, 0, bytemuck::cast_slice(positions));
        }
        self.count = n as u32;
    }

    /// Records the one draw.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>) {
        if self.count == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.set_vertex_buffer(0, self.instances.slice(0..self.count as u64 * VEC2));
        pass.draw(0..4, 0..self.count);
    }
}

fn positions_buffer(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("bare positions"),
        size: capacity * VEC2,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
