//! The on-screen overlay, laid out with egui: what the active strategy is doing, in numbers
//! and a frame-time graph, plus the key help. Its text is built by plain functions (tested
//! without a GPU); [`ui`] lays it out, and the renderer paints what it lays out.

use std::time::{Duration, Instant};

use egui::{Align2, Color32, RichText};
use looplab_timing::{FramePlan, StatsSummary, Strategy, View};

use super::controls::Controls;
use crate::input::{Action, BINDINGS, strategy_key};
use crate::session::frame::FrameRecord;
use crate::settings_text::{Cap, MaxUpdates, format_duration};
use crate::strategy_text;
use crate::world::accuracy::FrameAccuracy;

/// Frames shown in the frame-time graph.
const GRAPH_FRAMES: usize = 240;
/// Frame time at the top of the graph.
const GRAPH_MAX: Duration = Duration::from_millis(50);

/// Everything the overlay shows about one frame.
pub struct OverlayModel<'a> {
    pub controls: &'a Controls,
    pub plan: &'a FramePlan,
    /// The last presented frame, whole (this one is not presented yet).
    pub last: &'a FrameRecord,
    pub summary: StatsSummary,
    /// Drawn-position error, averaged over recent frames.
    pub accuracy: FrameAccuracy,
    pub present_mode: wgpu::PresentMode,
    /// Share of one core the process used over the last half second, in percent.
    pub cpu_percent: Option<f64>,
    pub adapter: &'a str,
}

/// The speed warning as last logged: checked twice a second, logged when it changes.
#[derive(Debug)]
pub struct SpeedWatch {
    warning: Option<String>,
    checked: Instant,
}

impl Default for SpeedWatch {
    fn default() -> Self {
        Self {
            warning: None,
            checked: Instant::now(),
        }
    }
}

impl SpeedWatch {
    /// How often the warning is checked.
    const INTERVAL: Duration = Duration::from_millis(500);

    /// Checks the warning if it is time to, and logs it when it changed.
    pub fn check(&mut self, controls: &Controls) {
        if self.checked.elapsed() < Self::INTERVAL {
            return;
        }
        self.checked = Instant::now();
        let warning = speed_warning(&controls.session().stats().summary(), controls);
        if warning != self.warning {
            match &warning {
                Some(w) => log::info!("{w}"),
                None => log::info!("game speed back to the expected rate"),
            }
            self.warning = warning;
        }
    }

    /// The warning as last checked.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }
}

/// A warning when the game clock does not keep to real time (times the time scale).
pub fn speed_warning(summary: &StatsSummary, controls: &Controls) -> Option<String> {
    let s = controls.settings();
    // Judge only a window of at least half a second (a few frames when frames are slow).
    let observed = summary.frame_time.avg * summary.frames as u32;
    if s.paused || summary.frames < 2 || observed < Duration::from_millis(500) {
        return None;
    }
    let expected = if controls.strategy() == Strategy::Uncapped {
        1.0
    } else {
        s.time_scale.factor()
    };
    if expected == 0.0 {
        return None;
    }
    let relative = summary.ratio / expected;
    if relative < 0.9 {
        Some(format!(
            "game running slow: {:.0}% of {}",
            relative * 100.0,
            if expected == 1.0 {
                "real time".to_string()
            } else {
                format!("{expected}x real time")
            }
        ))
    } else if relative > 1.1 {
        Some(format!(
            "game running fast: {:.1}x real time",
            summary.ratio
        ))
    } else {
        None
    }
}

/// The overlay's rows: a label and a value each.
pub fn status_rows(m: &OverlayModel) -> Vec<(&'static str, String)> {
    let c = m.controls;
    let s = c.settings();
    let st = &m.summary;
    let ft = &st.frame_time;
    let alpha = match m.plan.view {
        View::Latest => "- (draws the latest state)".to_string(),
        view => format!("{:.3}", view.alpha()),
    };
    let time_scale = if c.strategy() == Strategy::Uncapped {
        format!("{} (not used: one step per frame)", s.time_scale)
    } else {
        s.time_scale.to_string()
    };
    vec![
        ("FPS", format!("{:.1}", st.fps)),
        (
            "UPS",
            format!("{:.1}  (target {})", st.ups, trim(s.update_rate.as_hz())),
        ),
        (
            "frame time",
            format!(
                "avg {}  min {}  max {}  p99 {}",
                ms(ft.avg),
                ms(ft.min),
                ms(ft.max),
                ms(ft.p99)
            ),
        ),
        ("updates this frame", m.plan.updates.to_string()),
        (
            "last frame, ms",
            match m.last.draw_time() {
                Some(draw) => format!(
                    "wait {}  update {}  draw {}",
                    ms(m.last.waited),
                    ms(m.last.update_time),
                    ms(draw)
                ),
                None => "-".to_string(),
            },
        ),
        ("alpha", alpha),
        ("game / real", format!("{:.3}", st.ratio)),
        (
            "drawn error",
            format!(
                "{:.2} px mean, {:.2} px max",
                m.accuracy.mean_error, m.accuracy.max_error
            ),
        ),
        ("bullets", c.session().world().bullets.len().to_string()),
        (
            "present",
            format!(
                "{:?}, vsync {}, cap {}",
                m.present_mode,
                if c.knobs.vsync { "on" } else { "off" },
                Cap(s.frame_cap)
            ),
        ),
        ("max updates/frame", MaxUpdates(s.max_updates).to_string()),
        ("time scale", time_scale),
        (
            "simulated load",
            format!(
                "update {}, render {}",
                format_duration(c.knobs.update_cost),
                format_duration(c.knobs.render_cost)
            ),
        ),
        (
            "process CPU",
            m.cpu_percent
                .map_or("-".to_string(), |p| format!("{p:.0}% of a core")),
        ),
    ]
}

fn ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

fn trim(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Colour of a frame's bar by the updates it ran: none grey, one green, two yellow, more
/// orange, and red when it hit the per-frame maximum.
fn bar_colour(updates: u32, max: Option<u32>) -> Color32 {
    if max.is_some_and(|m| updates >= m) && updates > 1 {
        return Color32::from_rgb(235, 70, 60);
    }
    match updates {
        0 => Color32::from_gray(110),
        1 => Color32::from_rgb(90, 200, 110),
        2 => Color32::from_rgb(230, 210, 80),
        _ => Color32::from_rgb(240, 150, 60),
    }
}

/// Lays out the overlay. Returns the actions clicked in it and the rectangles of its panels
/// (in points), whose backgrounds the sprite pipeline draws.
pub fn ui(ctx: &egui::Context, m: &OverlayModel) -> (Vec<Action>, Vec<egui::Rect>) {
    let mut actions = Vec::new();
    let mut panels = Vec::new();
    let c = m.controls;

    let main = egui::Window::new("Looplab")
        .anchor(Align2::LEFT_TOP, [8.0, 8.0])
        .resizable(false)
        .collapsible(false)
        .title_bar(false)
        .frame(panel_frame())
        .show(ctx, |ui| {
            let strategy = c.strategy();
            let text = strategy_text::text(strategy);
            ui.label(
                RichText::new(format!(
                    "{} {}: {}",
                    strategy_key(strategy),
                    strategy.id(),
                    text.name
                ))
                .strong()
                .size(15.0),
            );
            ui.label(RichText::new(text.trade_off).italics());
            ui.label(
                RichText::new(format!("from: {}", text.source))
                    .small()
                    .weak(),
            );
            ui.horizontal(|ui| {
                for s in Strategy::ALL {
                    if ui
                        .selectable_label(s == strategy, strategy_key(s).to_string())
                        .on_hover_text(s.id())
                        .clicked()
                    {
                        actions.push(Action::SelectStrategy(s));
                    }
                }
                ui.separator();
                let pause = if c.settings().paused {
                    "resume"
                } else {
                    "pause"
                };
                if ui.button(pause).clicked() {
                    actions.push(Action::TogglePause);
                }
                if ui.button("step").clicked() {
                    actions.push(Action::SingleStep);
                }
                if ui.selectable_label(c.knobs.ghosts, "ghosts").clicked() {
                    actions.push(Action::ToggleGhosts);
                }
                if ui.selectable_label(c.knobs.help, "help").clicked() {
                    actions.push(Action::ToggleHelp);
                }
            });
            if let Some(w) = speed_warning(&m.summary, c) {
                ui.label(
                    RichText::new(w)
                        .color(Color32::from_rgb(255, 120, 90))
                        .strong(),
                );
            }
            if c.settings().paused {
                ui.label(RichText::new("paused (N steps once)").color(Color32::YELLOW));
            }
            egui::Grid::new("status")
                .num_columns(2)
                .spacing([12.0, 2.0])
                .show(ui, |ui| {
                    for (label, value) in status_rows(m) {
                        ui.label(label);
                        ui.monospace(value);
                        ui.end_row();
                    }
                });
            frame_graph(ui, c);
            ui.label(
                RichText::new(format!("{}  |  H: keys  O: hide", m.adapter))
                    .small()
                    .weak(),
            );
        });
    panels.extend(main.map(|r| r.response.rect));
    if c.knobs.help {
        let help = egui::Window::new("Keys")
            .anchor(Align2::RIGHT_TOP, [-8.0, 8.0])
            .resizable(false)
            .collapsible(false)
            .title_bar(false)
            .frame(panel_frame())
            .show(ctx, |ui| {
                ui.label(RichText::new("Keys").strong());
                egui::Grid::new("keys")
                    .num_columns(2)
                    .spacing([12.0, 2.0])
                    .show(ui, |ui| {
                        for b in BINDINGS {
                            ui.monospace(b.label);
                            ui.label(b.does);
                            ui.end_row();
                        }
                    });
            });
        panels.extend(help.map(|r| r.response.rect));
    }
    (actions, panels)
}

/// A window frame with margins only: the background is drawn by the sprite pipeline (see
/// `scene::panel_backgrounds`).
fn panel_frame() -> egui::Frame {
    egui::Frame::NONE.inner_margin(egui::Margin::same(10))
}

/// Recent frame times as bars, coloured by the updates each frame ran.
fn frame_graph(ui: &mut egui::Ui, c: &Controls) {
    let size = egui::vec2(GRAPH_FRAMES as f32 * 1.5, 60.0);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_black_alpha(120));
    let samples = c.session().stats().samples();
    let skip = samples.len().saturating_sub(GRAPH_FRAMES);
    let max = c.settings().max_updates;
    let bar = rect.width() / GRAPH_FRAMES as f32;
    for (i, s) in samples.skip(skip).enumerate() {
        let h = (s.duration.as_secs_f32() / GRAPH_MAX.as_secs_f32()).min(1.0) * rect.height();
        let x = rect.left() + i as f32 * bar;
        let r = egui::Rect::from_min_max(
            egui::pos2(x, rect.bottom() - h),
            egui::pos2(x + bar, rect.bottom()),
        );
        painter.rect_filled(r, 0.0, bar_colour(s.updates, max));
    }
    // A line at 16.7 ms (60 FPS) for scale.
    let y = rect.bottom() - (16.667 / GRAPH_MAX.as_secs_f32() / 1000.0) * rect.height();
    painter.hline(
        rect.x_range(),
        y,
        egui::Stroke::new(1.0, Color32::from_white_alpha(60)),
    );
    painter.text(
        egui::pos2(rect.right() - 2.0, y - 1.0),
        Align2::RIGHT_BOTTOM,
        "16.7 ms",
        egui::FontId::monospace(9.0),
        Color32::from_white_alpha(120),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::controls::Knobs;
    use crate::world::WorldConfig;
    use looplab_timing::{LoopSettings, ManualClock, Wake};

    fn controls(strategy: Strategy) -> Controls {
        Controls::new(
            strategy,
            LoopSettings::default(),
            Knobs::default(),
            &WorldConfig {
                seed: 1,
                bullets: 10,
            },
        )
    }

    fn run(c: &mut Controls, frame: Duration, frames: u32) -> FramePlan {
        let mut clock = ManualClock::default();
        let mut plan = c.session_mut().frame(clock.now(), |_, _| {});
        for _ in 0..frames {
            clock.advance(frame);
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            }
            plan = c.session_mut().frame(clock.now(), |_, _| {});
        }
        plan
    }

    #[test]
    fn slow_fixed_sleep_is_flagged_and_interpolated_is_not() {
        let mut slow = controls(Strategy::FixedSleep);
        run(&mut slow, Duration::from_millis(40), 60);
        let w = speed_warning(&slow.session().stats().summary(), &slow).unwrap();
        assert!(w.starts_with("game running slow: 42%"), "{w}");

        let mut fine = controls(Strategy::Interpolated);
        run(&mut fine, Duration::from_millis(40), 60);
        assert_eq!(
            speed_warning(&fine.session().stats().summary(), &fine),
            None
        );

        let mut fast = controls(Strategy::Uncapped);
        run(&mut fast, Duration::from_millis(2), 600);
        let w = speed_warning(&fast.session().stats().summary(), &fast).unwrap();
        assert!(w.starts_with("game running fast: 8.3x"), "{w}");
    }

    #[test]
    fn rows_show_the_plan_and_knobs() {
        let mut c = controls(Strategy::Interpolated);
        let plan = run(&mut c, Duration::from_millis(7), 30);
        let model = OverlayModel {
            controls: &c,
            plan: &plan,
            last: &FrameRecord::default(),
            summary: c.session().stats().summary(),
            accuracy: FrameAccuracy {
                mean_error: 3.25,
                max_error: 10.0,
                judder: 0.0,
            },
            present_mode: wgpu::PresentMode::Immediate,
            cpu_percent: Some(97.0),
            adapter: "test",
        };
        let rows = status_rows(&model);
        let get = |k: &str| rows.iter().find(|(l, _)| *l == k).unwrap().1.clone();
        assert_eq!(get("alpha"), format!("{:.3}", plan.view.alpha()));
        assert!(get("UPS").contains("target 60"));
        assert_eq!(get("drawn error"), "3.25 px mean, 10.00 px max");
        assert!(get("present").starts_with("Immediate, vsync off, cap off"));
        assert_eq!(get("process CPU"), "97% of a core");
        assert_eq!(get("max updates/frame"), "10");
        assert_eq!(get("bullets"), "10");
    }

    #[test]
    fn bars_turn_red_at_the_update_limit() {
        assert_eq!(bar_colour(10, Some(10)), Color32::from_rgb(235, 70, 60));
        assert_eq!(bar_colour(0, Some(10)), Color32::from_gray(110));
        assert_ne!(bar_colour(3, None), bar_colour(10, Some(10)));
    }
}
