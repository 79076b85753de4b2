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
    /// A page's callbacks since it settled, while they measure the rate.
    callbacks: Option<CallbacksSeen>,
}

/// The frame callbacks a page's display rate is measured over: each numbered by the
/// refreshes since the first, and the sums of a least-squares line through (number, time).
/// A callback handled late (always late, never early) is numbered by the refresh the line
/// puts it nearest, so lateness that comes and goes does not shift the numbers after it.
#[derive(Clone, Copy, Debug)]
struct CallbacksSeen {
    first: Duration,
    last: Duration,
    /// The last callback's number: the refreshes from the first to it.
    refresh: u64,
    /// The callbacks after the first.
    count: u32,
    /// Sums over the callbacks of the number, the time since the first (s), their
    /// squares and their product.
    sk: f64,
    st: f64,
    skk: f64,
    skt: f64,
}

impl CallbacksSeen {
    fn from(at: Duration) -> Self {
        Self {
            first: at,
            last: at,
            refresh: 0,
            count: 0,
            sk: 0.0,
            st: 0.0,
            skk: 0.0,
            skt: 0.0,
        }
    }

    /// A callback came at `at`, `refresh` the callbacks' average interval: numbered by the
    /// line through those before it where there are enough (the refresh it came nearest,
    /// lateness and all), otherwise by the whole refreshes since the last one.
    fn add(&mut self, at: Duration, refresh: Duration) {
        let t = (at - self.first).as_secs_f64();
        let since_last = (at - self.last).as_secs_f64() / refresh.as_secs_f64();
        let number = match self.line() {
            Some((period, offset)) if self.count >= Self::FIT_AFTER => {
                (((t - offset) / period).max(0.0) + 0.5) as u64
            }
            _ => self.refresh + (since_last + 0.5) as u64,
        };
        self.last = at;
        self.refresh = number.max(self.refresh);
        self.count += 1;
        let k = self.refresh as f64;
        self.sk += k;
        self.st += t;
        self.skk += k * k;
        self.skt += k * t;
    }

    /// Callbacks numbered by the refreshes between them before the line numbers the rest.
    const FIT_AFTER: u32 = 8;

    /// The least-squares line's slope (the refresh period) and offset, seconds.
    fn line(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.count) + 1.0;
        let sxx = self.skk - self.sk * self.sk / n;
        if sxx <= 0.0 {
            return None;
        }
        let slope = (self.skt - self.sk * self.st / n) / sxx;
        (slope > 0.0).then(|| (slope, (self.st - slope * self.sk) / n))
    }
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

    /// Callbacks a page's display rate is measured over: a second and a half at 60 Hz.
    pub const CALLBACKS_MEASURED: u32 = 90;

    /// A gap between callbacks of more refreshes than this is not a refresh missed.
    pub const MISSED_AT_MOST: u32 = 8;

    /// 60 Hz, assumed until the platform or the frames say otherwise.
    pub fn new() -> Self {
        Self {
            rate: Rate::SIXTY_HZ,
            source: RefreshSource::Assumed,
            estimator: RefreshEstimator::new(),
            callbacks: None,
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

    /// A browser's frame callback came at `at` (a page is never told the rate), while the
    /// callbacks' own average interval is `refresh`. Callbacks come once a refresh, whole
    /// refreshes apart where the page missed some, each handled late by however long the
    /// page's thread was busy. Once `settled` (the page past its start-up's first frames),
    /// the next [`CALLBACKS_MEASURED`](Self::CALLBACKS_MEASURED) callbacks measure the
    /// display: each is numbered by the whole refreshes since the first, so a missed
    /// refresh does not read as a slower display, and the period is the slope of a
    /// least-squares line through (number, time), which averages the lateness out (the
    /// timing crate's `RefreshEstimator` fits presents the same way, but takes a gap off
    /// the grid for a hitch, and a busy page's callbacks are off it often). The rate is the
    /// display's from then on, unless one was given; it is returned then, once.
    pub fn called_back(&mut self, at: Duration, refresh: Duration, settled: bool) -> Option<Rate> {
        if self.source != RefreshSource::Assumed || !settled || refresh.is_zero() {
            return None;
        }
        let Some(c) = &mut self.callbacks else {
            self.callbacks = Some(CallbacksSeen::from(at));
            return None;
        };
        let gap = at.saturating_sub(c.last);
        if gap > refresh * Self::MISSED_AT_MOST {
            // Not a refresh: the page was hidden, or a frame took that long. Start again.
            *c = CallbacksSeen::from(at);
            return None;
        }
        c.add(at, refresh);
        if c.count < Self::CALLBACKS_MEASURED {
            return None;
        }
        let rate = Rate::hz(1.0 / c.line()?.0).ok()?;
        self.source = RefreshSource::Callbacks;
        self.take(rate);
        Some(rate)
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
        for at in presents(59.94, Duration::ZERO, 120) {
            assert_eq!(display.called_back(at, at / 100, true), None);
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

    #[test]
    fn callbacks_that_missed_refreshes_measure_the_display_not_the_page() {
        // A driven 90 Hz display and a page that misses a refresh in three (its frames held
        // up by a busy machine), each callback handled up to 8 ms late (the page's thread
        // busy): an average of the intervals read 67.5 Hz; the grid is still 90.
        let period = Duration::from_secs(1) / 90;
        let mut rng = oorandom::Rand32::new(9);
        let mut display = DisplayRate::new();
        let (mut refresh, mut measured) = (0u32, Vec::new());
        for k in 0..400u32 {
            refresh += if k % 3 == 2 { 2 } else { 1 };
            let late = Duration::from_micros(u64::from(rng.rand_range(0..8000)));
            let at = period * refresh + late;
            measured.extend(display.called_back(at, period, k >= 60).map(|r| (k, r)));
        }
        assert_eq!(measured.len(), 1, "measured once: {measured:?}");
        let (k, rate) = measured[0];
        assert_eq!(
            k,
            60 + DisplayRate::CALLBACKS_MEASURED,
            "measured over the callbacks after the page settled"
        );
        assert!((rate.as_hz() / 90.0 - 1.0).abs() < 0.002, "{rate}");
        assert_eq!(
            display.report(),
            DisplayReport {
                hz: rate.as_hz(),
                source: RefreshSource::Callbacks
            }
        );
        // Nothing is measured before the page settled, and a hidden spell starts the count
        // again: after it, the whole count of callbacks is waited for.
        let mut display = DisplayRate::new();
        let mut at = Duration::ZERO;
        for _ in 0..120 {
            at += period;
            assert_eq!(display.called_back(at, period, false), None);
        }
        for _ in 0..50 {
            at += period;
            assert_eq!(display.called_back(at, period, true), None);
        }
        at += Duration::from_secs(5);
        for k in 0..DisplayRate::CALLBACKS_MEASURED {
            assert_eq!(display.called_back(at, period, true), None, "{k}");
            at += period;
        }
        assert_eq!(display.source(), RefreshSource::Assumed);
        assert!(display.called_back(at, period, true).is_some());
    }
}
