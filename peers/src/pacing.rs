//! Frame limiters in real time (`looplab-peers bench`, or `looplab bench --peers`): each
//! paces a loop to a cap with the real clock and real sleeps, and the run measures what the
//! loop got: the interval between frame starts (mean, spread, 99th percentile), frames that
//! came late or early, and the CPU the waiting cost.
//!
//! The loop's work is modelled: 2 ms a frame, and every 60th frame one and a half periods
//! (a hitch), so each limiter shows what it does after a frame that missed its tick (Burst
//! catches up with short frames, Delay and Skip start again). Every limiter runs every cap
//! three times, in one run, on this machine as it is at that moment: compare rows, not runs.
//! The limiters are judged ([`judge`]) by the time they keep, how evenly they pace the
//! frames that did not overrun, and the CPU their waiting costs ([`figures`]).

pub mod figures;
pub mod judge;

use std::time::{Duration, Instant};

use serde::Serialize;

use looplab::text::table::Table;
use spin_sleep_util::MissedTickBehavior;

use looplab_timing::{DeadlineGrid, FrameWait, Rate, WaitMode, Wake};

use figures::{IntervalFigures, is_hitch};

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
    /// The intervals' figures, as fields of the run's own in JSON.
    #[serde(flatten)]
    pub figures: IntervalFigures,
    /// The thread's CPU time over the run's wall time.
    pub cpu_share: f64,
}

impl PacingRun {
    /// `limiter`'s `repeat`th run at `cap_hz`: frame `k`'s interval is `intervals[k]`, ms.
    pub fn new(
        limiter: Limiter,
        cap_hz: f64,
        repeat: u32,
        intervals: &[f64],
        cpu_share: f64,
    ) -> Self {
        PacingRun {
            limiter,
            name: limiter.name(),
            cap_hz,
            repeat,
            frames: intervals.len(),
            figures: IntervalFigures::of(intervals, 1e3 / cap_hz),
            cpu_share,
        }
    }
}

/// Every frame's work: 2 ms, and a hitch of one and a half periods every 60th frame.
fn work(frame: usize, period: Duration) -> Duration {
    if is_hitch(frame) {
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
    let cpu_share = cpu.as_secs_f64() / wall.as_secs_f64().max(1e-9);
    PacingRun::new(limiter, cap.as_hz(), repeat, &intervals, cpu_share)
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

/// The runs as a table, a row a run, grouped by cap and then by limiter, each cap's rows
/// followed by `looplab-timing`'s judgement against the best peer; then what is judged.
pub fn table(runs: &[PacingRun]) -> String {
    let judgements = judge::judge(runs);
    let mut table = Table::new(&[
        "limiter",
        "run",
        "mean ms",
        "vs period",
        "steady sd ms",
        "steady p99 |off| ms",
        "CPU",
        "all sd ms",
        "all p99 ms",
        "late",
        "early",
    ])
    .grouped();
    for hz in [60.0, 144.0] {
        let Some(first) = runs.iter().find(|r| r.cap_hz == hz) else {
            continue;
        };
        table.blank();
        table.note(format!(
            "cap {hz} Hz (period {:.3} ms), {} frames a run:",
            1e3 / hz,
            first.frames
        ));
        table.headers_again();
        for limiter in Limiter::ALL {
            for r in runs
                .iter()
                .filter(|r| r.cap_hz == hz && r.limiter == limiter)
            {
                table.row(row(r));
            }
        }
        table.blank();
        for line in judge::lines(&judgements, hz).lines() {
            table.note(line);
        }
    }
    let mut out = String::from(
        "Frame limiters in real time: 2 ms of work a frame, a hitch of 1.5 periods every 60th frame,\n\
         each limiter three runs a cap, taking turns\n",
    );
    out += &table.text();
    out += LEGEND;
    out
}

/// One run's cells, in the table's columns.
fn row(r: &PacingRun) -> [String; 11] {
    let f = &r.figures;
    [
        r.name.to_string(),
        r.repeat.to_string(),
        format!("{:.3}", f.mean_ms),
        format!("{:+.2}%", f.mean_off_period * 100.0),
        format!("{:.3}", f.steady_stddev_ms),
        format!("{:.3}", f.steady_p99_off_ms),
        format!("{:.0}%", r.cpu_share * 100.0),
        format!("{:.3}", f.stddev_ms),
        format!("{:.2}", f.p99_ms),
        f.late.to_string(),
        f.early.to_string(),
    ]
}

/// What the columns are, which are judged, and why the spread over all intervals is not.
const LEGEND: &str = "
Judged, lower being better: the time kept (vs period: the mean interval against the cap's period,
above 0 slow, below fast; judged by its size); the steady intervals' spread (steady sd) and the
99th percentile of their |interval - period| (steady p99 |off|), steady being every interval but
each hitch's, the one after it and the first; and CPU, the thread's CPU time over wall time (the
2 ms of work included). Not judged: the spread and 99th percentile over all intervals (all sd, all
p99), since the hitch's interval is long for every limiter and a limiter that makes its time up
with a short frame after it shows the larger spread there for keeping time; late and early,
intervals over or under the period by more than 1 ms (the hitches' own not counted late).
A verdict compares looplab-timing's three runs with those of the peer whose median is the best:
met where its worst beats the peer's best, missed where its best is worse than the peer's worst,
within noise where the two ranges overlap.
";
