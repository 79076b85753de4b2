//! The kit that runs the real window where no person is watching, shared by the tests and
//! `looplab bench`: a private Xvfb display, a scratch directory with a private runtime
//! directory, keys sent with xdotool, screenshots with ImageMagick. A missing tool is an
//! error that names the Debian package to install; nothing here skips.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// A private X server, stopped when dropped.
pub struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    /// Starts Xvfb with one screen of `screen` (`WIDTHxHEIGHTxDEPTH`) on a display number
    /// it picks itself (`-displayfd`), so parallel runs never collide.
    pub fn start(screen: &str) -> Result<Xvfb, String> {
        let mut child = Command::new("Xvfb")
            .args([
                "-displayfd",
                "1",
                "-screen",
                "0",
                screen,
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start Xvfb ({e}); install the xvfb package"))?;
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let number = line.trim();
        if number.is_empty() {
            let _ = child.kill();
            let _ = child.wait();
            return Err("Xvfb did not report a display".into());
        }
        let display = format!(":{number}");
        Ok(Xvfb { child, display })
    }

    /// The display name, for `DISPLAY`.
    pub fn display(&self) -> &str {
        &self.display
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs `program` with `args` on `display`; an error names the package that provides it.
pub fn run_on(display: &str, program: &str, args: &[&str]) -> Result<Output, String> {
    Command::new(program)
        .args(args)
        .env("DISPLAY", display)
        .output()
        .map_err(|e| {
            let package = match program {
                "xdotool" => "xdotool",
                "import" => "imagemagick",
                _ => "the README's test packages",
            };
            format!("cannot run {program} ({e}); install {package}")
        })
}

fn succeeded(program: &str, out: Output) -> Result<(), String> {
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{program} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Waits until a window whose title contains `title` exists on `display`.
pub fn wait_for_window(display: &str, title: &str) -> Result<(), String> {
    let out = run_on(display, "xdotool", &["search", "--sync", "--name", title])?;
    succeeded("xdotool search", out)
}

/// Waits for the window titled `title` and gives it the keyboard focus (Xvfb has no window
/// manager to do it).
pub fn focus_window(display: &str, title: &str) -> Result<(), String> {
    let out = run_on(
        display,
        "xdotool",
        &["search", "--sync", "--name", title, "windowfocus", "--sync"],
    )?;
    succeeded("xdotool windowfocus", out)
}

/// Focuses the window titled `title` (Xvfb has no window manager to do it) and presses
/// `keys` (xdotool key names), `delay_ms` apart.
pub fn press_keys(display: &str, title: &str, keys: &[&str], delay_ms: u32) -> Result<(), String> {
    let delay = delay_ms.to_string();
    let mut args = vec![
        "search",
        "--sync",
        "--name",
        title,
        "windowfocus",
        "--sync",
        "key",
        "--delay",
        &delay,
    ];
    args.extend_from_slice(keys);
    let out = run_on(display, "xdotool", &args)?;
    succeeded("xdotool", out)
}

/// A screenshot of the whole of `display`, as PNG at `path`.
pub fn screenshot(display: &str, path: &Path) -> Result<(), String> {
    let target = path.to_str().ok_or("the screenshot path is not UTF-8")?;
    let out = run_on(display, "import", &["-window", "root", target])?;
    succeeded("import (ImageMagick)", out)
}

/// A scratch directory, removed when dropped, with a private runtime directory (`xdg`,
/// mode 0700) to use as `XDG_RUNTIME_DIR`, as Wayland clients and compositors require.
pub struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// A fresh directory named after `name` and this process.
    pub fn new(name: &str) -> Result<Scratch, String> {
        let dir = std::env::temp_dir().join(format!("looplab-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let runtime = dir.join("xdg");
        std::fs::create_dir_all(&runtime)
            .map_err(|e| format!("cannot create {}: {e}", runtime.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("cannot make {} private: {e}", runtime.display()))?;
        }
        Ok(Scratch { dir })
    }

    /// A path inside the directory.
    pub fn path(&self, file: &str) -> PathBuf {
        self.dir.join(file)
    }

    /// The private runtime directory.
    pub fn runtime_dir(&self) -> PathBuf {
        self.dir.join("xdg")
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
