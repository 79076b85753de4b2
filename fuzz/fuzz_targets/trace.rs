//! `cargo +nightly fuzz run trace`: the trace reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/trace`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::Trace.check(data));
