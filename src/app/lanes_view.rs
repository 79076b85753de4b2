//! Compare mode as the window draws it: each lane's last finished picture in its tile, and
//! its caption.

use std::time::Duration;

use crate::lab::compare::{Compare, LaneStatus};
use crate::render::lanes::{self, LanePicture, LaneView, LanesScratch};
use crate::render::scene::{Showing, ViewTransform};
use crate::render::sprites::SpriteFrame;
use crate::world::layout::Region;
use looplab_timing::View;

/// Compare mode's sprite frame and each lane's caption: the lanes in their tiles, each
/// drawing its last finished picture.
pub fn compare_frame<'a>(
    compare: &'a Compare,
    now: Duration,
    transform: ViewTransform,
    step: Duration,
    scratch: &'a mut LanesScratch,
) -> (SpriteFrame<'a>, Vec<(Region, String)>) {
    let tiles = lanes::tiles(compare.lanes.len(), lanes::LANES_AREA);
    let mut pictures = Vec::with_capacity(tiles.len());
    let mut captions = Vec::with_capacity(tiles.len());
    for (i, (lane, &tile)) in compare.lanes.iter().zip(&tiles).enumerate() {
        let session = lane.session();
        let plan = lane.picture().map(|p| p.plan);
        pictures.push(LanePicture {
            world: session.world(),
            showing: Showing {
                view: plan.map_or(View::Latest, |p| p.view),
                step: plan.map_or(step, |p| p.step),
                game_now: plan.map_or(Duration::ZERO, |p| p.game_now),
                reference: session.reference(),
                ghosts: false,
            },
            view: LaneView::new(tile),
            selected: false,
        });
        let two_lines = LaneView::two_line_caption(tile);
        captions.push((tile, lane_caption(&compare.status(i, now), two_lines)));
    }
    (
        lanes::lanes_frame(&pictures, transform, step, scratch),
        captions,
    )
}

/// A lane's caption: machine and strategy and how it compares with the first lane, then its
/// rates and last hash; on one line, or on two for a narrow tile.
pub fn lane_caption(s: &LaneStatus, two_lines: bool) -> String {
    let hash = s.hash.as_ref().map_or("-".to_string(), |(t, h)| {
        format!("{h} at {} s", t.as_secs())
    });
    let figures = format!(
        "{} FPS  {} UPS  game/real {:.2}  hash {hash}",
        s.fps, s.ups, s.ratio
    );
    let head = format!("{}   {}", s.title, s.agreement_text());
    if two_lines {
        format!("{head}\n{figures}")
    } else {
        format!("{head}   {figures}")
    }
}
