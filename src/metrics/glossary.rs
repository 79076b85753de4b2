//! Every figure a table prints, defined once: its header in a text table, its key in CSV and
//! JSON, and one sentence of what it is, with where the field defines it. The lab's, the
//! capture report's and the peers' legends are made from these, and the book's glossary
//! (`docs/glossary.md`) holds the same sentences, which a test compares.

/// One figure of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figure {
    /// Its column's header in a text table.
    pub header: &'static str,
    /// Its key in CSV and JSON.
    pub key: &'static str,
    /// What it is, in one sentence, with the tool that defines it where one does.
    pub definition: &'static str,
}

pub const FPS: Figure = Figure {
    header: "FPS",
    key: "average_fps",
    definition: "frames presented a second: their count over the time they span (CapFrameX's average FPS)",
};

pub const SHOWN: Figure = Figure {
    header: "shown",
    key: "shown_fps",
    definition: "frames the display showed a second (a frame replaced before any refresh showed it is not counted)",
};

pub const UPS: Figure = Figure {
    header: "UPS",
    key: "ups",
    definition: "game updates a second of real time",
};

pub const P1: Figure = Figure {
    header: "P1",
    key: "p1_fps",
    definition: "the 1% quantile of the frames' rates, 1000 / ms (CapFrameX's P1)",
};

pub const P01: Figure = Figure {
    header: "P0.1",
    key: "p01_fps",
    definition: "the 0.1% quantile of the frames' rates (CapFrameX's P0.1)",
};

pub const LOW1: Figure = Figure {
    header: "1% low",
    key: "low1_fps",
    definition: "the rate of the mean of the slowest 1% of frames (CapFrameX's 1% low average)",
};

pub const LOW01: Figure = Figure {
    header: "0.1% low",
    key: "low01_fps",
    definition: "the rate of the mean of the slowest 0.1% of frames (CapFrameX's 0.1% low average)",
};

pub const ANIMATION_ERROR: Figure = Figure {
    header: "anim err",
    key: "animation_error_mean_ms",
    definition: "animation error: for each frame shown, the change in the game time its picture shows less the change in when it was shown, its mean size in ms (PresentMon's MsAnimationError)",
};

pub const ANIMATION_ERROR_P99: Figure = Figure {
    header: "p99",
    key: "animation_error_p99_ms",
    definition: "the 99th percentile of the animation error's size, ms",
};

pub const ANIMATION_ERROR_OVER: Figure = Figure {
    header: ">2 ms",
    key: "animation_error_over_2ms_share",
    definition: "the share of frames shown whose animation error is over 2 ms, an eighth of a 60 Hz refresh",
};

pub const MISSED: Figure = Figure {
    header: "missed",
    key: "refreshes_without_new_frame",
    definition: "refreshes that showed no new frame, and their share of the refreshes (MonitorSim's skipped renders)",
};

pub const PICTURE_LAG: Figure = Figure {
    header: "lag",
    key: "picture_lag_mean_ms",
    definition: "picture lag: how far the game time a picture shows is behind the game clock when it is shown, mean ms",
};

pub const KEY_TO_PHOTON: Figure = Figure {
    header: "key",
    key: "key_to_photon_mean_ms",
    definition: "from a key's arrival to the first refresh that shows it, mean ms (input-to-photon latency)",
};

pub const SPEED: Figure = Figure {
    header: "speed",
    key: "game_speed",
    definition: "game time per real time: 1.00x keeps time",
};

pub const DROPPED: Figure = Figure {
    header: "dropped",
    key: "dropped_game_s",
    definition: "game time the loop dropped to stay near real time (an update limit, a stall clamp), s",
};

pub const BUSY: Figure = Figure {
    header: "busy",
    key: "busy_share",
    definition: "the share of real time the CPU worked rather than waited (a power proxy)",
};

/// Every figure, in the order the glossary lists them.
pub const ALL: [&Figure; 16] = [
    &FPS,
    &SHOWN,
    &UPS,
    &P1,
    &P01,
    &LOW1,
    &LOW01,
    &ANIMATION_ERROR,
    &ANIMATION_ERROR_P99,
    &ANIMATION_ERROR_OVER,
    &MISSED,
    &PICTURE_LAG,
    &KEY_TO_PHOTON,
    &SPEED,
    &DROPPED,
    &BUSY,
];

/// The legend under a table of `figures`: each header and its definition, wrapped to 96
/// columns.
pub fn legend(figures: &[&Figure]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for f in figures {
        let entry = format!("{}: {}.", f.header, f.definition);
        for word in entry.split(' ') {
            if !line.is_empty() && line.len() + 1 + word.len() > 96 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_books_glossary_holds_each_definition() {
        let book = include_str!("../../docs/glossary.md");
        for f in ALL {
            let line = format!("- **{}** (`{}`): {}.", f.header, f.key, f.definition);
            assert!(book.contains(&line), "docs/glossary.md lacks: {line}");
        }
    }

    #[test]
    fn keys_and_headers_are_each_used_once() {
        let mut keys: Vec<&str> = ALL.iter().map(|f| f.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), ALL.len());
        let legend = legend(&ALL);
        assert!(legend.lines().all(|l| l.len() <= 96), "{legend}");
        assert!(
            legend
                .replace('\n', " ")
                .contains("anim err: animation error: for each frame shown")
        );
        assert!(legend.ends_with("(a power proxy).\n"), "{legend}");
    }
}
