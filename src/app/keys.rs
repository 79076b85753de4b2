//! The key bindings: every action the window answers to, with the keys that trigger it and a
//! description, in one table that the help overlay and the README both show.

use looplab_timing::Strategy;
use winit::keyboard::KeyCode;

use crate::lab::compare::Preset;
use crate::session::ship_input::Direction;

/// Something a person can ask of the running loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Steer the ship while the key is held.
    Steer(Direction),
    /// The ship's one-shot action: a dash ahead.
    Dash,
    /// How updates read the keys: accumulated over each update's span, or sampled.
    ToggleInputMode,
    SelectStrategy(Strategy),
    NextStrategy,
    /// Raise (`true`) or lower the update rate.
    UpdateRate(bool),
    /// Next (`true`) or previous frame cap.
    FrameCap(bool),
    /// The next present mode the surface offers (vsync on and off among them).
    NextPresentMode,
    /// Frames in flight: 1, 2, 3, and round again.
    FrameLatency,
    /// Start each frame just in time for its refresh, or as the strategy says.
    ToggleJustInTime,
    /// How the loop reads frame deltas: measured, snapped to the display, smoothed, synced.
    NextDelta,
    MaxUpdates(bool),
    UpdateCost(bool),
    RenderCost(bool),
    Stall,
    TogglePause,
    SingleStep,
    TimeScale(bool),
    Bullets(bool),
    ToggleGhosts,
    ToggleHelp,
    ToggleOverlay,
    ToggleTimeline,
    /// Compare mode on (the last preset) or off.
    ToggleCompare,
    /// Compare mode with this preset.
    ComparePreset(Preset),
    /// Compare mode: the next lane, or all lanes, for the strategy and loop keys.
    SelectLane,
    ResetKnobs,
    /// The guided tour: start it, or go to its next stop.
    TourNext,
    /// The tour's previous stop.
    TourPrevious,
    /// Leave the tour (the settings it found come back).
    TourLeave,
    /// On the tour: the whole screen, or only what the stop is about; at a stop that asks
    /// which of two lanes is smoother or sooner, the answer "A".
    ToggleEverything,
    /// At a tour stop that asks which of two lanes is smoother or sooner: "B".
    TourAnswerB,
    Quit,
}

impl Action {
    /// Whether the action changes how the loop runs (its strategy, settings, costs,
    /// present mode, input or compare mode), rather than what is shown or the ship.
    pub fn changes_the_loop(self) -> bool {
        matches!(
            self,
            SelectStrategy(_)
                | NextStrategy
                | UpdateRate(_)
                | FrameCap(_)
                | NextPresentMode
                | FrameLatency
                | ToggleJustInTime
                | NextDelta
                | MaxUpdates(_)
                | UpdateCost(_)
                | RenderCost(_)
                | TimeScale(_)
                | ToggleInputMode
                | ToggleCompare
                | ComparePreset(_)
                | ResetKnobs
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
            (key(K::Enter), TourNext),
            (key(K::NumpadEnter), TourNext),
            (key(K::Backspace), TourPrevious),
            (key(K::End), TourLeave),
            (key(K::KeyA), ToggleEverything),
            (key(K::KeyB), TourAnswerB),
        ],
    },
    Binding {
        label: "arrows",
        does: "steer the ship (held; each update gets the share of its step a key was held)",
        keys: &[
            (key(K::ArrowLeft), Steer(Direction::Left)),
            (key(K::ArrowRight), Steer(Direction::Right)),
            (key(K::ArrowUp), Steer(Direction::Up)),
            (key(K::ArrowDown), Steer(Direction::Down)),
        ],
    },
    Binding {
        label: "X / I",
        does: "dash, once per press / input: each update's own share of the keys, or the keys held (sampled)",
        keys: &[(key(K::KeyX), Dash), (key(K::KeyI), ToggleInputMode)],
    },
    Binding {
        label: "1-8",
        does: "choose a strategy (1 uncapped ... 6 extrapolated, 7 and 8 the render ticks)",
        keys: &[
            (key(K::Digit1), SelectStrategy(S::Uncapped)),
            (key(K::Digit2), SelectStrategy(S::FixedSleep)),
            (key(K::Digit3), SelectStrategy(S::Variable)),
            (key(K::Digit4), SelectStrategy(S::CatchUp)),
            (key(K::Digit5), SelectStrategy(S::Interpolated)),
            (key(K::Digit6), SelectStrategy(S::Extrapolated)),
            (key(K::Digit7), SelectStrategy(S::Predicted)),
            (key(K::Digit8), SelectStrategy(S::PredictedKept)),
            (key(K::Numpad1), SelectStrategy(S::Uncapped)),
            (key(K::Numpad2), SelectStrategy(S::FixedSleep)),
            (key(K::Numpad3), SelectStrategy(S::Variable)),
            (key(K::Numpad4), SelectStrategy(S::CatchUp)),
            (key(K::Numpad5), SelectStrategy(S::Interpolated)),
            (key(K::Numpad6), SelectStrategy(S::Extrapolated)),
            (key(K::Numpad7), SelectStrategy(S::Predicted)),
            (key(K::Numpad8), SelectStrategy(S::PredictedKept)),
        ],
    },
    Binding {
        label: "Tab",
        does: "next strategy",
        keys: &[(key(K::Tab), NextStrategy)],
    },
    Binding {
        label: "F / Shift+F, PgUp / PgDn",
        does: "update rate up / down (1 ... 1000 Hz)",
        keys: &[
            (key(K::KeyF), UpdateRate(true)),
            (shift(K::KeyF), UpdateRate(false)),
            (key(K::PageUp), UpdateRate(true)),
            (key(K::PageDown), UpdateRate(false)),
        ],
    },
    Binding {
        label: "C / Shift+C",
        does: "frame cap: next / previous (off, 30, 60, 120, 144, 240 Hz)",
        keys: &[
            (key(K::KeyC), FrameCap(true)),
            (shift(K::KeyC), FrameCap(false)),
        ],
    },
    Binding {
        label: "V / Shift+V / J",
        does: "present mode: the next offered (fifo is vsync) / frames in flight 1-3 / just in time",
        keys: &[
            (key(K::KeyV), NextPresentMode),
            (shift(K::KeyV), FrameLatency),
            (key(K::KeyJ), ToggleJustInTime),
        ],
    },
    Binding {
        label: "D",
        does: "frame deltas: measured / snapped to the refresh / smoothed / synced",
        keys: &[(key(K::KeyD), NextDelta)],
    },
    Binding {
        label: "M / Shift+M",
        does: "max updates per frame up / down (1 ... unlimited)",
        keys: &[
            (key(K::KeyM), MaxUpdates(true)),
            (shift(K::KeyM), MaxUpdates(false)),
        ],
    },
    Binding {
        label: "U / Shift+U",
        does: "simulated update cost up / down (weak CPU)",
        keys: &[
            (key(K::KeyU), UpdateCost(true)),
            (shift(K::KeyU), UpdateCost(false)),
        ],
    },
    Binding {
        label: "R / Shift+R",
        does: "simulated render cost up / down (weak GPU)",
        keys: &[
            (key(K::KeyR), RenderCost(true)),
            (shift(K::KeyR), RenderCost(false)),
        ],
    },
    Binding {
        label: "S",
        does: "a one-off 1 s stall",
        keys: &[(key(K::KeyS), Stall)],
    },
    Binding {
        label: "Space or P",
        does: "pause / resume",
        keys: &[(key(K::Space), TogglePause), (key(K::KeyP), TogglePause)],
    },
    Binding {
        label: "N or .",
        does: "single step (pauses)",
        keys: &[(key(K::KeyN), SingleStep), (key(K::Period), SingleStep)],
    },
    Binding {
        label: "] / [",
        does: "time scale x2 / x0.5",
        keys: &[
            (key(K::BracketRight), TimeScale(true)),
            (key(K::BracketLeft), TimeScale(false)),
        ],
    },
    Binding {
        label: "+ / -",
        does: "bullets x2 / x0.5",
        keys: &[
            (key(K::Equal), Bullets(true)),
            (key(K::NumpadAdd), Bullets(true)),
            (key(K::Minus), Bullets(false)),
            (key(K::NumpadSubtract), Bullets(false)),
        ],
    },
    Binding {
        label: "G / T",
        does: "ghosts (true positions) / the loop's timeline, shown or hidden",
        keys: &[(key(K::KeyG), ToggleGhosts), (key(K::KeyT), ToggleTimeline)],
    },
    Binding {
        label: "H or F1 / O or F2",
        does: "help / hide or show the overlay",
        keys: &[
            (key(K::KeyH), ToggleHelp),
            (key(K::F1), ToggleHelp),
            (key(K::KeyO), ToggleOverlay),
            (key(K::F2), ToggleOverlay),
        ],
    },
    Binding {
        label: "L",
        does: "compare mode: modelled machines side by side, the same steering (on / off)",
        keys: &[(key(K::KeyL), ToggleCompare)],
    },
    Binding {
        label: "F5 / F6 / F7 / F8 / F9 / F10 / F11",
        does: "compare: Fred and George (variable step) / fixed step / every strategy / the weak GPU / snapping on a noisy 60 Hz display / the render ticks at 10 UPS / frames in flight",
        keys: &[
            (key(K::F5), ComparePreset(Preset::FredAndGeorge)),
            (key(K::F6), ComparePreset(Preset::FixedStep)),
            (key(K::F7), ComparePreset(Preset::EveryStrategy)),
            (key(K::F8), ComparePreset(Preset::WeakGpu)),
            (key(K::F9), ComparePreset(Preset::Snapping)),
            (key(K::F10), ComparePreset(Preset::RenderTicks)),
            (key(K::F11), ComparePreset(Preset::FramesInFlight)),
        ],
    },
    Binding {
        label: "K",
        does: "compare: the strategy and loop keys act on the next lane, or on all lanes",
        keys: &[(key(K::KeyK), SelectLane)],
    },
    Binding {
        label: "0 / Esc or Q",
        does: "reset every knob to its start value / quit",
        keys: &[
            (key(K::Digit0), ResetKnobs),
            (key(K::Numpad0), ResetKnobs),
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
        Some(Steer(d)) => Some(d),
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
                Some(Action::SelectStrategy(Strategy::ALL[i]))
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
            Some(Action::FrameCap(true))
        );
        assert_eq!(
            action_for(KeyCode::KeyC, true),
            Some(Action::FrameCap(false))
        );
        assert_eq!(
            action_for(KeyCode::KeyU, true),
            Some(Action::UpdateCost(false))
        );
        assert_eq!(
            action_for(KeyCode::KeyF, true),
            Some(Action::UpdateRate(false))
        );
        assert_eq!(action_for(KeyCode::KeyZ, false), None);
        assert_eq!(action_for(KeyCode::KeyV, true), Some(Action::FrameLatency));
        assert_eq!(steer_direction(KeyCode::ArrowUp), Some(Direction::Up));
        assert_eq!(steer_direction(KeyCode::KeyF), None);
    }

    /// A number per kind of action; a new kind of action fails to compile here until it
    /// is counted, and then fails the test below until it has a key.
    fn kind(a: Action) -> usize {
        match a {
            Steer(_) => 18,
            ToggleTimeline => 19,
            ToggleCompare => 20,
            ComparePreset(_) => 21,
            SelectLane => 22,
            NextDelta => 23,
            SelectStrategy(_) => 0,
            NextStrategy => 1,
            UpdateRate(_) => 2,
            FrameCap(_) => 3,
            NextPresentMode => 4,
            FrameLatency => 29,
            ToggleJustInTime => 30,
            MaxUpdates(_) => 5,
            UpdateCost(_) => 6,
            RenderCost(_) => 7,
            Stall => 8,
            TogglePause => 9,
            SingleStep => 10,
            TimeScale(_) => 11,
            Bullets(_) => 12,
            ToggleGhosts => 13,
            ToggleHelp => 14,
            ToggleOverlay => 15,
            ResetKnobs => 16,
            Quit => 17,
            Dash => 24,
            ToggleInputMode => 25,
            TourNext => 26,
            TourPrevious => 27,
            TourLeave => 28,
            ToggleEverything => 31,
            TourAnswerB => 32,
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
            assert_eq!(action_for(code, false), Some(SelectStrategy(s)));
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
