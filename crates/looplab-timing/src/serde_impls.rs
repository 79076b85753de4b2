//! The settings types as serde reads and writes them (the `serde` feature), for a game's
//! options file: a rate in hertz, a time scale as its factor, a strategy by its id, a delta
//! mode by name, and the loop settings as a table whose missing keys keep their defaults.
//! What is read goes through the same constructors as code does, so a value the loop cannot
//! run with is refused with the [`TimingError`] message.

use core::time::Duration;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::delta::DeltaMode;
use crate::error::TimingError;
use crate::settings::LoopSettings;
use crate::strategy::Strategy;
use crate::units::{Rate, TimeScale};

impl Serialize for Rate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.as_hz())
    }
}

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Rate::hz(f64::deserialize(deserializer)?).map_err(D::Error::custom)
    }
}

impl Serialize for TimeScale {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(self.factor())
    }
}

impl<'de> Deserialize<'de> for TimeScale {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        TimeScale::new(f64::deserialize(deserializer)?).map_err(D::Error::custom)
    }
}

impl Serialize for Strategy {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Strategy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = alloc::string::String::deserialize(deserializer)?;
        id.parse().map_err(D::Error::custom)
    }
}

/// [`DeltaMode`] as written: its name, and its numbers where it has any.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "mode", deny_unknown_fields)]
enum DeltaModeText {
    Measured,
    Snapped {
        refresh: Rate,
        #[serde(default = "default_tolerance")]
        tolerance: Duration,
    },
    Smoothed {
        frames: u8,
    },
    Synced {
        jitter_fix: f32,
    },
}

fn default_tolerance() -> Duration {
    DeltaMode::DEFAULT_SNAP_TOLERANCE
}

impl Serialize for DeltaMode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            DeltaMode::Measured => DeltaModeText::Measured,
            DeltaMode::Snapped { refresh, tolerance } => {
                DeltaModeText::Snapped { refresh, tolerance }
            }
            DeltaMode::Smoothed { frames } => DeltaModeText::Smoothed { frames },
            DeltaMode::Synced { jitter_fix } => DeltaModeText::Synced { jitter_fix },
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for DeltaMode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Ok(match DeltaModeText::deserialize(deserializer)? {
            DeltaModeText::Measured => DeltaMode::Measured,
            DeltaModeText::Snapped { refresh, tolerance } => {
                DeltaMode::Snapped { refresh, tolerance }
            }
            DeltaModeText::Smoothed { frames } => {
                DeltaMode::smoothed_over(frames).map_err(D::Error::custom)?
            }
            DeltaModeText::Synced { jitter_fix } => {
                DeltaMode::synced_within(jitter_fix).map_err(D::Error::custom)?
            }
        })
    }
}

/// [`LoopSettings`] as written: every field, each missing one at its default.
#[derive(Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct LoopSettingsText {
    update_rate: Rate,
    frame_cap: Option<Rate>,
    max_updates: Option<u32>,
    max_frame_time: Option<Duration>,
    resync_after: Option<Duration>,
    substeps: bool,
    time_scale: TimeScale,
    paused: bool,
    delta_mode: DeltaMode,
}

impl Default for LoopSettingsText {
    fn default() -> Self {
        LoopSettingsText::from(&LoopSettings::default())
    }
}

impl From<&LoopSettings> for LoopSettingsText {
    fn from(s: &LoopSettings) -> Self {
        Self {
            update_rate: s.update_rate,
            frame_cap: s.frame_cap,
            max_updates: s.max_updates(),
            max_frame_time: s.max_frame_time(),
            resync_after: s.resync_after(),
            substeps: s.substeps,
            time_scale: s.time_scale,
            paused: s.paused,
            delta_mode: s.delta_mode,
        }
    }
}

impl TryFrom<LoopSettingsText> for LoopSettings {
    type Error = TimingError;

    fn try_from(t: LoopSettingsText) -> Result<Self, TimingError> {
        Ok(LoopSettings::default()
            .with_update_rate(t.update_rate)
            .with_frame_cap(t.frame_cap)
            .with_max_updates(t.max_updates)?
            .with_max_frame_time(t.max_frame_time)?
            .with_resync_after(t.resync_after)?
            .with_substeps(t.substeps)
            .with_time_scale(t.time_scale)
            .with_paused(t.paused)
            .with_delta_mode(t.delta_mode))
    }
}

impl Serialize for LoopSettings {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        LoopSettingsText::from(self).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LoopSettings {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        LoopSettings::try_from(LoopSettingsText::deserialize(deserializer)?)
            .map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn settings_go_out_and_come_back_the_same() {
        let settings = LoopSettings::default()
            .with_update_rate(Rate::hz(59.94).unwrap())
            .with_frame_cap(Some(Rate::hz(144.0).unwrap()))
            .with_max_updates(None)
            .unwrap()
            .with_resync_after(Some(Duration::from_millis(120)))
            .unwrap()
            .with_time_scale(TimeScale::new(0.25).unwrap())
            .with_delta_mode(DeltaMode::snapped(Rate::hz(59.94).unwrap()));
        let text = serde_json::to_string(&settings).unwrap();
        assert!(text.contains("\"update_rate\":59.94"), "{text}");
        assert!(text.contains("\"mode\":\"snapped\""), "{text}");
        let back: LoopSettings = serde_json::from_str(&text).unwrap();
        assert_eq!(back, settings);
        for strategy in Strategy::ALL {
            let text = serde_json::to_string(&strategy).unwrap();
            assert_eq!(text, alloc::format!("\"{}\"", strategy.id()));
            assert_eq!(serde_json::from_str::<Strategy>(&text).unwrap(), strategy);
        }
    }

    #[test]
    fn missing_keys_keep_their_defaults() {
        let s: LoopSettings = serde_json::from_str(r#"{"frame_cap": 60}"#).unwrap();
        assert_eq!(
            s,
            LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ))
        );
        let synced: DeltaMode =
            serde_json::from_str(r#"{"mode":"synced","jitter_fix":1.5}"#).unwrap();
        assert_eq!(synced, DeltaMode::synced_within(1.5).unwrap());
    }

    #[test]
    fn what_the_loop_cannot_run_with_is_refused_with_its_message() {
        let refused = |text: &str| serde_json::from_str::<LoopSettings>(text).unwrap_err();
        let cases = [
            (
                r#"{"max_updates": 0}"#,
                TimingError::ZeroMaxUpdates.to_string(),
            ),
            (
                r#"{"update_rate": -5}"#,
                TimingError::InvalidRate(-5.0).to_string(),
            ),
            (
                r#"{"time_scale": 0.0000001}"#,
                TimingError::InvalidTimeScale(1e-7).to_string(),
            ),
            (
                r#"{"delta_mode": {"mode": "synced", "jitter_fix": 1e30}}"#,
                TimingError::InvalidJitterFix(1e30).to_string(),
            ),
            (
                r#"{"delta_mode": {"mode": "smoothed", "frames": 1}}"#,
                TimingError::InvalidSmoothedFrames(1).to_string(),
            ),
        ];
        for (text, message) in cases {
            let error = refused(text).to_string();
            assert!(error.contains(&message), "{text}: {error}");
        }
        let unknown = serde_json::from_str::<Strategy>("\"fastest\"").unwrap_err();
        assert!(
            unknown.to_string().contains("unknown strategy"),
            "{unknown}"
        );
        assert!(
            refused(r#"{"frame_rate": 60}"#)
                .to_string()
                .contains("unknown field")
        );
    }
}
