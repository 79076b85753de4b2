//! The pacing scorecard: what a display showed, refresh by refresh, in the terms of Tyler
//! Glaiel's MonitorSim ("How to make your game run at 60fps", 2018).
//!
//! A display shows a new picture only at a refresh. Each refresh shows the newest frame
//! presented by then, and that frame carries the game's updates run since the frame the
//! previous refresh showed. On a perfect 60 Hz loop every refresh shows exactly one new
//! update. Two or more is a *double update* (the motion jumps ahead), none while the game
//! runs is a *skipped refresh* (the motion stops for a refresh). MonitorSim counts the
//! first as "double updates" (refreshes with two or more) and reports refreshes that got no
//! new frame at all as "skipped renders"; this scorecard counts both, and calls every
//! refresh that showed no new update skipped, since that is what the eye sees.

use std::time::Duration;

use serde::Serialize;

use crate::session::trace::Trace;
use looplab_timing::Rate;

/// One presented frame: when its picture was handed to the display (for a vsync present,
/// the refresh that shows it) and how many updates the game had run by then.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Present {
    pub at: Duration,
    pub updates_so_far: u64,
}

/// What a run's presents looked like on its display.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Scorecard {
    /// Refreshes from the first presented frame to the last.
    pub refreshes: u64,
    /// Refreshes that showed 0, 1, 2 and 3 or more new updates.
    pub histogram: [u64; 4],
    /// Refreshes that showed two or more new updates (MonitorSim's "double updates").
    pub doubles: u64,
    /// Refreshes that showed no new update.
    pub skipped: u64,
    /// Refreshes that showed no new frame at all (MonitorSim's "skipped renders").
    pub missed: u64,
    /// Game time minus real time at the end of the run, milliseconds: negative when the
    /// game fell behind.
    pub drift_ms: f64,
}

impl Scorecard {
    /// Scores `presents` (in order of time) on a display refreshing every `period`, the
    /// refreshes at whole multiples of it. A frame handed over between two refreshes is
    /// shown by the next one; if several are, the newest wins.
    pub fn score(presents: &[Present], period: Duration, drift: f64) -> Self {
        let period = period.as_nanos().max(1);
        let mut card = Self {
            drift_ms: drift * 1e3,
            ..Self::default()
        };
        let Some(first) = presents.first() else {
            return card;
        };
        // The refresh that shows a present at `t`: the first at or after it.
        let refresh_of = |p: &Present| p.at.as_nanos().div_ceil(period);
        // The first refresh shows the newest of the frames handed over for it.
        let mut shown_refresh = refresh_of(first);
        let mut shown_updates = first.updates_so_far;
        let mut i = 0;
        while i < presents.len() && refresh_of(&presents[i]) <= shown_refresh {
            shown_updates = presents[i].updates_so_far;
            i += 1;
        }
        while i < presents.len() {
            // The newest frame the next refresh shows, if any arrived for it.
            let next = shown_refresh + 1;
            let mut newest = None;
            while i < presents.len() && refresh_of(&presents[i]) <= next {
                newest = Some(presents[i]);
                i += 1;
            }
            let new_updates = match newest {
                Some(p) => {
                    let n = p.updates_so_far.saturating_sub(shown_updates);
                    shown_updates = p.updates_so_far;
                    n
                }
                None => {
                    card.missed += 1;
                    0
                }
            };
            card.refreshes += 1;
            card.histogram[(new_updates as usize).min(3)] += 1;
            card.doubles += u64::from(new_updates >= 2);
            card.skipped += u64::from(new_updates == 0);
            shown_refresh = next;
        }
        card
    }

    /// The scorecard of the frames a window really presented (`looplab --trace`), on the
    /// refresh rate its monitor reported.
    pub fn of_trace(trace: &Trace) -> Self {
        let mut so_far = 0u64;
        let presents: Vec<Present> = trace
            .frames
            .iter()
            .map(|f| {
                so_far += u64::from(f.updates);
                Present {
                    at: Duration::from_nanos(f.presented_ns),
                    updates_so_far: so_far,
                }
            })
            .collect();
        let (first, last) = (&trace.frames[0], &trace.frames[trace.frames.len() - 1]);
        let game = last.game_ns as f64 - first.game_ns as f64;
        let real = last.start_ns as f64 - first.start_ns as f64;
        let period = Rate::hz(trace.header.refresh_hz)
            .unwrap_or(Rate::SIXTY_HZ)
            .period();
        Self::score(&presents, period, (game - real) / 1e9)
    }

    /// Share of refreshes that showed exactly one new update: 1 is perfect pacing.
    pub fn smooth_share(&self) -> f64 {
        self.histogram[1] as f64 / self.refreshes.max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: Duration = Duration::from_nanos(16_666_667);

    /// Presents at the given refreshes (plus `offset` into them) with updates so far.
    fn presents(frames: &[(u64, u64)], offset: Duration) -> Vec<Present> {
        frames
            .iter()
            .map(|&(refresh, updates)| Present {
                at: P * refresh as u32 - offset,
                updates_so_far: updates,
            })
            .collect()
    }

    #[test]
    fn a_perfect_loop_shows_one_update_a_refresh() {
        let frames: Vec<(u64, u64)> = (1..=60).map(|k| (k, k)).collect();
        let card = Scorecard::score(&presents(&frames, Duration::ZERO), P, 0.0);
        assert_eq!(card.refreshes, 59);
        assert_eq!(card.histogram, [0, 59, 0, 0]);
        assert_eq!((card.doubles, card.skipped, card.missed), (0, 0, 0));
        assert_eq!(card.smooth_share(), 1.0);
    }

    #[test]
    fn a_double_then_a_skip_is_counted_as_each() {
        // Refresh 3 shows two updates, refresh 4 none (the frame repeats its updates).
        let frames = [(1, 1), (2, 2), (3, 4), (4, 4), (5, 5), (6, 8)];
        let card = Scorecard::score(&presents(&frames, Duration::ZERO), P, 0.0);
        assert_eq!(card.refreshes, 5);
        assert_eq!(card.histogram, [1, 2, 1, 1]);
        assert_eq!((card.doubles, card.skipped, card.missed), (2, 1, 0));
    }

    #[test]
    fn a_refresh_with_no_frame_is_missed_and_skipped() {
        // A 25 ms frame: presents at refreshes 1, 3, 4 (it missed refresh 2).
        let frames = [(1, 1), (3, 3), (4, 4)];
        let card = Scorecard::score(&presents(&frames, Duration::ZERO), P, 0.0);
        assert_eq!(card.refreshes, 3);
        assert_eq!(card.histogram, [1, 1, 1, 0]);
        assert_eq!((card.doubles, card.skipped, card.missed), (1, 1, 1));
    }

    #[test]
    fn without_vsync_the_newest_frame_before_a_refresh_wins() {
        // Three frames finish within each refresh interval (vsync off, 180 FPS), 1 update
        // each: each refresh shows the last of them, three updates ahead.
        let mut list = Vec::new();
        for k in 0..30u32 {
            for j in 0..3u32 {
                list.push(Present {
                    at: P * k + P * (j + 1) / 4,
                    updates_so_far: u64::from(3 * k + j + 1),
                });
            }
        }
        let card = Scorecard::score(&list, P, 0.0);
        assert_eq!(card.histogram[3], card.refreshes);
        assert_eq!(card.refreshes, 29);
    }

    #[test]
    fn a_traced_window_is_scored_on_its_monitor() {
        use crate::session::trace::{TraceFrame, TraceHeader, VERSION};
        // Presents at every refresh of 60 Hz, one update each, except frame 5 which
        // carries two and comes a refresh late; the game clock ends 1 ms ahead.
        let frames: Vec<TraceFrame> = (0..10u64)
            .map(|k| TraceFrame {
                start_ns: k * 16_666_667,
                wait_ns: 0,
                updates: if k == 5 { 2 } else { 1 },
                update_ns: 0,
                redraw_wait_ns: 0,
                render_ns: 0,
                present_ns: 0,
                presented_ns: (k + 1 + u64::from(k >= 5)) * 16_666_667 - 1000,
                game_ns: k * 16_666_667 + if k == 9 { 1_000_000 } else { 0 },
            })
            .collect();
        let trace = Trace {
            header: TraceHeader {
                looplab_trace: VERSION,
                strategy: "catch-up".into(),
                update_hz: 60.0,
                frame_cap_hz: None,
                refresh_hz: 60.0,
                vsync: true,
                bullets: 1,
            },
            frames,
        };
        let card = Scorecard::of_trace(&trace);
        assert_eq!(card.refreshes, 10);
        assert_eq!(card.histogram, [1, 8, 1, 0]);
        assert_eq!((card.doubles, card.missed), (1, 1));
        assert!((card.drift_ms - 1.0).abs() < 1e-6, "{}", card.drift_ms);
    }

    #[test]
    fn drift_is_reported_in_milliseconds() {
        let card = Scorecard::score(&presents(&[(1, 1)], Duration::ZERO), P, -0.0125);
        assert_eq!(card.refreshes, 0);
        assert!((card.drift_ms + 12.5).abs() < 1e-9);
    }
}
