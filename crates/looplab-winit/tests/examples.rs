//! The examples run for real under Xvfb: `square` (the driver's loop) and `square_by_hand`
//! (the same game with its loop written out) on lavapipe, one after the other for the same
//! time at the same 60 Hz cap. Each opens its window, keeps to its cap, and exits cleanly
//! with its pacing; the two are printed side by side. `minimal` (a pixel buffer, no GPU)
//! draws its square, moves it, and closes on Escape.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use looplab_headless::{Image, Scratch, Xvfb};

/// How long each runs.
const SECONDS: f64 = 3.0;

/// An example's binary, which `cargo test` builds beside this test's.
fn example(name: &str) -> PathBuf {
    let test = std::env::current_exe().expect("the test's own path");
    let dir = test
        .parent()
        .and_then(|deps| deps.parent())
        .expect("the test lives in target/PROFILE/deps");
    let path = dir
        .join("examples")
        .join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build -p looplab-winit --example {name}`",
        path.display()
    );
    path
}

/// One example's figures, from its last line: "presented N frames in S s: F FPS, intervals
/// M ms ± D, worst W ms".
#[derive(Debug)]
struct Ran {
    frames: f64,
    seconds: f64,
    fps: f64,
    line: String,
}

fn run(name: &str, display: &str, scratch: &Scratch) -> Ran {
    let started = Instant::now();
    let out = Command::new(example(name))
        .arg(SECONDS.to_string())
        .env("DISPLAY", display)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", scratch.runtime_dir())
        .output()
        .expect("the example starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{name} failed ({}): {stdout}{stderr}",
        out.status
    );
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{name} ran for {:?}",
        started.elapsed()
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("presented "))
        .unwrap_or_else(|| panic!("{name} printed no pacing: {stdout}{stderr}"))
        .to_string();
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = |after: &str| -> f64 {
        words
            .iter()
            .position(|&w| w == after)
            .and_then(|i| words.get(i + 1)?.trim_end_matches(':').parse().ok())
            .unwrap_or_else(|| panic!("no number after {after:?} in {line:?}"))
    };
    let (frames, seconds) = (number("presented"), number("in"));
    let fps: f64 = words
        .iter()
        .position(|&w| w.starts_with("FPS"))
        .and_then(|i| words.get(i - 1)?.parse().ok())
        .unwrap_or_else(|| panic!("no FPS in {line:?}"));
    Ran {
        frames,
        seconds,
        fps,
        line,
    }
}

#[test]
fn both_squares_keep_their_60_hz_cap_and_exit_cleanly() {
    let xvfb = Xvfb::start("1280x800x24").unwrap_or_else(|e| panic!("{e}"));
    let scratch = Scratch::new("winit-examples").unwrap_or_else(|e| panic!("{e}"));
    for name in ["square", "square_by_hand"] {
        let ran = run(name, xvfb.display(), &scratch);
        println!("{name:>15}: {}", ran.line);
        // The run ends once the game has run SECONDS; its frames span nearly all of it.
        assert!(
            ran.seconds > SECONDS - 0.5 && ran.seconds <= SECONDS,
            "{name}: {ran:?}"
        );
        // The cap is 60 Hz: never more, and on two software-rendering cores at least a
        // third of it.
        assert!(ran.fps <= 61.0, "{name}: {ran:?} is over the 60 Hz cap");
        assert!(
            ran.fps >= 20.0,
            "{name}: {ran:?}: frames were not presented"
        );
        assert!(ran.frames >= 20.0 * (SECONDS - 0.5), "{name}: {ran:?}");
    }
}

/// The smallest window stays as small as the docs say: at most 30 lines of code, counting
/// its imports and not its comments or blank lines.
#[test]
fn the_minimal_example_is_30_lines_of_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/minimal.rs");
    let source = std::fs::read_to_string(path).expect("the minimal example's source");
    let code = source
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with("//"))
        .count();
    println!("minimal.rs: {code} lines of code");
    assert!(code <= 30, "minimal.rs has {code} lines of code, over 30");
}

/// Where `minimal`'s square is on the screen: the leftmost of its colour (255, 191, 51) in
/// the row through its middle, and how many of its pixels there are in all.
fn minimal_square(display: &str, scratch: &Scratch) -> (Option<u32>, usize) {
    let path = scratch.path("minimal.png");
    looplab_headless::screenshot(display, &path).unwrap_or_else(|e| panic!("{e}"));
    let image = Image::read_png(&path).unwrap_or_else(|e| panic!("{e}"));
    let colour = [255, 191, 51];
    let all = image.count((0, 0, image.width, image.height), colour, 8);
    let row = (0..image.height)
        .find(|&y| image.count((0, y, image.width, y + 1), colour, 8) > 0)
        .map(|top| top + 40);
    let left = row
        .and_then(|y| (0..image.width).find(|&x| image.count((x, y, x + 1, y + 1), colour, 8) > 0));
    (left, all)
}

#[test]
fn the_minimal_example_draws_a_moving_square_and_closes_on_escape() {
    let xvfb = Xvfb::start("1280x800x24").unwrap_or_else(|e| panic!("{e}"));
    let scratch = Scratch::new("winit-minimal").unwrap_or_else(|e| panic!("{e}"));
    let mut child = Command::new(example("minimal"))
        .env("DISPLAY", xvfb.display())
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", scratch.runtime_dir())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    looplab_headless::wait_for_window(xvfb.display(), "looplab").unwrap_or_else(|e| panic!("{e}"));
    // Its square drawn whole (a busy machine may take a while to draw a first frame), then
    // looked at again until it has moved: a guard against a window that stopped, not a speed.
    let patience = Instant::now();
    let (first, pixels) = loop {
        let (left, pixels) = minimal_square(xvfb.display(), &scratch);
        if left.is_some() && pixels >= 80 * 80 * 9 / 10 {
            break (left, pixels);
        }
        assert!(
            patience.elapsed() < Duration::from_secs(60),
            "the square was never drawn whole: {pixels} pixels"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let moved = loop {
        std::thread::sleep(Duration::from_millis(100));
        let (left, _) = minimal_square(xvfb.display(), &scratch);
        if left.is_some() && left != first {
            break left;
        }
        assert!(
            patience.elapsed() < Duration::from_secs(60),
            "the square stood at {first:?} ({pixels} pixels)"
        );
    };
    println!("minimal: its square drawn at x = {first:?}, then {moved:?}");
    looplab_headless::press_keys(xvfb.display(), "looplab", &["Escape"], 0)
        .unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the example's status") {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "Escape did not close it"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().expect("its stderr"), &mut stderr)
        .expect("its stderr read");
    assert!(status.success(), "it exited with {status}: {stderr}");
}
