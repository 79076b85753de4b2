//! `looplab lab`: its subcommands, the options of a modelled run (a trace or a capture
//! turned into a machine), and the run's report in the format asked for; and the peers'
//! program, which `looplab lab peers` and `looplab bench --peers` hand over to.

use std::time::Duration;

use looplab_timing::{Rate, Strategy};

use super::args::{BenchFormat, Format, LabArgs, LabCommand};
use super::load::{ReadCapture, load_recording, load_trace, read_capture};
use crate::failure::Failure;
use crate::lab::profile::Profile;
use crate::lab::replay::replay_all;
use crate::lab::{LabOptions, drift, plot, run_lab};
use crate::platform::files;
use crate::text::settings::DeltaKind;

/// `looplab lab` and its subcommands.
pub(super) fn run_lab_command(mut args: LabArgs) -> Result<(), Failure> {
    args.loop_args.check()?;
    match args.command.take() {
        Some(command) => run_subcommand(command),
        None => run_modelled(args),
    }
}

fn run_subcommand(command: LabCommand) -> Result<(), Failure> {
    match command {
        LabCommand::Drift { fps } => print!("{}", drift::report(&fps)),
        LabCommand::Feel { seconds, format } => {
            let report = crate::lab::feel::run_feel(&Profile::builtin(), &Strategy::ALL, seconds);
            match format {
                BenchFormat::Table => print!(
                    "Taps over every profile ({} s each), and the delay from a key to the screen\n\n{}\n{}",
                    seconds.as_secs(),
                    report.taps_table(),
                    report.delay_table("vsync-60")
                ),
                BenchFormat::Json => println!("{}", files::to_json("report", &report, true)?),
            }
        }
        LabCommand::Peers { options } => return run_peers("lab", &options),
        LabCommand::Latency {
            profile,
            capture,
            refresh,
            strategy,
            seconds,
            format,
            plot,
        } => {
            let (machine, span) = latency_machine(*profile, capture.as_deref(), refresh)?;
            let seconds = seconds.or(span).unwrap_or(Duration::from_secs(20));
            return run_latency(&machine, strategy, seconds, format, plot);
        }
        LabCommand::Soak {
            hours,
            seed,
            format,
        } => {
            let report = crate::lab::soak::soak_all(hours, seed);
            match format {
                BenchFormat::Table => print!("{}", crate::lab::soak::table(&report)),
                BenchFormat::Json => println!("{}", files::to_json("report", &report, true)?),
            }
        }
    }
    Ok(())
}

/// `looplab lab latency`: the table (or JSON) on a profile or a capture, and the curve.
fn run_latency(
    machine: &Profile,
    strategy: Strategy,
    seconds: Duration,
    format: BenchFormat,
    plot: Option<std::path::PathBuf>,
) -> Result<(), Failure> {
    if let Some(path) = &plot {
        files::check_target("--plot", path)?;
    }
    let report = crate::lab::latency::run_latency(machine, strategy, seconds);
    match format {
        BenchFormat::Table => print!("{}", report.text()),
        BenchFormat::Json => println!("{}", files::to_json("report", &report, true)?),
    }
    if let Some(path) = plot {
        let svg = crate::lab::latency_plot::svg(&report).map_err(Failure::runtime)?;
        files::write_file("--plot", &path, svg.as_bytes())?;
        eprintln!("curve written to {}", path.display());
    }
    Ok(())
}

/// The latency experiment's machine: the profile, or the capture's frames, on the display
/// asked for; and a capture's span, which its runs last unless told otherwise.
fn latency_machine(
    profile: Profile,
    capture: Option<&std::path::Path>,
    refresh: Option<Rate>,
) -> Result<(Profile, Option<Duration>), Failure> {
    let (mut machine, span) = match capture {
        Some(path) => {
            let (capture, summary) = read_capture(path, None, refresh)?;
            (
                Profile::from_capture("capture", &capture, &summary),
                Some(replayed_span(&capture)),
            )
        }
        None => (profile, None),
    };
    if let Some(rate) = refresh {
        machine.refresh = rate;
        machine.description += &format!(", shown on a {rate} display");
    }
    Ok((machine, span))
}

/// The longest a capture is replayed: a day, the most a modelled run lasts (`--seconds`).
const LONGEST_REPLAY: Duration = Duration::from_secs(86_400);

/// How long a capture's replays last: as long as it ran, at most [`LONGEST_REPLAY`].
fn replayed_span(capture: &crate::capture::Capture) -> Duration {
    capture.span().min(LONGEST_REPLAY)
}

/// The modelled run: every strategy on every machine (or a trace's or a capture's), or a
/// recording replayed on them; the report in the format asked for, and the plot.
fn run_modelled(args: LabArgs) -> Result<(), Failure> {
    if let Some(path) = &args.plot {
        files::check_target("--plot", path)?;
    }
    if let Some(path) = &args.presentmon {
        files::check_target("--presentmon", path)?;
    }
    let recording = args.replay.as_deref().map(load_recording).transpose()?;
    let trace = args.trace.as_deref().map(load_trace).transpose()?;
    let capture = match &args.capture {
        Some(path) => {
            let began = std::time::Instant::now();
            let (capture, mut summary) = read_capture(path, args.process.as_deref(), args.refresh)?;
            if capture.span() > LONGEST_REPLAY {
                summary.notes.push(format!(
                    "it spans {:.1} days: the lab replays its first day",
                    capture.span().as_secs_f64() / 86_400.0
                ));
            }
            log::info!(
                "capture read in {:.1} ms",
                began.elapsed().as_secs_f64() * 1e3
            );
            Some((capture, summary))
        }
        None => None,
    };
    let options = lab_options(&args, trace.as_ref(), capture.as_ref())?;
    if let Some(recording) = recording {
        let report = replay_all(&recording, &options.profiles, &options.strategies);
        match args.format {
            Format::Json => println!("{}", files::to_json("report", &report, true)?),
            Format::Table | Format::Csv => print!("{}", report.table()),
        }
        return Ok(());
    }
    let mut report = run_lab(&options);
    report.recorded = trace
        .as_ref()
        .map(crate::lab::scorecard::Scorecard::of_trace);
    report.capture = capture.map(|(_, summary)| {
        crate::lab::capture_report::answer(
            &summary,
            &options.profiles[0],
            &options.settings,
            &options.strategies,
            options.duration,
        )
    });
    match args.format {
        Format::Table => print!("{}", report.text(args.verbose)),
        Format::Csv => print!("{}", report.csv()),
        Format::Json => println!("{}", files::to_json("report", &report, true)?),
    }
    if let Some(path) = &args.presentmon {
        let csv = crate::lab::presentmon_csv(&options);
        files::write_file("--presentmon", path, csv.as_bytes())?;
        eprintln!(
            "frames written to {} (PresentMon 2.x columns)",
            path.display()
        );
    }
    if let Some(path) = args.plot {
        let svg = plot::svg(&report).map_err(Failure::runtime)?;
        files::write_file("--plot", &path, svg.as_bytes())?;
        eprintln!("plot written to {}", path.display());
    }
    Ok(())
}

/// The lab's options from its arguments; a trace or a capture given becomes the one
/// machine, its length the run's, and its settings the loop's.
fn lab_options(
    args: &LabArgs,
    trace: Option<&crate::session::trace::Trace>,
    capture: Option<&ReadCapture>,
) -> Result<LabOptions, Failure> {
    let mut options = LabOptions {
        settings: args.loop_args.settings()?,
        world: args.loop_args.world(LabOptions::DEFAULT_BULLETS),
        duration: if args.updates.is_some() {
            Duration::from_secs(86_400)
        } else {
            args.seconds
        },
        checkpoint: args.checkpoint,
        until_updates: args.updates,
        deltas: deltas(&args.delta, trace.is_some() || capture.is_some()),
        ..LabOptions::default()
    };
    if let Some(trace) = trace {
        options.profiles = vec![Profile::from_trace("trace", trace)];
        if args.updates.is_none() {
            options.duration = trace.span();
        }
        if args.loop_args.bullets.is_none() {
            options.world.bullets = trace.header.bullets;
        }
        let h = &trace.header;
        if let Ok(rate) = Rate::hz(h.update_hz) {
            options.settings.update_rate = rate;
        }
        options.settings.frame_cap = h.frame_cap_hz.and_then(|hz| Rate::hz(hz).ok());
    }
    if let Some((capture, summary)) = capture {
        options.profiles = vec![Profile::from_capture("capture", capture, summary)];
        if args.updates.is_none() {
            options.duration = replayed_span(capture);
        }
    }
    if !args.strategy.is_empty() {
        let mut strategies = args.strategy.clone();
        strategies.dedup();
        options.strategies = strategies;
    }
    if !args.profile.is_empty() {
        options.profiles = args.profile.iter().flatten().cloned().collect();
    }
    let mut names: Vec<&str> = options.profiles.iter().map(|p| p.name.as_str()).collect();
    names.sort_unstable();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(Failure::usage(format!(
            "invalid value for '--profile': profile {:?} is given twice",
            w[0]
        )));
    }
    Ok(options)
}

/// The delta readings asked for, each once; all of them for a recorded machine (a trace or
/// a capture), and the measured delta when none is named.
fn deltas(asked: &[DeltaKind], recorded: bool) -> Vec<DeltaKind> {
    let mut deltas: Vec<DeltaKind> = Vec::new();
    for d in asked {
        if !deltas.contains(d) {
            deltas.push(*d);
        }
    }
    if deltas.is_empty() && recorded {
        deltas = DeltaKind::ALL.to_vec();
    } else if deltas.is_empty() {
        deltas = vec![DeltaKind::Measured];
    }
    deltas
}

/// `looplab lab peers` and `looplab bench --peers`: the peers' own program, beside this one
/// (the app carries no peer), with its `what` (`lab` or `bench`).
pub(super) fn run_peers(what: &str, options: &[String]) -> Result<(), Failure> {
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("looplab-peers")))
        .filter(|p| p.is_file());
    let Some(program) = beside else {
        return Err(Failure::runtime(format!(
            "the peers are the looplab-peers package's program, which is not built beside this one: cargo build --release -p looplab-peers, or cargo run --release -p looplab-peers -- {what}"
        )));
    };
    let out = std::process::Command::new(&program)
        .arg(what)
        .args(options)
        .stdout(std::process::Stdio::inherit())
        .output()
        .map_err(|e| Failure::runtime(format!("{} cannot be run: {e}", program.display())))?;
    // Its one line, as this program's own, with its status.
    let said = String::from_utf8_lossy(&out.stderr);
    let said = said.trim().trim_start_matches("error: ");
    match out.status.code() {
        Some(0) => Ok(()),
        Some(2) => Err(Failure::usage(format!("peers: {said}"))),
        _ => Err(Failure::runtime(format!("peers: {said}"))),
    }
}
