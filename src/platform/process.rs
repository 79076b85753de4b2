//! What this process uses: CPU time and resident memory, read in one place for the window's
//! overlay and `--stats`, the lab's soak and the bench.

use std::time::Duration;

use super::clock::Stopwatch;

/// CPU time used by the whole process so far (all threads), where the OS reports it.
#[cfg(any(unix, windows))]
pub fn cpu_time() -> Option<Duration> {
    cpu_time::ProcessTime::try_now()
        .ok()
        .map(|t| t.as_duration())
}

/// CPU time used by the whole process so far: nothing comparable where there is no OS
/// process (a browser page).
#[cfg(not(any(unix, windows)))]
pub fn cpu_time() -> Option<Duration> {
    None
}

/// Resident memory now, KiB (Linux `VmRSS`).
pub fn rss_kib() -> Option<u64> {
    status_kib("VmRSS:")
}

/// Peak resident memory so far, KiB (Linux `VmHWM`).
pub fn peak_rss_kib() -> Option<u64> {
    status_kib("VmHWM:")
}

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    parse_status_kib(&status, field)
}

/// The value of `field` (such as `VmRSS:`) in the text of `/proc/self/status`, in KiB.
fn parse_status_kib(status: &str, field: &str) -> Option<u64> {
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// The process's CPU use over the last half second, for the overlay (the texts' power
/// question).
#[derive(Clone, Debug)]
pub struct CpuMeter {
    last: Option<(Stopwatch, Duration)>,
    percent: Option<f64>,
}

impl Default for CpuMeter {
    fn default() -> Self {
        Self {
            last: cpu_time().map(|cpu| (Stopwatch::start(), cpu)),
            percent: None,
        }
    }
}

impl CpuMeter {
    /// The measuring interval.
    const INTERVAL: Duration = Duration::from_millis(500);

    /// Takes a sample if the interval has passed.
    pub fn sample(&mut self) {
        let Some((since, cpu_then)) = self.last else {
            return;
        };
        let wall = since.elapsed();
        if wall < Self::INTERVAL {
            return;
        }
        if let Some(cpu) = cpu_time() {
            self.percent =
                Some(cpu.saturating_sub(cpu_then).as_secs_f64() / wall.as_secs_f64() * 100.0);
            self.last = Some((Stopwatch::start(), cpu));
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
    fn status_fields_are_read_in_kib() {
        let text = "Name:\tlooplab\nVmHWM:\t  123456 kB\nVmRSS:\t   98765 kB\n";
        assert_eq!(parse_status_kib(text, "VmHWM:"), Some(123_456));
        assert_eq!(parse_status_kib(text, "VmRSS:"), Some(98_765));
        assert_eq!(parse_status_kib(text, "VmSwap:"), None);
        if cfg!(target_os = "linux") {
            let (now, peak) = (rss_kib().unwrap(), peak_rss_kib().unwrap());
            assert!(now > 100 && peak >= now, "{now} {peak}");
            assert!(cpu_time().is_some());
        }
    }
}
