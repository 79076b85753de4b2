//! Helpers for the tests that run the real window: a private Xvfb display, the app started on
//! it, keys sent with xdotool, screenshots with ImageMagick. Missing tools make the tests
//! fail with the package to install; they never skip.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use looplab::app::stats::StatsReport;

/// The window tests share two cores with lavapipe and Xvfb: they run one at a time, so their
/// frame rates are their own.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Fails on a panic or a GPU validation error in a log.
pub fn assert_clean(log: &str) {
    assert!(!log.contains("panicked"), "a panic:\n{log}");
    assert!(!log.contains("GPU error"), "a GPU validation error:\n{log}");
}

/// A private X server for one test (the project's test kit, with panics for errors).
pub struct Xvfb {
    server: looplab_headless::Xvfb,
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb on a free display number.
    pub fn start() -> Xvfb {
        let server = looplab_headless::Xvfb::start("1280x800x24").unwrap_or_else(|e| panic!("{e}"));
        let display = server.display().to_string();
        Xvfb { server, display }
    }

    /// Raises the server's scheduling priority (nice -10) where this user may: the half of
    /// a present an X server does, kept from a busy process as [`App::start_ahead`] keeps
    /// the app's.
    pub fn ahead(&self) {
        // SAFETY: setpriority(2) on the server this test started; a refusal leaves it as it was.
        unsafe {
            libc::setpriority(libc::PRIO_PROCESS, self.server.pid(), -10);
        }
    }

    /// Runs a command on this display and returns its output.
    pub fn run(&self, program: &str, args: &[&str]) -> Output {
        looplab_headless::run_on(self.server.display(), program, args)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Focuses the Looplab window and presses `keys`.
    pub fn keys(&self, keys: &[&str]) {
        looplab_headless::press_keys(&self.display, "Looplab", keys, 30)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// Focuses the Looplab window and presses the key that closes it. The app may quit on
    /// the key's press and take its window with it before xdotool lets the key go; xdotool
    /// then finds no window to send the release to, which is what was asked for. Whether the
    /// app ended well is for [`App::finish`] to say.
    pub fn close_with(&self, key: &str) {
        if let Err(e) = looplab_headless::press_keys(&self.display, "Looplab", &[key], 30) {
            assert!(e.contains("BadWindow"), "{e}");
        }
    }

    /// Focuses the Looplab window and holds `key` down for `seconds`.
    pub fn hold(&self, key: &str, seconds: f64) {
        looplab_headless::hold_key(&self.display, "Looplab", key, seconds)
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// Waits until a Looplab window exists.
    pub fn wait_for_window(&self) {
        looplab_headless::wait_for_window(&self.display, "Looplab")
            .unwrap_or_else(|e| panic!("{e}"));
    }

    /// A screenshot of the whole screen as PNG.
    pub fn screenshot(&self, path: &Path) {
        looplab_headless::screenshot(&self.display, path).unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A private Weston compositor (headless) for one test, in the scratch directory's runtime
/// directory.
pub struct Weston {
    pub server: looplab_headless::Weston,
}

impl Weston {
    /// Starts Weston with a 1280x800 output (the 720-pixel window and Weston's panel).
    pub fn start(scratch: &Scratch) -> Weston {
        let server = looplab_headless::Weston::start(&scratch.0.runtime_dir(), 1280, 800)
            .unwrap_or_else(|e| panic!("{e}"));
        Weston { server }
    }

    /// A screenshot of the output as PNG.
    pub fn screenshot(&self, path: &Path) {
        self.server
            .screenshot(path)
            .unwrap_or_else(|e| panic!("{e}"));
    }
}

/// A scratch directory removed at the end of the test.
pub struct Scratch(looplab_headless::Scratch);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        Scratch(looplab_headless::Scratch::new(name).unwrap_or_else(|e| panic!("{e}")))
    }

    pub fn path(&self, file: &str) -> PathBuf {
        self.0.path(file)
    }
}

/// The app running on a display.
pub struct App {
    pub child: Child,
    pub started: Instant,
    /// Its log so far, read from its stderr as it comes.
    log: Arc<Mutex<String>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

/// The options of a run: words separated by spaces (`--vsync off --cap 60`), then options
/// that name files.
fn arguments(args: &str, files: &[(&str, &Path)]) -> Vec<std::ffi::OsString> {
    let mut all: Vec<std::ffi::OsString> = args.split_whitespace().map(Into::into).collect();
    for (option, path) in files {
        all.push(option.into());
        all.push(path.into());
    }
    all
}

impl App {
    /// Starts `looplab` with `args` and the options naming `files` on `xvfb`, logging at
    /// info level to a pipe.
    pub fn start(xvfb: &Xvfb, scratch: &Scratch, args: &str, files: &[(&str, &Path)]) -> App {
        Self::start_with_env(xvfb, scratch, args, files, &[])
    }

    /// [`App::start`], with the variables `env` set too.
    pub fn start_with_env(
        xvfb: &Xvfb,
        scratch: &Scratch,
        args: &str,
        files: &[(&str, &Path)],
        env: &[(&str, &str)],
    ) -> App {
        let mut command = Self::on_x11(xvfb, scratch);
        command.envs(env.iter().copied());
        Self::spawn(command, &arguments(args, files))
    }

    /// `looplab` as an X client of `xvfb`, with `scratch`'s runtime directory.
    fn on_x11(xvfb: &Xvfb, scratch: &Scratch) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_looplab"));
        command
            .env("DISPLAY", &xvfb.display)
            .env_remove("WAYLAND_DISPLAY")
            .env("XDG_RUNTIME_DIR", scratch.0.runtime_dir());
        command
    }

    /// [`App::start`], at a higher scheduling priority (nice -10) where this user may raise
    /// it (root, or CAP_SYS_NICE), every thread of it: for a test whose precondition is
    /// that the app's frames keep their cost beside a busy process, which a CPU hog at the
    /// same priority takes from them in slices of milliseconds. Elsewhere it runs as
    /// [`App::start`] does.
    pub fn start_ahead(xvfb: &Xvfb, scratch: &Scratch, args: &str, files: &[(&str, &Path)]) -> App {
        use std::os::unix::process::CommandExt;
        let mut command = Self::on_x11(xvfb, scratch);
        // SAFETY: setpriority(2) is async-signal-safe, and only this child's is changed;
        // where it is refused the child runs at the priority it has.
        unsafe {
            command.pre_exec(|| {
                libc::setpriority(libc::PRIO_PROCESS, 0, -10);
                Ok(())
            });
        }
        Self::spawn(command, &arguments(args, files))
    }

    /// Starts `looplab` as a Wayland client of `weston` (no X display).
    pub fn start_wayland(weston: &Weston, args: &str, files: &[(&str, &Path)]) -> App {
        let mut command = Command::new(env!("CARGO_BIN_EXE_looplab"));
        command
            .env_remove("DISPLAY")
            .env("WAYLAND_DISPLAY", weston.server.socket())
            .env("XDG_RUNTIME_DIR", weston.server.runtime_dir());
        Self::spawn(command, &arguments(args, files))
    }

    /// Runs `command` (its display chosen) with `args`, logging at info level to a pipe.
    fn spawn(mut command: Command, args: &[std::ffi::OsString]) -> App {
        let child = command
            .args(args)
            .env("RUST_LOG", "info")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("looplab starts");
        let mut child = child;
        let log = Arc::new(Mutex::new(String::new()));
        let reader = child.stderr.take().map(|err| {
            let log = Arc::clone(&log);
            std::thread::spawn(move || {
                for line in BufReader::new(err).lines().map_while(Result::ok) {
                    let mut log = log.lock().unwrap_or_else(|e| e.into_inner());
                    log.push_str(&line);
                    log.push('\n');
                }
            })
        });
        App {
            child,
            started: Instant::now(),
            log,
            reader,
        }
    }

    /// The log so far.
    pub fn log(&self) -> String {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Waits until the log has `count` lines that contain any of `needles` (at most
    /// `limit`); returns whether it did.
    pub fn wait_for_lines(&self, needles: &[&str], count: usize, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        loop {
            let log = self.log();
            let n = log
                .lines()
                .filter(|l| needles.iter().any(|n| l.contains(n)))
                .count();
            if n >= count {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The whole log once the app has exited.
    fn final_log(&mut self) -> String {
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
        self.log()
    }

    /// Waits for the app to exit (at most `limit`) and returns its status and log.
    pub fn wait(mut self, limit: Duration) -> (ExitStatus, String) {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for looplab") {
                return (status, self.final_log());
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                let log = self.final_log();
                panic!("looplab did not exit within {limit:?}; its log:\n{log}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits for the app to exit (at most `limit`), fails unless it succeeded with a clean
    /// log, and returns the log.
    pub fn finish(self, limit: Duration) -> String {
        let (status, log) = self.wait(limit);
        assert!(status.success(), "looplab failed: {log}");
        assert_clean(&log);
        log
    }

    /// Sleeps until `at` after the start.
    pub fn at(&self, at: Duration) {
        if let Some(left) = at.checked_sub(self.started.elapsed()) {
            std::thread::sleep(left);
        }
    }
}

/// `looplab lab --replay` of `recording` under `strategies` (comma-separated): the rows,
/// each of which must have replayed to the state it recorded.
pub fn replays_in_the_lab(recording: &Path, strategies: &str) -> Vec<serde_json::Value> {
    let report = json_of(&[
        "lab",
        "--replay",
        recording.to_str().unwrap(),
        "--format",
        "json",
        "--strategy",
        strategies,
    ]);
    let rows = report["rows"].as_array().cloned().unwrap_or_default();
    assert!(
        !rows.is_empty() && rows.iter().all(|r| r["matches"] == true),
        "{report}"
    );
    rows
}

/// Reads a `--frame-log` file.
pub fn frame_log(path: &Path) -> looplab::session::frame::FrameLog {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("no frame log at {}: {e}", path.display()));
    serde_json::from_str(&text).expect("a frame log")
}

/// Reads a `--stats` file into the report the app wrote.
pub fn stats(path: &Path) -> StatsReport {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("no stats at {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("stats as the app writes them: {e}"))
}

/// Runs `looplab` with `args` (no display) and returns its standard output as JSON, failing
/// unless it succeeded.
pub fn json_of(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_looplab"))
        .args(args)
        .output()
        .expect("looplab runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("a JSON report")
}

/// How many colours a screenshot (cropped to `crop`, ImageMagick's geometry, if given) has.
pub fn colours(shot: &Path, crop: Option<&str>) -> u32 {
    let mut args = vec![shot.to_str().unwrap()];
    if let Some(geometry) = crop {
        args.extend(["-crop", geometry]);
    }
    args.extend(["-format", "%k", "info:"]);
    let out = Command::new("convert")
        .args(&args)
        .output()
        .expect("ImageMagick's convert runs");
    String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or(0)
}
