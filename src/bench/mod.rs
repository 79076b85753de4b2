//! `looplab bench`: the real loop with the real clock, measured. Pacing precision against a
//! naive cap, sprite throughput against a bare renderer, world update cost, input latency,
//! start-up and memory, each set side by side in one run, with the targets judged at the
//! end. Windowed parts run only when there is a display (or `--xvfb`). The planner's own
//! cost is the timing crate's criterion bench (`cargo bench -p looplab-timing`).

pub mod driver;
pub mod headless;
pub mod host;
pub mod kernel;
pub mod measure;
pub mod report;
pub mod tables;
pub mod windowed;

use looplab_timing::Strategy;
use serde::{Deserialize, Serialize};

use crate::lab::compare::Preset;
use crate::lab::latency::Pacing;
use crate::render::gpu::Gpu;
use headless::{
    PacingPair, RenderTickResult, SpriteSpread, SpriteVariant, ThroughputResult, WorldResult,
};
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
    /// Each cap rate with the naive and the precise wait in turn, headless and in the window.
    pub pacing: Vec<PacingPair>,
    pub pacing_window: Vec<PacingPair>,
    /// The `looplab-winit` driver's example and the same game's loop written by hand, at
    /// the same cap in turn; or why they did not run.
    #[serde(default)]
    pub driver: Vec<driver::ExampleRun>,
    #[serde(default)]
    pub driver_skipped: Option<String>,
    pub sprites: Vec<ThroughputResult>,
    /// Each renderer's ratios from the offscreen frames, drawn in turn, with their spreads.
    #[serde(default)]
    pub sprite_spreads: Vec<SpriteSpread>,
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
    let host = Host::describe(gpu.adapter_summary(), gpu.is_software());
    let notes = first_notes(&host, &gpu);
    let progress = |what: &str| eprintln!("bench: {what}");

    progress("scheduling noise");
    let noise = host::scheduler_noise(if q { 0.5 } else { 3.0 });

    progress("frame-cap precision, headless (plain sleep and precise wait in turn)");
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
    let (sprites, sprite_spreads) = offscreen_sprites(&gpu, q)?;

    progress("compare mode against the single view, offscreen");
    let compare = offscreen_compare(&gpu, q)?;

    let mut report = BenchReport {
        host,
        noise,
        quick: q,
        windowed_skipped: None,
        pacing,
        pacing_window: vec![],
        driver: vec![],
        driver_skipped: None,
        sprites,
        sprite_spreads,
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

/// The notes every report starts with: a debug build's numbers are not to quote, and how
/// the renderers' costs were read on this adapter.
fn first_notes(host: &Host, gpu: &Gpu) -> Vec<String> {
    let mut notes = Vec::new();
    if host.build == "debug" {
        notes.push("debug build: run `cargo run --release -- bench` for numbers to quote".into());
    }
    // The captions' GPU share could be read from timestamp queries where the adapter has
    // them; the bench measures it the way every adapter allows, by frames drawn in turn.
    let timestamps = gpu
        .adapter
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY);
    notes.push(format!(
        "GPU timestamp queries {} by this adapter; the renderers' costs come from frames drawn in turn",
        if timestamps { "offered" } else { "not offered" }
    ));
    notes
}

/// Compare mode's lanes against the single view offscreen, each view's median run.
fn offscreen_compare(gpu: &Gpu, q: bool) -> Result<Vec<headless::CompareResult>, String> {
    let sprite_secs = if q { 0.3 } else { 2.0 };
    let views = [
        None,
        Some(Preset::FredAndGeorge),
        Some(Preset::EveryStrategy),
    ];
    median_runs(
        &views,
        if q { 1 } else { 3 },
        |preset| headless::compare_offscreen(gpu, preset, COMPARE_BULLETS, sprite_secs),
        |r| r.fps,
    )
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

/// The frame cap's precision in a headless loop, at 30, 60 and 144 Hz, the two waits in
/// turn.
fn headless_pacing(q: bool) -> Result<Vec<PacingPair>, String> {
    // Long enough for the rare late wake-ups of a virtual machine (one or two in a
    // thousand, each 1 to 4 ms) to fall on both waits, even at 30 Hz.
    let secs = if q { 2.0 } else { 30.0 };
    Ok([30.0, 60.0, 144.0]
        .into_iter()
        .map(|rate| headless::pacing(rate, secs))
        .collect())
}

/// Sprite throughput offscreen, each renderer, at four bullet counts, the renderers frame
/// by frame in turn; and each one's ratio to the bare renderer and its cost beyond the
/// sprites alone, with their spreads.
fn offscreen_sprites(
    gpu: &Gpu,
    q: bool,
) -> Result<(Vec<ThroughputResult>, Vec<SpriteSpread>), String> {
    let mut sprites = Vec::new();
    let mut spreads = Vec::new();
    let index = |v: SpriteVariant| OFFSCREEN_RENDERERS.iter().position(|&r| r == v);
    let (Some(bare), Some(plain)) = (index(SpriteVariant::Bare), index(SpriteVariant::Sprites))
    else {
        return Err("the offscreen renderers lack the bare one or the sprites".into());
    };
    for bullets in [1_000, 2_000, 10_000, 100_000] {
        // Enough cycles at 100k (a frame takes 80 to 100 ms there) for a spread.
        let secs = match (q, bullets) {
            (true, _) => 0.5,
            (false, 100_000) => 16.0,
            (false, _) => 6.0,
        };
        let (results, cycles) =
            headless::sprites_offscreen(gpu, bullets, &OFFSCREEN_RENDERERS, secs)?;
        for (k, &variant) in OFFSCREEN_RENDERERS.iter().enumerate() {
            spreads.push(SpriteSpread {
                bullets,
                variant,
                vs_bare: headless::interleaved_spread(&cycles, bare, k, |b, v| b / v.max(1e-9)),
                added_ms: headless::interleaved_spread(&cycles, plain, k, |p, v| v - p),
            });
        }
        sprites.extend(results);
    }
    Ok((sprites, spreads))
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

    progress("frame-cap precision in the window (WaitUntil and precise wait in turn)");
    window_pacing(display, report, q, &light)?;
    progress("the winit driver beside the same loop written by hand (looplab-winit's examples)");
    match driver::pacing(display, if q { 1 } else { 3 }, if q { 2.0 } else { 10.0 }) {
        Ok(runs) => report.driver = runs,
        Err(why) => report.driver_skipped = Some(why),
    }
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

/// The frame cap's precision in the window, at 30, 60 and 144 Hz, the two waits in turn
/// in one run each.
fn window_pacing(
    display: &Display,
    report: &mut BenchReport,
    q: bool,
    light: &[&str],
) -> Result<(), String> {
    let secs = if q { 3.5 } else { 31.0 };
    for rate in [30.0, 60.0, 144.0] {
        let cap = format!("{rate}");
        let mut args = light.to_vec();
        args.extend(["--cap", &cap, "--pacing", "alternating"]);
        let log = display.run(&format!("pacing-{rate}"), &args, secs)?;
        report
            .pacing_window
            .push(windowed::pacing_from_log(&log, rate));
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
                    SpriteVariant::SpritesOverlay => args.push("--full-panel"),
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
        // The plain run draws at the compositor's pace: the display's, for both. Weston's
        // headless output tells no rate, and a loop paced just in time from its first frame
        // never measures one, so it is given the plain run's.
        let refresh = report
            .queue
            .iter()
            .find(|q| q.pacing == Pacing::Plain)
            .map(|q| q.frame_interval_ms);
        let given = refresh.map(|ms| format!("{:.3}", 1e3 / ms.max(1.0)));
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
            if let Some(hz) = &given {
                args.extend(["--refresh", hz]);
            }
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
