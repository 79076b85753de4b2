//! The comparison, run on every `cargo test`: the drivers drive each crate as its own tests
//! say it behaves, `looplab-timing` holds every row of the comparison as recorded in
//! `tests/standing.txt`, and the frame limiters pace to their caps.
//!
//! The standing file has a line for each machine and figure: `looplab-timing`'s value, its
//! standing against the best of its peers (ahead, level or behind) and that peer's value.
//! The test fails where `looplab-timing`'s value got worse or its standing fell (a
//! regression of the timing crate, or a peer that got better: either way, a person looks),
//! and also where anything else in the file no longer matches the run (a row newly won, a
//! value better than recorded, a peer's value that moved, a row added or gone), so that the
//! file stays the bar the next change is held to. `LOOPLAB_PEERS_RECORD=1 cargo test -p
//! looplab-peers --test against_peers` writes the file from the run and says what it
//! changed; it refuses to run where `CI` is set (CI systems set `CI=true`): a CI run
//! checks the file and never writes it.

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

/// How far a recorded value may move, in its own units (ms, refreshes, taps, or game time
/// over real time). The comparison is deterministic: the machines are modelled on a virtual
/// clock with one seed, the taps a fixed sequence, and two runs give the same bits. So the
/// tolerance only has to cover the file's six decimals (half of 0.000001) and the last bits
/// a libm may round otherwise on another platform; 0.00001 does, and sits far below the
/// smallest difference the verdicts call more than level (0.002 of keeps time, 0.01 ms of
/// animation error, one refresh, one tap). A relative tolerance would not do: 1% of the
/// stall's 1502 ms longest frame is 15 ms, and 1% of a value near zero is nothing.
const TOLERANCE: f64 = 1e-5;

const STANDING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/standing.txt");

/// One line of the standing file: a machine and figure, `looplab-timing`'s value there,
/// its standing and the best peer's value.
#[derive(Clone, Debug, PartialEq)]
struct Row {
    /// `profile / figure`.
    key: String,
    looplab: f64,
    standing: String,
    best: f64,
    best_peer: String,
}

impl Row {
    fn line(&self) -> String {
        format!(
            "{} = {} {} {} ({})",
            self.key,
            decimals(self.looplab),
            self.standing,
            decimals(self.best),
            self.best_peer
        )
    }

    fn parse(number: usize, line: &str) -> Result<Row, String> {
        let fail = |why: &str| {
            format!(
                "tests/standing.txt:{number}: {line:?} is not \
                 `profile / figure = value ahead|level|behind best-value (peer)`: {why}"
            )
        };
        let (key, rest) = line.split_once(" = ").ok_or_else(|| fail("no ` = `"))?;
        if !key.contains(" / ") {
            return Err(fail("no ` / ` between the profile and the figure"));
        }
        let parts: Vec<&str> = rest.splitn(4, ' ').collect();
        let part = |k: usize| parts.get(k).copied().unwrap_or("");
        let number = |text: &str, what: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| fail(&format!("{what} {text:?} is not a number")))
        };
        let looplab = number(part(0), "looplab-timing's value")?;
        let standing = part(1).to_string();
        if rank(&standing).is_none() {
            return Err(fail(&format!(
                "the standing {standing:?} is not ahead, level or behind"
            )));
        }
        let best = number(part(2), "the best peer's value")?;
        let best_peer = part(3)
            .strip_prefix('(')
            .and_then(|p| p.strip_suffix(')'))
            .filter(|p| !p.is_empty())
            .ok_or_else(|| fail("the best peer is not named in parentheses at the end"))?;
        Ok(Row {
            key: key.to_string(),
            looplab,
            standing,
            best,
            best_peer: best_peer.to_string(),
        })
    }
}

/// `value` to six decimals, without trailing zeros: `761`, `1.2`, `0.00005`.
fn decimals(value: f64) -> String {
    let text = format!("{value:.6}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" { "0" } else { text }.to_string()
}

/// A standing's place, best first.
fn rank(standing: &str) -> Option<u8> {
    ["ahead", "level", "behind"]
        .iter()
        .position(|s| *s == standing)
        .map(|p| p as u8)
}

/// The standing file's rows, in order; a malformed or repeated line is an error naming it.
fn read_standing(text: &str) -> Result<Vec<Row>, String> {
    let mut rows: Vec<Row> = Vec::new();
    for (k, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let row = Row::parse(k + 1, line)?;
        if rows.iter().any(|r| r.key == row.key) {
            return Err(format!(
                "tests/standing.txt:{}: {:?} is there twice",
                k + 1,
                row.key
            ));
        }
        rows.push(row);
    }
    Ok(rows)
}

fn write_standing(rows: &[Row]) -> String {
    let mut out = format!(
        "# looplab-timing against the best of its peers, machine by machine (lower is better):\n\
         # profile / figure = looplab-timing's value, its standing, the best peer's value (that peer).\n\
         # Written by LOOPLAB_PEERS_RECORD=1 cargo test -p looplab-peers --test against_peers;\n\
         # that test fails where a value here moves by more than {TOLERANCE} or a standing changes.\n"
    );
    for r in rows {
        out += &r.line();
        out.push('\n');
    }
    out
}

/// Where the run differs from the file: the regressions (`looplab-timing` worse, or its
/// standing fallen), then the rest (anything else that no longer matches).
fn differences(recorded: &[Row], now: &[Row]) -> (Vec<String>, Vec<String>) {
    let (mut worse, mut other) = (Vec::new(), Vec::new());
    let moved = |a: f64, b: f64| (a - b).abs() > TOLERANCE;
    for n in now {
        let Some(r) = recorded.iter().find(|r| r.key == n.key) else {
            other.push(format!("{}: not recorded (now {})", n.key, n.line()));
            continue;
        };
        let was = format!("\n      now      {}\n      recorded {}", n.line(), r.line());
        if rank(&n.standing) > rank(&r.standing) {
            worse.push(format!(
                "{}: now {}, recorded {}{was}",
                n.key, n.standing, r.standing
            ));
        } else if n.looplab - r.looplab > TOLERANCE {
            worse.push(format!(
                "{}: looplab-timing worse by {:.6}{was}",
                n.key,
                n.looplab - r.looplab
            ));
        } else if rank(&n.standing) < rank(&r.standing) {
            other.push(format!(
                "{}: newly {}, recorded {}{was}",
                n.key, n.standing, r.standing
            ));
        } else if moved(n.looplab, r.looplab) {
            other.push(format!(
                "{}: looplab-timing better by {:.6}{was}",
                n.key,
                r.looplab - n.looplab
            ));
        } else if moved(n.best, r.best) || n.best_peer != r.best_peer {
            other.push(format!(
                "{}: the best peer or its value changed{was}",
                n.key
            ));
        }
    }
    for r in recorded {
        if !now.iter().any(|n| n.key == r.key) {
            other.push(format!("{}: recorded, and no longer in the run", r.key));
        }
    }
    (worse, other)
}

/// Set to anything but empty, `0` or `false`.
fn is_set(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

#[test]
fn looplab_timing_holds_every_row_as_recorded() {
    let report = compare(&profiles(), Duration::from_secs(20));
    eprintln!("{}", report.table());
    let now: Vec<Row> = report
        .verdicts
        .iter()
        .map(|v| Row {
            key: format!("{} / {}", v.profile, v.figure.name()),
            looplab: v.looplab,
            standing: v.standing.to_string(),
            best: v.best,
            best_peer: v.best_peer.clone(),
        })
        .collect();
    let text = std::fs::read_to_string(STANDING);
    if is_set("LOOPLAB_PEERS_RECORD") {
        assert!(
            !is_set("CI"),
            "LOOPLAB_PEERS_RECORD is set under CI (CI is set): a CI run checks the standing \
             file and never writes it; record on your own machine and commit the file"
        );
        let written = write_standing(&now);
        std::fs::write(STANDING, &written).expect("tests/standing.txt written");
        match text
            .as_deref()
            .map_err(|e| e.to_string())
            .map(read_standing)
        {
            Ok(Ok(before)) => {
                let (worse, other) = differences(&before, &now);
                eprintln!(
                    "recorded {} rows in tests/standing.txt; against the file before, \
                     {} worse and {} otherwise changed:",
                    now.len(),
                    worse.len(),
                    other.len()
                );
                for d in worse.iter().chain(&other) {
                    eprintln!("  {d}");
                }
            }
            Ok(Err(e)) | Err(e) => eprintln!("the file before could not be read ({e})"),
        }
        eprintln!("tests/standing.txt now:\n{written}");
        return;
    }
    let recorded =
        read_standing(&text.expect("tests/standing.txt")).unwrap_or_else(|e| panic!("{e}"));
    let (worse, other) = differences(&recorded, &now);
    let mut message = String::new();
    if !worse.is_empty() {
        message += "looplab-timing got worse than tests/standing.txt records (a regression of the \
                    timing crate, or a peer that got better: look before recording):\n";
        for d in &worse {
            message += &format!("  {d}\n");
        }
    }
    if !other.is_empty() {
        message += "the run no longer matches tests/standing.txt; where that is right, record it \
                    with LOOPLAB_PEERS_RECORD=1 cargo test -p looplab-peers --test against_peers \
                    (not under CI) and commit the file:\n";
        for d in &other {
            message += &format!("  {d}\n");
        }
    }
    assert!(message.is_empty(), "{message}");
}

#[test]
fn a_malformed_standing_line_is_named_with_what_is_wrong() {
    let good = "fast / keeps time = 0.000050 level 0.000050 (fixedstep (port))";
    let row = read_standing(good).unwrap();
    assert_eq!(row[0].best_peer, "fixedstep (port)");
    assert_eq!(Row::parse(1, &row[0].line()), Ok(row[0].clone()));
    for (line, why) in [
        ("fast / keeps time 0.5 level 0.5 (game-loop)", "no ` = `"),
        ("fast = 0.5 level 0.5 (game-loop)", "no ` / `"),
        (
            "fast / keeps time = half level 0.5 (game-loop)",
            "\"half\" is not a number",
        ),
        (
            "fast / keeps time = 0.5 first 0.5 (game-loop)",
            "\"first\" is not ahead",
        ),
        (
            "fast / keeps time = 0.5 level 0.5 game-loop",
            "not named in parentheses",
        ),
    ] {
        let e = read_standing(&format!("# a comment\n{line}\n")).unwrap_err();
        assert!(
            e.starts_with("tests/standing.txt:2: ") && e.contains(why),
            "{e}"
        );
    }
    let twice = format!("{good}\n{good}\n");
    assert!(read_standing(&twice).unwrap_err().contains("there twice"));
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
fn the_pacing_bench_holds_every_limiter_to_both_caps() {
    // 0.1 s a run: 6 frames at 60 Hz, 14 at 144, about 3.5 s for the 36 runs; too few for a
    // hitch (every 60th frame), which the bounds allow for all the same.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab-peers"))
        .args(["bench", "--seconds", "0.1", "--format", "json"])
        .output()
        .expect("looplab-peers runs");
    assert!(out.status.success());
    let runs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = runs.as_array().unwrap();
    assert_eq!(runs.len(), 6 * 2 * 3);
    let period_ms = |r: &serde_json::Value| 1e3 / r["cap_hz"].as_f64().unwrap();
    for r in runs {
        let frames = r["frames"].as_u64().unwrap();
        assert!(frames >= 6, "{r}");
        let counted = r["late"].as_u64().unwrap() + r["early"].as_u64().unwrap();
        assert!(counted <= frames, "{r}");
        assert!(
            (0.0..=1.05).contains(&r["cpu_share"].as_f64().unwrap()),
            "{r}"
        );
        // The judged figures: too few frames for a hitch, so every interval but the first
        // is steady.
        assert_eq!(r["steady_intervals"].as_u64(), Some(frames - 1), "{r}");
        let mean_off = r["mean_off_period"].as_f64().unwrap();
        let expected = r["mean_ms"].as_f64().unwrap() / period_ms(r) - 1.0;
        assert!((mean_off - expected).abs() < 1e-9, "{r}");
        for field in ["steady_stddev_ms", "steady_p99_off_ms"] {
            assert!(r[field].as_f64().unwrap() >= 0.0, "{field}: {r}");
        }
        // A load only makes frames later, never earlier, so every run has a floor: n frames
        // take at least n - 1 periods (spin_sleep_util's Interval does not wait on its
        // first tick; the other limiters wait n periods), less 3% for the clock's reading.
        // A limiter that does not wait runs a frame in its 2 ms of work: 0.12 of a 60 Hz
        // period, 0.29 of a 144 Hz one.
        let (n, p) = (frames as f64, period_ms(r));
        let floor = 0.97 * (n - 1.0) / n * p;
        let mean = r["mean_ms"].as_f64().unwrap();
        assert!(
            mean >= floor,
            "{} at {} Hz, run {}: a mean interval of {mean:.3} ms, under the {floor:.3} ms \
             that {frames} frames paced to a {p:.3} ms period take at least: {r}",
            r["name"],
            r["cap_hz"],
            r["repeat"]
        );
    }
    // A load can make every frame late, so the ceiling is held by each limiter's best of
    // its three runs (interleaved, so a busy moment falls on one, not all): 1.75 periods,
    // and one more period for each hitch (Skip waits for the tick after the one a hitch
    // missed). Three busy loops on a 2-core machine took thread::sleep's best at 144 Hz to
    // 1.48 periods; a limiter waiting twice as long as it should takes 2.
    for name in runs
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect::<std::collections::BTreeSet<_>>()
    {
        for hz in [60.0, 144.0] {
            let three: Vec<&serde_json::Value> = runs
                .iter()
                .filter(|r| r["name"] == name && r["cap_hz"].as_f64() == Some(hz))
                .collect();
            assert_eq!(three.len(), 3, "{name} at {hz} Hz");
            let means: Vec<f64> = three
                .iter()
                .map(|r| r["mean_ms"].as_f64().unwrap())
                .collect();
            let best = means.iter().copied().fold(f64::INFINITY, f64::min);
            let (n, p) = (three[0]["frames"].as_u64().unwrap(), 1e3 / hz);
            let ceiling = (1.75 + (n / 60) as f64 / n as f64) * p;
            assert!(
                best <= ceiling,
                "{name} at {hz} Hz: the best of its three mean intervals {means:.3?} ms is over \
                 {ceiling:.3} ms, for {n} frames paced to a {p:.3} ms period"
            );
        }
    }
    // The table judges looplab-timing on each figure at each cap, in a run of its own after
    // the one above (two at once would load the machine each is timed on).
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_looplab-peers"))
        .args(["bench", "--seconds", "0.1"])
        .output()
        .expect("looplab-peers runs");
    assert!(out.status.success());
    let table = String::from_utf8(out.stdout).unwrap();
    for hz in [60, 144] {
        let heading = format!("looplab-timing against the best peer at {hz} Hz");
        let judged: Vec<&str> = table
            .lines()
            .skip_while(|l| !l.starts_with(&heading))
            .skip(2)
            .take(4)
            .collect();
        for (line, figure) in judged
            .iter()
            .zip(["time kept", "steady sd", "steady p99", "CPU"])
        {
            assert!(line.trim_start().starts_with(figure), "{line}\n{table}");
            assert!(
                ["met", "within noise", "missed"]
                    .iter()
                    .any(|v| line.ends_with(v)),
                "{line}\n{table}"
            );
        }
        assert_eq!(judged.len(), 4, "{table}");
    }
    assert!(table.contains("Not judged: the spread and 99th percentile over all intervals"));
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
