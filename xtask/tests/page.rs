//! The page in a real browser: the web build served on a loopback port and opened in
//! headless Chromium, once with WebGL2 (Chromium's default without a GPU) and once with
//! WebGPU (on SwiftShader). Each run checks that the page draws non-blank frames, that keys
//! switch strategies and its figures show frames under each, that a frame cap is honoured
//! in whole refreshes, and that the console holds no errors.
//!
//! Without Chromium these fail, saying what to install; they never skip.

use std::time::Duration;

use serde_json::Value;
use xtask::browser::{Browser, Gpu, Picture};
use xtask::build::{Built, build};
use xtask::measure::wait_running;
use xtask::serve::PageServer;

/// The page's background colour (the scene's clear colour, 22, 25, 36).
const BACKGROUND: [u8; 3] = [22, 25, 36];

/// One build for both tests (they run on threads of one process).
fn built() -> Built {
    static BUILT: std::sync::OnceLock<Result<Built, String>> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(build)
        .clone()
        .unwrap_or_else(|e| panic!("the web build failed: {e}"))
}

fn frames_of(stats: &Value, strategy: &str) -> u64 {
    stats["run"]["strategies"][strategy]["frames"]
        .as_u64()
        .unwrap_or(0)
}

fn check_the_page(gpu: Gpu) {
    let built = built();
    let server = PageServer::start(&built.dir, 0).expect("serve the page");
    let browser = Browser::start(gpu).unwrap_or_else(|e| panic!("{e}"));

    // It loads, finds its GPU and draws, on the tour's first stop: no README is beside a
    // page, so a bare address opens the guided tour.
    browser.goto(&server.url("")).unwrap();
    let stats = wait_running(&browser, 30).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats["backend"], gpu.backend(), "{stats}");
    assert_eq!(stats["run"]["platform"], "browser");
    assert_eq!(stats["run"]["final_strategy"], "uncapped", "{stats}");
    assert_eq!(
        stats["run"]["tour"]["stops"][0]["id"], "as-fast-as-you-can",
        "{stats}"
    );
    assert!(stats["load_to_first_frame_ms"].as_f64().unwrap() > 0.0);
    assert_eq!(
        stats["run"]["gpu_errors"],
        0,
        "{stats}\nconsole: {:?}",
        browser.console()
    );

    // What it drew: the scene fills the canvas with bullets and words.
    let picture = Picture::from_png(&browser.screenshot().unwrap()).unwrap();
    let (x, y, w, h) = browser.canvas_rect().unwrap();
    let canvas = (x as u32, y as u32, w as u32, h as u32);
    assert_eq!((canvas.2, canvas.3), (1280, 720));
    let (drawn, colours) = picture.content(canvas, BACKGROUND);
    assert!(
        drawn > 0.05 && colours > 200,
        "the canvas looks blank: {:.1}% unlike the background, {colours} colours",
        drawn * 100.0
    );
    // The tour's stop heads the panel, in its gold.
    let gold = (canvas.0 + 16..canvas.0 + 316)
        .flat_map(|x| (canvas.1 + 16..canvas.1 + 36).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            let c = picture.at(x, y);
            c.iter()
                .zip([255u8, 210, 90])
                .all(|(&a, b)| a.abs_diff(b) <= 40)
        })
        .count();
    assert!(gold > 30, "the tour's heading: {gold} gold pixels");
    // Around the canvas, the page's own background: the picture is the canvas's.
    assert_eq!(
        picture.at(canvas.0 + canvas.2 + 20, canvas.1 + 10),
        [22, 25, 36]
    );

    // Enter goes on to the tour's next stop, set up as the window sets it up.
    browser.press("\u{E007}").unwrap();
    browser
        .wait_for("the tour's second stop", Duration::from_secs(30), |s| {
            s["run"]["final_strategy"] == "fixed-sleep"
                && s["run"]["tour"]["stops"][1]["id"] == "a-little-nap"
                && frames_of(s, "fixed-sleep") >= 20
        })
        .unwrap_or_else(|e| panic!("{e}"));

    // Keys switch strategies on a stop as ever: 1 (uncapped), then 4 (catch-up); each
    // draws frames.
    browser.press("1").unwrap();
    let stats = browser
        .wait_for("frames under uncapped", Duration::from_secs(30), |s| {
            s["run"]["final_strategy"] == "uncapped" && frames_of(s, "uncapped") >= 20
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // Uncapped cannot outrun the display: one frame per callback, none let pass.
    assert_eq!(stats["callbacks_passed"], 0, "{stats}");
    browser.press("4").unwrap();
    let stats = browser
        .wait_for("frames under catch-up", Duration::from_secs(30), |s| {
            s["run"]["final_strategy"] == "catch-up" && frames_of(s, "catch-up") >= 20
        })
        .unwrap_or_else(|e| panic!("{e}"));
    for strategy in ["uncapped", "fixed-sleep", "catch-up"] {
        assert!(frames_of(&stats, strategy) > 0, "{strategy}: {stats}");
    }

    // A cap of half the refresh: the browser's callbacks are let pass, every other one.
    browser.goto(&server.url("cap=30")).unwrap();
    let stats = wait_running(&browser, 60).unwrap_or_else(|e| panic!("{e}"));
    let passed = stats["callbacks_passed"].as_f64().unwrap();
    let taken = stats["callbacks_taken"].as_f64().unwrap();
    let refresh = stats["refresh_ms"].as_f64().unwrap();
    assert!(passed > 0.0, "a 30 Hz cap let no callback pass: {stats}");
    let intervals: Vec<f64> = stats["present_intervals_ms"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    let mean = intervals.iter().sum::<f64>() / intervals.len() as f64;
    // The refresh rate snapped deltas use: the page is never told it, so the callbacks
    // measure it.
    let display = &stats["run"]["display"];
    assert_eq!(display["source"], "callbacks", "{display}");
    // Taken once, at the 60th callback; the callbacks' figure is read now, so they may
    // have moved apart a little on a busy machine.
    let hz = display["hz"].as_f64().unwrap();
    assert!(
        (hz * refresh / 1000.0 - 1.0).abs() < 0.25,
        "display {hz:.2} Hz against callbacks every {refresh:.2} ms"
    );
    if refresh < 25.0 {
        // A display faster than 40 Hz: the cap is what paces the frames.
        assert!(
            (mean - 1000.0 / 30.0).abs() < 4.0,
            "mean interval {mean:.2} ms under a 30 Hz cap (refresh {refresh:.2} ms, {taken} taken, {passed} passed)"
        );
    }

    // Nothing went to the console as an error, in any of it.
    let errors: Vec<_> = browser
        .console()
        .unwrap()
        .into_iter()
        .filter(|l| l.level == "error" || l.level == "severe")
        .collect();
    assert!(errors.is_empty(), "console errors: {errors:?}");
}

#[test]
fn the_page_runs_in_chromium_with_webgl2() {
    check_the_page(Gpu::WebGl);
}

#[test]
fn the_page_runs_in_chromium_with_webgpu() {
    check_the_page(Gpu::WebGpu);
}
