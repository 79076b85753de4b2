//! A recording played back headless: the same inputs on every modelled machine under every
//! strategy, each run stopped where the recording ended (the same game time) and its state
//! compared with the recorded one. Under a fixed step every machine reaches the recorded
//! state bit for bit; under `variable` the steps follow the machine's frame times, and the
//! ship ends somewhere else.

use std::fmt::Write as _;

use crate::text::table::Table;
use std::time::Duration;

use serde::Serialize;

use super::profile::Profile;
use super::run::{ReplayInput, RunConfig, RunResult};
use crate::session::recording::Recording;
use crate::session::steering::SteerScript;
use crate::world::hash::StateHash;
use looplab_timing::Strategy;

/// One machine and strategy playing the recording.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayRow {
    pub profile: String,
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub strategy: Strategy,
    /// The state hash at the recording's end; `None` if the run did not get there.
    pub hash: Option<StateHash>,
    /// Whether it is the recorded hash.
    pub matches: bool,
    /// How far the ship ended from where it ended in the recording, world pixels.
    pub ship_offset_px: Option<f64>,
}

/// Every row, with what was recorded.
#[derive(Clone, Debug, Serialize)]
pub struct ReplayReport {
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub recorded_strategy: Strategy,
    pub recorded_hash: StateHash,
    pub recorded_steps: u64,
    pub game_seconds: f64,
    pub profiles: Vec<String>,
    #[serde(with = "crate::text::serde_ids::strategies")]
    pub strategies: Vec<Strategy>,
    pub rows: Vec<ReplayRow>,
}

/// Plays `recording` on every profile under every strategy.
pub fn replay_all(
    recording: &Recording,
    profiles: &[Profile],
    strategies: &[Strategy],
) -> ReplayReport {
    let until = recording.end.game_time;
    // Time enough for the slowest built-in pair (about a third of real speed) to get there.
    let duration = until * 30 + Duration::from_secs(10);
    let configs: Vec<Vec<RunConfig>> = strategies
        .iter()
        .map(|&strategy| {
            profiles
                .iter()
                .map(|profile| RunConfig {
                    strategy,
                    profile: profile.clone(),
                    settings: recording.settings(),
                    world: recording.world.clone(),
                    duration,
                    checkpoint: until,
                    trace_interval: duration,
                    until_updates: None,
                    keys: None,
                    just_in_time: None,
                    step_phase: Duration::ZERO,
                    replay: Some(ReplayInput {
                        script: SteerScript::new(recording.changes.clone()),
                        until,
                    }),
                })
                .collect()
        })
        .collect();
    let rows = super::run_groups(&configs)
        .iter()
        .map(|r| row(recording, r))
        .collect();
    ReplayReport {
        recorded_strategy: recording.strategy,
        recorded_hash: recording.end.hash,
        recorded_steps: recording.end.steps,
        game_seconds: until.as_secs_f64(),
        profiles: profiles.iter().map(|p| p.name.clone()).collect(),
        strategies: strategies.to_vec(),
        rows,
    }
}

fn row(recording: &Recording, r: &RunResult) -> ReplayRow {
    let outcome = recording.end.compare(&r.checkpoint);
    ReplayRow {
        profile: r.profile.clone(),
        strategy: r.strategy,
        hash: r.checkpoint.hash(),
        matches: outcome.is_some_and(|o| o.same_state),
        ship_offset_px: outcome.map(|o| o.ship_offset_px),
    }
}

impl ReplayReport {
    /// Profiles down, strategies across: "same" where the recorded state was reached, else
    /// how far the ship ended from the recorded ship.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Replay: recorded under {}, {} updates, {:.2} s of game time, end hash {}",
            self.recorded_strategy.id(),
            self.recorded_steps,
            self.game_seconds,
            self.recorded_hash
        );
        let _ = writeln!(
            out,
            "Each cell: `same` (the recorded state, bit for bit) or, where the state differs, how far the ship is from its recorded place."
        );
        let mut headers = vec!["profile"];
        headers.extend(self.strategies.iter().map(|s| s.id()));
        let mut table = Table::new(&headers);
        for p in &self.profiles {
            let mut cells = vec![p.clone()];
            cells.extend(self.strategies.iter().map(|s| {
                self.rows
                    .iter()
                    .find(|r| &r.profile == p && r.strategy == *s)
                    .map_or("-".to_string(), cell)
            }));
            table.row(cells);
        }
        out += &table.text();
        let same = self.rows.iter().filter(|r| r.matches).count();
        let _ = writeln!(
            out,
            "{same} of {} runs reached the recorded state exactly.",
            self.rows.len()
        );
        out
    }
}

fn cell(r: &ReplayRow) -> String {
    match (r.matches, r.ship_offset_px) {
        (true, _) => "same".into(),
        (false, None) => "not reached".into(),
        (false, Some(d)) => format!("ship {d:.1} px"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use crate::session::recording::RecordedEnd;
    use crate::world::WorldConfig;
    use crate::world::ship::Steer;
    use looplab_timing::{LoopSettings, ManualClock, Wake};

    /// Records four seconds of steering at 60 Hz frames under `strategy`, as the window
    /// would: keys change between frames, the session logs the update each applies to.
    fn record(strategy: Strategy) -> Recording {
        let world = WorldConfig {
            seed: 9,
            bullets: 200,
        };
        let settings = LoopSettings::default();
        let mut session = Session::new(strategy, settings.clone(), &world);
        let mut clock = ManualClock::default();
        for frame in 0..240u32 {
            let held = (frame / 30) % 4;
            session.steer(
                Steer::from_held(held == 0, held == 1, held == 2, held == 3),
                clock.now(),
            );
            let plan = session.frame(clock.now(), |_, _| {});
            clock.advance(Duration::from_millis(5));
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            } else {
                clock.advance(Duration::from_micros(11_667));
            }
        }
        let w = session.world();
        Recording {
            world,
            strategy,
            update_rate: settings.update_rate,
            max_updates: settings.max_updates(),
            frame_cap: settings.frame_cap,
            changes: session.steering().changes().to_vec(),
            end: RecordedEnd {
                steps: w.steps(),
                game_time: w.time(),
                hash: w.state_hash(),
                ship: w.ship.pos.to_array(),
            },
        }
    }

    #[test]
    fn fixed_steps_reproduce_the_recording_on_every_machine() {
        let recording = record(Strategy::CatchUp);
        assert!(recording.changes.len() >= 6, "{:?}", recording.changes);
        let fixed: Vec<Strategy> = Strategy::ALL
            .into_iter()
            .filter(|s| s.is_fixed_step())
            .collect();
        let report = replay_all(&recording, &Profile::builtin(), &fixed);
        assert_eq!(report.rows.len(), 6 * fixed.len());
        for r in &report.rows {
            assert!(r.matches, "{} on {}: {:?}", r.strategy, r.profile, r);
            assert_eq!(r.ship_offset_px, Some(0.0));
        }
    }

    #[test]
    fn a_variable_step_ends_elsewhere_and_says_how_far() {
        let recording = record(Strategy::Variable);
        let report = replay_all(&recording, &Profile::builtin(), &[Strategy::Variable]);
        let differ: Vec<&ReplayRow> = report.rows.iter().filter(|r| !r.matches).collect();
        assert!(differ.len() >= 4, "{}", report.table());
        assert!(
            differ.iter().all(|r| r.ship_offset_px.is_some()),
            "{}",
            report.table()
        );
        assert!(report.table().contains("ship "), "{}", report.table());
    }
}
