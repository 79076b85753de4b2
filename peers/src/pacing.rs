//! Frame limiters in real time (`looplab-peers bench`, or `looplab bench --peers`): each
//! paces a loop to a cap with the real clock and real sleeps, and the run measures what the
//! loop got: the interval between frame starts (mean, spread, 99th percentile), frames that
//! came late or early, and the CPU the waiting cost.
//!
//! The loop's work is modelled: 2 ms a frame, and every 60th frame one and a half periods
//! (a hitch), so each limiter shows what it does after a frame that missed its tick (Burst
//! catches up with short frames, Delay and Skip start again). Every limiter runs every cap
//! three times, in one run, on this machine as it is at that moment: compare rows, not runs.

use std::time::{Duration, Instant};

use serde::Serialize;
use spin_sleep_util::MissedTickBehavior;

use looplab_timing::{DeadlineGrid, FrameWait, Rate, WaitMode, Wake};

/// A frame limiter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Limiter {
    /// looplab-timing: deadlines on a grid (`DeadlineGrid`), the precise wait (`FrameWait`).
    Looplab,
    /// spin_sleep_util 0.1.1's `Interval`, in each of its missed-tick modes.
    IntervalBurst,
    IntervalDelay,
    IntervalSkip,
    /// bevy_framepace 0.22.0's limiter, ported: sleep the limit less the frame's work and
    /// the last oversleep, with spin_sleep.
    FramepacePort,
    /// `thread::sleep` for the period less the frame's work.
    ThreadSleep,
}

impl Limiter {
    pub const ALL: [Limiter; 6] = [
        Limiter::Looplab,
        Limiter::IntervalBurst,
        Limiter::IntervalDelay,
        Limiter::IntervalSkip,
        Limiter::FramepacePort,
        Limiter::ThreadSleep,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Limiter::Looplab => "looplab-timing",
            Limiter::IntervalBurst => "spin_sleep_util Burst",
            Limiter::IntervalDelay => "spin_sleep_util Delay",
            Limiter::IntervalSkip => "spin_sleep_util Skip",
            Limiter::FramepacePort => "bevy_framepace (port)",
            Limiter::ThreadSleep => "thread::sleep",
        }
    }
}

/// One limiter pacing one cap once.
#[derive(Clone, Debug, Serialize)]
pub struct PacingRun {
    pub limiter: Limiter,
    pub name: &'static str,
    pub cap_hz: f64,
    pub repeat: u32,
    pub frames: usize,
    pub mean_ms: f64,
    pub stddev_ms: f64,
    pub p99_ms: f64,
    /// Intervals more than a millisecond longer than the period, the hitches' own left out.
    pub late: usize,
    /// Intervals more than a millisecond shorter than the period.
    pub early: usize,
    /// The thread's CPU time over the run's wall time.
    pub cpu_share: f64,
}

/// Every frame's work: 2 ms, and a hitch of one and a half periods every 60th frame.
fn work(frame: usize, period: Duration) -> Duration {
    if frame % 60 == 59 {
        period.mul_f64(1.5)
    } else {
        Duration::from_millis(2)
    }
}

fn spin_for(d: Duration) {
    let until = Instant::now() + d;
    while Instant::now() < until {
        std::hint::spin_loop();
    }
}

/// Paces `frames` frames at `cap` with `limiter`.
pub fn pace(limiter: Limiter, cap: Rate, frames: usize, repeat: u32) -> PacingRun {
    let period = cap.period();
    let cpu_start = cpu_time::ThreadTime::now();
    let origin = Instant::now();
    let mut starts: Vec<Instant> = Vec::with_capacity(frames + 1);
    let mut grid = DeadlineGrid::new();
    let mut wait = FrameWait::new(WaitMode::Precise);
    let behaviour = match limiter {
        Limiter::IntervalBurst => MissedTickBehavior::Burst,
        Limiter::IntervalDelay => MissedTickBehavior::Delay,
        _ => MissedTickBehavior::Skip,
    };
    let mut interval = spin_sleep_util::interval(period).with_missed_tick_behavior(behaviour);
    let (mut sleep_end, mut oversleep) = (Instant::now(), Duration::ZERO);
    for frame in 0..frames {
        let start = Instant::now();
        starts.push(start);
        spin_for(work(frame, period));
        match limiter {
            Limiter::Looplab => {
                if let Wake::At(deadline) = grid.wake_for_cap(start - origin, Some(cap)) {
                    wait.sleep_until(origin + deadline);
                }
            }
            Limiter::IntervalBurst | Limiter::IntervalDelay | Limiter::IntervalSkip => {
                interval.tick();
            }
            Limiter::FramepacePort => {
                let worked = sleep_end.elapsed();
                spin_sleep::sleep(period.saturating_sub(worked + oversleep));
                let total = sleep_end.elapsed();
                sleep_end = Instant::now();
                oversleep = total.saturating_sub(period);
            }
            Limiter::ThreadSleep => {
                std::thread::sleep(period.saturating_sub(start.elapsed()));
            }
        }
    }
    starts.push(Instant::now());
    let wall = origin.elapsed();
    let cpu = cpu_start.elapsed();
    let intervals: Vec<f64> = starts
        .windows(2)
        .map(|w| (w[1] - w[0]).as_secs_f64() * 1e3)
        .collect();
    let p = period.as_secs_f64() * 1e3;
    let n = intervals.len().max(1) as f64;
    let mean = intervals.iter().sum::<f64>() / n;
    let stddev = (intervals.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    let mut sorted = intervals.clone();
    sorted.sort_unstable_by(f64::total_cmp);
    let p99 = if sorted.is_empty() {
        0.0
    } else {
        looplab::metrics::quantile(&sorted, 0.99)
    };
    let late = intervals
        .iter()
        .enumerate()
        .filter(|&(k, &x)| k % 60 != 59 && x > p + 1.0)
        .count();
    let early = intervals.iter().filter(|&&x| x < p - 1.0).count();
    PacingRun {
        limiter,
        name: limiter.name(),
        cap_hz: cap.as_hz(),
        repeat,
        frames,
        mean_ms: mean,
        stddev_ms: stddev,
        p99_ms: p99,
        late,
        early,
        cpu_share: cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9),
    }
}

/// Every limiter at 60 and 144 Hz, `seconds` each, three times, interleaved so that a busy
/// moment of the machine falls on every limiter alike.
pub fn bench(seconds: f64) -> Vec<PacingRun> {
    let mut runs = Vec::new();
    for repeat in 1..=3 {
        for hz in [60.0, 144.0] {
            let cap = Rate::hz(hz).expect("a valid rate");
            let frames = ((seconds * hz).round() as usize).max(2);
            for limiter in Limiter::ALL {
                runs.push(pace(limiter, cap, frames, repeat));
            }
        }
    }
    runs
}

/// The runs as a table, a row a run, grouped by cap.
pub fn table(runs: &[PacingRun]) -> String {
    use looplab::text::table::Table;
    let mut out = String::from(
        "Frame limiters in real time: 2 ms of work a frame, a hitch of 1.5 periods every 60th\n",
    );
    let mut table = Table::new(&[
        "limiter",
        "run",
        "frames",
        "mean ms",
        "stddev ms",
        "p99 ms",
        "late",
        "early",
        "CPU",
    ])
    .grouped();
    for hz in [60.0, 144.0] {
        table.blank();
        table.note(format!("cap {hz} Hz (period {:.3} ms):", 1e3 / hz));
        table.headers_again();
        for r in runs.iter().filter(|r| r.cap_hz == hz) {
            table.row([
                r.name.to_string(),
                r.repeat.to_string(),
                r.frames.to_string(),
                format!("{:.3}", r.mean_ms),
                format!("{:.3}", r.stddev_ms),
                format!("{:.2}", r.p99_ms),
                r.late.to_string(),
                r.early.to_string(),
                format!("{:.0}%", r.cpu_share * 100.0),
            ]);
        }
    }
    out += &table.text();
    out.push_str(
        "\nlate: intervals over the period by more than 1 ms (the hitches' own left out); early: under it\n\
         by more than 1 ms (a limiter catching up after a hitch); CPU: the thread's CPU time over wall time.\n",
    );
    out
}
