//! The page's build: the app for `wasm32-unknown-unknown` in the `web` profile (small and
//! fast: `opt-level = "s"`, LTO, one codegen unit), its JavaScript glue from wasm-bindgen,
//! the wasm shrunk by wasm-opt, and the HTML page: a folder of static files any web server
//! can host.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::root;

/// The build's own target directory: a cargo running inside `cargo test` or `cargo run`
/// would otherwise wait for their lock on `target/`.
pub fn target_dir() -> PathBuf {
    root().join("target").join("web")
}

/// Where the page is written.
pub fn dist_dir() -> PathBuf {
    target_dir().join("dist")
}

/// A finished build.
#[derive(Clone, Debug)]
pub struct Built {
    pub dir: PathBuf,
    /// The wasm as served, and gzipped (as a server would send it).
    pub wasm_bytes: u64,
    pub wasm_gzip_bytes: u64,
    /// The wasm as rustc wrote it, when wasm-opt shrank it.
    pub unoptimized_bytes: Option<u64>,
    /// A dev build (an example's), which is never shrunk.
    pub dev: bool,
    pub took: Duration,
}

impl Built {
    /// One line about the build.
    pub fn summary(&self) -> String {
        let mb = |b: u64| b as f64 / 1e6;
        let opt = match (self.unoptimized_bytes, self.dev) {
            (Some(b), _) => format!(", {:.2} MB as rustc wrote it", mb(b)),
            (None, true) => ", a dev build, not shrunk".to_string(),
            (None, false) => {
                ", not shrunk: wasm-opt not found (Debian package binaryen)".to_string()
            }
        };
        format!(
            "web build in {}: wasm {:.2} MB, {:.2} MB gzipped{opt}",
            self.dir.display(),
            mb(self.wasm_bytes),
            mb(self.wasm_gzip_bytes),
        )
    }
}

/// The version of wasm-bindgen in the lock file: the CLI must be the same.
pub fn locked_wasm_bindgen() -> Result<String, String> {
    let lock = std::fs::read_to_string(root().join("Cargo.lock"))
        .map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\""
            && let Some(version) = lines.next().and_then(|l| l.strip_prefix("version = \""))
        {
            return Ok(version.trim_end_matches('"').to_string());
        }
    }
    Err("Cargo.lock names no wasm-bindgen".to_string())
}

/// Builds the page into [`dist_dir`].
pub fn build() -> Result<Built, String> {
    let started = Instant::now();
    let wasm_bindgen = wasm_bindgen(&locked_wasm_bindgen()?)?;
    cargo_wasm(&["--bin", "looplab", "--profile", "web"])?;
    let rustc_wasm = target_dir().join("wasm32-unknown-unknown/web/looplab.wasm");
    let (wasm, unoptimized_bytes) = optimize(rustc_wasm)?;
    let dist = dist_dir();
    bindgen(&wasm_bindgen, &wasm, &dist, "looplab")?;
    std::fs::copy(root().join("web/index.html"), dist.join("index.html"))
        .map_err(|e| format!("cannot copy web/index.html: {e}"))?;
    finished(dist, "looplab", unoptimized_bytes, false, started)
}

/// Builds the `looplab-winit` example `name` as a page into `target/web/examples/NAME`:
/// the same code as the native example, on winit's web backend, in a page of its own (a
/// dev build, not shrunk: it shows the example runs, not what it weighs).
pub fn build_example(name: &str) -> Result<Built, String> {
    let started = Instant::now();
    let wasm_bindgen = wasm_bindgen(&locked_wasm_bindgen()?)?;
    cargo_wasm(&["-p", "looplab-winit", "--example", name])?;
    let wasm = target_dir().join(format!("wasm32-unknown-unknown/debug/examples/{name}.wasm"));
    let dist = target_dir().join("examples").join(name);
    bindgen(&wasm_bindgen, &wasm, &dist, name)?;
    let page = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <link rel=\"icon\" href=\"data:,\">\n\
         <title>looplab-winit: {name}</title>\n\
         <style>body {{ margin: 0; background: #000; }} canvas {{ display: block; }}</style>\n\
         </head>\n<body>\n<script type=\"module\">import init from \"./{name}.js\"; init();</script>\n\
         </body>\n</html>\n"
    );
    std::fs::write(dist.join("index.html"), page)
        .map_err(|e| format!("cannot write {}: {e}", dist.display()))?;
    finished(dist, name, None, true, started)
}

/// Runs `cargo build` for the browser's target with `args`, in [`target_dir`].
fn cargo_wasm(args: &[&str]) -> Result<(), String> {
    ensure_wasm_target();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(cargo)
        .current_dir(root())
        .arg("build")
        .args(args)
        .args(["--target", "wasm32-unknown-unknown"])
        .env("CARGO_TARGET_DIR", target_dir())
        // Wasm's 128-bit SIMD (in every current browser): the world's update, which
        // the compiler vectorises natively, runs at less than half speed without it.
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS",
            "-Ctarget-feature=+simd128",
        )
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(
            "the wasm build failed (is the target installed? rustup target add wasm32-unknown-unknown)"
                .to_string(),
        )
    }
}

/// Writes `wasm`'s JavaScript glue and the wasm beside it into `dist` (emptied first), as
/// `NAME.js` and `NAME_bg.wasm`.
fn bindgen(wasm_bindgen: &Path, wasm: &Path, dist: &Path, name: &str) -> Result<(), String> {
    if dist.exists() {
        std::fs::remove_dir_all(dist)
            .map_err(|e| format!("cannot clear {}: {e}", dist.display()))?;
    }
    run(
        Command::new(wasm_bindgen)
            .args([
                "--target",
                "web",
                "--no-typescript",
                "--out-name",
                name,
                "--out-dir",
            ])
            .arg(dist)
            .arg(wasm),
        "wasm-bindgen",
    )
}

/// The build in `dist`, its wasm weighed.
fn finished(
    dist: PathBuf,
    name: &str,
    unoptimized_bytes: Option<u64>,
    dev: bool,
    started: Instant,
) -> Result<Built, String> {
    let bg = dist.join(format!("{name}_bg.wasm"));
    let bytes = std::fs::read(&bg).map_err(|e| format!("cannot read {}: {e}", bg.display()))?;
    Ok(Built {
        dir: dist,
        wasm_bytes: bytes.len() as u64,
        wasm_gzip_bytes: gzipped_size(&bytes),
        unoptimized_bytes,
        dev,
        took: started.elapsed(),
    })
}

/// The module `rustc_wasm` shrunk by wasm-opt where it is installed, and its size before;
/// as it is, where it is not.
fn optimize(rustc_wasm: PathBuf) -> Result<(PathBuf, Option<u64>), String> {
    if !which("wasm-opt") {
        return Ok((rustc_wasm, None));
    }
    // wasm-opt runs before wasm-bindgen: Debian's binaryen (108) mistakes the table of
    // JavaScript objects that wasm-bindgen adds for a table of functions, and the page
    // then fails as it starts.
    let shrunk = target_dir().join("looplab.opt.wasm");
    run(
        Command::new("wasm-opt")
            .arg("-Oz")
            // What rustc's wasm32 target emits by default.
            .args([
                "--enable-bulk-memory",
                "--enable-mutable-globals",
                "--enable-nontrapping-float-to-int",
                "--enable-sign-ext",
                "--enable-reference-types",
                "--enable-multivalue",
                "--enable-simd",
            ])
            .arg(&rustc_wasm)
            .arg("-o")
            .arg(&shrunk),
        "wasm-opt",
    )?;
    Ok((shrunk, Some(size(&rustc_wasm)?)))
}

/// The size of `bytes` gzipped at the best compression.
pub fn gzipped_size(bytes: &[u8]) -> u64 {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let _ = gz.write_all(bytes);
    gz.finish().map_or(0, |v| v.len() as u64)
}

/// The wasm-bindgen CLI at `version` (its glue and the wasm's must agree). Its own lock
/// file pins a `webpki-roots` the registry may not have yet, so it is installed without
/// `--locked`.
fn wasm_bindgen(version: &str) -> Result<PathBuf, String> {
    tool("wasm-bindgen", "wasm-bindgen-cli", version, &[])
}

/// The program `name` at `version`: the one on the PATH if it is that version (as its
/// `--version` says, `name 1.2.3` or `name v1.2.3`), or else one installed under
/// `target/web/tools` from the Rust package registry, as the crate `krate` with the
/// `cargo install` options `install` (once; a few minutes).
pub fn tool(name: &str, krate: &str, version: &str, install: &[&str]) -> Result<PathBuf, String> {
    let is_version = |program: &Path| {
        Command::new(program)
            .arg("--version")
            .output()
            .is_ok_and(|o| {
                let said = String::from_utf8_lossy(&o.stdout);
                let second = said.split_whitespace().nth(1).unwrap_or("");
                second.trim_start_matches('v') == version
            })
    };
    let on_path = PathBuf::from(name);
    if is_version(&on_path) {
        return Ok(on_path);
    }
    let tools = target_dir().join("tools");
    let ours = tools.join("bin").join(name);
    if is_version(&ours) {
        return Ok(ours);
    }
    eprintln!(
        "xtask: installing {krate} {version} into {}",
        tools.display()
    );
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    run(
        Command::new(cargo)
            .args(["install", krate, "--version", version])
            .args(install)
            .arg("--root")
            .arg(&tools),
        &format!("cargo install {krate}"),
    )?;
    if is_version(&ours) {
        Ok(ours)
    } else {
        Err(format!(
            "{krate} {version} did not install into {}",
            tools.display()
        ))
    }
}

/// Adds the wasm target through rustup when it is missing (a toolchain from elsewhere must
/// have it already).
fn ensure_wasm_target() {
    let installed = Command::new("rustup")
        .args(["target", "list", "--installed"])
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim() == "wasm32-unknown-unknown")
        });
    if !installed {
        eprintln!("xtask: rustup target add wasm32-unknown-unknown");
        let _ = Command::new("rustup")
            .args(["target", "add", "wasm32-unknown-unknown"])
            .status();
    }
}

fn run(command: &mut Command, name: &str) -> Result<(), String> {
    let status = command
        .status()
        .map_err(|e| format!("cannot run {name}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{name} failed ({status})"))
    }
}

fn which(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn size(path: &Path) -> Result<u64, String> {
    std::fs::metadata(path)
        .map(|m| m.len())
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}
