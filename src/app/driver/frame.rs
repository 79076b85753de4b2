//! A frame of the driver's loop from start to end: the demo's updates run in
//! `about_to_wait`; on `RedrawRequested` the picture is composed, painted and presented, and
//! the demo told what reached the screen.

use std::time::Duration;

use super::{App, Phase, PlatformState};
use crate::app::demo::{Frame, Nap, Prepared};
use crate::app::display_rate::RefreshSource;
use crate::app::overlay::{PacedBy, PlatformFacts};
use crate::render::FrameOutcome;
use crate::session::frame::RenderTimes;

impl App {
    /// Starts a frame (after the loop's `nap`, or straight on from the last frame): the demo
    /// runs its updates, and the driver asks for its redraw or, with nothing to draw on,
    /// finishes it at once.
    pub(super) fn begin_frame(&mut self, nap: Option<Nap>) {
        let frame = self.demo.run_updates(&self.clock, nap);
        self.platform.updates_ran(&self.demo);
        match &self.window {
            Some(w) if w.gfx.size().0 > 0 && !self.visibility.is_hidden() => {
                self.phase = Phase::Drawing(frame);
                w.gfx.window.request_redraw();
            }
            // Nothing to draw on (minimized, or hidden and running on): the loop keeps time
            // without rendering.
            _ => self.skip_frame(frame),
        }
    }

    /// Composes, paints and presents the frame waiting for its redraw.
    pub(super) fn draw(&mut self) {
        let Phase::Drawing(Frame { plan, mut record }) = self.phase else {
            return;
        };
        if self.window.is_none() {
            return;
        }
        // A compositor lets the frame draw at its frame callback: a time on its grid.
        let let_draw = self.clock.now();
        let Prepared { load, at: now } = self.demo.prepare_draw(&self.clock);
        let Some(w) = &mut self.window else {
            return;
        };
        let w_paced_by = w.paced_by;
        let facts = PlatformFacts {
            present_mode: w.gfx.present_mode(),
            frame_latency: w.gfx.frame_latency(),
            just_in_time: self.demo.just_in_time(),
            paced_by: w.paced_by,
            hidden_note: self.visibility.note(now, self.options.run_hidden),
            cpu_percent: self.demo.cpu_percent(),
            adapter: w.gfx.adapter.clone(),
            refresh_hz: (w.display.source() != RefreshSource::Assumed)
                .then(|| w.display.rate().as_hz()),
        };
        let size = w.gfx.size();
        let (outcome, render, clicked, took) =
            self.demo.with_frame_inputs(&plan, &facts, now, |inputs| {
                let composed = w.composer.compose(inputs, Some(&w.gfx.window), size);
                let (paint, clicked, took, texts) = match composed.words {
                    Some(words) => (Some(words.paint), words.actions, words.took, words.texts),
                    None => (None, Vec::new(), Duration::ZERO, Vec::new()),
                };
                let (outcome, render) = w.gfx.render(&composed.sprites, paint);
                (outcome, render, clicked, (took, texts))
            });
        let (took, texts) = took;
        self.platform.laid_out(size, &texts);
        self.demo.input().clicked(clicked, now);
        record.render = RenderTimes {
            overlay: took,
            load,
            gpu_lost: std::mem::take(&mut self.lost_devices.away),
            ..render
        };
        match outcome {
            FrameOutcome::Presented => {
                let presented = self.demo.presented(&self.clock, &plan, &mut record);
                self.presented(&plan, let_draw, presented, record.render.acquire);
                let compositor = w_paced_by == PacedBy::Compositor;
                self.demo
                    .display_presented(let_draw, presented, &record, compositor);
            }
            FrameOutcome::Skipped(why) => {
                self.demo.skipped();
                log::debug!("frame skipped: {why}");
            }
        }
        self.finish_frame(&Frame { plan, record });
    }

    /// Closes a frame that will not be drawn.
    pub(super) fn skip_frame(&mut self, frame: Frame) {
        self.demo.skipped();
        self.finish_frame(&frame);
    }

    /// Records a finished frame and waits for the next one's wake time.
    fn finish_frame(&mut self, frame: &Frame) {
        let now = self.clock.now();
        self.demo.finish_frame(&frame.record, now);
        if !matches!(self.phase, Phase::Resting) && !self.phase.is_quitting() {
            self.phase = Phase::Idle {
                wake: if PlatformState::CAN_SLEEP {
                    self.demo.pace(frame.plan.wake, &frame.record, now)
                } else {
                    frame.plan.wake
                },
                since: now,
            };
        }
    }
}
