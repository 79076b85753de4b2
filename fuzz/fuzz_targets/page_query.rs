//! `cargo +nightly fuzz run page_query`: the page_query reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/page_query`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::PageQuery.check(data));
