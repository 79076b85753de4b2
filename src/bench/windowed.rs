//! Measurements of the real app in a real window: this same binary is started with the
//! options under test and a `--frame-log`, and the log is read back. Needs a display (an
//! existing one, or a private Xvfb with `--xvfb`); keys for the latency run come from
//! xdotool.

use crate::metrics::frame_times::FrameTimeFigures;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use looplab_timing::{Rate, Strategy};
use serde::{Deserialize, Serialize};

use super::headless::{
    DrawTarget, PacedFrame, PacingPair, SpriteVariant, ThroughputResult, WaitEnd,
};
use super::measure::{Spread, bootstrap, mean, median, percentile};
use crate::lab::latency::Pacing;
use crate::session::frame::{FrameLog, FrameRecord};
use looplab_headless::{Scratch, Weston, Xvfb};

/// Frames in the first second of a run are left out: start-up is not steady.
const WARM_UP: Duration = Duration::from_secs(1);

/// Where the windowed runs happen.
pub struct Display {
    pub name: String,
    // Dropped after the runs, in this order: the server, then the files.
    _xvfb: Option<Xvfb>,
    scratch: Scratch,
}

impl Display {
    /// The display in `DISPLAY`, or a private Xvfb when `private_xvfb`, with `scratch` for
    /// the runs' files and runtime directory; `Err` says why there is none.
    pub fn open(private_xvfb: bool, scratch: Scratch) -> Result<Display, String> {
        if private_xvfb {
            let xvfb = Xvfb::start("1280x720x24")?;
            return Ok(Display {
                name: xvfb.display().to_string(),
                _xvfb: Some(xvfb),
                scratch,
            });
        }
        match std::env::var("DISPLAY") {
            Ok(d) if !d.is_empty() => Ok(Display {
                name: d,
                _xvfb: None,
                scratch,
            }),
            _ => Err("no display (DISPLAY is unset); run with --xvfb to use a private Xvfb".into()),
        }
    }

    fn file(&self, name: &str) -> PathBuf {
        self.scratch.path(name)
    }

    /// The runs' scratch directory.
    pub fn scratch(&self) -> &Scratch {
        &self.scratch
    }

    /// Starts the app with `args` plus a frame log; returns the child and the log's path.
    fn spawn(&self, name: &str, args: &[&str]) -> Result<(Child, PathBuf), String> {
        let mut command = self.app_command(name, args)?;
        command
            .env("DISPLAY", &self.name)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_RUNTIME_DIR", self.scratch.runtime_dir());
        let log = self.file(&format!("{name}.json"));
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start the app: {e}"))?;
        Ok((child, log))
    }

    /// Runs the app with `args` on `weston` for `seconds` and reads its frame log.
    pub fn run_on_weston(
        &self,
        weston: &Weston,
        name: &str,
        args: &[&str],
        seconds: f64,
    ) -> Result<FrameLog, String> {
        let exit = format!("{seconds}");
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--exit-after", &exit]);
        let mut command = self.app_command(name, &all)?;
        command
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", weston.socket())
            .env("XDG_RUNTIME_DIR", weston.runtime_dir());
        let child = command
            .spawn()
            .map_err(|e| format!("cannot start the app: {e}"))?;
        finish(child, &self.file(&format!("{name}.json")), seconds)
    }

    /// This program with `args` and a frame log named after `name` (an old log removed).
    fn app_command(&self, name: &str, args: &[&str]) -> Result<Command, String> {
        let log = self.file(&format!("{name}.json"));
        let _ = std::fs::remove_file(&log);
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
        let mut command = Command::new(exe);
        looplab_headless::ends_with_us(&mut command)
            .args(args)
            .args(["--frame-log", log.to_str().unwrap_or_default()])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        Ok(command)
    }

    /// Runs the app with `args` for `seconds` and reads its frame log.
    pub fn run(&self, name: &str, args: &[&str], seconds: f64) -> Result<FrameLog, String> {
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
    ) -> Result<FrameLog, String> {
        let exit = format!("{seconds}");
        let mut all: Vec<&str> = args.to_vec();
        all.extend(["--exit-after", &exit]);
        let (child, log) = self.spawn(name, &all)?;
        looplab_headless::focus_window(&self.name, "Looplab")
            .map_err(|e| format!("could not focus the window: {e}"))?;
        std::thread::sleep(Duration::from_millis(800));
        let start = Instant::now();
        for at in press_times(presses) {
            std::thread::sleep((start + at).saturating_duration_since(Instant::now()));
            let _ = looplab_headless::run_on(&self.name, "xdotool", &["key", key]);
        }
        finish(child, &log, seconds)
    }
}

/// The gap between key presses: the golden ratio times 100 ms, a step at 10 UPS.
const PRESS_GAP: Duration = Duration::from_micros(161_803);

/// When each of `presses` key presses goes, from the first: [`PRESS_GAP`] apart, so that
/// the presses fall evenly over every phase of the update step and of the frame, whatever
/// the phase of the first.
///
/// Why not random gaps, as a person's would be: a key's delay takes one of a few values
/// a frame apart (the frame the update that takes it runs in), and 40 presses at random
/// phases put more of them on some values than others, by chance, run after run. An
/// irrational step (the golden ratio of 100 ms is 9.71 frames at 60 Hz, 23.3 at 144 Hz)
/// visits the phases as evenly as a sequence can, so the delays' mean measures the loop
/// rather than the draw.
pub fn press_times(presses: usize) -> impl Iterator<Item = Duration> {
    (0..presses as u32).map(|i| PRESS_GAP * i)
}

/// Waits for the app (at most `seconds` plus half a minute) and reads its frame log.
fn finish(mut child: Child, log: &Path, seconds: f64) -> Result<FrameLog, String> {
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

/// Frame-cap precision of a windowed run.
pub fn pacing_from_log(log: &FrameLog, rate_hz: f64) -> PacingPair {
    let steady = log.steady(WARM_UP);
    let frames: Vec<PacedFrame> = steady
        .iter()
        .enumerate()
        .map(|(i, f)| PacedFrame {
            start: f.start,
            deadline: f.deadline,
            cpu: f.cpu,
            // The next frame's record says whether the loop waited for it at all.
            wait_end: match steady.get(i + 1) {
                Some(next) if next.waited.is_zero() => WaitEnd::Overran,
                Some(_) => WaitEnd::Waited,
                None => WaitEnd::Unknown,
            },
        })
        .collect();
    PacingPair::from_frames(rate_hz, &frames)
}

/// Throughput and the split of a windowed run.
pub fn throughput_from_log(
    log: &FrameLog,
    bullets: usize,
    variant: SpriteVariant,
) -> ThroughputResult {
    let frames = log.steady(WARM_UP);
    let span = match (frames.first(), frames.last()) {
        (Some(a), Some(b)) => (b.start - a.start).as_secs_f64(),
        _ => 0.0,
    };
    let column = |part: fn(&FrameRecord) -> Duration| {
        median(&frames.iter().map(|f| ms(part(f))).collect::<Vec<_>>())
    };
    ThroughputResult {
        bullets,
        variant,
        target: DrawTarget::Window,
        frames: frames.len(),
        fps: if span > 0.0 {
            (frames.len() - 1) as f64 / span
        } else {
            0.0
        },
        frame_times: FrameTimeFigures::of(
            &frames
                .windows(2)
                .map(|w| ms(w[1].start.saturating_sub(w[0].start)))
                .collect::<Vec<_>>(),
        ),
        acquire_ms: column(|f| f.render.acquire),
        overlay_ms: column(|f| f.render.overlay),
        upload_ms: column(|f| f.render.upload),
        encode_ms: column(|f| f.render.encode),
        present_ms: column(|f| f.render.present),
    }
}

/// The loops whose key-to-screen latency is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LatencySetting {
    /// Capped at 60 Hz: the case the latency target is about.
    Cap60,
    Uncapped,
}

impl LatencySetting {
    pub const ALL: [LatencySetting; 2] = [LatencySetting::Cap60, LatencySetting::Uncapped];

    /// In words, for the report.
    pub fn label(self) -> &'static str {
        match self {
            LatencySetting::Cap60 => "60 Hz cap",
            LatencySetting::Uncapped => "uncapped",
        }
    }

    /// The `--cap` it runs with.
    pub fn cap(self) -> &'static str {
        match self {
            LatencySetting::Cap60 => "60",
            LatencySetting::Uncapped => "off",
        }
    }
}

/// Key-to-screen latency of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyResult {
    pub setting: LatencySetting,
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

/// The ship's key-to-screen delay under Weston, whose repaint cycle paces the presents,
/// with FIFO and 2 frames in flight: a loop that goes straight on, or one paced just in
/// time, beside the lab's model of the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueueResult {
    pub pacing: Pacing,
    /// Steering changes shown.
    pub samples: usize,
    pub median_ms: f64,
    pub p99_ms: f64,
    pub frame_interval_ms: f64,
    /// Median time from a frame's start to its present, and its wait for an image.
    pub frame_to_present_ms: f64,
    pub acquire_ms: f64,
    /// The lab's median for that machine behind FIFO with one frame in flight, paced the
    /// same: to the refresh that shows a key, and to the return of the present that
    /// carries it (what the window times, and so what `median_ms` is held against).
    pub model_median_ms: Option<f64>,
    #[serde(default)]
    pub model_to_present_ms: Option<f64>,
}

/// The queue result of a run under Weston. The model's display refreshes every
/// `refresh_ms` where a run that went straight on measured it (a run paced just in time
/// that misses a refresh now and then draws less often than the display refreshes), else
/// as often as this run drew.
pub fn queue_from_log(log: &FrameLog, pacing: Pacing, refresh_ms: Option<f64>) -> QueueResult {
    let delays = ship_delays_ms(log);
    let (interval, render) = steady_frames(log);
    let steady = log.steady(WARM_UP);
    let acquire: Vec<f64> = steady.iter().map(|f| ms(f.render.acquire)).collect();
    // The model's machine: the frame's work, without its waits, on a display refreshing
    // as often as the compositor let the frames draw; and one frame in flight whatever
    // the surface asked, since a frame draws only at the frame callback of the one before
    // (Mesa's Wayland FIFO), as a swapchain of two images allows.
    let work = median(&steady.iter().map(|f| ms(f.work())).collect::<Vec<_>>()).max(0.1);
    let model = crate::lab::latency::modelled_delay(
        pacing,
        Duration::from_secs_f64(work / 1e3),
        Duration::from_secs_f64(refresh_ms.unwrap_or(interval).max(1.0) / 1e3),
        1,
    );
    QueueResult {
        pacing,
        samples: delays.len(),
        median_ms: median(&delays),
        p99_ms: percentile(&delays, 99.0),
        frame_interval_ms: interval,
        frame_to_present_ms: render,
        acquire_ms: median(&acquire),
        model_median_ms: model.to_shown_ms,
        model_to_present_ms: model.to_present_ms,
    }
}

/// The ship's key-to-screen delay in the window under one strategy and update rate, beside
/// the lab's model of the same loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShipDelayResult {
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub strategy: Strategy,
    pub ups: f64,
    /// Arrow presses shown.
    pub samples: usize,
    pub median_ms: f64,
    /// The median's spread over resamples of the presses: 40 presses from a spread of a
    /// whole update step (100 ms at 10 UPS) leave the median several milliseconds to move.
    #[serde(default)]
    pub median_spread_ms: Option<Spread>,
    pub p99_ms: f64,
    /// Median frame interval and start-to-present time of the run: the model's machine.
    pub frame_interval_ms: f64,
    pub frame_to_present_ms: f64,
    /// The lab's median for a machine that renders in `frame_to_present_ms` under the same
    /// cap, with a seeded person at the arrows (`looplab lab feel`'s model).
    pub model_median_ms: Option<f64>,
    /// The delays' mean, with its spread over resamples of the presses, and the model's.
    /// What the window is held against the model by: a delay takes one of a few values a
    /// frame apart (at 10 UPS, six), and where the middle press falls between two of them
    /// the median jumps a whole frame from run to run; the mean does not.
    #[serde(default)]
    pub mean_ms: f64,
    #[serde(default)]
    pub mean_spread_ms: Option<Spread>,
    #[serde(default)]
    pub model_mean_ms: Option<f64>,
    /// How far the frames ran behind the update steps' grid, ms: the mean of the deciles
    /// ([`step_phases`]) the model runs its frames at.
    #[serde(default)]
    pub step_phase_ms: Option<f64>,
}

/// The median frame interval and the median time from a frame's start to its present,
/// milliseconds, over the frames after the warm-up.
fn steady_frames(log: &FrameLog) -> (f64, f64) {
    let frames = log.steady(WARM_UP);
    let to_present: Vec<f64> = frames
        .iter()
        .filter_map(|f| f.start_to_present().map(ms))
        .collect();
    let intervals: Vec<f64> = frames
        .windows(2)
        .map(|w| ms(w[1].start - w[0].start))
        .collect();
    (median(&intervals), median(&to_present))
}

/// Where the frames fell on the update steps' grid: each frame's unspent game time (what
/// its clock read less what its updates covered) modulo `interval`, as the midpoints of its
/// ten deciles (the 5th, 15th, ... 95th percentiles), low to high; none for no frames. A
/// wait the machine made late restarts the cap's grid (the window's `restart_deadlines`)
/// and moves the frames along the steps' grid by its lateness, so on a busy machine the
/// phase wanders over a run, and a fixed step's delay does not follow a phase's average
/// (past the time the loop is free in a frame, every key misses its frame's update): the
/// model runs at each decile and pools the delays.
pub fn step_phases(frames: &[FrameRecord], interval: Duration) -> Vec<Duration> {
    let period = interval.as_secs_f64();
    if frames.is_empty() || period <= 0.0 {
        return Vec::new();
    }
    let phases: Vec<f64> = frames
        .iter()
        .map(|f| {
            let unspent = f
                .game_shown
                .saturating_sub(f.game_before + f.game_advance())
                .as_secs_f64();
            unspent % period
        })
        .collect();
    (0..10)
        .map(|i| Duration::from_secs_f64(percentile(&phases, 5.0 + 10.0 * f64::from(i))))
        .collect()
}

/// The ship's key-to-screen delays of a run, ms.
fn ship_delays_ms(log: &FrameLog) -> Vec<f64> {
    log.ship_delays_ns
        .iter()
        .map(|&ns| ns as f64 / 1e6)
        .collect()
}

/// The ship's delays of a run, and the model's for the machine the run measured.
pub fn ship_delay_from_log(log: &FrameLog, strategy: Strategy, ups: f64) -> ShipDelayResult {
    let delays = ship_delays_ms(log);
    let (interval, render) = steady_frames(log);
    let phases = step_phases(log.steady(WARM_UP), Rate::SIXTY_HZ.period());
    let model = crate::lab::feel::modelled_feel(
        strategy,
        ups,
        Duration::from_secs_f64(render / 1e3),
        &phases,
    );
    ShipDelayResult {
        strategy,
        ups,
        samples: delays.len(),
        median_ms: median(&delays),
        median_spread_ms: Some(bootstrap(&delays, |drawn| {
            median(&drawn.iter().map(|&&d| d).collect::<Vec<_>>())
        })),
        p99_ms: percentile(&delays, 99.0),
        frame_interval_ms: interval,
        frame_to_present_ms: render,
        model_median_ms: model.as_ref().and_then(|m| m.delay_p50_ms),
        mean_ms: mean(&delays),
        mean_spread_ms: Some(bootstrap(&delays, |drawn| {
            mean(&drawn.iter().map(|&&d| d).collect::<Vec<_>>())
        })),
        model_mean_ms: model.and_then(|m| m.delay_mean_ms),
        step_phase_ms: (!phases.is_empty())
            .then(|| mean(&phases.iter().map(|&p| ms(p)).collect::<Vec<_>>())),
    }
}

pub fn latency_from_log(log: &FrameLog, setting: LatencySetting) -> LatencyResult {
    let latencies: Vec<f64> = log.keys.iter().map(|k| ms(k.latency)).collect();
    let waits: Vec<f64> = log
        .keys
        .iter()
        .map(|k| ms(k.latency.saturating_sub(k.render)))
        .collect();
    let (interval, to_present) = steady_frames(log);
    LatencyResult {
        setting,
        samples: latencies.len(),
        median_ms: median(&latencies),
        p99_ms: percentile(&latencies, 99.0),
        wait_p99_ms: percentile(&waits, 99.0),
        within_bound: waits.iter().filter(|&&w| w <= interval + 0.5).count(),
        frame_to_present_ms: to_present,
        frame_interval_ms: interval,
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::session::frame::{KeyLatency, RenderTimes};

    #[test]
    fn the_step_phases_are_the_deciles_of_the_frames_unspent_time_within_an_interval() {
        let ms = |v: f64| Duration::from_secs_f64(v / 1e3);
        let interval = ms(16.0);
        // One update of 16 ms a frame; `unspent` ms of the clock's reading left over.
        let frame = |unspent: f64| FrameRecord {
            updates: 1,
            step: interval,
            game_before: ms(1000.0),
            game_shown: ms(1016.0 + unspent),
            ..FrameRecord::default()
        };
        let phases = |unspent: &[f64]| -> Vec<f64> {
            let frames: Vec<FrameRecord> = unspent.iter().map(|&u| frame(u)).collect();
            step_phases(&frames, interval)
                .iter()
                .map(|p| p.as_secs_f64() * 1e3)
                .collect()
        };
        let steady = phases(&[6.0; 20]);
        assert_eq!(steady.len(), 10);
        assert!(steady.iter().all(|p| (p - 6.0).abs() < 1e-6), "{steady:?}");
        // Frames a hair before a step's edge half the time and a hair after it the other
        // half: half the keys wait a frame more, and the deciles keep both halves.
        let split: Vec<f64> = (0..20)
            .map(|i| if i % 2 == 0 { 15.9 } else { 0.1 })
            .collect();
        let split = phases(&split);
        assert!(
            split[..5].iter().all(|p| (p - 0.1).abs() < 1e-6),
            "{split:?}"
        );
        assert!(
            split[5..].iter().all(|p| (p - 15.9).abs() < 1e-6),
            "{split:?}"
        );
        // 20 ms unspent is a step and 4 ms: 4 ms behind the next step.
        assert!((phases(&[20.0])[0] - 4.0).abs() < 1e-6);
        assert!(step_phases(&[], interval).is_empty());
    }

    #[test]
    fn presses_fall_evenly_over_every_phase_of_the_step_and_the_frame() {
        let times: Vec<Duration> = press_times(40).collect();
        assert_eq!(times.len(), 40);
        // 10 UPS, 20 UPS, 30, 60 and 144 Hz: every tenth of the period holds 3 to 5 of
        // the 40 presses. Random gaps of 90 to 210 ms, simulated with 200 seeds, put 0 to 11
        // in a tenth of 100 ms, and not one seed kept every tenth within 3 to 5.
        for period_ms in [100.0, 50.0, 1e3 / 30.0, 1e3 / 60.0, 1e3 / 144.0] {
            let mut tenths = [0; 10];
            for t in &times {
                let phase = (t.as_secs_f64() * 1e3 % period_ms) / period_ms;
                tenths[(phase * 10.0) as usize] += 1;
            }
            assert!(
                tenths.iter().all(|&n| (3..=5).contains(&n)),
                "{period_ms} ms: {tenths:?}"
            );
        }
        // And they fit the ten-second run after its start.
        assert!(*times.last().unwrap() < Duration::from_secs(7));
    }

    fn log(frames: Vec<FrameRecord>) -> FrameLog {
        let key = |latency_ms: u64| KeyLatency {
            latency: Duration::from_millis(latency_ms),
            render: Duration::from_millis(5),
        };
        FrameLog {
            frames,
            keys: vec![key(10), key(20), key(30)],
            ..FrameLog::default()
        }
    }

    #[test]
    fn the_first_second_is_left_out_and_columns_are_read() {
        // 3 s of 60 Hz frames; every frame spends 1 ms acquiring and 2 ms presenting.
        let frames: Vec<FrameRecord> = (0..180u64)
            .map(|i| {
                let start = Duration::from_nanos(i * 16_666_667);
                FrameRecord {
                    start,
                    updates: 1,
                    render: RenderTimes {
                        acquire: Duration::from_millis(1),
                        upload: Duration::from_micros(500),
                        encode: Duration::from_micros(300),
                        present: Duration::from_millis(2),
                        ..RenderTimes::default()
                    },
                    presented: Some(start + Duration::from_millis(5)),
                    deadline: Some(Duration::from_nanos((i + 1) * 16_666_667)),
                    cpu: Duration::from_millis(i),
                    game_shown: start,
                    ..FrameRecord::default()
                }
            })
            .collect();
        let l = log(frames);
        let t = throughput_from_log(&l, 1000, SpriteVariant::Sprites);
        assert_eq!(t.frames, 120);
        assert!((t.fps - 60.0).abs() < 0.01);
        assert_eq!((t.acquire_ms, t.present_ms), (1.0, 2.0));
        // Seconds 1 to 3 hold two pairs of half-seconds, each wait's frames even.
        let pair = pacing_from_log(&l, 60.0);
        for p in [&pair.naive, &pair.precise] {
            assert!(p.stddev_ms < 1e-6 && p.p99_error_ms < 1e-5);
            assert!(p.frames >= 55, "{} frames", p.frames);
            assert!(
                (p.cpu_percent - 6.0).abs() < 0.01,
                "1 ms of CPU per 16.7 ms frame: {}",
                p.cpu_percent
            );
        }
        let lat = latency_from_log(&l, LatencySetting::Cap60);
        assert_eq!((lat.samples, lat.median_ms, lat.p99_ms), (3, 20.0, 30.0));
        assert_eq!(lat.frame_to_present_ms, 5.0);
        // Waits of 5, 15 and 25 ms against a 16.7 ms interval: two within the bound.
        assert_eq!((lat.wait_p99_ms, lat.within_bound), (25.0, 2));
    }
}
