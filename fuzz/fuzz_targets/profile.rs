//! `cargo +nightly fuzz run profile`: the profile reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/profile`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::Profiles.check(data));
