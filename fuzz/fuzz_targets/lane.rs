//! `cargo +nightly fuzz run lane`: the lane reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/lane`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::Lane.check(data));
