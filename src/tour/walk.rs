//! A stop run headless: its setup on the lab's modelled machine, on the virtual clock,
//! watched frame by frame as the window watches it. The tests walk every stop this way.

use std::time::Duration;

use super::{Figures, Stop};
use crate::lab::compare::{Compare, LaneSpec};
use crate::lab::lane::Agreement;
use crate::session::frame::FrameRecord;
use crate::world::WorldConfig;

/// How a stop went headless.
#[derive(Clone, Debug, PartialEq)]
pub struct Walk {
    /// When the claim came true (since the stop began) and the figure that showed it.
    pub seen: Option<(Duration, String)>,
    /// The figures at the end.
    pub last: Figures,
}

/// How often the walk looks: about a frame of the window's.
const LOOK_EVERY: Duration = Duration::from_millis(4);

/// Runs `stop` until its claim comes true or its limit passes.
pub fn walk(stop: &Stop) -> Walk {
    let setup = &stop.setup;
    let world = WorldConfig {
        seed: 1,
        bullets: 200,
    };
    let lanes = match setup.compare {
        Some(preset) => preset.lanes(),
        None => vec![LaneSpec {
            delta: setup.delta,
            ..LaneSpec::new(setup.machine(), setup.strategy)
        }],
    };
    let preset = setup.compare.unwrap_or(crate::lab::compare::Preset::Custom);
    let mut compare = Compare::with_lanes(preset, lanes, &setup.settings(), &world, Duration::ZERO);
    let mut most_updates = 0;
    // The pictures of the last second: when each was shown, and whether it stood still.
    let mut recent: std::collections::VecDeque<(Duration, bool)> = Default::default();
    let mut last_drawn: Option<Duration> = None;
    let mut last_picture: Option<Duration> = None;
    let mut now = Duration::ZERO;
    let mut last = Figures::default();
    while now <= stop.limit {
        now += LOOK_EVERY;
        compare.advance_to(now);
        let lane = &compare.lanes[0];
        let Some(picture) = lane.picture() else {
            continue;
        };
        most_updates = most_updates.max(picture.plan.updates);
        if last_picture != Some(picture.shown_at) {
            last_picture = Some(picture.shown_at);
            let drawn = FrameRecord::planned(&picture.plan).drawn_time();
            recent.push_back((picture.shown_at, last_drawn == Some(drawn)));
            last_drawn = Some(drawn);
            while recent
                .front()
                .is_some_and(|&(t, _)| t + Duration::from_secs(1) < picture.shown_at)
            {
                recent.pop_front();
            }
        }
        let still = recent.iter().filter(|&&(_, still)| still).count();
        let session = lane.session();
        let world = session.world();
        let status = compare.status(0, now);
        let others: Vec<Agreement> = (1..compare.lanes.len())
            .filter_map(|i| compare.status(i, now).agreement)
            .collect();
        let game_now = picture.plan.game_now.as_secs_f64();
        last = Figures {
            seconds: now.as_secs_f64(),
            game_behind_ms: (session.reference().as_secs_f64() - game_now) * 1e3,
            game_per_real: game_now / now.as_secs_f64(),
            tunnel_share: world.darts.tunnel_fraction(),
            energy_drift: world.balls.energy_drift(),
            doubles_per_second: status.doubles,
            lanes_in_step_to: in_step_to(&others),
            lanes_diverged_at: others.iter().find_map(|a| match a {
                Agreement::DivergedAt(t) => Some(t.as_secs_f64()),
                _ => None,
            }),
            most_updates,
            still_share: still as f64 / recent.len().max(1) as f64,
            fps: status.fps,
            busy_share: lane.busy_share(now),
        };
        if let Some(figure) = stop.watch.seen(&last) {
            return Walk {
                seen: Some((now, figure)),
                last,
            };
        }
    }
    Walk { seen: None, last }
}

/// The game time up to which every lane agreed with the first, if all have a common
/// checkpoint and none differed.
fn in_step_to(others: &[Agreement]) -> Option<f64> {
    let mut to: Option<f64> = None;
    for a in others {
        match a {
            Agreement::InStep(t) => {
                to = Some(to.map_or(t.as_secs_f64(), |x| x.min(t.as_secs_f64())))
            }
            _ => return None,
        }
    }
    to
}

#[cfg(test)]
mod tests {
    use super::super::stops::stops;
    use super::*;

    #[test]
    fn every_stop_comes_true_headless_within_its_limit() {
        let mut report = String::new();
        let mut missed = Vec::new();
        for stop in stops() {
            let walk = walk(&stop);
            match &walk.seen {
                Some((at, figure)) => {
                    report += &format!("{:<24} {:>6.2} s  {figure}\n", stop.id, at.as_secs_f64())
                }
                None => missed.push(format!(
                    "{}: expected {}; at the end {:?}",
                    stop.id,
                    stop.watch.expected(),
                    walk.last
                )),
            }
        }
        eprintln!("{report}");
        assert!(missed.is_empty(), "{missed:#?}");
    }
}
