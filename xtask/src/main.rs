//! `cargo xtask book` (the book built, the page inside it, and its links and views checked;
//! `book serve [PORT]` serves it too), `cargo xtask captures` (the
//! test captures), `cargo xtask shape` (the source tree's figures) or
//! `cargo xtask web build | serve [PORT] |
//! screenshot FILE [QUERY] | measure | example NAME [PORT]` (a `looplab-winit` example as a
//! page, served): see the
//! library's documentation and the README's "In the browser".

use std::path::Path;
use std::process::ExitCode;

use xtask::build::{Built, build, build_example};
use xtask::measure::{measure, screenshot};
use xtask::serve::PageServer;

const USAGE: &str = "usage: cargo xtask book | book serve [PORT] | captures | shape [--edges] [DIR] | web build | web serve [PORT] | web screenshot FILE.png [QUERY] | web measure | web example NAME [PORT]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The port a command names, 8000 when it names none.
fn port(given: Option<&str>) -> Result<u16, String> {
    match given {
        Some(p) => p.parse().map_err(|_| format!("'{p}' is not a port number")),
        None => Ok(8000),
    }
}

/// Serves `built` on `port` (8000 when none is given) until Ctrl+C, saying where.
fn serve(built: &Built, port: Option<&str>, what: &str) -> Result<(), String> {
    let port = self::port(port)?;
    println!("{}", built.summary());
    let server = PageServer::start(&built.dir, port)?;
    println!("serving {what} at {} (Ctrl+C stops)", server.url(""));
    loop {
        std::thread::park();
    }
}

fn run(args: &[&str]) -> Result<(), String> {
    match args {
        ["web", "build"] => {
            println!("{}", build()?.summary());
            Ok(())
        }
        ["web", "serve", rest @ ..] if rest.len() <= 1 => {
            serve(&build()?, rest.first().copied(), "Looplab")
        }
        ["web", "example", name, rest @ ..] if rest.len() <= 1 => serve(
            &build_example(name)?,
            rest.first().copied(),
            &format!("the {name} example"),
        ),
        ["web", "screenshot", file, rest @ ..] if rest.len() <= 1 => {
            let built = build()?;
            screenshot(&built, rest.first().copied().unwrap_or(""), Path::new(file))?;
            println!("wrote {file}");
            Ok(())
        }
        ["book"] => {
            println!("{}", xtask::site::build_and_check(&xtask::root())?);
            Ok(())
        }
        ["book", "serve", rest @ ..] if rest.len() <= 1 => {
            let root = xtask::root();
            println!("{}", xtask::site::build_and_check(&root)?);
            let port = port(rest.first().copied())?;
            let server = PageServer::start(&root.join(xtask::site::BUILT), port)?;
            println!(
                "serving the book at {} (Ctrl+C stops)",
                server.at("explore.html")
            );
            loop {
                std::thread::park();
            }
        }
        ["captures"] => {
            let dir = xtask::root().join("tests/captures/made");
            xtask::captures::write_all(&dir)?;
            println!("wrote the test captures into {}", dir.display());
            Ok(())
        }
        ["shape", rest @ ..] => {
            // `--edges` prints the import graph; a directory measures another checkout
            // (an older commit's worktree, for figures before and after).
            let edges = rest.contains(&"--edges");
            let root = rest
                .iter()
                .find(|a| !a.starts_with("--"))
                .map_or_else(xtask::root, std::path::PathBuf::from);
            let report = xtask::shape::workspace(&root)?;
            print!("{}", if edges { report.edges() } else { report.text() });
            match report.failures().as_slice() {
                [] => Ok(()),
                failures => Err(format!(
                    "the tree is out of shape:\n  {}",
                    failures.join("\n  ")
                )),
            }
        }
        ["web", "measure"] => {
            let built = build()?;
            println!("{}", built.summary());
            print!("{}", measure(&built)?);
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    }
}
