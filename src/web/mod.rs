//! The page: the same window in a browser, where the browser owns the loop.
//!
//! - [`address`]: the page's address as the window's options, checked by the command
//!   line's parser (compiled everywhere, so the tests and the fuzz targets read addresses
//!   natively);
//! - `entry` (in the browser build only): the page's entry point, its console and the
//!   functions its script calls.

pub mod address;
#[cfg(target_arch = "wasm32")]
pub mod entry;
