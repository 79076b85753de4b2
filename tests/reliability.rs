//! Faults, stalls, hostile settings and bad input, each tried on the real binary and
//! survived: no panic, a clear message where a person must act, and a loop that keeps going.

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use looplab::app::stats::RunEnd;
use looplab_timing::Strategy;
use serde_json::Value;
use support::{App, Scratch, Xvfb, assert_clean, frame_log, one_at_a_time as serial, stats};

#[test]
fn without_a_gpu_adapter_it_says_what_to_install() {
    let _serial = serial();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("no-adapter");
    // The Vulkan loader pointed at no driver, and wgpu kept to Vulkan (so it cannot fall back
    // to OpenGL through EGL).
    let no_driver = |cmd: &mut Command| {
        cmd.env("VK_ICD_FILENAMES", "/nonexistent/icd.json")
            .env("VK_DRIVER_FILES", "/nonexistent/icd.json")
            .env("WGPU_BACKEND", "vulkan")
            .env("DISPLAY", &xvfb.display)
            .env("XDG_RUNTIME_DIR", scratch.path("xdg"));
    };
    for args in [&["--exit-after", "3"][..], &["bench", "--quick"][..]] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_looplab"));
        cmd.args(args);
        no_driver(&mut cmd);
        let out = cmd.output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{args:?}: {err}");
        assert!(
            errors[0].contains("no GPU adapter found")
                && errors[0].contains("mesa-vulkan-drivers libvulkan1"),
            "{err}"
        );
        assert_clean(&err);
    }
}

#[test]
fn stopped_for_three_seconds_it_clamps_the_stall_and_carries_on() {
    let _serial = serial();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("sigstop");
    let (log_path, stats_path) = (scratch.path("frames.json"), scratch.path("stats.json"));
    let app = App::start(
        &xvfb,
        &scratch,
        "--strategy interpolated --vsync off --cap 60 --bullets 500 --exit-after 12",
        &[("--frame-log", &log_path), ("--stats", &stats_path)],
    );
    xvfb.wait_for_window();
    let pid = app.child.id().to_string();
    app.at(Duration::from_secs(3));
    assert!(
        Command::new("kill")
            .args(["-STOP", &pid])
            .status()
            .unwrap()
            .success()
    );
    std::thread::sleep(Duration::from_secs(3));
    assert!(
        Command::new("kill")
            .args(["-CONT", &pid])
            .status()
            .unwrap()
            .success()
    );
    app.at(Duration::from_secs(8));
    xvfb.keys(&["4"]);
    app.finish(Duration::from_secs(60));
    let s = stats(&stats_path);
    assert_eq!(s.final_strategy, Strategy::CatchUp, "it still answers keys");

    let frames = frame_log(&log_path).frames;
    let gap = frames
        .windows(2)
        .position(|w| w[1].start - w[0].start > Duration::from_millis(2_900))
        .expect("the 3 s stop shows as a gap between two frames");
    let (before, after) = (&frames[gap], &frames[gap + 1]);
    assert!(
        after.updates <= 10,
        "at most max_updates after the stall: {after:?}"
    );
    let jump = after.game_shown - before.game_shown;
    assert!(
        jump <= Duration::from_millis(250),
        "game time jumps at most the 250 ms clamp, not 3 s: {jump:?}"
    );
    assert!(
        after.clamped >= Duration::from_millis(2_600),
        "the frame says how much real time the clamp dropped: {:?}",
        after.clamped
    );
    let after_count = frames.len() - gap - 1;
    assert!(
        after_count > 100,
        "the loop carried on: {after_count} frames after the stall"
    );
    eprintln!(
        "measured: 3 s stop: next frame ran {} updates, game clock +{:.1} ms, {after_count} frames after",
        after.updates,
        jump.as_secs_f64() * 1e3
    );
}

#[test]
fn the_spiral_of_death_stays_responsive_and_says_so() {
    let _serial = serial();
    for max_updates in ["10", "unlimited"] {
        let xvfb = Xvfb::start();
        let scratch = Scratch::new("spiral");
        let stats_path = scratch.path("stats.json");
        // 1000 updates a second that cost 20 ms each: twenty times more than real time.
        let app = App::start(
            &xvfb,
            &scratch,
            &format!(
                "--strategy catch-up --ups 1000 --update-cost 20ms --max-updates {max_updates} \
                 --vsync off --bullets 500 --exit-after 30"
            ),
            &[("--stats", &stats_path)],
        );
        xvfb.wait_for_window();
        app.at(Duration::from_secs(4));
        xvfb.keys(&["g"]);
        app.at(Duration::from_secs(6));
        let asked = Instant::now();
        xvfb.close_with("Escape");
        let log = app.finish(Duration::from_secs(30));
        let quit_after = asked.elapsed();
        let s = stats(&stats_path);
        assert!(s.knobs.ghosts, "{max_updates}: keys answered");
        assert_eq!(s.end, RunEnd::QuitKey, "{max_updates}: Escape quit it");
        assert!(
            quit_after < Duration::from_secs(1),
            "{max_updates}: quit {quit_after:?} after Escape"
        );
        let warning = s.speed_warning.as_deref().unwrap_or_default();
        assert!(
            warning.starts_with("game running slow"),
            "the overlay's warning: {warning:?}"
        );
        assert!(log.contains(warning), "and it is logged:\n{log}");
        let catch_up = &s.strategies[&Strategy::CatchUp];
        let (ratio, fps) = (catch_up.ratio, catch_up.fps);
        assert!(
            ratio < 0.2,
            "{max_updates}: the game runs slow instead of locking up: {ratio}"
        );
        eprintln!(
            "measured: spiral, max updates {max_updates}: quit {quit_after:?} after Escape, {fps:.1} FPS, game/real {ratio:.3}"
        );
    }
}

#[test]
fn minimized_unmapped_and_resized_windows_keep_rendering() {
    let _serial = serial();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("resize");
    let (log_path, stats_path) = (scratch.path("frames.json"), scratch.path("stats.json"));
    let app = App::start(
        &xvfb,
        &scratch,
        "--vsync off --cap 60 --bullets 500 --exit-after 14",
        &[("--frame-log", &log_path), ("--stats", &stats_path)],
    );
    xvfb.wait_for_window();
    let window =
        String::from_utf8(xvfb.run("xdotool", &["search", "--name", "Looplab"]).stdout).unwrap();
    let window = window.lines().next().unwrap().to_string();
    let x = |args: &[&str]| {
        let mut all = args.to_vec();
        all.insert(1, &window);
        xvfb.run("xdotool", &all)
    };
    app.at(Duration::from_secs(2));
    // There is no window manager to iconify it; the request must still be harmless.
    let _ = x(&["windowminimize"]);
    x(&["windowunmap"]);
    std::thread::sleep(Duration::from_secs(1));
    x(&["windowmap"]);
    // X11 has no zero-sized windows: one pixel is the smallest.
    x(&["windowsize", "1", "1"]);
    std::thread::sleep(Duration::from_millis(500));
    let sizes = [
        (640, 480),
        (1, 1),
        (1280, 720),
        (333, 777),
        (1024, 200),
        (17, 900),
    ];
    for (i, (w, h)) in sizes.iter().cycle().take(30).enumerate() {
        x(&["windowsize", &w.to_string(), &h.to_string()]);
        std::thread::sleep(Duration::from_millis(if i % 3 == 0 { 120 } else { 30 }));
    }
    x(&["windowsize", "900", "500"]);
    let resized = app.started.elapsed();
    app.finish(Duration::from_secs(60));
    let s = stats(&stats_path);
    assert_eq!(s.gpu_errors, 0);
    assert_eq!(
        s.surface_size,
        Some((900, 500)),
        "it renders at the new size"
    );
    let frames = frame_log(&log_path).frames;
    let first = frames[0].start;
    let late = frames
        .iter()
        .filter(|f| f.start - first > resized + Duration::from_millis(500))
        .count();
    assert!(
        late > 60,
        "rendering resumed after the resizes: {late} frames"
    );
    eprintln!(
        "measured: resize: {} frames presented, {} skipped, {late} after the last resize",
        s.frames_presented, s.frames_skipped
    );
}

#[test]
fn lost_and_outdated_surfaces_are_rebuilt() {
    let _serial = serial();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("faults");
    let stats_path = scratch.path("stats.json");
    let app = App::start(
        &xvfb,
        &scratch,
        "--vsync off --cap 60 --bullets 500 --surface-faults 10 --exit-after 5",
        &[("--stats", &stats_path)],
    );
    app.finish(Duration::from_secs(60));
    let s = stats(&stats_path);
    assert_eq!(s.gpu_errors, 0);
    // Every tenth surface acquired came back outdated, then lost, alternately: each was
    // rebuilt by the renderer's own handling of those answers.
    let r = s.surface_recoveries;
    assert!(r.outdated >= 5 && r.lost >= 5, "{r:?}");
    assert!(r.outdated.abs_diff(r.lost) <= 1, "alternately: {r:?}");
    let (presented, skipped) = (s.frames_presented, s.frames_skipped);
    assert!(
        presented > 150,
        "{presented} frames presented around the faults"
    );
    assert!(
        skipped >= presented / 10,
        "one frame in ten was a fault: {skipped}"
    );
    eprintln!("measured: surface faults: {presented} presented, {skipped} faulted and recovered");
}

#[test]
fn extreme_settings_do_not_break_it() {
    let _serial = serial();
    let cases: [(&str, u64); 7] = [
        ("--bullets 1000000", 2048),
        ("--time-scale 0", 600),
        ("--time-scale 64", 600),
        ("--cap 1", 600),
        ("--cap 1000", 600),
        ("--ups 1", 600),
        ("--ups 1000 --time-scale 64", 600),
    ];
    for (args, max_mib) in cases {
        let xvfb = Xvfb::start();
        let scratch = Scratch::new("extreme");
        let stats_path = scratch.path("stats.json");
        // No timetable: a million bullets on a busy machine may take seconds a frame, and a
        // key is answered when the next frame starts. So the test waits for each answer
        // (G on, then G off: two frames begun after the first keys) and then quits.
        let app = App::start(
            &xvfb,
            &scratch,
            &format!("--vsync off --exit-after 300 {args}"),
            &[("--stats", &stats_path)],
        );
        xvfb.wait_for_window();
        app.at(Duration::from_secs(3));
        for (turn, answer) in ["ghosts: on", "ghosts: off"].into_iter().enumerate() {
            xvfb.keys(&["g"]);
            assert!(
                app.wait_for_lines(&[answer], 1, Duration::from_secs(120)),
                "{args}: G answered ({}): {}",
                turn + 1,
                app.log()
            );
        }
        xvfb.close_with("Escape");
        app.finish(Duration::from_secs(120));
        let s = stats(&stats_path);
        assert!(!s.knobs.ghosts, "{args}: the second G answered too");
        assert_eq!(s.gpu_errors, 0, "{args}");
        let rss_mib = s.peak_rss_kib.expect("measured") / 1024;
        assert!(rss_mib < max_mib, "{args}: peak memory {rss_mib} MiB");
        assert!(s.frames_presented >= 3, "{args}: {s:?}");
        eprintln!(
            "measured: extreme {args}: peak {rss_mib} MiB, {} frames presented",
            s.frames_presented
        );
    }
}

#[test]
fn every_option_rejects_a_bad_value_in_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["--strategy", "warp"], "--strategy"),
        (&["--ups", "-1"], "--ups"),
        (&["--ups", "0"], "--ups"),
        (&["--ups", "fast"], "--ups"),
        (&["--cap", "-30"], "--cap"),
        (&["--cap", "0"], "--cap"),
        (&["--max-updates", "0"], "--max-updates"),
        (&["--max-updates", "-3"], "--max-updates"),
        (&["--max-updates", "lots"], "--max-updates"),
        (&["--stall-clamp", "0s"], "--stall-clamp"),
        (&["--stall-clamp", "-1s"], "--stall-clamp"),
        (&["--stall-clamp", "250"], "--stall-clamp"),
        (&["--time-scale", "-1"], "--time-scale"),
        (&["--time-scale", "x"], "--time-scale"),
        (&["--bullets", "-5"], "--bullets"),
        (&["--bullets", "99999999999"], "--bullets"),
        (&["--seed", "-1"], "--seed"),
        (&["--vsync", "maybe"], "--vsync"),
        (&["--update-cost", "-5ms"], "--update-cost"),
        (&["--render-cost", "5"], "--render-cost"),
        (&["--exit-after", "0"], "--exit-after"),
        (&["--exit-after", "soon"], "--exit-after"),
        (&["--stats", "/nonexistent-dir/stats.json"], "--stats"),
        (&["--frobnicate"], "--frobnicate"),
        (&["lab", "--strategy", "warp"], "--strategy"),
        (&["lab", "--profile", "nope"], "--profile"),
        (&["lab", "--profile", "x:render=5ms,jitter"], "--profile"),
        (&["lab", "--profile", "x:stall=1s"], "--profile"),
        (&["lab", "--seconds", "0"], "--seconds"),
        (&["lab", "--checkpoint", "-2"], "--checkpoint"),
        (&["lab", "--format", "xml"], "--format"),
        (&["lab", "--plot", "/nonexistent-dir/plot.svg"], "--plot"),
        (&["lab", "--ups", "0"], "--ups"),
        (&["lab", "drift", "--fps", "0"], "--fps"),
        (&["lab", "soak", "--hours", "-1"], "--hours"),
        (&["bench", "--format", "csv"], "--format"),
    ];
    for (args, option) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_looplab"))
            .args(*args)
            .env_remove("DISPLAY")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("error:") && err.contains(option),
            "{args:?}: {err}"
        );
        assert_clean(&err);
    }
}

#[test]
fn a_day_in_the_lab_neither_drifts_nor_grows() {
    let out = Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args([
            "lab", "soak", "--hours", "24", "--seed", "3", "--format", "json",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let results = r["results"].as_array().unwrap();
    assert_eq!(results.len(), looplab_timing::Strategy::ALL.len());
    for s in results {
        assert!(s["virtual_hours"].as_f64().unwrap() >= 24.0, "{s}");
        assert!(s["settings_changes"].as_u64().unwrap() > 5000, "{s}");
        assert_eq!(s["drift_ns"], 0, "not a nanosecond lost or invented: {s}");
        assert!(
            s["lag_ns"].as_u64().unwrap() < s["step_ns"].as_u64().unwrap(),
            "within one step: {s}"
        );
    }
    let (start, end) = (
        r["rss_start_kib"].as_u64().unwrap(),
        r["rss_end_kib"].as_u64().unwrap(),
    );
    assert!(
        end <= start + start / 10,
        "memory {start} KiB then {end} KiB"
    );
    eprintln!(
        "measured: lab soak: drift 0 ns for all six, memory {start} KiB then {end} KiB, {:.1} s",
        r["wall_seconds"].as_f64().unwrap()
    );
}

#[test]
fn a_minute_of_switching_strategies_keeps_memory_flat() {
    let _serial = serial();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("soak");
    let app = App::start(
        &xvfb,
        &scratch,
        "--vsync off --cap 120 --bullets 2000 --ghosts --exit-after 62",
        &[],
    );
    xvfb.wait_for_window();
    let rss = |pid: u32| -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    };
    let pid = app.child.id();
    let keys = [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "Tab",
        "g",
        "Up",
        "Down",
        "c",
        "m",
        "bracketleft",
        "bracketright",
    ];
    let mut after_five = None;
    for (i, key) in keys.iter().cycle().take(19).enumerate() {
        app.at(Duration::from_secs(3 * (i as u64 + 1)));
        if i == 1 {
            after_five = Some(rss(pid));
        }
        xvfb.keys(&[key]);
    }
    app.at(Duration::from_secs(59));
    let at_end = rss(pid);
    app.finish(Duration::from_secs(60));
    let start = after_five.unwrap();
    assert!(
        at_end <= start + start / 10,
        "resident memory {start} KiB after 5 s, {at_end} KiB at the end"
    );
    eprintln!("measured: real soak: {start} KiB after 6 s, {at_end} KiB after 59 s");
}

/// The frames of a run's frame log that were presented after the one that found the GPU
/// device lost, and the time from finding it lost to that frame's present, ms.
fn frames_after_the_loss(log: &looplab::session::frame::FrameLog) -> (usize, f64) {
    let lost = log
        .frames
        .iter()
        .position(|f| !f.render.gpu_lost.is_zero())
        .expect("a frame records the time without a GPU");
    let f = &log.frames[lost];
    // The frame found the loss as it began to draw, after its updates.
    let found = f.start + f.update_time;
    let to_frame = f.presented.expect("presented").saturating_sub(found);
    (log.frames.len() - lost - 1, to_frame.as_secs_f64() * 1e3)
}

#[test]
fn a_lost_gpu_device_is_made_again_and_the_run_goes_on() {
    let _serial = serial();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("device-lost");
    let (stats_path, frames_path) = (scratch.path("stats.json"), scratch.path("frames.json"));
    let recording = scratch.path("flight.jsonl");
    let shot = scratch.path("after.png");
    let app = App::start(
        &xvfb,
        &scratch,
        "--strategy catch-up --vsync off --cap 60 --bullets 500 --lose-device-at 2 \
         --exit-after 6",
        &[
            ("--stats", &stats_path),
            ("--frame-log", &frames_path),
            ("--record", &recording),
        ],
    );
    xvfb.wait_for_window();
    // Steering after the loss goes to the same recording.
    app.at(Duration::from_secs(3));
    xvfb.hold("Right", 0.8);
    xvfb.screenshot(&shot);
    let log = app.finish(Duration::from_secs(60));
    assert!(log.contains("GPU device lost"), "{log}");

    let s = stats(&stats_path);
    assert_eq!(s.gpu_recoveries, 1, "{s:?}");
    assert_eq!(s.end, RunEnd::ExitAfter);
    let (after, away) = frames_after_the_loss(&frame_log(&frames_path));
    assert!(after > 60, "{after} frames presented after the loss");
    // What was drawn after it: the scene, not a blank window.
    let colours = support::colours(&shot, None);
    assert!(colours > 500, "{colours} colours after the loss");
    eprintln!(
        "measured: from the lost device found to the first new frame presented {away:.1} ms; \
         {after} frames after it"
    );

    // The recording of the run, its loss inside, replays to the state it recorded.
    support::replays_in_the_lab(&recording, "catch-up");
}

#[test]
fn a_gpu_device_that_never_comes_back_ends_the_run_in_one_line_with_its_outputs() {
    let _serial = serial();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("device-gone");
    let stats_path = scratch.path("stats.json");
    let recording = scratch.path("flight.jsonl");
    let app = App::start(
        &xvfb,
        &scratch,
        "--vsync off --cap 60 --bullets 300 --lose-device-at 1.5 --refuse-new-device \
         --exit-after 20",
        &[("--stats", &stats_path), ("--record", &recording)],
    );
    let (status, log) = app.wait(Duration::from_secs(60));
    assert_eq!(status.code(), Some(1), "{log}");
    assert!(!log.contains("panicked"), "{log}");
    let errors: Vec<&str> = log.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{log}");
    assert!(
        errors[0].contains("the GPU device was lost and no new one could be made"),
        "{log}"
    );
    // It ended there, as Esc ends a run: every output written whole.
    let s = stats(&stats_path);
    assert_eq!(s.end, RunEnd::Failed, "{s:?}");
    assert_eq!(s.gpu_recoveries, 0);
    assert!(s.seconds < 10.0, "{s:?}");
    // The recording is whole: it replays to the state it recorded at the end.
    support::replays_in_the_lab(&recording, "interpolated");
}
