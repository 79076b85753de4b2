//! A static server for the built page (or the book, the page inside it), on a loopback
//! port, on a thread of its own.
//!
//! It is written on the standard library's sockets: one thread per connection, one request
//! per connection (`Connection: close`), so no request can wait on another. A server that
//! hands keep-alive connections to a pool of threads can leave one unread while the others
//! stay open: tiny_http 0.12 does, and with six connections opened at once, as Chromium
//! opens them for a chapter of the book, two of the six got no answer on a fresh server,
//! and the chapter never finished loading.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

/// How long a connection may take to send its request, or to read what it is sent: a
/// browser that opened a connection and then forgot it does not keep its thread for ever.
const PATIENCE: Duration = Duration::from_secs(30);

/// The longest request head read: a browser's is under 2 KB.
const LONGEST_HEAD: u64 = 64 * 1024;

/// A running server; it stops when dropped.
pub struct PageServer {
    stopping: Arc<AtomicBool>,
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
        let listener = TcpListener::bind(("127.0.0.1", port))
            .map_err(|e| format!("cannot serve on 127.0.0.1:{port}: {e}"))?;
        let port = listener.local_addr().map_or(port, |addr| addr.port());
        let stopping = Arc::new(AtomicBool::new(false));
        let stop = Arc::clone(&stopping);
        let site = Arc::new(Site {
            dir: dir.to_path_buf(),
            head,
        });
        let thread = std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stop.load(Ordering::Acquire) {
                    break;
                }
                let Ok(stream) = stream else { continue };
                let site = Arc::clone(&site);
                std::thread::spawn(move || site.answer(stream));
            }
        });
        Ok(PageServer {
            stopping,
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
        self.stopping.store(true, Ordering::Release);
        // A connection of its own wakes the accepting thread, which then sees it is to stop.
        if TcpStream::connect(("127.0.0.1", self.port)).is_ok()
            && let Some(t) = self.thread.take()
        {
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

/// What is served, and how.
struct Site {
    dir: PathBuf,
    /// A script put first in the page's head (`index.html`), where given.
    head: Option<String>,
}

/// An answer: its status, its content type and its body.
struct Reply {
    status: u16,
    kind: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn text(status: u16, text: &str) -> Reply {
        Reply {
            status,
            kind: "text/plain; charset=utf-8",
            body: text.as_bytes().to_vec(),
        }
    }
}

impl Site {
    /// Reads the one request on `stream`, answers it and closes the connection.
    fn answer(&self, mut stream: TcpStream) {
        let _ = stream.set_read_timeout(Some(PATIENCE));
        let _ = stream.set_write_timeout(Some(PATIENCE));
        let Some((method, target)) = request_line(&stream) else {
            return;
        };
        let reply = match method.as_str() {
            "GET" | "HEAD" => self.reply(&target),
            _ => Reply::text(405, "only GET and HEAD are served here"),
        };
        let _ = send(&mut stream, &reply, method == "HEAD");
        // A graceful close: say the reply is whole, then read whatever the browser still
        // sends, so that closing with bytes unread does not reset the connection and cut
        // the reply short.
        let _ = stream.shutdown(Shutdown::Write);
        let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
        let _ = std::io::copy(&mut (&stream).take(LONGEST_HEAD), &mut std::io::sink());
    }

    /// The file `target` names, under the served folder only; the page with its head
    /// script put first in its head.
    fn reply(&self, target: &str) -> Reply {
        let path = target.split(['?', '#']).next().unwrap_or("/");
        let path = if path == "/" { "/index.html" } else { path };
        let Some(file) = inside(&self.dir, path) else {
            return Reply::text(404, "not found");
        };
        let Ok(mut body) = std::fs::read(&file) else {
            return Reply::text(404, "not found");
        };
        if let Some(head) = self.head.as_deref().filter(|_| path == "/index.html") {
            let page =
                String::from_utf8_lossy(&body).replacen("<head>", &format!("<head>\n{head}"), 1);
            body = page.into_bytes();
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
            Some("webp") => "image/webp",
            Some("svg") => "image/svg+xml",
            Some("json") => "application/json",
            Some("woff2") => "font/woff2",
            _ => "application/octet-stream",
        };
        Reply {
            status: 200,
            kind,
            body,
        }
    }
}

/// The method and target of the request on `stream`, once its whole head has come.
fn request_line(stream: &TcpStream) -> Option<(String, String)> {
    let mut reader = BufReader::new(stream.take(LONGEST_HEAD));
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let mut words = first.split_whitespace();
    let (method, target) = (words.next()?.to_string(), words.next()?.to_string());
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if line.trim_end().is_empty() {
            return Some((method, target));
        }
    }
}

/// Writes `reply` as an HTTP/1.1 response that closes its connection.
fn send(stream: &mut TcpStream, reply: &Reply, head_only: bool) -> std::io::Result<()> {
    let reason = match reply.status {
        200 => "OK",
        404 => "Not Found",
        _ => "Method Not Allowed",
    };
    let head = format!(
        "HTTP/1.1 {} {reason}\r\n\
         Content-Type: {}\r\n\
         Content-Length: {}\r\n\
         Connection: close\r\n\
         Cache-Control: no-store\r\n\
         Cross-Origin-Opener-Policy: same-origin\r\n\
         Cross-Origin-Embedder-Policy: require-corp\r\n\r\n",
        reply.status,
        reply.kind,
        reply.body.len()
    );
    // Cross-origin isolation (the last two headers): the page's clock (performance.now)
    // reads to 5 µs rather than 100 µs, which the frame-pacing figures want. A host without
    // them serves a page that works the same, on a coarser clock.
    stream.write_all(head.as_bytes())?;
    if !head_only {
        stream.write_all(&reply.body)?;
    }
    stream.flush()
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

    /// A folder of its own for a test's files, removed when dropped.
    struct Folder(PathBuf);

    impl Folder {
        fn new(name: &str, files: &[(&str, &str)]) -> Folder {
            let dir =
                std::env::temp_dir().join(format!("looplab-serve-{}-{name}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            for (file, text) in files {
                std::fs::write(dir.join(file), text).unwrap();
            }
            Folder(dir)
        }
    }

    impl Drop for Folder {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Sends `request` on a connection of its own; what came back before the server closed it.
    fn exchange(server: &PageServer, request: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut got = String::new();
        stream.read_to_string(&mut got).unwrap();
        got
    }

    #[test]
    fn every_connection_a_browser_opens_at_once_is_answered() {
        let folder = Folder::new("at-once", &[("a.js", "let a = 1;")]);
        let server = PageServer::start(&folder.0, 0).unwrap();
        // As Chromium opens a chapter's files: several keep-alive connections at once, each
        // with a request sent before any is answered.
        let mut streams: Vec<TcpStream> = (0..12)
            .map(|_| TcpStream::connect(("127.0.0.1", server.port)).unwrap())
            .collect();
        for stream in &mut streams {
            stream
                .write_all(b"GET /a.js HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n")
                .unwrap();
        }
        // Every one answered, read to the length it gives (not to its close: a server that
        // keeps connections alive must answer too)...
        let replies: Vec<String> = streams
            .iter_mut()
            .enumerate()
            .map(|(i, stream)| {
                reply_on(stream).unwrap_or_else(|e| panic!("connection {i} got no answer: {e}"))
            })
            .collect();
        for (i, got) in replies.iter().enumerate() {
            assert!(got.starts_with("HTTP/1.1 200 OK\r\n"), "{i}: {got}");
            assert!(
                got.contains("\r\nContent-Type: text/javascript"),
                "{i}: {got}"
            );
            assert!(got.ends_with("\r\n\r\nlet a = 1;"), "{i}: {got}");
            // ...and then closed.
            assert!(got.contains("\r\nConnection: close\r\n"), "{i}: {got}");
        }
    }

    /// One reply read from `stream`: its head, and its body to the length the head gives.
    fn reply_on(stream: &mut TcpStream) -> std::io::Result<String> {
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        let mut got = Vec::new();
        let mut byte = [0; 1];
        while !got.ends_with(b"\r\n\r\n") {
            stream.read_exact(&mut byte)?;
            got.push(byte[0]);
        }
        let head = String::from_utf8_lossy(&got).to_string();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        stream.read_exact(&mut body)?;
        Ok(head + &String::from_utf8_lossy(&body))
    }

    #[test]
    fn a_missing_file_a_head_request_and_the_driven_display() {
        let folder = Folder::new("kinds", &[("index.html", "<html><head></head></html>")]);
        let server = PageServer::start_driven(&folder.0, 30.0).unwrap();
        let missing = exchange(&server, "GET /nothing.js HTTP/1.1\r\n\r\n");
        assert!(
            missing.starts_with("HTTP/1.1 404 Not Found\r\n"),
            "{missing}"
        );
        let climbing = exchange(&server, "GET /../index.html HTTP/1.1\r\n\r\n");
        assert!(climbing.starts_with("HTTP/1.1 404"), "{climbing}");
        let posted = exchange(&server, "POST /index.html HTTP/1.1\r\n\r\n");
        assert!(posted.starts_with("HTTP/1.1 405"), "{posted}");
        let page = exchange(&server, "GET /?cap=30 HTTP/1.1\r\n\r\n");
        assert!(
            page.contains("<head>\n<script>(() => {\n  const period = 1000 / 30;"),
            "{page}"
        );
        let head = exchange(&server, "HEAD /index.html HTTP/1.1\r\n\r\n");
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("Content-Length: "))
            .and_then(|n| n.parse().ok())
            .unwrap();
        assert!(length > 50 && head.ends_with("\r\n\r\n"), "{head}");
    }
}
