//! A person stops Looplab their way: Ctrl+C in its terminal (SIGINT), `kill` or a service
//! manager (SIGTERM), the terminal closed (SIGHUP), or a kill nothing can catch (SIGKILL).
//! The caught ones end the run as Esc does, every output written whole, with the signal's
//! conventional exit status; a recording survives even the uncaught one, as far as it went,
//! and is then refused for replay with a line that says so.

mod support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use looplab::app::stats::RunEnd;
use looplab::session::recording::Recording;
use support::{App, Scratch, Weston, Xvfb, frame_log, one_at_a_time, stats};

/// Sends `signal` (`INT`, `TERM`, `HUP` or `KILL`) to process `pid`.
fn send(pid: u32, signal: &str) {
    let number = match signal {
        "INT" => libc::SIGINT,
        "TERM" => libc::SIGTERM,
        "HUP" => libc::SIGHUP,
        "KILL" => libc::SIGKILL,
        other => panic!("no signal {other}"),
    };
    // SAFETY: kill(2) only sends a signal, to a child this test started.
    let sent = unsafe { libc::kill(pid as libc::pid_t, number) };
    assert_eq!(sent, 0, "kill -{signal} {pid}");
}

/// Sends `signal` to the app.
fn signal(app: &App, signal: &str) {
    send(app.child.id(), signal);
}

/// The files in `dir`, sorted: no temporary or partial file may be left beside the outputs.
fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "xdg")
        .collect();
    names.sort();
    names
}

#[test]
fn a_signal_ends_the_run_as_esc_does_and_every_output_is_whole() {
    let _serial = one_at_a_time();
    let xvfb = Xvfb::start();
    for (name, end, status) in [
        ("INT", RunEnd::Interrupted, 130),
        ("TERM", RunEnd::Terminated, 143),
        ("HUP", RunEnd::HungUp, 129),
    ] {
        let scratch = Scratch::new(&format!("signal-{name}"));
        let recording = scratch.path("flight.jsonl");
        let stats_path = scratch.path("run.json");
        let frames_path = scratch.path("frames.json");
        let app = App::start(
            &xvfb,
            &scratch,
            "--strategy catch-up --vsync off --cap 30 --bullets 300 --exit-after 120",
            &[
                ("--record", &recording),
                ("--stats", &stats_path),
                ("--frame-log", &frames_path),
            ],
        );
        xvfb.wait_for_window();
        app.at(Duration::from_secs(2));
        xvfb.hold("Right", 0.8);
        xvfb.hold("Down", 0.4);
        signal(&app, name);
        let (exit, log) = app.wait(Duration::from_secs(30));
        assert_eq!(exit.code(), Some(status), "SIG{name}: {log}");
        support::assert_clean(&log);
        assert!(log.contains(&format!("SIG{name}: writing")), "{log}");

        // All three whole and valid, and nothing else left beside them.
        assert_eq!(
            files_in(scratch.path("").as_path()),
            ["flight.jsonl", "frames.json", "run.json"],
            "SIG{name}"
        );
        let run = stats(&stats_path);
        assert_eq!(run.end, end);
        assert!(run.ship.travelled_px > 100.0, "{:?}", run.ship);
        assert!(frame_log(&frames_path).frames.len() > 30);
        let text = std::fs::read_to_string(&recording).unwrap();
        let parsed = Recording::parse(&text).unwrap_or_else(|e| panic!("SIG{name}: {e}"));
        assert!(parsed.changes.len() >= 3, "{text}");

        // The recording replays to the state it recorded.
        let replay_stats = scratch.path("replay.json");
        let replay = App::start(
            &xvfb,
            &scratch,
            "--vsync off --exit-after 8",
            &[("--replay", &recording), ("--stats", &replay_stats)],
        );
        replay.finish(Duration::from_secs(30));
        let replayed = stats(&replay_stats).replay.expect("a replay");
        assert_eq!(replayed.same_state, Some(true), "SIG{name}: {replayed:?}");
    }
}

#[test]
fn a_signal_ends_compare_mode_and_a_wayland_window_the_same_way() {
    let _serial = one_at_a_time();
    // Compare mode on X11, ended by SIGTERM.
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("signal-compare");
    let stats_path = scratch.path("run.json");
    let app = App::start(
        &xvfb,
        &scratch,
        "--compare fixed-step --vsync off --cap 60 --bullets 300 --exit-after 120",
        &[("--stats", &stats_path)],
    );
    xvfb.wait_for_window();
    app.at(Duration::from_secs(3));
    signal(&app, "TERM");
    let (exit, log) = app.wait(Duration::from_secs(30));
    assert_eq!(exit.code(), Some(143), "{log}");
    let run = stats(&stats_path);
    assert_eq!(run.end, RunEnd::Terminated);
    assert!(run.compare.is_some(), "compare mode's lanes in the stats");

    // A Wayland window, ended by Ctrl+C.
    let scratch = Scratch::new("signal-wayland");
    let weston = Weston::start(&scratch);
    let stats_path = scratch.path("run.json");
    let app = App::start_wayland(
        &weston,
        "--vsync off --bullets 300 --exit-after 120",
        &[("--stats", &stats_path)],
    );
    std::thread::sleep(Duration::from_secs(4));
    signal(&app, "INT");
    let (exit, log) = app.wait(Duration::from_secs(30));
    assert_eq!(exit.code(), Some(130), "{log}");
    let run = stats(&stats_path);
    assert_eq!(run.end, RunEnd::Interrupted);
    assert!(
        run.strategies.values().map(|t| t.frames).sum::<u64>() > 10,
        "{log}"
    );
}

#[test]
fn a_second_signal_quits_at_once_and_leaves_nothing_half_written() {
    // Each output's write is held back 3 s (LOOPLAB_WRITE_DELAY_MS), so a run ended by one
    // signal takes 6 s to write its two files: a second signal a second into that must end
    // it at once, with neither written. The same run with one signal writes both, late.
    let _serial = one_at_a_time();
    let xvfb = Xvfb::start();
    for twice in [true, false] {
        let scratch = Scratch::new(&format!("signal-twice-{twice}"));
        let stats_path = scratch.path("run.json");
        let frames_path = scratch.path("frames.json");
        // What was there before: each file is either this, untouched, or the run's, whole.
        std::fs::write(&stats_path, "before").unwrap();
        let app = App::start_with_env(
            &xvfb,
            &scratch,
            "--vsync off --cap 60 --bullets 300 --exit-after 120",
            &[("--stats", &stats_path), ("--frame-log", &frames_path)],
            &[("LOOPLAB_WRITE_DELAY_MS", "3000")],
        );
        xvfb.wait_for_window();
        app.at(Duration::from_secs(3));
        signal(&app, "INT");
        std::thread::sleep(Duration::from_secs(1));
        let second = std::time::Instant::now();
        if twice {
            signal(&app, "INT");
        }
        let (exit, log) = app.wait(Duration::from_secs(30));
        let took = second.elapsed();
        assert_eq!(exit.code(), Some(130), "{log}");
        let stats_text = std::fs::read_to_string(&stats_path).unwrap();
        let left: Vec<String> = files_in(scratch.path("").as_path())
            .into_iter()
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "temporary files left: {left:?}");
        if twice {
            assert!(
                took < Duration::from_secs(2),
                "the second signal ended the run {took:?} after it, its writes held back 3 s"
            );
            assert_eq!(stats_text, "before", "--stats untouched");
            assert!(!frames_path.exists(), "no frame log begun");
        } else {
            assert!(
                took >= Duration::from_secs(4),
                "{took:?}: the writes held back"
            );
            serde_json::from_str::<serde_json::Value>(&stats_text).expect("--stats whole");
            frame_log(&frames_path);
        }
    }
}

#[test]
fn a_recording_killed_outright_keeps_its_changes_and_is_refused_for_replay() {
    let _serial = one_at_a_time();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("signal-kill");
    let recording = scratch.path("flight.jsonl");
    // A recording from before: a run killed outright must not touch it.
    std::fs::write(&recording, "an older flight").unwrap();
    let app = App::start(
        &xvfb,
        &scratch,
        "--strategy catch-up --vsync off --cap 30 --bullets 300 --exit-after 120",
        &[("--record", &recording)],
    );
    xvfb.wait_for_window();
    app.at(Duration::from_secs(2));
    xvfb.hold("Right", 0.6);
    xvfb.hold("Up", 0.4);
    // The writer syncs each change as it comes; give the last one a moment to land.
    std::thread::sleep(Duration::from_millis(300));
    signal(&app, "KILL");
    let _ = app.wait(Duration::from_secs(10));
    assert_eq!(
        std::fs::read_to_string(&recording).unwrap(),
        "an older flight"
    );
    let partial = scratch.path("flight.jsonl.partial");
    let text = std::fs::read_to_string(&partial).expect("the recording as far as it went");
    let changes = text.lines().filter(|l| l.contains("\"thrust\"")).count();
    assert!(changes >= 2, "press right, press up, let go: {text}");

    // Refused for replay, in one line that says it was cut short and after how much.
    let looplab = env!("CARGO_BIN_EXE_looplab");
    let out = Command::new(looplab)
        .env("DISPLAY", &xvfb.display)
        .arg("--replay")
        .arg(&partial)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("cut short after {changes} changes"))
            && err.contains("did not finish"),
        "{err}"
    );
    // A new recording to the same name waits until the person has dealt with the old one.
    let out = Command::new(looplab)
        .env("DISPLAY", &xvfb.display)
        .arg("--record")
        .arg(&recording)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("flight.jsonl.partial is there"), "{err}");
}

/// The processes whose parent is `parent` and whose name is `name`, from `/proc`.
fn children_named(parent: u32, name: &str) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: the name may hold spaces, so split after the `)`.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = &stat[open + 1..close];
        let ppid = stat[close + 1..].split_whitespace().nth(1);
        if comm == name && ppid == Some(&parent.to_string()) {
            found.push(pid);
        }
    }
    found
}

/// Whether process `pid` is still running (a zombie waiting to be reaped is not).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next());
        state != Some("Z")
    })
}

#[test]
fn a_terminated_bench_leaves_no_display_server_running() {
    let _serial = one_at_a_time();
    let mut bench = Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args(["bench", "--quick", "--xvfb"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = bench.id();
    // Its headless parts first; then it starts an Xvfb of its own for the windowed ones.
    let started = std::time::Instant::now();
    let servers = loop {
        let servers = children_named(pid, "Xvfb");
        if !servers.is_empty() {
            break servers;
        }
        assert!(
            bench.try_wait().unwrap().is_none(),
            "the bench ended before it started a display"
        );
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no Xvfb after five minutes"
        );
        std::thread::sleep(Duration::from_millis(200));
    };
    // A moment for it to start a window on it too.
    std::thread::sleep(Duration::from_secs(2));
    let windows = children_named(pid, "looplab");
    send(pid, "TERM");
    let exit = bench.wait().unwrap();
    assert_eq!(exit.code(), Some(143));
    let ended = std::time::Instant::now();
    let left = loop {
        let left: Vec<u32> = servers
            .iter()
            .chain(&windows)
            .copied()
            .filter(|&p| running(p))
            .collect();
        if left.is_empty() || ended.elapsed() > Duration::from_secs(5) {
            break left;
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        left.is_empty(),
        "still running after the bench ended: {left:?} (servers {servers:?}, windows {windows:?})"
    );
}

#[test]
fn a_write_failing_at_the_end_says_so_in_one_line_and_keeps_the_old_file() {
    let _serial = one_at_a_time();
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("write-fails");
    let stats_path = scratch.path("run.json");
    std::fs::write(&stats_path, "the run before").unwrap();
    let gone = scratch.path("gone");
    std::fs::create_dir(&gone).unwrap();
    let frames_path = gone.join("frames.json");
    let recording = scratch.path("flight.jsonl");
    let app = App::start(
        &xvfb,
        &scratch,
        "--vsync off --cap 60 --bullets 300 --exit-after 5",
        &[
            ("--stats", &stats_path),
            ("--frame-log", &frames_path),
            ("--record", &recording),
        ],
    );
    xvfb.wait_for_window();
    // During the run: the temporary file --stats is written through is made impossible
    // (a directory where it goes), and --frame-log's directory is removed.
    let blocker = scratch.path(&format!(".run.json.{}.tmp", app.child.id()));
    std::fs::create_dir(&blocker).unwrap();
    std::fs::remove_dir_all(&gone).unwrap();
    let (exit, log) = app.wait(Duration::from_secs(30));
    assert_eq!(exit.code(), Some(1), "{log}");
    let errors: Vec<&str> = log.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(errors.len(), 1, "{log}");
    assert!(
        errors[0].contains("--stats") && errors[0].contains("--frame-log"),
        "{}",
        errors[0]
    );
    assert!(!log.contains("panicked"), "{log}");
    // The old file as it was, and the output that could be written, written.
    assert_eq!(
        std::fs::read_to_string(&stats_path).unwrap(),
        "the run before"
    );
    let text = std::fs::read_to_string(&recording).unwrap();
    Recording::parse(&text).unwrap();
}

#[test]
fn ctrl_c_stops_the_lab_and_leaves_the_old_plot_as_it_was() {
    let scratch = Scratch::new("lab-interrupted");
    let plot = scratch.path("plot.svg");
    std::fs::write(&plot, "the plot before").unwrap();
    // A long virtual run: minutes of work, stopped a second in.
    let mut lab = Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args(["lab", "--seconds", "20000", "--plot"])
        .arg(&plot)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_secs(1));
    send(lab.id(), "INT");
    let exit = lab.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(&mut lab.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(exit.code(), Some(130), "{err}");
    assert!(err.contains("SIGINT: stopped"), "{err}");
    assert_eq!(std::fs::read_to_string(&plot).unwrap(), "the plot before");
    assert_eq!(files_in(scratch.path("").as_path()), ["plot.svg"]);
}
