//! A frame limiter, told from the frames: presents held at one rate that is not the
//! display's.
//!
//! A limiter (a game's own, RTSS's, a driver's) sleeps each frame to a deadline a whole
//! interval after the last, so the frames keep to its rate over any stretch of them, a
//! long frame followed by short ones that catch up. A game bound by its own work wanders:
//! its rate moves with what it draws. So the frames are taken 30 at a time, and the limiter
//! is told where most stretches keep to one rate within half a percent ([`HELD`]), that rate
//! is a whole number of frames per second (the setting a person types: a limiter is never
//! set to 118.7), and nothing else explains it: presents that wait for the display
//! (vsync holds them to the refresh or a whole fraction of it) or a compositor whose
//! refresh they keep to (a windowed game blocked by the desktop's composition).
//!
//! Measured on the real captures in `tests/captures/real`: Far Cry New Dawn's frames keep
//! to 80.0 FPS (85% of its stretches; short frames catch up after each hitch); Ghost Recon
//! Breakpoint's (79%, 121.2 FPS) are its compositor's 120 Hz; Metro Exodus and the others
//! wander (23% or less).

use serde::Serialize;

use super::{Frame, Presenting};

/// Frames in a stretch.
const STRETCH: usize = 30;
/// The fewest stretches a limiter is told from.
const STRETCHES: usize = 8;
/// The share of stretches that must keep to the rate.
pub const HELD: f64 = 0.8;
/// How close a stretch keeps to the rate: half a percent.
const CLOSE: f64 = 0.005;

/// A frame limiter the frames were held by.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Limiter {
    /// Its rate, frames per second.
    pub fps: f64,
    /// The share of 30-frame stretches that kept to it.
    pub held_share: f64,
}

impl Limiter {
    pub fn new(fps: f64, held_share: f64) -> Self {
        Self { fps, held_share }
    }

    /// The interval it holds frames to, ms.
    pub fn interval_ms(&self) -> f64 {
        1000.0 / self.fps
    }
}

/// The limiter that held `frames`, if one did; `compositor_hz` is the refresh of a
/// compositor the file also holds.
pub fn detect(
    frames: &[Frame],
    presenting: &Presenting,
    compositor_hz: Option<f64>,
) -> Option<Limiter> {
    if presenting.vsync() == Some(true) {
        return None;
    }
    let means: Vec<f64> = frames
        .chunks_exact(STRETCH)
        .map(|c| c.iter().map(|f| f.interval_ms).sum::<f64>() / STRETCH as f64)
        .collect();
    if means.len() < STRETCHES {
        return None;
    }
    let typical = crate::metrics::median(&means);
    let held = means
        .iter()
        .filter(|m| (*m - typical).abs() <= CLOSE * typical)
        .count() as f64
        / means.len() as f64;
    let fps = 1000.0 / typical;
    let whole = fps.round();
    let is_whole = whole >= 1.0 && (fps - whole).abs() <= 1e-3 * fps;
    let compositors = compositor_hz.is_some_and(|hz| (fps / hz - 1.0).abs() <= 0.02);
    (held >= HELD && is_whole && !compositors).then_some(Limiter {
        fps: whole,
        held_share: held,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(intervals: impl Iterator<Item = f64>) -> Vec<Frame> {
        intervals
            .map(|i| Frame {
                interval_ms: i,
                ..Frame::default()
            })
            .collect()
    }

    /// A jittery 33.3 ms deadline: each frame off by up to 2 ms, caught up by the next.
    fn capped(n: usize) -> Vec<Frame> {
        frames((0..n).map(|k| 1000.0 / 30.0 + if k % 2 == 0 { 1.7 } else { -1.7 }))
    }

    #[test]
    fn frames_kept_to_a_whole_rate_are_capped_and_wandering_ones_are_not() {
        let no_vsync = Presenting {
            sync_interval: Some(0),
            ..Presenting::default()
        };
        let cap = detect(&capped(600), &no_vsync, None).expect("capped");
        assert_eq!(cap.fps, 30.0);
        assert_eq!(cap.held_share, 1.0);
        // A game whose frames wander from 9 to 13 ms, stretch by stretch.
        let wander = frames((0..600).map(|k| 11.0 + 2.0 * ((k / 30) as f64).sin()));
        assert_eq!(detect(&wander, &no_vsync, None), None);
        // Held at 30 Hz, but by vsync, or by a 30 Hz compositor: no limiter.
        let vsync = Presenting {
            sync_interval: Some(1),
            ..Presenting::default()
        };
        assert_eq!(detect(&capped(600), &vsync, None), None);
        assert_eq!(detect(&capped(600), &no_vsync, Some(29.97)), None);
        // Held, but at a rate no one types: 118.7 FPS.
        let odd = frames((0..600).map(|_| 1000.0 / 118.7));
        assert_eq!(detect(&odd, &no_vsync, None), None);
        // Too few frames to tell.
        assert_eq!(detect(&capped(200), &no_vsync, None), None);
    }
}
