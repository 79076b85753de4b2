//! `looplab bench`: the real loop with the real clock, measured. Pacing precision against a
//! naive cap, sprite throughput against a bare renderer, world update cost, input latency,
//! start-up and memory, each set side by side in one run, with the targets judged at the
//! end. Windowed parts run only when there is a display (or `--xvfb`). The planner's own
//! cost is the timing crate's criterion bench (`cargo bench -p looplab-timing`).

pub mod headless;
pub mod host;
pub mod kernel;
pub mod measure;
pub mod report;
pub mod windowed;

use looplab_timing::{Strategy, WaitMode};
use serde::{Deserialize, Serialize};

use crate::lab::compare::Preset;
use crate::lab::latency::Pacing;
use crate::render::gpu::Gpu;
use headless::{PacingResult, RenderTickResult, SpriteVariant, ThroughputResult, WorldResult};
use host::Host;
use looplab_headless::Scratch;
use measure::median;
use windowed::{Display, LatencyResult, LatencySetting};

/// The renderers compared in the window's throughput runs.
const RENDERERS: [SpriteVariant; 3] = [
    SpriteVariant::Bare,
    SpriteVariant::Sprites,
    SpriteVariant::SpritesOverlay,
];

/// The renderers compared offscreen: also the sprites with the captions and timeline alone.
const OFFSCREEN_RENDERERS: [SpriteVariant; 4] = [
    SpriteVariant::Bare,
    SpriteVariant::Sprites,
    SpriteVariant::Story,
    SpriteVariant::SpritesOverlay,
];

/// How often each frame-cap row is run, each wait in turn, keeping the median run.
const PACING_ROUNDS: usize = 3;

/// Bullets in all in the compare-mode runs: the window's default, shared among the lanes.
pub const COMPARE_BULLETS: usize = 2_000;

/// Runs every variant `rounds` times, alternating between them so that a busy moment of the
/// machine hits them alike, and keeps each variant's median run by `key`.
fn median_runs<V: Copy, R>(
    variants: &[V],
    rounds: usize,
    mut run: impl FnMut(V) -> Result<R, String>,
    key: impl Fn(&R) -> f64,
) -> Result<Vec<R>, String> {
    let mut runs: Vec<Vec<R>> = variants.iter().map(|_| Vec::new()).collect();
    for _ in 0..rounds.max(1) {
        for (k, &v) in variants.iter().enumerate() {
            runs[k].push(run(v)?);
        }
    }
    Ok(runs
        .into_iter()
        .map(|mut r| {
            r.sort_by(|a, b| key(a).total_cmp(&key(b)));
            r.swap_remove(r.len() / 2)
        })
        .collect())
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BenchOptions {
    /// Shorter runs: a smoke test of the whole report, not a measurement to quote.
    pub quick: bool,
    /// Start a private Xvfb for the windowed parts.
    pub xvfb: bool,
}

/// Everything `looplab bench` measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// The machine it ran on.
    pub host: Host,
    /// The scheduling noise floor, measured before the pacing runs.
    pub noise: host::SchedulerNoise,
    pub quick: bool,
    /// Why the windowed parts did not run, if they did not.
    pub windowed_skipped: Option<String>,
    pub pacing: Vec<PacingResult>,
    pub pacing_window: Vec<PacingResult>,
    pub sprites: Vec<ThroughputResult>,
    /// Compare mode's lanes against the single view, offscreen, the same bullets in all.
    pub compare: Vec<headless::CompareResult>,
    pub sprites_window: Vec<ThroughputResult>,
    pub world: Vec<WorldResult>,
    /// The render tick's copy and partial update, at 2,000 and 100,000 bullets.
    pub render_tick: Vec<RenderTickResult>,
    pub latency: Vec<LatencyResult>,
    /// The ship's key-to-screen delay under catch-up, interpolated and the render tick at
    /// 10 and 60 UPS with a 60 Hz cap, beside the lab's model of each.
    pub ship_delay: Vec<windowed::ShipDelayResult>,
    /// The ship's delay under Weston with FIFO and 2 frames in flight, plain and just in
    /// time, beside the lab's model.
    #[serde(default)]
    pub queue: Vec<windowed::QueueResult>,
    /// Process start to first presented frame, milliseconds (median of three).
    pub startup_ms: Option<f64>,
    /// Peak resident memory with 100k bullets, MiB, and where it was measured.
    pub peak_rss_mib: Option<(f64, String)>,
    pub targets: Vec<report::Target>,
    pub notes: Vec<String>,
}

/// Runs the benchmark, reporting progress on stderr.
pub fn run(options: &BenchOptions) -> Result<BenchReport, String> {
    let q = options.quick;
    let scratch = Scratch::new("bench")?;
    // Before the GPU opens: the displays the bench starts get the same directory.
    looplab_headless::private_runtime_dir(&scratch.runtime_dir())?;
    let gpu = Gpu::headless()?;
    let host = Host::describe(gpu.adapter_summary());
    let mut notes = Vec::new();
    if host.build == "debug" {
        notes.push("debug build: run `cargo run --release -- bench` for numbers to quote".into());
    }
    let progress = |what: &str| eprintln!("bench: {what}");

    progress("scheduling noise");
    let noise = host::scheduler_noise(if q { 0.5 } else { 3.0 });

    progress("frame-cap precision, headless (plain sleep vs precise wait)");
    let pacing = headless_pacing(q)?;

    progress("world update");
    let world = [10_000, 100_000, 1_000_000]
        .into_iter()
        .map(|n| headless::world_update(n, if q { 20 } else { 200 }))
        .collect();

    progress("render tick: the copy and the partial update");
    let render_tick = [2_000, 100_000]
        .into_iter()
        .map(|n| headless::render_tick_cost(n, if q { 20 } else { 200 }))
        .collect();

    progress("sprite throughput, offscreen");
    let sprite_secs = if q { 0.3 } else { 2.0 };
    let sprites = offscreen_sprites(&gpu, q, sprite_secs)?;

    progress("compare mode against the single view, offscreen");
    let views = [
        None,
        Some(Preset::FredAndGeorge),
        Some(Preset::EveryStrategy),
    ];
    let compare = median_runs(
        &views,
        if q { 1 } else { 3 },
        |preset| headless::compare_offscreen(&gpu, preset, COMPARE_BULLETS, sprite_secs),
        |r| r.fps,
    )?;

    let mut report = BenchReport {
        host,
        noise,
        quick: q,
        windowed_skipped: None,
        pacing,
        pacing_window: vec![],
        sprites,
        compare,
        sprites_window: vec![],
        world,
        render_tick,
        latency: vec![],
        ship_delay: vec![],
        queue: vec![],
        startup_ms: None,
        peak_rss_mib: None,
        targets: vec![],
        notes,
    };

    match Display::open(options.xvfb, scratch) {
        Ok(display) => windowed_parts(&display, &mut report, q, &progress)?,
        Err(why) => without_a_window(&mut report, why, &progress),
    }
    report.targets = report::judge(&report);
    Ok(report)
}

/// No display for the windowed parts: why, and the bench process's own peak memory after
/// the 100k offscreen runs in place of the app's.
fn without_a_window(report: &mut BenchReport, why: String, progress: &dyn Fn(&str)) {
    progress(&format!("skipping the windowed parts: {why}"));
    report.windowed_skipped = Some(why);
    if let Some(kib) = crate::platform::process::peak_rss_kib() {
        report.peak_rss_mib = Some((
            kib as f64 / 1024.0,
            "headless: this bench process after rendering 100k bullets offscreen".into(),
        ));
    }
}

/// The frame cap's precision in a headless loop, at 30, 60 and 144 Hz, each wait.
fn headless_pacing(q: bool) -> Result<Vec<headless::PacingResult>, String> {
    let pacing_secs = if q { 1.0 } else { 5.0 };
    let mut pacing = Vec::new();
    for rate in [30.0, 60.0, 144.0] {
        // Each row three times (once when quick), alternating the waits, and the median
        // kept: this machine loses the CPU for a millisecond or more about twice a second,
        // whichever wait runs, and one such moment in a run decides its spread.
        pacing.extend(median_runs(
            &[WaitMode::Naive, WaitMode::Precise],
            if q { 1 } else { PACING_ROUNDS },
            |mode| Ok(headless::pacing(rate, mode, pacing_secs)),
            |r| r.stddev_ms,
        )?);
    }
    Ok(pacing)
}

/// Sprite throughput offscreen, each renderer, at four bullet counts.
fn offscreen_sprites(
    gpu: &Gpu,
    q: bool,
    secs: f64,
) -> Result<Vec<headless::ThroughputResult>, String> {
    let mut sprites = Vec::new();
    for bullets in [1_000, 2_000, 10_000, 100_000] {
        let rounds = if q { 1 } else { 3 };
        sprites.extend(median_runs(
            &OFFSCREEN_RENDERERS,
            rounds,
            |variant| headless::sprites_offscreen(gpu, bullets, variant, secs),
            |r| r.fps,
        )?);
    }
    Ok(sprites)
}

fn windowed_parts(
    display: &Display,
    report: &mut BenchReport,
    q: bool,
    progress: &dyn Fn(&str),
) -> Result<(), String> {
    let light = [
        "--strategy",
        "interpolated",
        "--vsync",
        "off",
        "--bullets",
        "200",
        "--hide-overlay",
        "--hide-timeline",
    ];

    progress("frame-cap precision in the window (WaitUntil vs precise wait)");
    window_pacing(display, report, q, &light)?;
    progress("sprite throughput in the window");
    window_sprites(display, report, q)?;
    progress("input latency (keys from xdotool)");
    window_latency(display, report, q);
    progress("the ship's key-to-screen delay (arrows from xdotool)");
    window_ship_delay(display, report, q);
    progress("the ship's delay under Weston, FIFO with 2 in flight, plain and just in time");
    weston_queue(display, report, q);
    progress("start-up");
    window_startup(display, report)
}

/// The frame cap's precision in the window, at 30, 60 and 144 Hz, each wait.
fn window_pacing(
    display: &Display,
    report: &mut BenchReport,
    q: bool,
    light: &[&str],
) -> Result<(), String> {
    let secs = if q { 2.5 } else { 7.0 };
    for rate in [30.0, 60.0, 144.0] {
        let cap = format!("{rate}");
        let rounds = if q { 1 } else { PACING_ROUNDS };
        let modes = [WaitMode::Naive, WaitMode::Precise];
        let runs = median_runs(
            &modes,
            rounds,
            |mode| {
                let mut args = light.to_vec();
                args.extend(["--cap", &cap, "--pacing", mode.id()]);
                let log = display.run(&format!("pacing-{rate}-{}", mode.id()), &args, secs)?;
                Ok(windowed::pacing_from_log(&log, rate, mode))
            },
            |r| r.stddev_ms,
        )?;
        report.pacing_window.extend(runs);
    }
    Ok(())
}

/// Sprite throughput in the window, each renderer, with the app's peak memory at 100k.
fn window_sprites(display: &Display, report: &mut BenchReport, q: bool) -> Result<(), String> {
    let secs = if q { 2.5 } else { 4.0 };
    for bullets in [1_000usize, 10_000, 100_000] {
        let n = bullets.to_string();
        let rounds = if q { 1 } else { 3 };
        let mut peak_rss = None;
        let runs = median_runs(
            &RENDERERS,
            rounds,
            |variant| {
                let mut args = vec![
                    "--strategy",
                    "interpolated",
                    "--vsync",
                    "off",
                    "--cap",
                    "off",
                    "--bullets",
                    &n,
                ];
                match variant {
                    SpriteVariant::Bare => args.extend(["--bare-renderer", "--hide-overlay"]),
                    SpriteVariant::Sprites | SpriteVariant::Story => args.push("--hide-overlay"),
                    SpriteVariant::SpritesOverlay => {}
                }
                let log = display.run(&format!("sprites-{n}-{}", variant.label()), &args, secs)?;
                if bullets == 100_000 && variant == SpriteVariant::Sprites {
                    peak_rss = log.peak_rss_kib.or(peak_rss);
                }
                Ok(windowed::throughput_from_log(&log, bullets, variant))
            },
            |r| r.fps,
        )?;
        report.sprites_window.extend(runs);
        if let Some(kib) = peak_rss {
            report.peak_rss_mib = Some((
                kib as f64 / 1024.0,
                "window: the app with 100k bullets, overlay hidden".to_string(),
            ));
        }
    }
    Ok(())
}

/// Input latency at each setting: a key's arrival to the present that shows it. A run
/// that fails is a note, not the bench's end.
fn window_latency(display: &Display, report: &mut BenchReport, q: bool) {
    let secs = if q { 4.0 } else { 10.0 };
    let presses = if q { 10 } else { 40 };
    for setting in LatencySetting::ALL {
        let cap = setting.cap();
        let args = [
            "--strategy",
            "interpolated",
            "--vsync",
            "off",
            "--bullets",
            "2000",
            "--cap",
            cap,
        ];
        // Pause toggles: they change what is shown, not what a frame costs.
        match display.run_with_keys(&format!("latency-{cap}"), &args, secs, "p", presses) {
            Ok(log) => report
                .latency
                .push(windowed::latency_from_log(&log, setting)),
            Err(e) => report
                .notes
                .push(format!("input latency not measured: {e}")),
        }
    }
}

/// The ship's delay from an arrow key to the screen, at 10 and 60 UPS, under three
/// strategies.
fn window_ship_delay(display: &Display, report: &mut BenchReport, q: bool) {
    let ship_secs = if q { 4.0 } else { 10.0 };
    let ship_presses = if q { 12 } else { 40 };
    for ups in [10.0, 60.0] {
        for strategy in [
            Strategy::CatchUp,
            Strategy::Interpolated,
            Strategy::Predicted,
        ] {
            let ups_arg = format!("{ups}");
            let args = [
                "--strategy",
                strategy.id(),
                "--ups",
                &ups_arg,
                "--vsync",
                "off",
                "--cap",
                "60",
                "--bullets",
                "2000",
            ];
            let name = format!("ship-{}-{ups}", strategy.id());
            match display.run_with_keys(&name, &args, ship_secs, "Right", ship_presses) {
                Ok(log) => report
                    .ship_delay
                    .push(windowed::ship_delay_from_log(&log, strategy, ups)),
                Err(e) => report.notes.push(format!("ship delay not measured: {e}")),
            }
        }
    }
}

/// The ship's delay from an arrow to the screen under Weston (whose repaint cycle paces the
/// presents), FIFO with 2 frames in flight: a loop that goes straight on against one paced
/// just in time. The arrows come from a key script (a headless Weston has no seat to type
/// into). A run that fails is a note.
fn weston_queue(display: &Display, report: &mut BenchReport, q: bool) {
    let secs = if q { 5.0 } else { 12.0 };
    let runtime = display.scratch().path("weston");
    let weston = std::fs::create_dir_all(&runtime)
        .map_err(|e| e.to_string())
        .and_then(|()| looplab_headless::private_runtime_dir(&runtime))
        .and_then(|()| looplab_headless::Weston::start(&runtime, 1280, 720));
    let weston = match weston {
        Ok(w) => w,
        Err(e) => {
            report
                .notes
                .push(format!("the queue under Weston not measured: {e}"));
            return;
        }
    };
    let script = arrow_taps(secs);
    for pacing in [Pacing::Plain, Pacing::JustInTime] {
        let mut args = vec![
            "--strategy",
            "interpolated",
            "--present",
            "fifo",
            "--frame-latency",
            "2",
            "--bullets",
            "2000",
            "--key-script",
            &script,
        ];
        if pacing == Pacing::JustInTime {
            args.push("--just-in-time");
        }
        let name = format!(
            "queue-{}",
            if pacing == Pacing::Plain {
                "plain"
            } else {
                "jit"
            }
        );
        match display.run_on_weston(&weston, &name, &args, secs) {
            Ok(log) => {
                // The plain run draws at the compositor's pace: the display's, for both.
                let refresh = report
                    .queue
                    .iter()
                    .find(|q| q.pacing == Pacing::Plain)
                    .map(|q| q.frame_interval_ms);
                report
                    .queue
                    .push(windowed::queue_from_log(&log, pacing, refresh));
            }
            Err(e) => report
                .notes
                .push(format!("the queue under Weston not measured: {e}")),
        }
    }
}

/// A key script of right-arrow taps at seeded moments from 1.5 s to half a second before
/// `secs`, 150 to 400 ms apart, so that they fall at every phase of the frame.
pub fn arrow_taps(secs: f64) -> String {
    let mut rng = oorandom::Rand32::new(11);
    let mut at = 1.5;
    let mut taps = Vec::new();
    while at < secs - 0.5 {
        taps.push(format!("{at:.3}:Right"));
        at += 0.15 + f64::from(rng.rand_range(0..250)) / 1e3;
    }
    taps.join(",")
}

/// Process start to first presented frame, the median of three.
fn window_startup(display: &Display, report: &mut BenchReport) -> Result<(), String> {
    let mut startups = Vec::new();
    for i in 0..3 {
        let spawned = crate::platform::clock::unix_time_ns();
        let log = display.run(
            &format!("startup-{i}"),
            &["--vsync", "off", "--cap", "60"],
            1.0,
        )?;
        if let Some(first) = log.first_present_unix_ns {
            startups.push(first.saturating_sub(spawned) as f64 / 1e6);
        }
    }
    report.startup_ms = (!startups.is_empty()).then(|| median(&startups));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_runs_alternate_variants_and_keep_each_median() {
        let mut order = Vec::new();
        let mut n = 0.0;
        let runs = median_runs(
            &['a', 'b'],
            3,
            |v| {
                order.push(v);
                n += 1.0;
                Ok((v, if v == 'a' { 10.0 - n } else { n }))
            },
            |r| r.1,
        )
        .unwrap();
        assert_eq!(order, ['a', 'b', 'a', 'b', 'a', 'b']);
        // a ran with 9, 7, 5 and b with 2, 4, 6: the medians are 7 and 4.
        assert_eq!(runs, [('a', 7.0), ('b', 4.0)]);
    }
}
