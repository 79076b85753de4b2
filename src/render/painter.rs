//! One frame's drawing into any colour target: the sprites, then the overlay. The window
//! paints into its surface texture, the benchmark and tests into an offscreen texture; both
//! use this same code.

use std::time::{Duration, Instant};

use super::bare::BareRenderer;
use super::scene::{self, ShapeInstance, ViewTransform};
use super::sprites::{SpriteFrame, SpriteRenderer};
use super::{CLEAR, OverlayUi};

/// Where a painted frame's CPU time went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PaintTimings {
    /// Laying out and tessellating the overlay (egui).
    pub overlay: Duration,
    /// Writing instance, uniform and overlay buffers.
    pub upload: Duration,
    /// Recording the render pass and finishing the command buffer.
    pub encode: Duration,
}

/// The result of painting a frame.
pub struct Painted {
    /// Command buffers to submit, in order.
    pub commands: Vec<wgpu::CommandBuffer>,
    /// What egui asks of the platform (cursor, clipboard), for the window to apply.
    pub platform_output: Option<egui::PlatformOutput>,
    pub timings: PaintTimings,
}

/// The sprite pipeline and the overlay's egui state and renderer.
pub struct Painter {
    sprites: SpriteRenderer,
    /// When set, bullets are drawn by the bare renderer instead (the benchmark's yardstick);
    /// the other bodies and the overlay are drawn as usual.
    bare: Option<BareRenderer>,
    egui: egui::Context,
    egui_renderer: egui_wgpu::Renderer,
    /// Backgrounds of the overlay's panels, this frame.
    panels: Vec<ShapeInstance>,
    /// egui textures to free once the frame that last used them has been submitted.
    to_free: Vec<egui::TextureId>,
}

impl Painter {
    /// Pipelines for a target of `format`; with `bare`, the bare instanced renderer draws
    /// the bullets.
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        bare: bool,
    ) -> Result<Self, String> {
        // No dithering: on a software rasteriser its per-pixel noise is a large share of the
        // overlay's cost, and the overlay has no gradients for it to smooth.
        let egui_renderer = egui_wgpu::Renderer::new(
            device,
            format,
            egui_wgpu::RendererOptions {
                dithering: false,
                ..Default::default()
            },
        );
        let bare = if bare {
            Some(BareRenderer::new(device, queue, format)?)
        } else {
            None
        };
        Ok(Self {
            sprites: SpriteRenderer::new(device, queue, format)?,
            bare,
            egui: egui::Context::default(),
            egui_renderer,
            panels: Vec::new(),
            to_free: Vec::new(),
        })
    }

    /// The egui context (the window feeds it input).
    pub fn egui(&self) -> &egui::Context {
        &self.egui
    }

    /// Paints `frame` into `view` (of `size` pixels), with the overlay when `overlay` gives
    /// its input and the function that lays it out. The returned command buffers must be
    /// submitted before the next call.
    pub fn paint(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        view: &wgpu::TextureView,
        size: (u32, u32),
        frame: &SpriteFrame,
        overlay: Option<(egui::RawInput, OverlayUi)>,
    ) -> Painted {
        for id in self.to_free.drain(..) {
            self.egui_renderer.free_texture(&id);
        }
        let mut timings = PaintTimings::default();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });
        let mut platform_output = None;
        let mut commands = Vec::new();

        let egui_frame = overlay.map(|(input, layout)| {
            let t = Instant::now();
            let mut panel_rects = Vec::new();
            let mut output = self.egui.run_pass(input, |ctx| panel_rects = layout(ctx));
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
            let transform = ViewTransform::new(crate::world::WORLD_SIZE, size.0, size.1);
            scene::panel_backgrounds(&transform, &pixels, &mut self.panels);
            platform_output = Some(std::mem::take(&mut output.platform_output));
            let jobs = self
                .egui
                .tessellate(std::mem::take(&mut output.shapes), ppp);
            timings.overlay = t.elapsed();

            let t = Instant::now();
            let screen = egui_wgpu::ScreenDescriptor {
                size_in_pixels: [size.0, size.1],
                pixels_per_point: ppp,
            };
            for (id, deltas) in &output.textures_delta.set {
                for delta in deltas {
                    self.egui_renderer.update_texture(device, queue, *id, delta);
                }
            }
            commands.extend(self.egui_renderer.update_buffers(
                device,
                queue,
                &mut encoder,
                &jobs,
                &screen,
            ));
            self.to_free
                .extend(output.textures_delta.free.iter().copied());
            // Every delta is handled: uploads above, frees at the next paint.
            output.textures_delta.clear();
            timings.upload = t.elapsed();
            (jobs, screen)
        });
        if egui_frame.is_none() {
            self.panels.clear();
        }
        let t = Instant::now();
        match &mut self.bare {
            Some(bare) => {
                let transform = ViewTransform::new(crate::world::WORLD_SIZE, size.0, size.1);
                bare.prepare(device, queue, &transform, frame.pos);
                // Everything but the bullets is drawn as usual, so the comparison isolates
                // the bullets' path.
                let no_bullets = SpriteFrame {
                    prev: &[],
                    pos: &[],
                    vel: &[],
                    globals: frame.globals,
                    ghosts: None,
                    shapes: frame.shapes,
                };
                self.sprites
                    .prepare(device, queue, &no_bullets, &self.panels);
            }
            None => self.sprites.prepare(device, queue, frame, &self.panels),
        }
        timings.upload += t.elapsed();

        let t = Instant::now();
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("sprites and overlay"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view,
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
            if let Some(bare) = &self.bare {
                bare.draw(&mut pass);
            }
            self.sprites.draw(&mut pass);
            if let Some((jobs, screen)) = &egui_frame {
                self.egui_renderer.render(&mut pass, jobs, screen);
            }
        }
        commands.push(encoder.finish());
        timings.encode = t.elapsed();
        Painted {
            commands,
            platform_output,
            timings,
        }
    }
}
