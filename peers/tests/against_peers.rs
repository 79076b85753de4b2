//! The comparison, run on every `cargo test`: the drivers drive each crate as its own tests
//! say it behaves, and `looplab-timing` keeps every row it was ahead of or level with its
//! peers in (`tests/standing.txt`, written from a run with `LOOPLAB_PEERS_RECORD=1`). A row
//! lost is a regression of the timing crate, or a peer that got better: either way, a
//! person looks.

use std::time::Duration;

use looplab_peers::loops::{BevyTime, FixedLoop, GameLoopCrate, RenewFrame};
use looplab_peers::report::{compare, profiles};

#[test]
fn the_bevy_driver_steps_as_bevys_own_app_test_says() {
    // bevy_time's App-level test: 64 Hz, frames of half a step and a millisecond; fixed
    // runs so far 0, 0, 1, 1, 2 (its first frame only anchors the clock).
    let mut bevy = BevyTime::new(64.0);
    let frame = Duration::from_micros(8812) + Duration::from_nanos(500);
    let mut runs = 0;
    let seen: Vec<u32> = (0..5u32)
        .map(|k| {
            runs += bevy.frame(frame * k).updates;
            runs
        })
        .collect();
    assert_eq!(seen, [0, 0, 1, 1, 2]);
}

#[test]
fn the_game_loop_driver_clamps_as_game_loops_own_test_says() {
    // game-loop runs at 60 updates a second here with a 0.25 s clamp: a one-second frame
    // runs the clamp's 15 updates, and says it let 0.75 s go.
    let mut g = GameLoopCrate::new();
    assert_eq!(g.frame(Duration::ZERO).updates, 0);
    let d = g.frame(Duration::from_secs(1));
    assert_eq!(d.updates, 15);
    assert!((d.dropped.as_secs_f64() - 0.75).abs() < 1e-6, "{d:?}");
}

#[test]
fn the_renew_frame_driver_steps_and_drops_as_its_own_docs_say() {
    // Its crate documentation's headless run: 600 frames of 16 666 667 ns, 600 steps, none
    // dropped.
    let mut r = RenewFrame::new();
    let mut steps = 0;
    for k in 0..=600u64 {
        let d = r.frame(Duration::from_nanos(k * 16_666_667));
        steps += d.updates;
        assert!(d.dropped.is_zero(), "frame {k}: {d:?}");
    }
    assert_eq!(steps, 600);
    // Its budget (5 by default) is the only guard: a one-second frame holds 59 whole steps
    // of 16 666 667 ns; it runs 5 and throws the other 54 away, with no elapsed-time clamp
    // before it, and keeps the remainder.
    let start = Duration::from_nanos(600 * 16_666_667);
    let d = r.frame(start + Duration::from_secs(1));
    assert_eq!(d.updates, 5);
    assert_eq!(d.dropped, Duration::from_nanos(54 * 16_666_667));
}

#[test]
fn looplab_timing_keeps_every_row_it_was_ahead_or_level_in() {
    let report = compare(&profiles(), Duration::from_secs(20));
    eprintln!("{}", report.table());
    let now: Vec<String> = report
        .verdicts
        .iter()
        .filter(|v| v.standing != "behind")
        .map(|v| format!("{} / {}", v.profile, v.figure.name()))
        .collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/standing.txt");
    if std::env::var_os("LOOPLAB_PEERS_RECORD").is_some() {
        std::fs::write(path, now.join("\n") + "\n").unwrap();
    }
    let before = std::fs::read_to_string(path).expect("tests/standing.txt");
    let lost: Vec<&str> = before
        .lines()
        .filter(|l| !l.trim().is_empty() && !now.iter().any(|n| n == l.trim()))
        .collect();
    assert!(lost.is_empty(), "looplab-timing fell behind in: {lost:?}");
}

#[test]
fn the_program_prints_the_table_and_types_the_json() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_looplab-peers"))
            .args(args)
            .output()
            .expect("looplab-peers runs")
    };
    let out = run(&["lab", "--seconds", "2", "--format", "json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let peers = json["peers"].as_array().unwrap();
    assert_eq!(peers[0]["name"], "looplab-timing");
    assert!(peers.iter().any(|p| p["port"] == true));
    let runs = json["runs"].as_array().unwrap();
    assert_eq!(runs.len(), peers.len() * profiles().len());
    assert!(runs.iter().all(|r| {
        r["scorecard"]["animation_error"]["frames"]
            .as_u64()
            .unwrap()
            > 0
            && r["frame_times"]["average_fps"].as_f64().unwrap() > 0.0
    }));
    let table = String::from_utf8(run(&["lab", "--seconds", "2"]).stdout).unwrap();
    assert!(
        table.contains("on monitor:") && table.contains("macroquad (port)"),
        "{table}"
    );
    let bad = run(&["lab", "--seconds", "-1"]);
    assert_eq!(bad.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&bad.stderr).lines().count(), 1);
}

#[test]
fn the_pacing_bench_runs_every_limiter_at_both_caps_three_times() {
    // Only that it runs and what it reports: the intervals themselves are this machine's.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab-peers"))
        .args(["bench", "--seconds", "0.1", "--format", "json"])
        .output()
        .expect("looplab-peers runs");
    assert!(out.status.success());
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 6 * 2 * 3);
    for r in runs {
        let frames = r["frames"].as_u64().unwrap();
        assert!(frames >= 6, "{r}");
        let counted = r["late"].as_u64().unwrap() + r["early"].as_u64().unwrap();
        assert!(counted <= frames, "{r}");
        assert!(r["mean_ms"].as_f64().unwrap() > 0.0, "{r}");
        assert!(
            (0.0..=1.05).contains(&r["cpu_share"].as_f64().unwrap()),
            "{r}"
        );
    }
}

#[test]
fn a_capture_is_one_more_machine() {
    let capture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/captures/made/ocat.csv"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab-peers"))
        .args([
            "lab",
            "--seconds",
            "2",
            "--format",
            "json",
            "--capture",
            capture,
        ])
        .output()
        .expect("looplab-peers runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let on_capture = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["profile"] == "capture")
        .count();
    assert_eq!(on_capture, json["peers"].as_array().unwrap().len());
}

#[test]
fn a_looplab_trace_is_one_more_machine() {
    use looplab::session::trace::{Trace, TraceFrame, TraceHeader, VERSION};
    // A window's trace of 200 frames of 9 ms, every 50th taking 40.
    let mut t = 0;
    let frames = (0..200u64)
        .map(|k| {
            let render = if k % 50 == 49 { 40_000_000 } else { 9_000_000 };
            let f = TraceFrame {
                start_ns: t,
                wait_ns: 0,
                updates: 1,
                update_ns: 100_000,
                redraw_wait_ns: 0,
                acquire_ns: 0,
                render_ns: render,
                present_ns: 0,
                presented_ns: t + render + 100_000,
                game_ns: t,
                animation_ns: t,
                behind_ns: 0,
            };
            t += render + 100_000;
            f
        })
        .collect();
    let trace = Trace {
        header: TraceHeader {
            looplab_trace: VERSION,
            strategy: looplab_timing::Strategy::Interpolated,
            update_hz: 60.0,
            frame_cap_hz: None,
            refresh_hz: 60.0,
            vsync: false,
            bullets: 100,
        },
        frames,
    };
    let path = std::env::temp_dir().join(format!("looplab-peers-{}.trace", std::process::id()));
    std::fs::write(&path, trace.to_text()).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab-peers"))
        .args(["lab", "--seconds", "2", "--format", "json", "--trace"])
        .arg(&path)
        .output()
        .expect("looplab-peers runs");
    let _ = std::fs::remove_file(&path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let on_trace: Vec<&serde_json::Value> = json["runs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["profile"] == "trace")
        .collect();
    assert_eq!(on_trace.len(), json["peers"].as_array().unwrap().len());
    // Its 40 ms frames: the longest frame every loop saw.
    assert!(
        on_trace
            .iter()
            .all(|r| r["longest_frame_ms"].as_f64().unwrap() >= 40.0)
    );
}
