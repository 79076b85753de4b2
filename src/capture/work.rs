//! What each of a capture's frames cost the machine: the game's work, never its waits.
//!
//! A capture's frame time (`MsBetweenPresents`) holds whatever the game waited for: under
//! vsync the refresh (inside the present call), behind a full queue the display, under a
//! frame limiter the limiter's sleep. Replayed as work, a wait makes every loop look as slow
//! as the game's own pacing made it. So a frame's cost is read from the columns that
//! measure work, the best the column set has:
//!
//! 1. the CPU's and the GPU's busy times (PresentMon 2.x `MsCPUBusy`/`CPUBusy` and
//!    `MsGPUBusy`/`GPUBusy`, CapFrameX's `CpuActive`/`GpuActive`), the larger, since the
//!    two work on different frames at once;
//! 2. else the CPU's part of the frame, from the end of the frame before's present call to
//!    the start of its own (`MsBetweenPresents` less the frame before's `MsInPresentAPI`:
//!    PresentMon's own CPU start), beside the GPU's (`msGPUActive` where the capture has
//!    it, else its render measured to when it completed, `MsUntilRenderComplete`, from the
//!    later of the present and the frame before's completion), the larger;
//! 3. else the frame time itself, which may hold waits (MangoHud has nothing else).
//!
//! A frame limiter that waits before the present (a game's own, or a driver's) leaves its
//! sleep in the CPU's columns: where one was told ([`super::limiter`]) and the CPU's part
//! sits at the cap, a frame the limiter held costs its GPU's work (a lower bound: the
//! capture cannot tell the CPU's work from the sleep), and a frame that overran the cap
//! costs what it took.

use super::limiter::Limiter;
use super::{Columns, CostFrom, Frame, Timeline};

/// Where the frames' costs came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Work {
    pub from: CostFrom,
    /// The columns, in words.
    pub columns: String,
    /// What the summary should say of them, where they are a bound rather than a measure.
    pub note: Option<String>,
}

/// A frame the limiter did not hold ran this far past the cap's interval.
const OVERRAN: f64 = 1.1;

/// Sets every frame's `work_ms`, and says where it came from.
pub fn fill(
    frames: &mut [Frame],
    columns: &Columns,
    timeline: Timeline,
    limiter: Option<&Limiter>,
) -> Work {
    let has =
        |get: fn(&Frame) -> Option<f64>| frames.iter().any(|f| get(f).is_some_and(|v| v > 0.0));
    let cpu_busy = has(|f| f.cpu_busy_ms) && columns.cpu_busy.is_some();
    let gpu_busy = has(|f| f.gpu_busy_ms) && columns.gpu_busy.is_some();
    let outside = frames.iter().any(|f| f.in_present_ms.is_some()) && columns.in_present.is_some();
    // CapFrameX's importer writes zeros where it had no render times.
    let rendered = frames
        .iter()
        .any(|f| f.until_render_complete_ms.is_some_and(|r| r != 0.0))
        && timeline == Timeline::PresentStart;
    let gpu = gpu_times(frames, gpu_busy, rendered);
    let gpu_words = match (gpu_busy, rendered) {
        (true, _) => columns.gpu_busy.clone(),
        (false, true) => columns
            .render_complete
            .as_ref()
            .map(|c| format!("the GPU's render (to {c})")),
        _ => None,
    };
    let (from, cpu, cpu_words) = if cpu_busy {
        let cpu: Vec<f64> = frames
            .iter()
            .map(|f| f.cpu_busy_ms.unwrap_or(0.0))
            .collect();
        (
            CostFrom::Busy,
            cpu,
            columns.cpu_busy.clone().unwrap_or_default(),
        )
    } else if outside {
        let words = format!(
            "{} less the frame before's {}",
            columns.frame_time,
            columns.in_present.as_deref().unwrap_or("")
        );
        (CostFrom::OutsidePresent, outside_present(frames), words)
    } else {
        let interval: Vec<f64> = frames.iter().map(|f| f.interval_ms).collect();
        (CostFrom::Interval, interval, columns.frame_time.clone())
    };
    if from != CostFrom::Interval
        && let Some(cap) = limiter
        && held_by(&cpu, cap)
    {
        return under_limiter(frames, &cpu, gpu.as_deref(), gpu_words, cpu_words, cap);
    }
    for (k, f) in frames.iter_mut().enumerate() {
        let g = gpu.as_ref().map_or(0.0, |g| g[k]);
        f.work_ms = cpu[k].max(g).max(0.0);
    }
    let columns = match (&gpu_words, from) {
        (Some(g), CostFrom::Busy | CostFrom::OutsidePresent) => {
            format!("{cpu_words} and {g}, the larger")
        }
        _ => cpu_words,
    };
    let note = (from == CostFrom::Interval).then(|| {
        "the capture has no column of the game's work: a frame costs its frame time, waits for the display or a limiter included (an upper bound)".to_string()
    });
    Work {
        from,
        columns,
        note,
    }
}

/// The GPU's time on each frame: its busy time, or its render from when it could start (the
/// later of its present and the frame before's completion) to when it completed; `None`
/// where the capture has neither.
fn gpu_times(frames: &[Frame], busy: bool, rendered: bool) -> Option<Vec<f64>> {
    if busy {
        return Some(
            frames
                .iter()
                .map(|f| f.gpu_busy_ms.unwrap_or(0.0))
                .collect(),
        );
    }
    if !rendered {
        return None;
    }
    let (mut present, mut done_before) = (0.0f64, f64::NEG_INFINITY);
    let mut out = Vec::with_capacity(frames.len());
    for f in frames {
        present += f.interval_ms;
        let done = present + f.until_render_complete_ms.unwrap_or(0.0);
        out.push((done - present.max(done_before)).max(0.0));
        done_before = done_before.max(done);
    }
    Some(out)
}

/// Each frame's time from the end of the frame before's present call to the start of its
/// own (the first frame's, less its own time in the call).
fn outside_present(frames: &[Frame]) -> Vec<f64> {
    let mut before = frames.first().and_then(|f| f.in_present_ms).unwrap_or(0.0);
    frames
        .iter()
        .map(|f| {
            let cpu = (f.interval_ms - before).max(0.0);
            before = f.in_present_ms.unwrap_or(0.0);
            cpu
        })
        .collect()
}

/// Whether the CPU's columns `cpu` hold the limiter's sleep: their median at 90% of the
/// cap's interval or more.
fn held_by(cpu: &[f64], cap: &Limiter) -> bool {
    crate::metrics::median(cpu) >= 0.9 * cap.interval_ms()
}

/// The costs under a limiter whose sleep the CPU's columns hold: a held frame's GPU work,
/// an overrun frame's whole time.
fn under_limiter(
    frames: &mut [Frame],
    cpu: &[f64],
    gpu: Option<&[f64]>,
    gpu_words: Option<String>,
    cpu_words: String,
    cap: &Limiter,
) -> Work {
    let interval = cap.interval_ms();
    let Some(gpu) = gpu else {
        for (f, c) in frames.iter_mut().zip(cpu) {
            f.work_ms = *c;
        }
        let note = format!(
            "the {:.0} FPS limiter waits before the present, where {} cannot tell its sleep from the game's work, and the capture has no GPU column: a frame costs its whole interval (an upper bound)",
            cap.fps,
            cpu_words_short(&cpu_words)
        );
        return Work {
            from: CostFrom::Interval,
            columns: cpu_words,
            note: Some(note),
        };
    };
    for (k, f) in frames.iter_mut().enumerate() {
        f.work_ms = if cpu[k] > OVERRAN * interval {
            cpu[k].max(gpu[k])
        } else {
            gpu[k]
        };
    }
    let g = gpu_words.unwrap_or_else(|| "the GPU's busy time".into());
    Work {
        from: CostFrom::GpuUnderLimiter,
        columns: format!(
            "{g} where the limiter held the frame, {cpu_words} where it ran past the cap"
        ),
        note: Some(format!(
            "the {:.0} FPS limiter waits before the present, so the CPU's columns hold its sleep: a held frame costs its GPU's work, a lower bound (the loops replayed without the cap may outrun the game)",
            cap.fps
        )),
    }
}

/// The first column named in `words`.
fn cpu_words_short(words: &str) -> &str {
    words.split(' ').next().unwrap_or(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(interval: f64, in_present: f64) -> Frame {
        Frame {
            interval_ms: interval,
            in_present_ms: Some(in_present),
            ..Frame::default()
        }
    }

    fn columns() -> Columns {
        Columns {
            frame_time: "MsBetweenPresents".into(),
            in_present: Some("MsInPresentAPI".into()),
            ..Columns::default()
        }
    }

    #[test]
    fn a_vsync_wait_in_the_present_call_is_not_work() {
        // Frames of 7, 9 and 6 ms of CPU work, each present waiting out the 16.7 ms refresh:
        // the wait is in the present call, and the next frame starts when it returns.
        let mut frames = vec![frame(16.7, 9.7), frame(16.7, 7.7), frame(16.7, 10.7)];
        let w = fill(&mut frames, &columns(), Timeline::PresentStart, None);
        assert_eq!(w.from, CostFrom::OutsidePresent);
        let work: Vec<f64> = frames.iter().map(|f| f.work_ms).collect();
        // The first has no frame before: its own call stands in.
        assert!(
            (work[0] - 7.0).abs() < 1e-9 && (work[1] - 7.0).abs() < 1e-9,
            "{work:?}"
        );
        assert!((work[2] - 9.0).abs() < 1e-9, "{work:?}");
        assert_eq!(
            w.columns,
            "MsBetweenPresents less the frame before's MsInPresentAPI"
        );
    }

    #[test]
    fn the_gpu_render_counts_from_when_it_could_start() {
        // A GPU-bound game: presents 10 ms apart, each frame done 15 ms after its present,
        // so each waited for the one before: the GPU spends 10 ms a frame.
        let mut frames: Vec<Frame> = (0..5)
            .map(|_| Frame {
                until_render_complete_ms: Some(15.0),
                ..frame(10.0, 0.5)
            })
            .collect();
        let cols = Columns {
            render_complete: Some("MsUntilRenderComplete".into()),
            ..columns()
        };
        let w = fill(&mut frames, &cols, Timeline::PresentStart, None);
        assert!(
            w.columns
                .contains("the GPU's render (to MsUntilRenderComplete)"),
            "{}",
            w.columns
        );
        // The first frame's render is its own 15 ms; after it, 10 ms each.
        let work: Vec<f64> = frames.iter().map(|f| f.work_ms).collect();
        assert_eq!(work, [15.0, 10.0, 10.0, 10.0, 10.0]);
    }

    #[test]
    fn under_a_limiter_a_held_frame_costs_its_gpu_and_an_overrun_its_whole_time() {
        let cap = Limiter::new(30.0, 1.0);
        let mut frames: Vec<Frame> = [33.3, 33.4, 50.0, 33.3]
            .iter()
            .map(|&i| Frame {
                gpu_busy_ms: Some(8.0),
                ..frame(i, 0.1)
            })
            .collect();
        let cols = Columns {
            gpu_busy: Some("MsGPUBusy".into()),
            ..columns()
        };
        let w = fill(&mut frames, &cols, Timeline::PresentStart, Some(&cap));
        assert_eq!(w.from, CostFrom::GpuUnderLimiter);
        let work: Vec<f64> = frames.iter().map(|f| f.work_ms).collect();
        assert_eq!(work[0], 8.0);
        assert!((work[2] - 49.9).abs() < 1e-9, "{work:?}");
        assert!(w.note.unwrap().contains("lower bound"));
    }
}
