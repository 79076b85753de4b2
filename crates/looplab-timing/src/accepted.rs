//! What the crate accepts, in one leaf that the types and the error messages both read: the
//! range of rates and time scales, the delta modes' bounds and the strategies' ids. The types
//! publish these (as [`Rate::MIN_HZ`](crate::Rate::MIN_HZ),
//! [`TimeScale::MAX`](crate::TimeScale::MAX), [`DeltaMode::MAX_JITTER_FIX`](crate::DeltaMode::MAX_JITTER_FIX),
//! [`Strategy::id`](crate::Strategy::id) and so on); keeping them here lets the error type
//! name them without importing the types that return it.

/// The lowest rate accepted, in hertz.
pub(crate) const MIN_HZ: f64 = 0.01;
/// The highest rate accepted, in hertz.
pub(crate) const MAX_HZ: f64 = 1_000_000.0;
/// The largest time scale accepted.
pub(crate) const MAX_TIME_SCALE: f64 = 1000.0;
/// The smallest time scale above zero that a factor may give: a scale is kept to the
/// millionth.
pub(crate) const MIN_TIME_SCALE: f64 = 1e-6;
/// The widest bound of timer sync, in steps.
pub(crate) const MAX_JITTER_FIX: f32 = 2.0;
/// The shortest and the longest average of smoothed deltas, in frames.
pub(crate) const SMOOTHED_FRAMES: (u8, u8) = (2, 32);
/// Each strategy's id, in the order the strategies are declared (and listed in
/// [`Strategy::ALL`](crate::Strategy::ALL)).
pub(crate) const STRATEGY_IDS: [&str; 8] = [
    "uncapped",
    "fixed-sleep",
    "variable",
    "catch-up",
    "interpolated",
    "extrapolated",
    "predicted",
    "predicted-kept",
];
