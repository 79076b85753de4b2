//! What Looplab says about each strategy: a name, the trade-off the texts describe, and
//! where in the texts it comes from (for the overlay, the log and the README).

use looplab_timing::Strategy;

/// A strategy in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyText {
    /// A human name: "Fixed update, variable render".
    pub name: &'static str,
    /// The one-line trade-off.
    pub trade_off: &'static str,
    /// Where the texts describe it.
    pub source: &'static str,
}

/// The words for `strategy`.
pub fn text(strategy: Strategy) -> StrategyText {
    let (name, trade_off, source) = match strategy {
        Strategy::Uncapped => (
            "Run as fast as you can",
            "Simple, but game speed is the machine's speed: too fast on fast hardware, a crawl on slow.",
            "GPP \"run, run as fast as you can\"; first loop of deWiTTERS and LWJGL",
        ),
        Strategy::FixedSleep => (
            "Fixed step, sleep to sync",
            "Simple and saves power, but when a frame overruns its budget the game itself slows down.",
            "GPP \"take a little nap\"; deWiTTERS \"FPS dependent on constant game speed\"",
        ),
        Strategy::Variable => (
            "Variable (fluid) time step",
            "Keeps real-time speed on any machine, but big steps make physics unstable and results nondeterministic.",
            "GPP \"one small step, one giant step\"; deWiTTERS \"game speed dependent on variable FPS\"",
        ),
        Strategy::CatchUp => (
            "Fixed update, variable render",
            "Deterministic fixed steps at real-time speed; slow rendering drops frames, and motion looks choppy.",
            "GPP \"play catch up\"; deWiTTERS \"constant game speed with maximum FPS\"",
        ),
        Strategy::Interpolated => (
            "Fixed update + interpolation",
            "Smooth motion from few updates by blending the last two states, at the cost of one step of delay.",
            "LWJGL fixed timestep (alpha = accumulator / interval); deWiTTERS interpolation",
        ),
        Strategy::Extrapolated => (
            "Fixed update + extrapolation",
            "Smooth and without delay by guessing ahead from the velocity, but the guess is wrong whenever something turns.",
            "GPP \"stuck in the middle\" render(lag / MS_PER_UPDATE); deWiTTERS prediction",
        ),
        Strategy::Predicted => (
            "Fixed update + render tick",
            "Draws the present, not a step late: each frame runs one short update on a copy, and the real state keeps its fixed steps.",
            "Jakub Tomšů, \"Fixed timestep without interpolation\" (2024): the render tick",
        ),
        Strategy::PredictedKept => (
            "Fixed update + kept render tick",
            "The render tick's copy runs on frame by frame until the next update: closer on curves, but it jumps where the real state disagrees.",
            "Jakub Tomšů, \"Fixed timestep without interpolation\" (2024): the accumulated render tick",
        ),
    };
    StrategyText {
        name,
        trade_off,
        source,
    }
}

/// What is different about `strategy` in a browser page, where the browser owns the loop:
/// it calls back once a refresh (`requestAnimationFrame`) and nothing may sleep. One short
/// line, shown under the trade-off.
pub fn in_a_page(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Uncapped => "In a page: never faster than the display.",
        Strategy::FixedSleep => "In a page: the nap lets frame callbacks pass.",
        Strategy::Variable => "In a page: each step is whole refreshes.",
        _ => "In a page: frames start in the browser's callback.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_names_every_strategy_by_its_key() {
        // Strategy::ALL is in the keys' order, 1 to 8.
        let readme = include_str!("../../README.md");
        for (n, strategy) in Strategy::ALL.iter().enumerate() {
            let row = format!("| {} | {} |", n + 1, text(*strategy).name);
            assert!(readme.contains(&row), "the README's table lacks {row}");
        }
    }

    #[test]
    fn every_strategy_has_its_own_words() {
        let names: Vec<&str> = Strategy::ALL.iter().map(|&s| text(s).name).collect();
        let mut unique = names.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), Strategy::ALL.len(), "{names:?}");
        assert_eq!(
            text(Strategy::CatchUp).name,
            "Fixed update, variable render"
        );
        for s in Strategy::ALL {
            let t = text(s);
            assert!(t.trade_off.ends_with('.') && !t.source.is_empty(), "{s}");
        }
    }
}
