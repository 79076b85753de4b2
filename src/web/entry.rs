//! The page's entry point: the same window in a browser, where the browser owns the loop
//! (see [`crate::app::driver::page`]). The page's address carries the window's options
//! ([`crate::web::address`]); logs and panics go to the browser's console; and the page's
//! script gets `looplabStats()` (the run so far, as JSON), `looplabKernel(bullets)` (the
//! planner's and the world's cost in this browser) and `looplabLoseDevice()` (a test hook:
//! the GPU device destroyed).
//!
//! In the book, the page is its embedded views' one module: a view's canvas says which
//! stop it shows (`data-stop`), and the book's script moves the one canvas to the view in
//! sight and calls `looplabLessons()` (every stop, as JSON), `looplabLesson()` (the stop
//! as it stands), `looplabVisit(id)` and `looplabPress(key)`.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::app::driver::page;
use crate::web::address::page_options;

/// Starts Looplab in the page; the browser's event loop runs it from here.
pub fn start() {
    console_error_panic_hook::set_once();
    ConsoleLog::install();
    let mut query = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    // A canvas of the book's says which stop its view shows.
    if let Some(stop) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(page::CANVAS_ID))
        .and_then(|canvas| canvas.get_attribute("data-stop"))
    {
        query = format!("{query}&embed={stop}");
    }
    let started = page_options(&query).and_then(|o| page::spawn(o.app, o.webgl_only));
    if let Err(failure) = started {
        page::show_failure(&failure.message);
    }
}

/// The run so far as JSON (`null` before it has started): see
/// [`PageStats`](crate::app::driver::page::PageStats).
#[wasm_bindgen(js_name = looplabStats)]
pub fn stats() -> String {
    page::stats_json()
}

/// Every stop of the tour as the book's views show it, as JSON
/// ([`LessonCard`](crate::app::lessons::LessonCard)s).
#[wasm_bindgen(js_name = looplabLessons)]
pub fn lessons() -> String {
    serde_json::to_string(&crate::app::lessons::catalogue()).unwrap_or_default()
}

/// The tour's current stop as it stands, as JSON (`null` off the tour): see
/// [`LessonNow`](crate::app::lessons::LessonNow).
#[wasm_bindgen(js_name = looplabLesson)]
pub fn lesson() -> String {
    page::lesson_json()
}

/// Goes to the tour's stop `id`: the book's view of it has scrolled into sight. Returns
/// why not, or an empty string.
#[wasm_bindgen(js_name = looplabVisit)]
pub fn visit(id: String) -> String {
    page::command(page::ViewCommand::Visit(id))
        .err()
        .unwrap_or_default()
}

/// Presses and lets go of the key the help names `key` (`Shift+R`, `A`): a view's button.
/// Returns why not, or an empty string.
#[wasm_bindgen(js_name = looplabPress)]
pub fn press(key: String) -> String {
    page::command(page::ViewCommand::Press(key))
        .err()
        .unwrap_or_default()
}

/// Destroys the GPU device (a test hook: see [`page::lose_device`]).
#[wasm_bindgen(js_name = looplabLoseDevice)]
pub fn lose_device() {
    page::lose_device();
}

/// Times the planner and a world of `bullets` here, as `looplab bench --kernel` does
/// natively, and returns the costs as JSON.
#[wasm_bindgen(js_name = looplabKernel)]
pub fn kernel(bullets: usize) -> String {
    serde_json::to_string(&crate::bench::kernel::kernel(bullets)).unwrap_or_default()
}

/// Log records to the browser's console, each at its own level (errors as
/// `console.error`). The GPU crates speak only from warnings up, as they do natively.
struct ConsoleLog;

impl ConsoleLog {
    fn install() {
        static LOGGER: ConsoleLog = ConsoleLog;
        if log::set_logger(&LOGGER).is_ok() {
            log::set_max_level(log::LevelFilter::Info);
        }
    }
}

impl log::Log for ConsoleLog {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        let quiet = ["wgpu", "naga", "winit"]
            .iter()
            .any(|c| metadata.target().starts_with(c));
        metadata.level()
            <= if quiet {
                log::Level::Warn
            } else {
                log::Level::Info
            }
    }

    fn log(&self, record: &log::Record) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let line =
            wasm_bindgen::JsValue::from_str(&format!("{}: {}", record.target(), record.args()));
        match record.level() {
            log::Level::Error => web_sys::console::error_1(&line),
            log::Level::Warn => web_sys::console::warn_1(&line),
            log::Level::Info => web_sys::console::info_1(&line),
            _ => web_sys::console::debug_1(&line),
        }
    }

    fn flush(&self) {}
}
