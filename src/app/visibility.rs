//! Whether anyone can see the window, and what the loop does about it.
//!
//! A game that renders while minimized or covered burns a core for nobody. The window rests
//! when it is occluded (winit's `Occluded(true)`: on X11, covered entirely by another window)
//! or has no area: it draws nothing and waits for events instead of spinning. The game clock
//! makes the texts' choice visible: by default the game pauses while hidden and, shown
//! again, goes on from where it was, the hidden time neither simulated nor clamped (the
//! planner's resync); `--run-hidden` keeps the simulation running, without drawing.

use std::time::Duration;

/// What changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Hidden,
    /// Shown again after being hidden this long.
    Shown {
        after: Duration,
    },
}

/// The window's visibility, from its events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Visibility {
    occluded: bool,
    zero_size: bool,
    hidden_since: Option<Duration>,
    /// The last hidden spell: when it ended and how long it lasted.
    last_spell: Option<(Duration, Duration)>,
}

impl Visibility {
    /// The window was occluded (`true`) or uncovered at `now`.
    pub fn occluded(&mut self, occluded: bool, now: Duration) -> Option<Change> {
        self.occluded = occluded;
        self.update(now)
    }

    /// The window's area became `width` x `height` at `now`.
    pub fn resized(&mut self, width: u32, height: u32, now: Duration) -> Option<Change> {
        self.zero_size = width == 0 || height == 0;
        self.update(now)
    }

    /// Whether nobody can see the window.
    pub fn is_hidden(&self) -> bool {
        self.hidden_since.is_some()
    }

    /// When the window was last shown again, and for how long it had been hidden.
    pub fn last_spell(&self) -> Option<(Duration, Duration)> {
        self.last_spell
    }

    fn update(&mut self, now: Duration) -> Option<Change> {
        let hidden = self.occluded || self.zero_size;
        match (hidden, self.hidden_since) {
            (true, None) => {
                self.hidden_since = Some(now);
                Some(Change::Hidden)
            }
            (false, Some(since)) => {
                self.hidden_since = None;
                let after = now.saturating_sub(since);
                self.last_spell = Some((now, after));
                Some(Change::Shown { after })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: u64) -> Duration {
        Duration::from_secs(x)
    }

    #[test]
    fn occluded_or_without_area_is_hidden_until_neither() {
        let mut v = Visibility::default();
        assert_eq!(v.occluded(false, s(1)), None);
        assert_eq!(v.occluded(true, s(2)), Some(Change::Hidden));
        assert!(v.is_hidden());
        // Shrunk to nothing while covered: still one spell.
        assert_eq!(v.resized(0, 0, s(3)), None);
        assert_eq!(v.occluded(false, s(4)), None, "no area yet");
        assert_eq!(
            v.resized(1280, 720, s(6)),
            Some(Change::Shown { after: s(4) })
        );
        assert!(!v.is_hidden());
        assert_eq!(v.last_spell(), Some((s(6), s(4))));
        assert_eq!(v.resized(800, 0, s(7)), Some(Change::Hidden));
    }
}
