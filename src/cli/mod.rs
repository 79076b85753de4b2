//! The command line: parsing, validation, and dispatch to the window, the lab or the bench.
//!
//! Every user mistake becomes one line on stderr naming the option and the problem, and exit
//! status 2; a failure at run time (no display, no GPU) is one line and status 1.

mod args;
mod lab;
mod load;
pub mod motion;
mod values;

use std::process::ExitCode;

use clap::Parser;

pub use args::{
    AppArgs, BenchArgs, BenchFormat, Cli, Command, Format, LabArgs, LabCommand, LoopArgs,
    MotionArgs,
};
use lab::{run_lab_command, run_peers};
use load::resolve_captures;
pub use load::{MAX_RECORDING_BYTES, MAX_TRACE_BYTES, load_capture, load_recording, load_trace};

use crate::failure::{EXIT_USAGE, Failure};
use crate::platform::{files, signals};

/// Parses the process arguments and runs what they ask for.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            eprintln!("{}", one_line(&e.render().to_string()));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            if !f.message.is_empty() {
                eprintln!("error: {}", f.message);
            }
            ExitCode::from(f.status)
        }
    }
}

/// clap's messages run over several lines (the problem, possible values, a usage hint);
/// this keeps the paragraph that names the problem, joined into one line.
pub(crate) fn one_line(message: &str) -> String {
    let first_paragraph: Vec<&str> = message
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = first_paragraph.join(" ");
    if line.is_empty() {
        "error: invalid arguments".to_string()
    } else {
        line
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), Failure> {
    if matches!(cli.command, Some(Command::Lab(_) | Command::Bench(_))) {
        stop_cleanly_on_signals()?;
    }
    match cli.command {
        Some(Command::Lab(lab)) => run_lab_command(*lab),
        Some(Command::Bench(bench)) => run_bench(bench),
        Some(Command::Motion(m)) => run_motion(m),
        None => run_window(&cli.app),
    }
}

/// `looplab bench`: the kernel costs alone, the peers' pacing, or the whole bench.
fn run_bench(bench: BenchArgs) -> Result<(), Failure> {
    if let Some(bullets) = bench.kernel {
        let costs = crate::bench::kernel::kernel(bullets);
        println!("{}", files::to_json("kernel costs", &costs, false)?);
        return Ok(());
    }
    if bench.peers {
        let mut options = vec!["--format".to_string(), bench.format.id().to_string()];
        if bench.quick {
            options.extend(["--seconds".to_string(), "0.2".to_string()]);
        }
        return run_peers("bench", &options);
    }
    let report = crate::bench::run(&crate::bench::BenchOptions {
        quick: bench.quick,
        xvfb: bench.xvfb,
    })
    .map_err(Failure::runtime)?;
    match bench.format {
        BenchFormat::Table => print!("{}", crate::bench::tables::table(&report)),
        BenchFormat::Json => println!("{}", files::to_json("report", &report, true)?),
    }
    Ok(())
}

/// The window (no subcommand): its options checked, its outputs refused where they would
/// overwrite a file of the person's, a recording to replay read, and the window run.
fn run_window(app: &AppArgs) -> Result<(), Failure> {
    app.loop_args.check()?;
    let mut options = app.options()?;
    for (option, path) in options.outputs.each() {
        files::check_target(option, path)?;
    }
    if let Some(path) = &options.outputs.record {
        files::check_partial("--record", path)?;
    }
    resolve_captures(app, &mut options)?;
    if !options.lanes.is_empty() && !(2..=6).contains(&options.lanes.len()) {
        return Err(Failure::usage(format!(
            "invalid value for '--lane': compare mode takes 2 to 6 lanes, not {}",
            options.lanes.len()
        )));
    }
    if let Some(path) = &app.replay {
        for (option, output) in options.outputs.each() {
            if files::same_file(output, path) {
                return Err(Failure::usage(format!(
                    "{option} {} would write over the recording being replayed",
                    path.display()
                )));
            }
        }
        let recording = load_recording(path)?;
        options.strategy = recording.strategy;
        options.settings = recording.settings();
        options.world = recording.world.clone();
        options.replay = Some(recording);
    }
    crate::app::run(options)
}

/// Ctrl+C, SIGTERM or SIGHUP in the lab or the bench stops the work where it is: a report
/// or plot being written is abandoned (its temporary file removed, the file it was to
/// replace left as it was), the bench's scratch directory goes, its display servers and
/// windows end with it ([`looplab_headless::ends_with_us`]), and the process exits with the
/// signal's status. There is nothing to save: a lab or bench cut short has no report.
fn stop_cleanly_on_signals() -> Result<(), Failure> {
    fn end_now() {
        files::remove_unfinished();
        looplab_headless::remove_scratches();
    }
    signals::watch(
        |signal| {
            eprintln!("{}: stopped; no report written", signal.name());
            end_now();
            std::process::exit(signal.exit_status().into());
        },
        end_now,
    )
}

/// `looplab motion`: refuses a directory that already holds files, so nothing is
/// overwritten.
fn run_motion(args: MotionArgs) -> Result<(), Failure> {
    let dir = &args.out;
    files::fresh_directory("--out", dir)?;
    let options = motion::MotionOptions {
        strategies: args.strategies,
        update_rate: args.ups,
        fps: args.fps,
        seconds: args.seconds.as_secs_f64(),
        width: args.width,
        height: args.width * 9 / 16,
        bullets: args.bullets,
    };
    let frames = motion::render_motion(&options, dir).map_err(Failure::runtime)?;
    eprintln!(
        "{frames} frames for each of {} strategies written to {}",
        options.strategies.len(),
        dir.display()
    );
    Ok(())
}
