//! The real binary in a real window: Xvfb, Mesa's software Vulkan (lavapipe), keys sent with
//! xdotool. Each strategy is switched to live and must behave as the texts say, judged from
//! the app's own `--stats` and its log.

mod support;

use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;
use support::{App, Scratch, Xvfb, stats};

/// The window tests share two cores with lavapipe: run them one at a time so their frame
/// rates are their own.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn strategy<'a>(stats: &'a Value, id: &str) -> &'a Value {
    let s = &stats["strategies"][id];
    assert!(s.is_object(), "no stats for {id}: {stats}");
    s
}

fn num(v: &Value, field: &str) -> f64 {
    v[field]
        .as_f64()
        .unwrap_or_else(|| panic!("no {field} in {v}"))
}

#[test]
fn each_strategy_behaves_as_the_texts_say_under_a_slow_renderer() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("strategies");
    let stats_path = scratch.path("stats.json");
    // Every frame costs 40 ms more to render: a weak GPU, about 20 FPS.
    let app = App::start(
        &xvfb,
        &scratch,
        &[
            "--strategy",
            "uncapped",
            "--vsync",
            "off",
            "--cap",
            "off",
            "--render-cost",
            "40ms",
            "--bullets",
            "500",
            "--exit-after",
            "23",
            "--stats",
            stats_path.to_str().unwrap(),
        ],
    );
    xvfb.wait_for_window();
    for (at, key) in [(5, "2"), (8, "3"), (11, "4"), (14, "5"), (17, "6")] {
        app.at(Duration::from_secs(at));
        xvfb.keys(&[key]);
    }
    let (status, log) = app.wait(Duration::from_secs(60));
    assert!(status.success(), "looplab failed: {log}");
    for line in [
        "strategy: fixed-sleep (Fixed step, sleep to sync)",
        "strategy: variable (Variable (fluid) time step)",
        "strategy: catch-up (Fixed update, variable render)",
        "strategy: interpolated (Fixed update + interpolation)",
        "strategy: extrapolated (Fixed update + prediction)",
    ] {
        assert_eq!(
            log.matches(line).count(),
            1,
            "'{line}' logged once in:\n{log}"
        );
    }
    let stats = stats(&stats_path);
    assert_eq!(stats["gpu_errors"], 0);
    assert_eq!(stats["final_strategy"], "extrapolated");
    for id in [
        "uncapped",
        "fixed-sleep",
        "variable",
        "catch-up",
        "interpolated",
        "extrapolated",
    ] {
        let s = strategy(&stats, id);
        assert!(num(s, "seconds") > 2.0, "{id} ran: {s}");
        assert!(
            num(s, "fps") < 30.0,
            "{id} is held down by the 40 ms render: {s}"
        );
    }
    // One fixed step per frame at ~20 FPS: the game runs at about a third of real time.
    for id in ["uncapped", "fixed-sleep"] {
        let s = strategy(&stats, id);
        assert!(
            num(s, "ratio") < 0.6,
            "{id} runs slower than real time: {s}"
        );
        assert_eq!(num(s, "max_updates_in_frame"), 1.0, "{id}: {s}");
    }
    // A variable step keeps real time with one (long) update per frame.
    let v = strategy(&stats, "variable");
    assert!(
        (num(v, "ratio") - 1.0).abs() < 0.1,
        "variable keeps real time: {v}"
    );
    assert!(
        (num(v, "ups") - num(v, "fps")).abs() < 1.0,
        "one update a frame: {v}"
    );
    // The fixed-update strategies catch up: real-time speed at 60 UPS, several a frame.
    for id in ["catch-up", "interpolated", "extrapolated"] {
        let s = strategy(&stats, id);
        assert!(num(s, "ratio") > 0.9, "{id} keeps real time: {s}");
        assert!(num(s, "ups") > 50.0, "{id} runs ~60 UPS: {s}");
        assert!(
            num(s, "max_updates_in_frame") >= 2.0,
            "{id} catches up: {s}"
        );
    }
    // Interpolation is smooth where catching up alone is not.
    let (smooth, choppy) = (
        strategy(&stats, "interpolated"),
        strategy(&stats, "catch-up"),
    );
    // (At most half: a busy machine's frame times add judder to both.)
    assert!(
        num(smooth, "mean_judder_px") * 2.0 < num(choppy, "mean_judder_px"),
        "{smooth} vs {choppy}"
    );
}

#[test]
fn a_light_scene_is_paced_by_the_cap_and_drawn_on_screen() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("light");
    let stats_path = scratch.path("stats.json");
    let shot = scratch.path("shot.png");
    let app = App::start(
        &xvfb,
        &scratch,
        &[
            "--strategy",
            "fixed-sleep",
            "--vsync",
            "off",
            "--cap",
            "30",
            "--bullets",
            "1000",
            "--exit-after",
            "12",
            "--stats",
            stats_path.to_str().unwrap(),
        ],
    );
    xvfb.wait_for_window();
    app.at(Duration::from_secs(4));
    // Interpolated with a 30 Hz cap, ghosts on, help shown; then the overlay hidden.
    xvfb.keys(&["5", "g", "h"]);
    app.at(Duration::from_secs(8));
    xvfb.screenshot(&shot);
    xvfb.keys(&["o"]);
    let (status, log) = app.wait(Duration::from_secs(40));
    assert!(status.success(), "looplab failed: {log}");
    for line in [
        "ghosts: on",
        "help: on",
        "overlay: off",
        "strategy: interpolated",
    ] {
        assert!(log.contains(line), "'{line}' in:\n{log}");
    }
    let stats = stats(&stats_path);
    assert_eq!(stats["gpu_errors"], 0);
    // Fixed-sleep with frames well inside its 16.7 ms budget: 60 FPS at real-time speed.
    let fs = strategy(&stats, "fixed-sleep");
    assert!((num(fs, "ratio") - 1.0).abs() < 0.1, "{fs}");
    assert!((num(fs, "fps") - 60.0).abs() < 6.0, "{fs}");
    // The 30 Hz cap paces interpolated: 30 FPS, two updates a frame.
    let i = strategy(&stats, "interpolated");
    assert!((num(i, "fps") - 30.0).abs() < 2.0, "{i}");
    assert!((num(i, "ratio") - 1.0).abs() < 0.05, "{i}");
    assert!(num(i, "max_updates_in_frame") >= 2.0, "{i}");
    // The precise wait learnt its margin from the wake-ups of those capped frames.
    assert_eq!(stats["platform"], "x11");
    let wait = &stats["frame_wait"];
    assert_eq!(wait["mode"], "precise");
    assert!(num(wait, "wake_readings") >= 8.0, "{wait}");
    let early = num(wait, "early_ms");
    assert!((0.3..=4.0).contains(&early), "{wait}");
    assert_ne!(early, 2.0, "learnt, not the 2 ms it starts from: {wait}");

    // The screenshot shows the scene: many lit pixels, in several colours.
    let out = std::process::Command::new("convert")
        .args([
            shot.to_str().unwrap(),
            "-crop",
            "1280x720+0+0",
            "-format",
            "%k",
            "info:",
        ])
        .output()
        .expect("ImageMagick's convert runs");
    let colours: u32 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0);
    assert!(
        colours > 500,
        "a scene with sprites and text has many colours, got {colours}"
    );
}

#[test]
fn the_ship_is_steered_and_the_timeline_drawn() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("ship");
    let stats_path = scratch.path("stats.json");
    let (with_strip, without_strip) = (scratch.path("strip.png"), scratch.path("no-strip.png"));
    // 10 updates a second under a 30 Hz cap: the ship moves in steps and answers late.
    let app = App::start(
        &xvfb,
        &scratch,
        &[
            "--strategy",
            "catch-up",
            "--ups",
            "10",
            "--vsync",
            "off",
            "--cap",
            "30",
            "--bullets",
            "500",
            "--exit-after",
            "14",
            "--stats",
            stats_path.to_str().unwrap(),
        ],
    );
    xvfb.wait_for_window();
    app.at(Duration::from_secs(3));
    xvfb.hold("Right", 1.5);
    xvfb.hold("Up", 0.6);
    xvfb.hold("Left", 0.4);
    app.at(Duration::from_secs(8));
    xvfb.screenshot(&with_strip);
    xvfb.keys(&["t"]);
    app.at(Duration::from_secs(10));
    xvfb.screenshot(&without_strip);
    let (status, log) = app.wait(Duration::from_secs(40));
    assert!(status.success(), "looplab failed: {log}");
    assert!(log.contains("timeline: off"), "{log}");

    let stats = stats(&stats_path);
    let ship = &stats["ship"];
    // Held 1.5 s right, 0.6 s up, 0.4 s left at 420 px/s: about 1050 px flown, ending right
    // of and above where it started (the middle left of the stream).
    let travelled = num(ship, "travelled_px");
    assert!(travelled > 700.0 && travelled < 1300.0, "{ship}");
    let position = &ship["position"];
    let (x, y) = (position[0].as_f64().unwrap(), position[1].as_f64().unwrap());
    assert!(x > 700.0 && y < 260.0, "moved right and up: {ship}");
    // Six presses and releases; a release and the next press arrive before the same frame
    // and are measured as one change, so four changes reach the screen. At 10 UPS and
    // 30 FPS each waits up to a step (100 ms) for its update, then a frame.
    assert!(num(ship, "input_delays") >= 3.0, "{ship}");
    let median = num(ship, "input_delay_median_ms");
    assert!(median > 5.0 && median < 200.0, "{ship}");

    // The strip along the bottom is drawn in its colours, then hidden with T.
    let strip = (56, 626, 1264, 710);
    let marks = |path: &std::path::Path| {
        let shot = looplab::testkit::Image::read_png(path).unwrap();
        let update = shot.count(strip, [90, 200, 110], 12);
        let render = shot.count(strip, [80, 140, 255], 12) + shot.count(strip, [175, 115, 255], 12);
        let wait = shot.count(strip, [95, 95, 110], 6);
        (update, render, wait)
    };
    let (update, render, wait) = marks(&with_strip);
    assert!(update > 100, "update and game ticks: {update} pixels");
    assert!(render > 300, "render and present spans: {render} pixels");
    assert!(wait > 300, "waits for the 30 Hz cap: {wait} pixels");
    let (update, render, wait) = marks(&without_strip);
    assert_eq!((update, render, wait), (0, 0, 0), "hidden with T");
}

#[test]
fn without_a_display_it_says_how_to_get_one() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("looplab runs");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 1, "one line: {err}");
    assert!(
        lines[0].contains("no display")
            && lines[0].contains("xvfb-run")
            && lines[0].contains("looplab lab"),
        "{err}"
    );
    assert!(!err.contains("panicked"));
}

#[test]
fn a_recorded_run_replays_to_the_same_state() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("record");
    let recording = scratch.path("flight.jsonl");
    let stats_path = scratch.path("replay.json");
    let app = App::start(
        &xvfb,
        &scratch,
        &[
            "--strategy",
            "catch-up",
            "--vsync",
            "off",
            "--cap",
            "30",
            "--bullets",
            "300",
            "--exit-after",
            "6",
            "--record",
            recording.to_str().unwrap(),
        ],
    );
    xvfb.wait_for_window();
    app.at(Duration::from_secs(2));
    xvfb.hold("Right", 1.0);
    xvfb.hold("Down", 0.5);
    let (status, log) = app.wait(Duration::from_secs(30));
    assert!(status.success(), "looplab failed: {log}");
    let text = std::fs::read_to_string(&recording).expect("the recording is written");
    let steering = text.lines().filter(|l| l.contains("\"steer\"")).count();
    assert!(steering >= 3, "press right, press down, let go: {text}");

    // Played back in the window: its strategy, world and steering, the same state at the end.
    let app = App::start(
        &xvfb,
        &scratch,
        &[
            "--replay",
            recording.to_str().unwrap(),
            "--vsync",
            "off",
            "--exit-after",
            "8",
            "--stats",
            stats_path.to_str().unwrap(),
        ],
    );
    xvfb.wait_for_window();
    // Keys do nothing to a replay.
    app.at(Duration::from_secs(2));
    xvfb.hold("Left", 0.5);
    let (status, log) = app.wait(Duration::from_secs(30));
    assert!(status.success(), "looplab failed: {log}");
    let replay = &stats(&stats_path)["replay"];
    assert_eq!(replay["reached"], Value::Bool(true), "{replay}");
    assert_eq!(replay["same_state"], Value::Bool(true), "{replay}");
    assert_eq!(num(replay, "ship_offset_px"), 0.0);
    assert!(log.contains("the state is the recorded one"), "{log}");

    // And headless on every machine under the fixed-step strategies.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args([
            "lab",
            "--replay",
            recording.to_str().unwrap(),
            "--format",
            "json",
        ])
        .args(["--strategy", "catch-up,interpolated,fixed-sleep"])
        .output()
        .expect("looplab lab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 18, "six profiles, three strategies");
    assert!(
        rows.iter().all(|r| r["matches"] == Value::Bool(true)),
        "{report}"
    );
}

#[test]
fn compare_mode_keeps_fixed_steps_in_step_and_parts_fred_and_george() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("compare");
    for (preset, expected) in [
        ("fixed-step", "in step"),
        ("fred-and-george", "diverged at"),
    ] {
        let stats_path = scratch.path(&format!("{preset}.json"));
        let app = App::start(
            &xvfb,
            &scratch,
            &[
                "--compare",
                preset,
                "--vsync",
                "off",
                "--cap",
                "60",
                "--bullets",
                "500",
                "--exit-after",
                "6",
                "--stats",
                stats_path.to_str().unwrap(),
            ],
        );
        xvfb.wait_for_window();
        app.at(Duration::from_secs(2));
        xvfb.hold("Right", 0.8);
        xvfb.hold("Up", 0.4);
        let (status, log) = app.wait(Duration::from_secs(30));
        assert!(status.success(), "looplab failed: {log}");
        let compare = &stats(&stats_path)["compare"];
        assert_eq!(compare["preset"], preset, "{compare}");
        let lanes = compare["lanes"].as_array().unwrap();
        assert_eq!(lanes.len(), 2);
        assert!(num(&lanes[1], "checkpoints") >= 4.0, "{compare}");
        let agreement = lanes[1]["agreement"].as_str().unwrap();
        assert!(agreement.starts_with(expected), "{preset}: {compare}");
        // The weak GPU shows about 22 pictures a second beside the fast machine's 60.
        let (fast, weak) = (num(&lanes[0], "fps"), num(&lanes[1], "fps"));
        assert!(fast > 50.0 && (18.0..=24.0).contains(&weak), "{compare}");
        assert!(stats(&stats_path)["ship"]["travelled_px"].as_f64().unwrap() > 200.0);
    }
}

#[test]
fn a_trace_of_the_window_replays_in_the_lab() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("trace");
    let trace = scratch.path("machine.trace");
    let app = App::start(
        &xvfb,
        &scratch,
        &[
            "--vsync",
            "off",
            "--cap",
            "60",
            "--bullets",
            "500",
            "--exit-after",
            "4",
            "--trace",
            trace.to_str().unwrap(),
        ],
    );
    xvfb.wait_for_window();
    let (status, log) = app.wait(Duration::from_secs(30));
    assert!(status.success(), "looplab failed: {log}");
    let text = std::fs::read_to_string(&trace).expect("the trace is written");
    let frames = text.lines().count() - 1;
    assert!(frames > 60, "a frame a line: {frames}");
    assert!(
        text.starts_with("{\"looplab_trace\":1,\"strategy\":\"interpolated\""),
        "{text}"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args([
            "lab",
            "--trace",
            trace.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .expect("looplab lab runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = report["runs"].as_array().unwrap();
    // Two one-step strategies once, four that read deltas three ways each.
    assert_eq!(runs.len(), 2 + 4 * 3, "{report}");
    assert!(runs.iter().all(|r| r["profile"] == "trace"));
    assert_eq!(report["profiles"][0]["vsync"], Value::Bool(false));
    // Beside the replays, the scorecard of what the window really presented.
    let recorded = &report["recorded"];
    assert!(recorded["refreshes"].as_u64().unwrap() > 60, "{recorded}");
    // Replayed for as long as the window ran, at the window's frame costs: the interpolated
    // run, capped at 60 Hz as the window was, presents about as many frames.
    let run = runs
        .iter()
        .find(|r| r["strategy"] == "interpolated" && r["delta"] == "measured")
        .unwrap();
    let seconds = report["seconds"].as_f64().unwrap();
    assert!((2.0..4.5).contains(&seconds), "{seconds}");
    let replayed = num(run, "fps") * seconds;
    assert!(
        (replayed - frames as f64).abs() < frames as f64 * 0.2,
        "{replayed} frames replayed, {frames} recorded"
    );
}

#[test]
fn a_covered_window_rests_and_its_game_goes_on_from_where_it_paused() {
    let _serial = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("hidden");
    let stats_path = scratch.path("stats.json");
    let cover = scratch.path("cover.png");
    let made = std::process::Command::new("convert")
        .args(["-size", "1280x800", "xc:gray", cover.to_str().unwrap()])
        .status()
        .expect("ImageMagick's convert runs");
    assert!(made.success());
    let app = App::start(
        &xvfb,
        &scratch,
        &[
            "--strategy",
            "interpolated",
            "--vsync",
            "off",
            "--cap",
            "60",
            "--bullets",
            "500",
            "--exit-after",
            "11",
            "--stats",
            stats_path.to_str().unwrap(),
        ],
    );
    xvfb.wait_for_window();
    app.at(Duration::from_secs(3));
    // Another window over the whole screen (there is no window manager to minimize with):
    // X tells the app it is fully obscured.
    let mut cover_window = std::process::Command::new("display")
        .args(["-geometry", "+0+0", cover.to_str().unwrap()])
        .env("DISPLAY", &xvfb.display)
        .spawn()
        .expect("ImageMagick's display runs");
    app.at(Duration::from_secs(7));
    let _ = cover_window.kill();
    let _ = cover_window.wait();
    let (status, log) = app.wait(Duration::from_secs(30));
    assert!(status.success(), "looplab failed: {log}");
    assert!(log.contains("window hidden: the game pauses"), "{log}");
    assert!(
        log.contains("the game goes on from where it paused"),
        "{log}"
    );
    let stats = stats(&stats_path);
    let hidden = &stats["hidden"];
    assert_eq!(hidden["spells"], 1, "{hidden}");
    let seconds = num(hidden, "seconds");
    assert!((3.0..5.0).contains(&seconds), "{hidden}");
    assert_eq!(hidden["frames_presented"], 0, "{hidden}");
    let cpu = num(hidden, "cpu_percent");
    assert!(cpu < 2.0, "resting uses under 2% of a core: {hidden}");
    // The game paused while hidden and did not jump on return: its clock trails real time
    // by the hidden spell, and no frame ran a burst of updates.
    let i = strategy(&stats, "interpolated");
    let behind = num(i, "seconds") - num(i, "game_seconds");
    assert!(
        (behind - seconds).abs() < 0.5,
        "{behind} s behind after {seconds} s hidden: {i}"
    );
    // (A jump would be the stall clamp's 250 ms: 15 updates in one frame.)
    assert!(num(i, "max_updates_in_frame") <= 6.0, "{i}");
}
