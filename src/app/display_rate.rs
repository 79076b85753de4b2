//! The display's refresh rate, as snapped deltas need it: the monitor's where the platform
//! tells it, otherwise estimated from when frames reached the screen.
//!
//! X11 tells the monitor's rate through winit. Wayland may not (it reports an output's
//! mode, late or not at all; Weston's headless output reports none). There the frames
//! themselves say it: when presents wait for the display (vsync, a compositor's frame
//! callbacks) they land on its refresh grid, and the timing crate's [`RefreshEstimator`]
//! fits the grid's period. A browser never tells it either; there the page's frame
//! callbacks ([`FrameCallbacks`](looplab_timing::FrameCallbacks)) measure it.

use std::time::Duration;

use looplab_timing::{Rate, RefreshEstimator};
use serde::{Deserialize, Serialize};

/// Where the rate in use came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RefreshSource {
    /// Nothing told it yet: 60 Hz, the commonest display.
    Assumed,
    /// The platform reported the monitor's mode.
    Monitor,
    /// Estimated from the frames' presents.
    Presents,
    /// Measured from the browser's frame callbacks (`requestAnimationFrame`), which come
    /// once a refresh.
    Callbacks,
    /// Given on the command line (`--refresh`): kept whatever the platform or the frames
    /// say.
    Given,
}

/// The display's refresh rate and where it came from.
#[derive(Clone, Debug)]
pub struct DisplayRate {
    rate: Rate,
    source: RefreshSource,
    estimator: RefreshEstimator,
}

impl Default for DisplayRate {
    fn default() -> Self {
        Self::new()
    }
}

/// The display rate as `--stats` reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DisplayReport {
    pub hz: f64,
    pub source: RefreshSource,
}

impl DisplayRate {
    /// An estimate is taken once it differs from the rate in use by more than this share:
    /// half the gap between 60 and 59.94 Hz, and two and a half times the estimator's
    /// precision, so the estimate's last digits do not change the loop's settings every
    /// second.
    pub const CHANGE: f64 = 5e-4;

    /// 60 Hz, assumed until the platform or the frames say otherwise.
    pub fn new() -> Self {
        Self {
            rate: Rate::SIXTY_HZ,
            source: RefreshSource::Assumed,
            estimator: RefreshEstimator::new(),
        }
    }

    /// The rate in use.
    pub fn rate(&self) -> Rate {
        self.rate
    }

    pub fn source(&self) -> RefreshSource {
        self.source
    }

    /// The person running the window gave the display's rate: it is used from now on, and
    /// nothing the platform or the frames say replaces it.
    pub fn given(&mut self, rate: Rate) -> Option<Rate> {
        self.source = RefreshSource::Given;
        self.take(rate)
    }

    /// The platform reported the monitor's rate: it is used from now on, unless one was
    /// given.
    pub fn told(&mut self, rate: Rate) -> Option<Rate> {
        if self.source == RefreshSource::Given {
            return None;
        }
        self.source = RefreshSource::Monitor;
        self.take(rate)
    }

    /// The browser's frame callbacks measured the rate (a page is never told it): it is
    /// used from now on, unless one was given.
    pub fn measured(&mut self, rate: Rate) -> Option<Rate> {
        if self.source == RefreshSource::Given {
            return None;
        }
        self.source = RefreshSource::Callbacks;
        self.take(rate)
    }

    /// A frame reached the screen at `at`. `on_the_grid`: presents wait for the display and
    /// the loop keeps up with it (vsync or a compositor's pacing, and no frame cap of its
    /// own), so the time lies on the refresh grid. Where the platform told nothing, an
    /// estimate that moved is taken, and returned.
    pub fn presented(&mut self, at: Duration, on_the_grid: bool) -> Option<Rate> {
        if matches!(
            self.source,
            RefreshSource::Monitor | RefreshSource::Callbacks | RefreshSource::Given
        ) {
            return None;
        }
        if !on_the_grid {
            // Frames off the grid say nothing; the gap until the next one on it is a hitch
            // to the estimator, which starts a new run of its fit.
            return None;
        }
        self.estimator.observe(at);
        let estimate = self.estimator.rate()?;
        // A loop too slow for the display presents every second or third refresh, and its
        // presents keep a grid of that many periods: a whole fraction of the rate in use is
        // taken for the loop's pace, not the display's. (A window moved to a display of
        // half the rate looks the same; snapping to the finer grid is right for both,
        // where snapping to the coarser one would halve the grid of a loop that keeps up.)
        let times = self.rate.as_hz() / estimate.as_hz();
        if times > 1.5 && (times - (times + 0.5).floor()).abs() < 0.03 {
            return None;
        }
        let moved = (estimate.as_hz() / self.rate.as_hz() - 1.0).abs() > Self::CHANGE;
        if self.source == RefreshSource::Assumed || moved {
            self.source = RefreshSource::Presents;
            return self.take(estimate);
        }
        None
    }

    fn take(&mut self, rate: Rate) -> Option<Rate> {
        let changed = rate != self.rate;
        self.rate = rate;
        changed.then_some(rate)
    }

    pub fn report(&self) -> DisplayReport {
        DisplayReport {
            hz: self.rate.as_hz(),
            source: self.source,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Presents of a display of `hz`, each read up to 0.5 ms late (a seeded generator's
    /// noise), from `from` for `frames`.
    fn presents(hz: f64, from: Duration, frames: u32) -> impl Iterator<Item = Duration> {
        let period = Duration::from_secs_f64(1.0 / hz);
        let mut rng = oorandom::Rand32::new(u64::from(frames));
        (0..frames).map(move |k| {
            from + period * k + Duration::from_micros(u64::from(rng.rand_range(0..500)))
        })
    }

    #[test]
    fn presents_on_the_grid_set_the_rate_where_the_platform_tells_nothing() {
        let mut display = DisplayRate::new();
        assert_eq!(
            (display.rate(), display.source()),
            (Rate::SIXTY_HZ, RefreshSource::Assumed)
        );
        let mut taken = Vec::new();
        for at in presents(59.94, Duration::ZERO, 120) {
            taken.extend(display.presented(at, true));
        }
        assert_eq!(display.source(), RefreshSource::Presents);
        assert!(
            (display.rate().as_hz() - 59.94).abs() < 0.03,
            "{}",
            display.rate()
        );
        // Taken once, not every frame as the estimate's last digits move.
        assert!(taken.len() <= 2, "{taken:?}");

        // The window moves to a 144 Hz monitor: followed.
        let later = Duration::from_secs(2);
        for at in presents(144.0, later, 300) {
            display.presented(at, true);
        }
        assert!(
            (display.rate().as_hz() - 144.0).abs() < 0.03,
            "{}",
            display.rate()
        );
    }

    #[test]
    fn a_loop_presenting_every_other_refresh_is_not_taken_for_a_slower_display() {
        let mut display = DisplayRate::new();
        for at in presents(144.0, Duration::ZERO, 300) {
            display.presented(at, true);
        }
        assert!(
            (display.rate().as_hz() - 144.0).abs() < 0.1,
            "{}",
            display.rate()
        );
        // A heavy scene: every other refresh, steadily. The display is still 144 Hz.
        for at in presents(72.0, Duration::from_secs(3), 200) {
            assert_eq!(display.presented(at, true), None);
        }
        assert!(
            (display.rate().as_hz() - 144.0).abs() < 0.1,
            "{}",
            display.rate()
        );
        // Assumed 60 Hz and presents at 30: the same.
        let mut display = DisplayRate::new();
        for at in presents(30.0, Duration::ZERO, 120) {
            display.presented(at, true);
        }
        assert_eq!(
            (display.rate(), display.source()),
            (Rate::SIXTY_HZ, RefreshSource::Assumed)
        );
    }

    #[test]
    fn frames_off_the_grid_and_a_told_rate_are_not_second_guessed() {
        let mut display = DisplayRate::new();
        // A loop of its own pace (vsync off): nothing learnt.
        for at in presents(37.0, Duration::ZERO, 200) {
            assert_eq!(display.presented(at, false), None);
        }
        assert_eq!(display.source(), RefreshSource::Assumed);

        let mut display = DisplayRate::new();
        let monitor = Rate::hz(75.0).unwrap();
        assert_eq!(display.told(monitor), Some(monitor));
        for at in presents(59.94, Duration::ZERO, 200) {
            assert_eq!(display.presented(at, true), None);
        }
        assert_eq!(
            (display.rate(), display.source()),
            (monitor, RefreshSource::Monitor)
        );
        assert_eq!(display.report().source, RefreshSource::Monitor);
    }

    #[test]
    fn a_window_moved_to_another_display_takes_its_rate_once() {
        let mut display = DisplayRate::new();
        let (sixty, one_forty_four) = (Rate::SIXTY_HZ, Rate::hz(144.0).unwrap());
        // A 60 Hz monitor says what the assumed rate already was: nothing to change.
        assert_eq!(display.told(sixty), None);
        // Moved to a 144 Hz one: taken once, however often the move is reported.
        assert_eq!(display.told(one_forty_four), Some(one_forty_four));
        assert_eq!(display.told(one_forty_four), None);
        assert_eq!(display.rate(), one_forty_four);
        // And back.
        assert_eq!(display.told(sixty), Some(sixty));
    }

    #[test]
    fn a_rate_given_stands_whatever_the_platform_the_callbacks_or_the_presents_say() {
        let thirty = Rate::hz(30.0).unwrap();
        let mut display = DisplayRate::new();
        assert_eq!(display.given(thirty), Some(thirty));
        assert_eq!(display.told(Rate::SIXTY_HZ), None);
        assert_eq!(display.measured(Rate::hz(144.0).unwrap()), None);
        for at in presents(59.94, Duration::ZERO, 120) {
            assert_eq!(display.presented(at, true), None);
        }
        assert_eq!(
            display.report(),
            DisplayReport {
                hz: 30.0,
                source: RefreshSource::Given
            }
        );
    }
}
