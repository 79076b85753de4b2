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

use crate::metrics::animation::{AnimationErrorFigures, AnimationErrors};
use crate::metrics::picture_lag::{PictureLagFigures, PictureLags};
use crate::session::trace::Trace;
use looplab_timing::Rate;

/// One presented frame: when its picture was handed to the display (for a vsync present,
/// the refresh that shows it), how many updates the game had run by then, the game time
/// its picture shows, in real time (its animation time), and what its picture lag counts
/// from: the frame's start and how far its picture was then behind the game clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Present {
    pub at: Duration,
    pub updates_so_far: u64,
    pub animation: Duration,
    pub start: Duration,
    pub behind: Duration,
}

impl Present {
    /// Its picture lag, ms, when shown at `shown_ms`.
    fn lag_ms(&self, shown_ms: f64) -> f64 {
        shown_ms - ms(self.start) + ms(self.behind)
    }
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
    /// Frames the display showed: one a refresh that showed a new frame, or where the
    /// presents tear, every frame.
    pub shown_frames: u64,
    /// Animation error ([`crate::metrics::animation`]) of the frames shown, each at the
    /// refresh that showed it (where the presents tear, when it was presented).
    pub animation_error: AnimationErrorFigures,
    /// Picture lag ([`crate::metrics::picture_lag`]) of the same frames, shown at the same
    /// times.
    pub picture_lag: PictureLagFigures,
}

impl Scorecard {
    /// Scores `presents` (in order of time) on a display refreshing every `period`, the
    /// refreshes at whole multiples of it. A frame handed over between two refreshes is
    /// shown by the next one; if several are, the newest wins.
    pub fn score(presents: &[Present], period: Duration, drift: f64) -> Self {
        let mut keeper = ScoreKeeper::new(period, Duration::ZERO);
        for &p in presents {
            keeper.push(p);
        }
        keeper.finish(drift)
    }

    /// The scorecard of the frames a window really presented (`looplab --trace`), on the
    /// refresh rate its monitor reported.
    pub fn of_trace(trace: &Trace) -> Self {
        let period = Rate::hz(trace.header.refresh_hz)
            .unwrap_or(Rate::SIXTY_HZ)
            .period();
        // The window's clock started anywhere between two refreshes: put the grid's
        // boundaries half a period from where most presents land, so the timer's jitter
        // does not split presents between neighbouring refreshes.
        let p = period.as_nanos().max(1);
        let mut offsets: Vec<u128> = trace
            .frames
            .iter()
            .map(|f| u128::from(f.presented_ns) % p)
            .collect();
        offsets.sort_unstable();
        let typical = offsets[offsets.len() / 2];
        let phase = (typical + p / 2) % p;
        let mut keeper = ScoreKeeper::new(
            period,
            Duration::from_nanos(u64::try_from(phase).unwrap_or(0)),
        );
        let mut so_far = 0u64;
        for f in &trace.frames {
            so_far += u64::from(f.updates);
            keeper.push(Present {
                at: Duration::from_nanos(f.presented_ns),
                updates_so_far: so_far,
                animation: Duration::from_nanos(f.animation_ns),
                start: Duration::from_nanos(f.start_ns),
                behind: Duration::from_nanos(f.behind_ns),
            });
        }
        let (first, last) = (&trace.frames[0], &trace.frames[trace.frames.len() - 1]);
        let game = last.game_ns as f64 - first.game_ns as f64;
        let real = last.start_ns as f64 - first.start_ns as f64;
        keeper.finish((game - real) / 1e9)
    }

    /// Share of refreshes that showed exactly one new update: 1 is perfect pacing.
    pub fn smooth_share(&self) -> f64 {
        self.histogram[1] as f64 / self.refreshes.max(1) as f64
    }
}

/// Scores presents one at a time, in order of time, keeping only the refresh being filled:
/// a run of any length costs no memory beyond its animation errors' percentile
/// ([`AnimationErrors`]), and a long gap (a stall) is counted in one step.
#[derive(Clone, Debug)]
pub struct ScoreKeeper {
    period: u128,
    /// Refresh boundaries are at `phase + k * period`.
    phase: u128,
    /// Whether each present is shown when it comes, tearing into the refresh under way.
    tearing: bool,
    card: Scorecard,
    /// The refresh last counted and the frame it showed; `None` before the first present.
    shown: Option<(u128, Present)>,
    /// The refresh after it with frames handed over for it, and the newest of them.
    filling: Option<(u128, Present)>,
    animation: AnimationErrors,
    lags: PictureLags,
    /// When asked for ([`ScoreKeeper::logging`]): each present's start and when it was
    /// shown, ms (`None`: replaced before any refresh showed it), in order, the first
    /// [`crate::metrics::animation::KEPT`].
    log: Option<Vec<(Duration, Option<f64>)>>,
}

impl ScoreKeeper {
    pub fn new(period: Duration, phase: Duration) -> Self {
        let period = period.as_nanos().max(1);
        Self {
            period,
            phase: phase.as_nanos() % period,
            tearing: false,
            card: Scorecard::default(),
            shown: None,
            filling: None,
            animation: AnimationErrors::default(),
            lags: PictureLags::default(),
            log: None,
        }
    }

    /// The same, for presents that tear: each is shown (in part) when it is presented.
    pub fn tearing(self, tearing: bool) -> Self {
        Self { tearing, ..self }
    }

    /// The same, keeping when each present was shown ([`ScoreKeeper::shown_log`]).
    pub fn logging(self) -> Self {
        Self {
            log: Some(Vec::new()),
            ..self
        }
    }

    /// The refresh that shows a present at `t`: the first boundary at or after it.
    fn refresh_of(&self, t: Duration) -> u128 {
        (t.as_nanos() + self.period - self.phase).div_ceil(self.period)
    }

    /// When refresh `r` begins, ms.
    fn refresh_ms(&self, r: u128) -> f64 {
        (self.phase + r * self.period) as f64 / 1e6
    }

    /// The next present (no earlier than the one before).
    pub fn push(&mut self, p: Present) {
        if let Some(log) = &mut self.log
            && log.len() < crate::metrics::animation::KEPT
        {
            log.push((p.start, None));
        }
        if self.tearing {
            self.shown(p, ms(p.at));
        }
        let r = self.refresh_of(p.at);
        match (self.shown, self.filling) {
            (None, _) => self.shown = Some((r, p)),
            // The first refresh shows the newest of the frames handed over for it.
            (Some((shown, _)), _) if r <= shown => self.shown = Some((shown, p)),
            (Some(_), Some((filling, _))) if r <= filling => self.filling = Some((filling, p)),
            (Some(_), filling) => {
                if let Some(done) = filling {
                    self.count(done);
                }
                self.filling = Some((r, p));
            }
        }
    }

    /// Frame `p` shown at `at_ms`.
    fn shown(&mut self, p: Present, at_ms: f64) {
        // The frame shown is among the last few presented: the ones after it wait for
        // later refreshes.
        if let Some(entry) = self.log.as_mut().and_then(|log| {
            log.iter_mut()
                .rev()
                .take(64)
                .find(|(start, shown)| *start == p.start && shown.is_none())
        }) {
            entry.1 = Some(at_ms);
        }
        self.card.shown_frames += 1;
        self.animation.displayed(ms(p.animation), at_ms);
        self.lags.displayed(p.lag_ms(at_ms));
    }

    /// Counts refresh `r` showing frame `p`, and the refreshes before it that got none.
    fn count(&mut self, (r, p): (u128, Present)) {
        let Some((shown, before)) = self.shown else {
            return;
        };
        if !self.tearing {
            if self.card.shown_frames == 0 {
                // The first refresh's frame, which the first count follows.
                self.shown(before, self.refresh_ms(shown));
            }
            self.shown(p, self.refresh_ms(r));
        }
        let missed = u64::try_from(r.saturating_sub(shown + 1)).unwrap_or(u64::MAX);
        let c = &mut self.card;
        c.refreshes += missed;
        c.missed += missed;
        c.skipped += missed;
        c.histogram[0] += missed;
        let new_updates = p.updates_so_far.saturating_sub(before.updates_so_far);
        c.refreshes += 1;
        c.histogram[(new_updates as usize).min(3)] += 1;
        c.doubles += u64::from(new_updates >= 2);
        c.skipped += u64::from(new_updates == 0);
        self.shown = Some((r, p));
    }

    /// The scorecard, with the run's drift (game time minus real time) in seconds.
    pub fn finish(self, drift: f64) -> Scorecard {
        self.finish_logged(drift).0
    }

    /// The scorecard, and each present's start and when it was shown, ms (`None`: never),
    /// in the order they came (empty unless [`ScoreKeeper::logging`]).
    pub fn finish_logged(mut self, drift: f64) -> (Scorecard, Vec<(Duration, Option<f64>)>) {
        if let Some(done) = self.filling.take() {
            self.count(done);
        }
        let log = self.log.take().unwrap_or_default();
        let card = Scorecard {
            drift_ms: drift * 1e3,
            animation_error: self.animation.figures(),
            picture_lag: self.lags.figures(),
            ..self.card
        };
        (card, log)
    }
}

/// A duration in milliseconds.
fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

#[cfg(test)]
mod tests {
    use super::*;
    use looplab_timing::Strategy;

    const P: Duration = Duration::from_nanos(16_666_667);

    /// Presents at the given refreshes (plus `offset` into them) with updates so far.
    fn presents(frames: &[(u64, u64)], offset: Duration) -> Vec<Present> {
        frames
            .iter()
            .map(|&(refresh, updates)| Present {
                at: P * refresh as u32 - offset,
                updates_so_far: updates,
                animation: P * updates as u32,
                ..Present::default()
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
        // Each refresh shows the game a refresh on: no animation error.
        assert_eq!(card.shown_frames, 60);
        assert_eq!(card.animation_error.frames, 59);
        assert!(card.animation_error.mean_abs_ms < 1e-6, "{card:?}");
    }

    #[test]
    fn a_jump_and_a_repeat_are_animation_errors_of_their_size() {
        // The picture shows updates 1, 2, 4, 4, 5, 8 at refreshes 1 to 6: errors of 0, +1,
        // -1, 0 and +2 refreshes (16.7 ms each).
        let frames = [(1, 1), (2, 2), (3, 4), (4, 4), (5, 5), (6, 8)];
        let card = Scorecard::score(&presents(&frames, Duration::ZERO), P, 0.0);
        let p = P.as_secs_f64() * 1e3;
        let e = card.animation_error;
        assert_eq!((card.shown_frames, e.frames), (6, 5));
        assert!((e.mean_abs_ms - 4.0 * p / 5.0).abs() < 1e-6, "{e:?}");
        assert!((e.over_2ms_share - 0.6).abs() < 1e-12, "{e:?}");
        assert!((e.p99_abs_ms - 2.0 * p).abs() < 1e-6, "{e:?}");
    }

    #[test]
    fn tearing_presents_are_each_shown_when_they_come() {
        // Three frames a refresh, each showing the game when it was presented.
        let list: Vec<Present> = (1..=90u32)
            .map(|k| Present {
                at: P * k / 3,
                updates_so_far: u64::from(k),
                animation: P * k / 3,
                ..Present::default()
            })
            .collect();
        let card = ScoreKeeper::new(P, Duration::ZERO).tearing(true);
        let card = list.iter().fold(card, |mut c, p| {
            c.push(*p);
            c
        });
        let card = card.finish(0.0);
        assert_eq!(card.shown_frames, 90);
        assert_eq!(card.animation_error.frames, 89);
        assert!(card.animation_error.mean_abs_ms < 1e-6);
        // Binned by refresh, the same presents show three new updates a refresh.
        assert_eq!(card.histogram[3], card.refreshes);
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
                    animation: P * k + P * (j + 1) / 4,
                    ..Present::default()
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
                acquire_ns: 0,
                render_ns: 0,
                present_ns: 0,
                presented_ns: (k + 1 + u64::from(k >= 5)) * 16_666_667 - 1000,
                game_ns: k * 16_666_667 + if k == 9 { 1_000_000 } else { 0 },
                animation_ns: k * 16_666_667 + if k == 9 { 1_000_000 } else { 0 },
                behind_ns: 0,
            })
            .collect();
        let trace = Trace {
            header: TraceHeader {
                looplab_trace: VERSION,
                strategy: Strategy::CatchUp,
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
    fn a_long_stall_is_counted_at_once() {
        let list = [
            Present {
                at: P,
                updates_so_far: 1,
                animation: P,
                ..Present::default()
            },
            Present {
                at: P * 1_000_000_000,
                updates_so_far: 2,
                animation: P * 2,
                ..Present::default()
            },
        ];
        let card = Scorecard::score(&list, P, 0.0);
        assert_eq!(card.refreshes, 999_999_999);
        assert_eq!(card.missed, 999_999_998);
        assert_eq!(card.histogram[1], 1);
    }

    #[test]
    fn drift_is_reported_in_milliseconds() {
        let card = Scorecard::score(&presents(&[(1, 1)], Duration::ZERO), P, -0.0125);
        assert_eq!(card.refreshes, 0);
        assert!((card.drift_ms + 12.5).abs() < 1e-9);
    }
}
