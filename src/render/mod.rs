//! Rendering: the GPU, the window surface and its states, the sprite pipeline, the overlay,
//! and an offscreen target for tests and benchmarks.

pub mod gpu;
pub mod offscreen;
pub mod overlay;
pub mod scene;
pub mod sprites;

use std::sync::Arc;

use winit::window::Window;

use crate::input::Action;
use gpu::{Gpu, choose_present_mode};
use overlay::OverlayModel;
use scene::{ShapeInstance, ViewTransform};
use sprites::{SpriteFrame, SpriteRenderer};

/// The background colour: a dark blue-grey that keeps sprites and text readable. Colours
/// are display (gamma-encoded) values: the surface is a plain `Unorm` format, so what the
/// shaders write is what the screen shows, and blending happens in display space as egui
/// expects.
pub const CLEAR: wgpu::Color = wgpu::Color {
    r: 0.055,
    g: 0.06,
    b: 0.09,
    a: 1.0,
};

/// What happened to a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameOutcome {
    /// Drawn and handed to the display.
    Presented,
    /// Not drawn: the window has no area, is occluded, or the surface was not ready (it has
    /// been reconfigured or recreated when that helps).
    Skipped(&'static str),
}

/// The egui side of the overlay: context, winit input state and wgpu renderer.
struct OverlayRenderer {
    ctx: egui::Context,
    state: egui_winit::State,
    renderer: egui_wgpu::Renderer,
}

/// The window's GPU state.
pub struct Graphics {
    pub window: Arc<Window>,
    pub gpu: Gpu,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    present_modes: Vec<wgpu::PresentMode>,
    sprites: SpriteRenderer,
    overlay: OverlayRenderer,
    /// Backgrounds of the overlay's panels, this frame.
    panels: Vec<ShapeInstance>,
    /// A test hook: report the next acquired frame as outdated, to exercise recovery.
    force_outdated: bool,
}

impl Graphics {
    /// Creates the surface for `window`, a device that can present to it, and the pipelines.
    pub fn new(window: Arc<Window>, instance: wgpu::Instance, vsync: bool) -> Result<Self, String> {
        let surface = instance
            .create_surface(Arc::clone(&window))
            .map_err(|e| format!("cannot create a drawing surface for the window: {e}"))?;
        let gpu = pollster::block_on(Gpu::open(instance, Some(&surface)))?;
        let caps = surface.get_capabilities(&gpu.adapter);
        if caps.formats.is_empty() {
            return Err(format!(
                "the GPU adapter '{}' cannot present to this window",
                gpu.adapter.get_info().name
            ));
        }
        let format = caps
            .formats
            .iter()
            .copied()
            .find(|f| !f.is_srgb())
            .unwrap_or(caps.formats[0]);
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: choose_present_mode(&caps.present_modes, vsync),
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes[0],
            view_formats: vec![],
            color_space: wgpu::SurfaceColorSpace::Auto,
        };
        if size.width > 0 && size.height > 0 {
            surface.configure(&gpu.device, &config);
        }
        let sprites = SpriteRenderer::new(&gpu.device, &gpu.queue, format)?;
        let ctx = egui::Context::default();
        let state = egui_winit::State::new(
            ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            window.theme(),
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        // No dithering: on a software rasteriser its per-pixel noise is a large share of the
        // overlay's cost, and the overlay has no gradients for it to smooth.
        let renderer = egui_wgpu::Renderer::new(
            &gpu.device,
            format,
            egui_wgpu::RendererOptions {
                dithering: false,
                ..Default::default()
            },
        );
        log::info!(
            "GPU: {}, surface {:?} {}x{}, present modes {:?}, using {:?}",
            gpu.adapter_summary(),
            format,
            config.width,
            config.height,
            caps.present_modes,
            config.present_mode
        );
        Ok(Self {
            window,
            gpu,
            surface,
            config,
            present_modes: caps.present_modes,
            sprites,
            overlay: OverlayRenderer {
                ctx,
                state,
                renderer,
            },
            panels: Vec::new(),
            force_outdated: false,
        })
    }

    /// The present mode in use.
    pub fn present_mode(&self) -> wgpu::PresentMode {
        self.config.present_mode
    }

    /// The surface size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// Chooses the present mode for `vsync` again and reconfigures.
    pub fn set_vsync(&mut self, vsync: bool) {
        self.config.present_mode = choose_present_mode(&self.present_modes, vsync);
        self.reconfigure();
    }

    /// Follows a window resize. A zero size (minimized) is remembered and nothing is
    /// configured until the window has an area again.
    pub fn resize(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 {
            self.config.width = 0;
            self.config.height = 0;
            return;
        }
        self.config.width = width;
        self.config.height = height;
        self.reconfigure();
    }

    /// Makes the next frame report its surface as outdated (for tests of recovery).
    pub fn force_outdated(&mut self) {
        self.force_outdated = true;
    }

    fn reconfigure(&mut self) {
        if self.config.width > 0 && self.config.height > 0 {
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    fn recreate_surface(&mut self) {
        match self.gpu.instance.create_surface(Arc::clone(&self.window)) {
            Ok(surface) => {
                self.surface = surface;
                self.reconfigure();
            }
            Err(e) => log::error!("cannot recreate the lost surface: {e}"),
        }
    }

    /// Passes a window event to the overlay; true when the overlay used it (a click on a
    /// button), so it should not also act as a game key.
    pub fn overlay_event(&mut self, event: &winit::event::WindowEvent) -> bool {
        self.overlay
            .state
            .on_window_event(&self.window, event)
            .consumed
    }

    /// Draws one frame: the sprites as `frame` describes them, and the overlay when `model`
    /// is given. Returns what happened and the actions clicked in the overlay.
    pub fn render(
        &mut self,
        frame: &SpriteFrame,
        model: Option<&OverlayModel>,
    ) -> (FrameOutcome, Vec<Action>) {
        if self.config.width == 0 || self.config.height == 0 {
            return (FrameOutcome::Skipped("window has no area"), vec![]);
        }
        let acquired = if std::mem::take(&mut self.force_outdated) {
            wgpu::CurrentSurfaceTexture::Outdated
        } else {
            self.surface.get_current_texture()
        };
        let (texture, suboptimal) = match acquired {
            wgpu::CurrentSurfaceTexture::Success(t) => (t, false),
            wgpu::CurrentSurfaceTexture::Suboptimal(t) => (t, true),
            wgpu::CurrentSurfaceTexture::Timeout => {
                return (FrameOutcome::Skipped("surface timed out"), vec![]);
            }
            wgpu::CurrentSurfaceTexture::Occluded => {
                return (FrameOutcome::Skipped("window occluded"), vec![]);
            }
            wgpu::CurrentSurfaceTexture::Outdated => {
                log::info!("surface outdated: reconfiguring");
                self.reconfigure();
                return (FrameOutcome::Skipped("surface outdated"), vec![]);
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                log::warn!("surface lost: recreating it");
                self.recreate_surface();
                return (FrameOutcome::Skipped("surface lost"), vec![]);
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                log::error!("surface validation error: skipping the frame");
                return (FrameOutcome::Skipped("surface validation error"), vec![]);
            }
        };
        let view = texture.texture.create_view(&Default::default());
        let device = &self.gpu.device;
        let queue = &self.gpu.queue;
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });

        let mut actions = Vec::new();
        let mut panel_rects = Vec::new();
        let egui_frame = model.map(|model| {
            let o = &mut self.overlay;
            let input = o.state.take_egui_input(&self.window);
            let mut output = o.ctx.run_pass(input, |ctx| {
                (actions, panel_rects) = overlay::ui(ctx, model)
            });
            let ppp = output.pixels_per_point;
            let pixels: Vec<_> = panel_rects
                .iter()
                .map(|r| {
                    (
                        glam::Vec2::new(r.min.x, r.min.y) * ppp,
                        glam::Vec2::new(r.max.x, r.max.y) * ppp,
                    )
                })
                .collect();
            let transform = ViewTransform::new(
                crate::world::WORLD_SIZE,
                self.config.width,
                self.config.height,
            );
            scene::panel_backgrounds(&transform, &pixels, &mut self.panels);
            o.state
                .handle_platform_output(&self.window, std::mem::take(&mut output.platform_output));
            let jobs = o
                .ctx
                .tessellate(std::mem::take(&mut output.shapes), output.pixels_per_point);
            let screen = egui_wgpu::ScreenDescriptor {
                size_in_pixels: [self.config.width, self.config.height],
                pixels_per_point: output.pixels_per_point,
            };
            for (id, deltas) in &output.textures_delta.set {
                for delta in deltas {
                    o.renderer.update_texture(device, queue, *id, delta);
                }
            }
            let extra = o
                .renderer
                .update_buffers(device, queue, &mut encoder, &jobs, &screen);
            let free: Vec<egui::TextureId> = output.textures_delta.free.iter().copied().collect();
            // Every delta is handled: uploads above, frees after the submit below.
            output.textures_delta.clear();
            (jobs, screen, extra, free)
        });
        if egui_frame.is_none() {
            self.panels.clear();
        }
        self.sprites.prepare(device, queue, frame, &self.panels);

        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("sprites and overlay"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &view,
                        depth_slice: None,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Clear(CLEAR),
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            self.sprites.draw(&mut pass);
            if let Some((jobs, screen, _, _)) = &egui_frame {
                self.overlay.renderer.render(&mut pass, jobs, screen);
            }
        }
        let mut buffers = Vec::new();
        let mut freed = Vec::new();
        if let Some((_, _, extra, free)) = egui_frame {
            buffers.extend(extra);
            freed.extend(free);
        }
        buffers.push(encoder.finish());
        queue.submit(buffers);
        self.window.pre_present_notify();
        queue.present(texture);
        for id in &freed {
            self.overlay.renderer.free_texture(id);
        }
        if suboptimal {
            self.reconfigure();
        }
        (FrameOutcome::Presented, actions)
    }
}
