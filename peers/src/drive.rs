//! One loop on one of the lab's modelled machines: the machine says when each frame begins
//! and what its updates and drawing cost (`looplab::lab::machine::Machine`, the lab's and
//! the compare lanes' own), the loop says how many updates to run and what to draw, and the
//! run keeps the figures every loop is held to.
//!
//! The world is one body moving at [`SPEED`] px/s, stepped by the loop's fixed updates: the
//! same work whatever the loop (at bevy's own 64 Hz, shorter steps of the same motion). Each picture draws the body where the loop puts it: between
//! its last two states at the loop's alpha, or at the newest state for a loop with none. Its
//! *lag* is how far that drawn instant is behind the loop's own game clock (one step, for
//! interpolation: the price of always being right); its *error* how far the lag strays from
//! the run's typical lag (what a wrong alpha costs); its *judder* how far the drawn motion
//! from picture to picture strays from the display's time between them, which is what the
//! eye sees.

use std::time::Duration;

use serde::Serialize;

use crate::loops::{InputWay, Peer};
use looplab::lab::machine::Machine;
use looplab::lab::profile::Profile;
use looplab_timing::Wake;

/// The body's speed: a bullet crossing a 1280-pixel screen in about two seconds.
pub const SPEED: f64 = 600.0;

/// The machine's random streams, the same for every loop.
const SEED: u64 = 1;

/// Updates after which the body's state is hashed, to compare across machines.
pub const CHECKPOINT_UPDATES: u64 = 300;

/// A tap every 250 ms, each up to 50 ms late (a fixed sequence): when a person presses a key.
fn taps(until: Duration) -> Vec<Duration> {
    let mut state = 0x7a9_u64;
    (1..)
        .map(|k| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            Duration::from_millis(250 * k + (state >> 33) % 50)
        })
        .take_while(|&t| t < until)
        .collect()
}

/// What one loop did on one machine.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Run {
    pub peer: String,
    pub profile: String,
    pub frames: u64,
    pub fps: f64,
    /// Updates per second of real time.
    pub ups: f64,
    /// Game time reached per real time: 1 keeps time, below 1 the game runs slow.
    pub game_real: f64,
    /// Real time the loop let go, and in how many frames.
    pub dropped_ms: f64,
    pub dropping_frames: u64,
    /// Frames that ran 0, 1, 2 and 3 or more updates.
    pub histogram: [u64; 4],
    /// Neighbouring frames that ran 2 and 0 updates (either order): a picture that jumps two
    /// steps, then stands still.
    pub alternations: u64,
    pub max_updates: u32,
    /// The longest frame, ms: a loop in a spiral makes each frame longer than the last.
    pub longest_frame_ms: f64,
    /// The picture's typical lag behind the loop's game clock, ms (the median).
    pub lag_ms: f64,
    /// Mean and largest distance from that typical lag, px.
    pub error_px: f64,
    pub error_max_px: f64,
    /// Mean distance between the drawn motion from one picture to the next and the motion
    /// in the display's time between them, px.
    pub judder_px: f64,
    pub taps: u64,
    pub taps_lost: u64,
    pub taps_doubled: u64,
    /// The body's state after [`CHECKPOINT_UPDATES`] updates, where the run got there.
    pub hash: Option<u64>,
}

impl Run {
    /// The picture's figures from each picture's drawn instant, lag behind the game clock
    /// and display time, all in seconds: the typical lag, the error around it, the judder.
    fn measure_pictures(&mut self, pictures: &[(f64, f64, f64)]) {
        let mut lags: Vec<f64> = pictures.iter().map(|p| p.1).collect();
        lags.sort_unstable_by(f64::total_cmp);
        let typical = lags.get(lags.len() / 2).copied().unwrap_or(0.0);
        self.lag_ms = typical * 1e3;
        let errors: Vec<f64> = pictures
            .iter()
            .map(|p| (p.1 - typical).abs() * SPEED)
            .collect();
        self.error_px = errors.iter().sum::<f64>() / errors.len().max(1) as f64;
        self.error_max_px = errors.iter().copied().fold(0.0, f64::max);
        let judders: Vec<f64> = pictures
            .windows(2)
            .map(|w| ((w[1].0 - w[0].0) - (w[1].2 - w[0].2)).abs() * SPEED)
            .collect();
        self.judder_px = judders.iter().sum::<f64>() / judders.len().max(1) as f64;
    }
}

/// Runs `peer` on `profile` for `length` of virtual time.
pub fn run(peer: &Peer, profile: &Profile, length: Duration) -> Run {
    let mut machine = Machine::new(profile.clone(), SEED, Duration::ZERO);
    let mut lp = (peer.make)();
    let step = 1.0 / peer.hz;
    let tap_times = taps(length);
    let mut next_tap = 0;
    let (mut updates_total, mut position, mut hash) = (0u64, 0.0f64, None);
    let mut r = Run {
        peer: peer.name.to_string(),
        profile: profile.name.clone(),
        taps: tap_times.len() as u64,
        ..Run::default()
    };
    let (mut last_updates, mut game_now) = (None::<u32>, 0.0);
    // Each picture's drawn instant, lag and display time.
    let mut pictures: Vec<(f64, f64, f64)> = Vec::new();
    let mut t = Duration::ZERO;
    while t < length {
        let begun = machine.begin_frame(t);
        let d = lp.frame(begun.reading);
        // Taps pressed before the frame began are this frame's.
        let mut arrived = 0u64;
        while next_tap < tap_times.len() && tap_times[next_tap] <= begun.start {
            arrived += 1;
            next_tap += 1;
        }
        if peer.input == InputWay::PerFrame {
            match d.updates {
                0 => r.taps_lost += arrived,
                n => r.taps_doubled += arrived * u64::from(n - 1),
            }
        }
        for _ in 0..d.updates {
            position += SPEED * step;
            updates_total += 1;
            if updates_total == CHECKPOINT_UPDATES {
                hash = Some(position.to_bits());
            }
        }
        // The game clock: what was simulated and what is owed.
        let simulated = updates_total as f64 * step;
        r.dropped_ms += d.dropped.as_secs_f64() * 1e3;
        r.dropping_frames += u64::from(!d.dropped.is_zero());
        game_now = simulated + d.owed * step;
        let drawn = match d.alpha {
            Some(a) => simulated - step + a * step,
            None => simulated,
        };
        r.histogram[(d.updates as usize).min(3)] += 1;
        if let Some(before) = last_updates
            && matches!((before, d.updates), (2, 0) | (0, 2))
        {
            r.alternations += 1;
        }
        last_updates = Some(d.updates);
        r.max_updates = r.max_updates.max(d.updates);
        r.frames += 1;
        let times = machine.finish_frame(&begun, d.updates);
        pictures.push((drawn, game_now - drawn, times.shown.as_secs_f64()));
        let next = machine.next_start(Wake::Immediately, times.shown);
        r.longest_frame_ms = r.longest_frame_ms.max((next - t).as_secs_f64() * 1e3);
        t = next;
    }
    let seconds = t.as_secs_f64().max(1e-9);
    r.fps = r.frames as f64 / seconds;
    r.ups = updates_total as f64 / seconds;
    r.game_real = game_now / seconds;
    r.measure_pictures(&pictures);
    r.hash = hash;
    r
}
