//! `looplab-peers lab [--seconds N] [--format table|json]`: every loop on every machine;
//! `looplab-peers bench [--seconds N] [--format table|json]`: the frame limiters in real time.

use std::process::ExitCode;
use std::time::Duration;

use looplab::lab::profile::Profile;
use looplab_peers::report::{compare, profiles};

const USAGE: &str = "usage: looplab-peers lab|bench [--seconds N] [--format table|json]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args.iter().map(String::as_str).collect::<Vec<_>>()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[&str]) -> Result<(), String> {
    let (bench, rest) = match args {
        ["lab", rest @ ..] => (false, rest),
        ["bench", rest @ ..] => (true, rest),
        _ => return Err(USAGE.into()),
    };
    let (mut seconds, mut json) = (if bench { 1.5 } else { 20.0 }, false);
    let (mut capture, mut process, mut trace) = (None::<&str>, None::<&str>, None::<&str>);
    let mut rest = rest.iter();
    while let Some(arg) = rest.next() {
        match (*arg, rest.next().copied()) {
            ("--seconds", Some(s)) => {
                seconds = s
                    .parse::<f64>()
                    .ok()
                    .filter(|s| (0.1..=3600.0).contains(s))
                    .ok_or_else(|| format!("--seconds {s:?} is not 0.1 to 3600"))?;
            }
            ("--capture", Some(file)) if !bench => capture = Some(file),
            ("--process", Some(name)) if !bench => process = Some(name),
            ("--trace", Some(file)) if !bench => trace = Some(file),
            ("--format", Some("table")) => json = false,
            ("--format", Some("json")) => json = true,
            _ => return Err(USAGE.into()),
        }
    }
    if bench {
        let runs = looplab_peers::pacing::bench(seconds);
        if json {
            let text = serde_json::to_string_pretty(&runs).map_err(|e| e.to_string())?;
            println!("{text}");
        } else {
            print!("{}", looplab_peers::pacing::table(&runs));
        }
        return Ok(());
    }
    let mut machines = profiles();
    if let Some(file) = capture {
        // A real game's frames as one more machine (see `looplab lab --capture`).
        let path = std::path::Path::new(file);
        let read = looplab::cli::load_capture(path, process).map_err(|f| f.message)?;
        let summary = looplab::capture::summary::Summary::of(&read, None);
        machines.push(Profile::from_capture("capture", &read, &summary));
    } else if process.is_some() {
        return Err("--process names the application of a --capture FILE".into());
    }
    if let Some(file) = trace {
        // A Looplab window's own frames (`looplab --trace FILE`) as one more machine.
        let read = looplab::cli::load_trace(std::path::Path::new(file)).map_err(|f| f.message)?;
        machines.push(Profile::from_trace("trace", &read));
    }
    let report = compare(&machines, Duration::from_secs_f64(seconds));
    if json {
        let text = serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?;
        println!("{text}");
    } else {
        print!("{}", report.table());
    }
    Ok(())
}
