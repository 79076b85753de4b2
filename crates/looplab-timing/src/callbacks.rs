//! Frame starts for a loop the platform owns.
//!
//! Game Programming Patterns asks first whether you own the loop or the platform does. In a
//! browser the platform does: the page asks for `requestAnimationFrame` and is called back
//! once per display refresh, and its thread may never sleep. A frame cap there cannot wait
//! for its deadline; all it can do is let callbacks pass until the deadline comes.

use core::time::Duration;

use crate::plan::Wake;

/// Decides, for each frame callback of a platform-owned loop, whether a frame starts.
///
/// With [`Wake::Immediately`] every callback starts one: such a loop cannot run faster than
/// the display, whatever its strategy asks. With [`Wake::At`] a callback starts the frame once
/// the deadline is less than a quarter of a refresh away, so a callback that comes a little
/// early (they jitter) still takes the frame the deadline meant, and one a whole refresh
/// early passes. On a grid of deadlines ([`DeadlineGrid`](crate::DeadlineGrid)) a cap below
/// the refresh rate therefore comes out in whole refreshes: a 40 Hz cap on a 60 Hz display
/// alternates frames of two refreshes and one, 40 a second on average.
///
/// The refresh itself is measured from the callbacks, since a page is never told it.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{DeadlineGrid, FrameCallbacks, Rate};
///
/// let refresh = Rate::hz(60.0).unwrap().period();
/// let cap = Rate::hz(40.0).ok();
/// let (mut callbacks, mut grid) = (FrameCallbacks::new(), DeadlineGrid::new());
/// let mut wake = grid.wake_for_cap(Duration::ZERO, cap);
/// let mut started = Vec::new();
/// for i in 1..=12 {
///     let now = refresh * i;
///     if callbacks.take(now, wake) {
///         started.push(i);
///         wake = grid.wake_for_cap(now, cap);
///     }
/// }
/// // Two refreshes, one, two, one...: 40 frames a second.
/// assert_eq!(started, [2, 3, 5, 6, 8, 9, 11, 12]);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameCallbacks {
    /// When the last callback came.
    last: Option<Duration>,
    /// The callbacks' interval, averaged, a missed refresh counted as the refreshes it
    /// spanned.
    refresh: Option<Duration>,
    /// Gaps of whole missed refreshes in a row, each counted as that many refreshes.
    missed_in_a_row: u8,
}

impl FrameCallbacks {
    /// The refresh assumed until callbacks have measured one: 60 Hz.
    pub const ASSUMED_REFRESH: Duration = Duration::from_nanos(16_666_667);

    /// A gap between callbacks longer than this is not a refresh (the page was hidden, or
    /// a frame took that long) and is left out of the average.
    pub const LONGEST_REFRESH: Duration = Duration::from_millis(100);

    /// Gaps of whole missed refreshes in a row counted as that many refreshes, at most: a
    /// page whose frame held up the callbacks misses a refresh now and then, while one
    /// that misses them this often is on a slower display, and the average follows it.
    pub const MISSED_IN_A_ROW: u8 = 8;

    /// No callbacks seen yet.
    pub const fn new() -> Self {
        Self {
            last: None,
            refresh: None,
            missed_in_a_row: 0,
        }
    }

    /// A callback came at `now`, with the loop waiting for `wake`: whether the frame starts.
    pub fn take(&mut self, now: Duration, wake: Wake) -> bool {
        let gap = self.last.map(|last| now.saturating_sub(last));
        if let Some(gap) = gap.filter(|g| !g.is_zero() && *g <= Self::LONGEST_REFRESH) {
            // An average over about eight callbacks: it follows a change of display within a
            // few frames and smooths the jitter of each. A gap of whole refreshes (within a
            // fifth of one) is a refresh the page missed, not a slower display: it counts as
            // that many.
            self.refresh = Some(match self.refresh {
                Some(r) => {
                    let refreshes = (gap.as_secs_f64() / r.as_secs_f64() + 0.5) as u32;
                    let off = gap.abs_diff(r * refreshes);
                    let missed = refreshes >= 2
                        && off * 5 <= r
                        && self.missed_in_a_row < Self::MISSED_IN_A_ROW;
                    let gap = if missed {
                        self.missed_in_a_row += 1;
                        gap / refreshes
                    } else {
                        self.missed_in_a_row = 0;
                        gap
                    };
                    (r * 7 + gap) / 8
                }
                None => gap,
            });
        }
        self.last = Some(now);
        match wake {
            Wake::Immediately => true,
            Wake::At(t) => now.saturating_add(self.refresh() / 4) >= t,
        }
    }

    /// The display's refresh interval as the callbacks have measured it
    /// ([`ASSUMED_REFRESH`](Self::ASSUMED_REFRESH) before they have).
    pub fn refresh(&self) -> Duration {
        self.refresh.unwrap_or(Self::ASSUMED_REFRESH)
    }

    /// Whether callbacks have measured the refresh yet.
    pub fn measured(&self) -> bool {
        self.refresh.is_some()
    }

    /// Forgets when the last callback came (the platform stopped calling: a hidden page); the
    /// measured refresh is kept.
    pub fn pause(&mut self) {
        self.last = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DeadlineGrid, Rate};

    /// The callbacks that start frames, of `count` callbacks at `display` Hz (each `jitter`
    /// late in turn: +j, -j, +j...), under a cap of `cap` Hz.
    fn frames(display: f64, cap: Option<f64>, count: u32, jitter: Duration) -> Vec<Duration> {
        let refresh = Rate::hz(display).unwrap().period();
        let cap = cap.map(|c| Rate::hz(c).unwrap());
        let (mut callbacks, mut grid) = (FrameCallbacks::new(), DeadlineGrid::new());
        let mut wake = grid.wake_for_cap(Duration::ZERO, cap);
        let mut started = Vec::new();
        for i in 1..=count {
            let now = if i % 2 == 0 {
                refresh * i + jitter
            } else {
                refresh * i - jitter
            };
            if callbacks.take(now, wake) {
                started.push(now);
                wake = grid.wake_for_cap(now, cap);
            }
        }
        started
    }

    fn mean_interval(starts: &[Duration]) -> f64 {
        let span = starts[starts.len() - 1] - starts[0];
        span.as_secs_f64() / (starts.len() - 1) as f64
    }

    #[test]
    fn without_a_cap_every_callback_starts_a_frame() {
        let starts = frames(60.0, None, 120, Duration::from_micros(500));
        assert_eq!(starts.len(), 120);
    }

    #[test]
    fn a_cap_at_the_display_rate_survives_jitter() {
        // Callbacks a millisecond either side of the grid still each start a frame: skipping
        // one that came a hair early would halve the rate.
        let starts = frames(60.0, Some(60.0), 600, Duration::from_millis(1));
        assert!(starts.len() >= 598, "{} of 600", starts.len());
    }

    #[test]
    fn a_cap_of_half_the_rate_takes_every_other_callback() {
        let starts = frames(60.0, Some(30.0), 600, Duration::from_micros(700));
        assert!((mean_interval(&starts) - 1.0 / 30.0).abs() < 1e-4);
        let refresh = 1.0 / 60.0;
        for pair in starts.windows(2) {
            let refreshes = (pair[1] - pair[0]).as_secs_f64() / refresh;
            assert!((refreshes - 2.0).abs() < 0.1, "{refreshes}");
        }
    }

    #[test]
    fn a_cap_between_refreshes_comes_out_in_whole_refreshes_at_its_mean_rate() {
        let starts = frames(60.0, Some(40.0), 600, Duration::ZERO);
        assert!((mean_interval(&starts) - 1.0 / 40.0).abs() < 1e-4);
        let refreshes: Vec<u32> = starts
            .windows(2)
            .map(|p| ((p[1] - p[0]).as_secs_f64() * 60.0).round() as u32)
            .collect();
        assert!(refreshes.iter().all(|&r| r == 1 || r == 2), "{refreshes:?}");
        // On a 144 Hz display, 60 Hz comes as twos and threes.
        let starts = frames(144.0, Some(60.0), 1440, Duration::from_micros(300));
        assert!((mean_interval(&starts) - 1.0 / 60.0).abs() < 2e-4);
    }

    #[test]
    fn the_refresh_is_measured_and_a_hidden_spell_is_not_counted() {
        let mut c = FrameCallbacks::new();
        assert_eq!(c.refresh(), FrameCallbacks::ASSUMED_REFRESH);
        assert!(!c.measured());
        let refresh = Duration::from_micros(6944);
        for i in 0..100 {
            c.take(refresh * i, Wake::Immediately);
        }
        assert!(c.measured());
        let error = c.refresh().abs_diff(refresh);
        assert!(error < Duration::from_micros(5), "{:?}", c.refresh());
        // A hidden page: callbacks stop, and the gap is not a refresh.
        c.pause();
        c.take(Duration::from_secs(30), Wake::Immediately);
        c.take(Duration::from_secs(31), Wake::Immediately);
        assert!(c.refresh().abs_diff(refresh) < Duration::from_micros(5));
    }

    #[test]
    fn a_missed_refresh_is_not_a_slower_display_but_a_slower_display_is_followed() {
        // A 90 Hz display and a page that misses one refresh in three (its frames held up):
        // the average of the gaps would read 67.5 Hz.
        let refresh = Duration::from_secs(1) / 90;
        let mut c = FrameCallbacks::new();
        let mut at = Duration::ZERO;
        for k in 0..90 {
            at += if k % 3 == 2 { refresh * 2 } else { refresh };
            c.take(at, Wake::Immediately);
        }
        let error = c.refresh().abs_diff(refresh);
        assert!(error < Duration::from_micros(5), "{:?}", c.refresh());
        // The window moves to a 45 Hz display: every gap two of the old refreshes.
        for _ in 0..60 {
            at += refresh * 2;
            c.take(at, Wake::Immediately);
        }
        let error = c.refresh().abs_diff(refresh * 2);
        assert!(error < Duration::from_micros(50), "{:?}", c.refresh());
    }
}
