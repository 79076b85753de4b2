//! Waiting for a frame deadline precisely, measuring the process's CPU use, and burning time
//! on purpose (the simulated load of a weak machine).

use std::time::{Duration, Instant};

/// How the wait for a frame deadline ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacingMode {
    /// Ask the OS to wake a little early, then sleep-and-spin the last stretch with
    /// `spin_sleep`. Costs a little CPU, lands within tens of microseconds.
    Precise,
    /// Ask the OS to wake at the deadline and trust it (`ControlFlow::WaitUntil`); its timer
    /// granularity shows up as frame-time jitter. Kept for comparison in `looplab bench`.
    Naive,
}

/// Decides how to wait for a deadline.
#[derive(Clone, Debug)]
pub struct Pacer {
    pub mode: PacingMode,
    /// The OS is asked to wake this long before the deadline; the rest is finished here.
    /// Two milliseconds covers the event loop's millisecond timeout rounding with margin.
    pub early: Duration,
    sleeper: spin_sleep::SpinSleeper,
}

impl Default for Pacer {
    fn default() -> Self {
        Self::new(PacingMode::Precise)
    }
}

impl Pacer {
    pub fn new(mode: PacingMode) -> Self {
        Self {
            mode,
            early: Duration::from_millis(2),
            sleeper: spin_sleep::SpinSleeper::default()
                .with_spin_strategy(spin_sleep::SpinStrategy::SpinLoopHint),
        }
    }

    /// When the event loop should be woken to wait for `deadline`, or `None` when the frame
    /// should start now (after [`Pacer::finish`]).
    pub fn os_wait_until(&self, deadline: Instant, now: Instant) -> Option<Instant> {
        match self.mode {
            PacingMode::Naive => (deadline > now).then_some(deadline),
            PacingMode::Precise => deadline
                .checked_sub(self.early)
                .filter(|&early| early > now),
        }
    }

    /// Waits out the last stretch before `deadline` (only in precise mode).
    pub fn finish(&self, deadline: Instant) {
        if self.mode == PacingMode::Precise {
            self.sleeper.sleep_until(deadline);
        }
    }
}

/// Keeps the CPU busy for `d`: the simulated cost of an update or a frame. A spin, not a
/// sleep, because a weak machine is busy, not idle, while it works.
pub fn busy_for(d: Duration) {
    if d.is_zero() {
        return;
    }
    let end = Instant::now() + d;
    while Instant::now() < end {
        std::hint::spin_loop();
    }
}

/// The process's CPU use over the last half second.
#[derive(Debug)]
pub struct CpuMeter {
    last: Option<(Instant, Duration)>,
    percent: Option<f64>,
}

impl Default for CpuMeter {
    fn default() -> Self {
        Self {
            last: cpu_now().map(|cpu| (Instant::now(), cpu)),
            percent: None,
        }
    }
}

/// CPU time used by the whole process so far.
fn cpu_now() -> Option<Duration> {
    cpu_time::ProcessTime::try_now()
        .ok()
        .map(|t| t.as_duration())
}

impl CpuMeter {
    /// The measuring interval.
    const INTERVAL: Duration = Duration::from_millis(500);

    /// Takes a sample if the interval has passed.
    pub fn sample(&mut self) {
        let now = Instant::now();
        let Some((then, cpu_then)) = self.last else {
            return;
        };
        let wall = now - then;
        if wall < Self::INTERVAL {
            return;
        }
        if let Some(cpu) = cpu_now() {
            self.percent =
                Some(cpu.saturating_sub(cpu_then).as_secs_f64() / wall.as_secs_f64() * 100.0);
            self.last = Some((now, cpu));
        }
    }

    /// Percent of one core, or `None` before the first interval.
    pub fn percent(&self) -> Option<f64> {
        self.percent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precise_mode_wakes_early_and_finishes_itself() {
        let p = Pacer::new(PacingMode::Precise);
        let now = Instant::now();
        let deadline = now + Duration::from_millis(10);
        assert_eq!(
            p.os_wait_until(deadline, now),
            Some(deadline - Duration::from_millis(2))
        );
        // Within the last two milliseconds: no OS wait, the pacer finishes the wait.
        assert_eq!(
            p.os_wait_until(deadline, deadline - Duration::from_millis(1)),
            None
        );
    }

    #[test]
    fn naive_mode_trusts_the_os_to_the_deadline() {
        let p = Pacer::new(PacingMode::Naive);
        let now = Instant::now();
        let deadline = now + Duration::from_millis(10);
        assert_eq!(p.os_wait_until(deadline, now), Some(deadline));
        assert_eq!(p.os_wait_until(deadline, deadline), None);
    }
}
