//! The on-screen words, laid out with egui: each demonstration's caption and live figure,
//! the timeline's row names and legend, and the overlay panel (what the active strategy is
//! doing, in numbers and a frame-time graph, plus the key help). Its text is built by plain
//! functions (tested without a GPU); [`ui`] lays it out in world pixels (egui's zoom makes a
//! point one world pixel), and the renderer paints what it lays out.

use std::sync::Arc;
use std::time::Duration;

use crate::session::ship_input::{InputMode, Taps};
use egui::{Align2, Color32, RichText};
use glam::Vec2;
use looplab_timing::{FramePlan, PredictFrom, StatsSummary, Strategy, View};

use super::controls::{Knobs, delta_text};
use crate::input::{Action, BINDINGS, strategy_key};
use crate::render::scene::ViewTransform;
use crate::render::timeline;
use crate::session::Session;
use crate::session::frame::FrameRecord;
use crate::session::input_delay::InputDelay;
use crate::session::timeline::{MarkKind, Strip};
use crate::settings_text::{Cap, MaxUpdates, format_duration};
use crate::strategy_text;
use crate::tour::{Focus, TourPanel};
use crate::world::accuracy::FrameAccuracy;
use crate::world::layout::{CAPTION_HEIGHT, LAYOUT, Region};

/// Frames shown in the frame-time graph.
const GRAPH_FRAMES: usize = 192;
/// Frame times the graph's top may stand for: the smallest that holds every bar shown.
const GRAPH_SCALES_MS: [f32; 7] = [25.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0];

/// What the overlay says about where the loop runs: what the window knows of its surface
/// and process, or stand-ins for a frame drawn offscreen.
#[derive(Clone, Debug, PartialEq)]
pub struct PlatformFacts {
    pub present_mode: wgpu::PresentMode,
    /// Who starts the frames.
    pub paced_by: PacedBy,
    /// What the game did while the window was last hidden, for a while after it is shown.
    pub hidden_note: Option<String>,
    /// Share of one core the process used over the last half second, in percent.
    pub cpu_percent: Option<f64>,
    /// The GPU adapter in words.
    pub adapter: Arc<str>,
}

/// Who decides when the window's frames start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacedBy {
    /// The loop itself: it waits for its strategy's wake time.
    Loop,
    /// A Wayland compositor, through frame callbacks, whatever the present mode: vsync off
    /// and uncapped cannot outrun it.
    Compositor,
    /// A browser, through `requestAnimationFrame`: the page owns no loop, is called once a
    /// refresh, and a frame cap can only let callbacks pass.
    Browser,
}

impl PlatformFacts {
    /// A frame drawn into a texture: no window, no process figures.
    pub fn offscreen(present_mode: wgpu::PresentMode) -> Self {
        Self {
            present_mode,
            paced_by: PacedBy::Loop,
            hidden_note: None,
            cpu_percent: None,
            adapter: Arc::from("offscreen"),
        }
    }
}

/// Everything the overlay shows about one frame. Built by the frame composer
/// ([`super::compose`]), the one place a frame is put together.
pub struct OverlayModel<'a> {
    /// The running loop: its planner, world and statistics.
    pub session: &'a Session,
    pub knobs: &'a Knobs,
    pub plan: &'a FramePlan,
    /// The last presented frame, whole (this one is not presented yet).
    pub last: &'a FrameRecord,
    pub summary: StatsSummary,
    /// Drawn-position error, averaged over recent frames.
    pub accuracy: FrameAccuracy,
    pub facts: &'a PlatformFacts,
    /// The ship's input-to-display delay.
    pub steer_delay: &'a InputDelay,
    /// The timeline strip, when it is shown.
    pub strip: Option<&'a Strip>,
    /// Compare mode's lanes: each tile and its caption (empty when compare mode is off;
    /// then the demonstrations' captions are shown).
    pub lane_captions: &'a [(Region, String)],
    /// From world pixels to the target's pixels.
    pub transform: ViewTransform,
    /// The guided tour's current stop, while it is on: the panel opens with it.
    pub tour: Option<&'a TourPanel>,
    /// Say in one quiet line how to start the tour (the window's first seconds).
    pub invite: bool,
}

/// The speed warning as last logged: checked twice a second, logged when it changes.
#[derive(Debug, Default)]
pub struct SpeedWatch {
    warning: Option<String>,
    /// When it was last checked, on the loop's clock.
    checked: Option<Duration>,
}

impl SpeedWatch {
    /// How often the warning is checked.
    const INTERVAL: Duration = Duration::from_millis(500);

    /// Checks the warning if it is time to at `now`, and logs it when it changed.
    pub fn check(&mut self, session: &Session, now: Duration) {
        if self
            .checked
            .is_some_and(|t| now.saturating_sub(t) < Self::INTERVAL)
        {
            return;
        }
        self.checked = Some(now);
        let warning = speed_warning(&session.stats().summary(), session);
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
pub fn speed_warning(summary: &StatsSummary, session: &Session) -> Option<String> {
    let s = session.settings();
    // Judge only a window of at least half a second (a few frames when frames are slow).
    let observed = summary.frame_time.avg * summary.frames as u32;
    if s.paused || summary.frames < 2 || observed < Duration::from_millis(500) {
        return None;
    }
    let expected = if session.planner().strategy() == Strategy::Uncapped {
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

/// The overlay's rows: a label and a value each, short enough for the overlay's column.
pub fn status_rows(m: &OverlayModel) -> Vec<(&'static str, String)> {
    let s = m.session.settings();
    let strategy = m.session.planner().strategy();
    let st = &m.summary;
    let ft = &st.frame_time;
    let this_frame = match m.plan.view {
        View::Latest => format!("{} updates, latest state", m.plan.updates),
        View::Predict { to, from } => format!(
            "{} updates, {} +{} ms",
            m.plan.updates,
            if from == PredictFrom::Kept {
                "kept copy"
            } else {
                "copy"
            },
            ms_short(to.saturating_sub(m.plan.simulated))
        ),
        view => format!("{} updates, alpha {:.2}", m.plan.updates, view.alpha()),
    };
    let time_scale = if strategy == Strategy::Uncapped {
        format!("{} (unused)", s.time_scale)
    } else {
        s.time_scale.to_string()
    };
    let mut rows = vec![
        (
            "FPS / UPS",
            format!(
                "{:.1} / {:.1} (target {})",
                st.fps,
                st.ups,
                trim(s.update_rate.as_hz())
            ),
        ),
        (
            "frame ms",
            format!("{} avg, {} p99, {} max", ms(ft.avg), ms(ft.p99), ms(ft.max)),
        ),
        ("this frame", this_frame),
        (
            "last frame ms",
            match m.last.draw_time() {
                Some(draw) => format!(
                    "wait {} upd {} draw {}",
                    ms(m.last.waited),
                    ms(m.last.update_time),
                    ms(draw)
                ),
                None => "-".to_string(),
            },
        ),
        ("game / real", format!("{:.3}", st.ratio)),
        (
            "drawn error",
            format!(
                "{:.2} px mean, {:.1} max",
                m.accuracy.mean_error, m.accuracy.max_error
            ),
        ),
        ("ship delay", steer_delay_text(m.steer_delay)),
        (
            "present",
            match m.facts.paced_by {
                // A browser presents at the display's refresh whatever is asked: vsync is
                // not the page's to choose.
                PacedBy::Browser => format!(
                    "cap {}, paced by the browser\n(requestAnimationFrame)",
                    Cap(s.frame_cap)
                ),
                paced => format!(
                    "{:?}, vsync {}, cap {}{}",
                    m.facts.present_mode,
                    if m.knobs.vsync { "on" } else { "off" },
                    Cap(s.frame_cap),
                    if paced == PacedBy::Compositor {
                        "\npaced by the compositor"
                    } else {
                        ""
                    }
                ),
            },
        ),
        ("frame deltas", delta_text(&s.delta_mode)),
        (
            "window",
            m.facts
                .hidden_note
                .clone()
                .unwrap_or_else(|| "shown".to_string()),
        ),
        (
            "max updates",
            format!("{} a frame", MaxUpdates(s.max_updates)),
        ),
        ("time scale", time_scale),
        (
            "sim. load",
            match &m.knobs.capture {
                // As short as the other rows: the panel is no wider than they are.
                Some(c) => {
                    let (at, of) = c.position();
                    let name: String = c.name.chars().take(16).collect();
                    if m.knobs.update_cost.is_zero() && m.knobs.render_cost.is_zero() {
                        format!("{name} frame {at}/{of}")
                    } else {
                        format!(
                            "upd {}, render {} + {name}",
                            format_duration(m.knobs.update_cost),
                            format_duration(m.knobs.render_cost)
                        )
                    }
                }
                None => format!(
                    "update {}, render {}",
                    format_duration(m.knobs.update_cost),
                    format_duration(m.knobs.render_cost)
                ),
            },
        ),
        (
            "process CPU",
            m.facts
                .cpu_percent
                .map_or("-".to_string(), |p| format!("{p:.0}% of a core")),
        ),
    ];
    // A page is one of the browser's threads and is told nothing of its CPU time: the row
    // is left out there (the help says so).
    if m.facts.paced_by == PacedBy::Browser {
        rows.retain(|(label, _)| *label != "process CPU");
    }
    rows
}

/// The ship's delay as the overlay says it.
pub fn steer_delay_text(delay: &InputDelay) -> String {
    match (delay.last(), delay.median()) {
        (Some(last), Some(median)) => {
            format!("{} ms last, {} median", ms_short(last), ms_short(median))
        }
        _ => "steer with the arrows".to_string(),
    }
}

/// The taps so far and what became of them, for the stream's caption: `, 10 taps, 10
/// reached the game` or `, 10 taps, 5 lost`; nothing before the first tap.
pub fn taps_text(taps: Taps) -> String {
    match taps {
        Taps { made: 0, .. } => String::new(),
        Taps { made, lost: 0, .. } => {
            let reached = taps.reached;
            format!(
                ", {made} {}, {reached} reached the game",
                plural(made, "tap")
            )
        }
        Taps { made, lost, .. } => format!(", {made} {}, {lost} lost", plural(made, "tap")),
    }
}

/// `tap` or `taps`, as `n` says.
fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

fn ms_short(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1e3)
}

/// Each demonstration's caption with its live figure, and the region it heads.
pub fn captions(m: &OverlayModel) -> Vec<(Region, String)> {
    let session = m.session;
    let world = session.world();
    let darts = &world.darts;
    // The wall-clock marker shows `reference`; the metronome is drawn at the frame's view.
    let drawn = FrameRecord::planned(m.plan).drawn_time();
    let gap = drawn.as_secs_f64() - session.reference().as_secs_f64();
    let hitches = session.hitches().as_secs_f64() * 1e3;
    let gap = if gap.abs() < 0.0005 {
        "in step with the wall clock".to_string()
    } else if gap < 0.0 && hitches >= 0.5 {
        format!(
            "game {} ms behind the wall clock ({} ms of it dropped in hitches)",
            trim_ms(-gap * 1e3),
            trim_ms(hitches)
        )
    } else {
        format!(
            "game {} ms {} the wall clock",
            trim_ms(gap.abs() * 1e3),
            if gap < 0.0 { "behind" } else { "ahead of" }
        )
    };
    vec![
        (
            LAYOUT.stream,
            format!(
                "{}bullet stream: {} bullets   ship: arrow keys, {} input, delay {}{}",
                strategy_prefix(m),
                world.bullets.len(),
                match session.controls().mode() {
                    InputMode::Accumulated => "accumulated",
                    InputMode::Sampled => "sampled",
                },
                m.steer_delay
                    .last()
                    .map_or("-".to_string(), |d| format!("{} ms", ms_short(d))),
                taps_text(session.controls().taps())
            ),
        ),
        (
            LAYOUT.metronome,
            format!("metronome (white: game clock, red ring: wall clock): {gap}"),
        ),
        (
            LAYOUT.balls,
            format!(
                "bouncing balls: energy drift {:+.2}%",
                world.balls.energy_drift() * 100.0
            ),
        ),
        (
            LAYOUT.wall,
            format!(
                "thin wall: {} of {} darts went through",
                darts.tunnels,
                darts.hits + darts.tunnels
            ),
        ),
    ]
}

/// With the overlay hidden, the stream's caption says which strategy runs and at what rate.
fn strategy_prefix(m: &OverlayModel) -> String {
    if m.knobs.overlay {
        return String::new();
    }
    let s = m.session.planner().strategy();
    format!(
        "{} {} at {} UPS   ",
        strategy_key(s),
        s.id(),
        trim(m.session.settings().update_rate.as_hz())
    )
}

fn trim_ms(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Milliseconds, to two places below 100 ms, whole above (so a row keeps its width).
fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else {
        format!("{ms:.2}")
    }
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

/// A text as laid out, for checking the layout: where it landed and the region it must keep
/// to, both in world pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedText {
    pub text: String,
    pub rect: Region,
    pub within: Region,
}

/// What [`ui`] laid out.
#[derive(Default)]
pub struct Laid {
    /// Buttons clicked.
    pub actions: Vec<Action>,
    /// The panels' rectangles in points, whose backgrounds the sprite pipeline draws.
    pub panels: Vec<egui::Rect>,
    /// Every text with its place, when asked for (tests of the layout); empty otherwise.
    pub texts: Vec<PlacedText>,
}

/// Where the help panel goes: over the bullet stream, under its caption (it is painted over
/// the stream's bullets and ship); in compare mode, over the top of the lanes, whose
/// captions under it are not drawn while it is open.
pub fn help_region(compare: bool) -> Region {
    let stream = LAYOUT.stream.inset(6.0, CAPTION_HEIGHT + 2.0, 6.0, 6.0);
    if !compare {
        return stream;
    }
    let lanes = crate::render::lanes::LANES_AREA;
    Region {
        min: lanes.min + Vec2::splat(6.0),
        max: Vec2::new(lanes.max.x - 6.0, lanes.min.y + 6.0 + stream.size().y),
    }
}

/// Lays out the captions, the timeline's words and, when shown, the overlay panel and the
/// help. With `audit`, also says where every text landed.
pub fn ui(ctx: &egui::Context, m: &OverlayModel, audit: bool) -> Laid {
    let mut laid = Laid::default();
    let (knobs, session) = (m.knobs, m.session);
    let settings = session.settings();
    let place = Placement::new(&m.transform);

    // Every caption on one background layer: one mesh and one draw for all the words, which
    // a software rasteriser needs (an egui area each would be a draw each).
    let help = (knobs.overlay && knobs.help).then(|| help_region(knobs.compare.is_some()));
    let mut words = Words {
        painter: ctx.layer_painter(egui::LayerId::background()),
        place: &place,
        covered: help,
        audit: audit.then(Vec::new),
    };
    if m.lane_captions.is_empty() {
        for (region, text) in captions(m) {
            words.text(
                region,
                region.min + Vec2::new(6.0, 2.0),
                &text,
                12.5,
                CAPTION_GREY,
            );
        }
    } else {
        for &(tile, ref text) in m.lane_captions {
            words.text(
                tile,
                tile.min + Vec2::new(6.0, 2.0),
                text,
                12.0,
                CAPTION_GREY,
            );
        }
    }
    if let Some(strip) = m.strip {
        timeline_words(&mut words, strip, settings.paused);
    }
    if let Some(tour) = m.tour {
        // The region the stop points at, framed in the tour's gold.
        let r = focus_region(tour.focus, knobs.overlay);
        words.painter.rect_stroke(
            egui::Rect::from_min_max(place.at(r.min), place.at(r.max)),
            3.0,
            egui::Stroke::new(2.0, TOUR_GOLD),
            egui::StrokeKind::Outside,
        );
    }
    laid.texts = words.audit.take().unwrap_or_default();
    if !knobs.overlay {
        return laid;
    }
    let actions = &mut laid.actions;

    let column = LAYOUT.panel;
    let inner_width = column.size().x - 2.0 * PANEL_MARGIN;
    let main = egui::Window::new("Looplab")
        .fixed_pos(place.at(column.min))
        .min_width(inner_width)
        .max_width(inner_width)
        .resizable(false)
        .collapsible(false)
        .title_bar(false)
        .frame(panel_frame())
        .show(ctx, |ui| {
            ui.spacing_mut().item_spacing.y = 2.0;
            if let Some(tour) = m.tour {
                tour_section(ui, tour);
            } else if m.invite {
                ui.label(RichText::new(TOUR_INVITE).size(11.5).color(INVITE_GOLD));
            }
            if let Some(preset) = knobs.compare {
                ui.label(
                    RichText::new(format!("compare mode (L): {}", preset.description()))
                        .color(Color32::from_rgb(255, 210, 90))
                        .strong(),
                );
                let target = match knobs.selected_lane {
                    Some(i) => format!("lane {}, framed in gold", i + 1),
                    None => "every lane".to_string(),
                };
                ui.label(
                    RichText::new(format!(
                        "modelled machines steered together; strategy and loop keys act on {target} (K)"
                    ))
                    .small(),
                );
            }
            let strategy = session.planner().strategy();
            let text = strategy_text::text(strategy);
            ui.label(
                RichText::new(format!(
                    "{} {}: {}",
                    strategy_key(strategy),
                    strategy.id(),
                    text.name
                ))
                .strong()
                .size(14.0),
            );
            ui.label(RichText::new(text.trade_off).italics().size(12.0));
            if m.facts.paced_by == PacedBy::Browser {
                ui.label(
                    RichText::new(strategy_text::in_a_page(strategy))
                        .size(12.0)
                        .color(Color32::from_rgb(140, 200, 255)),
                );
            }
            ui.label(
                RichText::new(format!("from: {}", text.source))
                    .small()
                    .weak(),
            );
            ui.horizontal_wrapped(|ui| {
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
                let pause = if settings.paused {
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
                if ui.selectable_label(knobs.ghosts, "ghosts").clicked() {
                    actions.push(Action::ToggleGhosts);
                }
                if ui.selectable_label(knobs.help, "keys").clicked() {
                    actions.push(Action::ToggleHelp);
                }
            });
            if let Some(w) = speed_warning(&m.summary, session) {
                ui.label(
                    RichText::new(w)
                        .color(Color32::from_rgb(255, 120, 90))
                        .strong(),
                );
            }
            if settings.paused {
                ui.label(RichText::new("paused (N steps once)").color(Color32::YELLOW));
            }
            // On the tour the stop takes the figures' room: its own figure is in its panel,
            // the others in the regions' captions.
            let rows = status_rows(m);
            let shown = if m.tour.is_some() { TOUR_ROWS } else { rows.len() };
            egui::Grid::new("status")
                .num_columns(2)
                .spacing([8.0, 1.0])
                .show(ui, |ui| {
                    for (label, value) in rows.into_iter().take(shown) {
                        ui.label(RichText::new(label).size(11.5));
                        ui.label(RichText::new(value).monospace().size(11.0));
                        ui.end_row();
                    }
                });
            if m.tour.is_none() {
                frame_graph(ui, session);
            }
            ui.label(
                RichText::new(format!("{}  |  H: keys  O: hide", m.facts.adapter))
                    .small()
                    .weak(),
            );
        });
    let mut windows = Vec::new();
    windows.extend(main.map(|r| (r.response, column)));
    if knobs.help {
        let region = help_region(knobs.compare.is_some());
        // Two columns of keys, each as wide as half the region, their descriptions wrapped.
        let column_width = (region.size().x - 2.0 * PANEL_MARGIN - COLUMN_GAP) / 2.0;
        let help = egui::Window::new("Keys")
            .fixed_pos(place.at(region.min))
            .min_width(region.size().x - 2.0 * PANEL_MARGIN)
            .max_width(region.size().x - 2.0 * PANEL_MARGIN)
            .resizable(false)
            .collapsible(false)
            .title_bar(false)
            .frame(panel_frame())
            .show(ctx, |ui| {
                ui.spacing_mut().item_spacing.y = 1.0;
                ui.horizontal(|ui| {
                    ui.label(RichText::new("Keys").strong());
                    if m.facts.paced_by == PacedBy::Browser {
                        ui.label(
                            RichText::new(
                                "  In a page Esc and Q do nothing (close the tab); the lab, the \
                                 bench, motion, files and process CPU need Looplab itself.",
                            )
                            .size(11.0)
                            .color(Color32::from_rgb(140, 200, 255)),
                        );
                    }
                });
                let half = BINDINGS.len().div_ceil(2);
                ui.horizontal_top(|ui| {
                    for (i, bindings) in BINDINGS.chunks(half).enumerate() {
                        if i > 0 {
                            ui.add_space(COLUMN_GAP);
                        }
                        ui.vertical(|ui| {
                            ui.set_width(column_width);
                            egui::Grid::new(("keys", i))
                                .num_columns(2)
                                .spacing([10.0, 2.0])
                                .max_col_width(column_width - 150.0)
                                .show(ui, |ui| {
                                    for b in bindings {
                                        ui.label(RichText::new(b.label).monospace().size(11.0));
                                        ui.label(RichText::new(b.does).size(11.5));
                                        ui.end_row();
                                    }
                                });
                        });
                    }
                });
            });
        windows.extend(help.map(|r| (r.response, region)));
    }
    for (response, within) in windows {
        laid.panels.push(response.rect);
        if audit {
            laid.texts
                .extend(texts_on_layer(ctx, response.layer_id, &place, within));
        }
    }
    laid
}

/// Every text painted on `layer`, placed in world pixels, to keep to `within`.
fn texts_on_layer(
    ctx: &egui::Context,
    layer: egui::LayerId,
    place: &Placement,
    within: Region,
) -> Vec<PlacedText> {
    fn collect(shape: &egui::Shape, out: &mut Vec<(String, egui::Rect)>) {
        match shape {
            egui::Shape::Text(t) => {
                out.push((t.galley.text().to_string(), t.visual_bounding_rect()))
            }
            egui::Shape::Vec(shapes) => shapes.iter().for_each(|s| collect(s, out)),
            _ => {}
        }
    }
    let mut found = Vec::new();
    ctx.graphics(|g| {
        if let Some(list) = g.get(layer) {
            for clipped in list.all_entries() {
                collect(&clipped.shape, &mut found);
            }
        }
    });
    found
        .into_iter()
        .filter(|(text, _)| !text.trim().is_empty())
        .map(|(text, r)| PlacedText {
            text,
            rect: Region {
                min: place.to_world(r.min),
                max: place.to_world(r.max),
            },
            within,
        })
        .collect()
}

/// Inner margin of the panels.
const PANEL_MARGIN: f32 = 10.0;

/// Space between the help's two columns.
const COLUMN_GAP: f32 = 24.0;

/// Where a world point is in egui's points: with the zoom the host sets, a point is a world
/// pixel, shifted by the letterbox.
struct Placement {
    offset: egui::Vec2,
}

impl Placement {
    fn new(t: &ViewTransform) -> Self {
        Self {
            offset: egui::vec2(t.origin.x, t.origin.y) / t.zoom,
        }
    }

    fn at(&self, world: Vec2) -> egui::Pos2 {
        egui::pos2(world.x, world.y) + self.offset
    }

    fn to_world(&self, point: egui::Pos2) -> Vec2 {
        let p = point - self.offset;
        Vec2::new(p.x, p.y)
    }
}

/// Captions' colour.
const CAPTION_GREY: Color32 = Color32::from_gray(220);

/// Text painted straight onto a layer at world positions.
struct Words<'a> {
    painter: egui::Painter,
    place: &'a Placement,
    /// Where a panel painted over the words is (the help): words there are not painted.
    covered: Option<Region>,
    /// Where each text landed, when auditing the layout.
    audit: Option<Vec<PlacedText>>,
}

impl Words<'_> {
    /// Paints `text`, which belongs in `within`, with its top left at the world point `at`;
    /// returns its width in points.
    fn text(&mut self, within: Region, at: Vec2, text: &str, size: f32, colour: Color32) -> f32 {
        let galley =
            self.painter
                .layout_no_wrap(text.to_string(), egui::FontId::proportional(size), colour);
        let extent = galley.size();
        let rect = Region {
            min: at,
            max: at + Vec2::new(extent.x, extent.y),
        };
        if self.covered.is_some_and(|c| c.overlaps(&rect)) {
            return extent.x;
        }
        if let Some(audit) = &mut self.audit {
            audit.push(PlacedText {
                text: text.to_string(),
                rect,
                within,
            });
        }
        self.painter.galley(self.place.at(at), galley, colour);
        extent.x
    }
}

/// The timeline's caption and legend, its row names, and how far the game clock is from the
/// wall clock.
fn timeline_words(words: &mut Words, strip: &Strip, paused: bool) {
    let region = LAYOUT.timeline;
    let g = timeline::geometry(region);
    let colour = |k: MarkKind| {
        let [r, g, b, _] = k.colour();
        Color32::from_rgb(r, g, b)
    };
    let title = if paused {
        "the loop, last second of real time (frozen while paused):"
    } else {
        "the loop, last second of real time:"
    };
    let mut at = region.min + Vec2::new(6.0, 2.0);
    at.x += words.text(region, at, title, 12.5, CAPTION_GREY) + 8.0;
    let legend = [
        (MarkKind::Wait, "wait"),
        (MarkKind::Input, "input"),
        (MarkKind::Update { of: 1 }, "update"),
        (MarkKind::Render, "render"),
        (MarkKind::Present, "present"),
        (MarkKind::Deadline, "| deadline"),
        (MarkKind::Dropped, "dropped"),
        (MarkKind::Shown, "shown"),
        (MarkKind::Update { of: 2 }, "2"),
        (MarkKind::Update { of: 3 }, "3+"),
        (MarkKind::Update { of: 10 }, "10+ updates a frame"),
    ];
    for (kind, name) in legend {
        at.x += words.text(region, at, name, 12.0, colour(kind)) + 7.0;
    }
    let row_grey = Color32::from_gray(200);
    for (row, name) in [(g.real, "real"), (g.game, "game")] {
        let at = Vec2::new(region.min.x + 6.0, row.centre().y - 8.0);
        words.text(region, at, name, 12.0, row_grey);
    }
    if strip.behind.abs() >= 0.05 {
        let text = format!(
            "game clock {:.2} s {} the wall clock",
            strip.behind.abs(),
            if strip.behind > 0.0 {
                "behind"
            } else {
                "ahead of"
            }
        );
        let at = Vec2::new(region.max.x - 260.0, g.game.min.y - 17.0);
        words.text(region, at, &text, 12.0, Color32::from_rgb(255, 150, 110));
    }
}

/// A window frame with margins only: the background is drawn by the sprite pipeline (see
/// `scene::panel_backgrounds`).
/// The tour's colour: its headings and the frame on the region a stop points at.
const TOUR_GOLD: Color32 = Color32::from_rgb(255, 210, 90);

/// The line that says how to start the tour, in the window's first seconds, and its
/// quieter gold.
pub const TOUR_INVITE: &str = "New here? Press Enter for a guided tour.";
const INVITE_GOLD: Color32 = Color32::from_rgb(190, 165, 100);

/// Where a stop's focus is on screen (compare mode's lanes fill more of it without the
/// overlay).
fn focus_region(focus: Focus, overlay: bool) -> Region {
    use crate::render::lanes::{LANES_AREA, LANES_AREA_WITHOUT_OVERLAY};
    match focus {
        Focus::Stream => LAYOUT.stream,
        Focus::Metronome => LAYOUT.metronome,
        Focus::Wall => LAYOUT.wall,
        Focus::Balls => LAYOUT.balls,
        Focus::Timeline => LAYOUT.timeline,
        Focus::Lanes if overlay => LANES_AREA,
        Focus::Lanes => LANES_AREA_WITHOUT_OVERLAY,
    }
}

/// The status rows shown under a tour stop: FPS and UPS, frame times, this frame's updates.
const TOUR_ROWS: usize = 3;

/// The tour's stop at the top of the panel: the claim, where it comes from, where to look
/// and what to try, and whether it has been seen to happen.
fn tour_section(ui: &mut egui::Ui, tour: &TourPanel) {
    ui.label(
        RichText::new(&tour.heading)
            .color(TOUR_GOLD)
            .strong()
            .size(14.0),
    );
    ui.label(RichText::new(&tour.claim).size(12.0));
    ui.label(RichText::new(&tour.source).small().weak());
    ui.label(RichText::new(&tour.look_and_try).size(11.5).italics());
    let colour = match tour.seen {
        Some(true) => Color32::from_rgb(120, 220, 140),
        Some(false) => Color32::from_rgb(255, 150, 110),
        None => Color32::from_rgb(170, 180, 200),
    };
    ui.label(RichText::new(&tour.standing).size(11.5).color(colour));
    ui.label(
        RichText::new("Enter: next stop   Bksp: back   End: leave")
            .small()
            .weak(),
    );
    ui.separator();
}

fn panel_frame() -> egui::Frame {
    egui::Frame::NONE.inner_margin(egui::Margin::same(PANEL_MARGIN as i8))
}

/// The graph's top: the smallest scale that holds the longest frame shown.
pub fn graph_scale_ms(longest: Duration) -> f32 {
    let longest = longest.as_secs_f32() * 1e3;
    GRAPH_SCALES_MS
        .into_iter()
        .find(|&s| longest <= s)
        .unwrap_or(GRAPH_SCALES_MS[GRAPH_SCALES_MS.len() - 1])
}

/// Recent frame times as bars, coloured by the updates each frame ran, on a scale that fits
/// the longest, with the 16.7 ms line.
fn frame_graph(ui: &mut egui::Ui, session: &Session) {
    let size = egui::vec2(ui.available_width(), 48.0);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_black_alpha(120));
    let samples = session.stats().samples();
    let skip = samples.len().saturating_sub(GRAPH_FRAMES);
    let shown: Vec<_> = samples.skip(skip).collect();
    let longest = shown.iter().map(|s| s.duration).max().unwrap_or_default();
    let scale = graph_scale_ms(longest);
    let max = session.settings().max_updates;
    let bar = rect.width() / GRAPH_FRAMES as f32;
    let height = |ms: f32| (ms / scale).min(1.0) * rect.height();
    for (i, s) in shown.iter().enumerate() {
        let h = height(s.duration.as_secs_f32() * 1e3);
        let x = rect.left() + i as f32 * bar;
        let r = egui::Rect::from_min_max(
            egui::pos2(x, rect.bottom() - h),
            egui::pos2(x + bar, rect.bottom()),
        );
        painter.rect_filled(r, 0.0, bar_colour(s.updates, max));
    }
    let y = rect.bottom() - height(16.667);
    painter.hline(
        rect.x_range(),
        y,
        egui::Stroke::new(1.0, Color32::from_white_alpha(70)),
    );
    let font = egui::FontId::monospace(9.0);
    painter.text(
        egui::pos2(rect.right() - 2.0, y - 1.0),
        Align2::RIGHT_BOTTOM,
        "16.7 ms",
        font.clone(),
        Color32::from_white_alpha(140),
    );
    painter.text(
        egui::pos2(rect.left() + 2.0, rect.top() + 1.0),
        Align2::LEFT_TOP,
        format!("frame time, top {scale:.0} ms"),
        font,
        Color32::from_white_alpha(160),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::compose::{FrameInputs, Readouts, overlay_model};
    use crate::world::WorldConfig;
    use looplab_timing::{LoopSettings, ManualClock, Wake};

    #[test]
    fn the_stream_caption_counts_taps_and_says_what_was_lost() {
        let taps = |made, reached, lost| Taps {
            made,
            reached,
            lost,
            doubled: 0,
        };
        assert_eq!(taps_text(taps(0, 0, 0)), "");
        assert_eq!(taps_text(taps(1, 1, 0)), ", 1 tap, 1 reached the game");
        assert_eq!(taps_text(taps(10, 10, 0)), ", 10 taps, 10 reached the game");
        assert_eq!(taps_text(taps(10, 5, 5)), ", 10 taps, 5 lost");
    }

    fn session(strategy: Strategy) -> Session {
        Session::new(
            strategy,
            LoopSettings::default(),
            &WorldConfig {
                seed: 1,
                bullets: 10,
            },
        )
    }

    fn run(s: &mut Session, frame: Duration, frames: u32) -> FramePlan {
        let mut clock = ManualClock::default();
        let mut plan = s.frame(clock.now(), |_, _| {});
        for _ in 0..frames {
            clock.advance(frame);
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            }
            plan = s.frame(clock.now(), |_, _| {});
        }
        plan
    }

    #[test]
    fn slow_fixed_sleep_is_flagged_and_interpolated_is_not() {
        let mut slow = session(Strategy::FixedSleep);
        run(&mut slow, Duration::from_millis(40), 60);
        let w = speed_warning(&slow.stats().summary(), &slow).unwrap();
        assert!(w.starts_with("game running slow: 42%"), "{w}");

        let mut fine = session(Strategy::Interpolated);
        run(&mut fine, Duration::from_millis(40), 60);
        assert_eq!(speed_warning(&fine.stats().summary(), &fine), None);

        let mut fast = session(Strategy::Uncapped);
        run(&mut fast, Duration::from_millis(2), 600);
        let w = speed_warning(&fast.stats().summary(), &fast).unwrap();
        assert!(w.starts_with("game running fast: 8.3x"), "{w}");
    }

    /// What the composer would make of `s` after `plan`, with a known error and CPU.
    fn with_model<R>(s: &Session, plan: &FramePlan, check: impl FnOnce(&OverlayModel) -> R) -> R {
        let knobs = Knobs::default();
        let readouts = Readouts {
            accuracy: FrameAccuracy {
                mean_error: 3.25,
                max_error: 10.0,
                judder: 0.0,
            },
            ..Readouts::default()
        };
        let facts = PlatformFacts {
            cpu_percent: Some(97.0),
            ..PlatformFacts::offscreen(wgpu::PresentMode::Immediate)
        };
        let inputs = FrameInputs::new(s, &knobs, plan, &readouts, &facts);
        let transform = ViewTransform::new(crate::world::WORLD_SIZE, 1280, 720);
        check(&overlay_model(&inputs, None, &[], transform))
    }

    #[test]
    fn rows_show_the_plan_and_knobs() {
        let mut s = session(Strategy::Interpolated);
        let plan = run(&mut s, Duration::from_millis(7), 30);
        let rows = with_model(&s, &plan, status_rows);
        let get = |k: &str| rows.iter().find(|(l, _)| *l == k).unwrap().1.clone();
        assert!(get("this frame").ends_with(&format!("alpha {:.2}", plan.view.alpha())));
        assert!(get("FPS / UPS").contains("(target 60)"));
        assert_eq!(get("drawn error"), "3.25 px mean, 10.0 max");
        assert!(get("present").starts_with("Immediate, vsync off, cap off"));
        assert_eq!(get("process CPU"), "97% of a core");
        assert_eq!(get("max updates"), "10 a frame");
        assert_eq!(get("ship delay"), "steer with the arrows");
    }

    #[test]
    fn captions_carry_each_demonstrations_figure() {
        let mut s = session(Strategy::Variable);
        let plan = run(&mut s, Duration::from_millis(7), 30);
        let captions = with_model(&s, &plan, captions);
        let text = |r: Region| captions.iter().find(|(x, _)| *x == r).unwrap().1.clone();
        assert!(text(LAYOUT.stream).starts_with("bullet stream: 10 bullets"));
        assert!(text(LAYOUT.balls).contains("energy drift"));
        let darts = &s.world().darts;
        assert!(text(LAYOUT.wall).contains(&format!(
            "{} of {} darts went through",
            darts.tunnels,
            darts.hits + darts.tunnels
        )));
        assert!(text(LAYOUT.metronome).contains("wall clock"));
    }

    #[test]
    fn the_metronome_says_how_much_of_its_gap_hitches_dropped() {
        let mut s = session(Strategy::CatchUp);
        let plan = run(&mut s, Duration::from_millis(10), 30);
        let metronome = |s: &Session, plan: &FramePlan| {
            let captions = with_model(s, plan, captions);
            captions
                .into_iter()
                .find(|(r, _)| *r == LAYOUT.metronome)
                .unwrap()
                .1
        };
        let before = metronome(&s, &plan);
        assert!(!before.contains("hitches"), "{before}");
        // A 1.25 s hitch: the stall clamp lets 250 ms of it through, the rest is dropped.
        let later = plan.now + Duration::from_millis(1250);
        let plan = s.frame(later, |_, _| {});
        assert_eq!(s.hitches(), Duration::from_secs(1));
        let text = metronome(&s, &plan);
        // The rest of the gap: the update limit's drop and the lag not yet simulated.
        assert!(
            text.ends_with("game 1100 ms behind the wall clock (1000 ms of it dropped in hitches)"),
            "{text}"
        );
    }

    #[test]
    fn the_graph_scales_to_its_longest_frame() {
        assert_eq!(graph_scale_ms(Duration::from_millis(16)), 25.0);
        assert_eq!(graph_scale_ms(Duration::from_millis(80)), 100.0);
        assert_eq!(graph_scale_ms(Duration::from_millis(1200)), 2000.0);
        assert_eq!(graph_scale_ms(Duration::from_secs(9)), 2000.0);
    }

    #[test]
    fn bars_turn_red_at_the_update_limit() {
        assert_eq!(bar_colour(10, Some(10)), Color32::from_rgb(235, 70, 60));
        assert_eq!(bar_colour(0, Some(10)), Color32::from_gray(110));
        assert_ne!(bar_colour(3, None), bar_colour(10, Some(10)));
    }
}
