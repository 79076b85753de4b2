//! The key bindings: every action the window answers to, with the keys that trigger it and a
//! description, in one table that the help overlay and the README both show.

use looplab_timing::Strategy;
use winit::keyboard::KeyCode;

/// Something a person can ask of the running loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    SelectStrategy(Strategy),
    NextStrategy,
    /// Raise (`true`) or lower the update rate.
    UpdateRate(bool),
    /// Next (`true`) or previous frame cap.
    FrameCap(bool),
    ToggleVsync,
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
    ResetKnobs,
    Quit,
}

/// One row of the key table.
pub struct Binding {
    pub keys: &'static str,
    pub does: &'static str,
}

/// The key table, in the order the help shows it.
pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: "1-6",
        does: "choose a strategy (1 uncapped ... 6 extrapolated)",
    },
    Binding {
        keys: "Tab",
        does: "next strategy",
    },
    Binding {
        keys: "Up / Down",
        does: "update rate up / down",
    },
    Binding {
        keys: "C / Shift+C",
        does: "frame cap: next / previous (off, 30, 60, 120, 144, 240 Hz)",
    },
    Binding {
        keys: "V",
        does: "vsync on / off",
    },
    Binding {
        keys: "M / Shift+M",
        does: "max updates per frame up / down (1 ... unlimited)",
    },
    Binding {
        keys: "U / Shift+U",
        does: "simulated update cost up / down (weak CPU)",
    },
    Binding {
        keys: "R / Shift+R",
        does: "simulated render cost up / down (weak GPU)",
    },
    Binding {
        keys: "S",
        does: "a one-off 1 s stall",
    },
    Binding {
        keys: "Space or P",
        does: "pause / resume",
    },
    Binding {
        keys: "N or .",
        does: "single step (pauses)",
    },
    Binding {
        keys: "] / [",
        does: "time scale x2 / x0.5",
    },
    Binding {
        keys: "+ / -",
        does: "bullets x2 / x0.5",
    },
    Binding {
        keys: "G",
        does: "ghosts: true positions at the moment of display",
    },
    Binding {
        keys: "H or F1",
        does: "help",
    },
    Binding {
        keys: "O or F2",
        does: "hide / show the overlay",
    },
    Binding {
        keys: "0",
        does: "reset every knob to its start value",
    },
    Binding {
        keys: "Esc or Q",
        does: "quit",
    },
];

/// The digit key that selects `strategy`: 1 to 6, in the order of [`Strategy::ALL`].
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

/// The action for a key press, given whether Shift is held.
pub fn action_for(key: KeyCode, shift: bool) -> Option<Action> {
    use Action::*;
    use KeyCode as K;
    let strategy = |i: usize| Some(SelectStrategy(Strategy::ALL[i]));
    match key {
        K::Digit1 | K::Numpad1 => strategy(0),
        K::Digit2 | K::Numpad2 => strategy(1),
        K::Digit3 | K::Numpad3 => strategy(2),
        K::Digit4 | K::Numpad4 => strategy(3),
        K::Digit5 | K::Numpad5 => strategy(4),
        K::Digit6 | K::Numpad6 => strategy(5),
        K::Tab => Some(NextStrategy),
        K::ArrowUp => Some(UpdateRate(true)),
        K::ArrowDown => Some(UpdateRate(false)),
        K::KeyC => Some(FrameCap(!shift)),
        K::KeyV => Some(ToggleVsync),
        K::KeyM => Some(MaxUpdates(!shift)),
        K::KeyU => Some(UpdateCost(!shift)),
        K::KeyR => Some(RenderCost(!shift)),
        K::KeyS => Some(Stall),
        K::Space | K::KeyP => Some(TogglePause),
        K::KeyN | K::Period => Some(SingleStep),
        K::BracketRight => Some(TimeScale(true)),
        K::BracketLeft => Some(TimeScale(false)),
        K::Equal | K::NumpadAdd => Some(Bullets(true)),
        K::Minus | K::NumpadSubtract => Some(Bullets(false)),
        K::KeyG => Some(ToggleGhosts),
        K::KeyH | K::F1 => Some(ToggleHelp),
        K::KeyO | K::F2 => Some(ToggleOverlay),
        K::Digit0 | K::Numpad0 => Some(ResetKnobs),
        K::Escape | K::KeyQ => Some(Quit),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_pick_strategies_in_table_order() {
        for (i, key) in [
            KeyCode::Digit1,
            KeyCode::Digit2,
            KeyCode::Digit3,
            KeyCode::Digit4,
            KeyCode::Digit5,
            KeyCode::Digit6,
        ]
        .into_iter()
        .enumerate()
        {
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
        ];
        for (s, (key, id)) in Strategy::ALL.into_iter().zip(expected) {
            assert_eq!((strategy_key(s), s.id()), (key, id));
            assert_eq!(strategy_for_key(key), Some(s));
        }
        assert_eq!(strategy_for_key('7'), None);
        let mut s = Strategy::Uncapped;
        let mut seen = vec![];
        for _ in 0..6 {
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
        assert_eq!(action_for(KeyCode::KeyF, false), None);
    }

    #[test]
    fn every_action_has_a_key_listed_in_the_table() {
        let all_keys = [
            KeyCode::Digit1,
            KeyCode::Tab,
            KeyCode::ArrowUp,
            KeyCode::ArrowDown,
            KeyCode::KeyC,
            KeyCode::KeyV,
            KeyCode::KeyM,
            KeyCode::KeyU,
            KeyCode::KeyR,
            KeyCode::KeyS,
            KeyCode::Space,
            KeyCode::KeyN,
            KeyCode::BracketLeft,
            KeyCode::BracketRight,
            KeyCode::Equal,
            KeyCode::Minus,
            KeyCode::KeyG,
            KeyCode::KeyH,
            KeyCode::KeyO,
            KeyCode::Digit0,
            KeyCode::Escape,
        ];
        let mapped: Vec<Action> = all_keys
            .iter()
            .filter_map(|&k| action_for(k, false))
            .collect();
        assert_eq!(mapped.len(), all_keys.len());
        assert_eq!(BINDINGS.len(), 18);
    }
}
