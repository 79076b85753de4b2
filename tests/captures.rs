//! Captures of the field's tools, read: the project's own test files (`tests/captures/made`,
//! written by `cargo xtask captures` from the formats' documentation, with real files'
//! quirks) and real ones (`tests/captures/real`, credited in its README). Each expectation
//! is worked out from the file itself, with the `csv` crate, independently of the reader:
//! the rows of the application, and the median of the tool's own frame-time column.

use std::path::{Path, PathBuf};

use looplab::capture::format::{ColumnSet, Tool};
use looplab::capture::summary::Summary;
use looplab::capture::{Capture, CostFrom};
use looplab::metrics::animation::AnimationErrorFigures;

fn file(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/captures")
        .join(dir)
        .join(name)
}

fn read(dir: &str, name: &str, process: Option<&str>) -> Capture {
    let bytes = std::fs::read(file(dir, name)).unwrap();
    Capture::read(&bytes, process).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The values of column `name` in the rows of `application` (every row where `None`),
/// generated frames left out where `without_generated` (a game frame's time then runs from
/// the game's frame before), in a CSV whose header is on line
/// `header_line` (from 1): what a plain reading of the file gives.
fn column(
    path: &Path,
    header_line: usize,
    application: Option<&str>,
    name: &str,
    without_generated: bool,
) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let body: String = text
        .trim_start_matches('\u{feff}')
        .split_inclusive('\n')
        .skip(header_line - 1)
        .collect();
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(body.as_bytes());
    let header = reader.headers().unwrap().clone();
    let at = |n: &str| header.iter().position(|h| h == n);
    let (app, frame_type, value) = (at("Application"), at("FrameType"), at(name).unwrap());
    let mut values = Vec::new();
    // The time of generated frames since the game's last, which the game's next spans too.
    let mut pending = 0.0;
    for r in reader.records().map(Result::unwrap) {
        if application.is_some() && app.and_then(|i| r.get(i)) != application {
            continue;
        }
        let v: f64 = r.get(value).unwrap().parse().unwrap();
        if without_generated && frame_type.and_then(|i| r.get(i)) != Some("Application") {
            pending += v;
        } else {
            values.push(v + std::mem::take(&mut pending));
        }
    }
    values
}

/// The median (nearest rank) of `xs`.
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() - 1) as f64 * 0.5).round() as usize]
}

#[test]
fn every_format_reads_its_frames_and_the_tools_own_median() {
    // (file, tool, column set, the header's line, the application, the tool's column)
    type Case = (
        &'static str,
        Tool,
        ColumnSet,
        usize,
        Option<&'static str>,
        &'static str,
    );
    let cases: [Case; 9] = [
        (
            "presentmon-v1.csv",
            Tool::PresentMon,
            ColumnSet::PresentMon1,
            1,
            Some("game.exe"),
            "msBetweenPresents",
        ),
        (
            "presentmon-v2.csv",
            Tool::PresentMon,
            ColumnSet::PresentMon2,
            1,
            Some("game.exe"),
            "MsBetweenPresents",
        ),
        (
            "presentmon-v2-metrics.csv",
            Tool::PresentMon,
            ColumnSet::PresentMon2Metrics,
            1,
            Some("game.exe"),
            "FrameTime",
        ),
        (
            "presentmon-app.csv",
            Tool::PresentMonApp,
            ColumnSet::PresentMon2,
            1,
            Some("game.exe"),
            "MsBetweenPresents",
        ),
        (
            "ocat.csv",
            Tool::Ocat,
            ColumnSet::PresentMon1,
            1,
            Some("game.exe"),
            "MsBetweenPresents",
        ),
        (
            "capframex.csv",
            Tool::CapFrameX,
            ColumnSet::PresentMon1,
            7,
            Some("game.exe"),
            "MsBetweenPresents",
        ),
        (
            "frameview_game.exe_Log.csv",
            Tool::FrameView,
            ColumnSet::PresentMon1,
            1,
            Some("game.exe"),
            "MsBetweenPresents",
        ),
        (
            "mangohud.csv",
            Tool::MangoHud,
            ColumnSet::MangoHud,
            3,
            None,
            "frametime",
        ),
        (
            "capframex.json",
            Tool::CapFrameX,
            ColumnSet::CapFrameXJson,
            0,
            None,
            "",
        ),
    ];
    let mut table = String::from(
        "file                         frames  median (Looplab)  median (tool's column)\n",
    );
    for (name, tool, columns, header_line, app, tool_column) in cases {
        let capture = read("made", name, app);
        assert_eq!(
            (capture.format.tool, capture.format.columns),
            (tool, columns),
            "{name}"
        );
        let summary = Summary::of(&capture, None);
        if name.ends_with(".json") {
            // The JSON's longest run is the one read: its MsBetweenPresents array.
            let text = std::fs::read_to_string(file("made", name)).unwrap();
            let json: serde_json::Value =
                serde_json::from_str(text.trim_start_matches('\u{feff}')).unwrap();
            let xs: Vec<f64> = json["Runs"][1]["CaptureData"]["MsBetweenPresents"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            assert_eq!(capture.frames.len(), xs.len());
            let (rows, tools_median) = (xs.len(), median(xs));
            assert_eq!(summary.median_ms, tools_median);
            table += &format!(
                "{name:<28} {rows:>6}  {:>16.3}  {tools_median:>22.3}\n",
                summary.median_ms
            );
            continue;
        }
        let values = column(
            &file("made", name),
            header_line,
            app,
            tool_column,
            name == "presentmon-app.csv",
        );
        let (rows, tools_median) = (values.len(), median(values));
        assert_eq!(capture.frames.len(), rows, "{name}");
        assert!(
            (summary.median_ms - tools_median).abs() < 1e-9,
            "{name}: {} against {tools_median}",
            summary.median_ms
        );
        table += &format!(
            "{name:<28} {rows:>6}  {:>16.3}  {tools_median:>22.3}\n",
            summary.median_ms
        );
    }
    eprintln!("{table}");
}

#[test]
fn one_capture_in_presentmons_three_column_sets_reads_the_same() {
    // The project's session, and a real PresentMon capture (its gold files: one ETW trace
    // written three ways), for each application it holds.
    let sets = [
        (
            "made",
            [
                "presentmon-v1.csv",
                "presentmon-v2.csv",
                "presentmon-v2-metrics.csv",
            ],
            vec!["game.exe", "dwm.exe"],
        ),
        (
            "real",
            [
                "presentmon-gold-test_case_0_v1.csv",
                "presentmon-gold-test_case_0.csv",
                "presentmon-gold-test_case_0_v2.csv",
            ],
            vec!["dwm.exe", "Presenter.exe"],
        ),
    ];
    for (dir, names, apps) in sets {
        for app in apps {
            let read: Vec<(u64, f64, usize)> = names
                .iter()
                .map(|name| {
                    let c = read(dir, name, Some(app));
                    let s = Summary::of(&c, None);
                    eprintln!(
                        "{name:<36} {app:<14} {:>4} frames of {:>4} rows, median {:.3} ms",
                        s.frames, s.rows, s.median_ms
                    );
                    (s.frames, s.median_ms, s.rows)
                })
                .collect();
            let (v1, v2, metrics) = (read[0], read[1], read[2]);
            // Each set drops rows of its own: 1.x writes presents 2.x leaves out, and
            // --v2_metrics needs the next frame's start. Within those, the same frames.
            let dropped = |a: (u64, f64, usize), b: (u64, f64, usize)| a.2.abs_diff(b.2) as u64 + 1;
            assert!(
                v1.0.abs_diff(v2.0) <= dropped(v1, v2),
                "{app} in {dir}: {read:?}"
            );
            assert!(
                metrics.0.abs_diff(v2.0) <= dropped(metrics, v2),
                "{app} in {dir}: {read:?}"
            );
            for (other, set) in [(v1, "1.x"), (metrics, "--v2_metrics")] {
                assert!(
                    (other.1 - v2.1).abs() <= 0.1,
                    "{app} in {dir}: the {set} median {} against {}",
                    other.1,
                    v2.1
                );
            }
        }
    }
}

#[test]
fn the_display_rate_is_estimated_where_the_display_changes_keep_to_one() {
    let hz =
        |dir: &str, name: &str, app: Option<&str>| Summary::of(&read(dir, name, app), None).display;
    // The project's 60 Hz session, in every format that records display changes.
    for name in [
        "presentmon-v1.csv",
        "presentmon-v2.csv",
        "presentmon-v2-metrics.csv",
        "ocat.csv",
        "capframex.csv",
        "capframex.json",
    ] {
        let d = hz("made", name, Some("game.exe"));
        let rate = d.hz.unwrap_or_else(|| panic!("{name}: {}", d.source));
        assert!((rate - 60.0).abs() < 0.05, "{name}: {rate} Hz");
        assert!(d.source.contains("estimated from"), "{}", d.source);
        // Two hitches held the picture for refreshes of their own.
        assert!(d.repeated.unwrap() >= 2, "{name}: {d:?}");
    }
    // Real captures: dwm composing on a 60 Hz display (PresentMon's gold capture), Far Cry
    // New Dawn windowed on a 120 Hz one (its display changes are 8.3 and 16.7 ms apart),
    // and Metro Exodus presenting with tearing, whose changes follow the game.
    let dwm = hz("real", "presentmon-gold-test_case_0.csv", Some("dwm.exe"));
    assert!((dwm.hz.unwrap() - 60.0).abs() < 0.1, "{dwm:?}");
    let far_cry = hz("real", "presentmon-FarCryNewDawn.csv", None);
    assert!((far_cry.hz.unwrap() - 120.0).abs() < 0.3, "{far_cry:?}");
    let metro = hz("real", "OCAT-MetroExodus.exe-2019-02-20T101522.csv", None);
    assert_eq!(metro.hz, None);
    assert!(metro.source.contains("tearing allowed"), "{}", metro.source);
    // Where there are no display times, the summary says so.
    let mango = hz("made", "mangohud.csv", None);
    assert_eq!(mango.hz, None);
    assert!(
        mango.source.contains("no display times"),
        "{}",
        mango.source
    );
}

#[test]
fn generated_frames_and_other_processes_are_left_out_and_counted() {
    let path = file("made", "presentmon-app.csv");
    let capture = read("made", "presentmon-app.csv", None);
    let all = column(&path, 1, Some("game.exe"), "MsBetweenPresents", false);
    let game = column(&path, 1, Some("game.exe"), "MsBetweenPresents", true);
    assert_eq!(capture.generated, all.len() - game.len());
    assert!(capture.generated > 0);
    // The game's frames span what every frame spans, from the game's first.
    let span_ms: f64 = game.iter().skip(1).sum();
    assert!((capture.span().as_secs_f64() * 1e3 - span_ms).abs() < 1e-6);

    // By default the application with the most frames; the others are named.
    let gold = read("real", "presentmon-gold-test_case_0.csv", None);
    assert_eq!(gold.application, "dwm.exe");
    let presenter: usize = gold
        .others
        .iter()
        .filter(|o| o.application == "Presenter.exe")
        .map(|o| o.frames)
        .sum();
    let rows = column(
        &file("real", "presentmon-gold-test_case_0.csv"),
        1,
        Some("Presenter.exe"),
        "MsBetweenPresents",
        false,
    );
    assert_eq!(presenter, rows.len());
    let text = Summary::of(&gold, None).text();
    assert!(
        text.contains("Presenter.exe 160 frames in 7 swap chains"),
        "{text}"
    );
    // Chosen by name, any case, `.exe` optional: its busiest swap chain.
    let chosen = read("real", "presentmon-gold-test_case_0.csv", Some("presenter"));
    assert_eq!(chosen.application, "Presenter.exe");
    assert!(
        chosen
            .others
            .iter()
            .any(|o| o.application == "Presenter.exe")
    );
}

#[test]
fn a_log_whose_elapsed_no_duration_holds_is_refused_without_a_panic() {
    let text = std::fs::read_to_string(file("made", "mangohud-sampled.csv")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The elapsed column, last: the rows' gaps become infinite, and go back.
    for (i, line) in lines.iter_mut().enumerate().skip(3) {
        let cut = line.rfind(',').unwrap();
        let huge = if i % 2 == 0 { "1e308" } else { "-1e308" };
        line.replace_range(cut + 1.., huge);
    }
    let bytes = lines.join("\n").into_bytes();
    let read = std::panic::catch_unwind(|| Capture::read(&bytes, None));
    let e = read.expect("no panic").unwrap_err().to_string();
    assert!(
        e.contains("elapsed: -1e308 goes back from the row before (1e308)") && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn a_sampled_log_whose_samples_stand_for_years_is_summed_up_in_bounded_memory() {
    // Samples 100 ms apart, then one 30 years later: that sample stands for as many frames
    // as a row can (2^32), and the figures count every one without listing them.
    let mut log =
        String::from("os,cpu,gpu,ram,kernel,driver\na,b,c,1,k,d\nfps,frametime,elapsed\n");
    for k in 0..10u64 {
        log += &format!("60,16666,{}\n", 100_000_000 * k);
    }
    log += "60,16666,946080000000000000\n";
    let capture = Capture::read(log.as_bytes(), None).unwrap();
    assert!(
        capture.frame_count() > u64::from(u32::MAX),
        "{}",
        capture.frame_count()
    );
    let s = Summary::of(&capture, None);
    assert_eq!(
        s.as_captured.frame_times.frames as u64,
        capture.frame_count()
    );
    assert!((s.as_captured.frame_times.median_ms - 16.666).abs() < 1e-9);
}

#[test]
fn a_sampled_log_is_told_and_replayed_as_what_it_is() {
    let capture = read("made", "mangohud-sampled.csv", None);
    let sampled = capture
        .sampled
        .expect("told sampled from its elapsed column");
    let rows = column(
        &file("made", "mangohud-sampled.csv"),
        3,
        None,
        "frametime",
        false,
    );
    assert_eq!(sampled.samples, rows.len());
    assert!(
        (sampled.every.as_secs_f64() - 0.1).abs() < 1e-6,
        "{sampled:?}"
    );
    // Microseconds (MangoHud 0.6.0-0.6.8), told from the values.
    assert!(
        capture.notes.iter().any(|n| n.contains("microseconds")),
        "{:?}",
        capture.notes
    );
    assert!((capture.frames[0].interval_ms - rows[0] / 1e3).abs() < 1e-9);
    // Each sample stands for its interval's frames: the replay lasts as long as the log.
    let logged = (rows.len() - 1) as f64 * 0.1;
    assert!(
        (capture.span().as_secs_f64() - logged).abs() < 0.02,
        "{:?}",
        capture.span()
    );
    let per_frame = read("made", "mangohud.csv", None);
    assert_eq!(per_frame.sampled, None);
}

#[test]
fn the_real_captures_read_whole() {
    // Metro Exodus under OCAT: the system columns on the first row only, quoted.
    let metro = read("real", "OCAT-MetroExodus.exe-2019-02-20T101522.csv", None);
    let rows = column(
        &file("real", "OCAT-MetroExodus.exe-2019-02-20T101522.csv"),
        1,
        None,
        "MsBetweenPresents",
        false,
    );
    assert_eq!(
        (metro.application.as_str(), metro.frames.len()),
        ("MetroExodus.exe", rows.len())
    );
    assert_eq!(metro.format.tool, Tool::Ocat);
    assert_eq!(metro.presenting.vsync(), Some(false));
    let far_cry = read("real", "presentmon-FarCryNewDawn.csv", None);
    assert_eq!(far_cry.application, "FarCryNewDawn.exe");
    assert_eq!(Summary::of(&far_cry, None).not_displayed, Some(0));
}

#[test]
fn what_is_wrong_with_a_capture_is_said_in_one_line() {
    let err = |text: &str, process: Option<&str>| {
        let e = Capture::read(text.as_bytes(), process)
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,MsBetweenPresents\n";
    assert!(err("a,b\n1,2\n", None).contains("it reads PresentMon 1.x and 2.x CSV"));
    assert!(
        err(
            &format!("{HEADER}game.exe,1,0x1,DXGI,0,0,0,0.1,abc\n"),
            None
        )
        .contains("line 2, MsBetweenPresents: \"abc\" is not a number")
    );
    assert!(err(&format!("{HEADER}game.exe,1,0x1,DXGI,0,0,0,0.1,-4\n"), None).contains("line 2"));
    assert!(
        err(&format!("{HEADER}game.exe,1,0x1,DXGI,0,0,0,0.1\n"), None)
            .contains("line 2: no MsBetweenPresents")
    );
    let two = format!(
        "{HEADER}game.exe,1,0x1,DXGI,0,0,0,0.1,16\ngame.exe,1,0x1,DXGI,0,0,0,0.2,16\r\ndwm.exe,2,0x2,DXGI,0,0,0,0.2,16"
    );
    assert_eq!(Capture::read(two.as_bytes(), None).unwrap().frames.len(), 2);
    assert!(
        err(&two, Some("doom"))
            .contains("holds no frames of \"doom\" (it holds, by frames: game.exe 2, dwm.exe 1)")
    );
    assert!(err(&two, Some("dwm")).contains("holds 1 frame of dwm.exe"));
    assert!(err("Application,ProcessID,TimeInSeconds\n", None).contains("no frame-time column"));
    assert!(err("{\"Info\":{},\"Runs\":[]}", None).contains("no runs"));
    assert!(
        err(
            "{\"Runs\":[{\"CaptureData\":{\"MsBetweenPresents\":[1,\"x\"]}}]}",
            None
        )
        .contains("frame 2 has no MsBetweenPresents")
    );
    assert!(err("Timestamp,Application,Log Name\n", None).contains("FrameView's summary"));
}

/// A capture's summary as the lab reads it, on its own display.
fn summary(dir: &str, name: &str) -> Summary {
    Summary::of(&read(dir, name, None), None)
}

#[test]
fn a_frame_costs_its_work_and_never_its_wait_for_the_display() {
    // The 60 Hz vsync'd session: each present waits out the refresh in the call, and the
    // next frame starts when it returns. Worked from the file: the CPU's part, the time
    // between presents less the frame before's time in its present call; the GPU's, from
    // the later of its present and the frame before's completion to its own completion
    // (the present's start plus `MsUntilRenderComplete`); the larger.
    // PresentMon 1.x with `--track_gpu` measures the GPU's busy time itself: that is the
    // GPU's part there.
    for (name, header_line, between, in_present, complete) in [
        (
            "ocat.csv",
            1,
            "MsBetweenPresents",
            "MsInPresentAPI",
            "MsUntilRenderComplete",
        ),
        (
            "capframex.csv",
            7,
            "MsBetweenPresents",
            "MsInPresentAPI",
            "MsUntilRenderComplete",
        ),
        (
            "presentmon-v1.csv",
            1,
            "msBetweenPresents",
            "msInPresentAPI",
            "msGPUActive",
        ),
    ] {
        let path = file("made", name);
        let values = |c: &str| column(&path, header_line, Some("game.exe"), c, false);
        let (b, p, r) = (values(between), values(in_present), values(complete));
        let capture = read("made", name, Some("game.exe"));
        assert_eq!(capture.cost_from, CostFrom::OutsidePresent, "{name}");
        let (mut present, mut done_before) = (b[0], b[0] + r[0]);
        for k in 1..b.len() {
            present += b[k];
            let done = present + r[k];
            let gpu = if complete == "msGPUActive" {
                r[k]
            } else {
                done - present.max(done_before)
            };
            done_before = done_before.max(done);
            let work = (b[k] - p[k - 1]).max(gpu);
            assert!(
                (capture.frames[k].work_ms - work).abs() < 1e-6,
                "{name}, frame {k}: {} against {work}",
                capture.frames[k].work_ms
            );
            // Never the refresh the present waited for.
            assert!(work < 10.0 || k >= 195, "{name}, frame {k}: {work}");
        }
    }
    // CapFrameX 1.7's JSON holds the same session, its time in the present call spelt
    // `MsInPresentAPI`: a frame's work is 6-9 ms, not the 16.7 ms refresh it waited for.
    let json = summary("made", "capframex-1.7.json");
    let csv = summary("made", "capframex.csv");
    assert_eq!(json.cost_from, CostFrom::OutsidePresent);
    assert!(
        (json.cost_median_ms - csv.cost_median_ms).abs() < 1e-3,
        "{json:?}"
    );
    assert!(
        json.cost_median_ms < 9.0 && json.median_ms > 16.0,
        "{json:?}"
    );
    // Where CapFrameX recorded the CPU's and the GPU's busy times, they are the work.
    assert_eq!(summary("made", "capframex.json").cost_from, CostFrom::Busy);
}

#[test]
fn animation_error_computed_from_the_times_is_the_columns() {
    // The vsync'd session in PresentMon 1.x (no animation error column: computed from CPU
    // starts and display times), 2.x (`MsAnimationError`, worked from the session's truth)
    // and --v2_metrics (`AnimationError`).
    let computed = summary("made", "presentmon-v1.csv").as_captured;
    assert!(
        computed
            .animation_error_from
            .as_deref()
            .unwrap()
            .starts_with("computed from CPU starts"),
        "{computed:?}"
    );
    // CapFrameX 1.7 has no animation error array: computed from its times, as from 1.x's.
    let (json, a) = (
        summary("made", "capframex-1.7.json")
            .as_captured
            .animation_error
            .unwrap(),
        computed.animation_error.unwrap(),
    );
    assert_eq!(
        (json.frames, json.over_2ms_share),
        (a.frames, a.over_2ms_share)
    );
    assert!(
        (json.mean_abs_ms - a.mean_abs_ms).abs() < 0.01,
        "{json:?} {a:?}"
    );
    for name in ["presentmon-v2.csv", "presentmon-v2-metrics.csv"] {
        let read = summary("made", name).as_captured;
        let (a, b) = (
            computed.animation_error.unwrap(),
            read.animation_error.unwrap(),
        );
        assert!(
            read.animation_error_from
                .as_deref()
                .unwrap()
                .contains("AnimationError"),
            "{name}: {read:?}"
        );
        // PresentMon has an error for the first frame against the frame before it, and the
        // last frame of --v2_metrics has no row; 2.x writes four decimals.
        assert!(a.frames.abs_diff(b.frames) <= 2, "{name}: {a:?} {b:?}");
        assert!(
            (a.mean_abs_ms - b.mean_abs_ms).abs() < 0.01,
            "{name}: {a:?} {b:?}"
        );
        // The same frames are off by more than 2 ms: the two hitches and the frames after.
        let over = |f: &AnimationErrorFigures| (f.over_2ms_share * f.frames as f64).round();
        assert_eq!(over(&a), over(&b), "{name}: {a:?} {b:?}");
    }
    // The capture app's overflowed values for the frames it dropped are no errors.
    let app = summary("made", "presentmon-app.csv").as_captured;
    let e = app.animation_error.unwrap();
    assert!(e.p99_abs_ms < 20.0 && e.mean_abs_ms < 5.0, "{app:?}");
    // Two hitches (45 and 25 ms of work): the picture stops, then jumps on.
    let a = computed.animation_error.unwrap();
    assert!(a.over_2ms_share * a.frames as f64 >= 2.0, "{computed:?}");
}

#[test]
fn a_capped_capture_is_reported_as_capped_and_never_as_a_display_of_its_rate() {
    // A game held at 30 FPS by its own limiter on a 144 Hz display, presenting without
    // vsync or tearing; FrameView does not say the refresh rate.
    let s = summary("made", "frameview-capped_game.exe_Log.csv");
    let cap = s.limiter.expect("capped");
    assert_eq!(cap.fps, 30.0);
    assert_ne!(s.display.hz.map(f64::round), Some(30.0), "{:?}", s.display);
    // Its display changes come every fourth or fifth refresh of 144 Hz: the least common
    // rate they keep to, its period fitted.
    assert!(
        (s.display.hz.unwrap() - 144.0).abs() < 0.1,
        "{:?}",
        s.display
    );
    assert!(
        s.display.source.contains("may be a multiple"),
        "{:?}",
        s.display
    );
    // A rate a person gives is taken, and said.
    let given = Summary::of(
        &read("made", "frameview-capped_game.exe_Log.csv", None),
        Some(240.0),
    );
    assert_eq!(given.display.hz, Some(240.0));
    assert!(
        given.display.source.contains("--refresh"),
        "{:?}",
        given.display
    );
    assert!(s.text().contains("capped at 30.0 FPS"), "{}", s.text());
    // The limiter sleeps before the present: a held frame costs its GPU's render (5-8 ms),
    // not the 33 ms it was held for.
    assert_eq!(s.cost_from, CostFrom::GpuUnderLimiter);
    assert!(s.cost_median_ms > 5.0 && s.cost_median_ms < 8.0, "{s:?}");
    // Far Cry New Dawn's frames keep to 80 FPS on a 120 Hz display; Metro Exodus's do not
    // keep to any.
    let far_cry = summary("real", "presentmon-FarCryNewDawn.csv");
    assert_eq!(far_cry.limiter.map(|l| l.fps), Some(80.0));
    assert!((far_cry.display.hz.unwrap() - 120.0).abs() < 0.3);
    let metro = summary("real", "OCAT-MetroExodus.exe-2019-02-20T101522.csv");
    assert_eq!(metro.limiter, None);
    // Presents held to a 120 Hz compositor are not capped: its grid is the display's.
    let grb = summary("real", "presentmon-GhostReconBreakpoint-dwm.csv");
    assert_eq!(grb.limiter, None);
    assert!(
        grb.display.source.contains("dwm.exe's"),
        "{:?}",
        grb.display
    );
    assert!((grb.display.hz.unwrap() - 120.0).abs() < 0.3);
}

/// Every real capture in `tests/captures/real` (its default application), and the made
/// captures of each way of presenting.
const REPLAYED: [(&str, &str); 10] = [
    ("real", "presentmon-gold-test_case_0.csv"),
    ("real", "presentmon-gold-test_case_0_v1.csv"),
    ("real", "presentmon-gold-test_case_0_v2.csv"),
    ("real", "OCAT-MetroExodus.exe-2019-02-20T101522.csv"),
    ("real", "presentmon-FarCryNewDawn.csv"),
    ("real", "capframex-ResidentEvil2.csv"),
    ("real", "presentmon-GhostReconBreakpoint-dwm.csv"),
    ("real", "presentmon-csgo-windowed.csv"),
    ("made", "capframex-1.7.json"),
    ("made", "frameview-capped_game.exe_Log.csv"),
];

#[test]
fn every_real_capture_replays_as_captured_within_five_percent() {
    use looplab::lab::capture_figures::{AGREE, missed_share};
    use looplab::lab::capture_report::answer;
    use looplab::lab::profile::Profile;
    let mut table = String::from(
        "capture                                      shown FPS (captured, replayed)  missed refreshes  anim err p99 ms\n",
    );
    for (dir, name) in REPLAYED {
        let capture = read(dir, name, None);
        let s = Summary::of(&capture, None);
        let machine = Profile::from_capture("capture", &capture, &s);
        let report = answer(
            &s,
            &machine,
            &looplab_timing::LoopSettings::default(),
            &[],
            capture.span(),
        );
        let (c, r) = (&s.as_captured, &report.replayed.shown);
        let p99 = |f: &looplab::capture::figures::ShownFigures| {
            f.animation_error.map_or(f64::NAN, |a| a.p99_abs_ms)
        };
        table += &format!(
            "{name:<44} {:>7.1} {:>7.1}  {:>16}  {:>6.2} {:>6.2}\n",
            c.shown_fps.unwrap(),
            r.shown_fps.unwrap(),
            format!("{:?} {:?}", c.without_new_frame, r.without_new_frame),
            p99(c),
            p99(r),
        );
        let off = r.shown_fps.unwrap() / c.shown_fps.unwrap() - 1.0;
        assert!(off.abs() <= AGREE, "{name}: shown FPS {off:+.3}\n{table}");
        if let (Some(a), Some(b)) = (missed_share(c), missed_share(r)) {
            assert!(
                (a - b).abs() <= AGREE,
                "{name}: missed {a} against {b}\n{table}"
            );
        }
        assert!(report.agreement.holds, "{name}: {:?}", report.agreement);
    }
    eprintln!("{table}");
}

#[test]
fn what_cannot_be_trusted_is_refused_and_a_cut_last_row_is_left_out() {
    let err = |text: &str| {
        let e = Capture::read(text.as_bytes(), None)
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    // CapFrameX arrays of different lengths: no frame's values could be trusted together.
    let e = err(
        "{\"Runs\":[{\"CaptureData\":{\"MsBetweenPresents\":[16,17,16],\"MsInPresentAPI\":[5,6]}}]}",
    );
    assert!(
        e.contains("arrays differ in length: MsBetweenPresents has 3 values, MsInPresentAPI 2"),
        "{e}"
    );
    // A MangoHud log whose elapsed goes back: its rows are not in time order.
    let mango = "os,cpu,gpu,ram,kernel,driver\na,b,c,1,k,d\nfps,frametime,elapsed\n60,16.6,16600000\n60,16.7,33300000\n60,16.6,18000000\n60,16.7,34700000\n";
    let e = err(mango);
    assert!(
        e.contains("line 6, elapsed: 18000000 goes back 0.015 s from the row before (33300000)"),
        "{e}"
    );
    // Frame times all zero span no time.
    const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,MsBetweenPresents\r\n";
    let zeros =
        format!("{HEADER}g.exe,1,0x1,DXGI,0,0,0,0.1,0\r\ng.exe,1,0x1,DXGI,0,0,0,0.1,0.0\r\n");
    assert!(err(&zeros).contains("are all zero"), "{}", err(&zeros));
    // A fault's line on a CRLF file is its line in an editor.
    let bad = format!(
        "{HEADER}g.exe,1,0x1,DXGI,0,0,0,0.1,16\r\ng.exe,1,0x1,DXGI,0,0,0,0.1,16\r\ng.exe,1,0x1,DXGI,0,0,0,0.2,x\r\n"
    );
    assert!(
        err(&bad).contains("line 4, MsBetweenPresents"),
        "{}",
        err(&bad)
    );
    // A file cut in its last row: the rows before it are read, with a note.
    let cut = format!(
        "{HEADER}g.exe,1,0x1,DXGI,0,0,0,0.1,16\r\ng.exe,1,0x1,DXGI,0,0,0,0.1,17\r\ng.exe,1,0x1,DX"
    );
    let c = Capture::read(cut.as_bytes(), None).unwrap();
    assert_eq!(c.frames.len(), 2);
    assert!(
        c.notes
            .iter()
            .any(|n| n.contains("line 4, the last, ends after 4 of 9 fields")),
        "{:?}",
        c.notes
    );
    let mango_cut = "os,cpu,gpu,ram,kernel,driver\na,b,c,1,k,d\nfps,frametime,elapsed\n60,16.6,16600000\n60,16.7,33300000\n60,16";
    let c = Capture::read(mango_cut.as_bytes(), None).unwrap();
    assert_eq!(c.frames.len(), 2);
    assert!(
        c.notes.iter().any(|n| n.contains("line 6, the last")),
        "{:?}",
        c.notes
    );
}
