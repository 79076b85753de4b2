//! How the loop reads the real time between two frames: synced to the updates (the
//! default), as measured, snapped to the display's refresh, or smoothed.
//!
//! A measured frame delta is never exactly a refresh period. On a steady 60 Hz display the
//! timer reads 16.4 ms, then 16.9 ms, then 16.6 ms; a fixed-step accumulator whose lag sits
//! near a step boundary then runs two updates in one refresh and none in the next, and the
//! picture stutters on a perfect machine. Three remedies are common, and this module has
//! each:
//!
//! - **Snapping** ([`DeltaMode::Snapped`]), as Tyler Glaiel describes in "How to make your
//!   game run at 60fps" (2018): a delta within a small tolerance of a whole number of
//!   refresh periods is read as exactly that many periods. Here the snapped frame times form
//!   a grid locked to the display, and the difference between the grid and the clock (the
//!   error snapping removed) is carried: a delta that falls off the grid is read from the
//!   last grid point, so it pays the error back and the game clock never drifts from real
//!   time by more than the tolerance.
//! - **Smoothing** ([`DeltaMode::Smoothed`]), after Godot's `delta_smoothing` and the
//!   averaging in Glaiel's article: each delta is read as the mean of the last few, with
//!   outliers (a stall, a hitch) passed through as they are, so a stall still counts in
//!   full. What the average holds back is paid back a little each frame, so the game clock
//!   stays within a fraction of a frame of real time.
//!
//! - **Timer sync** ([`DeltaMode::Synced`]), after the behaviour Godot documents for its
//!   `physics_jitter_fix`: the number of fixed updates per frame is kept at what recent
//!   frames typically ran (the totals over the last one to twelve frames each held in a
//!   band one update wide, which moves only when the real count leaves it: hysteresis),
//!   and each frame's delta is read as whatever gives that count, as long as the game
//!   clock stays within `jitter_fix` of a step from real time. Beyond that bound the count
//!   follows real time. It needs no refresh rate, so it works where nothing tells it.
//!
//! The planner applies the mode before the stall clamp, for every strategy whose game
//! clock follows real time (the accumulator strategies and `variable`).

use core::time::Duration;

use crate::accepted;
use crate::error::TimingError;
use crate::units::Rate;

/// How the loop reads the real time between frames.
///
/// The default is timer sync, [`DeltaMode::synced`], as in
/// [`LoopSettings::default`](crate::LoopSettings::default). Smoothing and timer sync are
/// built with [`DeltaMode::smoothed_over`] and [`DeltaMode::synced_within`], which refuse a
/// number they cannot run with.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum DeltaMode {
    /// As the clock measured it.
    Measured,
    /// A delta within `tolerance` of a whole number of `refresh` periods is read as exactly
    /// that, with the error carried (see the module documentation).
    Snapped {
        /// The display's refresh rate (59.94 Hz is not 60 Hz: give it as it is).
        refresh: Rate,
        /// How far from the grid a frame may start and still be snapped to it.
        tolerance: Duration,
    },
    /// The mean of the last `frames` deltas, outliers left alone.
    #[non_exhaustive]
    Smoothed {
        /// How many deltas are averaged, 2 to [`DeltaMode::MAX_SMOOTHED_FRAMES`].
        frames: u8,
    },
    /// Each delta read so the frame runs the typical number of fixed updates, the game
    /// clock kept within `jitter_fix` steps of real time (see the module documentation).
    #[non_exhaustive]
    Synced {
        /// How far the game clock may lead or trail real time, in steps, from 0 to
        /// [`DeltaMode::MAX_JITTER_FIX`]: 0.5 is Godot's default; 0 reads deltas as measured.
        jitter_fix: f32,
    },
}

impl DeltaMode {
    /// One millisecond: more than a desktop timer's noise on a frame delta, a quarter of a
    /// 240 Hz period, so a missed refresh (a whole period late) is never taken for noise.
    pub const DEFAULT_SNAP_TOLERANCE: Duration = Duration::from_millis(1);
    /// Eight frames: Godot and Glaiel average over a handful; eight irons out timer noise
    /// and follows a change of frame rate within a sixth of a second at 60 Hz.
    pub const DEFAULT_SMOOTHED_FRAMES: u8 = 8;
    /// The shortest average.
    pub const MIN_SMOOTHED_FRAMES: u8 = accepted::SMOOTHED_FRAMES.0;
    /// The longest average.
    pub const MAX_SMOOTHED_FRAMES: u8 = accepted::SMOOTHED_FRAMES.1;
    /// The widest bound timer sync takes, in steps: the top of the range Godot's editor
    /// offers for `physics_jitter_fix`. The game clock may be off real time by this much
    /// (two 60 Hz steps are 33 ms), and the wider the bound, the longer the count of
    /// updates per frame may hold against a real change of frame rate.
    pub const MAX_JITTER_FIX: f32 = accepted::MAX_JITTER_FIX;

    /// Snapping to `refresh` with the default tolerance.
    pub const fn snapped(refresh: Rate) -> Self {
        Self::Snapped {
            refresh,
            tolerance: Self::DEFAULT_SNAP_TOLERANCE,
        }
    }

    /// Godot's default bound for timer sync: half a step.
    pub const DEFAULT_JITTER_FIX: f32 = 0.5;

    /// Timer sync with the default bound.
    pub const fn synced() -> Self {
        Self::Synced {
            jitter_fix: Self::DEFAULT_JITTER_FIX,
        }
    }

    /// Timer sync keeping the game clock within `jitter_fix` steps of real time, or an
    /// error if that is not a number from 0 to [`DeltaMode::MAX_JITTER_FIX`].
    ///
    /// ```
    /// use looplab_timing::{DeltaMode, TimingError};
    ///
    /// assert_eq!(DeltaMode::synced_within(0.5), Ok(DeltaMode::synced()));
    /// // An unbounded sync would hold the count of updates forever, whatever the clock.
    /// assert_eq!(DeltaMode::synced_within(1e30), Err(TimingError::InvalidJitterFix(1e30)));
    /// assert!(DeltaMode::synced_within(f32::NAN).is_err());
    /// ```
    pub fn synced_within(jitter_fix: f32) -> Result<Self, TimingError> {
        if (0.0..=Self::MAX_JITTER_FIX).contains(&jitter_fix) {
            Ok(Self::Synced { jitter_fix })
        } else {
            Err(TimingError::InvalidJitterFix(jitter_fix))
        }
    }

    /// Smoothing over the default number of frames.
    pub const fn smoothed() -> Self {
        Self::Smoothed {
            frames: Self::DEFAULT_SMOOTHED_FRAMES,
        }
    }

    /// Smoothing over the last `frames` deltas, or an error if that is not from
    /// [`DeltaMode::MIN_SMOOTHED_FRAMES`] to [`DeltaMode::MAX_SMOOTHED_FRAMES`].
    ///
    /// ```
    /// use looplab_timing::{DeltaMode, TimingError};
    ///
    /// assert_eq!(DeltaMode::smoothed_over(8), Ok(DeltaMode::smoothed()));
    /// assert_eq!(DeltaMode::smoothed_over(64), Err(TimingError::InvalidSmoothedFrames(64)));
    /// ```
    pub fn smoothed_over(frames: u8) -> Result<Self, TimingError> {
        if (Self::MIN_SMOOTHED_FRAMES..=Self::MAX_SMOOTHED_FRAMES).contains(&frames) {
            Ok(Self::Smoothed { frames })
        } else {
            Err(TimingError::InvalidSmoothedFrames(frames))
        }
    }

    /// A short name: `measured`, `snapped`, `smoothed` or `synced`.
    pub const fn id(&self) -> &'static str {
        match self {
            Self::Measured => "measured",
            Self::Snapped { .. } => "snapped",
            Self::Smoothed { .. } => "smoothed",
            Self::Synced { .. } => "synced",
        }
    }
}

impl Default for DeltaMode {
    /// Timer sync with Godot's default bound, half a step ([`DeltaMode::synced`]).
    fn default() -> Self {
        Self::synced()
    }
}

/// The state a [`DeltaMode`] needs between frames: the snapping grid, the recent deltas and
/// the time the average still owes. Kept by [`GameClock`](crate::GameClock).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct DeltaReader {
    /// The last frame start as the loop read it (on the grid while snapping).
    read_at: Option<Duration>,
    /// Recent deltas in nanoseconds, a ring of `len` entries ending before `next`.
    recent: [u64; DeltaMode::MAX_SMOOTHED_FRAMES as usize],
    len: usize,
    next: usize,
    /// Outliers in a row: a third starts the average afresh (the frame rate changed).
    outliers: u8,
    /// The number of deltas averaged when the ring was filled.
    window: usize,
    /// Nanoseconds measured but not yet read (negative: read ahead of the clock).
    owed: i128,
    /// Timer sync's record of recent frames.
    sync: SyncState,
}

impl Default for DeltaReader {
    fn default() -> Self {
        Self::new()
    }
}

impl DeltaReader {
    pub(crate) const fn new() -> Self {
        Self {
            read_at: None,
            recent: [0; DeltaMode::MAX_SMOOTHED_FRAMES as usize],
            len: 0,
            next: 0,
            outliers: 0,
            window: 0,
            owed: 0,
            sync: SyncState::new(),
        }
    }

    /// Outliers in a row after which the frame rate is taken to have changed.
    const NEW_RATE_AFTER: u8 = 3;

    /// The delta the loop reads for the frame starting at `now`, `measured` after the
    /// previous frame (the clock's own reading, already guarded against going backwards).
    /// `step` and `lag` (the fixed step and the time owed before this frame) are what timer
    /// sync counts updates with.
    pub(crate) fn read(
        &mut self,
        now: Duration,
        measured: Duration,
        mode: DeltaMode,
        step: Duration,
        lag: Duration,
    ) -> Duration {
        if !matches!(mode, DeltaMode::Synced { .. }) {
            self.sync = SyncState::new();
        }
        let read = match (mode, self.read_at) {
            (_, None) | (DeltaMode::Measured, _) => {
                self.forget_average();
                self.owed = 0;
                measured
            }
            (DeltaMode::Synced { jitter_fix }, Some(_)) => {
                self.forget_average();
                self.owed = 0;
                self.sync.read(measured, step, lag, jitter_fix)
            }
            (DeltaMode::Snapped { refresh, tolerance }, Some(at)) => {
                self.forget_average();
                self.owed = 0;
                snap(now.saturating_sub(at), refresh.period(), tolerance)
            }
            (DeltaMode::Smoothed { frames }, Some(_)) => self.smooth(measured, frames),
        };
        // The next delta is read from where this one left the loop's clock: on the grid
        // while snapping, at the measured time otherwise.
        self.read_at = Some(match (mode, self.read_at) {
            (DeltaMode::Snapped { .. }, Some(at)) => at.saturating_add(read),
            (_, Some(at)) => at.max(now),
            (_, None) => now,
        });
        read
    }

    /// Starts afresh from `now`: after a resync, when the time before is not to be counted.
    pub(crate) fn resync(&mut self, now: Duration) {
        self.read_at = Some(now);
        self.forget_average();
        self.owed = 0;
        self.sync.error = 0;
    }

    /// Empties the average (what it owes is still paid).
    fn forget_average(&mut self) {
        self.len = 0;
        self.next = 0;
        self.outliers = 0;
    }

    fn smooth(&mut self, measured: Duration, frames: u8) -> Duration {
        let window = usize::from(frames.clamp(
            DeltaMode::MIN_SMOOTHED_FRAMES,
            DeltaMode::MAX_SMOOTHED_FRAMES,
        ));
        if window != self.window {
            // A new length of average: the ring's order no longer holds.
            self.forget_average();
            self.window = window;
        }
        let x = u64::try_from(measured.as_nanos()).unwrap_or(u64::MAX);
        if self.len > 0 {
            let mean = self.mean();
            // Half as long again as the recent mean, or a third shorter: a stall, a hitch, a
            // missed refresh or a new frame rate, not noise.
            if x.saturating_mul(2) > mean.saturating_mul(3)
                || x.saturating_mul(3) < mean.saturating_mul(2)
            {
                self.outliers += 1;
                if self.outliers >= Self::NEW_RATE_AFTER {
                    self.forget_average();
                    self.push(x, window);
                }
                return measured;
            }
        }
        self.outliers = 0;
        self.push(x, window);
        // The mean, plus a share of what earlier averages held back, so the sum of what is
        // read follows the sum of what was measured.
        // Never more than a quarter of a frame is owed: beyond that the rest is paid at once.
        let mean = i128::from(self.mean());
        let mut read = (mean + self.owed / window as i128).max(0);
        let owed = self.owed + i128::from(x) - read;
        let limit = mean / 4;
        let excess = owed - owed.clamp(-limit, limit);
        read += excess;
        self.owed = owed - excess;
        Duration::from_nanos(u64::try_from(read.max(0)).unwrap_or(u64::MAX))
    }

    fn push(&mut self, x: u64, window: usize) {
        self.recent[self.next] = x;
        self.next = (self.next + 1) % window;
        self.len = (self.len + 1).min(window);
    }

    fn mean(&self) -> u64 {
        let sum: u128 = self.recent[..self.len].iter().map(|&x| u128::from(x)).sum();
        u64::try_from(sum / self.len.max(1) as u128).unwrap_or(u64::MAX)
    }
}

/// Timer sync's state: how far the game clock leads real time, and the updates recent
/// frames ran.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SyncState {
    /// Nanoseconds read beyond what was measured (negative: behind real time).
    error: i128,
    /// Updates run by the last frames, newest first.
    counts: [u32; SyncState::FRAMES],
    len: usize,
    /// For each run of the last `i + 1` frames, the low edge of the band its total of
    /// updates is kept in (the band is one update wide).
    typical: [u64; SyncState::FRAMES],
}

impl SyncState {
    /// Frames of history: Godot's timer sync looks back about a dozen frames.
    const FRAMES: usize = 12;

    const fn new() -> Self {
        Self {
            error: 0,
            counts: [0; Self::FRAMES],
            len: 0,
            typical: [0; Self::FRAMES],
        }
    }

    /// The delta to read for a frame `measured` long, when the accumulator owes `lag` and
    /// pays it in `step`s.
    fn read(
        &mut self,
        measured: Duration,
        step: Duration,
        lag: Duration,
        jitter_fix: f32,
    ) -> Duration {
        let (d, s, lag): (i128, i128, i128) = (
            measured.as_nanos() as i128,
            step.as_nanos() as i128,
            lag.as_nanos() as i128,
        );
        let bound = (f64::from(jitter_fix.max(0.0)) * s as f64) as i128;
        if s == 0 || bound == 0 {
            self.error = 0;
            return measured;
        }
        // The reads the error bound allows, and the update counts they give.
        let lo = (d - self.error - bound).max(0);
        let hi = (d - self.error + bound).max(0);
        let count = |read: i128| ((lag + read) / s) as u64;
        if (lag + hi) / s > i128::from(u32::MAX) {
            // More updates than a frame's count holds (a clock that jumped by years): not
            // jitter to sync away. Read as measured; the stall clamp takes the rest.
            self.error = 0;
            return measured;
        }
        let (fewest, most) = (count(lo), count(hi));
        // The count that pays the error back in full, kept in the typical band.
        // Where the band and the bound disagree, the bound wins: the band's nearest edge
        // within it.
        let (band_lo, band_hi) = self.band();
        let n = count((d - self.error).max(0))
            .clamp(band_lo.clamp(fewest, most), band_hi.clamp(fewest, most));
        // The read giving exactly `n` updates that comes closest to paying the error back.
        let first = n as i128 * s - lag;
        let last = (n as i128 + 1) * s - lag - 1;
        let read = (d - self.error).clamp(first.max(lo), last.min(hi));
        self.error += read - d;
        self.record(u32::try_from(n).unwrap_or(u32::MAX));
        Duration::from_nanos(u64::try_from(read.max(0)).unwrap_or(u64::MAX))
    }

    /// The counts this frame may run and keep every recent run of frames in its band.
    fn band(&self) -> (u64, u64) {
        let (mut lo, mut hi) = (0u64, u64::MAX);
        let mut before = 0u64; // updates in the frames before this one in the run
        for i in 0..self.len {
            // The run of `i + 1` frames ending with this one.
            lo = lo.max(self.typical[i].saturating_sub(before));
            hi = hi.min((self.typical[i] + 1).saturating_sub(before));
            before += u64::from(self.counts[i]);
        }
        (lo, hi.max(lo))
    }

    /// Records a frame of `n` updates and moves each band only as far as its total left it.
    fn record(&mut self, n: u32) {
        self.counts.copy_within(0..Self::FRAMES - 1, 1);
        self.counts[0] = n;
        let seen = self.len;
        self.len = (self.len + 1).min(Self::FRAMES);
        let mut total = 0u64;
        for i in 0..self.len {
            total += u64::from(self.counts[i]);
            if i >= seen {
                // A run this long is seen for the first time: its band starts at its total.
                self.typical[i] = total;
            } else if total < self.typical[i] {
                self.typical[i] = total;
            } else if total > self.typical[i] + 1 {
                self.typical[i] = total - 1;
            }
        }
    }
}

/// `since` (time from the last grid point) as a whole number of `period`s when it is within
/// `tolerance` of one, at least one; as it is otherwise.
fn snap(since: Duration, period: Duration, tolerance: Duration) -> Duration {
    let (since_ns, period_ns) = (since.as_nanos(), period.as_nanos().max(1));
    let k = (since_ns + period_ns / 2) / period_ns;
    if k == 0 {
        return since;
    }
    let on_grid = k * period_ns;
    if on_grid.abs_diff(since_ns) <= tolerance.as_nanos() {
        Duration::from_nanos(u64::try_from(on_grid).unwrap_or(u64::MAX))
    } else {
        since
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn us(x: u64) -> Duration {
        Duration::from_micros(x)
    }

    /// Feeds frame start times through a reader; returns the deltas read.
    fn read_all(mode: DeltaMode, starts: &[Duration]) -> (Vec<Duration>, DeltaReader) {
        let mut r = DeltaReader::new();
        let mut last: Option<Duration> = None;
        let reads = starts
            .iter()
            .map(|&now| {
                let measured = last.map_or(Duration::ZERO, |l| now.saturating_sub(l));
                last = Some(now);
                r.read(
                    now,
                    measured,
                    mode,
                    Duration::from_nanos(16_666_667),
                    Duration::ZERO,
                )
            })
            .collect();
        (reads, r)
    }

    #[test]
    fn snapping_reads_noisy_refreshes_as_whole_periods_and_carries_the_error() {
        let hz60 = Rate::hz(60.0).unwrap();
        let period = hz60.period();
        // Refreshes at multiples of the period, each read up to 0.4 ms early or late, one
        // frame missing a refresh (two periods).
        let offsets: [i64; 8] = [0, 300, -400, 100, 0, -200, 400, 0];
        let ticks = [0u32, 1, 2, 3, 5, 6, 7, 8];
        let starts: Vec<Duration> = ticks
            .iter()
            .zip(offsets)
            .map(|(&k, o)| {
                Duration::from_nanos((period.as_nanos() as i64 * k as i64 + o * 1000) as u64)
            })
            .collect();
        let (reads, r) = read_all(DeltaMode::snapped(hz60), &starts);
        assert_eq!(reads[0], Duration::ZERO);
        assert_eq!(&reads[1..4], &[period; 3]);
        assert_eq!(reads[4], period * 2, "a missed refresh is two periods");
        assert_eq!(&reads[5..], &[period; 3]);
        assert_eq!(r.read_at, Some(period * 8), "on the grid, no drift");
    }

    #[test]
    fn a_delta_off_the_grid_pays_back_what_snapping_held() {
        // The display is really 59.94 Hz but snapping assumes 60 Hz: each frame the grid
        // falls 16.7 us further behind the clock until a frame is off it by more than the
        // tolerance; that frame is read from the grid, so it pays back the whole difference.
        let hz60 = Rate::hz(60.0).unwrap();
        let real = Rate::hz(59.94).unwrap().period();
        let starts: Vec<Duration> = (0..200u32).map(|k| real * k).collect();
        let (reads, r) = read_all(
            DeltaMode::Snapped {
                refresh: hz60,
                tolerance: us(500),
            },
            &starts,
        );
        let total: Duration = reads.iter().sum();
        let behind = starts[199] - total;
        assert!(
            behind <= us(500),
            "the game clock stays within the tolerance: {behind:?}"
        );
        assert_eq!(r.read_at, Some(total));
        let off_grid = reads
            .iter()
            .skip(1)
            .filter(|&&d| d != hz60.period())
            .count();
        assert!(
            (5..=7).contains(&off_grid),
            "one resync every ~30 frames: {off_grid}"
        );
    }

    #[test]
    fn snapping_leaves_a_fast_or_odd_frame_as_measured() {
        let hz60 = Rate::hz(60.0).unwrap();
        let starts = [us(0), us(2_000), us(12_000), us(40_000)];
        let (reads, _) = read_all(DeltaMode::snapped(hz60), &starts);
        assert_eq!(&reads[1..], &[us(2_000), us(10_000), us(28_000)]);
    }

    #[test]
    fn smoothing_averages_noise_and_keeps_the_sum() {
        // 16.7 ms frames read 2 ms early or late alternately.
        let mut t = Duration::ZERO;
        let mut starts = vec![t];
        for i in 0..400u32 {
            t += if i % 2 == 0 { us(14_667) } else { us(18_667) };
            starts.push(t);
        }
        let (reads, _) = read_all(DeltaMode::smoothed(), &starts);
        let late = &reads[50..];
        let spread = late
            .iter()
            .max()
            .unwrap()
            .saturating_sub(*late.iter().min().unwrap());
        assert!(spread < us(600), "4 ms of noise smoothed to {spread:?}");
        let total: Duration = reads.iter().sum();
        assert!(
            t.abs_diff(total) < us(17_000),
            "within a frame: {:?}",
            t.abs_diff(total)
        );
    }

    #[test]
    fn smoothing_passes_a_stall_through_whole_and_follows_a_new_rate() {
        let mut starts = vec![Duration::ZERO];
        let mut t = Duration::ZERO;
        let mut push = |d: Duration, n: usize, starts: &mut Vec<Duration>| {
            for _ in 0..n {
                t += d;
                starts.push(t);
            }
        };
        push(us(16_667), 20, &mut starts);
        push(us(500_000), 1, &mut starts); // a stall
        push(us(16_667), 20, &mut starts);
        push(us(33_333), 20, &mut starts); // now at 30 FPS
        let (reads, _) = read_all(DeltaMode::smoothed(), &starts);
        assert_eq!(reads[21], us(500_000), "the stall counts in full");
        assert!(reads[22].abs_diff(us(16_667)) < us(10), "{:?}", reads[22]);
        let last = reads[reads.len() - 1];
        assert!(
            last.abs_diff(us(33_333)) < us(100),
            "follows 30 FPS: {last:?}"
        );
    }

    #[test]
    fn measured_is_the_identity() {
        let starts = [us(0), us(16_000), us(40_000)];
        let (reads, _) = read_all(DeltaMode::Measured, &starts);
        assert_eq!(reads, [us(0), us(16_000), us(24_000)]);
    }

    /// Runs catch-up at 60 updates a second on a display of `hz`, presenting every
    /// `every`th refresh, the clock read with up to `noise` of error; returns the updates
    /// of each frame after the first second and the largest gap between game and real
    /// time.
    fn synced_run(mode: DeltaMode, hz: f64, every: u32, noise: Duration) -> (Vec<u32>, Duration) {
        use crate::{LoopSettings, Planner, Strategy};
        let settings = LoopSettings::default().with_delta_mode(mode);
        let mut planner = Planner::new(Strategy::CatchUp, settings);
        let period = Duration::from_secs_f64(1.0 / hz) * every;
        let mut seed = 11u64;
        let mut counts = Vec::new();
        let mut drift = Duration::ZERO;
        let start = Duration::from_secs(1);
        for k in 0..(30.0 * hz) as u32 / every {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let unit = (seed >> 11) as f64 / (1u64 << 53) as f64;
            let jitter = ((unit * 2.0 - 1.0) * noise.as_nanos() as f64) as i64;
            let now =
                Duration::from_nanos(((start + period * k).as_nanos() as i64 + jitter) as u64);
            let plan = planner.plan_frame(now);
            if k as f64 * period.as_secs_f64() > 1.0 {
                counts.push(plan.updates);
                drift = drift.max(plan.game_now.abs_diff(now - start));
            }
        }
        (counts, drift)
    }

    #[test]
    fn timer_sync_runs_one_update_a_refresh_on_a_noisy_60_hz_display() {
        let noise = Duration::from_micros(500);
        let (measured, _) = synced_run(DeltaMode::Measured, 60.0, 1, noise);
        let uneven = measured.iter().filter(|&&n| n != 1).count();
        assert!(uneven > 100, "measured deltas double and skip: {uneven}");
        let (synced, drift) = synced_run(DeltaMode::synced(), 60.0, 1, noise);
        assert!(synced.iter().all(|&n| n == 1), "{:?}", &synced[..40]);
        let half_step = Duration::from_nanos(8_333_334);
        assert!(drift <= half_step + noise, "drift {drift:?}");
    }

    #[test]
    fn timer_sync_keeps_whole_patterns_at_other_rates() {
        let noise = Duration::from_micros(500);
        // A frame every other refresh: two updates each, never one or three.
        let (counts, drift) = synced_run(DeltaMode::synced(), 60.0, 2, noise);
        assert!(counts.iter().all(|&n| n == 2), "{:?}", &counts[..40]);
        assert!(drift < Duration::from_millis(9));
        // 144 Hz: 60 updates spread over 144 refreshes, never two in one, never more than
        // two refreshes in a row without one (5 updates in every 12 frames).
        let (counts, drift) = synced_run(DeltaMode::synced(), 144.0, 1, noise);
        assert!(counts.iter().all(|&n| n <= 1));
        for run in counts.windows(12) {
            let total: u32 = run.iter().sum();
            assert!((4..=6).contains(&total), "{run:?}");
        }
        assert!(drift < Duration::from_millis(9));
        // 59.94 Hz: the game keeps real time, so one refresh in a thousand shows two.
        let (counts, drift) = synced_run(DeltaMode::synced(), 59.94, 1, noise);
        let doubles = counts.iter().filter(|&&n| n == 2).count();
        let skips = counts.iter().filter(|&&n| n == 0).count();
        assert!(
            doubles <= 3 && skips == 0,
            "{doubles} doubles, {skips} skips"
        );
        assert!(drift < Duration::from_millis(9));
    }

    #[test]
    fn timer_sync_lets_a_stall_through_and_zero_bound_is_measured() {
        let (counts, _) = synced_run(
            DeltaMode::Synced { jitter_fix: 0.0 },
            60.0,
            1,
            Duration::from_micros(500),
        );
        assert!(
            counts.iter().filter(|&&n| n != 1).count() > 100,
            "0 reads as measured"
        );
        use crate::{LoopSettings, Planner, Strategy};
        let mut p = Planner::new(
            Strategy::CatchUp,
            LoopSettings::default().with_delta_mode(DeltaMode::synced()),
        );
        let period = Duration::from_nanos(16_666_667);
        for k in 0..60u32 {
            p.plan_frame(period * k);
        }
        // A 100 ms stall: the game clock still keeps within half a step of real time.
        let plan = p.plan_frame(period * 59 + Duration::from_millis(100));
        assert!(plan.updates >= 5, "{}", plan.updates);
        assert!(plan.game_now.abs_diff(plan.now) <= period / 2);
    }
}
