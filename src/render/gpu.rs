//! The GPU: instance, adapter, device and queue, with errors a person can act on, and the
//! choice of present mode from what a surface actually offers.

use crate::session::present::PresentMode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What to tell a person whose machine has no usable GPU adapter.
pub const NO_ADAPTER_HELP: &str = "Looplab needs a Vulkan, Metal, DX12 or OpenGL driver. \
     On Debian or Ubuntu without a GPU, install Mesa's software Vulkan driver: \
     sudo apt-get install mesa-vulkan-drivers libvulkan1";

/// The one-line message for a failed adapter request, naming the backends that were tried.
pub fn no_adapter_message() -> String {
    let tried = match wgpu::Backends::from_env() {
        Some(b) => format!("{b:?} (from WGPU_BACKEND)"),
        None => "every backend built in".to_string(),
    };
    format!("no GPU adapter found ({tried}): {NO_ADAPTER_HELP}")
}

/// An open device and everything it came from.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// Validation errors reported by the device since it was created. They are logged rather
    /// than allowed to panic, and counted so tests can assert there were none.
    pub errors: Arc<AtomicU64>,
    /// Set by the device-lost callback: the driver reset, the GPU went away, or the
    /// device was destroyed. Nothing drawn with this device shows any more. An error that
    /// means the device is gone ("Parent device is lost") is not handed to the error
    /// handler above: wgpu surfaces it through this callback instead.
    lost: Arc<AtomicBool>,
}

impl Gpu {
    /// A device for offscreen work (tests, benchmarks): no window or display needed.
    ///
    /// The primary backends (Vulkan, Metal, DX12) are tried first, and OpenGL only without
    /// them: probing OpenGL through EGL when a better adapter exists only fills the terminal
    /// with EGL's and Wayland's complaints (with no `XDG_RUNTIME_DIR`, two lines of them).
    /// `WGPU_BACKEND` still chooses, where it is set.
    pub fn headless() -> Result<Gpu, String> {
        let from_env = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
        if wgpu::Backends::from_env().is_none() {
            let primary = wgpu::InstanceDescriptor {
                backends: wgpu::Backends::PRIMARY,
                ..wgpu::InstanceDescriptor::new_without_display_handle_from_env()
            };
            if let Ok(gpu) = pollster::block_on(Self::open(wgpu::Instance::new(primary), None)) {
                return Ok(gpu);
            }
        }
        pollster::block_on(Self::open(wgpu::Instance::new(from_env), None))
    }

    /// A device that can present to `surface`, created from `instance`.
    pub async fn open(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Gpu, String> {
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: surface,
                ..Default::default()
            })
            .await
            .map_err(|e| {
                log::debug!("request_adapter: {e}");
                no_adapter_message()
            })?;
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("looplab"),
                required_limits: base_limits(&adapter).using_resolution(adapter.limits()),
                ..Default::default()
            })
            .await
            .map_err(|e| {
                format!(
                    "the GPU adapter '{}' refused a device: {e}",
                    adapter.get_info().name
                )
            })?;
        let errors = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&errors);
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            counter.fetch_add(1, Ordering::Relaxed);
            log::error!("GPU error: {e}");
        }));
        let lost = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&lost);
        device.set_device_lost_callback(move |reason, message| {
            flag.store(true, Ordering::Release);
            log::warn!("GPU device lost ({reason:?}): {message}");
        });
        Ok(Gpu {
            instance,
            adapter,
            device,
            queue,
            errors,
            lost,
        })
    }

    /// Whether the device was lost. The callback may come only when the device is next
    /// polled, so this polls it first (a lost device's poll just returns).
    pub fn is_lost(&self) -> bool {
        if !self.lost.load(Ordering::Acquire) {
            let _ = self.device.poll(wgpu::PollType::Poll);
        }
        self.lost.load(Ordering::Acquire)
    }

    /// "name (backend, device type)", for logs and reports: the backend as wgpu names it
    /// (`vulkan`, `gl`, `webgpu`), the device type in words.
    pub fn adapter_summary(&self) -> String {
        let info = self.adapter.get_info();
        let device = match info.device_type {
            wgpu::DeviceType::IntegratedGpu => "integrated GPU",
            wgpu::DeviceType::DiscreteGpu => "discrete GPU",
            wgpu::DeviceType::VirtualGpu => "virtual GPU",
            wgpu::DeviceType::Cpu => "CPU",
            wgpu::DeviceType::Other => "other",
        };
        format!("{} ({}, {device})", info.name, info.backend.to_str())
    }

    /// Whether the adapter draws on the CPU (a software rasteriser: lavapipe, SwiftShader).
    pub fn is_software(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }

    /// Validation errors seen so far.
    pub fn error_count(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }
}

/// The least a device must offer: the downlevel defaults, or WebGL2's where that is the
/// backend (a page without WebGPU), since the pipelines need only uniforms and instancing.
fn base_limits(adapter: &wgpu::Adapter) -> wgpu::Limits {
    if adapter.get_info().backend == wgpu::Backend::Gl {
        wgpu::Limits::downlevel_webgl2_defaults()
    } else {
        wgpu::Limits::downlevel_defaults()
    }
}

/// The present mode to use for `wanted` among those a surface supports: `wanted` where it
/// is offered, else the nearest that is ([`PresentMode::or_offered`]).
pub fn choose_present_mode(
    available: &[wgpu::PresentMode],
    wanted: PresentMode,
) -> wgpu::PresentMode {
    to_wgpu(wanted.or_offered(&offered_modes(available)))
}

/// The modes of `available` Looplab names (wgpu's automatic modes left out).
pub fn offered_modes(available: &[wgpu::PresentMode]) -> Vec<PresentMode> {
    available.iter().filter_map(|&m| from_wgpu(m)).collect()
}

pub fn to_wgpu(mode: PresentMode) -> wgpu::PresentMode {
    match mode {
        PresentMode::Fifo => wgpu::PresentMode::Fifo,
        PresentMode::FifoRelaxed => wgpu::PresentMode::FifoRelaxed,
        PresentMode::Mailbox => wgpu::PresentMode::Mailbox,
        PresentMode::Immediate => wgpu::PresentMode::Immediate,
    }
}

/// A surface's present mode in Looplab's words, for the overlay and the log: its id
/// (`fifo`, `immediate`), or "another mode" for one of wgpu's automatic modes.
pub fn present_mode_words(mode: wgpu::PresentMode) -> String {
    from_wgpu(mode).map_or_else(|| "another mode".to_string(), |m| m.to_string())
}

pub fn from_wgpu(mode: wgpu::PresentMode) -> Option<PresentMode> {
    match mode {
        wgpu::PresentMode::Fifo => Some(PresentMode::Fifo),
        wgpu::PresentMode::FifoRelaxed => Some(PresentMode::FifoRelaxed),
        wgpu::PresentMode::Mailbox => Some(PresentMode::Mailbox),
        wgpu::PresentMode::Immediate => Some(PresentMode::Immediate),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::PresentMode::*;

    #[test]
    fn present_mode_comes_from_the_surface_capabilities() {
        use crate::session::present::PresentMode as Mode;
        let lavapipe = [Immediate, Mailbox, Fifo, FifoRelaxed];
        assert_eq!(choose_present_mode(&lavapipe, Mode::Fifo), Fifo);
        assert_eq!(choose_present_mode(&lavapipe, Mode::Immediate), Immediate);
        assert_eq!(
            choose_present_mode(&lavapipe, Mode::FifoRelaxed),
            FifoRelaxed
        );
        assert_eq!(
            choose_present_mode(&[Mailbox, Fifo], Mode::Immediate),
            Mailbox
        );
        // A surface with only FIFO (many Wayland compositors, all browsers): FIFO either way.
        assert_eq!(choose_present_mode(&[Fifo], Mode::Immediate), Fifo);
        assert_eq!(offered_modes(&[AutoVsync, Fifo]), [Mode::Fifo]);
    }
}
