//! A Looplab window's frames in PresentMon's 1.x columns (`looplab --trace FILE.csv`), so
//! CapFrameX and the other tools of the field open a Looplab run, and the lab reads it back
//! like any capture.
//!
//! The layout is PresentMon 1.7-1.10's without display tracking (`-no_track_display`): a
//! window does not learn when the display showed a frame, and a tool should not be told it
//! did. The columns mean what they mean for a Direct3D game, mapped onto a Vulkan window:
//!
//! - `TimeInSeconds`: when the frame's present returned, from the first frame's start;
//! - `msBetweenPresents`: the time since the frame before's present returned;
//! - `msInPresentAPI`: the time the frame waited on the swapchain and the windowing system
//!   (Vulkan blocks to acquire an image, Wayland until its frame callback, where Direct3D
//!   blocks in `Present`), so that `msBetweenPresents` less it is the loop's own time;
//! - `SyncInterval`: 1 with vsync, 0 without; `Runtime`: `Other` (PresentMon's word for
//!   what is not Direct3D);
//! - `AnimationTime` and `MsAnimationError`, the columns PresentMon 2.x adds: the time the
//!   frame's picture truly shows, from the first frame's, and its animation error
//!   ([`crate::metrics::animation`]), each frame taken as shown when its present returned.
//!
//! PresentMon leaves out each swap chain's first present (it has no interval); so does this.

use std::fmt::Write as _;

use crate::session::trace::Trace;

/// The header this writes.
pub const HEADER: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,msInPresentAPI,msBetweenPresents,MsAnimationError,AnimationTime";

/// `trace` as a PresentMon 1.x CSV of the application `application`, process `pid`.
pub fn presentmon_v1(trace: &Trace, application: &str, pid: u32) -> String {
    let mut out = String::with_capacity(120 * trace.frames.len() + HEADER.len());
    out.push_str(HEADER);
    out.push_str("\r\n");
    let origin = trace.frames.first().map_or(0, |f| f.start_ns);
    let sync = u8::from(trace.header.vsync);
    let ms = |ns: u64| ns as f64 / 1e6;
    let first_animation = trace.frames.get(1).map_or(0, |f| f.animation_ns);
    for pair in trace.frames.windows(2) {
        let (before, f) = (&pair[0], &pair[1]);
        let waited = f.redraw_wait_ns + f.acquire_ns + f.present_ns;
        let error = crate::metrics::animation::error_ms(
            (ms(before.animation_ns), ms(before.presented_ns)),
            ms(f.animation_ns),
            ms(f.presented_ns),
        );
        let _ = write!(
            out,
            "{application},{pid},0x0000000000000001,Other,{sync},0,0,{:.9},{:.6},{:.6},{},{:.6}\r\n",
            f.presented_ns.saturating_sub(origin) as f64 / 1e9,
            ms(waited),
            ms(f.presented_ns.saturating_sub(before.presented_ns)),
            error.map_or_else(|| "NA".to_string(), |e| format!("{e:.6}")),
            (f.animation_ns as f64 - first_animation as f64) / 1e6,
        );
    }
    out
}

/// One presented frame of a loop whose every time is known, for
/// [`presentmon_v2_metrics`]: all in ms on one clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresentedFrame {
    /// The frame began (the first frame's CPU start: it has no frame before).
    pub start_ms: f64,
    /// The present call began and returned.
    pub present_start_ms: f64,
    pub present_end_ms: f64,
    /// The display showed it (`None`: replaced before any refresh did).
    pub shown_ms: Option<f64>,
    /// The game time its picture shows, in real time.
    pub animation_ms: f64,
}

/// How a run presented, for [`presentmon_v2_metrics`]'s swap-chain columns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwapChainColumns<'a> {
    pub application: &'a str,
    pub pid: u32,
    /// 1 with vsync, 0 without.
    pub sync_interval: u8,
    /// Whether the presents tear.
    pub allows_tearing: bool,
}

/// The header [`presentmon_v2_metrics`] writes.
pub const V2_HEADER: &str = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,CPUStartTime,FrameTime,CPUBusy,CPUWait,DisplayLatency,DisplayedTime,AnimationError,AnimationTime";

/// `frames` in PresentMon 2.x's `--v2_metrics` columns, as PresentMon defines them
/// (GameTechDev/PresentMon, MIT, `IntelPresentMon/CommonUtilities/mc/`): a frame's
/// `CPUStartTime` is when the frame before's present returned, from the first frame's;
/// `CPUBusy` runs from there to its present call, `CPUWait` is the call, `FrameTime` their
/// sum; `DisplayLatency` runs from its CPU start to the display showing it, and
/// `DisplayedTime` from then to the next frame shown (`NA` for a frame not shown, and for
/// the last one shown). The first frame's CPU start is when it began.
///
/// `AnimationTime` is not PresentMon's estimate but the time the picture truly shows, from
/// the first shown frame's; `AnimationError` is Looplab's ([`crate::metrics::animation`]),
/// which unlike PresentMon's is also given where the picture did not move on (PresentMon
/// writes `NA` there).
pub fn presentmon_v2_metrics(frames: &[PresentedFrame], chain: SwapChainColumns) -> String {
    let mut out = String::with_capacity(160 * frames.len() + V2_HEADER.len());
    out.push_str(V2_HEADER);
    out.push_str("\r\n");
    let Some(first) = frames.first() else {
        return out;
    };
    let origin = first.start_ms;
    let first_animation = frames
        .iter()
        .find(|f| f.shown_ms.is_some())
        .map_or(0.0, |f| f.animation_ms);
    let next_shown: Vec<Option<f64>> = {
        let mut next = None;
        let mut v: Vec<Option<f64>> = frames
            .iter()
            .rev()
            .map(|f| {
                let n = next;
                if f.shown_ms.is_some() {
                    next = f.shown_ms;
                }
                n
            })
            .collect();
        v.reverse();
        v
    };
    let na = || "NA".to_string();
    let num = |x: f64| format!("{x:.6}");
    // The errors count from the first frame written, so the file holds what each is of.
    let mut last_shown: Option<(f64, f64)> = None;
    for (k, f) in frames.iter().enumerate() {
        let cpu_start = match k {
            0 => f.start_ms,
            _ => frames[k - 1].present_end_ms,
        };
        let (latency, displayed, error, animation) = match f.shown_ms {
            Some(shown) => {
                let error = last_shown.and_then(|last| {
                    crate::metrics::animation::error_ms(last, f.animation_ms, shown)
                });
                last_shown = Some((f.animation_ms, shown));
                (
                    num(shown - cpu_start),
                    next_shown[k].map_or_else(na, |next| num(next - shown)),
                    error.map_or_else(na, num),
                    num(f.animation_ms - first_animation),
                )
            }
            None => (na(), na(), na(), na()),
        };
        // The lab's display has no compositor: the game's frames go to it directly.
        let _ = write!(
            out,
            "{},{},0x0000000000000001,Other,{},0,{},Hardware: Independent Flip,Application,{},{},{},{},{latency},{displayed},{error},{animation}\r\n",
            chain.application,
            chain.pid,
            chain.sync_interval,
            u8::from(chain.allows_tearing),
            num(cpu_start - origin),
            num(f.present_end_ms - cpu_start),
            num(f.present_start_ms - cpu_start),
            num(f.present_end_ms - f.present_start_ms),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::format::{ColumnSet, Tool};
    use crate::capture::{Capture, CostFrom};
    use crate::session::trace::{TraceFrame, TraceHeader};

    fn trace(vsync: bool) -> Trace {
        // Frames 10 ms apart, each 2 ms of loop wait, 1 ms of updates, 3 of drawing, 4
        // waiting on the swapchain and the compositor.
        let frames = (0..50u64)
            .map(|k| TraceFrame {
                start_ns: 5_000_000 + k * 10_000_000,
                wait_ns: 2_000_000,
                updates: 1,
                update_ns: 1_000_000,
                redraw_wait_ns: 1_000_000,
                acquire_ns: 2_000_000,
                render_ns: 3_000_000,
                present_ns: 1_000_000,
                presented_ns: 5_000_000 + k * 10_000_000 + 8_000_000 + (k % 3) * 100_000,
                game_ns: k * 10_000_000,
                animation_ns: k * 10_000_000,
                behind_ns: 0,
            })
            .collect();
        Trace {
            header: TraceHeader {
                vsync,
                ..TraceHeader::interpolated_60hz(100)
            },
            frames,
        }
    }

    #[test]
    fn a_trace_written_as_presentmon_reads_back_as_a_capture() {
        let text = presentmon_v1(&trace(true), "looplab", 42);
        let capture = Capture::read(text.as_bytes(), None).unwrap();
        assert_eq!(capture.format.tool, Tool::PresentMon);
        assert_eq!(capture.format.columns, ColumnSet::PresentMon1);
        assert_eq!(capture.application, "looplab");
        // The first frame has no interval, as in PresentMon.
        assert_eq!(capture.frames.len(), 49);
        let t = trace(true);
        for (f, pair) in capture.frames.iter().zip(t.frames.windows(2)) {
            let between = (pair[1].presented_ns - pair[0].presented_ns) as f64 / 1e6;
            assert!((f.interval_ms - between).abs() < 1e-6, "{f:?}");
            assert!((f.in_present_ms.unwrap() - 4.0).abs() < 1e-9);
            // Pictures 10 ms apart presented 10 ms give or take the presents' wander.
            let wander = between - 10.0;
            assert!(
                (f.animation_error_ms.unwrap() + wander).abs() < 1e-6,
                "{f:?}"
            );
        }
        assert_eq!(capture.cost_from, CostFrom::OutsidePresent);
        // The loop's own time: its wait, updates and drawing (2 + 1 + 3 ms), give or take
        // the 0.1 ms the presents wander.
        let cost = capture.frames[5].work_ms;
        assert!((cost - 6.0).abs() <= 0.2 + 1e-9, "{cost}");
        assert_eq!(capture.presenting.vsync(), Some(true));
        let off = Capture::read(presentmon_v1(&trace(false), "looplab", 42).as_bytes(), None);
        assert_eq!(off.unwrap().presenting.vsync(), Some(false));
    }
}
