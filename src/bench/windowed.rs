//! Measurements of the real app in a real window: this same binary is started with the
//! options under test and a `--frame-log`, and the log is read back. Needs a display (an
//! existing one, or a private Xvfb with `--xvfb`); keys for the latency run come from
//! xdotool.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use oorandom::Rand32;
use serde::{Deserialize, Serialize};

use super::headless::{PacingResult, SpriteVariant, ThroughputResult};
use super::measure::{median, percentile};

/// The frame log the app writes (see `app::record::FrameLog`).
#[derive(Debug, Deserialize)]
pub struct FrameLogData {
    pub frames: Vec<[u64; 10]>,
    pub input_latency_ns: Vec<[u64; 2]>,
    pub first_present_unix_ns: Option<u128>,
    pub peak_rss_kib: Option<u64>,
}

/// Column indices of a frame-log entry.
mod col {
    pub const START: usize = 0;
    pub const ACQUIRE: usize = 2;
    pub const OVERLAY: usize = 3;
    pub const UPLOAD: usize = 4;
    pub const ENCODE: usize = 5;
    pub const PRESENT: usize = 6;
    pub const PRESENTED: usize = 7;
    pub const CPU: usize = 8;
}

/// Starts a private Xvfb with one screen of `screen` (`WIDTHxHEIGHTxDEPTH`) on a display
/// number it picks itself (`-displayfd`). Returns the server and its display name (`:N`).
pub fn start_xvfb(screen: &str) -> Result<(Child, String), String> {
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            screen,
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start Xvfb ({e}); install the xvfb package"))?;
    let mut line = String::new();
    if let Some(out) = child.stdout.take() {
        let _ = BufReader::new(out).read_line(&mut line);
    }
    let number = line.trim();
    if number.is_empty() {
        let _ = child.kill();
        let _ = child.wait();
        return Err("Xvfb did not report a display".into());
    }
    Ok((child, format!(":{number}")))
}

/// Where the windowed runs happen.
pub struct Display {
    pub name: String,
    xvfb: Option<Child>,
    scratch: PathBuf,
}

impl Display {
    /// The display in `DISPLAY`, or a private Xvfb when `private_xvfb`; `Err` says why there
    /// is none.
    pub fn open(private_xvfb: bool) -> Result<Display, String> {
        let scratch = std::env::temp_dir().join(format!("looplab-bench-{}", std::process::id()));
        std::fs::create_dir_all(scratch.join("xdg"))
            .map_err(|e| format!("scratch directory: {e}"))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(
                scratch.join("xdg"),
                std::fs::Permissions::from_mode(0o700),
            );
        }
        if private_xvfb {
            let (child, name) = start_xvfb("1280x720x24")?;
            return Ok(Display {
                name,
                xvfb: Some(child),
                scratch,
            });
        }
        match std::env::var("DISPLAY") {
            Ok(d) if !d.is_empty() => Ok(Display {
                name: d,
                xvfb: None,
                scratch,
            }),
            _ => Err("no display (DISPLAY is unset); run with --xvfb to use a private Xvfb".into()),
        }
    }

    fn file(&self, name: &str) -> PathBuf {
        self.scratch.join(name)
    }

    /// Starts the app with `args` plus a frame log; returns the child and the log's path.
    fn spawn(&self, name: &str, args: &[&str]) -> Result<(Child, PathBuf), String> {
        let log = self.file(&format!("{name}.json"));
        let _ = std::fs::remove_file(&log);
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let child = Command::new(exe)
            .args(args)
            .args(["--frame-log", log.to_str().unwrap_or_default()])
            .env("DISPLAY", &self.name)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_RUNTIME_DIR", self.scratch.join("xdg"))
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start the app: {e}"))?;
        Ok((child, log))
    }

    /// Runs the app with `args` for `seconds` and reads its frame log.
    pub fn run(&self, name: &str, args: &[&str], seconds: f64) -> Result<FrameLogData, String> {
        let exit = format!("{seconds}");
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--exit-after", &exit]);
        let (child, log) = self.spawn(name, &all)?;
        finish(child, &log, seconds)
    }

    /// Runs the app for `seconds` while pressing `key` at random moments; returns the log.
    pub fn run_with_keys(
        &self,
        name: &str,
        args: &[&str],
        seconds: f64,
        key: &str,
        presses: usize,
    ) -> Result<FrameLogData, String> {
        let exit = format!("{seconds}");
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--exit-after", &exit]);
        let (child, log) = self.spawn(name, &all)?;
        let xdotool = |args: &[&str]| {
            Command::new("xdotool")
                .args(args)
                .env("DISPLAY", &self.name)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
        };
        let found = xdotool(&[
            "search",
            "--sync",
            "--name",
            "Looplab",
            "windowfocus",
            "--sync",
        ]);
        if !found.is_ok_and(|s| s.success()) {
            return Err("xdotool could not focus the window (is xdotool installed?)".into());
        }
        std::thread::sleep(Duration::from_millis(800));
        let mut rng = Rand32::new(7);
        for _ in 0..presses {
            // Random gaps, so key arrivals fall at every phase of the frame.
            std::thread::sleep(Duration::from_millis(90 + rng.rand_range(0..120) as u64));
            let _ = xdotool(&["key", key]);
        }
        finish(child, &log, seconds)
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Some(mut x) = self.xvfb.take() {
            let _ = x.kill();
            let _ = x.wait();
        }
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// Waits for the app (at most `seconds` plus half a minute) and reads its frame log.
fn finish(mut child: Child, log: &Path, seconds: f64) -> Result<FrameLogData, String> {
    let deadline = Instant::now() + Duration::from_secs_f64(seconds + 30.0);
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            return Err("the app did not exit in time".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if !status.success() {
        return Err(format!("the app exited with {status}"));
    }
    let text = std::fs::read_to_string(log).map_err(|e| format!("no frame log: {e}"))?;
    serde_json::from_str(&text).map_err(|e| format!("bad frame log: {e}"))
}

/// The frames after the first `skip` seconds (start-up and first frames are not steady).
fn steady(log: &FrameLogData, skip: f64) -> Vec<[u64; 10]> {
    let Some(first) = log.frames.first() else {
        return vec![];
    };
    let from = first[col::START] + (skip * 1e9) as u64;
    log.frames
        .iter()
        .copied()
        .filter(|f| f[col::START] >= from)
        .collect()
}

/// Frame-cap precision of a windowed run.
pub fn pacing_from_log(log: &FrameLogData, rate_hz: f64, mode: &'static str) -> PacingResult {
    let frames = steady(log, 1.0);
    let starts: Vec<u64> = frames.iter().map(|f| f[col::START]).collect();
    let (cpu, wall) = match (frames.first(), frames.last()) {
        (Some(a), Some(b)) => (
            Duration::from_nanos(b[col::CPU].saturating_sub(a[col::CPU])),
            Duration::from_nanos(b[col::START].saturating_sub(a[col::START])),
        ),
        _ => (Duration::ZERO, Duration::from_secs(1)),
    };
    PacingResult::from_starts(rate_hz, mode, &starts, cpu, wall)
}

/// Throughput and the split of a windowed run.
pub fn throughput_from_log(
    log: &FrameLogData,
    bullets: usize,
    variant: SpriteVariant,
) -> ThroughputResult {
    let frames = steady(log, 1.0);
    let span = match (frames.first(), frames.last()) {
        (Some(a), Some(b)) => (b[col::START] - a[col::START]) as f64 / 1e9,
        _ => 0.0,
    };
    let column = |k: usize| median(&frames.iter().map(|f| f[k] as f64 / 1e6).collect::<Vec<_>>());
    ThroughputResult {
        bullets,
        variant,
        target: "window",
        frames: frames.len(),
        fps: if span > 0.0 {
            (frames.len() - 1) as f64 / span
        } else {
            0.0
        },
        acquire_ms: column(col::ACQUIRE),
        overlay_ms: column(col::OVERLAY),
        upload_ms: column(col::UPLOAD),
        encode_ms: column(col::ENCODE),
        present_ms: column(col::PRESENT),
    }
}

/// Key-to-screen latency of a run.
#[derive(Clone, Debug, Serialize)]
pub struct LatencyResult {
    /// `60 Hz cap` or `uncapped`.
    pub setting: String,
    pub samples: usize,
    pub median_ms: f64,
    pub p99_ms: f64,
    /// The part of the latency spent waiting for the frame that showed the key to start
    /// (latency minus that frame's start-to-present time): 99th percentile.
    pub wait_p99_ms: f64,
    /// Keys shown within one frame interval plus their frame's own start-to-present time
    /// (and half a millisecond for event dispatch).
    pub within_bound: usize,
    /// Median time from a frame's start to the end of its present.
    pub frame_to_present_ms: f64,
    /// Median frame interval.
    pub frame_interval_ms: f64,
}

pub fn latency_from_log(log: &FrameLogData, setting: &str) -> LatencyResult {
    let ms: Vec<f64> = log
        .input_latency_ns
        .iter()
        .map(|&[n, _]| n as f64 / 1e6)
        .collect();
    let waits: Vec<f64> = log
        .input_latency_ns
        .iter()
        .map(|&[n, render]| n.saturating_sub(render) as f64 / 1e6)
        .collect();
    let frames = steady(log, 1.0);
    let to_present: Vec<f64> = frames
        .iter()
        .map(|f| f[col::PRESENTED].saturating_sub(f[col::START]) as f64 / 1e6)
        .collect();
    let intervals: Vec<f64> = frames
        .windows(2)
        .map(|w| (w[1][col::START] - w[0][col::START]) as f64 / 1e6)
        .collect();
    let interval = median(&intervals);
    LatencyResult {
        setting: setting.to_string(),
        samples: ms.len(),
        median_ms: median(&ms),
        p99_ms: percentile(&ms, 99.0),
        wait_p99_ms: percentile(&waits, 99.0),
        within_bound: waits.iter().filter(|&&w| w <= interval + 0.5).count(),
        frame_to_present_ms: median(&to_present),
        frame_interval_ms: interval,
    }
}

/// Nanoseconds since the Unix epoch, now.
pub fn unix_now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(frames: Vec<[u64; 10]>) -> FrameLogData {
        FrameLogData {
            frames,
            input_latency_ns: vec![
                [10_000_000, 5_000_000],
                [20_000_000, 5_000_000],
                [30_000_000, 5_000_000],
            ],
            first_present_unix_ns: None,
            peak_rss_kib: None,
        }
    }

    #[test]
    fn the_first_second_is_left_out_and_columns_are_read() {
        // 3 s of 60 Hz frames; every frame spends 1 ms acquiring and 2 ms presenting.
        let frames: Vec<[u64; 10]> = (0..180u64)
            .map(|i| {
                let start = i * 16_666_667;
                [
                    start,
                    1,
                    1_000_000,
                    0,
                    500_000,
                    300_000,
                    2_000_000,
                    start + 5_000_000,
                    i * 1_000_000,
                    start,
                ]
            })
            .collect();
        let l = log(frames);
        let t = throughput_from_log(&l, 1000, SpriteVariant::Sprites);
        assert_eq!(t.frames, 120);
        assert!((t.fps - 60.0).abs() < 0.01);
        assert_eq!((t.acquire_ms, t.present_ms), (1.0, 2.0));
        let p = pacing_from_log(&l, 60.0, "precise");
        assert!(p.stddev_ms < 1e-6 && p.p99_error_ms < 1e-5);
        assert!(
            (p.cpu_percent - 6.0).abs() < 0.01,
            "1 ms of CPU per 16.7 ms frame: {}",
            p.cpu_percent
        );
        let lat = latency_from_log(&l, "60 Hz cap");
        assert_eq!((lat.samples, lat.median_ms, lat.p99_ms), (3, 20.0, 30.0));
        assert_eq!(lat.frame_to_present_ms, 5.0);
        // Waits of 5, 15 and 25 ms against a 16.7 ms interval: two within the bound.
        assert_eq!((lat.wait_p99_ms, lat.within_bound), (25.0, 2));
    }
}
