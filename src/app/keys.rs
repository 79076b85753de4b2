//! The key bindings: every action the window answers to, with the keys that trigger it and a
//! description, in one table that the help overlay and the README both show.

use looplab_timing::Strategy;
use winit::keyboard::KeyCode;

use crate::lab::compare::Preset;
use crate::session::ship_input::Direction;

/// Something a person can ask of the running window, by the part of it that answers: each
/// group has one owner, and the demo routes a key to it once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// The ship's keys, which the session's input turns into each update's.
    Ship(ShipKey),
    /// The loop: its strategy and settings, and the world's bullets. In compare mode the
    /// lanes take these (the selected one, or all).
    Loop(LoopKey),
    /// What the window simulates and shows.
    Knob(KnobKey),
    /// Compare mode: on and off, its preset, the lane the loop keys act on.
    Lanes(LanesKey),
    /// The guided tour.
    Tour(TourKey),
    Quit,
}

/// The ship's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShipKey {
    /// Steer the ship while the key is held.
    Steer(Direction),
    /// The ship's one-shot action: a dash ahead.
    Dash,
    /// How updates read the keys: accumulated over each update's span, or sampled.
    InputMode,
}

/// The loop's keys: its strategy, its settings, a single step and the world's bullets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopKey {
    Strategy(Strategy),
    NextStrategy,
    Setting(SettingKey),
    /// One update while paused (it pauses).
    SingleStep,
    /// Double (`true`) or halve the bullets.
    Bullets(bool),
}

/// The keys that change the loop's settings ([`LoopSettings`](looplab_timing::LoopSettings)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingKey {
    /// Raise (`true`) or lower the update rate.
    UpdateRate(bool),
    /// Next (`true`) or previous frame cap.
    FrameCap(bool),
    /// How the loop reads frame deltas: measured, snapped to the display, smoothed, synced.
    NextDelta,
    /// More (`true`) or fewer updates a frame at the most.
    MaxUpdates(bool),
    Pause,
    /// Double (`true`) or halve the time scale.
    TimeScale(bool),
}

/// The knobs' keys: the swapchain, the simulated costs, what is drawn, and the reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnobKey {
    /// The next present mode the surface offers (vsync on and off among them).
    NextPresentMode,
    /// Frames in flight: 1, 2, 3, and round again.
    FrameLatency,
    /// Start each frame just in time for its refresh, or as the strategy says.
    JustInTime,
    UpdateCost(bool),
    RenderCost(bool),
    Stall,
    Ghosts,
    Help,
    Overlay,
    Timeline,
    /// Every knob, the strategy, the loop's settings and the bullets as the run began.
    Reset,
}

/// Compare mode's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LanesKey {
    /// Compare mode on (the last preset) or off.
    Compare,
    /// Compare mode with this preset.
    Preset(Preset),
    /// The next lane, or all lanes, for the strategy and loop keys.
    Select,
}

/// The tour's keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourKey {
    /// Start the tour, or go to its next stop.
    Next,
    /// The previous stop.
    Previous,
    /// Leave the tour (the settings it found come back).
    Leave,
    /// The whole screen, or only what the stop is about; at a stop that asks which of two
    /// lanes is smoother or sooner, the answer "A".
    Everything,
    /// At a stop that asks which of two lanes is smoother or sooner: "B".
    AnswerB,
    /// Go to this stop (from 0), starting the tour if need be: no key's, but the book's,
    /// whose view of a stop asks for it when it scrolls into sight.
    Visit(usize),
}

impl Action {
    /// Whether the action changes how the loop runs (its strategy, settings, costs,
    /// present mode, input or compare mode), rather than what is shown or the ship.
    pub fn changes_the_loop(self) -> bool {
        matches!(
            self,
            Loop(LoopKey::Strategy(_))
                | Loop(LoopKey::NextStrategy)
                | Loop(LoopKey::Setting(SettingKey::UpdateRate(_)))
                | Loop(LoopKey::Setting(SettingKey::FrameCap(_)))
                | Knob(KnobKey::NextPresentMode)
                | Knob(KnobKey::FrameLatency)
                | Knob(KnobKey::JustInTime)
                | Loop(LoopKey::Setting(SettingKey::NextDelta))
                | Loop(LoopKey::Setting(SettingKey::MaxUpdates(_)))
                | Knob(KnobKey::UpdateCost(_))
                | Knob(KnobKey::RenderCost(_))
                | Loop(LoopKey::Setting(SettingKey::TimeScale(_)))
                | Ship(ShipKey::InputMode)
                | Lanes(LanesKey::Compare)
                | Lanes(LanesKey::Preset(_))
                | Knob(KnobKey::Reset)
        )
    }
}

/// A key, and whether Shift must be held for this entry (a Shift entry wins over the plain
/// one while Shift is held; otherwise Shift makes no difference).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub shift: bool,
}

const fn key(code: KeyCode) -> Key {
    Key { code, shift: false }
}

const fn shift(code: KeyCode) -> Key {
    Key { code, shift: true }
}

/// One row of the key table: how the help names the keys, what they do, and the keys with
/// the action each one triggers. Dispatch ([`action_for`]), the help overlay and the README's
/// key table are all made from these rows.
pub struct Binding {
    pub label: &'static str,
    pub does: &'static str,
    pub keys: &'static [(Key, Action)],
}

use Action::*;
use KeyCode as K;
use Strategy as S;

/// The key table, in the order the help shows it.
pub const BINDINGS: &[Binding] = &[
    Binding {
        label: "Enter / Bksp / End / A / B",
        does: "the tour: start or go on / back a stop / leave it / every figure, or the short panel / answer A or B",
        keys: &[
            (key(K::Enter), Tour(TourKey::Next)),
            (key(K::NumpadEnter), Tour(TourKey::Next)),
            (key(K::Backspace), Tour(TourKey::Previous)),
            (key(K::End), Tour(TourKey::Leave)),
            (key(K::KeyA), Tour(TourKey::Everything)),
            (key(K::KeyB), Tour(TourKey::AnswerB)),
        ],
    },
    Binding {
        label: "arrows",
        does: "steer the ship (held; each update gets the share of its step a key was held)",
        keys: &[
            (key(K::ArrowLeft), Ship(ShipKey::Steer(Direction::Left))),
            (key(K::ArrowRight), Ship(ShipKey::Steer(Direction::Right))),
            (key(K::ArrowUp), Ship(ShipKey::Steer(Direction::Up))),
            (key(K::ArrowDown), Ship(ShipKey::Steer(Direction::Down))),
        ],
    },
    Binding {
        label: "X / I",
        does: "dash, once per press / input: each update's own share of the keys, or the keys held (sampled)",
        keys: &[
            (key(K::KeyX), Ship(ShipKey::Dash)),
            (key(K::KeyI), Ship(ShipKey::InputMode)),
        ],
    },
    Binding {
        label: "1-8",
        does: "choose a strategy (1 uncapped ... 6 extrapolated, 7 and 8 the render ticks)",
        keys: &[
            (key(K::Digit1), Loop(LoopKey::Strategy(S::Uncapped))),
            (key(K::Digit2), Loop(LoopKey::Strategy(S::FixedSleep))),
            (key(K::Digit3), Loop(LoopKey::Strategy(S::Variable))),
            (key(K::Digit4), Loop(LoopKey::Strategy(S::CatchUp))),
            (key(K::Digit5), Loop(LoopKey::Strategy(S::Interpolated))),
            (key(K::Digit6), Loop(LoopKey::Strategy(S::Extrapolated))),
            (key(K::Digit7), Loop(LoopKey::Strategy(S::Predicted))),
            (key(K::Digit8), Loop(LoopKey::Strategy(S::PredictedKept))),
            (key(K::Numpad1), Loop(LoopKey::Strategy(S::Uncapped))),
            (key(K::Numpad2), Loop(LoopKey::Strategy(S::FixedSleep))),
            (key(K::Numpad3), Loop(LoopKey::Strategy(S::Variable))),
            (key(K::Numpad4), Loop(LoopKey::Strategy(S::CatchUp))),
            (key(K::Numpad5), Loop(LoopKey::Strategy(S::Interpolated))),
            (key(K::Numpad6), Loop(LoopKey::Strategy(S::Extrapolated))),
            (key(K::Numpad7), Loop(LoopKey::Strategy(S::Predicted))),
            (key(K::Numpad8), Loop(LoopKey::Strategy(S::PredictedKept))),
        ],
    },
    Binding {
        label: "Tab",
        does: "next strategy",
        keys: &[(key(K::Tab), Loop(LoopKey::NextStrategy))],
    },
    Binding {
        label: "F / Shift+F, PgUp / PgDn",
        does: "update rate up / down (1 ... 1000 Hz)",
        keys: &[
            (
                key(K::KeyF),
                Loop(LoopKey::Setting(SettingKey::UpdateRate(true))),
            ),
            (
                shift(K::KeyF),
                Loop(LoopKey::Setting(SettingKey::UpdateRate(false))),
            ),
            (
                key(K::PageUp),
                Loop(LoopKey::Setting(SettingKey::UpdateRate(true))),
            ),
            (
                key(K::PageDown),
                Loop(LoopKey::Setting(SettingKey::UpdateRate(false))),
            ),
        ],
    },
    Binding {
        label: "C / Shift+C",
        does: "frame cap: next / previous (off, 30, 60, 120, 144, 240 Hz)",
        keys: &[
            (
                key(K::KeyC),
                Loop(LoopKey::Setting(SettingKey::FrameCap(true))),
            ),
            (
                shift(K::KeyC),
                Loop(LoopKey::Setting(SettingKey::FrameCap(false))),
            ),
        ],
    },
    Binding {
        label: "V / Shift+V / J",
        does: "present mode: the next offered (fifo is vsync) / frames in flight 1-3 / just in time",
        keys: &[
            (key(K::KeyV), Knob(KnobKey::NextPresentMode)),
            (shift(K::KeyV), Knob(KnobKey::FrameLatency)),
            (key(K::KeyJ), Knob(KnobKey::JustInTime)),
        ],
    },
    Binding {
        label: "D",
        does: "frame deltas: measured / snapped to the refresh / smoothed / synced",
        keys: &[(key(K::KeyD), Loop(LoopKey::Setting(SettingKey::NextDelta)))],
    },
    Binding {
        label: "M / Shift+M",
        does: "max updates per frame up / down (1 ... unlimited)",
        keys: &[
            (
                key(K::KeyM),
                Loop(LoopKey::Setting(SettingKey::MaxUpdates(true))),
            ),
            (
                shift(K::KeyM),
                Loop(LoopKey::Setting(SettingKey::MaxUpdates(false))),
            ),
        ],
    },
    Binding {
        label: "U / Shift+U",
        does: "simulated update cost up / down (weak CPU)",
        keys: &[
            (key(K::KeyU), Knob(KnobKey::UpdateCost(true))),
            (shift(K::KeyU), Knob(KnobKey::UpdateCost(false))),
        ],
    },
    Binding {
        label: "R / Shift+R",
        does: "simulated render cost up / down (weak GPU)",
        keys: &[
            (key(K::KeyR), Knob(KnobKey::RenderCost(true))),
            (shift(K::KeyR), Knob(KnobKey::RenderCost(false))),
        ],
    },
    Binding {
        label: "S",
        does: "a one-off 1 s stall",
        keys: &[(key(K::KeyS), Knob(KnobKey::Stall))],
    },
    Binding {
        label: "Space or P",
        does: "pause / resume",
        keys: &[
            (key(K::Space), Loop(LoopKey::Setting(SettingKey::Pause))),
            (key(K::KeyP), Loop(LoopKey::Setting(SettingKey::Pause))),
        ],
    },
    Binding {
        label: "N or .",
        does: "single step (pauses)",
        keys: &[
            (key(K::KeyN), Loop(LoopKey::SingleStep)),
            (key(K::Period), Loop(LoopKey::SingleStep)),
        ],
    },
    Binding {
        label: "] / [",
        does: "time scale x2 / x0.5",
        keys: &[
            (
                key(K::BracketRight),
                Loop(LoopKey::Setting(SettingKey::TimeScale(true))),
            ),
            (
                key(K::BracketLeft),
                Loop(LoopKey::Setting(SettingKey::TimeScale(false))),
            ),
        ],
    },
    Binding {
        label: "+ / -",
        does: "bullets x2 / x0.5",
        keys: &[
            (key(K::Equal), Loop(LoopKey::Bullets(true))),
            (key(K::NumpadAdd), Loop(LoopKey::Bullets(true))),
            (key(K::Minus), Loop(LoopKey::Bullets(false))),
            (key(K::NumpadSubtract), Loop(LoopKey::Bullets(false))),
        ],
    },
    Binding {
        label: "G / T",
        does: "ghosts (true positions) / the loop's timeline, shown or hidden",
        keys: &[
            (key(K::KeyG), Knob(KnobKey::Ghosts)),
            (key(K::KeyT), Knob(KnobKey::Timeline)),
        ],
    },
    Binding {
        label: "H or F1 / O or F2",
        does: "help / hide or show the overlay",
        keys: &[
            (key(K::KeyH), Knob(KnobKey::Help)),
            (key(K::F1), Knob(KnobKey::Help)),
            (key(K::KeyO), Knob(KnobKey::Overlay)),
            (key(K::F2), Knob(KnobKey::Overlay)),
        ],
    },
    Binding {
        label: "L",
        does: "compare mode: modelled machines side by side, the same steering (on / off)",
        keys: &[(key(K::KeyL), Lanes(LanesKey::Compare))],
    },
    Binding {
        label: "F5 / F6 / F7 / F8 / F9 / F10 / F11",
        does: "compare: Fred and George (variable step) / fixed step / every strategy / the weak GPU / snapping on a noisy 60 Hz display / the render ticks at 10 UPS / frames in flight",
        keys: &[
            (key(K::F5), Lanes(LanesKey::Preset(Preset::FredAndGeorge))),
            (key(K::F6), Lanes(LanesKey::Preset(Preset::FixedStep))),
            (key(K::F7), Lanes(LanesKey::Preset(Preset::EveryStrategy))),
            (key(K::F8), Lanes(LanesKey::Preset(Preset::WeakGpu))),
            (key(K::F9), Lanes(LanesKey::Preset(Preset::Snapping))),
            (key(K::F10), Lanes(LanesKey::Preset(Preset::RenderTicks))),
            (key(K::F11), Lanes(LanesKey::Preset(Preset::FramesInFlight))),
        ],
    },
    Binding {
        label: "K",
        does: "compare: the strategy and loop keys act on the next lane, or on all lanes",
        keys: &[(key(K::KeyK), Lanes(LanesKey::Select))],
    },
    Binding {
        label: "0 / Esc or Q",
        does: "reset every knob to its start value / quit",
        keys: &[
            (key(K::Digit0), Knob(KnobKey::Reset)),
            (key(K::Numpad0), Knob(KnobKey::Reset)),
            (key(K::Escape), Quit),
            (key(K::KeyQ), Quit),
        ],
    },
];

/// The action for a key press, given whether Shift is held: the table's Shift entry for the
/// key while Shift is held, else its plain entry.
pub fn action_for(code: KeyCode, shift_held: bool) -> Option<Action> {
    let find = |wanted: Key| {
        BINDINGS
            .iter()
            .flat_map(|b| b.keys)
            .find(|(k, _)| *k == wanted)
            .map(|&(_, action)| action)
    };
    let shifted = if shift_held { find(shift(code)) } else { None };
    shifted.or_else(|| find(key(code)))
}

/// The key a hint names as the help writes it (`R`, `Shift+R`, `4`, `F6`): one of the
/// table's, with Shift held or not.
pub fn key_named(name: &str) -> Option<Key> {
    let (shift, name) = match name.strip_prefix("Shift+") {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    let spoken = |code: KeyCode| {
        let debug = format!("{code:?}");
        let short = debug
            .strip_prefix("Key")
            .or_else(|| debug.strip_prefix("Digit"))
            .unwrap_or(&debug);
        short == name
    };
    BINDINGS
        .iter()
        .flat_map(|b| b.keys)
        .map(|(k, _)| k.code)
        .find(|&code| spoken(code))
        .map(|code| Key { code, shift })
}

/// The way `code` steers the ship, if it does (for key releases, which end a steer).
pub fn steer_direction(code: KeyCode) -> Option<Direction> {
    match action_for(code, false) {
        Some(Ship(ShipKey::Steer(d))) => Some(d),
        _ => None,
    }
}

/// The key table as Markdown, as the README shows it (a test keeps the two the same).
pub fn markdown_table() -> String {
    let mut out = String::from("| keys | what they do |\n|---|---|\n");
    for b in BINDINGS {
        out.push_str(&format!("| {} | {} |\n", b.label, b.does));
    }
    out
}

/// The digit key that selects `strategy`: 1 to 8, in the order of [`Strategy::ALL`].
pub fn strategy_key(strategy: Strategy) -> char {
    let index = Strategy::ALL
        .iter()
        .position(|&s| s == strategy)
        .unwrap_or(0);
    char::from(b'1' + index as u8)
}

/// The strategy a digit key selects.
pub fn strategy_for_key(key: char) -> Option<Strategy> {
    Strategy::ALL.into_iter().find(|&s| strategy_key(s) == key)
}

/// The strategy after `strategy` when Tab is pressed, wrapping around.
pub fn next_strategy(strategy: Strategy) -> Strategy {
    let index = Strategy::ALL
        .iter()
        .position(|&s| s == strategy)
        .unwrap_or(0);
    Strategy::ALL[(index + 1) % Strategy::ALL.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hooks::key_script::DIGITS;

    #[test]
    fn digits_pick_strategies_in_table_order() {
        for (i, key) in DIGITS[1..=8].iter().copied().enumerate() {
            assert_eq!(
                action_for(key, false),
                Some(Action::Loop(LoopKey::Strategy(Strategy::ALL[i])))
            );
        }
    }

    #[test]
    fn keys_and_tab_follow_the_strategy_table() {
        let expected = [
            ('1', "uncapped"),
            ('2', "fixed-sleep"),
            ('3', "variable"),
            ('4', "catch-up"),
            ('5', "interpolated"),
            ('6', "extrapolated"),
            ('7', "predicted"),
            ('8', "predicted-kept"),
        ];
        for (s, (key, id)) in Strategy::ALL.into_iter().zip(expected) {
            assert_eq!((strategy_key(s), s.id()), (key, id));
            assert_eq!(strategy_for_key(key), Some(s));
        }
        assert_eq!(strategy_for_key('9'), None);
        let mut s = Strategy::Uncapped;
        let mut seen = vec![];
        for _ in 0..8 {
            seen.push(s);
            s = next_strategy(s);
        }
        assert_eq!(s, Strategy::Uncapped);
        assert_eq!(seen, Strategy::ALL);
    }

    #[test]
    fn shift_reverses_the_cycling_knobs() {
        assert_eq!(
            action_for(KeyCode::KeyC, false),
            Some(Action::Loop(LoopKey::Setting(SettingKey::FrameCap(true))))
        );
        assert_eq!(
            action_for(KeyCode::KeyC, true),
            Some(Action::Loop(LoopKey::Setting(SettingKey::FrameCap(false))))
        );
        assert_eq!(
            action_for(KeyCode::KeyU, true),
            Some(Action::Knob(KnobKey::UpdateCost(false)))
        );
        assert_eq!(
            action_for(KeyCode::KeyF, true),
            Some(Action::Loop(LoopKey::Setting(SettingKey::UpdateRate(
                false
            ))))
        );
        assert_eq!(action_for(KeyCode::KeyZ, false), None);
        assert_eq!(
            action_for(KeyCode::KeyV, true),
            Some(Action::Knob(KnobKey::FrameLatency))
        );
        assert_eq!(steer_direction(KeyCode::ArrowUp), Some(Direction::Up));
        assert_eq!(steer_direction(KeyCode::KeyF), None);
    }

    /// A number per kind of action; a new kind of action fails to compile here until it
    /// is counted, and then fails the test below until it has a key.
    fn kind(a: Action) -> usize {
        match a {
            Ship(ShipKey::Steer(_)) => 18,
            Knob(KnobKey::Timeline) => 19,
            Lanes(LanesKey::Compare) => 20,
            Lanes(LanesKey::Preset(_)) => 21,
            Lanes(LanesKey::Select) => 22,
            Loop(LoopKey::Setting(SettingKey::NextDelta)) => 23,
            Loop(LoopKey::Strategy(_)) => 0,
            Loop(LoopKey::NextStrategy) => 1,
            Loop(LoopKey::Setting(SettingKey::UpdateRate(_))) => 2,
            Loop(LoopKey::Setting(SettingKey::FrameCap(_))) => 3,
            Knob(KnobKey::NextPresentMode) => 4,
            Knob(KnobKey::FrameLatency) => 29,
            Knob(KnobKey::JustInTime) => 30,
            Loop(LoopKey::Setting(SettingKey::MaxUpdates(_))) => 5,
            Knob(KnobKey::UpdateCost(_)) => 6,
            Knob(KnobKey::RenderCost(_)) => 7,
            Knob(KnobKey::Stall) => 8,
            Loop(LoopKey::Setting(SettingKey::Pause)) => 9,
            Loop(LoopKey::SingleStep) => 10,
            Loop(LoopKey::Setting(SettingKey::TimeScale(_))) => 11,
            Loop(LoopKey::Bullets(_)) => 12,
            Knob(KnobKey::Ghosts) => 13,
            Knob(KnobKey::Help) => 14,
            Knob(KnobKey::Overlay) => 15,
            Knob(KnobKey::Reset) => 16,
            Quit => 17,
            Ship(ShipKey::Dash) => 24,
            Ship(ShipKey::InputMode) => 25,
            Tour(TourKey::Next) => 26,
            Tour(TourKey::Previous) => 27,
            Tour(TourKey::Leave) => 28,
            Tour(TourKey::Everything) => 31,
            Tour(TourKey::AnswerB) => 32,
            Tour(TourKey::Visit(_)) => 33,
        }
    }

    #[test]
    fn every_action_has_a_key_and_no_key_means_two_things() {
        let mut kinds: Vec<usize> = BINDINGS
            .iter()
            .flat_map(|b| b.keys)
            .map(|&(_, a)| kind(a))
            .collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds, (0..33).collect::<Vec<_>>());
        let keys: Vec<Key> = BINDINGS
            .iter()
            .flat_map(|b| b.keys)
            .map(|&(k, _)| k)
            .collect();
        for (i, k) in keys.iter().enumerate() {
            assert!(!keys[..i].contains(k), "{k:?} is bound twice");
        }
        // Every strategy has its digit, in the table's order.
        for s in Strategy::ALL {
            let digit = strategy_key(s).to_digit(10).unwrap() as usize;
            let code = DIGITS[digit];
            assert_eq!(action_for(code, false), Some(Loop(LoopKey::Strategy(s))));
        }
    }

    #[test]
    fn the_readme_shows_this_key_table() {
        let readme = include_str!("../../docs/keys.md");
        let table = markdown_table();
        assert!(
            readme.contains(&table),
            "docs/keys.md's key table differs from keys::BINDINGS; it should read:\n{table}"
        );
    }
}
