//! Two lanes shown unnamed, A above B, for a person to tell apart by eye before the tour
//! names them ("feel it first"): a loop and its refinement, on one modelled machine, and
//! the figure that says which of the two a person should find smoother or quicker.

use looplab_timing::{Rate, Strategy};
use serde::{Deserialize, Serialize};

use super::lane_spec::{LaneSpec, in_flight, noisy_monitor};
use super::profile::Profile;
use crate::text::settings::DeltaKind;

/// A loop and its refinement, as the texts pair them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pair {
    /// Ten updates a second on a 60 Hz display: the latest state, and drawn between the
    /// last two (Game Programming Patterns' "Stuck in the middle").
    Interpolation,
    /// A noisy timer on a 60 Hz display: deltas as measured, and synced to the refresh.
    Snapping,
    /// Ten updates a second: interpolation a step behind, and the render tick to the
    /// present.
    RenderTick,
    /// A loop faster than its display: three frames queued in flight, and paced just in
    /// time.
    Queue,
}

/// What the person is asked of a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Question {
    /// Which moves more smoothly: judged by animation error.
    Smoother,
    /// Which answers the keys sooner: judged by the delay from a steering change to the
    /// picture that shows it.
    Sooner,
}

impl Question {
    /// The question, as the panel asks it.
    pub fn words(self) -> &'static str {
        match self {
            Question::Smoother => "Which moves more smoothly, A or B?",
            Question::Sooner => "Steer the ship with the arrows: which answers sooner, A or B?",
        }
    }

    /// The figure that answers it, as the reveal names it.
    pub fn figure(self) -> &'static str {
        match self {
            Question::Smoother => "animation error",
            Question::Sooner => "delay from a key to the picture",
        }
    }
}

impl Pair {
    /// What the person is asked of it.
    pub fn question(self) -> Question {
        match self {
            Pair::Interpolation | Pair::Snapping => Question::Smoother,
            Pair::RenderTick | Pair::Queue => Question::Sooner,
        }
    }

    /// The loop and then its refinement.
    pub fn lanes(self) -> [LaneSpec; 2] {
        let builtin = |name: &str| {
            Profile::builtin()
                .into_iter()
                .find(|p| p.name == name)
                .expect("a built-in profile")
        };
        let ten = |s| LaneSpec {
            update_rate: Some(Rate::hz(10.0).expect("a valid rate")),
            ..LaneSpec::new(builtin("vsync-60"), s)
        };
        match self {
            Pair::Interpolation => [ten(Strategy::CatchUp), ten(Strategy::Interpolated)],
            Pair::RenderTick => [ten(Strategy::Interpolated), ten(Strategy::Predicted)],
            Pair::Snapping => [DeltaKind::Measured, DeltaKind::Synced].map(|delta| LaneSpec {
                delta,
                ..LaneSpec::new(noisy_monitor(), Strategy::CatchUp)
            }),
            Pair::Queue => [in_flight(3, false), in_flight(2, true)],
        }
    }
}

/// A pair as shown: A above B, the refinement above when `swapped`, so that a person who
/// answers several cannot learn that it is always B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blind {
    pub pair: Pair,
    pub swapped: bool,
}

/// The letters the lanes go by, top first.
pub const LETTERS: [&str; 2] = ["A", "B"];

impl Blind {
    /// Its lanes, top first.
    pub fn lanes(self) -> Vec<LaneSpec> {
        let mut lanes = self.pair.lanes();
        if self.swapped {
            lanes.reverse();
        }
        lanes.into()
    }

    /// Where the refinement is shown: 0 for A.
    pub fn refined(self) -> usize {
        usize::from(!self.swapped)
    }
}

/// What a pair's figures favour.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The lane the figure favours, 0 for A; `None` when it was not measured or the two are
    /// within half a millisecond.
    pub favoured: Option<usize>,
    /// Each lane's name and figure, in words.
    pub said: String,
}
