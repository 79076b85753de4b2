//! `looplab bench` end to end, in its quick mode: every section runs and reports numbers
//! that make sense (the speed targets themselves are judged by the full report, not here).
//! The JSON report is read back into the bench's own types.

use std::process::Command;
use std::sync::Mutex;

use looplab::bench::BenchReport;
use looplab::bench::driver::Example;
use looplab::bench::headless::{DrawTarget, PacingPair, SpriteVariant, ThroughputResult};
use looplab::bench::report::{TargetKey, Verdict};
use looplab::bench::windowed::LatencySetting;

/// The two runs share two cores: one at a time, so each one's pacing is its own.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs the quick bench with `args`; with no display unless `with_display`. Also checks the
/// report came out clean: nothing on stderr but its progress lines.
fn bench(args: &[&str], with_display: bool) -> BenchReport {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_looplab"));
    cmd.args(["bench", "--quick", "--format", "json"])
        .args(args)
        // As from a shell that gave no runtime directory: the bench makes its own.
        .env_remove("XDG_RUNTIME_DIR")
        .env("RUST_LOG", "warn");
    if !with_display {
        cmd.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    }
    let out = cmd.output().expect("looplab bench runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "bench failed: {err}");
    let noise: Vec<&str> = err.lines().filter(|l| !l.starts_with("bench: ")).collect();
    assert!(noise.is_empty(), "only progress on stderr: {noise:?}");
    serde_json::from_slice(&out.stdout).expect("the report as the bench writes it")
}

fn check_pacing(pairs: &[PacingPair]) {
    let rates: Vec<f64> = pairs.iter().map(|p| p.rate_hz).collect();
    assert_eq!(rates, [30.0, 60.0, 144.0]);
    for pair in pairs {
        // Both waits had their half-seconds, and each ratio's spread holds its figure.
        assert_eq!(pair.naive.mode, looplab_timing::WaitMode::Naive);
        assert_eq!(pair.precise.mode, looplab_timing::WaitMode::Precise);
        for s in [pair.stddev_ratio, pair.precise_stddev, pair.cpu_ratio] {
            assert!(s.low <= s.value && s.value <= s.high, "{pair:?}");
        }
    }
    for p in pairs.iter().flat_map(|p| [&p.naive, &p.precise]) {
        let target = 1000.0 / p.rate_hz;
        assert!(p.frames > 10, "{p:?}");
        // The cap holds on average whatever the noise: deadlines are on a fixed grid, so no
        // run is faster than its cap. At 30 and 60 Hz a frame takes far less than the
        // interval, so the runs keep to it where the machine let the process run: unless
        // one interval in ten was a stall (the CPU away, measured), which no wait makes up
        // for. At 144 Hz a debug build on a busy machine may not keep up (that is for the
        // bench's report, not a test, to judge).
        assert!(p.mean_interval_ms > target * 0.85, "{p:?}");
        if p.rate_hz <= 60.0 && p.stalls * 10 < p.frames {
            assert!(p.mean_interval_ms < target * 1.15, "{p:?}");
        }
        // A real clock never gives a run of identical intervals, and taking the stalls out
        // can only narrow the spread they widened.
        assert!(p.stddev_ms > 0.0 && p.p99_error_ms > 0.0, "{p:?}");
        assert!(p.stddev_without_stalls_ms <= p.stddev_ms + 1e-9, "{p:?}");
    }
}

fn check_sprites(rows: &[ThroughputResult], target: DrawTarget, counts: (usize, usize)) {
    let (bullet_counts, renderers) = counts;
    assert_eq!(
        rows.len(),
        bullet_counts * renderers,
        "{bullet_counts} bullet counts by {renderers} renderers"
    );
    for s in rows {
        assert_eq!(s.target, target);
        assert!(s.fps > 0.0 && s.frames >= 2, "{s:?}");
    }
    let fps = |bullets: usize, variant: SpriteVariant| {
        rows.iter()
            .find(|s| s.bullets == bullets && s.variant == variant)
            .map(|s| s.fps)
            .unwrap()
    };
    // A hundred times the bullets is slower, whatever the renderer.
    for variant in [SpriteVariant::Bare, SpriteVariant::Sprites] {
        assert!(fps(1_000, variant) > fps(100_000, variant), "{variant:?}");
    }
}

#[test]
fn without_a_display_the_headless_parts_run_and_the_rest_is_skipped_with_a_reason() {
    let r = bench(&[], false);
    assert!(r.host.cores >= 1);
    assert!(!r.host.adapter.is_empty());
    let skipped = r.windowed_skipped.as_deref().unwrap_or_default();
    assert!(skipped.contains("no display"), "{skipped}");
    check_pacing(&r.pacing);
    // 1k, 2k, 10k, 100k: bare, sprites, sprites with captions and timeline, and all.
    check_sprites(&r.sprites, DrawTarget::Offscreen, (4, 4));
    // The frames drawn in turn give every renderer a ratio to the bare one with a spread;
    // the bare renderer's own is 1 however the machine moved.
    assert_eq!(r.sprite_spreads.len(), 16);
    for s in &r.sprite_spreads {
        assert!(s.vs_bare.low <= s.vs_bare.value && s.vs_bare.value <= s.vs_bare.high);
        assert!(s.vs_bare.low > 0.0, "{s:?}");
        if s.variant == SpriteVariant::Bare {
            assert_eq!((s.vs_bare.low, s.vs_bare.high), (1.0, 1.0));
        }
    }
    // The render tick's copy and partial update at 2k and 100k bullets, beside a real update.
    let ticks: Vec<usize> = r.render_tick.iter().map(|t| t.bullets).collect();
    assert_eq!(ticks, [2_000, 100_000]);
    for t in &r.render_tick {
        assert!(
            t.copy_ms > 0.0 && t.partial_update_ms > 0.0 && t.update_ms > 0.0,
            "{t:?}"
        );
        assert!(
            t.total_ms >= t.copy_ms.max(t.partial_update_ms) * 0.5,
            "{t:?}"
        );
    }
    // 10k, 100k and 1M bullets: an update moves every bullet, so ten times the bullets take
    // longer, and the time per bullet stays within a few times of the smallest world's (an
    // update that skipped bullets, or timed nothing, would not scale so).
    let sizes: Vec<usize> = r.world.iter().map(|w| w.bullets).collect();
    assert_eq!(sizes, [10_000, 100_000, 1_000_000]);
    for w in r.world.windows(2) {
        assert!(w[1].update_ms > w[0].update_ms * 2.0, "{w:?}");
    }
    let per_bullet = |w: &looplab::bench::headless::WorldResult| w.update_ms / w.bullets as f64;
    let (small, large) = (per_bullet(&r.world[0]), per_bullet(&r.world[2]));
    assert!((0.2..=5.0).contains(&(large / small)), "{:?}", r.world);
    // Compare mode: the single view, then two lanes and one for every strategy.
    let lanes: Vec<usize> = r.compare.iter().map(|c| c.lanes).collect();
    assert_eq!(lanes, [1, 2, looplab_timing::Strategy::ALL.len()]);
    assert!(r.pacing_window.is_empty() && r.latency.is_empty() && r.driver.is_empty());
    let unmeasured: Vec<TargetKey> = r
        .targets
        .iter()
        .filter(|t| t.verdict == Verdict::NotMeasured)
        .map(|t| t.key)
        .collect();
    assert_eq!(
        unmeasured,
        [TargetKey::InputLatency, TargetKey::Startup],
        "they need a window"
    );
    assert!(r.targets.len() >= 8);
}

#[test]
fn with_xvfb_the_windowed_parts_run_too() {
    let r = bench(&["--xvfb"], false);
    assert_eq!(r.windowed_skipped, None);
    check_pacing(&r.pacing_window);
    // The driver's example and the loop written by hand, one run each in the quick bench,
    // both at their 60 Hz cap (`cargo test --workspace` builds the examples beside it).
    assert_eq!(r.driver_skipped, None);
    let examples: Vec<Example> = r.driver.iter().map(|run| run.example).collect();
    assert_eq!(examples, Example::BOTH);
    for run in &r.driver {
        assert!(run.frames >= 20 && run.fps <= 61.0, "{run:?}");
        assert!(
            run.worst_ms >= run.mean_ms && run.mean_ms >= 1000.0 / 61.0,
            "{run:?}"
        );
    }
    // 1k, 10k, 100k: bare, sprites, sprites with the overlay.
    check_sprites(&r.sprites_window, DrawTarget::Window, (3, 3));
    let settings: Vec<LatencySetting> = r.latency.iter().map(|l| l.setting).collect();
    assert_eq!(settings, LatencySetting::ALL);
    for l in &r.latency {
        assert!(l.samples >= 5, "keys reached the window: {l:?}");
        assert!(l.median_ms > 0.0 && l.p99_ms >= l.median_ms);
    }
    // The ship's delay at 10 and 60 UPS under three strategies, each with its mean, the
    // mean's spread and the model's mean that the window is held against.
    assert_eq!(r.ship_delay.len(), 6);
    for d in &r.ship_delay {
        let spread = d.mean_spread_ms.expect("the mean's spread");
        assert!(d.samples >= 5, "arrows reached the window: {d:?}");
        assert!(spread.low <= d.mean_ms && d.mean_ms <= spread.high, "{d:?}");
        assert!(d.model_mean_ms.is_some_and(|m| m > 0.0), "{d:?}");
    }
    // From the process's spawn, not its loop's first frame: a window, a Vulkan device and
    // its pipelines compiled on lavapipe come before the first present.
    let startup = r.startup_ms.expect("start-up measured");
    assert!(startup > 50.0, "{startup}");
    // The window's own peak, with its 100k bullets (40 bytes each in the world, and their
    // sprites), not the bench's.
    let (rss, at) = r.peak_rss_mib.expect("memory measured");
    assert!(at.starts_with("window: the app with 100k bullets"), "{at}");
    assert!(rss > 100_000.0 * 40.0 / (1 << 20) as f64, "{rss}");
    assert!(
        r.targets
            .iter()
            .all(|t| t.verdict != Verdict::NotMeasured && t.figure.is_some()),
        "{:?}",
        r.targets
    );
}
