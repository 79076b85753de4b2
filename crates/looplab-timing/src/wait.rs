//! Waiting for a frame deadline precisely (the `spin` feature).

use std::time::{Duration, Instant};

/// How a wait for a frame deadline ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitMode {
    /// Ask the OS to wake a little early, then finish the last stretch with a sleep that
    /// spins (`spin_sleep`). Costs a little CPU; lands within tens of microseconds.
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

/// How early to ask the OS to wake, learnt from how late it has recently woken.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WakeMargin {
    /// Lateness readings in nanoseconds, a ring.
    late: [u32; WakeMargin::SAMPLES],
    len: usize,
    next: usize,
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
    /// Never more: a machine that wakes this late needs no precise cap to lose frames.
    pub const MAX: Duration = Duration::from_millis(4);

    /// A margin with no readings yet.
    pub const fn new() -> Self {
        Self {
            late: [0; Self::SAMPLES],
            len: 0,
            next: 0,
            margin: FrameWait::DEFAULT_EARLY,
        }
    }

    /// Takes one reading: the OS woke the loop `late` after the time it was asked to.
    pub fn observe(&mut self, late: Duration) {
        let nanos = u32::try_from(late.as_nanos()).unwrap_or(u32::MAX);
        self.late[self.next] = nanos;
        self.next = (self.next + 1) % Self::SAMPLES;
        self.len = (self.len + 1).min(Self::SAMPLES);
        if self.len >= Self::WARM_UP {
            let mut sorted = self.late;
            let sorted = &mut sorted[..self.len];
            sorted.sort_unstable();
            let at = (self.len * Self::PERCENTILE)
                .div_ceil(100)
                .clamp(1, self.len)
                - 1;
            let high = Duration::from_nanos(u64::from(sorted[at]));
            self.margin = (high + Self::HEADROOM).clamp(Self::MIN, Self::MAX);
        }
    }

    /// How long before a deadline to ask the OS to wake.
    pub fn margin(&self) -> Duration {
        self.margin
    }

    /// Readings taken (at most [`WakeMargin::SAMPLES`] are kept).
    pub fn readings(&self) -> usize {
        self.len
    }
}

/// Waits for frame deadlines ([`Wake::At`](crate::Wake::At)) the way a frame cap needs.
///
/// An OS timer wakes a thread up to a millisecond or more late, and a cap that trusts it
/// shows that as uneven frames. This asks the OS (or the event loop) to wake a margin
/// before the deadline and spins the rest. The margin adapts ([`WakeMargin`]) to how late
/// the OS has woken the loop recently, unless fixed with [`with_early`](FrameWait::with_early).
///
/// With an event loop that waits on its own (winit's `ControlFlow::WaitUntil`), ask
/// [`os_wake`](FrameWait::os_wake) where to wait until, every time the loop comes round; once
/// it answers `None`, spin the rest: either through the event loop (`ControlFlow::Poll` until
/// the deadline, so input that arrives meanwhile is still delivered) or with
/// [`finish`](FrameWait::finish). In a plain loop, [`sleep_until`](FrameWait::sleep_until)
/// does both.
#[derive(Clone, Debug)]
pub struct FrameWait {
    mode: WaitMode,
    margin: WakeMargin,
    /// A margin given by the caller instead of the learnt one.
    fixed: Option<Duration>,
    /// The wake-up last asked of the OS and the deadline it was for, until the loop sees it
    /// happen.
    asked: Option<(Instant, Instant)>,
    /// The deadline the OS last woke the loop for: it is not asked to wait for it again
    /// (a second wait could overshoot too).
    woken_for: Option<Instant>,
}

impl Default for FrameWait {
    /// A precise wait.
    fn default() -> Self {
        Self::new(WaitMode::Precise)
    }
}

impl FrameWait {
    /// How long before the deadline the OS is asked to wake until the margin has learnt
    /// better: two milliseconds covers the millisecond rounding of event-loop timeouts and a
    /// typical wake-up delay.
    pub const DEFAULT_EARLY: Duration = Duration::from_millis(2);

    /// A wait of the given mode; when precise, its margin adapts.
    pub fn new(mode: WaitMode) -> Self {
        Self {
            mode,
            margin: WakeMargin::new(),
            fixed: None,
            asked: None,
            woken_for: None,
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

    /// How long before the deadline the OS is asked to wake now.
    pub fn early(&self) -> Duration {
        self.fixed.unwrap_or(self.margin.margin())
    }

    /// The lateness readings behind the margin.
    pub fn wake_margin(&self) -> &WakeMargin {
        &self.margin
    }

    /// When the OS should wake the loop to wait for `deadline`, seen at `now`; `None` when
    /// the OS wait is over (or not worth starting) and the rest is to be spun. A call after
    /// the OS woke the loop for an earlier answer measures how late it was.
    pub fn os_wake(&mut self, deadline: Instant, now: Instant) -> Option<Instant> {
        // No `let` chains: they need Rust 1.88, and the crate builds on 1.85.
        let answered = self
            .asked
            .filter(|&(asked, asked_for)| now >= asked || asked_for != deadline);
        if let Some((asked, asked_for)) = answered {
            self.asked = None;
            // Only a wake-up for this deadline measures the OS: one asked for another (a
            // frame that never came, a window hidden meanwhile) says nothing.
            if asked_for == deadline {
                self.margin.observe(now - asked);
                self.woken_for = Some(deadline);
            }
        }
        if self.woken_for == Some(deadline) {
            return None;
        }
        let wake = match self.mode {
            WaitMode::Naive => (deadline > now).then_some(deadline),
            WaitMode::Precise => deadline
                .checked_sub(self.early())
                .filter(|&wake| wake > now),
        };
        if let Some(wake) = wake {
            self.asked = Some((wake, deadline));
        }
        wake
    }

    /// Forgets the wake-up asked for, if any: the loop stopped waiting for it (the window
    /// was hidden, the deadline grid started afresh). What the margin learnt is kept.
    pub fn forget(&mut self) {
        self.asked = None;
        self.woken_for = None;
    }

    /// Spins out what is left before `deadline` (nothing in naive mode, which trusted the
    /// OS).
    pub fn finish(&self, deadline: Instant) {
        if self.mode == WaitMode::Precise {
            let left = deadline.saturating_duration_since(Instant::now());
            // Spin all of it: the OS wait is over, and another sleep could overshoot.
            let accuracy = u32::try_from(left.as_nanos())
                .unwrap_or(u32::MAX)
                .saturating_add(1);
            spin_sleep::SpinSleeper::new(accuracy)
                .with_spin_strategy(spin_sleep::SpinStrategy::SpinLoopHint)
                .sleep_until(deadline);
        }
    }

    /// Blocks the thread until `deadline`: a plain sleep to the early wake-up, then
    /// [`finish`](FrameWait::finish).
    pub fn sleep_until(&mut self, deadline: Instant) {
        if let Some(wake) = self.os_wake(deadline, Instant::now()) {
            std::thread::sleep(wake.saturating_duration_since(Instant::now()));
            self.os_wake(deadline, Instant::now());
        }
        self.finish(deadline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn precise_mode_wakes_early_and_finishes_itself() {
        let mut w = FrameWait::new(WaitMode::Precise);
        let now = Instant::now();
        let deadline = now + Duration::from_millis(10);
        assert_eq!(
            w.os_wake(deadline, now),
            Some(deadline - Duration::from_millis(2))
        );
        // Within the last two milliseconds: no OS wait, the spin finishes.
        assert_eq!(
            w.os_wake(deadline, deadline - Duration::from_millis(1)),
            None
        );
        let mut late = FrameWait::new(WaitMode::Precise).with_early(Duration::from_micros(500));
        assert_eq!(
            late.os_wake(deadline, now),
            Some(deadline - Duration::from_micros(500))
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
    fn the_margin_follows_how_late_the_os_wakes() {
        let mut w = FrameWait::new(WaitMode::Precise);
        let start = Instant::now();
        let ms = Duration::from_millis;
        assert_eq!(w.early(), FrameWait::DEFAULT_EARLY);
        // Frames 16 ms apart; the OS wakes each one 700 us after the time asked.
        for k in 1..=20u32 {
            let deadline = start + ms(16) * k;
            let asked = w.os_wake(deadline, deadline - ms(10)).unwrap();
            assert_eq!(asked, deadline - w.early());
            let woke = asked + Duration::from_micros(700);
            // Woken, the loop asks again: within the margin, it spins.
            assert_eq!(w.os_wake(deadline, woke), None);
        }
        assert_eq!(w.wake_margin().readings(), 20);
        assert_eq!(w.early(), Duration::from_micros(700) + WakeMargin::HEADROOM);
        // A wake by some other event (a key) before the time asked is not a reading.
        let deadline = start + ms(400);
        let asked = w.os_wake(deadline, deadline - ms(10)).unwrap();
        assert!(w.os_wake(deadline, asked - ms(3)).is_some());
        assert_eq!(w.wake_margin().readings(), 20);
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
