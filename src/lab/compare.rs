//! Compare mode's lanes as a whole: the presets that tell the texts' comparisons, the lanes
//! they start, one steering for all, and what each lane's caption says.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use super::blind::{Blind, Judged, LETTERS, Question};
use super::lane::{Agreement, Lane, agreement, steer_stamp};
pub use super::lane_error::LaneError;
pub use super::lane_spec::LaneSpec;
use super::lane_spec::{in_flight, noisy_monitor};
use super::profile::Profile;
use crate::text::settings::DeltaKind;
use crate::text::value_error::ValueError;
use crate::world::WorldConfig;
use crate::world::ship::Steer;
use looplab_timing::{LoopSettings, Rate, Strategy};

/// The comparisons compare mode starts with, each one key or `--compare NAME`. Written in
/// reports by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// Game Programming Patterns' Fred and George: a fast and a slow machine, variable step.
    /// Their worlds part, visibly, and the hashes say so.
    FredAndGeorge,
    /// The same two machines with a fixed step (and interpolation): identical worlds.
    FixedStep,
    /// One machine (a 60 Hz display) under every strategy: the same motion, drawn eight
    /// ways.
    EveryStrategy,
    /// The weak GPU under every strategy.
    WeakGpu,
    /// Interpolation, the render tick and the kept render tick at 10 updates a second on a
    /// 60 Hz display, steered together: the step of delay interpolation adds, and the
    /// render ticks' present.
    RenderTicks,
    /// MonitorSim's case: a 60 Hz display, a noisy timer, catch-up reading deltas as
    /// measured, snapped, smoothed and synced.
    Snapping,
    /// One machine behind FIFO with 1, 2 and 3 frames in flight, and with 2 paced just in
    /// time: the same steering, shown a refresh later for every frame in the queue.
    FramesInFlight,
    /// Lanes given on the command line (`--lane PROFILE/STRATEGY`).
    Custom,
    /// Two lanes unnamed, for the tour's "which is smoother?" (not one of [`Preset::ALL`]:
    /// the tour starts it).
    Blind(Blind),
}

impl Preset {
    pub const ALL: [Preset; 7] = [
        Preset::FredAndGeorge,
        Preset::FixedStep,
        Preset::EveryStrategy,
        Preset::WeakGpu,
        Preset::Snapping,
        Preset::RenderTicks,
        Preset::FramesInFlight,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Preset::FredAndGeorge => "fred-and-george",
            Preset::FixedStep => "fixed-step",
            Preset::EveryStrategy => "every-strategy",
            Preset::WeakGpu => "weak-gpu",
            Preset::Snapping => "snapping",
            Preset::RenderTicks => "render-ticks",
            Preset::FramesInFlight => "frames-in-flight",
            Preset::Custom => "custom",
            Preset::Blind(_) => "blind",
        }
    }

    /// What it shows, in a line.
    pub fn description(self) -> &'static str {
        match self {
            Preset::FredAndGeorge => {
                "Fred's fast machine, George's slow one, a variable step: they part"
            }
            Preset::FixedStep => "two machines, fixed step: they stay identical",
            Preset::EveryStrategy => "one machine, every strategy: the same motion eight ways",
            Preset::WeakGpu => "the weak GPU under every strategy",
            Preset::Snapping => "a noisy 60 Hz display: measured deltas jump, synced ones do not",
            Preset::RenderTicks => "10 UPS: interpolation a step late, the render ticks on time",
            Preset::FramesInFlight => "FIFO with 1 to 3 frames in flight, and 2 just in time",
            Preset::Custom => "the machines and strategies given with --lane",
            Preset::Blind(b) => b.pair.question().words(),
        }
    }

    /// Its lanes (none for `Custom`: the caller has them).
    pub fn lanes(self) -> Vec<LaneSpec> {
        // Each lesson is told at the update rate it needs, whatever the window's is: a
        // 60 Hz step on 60 Hz displays, or 10 Hz where the render ticks show their step.
        let mut lanes = self.lanes_at_any_rate();
        if self != Preset::Custom {
            for lane in &mut lanes {
                lane.update_rate.get_or_insert(Rate::SIXTY_HZ);
            }
        }
        lanes
    }

    fn lanes_at_any_rate(self) -> Vec<LaneSpec> {
        let profile = |name: &str| {
            Profile::builtin()
                .into_iter()
                .find(|p| p.name == name)
                .expect("a built-in profile")
        };
        let pair = |strategy| {
            vec![
                LaneSpec::new(profile("fast"), strategy),
                LaneSpec::new(profile("weak-gpu"), strategy),
            ]
        };
        let every = |name: &str| {
            Strategy::ALL
                .into_iter()
                .map(|s| LaneSpec::new(profile(name), s))
                .collect()
        };
        match self {
            Preset::FredAndGeorge => pair(Strategy::Variable),
            Preset::FixedStep => pair(Strategy::Interpolated),
            Preset::EveryStrategy => every("vsync-60"),
            Preset::WeakGpu => every("weak-gpu"),
            Preset::Snapping => DeltaKind::ALL
                .into_iter()
                .map(|delta| LaneSpec {
                    delta,
                    ..LaneSpec::new(noisy_monitor(), Strategy::CatchUp)
                })
                .collect(),
            Preset::RenderTicks => [
                Strategy::Interpolated,
                Strategy::Predicted,
                Strategy::PredictedKept,
            ]
            .into_iter()
            .map(|s| LaneSpec {
                update_rate: Some(Rate::hz(10.0).expect("a valid rate")),
                ..LaneSpec::new(profile("vsync-60"), s)
            })
            .collect(),
            Preset::FramesInFlight => vec![
                in_flight(1, false),
                in_flight(2, false),
                in_flight(3, false),
                in_flight(2, true),
            ],
            Preset::Blind(blind) => blind.lanes(),
            Preset::Custom => Vec::new(),
        }
    }
}

/// The strategy a capture's lane runs when its argument names none.
pub const CAPTURE_LANE_STRATEGY: Strategy = Strategy::Interpolated;

/// One `--lane` argument: `PROFILE/STRATEGY[+DELTA]`, the profile a built-in name or a
/// custom spec in the lab's syntax (`laptop:render=9ms,refresh=59.94`), the strategy an id,
/// and how it reads deltas as the lab's table writes it (`catch-up+snapped`); or
/// `capture=FILE[/STRATEGY[+DELTA]]`, a frame capture's machine (interpolated unless named).
pub fn parse_lane(spec: &str) -> Result<LaneSpec, LaneError> {
    if let Some(rest) = spec.trim_start().strip_prefix("capture=") {
        // A path has slashes of its own: what follows the last is a strategy only if it
        // reads as one.
        let (path, strategy, delta) =
            match rest.rsplit_once('/').map(|(p, s)| (p, lane_strategy(s))) {
                Some((path, Ok((strategy, delta)))) => (path, strategy, delta),
                _ => (rest, CAPTURE_LANE_STRATEGY, DeltaKind::Measured),
            };
        if path.trim().is_empty() {
            return Err(LaneError::NoCaptureFile {
                spec: spec.to_string(),
            });
        }
        return Ok(LaneSpec {
            delta,
            capture: Some(PathBuf::from(path)),
            ..LaneSpec::new(Profile::parse("fast")?, strategy)
        });
    }
    let (profile, strategy) =
        spec.rsplit_once('/')
            .ok_or_else(|| LaneError::NotProfileStrategy {
                spec: spec.to_string(),
            })?;
    let (strategy, delta) = lane_strategy(strategy)?;
    Ok(LaneSpec {
        delta,
        ..LaneSpec::new(Profile::parse(profile)?, strategy)
    })
}

/// `STRATEGY[+DELTA]`.
fn lane_strategy(text: &str) -> Result<(Strategy, DeltaKind), LaneError> {
    let (strategy, delta) = match text.split_once('+') {
        Some((s, d)) => (s, d.parse::<DeltaKind>().map_err(LaneError::Delta)?),
        None => (text, DeltaKind::Measured),
    };
    let strategy = strategy
        .trim()
        .parse::<Strategy>()
        .map_err(LaneError::Strategy)?;
    Ok((strategy, delta))
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Preset {
    type Err = ValueError;

    fn from_str(s: &str) -> Result<Self, ValueError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.id() == s.trim())
            .ok_or_else(|| {
                let ids: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
                ValueError::not(s, format!("a comparison (choose from {})", ids.join(", ")))
            })
    }
}

/// Several modelled machines side by side, from the same world and the same steering.
#[derive(Clone, Debug)]
pub struct Compare {
    pub preset: Preset,
    pub lanes: Vec<Lane>,
    /// Real time compare mode started.
    started: Duration,
    /// The real time every lane has been run to.
    advanced_to: Duration,
}

/// What a lane's caption says.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneStatus {
    /// Machine and strategy.
    pub title: String,
    /// Pictures and updates in the last second.
    pub fps: usize,
    pub ups: u32,
    /// Pictures in the last second that showed two or more new updates.
    pub doubles: usize,
    /// Game time over real time since compare mode started.
    pub ratio: f64,
    /// The last state hash, as 8 hex digits, and the game time it was taken at.
    pub hash: Option<(Duration, String)>,
    /// How it compares with the first lane (`None` for the first lane itself).
    pub agreement: Option<Agreement>,
    /// The median delay from a change of steering to the picture that shows it.
    pub steer_delay: Option<Duration>,
}

impl Compare {
    /// The lanes of `preset`, each on a fresh `world` with `settings`, from real time `now`.
    pub fn new(
        preset: Preset,
        settings: &LoopSettings,
        world: &WorldConfig,
        now: Duration,
    ) -> Self {
        Self::with_lanes(preset, preset.lanes(), settings, world, now)
    }

    /// `lanes` (a machine and a strategy each), named `preset`.
    pub fn with_lanes(
        preset: Preset,
        lanes: Vec<LaneSpec>,
        settings: &LoopSettings,
        world: &WorldConfig,
        now: Duration,
    ) -> Self {
        let lanes = lanes
            .into_iter()
            .map(|spec| {
                let mut settings = settings
                    .clone()
                    .with_delta_mode(spec.delta.mode(spec.profile.refresh));
                if let Some(rate) = spec.update_rate {
                    settings = settings.with_update_rate(rate);
                }
                if spec.uncapped {
                    settings = settings.with_frame_cap(None);
                }
                let lane = Lane::new(spec.profile, spec.strategy, settings, world, now);
                if spec.just_in_time {
                    lane.with_just_in_time()
                } else {
                    lane
                }
            })
            .collect();
        Self {
            preset,
            lanes,
            started: now,
            advanced_to: now,
        }
    }

    /// Runs every lane up to real time `now`.
    pub fn advance_to(&mut self, now: Duration) {
        for lane in &mut self.lanes {
            lane.advance_to(now);
        }
        self.advanced_to = self.advanced_to.max(now);
    }

    /// The held arrows changed at real time `arrived`: every lane gets the change, from the
    /// same game time. The lanes are first run to the moment they learn of it (the arrival,
    /// or where they already are if that is later), so the game time they have planned to is
    /// known and no lane plans past it before it polls the change.
    pub fn steer(&mut self, steer: Steer, arrived: Duration) {
        let known = arrived.max(self.advanced_to);
        self.advance_to(known);
        let from = steer_stamp(&self.lanes);
        for lane in &mut self.lanes {
            lane.steer(steer, known, from);
        }
    }

    /// How each lane after the first agrees with it, in order: all the tour's watch needs,
    /// without the rest of a lane's status.
    pub fn agreements(&self) -> Vec<Agreement> {
        self.lanes[1..]
            .iter()
            .map(|lane| agreement(&self.lanes[0], lane))
            .collect()
    }

    /// Each lane's median delay from a change of steering to the picture that shows it.
    pub fn steer_delays(&self) -> Vec<Option<Duration>> {
        self.lanes.iter().map(Lane::steer_delay).collect()
    }

    /// What the lanes of a `blind` pair say, once they have the figures: the lane the figure favours (0 for
    /// A), and in words each lane's name and figure.
    pub fn judge(&self, blind: Blind) -> Judged {
        let names: Vec<String> = (0..2)
            .map(|i| self.status(i, Duration::ZERO).title)
            .collect();
        let figures: Vec<Option<f64>> = self
            .lanes
            .iter()
            .take(2)
            .map(|lane| match blind.pair.question() {
                Question::Smoother => {
                    let f = lane.animation_error();
                    (f.frames >= 30).then_some(f.mean_abs_ms)
                }
                Question::Sooner => lane.steer_delay().map(|d| d.as_secs_f64() * 1e3),
            })
            .collect();
        let favoured = match (figures.first(), figures.get(1)) {
            (Some(Some(a)), Some(Some(b))) if (a - b).abs() >= 0.5 => Some(usize::from(b < a)),
            _ => None,
        };
        let said = (0..2)
            .map(|i| {
                let figure = figures
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or("not measured".to_string(), |ms| format!("{ms:.1} ms"));
                format!("{} was {}, {figure}", LETTERS[i], names[i])
            })
            .collect::<Vec<_>>()
            .join("; ");
        Judged {
            favoured,
            said: format!("{said} ({})", blind.pair.question().figure()),
        }
    }

    /// Lane `i`'s caption at real time `now`.
    pub fn status(&self, i: usize, now: Duration) -> LaneStatus {
        let lane = &self.lanes[i];
        let (fps, ups) = lane.rates(now);
        let doubles = lane.doubles(now);
        let delta = DeltaKind::of(&lane.session().settings().delta_mode);
        let delta = if delta == DeltaKind::Measured {
            String::new()
        } else {
            format!("+{delta}")
        };
        let real = now.saturating_sub(self.started).as_secs_f64();
        let game = lane.session().world().time().as_secs_f64();
        LaneStatus {
            title: format!(
                "{} / {}{delta}{}",
                lane.profile().name,
                lane.session().planner().strategy().id(),
                if lane.is_just_in_time() {
                    ", just in time"
                } else {
                    ""
                }
            ),
            fps,
            ups,
            doubles,
            ratio: if real > 0.0 { game / real } else { 0.0 },
            hash: lane.hashes().last().map(|&(t, h)| (t, h.short())),
            agreement: (i > 0).then(|| agreement(&self.lanes[0], lane)),
            steer_delay: lane.steer_delay(),
        }
    }
}

impl LaneStatus {
    /// The agreement in words: "in step", "diverged at 3 s", or "-".
    pub fn agreement_text(&self) -> String {
        match self.agreement {
            None => "first lane".into(),
            Some(Agreement::Unknown) => "-".into(),
            Some(Agreement::InStep(_)) => "in step".into(),
            Some(Agreement::DivergedAt(t)) => format!("diverged at {} s", t.as_secs()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(preset: Preset, seconds: u64) -> Compare {
        run_from(preset, Duration::ZERO, seconds)
    }

    /// Compare mode opened at `start`, advanced every 4 ms for `seconds`.
    fn run_from(preset: Preset, start: Duration, seconds: u64) -> Compare {
        let mut c = Compare::new(
            preset,
            &LoopSettings::default(),
            &WorldConfig {
                seed: 2,
                bullets: 200,
            },
            start,
        );
        for ms in (0..seconds * 1000).step_by(4) {
            let now = start + Duration::from_millis(ms);
            if ms == 400 {
                c.steer(Steer::from_held(false, true, true, false), now);
            }
            c.advance_to(now);
        }
        c
    }

    #[test]
    fn each_frame_in_flight_shows_the_steering_a_refresh_later_and_just_in_time_sooner() {
        let mut c = Compare::new(
            Preset::FramesInFlight,
            // The window's 60 Hz cap: the preset's lanes run without it.
            &LoopSettings::default().with_frame_cap(Some(looplab_timing::Rate::SIXTY_HZ)),
            &WorldConfig {
                seed: 2,
                bullets: 200,
            },
            Duration::ZERO,
        );
        // A change of steering every 250 ms (a seeded spread of held arrows) for 10 s.
        let mut rng = oorandom::Rand32::new(5);
        for ms in (0..10_000u64).step_by(2) {
            let now = Duration::from_millis(ms);
            if ms % 250 == 0 && ms > 0 {
                let k = rng.rand_range(0..4);
                c.steer(Steer::from_held(k == 0, k == 1, k == 2, k == 3), now);
            }
            c.advance_to(now);
        }
        let delay = |i: usize| c.status(i, Duration::from_secs(10)).steer_delay.unwrap();
        let refresh = Duration::from_nanos(16_666_667);
        eprintln!("delays: {:?}", (0..4).map(delay).collect::<Vec<_>>());
        for n in 0..2 {
            let step = delay(n + 1).abs_diff(delay(n));
            assert!(
                step.abs_diff(refresh) < Duration::from_millis(4),
                "{} in flight to {}: {step:?}",
                n + 1,
                n + 2
            );
        }
        // Just in time, 2 in flight: sooner than plain with 1.
        assert!(delay(3) < delay(0), "{:?} vs {:?}", delay(3), delay(0));
        assert!(
            c.status(3, Duration::from_secs(10))
                .title
                .ends_with("just in time")
        );
        // And every lane ran the same game: the queue delays pictures, not updates.
        assert!(
            c.agreements()
                .iter()
                .all(|a| matches!(a, Agreement::InStep(_)))
        );
    }

    #[test]
    fn snapping_lanes_show_doubles_only_where_deltas_are_measured() {
        // Opened at any moment, as a person does in the window (once, at 4.2 s, the
        // display's refreshes were on the clock's grid rather than the lanes', and the
        // measured lane showed no doubles at all).
        for start in [Duration::ZERO, Duration::from_nanos(4_213_777_019)] {
            snapping_lanes_from(start);
        }
    }

    fn snapping_lanes_from(start: Duration) {
        let c = run_from(Preset::Snapping, start, 6);
        let now = start + Duration::from_secs(6);
        let status: Vec<LaneStatus> = (0..3).map(|i| c.status(i, now)).collect();
        assert_eq!(status[0].title, "monitor / catch-up");
        assert_eq!(status[1].title, "monitor / catch-up+snapped");
        assert_eq!(status[2].title, "monitor / catch-up+smoothed");
        assert!(status.iter().all(|s| s.fps == 60), "{status:?}");
        assert!(status[0].doubles >= 5, "{status:?}");
        assert_eq!(status[1].doubles, 0, "{status:?}");
        assert!(status[2].doubles < status[0].doubles, "{status:?}");
        // Fixed steps: however deltas are read, the same world.
        assert!(
            matches!(status[1].agreement, Some(Agreement::InStep(_))),
            "{status:?}"
        );
    }

    #[test]
    fn a_lane_reads_its_deltas_as_written() {
        let spec = parse_lane("tv:refresh=59.94/interpolated+snapped").unwrap();
        assert_eq!(
            (spec.strategy, spec.delta),
            (Strategy::Interpolated, DeltaKind::Snapped)
        );
        assert_eq!(
            parse_lane("fast/variable").unwrap().delta,
            DeltaKind::Measured
        );
        assert!(
            parse_lane("fast/variable+wobbly")
                .unwrap_err()
                .to_string()
                .contains("not measured, snapped, smoothed or synced")
        );
    }

    #[test]
    fn a_capture_lane_names_its_file_and_maybe_its_strategy() {
        let lane = |spec: &str| {
            let l = parse_lane(spec).unwrap();
            (l.capture.unwrap(), l.strategy, l.delta)
        };
        assert_eq!(
            lane("capture=runs/game.csv/catch-up+snapped"),
            (
                "runs/game.csv".into(),
                Strategy::CatchUp,
                DeltaKind::Snapped
            )
        );
        // A path's last part that is no strategy is the path's.
        assert_eq!(
            lane("capture=runs/game.csv"),
            (
                "runs/game.csv".into(),
                CAPTURE_LANE_STRATEGY,
                DeltaKind::Measured
            )
        );
        assert_eq!(
            lane("capture=game.csv"),
            (
                "game.csv".into(),
                CAPTURE_LANE_STRATEGY,
                DeltaKind::Measured
            )
        );
        assert!(
            parse_lane("capture=")
                .unwrap_err()
                .to_string()
                .contains("names no capture file")
        );
        assert!(
            parse_lane("capture=/variable")
                .unwrap_err()
                .to_string()
                .contains("names no capture file")
        );
    }

    #[test]
    fn keys_between_two_advances_keep_fixed_step_lanes_in_step() {
        // As in the window: lanes advanced once a frame, keys applied with the time they
        // arrived, which lies between two advances.
        let mut c = Compare::new(
            Preset::FixedStep,
            &LoopSettings::default(),
            &WorldConfig {
                seed: 5,
                bullets: 50,
            },
            Duration::ZERO,
        );
        let mut held = false;
        for frame in 1..=300u64 {
            let now = Duration::from_micros(16_667 * frame);
            if frame % 7 == 0 {
                held = !held;
                let arrived = now - Duration::from_millis(9);
                c.steer(Steer::from_held(false, held, false, held), arrived);
            }
            c.advance_to(now);
        }
        let status = c.status(1, Duration::from_secs(5));
        assert_eq!(status.agreement_text(), "in step", "{status:?}");
        assert!(c.lanes[0].hashes().len() >= 4);
        let steps = |l: &Lane| l.session().steering().steps();
        assert_eq!(steps(&c.lanes[0]), steps(&c.lanes[1]));
    }

    #[test]
    fn the_render_ticks_show_a_turn_a_step_before_interpolation_does() {
        let mut c = Compare::new(
            Preset::RenderTicks,
            &LoopSettings::default(),
            &WorldConfig {
                seed: 2,
                bullets: 50,
            },
            Duration::ZERO,
        );
        let drawn_x = |lane: &Lane| {
            let ship = &lane.session().shown().ship;
            lane.picture().map_or(ship.pos.x, |p| {
                p.plan
                    .view
                    .apply(ship.prev, ship.pos, ship.vel, p.plan.step)
                    .x
            })
        };
        let pressed = Duration::from_millis(1004);
        let mut before = [0.0; 3];
        let mut first_moved = [None; 3];
        for ms in (0..2000).step_by(2) {
            let now = Duration::from_millis(ms);
            if now == pressed {
                c.steer(Steer::from_held(false, true, false, false), now);
            }
            c.advance_to(now);
            for (i, lane) in c.lanes.iter().enumerate() {
                if now < pressed {
                    before[i] = drawn_x(lane);
                } else if first_moved[i].is_none() && drawn_x(lane) > before[i] + 0.5 {
                    first_moved[i] = Some(ms);
                }
            }
        }
        let [interpolated, predicted, kept] =
            first_moved.map(|m| m.unwrap_or_else(|| panic!("{first_moved:?}")));
        // At 10 updates a second interpolation waits for the next update and then for its
        // blend to pass it; the render ticks draw the turn with the next frame (which on
        // this 60 Hz display appears within two frame intervals).
        assert!(
            predicted <= 1004 + 40,
            "render tick moved at {predicted} ms"
        );
        assert!(kept <= 1004 + 40, "kept render tick moved at {kept} ms");
        assert!(
            interpolated >= predicted + 80,
            "interpolation moved at {interpolated} ms, the render tick at {predicted} ms"
        );
    }

    #[test]
    fn presets_have_their_lanes_and_names() {
        assert_eq!(Preset::FredAndGeorge.lanes().len(), 2);
        assert_eq!(Preset::EveryStrategy.lanes().len(), Strategy::ALL.len());
        assert_eq!(Preset::RenderTicks.lanes().len(), 3);
        for p in Preset::ALL {
            assert_eq!(p.id().parse::<Preset>(), Ok(p));
        }
        assert!(
            "sideways"
                .parse::<Preset>()
                .unwrap_err()
                .to_string()
                .contains("fred-and-george")
        );
    }

    #[test]
    fn a_preset_runs_at_the_update_rate_its_lesson_needs_whatever_the_windows() {
        let ten = LoopSettings::default().with_update_rate(Rate::hz(10.0).unwrap());
        let world = WorldConfig {
            seed: 1,
            bullets: 10,
        };
        for preset in Preset::ALL {
            let c = Compare::new(preset, &ten, &world, Duration::ZERO);
            let wanted = if preset == Preset::RenderTicks {
                10.0
            } else {
                60.0
            };
            for lane in &c.lanes {
                let hz = lane.session().settings().update_rate.as_hz();
                assert!((hz - wanted).abs() < 1e-9, "{preset:?}: {hz} UPS");
            }
        }
    }

    #[test]
    fn fred_and_george_part_ways_and_the_fixed_step_pair_does_not() {
        let now = Duration::from_secs(4);
        let fred = run(Preset::FredAndGeorge, 4);
        let george = fred.status(1, now);
        assert_eq!(george.title, "weak-gpu / variable");
        assert_eq!(george.agreement_text(), "diverged at 1 s");
        assert!((20..=23).contains(&george.fps), "{george:?}");

        let fixed = run(Preset::FixedStep, 4);
        let status = fixed.status(1, now);
        assert_eq!(status.agreement_text(), "in step");
        assert_eq!(fixed.status(0, now).hash, status.hash);
        assert!((status.ratio - 1.0).abs() < 0.05, "{status:?}");
    }

    /// The tour's blind pairs, judged by their lanes' figures.
    mod blind_pairs {
        use super::super::*;
        use crate::lab::blind::{Blind, Pair};
        use crate::world::WorldConfig;
        use crate::world::ship::Steer;
        use looplab_timing::LoopSettings;

        /// `blind`'s lanes on a world of 200 bullets, at time zero.
        fn start(blind: Blind) -> Compare {
            let world = WorldConfig {
                seed: 1,
                bullets: 200,
            };
            Compare::new(
                Preset::Blind(blind),
                &LoopSettings::default(),
                &world,
                Duration::ZERO,
            )
        }

        /// `blind`'s lanes run for `seconds` on the virtual clock, steered right and then left
        /// every 370 ms from half a second in.
        fn run(blind: Blind, seconds: u64) -> Compare {
            let mut compare = start(blind);
            let mut now = Duration::ZERO;
            let mut right = false;
            let mut next_key = Duration::from_millis(500);
            while now < Duration::from_secs(seconds) {
                now += Duration::from_millis(1);
                if now >= next_key {
                    right = !right;
                    compare.steer(Steer::from_held(!right, right, false, false), now);
                    next_key += Duration::from_millis(370);
                }
                compare.advance_to(now);
            }
            compare
        }

        #[test]
        fn each_pairs_figures_favour_its_refinement_wherever_it_is_shown() {
            for pair in [
                Pair::Interpolation,
                Pair::Snapping,
                Pair::RenderTick,
                Pair::Queue,
            ] {
                for swapped in [false, true] {
                    let blind = Blind { pair, swapped };
                    let judged = run(blind, 8).judge(blind);
                    assert_eq!(
                        judged.favoured,
                        Some(blind.refined()),
                        "{pair:?}, swapped {swapped}: {}",
                        judged.said
                    );
                    assert!(judged.said.contains("A was") && judged.said.contains("B was"));
                }
            }
        }

        #[test]
        fn a_stall_of_the_host_is_no_part_of_a_lanes_smoothness() {
            // The page rests out of sight, or a slow machine holds a frame for two seconds:
            // the lanes go on from where real time is, and their figures from there. (The
            // interpolation pair: the noisy display's measured lane shows its doubles at some
            // phases of its loop against the display only, and a stall moves the phase.)
            let blind = Blind {
                pair: Pair::Interpolation,
                swapped: false,
            };
            let mut compare = start(blind);
            let mut now = Duration::ZERO;
            while now < Duration::from_secs(8) {
                now += if now == Duration::from_secs(1) {
                    Duration::from_secs(2)
                } else {
                    Duration::from_millis(50)
                };
                compare.advance_to(now);
            }
            let error = compare.lanes[blind.refined()].animation_error();
            assert!(
                error.mean_abs_ms < 0.5,
                "the refinement's animation error {:.1} ms after a host stall",
                error.mean_abs_ms
            );
            let judged = compare.judge(blind);
            assert_eq!(judged.favoured, Some(blind.refined()), "{}", judged.said);
        }

        #[test]
        fn a_pair_with_nothing_measured_favours_neither() {
            let blind = Blind {
                pair: Pair::RenderTick,
                swapped: false,
            };
            let mut compare = start(blind);
            compare.advance_to(Duration::from_secs(5));
            let judged = compare.judge(blind);
            assert_eq!(judged.favoured, None, "no key, no delay: {}", judged.said);
            assert!(judged.said.contains("not measured"), "{}", judged.said);
        }
    }
}
