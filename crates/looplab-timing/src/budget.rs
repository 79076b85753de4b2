//! A real-time budget for one frame's updates.

use core::ops::ControlFlow;
use core::time::Duration;

/// How long one frame's updates may take in real time before the rest are given up.
///
/// The limit on updates per frame ([`LoopSettings::max_updates`]) counts updates; a budget
/// counts the time they take, which is what a player waiting for an answer to a key press
/// feels. With [`Planner::run_updates`], the updates stop once the budget is spent and the
/// game slows down instead of freezing, even with no update limit at all.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{LoopSettings, ManualClock, Planner, Strategy, UpdateBudget};
///
/// let settings = LoopSettings::default().with_max_updates(None)?;
/// let mut planner = Planner::new(Strategy::CatchUp, settings);
/// let mut clock = ManualClock::new();
/// planner.plan_frame(clock.now());
/// clock.advance(Duration::from_millis(201)); // twelve 16.7 ms steps owed
/// let mut plan = planner.plan_frame(clock.now());
/// let budget = UpdateBudget::new(clock.now(), Duration::from_millis(50));
/// let ran = planner.run_updates(&mut plan, |_step| {
///     clock.advance(Duration::from_millis(20)); // each update takes 20 ms of real time
///     budget.check(clock.now())
/// });
/// assert_eq!(ran, 3); // 60 ms spent: the other nine steps are let go
/// assert_eq!(plan.skipped, plan.step * 9);
/// # Ok::<(), looplab_timing::TimingError>(())
/// ```
///
/// [`LoopSettings::max_updates`]: crate::LoopSettings::max_updates
/// [`Planner::run_updates`]: crate::Planner::run_updates
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UpdateBudget {
    started: Duration,
    limit: Duration,
}

impl UpdateBudget {
    /// A quarter of a second, the same bound as the stall clamp: even in the spiral of death
    /// the loop then draws and reads input four times a second.
    pub const DEFAULT_LIMIT: Duration = Duration::from_millis(250);

    /// A budget of `limit` for updates that start at `started` (on the caller's clock).
    pub fn new(started: Duration, limit: Duration) -> Self {
        Self { started, limit }
    }

    /// [`ControlFlow::Break`] once `now` is `limit` or more past the start.
    pub fn check(&self, now: Duration) -> ControlFlow<()> {
        if self.spent(now) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// True once `now` is `limit` or more past the start.
    pub fn spent(&self, now: Duration) -> bool {
        now.saturating_sub(self.started) >= self.limit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spent_at_the_limit_and_not_before() {
        let b = UpdateBudget::new(Duration::from_millis(100), Duration::from_millis(250));
        assert_eq!(
            b.check(Duration::from_millis(349)),
            ControlFlow::Continue(())
        );
        assert_eq!(b.check(Duration::from_millis(350)), ControlFlow::Break(()));
        assert!(
            !b.spent(Duration::from_millis(50)),
            "a clock behind the start"
        );
    }
}
