//! Waiting for a frame deadline precisely (the `spin` feature).

use std::time::{Duration, Instant};

/// How a wait for a frame deadline ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitMode {
    /// Ask the OS to wake a little early, then finish the last stretch with a sleep that
    /// spins (`spin_sleep`). Costs a little CPU; lands within tens of microseconds.
    Precise,
    /// Ask the OS to wake at the deadline and trust it. Its timer granularity and wake-up
    /// latency show up as frame-time jitter: kept for comparison.
    Naive,
}

impl WaitMode {
    /// `precise` or `naive`.
    pub fn id(self) -> &'static str {
        match self {
            WaitMode::Precise => "precise",
            WaitMode::Naive => "naive",
        }
    }
}

/// Waits for frame deadlines ([`Wake::At`](crate::Wake::At)) the way a frame cap needs.
///
/// An OS timer wakes a thread up to a millisecond or more late, and a cap that trusts it
/// shows that as uneven frames. This asks the OS (or the event loop) to wake
/// [`early`](FrameWait::early) before the deadline and spins the rest.
///
/// With an event loop that waits on its own (winit's `ControlFlow::WaitUntil`), ask
/// [`os_wake`](FrameWait::os_wake) where to wait until, and once woken call
/// [`finish`](FrameWait::finish). In a plain loop, [`sleep_until`](FrameWait::sleep_until)
/// does both.
#[derive(Clone, Debug)]
pub struct FrameWait {
    mode: WaitMode,
    early: Duration,
    sleeper: spin_sleep::SpinSleeper,
}

impl Default for FrameWait {
    /// A precise wait.
    fn default() -> Self {
        Self::new(WaitMode::Precise)
    }
}

impl FrameWait {
    /// How long before the deadline the OS is asked to wake, by default: two milliseconds
    /// covers the millisecond rounding of event-loop timeouts and a typical wake-up delay,
    /// and spinning for two milliseconds in sixteen costs a few percent of one core.
    pub const DEFAULT_EARLY: Duration = Duration::from_millis(2);

    /// A wait of the given mode, waking [`FrameWait::DEFAULT_EARLY`] early when precise.
    pub fn new(mode: WaitMode) -> Self {
        Self {
            mode,
            early: Self::DEFAULT_EARLY,
            sleeper: spin_sleep::SpinSleeper::default()
                .with_spin_strategy(spin_sleep::SpinStrategy::SpinLoopHint),
        }
    }

    /// The same wait, asking the OS to wake `early` before the deadline.
    #[must_use]
    pub fn with_early(mut self, early: Duration) -> Self {
        self.early = early;
        self
    }

    /// The mode.
    pub fn mode(&self) -> WaitMode {
        self.mode
    }

    /// How long before the deadline the OS is asked to wake.
    pub fn early(&self) -> Duration {
        self.early
    }

    /// When the OS should wake the loop to wait for `deadline`, seen at `now`; `None` when
    /// the loop should call [`finish`](FrameWait::finish) and start the frame at once.
    pub fn os_wake(&self, deadline: Instant, now: Instant) -> Option<Instant> {
        match self.mode {
            WaitMode::Naive => (deadline > now).then_some(deadline),
            WaitMode::Precise => deadline.checked_sub(self.early).filter(|&wake| wake > now),
        }
    }

    /// Waits out what is left before `deadline` (a spin, in precise mode; nothing in naive
    /// mode, which trusted the OS).
    pub fn finish(&self, deadline: Instant) {
        if self.mode == WaitMode::Precise {
            self.sleeper.sleep_until(deadline);
        }
    }

    /// Blocks the thread until `deadline`: a plain sleep to the early wake-up, then
    /// [`finish`](FrameWait::finish).
    pub fn sleep_until(&self, deadline: Instant) {
        if let Some(wake) = self.os_wake(deadline, Instant::now()) {
            std::thread::sleep(wake.saturating_duration_since(Instant::now()));
        }
        self.finish(deadline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precise_mode_wakes_early_and_finishes_itself() {
        let w = FrameWait::new(WaitMode::Precise);
        let now = Instant::now();
        let deadline = now + Duration::from_millis(10);
        assert_eq!(
            w.os_wake(deadline, now),
            Some(deadline - Duration::from_millis(2))
        );
        // Within the last two milliseconds: no OS wait, the spin finishes.
        assert_eq!(
            w.os_wake(deadline, deadline - Duration::from_millis(1)),
            None
        );
        let late = w.clone().with_early(Duration::from_micros(500));
        assert_eq!(
            late.os_wake(deadline, now),
            Some(deadline - Duration::from_micros(500))
        );
    }

    #[test]
    fn naive_mode_trusts_the_os_to_the_deadline() {
        let w = FrameWait::new(WaitMode::Naive);
        let now = Instant::now();
        let deadline = now + Duration::from_millis(10);
        assert_eq!(w.os_wake(deadline, now), Some(deadline));
        assert_eq!(w.os_wake(deadline, deadline), None);
    }
}
