//! Why a `--profile` (or a lane's profile) is refused: one line each.

use std::fmt;
use std::time::Duration;

use crate::text::settings::format_duration;
use crate::text::value_error::ValueError;

/// Why a profile is refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ProfileError {
    /// A name that is no built-in profile's (those are `builtin`), and no custom spec.
    Unknown { name: String, builtin: Vec<String> },
    /// A custom profile's name that would need quoting.
    BadName { name: String },
    /// A part of a custom spec that is not `key=value`.
    NotKeyValue { profile: String, pair: String },
    /// A key custom profiles do not have.
    UnknownKey { profile: String, key: String },
    /// A key's value, refused.
    Value {
        profile: String,
        key: String,
        error: ValueError,
    },
    /// A part of `render` (`jitter`, `gpu`) longer than `render`.
    PartOverRender {
        profile: String,
        part: &'static str,
        length: Duration,
        render: Duration,
    },
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileError::Unknown { name, builtin } => write!(
                f,
                "unknown profile {name:?} (choose from {}, or write \
                 NAME:render=5ms,update=1ms,...)",
                builtin.join(", ")
            ),
            ProfileError::BadName { name } => {
                write!(
                    f,
                    "profile name {name:?} must be letters, digits, '-' or '_'"
                )
            }
            ProfileError::NotKeyValue { profile, pair } => {
                write!(f, "{pair:?} in profile {profile:?} is not key=value")
            }
            ProfileError::UnknownKey { profile, key } => write!(
                f,
                "unknown key {key:?} in profile {profile:?} (use render, update, jitter, gpu, \
                 refresh, vsync, present, latency, noise, timer, stall)"
            ),
            ProfileError::Value {
                profile,
                key,
                error,
            } => write!(f, "{key} in profile {profile:?}: {error}"),
            ProfileError::PartOverRender {
                profile,
                part,
                length,
                render,
            } => write!(
                f,
                "{part} in profile {profile:?} ({}) must not exceed render ({})",
                format_duration(*length),
                format_duration(*render)
            ),
        }
    }
}

impl std::error::Error for ProfileError {}
