//! The speed warning: whether the game clock keeps to real time (times the time scale), and
//! a watch that checks it twice a second and logs it when it changes.

use std::time::Duration;

use looplab_timing::{StatsSummary, Strategy};

use crate::session::Session;

/// The speed warning as last logged: checked twice a second, logged when it changes.
#[derive(Debug, Default)]
pub struct SpeedWatch {
    warning: Option<String>,
    /// When it was last checked, on the loop's clock.
    checked: Option<Duration>,
}

impl SpeedWatch {
    /// How often the warning is checked.
    const INTERVAL: Duration = Duration::from_millis(500);

    /// Checks the warning if it is time to at `now`, and logs it when it changed.
    pub fn check(&mut self, session: &Session, now: Duration) {
        if self
            .checked
            .is_some_and(|t| now.saturating_sub(t) < Self::INTERVAL)
        {
            return;
        }
        self.checked = Some(now);
        let warning = speed_warning(&session.stats().summary(), session);
        if warning != self.warning {
            match &warning {
                Some(w) => log::info!("{w}"),
                None => log::info!("game speed back to the expected rate"),
            }
            self.warning = warning;
        }
    }

    /// The warning as last checked.
    pub fn warning(&self) -> Option<&str> {
        self.warning.as_deref()
    }
}

/// A warning when the game clock does not keep to real time (times the time scale).
pub fn speed_warning(summary: &StatsSummary, session: &Session) -> Option<String> {
    let s = session.settings();
    // Judge only a window of at least half a second (a few frames when frames are slow).
    let observed = summary.frame_time.avg * summary.frames as u32;
    if s.paused || summary.frames < 2 || observed < Duration::from_millis(500) {
        return None;
    }
    let expected = if session.planner().strategy() == Strategy::Uncapped {
        1.0
    } else {
        s.time_scale.factor()
    };
    if expected == 0.0 {
        return None;
    }
    let relative = summary.ratio / expected;
    if relative < 0.9 {
        Some(format!(
            "game running slow: {:.0}% of {} over the last second",
            relative * 100.0,
            if expected == 1.0 {
                "real time".to_string()
            } else {
                format!("{expected}x real time")
            }
        ))
    } else if relative > 1.1 {
        Some(format!(
            "game running fast: {:.1}x real time over the last second",
            summary.ratio
        ))
    } else {
        None
    }
}
