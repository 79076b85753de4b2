//! Compare mode's keys: which lanes the loop keys act on, and those keys applied to them.

use super::controls::{Effect, bullets_after, settings_after};
use crate::app::keys::{self, LoopKey};
use crate::lab::compare::Compare;
use crate::lab::lane::LaneChange;

/// The lanes `selected` names: one, or all.
fn targets(compare: &Compare, selected: Option<usize>) -> Vec<usize> {
    match selected {
        Some(i) if i < compare.lanes.len() => vec![i],
        _ => (0..compare.lanes.len()).collect(),
    }
}

/// The next selection (all lanes, then each lane in turn, then all again) and the line that
/// says which.
pub fn next_selection(compare: &Compare, selected: Option<usize>) -> (Option<usize>, String) {
    let next = match selected {
        None => Some(0),
        Some(i) if i + 1 < compare.lanes.len() => Some(i + 1),
        Some(_) => None,
    };
    let line = match next {
        Some(i) => format!(
            "compare: keys act on lane {} ({})",
            i + 1,
            compare.lanes[i].profile().name
        ),
        None => "compare: keys act on all lanes".to_string(),
    };
    (next, line)
}

/// A key of the loop's on the selected lane (or on all): its strategy, its settings, a
/// single step, its bullets. Each lane takes it at its next frame start.
pub fn loop_key(compare: &mut Compare, selected: Option<usize>, key: LoopKey) -> Effect {
    let mut lines = Vec::new();
    for i in targets(compare, selected) {
        let lane = &mut compare.lanes[i];
        let line = match key {
            LoopKey::Strategy(s) => {
                lane.change(LaneChange::Strategy(s));
                format!("strategy: {}", s.id())
            }
            LoopKey::NextStrategy => {
                let s = keys::next_strategy(lane.strategy());
                lane.change(LaneChange::Strategy(s));
                format!("strategy: {}", s.id())
            }
            LoopKey::Setting(key) => {
                let refresh = lane.profile().refresh;
                let Some((settings, line)) = settings_after(key, &lane.settings(), refresh) else {
                    continue;
                };
                lane.change(LaneChange::Settings(settings));
                line
            }
            LoopKey::SingleStep => {
                lane.change(LaneChange::SingleStep);
                "single step".to_string()
            }
            LoopKey::Bullets(up) => {
                let n = bullets_after(lane.bullets(), up);
                lane.change(LaneChange::Bullets(n));
                format!("bullets: {n}")
            }
        };
        lines.push(format!("lane {} ({}): {line}", i + 1, lane.profile().name));
    }
    if lines.is_empty() {
        Effect::default()
    } else {
        Effect::changed(lines.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::app::keys::SettingKey;
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
        let (first, line) = next_selection(&c, None);
        assert_eq!(line, "compare: keys act on lane 1 (fast)");
        let second = next_selection(&c, first).0;
        assert_eq!(second, Some(1));
        assert_eq!(next_selection(&c, second).0, None, "then all again");

        let e = loop_key(&mut c, second, LoopKey::Strategy(Strategy::Variable));
        assert!(e.changed);
        assert_eq!(
            e.log.as_deref(),
            Some("lane 2 (weak-gpu): strategy: variable")
        );
        assert_eq!(c.lanes[0].strategy(), Strategy::Interpolated);
        assert_eq!(c.lanes[1].strategy(), Strategy::Variable);

        let update_rate_down = LoopKey::Setting(SettingKey::UpdateRate(false));
        let line = loop_key(&mut c, None, update_rate_down).log.unwrap();
        assert!(
            line.starts_with("lane 1 (fast): update rate: 50") && line.contains("lane 2"),
            "{line}"
        );
        assert!(
            c.lanes
                .iter()
                .all(|l| l.settings().update_rate.as_hz() == 50.0)
        );
        // Taken at each lane's next frame start.
        c.advance_to(Duration::from_millis(100));
        assert_eq!(
            c.lanes[1].session().planner().strategy(),
            Strategy::Variable
        );
    }
}
