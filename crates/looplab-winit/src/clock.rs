//! The loop's clock: time since the window's loop started, natively and in a browser.

use core::time::Duration;

use looplab_timing::Clock;
use web_time::Instant;

/// A [`Clock`] on `web_time::Instant`: std's `Instant` natively, `performance.now()` in a
/// browser (where std's panics). Its instants are the ones winit's
/// `ControlFlow::WaitUntil` takes.
#[derive(Clone, Copy, Debug)]
pub struct WinitClock {
    origin: Instant,
}

impl WinitClock {
    /// A clock that reads zero now.
    pub fn start() -> Self {
        Self {
            origin: Instant::now(),
        }
    }

    /// The instant the clock reads `t`.
    pub fn instant_at(&self, t: Duration) -> Instant {
        self.origin + t
    }

    /// What the clock read at `instant` (zero for an instant before it started).
    pub fn at_instant(&self, instant: Instant) -> Duration {
        instant.saturating_duration_since(self.origin)
    }
}

impl Clock for WinitClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }

    /// Natively, sleeps the thread. A page cannot sleep: there it returns at once, and the
    /// driver waits for the browser's next frame instead.
    fn sleep_until(&mut self, t: Duration) {
        #[cfg(not(target_arch = "wasm32"))]
        std::thread::sleep(t.saturating_sub(self.now()));
        #[cfg(target_arch = "wasm32")]
        let _ = t;
    }
}

/// Natively its instants are std's, so `FrameWait` can wait on its times precisely.
#[cfg(not(target_arch = "wasm32"))]
impl looplab_timing::InstantClock for WinitClock {
    fn instant_at(&self, t: Duration) -> std::time::Instant {
        WinitClock::instant_at(self, t)
    }

    fn at_instant(&self, instant: std::time::Instant) -> Duration {
        WinitClock::at_instant(self, instant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instants_and_readings_agree() {
        let clock = WinitClock::start();
        let t = Duration::from_millis(250);
        assert_eq!(clock.at_instant(clock.instant_at(t)), t);
        let before = clock.now();
        let later = clock.now();
        assert!(later >= before);
        assert_eq!(
            clock.at_instant(clock.instant_at(Duration::ZERO) - Duration::from_millis(1)),
            Duration::ZERO
        );
    }
}
