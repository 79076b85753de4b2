//! The display's refresh rate, as snapped deltas need it: the monitor's where the windowing system
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
    /// Given on the command line (`--refresh`): kept whatever the windowing system or the frames
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

/// The frame callbacks a page's display rate is measured over: when each came, seconds
/// after the first.
#[derive(Clone, Debug)]
struct CallbacksSeen {
    first: Duration,
    last: Duration,
    times: Vec<f64>,
}

impl CallbacksSeen {
    fn from(at: Duration) -> Self {
        Self {
            first: at,
            last: at,
            times: vec![0.0],
        }
    }

    fn add(&mut self, at: Duration) {
        self.last = at;
        self.times.push(at.saturating_sub(self.first).as_secs_f64());
    }

    /// How well the times keep to a refresh grid of `hz`: the squared length of the mean
    /// of their phases on that grid, as points on the unit circle (Rayleigh's test of
    /// periodicity): 1 when every callback came at the same point of a refresh, near 0
    /// when they came anywhere. A missed refresh leaves a callback's phase alone, and
    /// lateness spreads the phases without moving the grid that fits them best.
    fn agreement(&self, hz: f64) -> f64 {
        let (mut cos, mut sin) = (0.0, 0.0);
        for &t in &self.times {
            let (s, c) = (std::f64::consts::TAU * hz * t).sin_cos();
            cos += c;
            sin += s;
        }
        let n = self.times.len() as f64;
        (cos * cos + sin * sin) / (n * n)
    }

    /// The rate, Hz, whose grid the callbacks keep to best, within a third of `near` (so
    /// neither twice nor half of it, where a grid of whole refreshes also fits): searched
    /// in steps of 0.2% of it, then of 0.001% around the best.
    fn rate(&self, near: f64) -> f64 {
        let best = |from: f64, to: f64, step: f64| {
            let steps = ((to - from) / step) as u32;
            (0..=steps)
                .map(|i| from + step * f64::from(i))
                .map(|hz| (hz, self.agreement(hz)))
                .fold((near, -1.0), |b, c| if c.1 > b.1 { c } else { b })
                .0
        };
        let coarse = best(near / 1.3, near * 1.3, near * 2e-3);
        best(coarse - near * 2e-3, coarse + near * 2e-3, near * 1e-5)
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

    /// 60 Hz, assumed until the windowing system or the frames say otherwise.
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
    /// nothing the windowing system or the frames say replaces it.
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
    /// display: the rate whose refresh grid their times keep to best (a callback is never
    /// early, so the grid is there however late some came; the timing crate's
    /// `RefreshEstimator` fits presents on a grid too, but takes a gap off it for a hitch,
    /// and a busy page's callbacks are off it often). A missed refresh does not read as a
    /// slower display, as it does in an average of the intervals. The rate is the
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
        c.add(at);
        if c.times.len() <= Self::CALLBACKS_MEASURED as usize {
            return None;
        }
        let rate = Rate::hz(c.rate(1.0 / refresh.as_secs_f64())).ok()?;
        self.source = RefreshSource::Callbacks;
        self.take(rate);
        Some(rate)
    }

    /// A frame reached the screen at `at`. `on_the_grid`: presents wait for the display and
    /// the loop keeps up with it (vsync or a compositor's pacing, and no frame cap of its
    /// own), so the time lies on the refresh grid. Where the windowing system told nothing, an
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
        // A driven 90 Hz display (a timer on a fixed grid, as the page test's): each tick
        // fires up to 8 ms late (the page's thread busy), one in seven up to 40 ms late
        // (preempted), and the ticks it overran are skipped; the page misses one tick in
        // three (its frame not done). An average of the intervals reads a far slower
        // display; the grid is still 90.
        let period = Duration::from_secs(1) / 90;
        let mut rng = oorandom::Rand32::new(9);
        let mut display = DisplayRate::new();
        let (mut tick, mut measured) = (1u32, Vec::new());
        for k in 0..400u32 {
            let late_by = if k % 7 == 3 { 40_000 } else { 8000 };
            let late = Duration::from_micros(u64::from(rng.rand_range(0..late_by)));
            let at = period * tick + late;
            tick += 1;
            while period * tick <= at {
                tick += 1;
            }
            if k % 3 == 2 {
                tick += 1;
            }
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
