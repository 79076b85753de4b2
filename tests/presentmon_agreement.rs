//! Looplab's animation error held to PresentMon's: the lab writes its runs in PresentMon's
//! `--v2_metrics` columns (`looplab lab --presentmon FILE`), and this test computes each
//! frame's animation error from those columns the way PresentMon's own source does
//! (GameTechDev/PresentMon, `ComputeAnimationError` in
//! `IntelPresentMon/CommonUtilities/mc/MetricsCalculatorAnimation.cpp`): for a displayed
//! frame whose simulation time moved on since the last displayed one, the change in that
//! time less the change in its screen time; no value for a frame not displayed, one whose
//! time did not move on, or one shown at the same instant. The screen time is the frame's
//! CPU start plus its display latency, as PresentMon derives `DisplayLatency`.

use std::collections::BTreeMap;
use std::process::Command;

use serde_json::Value;

/// One application's rows: each column by name, `None` for `NA`.
type Rows = Vec<BTreeMap<String, Option<f64>>>;

fn read(csv: &str) -> BTreeMap<String, Rows> {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let mut apps: BTreeMap<String, Rows> = BTreeMap::new();
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), header.len(), "{line}");
        let row = header
            .iter()
            .zip(&cells)
            .map(|(h, c)| (h.to_string(), c.parse::<f64>().ok()))
            .collect();
        apps.entry(cells[0].to_string()).or_default().push(row);
    }
    apps
}

/// PresentMon's animation error of each row, from its columns.
fn presentmon_errors(rows: &Rows) -> Vec<Option<f64>> {
    let mut last: Option<(f64, f64)> = None;
    rows.iter()
        .map(|r| {
            let (Some(latency), Some(sim), Some(start)) =
                (r["DisplayLatency"], r["AnimationTime"], r["CPUStartTime"])
            else {
                return None;
            };
            let screen = start + latency;
            let error = last.and_then(|(last_sim, last_screen)| {
                let (sim_elapsed, display_elapsed) = (sim - last_sim, screen - last_screen);
                (sim > last_sim && sim_elapsed != 0.0 && display_elapsed != 0.0)
                    .then_some(sim_elapsed - display_elapsed)
            });
            last = Some((sim, screen));
            error
        })
        .collect()
}

#[test]
fn looplabs_animation_error_is_presentmons_on_the_same_frames() {
    let dir = std::env::temp_dir().join(format!("looplab-presentmon-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("runs.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args([
            "lab",
            "--format",
            "json",
            "--seconds",
            "5",
            "--strategy",
            "catch-up,interpolated,variable,fixed-sleep",
            "--profile",
            "jitter,vsync-60,weak-gpu",
            "--profile",
            "fast144:render=1ms,update=0.1ms,refresh=144,vsync=off",
            "--presentmon",
            path.to_str().unwrap(),
        ])
        .output()
        .expect("the looplab binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let csv = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let apps = read(&csv);
    assert_eq!(apps.len(), 16, "a swap chain a run");

    let mut largest = 0.0f64;
    let (mut compared, mut repeats) = (0usize, 0usize);
    for run in report["runs"].as_array().unwrap() {
        let name = format!(
            "looplab-{}-{}",
            run["strategy"].as_str().unwrap(),
            run["profile"].as_str().unwrap()
        );
        let rows = &apps[&name];
        let theirs = presentmon_errors(rows);
        let mut sizes = Vec::new();
        for (row, presentmon) in rows.iter().zip(&theirs) {
            let ours = row["AnimationError"];
            match (ours, presentmon) {
                (Some(ours), Some(theirs)) => {
                    largest = largest.max((ours - theirs).abs());
                    compared += 1;
                }
                // Where PresentMon has none, the picture did not move on: Looplab counts
                // that repeat, its picture standing still for a refresh.
                (Some(ours), None) => {
                    assert!(ours < 0.0, "{name}: a repeat stands still: {row:?}");
                    repeats += 1;
                }
                (None, Some(theirs)) => {
                    panic!("{name}: PresentMon's {theirs} has no Looplab value")
                }
                (None, None) => {}
            }
            if let Some(e) = ours {
                sizes.push(e.abs());
            }
        }
        // The file's errors are the ones the report's figures are made of.
        let counted = run["scorecard"]["animation_error"]["frames"]
            .as_u64()
            .unwrap();
        assert_eq!(sizes.len() as u64, counted, "{name}");
        if !sizes.is_empty() {
            let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
            let reported = run["figures"]["animation_error_mean_ms"].as_f64().unwrap();
            assert!(
                (mean - reported).abs() < 0.001,
                "{name}: file {mean}, report {reported}"
            );
        }
    }
    eprintln!("{compared} frames compared, {repeats} repeats: largest difference {largest:.6} ms");
    assert!(compared > 3_000, "{compared}");
    assert!(
        repeats > 100,
        "the latest state repeats on a 144 Hz display: {repeats}"
    );
    assert!(largest <= 0.01, "largest difference {largest} ms");
}
