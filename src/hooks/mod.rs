//! Test hooks: hidden options that let the tests and the bench drive and measure the window
//! where no person or tool can. They live here, out of the loop's code: each is set up once
//! at start-up, and one that is not used costs a frame nothing.
//!
//! - `--key-script`: keys pressed by a script, delivered to the event loop as user events
//!   and then handled as real keys ([`key_script`]);
//! - `--surface-faults N`: every N-th surface texture acquired comes back outdated or lost,
//!   so the renderer's real handling of those answers runs ([`surface_faults`]);
//! - `--pacing naive`: the frame-cap wait trusts the OS timer (the bench compares it with
//!   the precise wait);
//! - `--bare-renderer`: the bullets drawn by the bare instanced renderer, the bench's
//!   yardstick;
//! - `--lose-device-at SECONDS`: the GPU device is destroyed then (`Device::destroy`, which
//!   fires the real device-lost callback), so the window's recovery runs as after a driver
//!   reset; with `--refuse-new-device` no device comes back, as when the GPU was unplugged.

pub mod key_script;
pub mod surface_faults;

use looplab_timing::WaitMode;

use crate::platform::frame_wait::CapWait;

use key_script::KeyScript;

/// The hooks a run was started with.
#[derive(Clone, Debug, PartialEq)]
pub struct Hooks {
    pub key_script: Option<KeyScript>,
    /// A surface fault every this many frames.
    pub surface_faults: Option<u32>,
    /// How a frame-cap wait ends.
    pub pacing: CapWait,
    /// Draw the bullets with the bare instanced renderer.
    pub bare_renderer: bool,
    /// Destroy the GPU device at this time of the run.
    pub lose_device_at: Option<std::time::Duration>,
    /// After a device is lost, refuse every new one.
    pub refuse_new_device: bool,
}

impl Default for Hooks {
    /// No hook: the window as a person runs it.
    fn default() -> Self {
        Self {
            key_script: None,
            surface_faults: None,
            pacing: CapWait::Only(WaitMode::Precise),
            bare_renderer: false,
            lose_device_at: None,
            refuse_new_device: false,
        }
    }
}
