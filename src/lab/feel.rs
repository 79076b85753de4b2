//! What a player feels, modelled: a seeded person taps and holds the arrows, the loop gets
//! each key as a window hands it over (the keys that arrived before a frame starts, with
//! their arrival times), and the lab counts the taps that never reached the game, the
//! presses taken twice, and each press's delay from its arrival to the first presented
//! frame that shows it. Every profile, every strategy, accumulated and sampled input, at 10
//! and 60 updates a second (`looplab lab feel`).

use std::time::Duration;

use oorandom::Rand32;
use serde::Serialize;

use super::keys::{FeelResult, KeyArrival, KeyEvent, KeyInput};
use super::profile::Profile;
use super::run::{self, RunConfig};
use crate::session::ship_input::{Button, DIRECTIONS, InputMode, Taps};
use crate::text::table::Table;
use crate::world::WorldConfig;
use looplab_timing::{LoopSettings, Rate, Strategy};

/// A person at the arrows for `duration` (from half a second in): two taps of 20 to 80 ms
/// for every hold of 0.3 to 0.9 s, each of a random arrow, with 0.15 to 0.6 s between.
pub fn key_script(seed: u64, duration: Duration) -> Vec<KeyEvent> {
    let mut rng = Rand32::new(seed ^ 0x6b65_7973);
    let ms =
        |rng: &mut Rand32, lo: u32, hi: u32| Duration::from_millis(rng.rand_range(lo..hi).into());
    let mut events = Vec::new();
    let mut t = Duration::from_millis(500);
    while t < duration.saturating_sub(Duration::from_secs(1)) {
        let button = Button::Arrow(DIRECTIONS[rng.rand_range(0..4) as usize]);
        let held = if rng.rand_range(0..3) < 2 {
            ms(&mut rng, 20, 81)
        } else {
            ms(&mut rng, 300, 901)
        };
        events.push(KeyEvent {
            at: t,
            button,
            down: true,
        });
        events.push(KeyEvent {
            at: t + held,
            button,
            down: false,
        });
        t += held + ms(&mut rng, 150, 601);
    }
    events
}

/// One row of the feel report.
#[derive(Clone, Debug, Serialize)]
pub struct FeelRow {
    #[serde(with = "crate::text::serde_ids::strategy")]
    pub strategy: Strategy,
    pub profile: String,
    pub ups: f64,
    #[serde(flatten)]
    pub result: FeelResult,
}

/// Every profile, every strategy, both input modes, at 10 and 60 updates a second.
#[derive(Clone, Debug, Serialize)]
pub struct FeelReport {
    pub seconds: f64,
    pub rows: Vec<FeelRow>,
}

/// The update rates the feel report runs at.
pub const RATES: [f64; 2] = [10.0, 60.0];

/// Runs the feel report: `seconds` of the same seeded person on every profile.
pub fn run_feel(profiles: &[Profile], strategies: &[Strategy], seconds: Duration) -> FeelReport {
    let mut groups = Vec::new();
    for &strategy in strategies {
        let mut group = Vec::new();
        for profile in profiles {
            for hz in RATES {
                for mode in [InputMode::Accumulated, InputMode::Sampled] {
                    let settings = LoopSettings::default()
                        .with_update_rate(Rate::hz(hz).expect("a valid rate"));
                    group.push(with_keys(
                        strategy,
                        profile.clone(),
                        settings,
                        seconds,
                        mode,
                    ));
                }
            }
        }
        groups.push(group);
    }
    let rows = super::run_groups(&groups)
        .into_iter()
        .zip(groups.iter().flatten())
        .filter_map(|(r, config)| {
            Some(FeelRow {
                strategy: r.strategy,
                profile: r.profile,
                ups: config.settings.update_rate.as_hz(),
                result: r.feel?,
            })
        })
        .collect();
    FeelReport {
        seconds: seconds.as_secs_f64(),
        rows,
    }
}

impl FeelReport {
    /// The taps table: per strategy and update rate, taps lost and taken twice over every
    /// profile, accumulated and sampled.
    pub fn taps_table(&self) -> String {
        let mut table = Table::new(&[
            "strategy",
            "UPS",
            "taps",
            "accumulated: lost",
            "doubled",
            "sampled: lost",
            "doubled",
        ]);
        for (strategy, hz) in self.groups() {
            let sum = |mode: InputMode| {
                self.rows
                    .iter()
                    .filter(|r| r.strategy == strategy && r.ups == hz && r.result.mode == mode)
                    .fold(Taps::default(), |a, r| Taps {
                        made: a.made + r.result.taps.made,
                        reached: a.reached + r.result.taps.reached,
                        lost: a.lost + r.result.taps.lost,
                        doubled: a.doubled + r.result.taps.doubled,
                    })
            };
            let (acc, sam) = (sum(InputMode::Accumulated), sum(InputMode::Sampled));
            table.row([
                strategy.id().to_string(),
                format!("{hz:.0}"),
                acc.made.to_string(),
                acc.lost.to_string(),
                acc.doubled.to_string(),
                sam.lost.to_string(),
                sam.doubled.to_string(),
            ]);
        }
        table.markdown()
    }

    /// The delay table: per strategy and update rate, the median and 99th percentile of the
    /// key-to-screen delay with accumulated input on `profile`.
    pub fn delay_table(&self, profile: &str) -> String {
        let p50 = format!("delay p50 ({profile})");
        let mut table = Table::new(&["strategy", "UPS", p50.as_str(), "p99"]);
        let ms = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1} ms"));
        for (strategy, hz) in self.groups() {
            if let Some(r) = self.rows.iter().find(|r| {
                r.strategy == strategy
                    && r.ups == hz
                    && r.profile == profile
                    && r.result.mode == InputMode::Accumulated
            }) {
                table.row([
                    strategy.id().to_string(),
                    format!("{hz:.0}"),
                    ms(r.result.delay_p50_ms),
                    ms(r.result.delay_p99_ms),
                ]);
            }
        }
        table.markdown()
    }

    /// Each strategy and rate, in the order run.
    fn groups(&self) -> Vec<(Strategy, f64)> {
        let mut seen: Vec<(Strategy, f64)> = Vec::new();
        for r in &self.rows {
            if !seen.contains(&(r.strategy, r.ups)) {
                seen.push((r.strategy, r.ups));
            }
        }
        seen
    }
}

/// The key-to-screen delays the lab models for the window's loop: `strategy` at `ups`
/// under a 60 Hz cap with vsync off, on a machine whose frames take `render` from start to
/// present, with the seeded person at the arrows for two minutes (about 150 presses, so
/// the model's figures hardly move) and accumulated input, each key timed from when the
/// loop was free to take it, as the window times it. The model runs once for each of
/// `step_phases`, its frames that far behind the update steps' grid (see
/// [`RunConfig::step_phase`]; none given: on the grid), and pools the runs' delays, since
/// a window's frames move along that grid whenever a late wait restarts its cap's grid. A
/// fixed step's delay grows with the phase: a key that arrives in the last `step_phase`
/// before a frame misses its update.
pub fn modelled_feel(
    strategy: Strategy,
    ups: f64,
    render: Duration,
    step_phases: &[Duration],
) -> Option<FeelResult> {
    let profile = Profile::parse(&format!(
        "window:render={}us,refresh=60,vsync=off",
        render.as_micros()
    ))
    .ok()?;
    let settings = LoopSettings::default()
        .with_update_rate(Rate::hz(ups).ok()?)
        .with_frame_cap(Some(Rate::SIXTY_HZ));
    let mut config = with_keys(
        strategy,
        profile,
        settings,
        Duration::from_secs(120),
        InputMode::Accumulated,
    );
    if let Some(keys) = &mut config.keys {
        keys.arrival = KeyArrival::WhenLoopFree;
    }
    let on_grid = [Duration::ZERO];
    let phases = if step_phases.is_empty() {
        &on_grid[..]
    } else {
        step_phases
    };
    let (mut delays, mut taps) = (Vec::new(), Taps::default());
    for &phase in phases {
        config.step_phase = phase;
        let run = run::run(&config);
        let feel = run.feel?;
        taps.made += feel.taps.made;
        taps.reached += feel.taps.reached;
        taps.lost += feel.taps.lost;
        taps.doubled += feel.taps.doubled;
        delays.extend(run.key_delays);
    }
    Some(FeelResult::new(InputMode::Accumulated, taps, &delays))
}

/// A run of `seconds` of `strategy` on `profile` with `settings`, the seeded person at the
/// arrows and `mode` input, on a world of 200 bullets.
pub fn with_keys(
    strategy: Strategy,
    profile: Profile,
    settings: LoopSettings,
    seconds: Duration,
    mode: InputMode,
) -> RunConfig {
    RunConfig {
        strategy,
        profile,
        settings,
        world: WorldConfig {
            seed: 1,
            bullets: 200,
        },
        duration: seconds,
        checkpoint: RunConfig::DEFAULT_CHECKPOINT,
        trace_interval: RunConfig::DEFAULT_TRACE_INTERVAL,
        replay: None,
        until_updates: None,
        keys: Some(KeyInput {
            mode,
            events: key_script(1, seconds),
            arrival: KeyArrival::AsPressed,
        }),
        just_in_time: None,
        step_phase: Duration::ZERO,
    }
}

/// One run of `config` with its keys (for tests of a single case).
pub fn feel_of(config: &RunConfig) -> Option<FeelResult> {
    run::run(config).feel
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(strategy: Strategy, profile: &str, hz: f64, mode: InputMode) -> RunConfig {
        let profile = Profile::builtin()
            .into_iter()
            .find(|p| p.name == profile)
            .unwrap();
        let settings = LoopSettings::default().with_update_rate(Rate::hz(hz).unwrap());
        with_keys(strategy, profile, settings, Duration::from_secs(20), mode)
    }

    #[test]
    fn the_script_taps_and_holds_every_arrow() {
        let events = key_script(1, Duration::from_secs(20));
        let presses: Vec<&KeyEvent> = events.iter().filter(|e| e.down).collect();
        assert!(presses.len() > 20, "{}", presses.len());
        let taps = events
            .windows(2)
            .filter(|w| w[0].down && w[1].at - w[0].at <= Duration::from_millis(80))
            .count();
        assert!(taps * 2 > presses.len(), "mostly taps: {taps}");
        assert!(events.windows(2).all(|w| w[0].at <= w[1].at));
        assert_eq!(key_script(1, Duration::from_secs(20)), events, "seeded");
    }

    #[test]
    fn a_key_pressed_while_a_frame_is_made_is_timed_from_its_present_as_a_window_times_it() {
        // 10 ms frames every 16.7 ms, the render tick at 60 UPS: one tap pressed 2 ms into
        // the frame that starts at 500 ms, while the loop is busy until 510 ms.
        let profile = Profile::parse("busy:render=10ms,refresh=60,vsync=off").unwrap();
        let settings = LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ));
        let mut config = with_keys(
            Strategy::Predicted,
            profile,
            settings,
            Duration::from_secs(2),
            InputMode::Accumulated,
        );
        let right = Button::Arrow(DIRECTIONS[1]);
        let ms = Duration::from_millis;
        let keys = config.keys.as_mut().unwrap();
        keys.events = vec![
            KeyEvent {
                at: ms(502),
                button: right,
                down: true,
            },
            KeyEvent {
                at: ms(540),
                button: right,
                down: false,
            },
        ];
        let pressed = feel_of(&config).unwrap().delay_p50_ms.unwrap();
        config.keys.as_mut().unwrap().arrival = KeyArrival::WhenLoopFree;
        let seen = feel_of(&config).unwrap().delay_p50_ms.unwrap();
        // Pressed: it waits for the next frame at 516.7 ms, shown 10 ms later.
        assert!((pressed - 24.7).abs() < 0.5, "{pressed}");
        // Seen by the loop at 510 ms, when the frame it arrived in was presented: 8 ms less.
        assert!((pressed - seen - 8.0).abs() < 0.5, "{pressed} {seen}");
    }

    #[test]
    fn a_fixed_step_shows_a_key_later_by_as_much_as_its_frames_run_behind_the_steps() {
        // 60 UPS under a 60 Hz cap, 7 ms frames: with the frames 6 ms behind the steps'
        // grid, a key in the last 6 ms before a frame misses its update and waits a whole
        // frame for the next: 6/16.7 of the keys, 16.7 ms each, 6 ms on the mean. The
        // render tick's prediction takes the newest input, wherever the steps fall.
        let mean = |strategy, phases_ms: &[u64]| {
            let phases: Vec<Duration> = phases_ms
                .iter()
                .map(|&p| Duration::from_millis(p))
                .collect();
            modelled_feel(strategy, 60.0, Duration::from_millis(7), &phases)
                .and_then(|f| f.delay_mean_ms)
                .unwrap()
        };
        let (on_grid, behind) = (mean(Strategy::CatchUp, &[0]), mean(Strategy::CatchUp, &[6]));
        assert!((behind - on_grid - 6.0).abs() < 1.5, "{on_grid} {behind}");
        assert_eq!(
            mean(Strategy::CatchUp, &[]),
            on_grid,
            "no phase: on the grid"
        );
        // Frames half the time on the grid and half 6 ms behind: the delays are pooled.
        let half = mean(Strategy::CatchUp, &[0, 6]);
        assert!((half - (on_grid + behind) / 2.0).abs() < 1e-6, "{half}");
        let (on_grid, behind) = (
            mean(Strategy::Predicted, &[0]),
            mean(Strategy::Predicted, &[6]),
        );
        assert!((behind - on_grid).abs() < 1.5, "{on_grid} {behind}");
    }

    #[test]
    fn accumulated_input_loses_and_doubles_nothing_anywhere() {
        for profile in ["fast", "weak-gpu", "stall"] {
            for s in [
                Strategy::CatchUp,
                Strategy::Interpolated,
                Strategy::Predicted,
            ] {
                let f = feel_of(&config(s, profile, 10.0, InputMode::Accumulated)).unwrap();
                assert!(f.taps.made > 20);
                assert_eq!((f.taps.lost, f.taps.doubled), (0, 0), "{s} on {profile}");
                assert_eq!(f.taps.reached, f.taps.made, "{s} on {profile}");
            }
        }
    }

    #[test]
    fn sampled_input_loses_taps_at_10_ups() {
        let f = feel_of(&config(
            Strategy::CatchUp,
            "vsync-60",
            10.0,
            InputMode::Sampled,
        ))
        .unwrap();
        assert!(f.taps.lost * 4 > f.taps.made, "{:?}", f.taps);
    }

    #[test]
    fn the_render_tick_shows_a_press_a_step_sooner_than_interpolation() {
        let p50 = |s| {
            feel_of(&config(s, "vsync-60", 10.0, InputMode::Accumulated))
                .unwrap()
                .delay_p50_ms
                .unwrap()
        };
        let (predicted, interpolated) = (p50(Strategy::Predicted), p50(Strategy::Interpolated));
        // The render tick: half a frame interval (8.3 ms) waiting for the next frame to
        // start, then that frame, presented at the refresh after it starts (16.7 ms).
        assert!(predicted <= 8.4 + 16.7 + 2.0, "{predicted}");
        // A step (100 ms) more for interpolation, give or take a frame.
        assert!(
            (interpolated - predicted - 100.0).abs() < 17.0,
            "{interpolated} vs {predicted}"
        );
    }
}
