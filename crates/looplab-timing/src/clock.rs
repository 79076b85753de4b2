//! Clocks that hand the planner its timestamps: the real one, and one that moves only when
//! told to, for tests and simulations.
//!
//! Both give time as a `Duration` since the clock started, so the planner never sees an
//! `Instant` and a test can say "16 ms later" exactly.

use core::time::Duration;

/// A source of timestamps (time since the clock started) that a loop can also wait on.
///
/// A loop written against `impl Clock` runs for real on [`SystemClock`] and, unchanged, in
/// a test on a [`ManualClock`], where waiting moves the clock instead of the thread.
pub trait Clock {
    /// Time since the clock started.
    fn now(&self) -> Duration;

    /// Waits until the clock reads `t` (returns at once if it already has).
    ///
    /// The default spins on [`now`](Clock::now): correct for any clock, and a waste of a
    /// core, so a real clock should sleep instead, as [`SystemClock`] does.
    fn sleep_until(&mut self, t: Duration) {
        while self.now() < t {
            core::hint::spin_loop();
        }
    }
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

    /// Moves the clock to `t`: a simulated wait takes no real time.
    fn sleep_until(&mut self, t: Duration) {
        self.advance_to(t);
    }
}

/// The real monotonic clock (`std::time::Instant`), with its zero when it was started.
///
/// [`sleep_until`](SystemClock::sleep_until) is the OS's sleep: it wakes up to a
/// millisecond or so late, which a frame cap shows as uneven frames. The `spin` feature's
/// `FrameWait` wakes early and spins the rest, for a cap to within tens of microseconds
/// where the thread has a core to run on.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
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

    /// Time since the clock started (also [`Clock::now`]; this one needs no import).
    ///
    /// ```
    /// use looplab_timing::SystemClock;
    ///
    /// let clock = SystemClock::start();
    /// let (a, b) = (clock.now(), clock.now());
    /// assert!(b >= a);
    /// ```
    pub fn now(&self) -> Duration {
        self.start.elapsed()
    }

    /// Sleeps the thread until the clock reads `t` (also [`Clock::sleep_until`]). The OS
    /// may wake it late, never early.
    pub fn sleep_until(&self, t: Duration) {
        let left = t.saturating_sub(self.now());
        if !left.is_zero() {
            std::thread::sleep(left);
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
        SystemClock::now(self)
    }

    fn sleep_until(&mut self, t: Duration) {
        SystemClock::sleep_until(self, t);
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

    /// A loop written once against the trait.
    fn wait_for_three_ticks(clock: &mut impl Clock, tick: Duration) -> Duration {
        let start = clock.now();
        for k in 1..=3u32 {
            clock.sleep_until(start + tick * k);
        }
        clock.now() - start
    }

    #[test]
    fn a_wait_on_a_manual_clock_moves_the_clock() {
        let mut c = ManualClock::new();
        assert_eq!(
            wait_for_three_ticks(&mut c, Duration::from_millis(5)),
            Duration::from_millis(15)
        );
        c.sleep_until(Duration::from_millis(1));
        assert_eq!(
            c.now(),
            Duration::from_millis(15),
            "a past time waits not at all"
        );
    }

    #[cfg(feature = "std")]
    #[test]
    fn a_wait_on_the_system_clock_is_never_early() {
        let mut c = SystemClock::start();
        let waited = wait_for_three_ticks(&mut c, Duration::from_millis(1));
        assert!(waited >= Duration::from_millis(3), "{waited:?}");
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
