//! `looplab lab` end to end: the real binary, its output parsed, and each claim of the texts
//! checked against the numbers it depends on.

use std::process::{Command, Output};
use std::sync::OnceLock;

use looplab_timing::Strategy;
use serde_json::Value;

fn looplab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args(args)
        .output()
        .expect("the looplab binary runs")
}

/// Runs `looplab` with `args` and no display, which must refuse them in one line with exit
/// status 2; returns that line.
fn refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the looplab binary runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}

/// The default lab (every strategy on every built-in profile) as JSON, run once.
fn default_report() -> &'static Value {
    static REPORT: OnceLock<Value> = OnceLock::new();
    REPORT.get_or_init(|| {
        let out = looplab(&["lab", "--format", "json"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).expect("valid JSON")
    })
}

/// The run of `strategy` on `profile`.
fn row(strategy: &str, profile: &str) -> &'static Value {
    default_report()["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["strategy"] == strategy && r["profile"] == profile)
        .unwrap_or_else(|| panic!("no run of {strategy} on {profile}"))
}

/// A run's number: a field of its own, or a figure of the table under its glossary key.
fn num(strategy: &str, profile: &str, field: &str) -> f64 {
    let r = row(strategy, profile);
    r[field]
        .as_f64()
        .or(r["figures"][field].as_f64())
        .unwrap_or_else(|| panic!("{strategy}/{profile} has no number {field}"))
}

const FIXED_STEP: [&str; 7] = [
    "uncapped",
    "fixed-sleep",
    "catch-up",
    "interpolated",
    "extrapolated",
    "predicted",
    "predicted-kept",
];
const PROFILES: [&str; 6] = [
    "fast", "weak-gpu", "weak-cpu", "stall", "jitter", "vsync-60",
];

#[test]
fn every_strategy_runs_on_every_profile() {
    let runs = default_report()["runs"].as_array().unwrap();
    assert_eq!(runs.len(), Strategy::ALL.len() * PROFILES.len());
    for s in Strategy::ALL.map(Strategy::id) {
        for p in PROFILES {
            let r = row(s, p);
            assert!(r["fps"].as_f64().unwrap() > 0.5, "{s}/{p}");
            assert!(r["end_hash"].as_str().unwrap().len() == 16, "{s}/{p}");
        }
    }
}

#[test]
fn uncapped_runs_too_fast_on_fast_hardware_and_too_slow_on_weak() {
    assert!(num("uncapped", "fast", "ratio") > 10.0);
    assert!(num("uncapped", "weak-gpu", "ratio") < 0.5);
    assert_eq!(num("uncapped", "fast", "busy_share"), 1.0, "it spins");
}

#[test]
fn fixed_sleep_saves_power_but_slows_down_on_weak_hardware() {
    let fast = num("fixed-sleep", "fast", "ratio");
    assert!((fast - 1.0).abs() < 0.01, "{fast}");
    assert!(
        num("fixed-sleep", "fast", "busy_share") < 0.1,
        "it sleeps most of the time"
    );
    // 45 ms frames against a 16.7 ms budget: the game runs at about 0.37 of real time.
    let weak = num("fixed-sleep", "weak-gpu", "ratio");
    assert!((weak - 16.667 / 45.2).abs() < 0.02, "{weak}");
    assert!(num("fixed-sleep", "weak-cpu", "ratio") < 0.7);
}

#[test]
fn catch_up_keeps_game_speed_when_rendering_is_slow() {
    let ratio = num("catch-up", "weak-gpu", "ratio");
    assert!(ratio > 0.99, "{ratio}");
    assert!(
        num("catch-up", "weak-gpu", "max_updates") >= 2.0,
        "by running several updates a frame"
    );
    assert!(
        num("catch-up", "weak-gpu", "fps") < 23.0,
        "while the frame rate stays low"
    );
}

#[test]
fn the_cap_on_updates_per_frame_stops_the_spiral_and_slows_the_game_instead() {
    // Updates cost more than the time they simulate: catching up can never finish.
    assert_eq!(
        num("catch-up", "weak-cpu", "max_updates"),
        10.0,
        "capped at max_updates"
    );
    let ratio = num("catch-up", "weak-cpu", "ratio");
    assert!(ratio < 0.8, "so the game slows down: {ratio}");
    assert!(
        num("catch-up", "weak-cpu", "fps") > 3.0,
        "but it still draws frames"
    );

    // Without the cap and the stall clamp, each frame owes more than the last: the spiral.
    let out = looplab(&[
        "lab",
        "--format",
        "json",
        "--strategy",
        "catch-up",
        "--profile",
        "weak-cpu",
        "--max-updates",
        "unlimited",
        "--stall-clamp",
        "off",
    ]);
    assert!(out.status.success());
    let spiral: Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &spiral["runs"][0];
    assert!(run["max_updates"].as_f64().unwrap() > 100.0, "{run}");
    assert!(run["fps"].as_f64().unwrap() < 1.5, "{run}");
}

/// A run's figure under its glossary key, as the table prints it.
fn figure(run: &Value, key: &str) -> f64 {
    run["figures"][key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} in {run}"))
}

#[test]
fn interpolation_is_smooth_at_the_cost_of_one_step_of_delay() {
    // A 144 Hz display and a 60 Hz game: the latest state moves on at two refreshes in five
    // and stands still at the rest; interpolation's picture moves on with each refresh.
    let fast_144 = "fast144:render=1ms,update=0.1ms,refresh=144,vsync=off";
    let choppy = one_run("catch-up", fast_144, &[]);
    let smooth = one_run("interpolated", fast_144, &[]);
    let error = |r: &Value| figure(r, "animation_error_mean_ms");
    let over = |r: &Value| figure(r, "animation_error_over_2ms_share");
    assert!(
        error(&choppy) > 5.0 && over(&choppy) > 0.9,
        "the latest state stutters: {choppy}"
    );
    assert!(
        error(&smooth) < error(&choppy) / 5.0 && over(&smooth) < 0.05,
        "interpolation does not: {smooth}"
    );
    // On the machines whose frames do not keep to the steps, it is smoother too.
    for profile in ["jitter", "weak-gpu"] {
        let (i, c) = (
            num("interpolated", profile, "animation_error_mean_ms"),
            num("catch-up", profile, "animation_error_mean_ms"),
        );
        assert!(i < c, "{profile}: interpolated {i} ms, catch-up {c} ms");
    }
    // Its cost: its pictures are a step (16.7 ms) further behind the game clock than the
    // extrapolated ones, on every machine.
    for profile in ["fast", "jitter", "weak-gpu", "vsync-60"] {
        let step = num("interpolated", profile, "picture_lag_mean_ms")
            - num("extrapolated", profile, "picture_lag_mean_ms");
        assert!((step - 16.67).abs() < 0.5, "{profile}: {step}");
        // The metronome crosses its 900 px track in 2 s (450 px/s): one 16.7 ms step
        // behind is 7.5 px.
        let max = num("interpolated", profile, "drawn_error_max_px");
        assert!((max - 7.5).abs() < 0.1, "{profile}: {max}");
    }
}

#[test]
fn extrapolation_is_exact_until_something_turns() {
    for profile in ["fast", "jitter", "weak-gpu"] {
        assert!(
            num("extrapolated", profile, "drawn_error_mean_px") < 0.05,
            "{profile}"
        );
        assert!(
            num("extrapolated", profile, "drawn_error_mean_px")
                < num("catch-up", profile, "drawn_error_mean_px")
        );
        // At the metronome's turns the prediction overshoots.
        assert!(
            num("extrapolated", profile, "drawn_error_max_px") > 10.0,
            "{profile}"
        );
    }
}

#[test]
fn fixed_steps_are_deterministic_and_variable_steps_are_not() {
    for s in FIXED_STEP {
        let hashes: Vec<&str> = PROFILES
            .iter()
            .map(|p| {
                row(s, p)["checkpoint_hash"]
                    .as_str()
                    .expect("checkpoint reached")
            })
            .collect();
        assert!(hashes.iter().all(|h| *h == hashes[0]), "{s}: {hashes:?}");
        assert_eq!(row(s, "fast")["deterministic"], true, "{s}");
    }
    // Every fixed-step strategy reaches the very same state.
    let reference = row("catch-up", "fast")["checkpoint_hash"].clone();
    for s in FIXED_STEP {
        assert_eq!(row(s, "weak-gpu")["checkpoint_hash"], reference, "{s}");
    }
    assert_eq!(row("variable", "fast")["deterministic"], false);
    assert_ne!(
        row("variable", "fast")["checkpoint_hash"],
        row("variable", "jitter")["checkpoint_hash"]
    );
}

#[test]
fn large_variable_steps_tunnel_and_destabilize_physics() {
    for s in FIXED_STEP {
        for p in PROFILES {
            assert_eq!(num(s, p, "tunnel_share"), 0.0, "{s}/{p}");
        }
    }
    assert!(num("variable", "weak-gpu", "tunnel_share") > 0.3);
    assert!(num("variable", "weak-cpu", "tunnel_share") > 0.1);
    // The 250 ms step after the stall throws the bouncing balls' energy far off.
    let variable = num("variable", "stall", "energy_drift").abs();
    let fixed = num("catch-up", "stall", "energy_drift").abs();
    assert!(
        variable > 0.03 && variable > 5.0 * fixed,
        "{variable} vs {fixed}"
    );
}

#[test]
fn a_stall_is_clamped_instead_of_replayed() {
    // 1.5 s stall, 250 ms clamp: the game loses about 1.25 s of the 20 s run.
    let ratio = num("interpolated", "stall", "ratio");
    assert!(ratio > 0.9 && ratio < 0.96, "{ratio}");
    assert_eq!(num("interpolated", "stall", "max_updates"), 10.0);
}

/// The one run of `strategy` on `profile` that `looplab lab` makes with `extra` options.
fn one_run(strategy: &str, profile: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "lab",
        "--format",
        "json",
        "--strategy",
        strategy,
        "--profile",
        profile,
    ];
    args.extend(extra);
    let out = looplab(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    report["runs"][0].clone()
}

#[test]
fn a_hitch_limit_resyncs_over_the_stall_instead_of_a_burst() {
    let clamped = one_run("interpolated", "stall", &[]);
    let resynced = one_run("interpolated", "stall", &["--resync-after", "100ms"]);
    // Clamped, the frame after the 1.5 s stall still owes 250 ms: a burst of 10 updates.
    // Resynced, it owes nothing, and the game is the whole stall behind instead.
    assert_eq!(clamped["max_updates"], 10);
    assert!(resynced["max_updates"].as_u64().unwrap() <= 2, "{resynced}");
    let (c, r) = (
        clamped["ratio"].as_f64().unwrap(),
        resynced["ratio"].as_f64().unwrap(),
    );
    assert!(r < c - 0.005, "resynced {r}, clamped {c}");
}

#[test]
fn sub_steps_draw_the_world_at_the_frames_time() {
    // Interpolation draws a blend a step behind; sub-steps leave no step to blend.
    let blended = one_run("interpolated", "fast", &[])["drawn_error_mean_px"]
        .as_f64()
        .unwrap();
    let sub = one_run("interpolated", "fast", &["--substeps"])["drawn_error_mean_px"]
        .as_f64()
        .unwrap();
    assert!(
        blended > 1.0 && sub < 0.1 * blended,
        "blended {blended} px, sub-stepped {sub} px"
    );
}

#[test]
fn vsync_paces_even_the_uncapped_loop() {
    let fps = num("uncapped", "vsync-60", "fps");
    assert!((fps - 60.0).abs() < 0.5, "{fps}");
    assert!(num("uncapped", "vsync-60", "busy_share") < 0.2);
}

#[test]
fn table_and_csv_carry_the_same_runs() {
    let table = looplab(&[
        "lab",
        "--strategy",
        "catch-up,variable",
        "--profile",
        "fast,weak-gpu",
    ]);
    assert!(table.status.success());
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        !text.contains("Pacing:"),
        "the scorecard is verbose's: {text}"
    );
    let verbose = looplab(&[
        "lab",
        "--strategy",
        "catch-up,variable",
        "--profile",
        "fast,weak-gpu",
        "--verbose",
    ]);
    let verbose = String::from_utf8(verbose.stdout).unwrap();
    let (_, pacing) = verbose.split_once("Pacing:").expect("a pacing table");
    let (main, world) = text
        .split_once("The texts' claims")
        .expect("the world's table");
    let world_rows = world
        .lines()
        .filter(|l| l.starts_with("catch-up") || l.starts_with("variable "))
        .count();
    assert_eq!(world_rows, 4, "{text}");
    let pacing_rows = pacing
        .lines()
        .filter(|l| l.starts_with("catch-up") || l.starts_with("variable "))
        .count();
    assert_eq!(pacing_rows, 4, "{text}");
    let rows: Vec<&str> = main
        .lines()
        .filter(|l| l.starts_with("catch-up") || l.starts_with("variable "))
        .collect();
    assert_eq!(rows.len(), 4, "{text}");
    // Columns are right-aligned: the determinism verdict ends at the same offset in every row.
    let rows: Vec<&str> = world
        .lines()
        .filter(|l| l.starts_with("catch-up") || l.starts_with("variable "))
        .collect();
    let at: Vec<usize> = rows
        .iter()
        .map(|r| {
            r.find(" yes ")
                .map(|i| i + 4)
                .or(r.find(" no ").map(|i| i + 3))
                .unwrap()
        })
        .collect();
    assert!(at.iter().all(|&x| x == at[0]), "{text}");

    let csv = looplab(&[
        "lab",
        "--format",
        "csv",
        "--strategy",
        "catch-up,variable",
        "--profile",
        "fast,weak-gpu",
    ]);
    let csv = String::from_utf8(csv.stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 5);
    let columns = lines[0].split(',').count();
    assert!(lines.iter().all(|l| l.split(',').count() == columns));
    assert!(lines[1].starts_with("variable,fast,") || lines[1].starts_with("catch-up,fast,"));
}

#[test]
fn a_custom_profile_and_the_plot() {
    let dir = std::env::temp_dir().join(format!("looplab-plot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("lab.svg");
    let out = looplab(&[
        "lab",
        "--format",
        "json",
        "--seconds",
        "4",
        "--strategy",
        "interpolated",
        "--profile",
        "tablet:render=20ms,update=2ms,refresh=30",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let fps = report["runs"][0]["fps"].as_f64().unwrap();
    assert!(
        (fps - 30.0).abs() < 0.5,
        "a 30 Hz display paces 24 ms frames to 30 FPS: {fps}"
    );
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(plot.starts_with("<svg") && plot.contains("tablet: game time vs real time"));
    assert!(plot.matches("<polyline").count() > 4);
    std::fs::remove_dir_all(dir).ok();
}

/// MonitorSim's cases: 60 updates a second on a 60 Hz and a 59.94 Hz display, 5 ms renders,
/// its timer fuzziness (0.5% of a frame), 10,000 updates.
fn pacing_report(profile: &str) -> Value {
    let out = looplab(&[
        "lab",
        "--format",
        "json",
        "--strategy",
        "interpolated,fixed-sleep",
        "--profile",
        profile,
        "--updates",
        "10000",
        "--delta",
        "measured,snapped,smoothed",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn card<'a>(report: &'a Value, strategy: &str, delta: &str) -> &'a Value {
    report["runs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["strategy"] == strategy && r["delta"] == delta)
        .unwrap_or_else(|| panic!("no {strategy}+{delta}"))
}

#[test]
fn snapping_takes_noisy_doubles_on_a_60hz_display_to_zero() {
    let report = pacing_report("monitor:refresh=60,render=5ms,noise=0.5%");
    let count = |delta: &str, field: &str| {
        let c = &card(&report, "interpolated", delta)["scorecard"];
        c[field].as_u64().unwrap()
    };
    // A step exactly as long as a refresh puts the accumulator on a step boundary, so timer
    // noise alone makes doubles and skips (MonitorSim's headline result).
    assert!(count("measured", "doubles") > 500, "{report}");
    assert!(count("measured", "skipped") > 500);
    assert_eq!(count("snapped", "doubles"), 0);
    assert_eq!(count("snapped", "skipped"), 0);
    assert!(count("smoothed", "doubles") < count("measured", "doubles") / 3);
    let updates = card(&report, "interpolated", "snapped")["updates"]
        .as_u64()
        .unwrap();
    assert!((10_000..10_010).contains(&updates));
    for delta in ["measured", "snapped", "smoothed"] {
        let drift = card(&report, "interpolated", delta)["scorecard"]["drift_ms"]
            .as_f64()
            .unwrap();
        assert!(
            drift.abs() < 16.7,
            "{delta}: the game clock within a step: {drift}"
        );
    }
    // A one-step strategy never reads a delta: it runs once.
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(
        runs.iter()
            .filter(|r| r["strategy"] == "fixed-sleep")
            .count(),
        1
    );
}

#[test]
fn on_a_5994hz_display_snapping_leaves_only_the_doubles_the_rates_require() {
    let report = pacing_report("tv:refresh=59.94,render=5ms,noise=0.5%");
    let c = |delta: &str| &card(&report, "interpolated", delta)["scorecard"];
    let refreshes = c("snapped")["refreshes"].as_u64().unwrap();
    // 60 updates in every 59.94 refreshes: one refresh in a thousand must show two.
    let required = (refreshes as f64 * (60.0 / 59.94 - 1.0)).round() as u64;
    let snapped = c("snapped")["doubles"].as_u64().unwrap();
    assert!(snapped.abs_diff(required) <= 1, "{snapped} vs {required}");
    assert_eq!(c("snapped")["skipped"], 0);
    assert!(c("measured")["doubles"].as_u64().unwrap() > snapped);
    assert!(c("snapped")["drift_ms"].as_f64().unwrap().abs() < 16.7);
}

#[test]
fn the_drift_experiment_prints_the_articles_values() {
    let out = looplab(&["lab", "drift", "--fps", "40,100"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("10.000000000000075"), "{text}");
    assert!(text.contains("9.9999999999998312"), "{text}");
    assert!(text.contains("2.4336088699783431e-13"), "{text}");
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    let cases: [(&[&str], &str); 25] = [
        (
            &["lab", "--capture", "Cargo.toml"],
            "it reads PresentMon 1.x and 2.x CSV",
        ),
        (
            &[
                "lab",
                "--capture",
                "tests/captures/made/ocat.csv",
                "--process",
                "doom",
            ],
            "holds no frames of \"doom\" (it holds, by frames: game.exe 299)",
        ),
        (&["lab", "--process", "game.exe"], "--capture"),
        (
            &[
                "lab",
                "--capture",
                "tests/captures/made/ocat.csv",
                "--seconds",
                "3",
            ],
            "--seconds",
        ),
        (&["lab", "--resync-after", "0ms"], "longer than zero"),
        (
            &["lab", "--resync-after", "10ms"],
            "every frame would be a hitch",
        ),
        (&["--record", "r.jsonl", "--substeps"], "--substeps"),
        (
            &["lab", "--trace", "/nonexistent/t.trace"],
            "cannot be read",
        ),
        (&["lab", "--trace", "Cargo.toml"], "not a Looplab trace"),
        (
            &["lab", "--delta", "warp"],
            "not measured, snapped, smoothed or synced",
        ),
        (&["lab", "--updates", "0"], "--updates"),
        (&["lab", "--updates", "10", "--seconds", "4"], "--seconds"),
        (&["lab", "--profile", "x:noise=80%"], "between 0 and 50%"),
        (&["lab", "--strategy", "warp"], "unknown strategy \"warp\""),
        (&["lab", "--profile", "turbo"], "unknown profile \"turbo\""),
        (
            &["lab", "--profile", "x:render=fast"],
            "render in profile \"x\"",
        ),
        (&["lab", "--profile", "x:render"], "not key=value"),
        (&["lab", "--ups", "-60"], "--ups"),
        (&["lab", "--ups", "0"], "positive"),
        (&["lab", "--cap", "sixty"], "--cap"),
        (&["lab", "--seconds", "-1"], "--seconds"),
        (&["lab", "--max-updates", "0"], "--max-updates"),
        (&["lab", "--bullets", "many"], "--bullets"),
        (&["lab", "drift", "--fps", "40,-1"], "--fps"),
        (
            &["lab", "--profile", "fast", "--profile", "fast"],
            "given twice",
        ),
    ];
    for (args, expected) in cases {
        let out = looplab(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn bad_recordings_are_refused_in_one_line_with_status_2() {
    let dir = std::env::temp_dir().join(format!("looplab-bad-recordings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let header = r#"{"looplab_recording":2,"seed":1,"bullets":10,"strategy":"catch-up","update_hz":60.0,"max_updates":10,"frame_cap_hz":null}"#;
    let cases = [
        ("missing.jsonl", None, "cannot be read"),
        ("empty.jsonl", Some(String::new()), "is empty"),
        (
            "notes.txt",
            Some("my notes\n".to_string()),
            "not a Looplab recording",
        ),
        (
            "future.jsonl",
            Some(header.replace(":2,", ":7,") + "\n"),
            "version 7",
        ),
        (
            "old.jsonl",
            Some(header.replace(":2,", ":1,") + "\n"),
            "version 1 recording, of held arrows",
        ),
        ("cut.jsonl", Some(format!("{header}\n")), "cut short"),
        (
            "corrupt.jsonl",
            Some(format!("{header}\n{{\"step\":3,\"game_ti\n")),
            "line 2 is not",
        ),
        (
            "edited.jsonl",
            Some(format!(
                "{header}\n{{\"end\":{{\"steps\":1,\"game_time_ns\":16666667,\"hash\":\"0000000000000000\",\"ship\":[1.0,2.0]}}}}\n{{\"checksum\":\"0000000000000000\"}}\n"
            )),
            "checksum",
        ),
    ];
    for (name, contents, reason) in cases {
        let path = dir.join(name);
        if let Some(text) = &contents {
            std::fs::write(&path, text).unwrap();
        }
        for args in [
            vec!["lab", "--replay", path.to_str().unwrap()],
            vec!["--replay", path.to_str().unwrap()],
        ] {
            let err = refused(&args);
            assert!(
                err.contains(name) && err.contains(reason),
                "{args:?}: {err}"
            );
            assert!(!err.contains("panicked"));
        }
        if let Some(text) = contents {
            assert_eq!(
                std::fs::read_to_string(&path).unwrap(),
                text,
                "left as it was"
            );
        }
    }
    // A replay never writes over its own recording, by any name.
    let path = dir.join("edited.jsonl");
    let link = dir.join("link.jsonl");
    std::fs::hard_link(&path, &link).unwrap();
    for option in ["--record", "--stats", "--frame-log"] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab"))
            .args(["--replay", path.to_str().unwrap(), option])
            .arg(&link)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{option}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("write over"), "{option}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_lanes_are_refused_in_one_line_with_status_2() {
    for (args, reason) in [
        (vec!["--lane", "weak-gpu"], "PROFILE/STRATEGY"),
        (vec!["--lane", "nowhere/variable"], "unknown profile"),
        (vec!["--lane", "fast/sideways"], "sideways"),
        (vec!["--lane", "fast/variable"], "2 to 6 lanes"),
        (
            vec![
                "--lane",
                "fast/variable",
                "--lane",
                "weak-gpu/variable",
                "--compare",
                "weak-gpu",
            ],
            "cannot be used with",
        ),
    ] {
        let err = refused(&args);
        assert!(err.contains(reason), "{args:?}: {err}");
    }
}

/// A capture's lab run as JSON.
fn capture_report(args: &[&str]) -> Value {
    let out = looplab(&[&["lab", "--format", "json"], args].concat());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn a_capture_replays_under_every_strategy_on_its_display() {
    let report = capture_report(&[
        "--capture",
        "tests/captures/made/presentmon-v2.csv",
        "--process",
        "game.exe",
    ]);
    // The summary, typed.
    let answer = &report["capture"];
    let c = &answer["capture"];
    assert_eq!(c["tool"], "PresentMon");
    assert_eq!(c["columns"], "PresentMon 2.x default columns");
    assert_eq!(c["application"], "game.exe");
    assert_eq!(c["frames"], 299);
    assert_eq!(c["others"][0]["application"], "dwm.exe");
    assert_eq!(c["vsync"], true);
    assert_eq!(c["frame_time_column"], "MsBetweenPresents");
    assert_eq!(c["cost_from"], "busy");
    let hz = c["display"]["hz"].as_f64().unwrap();
    assert!((hz - 60.0).abs() < 0.05, "{hz}");
    // The capture's own figures, in the field's terms, and its loop replayed beside them.
    let captured = &c["as_captured"];
    let replayed = &answer["replayed"]["shown"];
    let shown = |f: &Value| f["shown_fps"].as_f64().unwrap();
    assert!(
        (shown(replayed) / shown(captured) - 1.0).abs() <= 0.05,
        "{answer}"
    );
    assert_eq!(answer["agreement"]["holds"], true);
    for f in [captured, replayed] {
        assert!(f["frame_times"]["p1_fps"].as_f64().unwrap() > 0.0, "{f}");
        assert!(f["animation_error"]["p99_abs_ms"].as_f64().is_some(), "{f}");
    }
    assert_eq!(answer["loops"].as_array().unwrap().len(), 8);
    let verdict = &answer["verdict"];
    assert!(verdict["smoothest"]["label"].is_string(), "{verdict}");
    assert!(verdict["lines"].as_array().unwrap().len() >= 3, "{verdict}");
    // Every strategy, for as long as the capture ran, on its display, vsync on.
    let runs = report["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2 + 6 * 4, "every strategy, every delta mode");
    assert!(runs.iter().all(|r| r["profile"] == "capture"));
    let span = c["span_seconds"].as_f64().unwrap();
    assert_eq!(report["seconds"].as_f64().unwrap(), span);
    let profile = &report["profiles"][0];
    assert_eq!(profile["vsync"], true);
    assert!((profile["refresh"].as_f64().unwrap() - hz).abs() < 1e-9);
    // The game's frames cost 6-9 ms on the CPU (45 ms once): an interpolated loop with
    // vsync shows a new picture at almost every refresh, and the pacing scorecard is of the
    // capture's display.
    let interpolated = runs
        .iter()
        .find(|r| r["strategy"] == "interpolated" && r["delta"] == "measured")
        .unwrap();
    let fps = interpolated["fps"].as_f64().unwrap();
    assert!(fps > 55.0 && fps <= 60.5, "{fps}");
    let refreshes = interpolated["scorecard"]["refreshes"].as_f64().unwrap();
    assert!(
        (refreshes - span * hz).abs() < 3.0,
        "{refreshes} refreshes in {span} s"
    );

    // The report begins with the summary and ends with the verdict; the lab's world
    // columns only with --verbose.
    let text = |extra: &[&str]| {
        let out = looplab(
            &[
                &[
                    "lab",
                    "--capture",
                    "tests/captures/made/presentmon-v2.csv",
                    "--strategy",
                    "fixed-sleep",
                ],
                extra,
            ]
            .concat(),
        );
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let plain = text(&[]);
    assert!(
        plain.starts_with("Capture: PresentMon, PresentMon 2.x default columns\n"),
        "{plain}"
    );
    assert!(
        plain.contains("dwm.exe 150 frames (--process NAME to choose)"),
        "{plain}"
    );
    let verdict = plain.find("\nVerdict\n").expect("a verdict");
    assert!(
        plain[verdict..].contains("Smoothest on this 60 Hz display"),
        "{plain}"
    );
    assert!(!plain.contains("hash@checkpoint"), "{plain}");
    let verbose = text(&["--verbose"]);
    assert!(
        verbose.starts_with(&plain) && verbose.contains("hash@checkpoint"),
        "{verbose}"
    );
    assert!(
        verbose.contains("Pacing: what each display refresh showed"),
        "{verbose}"
    );
    refused(&["lab", "--refresh", "60"]);
    refused(&[
        "lab",
        "--presentmon",
        "/",
        "--profile",
        "fast",
        "--strategy",
        "variable",
    ]);
}

#[test]
fn the_latency_experiment_on_a_real_capture_cuts_a_refresh_and_draws_its_curve() {
    let dir = std::env::temp_dir().join(format!("looplab-latency-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("curve.svg");
    let capture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/captures/real/OCAT-MetroExodus.exe-2019-02-20T101522.csv"
    );
    let out = looplab(&[
        "lab",
        "latency",
        "--capture",
        capture,
        "--refresh",
        "60",
        "--format",
        "json",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    // The whole capture, as `lab --capture` replays it, unless --seconds says otherwise.
    let whole = capture_report(&["--capture", capture, "--strategy", "variable"]);
    assert_eq!(report["seconds"], whole["seconds"]);
    assert!(
        report["seconds"].as_f64().unwrap() > 25.0,
        "{}",
        report["seconds"]
    );
    let rows = report["rows"].as_array().unwrap();
    // Four present modes, 1 to 3 in flight, plain and just in time.
    assert_eq!(rows.len(), 24);
    let find = |pacing: &str| {
        rows.iter()
            .find(|r| r["mode"] == "fifo" && r["latency"] == 2 && r["pacing"] == pacing)
            .unwrap()
    };
    let (plain, jit) = (find("plain"), find("just-in-time"));
    let p50 = |r: &Value| r["delay_p50_ms"].as_f64().unwrap();
    // The goal, on a game's captured frames on a 60 Hz display: a refresh sooner,
    // with at most 1% of refreshes missed.
    assert!(p50(plain) - p50(jit) >= 1e3 / 60.0, "{plain} {jit}");
    assert!(jit["missed_share"].as_f64().unwrap() <= 0.01, "{jit}");
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.contains("key to photon"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
    refused(&["lab", "latency", "--refresh", "fast"]);
    refused(&["lab", "latency", "--profile", "x:present=vsync"]);
    refused(&["lab", "latency", "--capture", "/nonexistent/capture.csv"]);
}
