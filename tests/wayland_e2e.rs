//! The real binary as a Wayland client of Weston's headless compositor, on lavapipe: the
//! second platform the window is tested on. Weston's headless backend has no seat, so no tool
//! can type into it; keys come from the app's own `--key-script`, which feeds them through
//! the path real keys take. Screenshots come from `weston-screenshooter`.

mod support;

use std::time::Duration;

use looplab::app::display_rate::RefreshSource;
use looplab::app::stats::{RunEnd, WindowSystem};
use looplab::bench::windowed::queue_from_log;
use looplab::lab::latency::Pacing;
use looplab_timing::Strategy;
use support::{App, Scratch, Weston, colours, frame_log, one_at_a_time, stats};

#[test]
fn the_window_runs_switches_strategies_and_quits_on_wayland() {
    let scratch = Scratch::new("wayland");
    let weston = Weston::start(&scratch);
    let stats_path = scratch.path("stats.json");
    let shot = scratch.path("shot.png");
    let app = App::start_wayland(
        &weston,
        "--strategy fixed-sleep --vsync off --cap 30 --bullets 1000 --exit-after 30 \
         --key-script 2:4,4:5,4.5:g,7:Escape",
        &[("--stats", &stats_path)],
    );
    app.at(Duration::from_secs(6));
    weston.screenshot(&shot);
    let (status, log) = app.wait(Duration::from_secs(40));
    assert!(
        status.success(),
        "looplab failed: {log}\nweston: {}",
        weston.server.log()
    );
    assert!(!log.contains("ERROR"), "a clean start-up: {log}");
    let stats = stats(&stats_path);
    assert_eq!(stats.end, RunEnd::QuitKey, "Escape quit it: {stats:?}");
    assert!(stats.seconds < 20.0, "{stats:?}");
    assert_eq!(stats.gpu_errors, 0);
    assert_eq!(stats.window_system, WindowSystem::Wayland);
    assert!(stats.knobs.ghosts, "the scripted keys took effect");
    assert_eq!(stats.final_strategy, Strategy::Interpolated);
    assert_eq!(stats.surface_size, Some((1280, 720)));
    for s in [
        Strategy::FixedSleep,
        Strategy::CatchUp,
        Strategy::Interpolated,
    ] {
        let frames = stats.strategies.get(&s).map_or(0, |t| t.frames);
        assert!(frames > 10, "{s}: {frames} frames");
    }
    assert!(stats.frames_presented > 60, "{stats:?}");

    // What Weston shows: the scene, in many colours.
    let colours = colours(&shot, None);
    assert!(
        colours > 500,
        "a scene with sprites and text has many colours, got {colours}"
    );
}

#[test]
fn where_the_compositor_tells_no_refresh_rate_the_presents_measure_it() {
    // Weston's headless output reports no refresh rate to winit; it paces the window with
    // frame callbacks, so the uncapped loop's presents land on its repaint grid, and the
    // rate snapped deltas use is measured from them.
    let _serial = one_at_a_time();
    let scratch = Scratch::new("wayland-refresh");
    let weston = Weston::start(&scratch);
    let stats_path = scratch.path("stats.json");
    let log_path = scratch.path("frames.json");
    let app = App::start_wayland(
        &weston,
        "--strategy interpolated --delta snapped --bullets 200 --exit-after 5",
        &[("--stats", &stats_path), ("--frame-log", &log_path)],
    );
    let (status, log) = app.wait(Duration::from_secs(30));
    assert!(status.success(), "looplab failed: {log}");
    let stats = stats(&stats_path);
    assert_eq!(
        stats.display.source,
        RefreshSource::Presents,
        "{:?}",
        stats.display
    );
    // The rate the presents kept in the last seconds, as the frame log has them.
    let presents: Vec<f64> = frame_log(&log_path)
        .frames
        .iter()
        .filter_map(|f| f.presented)
        .map(|t| t.as_secs_f64())
        .collect();
    let recent = &presents[presents.len() / 2..];
    let kept = (recent.len() - 1) as f64 / (recent[recent.len() - 1] - recent[0]);
    let measured = stats.display.hz;
    assert!(
        (measured / kept - 1.0).abs() < 0.1,
        "measured {measured:.2} Hz; the presents kept {kept:.2} a second"
    );
}

#[test]
fn the_lab_models_the_queue_within_a_refresh_of_the_window_under_weston() {
    // Weston's repaint cycle paces the presents, so the lab's swapchain model, given the
    // machine the runs measured (the frames' work and the compositor's pace), must land
    // within one refresh of the delay the window timed: from a key to the return of the
    // present that carried it, for the loop that goes straight on and for just in time;
    // and just in time must shorten that delay, as it is there to.
    let _serial = one_at_a_time();
    let scratch = Scratch::new("wayland-queue");
    let weston = Weston::start(&scratch);
    let secs = 8.0;
    let script = looplab::bench::arrow_taps(secs);
    // The plain loop draws at the compositor's pace, which is the model's display for both.
    // A light scene (100 bullets) keeps a frame's work inside the compositor's refresh on
    // a slow hour of this machine kind, where 500 left just in time nothing to gain.
    let mut refresh = None;
    let mut medians = Vec::new();
    let mut starts = Vec::new();
    for pacing in [Pacing::Plain, Pacing::JustInTime] {
        let log_path = scratch.path(&format!("frames-{}.json", pacing.label()));
        // Weston's headless output tells no refresh rate, and a loop paced just in time from
        // its first frame never lets the presents measure one: it would pace to the 60 Hz
        // it assumes (frames 32.3 ms apart where the compositor released them every 26.4).
        // It is given the compositor's pace, as the plain loop measured it.
        let jit = match refresh {
            Some(ms) if pacing == Pacing::JustInTime => {
                format!(" --just-in-time --refresh {:.3}", 1e3 / ms)
            }
            _ => String::new(),
        };
        let app = App::start_wayland(
            &weston,
            &format!(
                "--strategy interpolated --present fifo --frame-latency 2 --bullets 100 \
                 --exit-after {secs} --key-script {script}{jit}"
            ),
            &[("--frame-log", &log_path)],
        );
        let (status, log) = app.wait(Duration::from_secs(40));
        assert!(status.success(), "looplab failed: {log}");
        let q = queue_from_log(&frame_log(&log_path), pacing, refresh);
        refresh.get_or_insert(q.frame_interval_ms);
        let model = q.model_to_present_ms.expect("the model shows the presses");
        eprintln!(
            "measured: {pacing:?}: the window {:.1} ms, the model {model:.1} ms, a refresh {:.1} ms",
            q.median_ms, q.frame_interval_ms
        );
        assert!(q.samples >= 8, "{pacing:?}: {q:?}");
        assert!(
            (q.median_ms - model).abs() < q.frame_interval_ms,
            "{pacing:?}: the window's median {:.1} ms, the model's {model:.1} ms, \
             a refresh {:.1} ms apart at most: {q:?}",
            q.median_ms,
            q.frame_interval_ms
        );
        medians.push(q.median_ms);
        starts.push(q.frame_to_present_ms);
    }
    // What just in time is for: the compositor holds the plain loop's frames in the queue,
    // and a key waits there; started just in time, a frame reads its keys later and is
    // shown at the same refresh. First, where in the refresh the frames start: the
    // compositor releases a present at its repaint, so a frame's start-to-present is how
    // long before that refresh it started. A J that paced nothing ties (26.2 against 26.4
    // ms, J broken so); just in time started 22 ms later in three runs, most of a refresh,
    // so a quarter is asked.
    let (plain, paced) = (medians[0], medians[1]);
    let refresh = refresh.expect("the plain loop measured the refresh");
    let (plain_start, paced_start) = (starts[0], starts[1]);
    eprintln!(
        "frames started {paced_start:.1} ms before their present just in time, \
         {plain_start:.1} ms plain"
    );
    assert!(
        paced_start + refresh / 4.0 < plain_start,
        "just in time started its frames {paced_start:.1} ms before their present, the plain \
         loop {plain_start:.1} ms, a refresh {refresh:.1} ms"
    );
    // Then what that saves a key: noisier, as the keys fall anywhere in the refresh (a J
    // that paced nothing came within 2 ms, and once 6 ms better, by chance), and shorter by
    // 15 to 16 ms in three runs, so a tenth of a refresh is asked.
    assert!(
        paced + refresh / 10.0 < plain,
        "a key reached the present after {paced:.1} ms just in time, {plain:.1} ms plain, \
         a refresh {refresh:.1} ms"
    );
}

#[test]
fn a_lost_gpu_device_is_made_again_on_wayland() {
    let _serial = one_at_a_time();
    let scratch = Scratch::new("wayland-device-lost");
    let weston = Weston::start(&scratch);
    let stats_path = scratch.path("stats.json");
    let shot = scratch.path("after.png");
    let recording = scratch.path("flight.jsonl");
    // Steering before and after the loss, for the recording.
    let app = App::start_wayland(
        &weston,
        "--strategy catch-up --bullets 500 --lose-device-at 2 --exit-after 5 \
         --key-script 1:Right/0.5,3:Up/0.5",
        &[("--stats", &stats_path), ("--record", &recording)],
    );
    app.at(Duration::from_secs(4));
    weston.screenshot(&shot);
    let (status, log) = app.wait(Duration::from_secs(40));
    assert!(status.success(), "looplab failed: {log}");
    assert!(log.contains("GPU device lost"), "{log}");
    let stats = stats(&stats_path);
    assert_eq!(stats.gpu_recoveries, 1, "{stats:?}");
    assert_eq!(stats.end, RunEnd::ExitAfter);
    assert_eq!(stats.window_system, WindowSystem::Wayland);
    // Drawn after the loss: the scene, in many colours.
    let colours = colours(&shot, None);
    assert!(colours > 500, "{colours} colours after the loss");
    // The recording, the loss inside it, replays to the state it recorded.
    support::replays_in_the_lab(&recording, "catch-up");
}
