//! Just in time in the window: the timing crate's controller fed with what a window can
//! measure, and the loop's wake time passed through it while the J knob is on.
//!
//! A window is not told when its frames reach the display (wgpu has no presentation
//! timestamps yet), so the controller learns two things from the frames themselves:
//!
//! - **the cost** of a frame is its work: the updates, the overlay, the upload, the
//!   encoding and the present call, with the wait for a swapchain image left out (that
//!   wait is the slack the controller is there to take away). Under a compositor the
//!   present call waits too: Mesa's Wayland FIFO blocks it until the compositor's frame
//!   callback for the frame before. So there the present's share of the work is its
//!   quickest call of the last [`PRESENTS_KEPT`]; the rest of a slower call waited. Taken
//!   whole, a busy machine's late callbacks made the cost longer than a refresh, and the
//!   controller stopped pacing at all;
//! - **the grid** is the display's period (told by the monitor, or measured from the
//!   presents) and the last present known to lie on a refresh: one that had waited for the
//!   display (a blocking acquire, or a compositor's frame callback). Once the controller
//!   has emptied the queue, frames stop waiting, and the last such present stays the grid's
//!   anchor. A wait is not always the display's, though: under Xvfb, which has no vertical
//!   blank, a busy X server blocks acquires at any moment, and a late-woken thread returns
//!   from a real one late. So a refresh seen off the grid moves it only once
//!   [`CONFIRMS`] in a row agree with each other; one on the grid (within a tenth of a
//!   period) moves it at once, so a slightly wrong period is followed as it drifts.
//!   Re-anchored on every blocked acquire, a loaded Xvfb window's grid jumped about every
//!   frame, and paced frames came from under half a refresh to nearly two apart.

use std::time::Duration;

use looplab_timing::{JustInTime, Wake};

use crate::session::frame::FrameRecord;

/// A wait for a swapchain image at least this long means the frame waited for the display
/// (the queue was full), so its present lies on a refresh.
const BLOCKED: Duration = Duration::from_millis(1);

/// Present calls kept for their quickest, under a compositor.
pub const PRESENTS_KEPT: usize = 64;

/// Refreshes seen off the grid, each agreeing with the last, that move the grid there.
pub const CONFIRMS: u32 = 3;

/// The controller, and the last refresh the window saw.
#[derive(Clone, Debug, Default)]
pub struct Pacing {
    jit: JustInTime,
    /// The grid's anchor: a refresh, on the loop's clock.
    refresh: Option<Duration>,
    /// The refresh the last frame saw (it waited for the display), not yet weighed.
    seen: Option<Duration>,
    /// A refresh seen off the grid, and how many in a row agreed with it.
    doubt: Option<(Duration, u32)>,
    /// Under a compositor: the last present calls' times, for the quickest.
    presents: Vec<Duration>,
    compositor_paced: bool,
}

/// What the overlay and `--stats` say of the controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JitReadout {
    /// How long before its refresh a frame starts (cost and margin); `None` while the
    /// controller is still learning.
    pub lead: Option<Duration>,
    /// Frames that missed the refresh they aimed at.
    pub missed: u64,
    /// The refresh the grid is anchored on, on the loop's clock; `None` before a present.
    pub grid: Option<Duration>,
}

impl Pacing {
    /// A frame was presented at `presented`, having been let draw at `let_draw`. Where it
    /// waited for the display, the end of that wait lies on a refresh: a compositor's frame
    /// callback lets it draw, and a blocking acquire returns when the display lets an
    /// image go (the upload, the encoding and the present came after it).
    pub fn presented(
        &mut self,
        let_draw: Duration,
        presented: Duration,
        record: &FrameRecord,
        compositor_paced: bool,
    ) {
        let r = &record.render;
        self.compositor_paced = compositor_paced;
        if compositor_paced {
            self.seen = Some(let_draw);
            if self.presents.len() == PRESENTS_KEPT {
                self.presents.remove(0);
            }
            self.presents.push(r.present);
        } else if r.acquire >= BLOCKED {
            self.seen = Some(presented.saturating_sub(r.upload + r.encode + r.present));
        }
    }

    /// Weighs the refresh the last frame saw against the grid of `period`: on the grid (or
    /// with no grid yet) it anchors it; off it, it waits for [`CONFIRMS`] in a row.
    fn weigh_seen(&mut self, period: Duration) {
        let Some(seen) = self.seen.take() else {
            return;
        };
        let Some(anchor) = self.refresh.filter(|_| !period.is_zero()) else {
            self.refresh = Some(seen);
            return;
        };
        let near = period / 10;
        if phase_gap(seen, anchor, period) <= near {
            self.refresh = Some(seen);
            self.doubt = None;
            return;
        }
        self.doubt = match self.doubt {
            Some((first, n)) if phase_gap(seen, first, period) <= near => {
                if n + 1 >= CONFIRMS {
                    self.refresh = Some(seen);
                    None
                } else {
                    Some((first, n + 1))
                }
            }
            _ => Some((seen, 1)),
        };
    }

    /// The wake time for the next frame, the last one (`record`) ended at `now` on a display
    /// refreshing every `period`: the loop's own `wake`, or later, just in time.
    pub fn pace(
        &mut self,
        wake: Wake,
        record: &FrameRecord,
        now: Duration,
        period: Duration,
    ) -> Wake {
        self.weigh_seen(period);
        // Where no present has waited for the display (a display with no vertical blank,
        // as Xvfb's), the first present seen stands for a refresh, and stays.
        let Some(refresh) = self.refresh.or(record.presented) else {
            return wake;
        };
        self.refresh = Some(refresh);
        self.jit.set_grid(period, refresh);
        // A present the compositor held was ready when its call would have returned.
        let held = self.compositor_hold(record);
        self.jit
            .frame_done(record.work() - held, now.saturating_sub(held));
        self.jit.pace(now, wake)
    }

    /// How long a compositor held the frame's present call beyond the quickest recent one.
    fn compositor_hold(&self, record: &FrameRecord) -> Duration {
        match self.presents.iter().min() {
            Some(&quickest) if self.compositor_paced => {
                record.render.present.saturating_sub(quickest)
            }
            _ => Duration::ZERO,
        }
    }

    /// The knob was turned off, or the display changed: start learning again.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    pub fn readout(&self) -> JitReadout {
        JitReadout {
            lead: self.jit.lead(),
            missed: self.jit.missed(),
            grid: self.refresh,
        }
    }
}

/// How far `a` lies from the nearest refresh of a grid of `period` through `b`.
fn phase_gap(a: Duration, b: Duration, period: Duration) -> Duration {
    let p = period.as_nanos();
    let off = a.as_nanos().abs_diff(b.as_nanos()) % p;
    Duration::from_nanos(u64::try_from(off.min(p - off)).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::frame::RenderTimes;

    const PERIOD: Duration = Duration::from_nanos(16_666_667);

    fn ms(x: f64) -> Duration {
        Duration::from_secs_f64(x / 1e3)
    }

    /// A FIFO display refreshing every `refresh` from 0, a window that believes it refreshes
    /// every PERIOD, and a loop whose frames take 3 ms of work: without pacing it would sit
    /// in acquire for the rest of each refresh. Returns each frame's wait in acquire, and
    /// the pacing.
    fn under_fifo(frames: usize, refresh: Duration) -> (Vec<Duration>, Pacing) {
        let mut pacing = Pacing::default();
        let mut start = Duration::ZERO;
        let mut last_shown = Duration::ZERO;
        let mut waits = Vec::new();
        for _ in 0..frames {
            let ready = start + ms(1.0);
            // An image comes back at the refresh that shows the frame before; then 2 ms of
            // encoding and 0.2 ms of present.
            let acquired = ready.max(last_shown);
            let presented = acquired + ms(2.2);
            last_shown = presented.div_duration_f64(refresh).ceil() as u32 * refresh;
            let record = fifo_frame(start, acquired - ready, presented);
            waits.push(record.render.acquire);
            pacing.presented(presented, presented, &record, false);
            start = match pacing.pace(Wake::Immediately, &record, presented, PERIOD) {
                Wake::At(t) => t.max(presented),
                Wake::Immediately => presented,
            };
        }
        (waits, pacing)
    }

    /// A frame that started at `start`, waited `acquire` for an image, and was presented
    /// at `presented` after 1 ms of update, 2 ms of encoding and 0.2 ms of present.
    fn fifo_frame(start: Duration, acquire: Duration, presented: Duration) -> FrameRecord {
        FrameRecord {
            start,
            update_time: ms(1.0),
            presented: Some(presented),
            render: RenderTimes {
                acquire,
                encode: ms(2.0),
                present: ms(0.2),
                ..RenderTimes::default()
            },
            ..FrameRecord::default()
        }
    }

    #[test]
    fn a_window_loop_under_fifo_stops_waiting_in_acquire_and_starts_its_cost_before_the_refresh() {
        let (waits, pacing) = under_fifo(200, PERIOD);
        assert!(
            waits[..5].iter().any(|w| *w > ms(10.0)),
            "FIFO made it wait at first"
        );
        assert!(
            waits[100..].iter().all(|w| w.is_zero()),
            "{:?}",
            &waits[100..110]
        );
        let lead = pacing.readout().lead.unwrap();
        assert!(lead >= ms(3.2) && lead < ms(4.5), "{lead:?}");
    }

    #[test]
    fn a_display_slower_than_believed_is_followed_on_the_refreshes_it_shows() {
        // The display refreshes 0.1% slower than the window believes (59.94 Hz taken for
        // 60): frames paced on the believed grid drift ahead of it, until one waits in
        // acquire for a refresh, and the grid follows.
        let frames = 20_000;
        let (waits, _) = under_fifo(frames, PERIOD.mul_f64(1.001));
        let waited = waits[100..].iter().filter(|w| **w >= BLOCKED).count();
        // The frames drift a whole refresh ahead every 1,000 of them: a wait each time,
        // and a few more where the wait comes off the grid and needs confirming.
        let drifted = frames / 1000;
        assert!(
            (drifted / 2..=drifted + CONFIRMS as usize).contains(&waited),
            "{waited} waits for {drifted} refreshes drifted"
        );
    }

    #[test]
    fn acquires_blocked_off_the_grid_at_random_do_not_move_it() {
        // Xvfb under load: no vertical blank, and the X server blocks three acquires in four
        // for 1 to 9 ms at any moment. Each such wait looks like a refresh; taken as one,
        // the grid jumped every frame and paced frames came a quarter of a refresh apart.
        let mut pacing = Pacing::default();
        let mut rng = 0x9e37_79b9_u32;
        let mut random = move || {
            rng ^= rng << 13;
            rng ^= rng >> 17;
            rng ^= rng << 5;
            f64::from(rng) / f64::from(u32::MAX)
        };
        let mut start = Duration::ZERO;
        let mut starts = Vec::new();
        for _ in 0..300 {
            let blocked = if random() < 0.75 {
                ms(1.0 + 8.0 * random())
            } else {
                ms(0.3)
            };
            let presented = start + ms(1.0) + blocked + ms(2.2);
            let record = fifo_frame(start, blocked, presented);
            pacing.presented(presented, presented, &record, false);
            starts.push(start);
            start = match pacing.pace(Wake::Immediately, &record, presented, PERIOD) {
                Wake::At(t) => t.max(presented),
                Wake::Immediately => presented,
            };
        }
        let apart: Vec<f64> = starts[100..]
            .windows(2)
            .map(|w| (w[1] - w[0]).as_secs_f64() * 1e3)
            .collect();
        // On a steady grid a frame comes a refresh after the one before, or later where a
        // long block left no time to wait. Moved by each wait, the grid put most frames
        // anywhere from one refresh to two apart.
        let one_refresh = apart.iter().filter(|&&d| (d - 16.667).abs() < 0.5).count();
        let early = apart.iter().filter(|&&d| d < 16.0).count();
        assert_eq!(early, 0, "{:?}", &apart[..20]);
        assert!(
            one_refresh >= apart.len() * 4 / 5,
            "{one_refresh} of {} a refresh apart: {:?}",
            apart.len(),
            &apart[..20]
        );
    }

    #[test]
    fn under_a_compositor_a_held_present_counts_as_a_wait_not_as_work() {
        // A compositor paces the frames: each is let draw at a refresh, works 2 ms, and its
        // present call takes 1 ms, except every fourth, which the compositor holds 14 ms
        // more. Taken as work, those held calls would make the cost 17 ms, past the
        // period's 16.7, and the controller would stop pacing.
        let mut pacing = Pacing::default();
        let mut now = Duration::ZERO;
        for i in 0..200u32 {
            let let_draw = PERIOD * i;
            let start = now.max(let_draw);
            let present = if i % 4 == 3 { ms(15.0) } else { ms(1.0) };
            let presented = start + ms(2.0) + present;
            let record = FrameRecord {
                start,
                update_time: ms(2.0),
                presented: Some(presented),
                render: RenderTimes {
                    present,
                    ..RenderTimes::default()
                },
                ..FrameRecord::default()
            };
            pacing.presented(let_draw, presented, &record, true);
            now = match pacing.pace(Wake::Immediately, &record, presented, PERIOD) {
                Wake::At(t) => t.max(presented),
                Wake::Immediately => presented,
            };
        }
        let lead = pacing.readout().lead.unwrap();
        assert!(lead < ms(6.0), "a 3 ms frame leads by {lead:?}");
    }
}
