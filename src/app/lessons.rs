//! The tour's stops as the book's embedded views show them: a catalogue of every stop, for
//! the views to lay themselves out before the page has loaded, and the current stop as it
//! stands, for the words, keys and figures a view shows around its picture.
//!
//! Both are built from the tour's table and the overlay's own rows, so a view in the book
//! and the window's panel cannot tell different stories. Compiled everywhere: the tests
//! read them natively, and the page hands them to its script as JSON.

use serde::Serialize;

use crate::app::demo::Demo;
use crate::app::overlay::{ViewFigures, framed_region};
use crate::tour::{Stop, stops};

/// One stop, as a view shows it before it runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LessonCard {
    /// The stop's id, as the book's views name it (`data-stop`).
    pub id: &'static str,
    pub title: &'static str,
    pub claim: &'static str,
    pub source: &'static str,
    /// Where to look, in words.
    pub look_at: &'static str,
    /// One thing to try, naming its keys.
    pub hint: &'static str,
    /// The keys the hint names, each once, in order: the view's buttons.
    pub keys: Vec<&'static str>,
    /// A page can run it; where it cannot, why (and the book shows the project's picture).
    pub in_a_page: bool,
    pub cannot: Option<&'static str>,
    /// Whether it asks which of two unnamed lanes is smoother or sooner before it names
    /// them (the view's A and B buttons).
    pub asks: bool,
    /// The framed picture's width over its height, as the stop opens (its lanes, where it
    /// opens on compare mode's).
    pub aspect: f32,
}

/// Every stop of the tour, in the texts' order.
pub fn catalogue() -> Vec<LessonCard> {
    let in_a_page: Vec<&str> = stops::for_a_page().iter().map(|s| s.id).collect();
    stops::stops()
        .iter()
        .map(|stop| {
            let shown = in_a_page.contains(&stop.id);
            // A stop that asks opens on the question's two lanes; one about compare mode's
            // lanes, on its preset's.
            let lanes = match (stop.feel, stop.setup.compare) {
                (Some(pair), _) => Some(pair.lanes().len()),
                (None, Some(preset)) => Some(preset.lanes().len()),
                (None, None) => None,
            };
            let framed = framed_region(stop.focus, lanes, false).size();
            LessonCard {
                id: stop.id,
                title: stop.title,
                claim: stop.claim,
                source: stop.source,
                look_at: stop.focus.name(),
                hint: stop.hint,
                keys: keys_of(stop),
                in_a_page: shown,
                cannot: (!shown).then_some(stop.may_differ),
                asks: stop.feel.is_some(),
                aspect: framed.x / framed.y,
            }
        })
        .collect()
}

/// The keys `stop`'s hint asks for, each once, in order.
fn keys_of(stop: &Stop) -> Vec<&'static str> {
    let mut keys: Vec<&'static str> = Vec::new();
    for &key in stop.tries.map(|t| t.keys).unwrap_or_default() {
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// The current stop as it stands: what a running view shows around its picture.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LessonNow {
    pub id: &'static str,
    /// `tour 3/16: A nap on a weak GPU`.
    pub heading: String,
    /// How the stop stands (`watching for: ...`, `seen after 1.7 s: ...`), and whether it
    /// was seen (`None` while watching or trying).
    pub standing: String,
    pub seen: Option<bool>,
    /// The question, while the stop waits for the answer, and where its lanes are (the
    /// picture's own letters are small in a view); then the answer, the lanes named.
    pub asking: Option<&'static str>,
    pub which_is_which: Option<&'static str>,
    pub felt: Option<String>,
    /// The stop's loop, its claim's line lit (hidden while the stop asks: it would name a
    /// lane), and the strategy running now.
    pub code: Option<Code>,
    pub running: &'static str,
    /// The overlay's rows the stop names, as the last frame laid them out (label, value);
    /// none while compare mode's lanes are shown, whose captions carry their figures.
    pub rows: Vec<(&'static str, String)>,
    /// The lanes' captions, while they are shown, top first.
    pub lanes: Vec<String>,
    /// The framed picture's width over its height now (it changes when a stop that asked
    /// goes from the question's lanes to its own picture).
    pub aspect: f32,
    /// Frames presented so far in the run: a view sees its first picture come.
    pub presented: u64,
}

/// A stop's loop as a view shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Code {
    pub strategy: &'static str,
    pub lines: Vec<String>,
    /// Which line is lit, from 0.
    pub lit: usize,
    /// The key that turns the lit line's knob, where the stop's try has one.
    pub key: Option<&'static str>,
}

/// The tour's current stop in `demo`, with the `figures` the last frame laid out; `None`
/// off the tour.
pub fn now(demo: &Demo, figures: &ViewFigures) -> Option<LessonNow> {
    let (stop, panel) = demo.tour_stop()?;
    let framed = framed_region(stop.focus, demo.lanes_shown(), demo.knobs().overlay).size();
    Some(LessonNow {
        id: stop.id,
        heading: panel.heading,
        standing: panel.standing,
        seen: panel.seen,
        asking: panel.asking.map(|q| q.words()),
        which_is_which: panel.asking.map(|_| which_is_which(demo.knobs().overlay)),
        felt: panel.felt,
        code: panel.asking.is_none().then(|| Code {
            strategy: panel.code.strategy.id(),
            lines: panel.code.lines,
            lit: panel.code.lit,
            key: panel.code.key,
        }),
        running: demo.strategy().id(),
        rows: figures.rows.clone(),
        lanes: figures.lanes.clone(),
        aspect: framed.x / framed.y,
        presented: demo.presented_count(),
    })
}

/// Where the question's lanes A and B are in the picture.
fn which_is_which(overlay: bool) -> &'static str {
    let tiles = crate::render::lanes::lane_tiles(2, overlay);
    if tiles[1].min.x >= tiles[0].max.x {
        "A is the left lane, B the right"
    } else {
        "A is the top lane, B the bottom"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::keys::key_named;

    #[test]
    fn every_stop_has_a_card_whose_keys_are_the_windows() {
        let cards = catalogue();
        assert_eq!(cards.len(), stops::stops().len());
        for card in &cards {
            for key in &card.keys {
                assert!(key_named(key).is_some(), "{}: {key}", card.id);
                assert!(card.hint.contains(key), "{}: the hint names {key}", card.id);
            }
            assert_eq!(card.in_a_page, card.cannot.is_none(), "{}", card.id);
            assert!((1.0..=3.0 + 1e-3).contains(&card.aspect), "{}", card.id);
        }
        // The one stop a page cannot show says why, and the weak GPU's try is one key.
        let fast = cards.iter().find(|c| c.id == "as-fast-as-you-can").unwrap();
        assert_eq!(
            fast.cannot,
            Some("a page never draws faster than its display")
        );
        let weak = cards
            .iter()
            .find(|c| c.id == "a-nap-on-a-weak-gpu")
            .unwrap();
        assert_eq!(weak.keys, ["Shift+R"]);
        assert_eq!(cards.iter().filter(|c| c.asks).count(), 4);
    }
}
