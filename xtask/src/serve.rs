//! A static server for the built page, on a loopback port, on a thread of its own.

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
            for request in serving.incoming_requests() {
                let response = respond(&dir, request.url());
                let _ = request.respond(response);
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
}

impl Drop for PageServer {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The file a request names, under `dir` only.
fn respond(dir: &Path, url: &str) -> Response<std::io::Cursor<Vec<u8>>> {
    let path = url.split(['?', '#']).next().unwrap_or("/");
    let path = if path == "/" { "/index.html" } else { path };
    let Some(file) = inside(dir, path) else {
        return Response::from_string("not found").with_status_code(404);
    };
    match std::fs::read(&file) {
        Ok(bytes) => {
            let kind = match file.extension().and_then(|e| e.to_str()) {
                Some("html") => "text/html; charset=utf-8",
                Some("js") => "text/javascript; charset=utf-8",
                // Needed for the browser to compile the wasm as it streams in.
                Some("wasm") => "application/wasm",
                Some("png") => "image/png",
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
