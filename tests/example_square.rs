//! The `square` example (the loop an engine author copies) runs for real under Xvfb on
//! lavapipe: it opens its window, presents frames at its 60 Hz cap, and exits cleanly.

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use support::{Scratch, Xvfb};

/// The example's binary, which `cargo test` builds beside the package's own.
fn example_binary() -> std::path::PathBuf {
    let looplab = std::path::Path::new(env!("CARGO_BIN_EXE_looplab"));
    let path = looplab
        .parent()
        .expect("the binary has a directory")
        .join("examples")
        .join(format!("square{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build --example square`",
        path.display()
    );
    path
}

#[test]
fn the_square_example_presents_frames_at_its_cap_and_exits_cleanly() {
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("example-square");
    let seconds = 3.0;
    let started = Instant::now();
    let out = Command::new(example_binary())
        .arg(seconds.to_string())
        .env("DISPLAY", &xvfb.display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", scratch.path("xdg"))
        .output()
        .expect("the example starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "the example failed ({}): {stdout}{stderr}",
        out.status
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "it ran for {:?}",
        started.elapsed()
    );
    // "presented N frames in S s"
    let words: Vec<&str> = stdout.split_whitespace().collect();
    let frames: f64 = words
        .iter()
        .position(|&w| w == "presented")
        .and_then(|i| words.get(i + 1)?.parse().ok())
        .unwrap_or_else(|| panic!("no frame count in its output: {stdout}{stderr}"));
    let ran: f64 = words
        .iter()
        .position(|&w| w == "in")
        .and_then(|i| words.get(i + 1)?.parse().ok())
        .unwrap_or_else(|| panic!("no run time in its output: {stdout}"));
    let fps = frames / ran;
    println!("square example: {frames} frames in {ran} s ({fps:.1} FPS)");
    assert!(ran >= seconds, "quit early: {stdout}");
    // The cap is 60 Hz: never more, and on two software-rendering cores at least a third.
    assert!(fps <= 61.0, "{fps:.1} FPS is over the 60 Hz cap");
    assert!(fps >= 20.0, "{fps:.1} FPS: frames were not presented");
}
