//! The overlay laid out with egui, in world pixels (egui's zoom makes a point one world
//! pixel): the words on the regions, the panel with its sections and frame-time graph, and
//! the key help; with an audit of where every text landed, for the layout's tests.

use egui::{Color32, RichText};
use glam::Vec2;
use looplab_timing::Strategy;

use super::graph::frame_graph;
use super::tour_panel::{
    DIM, INVITE_GOLD, TOUR_GOLD, TOUR_INVITE, dimmed_regions, focus_region, loop_code, tour_section,
};
use super::words::{compare_note, shown_rows};
use super::*;
use crate::app::controls::Knobs;
use crate::app::keys::{Action, BINDINGS, KnobKey, LoopKey, SettingKey, strategy_key};
use crate::app::speed::speed_warning;
use crate::render::shapes::ViewTransform;
use crate::render::timeline;
use crate::session::timeline::{MarkKind, Strip};
use crate::text::strategy as strategy_text;
use crate::world::layout::{CAPTION_HEIGHT, LAYOUT, Region};

/// A text as laid out, for checking the layout: where it landed and the region it must keep
/// to, both in world pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedText {
    pub text: String,
    pub rect: Region,
    pub within: Region,
}

/// Every way `texts` break the layout, in words: a text that leaves the region it belongs
/// to, and two texts that overlap (half a pixel of slack each way, for rounding). The
/// layout tests lay out every screen with no GPU and check it; a page checks its own
/// screen as it draws, at whatever size its canvas has.
pub fn layout_faults(texts: &[PlacedText]) -> Vec<String> {
    const SLACK: f32 = 0.5;
    let mut out = Vec::new();
    for t in texts {
        let within = t.within.inset(-SLACK, -SLACK, -SLACK, -SLACK);
        if !within.contains(&t.rect) {
            out.push(format!(
                "'{}' at {:?} leaves its region {:?}",
                t.text, t.rect, t.within
            ));
        }
    }
    for (i, a) in texts.iter().enumerate() {
        let shrunk = a.rect.inset(SLACK, SLACK, SLACK, SLACK);
        for b in &texts[i + 1..] {
            if shrunk.overlaps(&b.rect) {
                out.push(format!("'{}' overlaps '{}'", a.text, b.text));
            }
        }
    }
    out
}

/// What [`ui`] laid out.
#[derive(Default)]
pub struct LayoutOutcome {
    /// Buttons clicked.
    pub actions: Vec<Action>,
    /// The panels' rectangles in points, whose backgrounds the sprite pipeline draws.
    pub panels: Vec<egui::Rect>,
    /// Every text with its place, when asked for (tests of the layout); empty otherwise.
    pub texts: Vec<PlacedText>,
    /// In the book's embedded view, what it hands to the book; empty otherwise.
    pub figures: ViewFigures,
}

/// What the book's embedded view hands to the book to show beside its picture, as the frame
/// laid it out: the rows the tour's stop names (label, value), and while compare mode's
/// lanes are shown, their captions, which the picture draws too small to read in a view a
/// few hundred pixels wide.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewFigures {
    pub rows: Vec<(&'static str, String)>,
    pub lanes: Vec<String>,
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
pub fn ui(ctx: &egui::Context, m: &OverlayModel, audit: bool) -> LayoutOutcome {
    let mut laid = LayoutOutcome::default();
    let place = Placement::new(&m.transform);
    laid.texts = region_words(ctx, m, &place, audit);
    if let Some(tour) = m.tour.filter(|_| m.framed) {
        laid.figures = ViewFigures {
            rows: status_rows(m)
                .into_iter()
                .filter(|(label, _)| tour.rows.contains(label))
                .collect(),
            lanes: m.lane_captions.iter().map(|(_, c)| c.clone()).collect(),
        };
    }
    if !m.knobs.overlay {
        return laid;
    }
    let column = LAYOUT.panel;
    let mut windows = Vec::new();
    windows.extend(main_panel(ctx, m, &place, &mut laid.actions).map(|r| (r, column)));
    if m.knobs.help {
        let region = help_region(m.knobs.compare.is_some());
        windows.extend(help_panel(ctx, m, &place, region).map(|r| (r, region)));
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

/// The words in the regions (captions, the timeline's) and the tour's gold frame, every one
/// on one background layer: one mesh and one draw for all the words, which a software
/// rasteriser needs (an egui area each would be a draw each). With `audit`, where each
/// landed.
fn region_words(
    ctx: &egui::Context,
    m: &OverlayModel,
    place: &Placement,
    audit: bool,
) -> Vec<PlacedText> {
    let knobs = m.knobs;
    let help = (knobs.overlay && knobs.help).then(|| help_region(knobs.compare.is_some()));
    let mut words = WorldText {
        painter: ctx.layer_painter(egui::LayerId::background()),
        place,
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
        timeline_words(&mut words, strip, m.session.settings().paused);
    }
    if let Some(tour) = m.tour {
        // One thing at a time: the other regions dimmed (not hidden), unless A asked for
        // the whole screen. Compare mode's lanes are one region.
        if !knobs.everything && m.lane_captions.is_empty() {
            for region in dimmed_regions(tour.focus, m.strip.is_some()) {
                words.painter.rect_filled(
                    egui::Rect::from_min_max(place.at(region.min), place.at(region.max)),
                    0.0,
                    DIM,
                );
            }
        }
        // The region the stop points at, framed in the tour's gold.
        let r = focus_region(tour.focus, knobs.overlay);
        words.painter.rect_stroke(
            egui::Rect::from_min_max(place.at(r.min), place.at(r.max)),
            3.0,
            egui::Stroke::new(2.0, TOUR_GOLD),
            egui::StrokeKind::Outside,
        );
    }
    words.audit.take().unwrap_or_default()
}

/// A panel at `min` (world pixels), `width` wide inside its margins, with no title bar.
fn fixed_panel(
    name: &'static str,
    place: &Placement,
    min: Vec2,
    width: f32,
) -> egui::Window<'static> {
    egui::Window::new(name)
        .fixed_pos(place.at(min))
        .min_width(width)
        .max_width(width)
        .resizable(false)
        .collapsible(false)
        .title_bar(false)
        .frame(panel_frame())
}

/// The overlay panel: the tour's stop or the invitation, compare mode, the strategy and its
/// trade-off, the buttons, the figures and the frame-time graph.
fn main_panel(
    ctx: &egui::Context,
    m: &OverlayModel,
    place: &Placement,
    actions: &mut Vec<Action>,
) -> Option<egui::Response> {
    let column = LAYOUT.panel;
    let inner_width = column.size().x - 2.0 * PANEL_MARGIN;
    let shown = fixed_panel("Looplab", place, column.min, inner_width).show(ctx, |ui| {
        ui.spacing_mut().item_spacing.y = 2.0;
        if let Some(tour) = m.tour {
            tour_section(ui, tour, m.knobs.everything, actions);
            if !m.knobs.everything && tour.asking.is_none() {
                loop_code(ui, &tour.code, m.session.planner().strategy());
            }
        } else if m.invite {
            ui.label(RichText::new(TOUR_INVITE).size(11.5).color(INVITE_GOLD));
        }
        // While a stop asks which lane is which, nothing may name them, and its panel says
        // what the lanes are.
        let asking = m.tour.is_some_and(|t| t.asking.is_some());
        if !asking {
            compare_section(ui, m.knobs);
        }
        strategy_section(ui, m);
        if !asking {
            buttons(ui, m, actions);
        }
        figures_section(ui, m);
        if m.tour.is_none() || m.knobs.everything {
            // At a stop alone, its keys line says where to go; the adapter is one key away.
            ui.label(
                RichText::new(format!("{}  |  H: keys  O: hide", m.facts.adapter))
                    .small()
                    .weak(),
            );
        }
    });
    shown.map(|r| r.response)
}

/// Compare mode's preset and which lanes the keys act on.
fn compare_section(ui: &mut egui::Ui, knobs: &Knobs) {
    let Some(preset) = knobs.compare else {
        return;
    };
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
        .size(11.0),
    );
}

/// The active strategy: its key, id and name, its trade-off, what a page does to it, and
/// the text it comes from.
fn strategy_section(ui: &mut egui::Ui, m: &OverlayModel) {
    let strategy = m.session.planner().strategy();
    let text = strategy_text::text(strategy);
    let stop_alone = m.tour.is_some() && !m.knobs.everything;
    if m.knobs.compare.is_some() && !stop_alone {
        // The lanes run strategies of their own, each named on its caption; the window's
        // loop only draws them, and the figures below are its.
        ui.label(
            RichText::new(format!(
                "the window's own loop, which draws the lanes: {} {}",
                strategy_key(strategy),
                strategy.id()
            ))
            .size(12.0),
        );
        ui.label(
            RichText::new(compare_note(!shown_rows(m).is_empty()))
                .size(11.0)
                .color(Color32::from_gray(165)),
        );
        return;
    }
    if stop_alone {
        // The stop's loop names the strategy, and which runs when a key chose another; in
        // compare mode the lanes' captions name theirs.
        return;
    }
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
    if m.tour.is_some() {
        // On the tour the stop explains, and its loop and figures need the room.
        return;
    }
    ui.label(RichText::new(text.trade_off).italics().size(12.0));
    if m.facts.paced_by == PacedBy::Browser {
        ui.label(
            RichText::new(strategy_text::in_a_page(strategy))
                .size(12.0)
                .color(Color32::from_rgb(140, 200, 255)),
        );
    }
    if !brief(m) {
        ui.label(
            RichText::new(format!("from: {}", text.source))
                .size(11.0)
                .color(Color32::from_gray(165)),
        );
    }
}

/// The short panel the window opens with, outside the tour and compare mode: the strategy,
/// FPS / UPS and the figure its strategy is about; A grows it to every figure.
fn brief(m: &OverlayModel) -> bool {
    m.tour.is_none() && m.knobs.compare.is_none() && !m.knobs.everything
}

/// A button for each strategy, pause, step, ghosts and the key help.
fn buttons(ui: &mut egui::Ui, m: &OverlayModel, actions: &mut Vec<Action>) {
    let (knobs, strategy) = (m.knobs, m.session.planner().strategy());
    let paused = m.session.settings().paused;
    ui.horizontal_wrapped(|ui| {
        for s in Strategy::ALL {
            // In compare mode the keys act on the lanes: no strategy is the window's to show.
            let chosen = s == strategy && knobs.compare.is_none();
            if ui
                .selectable_label(chosen, strategy_key(s).to_string())
                .on_hover_text(s.id())
                .clicked()
            {
                actions.push(Action::Loop(LoopKey::Strategy(s)));
            }
        }
        if (m.tour.is_some() && !m.knobs.everything) || brief(m) {
            // A stop alone keeps its room for its words, and the short panel is short; the
            // rest are keys away, and A brings them back.
            return;
        }
        ui.separator();
        let pause = if paused { "resume" } else { "pause" };
        if ui.button(pause).clicked() {
            actions.push(Action::Loop(LoopKey::Setting(SettingKey::Pause)));
        }
        if ui.button("step").clicked() {
            actions.push(Action::Loop(LoopKey::SingleStep));
        }
        if ui.selectable_label(knobs.ghosts, "ghosts").clicked() {
            actions.push(Action::Knob(KnobKey::Ghosts));
        }
        if ui.selectable_label(knobs.help, "keys").clicked() {
            actions.push(Action::Knob(KnobKey::Help));
        }
    });
}

/// The speed warning, the pause, the figures and the frame-time graph. On the tour the stop
/// takes the figures' room: its own figure is in its panel, the others in the regions'
/// captions.
fn figures_section(ui: &mut egui::Ui, m: &OverlayModel) {
    let session = m.session;
    if let Some(w) = speed_warning(&m.summary, session) {
        ui.label(
            RichText::new(w)
                .color(Color32::from_rgb(255, 120, 90))
                .strong(),
        );
    }
    if session.settings().paused {
        ui.label(RichText::new("paused (N steps once)").color(Color32::YELLOW));
    }
    let rows = shown_rows(m);
    let compare = m.knobs.compare.is_some();
    let stop_alone = m.tour.filter(|_| !m.knobs.everything || compare);
    egui::Grid::new("status")
        .num_columns(2)
        .spacing([8.0, 1.0])
        .show(ui, |ui| {
            for (label, value) in rows {
                ui.label(RichText::new(label).size(11.5));
                ui.label(RichText::new(value).monospace().size(11.0));
                ui.end_row();
            }
        });
    match (m.tour, stop_alone) {
        (Some(_), _) if compare => {}
        (Some(_), Some(_)) => {
            ui.label(
                RichText::new("A: the whole screen and every figure")
                    .size(11.0)
                    .color(Color32::from_gray(165)),
            );
        }
        (Some(_), None) => {
            // Every figure, but not the graph: the stop's heading keeps the room.
            ui.label(
                RichText::new("A: back to the stop's region and figures alone")
                    .size(11.0)
                    .color(Color32::from_gray(165)),
            );
        }
        (None, _) if brief(m) => {
            ui.label(
                RichText::new("A: every figure and the frame-time graph")
                    .size(11.0)
                    .color(Color32::from_gray(165)),
            );
        }
        (None, _) => frame_graph(ui, session),
    }
}

/// The key help in `region`: two columns of keys, each as wide as half the region, their
/// descriptions wrapped.
fn help_panel(
    ctx: &egui::Context,
    m: &OverlayModel,
    place: &Placement,
    region: Region,
) -> Option<egui::Response> {
    let width = region.size().x - 2.0 * PANEL_MARGIN;
    let column_width = (width - COLUMN_GAP) / 2.0;
    let shown = fixed_panel("Keys", place, region.min, width).show(ctx, |ui| {
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
    shown.map(|r| r.response)
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
struct WorldText<'a> {
    painter: egui::Painter,
    place: &'a Placement,
    /// Where a panel painted over the words is (the help): words there are not painted.
    covered: Option<Region>,
    /// Where each text landed, when auditing the layout.
    audit: Option<Vec<PlacedText>>,
}

impl WorldText<'_> {
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
fn timeline_words(words: &mut WorldText, strip: &Strip, paused: bool) {
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
        (MarkKind::Queue, "queue"),
        (MarkKind::Present, "present"),
        (MarkKind::Deadline, "| deadline"),
        (MarkKind::Dropped, "dropped"),
        (MarkKind::Shown, "shown"),
        (MarkKind::Update { of: 2 }, "2"),
        (MarkKind::Update { of: 3 }, "3+"),
        (MarkKind::Update { of: 10 }, "10+ updates a frame"),
    ];
    // The GPU's absence is rare: it is named only while the strip shows one.
    let gpu_lost = (strip.count(MarkKind::GpuLost) > 0).then_some((MarkKind::GpuLost, "GPU lost"));
    for (kind, name) in legend.into_iter().chain(gpu_lost) {
        at.x += words.text(region, at, name, 12.0, colour(kind)) + 7.0;
    }
    let row_grey = Color32::from_gray(200);
    for (row, name) in [(g.real, "real"), (g.game, "game")] {
        let at = Vec2::new(region.min.x + 6.0, row.centre().y - 8.0);
        words.text(region, at, name, 12.0, row_grey);
    }
    // On the caption's line, at its right end, clear of the rows and the links between
    // them.
    if strip.behind.abs() >= 0.05 {
        let text = format!(
            "game {:.2} s {}",
            strip.behind.abs(),
            if strip.behind > 0.0 {
                "behind"
            } else {
                "ahead"
            }
        );
        let at = Vec2::new(region.max.x - 140.0, region.min.y + 2.0);
        words.text(region, at, &text, 12.0, Color32::from_rgb(255, 150, 110));
    }
}

/// A window frame with margins only: the background is drawn by the sprite pipeline (see
/// `scene::panel_backgrounds`).
fn panel_frame() -> egui::Frame {
    egui::Frame::NONE.inner_margin(egui::Margin::same(PANEL_MARGIN as i8))
}
