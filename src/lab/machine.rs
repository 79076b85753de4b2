//! A profile's hardware, modelled: the one place where a [`Profile`] becomes time.
//!
//! The lab's runs and compare mode's lanes both advance a `Machine`, so a lane is the lab's
//! virtual machine, not a copy of it: the same profile and seed give the same frames in
//! both (a test below checks it). A frame goes through the machine in three calls:
//!
//! 1. [`Machine::begin_frame`] at the frame's true start: what the frame will cost (drawn
//!    from the profile, a recorded trace, or its jitter) and what the loop's clock reads
//!    (off by the timer's noise);
//! 2. [`Machine::finish_frame`] once the loop has planned its updates: when the updates
//!    end, when the drawing ends (a stall falling due delays it) and when the display shows
//!    the picture. Without a swapchain in the profile, a vsync present waits for the next
//!    refresh and the CPU with it; with one ([`super::swapchain`]), the present returns at
//!    once, the GPU finishes the frame behind the CPU, and a full queue makes the next
//!    frame wait to acquire an image;
//! 3. [`Machine::next_start`]: when the next frame starts, a sleep to the plan's wake time
//!    ending as late as the profile's timer makes it.
//!
//! Randomness comes from two fixed streams seeded from the world's seed: one for frame costs,
//! one for the timer (its noise and its late wake-ups), so a change to one kind of randomness
//! never reshuffles the other.

use std::time::Duration;

use oorandom::Rand32;

use super::profile::{Profile, Stall};
use super::swapchain::{Swapchain, refresh_at_or_after};
use looplab_timing::{JustInTime, Wake};

/// Salt of the frame-cost stream ("jitter").
const COST_STREAM: u64 = 0x6a69_7474_6572;
/// Salt of the timer stream ("timer").
const TIMER_STREAM: u64 = 0x0074_696d_6572;

/// What one frame costs on the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameCost {
    /// Time one update takes.
    pub update: Duration,
    /// Time to draw and present the frame, where no vsync waits in the present.
    pub render: Duration,
}

/// A frame begun on the machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BegunFrame {
    /// True (virtual) time at which it starts.
    pub start: Duration,
    /// What the loop's clock reads then: the time the loop plans with.
    pub reading: Duration,
    pub cost: FrameCost,
}

/// When a frame's work ends and when it is seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameTimes {
    /// The updates are done.
    pub updated: Duration,
    /// The drawing is done (later by a stall that fell due during the frame).
    pub drawn: Duration,
    /// The display shows the picture: with vsync, at the next refresh.
    pub shown: Duration,
    /// Time spent working: updates and drawing, not a stall or a wait for the display.
    /// With a swapchain, the CPU's work only.
    pub busy: Duration,
    /// Time spent waiting for a swapchain image (a full queue, or a GPU behind).
    pub acquire_wait: Duration,
    /// The present returned and the CPU may start the next frame: at `shown` for the
    /// simple vsync display, at `drawn` otherwise.
    pub cpu_free: Duration,
    /// The GPU finished the frame (at `drawn` with no GPU share).
    pub gpu_end: Duration,
}

impl FrameTimes {
    /// When the loop is next due: with just in time, which learns from this frame what it
    /// cost (from `start`, less its wait for an image) and when it was shown, as the
    /// window's loop learns it from a real frame; `wake`, the plan's own, without.
    pub fn wake(&self, start: Duration, jit: Option<&mut JustInTime>, wake: Wake) -> Wake {
        let Some(jit) = jit else {
            return wake;
        };
        jit.frame_done(self.gpu_end - start - self.acquire_wait, self.gpu_end);
        jit.frame_shown(self.shown);
        jit.pace(self.cpu_free, wake)
    }
}

/// A modelled machine: a profile, the frame it is at, its random streams and its stall.
#[derive(Clone, Debug)]
pub struct Machine {
    profile: Profile,
    /// Frames begun so far (a recorded trace is replayed frame by frame).
    frames: u64,
    costs: Rand32,
    timer: Rand32,
    /// The profile's stall on this machine's clock, until it has happened.
    stall: Option<Stall>,
    /// When it was switched on: its display refreshes from then on, a period apart.
    origin: Duration,
    /// The profile's swapchain, in use.
    swapchain: Option<Swapchain>,
}

impl Machine {
    /// A machine of `profile` whose randomness comes from `seed`, switched on at real time
    /// `start`: its stall falls that much later, and its display refreshes at `start` and
    /// every period after. A loop that starts with the display, as a windowed loop does at
    /// its first present, so starts on a refresh wherever it is switched on: a compare
    /// lane opened at any moment runs the frames the lab runs from zero.
    pub fn new(profile: Profile, seed: u64, start: Duration) -> Self {
        let stall = profile.stall.map(|s| Stall {
            at: start + s.at,
            ..s
        });
        Self {
            frames: 0,
            costs: Rand32::new(seed ^ COST_STREAM),
            timer: Rand32::new(seed ^ TIMER_STREAM),
            stall,
            origin: start,
            swapchain: profile
                .swapchain
                .map(|spec| Swapchain::new(spec, profile.refresh.period(), start)),
            profile,
        }
    }

    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// Begins a frame at true time `start`.
    pub fn begin_frame(&mut self, start: Duration) -> BegunFrame {
        let cost = self.frame_cost();
        self.frames += 1;
        BegunFrame {
            start,
            reading: self.read_clock(start),
            cost,
        }
    }

    /// The frame `begun`, having run `updates` updates and drawn its picture: when each part
    /// ends.
    pub fn finish_frame(&mut self, begun: &BegunFrame, updates: u32) -> FrameTimes {
        let updated = begun.start + begun.cost.update * updates;
        let Some(mut chain) = self.swapchain.take() else {
            let drawn = self.after_stall(updated + begun.cost.render);
            let shown = self.present_at(drawn);
            return FrameTimes {
                updated,
                drawn,
                shown,
                busy: begun.cost.update * updates + begun.cost.render,
                acquire_wait: Duration::ZERO,
                cpu_free: shown,
                gpu_end: drawn,
            };
        };
        let acquired = chain.acquire(updated);
        let gpu = self.profile.gpu.min(begun.cost.render);
        let cpu = begun.cost.render - gpu;
        let drawn = self.after_stall(acquired + cpu);
        let flight = chain.present(drawn, gpu);
        self.swapchain = Some(chain);
        FrameTimes {
            updated,
            drawn,
            shown: flight.shown,
            busy: begun.cost.update * updates + cpu,
            acquire_wait: acquired - updated,
            cpu_free: drawn,
            gpu_end: flight.gpu_end,
        }
    }

    /// `done`, later by the stall where it falls due by then (once).
    fn after_stall(&mut self, done: Duration) -> Duration {
        match self.stall {
            Some(s) if done >= s.at => {
                self.stall = None;
                done + s.length
            }
            _ => done,
        }
    }

    /// When the frame after one whose present returned at `cpu_free` starts, given the
    /// plan's wake time: at once, or when a sleep until the wake time ends.
    pub fn next_start(&mut self, wake: Wake, cpu_free: Duration) -> Duration {
        match wake {
            Wake::At(t) if t > cpu_free => self.wake_from_sleep(t),
            _ => cpu_free,
        }
    }

    /// What the next frame costs. Recorded frames are replayed in turn (from the first
    /// again when the run is longer); otherwise `render` varied by `jitter`.
    fn frame_cost(&mut self) -> FrameCost {
        let p = &self.profile;
        match &p.recorded {
            Some(frames) if !frames.is_empty() => {
                let f = frames[(self.frames % frames.len() as u64) as usize];
                FrameCost {
                    update: f.update.unwrap_or(p.update),
                    render: f.render,
                }
            }
            _ => FrameCost {
                update: p.update,
                render: jittered(p.render, p.jitter, &mut self.costs),
            },
        }
    }

    /// When a frame whose work is done at `done` is shown: with vsync, at the next refresh
    /// (the present waits for it); without, at once.
    fn present_at(&self, done: Duration) -> Duration {
        if !self.profile.vsync {
            return done;
        }
        refresh_at_or_after(self.origin, self.profile.refresh.period(), done)
    }

    /// The clock's reading of the true time `now`: off by the timer's noise.
    fn read_clock(&mut self, now: Duration) -> Duration {
        let p = &self.profile;
        if p.noise == 0.0 {
            return now;
        }
        let most = p.refresh.period().as_secs_f64() * p.noise;
        let off = (self.timer.rand_float() as f64 * 2.0 - 1.0) * most;
        Duration::from_secs_f64((now.as_secs_f64() + off).max(0.0))
    }

    /// When a sleep until `deadline` ends: that late, by up to the timer's coarseness.
    fn wake_from_sleep(&mut self, deadline: Duration) -> Duration {
        if self.profile.timer.is_zero() {
            return deadline;
        }
        deadline + self.profile.timer.mul_f64(self.timer.rand_float() as f64)
    }
}

/// `base` varied uniformly by up to `jitter` either way, never below zero.
fn jittered(base: Duration, jitter: Duration, rng: &mut Rand32) -> Duration {
    if jitter.is_zero() {
        return base;
    }
    let j = jitter.as_nanos() as f64;
    let offset = (rng.rand_float() as f64 * 2.0 - 1.0) * j;
    let nanos = (base.as_nanos() as f64 + offset).max(0.0);
    Duration::from_nanos(nanos as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn jitter_is_seeded_and_bounded() {
        let mut rng = Rand32::new(1);
        let (base, jitter) = (ms(9), ms(8));
        let xs: Vec<Duration> = (0..1000)
            .map(|_| jittered(base, jitter, &mut rng))
            .collect();
        assert!(xs.iter().all(|x| *x >= ms(1) && *x <= ms(17)));
        let mean = xs.iter().sum::<Duration>() / 1000;
        assert!(mean.abs_diff(base) < Duration::from_micros(500));
        let mut again = Rand32::new(1);
        assert_eq!(jittered(base, jitter, &mut again), xs[0]);
    }

    #[test]
    fn a_vsync_present_waits_for_the_next_refresh() {
        let mut m = Machine::new(Profile::parse("tv:refresh=50").unwrap(), 1, ms(0));
        let frame = m.begin_frame(ms(3));
        // 2 ms of drawing and 3 updates of 0.2 ms: done at 5.6 ms, shown at the 20 ms vblank.
        let times = m.finish_frame(&frame, 3);
        assert_eq!(times.updated, Duration::from_micros(3600));
        assert_eq!(times.drawn, Duration::from_micros(5600));
        assert_eq!(times.shown, ms(20));
        assert_eq!(times.busy, Duration::from_micros(2600));
        assert_eq!(m.next_start(Wake::Immediately, times.shown), ms(20));
        assert_eq!(m.next_start(Wake::At(ms(25)), times.shown), ms(25));

        // Switched on at 7 ms, the display refreshes at 7, 27, 47 ms.
        let mut m = Machine::new(Profile::parse("tv:refresh=50").unwrap(), 1, ms(7));
        let frame = m.begin_frame(ms(7));
        assert_eq!(m.finish_frame(&frame, 3).shown, ms(27));
    }

    #[test]
    fn the_stall_falls_once_and_counts_from_the_machine_start() {
        let profile = Profile::parse("s:render=10ms,update=0ms,stall=1s@100ms").unwrap();
        let mut m = Machine::new(profile, 1, ms(50));
        let mut t = ms(50);
        let mut stalled = Vec::new();
        for _ in 0..30 {
            let frame = m.begin_frame(t);
            let times = m.finish_frame(&frame, 0);
            if times.drawn - t > ms(10) {
                stalled.push(t);
            }
            assert_eq!(times.busy, ms(10), "a stall is not work");
            t = m.next_start(Wake::Immediately, times.shown);
        }
        // The frame that ends at or after 150 ms (the stall's 100 ms after the start).
        assert_eq!(stalled, [ms(140)]);
    }

    #[test]
    fn the_timer_reads_noisy_and_wakes_late_within_its_bounds() {
        let profile = Profile::parse("t:noise=1%,timer=2ms").unwrap();
        let mut m = Machine::new(profile, 7, ms(0));
        for i in 0..200 {
            let start = ms(1000 + 10 * i);
            let reading = m.begin_frame(start).reading;
            // One percent of a 60 Hz refresh: 167 us either way.
            assert!(
                reading.abs_diff(start) <= Duration::from_micros(167),
                "{reading:?}"
            );
            let woke = m.next_start(Wake::At(start + ms(5)), start);
            assert!(woke >= start + ms(5) && woke <= start + ms(7), "{woke:?}");
        }
    }

    #[test]
    fn the_refresh_estimator_locks_onto_every_common_display_within_a_second() {
        use looplab_timing::RefreshEstimator;
        // Each display modelled with vsync, 3 ms frames, every clock reading off by up to
        // 0.5 ms either way, and a 300 ms hitch at 2.5 s; the estimator is fed what the
        // window feeds it: the loop's reading as each present returns. Locked: within half
        // the gap between 59.94 and 60 Hz (0.05%), and staying there, the hitch included.
        const TOLERANCE: f64 = 5e-4;
        let mut table =
            String::from("display    locked at    estimate after 5 s   worst after the lock\n");
        for hz in [59.94, 60.0, 75.0, 120.0, 143.86, 144.0] {
            let noise = 0.5e-3 * hz;
            let spec = format!("d:refresh={hz},render=3ms,noise={noise},stall=300ms@2500ms");
            let mut m = Machine::new(Profile::parse(&spec).unwrap(), 3, ms(0));
            let mut refresh = RefreshEstimator::new();
            let (mut t, mut locked_at, mut errors) = (ms(0), None, Vec::new());
            while t < Duration::from_secs(5) {
                let frame = m.begin_frame(t);
                refresh.observe(frame.reading);
                let close = refresh
                    .rate()
                    .is_some_and(|r| (r.as_hz() / hz - 1.0).abs() <= TOLERANCE);
                match (close, locked_at) {
                    (true, None) => locked_at = Some(t),
                    (false, Some(_)) => locked_at = None,
                    _ => {}
                }
                if let Some(r) = refresh.rate() {
                    errors.push((t, (r.as_hz() / hz - 1.0).abs()));
                }
                let shown = m.finish_frame(&frame, 1).shown;
                t = m.next_start(Wake::Immediately, shown);
            }
            let locked_at = locked_at.unwrap_or_else(|| panic!("{hz} Hz: never locked"));
            // How close it stayed from the lock on, through the hitch.
            let worst = errors
                .iter()
                .filter(|&&(at, _)| at >= locked_at)
                .fold(0.0f64, |w, &(_, e)| w.max(e));
            let estimate = refresh.rate().unwrap().as_hz();
            table += &format!(
                "{hz:>7} Hz  {:>6.0} ms    {estimate:>10.4} Hz        {:.3}%\n",
                locked_at.as_secs_f64() * 1e3,
                worst * 100.0
            );
            assert!(
                locked_at <= Duration::from_secs(1),
                "{hz} Hz: locked at {locked_at:?}"
            );
        }
        eprintln!("{table}");
    }
}
