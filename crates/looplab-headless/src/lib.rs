//! The kit that runs the real window where no person is watching, shared by the tests,
//! `looplab bench`'s windowed runs and xtask: a private Xvfb display or Weston compositor, a scratch directory with a private runtime
//! directory, keys sent with xdotool, screenshots with ImageMagick. A missing tool is an
//! error that names the Debian package to install; nothing here skips.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use std::sync::{Mutex, MutexGuard};

/// A private X server, stopped when dropped.
pub struct Xvfb {
    child: Child,
    display: String,
}

impl Xvfb {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts Xvfb with one screen of `screen` (`WIDTHxHEIGHTxDEPTH`) on a display number
    /// it picks itself (`-displayfd`), so parallel runs never collide.
    pub fn start(screen: &str) -> Result<Xvfb, String> {
        let mut child = ends_with_us(&mut Command::new("Xvfb"))
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

/// Asks Linux to end `command`'s process (with SIGTERM) when the thread that starts it
/// ends, however that happens: a signal, a panic, a kill nothing can catch. A display
/// server or window started for a bench or a test is never left running without us.
pub fn ends_with_us(command: &mut Command) -> &mut Command {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the child between fork and exec, as pre_exec requires:
        // it only makes one async-signal-safe system call and touches no memory of ours.
        unsafe {
            command.pre_exec(|| {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == -1 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
    }
    command
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

/// Waits for the window titled `title`, gives it the keyboard focus (Xvfb has no window
/// manager to do it), then runs the xdotool commands `then` on it.
fn on_focused(display: &str, title: &str, then: &[&str]) -> Result<(), String> {
    let mut args = vec!["search", "--sync", "--name", title, "windowfocus", "--sync"];
    args.extend_from_slice(then);
    let out = run_on(display, "xdotool", &args)?;
    succeeded("xdotool", out)
}

/// Waits for the window titled `title` and gives it the keyboard focus.
pub fn focus_window(display: &str, title: &str) -> Result<(), String> {
    on_focused(display, title, &[])
}

/// Focuses the window titled `title` and presses `keys` (xdotool key names), `delay_ms`
/// apart.
pub fn press_keys(display: &str, title: &str, keys: &[&str], delay_ms: u32) -> Result<(), String> {
    let delay = delay_ms.to_string();
    let mut then = vec!["key", "--delay", &delay];
    then.extend_from_slice(keys);
    on_focused(display, title, &then)
}

/// Focuses the window titled `title` and holds `key` (an xdotool key name) down for
/// `seconds`, then lets it go: a steering key as a person holds it. xdotool waits 12 ms
/// after each keystroke unless told not to, which would hold a 30 ms tap for 42.
pub fn hold_key(display: &str, title: &str, key: &str, seconds: f64) -> Result<(), String> {
    let hold = format!("{seconds:.3}");
    on_focused(
        display,
        title,
        &[
            "keydown", "--delay", "0", key, "sleep", &hold, "keyup", "--delay", "0", key,
        ],
    )
}

/// An RGB image read back from a PNG file (a screenshot).
pub struct Image {
    pub width: u32,
    pub height: u32,
    /// Three bytes a pixel, rows top to bottom.
    pub rgb: Vec<u8>,
}

impl Image {
    /// Reads a PNG as 8-bit RGB (a palette, grey or 16 bits are expanded or reduced).
    pub fn read_png(path: &Path) -> Result<Image, String> {
        let fail = |e: &dyn std::fmt::Display| format!("cannot read {}: {e}", path.display());
        let file = std::fs::File::open(path).map_err(|e| fail(&e))?;
        // A screenshot of few colours is written with a palette: expanded to RGB here.
        let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().map_err(|e| fail(&e))?;
        let mut buf = vec![
            0;
            reader
                .output_buffer_size()
                .ok_or_else(|| fail(&"too large"))?
        ];
        let info = reader.next_frame(&mut buf).map_err(|e| fail(&e))?;
        let channels = match (info.color_type, info.bit_depth) {
            (png::ColorType::Rgb, png::BitDepth::Eight) => 3,
            (png::ColorType::Rgba, png::BitDepth::Eight) => 4,
            (png::ColorType::Grayscale, png::BitDepth::Eight) => 1,
            (png::ColorType::GrayscaleAlpha, png::BitDepth::Eight) => 2,
            other => return Err(fail(&format!("unexpected pixel format {other:?}"))),
        };
        let rgb = buf[..info.buffer_size()]
            .chunks_exact(channels)
            .flat_map(|p| match channels {
                1 | 2 => [p[0], p[0], p[0]],
                _ => [p[0], p[1], p[2]],
            })
            .collect();
        Ok(Image {
            width: info.width,
            height: info.height,
            rgb,
        })
    }

    /// How many pixels in the rectangle from `(x0, y0)` to `(x1, y1)` (exclusive) are within
    /// `tolerance` of `colour` in every channel.
    pub fn count(
        &self,
        (x0, y0, x1, y1): (u32, u32, u32, u32),
        colour: [u8; 3],
        tolerance: u8,
    ) -> usize {
        let mut n = 0;
        for y in y0..y1.min(self.height) {
            for x in x0..x1.min(self.width) {
                let i = ((y * self.width + x) * 3) as usize;
                if (0..3).all(|c| self.rgb[i + c].abs_diff(colour[c]) <= tolerance) {
                    n += 1;
                }
            }
        }
        n
    }
}

/// A screenshot of the whole of `display`, as PNG at `path`.
pub fn screenshot(display: &str, path: &Path) -> Result<(), String> {
    let target = path.to_str().ok_or("the screenshot path is not UTF-8")?;
    let out = run_on(display, "import", &["-window", "root", target])?;
    succeeded("import (ImageMagick)", out)
}

/// A private Wayland compositor: Weston's headless backend, stopped when dropped. It draws
/// with its software renderer (pixman) and allows its debug protocols, so
/// `weston-screenshooter` can read back what it shows.
pub struct Weston {
    child: Child,
    socket: String,
    runtime: PathBuf,
}

impl Weston {
    /// Starts Weston on a socket of its own in `runtime` (a private `XDG_RUNTIME_DIR`), with
    /// one output of `width` x `height`, and waits for the socket to appear.
    pub fn start(runtime: &Path, width: u32, height: u32) -> Result<Weston, String> {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let socket = format!("looplab-{}-{n}", std::process::id());
        let log = std::fs::File::create(runtime.join(format!("{socket}.log")))
            .map_err(|e| format!("cannot create Weston's log in {}: {e}", runtime.display()))?;
        let child = ends_with_us(&mut Command::new("weston"))
            .args([
                "--backend=headless-backend.so",
                &format!("--socket={socket}"),
                &format!("--width={width}"),
                &format!("--height={height}"),
                "--use-pixman",
                "--debug",
                "--idle-time=0",
            ])
            .env("XDG_RUNTIME_DIR", runtime)
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .map_err(|e| format!("cannot start weston ({e}); install the weston package"))?;
        let mut weston = Weston {
            child,
            socket,
            runtime: runtime.to_path_buf(),
        };
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while !runtime.join(&weston.socket).exists() {
            if let Ok(Some(status)) = weston.child.try_wait() {
                return Err(format!(
                    "weston exited ({status}) before opening its socket: {}",
                    weston.log()
                ));
            }
            if std::time::Instant::now() > deadline {
                return Err(format!("weston opened no socket in 10 s: {}", weston.log()));
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        Ok(weston)
    }

    /// The socket name, for `WAYLAND_DISPLAY`.
    pub fn socket(&self) -> &str {
        &self.socket
    }

    /// Its runtime directory, for `XDG_RUNTIME_DIR`.
    pub fn runtime_dir(&self) -> &Path {
        &self.runtime
    }

    /// What Weston has logged so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.runtime.join(format!("{}.log", self.socket)))
            .unwrap_or_default()
    }

    /// A screenshot of its output as PNG, with `weston-screenshooter`.
    pub fn screenshot(&self, path: &Path) -> Result<(), String> {
        let dir = self.runtime.join("shots");
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        let out = Command::new("weston-screenshooter")
            .current_dir(&dir)
            .env("XDG_RUNTIME_DIR", &self.runtime)
            .env("WAYLAND_DISPLAY", &self.socket)
            .env_remove("DISPLAY")
            .output()
            .map_err(|e| {
                format!("cannot run weston-screenshooter ({e}); install the weston package")
            })?;
        let shot = std::fs::read_dir(&dir)
            .ok()
            .and_then(|mut entries| entries.find_map(|e| e.ok()).map(|e| e.path()))
            .ok_or_else(|| {
                format!(
                    "weston-screenshooter wrote nothing: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                )
            })?;
        std::fs::rename(&shot, path)
            .or_else(|_| std::fs::copy(&shot, path).map(|_| ()))
            .map_err(|e| format!("cannot move the screenshot to {}: {e}", path.display()))
    }
}

impl Drop for Weston {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
        scratches().push(dir.clone());
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
        scratches().retain(|d| d != &self.dir);
    }
}

/// Gives this process a private `XDG_RUNTIME_DIR` at `dir` (made, mode 0700) when it has
/// none, before it opens a GPU of its own.
///
/// Lavapipe's Vulkan driver comes with Mesa's device-selection layer, which looks for a
/// Wayland compositor each time an instance lists its adapters; with no runtime directory,
/// libwayland prints `error: XDG_RUNTIME_DIR is invalid or not set` each time, and a test
/// run's output (or the bench's report) carries error lines where nothing failed. Only the
/// first call sets it; later ones return what it did.
pub fn private_runtime_dir(dir: &Path) -> Result<(), String> {
    static SET: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let given = std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).is_dir());
        if given {
            return Ok(());
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| format!("cannot make {} private: {e}", dir.display()))?;
        }
        // SAFETY: this runs once, and before the caller opens a GPU: the code that reads the
        // environment outside std's lock (the Vulkan loader, Mesa, libwayland) runs only
        // in the GPU the callers open after this returns, and threads that arrive meanwhile
        // wait here for it.
        unsafe { std::env::set_var("XDG_RUNTIME_DIR", dir) };
        Ok(())
    })
    .clone()
}

/// The scratch directories in use: a signal that ends the process at once leaves no
/// destructor to remove them.
fn scratches() -> MutexGuard<'static, Vec<PathBuf>> {
    static IN_USE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    IN_USE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every scratch directory in use: the process is about to end on a signal, and
/// no destructor will run.
pub fn remove_scratches() {
    for dir in scratches().drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
}
