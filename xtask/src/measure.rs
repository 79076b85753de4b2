//! The page's figures for the README (`cargo xtask web measure`): load to first frame, FPS
//! at 2,000 bullets with the overlay on and off, frame-cap pacing under
//! `requestAnimationFrame`, and the planner's and the world's cost in wasm beside native,
//! all on this machine in one run.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::Value;

use crate::browser::{Browser, Gpu};
use crate::build::Built;
use crate::serve::PageServer;

/// How long the page runs before a figure is read, and over how long it is read.
const SETTLE: Duration = Duration::from_secs(2);
const SPAN: Duration = Duration::from_secs(6);

/// Bullets in the page for the FPS and kernel figures.
pub const BULLETS: usize = 2_000;

/// The scene of the pacing figures: light enough for a software-rendered browser to keep up
/// with its display, so that what paces the frames is the cap and the callbacks.
pub const PACING_SCENE: &str = "bullets=100&hide-overlay";

/// Waits until the page has presented frames; its figures then.
pub fn wait_running(browser: &Browser, frames: u64) -> Result<Value, String> {
    browser.wait_for(
        &format!("{frames} frames presented"),
        Duration::from_secs(90),
        |s| s["run"]["frames_presented"].as_u64().unwrap_or(0) >= frames,
    )
}

/// Frames presented a second over [`SPAN`], after [`SETTLE`].
fn fps(browser: &Browser) -> Result<f64, String> {
    wait_running(browser, 10)?;
    std::thread::sleep(SETTLE);
    let first = browser.stats()?;
    std::thread::sleep(SPAN);
    let last = browser.stats()?;
    let frames = |s: &Value| s["run"]["frames_presented"].as_f64().unwrap_or(0.0);
    let seconds = |s: &Value| s["run"]["seconds"].as_f64().unwrap_or(0.0);
    Ok((frames(&last) - frames(&first)) / (seconds(&last) - seconds(&first)).max(1e-9))
}

/// Mean and standard deviation of the intervals between presents, ms, over the last
/// [`SPAN`] of a page that has run for [`SETTLE`] before.
fn pacing(browser: &Browser) -> Result<(f64, f64, f64), String> {
    wait_running(browser, 10)?;
    std::thread::sleep(SETTLE + SPAN);
    let stats = browser.stats()?;
    let intervals: Vec<f64> = stats["present_intervals_ms"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_f64)
        .collect();
    let refresh = stats["refresh_ms"].as_f64().unwrap_or(0.0);
    let keep = intervals
        .len()
        .min((SPAN.as_secs_f64() * 1000.0 / refresh.max(1.0)) as usize);
    let recent = &intervals[intervals.len() - keep..];
    let (mean, sd) = mean_sd(recent);
    Ok((mean, sd, refresh))
}

/// Mean and population standard deviation.
pub fn mean_sd(values: &[f64]) -> (f64, f64) {
    let n = values.len().max(1) as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}

/// The median of a few readings.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Runs every measurement and returns the README's tables (Markdown).
pub fn measure(built: &Built) -> Result<String, String> {
    let server = PageServer::start(&built.dir, 0)?;
    let mut out = String::new();
    let native = native_kernel()?;
    for gpu in [Gpu::WebGl, Gpu::WebGpu] {
        let browser = Browser::start(gpu)?;
        let mut loads = Vec::new();
        for _ in 0..3 {
            browser.goto(&server.url(""))?;
            let s = browser.wait_for("a first frame", Duration::from_secs(90), |s| {
                s["load_to_first_frame_ms"].is_number()
            })?;
            loads.push(s["load_to_first_frame_ms"].as_f64().unwrap_or(f64::NAN));
        }
        let backend = browser.stats()?["backend"]
            .as_str()
            .unwrap_or("?")
            .to_string();
        browser.goto(&server.url(&format!("bullets={BULLETS}")))?;
        let fps_overlay = fps(&browser)?;
        browser.goto(&server.url(&format!("bullets={BULLETS}&hide-overlay")))?;
        let fps_bare = fps(&browser)?;
        let mut caps = Vec::new();
        for cap in [30, 40, 60] {
            browser.goto(&server.url(&format!("cap={cap}&{PACING_SCENE}")))?;
            caps.push((cap, pacing(&browser)?));
        }
        let wasm = browser.eval(&format!("return window.looplab.kernel({BULLETS});"))?;
        out += &format!(
            "\n#### {} ({backend})\n\n| figure | value |\n|---|---|\n",
            match gpu {
                Gpu::WebGl => "WebGL2",
                Gpu::WebGpu => "WebGPU",
            }
        );
        out += &format!(
            "| page load to first frame (median of 3) | {:.0} ms |\n",
            median(loads)
        );
        out += &format!("| FPS at {BULLETS} bullets, overlay on | {fps_overlay:.1} |\n");
        out += &format!("| FPS at {BULLETS} bullets, overlay off | {fps_bare:.1} |\n");
        for (cap, (mean, sd, refresh)) in caps {
            out += &format!(
                "| cap {cap} Hz ({PACING_SCENE}): present interval mean / stddev, callbacks every {refresh:.2} ms | {mean:.2} / {sd:.2} ms |\n"
            );
        }
        out += &kernel_rows(&native, &wasm);
        let errors: Vec<_> = browser
            .console()?
            .into_iter()
            .filter(|l| l.level == "error" || l.level == "severe")
            .collect();
        if !errors.is_empty() {
            out += &format!("\nconsole errors: {errors:?}\n");
        }
    }
    out += &format!(
        "\nwasm: {:.2} MB, {:.2} MB gzipped{}\n",
        built.wasm_bytes as f64 / 1e6,
        built.wasm_gzip_bytes as f64 / 1e6,
        built
            .unoptimized_bytes
            .map(|b| format!(" ({:.2} MB before wasm-opt)", b as f64 / 1e6))
            .unwrap_or_default()
    );
    Ok(out)
}

/// The table's rows of the planner's and the world's cost in the page against native.
fn kernel_rows(native: &Value, wasm: &Value) -> String {
    let ratio = |key: &str| {
        native[key].as_f64().unwrap_or(f64::NAN) / wasm[key].as_f64().unwrap_or(f64::NAN)
    };
    let mut out = format!(
        "| planner, one frame: wasm / native | {:.0} / {:.0} ns ({:.2}x native speed) |\n",
        wasm["planner_frame_ns"].as_f64().unwrap_or(f64::NAN),
        native["planner_frame_ns"].as_f64().unwrap_or(f64::NAN),
        ratio("planner_frame_ns")
    );
    out += &format!(
        "| world update, {BULLETS} bullets: wasm / native | {:.1} / {:.1} µs ({:.2}x native speed) |\n",
        wasm["world_update_us"].as_f64().unwrap_or(f64::NAN),
        native["world_update_us"].as_f64().unwrap_or(f64::NAN),
        ratio("world_update_us")
    );
    out
}

/// The same kernel natively, from the release build (`looplab bench --kernel`).
fn native_kernel() -> Result<Value, String> {
    let root = crate::root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .current_dir(&root)
        .args(["run", "--quiet", "--release", "--bin", "looplab", "--"])
        .args(["bench", "--kernel", &BULLETS.to_string()])
        .env("CARGO_TARGET_DIR", root.join("target"))
        .output()
        .map_err(|e| format!("cannot run the native kernel: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the native kernel failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("the native kernel's JSON: {e}"))
}

/// Writes a screenshot of the page at `query` into `file` (a PNG), after it has run a
/// little: the README's picture.
pub fn screenshot(built: &Built, query: &str, file: &Path) -> Result<(), String> {
    let server = PageServer::start(&built.dir, 0)?;
    let browser = Browser::start(Gpu::WebGl)?;
    browser.goto(&server.url(query))?;
    wait_running(&browser, 120)?;
    let png = browser.screenshot()?;
    std::fs::write(file, png).map_err(|e| format!("cannot write {}: {e}", file.display()))
}
