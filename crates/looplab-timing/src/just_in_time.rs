//! Just in time: start each frame as late as the display allows, so the input it reads is
//! as fresh as it can be when its picture is shown.

use core::time::Duration;

use crate::plan::Wake;

/// Paces a loop so that each frame starts "just in time" for the refresh that will show it.
///
/// Under vsync a loop that starts its next frame as soon as the last one is presented
/// builds it early, and the frame then waits for its refresh, holding input that is most of
/// a refresh old by the time it is seen. The latency work of the field (NVIDIA Reflex,
/// AMD Anti-Lag 2, bevy_framepace) answers the same way: learn what a frame costs, know
/// when the display refreshes, and sleep *before* reading input until just enough time is
/// left to build the frame. This is that controller, with no clock and no platform:
///
/// - **What a frame costs** is learnt from the last [`JustInTime::SAMPLES`] frames: the
///   second-longest of them (a high quantile, about the 97th percentile), so one hitch does
///   not move it and a frame that often runs long does. Time the frame spent blocked (in
///   acquiring a surface texture, or in a present that waits for the display) is not
///   cost: it is the slack the controller is there to take away.
/// - **When the display refreshes** is the grid the caller gives ([`JustInTime::set_grid`]):
///   its period and one refresh on the loop's clock, as a
///   [`RefreshEstimator`](crate::RefreshEstimator) or the platform says.
/// - **The margin** on top of the cost backs off fast and comes back slowly: a frame that
///   missed the refresh it aimed at doubles it (plus half a millisecond), and every
///   [`JustInTime::RELAX_AFTER`] frames on time take a thirty-second off it, down to
///   [`JustInTime::MIN_MARGIN`]. So the controller settles where frames just make it, and
///   a machine that slows down for good costs two missed refreshes (the second long frame
///   moves the cost), not a run of them.
///
/// Each frame aims at the refresh after the one that shows the frame before it. Where the
/// lead (cost and margin) leaves no time to wait, as for a frame that costs more than a
/// refresh, the next frame starts as soon as the last one is handed over, and the display
/// paces it. Until the grid is known and [`JustInTime::WARM_UP`] frames have been measured,
/// it leaves the loop's own wake time as it is.
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{JustInTime, Wake};
///
/// let period = Duration::from_nanos(16_666_667); // 60 Hz
/// let mut jit = JustInTime::new();
/// jit.set_grid(period, Duration::ZERO);
/// let cost = Duration::from_millis(4);
/// let mut start = Duration::ZERO;
/// for _ in 0..120 {
///     let submitted = start + cost;
///     jit.frame_done(cost, submitted);
///     start = match jit.pace(submitted, Wake::Immediately) {
///         Wake::At(t) => t,
///         Wake::Immediately => submitted,
///     };
/// }
/// // The frame now starts a little over 4 ms before the refresh that shows it, where a
/// // loop that went straight on would start about 16.7 ms before it.
/// let lead = jit.lead().unwrap();
/// assert!(lead >= cost && lead < cost + Duration::from_millis(1), "{lead:?}");
/// assert_eq!(jit.missed(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct JustInTime {
    /// The last frames' costs in nanoseconds, a ring.
    costs: [u64; JustInTime::SAMPLES],
    len: usize,
    next: usize,
    margin: Duration,
    /// Frames on time since the margin last changed.
    on_time: u32,
    /// The display's period and one of its refreshes, on the loop's clock.
    grid: Option<(Duration, Duration)>,
    /// The refresh the frame in progress aims to be presented before.
    target: Option<Duration>,
    /// The refresh that shows the last frame handed over.
    last_shown: Option<Duration>,
    missed: u64,
    /// How the margin is kept.
    policy: Margin,
}

/// How a [`JustInTime`] keeps the margin it adds to a frame's learnt cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Margin {
    /// The controller's own: doubled on a missed refresh, shrunk slowly while frames are on
    /// time, never below `least`.
    Adaptive {
        /// The floor: [`JustInTime::MIN_MARGIN`] unless chosen.
        least: Duration,
    },
    /// One margin that never moves, as a frame limiter's fixed safety margin: what the
    /// controller is measured against.
    Fixed(Duration),
}

impl Default for JustInTime {
    fn default() -> Self {
        Self::new()
    }
}

impl JustInTime {
    /// How many recent frames the cost is learnt from.
    pub const SAMPLES: usize = 64;
    /// Frames measured before it paces at all.
    pub const WARM_UP: usize = 8;
    /// The least margin it keeps on top of the cost.
    pub const MIN_MARGIN: Duration = Duration::from_micros(250);
    /// What a missed refresh adds to twice the margin.
    pub const MISS_STEP: Duration = Duration::from_micros(500);
    /// Frames on time after which the margin shrinks by a thirty-second.
    pub const RELAX_AFTER: u32 = 16;

    /// A controller that knows no grid and no cost yet.
    pub const fn new() -> Self {
        Self {
            costs: [0; Self::SAMPLES],
            len: 0,
            next: 0,
            margin: Self::MIN_MARGIN,
            on_time: 0,
            grid: None,
            target: None,
            last_shown: None,
            missed: 0,
            policy: Margin::Adaptive {
                least: Self::MIN_MARGIN,
            },
        }
    }

    /// The same controller keeping its margin by `policy`.
    pub const fn with_margin(mut self, policy: Margin) -> Self {
        self.margin = match policy {
            Margin::Adaptive { least } | Margin::Fixed(least) => least,
        };
        self.policy = policy;
        self
    }

    /// The display refreshes every `period`, one refresh falling at `refresh` on the
    /// loop's clock. A zero period forgets the grid.
    pub fn set_grid(&mut self, period: Duration, refresh: Duration) {
        self.grid = (!period.is_zero()).then_some((period, refresh));
    }

    /// Forgets the grid (the display changed, or the window was hidden); the cost and the
    /// margin are kept.
    pub fn clear_grid(&mut self) {
        self.grid = None;
        self.target = None;
        self.last_shown = None;
    }

    /// A frame that took `cost` of work (blocking waits left out) was ready to be shown at
    /// `submitted` (handed to the display: where the GPU's end is not known, when the
    /// present returned). Returns whether it missed the refresh it aimed at.
    pub fn frame_done(&mut self, cost: Duration, submitted: Duration) -> bool {
        self.last_shown = self.grid.map(|_| self.refresh_at_or_after(submitted));
        self.costs[self.next] = u64::try_from(cost.as_nanos()).unwrap_or(u64::MAX);
        self.next = (self.next + 1) % Self::SAMPLES;
        self.len = (self.len + 1).min(Self::SAMPLES);
        let missed = self.target.take().is_some_and(|target| submitted > target);
        self.missed += u64::from(missed);
        let Margin::Adaptive { least } = self.policy else {
            return missed;
        };
        if missed {
            self.on_time = 0;
            let most = self.grid.map_or(Duration::MAX, |(period, _)| period / 2);
            self.margin = (self.margin * 2 + Self::MISS_STEP).min(most.max(least));
        } else {
            self.on_time += 1;
            if self.on_time >= Self::RELAX_AFTER {
                self.on_time = 0;
                self.margin = (self.margin - self.margin / 32).max(least);
            }
        }
        missed
    }

    /// The last frame handed over was shown at the refresh at `shown`, where the platform
    /// says so (presentation timestamps, or a present that blocks until the refresh). The
    /// controller otherwise assumes the first refresh after the frame was ready, which is
    /// wrong by a refresh for every frame queued ahead of it: told, it aims the next frame
    /// after the one the display really showed, and so a queue filled before it took over
    /// drains.
    pub fn frame_shown(&mut self, shown: Duration) {
        if self.grid.is_some() {
            self.last_shown = Some(shown);
        }
    }

    /// When the next frame should start, asked at `now`, once the last frame was handed
    /// over: late enough that it is ready just before the refresh after the one showing the
    /// last frame, or the loop's own `wake` where that is later. A loop already past that
    /// start goes on at once (the next frame may still make its refresh: the cost is a high
    /// quantile, not every frame's). The loop's `wake` as it is while the grid or the cost
    /// is not known yet.
    pub fn pace(&mut self, now: Duration, wake: Wake) -> Wake {
        let (Some(lead), Some((period, _))) = (self.lead(), self.grid) else {
            return wake;
        };
        let last_shown = self
            .last_shown
            .unwrap_or_else(|| self.refresh_at_or_after(now));
        let mut target = last_shown + period;
        if target <= now {
            // Long past the last refresh (a hitch): the first one still ahead.
            target = self.refresh_at_or_after(now) + period;
        }
        self.target = Some(target);
        let start = target.saturating_sub(lead).max(now);
        match wake {
            Wake::At(t) if t > start => Wake::At(t),
            _ => Wake::At(start),
        }
    }

    /// The cost and the margin: how long before its refresh a frame starts; `None` until
    /// the grid is known and [`JustInTime::WARM_UP`] frames were measured.
    pub fn lead(&self) -> Option<Duration> {
        self.grid?;
        Some(self.cost()? + self.margin)
    }

    /// The learnt cost of a frame: the second-longest of the last
    /// [`JustInTime::SAMPLES`]; `None` before [`JustInTime::WARM_UP`] frames.
    pub fn cost(&self) -> Option<Duration> {
        if self.len < Self::WARM_UP {
            return None;
        }
        let (mut longest, mut second) = (0, 0);
        for &c in &self.costs[..self.len] {
            if c > longest {
                second = longest;
                longest = c;
            } else if c > second {
                second = c;
            }
        }
        Some(Duration::from_nanos(second))
    }

    /// The margin kept on top of the cost.
    pub fn margin(&self) -> Duration {
        self.margin
    }

    /// Frames that missed the refresh they aimed at, so far.
    pub fn missed(&self) -> u64 {
        self.missed
    }

    /// The first refresh at or after `t`.
    fn refresh_at_or_after(&self, t: Duration) -> Duration {
        let Some((period, refresh)) = self.grid else {
            return t;
        };
        let period_ns = period.as_nanos();
        let (base, offset) = if t >= refresh {
            (refresh, (t - refresh).as_nanos())
        } else {
            // Whole periods back from the known refresh, to one at or before `t`.
            let back = (refresh - t).as_nanos().div_ceil(period_ns) * period_ns;
            let base = refresh.saturating_sub(nanos(back));
            (base, t.saturating_sub(base).as_nanos())
        };
        base + nanos(offset.div_ceil(period_ns) * period_ns)
    }
}

fn nanos(n: u128) -> Duration {
    Duration::from_nanos(u64::try_from(n).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PERIOD: Duration = Duration::from_nanos(16_666_667);

    fn ms(x: f64) -> Duration {
        Duration::from_secs_f64(x / 1e3)
    }

    /// A loop paced by `jit` on a 60 Hz display whose frames cost `cost(k)`: returns each
    /// frame's start and the refresh that shows it (the first at or after its submission).
    fn run(
        jit: &mut JustInTime,
        frames: usize,
        mut cost: impl FnMut(usize) -> Duration,
    ) -> alloc::vec::Vec<(Duration, Duration)> {
        let mut out = alloc::vec::Vec::new();
        let mut start = Duration::ZERO;
        for k in 0..frames {
            let c = cost(k);
            let submitted = start + c;
            jit.frame_done(c, submitted);
            out.push((start, jit.refresh_at_or_after(submitted)));
            start = match jit.pace(submitted, Wake::Immediately) {
                Wake::At(t) => t.max(submitted),
                Wake::Immediately => submitted,
            };
        }
        out
    }

    #[test]
    fn it_leaves_the_wake_alone_until_it_knows_the_grid_and_the_cost() {
        let mut jit = JustInTime::new();
        for k in 0..JustInTime::WARM_UP as u32 {
            jit.frame_done(ms(3.0), ms(3.0) * (k + 1));
        }
        assert_eq!(jit.pace(ms(30.0), Wake::At(ms(40.0))), Wake::At(ms(40.0)));
        assert_eq!(jit.lead(), None);
        let mut cold = JustInTime::new();
        cold.set_grid(PERIOD, Duration::ZERO);
        cold.frame_done(ms(3.0), ms(3.0));
        assert_eq!(cold.pace(ms(3.0), Wake::Immediately), Wake::Immediately);
    }

    #[test]
    fn a_steady_frame_starts_its_cost_and_a_small_margin_before_its_refresh() {
        let mut jit = JustInTime::new();
        jit.set_grid(PERIOD, Duration::ZERO);
        let frames = run(&mut jit, 600, |_| ms(5.0));
        assert_eq!(jit.missed(), 0);
        for &(start, shown) in &frames[100..] {
            let before = shown - start;
            assert!(before >= ms(5.0) && before <= ms(5.5), "{before:?}");
        }
        // One frame a refresh: none skipped, none doubled.
        for w in frames[100..].windows(2) {
            assert_eq!(w[1].1 - w[0].1, PERIOD);
        }
        assert_eq!(jit.margin(), JustInTime::MIN_MARGIN);
    }

    #[test]
    fn a_slower_machine_costs_two_missed_refreshes_then_none() {
        let mut jit = JustInTime::new();
        jit.set_grid(PERIOD, Duration::ZERO);
        let frames = run(&mut jit, 800, |k| if k < 200 { ms(4.0) } else { ms(11.0) });
        // One long frame does not move the cost (it is the second-longest); the second
        // does, and the margin has grown meanwhile.
        assert_eq!(jit.missed(), 2);
        for w in frames[210..].windows(2) {
            assert_eq!(w[1].1 - w[0].1, PERIOD);
        }
        let lead = jit.lead().unwrap();
        assert!(lead >= ms(11.0) && lead < ms(12.0), "{lead:?}");
    }

    #[test]
    fn a_miss_doubles_the_margin_and_frames_on_time_bring_it_back_slowly() {
        let mut jit = JustInTime::new();
        jit.set_grid(PERIOD, Duration::ZERO);
        jit.target = Some(ms(10.0));
        assert!(jit.frame_done(ms(2.0), ms(11.0)));
        let grown = JustInTime::MIN_MARGIN * 2 + JustInTime::MISS_STEP;
        assert_eq!(jit.margin(), grown);
        for _ in 0..JustInTime::RELAX_AFTER {
            jit.target = Some(ms(10.0));
            assert!(!jit.frame_done(ms(2.0), ms(9.0)));
        }
        assert_eq!(jit.margin(), grown - grown / 32);
        // Misses in a row cannot push the lead past half a period of margin.
        for _ in 0..20 {
            jit.target = Some(ms(10.0));
            jit.frame_done(ms(2.0), ms(11.0));
        }
        assert_eq!(jit.margin(), PERIOD / 2);
    }

    #[test]
    fn jitter_is_covered_by_the_high_quantile() {
        let mut jit = JustInTime::new();
        jit.set_grid(PERIOD, Duration::ZERO);
        // A fixed pseudo-random spread of 3 to 7 ms.
        let mut x: u32 = 12345;
        let frames = run(&mut jit, 3000, |_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            ms(3.0 + f64::from((x >> 16) % 4000) / 1000.0)
        });
        assert!(jit.missed() * 100 < frames.len() as u64, "{}", jit.missed());
        let mean_lead = frames[100..]
            .iter()
            .map(|&(start, shown)| (shown - start).as_secs_f64())
            .sum::<f64>()
            / (frames.len() - 100) as f64;
        assert!(mean_lead < 0.0085, "{mean_lead}");
    }

    #[test]
    fn a_frame_dearer_than_a_refresh_starts_at_once_and_the_display_paces_it() {
        let mut jit = JustInTime::new();
        jit.set_grid(PERIOD, Duration::ZERO);
        let frames = run(&mut jit, 100, |_| ms(25.0));
        assert!(jit.lead().unwrap() > ms(25.0));
        for w in frames[20..].windows(2) {
            // Never more than one frame a refresh, and never a burst.
            assert!(w[1].1 > w[0].1);
            assert!(w[1].0 >= w[0].0 + ms(25.0));
        }
    }

    #[test]
    fn a_later_wake_of_the_loop_stands_and_the_grid_is_found_from_either_side() {
        let mut jit = JustInTime::new();
        jit.set_grid(PERIOD, ms(1000.0));
        assert_eq!(jit.refresh_at_or_after(ms(1000.0)), ms(1000.0));
        assert_eq!(jit.refresh_at_or_after(ms(1001.0)), ms(1000.0) + PERIOD);
        assert_eq!(jit.refresh_at_or_after(ms(999.0)), ms(1000.0));
        assert_eq!(jit.refresh_at_or_after(ms(980.0)), ms(1000.0) - PERIOD);
        for k in 0..JustInTime::WARM_UP as u32 {
            jit.frame_done(ms(2.0), ms(2.0) * k);
        }
        let early = jit.pace(ms(1001.0), Wake::Immediately);
        let capped = jit.pace(ms(1001.0), Wake::At(ms(1040.0)));
        assert!(matches!(early, Wake::At(t) if t < ms(1040.0)), "{early:?}");
        assert_eq!(capped, Wake::At(ms(1040.0)));
        jit.clear_grid();
        assert_eq!(jit.pace(ms(1001.0), Wake::Immediately), Wake::Immediately);
    }

    #[test]
    fn told_where_a_frame_was_shown_it_aims_after_that_refresh() {
        let mut jit = JustInTime::new();
        jit.set_grid(PERIOD, Duration::ZERO);
        for k in 1..=JustInTime::WARM_UP as u32 {
            jit.frame_done(ms(4.0), PERIOD * k - ms(1.0));
        }
        let lead = jit.lead().unwrap();
        let ready = PERIOD * 9 - ms(1.0);
        jit.frame_done(ms(4.0), ready);
        // Two frames queued ahead of it: shown two refreshes after the one it was ready for.
        jit.frame_shown(PERIOD * 11);
        assert_eq!(
            jit.pace(ready, Wake::Immediately),
            Wake::At(PERIOD * 12 - lead)
        );
    }

    #[test]
    fn a_fixed_margin_never_moves_and_a_raised_floor_holds() {
        let mut fixed = JustInTime::new().with_margin(Margin::Fixed(ms(1.0)));
        fixed.set_grid(PERIOD, Duration::ZERO);
        fixed.target = Some(ms(10.0));
        assert!(fixed.frame_done(ms(2.0), ms(11.0)));
        assert_eq!((fixed.margin(), fixed.missed()), (ms(1.0), 1));
        let mut floored = JustInTime::new().with_margin(Margin::Adaptive { least: ms(2.0) });
        floored.set_grid(PERIOD, Duration::ZERO);
        run(&mut floored, 600, |_| ms(5.0));
        assert_eq!(floored.margin(), ms(2.0));
        assert_eq!(floored.lead(), Some(ms(7.0)));
    }
}
