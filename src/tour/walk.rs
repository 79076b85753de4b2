//! A stop run headless: its setup on the lab's modelled machine, on the virtual clock,
//! watched picture by picture as the window watches it. The tests walk every stop this way.

use std::time::Duration;

use super::{FigureTracker, Figures, Person, Setup, Stop, Watch};
use crate::lab::compare::{Compare, LaneSpec, Preset};
use crate::lab::keys::KeyEvent;
use crate::session::ship_input::{Button, Direction};
use crate::world::WorldConfig;
use crate::world::ship::Steer;

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

/// Runs `stop` until its claim comes true or its limit passes. In the single view the
/// setup's machine runs alone, as compare mode's one lane; otherwise the preset's lanes, as
/// the window shows them, the figures taken from the first.
pub fn walk(stop: &Stop) -> Walk {
    walk_watching(stop, &stop.setup, &stop.watch)
}

/// Runs `stop` as its hint's keys left it: `after`, the setup they made, watched for what
/// the hint says they show. `None` for a stop whose hint has no keys.
pub fn walk_tried(stop: &Stop, after: &Setup) -> Option<Walk> {
    Some(walk_watching(stop, after, &stop.tries?.shows))
}

/// Runs `stop`'s person on `setup` until `watch` holds or the stop's limit passes.
fn walk_watching(stop: &Stop, setup: &Setup, watch: &Watch) -> Walk {
    let world = WorldConfig {
        seed: 1,
        bullets: 200,
    };
    let (preset, lanes) = match setup.compare {
        Some(preset) => (preset, preset.lanes()),
        None => (
            Preset::Custom,
            vec![LaneSpec {
                delta: setup.delta,
                ..LaneSpec::new(setup.machine(), setup.strategy)
            }],
        ),
    };
    let mut compare = Compare::with_lanes(preset, lanes, &setup.settings(), &world, Duration::ZERO);
    for lane in &mut compare.lanes {
        lane.set_input_mode(setup.input);
    }
    // In compare mode the arrows steer every lane, as the window hands them over; in the
    // single view they reach its loop as keys.
    let mut steering = Vec::new();
    if stop.person == Person::TapsArrows {
        if compare.lanes.len() > 1 {
            steering = quick_taps(stop.limit);
        } else {
            for key in quick_taps(stop.limit) {
                compare.lanes[0].key(key);
            }
        }
    }
    let mut steering = steering.into_iter().peekable();
    let mut tracker = FigureTracker::new(Duration::ZERO, stop.needs);
    let mut shown = None;
    let mut now = Duration::ZERO;
    let mut last = Figures::default();
    while now <= stop.limit {
        now += LOOK_EVERY;
        while let Some(key) = steering.next_if(|k| k.at <= now) {
            let right = key.down && key.button == Button::Arrow(Direction::Right);
            let left = key.down && key.button == Button::Arrow(Direction::Left);
            compare.steer(Steer::from_held(left, right, false, false), key.at);
        }
        compare.advance_to(now);
        let lane = &compare.lanes[0];
        let Some(picture) = lane.picture() else {
            continue;
        };
        if shown != Some(picture.shown_at) {
            shown = Some(picture.shown_at);
            // The modelled machine has no hitches for the figures to begin again after.
            let _ = tracker.picture(
                picture.shown_at,
                &picture.plan,
                lane.session(),
                picture.waited,
            );
        }
        last = tracker.figures(now, &compare.agreements(), &compare.steer_delays());
        if let Some(figure) = watch.seen(&last) {
            return Walk {
                seen: Some((now, figure)),
                last,
            };
        }
    }
    Walk { seen: None, last }
}

/// A person tapping the arrows, right then left, 10 ms a tap (a key script's tap is
/// about as short), every 0.37 s from 0.53 s in (off any round step's grid), until
/// `until`.
fn quick_taps(until: Duration) -> Vec<KeyEvent> {
    let ms = Duration::from_millis;
    let mut keys = Vec::new();
    let mut at = ms(530);
    for button in [
        Button::Arrow(Direction::Right),
        Button::Arrow(Direction::Left),
    ]
    .into_iter()
    .cycle()
    {
        if at >= until {
            break;
        }
        keys.push(KeyEvent {
            at,
            button,
            down: true,
        });
        keys.push(KeyEvent {
            at: at + ms(10),
            button,
            down: false,
        });
        at += ms(370);
    }
    keys
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

    #[test]
    fn a_machine_too_slow_for_a_stop_is_measured_so_and_a_fast_one_is_not() {
        use super::super::Need;
        // The fast machine meets every stop's need of it, and says so.
        for stop in stops() {
            let walk = walk(&stop);
            match (stop.needs, &walk.last.machine) {
                (Need::Nothing, None) => {}
                (Need::DrawsWithin(_), Some(m)) => {
                    assert!(!m.too_slow && m.said.contains("fast enough"), "{m:?}")
                }
                (need, m) => panic!("{}: {need:?} measured as {m:?}", stop.id),
            }
        }
        // Each stop that needs frames drawn within a time, on a machine that draws every
        // frame 5 ms slower than that: not seen, and the figures say why.
        let mut slowed = 0;
        for mut stop in stops() {
            let Need::DrawsWithin(within) = stop.needs else {
                continue;
            };
            stop.setup.render_cost = within + Duration::from_millis(5);
            let walk = walk(&stop);
            assert_eq!(walk.seen, None, "{} on a slow machine", stop.id);
            let m = walk.last.machine.unwrap_or_default();
            assert!(m.too_slow, "{}: {m:?}", stop.id);
            assert!(
                m.said.contains("this machine was too slow"),
                "{}: {m:?}",
                stop.id
            );
            slowed += 1;
        }
        assert_eq!(slowed, 3);
    }
}
