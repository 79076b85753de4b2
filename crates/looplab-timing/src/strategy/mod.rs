//! The eight loop strategies of the classic game-loop texts and what lies beyond them, each in
//! a file of its own that opens with the loop in the texts' style and then says how this
//! crate runs it. Each loop is at most 12 lines, so an application can show it whole
//! ([`Strategy::pseudocode`]); `since_last_frame()` is the real time since the frame before.
//!
//! | strategy | updates per frame | what is drawn | when the next frame starts |
//! |---|---|---|---|
//! | [`uncapped`] | one fixed step | the latest state | at once |
//! | [`fixed_sleep`] | one fixed step | the latest state | at the next deadline of a grid one step apart |
//! | [`variable`] | one step as long as the frame | the latest state | at once, or at the frame cap |
//! | [`catch_up`] | as many fixed steps as are owed, at most `max_updates` | the latest state | at once, or at the frame cap |
//! | [`interpolated`] | as [`catch_up`] | between the last two states | as [`catch_up`] |
//! | [`extrapolated`] | as [`catch_up`] | ahead of the last state by its velocity | as [`catch_up`] |
//! | [`predicted`] | as [`catch_up`] | a copy of the last state run one more update, to the present | as [`catch_up`] |
//! | [`predicted_kept`] | as [`catch_up`] | that copy, kept and run on each frame until the next update | as [`catch_up`] |
//!
//! The [`Planner`](crate::Planner) dispatches to them and holds the rules for switching
//! from one to another mid-run.

pub mod catch_up;
pub mod extrapolated;
pub mod fixed_sleep;
pub mod interpolated;
pub mod predicted;
pub mod predicted_kept;
pub mod uncapped;
pub mod variable;

use core::fmt;
use core::str::FromStr;
use core::time::Duration;

use alloc::string::ToString;

use crate::accepted;
use crate::accumulator::Accumulator;
use crate::deadline::DeadlineGrid;
use crate::error::TimingError;
use crate::game_clock::FrameTime;
use crate::plan::Wake;
use crate::settings::LoopSettings;

/// A game-loop strategy.
///
/// Exhaustive on purpose: these are the loops of the texts, and an application that names
/// or describes each of them should hear from the compiler if that set ever changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Strategy {
    /// One fixed update per frame, as fast as the machine goes: see [`uncapped`].
    Uncapped,
    /// One fixed update per frame, then sleep to the next frame deadline: see
    /// [`fixed_sleep`].
    FixedSleep,
    /// One update per frame as long as the real time that passed: see [`variable`].
    Variable,
    /// Fixed updates to catch up with real time, the latest state drawn: see [`catch_up`].
    CatchUp,
    /// Fixed updates, drawn between the last two states: see [`interpolated`].
    Interpolated,
    /// Fixed updates, drawn ahead of the last state by its velocity: see [`extrapolated`].
    Extrapolated,
    /// Fixed updates, drawn from a copy run one more, shorter update to the present (the
    /// render tick): see [`predicted`].
    Predicted,
    /// Fixed updates, drawn from a copy that is kept and run on frame by frame until the
    /// next real update (the accumulated render tick): see [`predicted_kept`].
    PredictedKept,
}

/// How a strategy decides the number and length of a frame's updates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Family {
    /// Exactly one fixed-length update each frame: the game's speed is the frame rate.
    OneStepPerFrame,
    /// One update whose length is the real time since the last frame.
    VariableStep,
    /// A lag accumulator paid off in fixed steps, at most `max_updates` a frame.
    Accumulator,
}

/// What a strategy draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DrawMode {
    /// The state after the last update.
    Latest,
    /// Between the previous and the current state.
    Interpolate,
    /// Ahead of the current state by its velocity.
    Extrapolate,
    /// A copy of the current state run one more update, to the present.
    Predict,
    /// A copy run on from the previous frame's, afresh after each real update.
    PredictKept,
}

impl Strategy {
    /// Every strategy, from the simplest loop to the most refined.
    pub const ALL: [Strategy; 8] = [
        Strategy::Uncapped,
        Strategy::FixedSleep,
        Strategy::Variable,
        Strategy::CatchUp,
        Strategy::Interpolated,
        Strategy::Extrapolated,
        Strategy::Predicted,
        Strategy::PredictedKept,
    ];

    /// A stable lowercase identifier, `catch-up`, that [`FromStr`] reads back.
    pub fn id(self) -> &'static str {
        accepted::STRATEGY_IDS[self as usize]
    }

    /// The loop in the texts' style, the one its module's documentation opens with: at most
    /// 12 lines of at most 41 characters, for an application to show beside the running
    /// loop.
    pub fn pseudocode(self) -> &'static str {
        match self {
            Strategy::Uncapped => include_str!("loops/uncapped.txt"),
            Strategy::FixedSleep => include_str!("loops/fixed_sleep.txt"),
            Strategy::Variable => include_str!("loops/variable.txt"),
            Strategy::CatchUp => include_str!("loops/catch_up.txt"),
            Strategy::Interpolated => include_str!("loops/interpolated.txt"),
            Strategy::Extrapolated => include_str!("loops/extrapolated.txt"),
            Strategy::Predicted => include_str!("loops/predicted.txt"),
            Strategy::PredictedKept => include_str!("loops/predicted_kept.txt"),
        }
    }

    /// How it plans updates.
    pub fn family(self) -> Family {
        self.rules().family
    }

    /// What it draws.
    pub fn draw_mode(self) -> DrawMode {
        self.rules().draw_mode
    }

    /// True when every update has the same fixed length, which is what makes a run
    /// deterministic: the same inputs give the same states whatever the frame rate.
    pub fn is_fixed_step(self) -> bool {
        self.family() != Family::VariableStep
    }

    /// True when the game clock follows real time (times the time scale) rather than the
    /// frame count.
    pub fn follows_real_time(self) -> bool {
        self.family() != Family::OneStepPerFrame
    }

    /// The rules the planner runs for this strategy.
    pub(crate) fn rules(self) -> &'static Rules {
        match self {
            Strategy::Uncapped => &uncapped::RULES,
            Strategy::FixedSleep => &fixed_sleep::RULES,
            Strategy::Variable => &variable::RULES,
            Strategy::CatchUp => &catch_up::RULES,
            Strategy::Interpolated => &interpolated::RULES,
            Strategy::Extrapolated => &extrapolated::RULES,
            Strategy::Predicted => &predicted::RULES,
            Strategy::PredictedKept => &predicted_kept::RULES,
        }
    }
}

impl fmt::Display for Strategy {
    /// Writes the [`id`](Strategy::id).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

impl FromStr for Strategy {
    type Err = TimingError;

    /// Reads an [`id`](Strategy::id), ignoring case and surrounding space.
    fn from_str(s: &str) -> Result<Self, TimingError> {
        let t = s.trim();
        Strategy::ALL
            .into_iter()
            .find(|strategy| strategy.id().eq_ignore_ascii_case(t))
            .ok_or_else(|| TimingError::UnknownStrategy(s.to_string()))
    }
}

/// One strategy, as the planner runs it.
pub(crate) struct Rules {
    pub family: Family,
    pub draw_mode: DrawMode,
    /// The frame's updates: the strategy's own loop, given the frame's game time and the
    /// lag owed.
    pub updates: fn(&FrameTime, &mut Accumulator, &LoopSettings) -> Updates,
    /// When the next frame should start.
    pub wake: fn(&mut DeadlineGrid, &FrameTime, &LoopSettings) -> Wake,
}

/// The updates a strategy plans for one frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Updates {
    pub count: u32,
    /// Length of each.
    pub step: Duration,
    /// Game time owed but let go.
    pub skipped: Duration,
}

impl Updates {
    /// `count` updates of `step`, nothing let go.
    pub fn fixed(count: u32, step: Duration) -> Self {
        Self {
            count,
            step,
            skipped: Duration::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_strategy_is_declared_in_its_place_in_all_so_its_id_is_its_own() {
        for (i, s) in Strategy::ALL.into_iter().enumerate() {
            assert_eq!(s as usize, i, "{s:?}");
            assert_eq!(s.id().parse::<Strategy>(), Ok(s));
        }
        let mut ids: alloc::vec::Vec<&str> = Strategy::ALL.map(Strategy::id).to_vec();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Strategy::ALL.len());
    }

    #[test]
    fn each_loop_fits_a_panel_and_is_the_one_its_module_opens_with() {
        let modules = [
            include_str!("uncapped.rs"),
            include_str!("fixed_sleep.rs"),
            include_str!("variable.rs"),
            include_str!("catch_up.rs"),
            include_str!("interpolated.rs"),
            include_str!("extrapolated.rs"),
            include_str!("predicted.rs"),
            include_str!("predicted_kept.rs"),
        ];
        for (s, module) in Strategy::ALL.into_iter().zip(modules) {
            let code = s.pseudocode();
            let lines = code.lines().count();
            assert!((5..=12).contains(&lines), "{s}: {lines} lines");
            let widest = code.lines().map(|l| l.chars().count()).max();
            assert!(widest <= Some(41), "{s}: {widest:?} characters");
            assert!(code.contains("loop {") && code.contains("render("), "{s}");
            let file = alloc::format!("include_str!(\"loops/{}.txt\")", s.id().replace('-', "_"));
            assert!(module.contains(&file), "{s}'s module opens with {file}");
        }
        let mut all: alloc::vec::Vec<&str> = Strategy::ALL.map(Strategy::pseudocode).to_vec();
        all.dedup();
        assert_eq!(all.len(), Strategy::ALL.len());
    }

    #[test]
    fn ids_round_trip_and_unknown_names_are_refused() {
        for s in Strategy::ALL {
            assert_eq!(s.id().parse::<Strategy>(), Ok(s));
            assert_eq!(s.to_string(), s.id());
        }
        assert_eq!(" Catch-Up ".parse::<Strategy>(), Ok(Strategy::CatchUp));
        assert_eq!(
            "warp".parse::<Strategy>(),
            Err(TimingError::UnknownStrategy("warp".into()))
        );
    }

    #[test]
    fn families_and_draw_modes_follow_the_table() {
        use Strategy::*;
        let expected = [
            (Uncapped, Family::OneStepPerFrame, DrawMode::Latest),
            (FixedSleep, Family::OneStepPerFrame, DrawMode::Latest),
            (Variable, Family::VariableStep, DrawMode::Latest),
            (CatchUp, Family::Accumulator, DrawMode::Latest),
            (Interpolated, Family::Accumulator, DrawMode::Interpolate),
            (Extrapolated, Family::Accumulator, DrawMode::Extrapolate),
            (Predicted, Family::Accumulator, DrawMode::Predict),
            (PredictedKept, Family::Accumulator, DrawMode::PredictKept),
        ];
        for (s, family, draw) in expected {
            assert_eq!((s.family(), s.draw_mode()), (family, draw), "{s}");
        }
        assert!(!Variable.is_fixed_step() && CatchUp.is_fixed_step());
        assert!(!FixedSleep.follows_real_time() && Variable.follows_real_time());
    }
}
