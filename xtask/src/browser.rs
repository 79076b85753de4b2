//! Headless Chromium driven through WebDriver: Debian's `chromium` and `chromium-driver`,
//! through fantoccini. The browser's counterpart of the window's headless kit (`crates/looplab-headless`):
//! the page's tests, its screenshot and its measurements all start the browser here.
//!
//! Without a GPU, Chromium draws WebGL2 with SwiftShader (ANGLE on its software Vulkan).
//! Its WebGPU needs flags to find an adapter there; [`Gpu::WebGpu`] passes the ones that work
//! in Debian's Chromium 156 (`--enable-unsafe-webgpu --enable-features=Vulkan
//! --use-vulkan=swiftshader --use-angle=swiftshader --enable-unsafe-swiftshader`).

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::wd::{Capabilities, WebDriverCompatibleCommand};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};

/// What to tell a person whose machine has no Chromium for the tests.
pub const NO_CHROMIUM_HELP: &str = "the page's tests need headless Chromium and its \
    WebDriver: sudo apt-get install chromium chromium-driver";

/// The GPU API the browser is started for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gpu {
    /// Chromium's defaults: no WebGPU adapter without a GPU, so the page draws with WebGL2.
    WebGl,
    /// WebGPU on SwiftShader.
    WebGpu,
}

impl Gpu {
    /// Chromium's flags for it, besides the headless ones.
    pub fn flags(self) -> &'static [&'static str] {
        match self {
            // SwiftShader on purpose: Chromium otherwise warns on the console that its
            // automatic fallback to software WebGL is deprecated.
            Gpu::WebGl => &["--use-angle=swiftshader", "--enable-unsafe-swiftshader"],
            Gpu::WebGpu => &[
                "--enable-unsafe-webgpu",
                "--enable-features=Vulkan",
                "--use-vulkan=swiftshader",
                "--use-angle=swiftshader",
                "--enable-unsafe-swiftshader",
            ],
        }
    }

    /// The backend the page reports when it draws with this.
    pub fn backend(self) -> &'static str {
        match self {
            Gpu::WebGl => "gl",
            Gpu::WebGpu => "webgpu",
        }
    }
}

/// A headless Chromium and the chromedriver that drives it; both end when this is dropped.
pub struct Browser {
    runtime: tokio::runtime::Runtime,
    client: Option<Client>,
    driver: Child,
}

/// A line of the browser's console.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConsoleLine {
    pub level: String,
    pub text: String,
}

impl Browser {
    /// Starts chromedriver and a headless Chromium through it, its window big enough for
    /// the 1280x720 canvas. A start that fails (on a busy machine Chromium can be slow to
    /// come up) is tried once more with a fresh chromedriver; the error names both tries.
    pub fn start(gpu: Gpu) -> Result<Browser, String> {
        Browser::start_scaled(gpu, 1.0)
    }

    /// The same, on a screen of `scale` device pixels per CSS pixel (a high-density
    /// display: Chromium's `--force-device-scale-factor`).
    pub fn start_scaled(gpu: Gpu, scale: f64) -> Result<Browser, String> {
        let chromium = find(&["chromium", "chromium-browser", "google-chrome"])
            .ok_or_else(|| NO_CHROMIUM_HELP.to_string())?;
        let chromedriver = find(&["chromedriver"]).ok_or_else(|| NO_CHROMIUM_HELP.to_string())?;
        let first = match Browser::start_once(&chromium, &chromedriver, gpu, scale) {
            Ok(browser) => return Ok(browser),
            Err(e) => e,
        };
        Browser::start_once(&chromium, &chromedriver, gpu, scale).map_err(|second| {
            format!("cannot start headless Chromium ({chromium}): {first}; tried again: {second}")
        })
    }

    fn start_once(
        chromium: &str,
        chromedriver: &str,
        gpu: Gpu,
        scale: f64,
    ) -> Result<Browser, String> {
        // Port 0: chromedriver takes a free port itself and names it in its banner, so no
        // other listener (the page's server, another test's browser) can race it for one.
        let mut driver = Command::new(chromedriver)
            .arg("--port=0")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {chromedriver}: {e}"))?;
        let port = match driver_port(&mut driver, Duration::from_secs(20)) {
            Ok(port) => port,
            Err(e) => {
                let _ = driver.kill();
                let _ = driver.wait();
                return Err(format!("{chromedriver}: {e}"));
            }
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start an async runtime: {e}"))?;
        // From here, dropping `browser` ends chromedriver.
        let mut browser = Browser {
            runtime,
            client: None,
            driver,
        };
        let scale = format!("--force-device-scale-factor={scale}");
        let mut args = vec![
            "--headless=new",
            "--no-sandbox",
            "--window-size=1400,1000",
            "--hide-scrollbars",
            &scale,
        ];
        args.extend(gpu.flags());
        let caps: Capabilities = serde_json::from_value(json!({
            "browserName": "chrome",
            "goog:chromeOptions": { "binary": chromium, "args": args },
            "goog:loggingPrefs": { "browser": "ALL" },
        }))
        .map_err(|e| e.to_string())?;
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let client = browser
            .runtime
            .block_on(
                ClientBuilder::new(connector)
                    .capabilities(caps)
                    .connect(&format!("http://127.0.0.1:{port}")),
            )
            .map_err(|e| e.to_string())?;
        browser.client = Some(client);
        Ok(browser)
    }

    fn client(&self) -> &Client {
        self.client
            .as_ref()
            .expect("the session is open until drop")
    }

    /// Opens `url`.
    pub fn goto(&self, url: &str) -> Result<(), String> {
        self.runtime
            .block_on(self.client().goto(url))
            .map_err(|e| format!("cannot open {url}: {e}"))
    }

    /// Runs `script` (a function body: `return ...`) in the page.
    pub fn eval(&self, script: &str) -> Result<Value, String> {
        self.runtime
            .block_on(self.client().execute(script, vec![]))
            .map_err(|e| format!("the page's script failed: {e}"))
    }

    /// The page's figures (`window.looplab.stats()`), or `Null` before it has started.
    pub fn stats(&self) -> Result<Value, String> {
        self.eval("return window.looplab ? window.looplab.stats() : null;")
    }

    /// Waits up to `timeout` for the page's figures to satisfy `ready`; says `what` was
    /// awaited, and the page's status line, if they do not.
    pub fn wait_for(
        &self,
        what: &str,
        timeout: Duration,
        ready: impl Fn(&Value) -> bool,
    ) -> Result<Value, String> {
        let started = Instant::now();
        loop {
            let stats = self.stats()?;
            if ready(&stats) {
                return Ok(stats);
            }
            if started.elapsed() > timeout {
                let status = self
                    .eval("const s = document.getElementById('looplab-status'); return s ? s.textContent : '';")
                    .unwrap_or_default();
                return Err(format!(
                    "waited {} s for {what}; page status {status}, console {:?}",
                    timeout.as_secs(),
                    self.console().unwrap_or_default()
                ));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Types `keys` into the page's canvas, as a person would after clicking it.
    pub fn press(&self, keys: &str) -> Result<(), String> {
        self.runtime
            .block_on(async {
                let canvas = self.client().find(Locator::Css("canvas")).await?;
                canvas.send_keys(keys).await
            })
            .map_err(|e| format!("cannot type {keys:?} into the page: {e}"))
    }

    /// Resizes the browser's window, as a person drags its corner.
    pub fn resize(&self, width: u32, height: u32) -> Result<(), String> {
        self.runtime
            .block_on(self.client().set_window_size(width, height))
            .map_err(|e| format!("cannot resize the browser's window: {e}"))
    }

    /// The canvas's rectangle in the viewport: x, y, width, height in CSS pixels.
    pub fn canvas_rect(&self) -> Result<(f64, f64, f64, f64), String> {
        self.runtime
            .block_on(async {
                let canvas = self.client().find(Locator::Css("canvas")).await?;
                canvas.rectangle().await
            })
            .map_err(|e| format!("cannot find the page's canvas: {e}"))
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Result<Vec<u8>, String> {
        self.runtime
            .block_on(self.client().screenshot())
            .map_err(|e| format!("cannot take a screenshot: {e}"))
    }

    /// Everything the console has been told since the last call: the browser's own log
    /// (chromedriver's) and what the page kept of its console (`window.looplabConsole`),
    /// which also holds what was thrown unhandled.
    pub fn console(&self) -> Result<Vec<ConsoleLine>, String> {
        let mut lines = Vec::new();
        let browser_log = self
            .runtime
            .block_on(self.client().issue_cmd(BrowserLog))
            .map_err(|e| format!("cannot read the browser's log: {e}"))?;
        for entry in browser_log.as_array().into_iter().flatten() {
            lines.push(ConsoleLine {
                level: entry["level"].as_str().unwrap_or("").to_lowercase(),
                text: entry["message"].as_str().unwrap_or("").to_string(),
            });
        }
        let page = self
            .eval("const c = window.looplabConsole || []; window.looplabConsole = []; return c;")?;
        for entry in page.as_array().into_iter().flatten() {
            lines.push(ConsoleLine {
                level: entry["level"].as_str().unwrap_or("").to_string(),
                text: entry["text"].as_str().unwrap_or("").to_string(),
            });
        }
        Ok(lines)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = self.runtime.block_on(client.close());
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// chromedriver's command for the browser's console log (`goog:loggingPrefs`).
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!("session/{}/se/log", session_id.unwrap_or("")))
    }

    fn method_and_body(&self, _url: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(r#"{"type":"browser"}"#.to_string()),
        )
    }
}

/// The first of `names` on the PATH.
fn find(names: &[&str]) -> Option<String> {
    let path = std::env::var_os("PATH")?;
    names.iter().find_map(|name| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|p| p.is_file())
            .map(|p| p.display().to_string())
    })
}

/// Reads chromedriver's banner until it names the port it listens on ("... started
/// successfully on port N."), then keeps draining its output on a thread so it never
/// blocks on a full pipe.
fn driver_port(driver: &mut Child, timeout: Duration) -> Result<u16, String> {
    let stdout = driver.stdout.take().ok_or("its output is not piped")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut sent = false;
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if !sent && let Some(port) = banner_port(&line) {
                let _ = tx.send(port);
                sent = true;
            }
        }
    });
    let waited = Instant::now();
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(port) => return Ok(port),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Err("it exited before it listened".to_string());
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Ok(Some(status)) = driver.try_wait() {
            return Err(format!("it exited ({status}) before it listened"));
        }
        if waited.elapsed() > timeout {
            return Err(format!("it did not listen in {} s", timeout.as_secs()));
        }
    }
}

/// The port in chromedriver's "started successfully on port N." line.
fn banner_port(line: &str) -> Option<u16> {
    let rest = line.split("started successfully on port ").nth(1)?;
    rest.trim_end().trim_end_matches('.').parse().ok()
}

/// A decoded screenshot.
pub struct Picture {
    pub width: u32,
    pub height: u32,
    /// RGBA, row by row.
    pub pixels: Vec<u8>,
}

impl Picture {
    /// Decodes a PNG (a screenshot: 8-bit RGB or RGBA).
    pub fn from_png(png_bytes: &[u8]) -> Result<Picture, String> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
        let mut buf = vec![0; reader.output_buffer_size().unwrap_or(0)];
        let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
        let channels = info.color_type.samples();
        let pixels = buf[..info.buffer_size()]
            .chunks(channels)
            .flat_map(|p| match p.len() {
                4 => [p[0], p[1], p[2], p[3]],
                3 => [p[0], p[1], p[2], 255],
                _ => [p[0], p[0], p[0], 255],
            })
            .collect();
        Ok(Picture {
            width: info.width,
            height: info.height,
            pixels,
        })
    }

    /// The colour at (x, y).
    pub fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.pixels[i], self.pixels[i + 1], self.pixels[i + 2]]
    }

    /// Within the rectangle (x, y, width, height): the share of pixels unlike `background`
    /// (by more than a little in any channel), and how many distinct colours there are.
    pub fn content(&self, rect: (u32, u32, u32, u32), background: [u8; 3]) -> (f64, usize) {
        let (x0, y0, w, h) = rect;
        let mut colours = std::collections::HashSet::new();
        let (mut unlike, mut all) = (0u64, 0u64);
        for y in y0..(y0 + h).min(self.height) {
            for x in x0..(x0 + w).min(self.width) {
                let c = self.at(x, y);
                all += 1;
                if c.iter().zip(background).any(|(&a, b)| a.abs_diff(b) > 12) {
                    unlike += 1;
                }
                colours.insert(c);
            }
        }
        (unlike as f64 / all.max(1) as f64, colours.len())
    }
}

#[cfg(test)]
mod tests {
    use super::banner_port;

    #[test]
    fn the_port_comes_from_chromedrivers_banner() {
        assert_eq!(
            banner_port("ChromeDriver was started successfully on port 35269."),
            Some(35269)
        );
        assert_eq!(
            banner_port("Starting ChromeDriver 156.0.8078.79 (a21c) on port 0"),
            None
        );
        assert_eq!(banner_port("Only local connections are allowed."), None);
    }
}
