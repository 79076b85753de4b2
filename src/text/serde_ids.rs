//! How the timing crate's strategies are written in the reports and read back: by their ids
//! (`catch-up`), the words the command line takes. The crate has no dependencies, serde
//! included, so the app says how, here, once. Use with `#[serde(with = ...)]`.

/// One strategy, as its id.
pub mod strategy {
    use looplab_timing::Strategy;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(strategy: &Strategy, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(strategy.id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Strategy, D::Error> {
        let id = String::deserialize(d)?;
        id.parse().map_err(serde::de::Error::custom)
    }
}

/// A frame-cap wait's mode, as its id (`precise`, `naive`).
pub mod wait_mode {
    use looplab_timing::WaitMode;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(mode: &WaitMode, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(mode.id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<WaitMode, D::Error> {
        let id = String::deserialize(d)?;
        [WaitMode::Precise, WaitMode::Naive]
            .into_iter()
            .find(|m| m.id() == id)
            .ok_or_else(|| serde::de::Error::custom(format!("'{id}' is not precise or naive")))
    }
}

/// A list of strategies, as their ids.
pub mod strategies {
    use looplab_timing::Strategy;
    use serde::Serializer;

    pub fn serialize<S: Serializer>(list: &[Strategy], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(list.iter().map(|strategy| strategy.id()))
    }
}

/// A map keyed by strategy, as an object keyed by id.
pub mod strategy_map {
    use std::collections::BTreeMap;

    use looplab_timing::Strategy;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub fn serialize<S: Serializer, T: Serialize>(
        map: &BTreeMap<Strategy, T>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(k, v)| (k.id(), v)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<BTreeMap<Strategy, T>, D::Error> {
        BTreeMap::<String, T>::deserialize(d)?
            .into_iter()
            .map(|(id, v)| Ok((id.parse().map_err(serde::de::Error::custom)?, v)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use looplab_timing::Strategy;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Both {
        #[serde(with = "super::strategy")]
        one: Strategy,
        #[serde(with = "super::strategy_map")]
        each: BTreeMap<Strategy, u32>,
    }

    #[test]
    fn strategies_are_written_by_id_and_read_back() {
        let both = Both {
            one: Strategy::CatchUp,
            each: BTreeMap::from([(Strategy::FixedSleep, 2), (Strategy::Interpolated, 5)]),
        };
        let text = serde_json::to_string(&both).unwrap();
        assert_eq!(
            text,
            r#"{"one":"catch-up","each":{"fixed-sleep":2,"interpolated":5}}"#
        );
        assert_eq!(serde_json::from_str::<Both>(&text).unwrap(), both);
        let bad = serde_json::from_str::<Both>(r#"{"one":"warp","each":{}}"#);
        assert!(bad.unwrap_err().to_string().contains("warp"));
    }
}
