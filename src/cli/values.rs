//! The values the command line's options take, each read from what a person typed or
//! refused with a [`ValueError`] (clap puts the option's name before it).

use std::time::Duration;

use looplab_timing::Strategy;

use crate::app::keys;
use crate::lab::profile::{Profile, ProfileError};
use crate::platform::frame_wait::CapWait;
use crate::text::value_error::ValueError;
use crate::world::WorldConfig;
use looplab_timing::WaitMode;

pub(super) fn parse_pacing(s: &str) -> Result<CapWait, ValueError> {
    match s.trim() {
        "precise" => Ok(CapWait::Only(WaitMode::Precise)),
        "naive" => Ok(CapWait::Only(WaitMode::Naive)),
        "alternating" => Ok(CapWait::Alternating),
        other => Err(ValueError::not(other, "precise, naive or alternating")),
    }
}

/// A strategy by its id (`catch-up`) or by the key that selects it in the window (`4`).
pub(super) fn parse_strategy(s: &str) -> Result<Strategy, ValueError> {
    let t = s.trim();
    let mut chars = t.chars();
    if let (Some(key), None) = (chars.next(), chars.next())
        && let Some(strategy) = keys::strategy_for_key(key)
    {
        return Ok(strategy);
    }
    t.parse().map_err(
        |_: looplab_timing::TimingError| ValueError::UnknownStrategy {
            value: t.to_string(),
        },
    )
}

pub(super) fn parse_on_off(s: &str) -> Result<bool, ValueError> {
    match s.trim() {
        "on" | "true" | "yes" | "1" => Ok(true),
        "off" | "false" | "no" | "0" => Ok(false),
        other => Err(ValueError::not(other, "on or off")),
    }
}

/// One profile, boxed: a profile is large beside the other commands' options.
pub(super) fn parse_boxed_profile(s: &str) -> Result<Box<Profile>, ProfileError> {
    Profile::parse(s).map(Box::new)
}

pub(super) fn parse_hours(s: &str) -> Result<f64, ValueError> {
    let h: f64 = s
        .trim()
        .parse()
        .map_err(|_| ValueError::not(s, "a number of hours"))?;
    if !h.is_finite() || h <= 0.0 || h > 1000.0 {
        return Err(ValueError::out_of_range(
            "more than 0 and at most 1000 hours",
            s,
        ));
    }
    Ok(h)
}

/// A window size, `WIDTHxHEIGHT` in pixels, each side from 160 to 7680.
pub(super) fn parse_size(s: &str) -> Result<(u32, u32), ValueError> {
    let not_a_size = || ValueError::not(s, "WIDTHxHEIGHT in whole pixels, like 960x540");
    let side = |v: &str| -> Result<u32, ValueError> {
        let n: u32 = v.trim().parse().map_err(|_| not_a_size())?;
        if (160..=7680).contains(&n) {
            Ok(n)
        } else {
            Err(ValueError::out_of_range(
                "from 160 to 7680 pixels a side",
                n,
            ))
        }
    };
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(not_a_size)?;
    Ok((side(w)?, side(h)?))
}

pub(super) fn parse_bullets(s: &str) -> Result<usize, ValueError> {
    let n: i64 = s
        .trim()
        .parse()
        .map_err(|_| ValueError::not(s, "a whole number"))?;
    if n < 0 || n as usize > WorldConfig::MAX_BULLETS {
        return Err(ValueError::out_of_range(
            format!("from 0 to {}", WorldConfig::MAX_BULLETS),
            n,
        ));
    }
    Ok(n as usize)
}

pub(super) fn parse_seconds(s: &str) -> Result<Duration, ValueError> {
    let x: f64 = s
        .trim()
        .parse()
        .map_err(|_| ValueError::not(s, "a number of seconds"))?;
    if !x.is_finite() || x <= 0.0 {
        return Err(ValueError::out_of_range("a positive number of seconds", s));
    }
    if x > 86_400.0 {
        return Err(ValueError::out_of_range("at most 86400 seconds (a day)", s));
    }
    Ok(Duration::from_secs_f64(x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strategy_is_named_by_id_or_key_and_a_wrong_one_says_both() {
        assert_eq!(parse_strategy("4"), Ok(Strategy::CatchUp));
        assert_eq!(parse_strategy("catch-up"), Ok(Strategy::CatchUp));
        let e = parse_strategy("9").unwrap_err().to_string();
        assert!(
            e.contains("unknown strategy") && e.contains("1 to 8"),
            "{e}"
        );
    }

    #[test]
    fn a_window_size_is_width_by_height_and_a_bad_one_says_why() {
        assert_eq!(parse_size("960x540"), Ok((960, 540)));
        assert_eq!(parse_size("1920X1080"), Ok((1920, 1080)));
        for (bad, says) in [
            ("960", "WIDTHxHEIGHT"),
            ("960x", "WIDTHxHEIGHT"),
            ("x540", "WIDTHxHEIGHT"),
            ("-960x540", "WIDTHxHEIGHT"),
            ("100x540", "got 100"),
            ("960x9000", "got 9000"),
        ] {
            let e = parse_size(bad).unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
