//! The frame-cap wait: how the window's loop waits for its next frame's start without
//! blocking the event loop. The timing crate's `FrameWait` decides how long to let the OS
//! sleep (to an approach, then in shrinking naps) and when to spin; this puts it on the wall clock and says what the event loop
//! should do. In a browser nothing may block or spin: there the loop only asks the event
//! loop to wake it at the deadline (a timer of the page's).

use std::time::Duration;

#[cfg(not(target_arch = "wasm32"))]
use looplab_timing::FrameWait;
use looplab_timing::{SpinTally, WaitMode, Wake};
use serde::{Deserialize, Serialize};

use super::clock::{Instant, WallClock};

/// What the event loop should do until the next frame may start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// The wake time has come: start the frame.
    Go,
    /// Let the OS put the loop to sleep until then, and ask again.
    SleepUntil(Instant),
    /// The last stretch: come round again at once (spinning through the event loop, so
    /// input that arrives meanwhile is still delivered to this frame).
    Spin,
}

/// Which wait ends a window's frame-cap waits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CapWait {
    /// The same wait for every deadline.
    Only(WaitMode),
    /// The naive and the precise wait in turn, half a second each ([`alternating_mode`]),
    /// so that `looplab bench` compares them under the same moments of the machine.
    Alternating,
}

impl CapWait {
    /// `precise`, `naive` or `alternating`.
    pub fn id(self) -> &'static str {
        match self {
            CapWait::Only(mode) => mode.id(),
            CapWait::Alternating => "alternating",
        }
    }
}

/// How long each wait has the deadlines when they alternate.
pub const ALTERNATION: Duration = Duration::from_millis(500);

/// When the waits alternate, the one that waits for a deadline at `deadline` on the loop's
/// clock: naive in even half-seconds, precise in odd ones.
pub fn alternating_mode(deadline: Duration) -> WaitMode {
    if (deadline.as_nanos() / ALTERNATION.as_nanos()).is_multiple_of(2) {
        WaitMode::Naive
    } else {
        WaitMode::Precise
    }
}

/// The window's frame-cap wait.
#[derive(Clone, Debug)]
pub struct FramePacer {
    #[cfg(not(target_arch = "wasm32"))]
    choice: CapWait,
    /// The naive wait and the precise one; only the chosen one is used unless they alternate.
    #[cfg(not(target_arch = "wasm32"))]
    waits: [FrameWait; 2],
}

/// How the wait went, for `--stats`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FrameWaitReport {
    /// `precise`, `naive` or `alternating`.
    pub mode: String,
    /// How long before a deadline the precise wait's spin begins, ms (after its naps).
    pub early_ms: f64,
    /// The OS wake-ups from naps the margin has learnt from (at most the last 64).
    pub wake_readings: usize,
    /// Deadlines whose last stretch was spun.
    #[serde(default)]
    pub spins: u64,
    /// Turns of the spins that gave the CPU away.
    #[serde(default)]
    pub spin_yields: u64,
    /// Spins the OS interrupted (a turn more than 0.2 ms after the one before).
    #[serde(default)]
    pub spins_interrupted: u64,
    /// Waits that ended over 0.2 ms after their deadline (the deadline grid restarted).
    #[serde(default)]
    pub waits_late: u64,
    /// Time spent spinning, ms.
    #[serde(default)]
    pub spun_ms: f64,
}

impl FrameWaitReport {
    fn new(mode: &str, early: Duration, wake_readings: usize, tally: SpinTally) -> Self {
        Self {
            mode: mode.to_string(),
            early_ms: early.as_secs_f64() * 1e3,
            wake_readings,
            spins: tally.spins,
            spin_yields: tally.yields,
            spins_interrupted: tally.interrupted,
            waits_late: tally.late,
            spun_ms: tally.spun.as_secs_f64() * 1e3,
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl FramePacer {
    /// A wait that ends as `choice` says (`looplab bench` compares the two).
    pub fn new(choice: CapWait) -> Self {
        Self {
            choice,
            waits: [
                FrameWait::new(WaitMode::Naive),
                FrameWait::new(WaitMode::Precise),
            ],
        }
    }

    /// The wait for a deadline at `t`.
    fn wait_for(&mut self, t: Duration) -> &mut FrameWait {
        let mode = match self.choice {
            CapWait::Only(mode) => mode,
            CapWait::Alternating => alternating_mode(t),
        };
        &mut self.waits[usize::from(mode == WaitMode::Precise)]
    }

    /// What to do now to wait for `wake` on `clock`. In the last stretch each call is one
    /// turn of the precise wait's spin, which gives the CPU away while that is safe.
    pub fn pace(&mut self, clock: &WallClock, wake: Wake) -> Pace {
        let Wake::At(t) = wake else {
            return Pace::Go;
        };
        let deadline = clock.instant_at(t);
        let now = clock.instant_now();
        let wait = self.wait_for(t);
        if let Some(until) = wait.os_wake(deadline, now) {
            return Pace::SleepUntil(until);
        }
        // The naive wait trusted the OS: a loop woken early (by an event) waits again.
        let ahead = match wait.mode() {
            WaitMode::Naive => now < deadline,
            _ => wait.spin_turn(deadline),
        };
        if ahead { Pace::Spin } else { Pace::Go }
    }

    /// Forgets the wake-up asked for: the loop stopped waiting for it (the window was
    /// hidden). What the margin learnt is kept.
    pub fn forget(&mut self) {
        self.waits.iter_mut().for_each(FrameWait::forget);
    }

    /// Whether the wait that just ended was late because the CPU was away (the precise
    /// wait notices; the naive one does not look): the loop then restarts its deadline
    /// grid rather than making the next frame short.
    pub fn take_late(&mut self) -> bool {
        // Both are asked, so neither keeps a lateness for a later frame.
        let mut late = false;
        for wait in &mut self.waits {
            late |= wait.take_late().is_some();
        }
        late
    }

    pub fn report(&self) -> FrameWaitReport {
        let shown = match self.choice {
            CapWait::Only(mode) => &self.waits[usize::from(mode == WaitMode::Precise)],
            CapWait::Alternating => &self.waits[1],
        };
        FrameWaitReport::new(
            self.choice.id(),
            shown.early(),
            shown.wake_margin().readings(),
            shown.spin_tally(),
        )
    }
}

#[cfg(target_arch = "wasm32")]
impl FramePacer {
    /// The page's wait: it has one way, whatever `choice` says.
    pub fn new(_choice: CapWait) -> Self {
        Self {}
    }

    /// What to do now to wait for `wake` on `clock`: let the page's timer wake the loop at
    /// the deadline.
    pub fn pace(&mut self, clock: &WallClock, wake: Wake) -> Pace {
        match wake {
            Wake::At(t) if t > clock.now() => Pace::SleepUntil(clock.instant_at(t)),
            _ => Pace::Go,
        }
    }

    /// Nothing to forget: the page's timer is asked afresh each time.
    pub fn forget(&mut self) {}

    /// The page's timer is not watched.
    pub fn take_late(&mut self) -> bool {
        false
    }

    pub fn report(&self) -> FrameWaitReport {
        FrameWaitReport::new("page timer", Duration::ZERO, 0, SpinTally::default())
    }
}

/// How often a hidden window that runs on (`--run-hidden`) runs a frame at most: it never
/// draws, so it need not spin.
pub const HIDDEN_FRAME_INTERVAL: Duration = Duration::from_millis(10);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_sleeps_then_spins_then_goes() {
        let clock = WallClock::start();
        let mut pacer = FramePacer::new(CapWait::Only(WaitMode::Precise));
        assert_eq!(pacer.pace(&clock, Wake::Immediately), Pace::Go);
        // A deadline long past: go at once.
        assert_eq!(pacer.pace(&clock, Wake::At(Duration::ZERO)), Pace::Go);
        // A deadline a minute away: sleep until the approach before it, where the naps begin.
        let far = clock.now() + Duration::from_secs(60);
        match pacer.pace(&clock, Wake::At(far)) {
            Pace::SleepUntil(until) => {
                let early = clock.instant_at(far) - until;
                assert_eq!(early, looplab_timing::FrameWait::APPROACH);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(pacer.report().mode, "precise");
    }
}
