//! Looplab's project tasks, kept out of the app: the browser build (`cargo xtask web
//! build`), a server for it (`web serve`), and a kit that drives headless Chromium through
//! WebDriver, which the page's tests, its screenshot (`web screenshot`) and its measurements
//! (`web measure`) share; `shape`, the figures a refactor of the source tree is judged by;
//! and `book`, the book in `docs/` built with mdBook, the page inside it for its live
//! views, and its links, headings and views checked.
//!
//! A `cargo xtask`, as wgpu's repository has, rather than `trunk`: trunk downloads
//! wasm-bindgen and wasm-opt from GitHub by default (not reachable from every build machine)
//! and is a large tool to install, while the build is three steps: cargo, wasm-bindgen (the
//! CLI at the lock file's version) and binaryen's wasm-opt.

pub mod book;
pub mod browser;
pub mod build;
pub mod captures;
pub mod measure;
pub mod serve;
pub mod shape;
pub mod site;
pub mod views;

use std::path::PathBuf;

/// The workspace's root directory.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default()
}
