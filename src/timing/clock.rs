//! Clocks that hand the planner its timestamps: the real one for the window, a manual one
//! for the lab and the tests.
//!
//! Both express time as a `Duration` since the clock started, so the planner never sees an
//! `Instant` and a test can say "16 ms later" exactly.

use std::time::{Duration, Instant};

/// A source of timestamps.
pub trait Clock {
    /// Time since the clock started.
    fn now(&self) -> Duration;
}

/// The real monotonic clock.
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock whose zero is now.
    pub fn start() -> Self {
        Self {
            start: Instant::now(),
        }
    }

    /// The `Instant` of a timestamp of this clock, for APIs such as `ControlFlow::WaitUntil`.
    pub fn instant_at(&self, t: Duration) -> Instant {
        self.start + t
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

/// A clock that moves only when told to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ManualClock {
    now: Duration,
}

impl ManualClock {
    /// Moves the clock forward by `d`.
    pub fn advance(&mut self, d: Duration) {
        self.now = self.now.saturating_add(d);
    }

    /// Moves the clock forward to `t`; does nothing if `t` has already passed. Returns how far
    /// it moved (the time a loop would have spent waiting).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_moves_only_forward_and_reports_the_wait() {
        let mut c = ManualClock::default();
        c.advance(Duration::from_millis(5));
        assert_eq!(
            c.advance_to(Duration::from_millis(8)),
            Duration::from_millis(3)
        );
        assert_eq!(c.advance_to(Duration::from_millis(2)), Duration::ZERO);
        assert_eq!(c.now(), Duration::from_millis(8));
    }

    #[test]
    fn system_clock_maps_timestamps_back_to_instants() {
        let c = SystemClock::start();
        let t = c.now();
        assert_eq!(c.instant_at(t) - c.instant_at(Duration::ZERO), t);
    }
}
