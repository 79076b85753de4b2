//! `cargo +nightly fuzz run recording`: the recording reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/recording`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::Recording.check(data));
