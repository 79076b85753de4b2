//! The six loop strategies of the classic texts: names, keys, and what each one trades away.
//!
//! This table is the contract shared by the window (keys 1-6), the lab (`--strategy`), the
//! reports and the README.

use std::fmt;
use std::str::FromStr;

/// A game-loop strategy from the texts in `shared/seeds/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// One fixed update per frame, as fast as the machine goes.
    Uncapped,
    /// One fixed update per frame, then sleep to the next frame deadline.
    FixedSleep,
    /// One update per frame by the real time that passed.
    Variable,
    /// Fixed updates to catch up with real time, the latest state drawn.
    CatchUp,
    /// Fixed updates, drawn between the last two states.
    Interpolated,
    /// Fixed updates, drawn ahead of the last state by its velocity.
    Extrapolated,
}

/// How a strategy decides the number and length of updates in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Exactly one fixed-length update each frame: game speed is the frame rate.
    OneStepPerFrame,
    /// One update whose length is the real time since the last frame.
    VariableStep,
    /// A lag accumulator paid off in fixed steps, at most `max_updates` a frame.
    Accumulator,
}

/// What the renderer should draw for a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawMode {
    /// The state after the last update.
    Latest,
    /// `lerp(previous, current, alpha)`.
    Interpolate,
    /// `current + velocity * alpha * step`.
    Extrapolate,
}

impl Strategy {
    /// Every strategy, in key order.
    pub const ALL: [Strategy; 6] = [
        Strategy::Uncapped,
        Strategy::FixedSleep,
        Strategy::Variable,
        Strategy::CatchUp,
        Strategy::Interpolated,
        Strategy::Extrapolated,
    ];

    /// The identifier used on the command line and in reports.
    pub fn id(self) -> &'static str {
        match self {
            Strategy::Uncapped => "uncapped",
            Strategy::FixedSleep => "fixed-sleep",
            Strategy::Variable => "variable",
            Strategy::CatchUp => "catch-up",
            Strategy::Interpolated => "interpolated",
            Strategy::Extrapolated => "extrapolated",
        }
    }

    /// The digit key that selects it in the window.
    pub fn key(self) -> char {
        (b'1' + self.index() as u8) as char
    }

    /// Position in [`Strategy::ALL`].
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }

    /// The strategy after this one (Tab), wrapping around.
    pub fn next(self) -> Strategy {
        Self::ALL[(self.index() + 1) % Self::ALL.len()]
    }

    /// A human name.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Uncapped => "Run as fast as you can",
            Strategy::FixedSleep => "Fixed step, sleep to sync",
            Strategy::Variable => "Variable (fluid) time step",
            Strategy::CatchUp => "Fixed update, variable render",
            Strategy::Interpolated => "Fixed update + interpolation",
            Strategy::Extrapolated => "Fixed update + prediction",
        }
    }

    /// The one-line trade-off the texts describe.
    pub fn trade_off(self) -> &'static str {
        match self {
            Strategy::Uncapped => {
                "Simple, but game speed is the machine's speed: too fast on fast hardware, a crawl on slow."
            }
            Strategy::FixedSleep => {
                "Simple and saves power, but when a frame overruns its budget the game itself slows down."
            }
            Strategy::Variable => {
                "Keeps real-time speed on any machine, but big steps make physics unstable and results nondeterministic."
            }
            Strategy::CatchUp => {
                "Deterministic fixed steps at real-time speed; slow rendering drops frames, and motion looks choppy."
            }
            Strategy::Interpolated => {
                "Smooth motion from few updates by blending the last two states, at the cost of one step of delay."
            }
            Strategy::Extrapolated => {
                "Smooth and without delay by predicting ahead, but the guess is wrong whenever something turns."
            }
        }
    }

    /// Where in the texts it comes from.
    pub fn source(self) -> &'static str {
        match self {
            Strategy::Uncapped => {
                "GPP \"run, run as fast as you can\"; first loop of deWiTTERS and LWJGL"
            }
            Strategy::FixedSleep => {
                "GPP \"take a little nap\"; deWiTTERS \"FPS dependent on constant game speed\""
            }
            Strategy::Variable => {
                "GPP \"one small step, one giant step\"; deWiTTERS \"game speed dependent on variable FPS\""
            }
            Strategy::CatchUp => {
                "GPP \"play catch up\"; deWiTTERS \"constant game speed with maximum FPS\""
            }
            Strategy::Interpolated => {
                "LWJGL fixed timestep (alpha = accumulator / interval); deWiTTERS interpolation"
            }
            Strategy::Extrapolated => {
                "GPP \"stuck in the middle\" render(lag / MS_PER_UPDATE); deWiTTERS prediction"
            }
        }
    }

    /// How it plans updates.
    pub fn family(self) -> Family {
        match self {
            Strategy::Uncapped | Strategy::FixedSleep => Family::OneStepPerFrame,
            Strategy::Variable => Family::VariableStep,
            Strategy::CatchUp | Strategy::Interpolated | Strategy::Extrapolated => {
                Family::Accumulator
            }
        }
    }

    /// How it draws.
    pub fn draw_mode(self) -> DrawMode {
        match self {
            Strategy::Interpolated => DrawMode::Interpolate,
            Strategy::Extrapolated => DrawMode::Extrapolate,
            _ => DrawMode::Latest,
        }
    }

    /// True for the strategies whose every update has the same fixed length, which is what
    /// makes them deterministic.
    pub fn is_fixed_step(self) -> bool {
        self.family() != Family::VariableStep
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Strategy {
    type Err = String;

    /// Accepts the id (`catch-up`) or the key (`4`).
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        Strategy::ALL
            .into_iter()
            .find(|st| st.id().eq_ignore_ascii_case(t) || t.len() == 1 && t.starts_with(st.key()))
            .ok_or_else(|| {
                let ids: Vec<&str> = Strategy::ALL.iter().map(|s| s.id()).collect();
                format!("unknown strategy '{s}' (choose from {})", ids.join(", "))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ids_and_parsing_agree_with_the_design_table() {
        let expected = [
            ('1', "uncapped"),
            ('2', "fixed-sleep"),
            ('3', "variable"),
            ('4', "catch-up"),
            ('5', "interpolated"),
            ('6', "extrapolated"),
        ];
        for (s, (key, id)) in Strategy::ALL.into_iter().zip(expected) {
            assert_eq!(s.key(), key);
            assert_eq!(s.id(), id);
            assert_eq!(id.parse::<Strategy>().unwrap(), s);
            assert_eq!(key.to_string().parse::<Strategy>().unwrap(), s);
        }
        let err = "warp".parse::<Strategy>().unwrap_err();
        assert!(err.contains("unknown strategy 'warp'") && err.contains("catch-up"));
    }

    #[test]
    fn tab_cycles_through_all_six() {
        let mut s = Strategy::Uncapped;
        let mut seen = vec![];
        for _ in 0..6 {
            seen.push(s);
            s = s.next();
        }
        assert_eq!(s, Strategy::Uncapped);
        assert_eq!(seen, Strategy::ALL);
    }

    #[test]
    fn families_and_draw_modes_follow_the_table() {
        use Strategy::*;
        assert_eq!(Uncapped.family(), Family::OneStepPerFrame);
        assert_eq!(FixedSleep.family(), Family::OneStepPerFrame);
        assert_eq!(Variable.family(), Family::VariableStep);
        assert!(!Variable.is_fixed_step());
        for s in [CatchUp, Interpolated, Extrapolated] {
            assert_eq!(s.family(), Family::Accumulator);
        }
        assert_eq!(CatchUp.draw_mode(), DrawMode::Latest);
        assert_eq!(Interpolated.draw_mode(), DrawMode::Interpolate);
        assert_eq!(Extrapolated.draw_mode(), DrawMode::Extrapolate);
    }
}
