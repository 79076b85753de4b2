//! One frame's drawing into any colour target: the sprites, then the overlay. The window
//! paints into its surface texture, the benchmark and tests into an offscreen texture; both
//! use this same code.

use super::bare::BareRenderer;
use super::egui_meshes::EguiMeshes;
use super::scene;
use super::shapes::{ShapeInstance, ViewTransform};
use super::sprites::{SpriteFrame, SpriteRenderer};
use super::{CLEAR, OverlayPaint, TextureChanges};
use crate::platform::clock::Stopwatch;
use crate::session::frame::RenderTimes;
use crate::world::layout::Region;

/// The result of painting a frame.
pub struct Painted {
    /// Command buffers to submit, in order.
    pub commands: Vec<wgpu::CommandBuffer>,
    /// The upload and encode times (the caller adds acquire, overlay and present).
    pub timings: RenderTimes,
}

/// The sprite pipeline and the overlay's renderer.
pub struct Painter {
    sprites: SpriteRenderer,
    /// When set, bullets are drawn by the bare renderer instead (the benchmark's yardstick);
    /// the other bodies and the overlay are drawn as usual.
    bare: Option<BareRenderer>,
    egui: EguiMeshes,
    /// Backgrounds of the overlay's panels, this frame.
    panels: Vec<ShapeInstance>,
    /// egui textures to free once the frame that last used them has been submitted.
    to_free: Vec<egui::TextureId>,
    /// egui textures the next painted frame may still use; then they move to `to_free`.
    free_after_paint: Vec<egui::TextureId>,
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
        let bare = if bare {
            Some(BareRenderer::new(device, queue, format)?)
        } else {
            None
        };
        Ok(Self {
            sprites: SpriteRenderer::new(device, queue, format)?,
            bare,
            egui: EguiMeshes::new(device, format),
            panels: Vec::new(),
            to_free: Vec::new(),
            free_after_paint: Vec::new(),
        })
    }

    /// Uploads egui's texture changes and queues its freed textures, leaving `textures`
    /// empty. Call it even for a frame that is not drawn: egui sends its font atlas once and
    /// then only changes, so a change that is dropped garbles the overlay for good.
    pub fn apply_textures(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        textures: &mut TextureChanges,
    ) {
        for (id, image) in textures.set.drain(..) {
            self.egui.set_texture(device, queue, id, &image);
        }
        // The coming frame may still use the textures egui frees: they go after it.
        self.free_after_paint.append(&mut textures.free);
    }

    /// Paints `frame` into `view` (of `size` pixels), with the overlay when it is given
    /// (laid out by the application). The returned command buffers must be submitted before
    /// the next call.
    pub fn paint(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        view: &wgpu::TextureView,
        size: (u32, u32),
        frame: &SpriteFrame,
        overlay: Option<OverlayPaint>,
    ) -> Painted {
        for id in self.to_free.drain(..) {
            self.egui.free_texture(id);
        }
        let mut timings = RenderTimes::default();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("frame"),
        });

        let t = Stopwatch::start();
        self.upload(device, queue, size, frame, overlay);
        timings.upload = t.elapsed();

        let t = Stopwatch::start();
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
            self.sprites.draw_behind(&mut pass);
            self.draw_bullets(&mut pass, frame, size);
            pass.set_scissor_rect(0, 0, size.0, size.1);
            self.sprites.draw_over(&mut pass);
            self.egui.draw(&mut pass, size);
        }
        let commands = vec![encoder.finish()];
        timings.encode = t.elapsed();
        self.to_free.append(&mut self.free_after_paint);
        Painted { commands, timings }
    }

    /// Uploads what the frame draws: the overlay's meshes and textures (and the panels'
    /// backgrounds behind them), and the sprites, or with the bare renderer its bullets
    /// apart from everything else.
    fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        size: (u32, u32),
        frame: &SpriteFrame,
        overlay: Option<OverlayPaint>,
    ) {
        match overlay {
            Some(mut overlay) => {
                scene::panel_backgrounds(&frame.transform, &overlay.panels, &mut self.panels);
                self.apply_textures(device, queue, &mut overlay.textures);
                self.egui.prepare(
                    device,
                    queue,
                    &overlay.primitives,
                    overlay.pixels_per_point,
                    size,
                );
            }
            None => {
                self.panels.clear();
                self.egui.prepare(device, queue, &[], 1.0, size);
            }
        }
        match &mut self.bare {
            Some(bare) => {
                bare.prepare(device, queue, &frame.transform, frame.pos);
                // Everything but the bullets is drawn as usual, so the comparison isolates
                // the bullets' path.
                let no_bullets = SpriteFrame {
                    prev: &[],
                    pos: &[],
                    vel: &[],
                    transform: frame.transform,
                    globals: frame.globals,
                    ghosts: None,
                    shapes: frame.shapes,
                    behind: frame.behind,
                    plain_from: frame.plain_from,
                    clip: None,
                    groups: &[],
                };
                self.sprites
                    .prepare(device, queue, &no_bullets, &self.panels);
            }
            None => self.sprites.prepare(device, queue, frame, &self.panels),
        }
    }

    /// Draws the bullets: in one clip (the stream's region), or, for compare mode's lanes,
    /// each group of bullets in its own tile.
    fn draw_bullets(
        &self,
        pass: &mut wgpu::RenderPass<'static>,
        frame: &SpriteFrame,
        size: (u32, u32),
    ) {
        if frame.groups.is_empty() {
            let clip = frame.clip.and_then(|r| scissor(&frame.transform, r, size));
            if let Some((x, y, w, h)) = clip {
                pass.set_scissor_rect(x, y, w, h);
            }
            match &self.bare {
                Some(bare) => bare.draw(pass),
                None => self.sprites.draw_bullets(pass),
            }
            return;
        }
        for group in frame.groups {
            let clip = match group.clip {
                Some(r) => scissor(&frame.transform, r, size),
                None => Some((0, 0, size.0, size.1)),
            };
            if let Some((x, y, w, h)) = clip {
                pass.set_scissor_rect(x, y, w, h);
                self.sprites.draw_bullet_range(pass, group.range.clone());
            }
        }
    }
}

/// The pixel rectangle `(x, y, width, height)` of a world region on a target of `size`,
/// clamped to the target; `None` when nothing of it is on the target.
fn scissor(
    transform: &ViewTransform,
    region: Region,
    size: (u32, u32),
) -> Option<(u32, u32, u32, u32)> {
    let min = transform.to_pixel(region.min).floor().max(glam::Vec2::ZERO);
    let max = transform
        .to_pixel(region.max)
        .ceil()
        .min(glam::Vec2::new(size.0 as f32, size.1 as f32));
    let extent = max - min;
    (extent.x >= 1.0 && extent.y >= 1.0).then_some((
        min.x as u32,
        min.y as u32,
        extent.x as u32,
        extent.y as u32,
    ))
}
