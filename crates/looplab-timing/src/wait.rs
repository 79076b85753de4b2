//! Waiting for a frame deadline precisely (the `spin` feature).
//!
//! A wait comes to its deadline in three stretches. It sleeps until an approach a few
//! milliseconds before it; then it sleeps in ever shorter naps, each half of what is left,
//! down to [`FrameWait::STEP`]; and it spins the last learnt margin. The naps are what help
//! on a busy machine: a thread that wakes from one long sleep queues behind
//! whatever took its core meanwhile and can start a frame milliseconds late, while one
//! that naps is woken again and again, and a late nap still leaves time before the
//! deadline. The spin is only as long as a short nap's lateness has lately needed. A turn
//! of the spin that comes late means the OS took the CPU away in the middle: counted, the
//! spins then give the CPU away (`yield_now`) for a while where the deadline is far
//! enough, and the wait says it ended late so the loop restarts its deadline grid.

use std::time::{Duration, Instant};

use crate::clock::{Clock, SystemClock};

/// How a wait for a frame deadline ends. (With the `spin` feature.)
#[cfg_attr(docsrs, doc(cfg(feature = "spin")))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitMode {
    /// Sleep to an approach a few milliseconds early, nap in shrinking steps, then spin the
    /// last stretch. Costs a little CPU; lands within tens of microseconds where the thread
    /// has a core to run on. Where the machine is loaded and the OS runs the thread late,
    /// no wait can make that up: the wait ends late, and says so.
    Precise,
    /// Ask the OS to wake at the deadline and trust it. Its timer granularity and wake-up
    /// latency show up as frame-time jitter: kept for comparison.
    Naive,
}

impl WaitMode {
    /// `precise` or `naive`.
    pub fn id(self) -> &'static str {
        match self {
            WaitMode::Precise => "precise",
            WaitMode::Naive => "naive",
        }
    }
}

/// The last [`WakeMargin::SAMPLES`] readings of a delay, and a high percentile of them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Readings {
    /// Nanoseconds, a ring.
    nanos: [u32; WakeMargin::SAMPLES],
    len: usize,
    next: usize,
}

impl Readings {
    const fn new() -> Self {
        Self {
            nanos: [0; WakeMargin::SAMPLES],
            len: 0,
            next: 0,
        }
    }

    fn push(&mut self, reading: Duration) {
        self.nanos[self.next] = u32::try_from(reading.as_nanos()).unwrap_or(u32::MAX);
        self.next = (self.next + 1) % WakeMargin::SAMPLES;
        self.len = (self.len + 1).min(WakeMargin::SAMPLES);
    }

    /// The [`WakeMargin::PERCENTILE`]th of the readings, once there are
    /// [`WakeMargin::WARM_UP`] of them.
    fn high(&self) -> Option<Duration> {
        if self.len < WakeMargin::WARM_UP {
            return None;
        }
        let mut sorted = self.nanos;
        let sorted = &mut sorted[..self.len];
        sorted.sort_unstable();
        let at = (self.len * WakeMargin::PERCENTILE)
            .div_ceil(100)
            .clamp(1, self.len)
            - 1;
        Some(Duration::from_nanos(u64::from(sorted[at])))
    }
}

/// How long before a deadline to start spinning, learnt from how late the OS has recently
/// woken the loop from a short nap. (With the `spin` feature.)
///
/// A fixed margin is wrong on most machines: too small where the scheduler is slow (a busy
/// VM wakes a thread a millisecond or two late, and the frame is late), too large where it
/// is quick (every frame spins for two milliseconds it did not need to). This keeps the
/// last [`WakeMargin::SAMPLES`] lateness readings and answers a high percentile of them
/// ([`WakeMargin::PERCENTILE`]) plus a little headroom, within [`WakeMargin::MIN`] and [`WakeMargin::MAX`]. Until it has
/// [`WakeMargin::WARM_UP`] readings it answers [`FrameWait::DEFAULT_EARLY`].
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::WakeMargin;
///
/// let mut margin = WakeMargin::new();
/// for i in 0..64u64 {
///     // A timer that wakes 100-400 us late, and once 3 ms late.
///     let late = if i == 10 { 3_000 } else { 100 + i % 4 * 100 };
///     margin.observe(Duration::from_micros(late));
/// }
/// assert_eq!(margin.margin(), Duration::from_micros(400) + WakeMargin::HEADROOM);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "spin")))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WakeMargin {
    late: Readings,
    margin: Duration,
}

impl Default for WakeMargin {
    fn default() -> Self {
        Self::new()
    }
}

impl WakeMargin {
    /// Readings kept: a second of frames at 60 Hz.
    pub const SAMPLES: usize = 64;
    /// Readings needed before the margin follows them.
    pub const WARM_UP: usize = 8;
    /// The percentile followed: of the last 64 readings, the second latest (the latest until
    /// there are 51). A margin at a
    /// lower percentile leaves that share of frames late by construction (at the 95th, one
    /// in twenty: a frame cap's p99 error is then the OS's); the single latest is left out,
    /// so one scheduling hiccup, which no margin within bounds would cover, does not make a
    /// second of frames spin longer.
    pub const PERCENTILE: usize = 98;
    /// Added to the percentile: the loop's own work between waking and spinning.
    pub const HEADROOM: Duration = Duration::from_micros(150);
    /// Never less: below this the wake-up itself costs more than the spin saves.
    pub const MIN: Duration = Duration::from_micros(300);
    /// Never more. A nap woken later than this was kept waiting by other threads, and a
    /// spin is no cure for that: a scheduler gives a thread that keeps the CPU a slice of a
    /// millisecond or two, then runs the others, and wakes it later the next time for the
    /// time it took. Followed up to four milliseconds on a machine with two other threads
    /// busy on its two cores, the margin spun 8-20% of a core at 144 Hz and the frames
    /// came less evenly than with one plain sleep in 3 of 9 rows; held to a millisecond,
    /// 4-6%, and it lost no row to the sleep by more than a tenth of a millisecond.
    pub const MAX: Duration = Duration::from_millis(1);

    /// A margin with no readings yet.
    pub const fn new() -> Self {
        Self {
            late: Readings::new(),
            margin: FrameWait::DEFAULT_EARLY,
        }
    }

    /// Takes one reading: the OS woke the loop `late` after the time it was asked to.
    pub fn observe(&mut self, late: Duration) {
        self.late.push(late);
        if let Some(high) = self.late.high() {
            self.margin = (high + Self::HEADROOM).clamp(Self::MIN, Self::MAX);
        }
    }

    /// How long before a deadline to ask the OS to wake.
    pub fn margin(&self) -> Duration {
        self.margin
    }

    /// Readings taken (at most [`WakeMargin::SAMPLES`] are kept).
    pub fn readings(&self) -> usize {
        self.late.len
    }
}

/// What the last stretches of a wait did, counted since it was made. (With the `spin`
/// feature.)
#[cfg_attr(docsrs, doc(cfg(feature = "spin")))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpinTally {
    /// Deadlines whose last stretch was spun.
    pub spins: u64,
    /// Turns of a spin that gave the CPU away: a recent spin was interrupted, and the
    /// deadline was further than the OS has lately taken to give it back
    /// ([`FrameWait::yield_guard`]).
    pub yields: u64,
    /// Spins in which a turn came more than [`FrameWait::LATE_TURN`] after the one before
    /// without having given the CPU away: the OS took it. Such a spin ends late however it
    /// waits; its lost time is not taken for the OS's wake-up error.
    pub interrupted: u64,
    /// The time spent in spins, yields included.
    pub spun: Duration,
    /// Waits that ended more than [`FrameWait::LATE_TURN`] after their deadline.
    pub late: u64,
}

/// The spin under way: its deadline, when its last turn ended, and whether it was
/// interrupted already (counted once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Spin {
    deadline: Instant,
    began: Instant,
    last_turn: Instant,
    interrupted: bool,
}

/// A wake-up asked of the OS: when, for which deadline, and whether it was a nap within
/// the approach, whose lateness the margin learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Asked {
    wake: Instant,
    deadline: Instant,
    nap: bool,
}

/// Waits for frame deadlines ([`Wake::At`](crate::Wake::At)) the way a frame cap needs. (With
/// the `spin` feature.)
///
/// An OS timer wakes a thread up to a millisecond or more late, and a cap that trusts it
/// shows that as uneven frames; on a busy machine, several milliseconds. This asks the OS
/// (or the event loop) to wake the loop an approach before the deadline
/// ([`APPROACH`](FrameWait::APPROACH)), then for naps of half the time left, and spins the
/// last margin. The margin adapts ([`WakeMargin`]) to how late the naps have woken the
/// loop recently, unless fixed with [`with_early`](FrameWait::with_early).
///
/// With an event loop that waits on its own (winit's `ControlFlow::WaitUntil`), ask
/// [`os_wake`](FrameWait::os_wake) where to wait until every time the loop comes round (it
/// answers the approach, then each nap); once it answers `None`, spin the rest: either
/// through the event loop, one [`spin_turn`](FrameWait::spin_turn) a pass
/// (`ControlFlow::Poll` while it answers `true`, so input that arrives meanwhile is still
/// delivered), or with [`finish`](FrameWait::finish). In a plain loop,
/// [`sleep_until`](FrameWait::sleep_until) does both. Then ask [`take_late`](FrameWait::take_late): a wait the machine made late
/// is a reason to restart the deadline grid
/// ([`Planner::restart_deadlines`](crate::Planner::restart_deadlines)).
#[cfg_attr(docsrs, doc(cfg(feature = "spin")))]
#[derive(Clone, Debug)]
pub struct FrameWait {
    mode: WaitMode,
    margin: WakeMargin,
    /// A margin given by the caller instead of the learnt one.
    fixed: Option<Duration>,
    /// The wake-up last asked of the OS, until the loop sees it happen.
    asked: Option<Asked>,
    /// The deadline the OS last woke the loop for: the naive wait does not sleep for it
    /// again (a second sleep could overshoot too), and a spin for it that ends late is the
    /// wait's lateness.
    woken_for: Option<Instant>,
    /// How long a yield took to give the CPU back, lately.
    yield_cost: Readings,
    /// Spins left that yield, after an interrupted one.
    yielding: u32,
    /// The last deadline waited for, and the interval before it (zero until known).
    last_deadline: Option<Instant>,
    interval: Duration,
    /// How late the last spin ended, when it ended more than [`FrameWait::LATE_TURN`]
    /// after its deadline, until taken.
    late: Option<Duration>,
    spin: Option<Spin>,
    tally: SpinTally,
}

impl Default for FrameWait {
    /// A precise wait.
    fn default() -> Self {
        Self::new(WaitMode::Precise)
    }
}

impl FrameWait {
    /// How long before the deadline the spin begins until the margin has learnt better: the
    /// most it learns ([`WakeMargin::MAX`]).
    pub const DEFAULT_EARLY: Duration = WakeMargin::MAX;
    /// The spin is at most this share of the interval between deadlines (an eighth: 0.87 ms
    /// at 144 Hz), and never less than [`WakeMargin::MIN`]: at a high rate a spin of a
    /// millisecond would be most of the CPU the loop uses.
    pub const SPIN_SHARE: u32 = 8;
    /// A turn of a spin this long after the one before it, with no yield between, was
    /// interrupted: spinning, a turn takes well under a microsecond (through an event loop,
    /// tens of microseconds), and the OS's time slice is a millisecond or more.
    pub const LATE_TURN: Duration = Duration::from_micros(200);
    /// A spin yields while the deadline is further than the recent yields' high percentile
    /// plus this: the last stretch is always spun, however quickly yields come back.
    pub const YIELD_HEADROOM: Duration = Duration::from_micros(50);
    /// Until [`WakeMargin::WARM_UP`] yields have been timed, the guard assumed.
    pub const DEFAULT_YIELD_GUARD: Duration = Duration::from_micros(300);
    /// How many spins after an interrupted one yield: a second of frames at 60 Hz.
    pub const YIELDING_SPINS: u32 = 64;
    /// How long before the deadline the naps begin, at most: a busy machine wakes a thread
    /// from a long sleep up to four or five milliseconds late (measured with two other
    /// threads busy on two cores), and a nap that starts this early is still ahead of the
    /// deadline after such a wake-up.
    pub const APPROACH: Duration = Duration::from_millis(4);
    /// The approach is at most this share of the interval between deadlines (a quarter:
    /// 1.7 ms at 144 Hz), so a short interval is not all naps.
    pub const APPROACH_SHARE: u32 = 4;
    /// The shortest nap. Naps halve what is left to the spin, down to this.
    pub const STEP: Duration = Duration::from_micros(200);

    /// A wait of the given mode; when precise, its margin adapts.
    pub fn new(mode: WaitMode) -> Self {
        Self {
            mode,
            margin: WakeMargin::new(),
            fixed: None,
            asked: None,
            woken_for: None,
            yield_cost: Readings::new(),
            yielding: 0,
            last_deadline: None,
            interval: Duration::ZERO,
            late: None,
            spin: None,
            tally: SpinTally::default(),
        }
    }

    /// The same wait, always asking the OS to wake `early` before the deadline.
    #[must_use]
    pub fn with_early(mut self, early: Duration) -> Self {
        self.fixed = Some(early);
        self
    }

    /// The mode.
    pub fn mode(&self) -> WaitMode {
        self.mode
    }

    /// How long before the deadline the spin begins: the fixed margin, or the learnt one, at
    /// most [`SPIN_SHARE`](FrameWait::SPIN_SHARE) of the interval.
    pub fn early(&self) -> Duration {
        self.fixed.unwrap_or_else(|| {
            let learnt = self.margin.margin();
            if self.interval.is_zero() {
                learnt
            } else {
                learnt
                    .min(self.interval / Self::SPIN_SHARE)
                    .max(WakeMargin::MIN)
            }
        })
    }

    /// How long before the deadline the naps begin: [`APPROACH`](FrameWait::APPROACH), or
    /// [`APPROACH_SHARE`](FrameWait::APPROACH_SHARE) of the interval between the last two
    /// deadlines where that is less, and never less than [`early`](FrameWait::early).
    pub fn approach(&self) -> Duration {
        let share = if self.interval.is_zero() {
            Self::APPROACH
        } else {
            self.interval / Self::APPROACH_SHARE
        };
        Self::APPROACH.min(share).max(self.early())
    }

    /// The lateness readings behind the margin.
    pub fn wake_margin(&self) -> &WakeMargin {
        &self.margin
    }

    /// What the spins did so far.
    pub fn spin_tally(&self) -> SpinTally {
        self.tally
    }

    /// How late the last wait ended, if it ended more than
    /// [`LATE_TURN`](FrameWait::LATE_TURN) after its deadline: the OS woke the loop after
    /// the margin, or took the CPU in the spin. Taken once. The frame that starts now is
    /// late by that much whatever happens; a loop that then restarts its deadline grid
    /// ([`Planner::restart_deadlines`](crate::Planner::restart_deadlines)) does not make the
    /// next frame pay for it again with a short interval. Always `None` in naive mode, which
    /// does not look.
    pub fn take_late(&mut self) -> Option<Duration> {
        self.late.take()
    }

    /// Whether the spins yield now: a spin was interrupted within the last
    /// [`YIELDING_SPINS`](FrameWait::YIELDING_SPINS).
    pub fn yielding(&self) -> bool {
        self.yielding > 0
    }

    /// A yielding spin gives the CPU away while the deadline is further off than this: the high
    /// percentile of how long recent yields took to come back, plus
    /// [`YIELD_HEADROOM`](FrameWait::YIELD_HEADROOM). On a machine with nothing else to run
    /// a yield comes back at once and nearly all the spin yields; where other threads wait
    /// for a core, a yield can cost a time slice, and the spin keeps the CPU for that long
    /// before the deadline.
    pub fn yield_guard(&self) -> Duration {
        self.yield_cost
            .high()
            .map_or(Self::DEFAULT_YIELD_GUARD, |high| {
                high + Self::YIELD_HEADROOM
            })
    }

    /// When the OS should wake the loop to wait for `deadline`, seen at `now`: the
    /// approach, then each nap; `None` when the rest is to be spun. A call after the OS woke
    /// the loop for a nap measures how late it was.
    pub fn os_wake(&mut self, deadline: Instant, now: Instant) -> Option<Instant> {
        let answered = self
            .asked
            .filter(|asked| now >= asked.wake || asked.deadline != deadline);
        if let Some(asked) = answered {
            self.asked = None;
            // Only a wake-up for this deadline measures the OS: one asked for another (a
            // frame that never came, a window hidden meanwhile) says nothing.
            if asked.deadline == deadline {
                if asked.nap {
                    self.margin.observe(now - asked.wake);
                }
                self.woken_for = Some(deadline);
            }
        }
        self.learn_interval(deadline);
        let asked = match self.mode {
            // Woken for this deadline once, the naive wait does not sleep again: a second
            // sleep could overshoot too.
            WaitMode::Naive => {
                (deadline > now && self.woken_for != Some(deadline)).then_some(Asked {
                    wake: deadline,
                    deadline,
                    nap: false,
                })
            }
            WaitMode::Precise => self.next_wake(deadline, now),
        };
        self.asked = asked;
        asked.map(|a| a.wake)
    }

    /// Keeps the interval between the last two deadlines, for the approach.
    fn learn_interval(&mut self, deadline: Instant) {
        if let Some(last) = self.last_deadline.filter(|&last| last < deadline) {
            let interval = deadline - last;
            // A deadline after a pause or a hidden spell says nothing of the cap's interval.
            if interval < Duration::from_millis(250) {
                self.interval = interval;
            }
        }
        self.last_deadline = Some(deadline);
    }

    /// The precise wait's next wake-up for `deadline` at `now`: the approach while it is
    /// ahead, then naps of half what is left to the spin (at least [`STEP`](FrameWait::STEP));
    /// `None` from the spin on.
    fn next_wake(&self, deadline: Instant, now: Instant) -> Option<Asked> {
        let spin = deadline.checked_sub(self.early())?;
        if now >= spin {
            return None;
        }
        let approach = deadline.checked_sub(self.approach()).unwrap_or(now);
        if now < approach && approach < spin {
            return Some(Asked {
                wake: approach,
                deadline,
                nap: false,
            });
        }
        let nap = ((spin - now) / 2).max(Self::STEP);
        Some(Asked {
            wake: (now + nap).min(spin),
            deadline,
            nap: true,
        })
    }

    /// Forgets the wake-up asked for, if any: the loop stopped waiting for it (the window
    /// was hidden, the deadline grid started afresh). What the margin learnt is kept.
    pub fn forget(&mut self) {
        self.asked = None;
        self.woken_for = None;
        self.spin = None;
    }

    /// One turn of the last stretch before `deadline`, for a loop that spins through its
    /// event loop (and called by [`finish`](FrameWait::finish) in a plain loop): yields the
    /// CPU if the deadline is further off than [`yield_guard`](FrameWait::yield_guard), and
    /// notes a turn that came late. Returns whether the deadline is still ahead (always
    /// `false` in naive mode, which trusted the OS).
    pub fn spin_turn(&mut self, deadline: Instant) -> bool {
        if self.mode == WaitMode::Naive {
            return false;
        }
        let now = Instant::now();
        let mut spin = match self.spin.filter(|s| s.deadline == deadline) {
            Some(mut spin) => {
                if !spin.interrupted && now - spin.last_turn > Self::LATE_TURN {
                    spin.interrupted = true;
                    self.tally.interrupted += 1;
                    self.yielding = Self::YIELDING_SPINS;
                }
                spin
            }
            None => {
                self.tally.spins += 1;
                self.yielding = self.yielding.saturating_sub(1);
                Spin {
                    deadline,
                    began: now,
                    last_turn: now,
                    interrupted: false,
                }
            }
        };
        if now >= deadline {
            self.tally.spun += now - spin.began;
            self.spin = None;
            // Late by the wait's doing only if it was waiting: the spin began in time, or
            // the OS was asked to wake the loop for this deadline. A frame whose own work
            // ran past the deadline is the grid's to make up.
            let waited = spin.began < deadline || self.woken_for == Some(deadline);
            let late = now - deadline;
            if waited && late > Self::LATE_TURN {
                self.late = Some(late);
                self.tally.late += 1;
            }
            return false;
        }
        let mut turned = now;
        if self.yielding() && deadline - now > self.yield_guard() {
            std::thread::yield_now();
            turned = Instant::now();
            self.yield_cost.push(turned - now);
            self.tally.yields += 1;
        }
        spin.last_turn = turned;
        self.spin = Some(spin);
        true
    }

    /// Spins out what is left before `deadline` (nothing in naive mode).
    pub fn finish(&mut self, deadline: Instant) {
        while self.spin_turn(deadline) {
            core::hint::spin_loop();
        }
    }

    /// Blocks the thread until `deadline`: plain sleeps to the approach and through the
    /// naps, then [`finish`](FrameWait::finish).
    pub fn sleep_until(&mut self, deadline: Instant) {
        while let Some(wake) = self.os_wake(deadline, Instant::now()) {
            std::thread::sleep(wake.saturating_duration_since(Instant::now()));
        }
        self.finish(deadline);
    }

    /// [`sleep_until`](FrameWait::sleep_until) the time `t` of the loop's `clock`: a plan's
    /// [`Wake::At`](crate::Wake::At) as it is.
    ///
    /// ```
    /// use looplab_timing::{FrameWait, LoopSettings, Planner, Rate, Strategy, SystemClock, Wake};
    ///
    /// let clock = SystemClock::start();
    /// let settings = LoopSettings::default().with_frame_cap(Some(Rate::hz(200.0)?));
    /// let mut planner = Planner::new(Strategy::Interpolated, settings);
    /// let mut wait = FrameWait::default();
    /// for _ in 0..3 {
    ///     let plan = planner.plan_frame(clock.now());
    ///     if let Wake::At(t) = plan.wake {
    ///         wait.sleep_until_on(&clock, t);
    ///         assert!(clock.now() >= t);
    ///     }
    /// }
    /// # Ok::<(), looplab_timing::TimingError>(())
    /// ```
    pub fn sleep_until_on<C: InstantClock>(&mut self, clock: &C, t: Duration) {
        self.sleep_until(clock.instant_at(t));
    }

    /// [`os_wake`](FrameWait::os_wake) for the time `t` of the loop's `clock`: the time on
    /// that clock to ask the OS (or an event loop) to wake at, if any.
    pub fn os_wake_on<C: InstantClock>(&mut self, clock: &C, t: Duration) -> Option<Duration> {
        self.os_wake(clock.instant_at(t), Instant::now())
            .map(|wake| clock.at_instant(wake))
    }

    /// [`spin_turn`](FrameWait::spin_turn) for the time `t` of the loop's `clock`.
    pub fn spin_turn_on<C: InstantClock>(&mut self, clock: &C, t: Duration) -> bool {
        self.spin_turn(clock.instant_at(t))
    }
}

/// A [`Clock`] whose times are `Instant`s from a start: what [`FrameWait`] needs to wait on
/// a plan's time precisely. [`SystemClock`] is one; a windowing library's clock on std's
/// `Instant` can be another.
#[cfg_attr(docsrs, doc(cfg(feature = "spin")))]
pub trait InstantClock: Clock {
    /// The `Instant` at which the clock reads `t`.
    fn instant_at(&self, t: Duration) -> Instant;

    /// What the clock reads at `instant` (zero before it started).
    fn at_instant(&self, instant: Instant) -> Duration;
}

impl InstantClock for SystemClock {
    fn instant_at(&self, t: Duration) -> Instant {
        SystemClock::instant_at(self, t)
    }

    fn at_instant(&self, instant: Instant) -> Duration {
        SystemClock::at_instant(self, instant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every wake-up `w` asks for `deadline` from `from`, the OS waking the first
    /// `first_late` after the time asked and each later one `late` after it: the times
    /// asked, up to the spin.
    fn wake_ups(
        w: &mut FrameWait,
        deadline: Instant,
        from: Instant,
        first_late: Duration,
        late: Duration,
    ) -> Vec<Instant> {
        let mut asked = Vec::new();
        let mut now = from;
        while let Some(wake) = w.os_wake(deadline, now) {
            now = wake + if asked.is_empty() { first_late } else { late };
            asked.push(wake);
        }
        asked
    }

    #[test]
    fn precise_mode_sleeps_to_the_approach_then_naps_halving_then_spins() {
        let mut w = FrameWait::new(WaitMode::Precise);
        let now = Instant::now();
        let deadline = now + Duration::from_millis(10);
        let spin = deadline - FrameWait::DEFAULT_EARLY;
        let asked = wake_ups(&mut w, deadline, now, Duration::ZERO, Duration::ZERO);
        assert_eq!(asked[0], deadline - FrameWait::APPROACH);
        assert_eq!(*asked.last().unwrap(), spin);
        // Each nap is half of what was left to the spin, or the shortest nap, never past it.
        for pair in asked.windows(2) {
            let left = spin - pair[0];
            let nap = pair[1] - pair[0];
            assert_eq!(nap, (left / 2).max(FrameWait::STEP).min(left), "{asked:?}");
        }
        assert_eq!(
            asked.len(),
            6,
            "approach, 1.5, 0.75, 0.38, 0.2 ms naps, then to the spin"
        );
        // Within the spin's margin: no OS wait, the spin finishes.
        assert_eq!(w.os_wake(deadline, spin), None);
        // A fixed margin moves the spin, not the approach.
        let mut fixed = FrameWait::new(WaitMode::Precise).with_early(Duration::from_micros(500));
        let asked = wake_ups(&mut fixed, deadline, now, Duration::ZERO, Duration::ZERO);
        assert_eq!(asked[0], deadline - FrameWait::APPROACH);
        assert_eq!(
            *asked.last().unwrap(),
            deadline - Duration::from_micros(500)
        );
    }

    #[test]
    fn naive_mode_trusts_the_os_to_the_deadline() {
        let mut w = FrameWait::new(WaitMode::Naive);
        let now = Instant::now();
        let deadline = now + Duration::from_millis(10);
        assert_eq!(w.os_wake(deadline, now), Some(deadline));
        assert_eq!(w.os_wake(deadline, deadline), None);
    }

    #[test]
    fn the_margin_follows_how_late_the_naps_wake() {
        let mut w = FrameWait::new(WaitMode::Precise);
        let start = Instant::now();
        let ms = Duration::from_millis;
        assert_eq!(w.early(), FrameWait::DEFAULT_EARLY);
        // Frames 16 ms apart; the OS wakes each nap 700 us after the time asked, and the
        // sleep to the approach a millisecond late, which the naps make up: not learnt.
        for k in 1..=20u32 {
            let deadline = start + ms(16) * k;
            let asked = wake_ups(
                &mut w,
                deadline,
                deadline - ms(10),
                ms(1),
                Duration::from_micros(700),
            );
            assert_eq!(asked[0], deadline - FrameWait::APPROACH);
        }
        assert!(w.wake_margin().readings() >= 20);
        assert_eq!(w.early(), Duration::from_micros(700) + WakeMargin::HEADROOM);
        // A wake by some other event (a key) before the time asked is not a reading.
        let readings = w.wake_margin().readings();
        let deadline = start + ms(400);
        let asked = w.os_wake(deadline, deadline - ms(10)).unwrap();
        assert!(w.os_wake(deadline, asked - ms(3)).is_some());
        assert_eq!(w.wake_margin().readings(), readings);
    }

    #[test]
    fn the_approach_is_at_most_a_quarter_of_the_interval_and_no_less_than_the_spin() {
        let mut w = FrameWait::new(WaitMode::Precise);
        let start = Instant::now();
        let at_144 = Duration::from_micros(6_944);
        for k in 1..=20u32 {
            let deadline = start + at_144 * k;
            wake_ups(
                &mut w,
                deadline,
                deadline - at_144 / 2,
                Duration::ZERO,
                Duration::from_micros(50),
            );
        }
        // A quick OS: the learnt margin is its floor, 0.3 ms, and the approach a quarter of
        // the interval.
        assert_eq!(w.early(), WakeMargin::MIN);
        assert_eq!(w.approach(), at_144 / FrameWait::APPROACH_SHARE);
        // A deadline after a pause does not stretch it.
        let after_pause = start + at_144 * 20 + Duration::from_secs(5);
        w.os_wake(after_pause, after_pause - at_144);
        assert_eq!(w.approach(), at_144 / FrameWait::APPROACH_SHARE);
        // At 30 Hz, the approach is four milliseconds.
        let mut slow = FrameWait::new(WaitMode::Precise);
        let at_30 = Duration::from_micros(33_333);
        for k in 1..=3u32 {
            slow.os_wake(start + at_30 * k, start + at_30 * k - at_30 / 2);
        }
        assert_eq!(slow.approach(), FrameWait::APPROACH);
        // A spin longer than the approach: no approach, naps from the start, each learnt.
        let mut wide = FrameWait::new(WaitMode::Precise).with_early(Duration::from_millis(3));
        for k in 1..=3u32 {
            let deadline = start + at_144 * k;
            let asked = wake_ups(
                &mut wide,
                deadline,
                deadline - at_144,
                Duration::ZERO,
                Duration::ZERO,
            );
            assert_eq!(*asked.last().unwrap(), deadline - Duration::from_millis(3));
        }
        assert_eq!(wide.approach(), Duration::from_millis(3));
        assert!(wide.wake_margin().readings() >= 3);
    }

    #[test]
    fn a_slow_os_is_spun_for_a_millisecond_at_most_and_an_eighth_of_the_interval() {
        // Naps woken 3 ms late: other threads kept the CPU. At 30 Hz the spin stops at the
        // margin's ceiling; at 144 Hz at an eighth of the interval.
        for (interval, spin) in [
            (Duration::from_micros(33_333), WakeMargin::MAX),
            (Duration::from_micros(6_944), Duration::from_micros(868)),
        ] {
            let mut w = FrameWait::new(WaitMode::Precise);
            let start = Instant::now();
            for k in 1..=40u32 {
                let deadline = start + interval * k;
                let asked = wake_ups(
                    &mut w,
                    deadline,
                    deadline - interval / 2,
                    Duration::ZERO,
                    Duration::from_millis(3),
                );
                assert!(!asked.is_empty());
            }
            assert_eq!(w.wake_margin().margin(), WakeMargin::MAX, "{interval:?}");
            assert_eq!(w.early(), spin, "{interval:?}");
        }
    }

    #[test]
    fn a_plain_loop_lands_on_its_deadline() {
        let mut w = FrameWait::new(WaitMode::Precise);
        for _ in 0..3 {
            // Far enough that a busy machine's pause before the first ask still leaves naps.
            let deadline = Instant::now() + Duration::from_millis(50);
            w.sleep_until(deadline);
            assert!(Instant::now() >= deadline);
        }
        assert!(w.wake_margin().readings() >= 3, "the naps were learnt");
        assert_eq!(w.spin_tally().spins, 3);
    }

    #[test]
    fn the_margin_stays_within_its_bounds() {
        let mut m = WakeMargin::new();
        for _ in 0..64 {
            m.observe(Duration::ZERO);
        }
        assert_eq!(m.margin(), WakeMargin::MIN);
        for _ in 0..64 {
            m.observe(Duration::from_millis(30));
        }
        assert_eq!(m.margin(), WakeMargin::MAX);
    }

    #[test]
    fn a_fixed_margin_is_kept() {
        let mut w = FrameWait::new(WaitMode::Precise).with_early(Duration::from_micros(500));
        let start = Instant::now();
        for k in 1..=20u32 {
            let deadline = start + Duration::from_millis(16) * k;
            let asked = w
                .os_wake(deadline, deadline - Duration::from_millis(10))
                .unwrap();
            w.os_wake(deadline, asked + Duration::from_millis(3));
        }
        assert_eq!(w.early(), Duration::from_micros(500));
    }

    #[test]
    fn a_spin_yields_while_the_deadline_is_further_than_yields_have_taken() {
        let mut w = FrameWait::new(WaitMode::Precise);
        assert_eq!(w.yield_guard(), FrameWait::DEFAULT_YIELD_GUARD);
        // 63 yields came back in 10 us and one took a 5 ms time slice: the guard follows
        // the second latest, as the wake margin does.
        for i in 0..64 {
            let cost = if i == 20 { 5_000 } else { 10 };
            w.yield_cost.push(Duration::from_micros(cost));
        }
        assert_eq!(
            w.yield_guard(),
            Duration::from_micros(10) + FrameWait::YIELD_HEADROOM
        );
        // Where yields cost a slice, the last millisecond and more is spun.
        for _ in 0..64 {
            w.yield_cost.push(Duration::from_millis(1));
        }
        assert_eq!(
            w.yield_guard(),
            Duration::from_millis(1) + FrameWait::YIELD_HEADROOM
        );
    }

    #[test]
    fn a_spin_counts_itself_its_yields_and_a_turn_the_os_took() {
        let mut w = FrameWait::new(WaitMode::Precise);
        let deadline = Instant::now() + Duration::from_secs(60);
        // A minute away, on a machine that has not taken the CPU from a spin: no yield.
        assert!(w.spin_turn(deadline));
        assert_eq!(w.spin_tally().spins, 1);
        assert_eq!(w.spin_tally().yields, 0);
        assert_eq!(w.spin_tally().interrupted, 0);
        // The thread is away for a millisecond between two turns, as if the OS had taken
        // the CPU: counted once for the spin, however many late turns follow, and from then
        // on the spin gives the CPU away while the deadline is far.
        std::thread::sleep(Duration::from_millis(1));
        assert!(w.spin_turn(deadline));
        assert!(w.yielding());
        assert_eq!(w.spin_tally().yields, 1);
        std::thread::sleep(Duration::from_millis(1));
        assert!(w.spin_turn(deadline));
        assert_eq!(w.spin_tally().interrupted, 1);
        assert_eq!(w.spin_tally().spins, 1);
        // A deadline already past ends the spin; the next deadline is a new spin. Ended
        // within LATE_TURN of it, the wait was not late.
        let past = Instant::now();
        assert!(!w.spin_turn(past));
        assert_eq!(w.spin_tally().spins, 2);
        assert_eq!(w.take_late(), None);
        // A deadline 5 ms gone before the wait began (the frame's own work ran past it):
        // not the wait's lateness.
        let gone = Instant::now() - Duration::from_millis(5);
        assert!(!w.spin_turn(gone));
        assert_eq!(w.take_late(), None);
        // The OS asked to wake the loop 2 ms before a deadline, and woke it 5 ms after it:
        // late, and said so once.
        let deadline_2 = Instant::now() + Duration::from_millis(10);
        let asked = w.os_wake(deadline_2, Instant::now()).unwrap();
        std::thread::sleep(deadline_2 + Duration::from_millis(5) - Instant::now());
        assert_eq!(w.os_wake(deadline_2, Instant::now()), None);
        assert!(asked < deadline_2);
        assert!(!w.spin_turn(deadline_2));
        assert!(w.take_late().is_some_and(|l| l >= Duration::from_millis(5)));
        assert_eq!(w.take_late(), None);
        assert_eq!(w.spin_tally().late, 1);
        // `finish` returns at the deadline, not before, and counts the time it spun.
        let spun = w.spin_tally().spun;
        let before = Instant::now();
        let until = before + Duration::from_millis(1);
        w.finish(until);
        let after = Instant::now();
        assert!(after >= until);
        assert_eq!(w.spin_tally().spins, 5);
        assert!(w.spin_tally().spun > spun && w.spin_tally().spun <= spun + (after - before));
        // The yielding stops after YIELDING_SPINS spins with none interrupted.
        for _ in 0..FrameWait::YIELDING_SPINS {
            w.spin_turn(Instant::now());
        }
        assert!(!w.yielding());
        // The naive wait never spins.
        let mut naive = FrameWait::new(WaitMode::Naive);
        assert!(!naive.spin_turn(deadline));
        naive.finish(deadline);
        assert!(!naive.spin_turn(gone));
        assert_eq!(naive.take_late(), None);
        assert_eq!(naive.spin_tally(), SpinTally::default());
    }

    #[test]
    fn a_wake_up_asked_for_another_deadline_is_no_reading() {
        let mut w = FrameWait::new(WaitMode::Precise);
        let start = Instant::now();
        let ms = Duration::from_millis;
        // Asked to wake for a deadline, then the loop moves on to another (it was hidden):
        // the old request measures nothing, even seconds later.
        w.os_wake(start + ms(30), start).unwrap();
        let later = start + ms(4000);
        assert!(w.os_wake(later + ms(30), later).is_some());
        assert_eq!(w.wake_margin().readings(), 0);
        w.forget();
        assert!(
            w.os_wake(later + ms(30), later + ms(40)).is_none(),
            "past the deadline"
        );
        assert_eq!(w.wake_margin().readings(), 0);
    }
}
