//! `looplab-winit`'s `square` example as a page: the same code as the native example, built
//! for the browser and opened in headless Chromium (WebGL2). It must draw its square, move
//! it from frame to frame, turn it round on Space, and leave the console without errors.
//!
//! Without Chromium this fails, saying what to install; it never skips.

use std::time::{Duration, Instant};

use xtask::browser::{Browser, Gpu, Picture};
use xtask::build::build_example;
use xtask::serve::PageServer;

/// How long the page is given to draw its square (a software-rendered page beside a busy
/// process starts slowly): a guard against a page that never draws, not a speed.
const PATIENCE: Duration = Duration::from_secs(90);

/// Where the square is drawn: the left edge of the square's light orange pixels (about
/// 255, 224, 124 on an sRGB surface) in the canvas's middle row, in screenshot pixels.
fn square_x(browser: &Browser) -> Result<Option<u32>, String> {
    let png = browser.screenshot()?;
    // The last one stays where a person can look at it.
    let _ = std::fs::write(
        std::env::temp_dir().join("looplab-example-square.png"),
        &png,
    );
    let picture = Picture::from_png(&png)?;
    let (x, y, width, height) = browser.canvas_rect()?;
    let row = (y + height / 2.0) as u32;
    let from = x.max(0.0) as u32;
    let to = ((x + width) as u32).min(picture.width);
    Ok((from..to).find(|&px| {
        let [r, g, b] = picture.at(px, row.min(picture.height - 1));
        r > 200 && g > 150 && b < 200
    }))
}

/// The square's position a little apart, until two differ: the direction it moves (+1
/// right, -1 left).
fn direction(browser: &Browser) -> Result<i32, String> {
    let started = Instant::now();
    let mut last = square_x(browser)?;
    while started.elapsed() < PATIENCE {
        std::thread::sleep(Duration::from_millis(60));
        let now = square_x(browser)?;
        if let (Some(a), Some(b)) = (last, now)
            && a != b
        {
            return Ok(if b > a { 1 } else { -1 });
        }
        last = now;
    }
    Err(format!(
        "the square did not move in {} s",
        PATIENCE.as_secs()
    ))
}

#[test]
fn the_square_example_runs_as_a_page() {
    let built = build_example("square").unwrap_or_else(|e| panic!("the example's build: {e}"));
    let server = PageServer::start(&built.dir, 0).expect("a server");
    let browser = Browser::start(Gpu::WebGl).unwrap_or_else(|e| panic!("{e}"));
    browser.goto(&server.url("")).expect("the page opens");

    let started = Instant::now();
    while square_x(&browser).expect("a screenshot").is_none() {
        assert!(
            started.elapsed() < PATIENCE,
            "no square drawn in {} s; console {:?}",
            PATIENCE.as_secs(),
            browser.console()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    // Space turns it round. So that a wall's turn is not taken for it, Space is pressed
    // while the square is in the middle half of the canvas (over a second from either
    // wall), and counts only if the square is still there once its direction is read.
    let (x0, _, width, _) = browser.canvas_rect().expect("the canvas");
    let middle = |x: u32| {
        let x = f64::from(x) - x0;
        x > width / 4.0 && x < width * 3.0 / 4.0
    };
    let mut turned = None;
    for _ in 0..5 {
        while !square_x(&browser)
            .expect("a screenshot")
            .is_some_and(middle)
        {
            assert!(
                started.elapsed() < PATIENCE * 2,
                "the square never crossed the middle"
            );
        }
        let before = direction(&browser).expect("the square moves");
        browser.press(" ").expect("a key reaches the page");
        let after = direction(&browser).expect("the square still moves");
        if square_x(&browser)
            .expect("a screenshot")
            .is_some_and(middle)
        {
            turned = Some(after != before);
            break;
        }
    }
    assert_eq!(turned, Some(true), "Space did not turn the square round");
    let errors: Vec<_> = browser
        .console()
        .expect("the console")
        .into_iter()
        .filter(|line| line.level == "SEVERE" || line.level == "error")
        .collect();
    assert!(errors.is_empty(), "the console has errors: {errors:?}");
}
