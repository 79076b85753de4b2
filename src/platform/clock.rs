//! The wall clock: the one place the app reads real time.
//!
//! The loop itself sees time as a `Duration` since the clock started (the timing crate's
//! [`Clock`]), so the planner, the lab and the tests never meet an `Instant`. An `Instant`
//! appears only where an API wants one (winit's `ControlFlow::WaitUntil`), through
//! [`WallClock::instant_at`]. Short measurements (how long a render pass took) use a
//! [`Stopwatch`], and a simulated load burns time with [`spin_for`].

use std::time::Duration;

use looplab_timing::Clock;

/// A point in real time, as the event loop's APIs take it: std's, and in a browser (where
/// std's panics) the `performance.now()` one winit's web backend takes.
#[cfg(not(target_arch = "wasm32"))]
pub type Instant = std::time::Instant;
/// A point in real time, as the event loop's APIs take it: std's, and in a browser (where
/// std's panics) the `performance.now()` one winit's web backend takes.
#[cfg(target_arch = "wasm32")]
pub type Instant = web_time::Instant;

/// Real time since the app started.
#[derive(Clone, Copy, Debug)]
pub struct WallClock {
    start: Instant,
}

impl WallClock {
    /// A clock whose zero is now.
    pub fn start() -> Self {
        Self {
            start: Instant::now(),
        }
    }

    /// Time since the clock started.
    pub fn now(&self) -> Duration {
        self.start.elapsed()
    }

    /// The `Instant` of timestamp `t`, for APIs that wait until an `Instant`.
    pub fn instant_at(&self, t: Duration) -> Instant {
        self.start + t
    }

    /// Now, as an `Instant`.
    pub fn instant_now(&self) -> Instant {
        Instant::now()
    }
}

impl Clock for WallClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }
}

/// Measures how long something takes.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    started: Instant,
}

impl Stopwatch {
    pub fn start() -> Self {
        Self {
            started: Instant::now(),
        }
    }

    /// Time since it was started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// Keeps the CPU busy for `d`: the simulated cost of an update or a frame. A spin, not a
/// sleep, because a weak machine is busy, not idle, while it works.
pub fn spin_for(d: Duration) {
    if d.is_zero() {
        return;
    }
    let watch = Stopwatch::start();
    while watch.elapsed() < d {
        std::hint::spin_loop();
    }
}

/// Now, in nanoseconds since the Unix epoch: a time another process can compare with its
/// own (the bench's start-up measure: process start to first present).
pub fn unix_time_ns() -> u128 {
    #[cfg(not(target_arch = "wasm32"))]
    use std::time::{SystemTime, UNIX_EPOCH};
    #[cfg(target_arch = "wasm32")]
    use web_time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// Stops the loop for `d` (the S key's one-off stall, a hitch the window shows how each
/// strategy survives): a plain sleep, as a process that is not scheduled does nothing.
#[cfg(not(target_arch = "wasm32"))]
pub fn block_for(d: Duration) {
    std::thread::sleep(d);
}

/// Stops the loop for `d`: a page's thread may not sleep, so it is kept busy instead.
#[cfg(target_arch = "wasm32")]
pub fn block_for(d: Duration) {
    spin_for(d);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_clock_maps_timestamps_to_instants_and_back() {
        let clock = WallClock::start();
        let t = Duration::from_millis(1234);
        assert_eq!(clock.instant_at(t) - clock.instant_at(Duration::ZERO), t);
        let (a, b) = (clock.now(), clock.now());
        assert!(b >= a, "monotonic");
    }

    #[test]
    fn a_simulated_load_takes_at_least_its_time() {
        let watch = Stopwatch::start();
        spin_for(Duration::from_millis(3));
        assert!(watch.elapsed() >= Duration::from_millis(3));
        spin_for(Duration::ZERO);
    }
}
