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
use xtask::measure::{PACING_SCENE, wait_running};
use xtask::serve::PageServer;

/// Frames each strategy must draw after a key, and how long they are waited for: a guard
/// against a page that stopped, not a speed (a software-rendered page beside a busy process
/// may draw a frame a second).
const FRAMES_UNDER_EACH: u64 = 10;
const PATIENCE: Duration = Duration::from_secs(120);

/// The rate of the display the cap's check drives: a whole three refreshes a 30 Hz frame.
const DRIVEN_HZ: f64 = 90.0;

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

/// The recent frame callbacks of a page's stats: when each came (ms) and whether it started
/// a frame.
struct Callbacks(Vec<(f64, bool)>);

impl Callbacks {
    fn of(stats: &Value) -> Callbacks {
        Callbacks(
            stats["recent_callbacks"]
                .as_array()
                .expect("the page reports its recent callbacks")
                .iter()
                .map(|c| (c["at_ms"].as_f64().unwrap(), c["taken"] == true))
                .collect(),
        )
    }

    /// The intervals between the callbacks, ms, sorted.
    fn intervals(&self) -> Vec<f64> {
        let mut gaps: Vec<f64> = self.0.windows(2).map(|w| w[1].0 - w[0].0).collect();
        gaps.sort_by(f64::total_cmp);
        gaps
    }

    fn median_interval(&self) -> f64 {
        let gaps = self.intervals();
        gaps.get(gaps.len() / 2).copied().unwrap_or(f64::NAN)
    }

    /// The intervals' tenths, ms: how unsteady they were.
    fn deciles(&self) -> Vec<String> {
        let gaps = self.intervals();
        (0..=10)
            .map(|k| format!("{:.1}", gaps[(gaps.len() - 1) * k / 10]))
            .collect()
    }

    /// When the callbacks that started frames came.
    fn taken(&self) -> Vec<f64> {
        self.0.iter().filter(|c| c.1).map(|c| c.0).collect()
    }
}

/// A cap of `hz` did what the callbacks of a driven display of [`DRIVEN_HZ`] allow:
/// - the callbacks came steadily: the test's display (a precondition, not the cap's doing);
/// - it held no frame back: a callback was let pass only within a period of the last frame
///   begun (a deadline is at most a period after the frame before it, and a callback is let
///   pass only while its deadline is more than a quarter refresh away; 1 ms for the
///   refresh's average moving between the two);
/// - it let callbacks pass, and the frames kept the cap's rate, in whole refreshes.
fn check_the_cap(stats: &Value, hz: f64) {
    let period = 1000.0 / hz;
    let callbacks = Callbacks::of(stats);
    let (taken, median) = (callbacks.taken(), callbacks.median_interval());
    let about = format!(
        "{} callbacks, median {median:.2} ms apart, {} taken",
        callbacks.0.len(),
        taken.len()
    );
    assert!(taken.len() >= 10, "{about}");
    assert!(
        (median * DRIVEN_HZ / 1000.0 - 1.0).abs() < 0.1,
        "precondition: callbacks {:.2} ms apart ({about}; intervals' deciles {:?})",
        1000.0 / DRIVEN_HZ,
        callbacks.deciles()
    );
    let mut last_frame = None;
    for &(at, started) in &callbacks.0 {
        if started {
            last_frame = Some(at);
        } else if let Some(frame) = last_frame {
            assert!(
                at - frame < period + 1.0,
                "a callback {:.2} ms after the last frame was let pass under a {hz} Hz cap ({about})",
                at - frame
            );
        }
    }
    // On average never faster than the cap; and the typical frame three refreshes after
    // the last, a timer's lateness either side (a tick the machine held up moves one frame,
    // not the median).
    let mean = (taken[taken.len() - 1] - taken[0]) / (taken.len() - 1) as f64;
    let mut apart: Vec<f64> = taken.windows(2).map(|w| w[1] - w[0]).collect();
    apart.sort_by(f64::total_cmp);
    let typical = apart[apart.len() / 2];
    eprintln!(
        "{hz} Hz cap: {about}, frames every {mean:.2} ms on average, {typical:.2} ms typically"
    );
    let passed = callbacks.0.iter().filter(|c| !c.1).count();
    assert!(passed > 0, "no callback let pass ({about})");
    assert!(
        mean >= period - 1.0,
        "frames every {mean:.2} ms under a {hz} Hz cap ({about})"
    );
    assert!(
        (typical - period).abs() < 2.0,
        "frames typically {typical:.2} ms apart under a {hz} Hz cap ({about})"
    );
}

/// The GPU taken from the page mid-run and given back: WebGL's context through
/// `WEBGL_lose_context` (as a browser takes a background tab's), the WebGPU device
/// destroyed (as a crashed GPU process loses it, its `lost` promise resolved). While it is
/// away nothing is drawn and a line over the canvas says so; once it is back the run goes
/// on drawing, with the recovery counted and no GPU error.
fn check_the_gpu_comes_back(browser: &Browser, gpu: Gpu, canvas: (u32, u32, u32, u32)) {
    // Every line shown over the canvas, kept as it is shown: a WebGPU device comes back
    // in less time than the figures are polled.
    browser
        .eval(
            "const line = document.getElementById('looplab-gpu-away'); \
             window.gpuAwayLines = []; \
             new MutationObserver(() => { if (line.textContent) \
               window.gpuAwayLines.push(line.textContent); }) \
               .observe(line, { childList: true, characterData: true, subtree: true }); \
             return true;",
        )
        .unwrap();
    let before = browser.stats().unwrap();
    let presented = before["run"]["frames_presented"].as_u64().unwrap();
    match gpu {
        Gpu::WebGl => {
            let taken = browser
                .eval(
                    "const gl = document.getElementById('looplab-canvas').getContext('webgl2'); \
                     window.takeContext = gl && gl.getExtension('WEBGL_lose_context'); \
                     if (!window.takeContext) return false; \
                     window.takeContext.loseContext(); return true;",
                )
                .unwrap();
            assert_eq!(
                taken, true,
                "the page's WebGL2 context offers WEBGL_lose_context"
            );
            // The browser keeps the context until asked for it back: meanwhile nothing is
            // drawn, and the line over the canvas is seen there in its gold.
            let away = browser
                .wait_for("the GPU away", PATIENCE, |s| s["gpu_away"] == true)
                .unwrap_or_else(|e| panic!("{e}"));
            let held = away["run"]["frames_presented"].as_u64().unwrap();
            let shot = browser.screenshot().unwrap();
            if let Some(dir) = std::env::var_os("LOOPLAB_PAGE_SHOTS") {
                std::fs::write(std::path::Path::new(&dir).join("gpu-away.png"), &shot).unwrap();
            }
            let picture = Picture::from_png(&shot).unwrap();
            let gold = gold_pixels(
                &picture,
                (
                    canvas.0..canvas.0 + canvas.2,
                    canvas.1 + 330..canvas.1 + 390,
                ),
            );
            assert!(gold > 200, "the line over the canvas: {gold} gold pixels");
            let still = browser.stats().unwrap();
            assert_eq!(still["gpu_away"], true, "{still}");
            assert_eq!(still["run"]["frames_presented"], held, "drawn while away");
            browser
                .eval("window.takeContext.restoreContext(); return true;")
                .unwrap();
        }
        Gpu::WebGpu => {
            browser
                .eval("window.looplab.loseDevice(); return true;")
                .unwrap();
        }
    }
    let back = browser
        .wait_for("frames after the GPU came back", PATIENCE, |s| {
            s["run"]["gpu_recoveries"] == 1
                && s["run"]["frames_presented"].as_u64().unwrap_or(0)
                    >= presented + FRAMES_UNDER_EACH
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back["gpu_away"], false, "{back}");
    assert_eq!(back["run"]["gpu_errors"], 0, "{back}");
    // The run went on where it was: its strategy, the tour's stop.
    assert_eq!(
        back["run"]["final_strategy"],
        before["run"]["final_strategy"]
    );
    assert_eq!(
        back["run"]["tour"]["stops"].as_array().map(Vec::len),
        before["run"]["tour"]["stops"].as_array().map(Vec::len),
        "the tour's stops: {back}"
    );
    // Nothing of the old device was used on the new one (WebGL would say so).
    let complaints: Vec<_> = browser
        .console()
        .unwrap()
        .into_iter()
        .filter(|l| l.level == "error" || l.level == "severe" || l.text.contains("INVALID_"))
        .collect();
    assert!(complaints.is_empty(), "the console: {complaints:?}");
    let lines = browser.eval("return window.gpuAwayLines;").unwrap();
    assert!(
        lines[0]
            .as_str()
            .unwrap_or_default()
            .contains("The GPU was taken from this page"),
        "the line shown while away: {lines}"
    );
    let line = browser
        .eval("return document.getElementById('looplab-gpu-away').textContent;")
        .unwrap();
    assert_eq!(line, "", "the line is taken down");
    let picture = Picture::from_png(&browser.screenshot().unwrap()).unwrap();
    let (drawn, colours) = picture.content(canvas, BACKGROUND);
    assert!(
        drawn > 0.05 && colours > 200,
        "blank after the GPU came back: {:.1}% unlike the background, {colours} colours",
        drawn * 100.0
    );
    let recovery = &back["gpu_recovery"];
    eprintln!(
        "measured: {gpu:?}: the GPU away {:.0} ms from the loss to the first new frame, \
         {:.0} ms of it from asking for a new one",
        recovery["loss_to_frame_ms"].as_f64().unwrap(),
        recovery["asked_to_frame_ms"].as_f64().unwrap()
    );
}

/// The browser's window made narrower, then wide again: the canvas follows the page's
/// width (at the device's pixel ratio) keeping its shape, the surface follows the canvas,
/// and the overlay's layout, checked by the page as it draws, holds at each size.
fn check_a_resized_page(browser: &Browser) {
    let ratio = browser
        .eval("return window.devicePixelRatio;")
        .unwrap()
        .as_f64()
        .unwrap();
    for width in [1000, 1400] {
        browser.resize(width, 1000).unwrap();
        let (x, y, w, h) = browser.canvas_rect().unwrap();
        let expected = ((w * ratio).round() as u64, (h * ratio).round() as u64);
        assert!(
            (w / h - 16.0 / 9.0).abs() < 0.01 && w <= 1280.0,
            "the canvas at {w}x{h} CSS pixels in a {width} px window"
        );
        let s = browser
            .wait_for(&format!("a layout at {expected:?}"), PATIENCE, |s| {
                let size = &s["layout"]["size"];
                size[0].as_u64().map(|x| x.abs_diff(expected.0) <= 1) == Some(true)
                    && size[1].as_u64().map(|y| y.abs_diff(expected.1) <= 1) == Some(true)
            })
            .unwrap_or_else(|e| panic!("{e}"));
        let layout = &s["layout"];
        assert!(layout["texts"].as_u64().unwrap() > 20, "{layout}");
        assert_eq!(
            layout["faults"].as_array().map(Vec::len),
            Some(0),
            "the layout at {expected:?}: {layout}"
        );
        assert_eq!(s["run"]["surface_size"], layout["size"], "{s}");
        // Drawn at that size: the scene, not a blank canvas (the screenshot is in device
        // pixels).
        let shot = browser.screenshot().unwrap();
        if let Some(dir) = std::env::var_os("LOOPLAB_PAGE_SHOTS") {
            let name = format!("resized-{width}-{ratio}x.png");
            std::fs::write(std::path::Path::new(&dir).join(name), &shot).unwrap();
        }
        let picture = Picture::from_png(&shot).unwrap();
        let px = |v: f64| (v * ratio) as u32;
        let (drawn, colours) = picture.content((px(x), px(y), px(w), px(h)), BACKGROUND);
        assert!(
            drawn > 0.05 && colours > 200,
            "blank at {w}x{h}: {:.1}% unlike the background, {colours} colours",
            drawn * 100.0
        );
        eprintln!(
            "measured: the page at {width} px wide, {ratio} device pixels a CSS pixel: \
             canvas {w}x{h} CSS px, surface {expected:?}, {} texts laid out, no fault",
            layout["texts"]
        );
    }
}

/// Pixels of `picture` within `area` (columns, rows) in the tour's and the notices' gold
/// (255, 210, 90), give or take a blend.
fn gold_pixels(
    picture: &Picture,
    (columns, rows): (std::ops::Range<u32>, std::ops::Range<u32>),
) -> usize {
    columns
        .flat_map(|x| rows.clone().map(move |y| (x, y)))
        .filter(|&(x, y)| {
            picture
                .at(x, y)
                .iter()
                .zip([255u8, 210, 90])
                .all(|(&a, b)| a.abs_diff(b) <= 40)
        })
        .count()
}

/// The two tests run on threads of one process; each browser renders in software on the
/// machine's cores, so they take turns.
fn one_browser_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE.lock().unwrap_or_else(|e| e.into_inner())
}

fn check_the_page(gpu: Gpu) {
    let built = built();
    let _turn = one_browser_at_a_time();
    let server = PageServer::start(&built.dir, 0).expect("serve the page");
    let browser = Browser::start(gpu).unwrap_or_else(|e| panic!("{e}"));

    // It loads, finds its GPU and draws, on the tour's first stop: no README is beside a
    // page, so a bare address opens the guided tour.
    browser.goto(&server.url("")).unwrap();
    let stats = wait_running(&browser, 30).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats["backend"], gpu.backend(), "{stats}");
    assert_eq!(stats["run"]["window_system"], "browser");
    // A page never draws faster than its display: its tour opens on the first claim it
    // can show, the nap.
    assert_eq!(stats["run"]["final_strategy"], "fixed-sleep", "{stats}");
    assert_eq!(
        stats["run"]["tour"]["stops"][0]["id"], "a-little-nap",
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
    let gold = gold_pixels(
        &picture,
        (canvas.0 + 16..canvas.0 + 316, canvas.1 + 16..canvas.1 + 36),
    );
    assert!(gold > 30, "the tour's heading: {gold} gold pixels");
    // Around the canvas, the page's own background: the picture is the canvas's.
    assert_eq!(
        picture.at(canvas.0 + canvas.2 + 20, canvas.1 + 10),
        [22, 25, 36]
    );

    // Enter goes on to the tour's next stop, set up as the window sets it up (a weak GPU),
    // and Backspace back to the first (none).
    browser.press("\u{E007}").unwrap();
    browser
        .wait_for("the tour's second stop", PATIENCE, |s| {
            s["run"]["tour"]["stops"][1]["id"] == "a-nap-on-a-weak-gpu"
                && s["run"]["knobs"]["render_cost_ms"] == 40.0
        })
        .unwrap_or_else(|e| panic!("{e}"));
    browser.press("\u{E003}").unwrap();
    browser
        .wait_for("the tour's first stop again", PATIENCE, |s| {
            s["run"]["knobs"]["render_cost_ms"] == 0.0
                && frames_of(s, "fixed-sleep") >= FRAMES_UNDER_EACH
        })
        .unwrap_or_else(|e| panic!("{e}"));

    // Keys switch strategies on a stop as ever: 1 (uncapped), then 4 (catch-up); each
    // draws frames.
    browser.press("1").unwrap();
    let stats = browser
        .wait_for("frames under uncapped", PATIENCE, |s| {
            s["run"]["final_strategy"] == "uncapped"
                && frames_of(s, "uncapped") >= FRAMES_UNDER_EACH
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // Uncapped cannot outrun the display: one frame per callback, none let pass (from
    // here: the tour's fixed-sleep, before, let some pass).
    let passed = stats["callbacks_passed"].clone();
    let before = frames_of(&stats, "uncapped");
    let stats = browser
        .wait_for("more frames under uncapped", PATIENCE, |s| {
            frames_of(s, "uncapped") >= before + FRAMES_UNDER_EACH
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats["callbacks_passed"], passed, "{stats}");
    // J asks for just in time, which a page cannot give: the browser calls it once a
    // refresh and it cannot sleep to start a frame later. The knob reads on (the overlay
    // says why it does nothing), the controller learns no lead, and every callback still
    // starts a frame.
    let before = frames_of(&stats, "uncapped");
    browser.press("j").unwrap();
    let stats = browser
        .wait_for("frames with J pressed", PATIENCE, |s| {
            s["run"]["knobs"]["just_in_time"] == true
                && frames_of(s, "uncapped") >= before + FRAMES_UNDER_EACH
        })
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        stats["run"]["knobs"]["just_in_time_lead_ms"].is_null(),
        "{stats}"
    );
    assert_eq!(stats["run"]["knobs"]["just_in_time_missed"], 0, "{stats}");
    assert_eq!(stats["callbacks_passed"], passed, "{stats}");
    browser.press("4").unwrap();
    let stats = browser
        .wait_for("frames under catch-up", PATIENCE, |s| {
            s["run"]["final_strategy"] == "catch-up"
                && frames_of(s, "catch-up") >= FRAMES_UNDER_EACH
        })
        .unwrap_or_else(|e| panic!("{e}"));
    for strategy in ["uncapped", "fixed-sleep", "catch-up"] {
        assert!(frames_of(&stats, strategy) > 0, "{strategy}: {stats}");
    }

    check_the_gpu_comes_back(&browser, gpu, canvas);

    check_a_resized_page(&browser);

    // A 30 Hz cap on a display the test drives at 90 Hz, in a scene light enough for a
    // software-rendered browser: a callback starts a frame once the cap's time has come,
    // and is let pass before, so two of three pass and the frames keep the cap's rate in
    // whole refreshes. Driven, the callbacks keep their rate on a busy machine too, and
    // every check applies.
    let driven = PageServer::start_driven(&built.dir, DRIVEN_HZ).expect("serve the page");
    browser
        .goto(&driven.url(&format!("cap=30&{PACING_SCENE}")))
        .unwrap();
    // Past the start-up's first frames: the recent callbacks are the steady run's.
    let stats = wait_running(&browser, 150).unwrap_or_else(|e| panic!("{e}"));
    check_the_cap(&stats, 30.0);
    // The refresh rate snapped deltas use: the page is never told it, so the callbacks
    // measure it: the driven display's, the grid they keep to within a hundredth (a busy
    // machine's missed refreshes do not read as a slower display), and the callbacks'
    // average interval, which lets them pass, within a twentieth.
    let display = &stats["run"]["display"];
    assert_eq!(display["source"], "callbacks", "{display}");
    let hz = display["hz"].as_f64().unwrap();
    let refresh = stats["refresh_ms"].as_f64().unwrap();
    assert!(
        (hz / DRIVEN_HZ - 1.0).abs() < 0.01 && (refresh * DRIVEN_HZ / 1000.0 - 1.0).abs() < 0.05,
        "display {hz:.2} Hz, callbacks every {refresh:.2} ms, driven at {DRIVEN_HZ} Hz"
    );
    eprintln!("display {hz:.3} Hz, callbacks every {refresh:.3} ms, driven at {DRIVEN_HZ} Hz");

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

#[test]
fn the_page_follows_a_high_density_display() {
    // Two device pixels a CSS pixel: the canvas is drawn at twice its CSS size, and the
    // overlay's words at twice their size in pixels, in the same places.
    let built = built();
    let _turn = one_browser_at_a_time();
    let server = PageServer::start(&built.dir, 0).expect("serve the page");
    let browser = Browser::start_scaled(Gpu::WebGl, 2.0).unwrap_or_else(|e| panic!("{e}"));
    browser.goto(&server.url("bullets=500")).unwrap();
    wait_running(&browser, 30).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        browser.eval("return window.devicePixelRatio;").unwrap(),
        2.0
    );
    check_a_resized_page(&browser);
}

#[test]
fn a_page_the_browser_calls_seldom_says_so_not_that_the_loop_lost_time() {
    // A browser busy elsewhere: a script holds the page's thread 90 ms of every 100, so the
    // browser calls the page back about ten times a second while each frame's own work
    // stays quick. The first stop (the nap, which needs frames within its 16.7 ms step) is
    // not seen, and says how often the browser called, never that the loop lost time.
    let built = built();
    let _turn = one_browser_at_a_time();
    let server = PageServer::start(&built.dir, 0).expect("serve the page");
    let browser = Browser::start(Gpu::WebGl).unwrap_or_else(|e| panic!("{e}"));
    browser.goto(&server.url("tour&bullets=200")).unwrap();
    browser
        .eval(
            "setInterval(() => { const t = performance.now(); \
             while (performance.now() - t < 90) {} }, 100); return true;",
        )
        .unwrap();
    let stats = browser
        .wait_for("the first stop's verdict", PATIENCE, |s| {
            !s["run"]["tour"]["stops"][0]["missed"].is_null()
                || !s["run"]["tour"]["stops"][0]["seen"].is_null()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let stop = &stats["run"]["tour"]["stops"][0];
    assert_eq!(stop["id"], "a-little-nap", "{stats}");
    let missed = stop["missed"]
        .as_str()
        .unwrap_or_else(|| panic!("seen: {stop}"));
    assert!(
        missed.contains("the browser called the page")
            && missed.contains("too slow to show this here")
            && !missed.contains("bug"),
        "{missed}"
    );
    assert_eq!(stop["too_slow"], true, "{stop}");
}

#[test]
fn a_page_asks_which_lane_is_smoother_and_takes_the_answer() {
    // The page's tour asks as the window's does: at "Stuck in the middle" (its sixth stop)
    // two lanes run unnamed, A and B; once each has drawn a second of pictures, B answers,
    // and `--stats` has the answer and the figures that judge it.
    let built = built();
    let _turn = one_browser_at_a_time();
    let server = PageServer::start(&built.dir, 0).expect("serve the page");
    let browser = Browser::start(Gpu::WebGl).unwrap_or_else(|e| panic!("{e}"));
    browser.goto(&server.url("tour&bullets=200")).unwrap();
    wait_running(&browser, 30).unwrap_or_else(|e| panic!("{e}"));
    for _ in 0..5 {
        browser.press("\u{E007}").unwrap();
    }
    let stats = browser
        .wait_for(
            "the question's lanes, a second of pictures each",
            PATIENCE,
            |s| {
                let lanes = &s["run"]["compare"]["lanes"];
                s["run"]["compare"]["preset"]["blind"]["pair"] == "interpolation"
                    && lanes[0]["fps"].as_u64() >= Some(50)
                    && lanes[1]["fps"].as_u64() >= Some(50)
            },
        )
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        stats["run"]["tour"]["stops"][5]["id"], "stuck-in-the-middle",
        "{stats}"
    );
    assert_eq!(stats["run"]["tour"]["stops"][5]["feel"]["answered"], false);
    browser.press("b").unwrap();
    let stats = browser
        .wait_for("the answer", PATIENCE, |s| {
            s["run"]["tour"]["stops"][5]["feel"]["answered"] == true
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let feel = &stats["run"]["tour"]["stops"][5]["feel"];
    assert_eq!(feel["chose"], "B", "{feel}");
    let figures = feel["figures"].as_str().unwrap_or_default();
    assert!(
        figures.contains("catch-up") && figures.contains("interpolated"),
        "{feel}"
    );
    assert!(feel["agreed_with_figures"].is_boolean(), "{feel}");
    // The stop's own view follows the answer: no lanes.
    assert!(
        stats["run"]["compare"]["preset"]["blind"].is_null(),
        "{stats}"
    );
}
