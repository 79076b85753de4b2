//! `cargo +nightly fuzz run command_line`: the command_line reader on whatever libFuzzer makes of the
//! seeds in `fuzz/seeds/command_line`: a value or one line, never a panic.

#![no_main]

use libfuzzer_sys::fuzz_target;
use looplab::untrusted::Reader;

fuzz_target!(|data: &[u8]| Reader::CommandLine.check(data));
