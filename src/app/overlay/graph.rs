//! The overlay's frame-time graph: recent frames as bars, coloured by the updates each ran,
//! on the smallest scale that holds the longest.

use std::time::Duration;

use egui::{Align2, Color32};

use crate::session::Session;

/// Frames shown in the frame-time graph.
const GRAPH_FRAMES: usize = 192;
/// Frame times the graph's top may stand for: the smallest that holds every bar shown.
const GRAPH_SCALES_MS: [f32; 7] = [25.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0];

/// Colour of a frame's bar by the updates it ran: none grey, one green, two yellow, more
/// orange, and red when it hit the per-frame maximum.
pub(super) fn bar_colour(updates: u32, max: Option<u32>) -> Color32 {
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
pub(super) fn frame_graph(ui: &mut egui::Ui, session: &Session) {
    let size = egui::vec2(ui.available_width(), 48.0);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_black_alpha(120));
    let samples = session.stats().samples();
    let skip = samples.len().saturating_sub(GRAPH_FRAMES);
    let shown: Vec<_> = samples.skip(skip).collect();
    let longest = shown.iter().map(|s| s.duration).max().unwrap_or_default();
    let scale = graph_scale_ms(longest);
    let max = session.settings().max_updates();
    let bar = rect.width() / GRAPH_FRAMES as f32;
    // The top band is the label's: the bars stand below it, their scale's top its foot.
    let bars_height = rect.height() - GRAPH_LABEL_BAND;
    let height = |ms: f32| (ms / scale).min(1.0) * bars_height;
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
    // Each label on a dark backing of its own, so no bar runs through its letters.
    let label = |at: egui::Pos2, align: Align2, text: String, alpha: u8| {
        let galley = painter.layout_no_wrap(text, font.clone(), Color32::from_white_alpha(alpha));
        let placed = align.anchor_size(at, galley.size());
        painter.rect_filled(placed.expand(1.0), 1.0, Color32::from_black_alpha(200));
        painter.galley(placed.min, galley, Color32::WHITE);
    };
    label(
        egui::pos2(rect.right() - 2.0, y - 1.0),
        Align2::RIGHT_BOTTOM,
        "16.7 ms".into(),
        140,
    );
    label(
        egui::pos2(rect.left() + 2.0, rect.top() + 1.0),
        Align2::LEFT_TOP,
        format!("frame time, top {scale:.0} ms"),
        160,
    );
}

/// The frame-time graph's top band, where its label stands clear of the bars.
const GRAPH_LABEL_BAND: f32 = 12.0;
