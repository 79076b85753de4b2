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
//!   anchor.

use std::time::Duration;

use looplab_timing::{JustInTime, Wake};

use crate::session::frame::FrameRecord;

/// A wait for a swapchain image at least this long means the frame waited for the display
/// (the queue was full), so its present lies on a refresh.
const BLOCKED: Duration = Duration::from_millis(1);

/// Present calls kept for their quickest, under a compositor.
pub const PRESENTS_KEPT: usize = 64;

/// The controller, and the last refresh the window saw.
#[derive(Clone, Debug, Default)]
pub struct Pacing {
    jit: JustInTime,
    refresh: Option<Duration>,
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
            self.refresh = Some(let_draw);
            if self.presents.len() == PRESENTS_KEPT {
                self.presents.remove(0);
            }
            self.presents.push(r.present);
        } else if r.acquire >= BLOCKED {
            self.refresh = Some(presented.saturating_sub(r.upload + r.encode + r.present));
        }
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::frame::RenderTimes;

    const PERIOD: Duration = Duration::from_nanos(16_666_667);

    fn ms(x: f64) -> Duration {
        Duration::from_secs_f64(x / 1e3)
    }

    #[test]
    fn a_window_loop_under_fifo_stops_waiting_in_acquire_and_starts_its_cost_before_the_refresh() {
        // A FIFO display (refreshes every PERIOD from 0) and a loop whose frames take 3 ms
        // of work: without pacing it would sit in acquire for the rest of each refresh.
        let mut pacing = Pacing::default();
        let mut start = Duration::ZERO;
        let mut last_shown = Duration::ZERO;
        let mut waits = Vec::new();
        for _ in 0..200 {
            let ready = start + ms(1.0);
            // An image comes back at the refresh that shows the frame before; then 2 ms of
            // encoding and 0.2 ms of present.
            let acquired = ready.max(last_shown);
            let presented = acquired + ms(2.2);
            last_shown = presented.div_duration_f64(PERIOD).ceil() as u32 * PERIOD;
            let record = FrameRecord {
                start,
                update_time: ms(1.0),
                presented: Some(presented),
                render: RenderTimes {
                    acquire: acquired - ready,
                    encode: ms(2.0),
                    present: ms(0.2),
                    ..RenderTimes::default()
                },
                ..FrameRecord::default()
            };
            waits.push(record.render.acquire);
            pacing.presented(presented, presented, &record, false);
            start = match pacing.pace(Wake::Immediately, &record, presented, PERIOD) {
                Wake::At(t) => t.max(presented),
                Wake::Immediately => presented,
            };
        }
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
