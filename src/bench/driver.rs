//! The `looplab-winit` driver's pacing beside the same game with its loop written by hand:
//! the crate's `square` example (the driver) and `square_by_hand` (a winit handler of its
//! own over `GameLoop` and `FrameWait`), the same 60 Hz cap, run in turn for the same time
//! on the bench's display. Each example times its own presents and prints them as
//! `looplab_winit::Pacing` writes them; the bench reads that line back.
//!
//! The examples are not part of this program: cargo builds them beside it, in
//! `target/PROFILE/examples` (`cargo build --release -p looplab-winit --examples`, or any
//! `cargo test --workspace`). Where they are missing the bench says how to build them.

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use super::measure::median;
use super::windowed::Display;
use crate::text::table::Table;

/// The two loops compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Example {
    /// `square`: the game on `looplab_winit::Driver`.
    Driver,
    /// `square_by_hand`: the same game, its loop written out over `GameLoop`.
    ByHand,
}

impl Example {
    /// Both, in the order they run in each round.
    pub const BOTH: [Example; 2] = [Example::Driver, Example::ByHand];

    /// The example's name, as cargo names its binary.
    pub fn name(self) -> &'static str {
        match self {
            Example::Driver => "square",
            Example::ByHand => "square_by_hand",
        }
    }
}

/// One run of one example: its presents as it timed them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExampleRun {
    pub example: Example,
    pub frames: u64,
    /// From its first present to its last.
    pub seconds: f64,
    pub fps: f64,
    /// The intervals between presents: mean, sample standard deviation and the longest.
    pub mean_ms: f64,
    pub stddev_ms: f64,
    pub worst_ms: f64,
}

impl ExampleRun {
    /// Reads `Pacing`'s line, "presented 600 frames in 9.98 s: 60.1 FPS, intervals 16.63 ms
    /// ± 0.76, worst 20.14 ms"; `None` when `line` is not one.
    pub fn parse(example: Example, line: &str) -> Option<ExampleRun> {
        let rest = line.strip_prefix("presented ")?;
        let (frames, rest) = rest.split_once(" frames in ")?;
        let (seconds, rest) = rest.split_once(" s: ")?;
        let (fps, rest) = rest.split_once(" FPS, intervals ")?;
        let (mean, rest) = rest.split_once(" ms ± ")?;
        let (stddev, rest) = rest.split_once(", worst ")?;
        let worst = rest.trim_end().strip_suffix(" ms")?;
        let number = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
        Some(ExampleRun {
            example,
            frames: frames.parse().ok()?,
            seconds: number(seconds)?,
            fps: number(fps)?,
            mean_ms: number(mean)?,
            stddev_ms: number(stddev)?,
            worst_ms: number(worst)?,
        })
    }
}

/// Where cargo put `example`'s binary for this program's profile.
fn binary(example: Example) -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this program: {e}"))?;
    let dir = exe.parent().ok_or("this program has no directory")?;
    let path = dir.join("examples").join(format!(
        "{}{}",
        example.name(),
        std::env::consts::EXE_SUFFIX
    ));
    let profile = dir
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("release");
    let flag = if profile == "release" {
        " --release"
    } else {
        ""
    };
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!(
            "the looplab-winit examples are not built beside this program (cargo build{flag} -p looplab-winit --examples)"
        ))
    }
}

/// Runs `example` on `display` for `seconds` and reads its pacing line.
fn run_one(display: &Display, example: Example, seconds: f64) -> Result<ExampleRun, String> {
    let name = example.name();
    let mut command = Command::new(binary(example)?);
    looplab_headless::ends_with_us(&mut command)
        .arg(seconds.to_string())
        .env("DISPLAY", &display.name)
        .env_remove("WAYLAND_DISPLAY")
        .env("XDG_RUNTIME_DIR", display.scratch().runtime_dir())
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot start the {name} example: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs_f64(seconds + 60.0);
    while child.try_wait().map_err(|e| e.to_string())?.is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            return Err(format!("the {name} example did not exit in time"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("the {name} example: {e}"))?;
    if !out.status.success() {
        return Err(format!("the {name} example exited with {}", out.status));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .find_map(|line| ExampleRun::parse(example, line))
        .ok_or_else(|| format!("the {name} example printed no pacing line"))
}

/// Both examples `rounds` times in turn, `seconds` each, so that a busy moment of the
/// machine falls on both alike. `Err` when they are not built or a run failed.
pub fn pacing(display: &Display, rounds: usize, seconds: f64) -> Result<Vec<ExampleRun>, String> {
    let mut runs = Vec::new();
    for _ in 0..rounds.max(1) {
        for example in Example::BOTH {
            runs.push(run_one(display, example, seconds)?);
        }
    }
    Ok(runs)
}

/// The median over `runs` of `example`'s `figure`; `None` when it has no run.
pub fn median_of(
    runs: &[ExampleRun],
    example: Example,
    figure: impl Fn(&ExampleRun) -> f64,
) -> Option<f64> {
    let xs: Vec<f64> = runs
        .iter()
        .filter(|r| r.example == example)
        .map(figure)
        .collect();
    (!xs.is_empty()).then(|| median(&xs))
}

/// The section of the bench's table: every run, then the driver's median spread against
/// the hand-written loop's, or why the examples did not run.
pub fn table(out: &mut String, runs: &[ExampleRun], skipped: Option<&str>) {
    out.push_str(
        "\nThe winit driver against the same game's loop written by hand (looplab-winit's square and square_by_hand examples, 60 Hz cap, in turn; each times its own presents)\n",
    );
    if let Some(why) = skipped {
        out.push_str(&format!("  not run: {why}\n"));
        return;
    }
    let mut t = Table::new(&[
        "loop",
        "example",
        "frames",
        "FPS",
        "mean ms",
        "stddev ms",
        "worst ms",
    ])
    .indent("  ")
    .left(2);
    for r in runs {
        let loop_name = match r.example {
            Example::Driver => "driver",
            Example::ByHand => "by hand",
        };
        t.row([
            loop_name.to_string(),
            r.example.name().to_string(),
            r.frames.to_string(),
            format!("{:.1}", r.fps),
            format!("{:.2}", r.mean_ms),
            format!("{:.2}", r.stddev_ms),
            format!("{:.2}", r.worst_ms),
        ]);
    }
    out.push_str(&t.text());
    let stddev = |e| median_of(runs, e, |r| r.stddev_ms);
    if let (Some(driver), Some(by_hand)) = (stddev(Example::Driver), stddev(Example::ByHand)) {
        out.push_str(&format!(
            "  median stddev: driver {driver:.2} ms, by hand {by_hand:.2} ms; driver / by hand = {:.2}\n",
            driver / by_hand.max(1e-9)
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pacing_line_is_read_field_by_field() {
        let line =
            "presented 600 frames in 9.98 s: 60.1 FPS, intervals 16.63 ms ± 0.76, worst 20.14 ms";
        let run = ExampleRun::parse(Example::Driver, line).expect("a pacing line");
        assert_eq!(run.frames, 600);
        assert_eq!(
            [
                run.seconds,
                run.fps,
                run.mean_ms,
                run.stddev_ms,
                run.worst_ms
            ],
            [9.98, 60.1, 16.63, 0.76, 20.14]
        );
    }

    #[test]
    fn anything_else_is_not_a_pacing_line() {
        for line in [
            "",
            "presented frames",
            "presented 600 frames in 9.98 s: 60.1 FPS, intervals 16.63 ms ± 0.76",
            "presented 600 frames in NaN s: 60.1 FPS, intervals 16.63 ms ± 0.76, worst 20.14 ms",
            "presented -1 frames in 9.98 s: 60.1 FPS, intervals 16.63 ms ± 0.76, worst 20.14 ms",
        ] {
            assert_eq!(ExampleRun::parse(Example::ByHand, line), None, "{line:?}");
        }
    }

    #[test]
    fn the_table_sets_the_medians_side_by_side() {
        let run = |example, stddev_ms| ExampleRun {
            example,
            frames: 600,
            seconds: 10.0,
            fps: 60.0,
            mean_ms: 16.67,
            stddev_ms,
            worst_ms: 20.0,
        };
        let runs = [
            run(Example::Driver, 0.3),
            run(Example::ByHand, 0.7),
            run(Example::Driver, 0.5),
            run(Example::ByHand, 0.6),
            run(Example::Driver, 0.9),
            run(Example::ByHand, 0.8),
        ];
        let mut out = String::new();
        table(&mut out, &runs, None);
        assert!(
            out.contains("driver 0.50 ms, by hand 0.70 ms; driver / by hand = 0.71"),
            "{out}"
        );
        let mut skipped = String::new();
        table(&mut skipped, &[], Some("not built"));
        assert!(skipped.ends_with("  not run: not built\n"), "{skipped}");
    }
}
