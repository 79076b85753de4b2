//! Helpers for the tests that run the real window: a private Xvfb display, the app started on
//! it, keys sent with xdotool, screenshots with ImageMagick. Missing tools make the tests
//! fail with the package to install; they never skip.

#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// A private X server for one test.
pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb on a free display number (it picks one itself and reports it).
    pub fn start() -> Xvfb {
        let (child, display) =
            looplab::bench::windowed::start_xvfb("1280x800x24").unwrap_or_else(|e| panic!("{e}"));
        Xvfb { child, display }
    }

    /// Runs a command on this display and returns its output.
    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        Command::new(program)
            .args(args)
            .env("DISPLAY", &self.display)
            .output()
            .unwrap_or_else(|e| {
                panic!("cannot run {program} ({e}): see the README's test packages")
            })
    }

    /// Focuses the Looplab window (there is no window manager) and presses `keys`.
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec![
            "search",
            "--sync",
            "--name",
            "Looplab",
            "windowfocus",
            "--sync",
            "key",
            "--delay",
            "30",
        ];
        args.extend_from_slice(keys);
        let out = self.run("xdotool", &args);
        assert!(
            out.status.success(),
            "xdotool failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Waits until a Looplab window exists.
    pub fn wait_for_window(&self) {
        let out = self.run("xdotool", &["search", "--sync", "--name", "Looplab"]);
        assert!(out.status.success(), "no Looplab window appeared");
    }

    /// A screenshot of the whole screen as PNG.
    pub fn screenshot(&self, path: &Path) {
        let out = self.run("import", &["-window", "root", path.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "import (ImageMagick) failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scratch directory removed at the end of the test.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("looplab-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        // A private runtime directory keeps the Wayland probe quiet under Xvfb.
        let runtime = dir.join("xdg");
        std::fs::create_dir_all(&runtime).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        Scratch(dir)
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The app running on a display.
pub struct App {
    pub child: Child,
    pub started: Instant,
}

impl App {
    /// Starts `looplab` with `args` on `xvfb`, logging at info level to a pipe.
    pub fn start(xvfb: &Xvfb, scratch: &Scratch, args: &[&str]) -> App {
        let child = Command::new(env!("CARGO_BIN_EXE_looplab"))
            .args(args)
            .env("DISPLAY", &xvfb.display)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_RUNTIME_DIR", scratch.path("xdg"))
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("looplab starts");
        App {
            child,
            started: Instant::now(),
        }
    }

    /// Waits for the app to exit (at most `limit`) and returns its status and log.
    pub fn wait(mut self, limit: Duration) -> (ExitStatus, String) {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for looplab") {
                let mut log = String::new();
                if let Some(mut err) = self.child.stderr.take() {
                    let _ = err.read_to_string(&mut log);
                }
                return (status, log);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let mut log = String::new();
                if let Some(mut err) = self.child.stderr.take() {
                    let _ = err.read_to_string(&mut log);
                }
                panic!("looplab did not exit within {limit:?}; its log:\n{log}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Sleeps until `at` after the start.
    pub fn at(&self, at: Duration) {
        if let Some(left) = at.checked_sub(self.started.elapsed()) {
            std::thread::sleep(left);
        }
    }
}

/// Reads a `--stats` file.
pub fn stats(path: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("no stats at {}: {e}", path.display()));
    serde_json::from_str(&text).expect("stats are JSON")
}
