//! Drawing the square: a wgpu surface, and one triangle in one colour drawn over a viewport
//! that is the square. Shared by the `square` and `square_by_hand` examples.

use std::sync::Arc;

use winit::window::Window;

/// The square's side, in pixels.
pub const SIZE: f32 = 80.0;

/// What draws into the window.
pub struct Gpu {
    surface: wgpu::Surface<'static>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    pipeline: wgpu::RenderPipeline,
}

impl Gpu {
    pub async fn new(window: Arc<Window>) -> Gpu {
        // In a browser, WebGPU where it answers and WebGL2 where it does not.
        let instance = wgpu::util::new_instance_with_webgpu_detection(
            wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
        )
        .await;
        let surface = instance
            .create_surface(Arc::clone(&window))
            .expect("a surface");
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                compatible_surface: Some(&surface),
                ..Default::default()
            })
            .await
            .expect("a GPU adapter (on Linux without a GPU: apt-get install mesa-vulkan-drivers)");
        let (device, queue) = adapter
            // What the adapter offers: a browser's WebGL2 has none of the compute limits
            // wgpu asks for by default.
            .request_device(&wgpu::DeviceDescriptor {
                required_limits: adapter.limits(),
                ..Default::default()
            })
            .await
            .expect("a device");
        let size = window.inner_size();
        let config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .expect("a surface the adapter supports");
        surface.configure(&device, &config);
        // One triangle that covers the viewport, in one colour: the viewport is the square.
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: None,
            source: wgpu::ShaderSource::Wgsl(
                "@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
                    return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);
                }
                @fragment fn fs() -> @location(0) vec4<f32> { return vec4<f32>(1.0, 0.75, 0.2, 1.0); }"
                    .into(),
            ),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: None,
            layout: None,
            vertex: wgpu::VertexState {
                module: &shader,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            fragment: Some(wgpu::FragmentState {
                module: &shader,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(config.format.into())],
            }),
            primitive: Default::default(),
            depth_stencil: None,
            multisample: Default::default(),
            multiview_mask: None,
            cache: None,
        });
        Gpu {
            surface,
            device,
            queue,
            config,
            pipeline,
        }
    }

    /// The window's inner size changed.
    pub fn resize(&mut self, width: u32, height: u32) {
        (self.config.width, self.config.height) = (width, height);
        self.surface.configure(&self.device, &self.config);
    }

    /// The surface's width in pixels.
    pub fn width(&self) -> f32 {
        self.config.width as f32
    }

    /// Draws the square at `x`; true when a frame was presented.
    pub fn draw(&mut self, x: f32) -> bool {
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(frame)
            | wgpu::CurrentSurfaceTexture::Suboptimal(frame) => frame,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                self.surface.configure(&self.device, &self.config);
                return false;
            }
            _ => return false,
        };
        let view = frame.texture.create_view(&Default::default());
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &view,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: 0.004,
                            g: 0.005,
                            b: 0.01,
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            let (width, height) = (self.config.width as f32, self.config.height as f32);
            if width >= SIZE && height >= SIZE {
                pass.set_viewport(
                    x.clamp(0.0, width - SIZE),
                    (height - SIZE) / 2.0,
                    SIZE,
                    SIZE,
                    0.0,
                    1.0,
                );
                pass.set_pipeline(&self.pipeline);
                pass.draw(0..3, 0..1);
            }
        }
        self.queue.submit([encoder.finish()]);
        self.queue.present(frame);
        true
    }
}
