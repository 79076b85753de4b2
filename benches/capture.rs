//! Reading a capture against replaying it: a PresentMon capture of 100,000 frames (written
//! by Looplab's own PresentMon writer from a modelled session of 6-10 ms frames), read as
//! `looplab lab --capture` reads it, then replayed as it replays it: every strategy and
//! delta mode, for as long as the capture ran. Reading should cost at most a tenth of the
//! replay; the ratio is measured in the same run, so a busy machine slows both.
//!
//! `cargo bench --bench capture`

use std::time::{Duration, Instant};

use looplab::capture::Capture;
use looplab::capture::summary::Summary;
use looplab::capture::write::presentmon_v1;
use looplab::lab::profile::Profile;
use looplab::lab::{LabOptions, run_lab};
use looplab::session::trace::{Trace, TraceFrame, TraceHeader};
use looplab::text::settings::DeltaKind;

const FRAMES: u64 = 100_000;

/// A session of `FRAMES` frames of 6-10 ms (a fixed pseudo-random sequence).
fn session() -> Trace {
    let mut state = 0x5eed_u64;
    let mut t = 0u64;
    let frames = (0..FRAMES)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let work = 6_000_000 + (state >> 33) % 4_000_000;
            let frame = TraceFrame {
                start_ns: t,
                wait_ns: 0,
                updates: 1,
                update_ns: 200_000,
                redraw_wait_ns: 0,
                acquire_ns: 100_000,
                render_ns: work,
                present_ns: 300_000,
                presented_ns: t + work + 600_000,
                game_ns: t,
                animation_ns: t,
                behind_ns: 0,
            };
            t += work + 600_000;
            frame
        })
        .collect();
    Trace {
        header: TraceHeader::interpolated_60hz(1000),
        frames,
    }
}

fn main() {
    let text = presentmon_v1(&session(), "game.exe", 4242);
    // Reading: the best of five, as the reader's own cost.
    let mut read = Duration::MAX;
    let mut capture = None;
    for _ in 0..5 {
        let began = Instant::now();
        let c = Capture::read(text.as_bytes(), None).expect("the capture reads");
        let summary = Summary::of(&c, None);
        read = read.min(began.elapsed());
        capture = Some((c, summary));
    }
    let (capture, summary) = capture.expect("read five times");
    // Replaying: what `looplab lab --capture` runs.
    let options = LabOptions {
        profiles: vec![Profile::from_capture("capture", &capture, &summary)],
        duration: capture.span(),
        deltas: DeltaKind::ALL.to_vec(),
        ..LabOptions::default()
    };
    let began = Instant::now();
    let report = run_lab(&options);
    let replay = began.elapsed();
    println!(
        "capture: {} frames, {:.1} MB, {:.0} s of frames\n\
         read (best of 5):   {:>9.1} ms\n\
         replay ({} runs):  {:>9.1} ms\n\
         read / replay:      {:>9.4} (target at most 0.1)",
        summary.frames,
        text.len() as f64 / 1e6,
        summary.span_seconds,
        read.as_secs_f64() * 1e3,
        report.runs.len(),
        replay.as_secs_f64() * 1e3,
        read.as_secs_f64() / replay.as_secs_f64()
    );
}
