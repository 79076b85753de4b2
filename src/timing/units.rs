//! Small value types for rates, time scales and durations, with the parsers the command line
//! uses. Every parser returns a one-line message naming the problem, so a bad value never
//! reaches the loop.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

const NANOS_PER_SEC: u128 = 1_000_000_000;

/// A frequency in hertz: an update rate or a frame cap.
///
/// Kept as `f64` only at the edge: the loop itself works on [`Rate::period`], an integer
/// number of nanoseconds, so no floating-point error accumulates over a long run.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Rate(f64);

impl Rate {
    /// The lowest rate accepted: one event every hour would already make the demo useless.
    pub const MIN_HZ: f64 = 0.01;
    /// The highest rate accepted: beyond this the period is shorter than the timer can resolve.
    pub const MAX_HZ: f64 = 1_000_000.0;
    /// 60 Hz, the default update rate.
    pub const SIXTY_HZ: Rate = Rate(60.0);

    /// A rate in hertz, or an error if it is not a finite number in the accepted range.
    pub fn hz(hz: f64) -> Result<Self, String> {
        if !hz.is_finite() {
            return Err(format!("{hz} is not a finite rate"));
        }
        if hz <= 0.0 {
            return Err(format!("rate must be positive, got {hz}"));
        }
        if !(Self::MIN_HZ..=Self::MAX_HZ).contains(&hz) {
            return Err(format!(
                "rate {hz} Hz is outside {} to {} Hz",
                Self::MIN_HZ,
                Self::MAX_HZ
            ));
        }
        Ok(Self(hz))
    }

    /// The rate in hertz.
    pub fn as_hz(self) -> f64 {
        self.0
    }

    /// The period, rounded to the nearest nanosecond (60 Hz is 16 666 667 ns).
    pub fn period(self) -> Duration {
        Duration::from_nanos((1e9 / self.0).round() as u64)
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} Hz", trim_float(self.0))
    }
}

impl FromStr for Rate {
    type Err = String;

    /// Accepts `60`, `60hz`, `59.94Hz`.
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let number = t
            .strip_suffix("hz")
            .or_else(|| t.strip_suffix("Hz"))
            .or_else(|| t.strip_suffix("HZ"))
            .unwrap_or(t)
            .trim();
        let hz: f64 = number
            .parse()
            .map_err(|_| format!("'{s}' is not a rate (expected a number of hertz, like 60)"))?;
        Rate::hz(hz)
    }
}

/// How fast game time runs against real time, as an exact fraction in millionths.
///
/// Millionths make every decimal a person types (0.25, 1.5, 0.001) exact, and integer
/// scaling with a carried remainder (see [`TimeScaler`]) means a day of scaled time loses
/// not a single nanosecond.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeScale {
    ppm: u64,
}

impl TimeScale {
    /// Real time.
    pub const ONE: Self = Self { ppm: 1_000_000 };
    /// Frozen: game time does not advance.
    pub const ZERO: Self = Self { ppm: 0 };
    /// The largest scale accepted.
    pub const MAX: f64 = 1000.0;

    /// A scale from a factor such as 0.5 or 2, or an error if negative, not finite or too big.
    pub fn new(factor: f64) -> Result<Self, String> {
        if !factor.is_finite() || factor < 0.0 {
            return Err(format!(
                "time scale must be a number from 0 to {}, got {factor}",
                Self::MAX
            ));
        }
        if factor > Self::MAX {
            return Err(format!("time scale {factor} is larger than {}", Self::MAX));
        }
        Ok(Self {
            ppm: (factor * 1e6).round() as u64,
        })
    }

    /// The scale as a factor.
    pub fn factor(self) -> f64 {
        self.ppm as f64 / 1e6
    }

    /// The scale in millionths.
    pub fn ppm(self) -> u64 {
        self.ppm
    }

    /// True when game time does not move at all.
    pub fn is_zero(self) -> bool {
        self.ppm == 0
    }

    /// Double or halve the scale (the keyboard's steps), kept within 1/64 to 64.
    pub fn stepped(self, up: bool) -> Self {
        let f = if up {
            self.factor() * 2.0
        } else {
            self.factor() / 2.0
        };
        Self::new(f.clamp(1.0 / 64.0, 64.0)).unwrap_or(Self::ONE)
    }

    /// `d / scale`: the real time that one `d` of game time takes at this scale. `None` when
    /// the scale is zero (game time never advances).
    pub fn real_time_for(self, d: Duration) -> Option<Duration> {
        if self.ppm == 0 {
            return None;
        }
        let nanos = d.as_nanos() * 1_000_000 / self.ppm as u128;
        Some(duration_from_nanos(nanos))
    }
}

impl Default for TimeScale {
    fn default() -> Self {
        Self::ONE
    }
}

impl fmt::Display for TimeScale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x", trim_float(self.factor()))
    }
}

impl FromStr for TimeScale {
    type Err = String;

    /// Accepts `1`, `0.5`, `2x`.
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let number = t.strip_suffix('x').unwrap_or(t);
        let factor: f64 = number
            .parse()
            .map_err(|_| format!("'{s}' is not a time scale (expected a factor, like 0.5)"))?;
        TimeScale::new(factor)
    }
}

/// Converts real time into game time at a [`TimeScale`], carrying the sub-nanosecond
/// remainder from one call to the next so the sum of the outputs is exact.
#[derive(Clone, Debug, Default)]
pub struct TimeScaler {
    /// Left-over `nanos * ppm` below one nanosecond of output, in millionths of a nanosecond.
    remainder: u128,
}

impl TimeScaler {
    /// Game time for `real` at `scale`.
    pub fn scale(&mut self, real: Duration, scale: TimeScale) -> Duration {
        let total = real.as_nanos() * scale.ppm as u128 + self.remainder;
        self.remainder = total % 1_000_000;
        duration_from_nanos(total / 1_000_000)
    }
}

/// A `Duration` from a nanosecond count, saturating instead of overflowing.
pub fn duration_from_nanos(nanos: u128) -> Duration {
    let secs = nanos / NANOS_PER_SEC;
    if secs > u64::MAX as u128 {
        return Duration::MAX;
    }
    Duration::new(secs as u64, (nanos % NANOS_PER_SEC) as u32)
}

/// Parses a duration written with a unit: `250ms`, `1.5s`, `40us`, `100ns`, `2m`.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| c.is_ascii_alphabetic() || c == 'µ')
        .ok_or_else(|| format!("'{s}' has no unit (write it like 5ms, 1.5s or 200us)"))?;
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a duration (write it like 5ms, 1.5s or 200us)"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("duration '{s}' must not be negative"));
    }
    let nanos_per_unit = match unit.trim() {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" | "min" => 60e9,
        "h" => 3600e9,
        other => {
            return Err(format!(
                "'{other}' in '{s}' is not a time unit (use ns, us, ms, s, m or h)"
            ));
        }
    };
    let nanos = value * nanos_per_unit;
    if nanos > 1e18 {
        return Err(format!("duration '{s}' is too long"));
    }
    Ok(Duration::from_nanos(nanos.round() as u64))
}

/// Formats a duration in the unit that reads best: `16.667 ms`, `1.5 s`, `850 us`.
pub fn format_duration(d: Duration) -> String {
    let nanos = d.as_nanos() as f64;
    if nanos >= 1e9 {
        format!("{} s", trim_float(round_to(nanos / 1e9, 3)))
    } else if nanos >= 1e6 {
        format!("{} ms", trim_float(round_to(nanos / 1e6, 3)))
    } else if nanos >= 1e3 {
        format!("{} us", trim_float(round_to(nanos / 1e3, 3)))
    } else {
        format!("{} ns", nanos)
    }
}

fn round_to(x: f64, digits: i32) -> f64 {
    let p = 10f64.powi(digits);
    (x * p).round() / p
}

/// `60` rather than `60.0`, `0.5` rather than `0.50000`.
fn trim_float(x: f64) -> String {
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rate_period_is_rounded_to_whole_nanoseconds() {
        assert_eq!(
            Rate::hz(60.0).unwrap().period(),
            Duration::from_nanos(16_666_667)
        );
        assert_eq!(Rate::hz(25.0).unwrap().period(), Duration::from_millis(40));
        assert_eq!(Rate::hz(1000.0).unwrap().period(), Duration::from_millis(1));
    }

    #[test]
    fn rate_parsing_accepts_units_and_rejects_nonsense() {
        assert_eq!("60".parse::<Rate>().unwrap().as_hz(), 60.0);
        assert_eq!("59.94Hz".parse::<Rate>().unwrap().as_hz(), 59.94);
        assert!("-5".parse::<Rate>().unwrap_err().contains("positive"));
        assert!("0".parse::<Rate>().unwrap_err().contains("positive"));
        assert!("fast".parse::<Rate>().unwrap_err().contains("not a rate"));
        assert!("inf".parse::<Rate>().is_err());
        assert!("NaN".parse::<Rate>().is_err());
        assert!("5000000".parse::<Rate>().unwrap_err().contains("outside"));
    }

    #[test]
    fn time_scale_is_exact_for_decimals_and_rejects_negatives() {
        assert_eq!("0.25".parse::<TimeScale>().unwrap().ppm(), 250_000);
        assert_eq!("2x".parse::<TimeScale>().unwrap().ppm(), 2_000_000);
        assert!("-1".parse::<TimeScale>().is_err());
        assert!("1e9".parse::<TimeScale>().is_err());
        assert_eq!(TimeScale::ONE.stepped(true).factor(), 2.0);
        assert_eq!(TimeScale::ONE.stepped(false).factor(), 0.5);
        assert_eq!(TimeScale::new(64.0).unwrap().stepped(true).factor(), 64.0);
    }

    #[test]
    fn scaler_carries_the_remainder_so_nothing_is_lost() {
        let mut scaler = TimeScaler::default();
        let third = TimeScale::new(1.0 / 3.0).unwrap(); // 333 333 ppm
        let mut total = Duration::ZERO;
        for _ in 0..3_000_000 {
            total += scaler.scale(Duration::from_nanos(7), third);
        }
        // 21 000 000 ns * 0.333333 = 6 999 993 ns exactly, with no per-call rounding loss.
        assert_eq!(total, Duration::from_nanos(6_999_993));
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
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("40us").unwrap(), Duration::from_micros(40));
        assert_eq!(parse_duration("0s").unwrap(), Duration::ZERO);
        assert!(parse_duration("5").unwrap_err().contains("no unit"));
        assert!(parse_duration("-5ms").unwrap_err().contains("negative"));
        assert!(
            parse_duration("5parsecs")
                .unwrap_err()
                .contains("not a time unit")
        );
        assert!(parse_duration("abcms").is_err());
    }

    #[test]
    fn durations_format_in_a_readable_unit() {
        assert_eq!(
            format_duration(Duration::from_nanos(16_666_667)),
            "16.667 ms"
        );
        assert_eq!(format_duration(Duration::from_millis(1500)), "1.5 s");
        assert_eq!(format_duration(Duration::from_micros(850)), "850 us");
    }
}
