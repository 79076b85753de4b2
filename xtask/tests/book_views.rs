//! The book's live views in a real browser: the site `cargo xtask book` builds, served on a
//! loopback port and opened in headless Chromium, once with WebGL2 and once with WebGPU (on
//! SwiftShader). In every chapter with views, each view is scrolled into sight and must
//! take the one canvas, open on its stop, draw, and show its stop's figures; its first key
//! (or its A/B question's answer) must change what the stop says. One view runs at a time,
//! and none once the reader has scrolled past them all. A view of a stop a page cannot
//! show must show its stand-in picture and say why.
//!
//! The first picture of a view scrolled into sight is measured beside the bare page's
//! first picture (from its navigation), as a ratio, and printed for the closing notes.
//!
//! Without Chromium these fail, saying what to install.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::Value;
use xtask::browser::{Browser, Gpu, Picture};
use xtask::serve::PageServer;
use xtask::views::{View, views};

/// How long a view is given to draw after it is scrolled into sight: a guard against a view
/// that never runs, not a speed (the speed is the ratio below, and the closing note's).
const PATIENCE: Duration = Duration::from_secs(60);

/// The page's background colour, where nothing is drawn.
const BACKGROUND: [u8; 3] = [22, 25, 36];

/// The site, built once for both tests.
fn site() -> PathBuf {
    static BUILT: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = xtask::root();
            xtask::site::build_and_check(&root)?;
            Ok(root.join(xtask::site::BUILT))
        })
        .clone()
        .unwrap_or_else(|e| panic!("the book's build failed: {e}"))
}

/// Each chapter with views, as the built book names its page, and its views in order.
fn chapters() -> Vec<(String, Vec<View>)> {
    let files = xtask::book::Disk(xtask::root());
    let mut out = Vec::new();
    for md in xtask::book::Files::markdown_under(&files, xtask::book::BOOK) {
        let text = std::fs::read_to_string(xtask::root().join(&md)).unwrap();
        let found = views(&text);
        if !found.is_empty() {
            let page = md.trim_start_matches("docs/").replace(".md", ".html");
            out.push((page, found));
        }
    }
    out
}

fn one_browser_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    ONE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `script` in the page until it returns something other than `null` or `false`.
fn wait_until(browser: &Browser, what: &str, script: &str) -> Value {
    let started = Instant::now();
    loop {
        let got = browser.eval(script).unwrap_or_else(|e| panic!("{e}"));
        if !got.is_null() && got != Value::Bool(false) {
            return got;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "waited {} s for {what}; console {:?}",
            PATIENCE.as_secs(),
            browser.console().unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The running stop as it stands (`window.looplab.lesson()`).
fn lesson(browser: &Browser) -> Value {
    browser
        .eval("return JSON.parse(window.looplab.lesson());")
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Opens `url` from the page's own script, and waits for nothing: the caller waits for
/// what it needs (WebDriver's own navigation waits for the renderer to say the page has
/// loaded, and here, under SwiftShader, it now and then timed out after five minutes on a
/// chapter that loads in two seconds from Chromium's command line).
fn open(browser: &Browser, url: &str) {
    browser
        .eval(&format!("location.href = {url:?}; return true;"))
        .unwrap_or_else(|e| panic!("{e}"));
}

/// The `i`th view of the chapter, in script.
fn view(i: usize) -> String {
    format!("document.querySelectorAll('.looplab-view')[{i}]")
}

/// Frames presented so far, once they have stopped coming for a second: the loop at rest.
fn frames_at_rest(browser: &Browser) -> u64 {
    let frames = |b: &Browser| lesson(b)["presented"].as_u64().unwrap_or(0);
    let started = Instant::now();
    let mut last = frames(browser);
    loop {
        std::thread::sleep(Duration::from_secs(1));
        let now = frames(browser);
        if now == last {
            return now;
        }
        assert!(
            started.elapsed() < PATIENCE,
            "the loop kept drawing with no view in sight: {last} frames, then {now}"
        );
        last = now;
    }
}

/// The bare page's first picture, from its navigation, ms: the yardstick.
fn bare_page_first_picture(browser: &Browser, server: &PageServer, query: &str) -> f64 {
    browser
        .goto(&server.at(&format!("page/index.html{query}")))
        .unwrap();
    let stats = browser
        .wait_for("the bare page's first picture", PATIENCE, |s| {
            s["load_to_first_frame_ms"].as_f64().is_some()
        })
        .unwrap_or_else(|e| panic!("{e}"));
    stats["load_to_first_frame_ms"].as_f64().unwrap()
}

fn check_the_views(gpu: Gpu) {
    let site = site();
    let _turn = one_browser_at_a_time();
    let server = PageServer::start(&site, 0).expect("serve the book");
    let query = match gpu {
        Gpu::WebGl => "?backend=webgl",
        Gpu::WebGpu => "",
    };
    // Each page in a browser of its own: in one headless Chromium, going from the running
    // bare page to a chapter with views has hung the renderer here (three runs of three),
    // which a fresh browser for each does not.
    let start = || Browser::start(gpu).unwrap_or_else(|e| panic!("{e}"));
    let yardstick = bare_page_first_picture(&start(), &server, query);
    let chapters = chapters();
    assert!(
        chapters.iter().any(|(page, _)| page == "explore.html"),
        "{chapters:?}"
    );
    let mut lines = vec![format!(
        "{}: the bare page's first picture {yardstick:.0} ms after its navigation",
        gpu.backend()
    )];
    for (page, found) in &chapters {
        let browser = start();
        let url = server.at(&format!("{page}{query}"));
        open(&browser, &url);
        let ready = wait_until(
            &browser,
            "the views to start",
            &format!(
                "const v = window.looplabViews; \
                 return location.href === {url:?} && v && (v.ready || v.failed) ? v : null;"
            ),
        );
        assert_eq!(ready["failed"], Value::Null, "{page}: {ready}");
        // The module has loaded; the GPU it asked for answers when it answers.
        let stats = browser
            .wait_for(&format!("{page}'s GPU"), PATIENCE, |s| {
                !s["backend"].is_null()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stats["backend"], gpu.backend(), "{page}: {stats}");
        for (i, v) in found.iter().enumerate() {
            let here = format!("{page}, view {i} ({})", v.stop);
            browser
                .eval(&format!(
                    "{}.scrollIntoView({{block: 'center'}}); return true;",
                    view(i)
                ))
                .unwrap();
            if v.still.is_some() {
                // A stop a page cannot show: its stand-in, and why.
                let still = wait_until(
                    &browser,
                    &format!("{here}'s stand-in picture"),
                    &format!(
                        "const img = {}.querySelector('img.lv-still'); \
                         return img && img.complete && img.naturalWidth > 0 ? img.naturalWidth : null;",
                        view(i)
                    ),
                );
                assert!(still.as_u64().unwrap() > 0, "{here}");
                let said = browser
                    .eval(&format!(
                        "return {}.querySelector('.lv-standing').textContent;",
                        view(i)
                    ))
                    .unwrap();
                assert!(
                    said.as_str()
                        .unwrap()
                        .starts_with("A page cannot show this"),
                    "{here}: {said}"
                );
                continue;
            }
            // It takes the canvas and draws its stop.
            let took = wait_until(
                &browser,
                &format!("{here} to draw"),
                &format!(
                    "const s = window.looplabViews; const stop = {:?}; \
                     return s.active === {} && s.firstPicture[stop] !== undefined \
                       ? s.firstPicture[stop] - s.shown[stop] : null;",
                    v.stop,
                    view(i)
                ),
            );
            let took = took.as_f64().unwrap();
            let now = lesson(&browser);
            assert_eq!(now["id"], v.stop.as_str(), "{here}: {now}");
            let running = browser
                .eval(&format!(
                    "return [document.querySelectorAll('.looplab-view.lv-running').length, \
                      document.getElementById('looplab-canvas').closest('.looplab-view') === {}];",
                    view(i)
                ))
                .unwrap();
            assert_eq!(running, serde_json::json!([1, true]), "{here}");
            let picture = Picture::from_png(&browser.screenshot().unwrap()).unwrap();
            // Where the canvas is in the viewport (WebDriver's element rectangle is the
            // document's, and the chapter is scrolled).
            let rect = browser
                .eval(
                    "const r = document.getElementById('looplab-canvas').getBoundingClientRect(); \
                     return [r.x, r.y, r.width, r.height].map(Math.round);",
                )
                .unwrap();
            let at = |k: usize| rect[k].as_u64().unwrap_or(0) as u32;
            let (drawn, colours) = picture.content((at(0), at(1), at(2), at(3)), BACKGROUND);
            assert!(
                drawn > 0.01 && colours > 20,
                "{here}: the canvas looks blank ({:.1}% drawn, {colours} colours)",
                drawn * 100.0
            );
            // Its figures, and what its key or its question's answer changes.
            // A stop about compare mode's lanes has its figures in the lanes' captions.
            let rows = wait_until(
                &browser,
                &format!("{here}'s figures"),
                "const n = JSON.parse(window.looplab.lesson()); \
                 return n && (n.rows.length || n.lanes.length) ? n.rows.length + n.lanes.length : null;",
            );
            let answered = answer(&browser, i, &now, &here);
            lines.push(format!(
                "{}: {here}: first picture {took:.0} ms after it came into sight \
                 ({:.2} of the bare page's); {} rows or lanes' captions; {answered}",
                gpu.backend(),
                took / yardstick,
                rows.as_u64().unwrap_or(0)
            ));
            assert!(
                took <= yardstick,
                "{here}: its first picture came {took:.0} ms after it came into sight, \
                 later than the bare page's first after its navigation ({yardstick:.0} ms)"
            );
        }
        // Scrolled past every view: nothing runs.
        browser
            .eval(
                "const pad = document.createElement('div'); pad.style.height = '300vh'; \
                 (document.querySelector('main') || document.body).append(pad); pad.scrollIntoView({block: 'end'}); \
                 return true;",
            )
            .unwrap();
        let resting = frames_at_rest(&browser);
        std::thread::sleep(Duration::from_secs(1));
        assert_eq!(
            lesson(&browser)["presented"].as_u64(),
            Some(resting),
            "{page}"
        );
        let errors: Vec<_> = browser
            .console()
            .unwrap()
            .into_iter()
            .filter(|l| l.level == "error" || l.level == "severe")
            .collect();
        assert!(errors.is_empty(), "{page}: {errors:?}");
    }
    eprintln!("{}", lines.join("\n"));
}

/// Presses the view's first key, or answers its question with A, and waits for the stop to
/// say so; returns what it did, in words.
fn answer(browser: &Browser, i: usize, before: &Value, here: &str) -> String {
    if before["asking"].is_string() {
        click(
            browser,
            &format!("{}.querySelectorAll('.lv-ask button')[0]", view(i)),
        );
        wait_until(
            browser,
            &format!("{here} to take the answer"),
            "const n = JSON.parse(window.looplab.lesson()); return n && n.felt && !n.asking ? n.felt : null;",
        );
        return "answered A, and the lanes were named".to_string();
    }
    let key = browser
        .eval(&format!(
            "const b = {}.querySelector('.lv-keys button'); return b ? b.textContent : null;",
            view(i)
        ))
        .unwrap();
    let Some(key) = key.as_str() else {
        return "no key to press".to_string();
    };
    click(
        browser,
        &format!("{}.querySelector('.lv-keys button')", view(i)),
    );
    let said = wait_until(
        browser,
        &format!("{here} to answer {key}"),
        "const n = JSON.parse(window.looplab.lesson()); \
         return n && /^you (changed|tried)/.test(n.standing) ? n.standing : null;",
    );
    format!("{key} pressed: \"{}\"", said.as_str().unwrap_or_default())
}

fn click(browser: &Browser, element: &str) {
    browser
        .eval(&format!("{element}.click(); return true;"))
        .unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn every_view_of_the_book_runs_in_chromium_with_webgl2() {
    check_the_views(Gpu::WebGl);
}

#[test]
fn every_view_of_the_book_runs_in_chromium_with_webgpu() {
    check_the_views(Gpu::WebGpu);
}
