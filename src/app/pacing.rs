//! Just in time in the window: the timing crate's controller fed with what a window can
//! measure, and the loop's wake time passed through it while the J knob is on.
//!
//! A window is not told when its frames reach the display (wgpu has no presentation
//! timestamps yet), so the controller learns two things from the frames themselves:
//!
//! - **the cost** of a frame is its work: the updates, the overlay, the upload, the
//!   encoding and the present call, with the wait for a swapchain image left out (that
//!   wait is the slack the controller is there to take away);
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

/// The controller, and the last refresh the window saw.
#[derive(Clone, Debug, Default)]
pub struct Pacing {
    jit: JustInTime,
    refresh: Option<Duration>,
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
        if compositor_paced {
            self.refresh = Some(let_draw);
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
        self.jit.frame_done(record.work(), now);
        self.jit.pace(now, wake)
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
}
