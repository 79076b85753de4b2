//! Every reader of user input ([`Reader::ALL`]) on thousands of inputs no one wrote by hand:
//! arbitrary text, and the project's own files (`fuzz/seeds`, the fuzz targets' corpus)
//! mutated byte by byte. Each input must give a value or one line that says what is wrong,
//! never a panic, within a second, and without allocating more than a bounded amount: a
//! counting allocator measures the peak each read reaches on its thread.
//!
//! The fuzz targets (`fuzz/`, nightly Rust and cargo-fuzz) run the same check for as long
//! as one likes; this runs a bounded sample on every `cargo test`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;
use std::time::{Duration, Instant};

use looplab::untrusted::Reader;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// The allocator, counting the bytes live on each thread and their peak.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn grew(by: isize) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + by;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

// SAFETY: every call is passed to the system allocator unchanged; the counters only read
// the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        grew(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            grew(new_size as isize - layout.size() as isize);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The most a read may allocate beyond what was live when it began: a fixed allowance for
/// clap's and serde's own tables, and a multiple of the input.
fn allowance(input: &str) -> isize {
    (8 << 20) + 64 * input.len() as isize
}

/// The seed files of `reader`, as text.
fn seeds(reader: Reader) -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(reader.name());
    let mut seeds: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    seeds.sort();
    assert!(!seeds.is_empty(), "no seeds in {}", dir.display());
    seeds
}

/// Reads `input` with `reader` and holds the answer to the rule.
fn read_within_bounds(reader: Reader, input: &str) -> Result<(), TestCaseError> {
    let before = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(before));
    let began = Instant::now();
    let answer = reader.read(input);
    let took = began.elapsed();
    let grew = PEAK.with(Cell::get) - before;
    if let Err(message) = &answer {
        prop_assert!(
            !message.trim().is_empty() && !message.contains('\n'),
            "{}: not one line: {message:?} for {input:?}",
            reader.name()
        );
    }
    prop_assert!(
        took < Duration::from_secs(1),
        "{}: {took:?} for {} bytes",
        reader.name(),
        input.len()
    );
    prop_assert!(
        grew <= allowance(input),
        "{}: {grew} bytes allocated for {} bytes of input",
        reader.name(),
        input.len()
    );
    Ok(())
}

/// An edit of a seed: at a position (a fraction of its length), remove some bytes and put
/// some in (drawn from what the formats are made of).
fn edits() -> impl Strategy<Value = Vec<(f64, usize, String)>> {
    let piece = prop_oneof![
        Just(String::new()),
        "[0-9]{1,20}",
        "[-+.eE:/,=@%&?{}\\[\\]\" ]{1,3}",
        "(ms|s|µs|ns|Hz|hz|inf|NaN|null|true|false|off|on)",
        any::<char>().prop_map(String::from),
        "\\PC{1,8}",
    ];
    prop::collection::vec((0.0..1.0f64, 0usize..8, piece), 1..6)
}

/// `seed` with `edits` made, at character boundaries.
fn mutate(seed: &str, edits: &[(f64, usize, String)]) -> String {
    let mut text: Vec<char> = seed.chars().collect();
    for (at, remove, insert) in edits {
        let i = ((text.len() as f64) * at) as usize;
        let end = (i + remove).min(text.len());
        text.splice(i..end, insert.chars());
    }
    text.into_iter().collect()
}

/// `cases` arbitrary texts and `cases` mutated seeds through `reader`.
fn hold_to_the_rule(reader: Reader, cases: u32) {
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config.clone());
    runner
        .run(&"\\PC{0,400}|[ -~]{0,400}", |input| {
            read_within_bounds(reader, &input)
        })
        .unwrap_or_else(|e| panic!("{}: arbitrary text: {e}", reader.name()));
    let seeds = seeds(reader);
    for seed in &seeds {
        read_within_bounds(reader, seed).unwrap();
    }
    let mut runner = TestRunner::new(config);
    runner
        .run(&(0..seeds.len(), edits()), |(i, edits)| {
            read_within_bounds(reader, &mutate(&seeds[i], &edits))
        })
        .unwrap_or_else(|e| panic!("{}: mutated seeds: {e}", reader.name()));
}

#[test]
fn a_recording_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::Recording, 2000);
}

#[test]
fn a_trace_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::Trace, 2000);
}

#[test]
fn a_capture_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::Capture, 2000);
}

#[test]
fn a_key_script_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::KeyScript, 2000);
}

#[test]
fn a_profile_list_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::Profiles, 2000);
}

#[test]
fn a_lane_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::Lane, 2000);
}

#[test]
fn a_command_line_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::CommandLine, 2000);
}

#[test]
fn a_page_address_gives_a_value_or_one_line() {
    hold_to_the_rule(Reader::PageQuery, 2000);
}

#[test]
fn every_reader_has_seeds_and_a_test_here() {
    for reader in Reader::ALL {
        assert!(!seeds(reader).is_empty(), "{reader:?}");
    }
    assert_eq!(Reader::ALL.len(), 8, "a new reader needs its test above");
}

#[test]
fn files_too_large_or_endless_are_refused_without_being_read() {
    let dir = std::env::temp_dir().join(format!("looplab-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A gigabyte, sparse: nothing on the disk, and nothing read past the limit.
    let big = dir.join("big.jsonl");
    std::fs::File::create(&big)
        .unwrap()
        .set_len(1 << 30)
        .unwrap();
    let looplab = env!("CARGO_BIN_EXE_looplab");
    let runs: [(&[&str], &str); 4] = [
        (&["lab", "--trace"], "the 256 MiB"),
        (&["lab", "--capture"], "the 512 MiB"),
        (&["--replay"], "the 64 MiB"),
        (&["lab", "--replay"], "the 64 MiB"),
    ];
    for (args, limit) in runs {
        for file in [big.as_path(), Path::new("/dev/zero")] {
            let began = Instant::now();
            let out = std::process::Command::new(looplab)
                .args(args)
                .arg(file)
                .env_remove("DISPLAY")
                .env_remove("WAYLAND_DISPLAY")
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?} {file:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(limit), "{args:?} {file:?}: {err}");
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "{args:?} {file:?}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
