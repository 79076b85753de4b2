//! Frame deadlines on a fixed grid, so that a capped loop keeps its rate on average.

use core::time::Duration;

use crate::plan::Wake;
use crate::units::Rate;

/// Frame deadlines spaced one interval apart on a fixed grid.
///
/// Scheduling each frame one interval after the *previous deadline*, not after the moment
/// the frame happened to start, keeps a 60 Hz cap at 60 frames a second on average however
/// late each wake-up is: a late frame is made up by a shorter wait. When the loop falls too
/// far behind (more than a `tolerance` past the last deadline), the grid is given up and
/// restarted from the present, so a long frame is not followed by a burst of short ones.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::DeadlineGrid;
///
/// let ms = Duration::from_millis;
/// let mut grid = DeadlineGrid::new();
/// assert_eq!(grid.next(ms(0), ms(10), Some(ms(10))), ms(10));
/// // This frame woke 3 ms late; the next deadline stays on the grid.
/// assert_eq!(grid.next(ms(13), ms(10), Some(ms(10))), ms(20));
/// // 25 ms late: the grid restarts from now.
/// assert_eq!(grid.next(ms(45), ms(10), Some(ms(10))), ms(55));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeadlineGrid {
    deadline: Option<Duration>,
}

impl DeadlineGrid {
    /// A grid with no deadline yet: the next one is one interval from the frame that asks.
    pub const fn new() -> Self {
        Self { deadline: None }
    }

    /// The deadline for the frame starting at `now`: one `interval` after the previous
    /// deadline, or one `interval` after `now` when the frame started more than `tolerance`
    /// after the previous deadline (`None`: never give up the grid).
    pub fn next(
        &mut self,
        now: Duration,
        interval: Duration,
        tolerance: Option<Duration>,
    ) -> Duration {
        let next = match self.deadline {
            Some(d) if tolerance.is_none_or(|tol| now <= d.saturating_add(tol)) => {
                d.saturating_add(interval)
            }
            _ => now.saturating_add(interval),
        };
        self.deadline = Some(next);
        next
    }

    /// When to start the frame after the one starting at `now`, under a frame cap: at the
    /// next deadline of the cap's grid, which never bursts to catch up (more than one
    /// interval late restarts it), or at once with no cap.
    pub fn wake_for_cap(&mut self, now: Duration, cap: Option<Rate>) -> Wake {
        match cap {
            Some(cap) => {
                let interval = cap.period();
                Wake::At(self.next(now, interval, Some(interval)))
            }
            None => Wake::Immediately,
        }
    }

    /// Forgets the grid: the next deadline is one interval from the next frame.
    pub fn reset(&mut self) {
        self.deadline = None;
    }

    /// The last deadline handed out.
    pub fn deadline(&self) -> Option<Duration> {
        self.deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::ms;

    #[test]
    fn a_cap_keeps_its_grid_and_never_bursts() {
        let cap = Rate::hz(100.0).ok();
        let mut g = DeadlineGrid::new();
        assert_eq!(g.wake_for_cap(ms(1), cap), Wake::At(ms(11)));
        assert_eq!(g.wake_for_cap(ms(12), cap), Wake::At(ms(21)));
        assert_eq!(
            g.wake_for_cap(ms(40), cap),
            Wake::At(ms(50)),
            "19 ms late restarts"
        );
        assert_eq!(g.wake_for_cap(ms(40), None), Wake::Immediately);
    }

    #[test]
    fn without_tolerance_the_grid_is_kept_however_late() {
        let mut g = DeadlineGrid::new();
        g.next(ms(0), ms(10), None);
        assert_eq!(g.next(ms(100), ms(10), None), ms(20));
        g.reset();
        assert_eq!(g.deadline(), None);
        assert_eq!(g.next(ms(100), ms(10), None), ms(110));
    }
}
