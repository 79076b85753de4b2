//! How Looplab writes and reads its settings: the words of the command line, the overlay,
//! the log and the reports, in one place.
//!
//! A frame cap is `60 Hz` or `off`, a limit of updates per frame `10` or `unlimited`, a
//! stall clamp `250 ms` or `off`, a duration a number with a unit. Every parser says what
//! is wrong with a bad value ([`ValueError`]), so one never reaches the loop.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use looplab_timing::{DeltaMode, LoopSettings, Rate};
use serde::{Deserialize, Serialize};

use super::value_error::ValueError;

/// A frame cap: a rate, or `off`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cap(pub Option<Rate>);

impl FromStr for Cap {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Self, ValueError> {
        match s.trim() {
            "off" | "none" => Ok(Cap(None)),
            v => Ok(Cap(Some(v.parse()?))),
        }
    }
}

impl fmt::Display for Cap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(rate) => rate.fmt(f),
            None => f.write_str("off"),
        }
    }
}

/// Most updates per frame: a positive count, or `unlimited`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MaxUpdates(pub Option<u32>);

impl MaxUpdates {
    /// The largest limit accepted: beyond it, "unlimited" says the same more plainly.
    pub const MAX: u32 = 100_000;
}

impl FromStr for MaxUpdates {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Self, ValueError> {
        match s.trim() {
            "unlimited" | "off" | "none" => Ok(MaxUpdates(None)),
            v => match v.parse::<i64>() {
                Ok(n) if (1..=i64::from(Self::MAX)).contains(&n) => Ok(MaxUpdates(Some(n as u32))),
                Ok(n) => Err(ValueError::out_of_range(
                    format!("from 1 to {} or 'unlimited'", Self::MAX),
                    n,
                )),
                Err(_) => Err(ValueError::not(v, "a count (a number or 'unlimited')")),
            },
        }
    }
}

impl fmt::Display for MaxUpdates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(n) => n.fmt(f),
            None => f.write_str("unlimited"),
        }
    }
}

/// A limit that may be switched off (the stall clamp, the hitch limit): a positive
/// duration, or `off`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DurationOrOff(pub Option<Duration>);

impl FromStr for DurationOrOff {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Self, ValueError> {
        match s.trim() {
            "off" | "none" => Ok(DurationOrOff(None)),
            v => {
                let d = parse_duration(v)?;
                if d.is_zero() {
                    return Err(ValueError::Zero);
                }
                Ok(DurationOrOff(Some(d)))
            }
        }
    }
}

impl fmt::Display for DurationOrOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(d) => f.write_str(&format_duration(d)),
            None => f.write_str("off"),
        }
    }
}

/// The loop settings in one line, as the log and the reports show them.
pub fn describe_settings(s: &LoopSettings) -> String {
    let mut text = format!(
        "{} UPS, cap {}, max updates/frame {}, stall clamp {}, time scale {}",
        s.update_rate.as_hz(),
        Cap(s.frame_cap),
        MaxUpdates(s.max_updates()),
        DurationOrOff(s.max_frame_time()),
        s.time_scale,
    );
    if s.delta_mode != DeltaMode::Measured {
        text.push_str(&format!(", deltas {}", DeltaKind::of(&s.delta_mode)));
    }
    if let Some(limit) = s.resync_after() {
        text.push_str(&format!(", resync after {}", format_duration(limit)));
    }
    if s.substeps {
        text.push_str(", sub-steps");
    }
    text
}

/// How the loop reads frame deltas, without the display it snaps to (the window asks the
/// monitor, the lab each profile): `measured`, `snapped`, `smoothed` or `synced`.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum DeltaKind {
    #[default]
    Measured,
    Snapped,
    Smoothed,
    Synced,
}

impl DeltaKind {
    pub const ALL: [DeltaKind; 4] = [Self::Measured, Self::Snapped, Self::Smoothed, Self::Synced];

    /// The mode, snapping to a display refreshing at `refresh`.
    pub fn mode(self, refresh: Rate) -> DeltaMode {
        match self {
            Self::Measured => DeltaMode::Measured,
            Self::Snapped => DeltaMode::snapped(refresh),
            Self::Smoothed => DeltaMode::smoothed(),
            Self::Synced => DeltaMode::synced(),
        }
    }

    /// The kind of a mode.
    pub fn of(mode: &DeltaMode) -> Self {
        match mode {
            DeltaMode::Snapped { .. } => Self::Snapped,
            DeltaMode::Smoothed { .. } => Self::Smoothed,
            DeltaMode::Synced { .. } => Self::Synced,
            _ => Self::Measured,
        }
    }

    /// The next kind, for a key that cycles through them.
    pub fn next(self) -> Self {
        match self {
            Self::Measured => Self::Snapped,
            Self::Snapped => Self::Smoothed,
            Self::Smoothed => Self::Synced,
            Self::Synced => Self::Measured,
        }
    }

    pub fn id(self) -> &'static str {
        match self {
            Self::Measured => "measured",
            Self::Snapped => "snapped",
            Self::Smoothed => "smoothed",
            Self::Synced => "synced",
        }
    }
}

impl FromStr for DeltaKind {
    type Err = ValueError;
    fn from_str(s: &str) -> Result<Self, ValueError> {
        Self::ALL
            .into_iter()
            .find(|k| k.id() == s.trim())
            .ok_or_else(|| ValueError::not(s.trim(), "measured, snapped, smoothed or synced"))
    }
}

impl fmt::Display for DeltaKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Parses a duration written with a unit: `250ms`, `1.5s`, `40us`, `100ns`, `2m`.
pub fn parse_duration(s: &str) -> Result<Duration, ValueError> {
    let t = s.trim();
    let split = t
        .find(|c: char| c.is_ascii_alphabetic() || c == 'µ')
        .ok_or_else(|| ValueError::NoUnit {
            value: s.to_string(),
        })?;
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| ValueError::not(s, "a duration (write it like 5ms, 1.5s or 200us)"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(ValueError::Negative {
            value: s.to_string(),
        });
    }
    let nanos_per_unit = match unit.trim() {
        "ns" => 1.0,
        "us" | "µs" => 1e3,
        "ms" => 1e6,
        "s" => 1e9,
        "m" | "min" => 60e9,
        "h" => 3600e9,
        other => {
            return Err(ValueError::NotATimeUnit {
                unit: other.to_string(),
                value: s.to_string(),
            });
        }
    };
    let nanos = value * nanos_per_unit;
    if nanos > 1e18 {
        return Err(ValueError::TooLong {
            value: s.to_string(),
        });
    }
    Ok(Duration::from_nanos(nanos.round() as u64))
}

/// Formats a duration in the unit that reads best: `16.667 ms`, `1.5 s`, `850 us`.
pub fn format_duration(d: Duration) -> String {
    let nanos = d.as_nanos() as f64;
    let (value, unit) = if nanos >= 1e9 {
        (nanos / 1e9, "s")
    } else if nanos >= 1e6 {
        (nanos / 1e6, "ms")
    } else if nanos >= 1e3 {
        (nanos / 1e3, "us")
    } else {
        return format!("{nanos} ns");
    };
    format!("{} {unit}", trim_float((value * 1e3).round() / 1e3))
}

/// `60` rather than `60.000`, `0.5` rather than `0.500`.
fn trim_float(x: f64) -> String {
    let s = format!("{x:.6}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use looplab_timing::TimeScale;

    #[test]
    fn settings_read_and_write_the_same_words() {
        assert_eq!("off".parse::<Cap>(), Ok(Cap(None)));
        assert_eq!("60".parse::<Cap>().unwrap().to_string(), "60 Hz");
        assert_eq!(
            "unlimited".parse::<MaxUpdates>().unwrap().to_string(),
            "unlimited"
        );
        assert_eq!("10".parse::<MaxUpdates>(), Ok(MaxUpdates(Some(10))));
        assert_eq!(
            "250ms".parse::<DurationOrOff>().unwrap().to_string(),
            "250 ms"
        );
        assert_eq!("off".parse::<DurationOrOff>().unwrap().to_string(), "off");
        assert!(
            "0ms"
                .parse::<DurationOrOff>()
                .unwrap_err()
                .to_string()
                .contains("longer than zero")
        );
        assert!(
            "0".parse::<MaxUpdates>()
                .unwrap_err()
                .to_string()
                .contains("from 1 to 100000")
        );
        assert!(
            "many"
                .parse::<MaxUpdates>()
                .unwrap_err()
                .to_string()
                .contains("not a count")
        );
        assert!(
            "-5".parse::<Cap>()
                .unwrap_err()
                .to_string()
                .contains("positive")
        );
    }

    #[test]
    fn the_settings_line_uses_those_words() {
        let s = LoopSettings::default()
            .with_max_updates(None)
            .unwrap()
            .with_max_frame_time(None)
            .unwrap()
            .with_time_scale(TimeScale::new(0.5).unwrap());
        assert_eq!(
            describe_settings(&s),
            "60 UPS, cap off, max updates/frame unlimited, stall clamp off, time scale 0.5x, \
             deltas synced"
        );
        let measured = s.with_delta_mode(looplab_timing::DeltaMode::Measured);
        assert!(!describe_settings(&measured).contains("deltas"));
    }

    #[test]
    fn durations_parse_with_units() {
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("40us").unwrap(), Duration::from_micros(40));
        assert_eq!(parse_duration("0s").unwrap(), Duration::ZERO);
        assert!(
            parse_duration("5")
                .unwrap_err()
                .to_string()
                .contains("no unit")
        );
        assert!(
            parse_duration("-5ms")
                .unwrap_err()
                .to_string()
                .contains("negative")
        );
        assert!(
            parse_duration("5parsecs")
                .unwrap_err()
                .to_string()
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
        assert_eq!(format_duration(Duration::from_nanos(12)), "12 ns");
    }
}
