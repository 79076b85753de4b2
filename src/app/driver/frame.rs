//! A frame of the driver's loop, from its input to its finish, one path for a desktop and a
//! page: once the target says the frame's time has come, the input recorded since the last
//! frame is applied and the demo's updates run; at its redraw the picture is composed,
//! painted and presented, and the demo told what reached the screen; then the loop waits for
//! the next frame's wake time.

use std::time::Duration;

use winit::event_loop::ActiveEventLoop;

use super::{App, BuiltFor, Phase, Target};
use crate::app::demo::{Frame, Nap, Prepared};
use crate::app::display_rate::RefreshSource;
use crate::app::overlay::{PacedBy, WindowFacts};
use crate::app::stats::RunEnd;
use crate::render::FrameOutcome;
use crate::session::frame::RenderTimes;

impl App {
    /// The frame's time has come (after the loop's `nap`, or straight on from the last
    /// frame): the input recorded until now is applied first, so input that arrived during
    /// the wait belongs to this frame, then its updates run. `false` when the input ended
    /// the run, and no frame starts.
    pub(super) fn start_frame(&mut self, event_loop: &ActiveEventLoop, nap: Option<Nap>) -> bool {
        self.apply_input(event_loop);
        if self.phase.is_quitting() {
            return false;
        }
        // A wait the machine made late is one uneven interval, not two.
        if self.pacer.take_late() {
            self.demo.restart_deadlines();
        }
        self.begin_frame(nap);
        true
    }

    /// Has the demo apply the input recorded since the last frame, and does what it asks of
    /// the window.
    pub(super) fn apply_input(&mut self, event_loop: &ActiveEventLoop) {
        let requests = self.demo.apply_input(self.clock.now());
        if let Some(w) = &mut self.window {
            if let Some((present, latency)) = requests.swapchain {
                w.gfx.set_swapchain(present, latency);
                log::info!(
                    "present mode: {}, {} frames in flight asked for",
                    crate::render::gpu::present_mode_words(w.gfx.present_mode()),
                    w.gfx.frame_latency()
                );
            }
            if let Some(title) = &requests.title {
                w.gfx.window.set_title(title);
            }
        }
        if requests.quit {
            if !BuiltFor::QUITS_BY_KEY {
                log::info!("a page is closed with its tab: Esc and Q do nothing here");
            } else {
                self.quit(event_loop, RunEnd::QuitKey);
            }
        }
    }

    /// The demo runs the frame's updates, and the driver asks for its redraw or, with
    /// nothing to draw on, finishes it at once.
    fn begin_frame(&mut self, nap: Option<Nap>) {
        let frame = self.demo.run_updates(&self.clock, nap);
        self.target.updates_ran(&self.demo);
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
        let facts = WindowFacts {
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
                let (paint, clicked, took, laid) = match composed.words {
                    Some(words) => (
                        Some(words.paint),
                        words.actions,
                        words.took,
                        (words.texts, words.figures),
                    ),
                    None => (None, Vec::new(), Duration::ZERO, Default::default()),
                };
                let (outcome, render) = w.gfx.render(&composed.sprites, paint);
                (outcome, render, clicked, (took, laid))
            });
        let (took, (texts, figures)) = took;
        self.target.laid_out(size, &texts, figures);
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
                BuiltFor::presented(self, &plan, let_draw, presented, record.render.acquire);
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
                wake: if BuiltFor::CAN_SLEEP {
                    self.demo.pace(frame.plan.wake, &frame.record, now)
                } else {
                    frame.plan.wake
                },
                since: now,
            };
        }
    }
}
