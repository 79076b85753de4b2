//! The files a native run writes when it ends (`--stats`, `--frame-log`, `--trace`,
//! `--record`), each whole or not at all. A page writes none: it shows its figures instead.

use looplab_timing::Rate;

use super::App;
use crate::failure::Failure;
use crate::platform::files;
use crate::session::recording::Recording;
use crate::session::trace::{self, Trace, TraceHeader};

impl App {
    /// Writes every output the run was asked for, each whole or not at all. One that
    /// cannot be written does not keep the others from being written: the failure names
    /// each that failed, in one line (exit status 1).
    pub(super) fn write_outputs(&mut self) -> Result<(), Failure> {
        self.run.totals.close(self.clock.now());
        let outputs = self.options.outputs.clone();
        let mut failed: Vec<Failure> = Vec::new();
        let mut keep = |written: Result<(), Failure>| failed.extend(written.err());
        if let Some(path) = &outputs.stats {
            keep(
                files::to_json("stats", &self.stats_report(), true)
                    .and_then(|text| files::write_file("--stats", path, text.as_bytes())),
            );
        }
        if let Some(path) = &outputs.frame_log {
            keep(self.run.write_frame_log(path));
        }
        if let (Some(path), Some(frames)) = (&outputs.trace, self.run.trace.take()) {
            let settings = self.controls.settings();
            let trace = Trace {
                header: TraceHeader {
                    looplab_trace: trace::VERSION,
                    strategy: self.controls.strategy(),
                    update_hz: settings.update_rate.as_hz(),
                    frame_cap_hz: settings.frame_cap.map(Rate::as_hz),
                    refresh_hz: self.controls.display().as_hz(),
                    vsync: self.controls.knobs.vsync,
                    bullets: self.options.world.bullets,
                },
                frames,
            };
            // FILE.csv: PresentMon's 1.x columns, for the field's tools; else Looplab's own.
            let as_csv = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
            let text = if as_csv {
                crate::capture::write::presentmon_v1(&trace, "looplab", std::process::id())
            } else {
                trace.to_text()
            };
            keep(files::write_file("--trace", path, text.as_bytes()));
        }
        if let Some(path) = &outputs.record {
            let o = &self.options;
            let recording = super::replay::recording_of(
                o.strategy,
                &o.settings,
                &o.world,
                self.controls.session(),
            );
            let text = recording.to_text();
            keep(match self.recording_stream.take() {
                Some(stream) => stream.finish(&text),
                None => files::write_file("--record", path, text.as_bytes()),
            });
        }
        match failed.len() {
            0 => Ok(()),
            1 => Err(failed.remove(0)),
            _ => Err(Failure::runtime(
                failed
                    .iter()
                    .map(|f| f.message.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            )),
        }
    }

    /// Appends the steering changes made since the last call to the recording written as
    /// the run goes (`--record`).
    pub(super) fn stream_recording(&mut self) {
        let Some(stream) = &mut self.recording_stream else {
            return;
        };
        let changes = self.controls.session().steering().changes();
        for change in &changes[self.streamed_changes..] {
            stream.append(&Recording::change_line(change));
        }
        self.streamed_changes = changes.len();
    }
}
