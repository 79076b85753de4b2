//! The tour's part of the overlay: a stop's panel (its claim, its question, the answer
//! named, its loop with the claim's line lit), the gold that frames its region and the dim
//! over the others.

use egui::{Color32, RichText};
use looplab_timing::Strategy;

use crate::app::keys::{Action, TourKey, strategy_key};
use crate::tour::{Focus, LoopCode, TourPanel};
use crate::world::WORLD_SIZE;
use crate::world::layout::{LAYOUT, Region};

/// The tour's colour: its headings and the frame on the region a stop points at.
pub(super) const TOUR_GOLD: Color32 = Color32::from_rgb(255, 210, 90);
/// The person's answer to a stop's question and what the figures say of it.
const FELT_BLUE: Color32 = Color32::from_rgb(140, 200, 255);
/// Behind the line of a stop's loop its claim lives in.
const LIT_LINE: Color32 = Color32::from_rgb(70, 58, 20);

/// The line that says how to start the tour, until the person's first key, and its
/// quieter gold.
pub const TOUR_INVITE: &str = "New here? Press Enter for a guided tour.";
pub(super) const INVITE_GOLD: Color32 = Color32::from_rgb(190, 165, 100);

/// What dims the regions a tour stop is not about: enough to step back, not to hide.
pub(super) const DIM: Color32 = Color32::from_rgba_premultiplied(0, 0, 0, 165);

/// The regions of the single view a stop about `focus` dims: every one but the focus (the
/// timeline only while it is shown).
pub fn dimmed_regions(focus: Focus, timeline: bool) -> Vec<Region> {
    if focus == Focus::Lanes {
        // Compare mode left: no region of the single view is the stop's.
        return Vec::new();
    }
    let focused = focus_region(focus, true);
    [
        LAYOUT.stream,
        LAYOUT.metronome,
        LAYOUT.balls,
        LAYOUT.wall,
        LAYOUT.timeline,
    ]
    .into_iter()
    .filter(|&r| r != focused && (timeline || r != LAYOUT.timeline))
    .collect()
}

/// Where a stop's focus is on screen (compare mode's lanes fill more of it without the
/// overlay).
pub(super) fn focus_region(focus: Focus, overlay: bool) -> Region {
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

/// The widest a framed view is, width over height: a region wider than this (the
/// metronome's strip, the timeline) is framed with the world above and below it, dimmed, so
/// that a view a few hundred pixels wide still has a picture's height.
const WIDEST_FRAME: f32 = 3.0;

/// What the book's embedded view of a stop about `focus` frames: its region, or the tiles
/// of compare mode's lanes while it shows `lanes` of them (a stop that asks which of two is
/// smoother shows two, whatever its focus), grown to at most [`WIDEST_FRAME`] wide for its
/// height, within the world.
pub fn framed_region(focus: Focus, lanes: Option<usize>, overlay: bool) -> Region {
    let region = match lanes {
        Some(n) => crate::render::lanes::lane_tiles(n, overlay)
            .into_iter()
            .reduce(|a, b| Region {
                min: a.min.min(b.min),
                max: a.max.max(b.max),
            })
            .unwrap_or_else(|| focus_region(Focus::Lanes, overlay)),
        None => focus_region(focus, overlay),
    };
    let size = region.size();
    let height = size.y.max(size.x / WIDEST_FRAME).min(WORLD_SIZE.y);
    let top = (region.centre().y - height / 2.0).clamp(0.0, WORLD_SIZE.y - height);
    Region::new(region.min.x, top, region.max.x, top + height)
}

/// The tour's stop at the top of the panel: the claim, where it comes from, where to look
/// and what to try, and whether it has been seen to happen.
pub(super) fn tour_section(
    ui: &mut egui::Ui,
    tour: &TourPanel,
    everything: bool,
    actions: &mut Vec<Action>,
) {
    ui.label(
        RichText::new(&tour.heading)
            .color(TOUR_GOLD)
            .strong()
            .size(14.0),
    );
    // With the whole screen asked for (A), the stop keeps its heading and standing, and
    // gives its words' room to the figures.
    if !everything {
        ui.label(RichText::new(&tour.claim).size(12.0));
        ui.label(
            RichText::new(&tour.source)
                .size(11.0)
                .color(Color32::from_gray(165)),
        );
        ui.label(RichText::new(&tour.look_and_try).size(11.5).italics());
        if tour.asking.is_some() {
            ui.horizontal(|ui| {
                for (letter, action) in [
                    ("A", Action::Tour(TourKey::Everything)),
                    ("B", Action::Tour(TourKey::AnswerB)),
                ] {
                    let button = egui::Button::new(RichText::new(letter).size(16.0).strong());
                    if ui.add(button).clicked() {
                        actions.push(action);
                    }
                }
            });
        }
        if let Some(felt) = &tour.felt {
            ui.label(RichText::new(felt).size(11.5).color(FELT_BLUE));
        }
    }
    let colour = match tour.seen {
        Some(true) => Color32::from_rgb(120, 220, 140),
        Some(false) => Color32::from_rgb(255, 150, 110),
        None => Color32::from_rgb(170, 180, 200),
    };
    ui.label(RichText::new(&tour.standing).size(11.5).color(colour));
    ui.label(
        RichText::new(&tour.keys)
            .size(11.0)
            .color(Color32::from_gray(165)),
    );
    ui.separator();
}

/// A stop's loop, the line its claim lives in lit, with its try's key beside it; and, when
/// a key has chosen another strategy, which one runs now.
pub(super) fn loop_code(ui: &mut egui::Ui, code: &LoopCode, running: Strategy) {
    let named = format!("{} {}", strategy_key(code.strategy), code.strategy.id());
    let heading = if running == code.strategy {
        format!("the loop ({named}), the claim's line lit:")
    } else {
        format!(
            "the stop's loop ({named}); running: {} {}",
            strategy_key(running),
            running.id()
        )
    };
    ui.label(
        RichText::new(heading)
            .size(11.0)
            .color(Color32::from_gray(165)),
    );
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing = egui::vec2(6.0, 1.0);
        for (i, line) in code.lines.iter().enumerate() {
            let text = RichText::new(line).monospace().size(10.5);
            if i != code.lit {
                ui.label(text.color(Color32::from_gray(185)));
                continue;
            }
            ui.horizontal(|ui| {
                ui.label(text.color(TOUR_GOLD).background_color(LIT_LINE));
                if let Some(key) = code.key {
                    ui.label(
                        RichText::new(format!("\u{2190} {key}"))
                            .monospace()
                            .size(10.5)
                            .color(TOUR_GOLD)
                            .strong(),
                    );
                }
            });
        }
    });
    ui.add_space(2.0);
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;

    #[test]
    fn a_framed_view_holds_its_region_at_no_more_than_three_to_one() {
        let focuses = [
            Focus::Stream,
            Focus::Metronome,
            Focus::Wall,
            Focus::Balls,
            Focus::Timeline,
            Focus::Lanes,
        ];
        for focus in focuses {
            let region = focus_region(focus, false);
            let framed = framed_region(focus, None, false);
            let size = framed.size();
            assert!(size.x / size.y <= WIDEST_FRAME + 1e-3, "{focus:?}: {size}");
            assert!(framed.min.y <= region.min.y && framed.max.y >= region.max.y);
            assert_eq!((framed.min.x, framed.max.x), (region.min.x, region.max.x));
            assert!(
                framed.min.y >= 0.0 && framed.max.y <= WORLD_SIZE.y,
                "{focus:?}"
            );
        }
        // The metronome's strip, 948 by 56, is framed 948 by 316 about its centre; the
        // stream, under three to one already, as it is.
        let metronome = framed_region(Focus::Metronome, None, false);
        assert_eq!(metronome.size(), Vec2::new(948.0, 316.0));
        assert_eq!(metronome.centre(), LAYOUT.metronome.centre());
        assert_eq!(framed_region(Focus::Stream, None, false), LAYOUT.stream);
        // The timeline, at the bottom, grows upwards only.
        assert_eq!(
            framed_region(Focus::Timeline, None, false).max.y,
            WORLD_SIZE.y
        );
    }
}
