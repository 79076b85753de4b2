//! A static server for the built page (or the book, the page inside it), on a loopback
//! port, on a thread of its own.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::thread::JoinHandle;

use tiny_http::{Header, Response, Server};

/// A running server; it stops when dropped.
pub struct PageServer {
    server: Arc<Server>,
    thread: Option<JoinHandle<()>>,
    port: u16,
}

impl PageServer {
    /// Serves `dir` on 127.0.0.1:`port` (0: any free port).
    pub fn start(dir: &Path, port: u16) -> Result<PageServer, String> {
        Self::start_with(dir, port, None)
    }

    /// Serves `dir` with a display the test drives: the page's frame callbacks come from
    /// [`driven_display`]'s timer at `hz`, in place of the browser's own, so a test that
    /// checks a rate knows the rate it was given, however busy the machine.
    pub fn start_driven(dir: &Path, hz: f64) -> Result<PageServer, String> {
        Self::start_with(dir, 0, Some(driven_display(hz)))
    }

    /// Serves `dir`, with `head` (a script) put first in the page's head where given.
    fn start_with(dir: &Path, port: u16, head: Option<String>) -> Result<PageServer, String> {
        let server = Server::http(("127.0.0.1", port))
            .map_err(|e| format!("cannot serve on 127.0.0.1:{port}: {e}"))?;
        let port = server
            .server_addr()
            .to_ip()
            .map_or(port, |addr| addr.port());
        let server = Arc::new(server);
        let serving = Arc::clone(&server);
        let dir = dir.to_path_buf();
        let thread = std::thread::spawn(move || {
            // Each request is answered on a thread of its own: a browser that has not yet
            // read one response (the wasm, while it compiles what came) must not hold up
            // the files it asks for meanwhile.
            for request in serving.incoming_requests() {
                let (dir, head) = (dir.clone(), head.clone());
                std::thread::spawn(move || {
                    let response = respond(&dir, request.url(), head.as_deref());
                    let _ = request.respond(response);
                });
            }
        });
        Ok(PageServer {
            server,
            thread: Some(thread),
            port,
        })
    }

    /// The page's address, with `query` (`a=1&b=2`, or empty).
    pub fn url(&self, query: &str) -> String {
        let q = if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        };
        format!("http://127.0.0.1:{}/index.html{q}", self.port)
    }

    /// The address of `path` in the served folder (`explore.html?backend=webgl`).
    pub fn at(&self, path: &str) -> String {
        format!(
            "http://127.0.0.1:{}/{}",
            self.port,
            path.trim_start_matches('/')
        )
    }
}

impl Drop for PageServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A script that calls the page's frame callbacks (`requestAnimationFrame`) from a timer
/// on a fixed grid of `hz`, as a display refreshing at that rate would: each callback
/// asked for is called at the next tick, with the time it came; a tick the page's own work
/// held up is called late and the grid kept, the ticks it overran skipped (a refresh
/// missed).
pub fn driven_display(hz: f64) -> String {
    format!(
        "<script>(() => {{
  const period = 1000 / {hz};
  let waiting = new Map(), id = 0, next = performance.now() + period;
  const tick = () => {{
    const due = waiting;
    waiting = new Map();
    for (const callback of due.values()) callback(performance.now());
    next += period;
    while (next <= performance.now()) next += period;
    setTimeout(tick, next - performance.now());
  }};
  window.requestAnimationFrame = (callback) => {{ waiting.set(++id, callback); return id; }};
  window.cancelAnimationFrame = (asked) => {{ waiting.delete(asked); }};
  setTimeout(tick, period);
}})();</script>"
    )
}

/// The file a request names, under `dir` only; the page with `head` put first in its head.
fn respond(dir: &Path, url: &str, head: Option<&str>) -> Response<std::io::Cursor<Vec<u8>>> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let path = if path == "/" { "/index.html" } else { path };
    let Some(file) = inside(dir, path) else {
        return Response::from_string("not found").with_status_code(404);
    };
    match std::fs::read(&file) {
        Ok(mut bytes) => {
            if let Some(head) = head.filter(|_| path == "/index.html") {
                let page = String::from_utf8_lossy(&bytes).replacen(
                    "<head>",
                    &format!("<head>\n{head}"),
                    1,
                );
                bytes = page.into_bytes();
            }
            let kind = match file.extension().and_then(|e| e.to_str()) {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                // Needed for the browser to compile the wasm as it streams in.
                Some("wasm") => "application/wasm",
                Some("png") => "image/png",
                // The book's.
                Some("css") => "text/css; charset=utf-8",
                Some("gif") => "image/gif",
                Some("svg") => "image/svg+xml",
                Some("json") => "application/json",
                Some("woff2") => "font/woff2",
                _ => "application/octet-stream",
            };
            let header = |name: &str, value: &str| {
                Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
            };
            Response::from_data(bytes)
                .with_header(header("Content-Type", kind))
                .with_header(header("Cache-Control", "no-store"))
                // Cross-origin isolation: the page's clock (performance.now) reads to 5 µs
                // rather than 100 µs, which the frame-pacing figures want. A host without
                // these headers serves a page that works the same, on a coarser clock.
                .with_header(header("Cross-Origin-Opener-Policy", "same-origin"))
                .with_header(header("Cross-Origin-Embedder-Policy", "require-corp"))
        }
        Err(_) => Response::from_string("not found").with_status_code(404),
    }
}

/// `dir` joined with the request's path, unless the path climbs out of it.
fn inside(dir: &Path, path: &str) -> Option<PathBuf> {
    let relative = Path::new(path.trim_start_matches('/'));
    relative
        .components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| dir.join(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_stay_inside_the_served_folder() {
        let dir = Path::new("/srv/page");
        assert_eq!(inside(dir, "/index.html"), Some(dir.join("index.html")));
        assert_eq!(inside(dir, "/../etc/passwd"), None);
        assert_eq!(inside(dir, "/a/../../b"), None);
    }
}
