//! Modelled hardware: what a frame and an update cost, how much that varies, whether the
//! display paces presents, and a one-off stall. A profile is plain data, so a user can write
//! their own on the command line:
//!
//! ```text
//! --profile 'laptop:render=9ms,update=1.5ms,jitter=3ms,refresh=60,stall=2s@6s'
//! ```

use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use crate::settings_text::{format_duration, parse_duration};
use looplab_timing::Rate;

/// A one-off pause of the whole process (a debugger break, a swap storm, a suspend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stall {
    /// Real time at which it happens.
    pub at: Duration,
    /// How long nothing runs.
    pub length: Duration,
}

/// A hardware model for the lab.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Profile {
    pub name: String,
    /// What it stands for.
    pub description: String,
    /// CPU and GPU time to draw and present one frame.
    pub render: Duration,
    /// Time one game update takes.
    pub update: Duration,
    /// Each frame's render time varies uniformly by up to this much either way (seeded).
    pub jitter: Duration,
    /// Vsync: a present waits for the next refresh of a display at this rate.
    #[serde(serialize_with = "serialize_rate")]
    pub refresh: Option<Rate>,
    pub stall: Option<Stall>,
}

fn serialize_rate<S: serde::Serializer>(r: &Option<Rate>, s: S) -> Result<S::Ok, S::Error> {
    match r {
        Some(r) => s.serialize_some(&r.as_hz()),
        None => s.serialize_none(),
    }
}

impl Profile {
    fn base(name: &str, description: &str) -> Self {
        Self {
            name: name.to_string(),
            description: description.to_string(),
            render: Duration::from_millis(2),
            update: Duration::from_micros(200),
            jitter: Duration::ZERO,
            refresh: None,
            stall: None,
        }
    }

    /// The built-in profiles, each the situation one of the texts' claims is about.
    pub fn builtin() -> Vec<Profile> {
        let ms = Duration::from_millis;
        vec![
            Profile {
                render: ms(1),
                ..Self::base("fast", "a powerful machine: 1 ms frames")
            },
            Profile {
                render: ms(45),
                ..Self::base("weak-gpu", "slow rendering: 45 ms frames (22 FPS)")
            },
            Profile {
                update: ms(25),
                ..Self::base(
                    "weak-cpu",
                    "an update costs 25 ms, more than the 16.7 ms step it simulates",
                )
            },
            Profile {
                stall: Some(Stall {
                    at: Duration::from_secs(4),
                    length: ms(1500),
                }),
                ..Self::base("stall", "2 ms frames and one 1.5 s stall at 4 s")
            },
            Profile {
                render: ms(9),
                jitter: ms(8),
                ..Self::base("jitter", "frames of 1-17 ms, uniformly random (seeded)")
            },
            Profile {
                refresh: Rate::hz(60.0).ok(),
                ..Self::base("vsync-60", "2 ms frames presented on a 60 Hz display")
            },
        ]
    }

    /// A built-in profile by name, or a custom one from `name:key=value,...` where the keys
    /// are `render`, `update`, `jitter` (durations), `refresh` (Hz or `off`) and `stall`
    /// (`LENGTH@AT`). Unnamed keys keep the defaults (2 ms render, 0.2 ms update).
    pub fn parse(spec: &str) -> Result<Profile, String> {
        let spec = spec.trim();
        let Some((name, settings)) = spec.split_once(':') else {
            return Self::builtin()
                .into_iter()
                .find(|p| p.name == spec)
                .ok_or_else(|| {
                    let names: Vec<String> = Self::builtin().into_iter().map(|p| p.name).collect();
                    format!(
                        "unknown profile '{spec}' (choose from {}, or write NAME:render=5ms,update=1ms,...)",
                        names.join(", ")
                    )
                });
        };
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "profile name '{name}' must be letters, digits, '-' or '_'"
            ));
        }
        let mut p = Self::base(name, "custom");
        for pair in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("'{pair}' in profile '{name}' is not key=value"))?;
            let (key, value) = (key.trim(), value.trim());
            let in_profile = |e: String| format!("{key} in profile '{name}': {e}");
            match key {
                "render" => p.render = parse_duration(value).map_err(in_profile)?,
                "update" => p.update = parse_duration(value).map_err(in_profile)?,
                "jitter" => p.jitter = parse_duration(value).map_err(in_profile)?,
                "refresh" => {
                    p.refresh = match value {
                        "off" | "none" => None,
                        v => Some(v.parse::<Rate>().map_err(|e| in_profile(e.to_string()))?),
                    }
                }
                "stall" => {
                    let (length, at) = value.split_once('@').ok_or_else(|| {
                        in_profile(format!("'{value}' is not LENGTH@AT, like 1s@5s"))
                    })?;
                    p.stall = Some(Stall {
                        length: parse_duration(length).map_err(in_profile)?,
                        at: parse_duration(at).map_err(in_profile)?,
                    });
                }
                other => {
                    return Err(format!(
                        "unknown key '{other}' in profile '{name}' (use render, update, jitter, refresh, stall)"
                    ));
                }
            }
        }
        if p.jitter > p.render {
            return Err(format!(
                "jitter in profile '{name}' ({}) must not exceed render ({})",
                format_duration(p.jitter),
                format_duration(p.render)
            ));
        }
        let mut description = format!(
            "render {}, update {}",
            format_duration(p.render),
            format_duration(p.update)
        );
        if !p.jitter.is_zero() {
            let _ = write!(description, " ±{}", format_duration(p.jitter));
        }
        if let Some(r) = p.refresh {
            let _ = write!(description, ", vsync {r}");
        }
        if let Some(s) = p.stall {
            let _ = write!(
                description,
                ", {} stall at {}",
                format_duration(s.length),
                format_duration(s.at)
            );
        }
        p.description = description;
        Ok(p)
    }
}

/// Parses one `--profile` argument: a custom spec (it has a `:`) or a comma-separated list of
/// built-in names.
pub fn parse_profiles(arg: &str) -> Result<Vec<Profile>, String> {
    if arg.contains(':') {
        Profile::parse(arg).map(|p| vec![p])
    } else {
        arg.split(',').map(Profile::parse).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_profiles_are_found_by_name() {
        let names: Vec<String> = Profile::builtin().into_iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "fast", "weak-gpu", "weak-cpu", "stall", "jitter", "vsync-60"
            ]
        );
        assert_eq!(
            Profile::parse("weak-cpu").unwrap().update,
            Duration::from_millis(25)
        );
        let list = parse_profiles("fast,stall").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].stall.unwrap().length, Duration::from_millis(1500));
    }

    #[test]
    fn custom_profiles_parse_every_key() {
        let p =
            Profile::parse("laptop:render=9ms, update=1.5ms,jitter=3ms,refresh=59.94,stall=2s@6s")
                .unwrap();
        assert_eq!(p.name, "laptop");
        assert_eq!(p.render, Duration::from_millis(9));
        assert_eq!(p.update, Duration::from_micros(1500));
        assert_eq!(p.jitter, Duration::from_millis(3));
        assert_eq!(p.refresh.unwrap().as_hz(), 59.94);
        assert_eq!(
            p.stall,
            Some(Stall {
                at: Duration::from_secs(6),
                length: Duration::from_secs(2)
            })
        );
        assert!(p.description.contains("vsync 59.94 Hz"));
        let defaults = Profile::parse("plain:").unwrap();
        assert_eq!(defaults.render, Duration::from_millis(2));
    }

    #[test]
    fn malformed_profiles_are_rejected_with_the_reason() {
        let err = |s: &str| Profile::parse(s).unwrap_err();
        assert!(err("turbo").contains("unknown profile 'turbo'"));
        assert!(err("x:render").contains("not key=value"));
        assert!(err("x:render=fast").contains("render in profile 'x'"));
        assert!(err("x:render=-3ms").contains("negative"));
        assert!(err("x:colour=red").contains("unknown key 'colour'"));
        assert!(err("x:refresh=-60").contains("positive"));
        assert!(err("x:stall=2s").contains("LENGTH@AT"));
        assert!(err("x:render=1ms,jitter=2ms").contains("must not exceed"));
        assert!(err("bad name!:render=1ms").contains("profile name"));
        assert!(parse_profiles("fast,nope").is_err());
    }
}
