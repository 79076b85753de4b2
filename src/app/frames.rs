//! A frame of the window's loop from start to end: its updates run in `about_to_wait`, its
//! picture composed, painted and presented on `RedrawRequested`, then recorded.

use std::time::Duration;

use looplab_timing::{FramePlan, UpdateBudget};

use super::compose::FrameInputs;
use super::overlay::PlatformFacts;
use super::{App, Pending, Phase};
use crate::platform::clock::{block_for, spin_for};
use crate::render::FrameOutcome;
use crate::session::frame::{FrameRecord, RenderTimes};
use crate::world::accuracy::FrameAccuracy;

/// Real time the updates of one frame may take before the rest are dropped: a quarter of a
/// second, so even with no update limit (the spiral of death) the window answers input
/// several times a second.
const UPDATE_BUDGET: Duration = UpdateBudget::DEFAULT_LIMIT;

/// How long the window's first seconds say how to start the tour.
const TOUR_INVITE_FOR: Duration = Duration::from_secs(20);

impl App {
    /// Starts a frame (the loop slept of its own accord since `slept_since`, or went straight
    /// on from the last frame): runs its updates and asks for its redraw, or, with nothing to
    /// draw on, finishes it at once.
    pub(super) fn begin_frame(&mut self, slept_since: Option<Duration>) {
        if let Some(stall) = self.input.stall.take() {
            block_for(stall);
        }
        let now = self.clock.now();
        let update_cost = self.controls.knobs.update_cost;
        let budget = UpdateBudget::new(now, UPDATE_BUDGET);
        let clock = self.clock;
        let mut replay = self.replay.as_mut();
        let reached_before = replay.as_ref().is_some_and(|r| r.outcome().is_some());
        let plan = self
            .controls
            .session_mut()
            .frame_within(now, |world, step| {
                if let Some(r) = replay.as_mut() {
                    r.checkpoint.before_update(world, step);
                }
                spin_for(update_cost);
                budget.check(clock.now())
            });
        if let Some(r) = self.replay.as_mut() {
            r.checkpoint.finish(self.controls.session().world());
            if !reached_before {
                r.log_outcome();
            }
        }
        let updated = self.clock.now();
        #[cfg(not(target_arch = "wasm32"))]
        self.stream_recording();
        if plan.skipped > Duration::ZERO && budget.spent(updated) {
            log::debug!("update budget spent: {} updates run", plan.updates);
        }
        let record = FrameRecord {
            waited: slept_since.map_or(Duration::ZERO, |since| now.saturating_sub(since)),
            update_time: updated - now,
            inputs: self.input.take_applied(),
            ..self.controls.session().record(&plan)
        };
        let pending = Pending { plan, record };
        match &self.window {
            Some(w) if w.gfx.size().0 > 0 && !self.visibility.is_hidden() => {
                self.phase = Phase::Drawing(pending);
                w.gfx.window.request_redraw();
            }
            // Nothing to draw on (minimized, or hidden and running on): the loop keeps time
            // without rendering.
            _ => self.skip_frame(pending),
        }
    }

    /// Composes, paints and presents the frame waiting for its redraw.
    pub(super) fn draw(&mut self) {
        let Phase::Drawing(Pending { plan, mut record }) = self.phase else {
            return;
        };
        let Some(w) = &mut self.window else {
            return;
        };
        // A compositor lets the frame draw at its frame callback: a time on its grid.
        #[cfg(not(target_arch = "wasm32"))]
        let let_draw = self.clock.now();
        let captured = self
            .controls
            .knobs
            .capture
            .as_mut()
            .map_or(Duration::ZERO, |c| c.take());
        let spun_from = self.clock.now();
        spin_for(self.controls.knobs.render_cost + captured);
        let load = self.clock.now().saturating_sub(spun_from);
        let accuracy = self.controls.session_mut().measure_accuracy(&plan);
        self.readouts.smooth(accuracy);
        let now = self.clock.now();
        if let Some(compare) = &mut self.compare {
            compare.advance_to(now);
        }
        let facts = PlatformFacts {
            present_mode: w.gfx.present_mode(),
            paced_by: w.paced_by,
            hidden_note: self.visibility.note(now, self.options.run_hidden),
            cpu_percent: self.readouts.cpu.percent(),
            adapter: w.gfx.adapter.clone(),
        };
        let session = self.controls.session();
        let tour = self
            .touring
            .as_ref()
            .filter(|t| t.on)
            .and_then(|t| t.tour.panel(&t.standing));
        let inputs = FrameInputs::new(session, &self.controls.knobs, &plan, &self.readouts, &facts)
            .with_lanes(self.compare.as_ref(), now)
            .with_tour(tour.as_ref())
            .with_tour_invite(self.touring.is_none() && now < TOUR_INVITE_FOR);
        let size = w.gfx.size();
        let composed = w.composer.compose(&inputs, Some(&w.gfx.window), size);
        let (paint, clicked, took) = match composed.words {
            Some(words) => (Some(words.paint), words.actions, words.took),
            None => (None, Vec::new(), Duration::ZERO),
        };
        let (outcome, render) = w.gfx.render(&composed.sprites, paint);
        self.input.clicked(clicked, now);
        record.render = RenderTimes {
            overlay: took,
            load,
            ..render
        };
        match outcome {
            FrameOutcome::Presented => {
                if self.run.presented == 0 {
                    // The loop starts with its first picture on screen: the time it took to
                    // get there (the GPU warming up, the first present) is neither simulated
                    // nor counted against the wall clock, so the metronome's gap means what
                    // its caption says.
                    self.controls.session_mut().resync(self.clock.now());
                }
                let presented = self.clock.now();
                record.presented = Some(presented);
                #[cfg(target_arch = "wasm32")]
                self.page_presented(presented);
                #[cfg(not(target_arch = "wasm32"))]
                {
                    // Frames keep the display's grid when it paces them and the loop asks
                    // for no wait of its own: a compositor at its frame callbacks, which
                    // let the frame draw; FIFO at the vertical blank that frees an image,
                    // whose wait ends inside the present.
                    let (display_paced, on_grid_at) =
                        if w.paced_by == super::overlay::PacedBy::Compositor {
                            (true, let_draw)
                        } else {
                            let fifo = matches!(
                                w.gfx.present_mode(),
                                wgpu::PresentMode::Fifo | wgpu::PresentMode::FifoRelaxed
                            );
                            (fifo, presented)
                        };
                    let on_the_grid =
                        display_paced && plan.wake == looplab_timing::Wake::Immediately;
                    self.display_presented(on_grid_at, on_the_grid);
                }
                self.watch_tour(presented, &plan, record.waited);
                record.cpu = crate::platform::process::cpu_time().unwrap_or_default();
                self.run.presented(&record);
                self.readouts.last = record;
            }
            FrameOutcome::Skipped(why) => {
                self.run.skipped += 1;
                log::debug!("frame skipped: {why}");
            }
        }
        self.finish_frame(&plan, &record, accuracy);
    }

    #[cfg(not(target_arch = "wasm32"))]
    /// A frame reached the screen at `at` (`on_the_grid`: on the display's refresh grid):
    /// where the platform told no refresh rate, the presents measure it for snapping.
    pub(super) fn display_presented(&mut self, at: Duration, on_the_grid: bool) {
        let first = self.display.source() != super::display_rate::RefreshSource::Presents;
        if let Some(rate) = self.display.presented(at, on_the_grid) {
            if first {
                log::info!("display: {rate}, measured from the presents");
            } else {
                log::debug!("display: {rate}, measured from the presents");
            }
            self.controls.set_display(rate);
        }
    }

    /// Closes a frame that will not be drawn.
    pub(super) fn skip_frame(&mut self, pending: Pending) {
        self.run.skipped += 1;
        self.finish_frame(&pending.plan, &pending.record, FrameAccuracy::default());
    }

    /// Records a finished frame and waits for the next one's wake time.
    fn finish_frame(&mut self, plan: &FramePlan, record: &FrameRecord, accuracy: FrameAccuracy) {
        let now = self.clock.now();
        self.readouts.steer_delay.frame_ran(record);
        let steer_delay = self.readouts.steer_delay.presented(record);
        let strategy = self.controls.strategy();
        self.run.frame_done(record, strategy, accuracy, steer_delay);
        if !self.controls.settings().paused {
            self.readouts.history.push(*record);
        }
        self.readouts.cpu.sample();
        self.run.speed.check(self.controls.session(), now);
        if !matches!(self.phase, Phase::Quitting(_) | Phase::Resting) {
            self.phase = Phase::Idle {
                wake: plan.wake,
                since: now,
            };
        }
    }
}
