//! A frame cap's precision in a headless loop with the real clock: a plain sleep to the
//! deadline and the precise wait (`FrameWait`) in turn, each interval's stall put down to
//! how its wait ended.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::bench::measure::{Spread, bootstrap, mean, percentile, stddev};
use crate::platform::frame_wait::{ALTERNATION, alternating_mode};
use crate::session::Session;
use crate::world::WorldConfig;
use looplab_timing::{FrameWait, LoopSettings, Rate, Strategy, SystemClock, WaitMode, Wake};

/// How precisely a frame cap held.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PacingResult {
    pub rate_hz: f64,
    /// How the wait for each deadline ended.
    #[serde(with = "crate::text::serde_ids::wait_mode")]
    pub mode: WaitMode,
    pub frames: usize,
    pub mean_interval_ms: f64,
    pub stddev_ms: f64,
    /// 99th percentile of |interval - target|.
    pub p99_error_ms: f64,
    /// Intervals more than [`STALL_MS`] off target: times the process did not run at all (a
    /// scheduler or hypervisor stall, or a frame that overran), not pacing error.
    pub stalls: usize,
    /// Standard deviation of the other intervals.
    pub stddev_without_stalls_ms: f64,
    /// What made the stalls, as far as the loop could tell.
    #[serde(default)]
    pub stall_causes: StallCauses,
    /// Standard deviation of the intervals the wait decided, stalls counted: all but those
    /// whose wait began after its deadline, by however little (the frame's own work
    /// overran: there was nothing to wait for), and the short one after each, the grid
    /// catching up on that frame's lateness. What the wait itself did, however the frames
    /// went.
    #[serde(default)]
    pub stddev_own_ms: f64,
    /// Process CPU over the run, percent of one core.
    pub cpu_percent: f64,
}

impl PacingResult {
    /// Summarizes frame start times (in any clock's nanoseconds) and the CPU used.
    pub fn from_starts(
        rate_hz: f64,
        mode: WaitMode,
        starts_ns: &[u64],
        cpu: Duration,
        wall: Duration,
    ) -> Self {
        let intervals: Vec<f64> = starts_ns
            .windows(2)
            .map(|w| (w[1].saturating_sub(w[0])) as f64 / 1e6)
            .collect();
        Self::from_intervals(rate_hz, mode, &intervals, cpu, wall)
    }

    /// Summarizes frame intervals in milliseconds and the CPU used over `wall`.
    pub fn from_intervals(
        rate_hz: f64,
        mode: WaitMode,
        intervals: &[f64],
        cpu: Duration,
        wall: Duration,
    ) -> Self {
        let ends = vec![WaitEnd::Unknown; intervals.len()];
        Self::from_waits(rate_hz, mode, intervals, &ends, cpu, wall)
    }

    /// Summarizes frame intervals in milliseconds, each with how the wait that ended it
    /// went, and the CPU used over `wall`.
    pub fn from_waits(
        rate_hz: f64,
        mode: WaitMode,
        intervals: &[f64],
        ends: &[WaitEnd],
        cpu: Duration,
        wall: Duration,
    ) -> Self {
        let target = 1000.0 / rate_hz;
        let mut stall_causes = StallCauses::default();
        for (&interval, &end) in intervals.iter().zip(ends) {
            stall_causes.count(interval - target, end);
        }
        let errors: Vec<f64> = intervals.iter().map(|i| (i - target).abs()).collect();
        let steady: Vec<f64> = intervals
            .iter()
            .copied()
            .filter(|i| (i - target).abs() <= STALL_MS)
            .collect();
        let overran = |i: usize| ends[i] == WaitEnd::Overran;
        let own: Vec<f64> = (0..intervals.len().min(ends.len()))
            .filter(|&i| {
                let catching_up = i > 0 && overran(i - 1) && intervals[i] < target;
                !overran(i) && !catching_up
            })
            .map(|i| intervals[i])
            .collect();
        PacingResult {
            rate_hz,
            mode,
            frames: intervals.len(),
            mean_interval_ms: mean(intervals),
            stddev_ms: stddev(intervals),
            p99_error_ms: percentile(&errors, 99.0),
            stalls: intervals.len() - steady.len(),
            stddev_without_stalls_ms: stddev(&steady),
            stall_causes,
            stddev_own_ms: stddev(&own),
            cpu_percent: cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9) * 100.0,
        }
    }
}

/// An interval this far off target is a stall, not pacing error. On this kind of machine an
/// OS timer wakes a thread within 0.3 ms of the time asked for, except when the machine
/// takes the CPU away, and then it is 0.5 ms to several milliseconds late: measured over
/// 11,520 sleeps of each wait at 144 Hz, 2 wake-ups fell between 0.3 and 0.5 ms and 29 beyond
/// it, for the naive and the precise wait alike. No wait can make up for a CPU it does not
/// have, so these are counted apart from the wait's own error.
pub const STALL_MS: f64 = 0.5;

/// How the wait that ended a frame interval went, as far as the loop could see.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WaitEnd {
    /// Not recorded.
    #[default]
    Unknown,
    /// The loop waited and came out of the wait; how, its record does not say (the
    /// window's log).
    Waited,
    /// The wait began after its deadline: the frame's own work, or the machine during it,
    /// ran past it, and there was nothing to wait for.
    Overran,
    /// The OS's last wake-up came after the deadline.
    WokeLate,
    /// The precise wait's spin lost the CPU on the way to the deadline.
    SpinInterrupted,
    /// The wait ended by its deadline: what made the interval long came after it.
    OnTime,
}

/// What made a run's stalls. A long interval is put down to how the wait that ended it
/// went; a short one is the grid catching up after a late frame (a wait that does not
/// restart the grid after a late frame makes two stalls of one lateness).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StallCauses {
    /// The frame's work ran past the deadline before the wait began.
    pub overran: usize,
    /// The OS woke the loop after the deadline.
    pub woke_late: usize,
    /// The precise wait's spin lost the CPU.
    pub spin_interrupted: usize,
    /// The loop came out of its wait late, how its record does not say.
    pub late_from_wait: usize,
    /// Short intervals: the next deadline kept its place after a late frame.
    pub catching_up: usize,
    /// Long intervals whose wait ended on time, or whose wait is not known.
    pub other: usize,
}

impl StallCauses {
    /// Counts an interval `off` its target (ms) that ended with `end`, if it is a stall.
    fn count(&mut self, off: f64, end: WaitEnd) {
        if off.abs() <= STALL_MS {
            return;
        }
        let tally = if off < 0.0 {
            &mut self.catching_up
        } else {
            match end {
                WaitEnd::Overran => &mut self.overran,
                WaitEnd::WokeLate => &mut self.woke_late,
                WaitEnd::SpinInterrupted => &mut self.spin_interrupted,
                WaitEnd::Waited => &mut self.late_from_wait,
                WaitEnd::Unknown | WaitEnd::OnTime => &mut self.other,
            }
        };
        *tally += 1;
    }

    /// `3 woke late, 1 overran`: the causes that made any stall, most first.
    pub fn describe(&self) -> String {
        let mut causes = [
            (self.overran, "overran"),
            (self.woke_late, "woke late"),
            (self.spin_interrupted, "spin lost the CPU"),
            (self.late_from_wait, "late from the wait"),
            (self.catching_up, "short, catching up"),
            (self.other, "late after the wait"),
        ];
        causes.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
        causes
            .iter()
            .filter(|&&(n, _)| n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Waits for `deadline` as [`FrameWait::sleep_until`] does (plain sleeps for the OS's
/// wake-ups, then the spin), noting how the wait went.
fn wait_noting(wait: &mut FrameWait, deadline: Instant) -> WaitEnd {
    let began = Instant::now();
    let mut last_wake = None;
    while let Some(wake) = wait.os_wake(deadline, Instant::now()) {
        std::thread::sleep(wake.saturating_duration_since(Instant::now()));
        last_wake = Some(Instant::now());
    }
    let interrupted = wait.spin_tally().interrupted;
    wait.finish(deadline);
    if began > deadline {
        WaitEnd::Overran
    } else if last_wake.is_some_and(|woke| woke > deadline) {
        WaitEnd::WokeLate
    } else if wait.spin_tally().interrupted > interrupted {
        WaitEnd::SpinInterrupted
    } else {
        WaitEnd::OnTime
    }
}

fn cpu_now() -> Duration {
    crate::platform::process::cpu_time().unwrap_or_default()
}

/// One frame of a capped run, as the pacing figures read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PacedFrame {
    /// When it started, on the loop's clock.
    pub start: Duration,
    /// The deadline the next frame's start waited for, on the same clock.
    pub deadline: Option<Duration>,
    /// The process's CPU time at its start (or its end: the same for every frame).
    pub cpu: Duration,
    /// How the wait for `deadline` went.
    pub wait_end: WaitEnd,
}

/// A frame cap run with the naive and the precise wait in turn, half a second each
/// ([`ALTERNATION`]), so that the busy moments of the machine fall on both alike.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PacingPair {
    pub rate_hz: f64,
    pub naive: PacingResult,
    pub precise: PacingResult,
    /// The precise wait's interval stddev over the naive wait's, stalls counted: below 1
    /// where the precise wait wins. Its spread is over the run's pairs of half-seconds.
    pub stddev_ratio: Spread,
    /// The same over the intervals each wait decided ([`PacingResult::stddev_own_ms`]):
    /// frames that overran their deadline, and the catch-up after each, left out.
    #[serde(default)]
    pub own_stddev_ratio: Option<Spread>,
    /// The precise wait's interval stddev, stalls counted, ms.
    pub precise_stddev: Spread,
    /// The precise wait's p99 |interval - target|, ms.
    pub precise_p99: Spread,
    /// The process's CPU in the precise half-seconds over the naive ones'.
    pub cpu_ratio: Spread,
}

/// The frames of one half-second, all waited for by one wait.
#[derive(Default)]
struct Block {
    intervals: Vec<f64>,
    ends: Vec<WaitEnd>,
    cpu: Duration,
    wall: Duration,
}

impl PacingPair {
    /// Splits a run's frames by the wait that ended each interval (the one that waited for
    /// the deadline the interval's first frame set), leaving out the intervals that begin
    /// at a frame the other wait woke, and pairs each naive half-second with the precise
    /// one after it.
    pub fn from_frames(rate_hz: f64, frames: &[PacedFrame]) -> Self {
        let pairs = paired(half_seconds(frames));
        let summary = |drawn: &[&(Block, Block)], precise: bool| {
            let blocks = drawn.iter().map(|(n, p)| if precise { p } else { n });
            let (mut intervals, mut ends) = (Vec::new(), Vec::new());
            let (mut cpu, mut wall) = (Duration::ZERO, Duration::ZERO);
            for b in blocks {
                intervals.extend_from_slice(&b.intervals);
                ends.extend_from_slice(&b.ends);
                cpu += b.cpu;
                wall += b.wall;
            }
            let mode = if precise {
                WaitMode::Precise
            } else {
                WaitMode::Naive
            };
            PacingResult::from_waits(rate_hz, mode, &intervals, &ends, cpu, wall)
        };
        let ratio = |a: f64, b: f64| a / b.max(1e-9);
        PacingPair {
            rate_hz,
            naive: summary(&pairs.iter().collect::<Vec<_>>(), false),
            precise: summary(&pairs.iter().collect::<Vec<_>>(), true),
            stddev_ratio: bootstrap(&pairs, |d| {
                ratio(summary(d, true).stddev_ms, summary(d, false).stddev_ms)
            }),
            own_stddev_ratio: Some(bootstrap(&pairs, |d| {
                ratio(
                    summary(d, true).stddev_own_ms,
                    summary(d, false).stddev_own_ms,
                )
            })),
            precise_stddev: bootstrap(&pairs, |d| summary(d, true).stddev_ms),
            precise_p99: bootstrap(&pairs, |d| summary(d, true).p99_error_ms),
            cpu_ratio: bootstrap(&pairs, |d| {
                ratio(summary(d, true).cpu_percent, summary(d, false).cpu_percent)
            }),
        }
    }
}

/// The intervals of `frames` in half-second blocks, each keyed by its pair of half-seconds
/// and whether the precise wait paced it. An interval from a frame the other wait woke to
/// one this wait woke is neither's: the first of each half-second is left out.
fn half_seconds(frames: &[PacedFrame]) -> Vec<((u128, bool), Block)> {
    let mut blocks: Vec<((u128, bool), Block)> = Vec::new();
    for w in frames.windows(3) {
        let (Some(before), Some(deadline)) = (w[0].deadline, w[1].deadline) else {
            continue;
        };
        let precise = alternating_mode(deadline) == WaitMode::Precise;
        if (alternating_mode(before) == WaitMode::Precise) != precise {
            continue;
        }
        let w = &w[1..];
        let key = (deadline.as_nanos() / ALTERNATION.as_nanos() / 2, precise);
        if blocks.last().is_none_or(|(k, _)| *k != key) {
            blocks.push((key, Block::default()));
        }
        let Some((_, block)) = blocks.last_mut() else {
            continue;
        };
        let wall = w[1].start.saturating_sub(w[0].start);
        block.intervals.push(wall.as_secs_f64() * 1e3);
        block.ends.push(w[0].wait_end);
        block.cpu += w[1].cpu.saturating_sub(w[0].cpu);
        block.wall += wall;
    }
    blocks
}

/// Each naive half-second with the precise one after it in the same pair; a half-second
/// whose partner is missing is left out.
fn paired(blocks: Vec<((u128, bool), Block)>) -> Vec<(Block, Block)> {
    let mut pairs = Vec::new();
    let mut naive: Option<(u128, Block)> = None;
    for ((pair, precise), block) in blocks {
        match (precise, naive.take()) {
            (false, _) => naive = Some((pair, block)),
            (true, Some((n, naive_block))) if n == pair => pairs.push((naive_block, block)),
            (true, _) => {}
        }
    }
    pairs
}

/// Runs the interpolated loop capped at `rate_hz` for `seconds` with a light world, the
/// naive wait (one plain sleep to the deadline) and the precise one in turn.
pub fn pacing(rate_hz: f64, seconds: f64) -> PacingPair {
    let settings = LoopSettings::default().with_frame_cap(Rate::hz(rate_hz).ok());
    let mut session = Session::new(
        Strategy::Interpolated,
        settings,
        &WorldConfig {
            seed: 1,
            bullets: 200,
        },
    );
    let mut waits = [
        FrameWait::new(WaitMode::Naive),
        FrameWait::new(WaitMode::Precise),
    ];
    let clock = SystemClock::start();
    let end = Duration::from_secs_f64(seconds);
    let mut frames = Vec::new();
    while clock.now() < end {
        let start = clock.now();
        let plan = session.frame(start, |_, _| {});
        let deadline = match plan.wake {
            Wake::At(t) => Some(t),
            Wake::Immediately => None,
        };
        let mut frame = PacedFrame {
            start,
            deadline,
            cpu: cpu_now(),
            wait_end: WaitEnd::Unknown,
        };
        if let Some(t) = deadline {
            let wait = &mut waits[usize::from(alternating_mode(t) == WaitMode::Precise)];
            frame.wait_end = wait_noting(wait, clock.instant_at(t));
            // As the window does: a wait the machine made late restarts the grid.
            if wait.take_late().is_some() {
                session.restart_deadlines();
            }
        }
        frames.push(frame);
    }
    PacingPair::from_frames(rate_hz, &frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pacing_summary_of_known_frame_starts() {
        // Starts every 16.7 and 16.3 ms alternately against a 60 Hz target.
        let starts: Vec<u64> = (0..101u64)
            .map(|i| i * 16_500_000 + (i % 2) * 200_000)
            .collect();
        let r = PacingResult::from_starts(
            60.0,
            WaitMode::Naive,
            &starts,
            Duration::from_millis(100),
            Duration::from_secs(1),
        );
        assert_eq!(r.frames, 100);
        assert!((r.mean_interval_ms - 16.5).abs() < 1e-9);
        assert!((r.stddev_ms - 0.2).abs() < 1e-9);
        assert!((r.p99_error_ms - (1000.0 / 60.0 - 16.3)).abs() < 1e-9);
        assert!((r.cpu_percent - 10.0).abs() < 1e-9);
        assert_eq!(r.stalls, 0);
        // 0.6 ms off is a stall (the CPU was away), 0.4 ms is not.
        let starts = [0, 16_666_667 + 600_000, 33_333_333 + 200_000, 50_000_000];
        let r = PacingResult::from_starts(
            60.0,
            WaitMode::Naive,
            &starts,
            Duration::ZERO,
            Duration::from_secs(1),
        );
        assert_eq!(r.stalls, 1, "intervals 0.6, 0.4 and 0.2 ms off");

        // One 10 ms stall (and the short frame after it that keeps the grid).
        let mut starts: Vec<u64> = (0..100u64).map(|i| i * 16_666_667).collect();
        for s in starts.iter_mut().skip(50) {
            *s += 10_000_000;
        }
        let r = PacingResult::from_starts(
            60.0,
            WaitMode::Precise,
            &starts,
            Duration::ZERO,
            Duration::from_secs(1),
        );
        assert_eq!(r.stalls, 1);
        assert!(r.stddev_ms > 0.9 && r.stddev_without_stalls_ms < 1e-6);
    }

    #[test]
    fn a_stall_is_put_down_to_how_its_wait_went() {
        let mut causes = StallCauses::default();
        // Within the threshold either way: not a stall, whatever the wait did.
        causes.count(STALL_MS, WaitEnd::WokeLate);
        causes.count(-STALL_MS, WaitEnd::Overran);
        assert_eq!(causes, StallCauses::default());
        for end in [
            WaitEnd::Overran,
            WaitEnd::WokeLate,
            WaitEnd::WokeLate,
            WaitEnd::SpinInterrupted,
            WaitEnd::Waited,
            WaitEnd::OnTime,
            WaitEnd::Unknown,
        ] {
            causes.count(2.0, end);
        }
        // A short interval is the grid catching up, however its wait went.
        causes.count(-2.0, WaitEnd::OnTime);
        let expected = StallCauses {
            overran: 1,
            woke_late: 2,
            spin_interrupted: 1,
            late_from_wait: 1,
            catching_up: 1,
            other: 2,
        };
        assert_eq!(causes, expected);
        assert_eq!(
            causes.describe(),
            "2 woke late, 2 late after the wait, 1 overran, 1 spin lost the CPU, \
             1 late from the wait, 1 short, catching up"
        );
    }

    #[test]
    fn a_frame_that_overran_and_the_catch_up_after_it_are_not_the_waits_own() {
        // 60 Hz: on time, a frame that overran by 3 ms and the short interval after it, one
        // that overran by 0.1 ms (not a stall) and its catch-up, then a wake-up 3 ms late
        // and its short interval.
        let t = 1e3 / 60.0;
        let intervals = [t, t + 3.0, t - 3.0, t + 0.1, t - 0.1, t + 3.0, t - 3.0, t];
        let ends = [
            WaitEnd::OnTime,
            WaitEnd::Overran,
            WaitEnd::OnTime,
            WaitEnd::Overran,
            WaitEnd::OnTime,
            WaitEnd::WokeLate,
            WaitEnd::OnTime,
            WaitEnd::OnTime,
        ];
        let summarize = |ends: &[WaitEnd]| {
            let wall = Duration::from_secs(1);
            PacingResult::from_waits(
                60.0,
                WaitMode::Naive,
                &intervals,
                ends,
                Duration::ZERO,
                wall,
            )
        };
        let r = summarize(&ends);
        assert_eq!(r.stalls, 4);
        // The late wake-up and its catch-up are the wait's: they stay.
        let own = [t, t + 3.0, t - 3.0, t];
        assert!((r.stddev_own_ms - stddev(&own)).abs() < 1e-9, "{r:?}");
        assert!(r.stddev_own_ms < r.stddev_ms && r.stddev_own_ms > 1.0);
        // With no overrun, the wait's own intervals are all of them.
        let r = summarize(&[WaitEnd::OnTime; 8]);
        assert_eq!(r.stddev_own_ms, r.stddev_ms);
    }

    #[test]
    fn a_wait_begun_after_its_deadline_overran() {
        for mode in [WaitMode::Naive, WaitMode::Precise] {
            let mut wait = FrameWait::new(mode);
            let deadline = Instant::now() - Duration::from_millis(1);
            assert_eq!(
                wait_noting(&mut wait, deadline),
                WaitEnd::Overran,
                "{mode:?}"
            );
        }
    }

    #[test]
    fn alternating_waits_are_told_apart_by_the_deadline_they_waited_for() {
        // 10 s at 60 Hz. The naive half-seconds start 0.2 ms late every other frame; the
        // precise ones are exact, but for one 3 ms stall in the precise half-second from 7.5 s.
        let period = 16_666_667u64;
        let mut frames = Vec::new();
        let mut cpu = Duration::ZERO;
        for i in 0..600u64 {
            let on_grid = Duration::from_nanos(i * period);
            let naive = alternating_mode(on_grid) == WaitMode::Naive;
            let mut start = on_grid;
            if naive && i % 2 == 1 {
                start += Duration::from_micros(200);
            }
            if i == 460 {
                start += Duration::from_millis(3);
            }
            // The precise wait spends 1 ms of CPU a frame, the naive one 0.5 ms.
            cpu += Duration::from_micros(if naive { 500 } else { 1000 });
            frames.push(PacedFrame {
                start,
                deadline: Some(Duration::from_nanos((i + 1) * period)),
                cpu,
                // The wait that ended frame 459 woke 3 ms late.
                wait_end: if i == 459 {
                    WaitEnd::WokeLate
                } else {
                    WaitEnd::OnTime
                },
            });
        }
        let pair = PacingPair::from_frames(60.0, &frames);
        assert_eq!(
            pair.precise.stalls, 2,
            "the late frame and the short one after it"
        );
        assert_eq!(
            pair.precise.stall_causes,
            StallCauses {
                woke_late: 1,
                catching_up: 1,
                ..StallCauses::default()
            }
        );
        assert_eq!(
            pair.precise.stall_causes.describe(),
            "1 woke late, 1 short, catching up"
        );
        assert_eq!(pair.naive.stalls, 0);
        assert_eq!(pair.naive.stall_causes.describe(), "");
        assert!(pair.naive.stddev_without_stalls_ms > 0.09);
        assert!(pair.precise.stddev_without_stalls_ms < 1e-6);
        // One stall of 3 ms outweighs the naive wait's steady 0.1 ms: the precise wait
        // loses with the stall counted, and the spread says how much that one pair decides.
        assert!(pair.stddev_ratio.value > 1.0, "{:?}", pair.stddev_ratio);
        assert!(pair.stddev_ratio.low < pair.stddev_ratio.value);
        // The CPU of each frame goes to the wait that ended the frame's interval.
        assert!(
            (pair.cpu_ratio.value - 2.0).abs() < 0.1,
            "{:?}",
            pair.cpu_ratio
        );
        // 599 intervals less the first of each of the 20 half-seconds but the first.
        assert_eq!(pair.naive.frames + pair.precise.frames, 599 - 1 - 19);
    }
}
