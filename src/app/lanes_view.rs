//! Compare mode as the window draws it: each lane's last finished picture in its tile, and
//! its caption.

use std::time::Duration;

use crate::lab::blind::LETTERS;
use crate::lab::compare::{Compare, LaneStatus, Preset};
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
