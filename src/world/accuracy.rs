//! How far what is drawn is from where things truly are.
//!
//! The *drawn error* of a frame, over the metronome and a fixed sample of straight-flying
//! bullets: the distance from each drawn position to the exact position at the game-clock
//! instant the frame shows, in pixels. Interpolation's is about one step of motion (it shows
//! the past); extrapolation's is nothing for a straight flight and a bounce's overshoot at a
//! wall. It is the lab's detailed table's figure; how smooth the motion looks is the
//! animation error's ([`crate::metrics::animation`]), and how far behind it is the picture
//! lag's ([`crate::metrics::picture_lag`]).

use std::time::Duration;

use super::World;
use looplab_timing::View;

/// Straight bullets sampled each frame besides the metronome.
pub const SAMPLED_BULLETS: usize = 64;

/// The drawn error of one frame, in pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameAccuracy {
    pub mean_error: f32,
    pub max_error: f32,
}

/// Accumulated drawn error over many frames.
#[derive(Clone, Debug, Default)]
pub struct AccuracyTracker {
    frames: u64,
    error_sum: f64,
    error_count: u64,
    error_max: f32,
}

/// Totals over all observed frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AccuracySummary {
    pub mean_error: f64,
    pub max_error: f64,
}

impl AccuracyTracker {
    /// Measures the frame that draws `world` with `view` (its last update `step` long) at
    /// game-clock instant `game_now`.
    pub fn observe(
        &mut self,
        world: &World,
        view: View,
        step: Duration,
        game_now: Duration,
    ) -> FrameAccuracy {
        let sampled = world.bullets.len().min(SAMPLED_BULLETS);
        let mut frame = FrameAccuracy::default();
        let (mut err_sum, mut err_n) = (0.0f32, 0u32);

        let m = &world.metronome;
        let bodies = std::iter::once((
            view.apply(m.prev, m.pos, m.vel, step),
            Some(world.metronome_truth(game_now)),
        ))
        .chain((0..sampled).map(|i| {
            let b = &world.bullets;
            (
                view.apply(b.prev[i], b.pos[i], b.vel[i], step),
                world.bullet_truth(i, game_now),
            )
        }));
        for (drawn, truth) in bodies {
            let Some(truth) = truth else {
                continue;
            };
            let e = (drawn - truth).length();
            err_sum += e;
            err_n += 1;
            frame.max_error = frame.max_error.max(e);
        }
        if err_n > 0 {
            frame.mean_error = err_sum / err_n as f32;
        }
        self.frames += 1;
        self.error_sum += frame.mean_error as f64;
        self.error_count += u64::from(err_n > 0);
        self.error_max = self.error_max.max(frame.max_error);
        frame
    }

    /// Totals so far: means are of per-frame means, maxima over single bodies.
    pub fn summary(&self) -> AccuracySummary {
        let mean = |sum: f64, n: u64| if n == 0 { 0.0 } else { sum / n as f64 };
        AccuracySummary {
            mean_error: mean(self.error_sum, self.error_count),
            max_error: self.error_max as f64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::WorldConfig;

    const STEP: Duration = Duration::from_nanos(16_666_667);

    /// A world stepped to 1 s, and a game clock `lag` past it.
    fn world() -> World {
        let mut w = World::new(&WorldConfig {
            seed: 5,
            bullets: 200,
        });
        for _ in 0..60 {
            w.step(STEP);
        }
        w
    }

    #[test]
    fn extrapolation_of_straight_bullets_is_exact() {
        let w = world();
        let lag = STEP / 3;
        let mut t = AccuracyTracker::default();
        let f = t.observe(
            &w,
            View::Extrapolate { alpha: 1.0 / 3.0 },
            STEP,
            w.time() + lag,
        );
        assert!(f.max_error < 0.05, "{f:?}");
    }

    #[test]
    fn latest_state_lags_by_the_owed_time() {
        let w = world();
        let lag = STEP / 2;
        let mut t = AccuracyTracker::default();
        let f = t.observe(&w, View::Latest, STEP, w.time() + lag);
        // Half a step behind is half a step of the metronome's travel.
        let metronome_error = (w.metronome.pos - w.metronome_truth(w.time() + lag)).length();
        let half_step = w.metronome.vel.x.abs() * lag.as_secs_f32();
        assert!(
            (metronome_error - half_step).abs() < 0.01,
            "{metronome_error} {half_step}"
        );
        assert!(
            f.mean_error > 0.5 && f.max_error >= metronome_error - 0.01,
            "{f:?}"
        );
    }

    #[test]
    fn interpolation_is_a_step_behind() {
        let mut w = world();
        let mut tracker = AccuracyTracker::default();
        let mut latest = AccuracyTracker::default();
        // Frames at 4 per step: alpha 0, 1/4, 2/4, 3/4, then a step.
        for _ in 0..20 {
            for k in 0..4u32 {
                let alpha = k as f32 / 4.0;
                let now = w.time() + STEP * k / 4;
                tracker.observe(&w, View::Interpolate { alpha }, STEP, now);
                latest.observe(&w, View::Latest, STEP, now);
            }
            w.step(STEP);
        }
        let (i, l) = (tracker.summary(), latest.summary());
        // The metronome is a whole step of travel behind when interpolated (the fastest
        // body but for the darts, which the error leaves out), bullets proportionally.
        let step_travel = w.metronome.vel.x.abs() * STEP.as_secs_f32();
        assert!(
            (i.max_error - step_travel as f64).abs() < 0.1,
            "{i:?} {step_travel}"
        );
        assert!(
            l.mean_error < i.mean_error,
            "the latest state is closer on average"
        );
    }
}
