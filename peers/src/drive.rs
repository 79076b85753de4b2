//! One loop on one of the lab's modelled machines: the machine says when each frame begins
//! and what its updates and drawing cost (`looplab::lab::machine::Machine`, the lab's and
//! the compare lanes' own), the loop says how many updates to run and what to draw, and the
//! run keeps the figures every loop is held to.
//!
//! The world is one body moving at [`SPEED`] px/s, stepped by the loop's fixed updates: the
//! same work whatever the loop (at bevy's own 64 Hz, shorter steps of the same motion).
//! Each picture draws the body where the loop puts it: between its last two states at the
//! loop's alpha, or at the newest state for a loop with none. The pictures are scored as
//! the lab scores its own loops ([`looplab::lab::scorecard`]), refresh by refresh: the
//! field's animation error (how far the time a picture shows moves on otherwise than the
//! display's), the picture lag (how far behind the game clock a picture is when shown, one
//! step more for interpolation: the price of always being right), and the refreshes that
//! showed no new frame.

use std::time::Duration;

use serde::Serialize;

use crate::loops::{InputWay, Peer};
use looplab::lab::machine::Machine;
use looplab::lab::profile::Profile;
use looplab::lab::scorecard::{Present, ScoreKeeper, Scorecard};
use looplab::metrics::frame_times::FrameTimeFigures;
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
    pub max_updates: u32,
    /// The longest frame, ms: a loop in a spiral makes each frame longer than the last.
    pub longest_frame_ms: f64,
    /// The field's figures of the times between presents.
    pub frame_times: FrameTimeFigures,
    /// What the display showed, refresh by refresh: the refreshes without a new frame, the
    /// animation error and the picture lag of the frames shown.
    pub scorecard: Scorecard,
    pub taps: u64,
    pub taps_lost: u64,
    pub taps_doubled: u64,
    /// The body's state after [`CHECKPOINT_UPDATES`] updates, where the run got there.
    pub hash: Option<u64>,
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
    let mut game_now = 0.0;
    let mut screen =
        ScoreKeeper::new(profile.refresh.period(), Duration::ZERO).tearing(profile.tears());
    let mut presents: Vec<f64> = Vec::new();
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
        r.max_updates = r.max_updates.max(d.updates);
        r.frames += 1;
        let times = machine.finish_frame(&begun, d.updates);
        let secs = |s: f64| Duration::from_secs_f64(s.max(0.0));
        screen.push(Present {
            at: times.shown,
            updates_so_far: updates_total,
            animation: secs(drawn),
            start: begun.start,
            behind: secs(game_now - drawn),
        });
        if presents.len() < looplab::metrics::animation::KEPT {
            presents.push(times.drawn.as_secs_f64() * 1e3);
        }
        let next = machine.next_start(Wake::Immediately, times.shown);
        r.longest_frame_ms = r.longest_frame_ms.max((next - t).as_secs_f64() * 1e3);
        t = next;
    }
    let seconds = t.as_secs_f64().max(1e-9);
    r.fps = r.frames as f64 / seconds;
    r.ups = updates_total as f64 / seconds;
    r.game_real = game_now / seconds;
    let intervals: Vec<f64> = presents.windows(2).map(|w| w[1] - w[0]).collect();
    r.frame_times = FrameTimeFigures::of(&intervals);
    r.scorecard = screen.finish(game_now - seconds);
    r.hash = hash;
    r
}
