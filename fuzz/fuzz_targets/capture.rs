//! `cargo +nightly fuzz run capture`: the capture reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/capture`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::Capture.check(data));
