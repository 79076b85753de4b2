//! Clocks that hand the planner its timestamps: the real one, and one that moves only when
//! told to, for tests and simulations.
//!
//! Both give time as a `Duration` since the clock started, so the planner never sees an
//! `Instant` and a test can say "16 ms later" exactly.

use core::time::Duration;

/// A source of timestamps: time since the clock started.
pub trait Clock {
    /// Time since the clock started.
    fn now(&self) -> Duration;
}

/// A clock that moves only when told to: for tests, replays and simulated machines, where
/// "the frame took 16 ms" should mean exactly 16 ms.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ManualClock {
    now: Duration,
}

impl ManualClock {
    /// A clock at zero.
    pub const fn new() -> Self {
        Self {
            now: Duration::ZERO,
        }
    }

    /// Moves the clock forward by `d`.
    pub fn advance(&mut self, d: Duration) {
        self.now = self.now.saturating_add(d);
    }

    /// Moves the clock forward to `t`, or not at all if `t` has passed. Returns how far it
    /// moved: the time a loop would have spent waiting for `t`.
    pub fn advance_to(&mut self, t: Duration) -> Duration {
        let waited = t.saturating_sub(self.now);
        self.now += waited;
        waited
    }

    /// The current time.
    pub fn now(&self) -> Duration {
        self.now
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        self.now
    }
}

/// The real monotonic clock (`std::time::Instant`), with its zero when it was started.
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    start: std::time::Instant,
}

#[cfg(feature = "std")]
impl SystemClock {
    /// A clock whose zero is now.
    pub fn start() -> Self {
        Self {
            start: std::time::Instant::now(),
        }
    }

    /// The `Instant` of timestamp `t`, for APIs that wait until an `Instant`, such as
    /// winit's `ControlFlow::WaitUntil`.
    pub fn instant_at(&self, t: Duration) -> std::time::Instant {
        self.start + t
    }

    /// The timestamp of an `Instant` (zero for one before the clock started).
    pub fn at_instant(&self, instant: std::time::Instant) -> Duration {
        instant.saturating_duration_since(self.start)
    }
}

#[cfg(feature = "std")]
impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_forward_and_reports_the_wait() {
        let mut c = ManualClock::new();
        c.advance(Duration::from_millis(5));
        assert_eq!(
            c.advance_to(Duration::from_millis(8)),
            Duration::from_millis(3)
        );
        assert_eq!(c.advance_to(Duration::from_millis(2)), Duration::ZERO);
        assert_eq!(c.now(), Duration::from_millis(8));
        c.advance(Duration::MAX);
        assert_eq!(c.now(), Duration::MAX, "saturates");
    }

    #[cfg(feature = "std")]
    #[test]
    fn system_clock_maps_timestamps_to_instants_and_back() {
        let c = SystemClock::start();
        let t = Duration::from_millis(1234);
        assert_eq!(c.instant_at(t) - c.instant_at(Duration::ZERO), t);
        assert_eq!(c.at_instant(c.instant_at(t)), t);
    }
}
