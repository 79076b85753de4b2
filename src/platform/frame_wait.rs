//! The frame-cap wait: how the window's loop waits for its next frame's start without
//! blocking the event loop. The timing crate's `FrameWait` decides how long to let the OS
//! sleep and when to spin; this puts it on the wall clock and says what the event loop
//! should do. In a browser nothing may block or spin: there the loop only asks the event
//! loop to wake it at the deadline (a timer of the page's).

use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use looplab_timing::FrameWait;
use looplab_timing::{WaitMode, Wake};
use serde::{Deserialize, Serialize};

use super::clock::{Instant, WallClock};

/// What the event loop should do until the next frame may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// The wake time has come: start the frame.
    Go,
    /// Let the OS put the loop to sleep until then, and ask again.
    SleepUntil(Instant),
    /// The last stretch: come round again at once (spinning through the event loop, so
    /// input that arrives meanwhile is still delivered to this frame).
    Spin,
}

/// The window's frame-cap wait.
#[derive(Clone, Debug)]
pub struct FramePacer {
    #[cfg(not(target_arch = "wasm32"))]
    wait: FrameWait,
}

/// How the wait went, for `--stats`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameWaitReport {
    /// `precise` or `naive`.
    pub mode: String,
    /// How long before a deadline the OS is asked to wake the loop, ms.
    pub early_ms: f64,
    /// The OS wake-ups the margin has learnt from.
    pub wake_readings: usize,
}

#[cfg(not(target_arch = "wasm32"))]
impl FramePacer {
    /// A wait that ends as `mode` says (`looplab bench` compares the two).
    pub fn new(mode: WaitMode) -> Self {
        Self {
            wait: FrameWait::new(mode),
        }
    }

    /// What to do now to wait for `wake` on `clock`.
    pub fn pace(&mut self, clock: &WallClock, wake: Wake) -> Pace {
        let Wake::At(t) = wake else {
            return Pace::Go;
        };
        let deadline = clock.instant_at(t);
        if let Some(until) = self.wait.os_wake(deadline, clock.instant_now()) {
            return Pace::SleepUntil(until);
        }
        if clock.instant_now() < deadline {
            Pace::Spin
        } else {
            Pace::Go
        }
    }

    /// Forgets the wake-up asked for: the loop stopped waiting for it (the window was
    /// hidden). What the margin learnt is kept.
    pub fn forget(&mut self) {
        self.wait.forget();
    }

    pub fn report(&self) -> FrameWaitReport {
        FrameWaitReport {
            mode: self.wait.mode().id().to_string(),
            early_ms: self.wait.early().as_secs_f64() * 1e3,
            wake_readings: self.wait.wake_margin().readings(),
        }
    }
}

#[cfg(target_arch = "wasm32")]
impl FramePacer {
    /// The page's wait: it has one way, whatever `mode` says.
    pub fn new(_mode: WaitMode) -> Self {
        Self {}
    }

    /// What to do now to wait for `wake` on `clock`: let the page's timer wake the loop at
    /// the deadline.
    pub fn pace(&mut self, clock: &WallClock, wake: Wake) -> Pace {
        match wake {
            Wake::At(t) if t > clock.now() => Pace::SleepUntil(clock.instant_at(t)),
            _ => Pace::Go,
        }
    }

    /// Nothing to forget: the page's timer is asked afresh each time.
    pub fn forget(&mut self) {}

    pub fn report(&self) -> FrameWaitReport {
        FrameWaitReport {
            mode: "page timer".to_string(),
            early_ms: 0.0,
            wake_readings: 0,
        }
    }
}

/// How often a hidden window that runs on (`--run-hidden`) runs a frame at most: it never
/// draws, so it need not spin.
pub const HIDDEN_FRAME_INTERVAL: Duration = Duration::from_millis(10);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_sleeps_then_spins_then_goes() {
        let clock = WallClock::start();
        let mut pacer = FramePacer::new(WaitMode::Precise);
        assert_eq!(pacer.pace(&clock, Wake::Immediately), Pace::Go);
        // A deadline long past: go at once.
        assert_eq!(pacer.pace(&clock, Wake::At(Duration::ZERO)), Pace::Go);
        // A deadline a minute away: sleep until the margin before it.
        let far = clock.now() + Duration::from_secs(60);
        match pacer.pace(&clock, Wake::At(far)) {
            Pace::SleepUntil(until) => {
                let early = clock.instant_at(far) - until;
                assert_eq!(early, looplab_timing::FrameWait::DEFAULT_EARLY);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(pacer.report().mode, "precise");
    }
}
