//! Measuring the process's CPU use, and burning time on purpose (the simulated load of a
//! weak machine). The precise wait for a frame deadline is the timing crate's `FrameWait`.

use std::time::{Duration, Instant};

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
            last: crate::process::cpu_time().map(|cpu| (Instant::now(), cpu)),
            percent: None,
        }
    }
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
        if let Some(cpu) = crate::process::cpu_time() {
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
