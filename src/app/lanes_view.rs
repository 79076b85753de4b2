//! Compare mode as the window draws it: each lane's last finished picture in its tile, and
//! its caption.

use std::time::Duration;

use super::controls::{bullets_after, settings_after};
use crate::app::keys::{self, Action};
use crate::lab::blind::LETTERS;
use crate::lab::compare::{Compare, LaneStatus, Preset};
use crate::lab::lane::LaneChange;
use crate::render::lanes::{self, LanePicture, LaneView, LanesScratch};
use crate::render::scene::SceneView;
use crate::render::shapes::ViewTransform;
use crate::render::sprites::SpriteFrame;
use crate::world::layout::Region;
use looplab_timing::View;

/// Compare mode's sprite frame and each lane's caption: the lanes in their tiles (beside the
/// overlay's column, or over the whole screen when it is hidden), each drawing its last
/// finished picture.
pub fn compare_frame<'a>(
    compare: &'a Compare,
    selected: Option<usize>,
    overlay: bool,
    now: Duration,
    transform: ViewTransform,
    step: Duration,
    scratch: &'a mut LanesScratch,
) -> (SpriteFrame<'a>, Vec<(Region, String)>) {
    let tiles = lanes::lane_tiles(compare.lanes.len(), overlay);
    let mut pictures = Vec::with_capacity(tiles.len());
    let mut captions = Vec::with_capacity(tiles.len());
    for (i, (lane, &tile)) in compare.lanes.iter().zip(&tiles).enumerate() {
        let session = lane.session();
        let plan = lane.picture().map(|p| p.plan);
        pictures.push(LanePicture {
            world: session.shown(),
            showing: SceneView {
                view: plan.map_or(View::Latest, |p| p.view),
                step: plan.map_or(step, |p| p.step),
                game_now: plan.map_or(Duration::ZERO, |p| p.game_now),
                reference: session.reference(),
                ghosts: false,
            },
            view: LaneView::new(tile),
            selected: selected == Some(i),
        });
        captions.push((tile, caption_of(compare, i, now, tile.size().x)));
    }
    (
        lanes::lanes_frame(&pictures, transform, step, scratch),
        captions,
    )
}

/// Lane `i`'s caption at `now`, for a tile `width` wide: unnamed while the tour asks which
/// lane is smoother (a letter, and no figure that tells), else [`lane_caption`].
pub fn caption_of(compare: &Compare, i: usize, now: Duration, width: f32) -> String {
    match compare.preset {
        Preset::Blind(_) => format!("{}   (press {0} if it is this one)", LETTERS[i]),
        _ => lane_caption(&compare.status(i, now), lanes::caption_lines(width)),
    }
}

/// A lane's caption: machine and strategy and how it compares with the first lane, then its
/// rates, game speed and last hash; on one line, or on `lines` (two or three) for a narrower
/// tile.
pub fn lane_caption(s: &LaneStatus, lines: usize) -> String {
    let hash = s.hash.as_ref().map_or("-".to_string(), |(t, h)| {
        format!("{h} at {} s", t.as_secs())
    });
    let head = format!("{}   {}", s.title, s.agreement_text());
    let delay = s.steer_delay.map_or(String::new(), |d| {
        format!("  delay {:.0} ms", d.as_secs_f64() * 1e3)
    });
    let rates = format!(
        "{} FPS  {} UPS  doubles {}/s{delay}",
        s.fps, s.ups, s.doubles
    );
    let clock = format!("game/real {:.2}  hash {hash}", s.ratio);
    match lines {
        1 => format!("{head}   {rates}  {clock}"),
        2 => format!("{head}\n{rates}  {clock}"),
        _ => format!("{head}\n{rates}\n{clock}"),
    }
}

/// The lanes `selected` names: one, or all.
fn targets(compare: &Compare, selected: Option<usize>) -> Vec<usize> {
    match selected {
        Some(i) if i < compare.lanes.len() => vec![i],
        _ => (0..compare.lanes.len()).collect(),
    }
}

/// The next selection: all lanes, then each lane in turn, then all again.
pub fn next_selection(compare: &Compare, selected: Option<usize>) -> Option<usize> {
    match selected {
        None => Some(0),
        Some(i) if i + 1 < compare.lanes.len() => Some(i + 1),
        Some(_) => None,
    }
}

/// Applies a strategy or loop key to the selected lane (or to all): the line to log, or
/// `None` when `action` is not one of those keys, which then acts on the window.
pub fn apply_to_lanes(
    compare: &mut Compare,
    selected: Option<usize>,
    action: Action,
) -> Option<String> {
    let mut lines = Vec::new();
    for i in targets(compare, selected) {
        let lane = &mut compare.lanes[i];
        let line = match action {
            Action::SelectStrategy(s) => {
                lane.change(LaneChange::Strategy(s));
                format!("strategy: {}", s.id())
            }
            Action::NextStrategy => {
                let s = keys::next_strategy(lane.strategy());
                lane.change(LaneChange::Strategy(s));
                format!("strategy: {}", s.id())
            }
            Action::Bullets(up) => {
                let n = bullets_after(lane.bullets(), up);
                lane.change(LaneChange::Bullets(n));
                format!("bullets: {n}")
            }
            Action::SingleStep => {
                lane.change(LaneChange::SingleStep);
                "single step".to_string()
            }
            other => {
                let (settings, line) =
                    settings_after(other, &lane.settings(), lane.profile().refresh)?;
                lane.change(LaneChange::Settings(settings));
                line
            }
        };
        lines.push(format!("lane {} ({}): {line}", i + 1, lane.profile().name));
    }
    (!lines.is_empty()).then(|| lines.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::compare::Preset;
    use crate::world::WorldConfig;
    use looplab_timing::{LoopSettings, Strategy};

    #[test]
    fn keys_act_on_the_selected_lane_or_on_all() {
        let mut c = Compare::new(
            Preset::FixedStep,
            &LoopSettings::default(),
            &WorldConfig {
                seed: 1,
                bullets: 10,
            },
            Duration::ZERO,
        );
        let second = next_selection(&c, next_selection(&c, None));
        assert_eq!(second, Some(1));
        assert_eq!(next_selection(&c, second), None, "then all again");

        let line = apply_to_lanes(&mut c, second, Action::SelectStrategy(Strategy::Variable));
        assert_eq!(
            line.as_deref(),
            Some("lane 2 (weak-gpu): strategy: variable")
        );
        assert_eq!(c.lanes[0].strategy(), Strategy::Interpolated);
        assert_eq!(c.lanes[1].strategy(), Strategy::Variable);

        let line = apply_to_lanes(&mut c, None, Action::UpdateRate(false)).unwrap();
        assert!(
            line.starts_with("lane 1 (fast): update rate: 50") && line.contains("lane 2"),
            "{line}"
        );
        assert!(
            c.lanes
                .iter()
                .all(|l| l.settings().update_rate.as_hz() == 50.0)
        );
        assert_eq!(
            apply_to_lanes(&mut c, None, Action::NextPresentMode),
            None,
            "the window's key"
        );
        // Taken at each lane's next frame start.
        c.advance_to(Duration::from_millis(100));
        assert_eq!(
            c.lanes[1].session().planner().strategy(),
            Strategy::Variable
        );
    }
}
