//! The verdict on a capture: in a few plain sentences, which loop would show its frames
//! best on its display and by how much, which shows a key soonest and what that costs, and
//! what the game's own loop loses against them.
//!
//! "Best" is the smallest share of frames whose animation error a person sees (over 2 ms:
//! [`crate::metrics::animation`]), then the lowest 99th percentile of it (the worst
//! stutter), then the fewest refreshes without a new frame; "soonest" the lowest mean delay
//! from a key to the screen. A loop whose game runs off real time (by
//! more than [`OFF_SPEED`]: uncapped on a fast machine, a fixed step that falls behind) is
//! not a candidate, whatever its figures: it shows the wrong moment of the game.

use serde::Serialize;

use super::capture_figures::{Agreement, LoopFigures};
use crate::capture::CostFrom;
use crate::capture::summary::Summary;

/// How far a loop's game may run from real time and still be a candidate: 2%.
pub const OFF_SPEED: f64 = 0.02;

/// A loop the verdict names, with the figures it is named for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pick {
    pub label: String,
    pub animation_error_over_2ms_share: f64,
    pub animation_error_p99_ms: f64,
    pub without_new_frame: Option<u64>,
    pub key_to_photon_mean_ms: Option<f64>,
    pub busy_share: f64,
}

impl Pick {
    fn of(l: &LoopFigures) -> Self {
        Pick {
            label: l.label.clone(),
            animation_error_over_2ms_share: off(l),
            animation_error_p99_ms: p99(l),
            without_new_frame: l.shown.without_new_frame,
            key_to_photon_mean_ms: l.key_to_photon_mean_ms,
            busy_share: l.busy_share,
        }
    }
}

/// The verdict, typed and in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The loop that would show the frames most smoothly (the game's own among them).
    pub smoothest: Option<Pick>,
    /// The loop that shows a key soonest.
    pub soonest: Option<Pick>,
    /// The game's own loop, replayed.
    pub own: Pick,
    /// Loops left out for running the game off real time.
    pub off_speed: Vec<String>,
    pub lines: Vec<String>,
}

fn p99(l: &LoopFigures) -> f64 {
    l.shown
        .animation_error
        .map_or(f64::INFINITY, |a| a.p99_abs_ms)
}

/// The share of frames off by more than 2 ms.
fn off(l: &LoopFigures) -> f64 {
    l.shown.animation_error.map_or(1.0, |a| a.over_2ms_share)
}

/// A loop's animation error in words: the share off and the 99th percentile.
fn error_words(l: &LoopFigures) -> String {
    format!(
        "{:.1}% of frames off by more than 2 ms (p99 {:.2} ms)",
        off(l) * 100.0,
        p99(l)
    )
}

impl Verdict {
    pub fn of(
        summary: &Summary,
        own: &LoopFigures,
        agreement: &Agreement,
        loops: &[LoopFigures],
    ) -> Self {
        let keeps_time = |l: &&LoopFigures| (l.game_speed - 1.0).abs() <= OFF_SPEED;
        // The game's own loop is a candidate too: it may be the best there is.
        let candidates: Vec<&LoopFigures> = std::iter::once(own)
            .chain(loops)
            .filter(keeps_time)
            .collect();
        let smoothest = candidates.iter().copied().min_by(|a, b| {
            off(a)
                .total_cmp(&off(b))
                .then(p99(a).total_cmp(&p99(b)))
                .then(a.shown.without_new_frame.cmp(&b.shown.without_new_frame))
        });
        let soonest = candidates
            .iter()
            .copied()
            .filter(|l| l.key_to_photon_mean_ms.is_some())
            .min_by(|a, b| {
                a.key_to_photon_mean_ms
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&b.key_to_photon_mean_ms.unwrap_or(f64::INFINITY))
            });
        let off_speed: Vec<String> = loops
            .iter()
            .filter(|l| !keeps_time(l))
            .map(|l| format!("{} ({:.2}x real time)", l.label, l.game_speed))
            .collect();
        let mut lines = Vec::new();
        if let Some(why) = &agreement.why {
            lines.push(why.clone());
        }
        lines.extend(smoothest.map(|s| smooth_line(s, own, summary)));
        lines.extend(soonest.map(|k| soon_line(k, smoothest, own)));
        lines.push(own_line(own, smoothest, soonest));
        if summary.cost_from == CostFrom::GpuUnderLimiter {
            lines.push(
                "The loops without the game's cap run on its GPU's work alone, a lower bound (its limiter's sleep hides the CPU's): the game may not reach their rates.".into(),
            );
        }
        if !off_speed.is_empty() {
            lines.push(format!(
                "Not candidates, their game off real time: {}.",
                off_speed.join(", ")
            ));
        }
        Verdict {
            smoothest: smoothest.map(Pick::of),
            soonest: soonest.map(Pick::of),
            own: Pick::of(own),
            off_speed,
            lines,
        }
    }
}

/// A loop as the verdict names it: the game's own, or a strategy.
fn name(l: &LoopFigures, own: &LoopFigures) -> String {
    if std::ptr::eq(l, own) {
        match l.cap_fps {
            Some(cap) => format!("the game's own loop (capped at {cap:.0} FPS)"),
            None => "the game's own loop".into(),
        }
    } else {
        l.label.clone()
    }
}

/// Refreshes without a new frame, in words, or nothing where not known.
fn missed(l: &LoopFigures) -> String {
    l.shown.without_new_frame.map_or(String::new(), |n| {
        format!(", {n} refreshes without a new frame")
    })
}

fn smooth_line(s: &LoopFigures, own: &LoopFigures, summary: &Summary) -> String {
    let display = summary
        .display
        .hz
        .map_or("the display (60 Hz modelled)".to_string(), |hz| {
            format!("this {hz:.0} Hz display")
        });
    let against = if std::ptr::eq(s, own) {
        ": no other loop shows them more smoothly".to_string()
    } else {
        format!(
            ", against the game's own loop's {}{}",
            error_words(own),
            missed(own)
        )
    };
    format!(
        "Smoothest on {display}: {}, {}{}{against}.",
        name(s, own),
        error_words(s),
        missed(s),
    )
}

fn soon_line(k: &LoopFigures, smoothest: Option<&LoopFigures>, own: &LoopFigures) -> String {
    let delay = |l: &LoopFigures| l.key_to_photon_mean_ms.unwrap_or(f64::NAN);
    let cost = match smoothest {
        Some(s) if !std::ptr::eq(s, k) => format!(
            "; it has {:.1}% of frames off by more than 2 ms against {}'s {:.1}%, and works {:.0}% of the time against {:.0}%",
            off(k) * 100.0,
            name(s, own),
            off(s) * 100.0,
            k.busy_share * 100.0,
            s.busy_share * 100.0
        ),
        Some(_) => ", and it is the smoothest too".to_string(),
        None => String::new(),
    };
    let against = if std::ptr::eq(k, own) {
        String::new()
    } else {
        format!(" against the game's own {:.1} ms", delay(own))
    };
    format!(
        "Soonest key: {}, {:.1} ms from a key to the screen on average{against}{cost}.",
        name(k, own),
        delay(k),
    )
}

fn own_line(
    own: &LoopFigures,
    smoothest: Option<&LoopFigures>,
    soonest: Option<&LoopFigures>,
) -> String {
    let mut loses = Vec::new();
    if let Some(s) = smoothest.filter(|s| !std::ptr::eq(*s, own)) {
        let more = (off(own) - off(s)) * 100.0;
        if more >= 0.1 {
            loses.push(format!(
                "{more:.1} points more frames off by more than 2 ms than {} (p99 {:.2} ms against {:.2})",
                s.label,
                p99(own),
                p99(s)
            ));
        }
        if let (Some(a), Some(b)) = (own.shown.without_new_frame, s.shown.without_new_frame)
            && a > b
        {
            loses.push(format!(
                "{} refreshes without a new frame against {}",
                a - b,
                s.label
            ));
        }
    }
    if let Some(k) = soonest.filter(|k| !std::ptr::eq(*k, own))
        && let (Some(a), Some(b)) = (own.key_to_photon_mean_ms, k.key_to_photon_mean_ms)
        && a - b > 0.5
    {
        loses.push(format!("{:.1} ms of key delay against {}", a - b, k.label));
    }
    if loses.is_empty() {
        "The game's own loop loses nothing measurable against the others here.".into()
    } else {
        format!("The game's own loop loses {}.", loses.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::figures::ShownFigures;
    use crate::metrics::animation::AnimationErrorFigures;
    use looplab_timing::Strategy;

    fn figures(label: &str, off: f64, p99: f64, missed: u64, key: f64, speed: f64) -> LoopFigures {
        LoopFigures {
            label: label.into(),
            strategy: Strategy::Variable,
            cap_fps: None,
            shown: ShownFigures {
                refreshes: Some(1000),
                without_new_frame: Some(missed),
                animation_error: Some(AnimationErrorFigures {
                    frames: 900,
                    mean_abs_ms: 1.0,
                    p99_abs_ms: p99,
                    over_2ms_share: off,
                }),
                ..ShownFigures::default()
            },
            game_speed: speed,
            busy_share: 0.5,
            picture_lag_ms: 20.0,
            key_to_photon_p50_ms: Some(key),
            key_to_photon_mean_ms: Some(key),
        }
    }

    fn summary() -> Summary {
        let capture = crate::capture::Capture::read(
            b"Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,MsBetweenPresents\ng.exe,1,0x1,DXGI,0,0,0,0.1,16\ng.exe,1,0x1,DXGI,0,0,0,0.2,17\n",
            None,
        )
        .unwrap();
        Summary::of(&capture, None)
    }

    fn agrees() -> Agreement {
        Agreement {
            shown_fps_off: Some(0.0),
            missed_share_off: Some(0.0),
            holds: true,
            why: None,
        }
    }

    #[test]
    fn the_smoothest_and_the_soonest_are_named_with_the_figures_they_are_named_for() {
        let own = figures("game's own loop", 0.30, 9.0, 50, 40.0, 1.0);
        let loops = [
            figures("interpolated", 0.02, 3.0, 10, 48.0, 1.0),
            figures("variable", 0.10, 6.0, 10, 30.0, 1.0),
            // The smoothest figures of all, but its game runs off real time.
            figures("uncapped", 0.0, 0.0, 0, 20.0, 1.8),
        ];
        let v = Verdict::of(&summary(), &own, &agrees(), &loops);
        assert_eq!(v.smoothest.as_ref().unwrap().label, "interpolated");
        assert_eq!(v.soonest.as_ref().unwrap().label, "variable");
        assert_eq!(v.off_speed, ["uncapped (1.80x real time)"]);
        let text = v.lines.join("\n");
        assert!(text.contains("Smoothest on the display (60 Hz modelled): interpolated, 2.0% of frames off by more than 2 ms (p99 3.00 ms)"), "{text}");
        assert!(text.contains("Soonest key: variable, 30.0 ms"), "{text}");
        assert!(text.contains("The game's own loop loses 28.0 points more frames off by more than 2 ms than interpolated"), "{text}");
        assert!(
            text.contains("10.0 ms of key delay against variable"),
            "{text}"
        );
    }

    #[test]
    fn the_games_own_loop_can_be_the_best_and_a_failed_replay_is_said_first() {
        let own = figures("game's own loop", 0.01, 1.0, 5, 20.0, 1.0);
        let loops = [figures("catch-up", 0.5, 16.0, 5, 30.0, 1.0)];
        let disagree = Agreement {
            holds: false,
            why: Some("The replay of the game's own loop shows ...".into()),
            ..agrees()
        };
        let v = Verdict::of(&summary(), &own, &disagree, &loops);
        assert_eq!(v.smoothest.as_ref().unwrap().label, "game's own loop");
        assert!(
            v.lines[0].starts_with("The replay of the game's own loop"),
            "{:?}",
            v.lines
        );
        assert!(
            v.lines[1].contains("no other loop shows them more smoothly"),
            "{:?}",
            v.lines
        );
        assert!(
            v.lines
                .iter()
                .any(|l| l
                    == "The game's own loop loses nothing measurable against the others here."),
            "{:?}",
            v.lines
        );
    }
}
