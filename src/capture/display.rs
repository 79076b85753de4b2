//! The display a capture was shown on: its refresh rate, where the capture tells it, and
//! the refreshes that showed no new frame.
//!
//! A rate is only read from display changes that wait for a refresh, and only where they
//! keep to its grid: within [`ON_GRID_MS`] of a whole number of periods, for nine in ten
//! of them (real displays' changes keep to within a tenth of a millisecond: 96% of dwm's in
//! PresentMon's gold capture, all of Far Cry New Dawn's). In order:
//!
//! 1. the rate a person gave (`--refresh`);
//! 2. the desktop compositor's (`dwm.exe`), where the file holds its presents: it waits
//!    for every refresh whatever the game does, so its grid is the display's;
//! 3. the game's own display changes, unless its presents tore (the changes then follow
//!    the game) or they keep to its frame limiter's rate (a capped game's changes follow
//!    the cap: the display is then a multiple of that rate, or not known).
//!
//! The crate's [`RefreshEstimator`] finds the grid's period, as it does for the window.
//! Where no rate is known the lab models 60 Hz, and the summary says so.

use serde::Serialize;

use super::{Capture, Compositor};
use looplab_timing::RefreshEstimator;

/// How close to a whole number of refresh periods a display change must come to keep to
/// the grid.
pub const ON_GRID_MS: f64 = 0.25;
/// The share of display changes that must keep to it.
const ON_GRID_SHARE: f64 = 0.9;
/// The fewest display changes a rate is read from.
const FEWEST: usize = 30;

/// The display a capture was shown on, as far as its frames tell.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Display {
    /// Its refresh rate, where known.
    pub hz: Option<f64>,
    /// Where the rate comes from, or why there is none.
    pub source: String,
    /// Refreshes from the first display change of the game's to its last, on that rate.
    pub refreshes: Option<u64>,
    /// Of those, refreshes that showed no new frame (the picture held).
    pub repeated: Option<u64>,
}

impl Display {
    /// A display whose rate the capture does not tell, and `source`, why: the lab then
    /// models 60 Hz.
    fn without_rate(source: String) -> Display {
        Display {
            hz: None,
            source,
            refreshes: None,
            repeated: None,
        }
    }
}

/// The display of capture `c`, at `given_hz` where a person gave it.
pub fn of(c: &Capture, given_hz: Option<f64>) -> Display {
    let changes = display_changes(c);
    let column = c.columns.screen.as_deref().unwrap_or("display times");
    let tore = c.presenting.vsync() == Some(false) && c.presenting.allows_tearing == Some(true);
    let counted = |hz: f64, source: String| {
        let grid = (!tore && !changes.is_empty()).then(|| Grid::of(&changes, hz));
        Display {
            hz: Some(hz),
            source,
            refreshes: grid.as_ref().map(|g| g.refreshes),
            repeated: grid.as_ref().map(|g| g.repeated),
        }
    };
    if let Some(hz) = given_hz {
        return counted(hz, "as given (--refresh)".into());
    }
    if let Some(dwm) = &c.compositor
        && let Some(hz) = compositor_rate(dwm, if tore { &[] } else { &changes })
    {
        return counted(
            hz,
            format!(
                "estimated from {}'s {} display changes (the compositor waits for every refresh)",
                dwm.application,
                dwm.changes_ms.len()
            ),
        );
    }
    if c.columns.screen.is_none() || changes.is_empty() {
        return Display::without_rate("the capture has no display times".into());
    }
    if tore {
        return Display::without_rate(format!(
            "its presents tore (SyncInterval 0, tearing allowed), so the changes in {column} follow the game, not a refresh"
        ));
    }
    if changes.len() < FEWEST {
        return Display::without_rate(format!(
            "{column} holds too few display changes ({}) to read a rate from",
            changes.len()
        ));
    }
    let Some(GridRate {
        hz,
        share,
        multiple,
    }) = grid_rate(&changes)
    else {
        return Display::without_rate(format!(
            "the {} display changes in {column} keep to no refresh grid (a variable-refresh display, or a game that paces them)",
            changes.len()
        ));
    };
    if let Some(cap) = &c.limiter
        && (hz / cap.fps - 1.0).abs() <= 0.01
    {
        return Display::without_rate(format!(
            "the changes in {column} follow the game's {:.0} FPS cap (the display is a multiple of {:.0} Hz, or does not show in them)",
            cap.fps, cap.fps
        ));
    }
    let least = if multiple {
        " (the least rate whose grid they keep to: the display's may be a multiple of it)"
    } else {
        ""
    };
    counted(
        hz,
        format!(
            "estimated from {} display changes ({column}), {:.0}% within {ON_GRID_MS} ms of its grid{least}",
            changes.len(),
            share * 100.0
        ),
    )
}

/// The refresh rate of a compositor's display changes, where they keep to a grid: the
/// least multiple of their rate whose grid the game's own display changes `game` keep to
/// too (a compositor with nothing new to show skips refreshes, so its own changes may come
/// at half the display's rate).
pub fn compositor_rate(dwm: &Compositor, game: &[f64]) -> Option<f64> {
    if dwm.vsync == Some(false) {
        return None;
    }
    let found = grid_rate(&dwm.changes_ms)?;
    let keeps = |changes: &[f64], hz: f64| {
        changes.is_empty()
            || Grid::of(changes, hz).on_grid as f64 / changes.len() as f64 >= ON_GRID_SHARE
    };
    (1..)
        .map(|k| found.hz * f64::from(k))
        .take_while(|&hz| hz <= HIGHEST_HZ)
        .find(|&hz| keeps(&dwm.changes_ms, hz) && keeps(game, hz))
}

/// The highest refresh rate a rate is read as.
const HIGHEST_HZ: f64 = 500.0;

/// Displays' common refresh rates, tried beside the rate the changes come at and its
/// multiples: a game held at 30 FPS on a 144 Hz display changes the picture every fourth or
/// fifth refresh, and keeps to no multiple of its own rate.
const COMMON_HZ: [f64; 16] = [
    24.0, 48.0, 50.0, 60.0, 72.0, 75.0, 90.0, 100.0, 120.0, 144.0, 165.0, 170.0, 180.0, 240.0,
    360.0, 480.0,
];

/// The rate whose grid the changes `screens` keep to, with the share on it: the least of
/// the rate the estimator finds, its multiples and the common rates that nine in ten of the
/// changes keep to, its period then fitted to them (a display sold as 144 Hz refreshes at
/// 143.86).
fn grid_rate(screens: &[f64]) -> Option<GridRate> {
    if screens.len() < FEWEST {
        return None;
    }
    let found = median_rate(screens)?;
    let multiples = (1..)
        .map(|k| found * f64::from(k))
        .take_while(|&hz| hz <= HIGHEST_HZ);
    let mut tried: Vec<f64> = multiples.chain(COMMON_HZ).collect();
    tried.sort_by(f64::total_cmp);
    let share = |hz: f64| Grid::of(screens, hz).on_grid as f64 / screens.len() as f64;
    let hz = tried.into_iter().find(|&hz| share(hz) >= ON_GRID_SHARE)?;
    let hz = fitted(screens, hz);
    Some(GridRate {
        hz,
        share: share(hz),
        multiple: (hz / found - 1.0).abs() > 0.005,
    })
}

/// The rate whose period best fits the changes `screens` on the grid of `hz`: their sum over
/// the refreshes they span.
fn fitted(screens: &[f64], hz: f64) -> f64 {
    let period = 1e3 / hz;
    let (mut ms, mut refreshes) = (0.0, 0.0);
    for s in screens {
        let whole = (s / period).round().max(1.0);
        if (s - whole * period).abs() <= ON_GRID_MS {
            ms += s;
            refreshes += whole;
        }
    }
    if ms > 0.0 { 1e3 * refreshes / ms } else { hz }
}

/// A rate display changes keep to.
struct GridRate {
    hz: f64,
    /// The share of the changes on its grid.
    share: f64,
    /// Whether it is another rate than the one the changes came at (a multiple, or a
    /// common rate they keep to).
    multiple: bool,
}

/// The times between the display changes of the frames the display showed, ms: a frame
/// not displayed changed nothing.
fn display_changes(c: &Capture) -> Vec<f64> {
    c.frames
        .iter()
        .filter(|f| f.displayed != Some(false))
        .filter_map(|f| f.screen_ms)
        .collect()
}

/// The median of the rates the estimator finds as the changes `screens` come, once it
/// has seen 30 of them (fewer give it too little to go on); `None` where it finds none.
fn median_rate(screens: &[f64]) -> Option<f64> {
    let mut estimator = RefreshEstimator::new();
    let mut at = 0.0;
    let mut rates: Vec<f64> = Vec::new();
    for (k, s) in screens.iter().enumerate() {
        at += s;
        estimator.observe(std::time::Duration::from_secs_f64(at / 1e3));
        if k >= FEWEST
            && let Some(r) = estimator.rate()
        {
            rates.push(r.as_hz());
        }
    }
    (!rates.is_empty()).then(|| crate::metrics::median(&rates))
}

/// How the display changes sit on a refresh grid: a change is on it when it comes whole
/// periods after the one before, within [`ON_GRID_MS`].
struct Grid {
    /// Changes on the grid.
    on_grid: usize,
    /// Refreshes the changes span, on the grid's rate.
    refreshes: u64,
    /// Of those, refreshes that showed no new frame.
    repeated: u64,
}

impl Grid {
    /// The changes `screens` on the grid of `hz`.
    fn of(screens: &[f64], hz: f64) -> Grid {
        let period = 1e3 / hz;
        let (mut on_grid, mut refreshes, mut repeated) = (0usize, 0u64, 0u64);
        for s in screens {
            let whole = (s / period).round().max(1.0);
            if (s - whole * period).abs() <= ON_GRID_MS {
                on_grid += 1;
            }
            refreshes += whole as u64;
            repeated += whole as u64 - 1;
        }
        Grid {
            on_grid,
            refreshes,
            repeated,
        }
    }
}
