//! `cargo +nightly fuzz run key_script`: the key_script reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/key_script`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::KeyScript.check(data));
