//! Rates and time scales: the two numbers a person sets that are not plain durations.
//!
//! Both are validated when made, so a loop never sees a zero step, a negative scale or a
//! NaN; both have a text form (`60 Hz`, `0.5x`) that [`Display`](core::fmt::Display) writes
//! and [`FromStr`] reads back.

use alloc::string::ToString;
use core::fmt;
use core::str::FromStr;
use core::time::Duration;

use crate::accepted;
use crate::error::TimingError;

const NANOS_PER_SEC: u128 = 1_000_000_000;
const PPM: u128 = 1_000_000;

/// A frequency: an update rate or a frame cap.
///
/// Kept in hertz only at the edge. The loop works on [`Rate::period`], a whole number of
/// nanoseconds, so no floating-point error builds up however long a game runs.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::Rate;
///
/// let rate: Rate = "60 Hz".parse()?;
/// assert_eq!(rate.period(), Duration::from_nanos(16_666_667));
/// assert_eq!(Rate::from_period(Duration::from_millis(40))?.as_hz(), 25.0);
/// # Ok::<(), looplab_timing::TimingError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Rate(f64);

impl Rate {
    /// The lowest rate accepted, once every 100 seconds: slower than any loop needs, and it
    /// keeps every period within what a `u64` of nanoseconds times a frame count can hold.
    pub const MIN_HZ: f64 = accepted::MIN_HZ;
    /// The highest rate accepted: a period of one microsecond, about the finest an OS timer
    /// or a spin can resolve.
    pub const MAX_HZ: f64 = accepted::MAX_HZ;
    /// 60 Hz: the refresh rate of most displays and the step most physics engines assume.
    pub const SIXTY_HZ: Rate = Rate(60.0);

    /// A rate in hertz, or an error if it is not a finite number from [`Rate::MIN_HZ`] to
    /// [`Rate::MAX_HZ`].
    pub fn hz(hz: f64) -> Result<Self, TimingError> {
        if hz.is_finite() && (Self::MIN_HZ..=Self::MAX_HZ).contains(&hz) {
            Ok(Self(hz))
        } else {
            Err(TimingError::InvalidRate(hz))
        }
    }

    /// The rate whose period is `period`: `Rate::from_period(step).period() == step` for
    /// every accepted period (1 us to 100 s).
    pub fn from_period(period: Duration) -> Result<Self, TimingError> {
        let nanos = period.as_nanos();
        let hz = if nanos == 0 {
            f64::INFINITY
        } else {
            NANOS_PER_SEC as f64 / nanos as f64
        };
        Self::hz(hz).map_err(|_| TimingError::InvalidPeriod(period))
    }

    /// The rate in hertz.
    pub fn as_hz(self) -> f64 {
        self.0
    }

    /// The period, rounded to the nearest nanosecond (60 Hz is 16 666 667 ns).
    pub fn period(self) -> Duration {
        Duration::from_nanos(round_to_u64(NANOS_PER_SEC as f64 / self.0))
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} Hz", Trimmed(self.0))
    }
}

impl FromStr for Rate {
    type Err = TimingError;

    /// Reads `60`, `60hz`, `59.94 Hz`.
    fn from_str(s: &str) -> Result<Self, TimingError> {
        let t = s.trim();
        let number = ["hz", "Hz", "HZ"]
            .iter()
            .find_map(|unit| t.strip_suffix(unit))
            .unwrap_or(t)
            .trim();
        let hz: f64 = number
            .parse()
            .map_err(|_| TimingError::ParseRate(s.to_string()))?;
        Rate::hz(hz)
    }
}

/// How fast game time runs against real time, as an exact ratio of whole numbers.
///
/// A factor a person types (0.25, 1.5, 0.001) is kept as millionths, which every such
/// decimal is exactly; [`TimeScale::ratio`] takes any fraction, so a third is exactly a
/// third. Scaling is in integers with the remainder carried from frame to frame (as
/// [`GameClock`](crate::GameClock) does), so a day of scaled time loses not one nanosecond:
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{GameClock, LoopSettings, TimeScale};
///
/// let third = LoopSettings::default().with_time_scale(TimeScale::ratio(1, 3)?);
/// let mut clock = GameClock::new();
/// let mut game = Duration::ZERO;
/// let frame = Duration::from_nanos(16_666_667);
/// for k in 0..=5_184_000u64 { // a day of 60 Hz frames
///     game += clock.tick(frame * k as u32, &third).advance;
/// }
/// assert_eq!(game, frame * 5_184_000 / 3); // 8 h of game time to the nanosecond
/// // A decimal factor is exact in millionths, not in thirds: 0.333333 of the same day.
/// assert_eq!(TimeScale::new(1.0 / 3.0)?, TimeScale::ratio(333_333, 1_000_000)?);
/// # Ok::<(), looplab_timing::TimingError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeScale {
    /// Numerator and denominator, in lowest terms (`den` at least 1).
    num: u64,
    den: u64,
}

impl TimeScale {
    /// Real time.
    pub const ONE: Self = Self { num: 1, den: 1 };
    /// Frozen: game time does not advance.
    pub const ZERO: Self = Self { num: 0, den: 1 };
    /// The largest factor accepted. A thousand times real time already turns a second into
    /// a quarter of an hour of game time, past what any loop setting is meant to survive.
    pub const MAX: f64 = accepted::MAX_TIME_SCALE;
    /// The smallest factor above zero [`TimeScale::new`] takes: it keeps a scale to the
    /// millionth, and a smaller factor would round to a frozen game. ([`TimeScale::ratio`]
    /// is exact and takes any.)
    pub const MIN: f64 = accepted::MIN_TIME_SCALE;

    /// A scale from a factor such as 0.5 or 2, kept to the millionth, or an error if it is
    /// negative, not finite, above [`TimeScale::MAX`], or above zero and below
    /// [`TimeScale::MIN`].
    ///
    /// ```
    /// use looplab_timing::{TimeScale, TimingError};
    ///
    /// assert_eq!(TimeScale::new(0.0), Ok(TimeScale::ZERO));
    /// assert_eq!(TimeScale::new(1e-6)?.as_ratio(), (1, 1_000_000));
    /// // Not a game frozen without a word:
    /// assert_eq!(TimeScale::new(1e-7), Err(TimingError::InvalidTimeScale(1e-7)));
    /// # Ok::<(), TimingError>(())
    /// ```
    pub fn new(factor: f64) -> Result<Self, TimingError> {
        let rounds_to_zero = factor > 0.0 && factor < Self::MIN;
        if factor.is_finite() && (0.0..=Self::MAX).contains(&factor) && !rounds_to_zero {
            Ok(Self::reduced(round_to_u64(factor * 1e6), PPM as u64))
        } else {
            Err(TimingError::InvalidTimeScale(factor))
        }
    }

    /// The scale `num / den` exactly, or an error if `den` is zero (reported as an
    /// infinite factor) or the ratio is above [`TimeScale::MAX`]. Both are `u32`s, so a
    /// frame's nanoseconds times either always fits the loop's 128-bit arithmetic.
    pub fn ratio(num: u32, den: u32) -> Result<Self, TimingError> {
        let (n, d) = (u64::from(num), u64::from(den));
        if d == 0 || n > d.saturating_mul(Self::MAX as u64) {
            let factor = if d == 0 {
                f64::INFINITY
            } else {
                n as f64 / d as f64
            };
            return Err(TimingError::InvalidTimeScale(factor));
        }
        Ok(Self::reduced(n, d))
    }

    fn reduced(num: u64, den: u64) -> Self {
        let g = gcd(num, den).max(1);
        Self {
            num: num / g,
            den: den / g,
        }
    }

    /// The numerator and denominator, in lowest terms.
    pub fn as_ratio(self) -> (u64, u64) {
        (self.num, self.den)
    }

    /// The scale as a factor.
    pub fn factor(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    /// The scale in millionths, rounded to the nearest.
    pub fn ppm(self) -> u64 {
        div_rem(
            u128::from(self.num) * PPM + u128::from(self.den / 2),
            u128::from(self.den),
        )
        .0 as u64
    }

    /// True when game time does not move at all.
    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    /// The real time that `game` of game time takes at this scale (`game / scale`), or
    /// `None` when the scale is zero and game time never advances.
    pub fn real_time_for(self, game: Duration) -> Option<Duration> {
        if self.num == 0 {
            return None;
        }
        Some(duration_from_nanos(
            game.as_nanos() * u128::from(self.den) / u128::from(self.num),
        ))
    }

    /// Game time for `real` at this scale, adding the carried remainder (fractions of a
    /// nanosecond) and leaving the new one in it, so that the outputs of any sequence of
    /// calls sum to the exact scaled total.
    pub(crate) fn scale_carrying(self, real: Duration, carry: &mut Carry) -> Duration {
        if carry.den != self.den {
            // The scale changed. The fraction carried moves to a denominator both scales
            // divide, so nothing is lost (every decimal scale divides a million); past
            // `Carry::MAX_DEN`, to this scale's own, rounding a part of a nanosecond away.
            let common = if carry.den == 0 {
                self.den
            } else {
                lcm(carry.den, self.den)
            };
            if carry.den == 0 || common > Carry::MAX_DEN {
                carry.rem = if carry.den == 0 {
                    0
                } else {
                    carry.rem * u128::from(self.den) / u128::from(carry.den)
                };
                carry.den = self.den;
            } else {
                carry.rem *= u128::from(common / carry.den);
                carry.den = common;
            }
        }
        let num = u128::from(self.num) * u128::from(carry.den / self.den);
        let total = real.as_nanos() * num + carry.rem;
        let (whole, rem) = div_rem(total, u128::from(carry.den));
        carry.rem = rem;
        duration_from_nanos(whole)
    }

    /// Game time for `real` at this scale, rounded down, for a look that commits nothing.
    pub(crate) fn scale(self, real: Duration) -> Duration {
        duration_from_nanos(div_rem(real.as_nanos() * u128::from(self.num), u128::from(self.den)).0)
    }
}

/// The fraction of a nanosecond a scaled clock has not handed out yet: `rem / den`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Carry {
    rem: u128,
    den: u64,
}

impl Carry {
    /// The finest unit a carry is kept in: a millionth of a millionth of a nanosecond.
    const MAX_DEN: u64 = 1_000_000_000_000;

    pub(crate) const fn new() -> Self {
        Self { rem: 0, den: 0 }
    }
}

impl PartialOrd for TimeScale {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for TimeScale {
    /// By value: a third is less than a half.
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        (u128::from(self.num) * u128::from(other.den))
            .cmp(&(u128::from(other.num) * u128::from(self.den)))
    }
}

impl Default for TimeScale {
    /// Real time.
    fn default() -> Self {
        Self::ONE
    }
}

impl fmt::Display for TimeScale {
    /// `0.5x` for a scale a decimal writes exactly (to the millionth), `1/3x` otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if (PPM as u64) % self.den == 0 {
            write!(f, "{}x", Trimmed(self.factor()))
        } else {
            write!(f, "{}/{}x", self.num, self.den)
        }
    }
}

impl FromStr for TimeScale {
    type Err = TimingError;

    /// Reads `1`, `0.5`, `2x`, `1/3`, `1/3x`.
    fn from_str(s: &str) -> Result<Self, TimingError> {
        let t = s.trim();
        let t = t.strip_suffix('x').unwrap_or(t).trim();
        let bad = || TimingError::ParseTimeScale(s.to_string());
        if let Some((num, den)) = t.split_once('/') {
            let num: u32 = num.trim().parse().map_err(|_| bad())?;
            let den: u32 = den.trim().parse().map_err(|_| bad())?;
            return TimeScale::ratio(num, den);
        }
        let factor: f64 = t.parse().map_err(|_| bad())?;
        TimeScale::new(factor)
    }
}

/// Least common multiple (saturating).
fn lcm(a: u64, b: u64) -> u64 {
    (a / gcd(a, b).max(1)).saturating_mul(b)
}

/// Greatest common divisor (Euclid).
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `(a / b, a % b)`, in 64 bits when both fit, as a frame's nanoseconds always do: a
/// target without 128-bit division (wasm) otherwise divides in software, which makes the
/// planner three times slower in a page than natively. `b` must not be zero.
pub(crate) fn div_rem(a: u128, b: u128) -> (u128, u128) {
    match (u64::try_from(a), u64::try_from(b)) {
        (Ok(a), Ok(b)) => (u128::from(a / b), u128::from(a % b)),
        _ => (a / b, a % b),
    }
}

/// A `Duration` from a count of nanoseconds, saturating instead of overflowing.
pub(crate) fn duration_from_nanos(nanos: u128) -> Duration {
    let (secs, nanos) = div_rem(nanos, NANOS_PER_SEC);
    if secs > u64::MAX as u128 {
        return Duration::MAX;
    }
    Duration::new(secs as u64, nanos as u32)
}

/// `d * n`, saturating instead of panicking.
pub(crate) fn mul_duration(d: Duration, n: u64) -> Duration {
    duration_from_nanos(d.as_nanos().saturating_mul(n as u128))
}

/// Rounds a non-negative float to the nearest integer (`f64::round` needs `std`).
fn round_to_u64(x: f64) -> u64 {
    (x + 0.5) as u64
}

/// Writes a float with at most six decimals and no trailing zeros: `60`, `0.5`, `59.94`.
struct Trimmed(f64);

impl fmt::Display for Trimmed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 48];
        let mut w = SliceWriter {
            buf: &mut buf,
            len: 0,
        };
        fmt::write(&mut w, format_args!("{:.6}", self.0))?;
        let len = w.len;
        let text = core::str::from_utf8(&buf[..len]).map_err(|_| fmt::Error)?;
        let text = if text.contains('.') {
            text.trim_end_matches('0').trim_end_matches('.')
        } else {
            text
        };
        f.write_str(text)
    }
}

/// A `fmt::Write` into a fixed buffer, so formatting a number needs no allocation.
struct SliceWriter<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl fmt::Write for SliceWriter<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        let slot = self.buf.get_mut(self.len..end).ok_or(fmt::Error)?;
        slot.copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn rate_period_is_rounded_to_whole_nanoseconds() {
        assert_eq!(
            Rate::hz(60.0).unwrap().period(),
            Duration::from_nanos(16_666_667)
        );
        assert_eq!(Rate::hz(25.0).unwrap().period(), Duration::from_millis(40));
        assert_eq!(Rate::hz(1000.0).unwrap().period(), Duration::from_millis(1));
        assert_eq!(Rate::hz(0.01).unwrap().period(), Duration::from_secs(100));
    }

    #[test]
    fn from_period_gives_back_the_period() {
        for nanos in [
            1_000,
            16_666_667,
            16_683_350,
            1_000_000_007,
            100_000_000_000,
        ] {
            let d = Duration::from_nanos(nanos);
            assert_eq!(Rate::from_period(d).unwrap().period(), d, "{nanos} ns");
        }
        assert_eq!(
            Rate::from_period(Duration::ZERO),
            Err(TimingError::InvalidPeriod(Duration::ZERO))
        );
        assert!(Rate::from_period(Duration::from_nanos(999)).is_err());
        assert!(Rate::from_period(Duration::from_secs(101)).is_err());
    }

    #[test]
    fn rate_text_round_trips_and_rejects_nonsense() {
        assert_eq!("60".parse::<Rate>().unwrap().as_hz(), 60.0);
        assert_eq!("59.94Hz".parse::<Rate>().unwrap().as_hz(), 59.94);
        assert_eq!(" 144 hz ".parse::<Rate>().unwrap().as_hz(), 144.0);
        assert_eq!(Rate::hz(59.94).unwrap().to_string(), "59.94 Hz");
        assert_eq!(Rate::SIXTY_HZ.to_string(), "60 Hz");
        assert_eq!("-5".parse::<Rate>(), Err(TimingError::InvalidRate(-5.0)));
        assert_eq!("0".parse::<Rate>(), Err(TimingError::InvalidRate(0.0)));
        assert_eq!(
            "fast".parse::<Rate>(),
            Err(TimingError::ParseRate("fast".into()))
        );
        assert!("inf".parse::<Rate>().is_err());
        assert!("NaN".parse::<Rate>().is_err());
        assert!("5000000".parse::<Rate>().is_err());
    }

    #[test]
    fn time_scale_is_exact_for_decimals_and_rejects_negatives() {
        assert_eq!("0.25".parse::<TimeScale>().unwrap().ppm(), 250_000);
        assert_eq!("2x".parse::<TimeScale>().unwrap().ppm(), 2_000_000);
        assert_eq!(TimeScale::new(0.001).unwrap().ppm(), 1_000);
        assert_eq!(TimeScale::new(0.5).unwrap().to_string(), "0.5x");
        assert_eq!(TimeScale::ONE.to_string(), "1x");
        assert!("-1".parse::<TimeScale>().is_err());
        assert!("1e9".parse::<TimeScale>().is_err());
        assert_eq!(
            "slow".parse::<TimeScale>(),
            Err(TimingError::ParseTimeScale("slow".into()))
        );
    }

    #[test]
    fn carried_scaling_loses_nothing() {
        let third = TimeScale::new(1.0 / 3.0).unwrap(); // 333 333 ppm
        let mut remainder = Carry::new();
        let mut total = Duration::ZERO;
        for _ in 0..3_000_000 {
            total += third.scale_carrying(Duration::from_nanos(7), &mut remainder);
        }
        // 21 000 000 ns * 0.333333 = 6 999 993 ns exactly, with no per-call rounding loss;
        // the uncarried scale would round each 7 ns call down to 2 ns.
        assert_eq!(total, Duration::from_nanos(6_999_993));
        assert_eq!(
            third.scale(Duration::from_nanos(7)),
            Duration::from_nanos(2)
        );
    }

    #[test]
    fn a_ratio_is_exact_and_reads_and_writes_as_a_fraction() {
        let third = TimeScale::ratio(1, 3).unwrap();
        let mut carry = Carry::new();
        let mut total = Duration::ZERO;
        for _ in 0..3_000_000 {
            total += third.scale_carrying(Duration::from_nanos(7), &mut carry);
        }
        assert_eq!(
            total,
            Duration::from_nanos(7_000_000),
            "a third of 21 ms exactly"
        );
        assert_eq!(third.to_string(), "1/3x");
        assert_eq!("1/3x".parse::<TimeScale>(), Ok(third));
        assert_eq!("2/4".parse::<TimeScale>().unwrap().to_string(), "0.5x");
        assert_eq!(TimeScale::ratio(2, 6), Ok(third), "kept in lowest terms");
        assert_eq!(third.ppm(), 333_333);
        assert!(third < TimeScale::new(0.5).unwrap());
        assert!(TimeScale::ratio(1, 0).is_err());
        assert!(TimeScale::ratio(2001, 2).is_err());
        assert!("1/x".parse::<TimeScale>().is_err());
        // A change of scale keeps what was carried, in the new units.
        let half = TimeScale::ratio(1, 2).unwrap();
        let mut carry = Carry::new();
        assert_eq!(
            half.scale_carrying(Duration::from_nanos(3), &mut carry),
            Duration::from_nanos(1)
        );
        assert_eq!(
            third.scale_carrying(Duration::from_nanos(1), &mut carry),
            Duration::from_nanos(0)
        );
        assert_eq!(
            carry.rem * 6,
            5 * u128::from(carry.den),
            "1/2 + 1/3 ns carried"
        );
    }

    #[test]
    fn real_time_for_inverts_the_scale() {
        let half = TimeScale::new(0.5).unwrap();
        assert_eq!(
            half.real_time_for(Duration::from_millis(10)),
            Some(Duration::from_millis(20))
        );
        assert_eq!(
            TimeScale::ZERO.real_time_for(Duration::from_millis(10)),
            None
        );
    }

    #[test]
    fn durations_saturate_instead_of_overflowing() {
        assert_eq!(mul_duration(Duration::MAX, 2), Duration::MAX);
        assert_eq!(duration_from_nanos(u128::MAX), Duration::MAX);
        // Both halves of the division agree with 128-bit arithmetic, in and out of 64 bits.
        for (a, b) in [
            (7u128, 2u128),
            (u64::MAX as u128 + 5, 3),
            (10, u64::MAX as u128 + 1),
        ] {
            assert_eq!(div_rem(a, b), (a / b, a % b));
        }
        assert_eq!(
            mul_duration(Duration::from_nanos(16_666_667), 3),
            Duration::from_nanos(50_000_001)
        );
    }
}
