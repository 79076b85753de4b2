//! What the benchmark ran on: the host machine and how noisy its scheduler is.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// How often the OS (or the hypervisor) took the CPU away from a thread that never yields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SchedulerNoise {
    pub seconds: f64,
    /// Gaps between consecutive clock reads longer than 0.2 ms and than 1 ms.
    pub gaps_over_0_2ms: usize,
    pub gaps_over_1ms: usize,
    pub longest_gap_ms: f64,
}

/// Spins on one thread for `seconds`, reading the clock, and counts the gaps: time the thread
/// was not running. No pacing can be more precise than this floor.
pub fn scheduler_noise(seconds: f64) -> SchedulerNoise {
    let start = Instant::now();
    let end = start + Duration::from_secs_f64(seconds);
    let mut last = start;
    let (mut over_02, mut over_1, mut longest) = (0, 0, Duration::ZERO);
    loop {
        let now = Instant::now();
        if now >= end {
            break;
        }
        let gap = now - last;
        if gap > Duration::from_micros(200) {
            over_02 += 1;
            if gap > Duration::from_millis(1) {
                over_1 += 1;
            }
            longest = longest.max(gap);
        }
        last = now;
    }
    SchedulerNoise {
        seconds,
        gaps_over_0_2ms: over_02,
        gaps_over_1ms: over_1,
        longest_gap_ms: longest.as_secs_f64() * 1e3,
    }
}

/// The machine the bench ran on, as the report's first lines describe it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Host {
    pub cpu: String,
    pub cores: usize,
    /// The GPU adapter: name, backend and device type.
    pub adapter: String,
    /// Whether the adapter rasterises on the CPU (lavapipe, SwiftShader): where a cost is
    /// judged as a share of the frame rather than in milliseconds.
    #[serde(default)]
    pub software: bool,
    pub os: String,
    /// `release` or `debug`: a debug build is not a fair measure.
    pub build: String,
}

impl Host {
    /// Reads the machine's description; `adapter` comes from the caller's GPU.
    pub fn describe(adapter: String, software: bool) -> Host {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find_map(|l| l.strip_prefix("model name"))
                    .and_then(|l| l.split_once(':'))
                    .map(|(_, name)| name.trim().to_string())
            })
            .unwrap_or_else(|| std::env::consts::ARCH.to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease")
            .map(|r| format!(" {}", r.trim()))
            .unwrap_or_default();
        Host {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            adapter,
            software,
            os: format!("{}{kernel}", std::env::consts::OS),
            build: if cfg!(debug_assertions) {
                "debug"
            } else {
                "release"
            }
            .to_string(),
        }
    }
}
