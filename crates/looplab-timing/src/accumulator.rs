//! The lag accumulator: game time owed to the simulation and paid off in fixed steps.

use core::time::Duration;

use crate::units::{div_rem, mul_duration};

/// The largest `f32` below 1.0. A fraction of a step is below one in exact arithmetic, but
/// rounding `0.999999999` to `f32` would otherwise give 1.0.
pub(crate) const FRACTION_MAX: f32 = 1.0 - f32::EPSILON / 2.0;

/// Game time owed but not yet simulated.
///
/// The heart of every fixed-step loop: each frame adds the game time that passed
/// ([`accumulate`](Accumulator::accumulate)), updates take whole steps out of it
/// ([`expend`](Accumulator::expend)), and what is left, always less than a step, says how
/// far between two updates the frame falls
/// ([`overstep_fraction`](Accumulator::overstep_fraction), the `alpha` of interpolation).
/// Time is whole nanoseconds, so a step of 16 666 667 ns is paid off exactly, frame after
/// frame, with nothing lost to rounding.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::Accumulator;
///
/// let step = Duration::from_millis(10);
/// let mut lag = Accumulator::new();
/// lag.accumulate(Duration::from_millis(25));
/// let mut updates = 0;
/// while lag.expend(step) {
///     updates += 1; // update(step)
/// }
/// assert_eq!(updates, 2);
/// assert_eq!(lag.overstep(), Duration::from_millis(5));
/// assert_eq!(lag.overstep_fraction(step), 0.5);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accumulator {
    lag: Duration,
}

impl Accumulator {
    /// Nothing owed.
    pub const fn new() -> Self {
        Self {
            lag: Duration::ZERO,
        }
    }

    /// Adds game time to be simulated.
    pub fn accumulate(&mut self, game_time: Duration) {
        self.lag = self.lag.saturating_add(game_time);
    }

    /// Takes one `step` out if at least that much is owed; true when it did (run one update
    /// of `step`). Never true for a zero step.
    pub fn expend(&mut self, step: Duration) -> bool {
        if step.is_zero() || self.lag < step {
            return false;
        }
        self.lag -= step;
        true
    }

    /// Takes as many whole steps out as are owed, but at most `max`, and returns how many:
    /// the `while expend(step)` loop with a limit, in one division.
    pub fn expend_up_to(&mut self, step: Duration, max: u32) -> u32 {
        let n = self.owed_steps(step).min(u64::from(max));
        self.lag -= mul_duration(step, n);
        n as u32
    }

    /// Whole steps owed.
    pub fn owed_steps(&self, step: Duration) -> u64 {
        match step.as_nanos() {
            0 => 0,
            s => u64::try_from(div_rem(self.lag.as_nanos(), s).0).unwrap_or(u64::MAX),
        }
    }

    /// Drops up to `n` whole steps without simulating them (a game that cannot keep up lets
    /// them go) and returns the game time dropped. The fraction of a step stays.
    pub fn discard_steps(&mut self, n: u64, step: Duration) -> Duration {
        let dropped = mul_duration(step, n.min(self.owed_steps(step)));
        self.lag -= dropped;
        dropped
    }

    /// Drops up to `d` of what is owed and returns what was dropped.
    pub fn discard(&mut self, d: Duration) -> Duration {
        let dropped = self.lag.min(d);
        self.lag -= dropped;
        dropped
    }

    /// Takes everything owed at once (a variable step simulates it in one update).
    pub fn take(&mut self) -> Duration {
        core::mem::take(&mut self.lag)
    }

    /// Game time owed: below one step, except just after the step shrank.
    pub fn overstep(&self) -> Duration {
        self.lag
    }

    /// The owed fraction of a step, in `[0, 1)`: how far the present moment lies between
    /// the last update and the next. When more than a step is owed (the step just shrank)
    /// it is the fraction beyond the whole steps. Zero for a zero step.
    pub fn overstep_fraction(&self, step: Duration) -> f32 {
        fraction_of_step(self.lag, step)
    }
}

/// `(lag mod step) / step` as an `f32` in `[0, 1)`.
pub(crate) fn fraction_of_step(lag: Duration, step: Duration) -> f32 {
    let step = step.as_nanos();
    if step == 0 {
        return 0.0;
    }
    let fraction = div_rem(lag.as_nanos(), step).1 as f64 / step as f64;
    (fraction as f32).clamp(0.0, FRACTION_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::testing::{STEP, ms};

    #[test]
    fn expend_takes_whole_steps_and_keeps_the_rest() {
        let mut a = Accumulator::new();
        a.accumulate(ms(40));
        assert!(a.expend(STEP));
        assert!(a.expend(STEP));
        assert!(!a.expend(STEP));
        assert_eq!(a.overstep(), ms(40) - STEP * 2);
        assert!(!a.expend(Duration::ZERO), "a zero step never runs");
    }

    #[test]
    fn expend_up_to_stops_at_the_limit() {
        let mut a = Accumulator::new();
        a.accumulate(ms(151)); // nine steps owed (150 ms is a nanosecond short of nine)
        assert_eq!(a.owed_steps(STEP), 9);
        assert_eq!(a.expend_up_to(STEP, 4), 4);
        assert_eq!(a.owed_steps(STEP), 5);
        assert_eq!(a.discard_steps(100, STEP), STEP * 5, "only what is owed");
        assert_eq!(a.overstep(), ms(151) - STEP * 9);
    }

    #[test]
    fn a_day_of_steps_is_paid_without_a_nanosecond_lost() {
        let mut a = Accumulator::new();
        let mut steps = 0u64;
        // 7 ms frames for 24 hours.
        for _ in 0..(24 * 3600 * 1000 / 7) {
            a.accumulate(ms(7));
            steps += u64::from(a.expend_up_to(STEP, 10));
        }
        let real = ms(7) * (24 * 3600 * 1000 / 7) as u32;
        assert_eq!(STEP * steps as u32 + a.overstep(), real);
        assert!(a.overstep() < STEP);
    }

    #[test]
    fn fraction_is_below_one_even_when_rounding_would_reach_it() {
        let mut a = Accumulator::new();
        a.accumulate(Duration::from_nanos(999_999_999));
        let f = a.overstep_fraction(Duration::from_secs(1));
        assert!(f < 1.0 && f > 0.999);
        assert_eq!(a.overstep_fraction(Duration::ZERO), 0.0);
        // More than a step owed: the fraction beyond the whole steps.
        a.accumulate(Duration::from_nanos(500_000_001));
        assert_eq!(a.overstep_fraction(Duration::from_secs(1)), 0.5);
    }

    #[test]
    fn take_and_discard_empty_it() {
        let mut a = Accumulator::new();
        a.accumulate(ms(12));
        assert_eq!(a.discard(ms(5)), ms(5));
        assert_eq!(a.take(), ms(7));
        assert_eq!(a.overstep(), Duration::ZERO);
        assert_eq!(a.discard(ms(5)), Duration::ZERO);
    }
}
