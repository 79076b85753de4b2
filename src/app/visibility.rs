//! Whether anyone can see the window, what the loop does about it, and what it cost.
//!
//! A game that renders while minimized or covered burns a core for nobody. The window rests
//! when it is occluded (winit's `Occluded(true)`: on X11, covered entirely by another window)
//! or has no area: it draws nothing and waits for events instead of spinning. The game clock
//! makes the texts' choice visible: by default the game pauses while hidden and, shown
//! again, goes on from where it was, the hidden time neither simulated nor clamped (the
//! planner's resync); `--run-hidden` keeps the simulation running, without drawing.
//!
//! Each time the window is hidden is totted up (its real time, the CPU time the process
//! spent in it, the frames presented meanwhile) for `--stats`, and the overlay says for a
//! while after what happened.

use std::time::Duration;

use serde::{Deserialize, Serialize};

/// How long after the window was hidden the overlay still mentions it.
const NOTE_FOR: Duration = Duration::from_secs(10);

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Hidden,
    /// Shown again after being hidden this long.
    Shown {
        after: Duration,
    },
}

/// A moment of the run, as the hidden times' totals count it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moment {
    /// On the loop's clock.
    pub at: Duration,
    /// The process's CPU time so far.
    pub cpu: Duration,
    /// Frames presented so far.
    pub presented: u64,
}

/// What happened while the window was hidden, for `--stats`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HiddenReport {
    /// Times the window was hidden and shown again.
    pub times_hidden: u32,
    pub seconds: f64,
    /// Share of one core the process used while hidden, percent (`None` if never hidden).
    pub cpu_percent: Option<f64>,
    pub frames_presented: u64,
    /// Whether the game ran on while hidden (`--run-hidden`) or paused.
    pub run_hidden: bool,
}

/// The window's visibility, from its events, and the totals of the times it was hidden.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Visibility {
    occluded: bool,
    zero_size: bool,
    /// When the current hidden time began.
    hidden_since: Option<Moment>,
    /// The last time hidden: when it ended and how long it lasted.
    last_hidden: Option<(Duration, Duration)>,
    times_hidden: u32,
    seconds: f64,
    cpu_seconds: f64,
    presented: u64,
}

impl Visibility {
    /// The window was occluded (`true`) or uncovered at `now`.
    pub fn occluded(&mut self, occluded: bool, now: Moment) -> Option<Change> {
        self.occluded = occluded;
        self.update(now)
    }

    /// The window's area became `width` x `height` at `now`.
    pub fn resized(&mut self, width: u32, height: u32, now: Moment) -> Option<Change> {
        self.zero_size = width == 0 || height == 0;
        self.update(now)
    }

    /// Whether nobody can see the window.
    pub fn is_hidden(&self) -> bool {
        self.hidden_since.is_some()
    }

    /// What the overlay says of the last time hidden, for ten seconds after it ended.
    pub fn note(&self, now: Duration, run_hidden: bool) -> Option<String> {
        let (shown, after) = self.last_hidden?;
        if now.saturating_sub(shown) > NOTE_FOR {
            return None;
        }
        let did = if run_hidden { "ran on" } else { "paused" };
        Some(format!("hidden {:.1} s, game {did}", after.as_secs_f64()))
    }

    /// The totals of the hidden times that ended.
    pub fn report(&self, run_hidden: bool) -> HiddenReport {
        HiddenReport {
            times_hidden: self.times_hidden,
            seconds: self.seconds,
            cpu_percent: (self.seconds > 0.0).then(|| self.cpu_seconds / self.seconds * 100.0),
            frames_presented: self.presented,
            run_hidden,
        }
    }

    fn update(&mut self, now: Moment) -> Option<Change> {
        let hidden = self.occluded || self.zero_size;
        match (hidden, self.hidden_since) {
            (true, None) => {
                self.hidden_since = Some(now);
                Some(Change::Hidden)
            }
            (false, Some(since)) => {
                self.hidden_since = None;
                let after = now.at.saturating_sub(since.at);
                self.last_hidden = Some((now.at, after));
                self.times_hidden += 1;
                self.seconds += after.as_secs_f64();
                self.cpu_seconds += now.cpu.saturating_sub(since.cpu).as_secs_f64();
                self.presented += now.presented.saturating_sub(since.presented);
                Some(Change::Shown { after })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(secs: u64) -> Moment {
        Moment {
            at: Duration::from_secs(secs),
            cpu: Duration::from_millis(secs * 10),
            presented: secs * 60,
        }
    }

    #[test]
    fn occluded_or_without_area_is_hidden_until_neither() {
        let s = Duration::from_secs;
        let mut v = Visibility::default();
        assert_eq!(v.occluded(false, at(1)), None);
        assert_eq!(v.occluded(true, at(2)), Some(Change::Hidden));
        assert!(v.is_hidden());
        // Shrunk to nothing while covered: still hidden once.
        assert_eq!(v.resized(0, 0, at(3)), None);
        assert_eq!(v.occluded(false, at(4)), None, "no area yet");
        assert_eq!(
            v.resized(1280, 720, at(6)),
            Some(Change::Shown { after: s(4) })
        );
        assert!(!v.is_hidden());
        assert_eq!(
            v.note(s(7), false).as_deref(),
            Some("hidden 4.0 s, game paused")
        );
        assert_eq!(v.note(s(17), false), None, "ten seconds after");
        assert_eq!(v.resized(800, 0, at(7)), Some(Change::Hidden));
    }

    #[test]
    fn hidden_times_are_totted_up() {
        let mut v = Visibility::default();
        assert_eq!(v.report(false).cpu_percent, None, "never hidden");
        v.occluded(true, at(2));
        // Resting: 10 ms of CPU a second is 1% of a core; no frame presented meanwhile.
        let back = Moment {
            presented: at(2).presented,
            ..at(5)
        };
        v.occluded(false, back);
        v.occluded(true, at(8));
        v.occluded(false, at(9));
        let r = v.report(true);
        assert_eq!(
            (r.times_hidden, r.seconds, r.frames_presented),
            (2, 4.0, 60)
        );
        assert!((r.cpu_percent.unwrap() - 1.0).abs() < 1e-9, "{r:?}");
        assert!(r.run_hidden);
    }
}
