//! The real binary as a Wayland client of Weston's headless compositor, on lavapipe: the
//! second platform the window is tested on. Weston's headless backend has no seat, so no tool
//! can type into it; keys come from the app's own `--key-script`, which feeds them through
//! the path real keys take. Screenshots come from `weston-screenshooter`.

mod support;

use std::time::Duration;

use support::{App, Scratch, Weston, stats};

#[test]
fn the_window_runs_switches_strategies_and_quits_on_wayland() {
    let scratch = Scratch::new("wayland");
    let weston = Weston::start(&scratch);
    let stats_path = scratch.path("stats.json");
    let shot = scratch.path("shot.png");
    let app = App::start_wayland(
        &weston,
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
            "30",
            "--stats",
            stats_path.to_str().unwrap(),
            "--key-script",
            "2:4 4:5 4.5:g 7:Escape",
        ],
    );
    app.at(Duration::from_secs(6));
    weston.screenshot(&shot);
    let (status, log) = app.wait(Duration::from_secs(40));
    assert!(
        status.success(),
        "looplab failed: {log}\nweston: {}",
        weston.server.log()
    );
    for line in [
        "strategy: catch-up",
        "strategy: interpolated",
        "ghosts: on",
        "quit",
    ] {
        assert!(log.contains(line), "'{line}' in:\n{log}");
    }
    assert!(!log.contains("ERROR"), "a clean start-up: {log}");
    assert!(
        log.contains("platform: Wayland; the compositor paces the window"),
        "{log}"
    );
    let stats = stats(&stats_path);
    assert!(
        stats["seconds"].as_f64().unwrap() < 20.0,
        "Escape quit it: {stats}"
    );
    assert_eq!(stats["gpu_errors"], 0);
    assert_eq!(stats["platform"], "wayland");
    assert_eq!(stats["surface_size"], serde_json::json!([1280, 720]));
    for id in ["fixed-sleep", "catch-up", "interpolated"] {
        let s = &stats["strategies"][id];
        assert!(s["frames"].as_u64().unwrap_or(0) > 10, "{id}: {s}");
    }
    assert!(stats["frames_presented"].as_u64().unwrap() > 60, "{stats}");

    // What Weston shows: the scene, in many colours.
    let out = std::process::Command::new("convert")
        .args([shot.to_str().unwrap(), "-format", "%k", "info:"])
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
