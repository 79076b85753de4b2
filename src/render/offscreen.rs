//! Rendering to a texture and reading it back: for tests that check pixels and for
//! benchmarks that need no display.

use super::descriptors::texture_2d;
use super::gpu::Gpu;

/// Bytes per pixel of the RGBA8 target.
const BYTES_PER_PIXEL: u32 = 4;

/// A colour target the size of a window, with a buffer to read it back.
pub struct OffscreenTarget {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub width: u32,
    pub height: u32,
    pub format: wgpu::TextureFormat,
    readback: wgpu::Buffer,
    padded_row: u32,
}

impl OffscreenTarget {
    /// The format the offscreen target uses: the one the window's surface takes on
    /// lavapipe under X11 (the first format it offers that is not sRGB), so that what is
    /// measured offscreen is what the window pays. A CPU rasteriser takes faster
    /// paths for some formats than for others: lavapipe drew 500 small blended quads in
    /// 0.39-0.48 ms into BGRA and 0.62-0.85 ms into RGBA, on the same machine minutes apart.
    pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;

    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Self {
        let texture = device.create_texture(&texture_2d(
            "offscreen target",
            width,
            height,
            Self::FORMAT,
            wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        ));
        let view = texture.create_view(&Default::default());
        let padded_row = (width * BYTES_PER_PIXEL).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: padded_row as u64 * height as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Self {
            texture,
            view,
            width,
            height,
            format: Self::FORMAT,
            readback,
            padded_row,
        }
    }

    /// Copies the target into the readback buffer and returns its pixels, RGBA (whatever
    /// the target's byte order), row by row with no padding. Waits for the GPU.
    pub fn read_rgba(&self, gpu: &Gpu) -> Result<Vec<u8>, String> {
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
        );
        gpu.queue.submit([encoder.finish()]);
        let slice = self.readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        gpu.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| format!("waiting for the GPU: {e}"))?;
        rx.recv()
            .map_err(|e| format!("readback callback lost: {e}"))?
            .map_err(|e| format!("mapping the readback buffer: {e}"))?;
        let row = (self.width * BYTES_PER_PIXEL) as usize;
        let mut pixels = Vec::with_capacity(row * self.height as usize);
        {
            let data = slice
                .get_mapped_range()
                .map_err(|e| format!("reading the readback buffer: {e}"))?;
            for y in 0..self.height as usize {
                let start = y * self.padded_row as usize;
                pixels.extend_from_slice(&data[start..start + row]);
            }
        }
        if self.format == wgpu::TextureFormat::Bgra8Unorm {
            for pixel in pixels.chunks_exact_mut(BYTES_PER_PIXEL as usize) {
                pixel.swap(0, 2);
            }
        }
        self.readback.unmap();
        Ok(pixels)
    }
}

/// Paints one frame (and the overlay, when given) into `target` with `painter`, the window's
/// own drawing code, and waits for the GPU.
pub fn render(
    gpu: &Gpu,
    painter: &mut super::painter::Painter,
    target: &OffscreenTarget,
    frame: &super::sprites::SpriteFrame,
    overlay: Option<super::OverlayPaint>,
) -> Result<(), String> {
    let painted = painter.paint(
        &gpu.device,
        &gpu.queue,
        &target.view,
        (target.width, target.height),
        frame,
        overlay,
    );
    gpu.queue.submit(painted.commands);
    gpu.device
        .poll(wgpu::PollType::wait_indefinitely())
        .map(|_| ())
        .map_err(|e| format!("waiting for the GPU: {e}"))
}
