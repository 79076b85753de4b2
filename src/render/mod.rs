//! Rendering: the GPU, the window surface and its states, the sprite pipeline, the overlay,
//! and an offscreen target for tests and benchmarks.

pub mod bare;
pub mod descriptors;
pub mod egui_meshes;
pub mod gpu;
pub mod lanes;
pub mod offscreen;
pub mod painter;
pub mod plain;
pub mod scene;
pub mod shapes;
pub mod sprites;
pub mod timeline;

use std::sync::Arc;

use glam::Vec2;
use winit::window::Window;

use crate::hooks::surface_faults::SurfaceFaults;
use crate::platform::clock::Stopwatch;
use crate::session::frame::RenderTimes;
use crate::session::present::{DEFAULT_LATENCY, PresentMode};
use gpu::{Gpu, choose_present_mode};
use painter::Painter;
use sprites::SpriteFrame;

/// The background colour: a dark blue-grey that keeps sprites and text readable (22, 25, 36
/// of 255). Colours are display (gamma-encoded) values: the surface is a plain `Unorm`
/// format, so what the shaders write is what the screen shows, and blending happens in
/// display space as egui expects.
pub const CLEAR: wgpu::Color = wgpu::Color {
    r: 22.0 / 255.0,
    g: 25.0 / 255.0,
    b: 36.0 / 255.0,
    a: 1.0,
};

/// The overlay of one frame as the application laid it out with egui: finished paint jobs,
/// texture changes, and the panels' rectangles in surface pixels (the sprite pipeline draws
/// their backgrounds: on a software rasteriser a plain quad is much cheaper than egui's own
/// window fill). The renderer paints this and knows nothing of what it says.
#[derive(Default)]
pub struct OverlayPaint {
    pub primitives: Vec<egui::ClippedPrimitive>,
    pub textures: TextureChanges,
    pub pixels_per_point: f32,
    /// Panel rectangles, (min, max) in surface pixels.
    pub panels: Vec<(Vec2, Vec2)>,
}

/// egui's texture changes for one frame: images to upload (in order, per texture) before
/// painting, and textures to free after it. Unlike egui's own `TexturesDelta`, dropping it
/// unapplied is allowed (a test that only lays out), so it is emptied where it is made.
#[derive(Default)]
pub struct TextureChanges {
    pub set: Vec<(egui::TextureId, egui::epaint::ImageDelta)>,
    pub free: Vec<egui::TextureId>,
}

impl TextureChanges {
    /// Takes every change out of egui's delta, leaving it empty.
    pub fn take(delta: &mut egui::TexturesDelta) -> Self {
        #[allow(clippy::iter_over_hash_type)] // each texture's images keep their order
        let set = delta
            .set
            .drain()
            .flat_map(|(id, images)| images.into_iter().map(move |image| (id, image)))
            .collect();
        #[allow(clippy::iter_over_hash_type)]
        let free = delta.free.drain().collect();
        Self { set, free }
    }
}

/// Surfaces found outdated or lost and rebuilt, over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SurfaceRecoveries {
    /// Reconfigured after being reported outdated.
    pub outdated: u64,
    /// Recreated after being reported lost.
    pub lost: u64,
}

impl std::ops::Add for SurfaceRecoveries {
    type Output = Self;
    fn add(self, other: Self) -> Self {
        Self {
            outdated: self.outdated + other.outdated,
            lost: self.lost + other.lost,
        }
    }
}

/// What happened to a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameOutcome {
    /// Drawn and handed to the display.
    Presented,
    /// Not drawn: the window has no area, is occluded, or the surface was not ready (it has
    /// been reconfigured or recreated when that helps).
    Skipped(&'static str),
}

/// The window's GPU state.
pub struct Graphics {
    pub window: Arc<Window>,
    pub gpu: Gpu,
    /// The adapter in words, for the overlay and reports.
    pub adapter: Arc<str>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    present_modes: Vec<wgpu::PresentMode>,
    painter: Painter,
    /// The `--surface-faults` test hook, when given.
    faults: Option<SurfaceFaults>,
    recoveries: SurfaceRecoveries,
}

impl Graphics {
    /// Creates the surface for `window`, a device that can present to it, and the pipelines:
    /// with the bare instanced renderer for the bullets when `bare`, and `faults` standing in
    /// for some surface textures (both test hooks). A future, since a page's thread may not
    /// block on the adapter and device requests; a native window blocks on it.
    pub async fn create(
        window: Arc<Window>,
        instance: wgpu::Instance,
        (present, latency): (PresentMode, u32),
        bare: bool,
        faults: Option<SurfaceFaults>,
    ) -> Result<Self, String> {
        let surface = match instance.create_surface(Arc::clone(&window)) {
            Ok(surface) => surface,
            Err(e) => {
                // With no driver at all, creating the surface is the first thing that fails.
                let adapters = instance.enumerate_adapters(wgpu::Backends::all()).await;
                return Err(if adapters.is_empty() {
                    gpu::no_adapter_message()
                } else {
                    format!("cannot create a drawing surface for the window: {e}")
                });
            }
        };
        let gpu = Gpu::open(instance, Some(&surface)).await?;
        let caps = surface.get_capabilities(&gpu.adapter);
        if caps.formats.is_empty() {
            return Err(format!(
                "the GPU adapter '{}' cannot present to this window",
                gpu.adapter.get_info().name
            ));
        }
        let size = window.inner_size();
        let mut config = surface_config(&caps, size.width, size.height);
        config.present_mode = choose_present_mode(&caps.present_modes, present);
        config.desired_maximum_frame_latency = latency;
        if size.width > 0 && size.height > 0 {
            surface.configure(&gpu.device, &config);
        } else {
            // No area yet (a page's canvas is measured after it is made): nothing is drawn
            // until a resize gives it one, as for a minimized window.
            config.width = 0;
            config.height = 0;
        }
        let painter = Painter::new(&gpu.device, &gpu.queue, config.format, bare)?;
        log::info!(
            "GPU: {}, surface {:?} {}x{}, present modes {:?}, using {:?}",
            gpu.adapter_summary(),
            config.format,
            config.width,
            config.height,
            caps.present_modes,
            config.present_mode
        );
        Ok(Self {
            window,
            adapter: gpu.adapter_summary().into(),
            gpu,
            surface,
            config,
            present_modes: caps.present_modes,
            painter,
            faults,
            recoveries: SurfaceRecoveries::default(),
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

    /// The frame latency asked for (wgpu clamps it to what the driver allows, and does
    /// not say what it got).
    pub fn frame_latency(&self) -> u32 {
        self.config.desired_maximum_frame_latency
    }

    /// The present modes the surface offers.
    pub fn offered_modes(&self) -> Vec<PresentMode> {
        gpu::offered_modes(&self.present_modes)
    }

    /// Sets the surface up again with `present` (or the nearest mode offered) and
    /// `latency` frames in flight. This waits for the GPU to finish what is queued: the
    /// frame after is a hitch of about the queue's depth.
    pub fn set_swapchain(&mut self, present: PresentMode, latency: u32) {
        self.config.present_mode = choose_present_mode(&self.present_modes, present);
        self.config.desired_maximum_frame_latency = latency;
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

    /// Surfaces rebuilt so far.
    pub fn recoveries(&self) -> SurfaceRecoveries {
        self.recoveries
    }

    /// The largest texture side the device takes (for the overlay's font atlas).
    pub fn max_texture_side(&self) -> usize {
        self.gpu.device.limits().max_texture_dimension_2d as usize
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

    /// Draws one frame: the sprites as `frame` describes them, and the overlay when `overlay`
    /// is given. Returns what happened and where the time went.
    pub fn render(
        &mut self,
        frame: &SpriteFrame,
        overlay: Option<OverlayPaint>,
    ) -> (FrameOutcome, RenderTimes) {
        let mut timings = RenderTimes::default();
        // Texture changes are applied whether or not this frame gets drawn.
        let overlay = overlay.map(|mut overlay| {
            let gpu = &self.gpu;
            self.painter
                .apply_textures(&gpu.device, &gpu.queue, &mut overlay.textures);
            overlay
        });
        if self.config.width == 0 || self.config.height == 0 {
            return (FrameOutcome::Skipped("window has no area"), timings);
        }
        let t = Stopwatch::start();
        let acquired = match self.faults.as_mut().and_then(SurfaceFaults::next_frame) {
            Some(fault) => fault.as_acquired(),
            None => self.surface.get_current_texture(),
        };
        let (texture, suboptimal) = match acquired {
            wgpu::CurrentSurfaceTexture::Success(t) => (t, false),
            wgpu::CurrentSurfaceTexture::Suboptimal(t) => (t, true),
            wgpu::CurrentSurfaceTexture::Timeout => {
                return (FrameOutcome::Skipped("surface timed out"), timings);
            }
            wgpu::CurrentSurfaceTexture::Occluded => {
                return (FrameOutcome::Skipped("window occluded"), timings);
            }
            // The frame that finds its surface outdated or lost is skipped; the surface is
            // reconfigured, or made again, for the next.
            wgpu::CurrentSurfaceTexture::Outdated => {
                self.recoveries.outdated += 1;
                log::info!("surface outdated: reconfiguring");
                self.reconfigure();
                return (FrameOutcome::Skipped("surface outdated"), timings);
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                self.recoveries.lost += 1;
                log::warn!("surface lost: recreating it");
                self.recreate_surface();
                return (FrameOutcome::Skipped("surface lost"), timings);
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                log::error!("surface validation error: skipping the frame");
                return (FrameOutcome::Skipped("surface validation error"), timings);
            }
        };
        timings.acquire = t.elapsed();
        let view = texture.texture.create_view(&Default::default());
        let painted = self.painter.paint(
            &self.gpu.device,
            &self.gpu.queue,
            &view,
            (self.config.width, self.config.height),
            frame,
            overlay,
        );
        timings.upload = painted.timings.upload;
        timings.encode = painted.timings.encode;
        let t = Stopwatch::start();
        self.gpu.queue.submit(painted.commands);
        self.window.pre_present_notify();
        self.gpu.queue.present(texture);
        timings.present = t.elapsed();
        if suboptimal {
            self.reconfigure();
        }
        (FrameOutcome::Presented, timings)
    }
}

/// How a window's surface of `width` by `height` is set up: a format written as it is
/// (not sRGB: the shaders write gamma-encoded colours), FIFO, and wgpu's default of two
/// frames in flight (the window then sets the mode and latency its knobs ask for).
fn surface_config(
    caps: &wgpu::SurfaceCapabilities,
    width: u32,
    height: u32,
) -> wgpu::SurfaceConfiguration {
    let format = caps
        .formats
        .iter()
        .copied()
        .find(|f| !f.is_srgb())
        .unwrap_or(caps.formats[0]);
    wgpu::SurfaceConfiguration {
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        format,
        width: width.max(1),
        height: height.max(1),
        present_mode: wgpu::PresentMode::Fifo,
        desired_maximum_frame_latency: DEFAULT_LATENCY,
        // Opaque where offered: a page's canvas otherwise lets the page show through
        // wherever the overlay's text blends with less than full alpha.
        alpha_mode: if caps.alpha_modes.contains(&wgpu::CompositeAlphaMode::Opaque) {
            wgpu::CompositeAlphaMode::Opaque
        } else {
            caps.alpha_modes[0]
        },
        view_formats: vec![],
        color_space: wgpu::SurfaceColorSpace::Auto,
    }
}
