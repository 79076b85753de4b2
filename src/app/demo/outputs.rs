//! What the demo gives the run's files when it ends: the `--stats` report's figures, the
//! frame log, the trace and the recording, each written whole or not at all. A page writes
//! none: it shows its figures instead.

use std::path::Path;
use std::time::Duration;

use looplab_timing::Rate;

use super::Demo;
use crate::app::Outputs;
use crate::app::replay::recording_of;
use crate::app::stats::{
    KnobsReport, MetronomeReport, ReplayReport, ShipReport, StatsReport, WindowReport,
    compare_report,
};
use crate::failure::Failure;
use crate::platform::files;
use crate::session::input_delay;
use crate::session::ship_input::Dashes;
use crate::session::trace::{self, Trace, TraceHeader};

impl Demo {
    /// Closes the run's last frame at `now`, for its totals.
    pub fn close_run(&mut self, now: Duration) {
        self.run.totals.close(now);
    }

    /// The report `--stats` writes at `now`, around the driver's part of it.
    pub fn stats_report(&self, now: Duration, window: WindowReport) -> StatsReport {
        let knobs = &self.controls.knobs;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let session = self.controls.session();
        let ship = &session.world().ship;
        let ship_keys = session.ship_keys();
        let delays = &self.run.steer_delays;
        let last = &self.readouts.last;
        StatsReport {
            seconds: now.as_secs_f64(),
            window_system: window.window_system,
            end: window.end,
            strategies: self.run.totals.totals(),
            final_strategy: self.controls.strategy(),
            knobs: KnobsReport {
                vsync: knobs.vsync(),
                frame_latency: knobs.latency,
                just_in_time: knobs.just_in_time,
                just_in_time_lead_ms: self.just_in_time().and_then(|j| j.lead).map(ms),
                just_in_time_missed: self.just_in_time().map_or(0, |j| j.missed),
                just_in_time_grid_ms: self.just_in_time().and_then(|j| j.grid).map(ms),
                ghosts: knobs.ghosts,
                help: knobs.help,
                overlay: knobs.overlay,
                timeline: knobs.timeline,
                update_cost_ms: ms(knobs.update_cost),
                render_cost_ms: ms(knobs.render_cost),
            },
            inputs_applied: self.run.inputs_applied,
            frames_presented: self.run.presented,
            frames_skipped: self.run.skipped,
            surface_recoveries: window.surface_recoveries,
            gpu_recoveries: window.gpu_recoveries,
            gpu_errors: window.gpu_errors,
            adapter: window.adapter,
            present_mode: window.present_mode,
            surface_size: window.surface_size,
            bullets: session.world().bullets.len(),
            peak_rss_kib: crate::platform::process::peak_rss_kib(),
            speed_warning: self.run.speed.warning().map(str::to_string),
            frame_wait: window.frame_wait,
            display: window.display,
            tour: self.tour_report(),
            hidden: window.hidden,
            metronome: MetronomeReport {
                behind_ms: (last.reference.as_secs_f64() - last.drawn_time().as_secs_f64()) * 1e3,
                hitches_ms: ms(session.hitches()),
            },
            ship: ShipReport {
                position: ship.pos.to_array(),
                travelled_px: ship.travelled,
                input_mode: ship_keys.mode(),
                taps: ship_keys.taps(),
                dashes: Dashes {
                    made: ship.dashes,
                    ..ship_keys.dashes()
                },
                held_ms: ms(ship_keys.held_for()),
                input_delays: delays.len(),
                input_delay_median_ms: input_delay::median(delays).map(ms),
                input_delay_max_ms: delays.iter().max().copied().map(ms),
            },
            compare: self.compare.as_ref().map(|c| compare_report(c, now)),
            replay: self.replay.as_ref().map(|r| {
                let outcome = r.outcome();
                ReplayReport {
                    end_game_seconds: r.end_seconds(),
                    reached: outcome.is_some(),
                    same_state: outcome.map(|o| o.same_state),
                    ship_offset_px: outcome.map(|o| o.ship_offset_px),
                }
            }),
        }
    }

    /// Writes every output the run was asked for, each whole or not at all; the recording's
    /// text goes to `finish_recording` (the driver ends the file it streamed the run's
    /// steering into, or writes it whole). One that cannot be written does not keep the
    /// others from being written: every failure is returned.
    pub fn write_outputs(
        &mut self,
        outputs: &Outputs,
        stats: &StatsReport,
        finish_recording: impl FnOnce(&Path, &str) -> Result<(), Failure>,
    ) -> Vec<Failure> {
        let mut failed: Vec<Failure> = Vec::new();
        let mut keep = |written: Result<(), Failure>| failed.extend(written.err());
        if let Some(path) = &outputs.stats {
            keep(
                files::to_json("stats", stats, true)
                    .and_then(|text| files::write_file("--stats", path, text.as_bytes())),
            );
        }
        if let Some(path) = &outputs.frame_log {
            keep(self.run.write_frame_log(path));
        }
        if let (Some(path), Some(frames)) = (&outputs.trace, self.run.trace.take()) {
            keep(self.write_trace(path, frames));
        }
        if let Some(path) = &outputs.record {
            let start = &self.start;
            let recording = recording_of(
                start.strategy,
                &start.settings,
                &start.world,
                self.controls.session(),
            );
            keep(finish_recording(path, &recording.to_text()));
        }
        failed
    }

    /// `--trace FILE`: FILE.csv in PresentMon's 1.x columns, for the field's tools; any
    /// other name in Looplab's own.
    fn write_trace(&self, path: &Path, frames: Vec<trace::TraceFrame>) -> Result<(), Failure> {
        let settings = self.controls.settings();
        let trace = Trace {
            header: TraceHeader {
                looplab_trace: trace::VERSION,
                strategy: self.controls.strategy(),
                update_hz: settings.update_rate.as_hz(),
                frame_cap_hz: settings.frame_cap.map(Rate::as_hz),
                refresh_hz: self.controls.display().as_hz(),
                vsync: self.controls.knobs.vsync(),
                bullets: self.start.world.bullets,
            },
            frames,
        };
        let as_csv = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        let text = if as_csv {
            crate::capture::write::presentmon_v1(&trace, "looplab", std::process::id())
        } else {
            trace.to_text()
        };
        files::write_file("--trace", path, text.as_bytes())
    }
}
