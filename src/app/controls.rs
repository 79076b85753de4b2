//! The live knobs of the window and what each key does to them, kept free of winit and wgpu
//! so every action is unit-tested. Each change returns one line that the app logs.

use std::time::Duration;

use super::capture_load::CaptureLoad;

use looplab_timing::{DeltaMode, LoopSettings, Rate, Strategy, TimeScale};

use crate::app::keys::{self, KnobKey, LoopKey, SettingKey, ShipKey};
use crate::lab::compare::Preset;
use crate::session::Session;
use crate::session::present::{DEFAULT_LATENCY, LATENCIES, PresentMode};
use crate::session::ship_input::Direction;
use crate::session::ship_input::{Button, InputMode};
use crate::text::settings::{
    Cap, DeltaKind, MaxUpdates as MaxUpdatesText, describe_settings, format_duration,
};
use crate::text::strategy as strategy_text;
use crate::tour::Setup;
use crate::world::WorldConfig;
use crate::world::ship::Steer;

/// Update rates the arrow keys step through.
pub const UPDATE_RATES: [f64; 15] = [
    1.0, 2.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 50.0, 60.0, 100.0, 120.0, 240.0, 500.0, 1000.0,
];
/// Frame caps `C` steps through (0 is off).
pub const FRAME_CAPS: [f64; 6] = [0.0, 30.0, 60.0, 120.0, 144.0, 240.0];
/// Max updates per frame `M` steps through (0 is unlimited).
pub const MAX_UPDATES: [u32; 7] = [1, 2, 3, 5, 10, 25, 0];
/// Simulated update costs `U` steps through, in milliseconds.
pub const UPDATE_COSTS_MS: [u64; 7] = [0, 1, 2, 5, 10, 20, 40];
/// Simulated render costs `R` steps through, in milliseconds.
pub const RENDER_COSTS_MS: [u64; 6] = [0, 5, 10, 20, 40, 80];
/// The time scale `]` and `[` double and halve stays within 1/64 to 64.
pub const TIME_SCALE_RANGE: (f64, f64) = (1.0 / 64.0, 64.0);
/// How long the `S` stall lasts.
pub const STALL: Duration = Duration::from_secs(1);
/// The bullet count stays within this range.
pub const BULLET_RANGE: (usize, usize) = (0, WorldConfig::MAX_BULLETS);

/// Knobs that are not loop settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Knobs {
    /// How frames reach the display (V steps through the modes the surface offers).
    pub present: PresentMode,
    /// Frames that may wait between the loop and the display (Shift+V: 1, 2, 3).
    pub latency: u32,
    /// Start each frame just in time for its refresh (J).
    pub just_in_time: bool,
    /// Busy time added to every update (a weak CPU).
    pub update_cost: Duration,
    /// Busy time added to every frame's rendering (a weak GPU).
    pub render_cost: Duration,
    pub ghosts: bool,
    pub help: bool,
    pub overlay: bool,
    /// The loop's timeline strip.
    pub timeline: bool,
    /// On the tour, the whole screen rather than the stop's region and figures alone (A).
    pub everything: bool,
    /// Compare mode's preset, while it is on.
    pub compare: Option<Preset>,
    /// The lane the strategy and loop keys act on in compare mode; `None`: all of them.
    pub selected_lane: Option<usize>,
    /// A capture's frames as load on top of `render_cost` (`--capture FILE`).
    pub capture: Option<CaptureLoad>,
}

impl Default for Knobs {
    fn default() -> Self {
        Self {
            present: PresentMode::Immediate,
            latency: DEFAULT_LATENCY,
            just_in_time: false,
            update_cost: Duration::ZERO,
            render_cost: Duration::ZERO,
            ghosts: false,
            help: false,
            overlay: true,
            timeline: true,
            everything: false,
            compare: None,
            selected_lane: None,
            capture: None,
        }
    }
}

impl Knobs {
    /// Whether presents wait for the display (FIFO or FIFO relaxed).
    pub fn vsync(&self) -> bool {
        self.present.paces()
    }
}

/// What a key did, and what the app must do after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// The key acted on what it names: a setting, a knob, the strategy, the lanes (a step
    /// at the end of a range counts, the key having been tried). A tour key's setup sets
    /// it only where the stop changed the strategy.
    pub changed: bool,
    /// The line to log, if there is one.
    pub log: Option<String>,
    pub quit: bool,
    /// The present mode or the frame latency changed: the surface is set up again.
    pub swapchain_changed: bool,
    /// A stall of this length should happen before the next frame.
    pub stall: Option<Duration>,
    /// The strategy changed (statistics start over).
    pub strategy_changed: bool,
    /// The ship's steer changed.
    pub steered: bool,
}

impl Effect {
    /// Something changed, as `line` says.
    pub fn changed(line: String) -> Self {
        Self {
            changed: true,
            log: Some(line),
            ..Self::default()
        }
    }

    /// Nothing changed; `line` says why or what is there.
    pub fn said(line: String) -> Self {
        Self {
            log: Some(line),
            ..Self::default()
        }
    }

    /// The window closes.
    pub fn quit() -> Self {
        Self {
            quit: true,
            ..Self::said("quit".to_string())
        }
    }
}

/// The running loop and its knobs.
#[derive(Clone, Debug)]
pub struct Controls {
    session: Session,
    pub knobs: Knobs,
    /// What the run started with, for 0 (reset).
    initial: Snapshot,
    /// The preset compare mode turns on with.
    last_preset: Preset,
    /// The display's refresh rate, which snapped deltas snap to.
    display: Rate,
    /// The present modes the surface offers (empty until a surface says).
    offered: Vec<PresentMode>,
}

impl Controls {
    pub fn new(
        strategy: Strategy,
        settings: LoopSettings,
        knobs: Knobs,
        world: &WorldConfig,
    ) -> Self {
        Self {
            session: Session::new(strategy, settings.clone(), world),
            initial: Snapshot {
                strategy,
                settings,
                knobs: knobs.clone(),
                bullets: world.bullets,
                input: InputMode::default(),
            },
            last_preset: knobs.compare.unwrap_or(Preset::FredAndGeorge),
            knobs,
            display: Rate::SIXTY_HZ,
            offered: Vec::new(),
        }
    }

    /// The present modes the window's surface offers: V steps through these, and a mode
    /// asked for that is not among them gives way to the nearest that is.
    pub fn set_offered(&mut self, offered: Vec<PresentMode>) {
        self.knobs.present = self.knobs.present.or_offered(&offered);
        self.offered = offered;
    }

    /// The display's refresh rate, once the window knows its monitor: deltas snapped now
    /// (or after a reset) snap to it.
    pub fn set_display(&mut self, refresh: Rate) {
        self.display = refresh;
        let resnap = |s: &mut LoopSettings| {
            if let DeltaMode::Snapped { tolerance, .. } = s.delta_mode {
                s.delta_mode = DeltaMode::Snapped { refresh, tolerance };
            }
        };
        resnap(&mut self.initial.settings);
        let mut settings = self.settings().clone();
        resnap(&mut settings);
        self.session.set_settings(settings);
    }

    /// The display's refresh rate as the window last learnt it (60 Hz until then).
    pub fn display(&self) -> Rate {
        self.display
    }

    /// The steering the held arrows give.
    pub fn steer_held(&self) -> Steer {
        self.session.ship_keys().held()
    }

    /// The running loop.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The running loop, to run frames on.
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    pub fn strategy(&self) -> Strategy {
        self.session.planner().strategy()
    }

    pub fn settings(&self) -> &LoopSettings {
        self.session.planner().settings()
    }

    fn set_strategy(&mut self, strategy: Strategy) -> Effect {
        if strategy == self.strategy() {
            return Effect::default();
        }
        self.session.set_strategy(strategy);
        Effect {
            strategy_changed: true,
            ..Effect::changed(format!(
                "strategy: {} ({})",
                strategy.id(),
                strategy_text::text(strategy).name
            ))
        }
    }

    /// Holds (`down`) or lets go of a steering key at `arrival`; the ship's controls follow.
    fn hold(&mut self, direction: Direction, down: bool, arrival: Duration) -> Effect {
        let button = Button::Arrow(direction);
        let changed = if down {
            self.session.press(button, arrival)
        } else {
            self.session.release(button, arrival)
        };
        Effect {
            steered: changed,
            ..Effect::default()
        }
    }

    /// A steering key was let go at `arrival`.
    pub fn release(&mut self, direction: Direction, arrival: Duration) -> Effect {
        self.hold(direction, false, arrival)
    }

    /// Sets up a stop of the tour: its strategy, loop settings, simulated costs, vsync and
    /// compare preset, through the same state the keys change (as the reset key does). The
    /// ship, the world and the knobs a stop does not name (ghosts, the overlay, the
    /// timeline, the bullets) are left as the person has them.
    pub fn apply_setup(&mut self, setup: &Setup) -> Effect {
        let mut effect = self.set_strategy(setup.strategy);
        if !effect.strategy_changed {
            // The same strategy as the stop before: its statistics and the metronome's gap
            // still start afresh, or a lag the last stop ran up would show as this one's.
            self.session.set_strategy(setup.strategy);
        }
        let mut settings = setup.settings();
        settings.delta_mode = setup.delta.mode(self.display);
        settings.paused = false;
        self.session.set_settings(settings);
        let present = PresentMode::for_vsync(setup.vsync).or_offered(&self.offered);
        let swapchain_changed = present != self.knobs.present;
        self.knobs.present = present;
        self.knobs.just_in_time = false;
        self.knobs.update_cost = setup.update_cost;
        self.knobs.render_cost = setup.render_cost;
        self.knobs.compare = setup.compare;
        self.knobs.selected_lane = None;
        self.session.set_input_mode(setup.input);
        if let Some(p) = setup.compare {
            self.last_preset = p;
        }
        effect.swapchain_changed = swapchain_changed;
        effect.log = Some(format!(
            "tour: {}, {}",
            setup.strategy.id(),
            describe_settings(self.settings())
        ));
        effect
    }

    /// A key of the loop's, on the window's loop: its strategy, its settings, a single step,
    /// the bullets.
    pub fn loop_key(&mut self, key: LoopKey) -> Effect {
        match key {
            LoopKey::Strategy(s) => self.set_strategy(s),
            LoopKey::NextStrategy => self.set_strategy(keys::next_strategy(self.strategy())),
            LoopKey::Setting(key) => match settings_after(key, self.settings(), self.display) {
                Some((settings, line)) => {
                    self.session.set_settings(settings);
                    Effect::changed(line)
                }
                None => Effect::default(),
            },
            LoopKey::SingleStep => {
                self.session.single_step();
                Effect::changed("single step".to_string())
            }
            LoopKey::Bullets(up) => {
                let next = bullets_after(self.session.world().bullets.len(), up);
                self.session.set_bullet_count(next);
                Effect::changed(format!("bullets: {next}"))
            }
        }
    }

    /// A key of the ship's, pressed at `arrival` (on the loop's clock).
    pub fn ship_key(&mut self, key: ShipKey, arrival: Duration) -> Effect {
        match key {
            ShipKey::Steer(direction) => self.hold(direction, true, arrival),
            ShipKey::Dash => {
                self.session.press(Button::Dash, arrival);
                Effect::default()
            }
            ShipKey::InputMode => {
                let mode = self.session.ship_keys().mode().toggled();
                self.session.set_input_mode(mode);
                Effect::changed(format!("input: {}", mode.describe()))
            }
        }
    }

    /// A knob's key: the swapchain, the simulated costs, what is drawn, or the reset.
    pub fn knob_key(&mut self, key: KnobKey) -> Effect {
        let knobs = &mut self.knobs;
        match key {
            KnobKey::NextPresentMode => {
                knobs.present = knobs.present.next_offered(&self.offered);
                Effect {
                    swapchain_changed: true,
                    ..Effect::changed(format!(
                        "present mode: {} (vsync {})",
                        knobs.present,
                        on_off(knobs.present.paces())
                    ))
                }
            }
            KnobKey::FrameLatency => {
                knobs.latency = knobs.latency % LATENCIES.end() + 1;
                Effect {
                    swapchain_changed: true,
                    ..Effect::changed(format!("frames in flight: {}", knobs.latency))
                }
            }
            KnobKey::JustInTime => toggle(&mut knobs.just_in_time, "just in time"),
            KnobKey::UpdateCost(up) => {
                step_cost(&mut knobs.update_cost, &UPDATE_COSTS_MS, up, "update")
            }
            KnobKey::RenderCost(up) => {
                step_cost(&mut knobs.render_cost, &RENDER_COSTS_MS, up, "render")
            }
            KnobKey::Stall => Effect {
                stall: Some(STALL),
                ..Effect::changed(format!("stall: {}", format_duration(STALL)))
            },
            KnobKey::Ghosts => toggle(&mut knobs.ghosts, "ghosts"),
            KnobKey::Help => toggle(&mut knobs.help, "help"),
            KnobKey::Overlay => toggle(&mut knobs.overlay, "overlay"),
            KnobKey::Timeline => toggle(&mut knobs.timeline, "timeline"),
            KnobKey::Reset => self.reset(),
        }
    }

    /// The tour's A outside a question: the whole screen, or the stop's region and figures.
    pub fn toggle_everything(&mut self) -> Effect {
        toggle(
            &mut self.knobs.everything,
            "every figure (the tour: the whole screen)",
        )
    }

    /// Compare mode on, with the last preset, or off.
    pub fn toggle_compare(&mut self) -> Effect {
        self.knobs.compare = match self.knobs.compare {
            Some(_) => None,
            None => Some(self.last_preset),
        };
        Effect::changed(match self.knobs.compare {
            Some(p) => format!("compare: {p} ({})", p.description()),
            None => "compare: off".to_string(),
        })
    }

    /// Compare mode with `preset`, its keys on all lanes.
    pub fn compare_preset(&mut self, preset: Preset) -> Effect {
        self.knobs.compare = Some(preset);
        self.knobs.selected_lane = None;
        self.last_preset = preset;
        Effect::changed(format!("compare: {preset} ({})", preset.description()))
    }

    /// 0: every knob, the strategy, the loop's settings and the bullet count back to what
    /// the run started with.
    fn reset(&mut self) -> Effect {
        let mut effect = self.restore(&self.initial.clone());
        effect.changed = true;
        effect.log = Some("reset: every knob back to its start value".to_string());
        effect
    }

    /// What is set now, to [`Controls::restore`] later (the tour keeps what it found).
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            strategy: self.strategy(),
            settings: self.settings().clone(),
            knobs: self.knobs.clone(),
            bullets: self.session.world().bullets.len(),
            input: self.session.ship_keys().mode(),
        }
    }

    /// Puts back everything `snapshot` holds. The measures start afresh, whether or not the
    /// strategy changes.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Effect {
        let Snapshot {
            strategy,
            settings,
            knobs,
            bullets,
            input,
        } = snapshot.clone();
        let swapchain_changed =
            (knobs.present, knobs.latency) != (self.knobs.present, self.knobs.latency);
        let mut effect = self.set_strategy(strategy);
        if !effect.strategy_changed {
            // The same strategy: its measures (darts, energy, the metronome's gap) still
            // start afresh.
            self.session.set_strategy(strategy);
        }
        self.session.set_settings(settings);
        if let Some(p) = knobs.compare {
            self.last_preset = p;
        }
        self.knobs = knobs;
        self.session.set_bullet_count(bullets);
        self.session.set_input_mode(input);
        effect.swapchain_changed = swapchain_changed;
        effect
    }
}

/// Everything a person sets: the strategy, the loop's settings, the knobs, the bullet count
/// and how updates read the keys.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub strategy: Strategy,
    pub settings: LoopSettings,
    pub knobs: Knobs,
    pub bullets: usize,
    pub input: InputMode,
}

/// The loop settings `key` asks for, from `current`, and the line that says so; `None` when
/// the update rate would leave the range a rate may have. The window's loop and compare
/// mode's lanes change their settings through this one place.
///
/// `refresh` is the display's refresh rate, for snapping frame deltas to.
pub fn settings_after(
    key: SettingKey,
    current: &LoopSettings,
    refresh: Rate,
) -> Option<(LoopSettings, String)> {
    let mut s = current.clone();
    let line = match key {
        SettingKey::NextDelta => {
            s.delta_mode = DeltaKind::of(&s.delta_mode).next().mode(refresh);
            format!("frame deltas: {}", delta_text(&s.delta_mode))
        }
        SettingKey::UpdateRate(up) => {
            let next = step_f64(&UPDATE_RATES, s.update_rate.as_hz(), up);
            let rate = Rate::hz(next).ok()?;
            s.update_rate = rate;
            format!(
                "update rate: {} (step {})",
                rate,
                format_duration(rate.period())
            )
        }
        SettingKey::FrameCap(up) => {
            let next = step_f64(&FRAME_CAPS, s.frame_cap.map_or(0.0, Rate::as_hz), up);
            s.frame_cap = Rate::hz(next).ok();
            format!("frame cap: {}", Cap(s.frame_cap))
        }
        SettingKey::MaxUpdates(up) => {
            let next = step_cycle(&MAX_UPDATES, s.max_updates().unwrap_or(0), up);
            // 0 in the cycle stands for unlimited: never a limit of zero.
            if let Ok(next) = s.clone().with_max_updates((next != 0).then_some(next)) {
                s = next;
            }
            format!("max updates per frame: {}", MaxUpdatesText(s.max_updates()))
        }
        SettingKey::Pause => {
            s.paused = !s.paused;
            format!("paused: {}", on_off(s.paused))
        }
        SettingKey::TimeScale(up) => {
            s.time_scale = step_time_scale(s.time_scale, up);
            format!("time scale: {}", s.time_scale)
        }
    };
    Some((s, line))
}

/// The bullet count after doubling (`up`) or halving `n`, within the world's range.
pub fn bullets_after(n: usize, up: bool) -> usize {
    if up {
        n.saturating_mul(2).max(1)
    } else {
        n / 2
    }
    .clamp(BULLET_RANGE.0, BULLET_RANGE.1)
}

/// Doubles (`up`) or halves the time scale, within [`TIME_SCALE_RANGE`].
fn step_time_scale(scale: TimeScale, up: bool) -> TimeScale {
    let factor = if up {
        scale.factor() * 2.0
    } else {
        scale.factor() / 2.0
    };
    let (low, high) = TIME_SCALE_RANGE;
    TimeScale::new(factor.clamp(low, high)).unwrap_or(TimeScale::ONE)
}

/// How frame deltas are read, in words: `measured`, `snapped to 59.94 Hz`, `smoothed
/// over 8 frames`.
pub fn delta_text(delta: &DeltaMode) -> String {
    match delta {
        DeltaMode::Snapped { refresh, .. } => format!("snapped to {refresh}"),
        DeltaMode::Smoothed { frames, .. } => format!("smoothed over {frames} frames"),
        DeltaMode::Synced { jitter_fix, .. } => format!("synced, ±{jitter_fix} step"),
        _ => "measured".to_string(),
    }
}

/// Steps a simulated cost up or down through `costs_ms`, and says so.
fn step_cost(cost: &mut Duration, costs_ms: &[u64], up: bool, what: &str) -> Effect {
    let ms = step_u64(costs_ms, cost.as_millis() as u64, up);
    *cost = Duration::from_millis(ms);
    Effect::changed(format!("simulated {what} cost: {ms} ms"))
}

/// Turns `knob` on or off, and says so.
fn toggle(knob: &mut bool, name: &str) -> Effect {
    *knob = !*knob;
    Effect::changed(format!("{name}: {}", on_off(*knob)))
}

fn on_off(b: bool) -> &'static str {
    if b { "on" } else { "off" }
}

/// The next value of a sorted list above `current` (or below it, going down), staying at
/// the ends. A value not in the list (given on the command line) steps to its neighbour.
fn step_f64(values: &[f64], current: f64, up: bool) -> f64 {
    step_sorted(
        values,
        current,
        up,
        |v| v > current + 1e-9,
        |v| v < current - 1e-9,
    )
}

fn step_u64(values: &[u64], current: u64, up: bool) -> u64 {
    step_sorted(values, current, up, |v| v > current, |v| v < current)
}

/// The first of sorted `values` `above` the current one going up, or the last `below` it
/// going down; `current` when there is none.
fn step_sorted<T: Copy>(
    values: &[T],
    current: T,
    up: bool,
    above: impl Fn(T) -> bool,
    below: impl Fn(T) -> bool,
) -> T {
    let next = if up {
        values.iter().copied().find(|&v| above(v))
    } else {
        values.iter().rev().copied().find(|&v| below(v))
    };
    next.unwrap_or(current)
}

/// Steps through `values` in list order (where the last may mean "unlimited"), staying at
/// the ends; a value not in the list starts from the first.
fn step_cycle(values: &[u32], current: u32, up: bool) -> u32 {
    let i = values.iter().position(|&v| v == current);
    let next = match (i, up) {
        (Some(i), true) => (i + 1).min(values.len() - 1),
        (Some(i), false) => i.saturating_sub(1),
        (None, _) => 0,
    };
    values[next]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn controls() -> Controls {
        Controls::new(
            Strategy::Interpolated,
            LoopSettings::default().with_delta_mode(DeltaMode::Measured),
            Knobs::default(),
            &WorldConfig {
                seed: 1,
                bullets: 100,
            },
        )
    }

    #[test]
    fn a_tour_stop_sets_up_what_it_says_and_keys_act_on_it_as_ever() {
        for stop in crate::tour::stops::stops() {
            let mut c = controls();
            c.knob_key(KnobKey::Ghosts);
            let effect = c.apply_setup(&stop.setup);
            let setup = &stop.setup;
            assert_eq!(c.strategy(), setup.strategy, "{}", stop.id);
            assert_eq!(c.settings(), &setup.settings(), "{}", stop.id);
            assert_eq!(
                (c.knobs.update_cost, c.knobs.render_cost, c.knobs.vsync()),
                (setup.update_cost, setup.render_cost, setup.vsync),
                "{}",
                stop.id
            );
            assert_eq!(c.knobs.compare, setup.compare, "{}", stop.id);
            assert!(
                c.knobs.ghosts,
                "{}: a knob the stop does not name is kept",
                stop.id
            );
            assert!(effect.log.unwrap().starts_with("tour: "));
        }
        // The keys stay free: at the weak-GPU nap, R takes the weak GPU away.
        let mut c = controls();
        let nap = crate::tour::stops::stops()
            .into_iter()
            .find(|s| s.id == "a-nap-on-a-weak-gpu")
            .unwrap();
        c.apply_setup(&nap.setup);
        c.knob_key(KnobKey::RenderCost(false));
        assert!(c.knobs.render_cost < nap.setup.render_cost);
    }

    #[test]
    fn d_cycles_how_deltas_are_read_and_snaps_to_the_display() {
        let mut c = controls();
        let tv = Rate::hz(59.94).unwrap();
        c.set_display(tv);
        let e = c.loop_key(LoopKey::Setting(SettingKey::NextDelta));
        assert_eq!(c.settings().delta_mode, DeltaMode::snapped(tv));
        assert_eq!(e.log.as_deref(), Some("frame deltas: snapped to 59.94 Hz"));
        c.loop_key(LoopKey::Setting(SettingKey::NextDelta));
        assert_eq!(c.settings().delta_mode, DeltaMode::smoothed());
        let e = c.loop_key(LoopKey::Setting(SettingKey::NextDelta));
        assert_eq!(c.settings().delta_mode, DeltaMode::synced());
        assert_eq!(e.log.as_deref(), Some("frame deltas: synced, ±0.5 step"));
        c.loop_key(LoopKey::Setting(SettingKey::NextDelta));
        assert_eq!(c.settings().delta_mode, DeltaMode::Measured);
        // Snapping chosen before the window knew its display follows the display.
        let mut early = Controls::new(
            Strategy::CatchUp,
            LoopSettings::default().with_delta_mode(DeltaMode::snapped(Rate::SIXTY_HZ)),
            Knobs::default(),
            &WorldConfig {
                seed: 1,
                bullets: 1,
            },
        );
        early.set_display(tv);
        assert_eq!(early.settings().delta_mode, DeltaMode::snapped(tv));
        early.knob_key(KnobKey::Reset);
        assert_eq!(early.settings().delta_mode, DeltaMode::snapped(tv));
    }

    #[test]
    fn strategy_keys_switch_and_log_once() {
        let mut c = controls();
        let e = c.loop_key(LoopKey::Strategy(Strategy::CatchUp));
        assert_eq!(c.strategy(), Strategy::CatchUp);
        assert!(e.strategy_changed);
        assert_eq!(
            e.log.as_deref(),
            Some("strategy: catch-up (Fixed update, variable render)")
        );
        assert_eq!(
            c.loop_key(LoopKey::Strategy(Strategy::CatchUp)),
            Effect::default()
        );
        c.loop_key(LoopKey::NextStrategy);
        assert_eq!(c.strategy(), Strategy::Interpolated);
    }

    #[test]
    fn update_rate_steps_through_the_list_and_stops_at_the_ends() {
        let mut c = controls();
        c.loop_key(LoopKey::Setting(SettingKey::UpdateRate(true)));
        assert_eq!(c.settings().update_rate.as_hz(), 100.0);
        c.loop_key(LoopKey::Setting(SettingKey::UpdateRate(false)));
        c.loop_key(LoopKey::Setting(SettingKey::UpdateRate(false)));
        assert_eq!(c.settings().update_rate.as_hz(), 50.0);
        for _ in 0..20 {
            c.loop_key(LoopKey::Setting(SettingKey::UpdateRate(true)));
        }
        assert_eq!(c.settings().update_rate.as_hz(), 1000.0);
        for _ in 0..20 {
            c.loop_key(LoopKey::Setting(SettingKey::UpdateRate(false)));
        }
        assert_eq!(c.settings().update_rate.as_hz(), 1.0);
    }

    #[test]
    fn frame_cap_max_updates_and_costs_cycle() {
        let mut c = controls();
        let e = c.loop_key(LoopKey::Setting(SettingKey::FrameCap(true)));
        assert_eq!(c.settings().frame_cap.map(Rate::as_hz), Some(30.0));
        assert_eq!(e.log.as_deref(), Some("frame cap: 30 Hz"));
        c.loop_key(LoopKey::Setting(SettingKey::FrameCap(false)));
        assert_eq!(c.settings().frame_cap, None);

        assert_eq!(c.settings().max_updates(), Some(10));
        c.loop_key(LoopKey::Setting(SettingKey::MaxUpdates(true)));
        c.loop_key(LoopKey::Setting(SettingKey::MaxUpdates(true)));
        assert_eq!(c.settings().max_updates(), None, "25 then unlimited");
        c.loop_key(LoopKey::Setting(SettingKey::MaxUpdates(true)));
        assert_eq!(c.settings().max_updates(), None, "stays at the end");
        c.loop_key(LoopKey::Setting(SettingKey::MaxUpdates(false)));
        assert_eq!(c.settings().max_updates(), Some(25));

        c.knob_key(KnobKey::UpdateCost(true));
        c.knob_key(KnobKey::UpdateCost(true));
        assert_eq!(c.knobs.update_cost, Duration::from_millis(2));
        c.knob_key(KnobKey::RenderCost(true));
        assert_eq!(c.knobs.render_cost, Duration::from_millis(5));
        c.knob_key(KnobKey::RenderCost(false));
        c.knob_key(KnobKey::RenderCost(false));
        assert_eq!(c.knobs.render_cost, Duration::ZERO);
    }

    #[test]
    fn pause_single_step_time_scale_and_stall() {
        let mut c = controls();
        c.loop_key(LoopKey::Setting(SettingKey::Pause));
        assert!(c.settings().paused);
        c.loop_key(LoopKey::Setting(SettingKey::Pause));
        assert!(!c.settings().paused);
        c.loop_key(LoopKey::SingleStep);
        assert!(c.settings().paused, "single step pauses");
        let plan = c.session.frame(Duration::from_millis(5), |_, _| {});
        assert_eq!(plan.updates, 1);
        c.loop_key(LoopKey::Setting(SettingKey::TimeScale(false)));
        assert_eq!(c.settings().time_scale.factor(), 0.5);
        for _ in 0..10 {
            c.loop_key(LoopKey::Setting(SettingKey::TimeScale(true)));
        }
        assert_eq!(c.settings().time_scale.factor(), 64.0, "stays at the top");
        let e = c.knob_key(KnobKey::Stall);
        assert_eq!(e.stall, Some(STALL));
    }

    #[test]
    fn bullets_double_and_halve_within_bounds() {
        let mut c = controls();
        c.loop_key(LoopKey::Bullets(true));
        assert_eq!(c.session.world().bullets.len(), 200);
        for _ in 0..20 {
            c.loop_key(LoopKey::Bullets(false));
        }
        assert_eq!(c.session.world().bullets.len(), 0);
        c.loop_key(LoopKey::Bullets(true));
        assert_eq!(c.session.world().bullets.len(), 1);
        for _ in 0..40 {
            c.loop_key(LoopKey::Bullets(true));
        }
        assert_eq!(c.session.world().bullets.len(), WorldConfig::MAX_BULLETS);
    }

    #[test]
    fn toggles_and_reset() {
        let mut c = controls();
        assert!(c.knob_key(KnobKey::NextPresentMode).swapchain_changed);
        assert!(c.knob_key(KnobKey::FrameLatency).swapchain_changed);
        c.knob_key(KnobKey::JustInTime);
        c.knob_key(KnobKey::Ghosts);
        c.knob_key(KnobKey::Help);
        c.knob_key(KnobKey::Overlay);
        c.knob_key(KnobKey::Timeline);
        c.loop_key(LoopKey::Strategy(Strategy::Variable));
        c.loop_key(LoopKey::Setting(SettingKey::UpdateRate(false)));
        c.loop_key(LoopKey::Bullets(true));
        assert!(c.knobs.ghosts && c.knobs.help && !c.knobs.overlay);
        // From immediate (the test's start), V goes on to mailbox; Shift+V from 2 to 3.
        assert_eq!(
            (c.knobs.present, c.knobs.latency),
            (PresentMode::Mailbox, 3)
        );
        assert!(c.knobs.just_in_time);
        assert!(!c.knobs.timeline);
        let e = c.knob_key(KnobKey::Reset);
        assert!(e.swapchain_changed && e.strategy_changed);
        assert_eq!(c.knobs, Knobs::default());
        assert_eq!(c.strategy(), Strategy::Interpolated);
        assert_eq!(
            c.settings(),
            &LoopSettings::default().with_delta_mode(DeltaMode::Measured),
            "the settings it started with"
        );
        assert_eq!(c.session.world().bullets.len(), 100);
    }

    #[test]
    fn held_arrows_steer_the_ship_until_let_go() {
        let mut c = controls();
        assert!(
            c.ship_key(ShipKey::Steer(Direction::Right), Duration::ZERO)
                .steered
        );
        assert!(
            !c.ship_key(ShipKey::Steer(Direction::Right), Duration::ZERO)
                .steered,
            "already held"
        );
        c.ship_key(ShipKey::Steer(Direction::Up), Duration::ZERO);
        assert_eq!(c.steer_held(), Steer { x: 1, y: -1 });
        assert!(c.release(Direction::Right, Duration::ZERO).steered);
        assert_eq!(c.steer_held(), Steer { x: 0, y: -1 });
        c.release(Direction::Up, Duration::ZERO);
        assert_eq!(c.steer_held(), Steer::NONE);
        assert!(!c.release(Direction::Up, Duration::ZERO).steered);
        assert_eq!(c.session.ship_keys().taps().made, 2);
    }

    #[test]
    fn the_input_mode_key_switches_how_updates_read_the_keys() {
        let mut c = controls();
        assert_eq!(c.session.ship_keys().mode(), InputMode::Accumulated);
        c.ship_key(ShipKey::InputMode, Duration::ZERO);
        assert_eq!(c.session.ship_keys().mode(), InputMode::Sampled);
        c.ship_key(ShipKey::Dash, Duration::ZERO);
        assert_eq!(c.session.ship_keys().dashes().pressed, 1);
    }

    #[test]
    fn a_value_from_the_command_line_steps_to_its_neighbour() {
        assert_eq!(step_f64(&UPDATE_RATES, 75.0, true), 100.0);
        assert_eq!(step_f64(&UPDATE_RATES, 75.0, false), 60.0);
        assert_eq!(step_cycle(&MAX_UPDATES, 7, true), 1);
        assert_eq!(step_u64(&UPDATE_COSTS_MS, 3, false), 2);
    }
}
