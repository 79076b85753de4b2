//! The figures a stop is watched on, gathered the same way in the window and in the
//! headless walk: from the pictures shown since the stop began, the loop's session, and
//! compare mode's lanes.

use std::collections::VecDeque;
use std::time::Duration;

use looplab_timing::{FramePlan, View};

use super::{Figures, FramesJudged, Host, MachineVerdict, Need};
use crate::lab::lane::Agreement;
use crate::metrics::animation::{self, AnimationErrorFigures};
use crate::session::Session;
use crate::session::ship_input::Taps;

/// Gathers a stop's [`Figures`] from the moment it began.
#[derive(Clone, Debug)]
pub struct FigureTracker {
    began: Duration,
    /// What the stop asks of the machine, and how its frames measured against it.
    need: Need,
    drawn_in: FramesAgainst,
    /// The session's game time and its darts' counts when the stop began.
    game_at_start: Option<Duration>,
    darts_at_start: (u64, u64),
    taps_at_start: Taps,
    /// The pictures of the last second.
    recent: VecDeque<Shown>,
    last_drawn: Option<Duration>,
    most_updates: u32,
    /// From the last picture: the wall-clock marker's lead (less its lead at the first
    /// picture, so a gap an earlier stop left is not this one's), game time, and darts'
    /// counts.
    behind_ms: f64,
    behind_at_start: Option<f64>,
    most_overshoot_px: f32,
    /// Times the figures began again after a hitch.
    hitches: u32,
    game_now: Duration,
    darts: (u64, u64),
    taps: Taps,
}

/// A stop's frames measured against the time its claim needs them drawn in.
#[derive(Clone, Copy, Debug, Default)]
pub struct FramesAgainst {
    /// Who calls the frames: a browser's too few calls are said as the browser's.
    pub host: Host,
    pub frames: u32,
    /// When the first and the last of them were shown.
    pub first: Option<Duration>,
    pub last: Duration,
    /// Frames that took longer, by how much in all, and the slowest.
    pub over: u32,
    pub overrun: Duration,
    pub slowest: Duration,
}

impl FramesAgainst {
    /// A frame shown at `at`, drawn in `took` against a need of `within`.
    fn frame(&mut self, at: Duration, took: Duration, within: Duration) {
        self.frames += 1;
        self.first.get_or_insert(at);
        self.last = at;
        self.slowest = self.slowest.max(took);
        if took > within {
            self.over += 1;
            self.overrun += took - within;
        }
    }

    /// How the frames measured against a need of `within`: too slow if one frame in ten
    /// took longer, or they took 50 ms longer in all.
    pub fn verdict(&self, within: Duration) -> MachineVerdict {
        let too_many = self.over > 0 && self.over * 10 >= self.frames;
        let too_slow = too_many || self.overrun >= Duration::from_millis(50);
        let within_ms = within.as_secs_f64() * 1e3;
        let said = match self.host {
            Host::Loop => self.said_of_the_machine(too_slow, within_ms),
            Host::Browser => self.said_of_the_browser(too_slow, within_ms),
        };
        let judged = FramesJudged {
            first: self.first.unwrap_or(self.last),
            last: self.last,
            within,
            frames: self.frames,
            over: self.over,
        };
        MachineVerdict {
            too_slow,
            said,
            judged,
        }
    }

    /// How often the frames came, a second: for a page, how often the browser called it
    /// back (every callback that comes later than the frame needs is one drawn).
    pub fn per_second(&self) -> f64 {
        match self.first {
            Some(first) if self.last > first => {
                f64::from(self.frames - 1) / (self.last - first).as_secs_f64()
            }
            _ => 0.0,
        }
    }

    fn said_of_the_browser(&self, too_slow: bool, within_ms: f64) -> String {
        let rate = self.per_second();
        if too_slow {
            format!(
                "the browser called the page {rate:.0} times a second ({} of {} frames came \
                 more than {within_ms:.1} ms apart, the loop's own nap not counted): too \
                 slow to show this here",
                self.over, self.frames
            )
        } else {
            format!(
                "the browser called the page {rate:.0} times a second, {} of {} frames within \
                 {within_ms:.1} ms, fast enough",
                self.frames - self.over,
                self.frames
            )
        }
    }

    fn said_of_the_machine(&self, too_slow: bool, within_ms: f64) -> String {
        if too_slow {
            format!(
                "{} of {} frames took longer than {within_ms:.1} ms, the loop's own sleep not \
                 counted (the slowest {:.1} ms): this machine was too slow for it",
                self.over,
                self.frames,
                self.slowest.as_secs_f64() * 1e3
            )
        } else {
            format!(
                "{} of {} frames took at most {within_ms:.1} ms, fast enough",
                self.frames - self.over,
                self.frames
            )
        }
    }
}

/// One picture of the last second, as the figures need it.
#[derive(Clone, Copy, Debug)]
struct Shown {
    at: Duration,
    updates: u32,
    /// It showed the same game time as the picture before.
    still: bool,
    /// How far between the last two states it was drawn, when it interpolated.
    alpha: Option<f32>,
    /// When its frame began, and how long the loop slept of its own accord before that.
    began: Duration,
    waited: Duration,
    /// The game time it was planned at.
    game: Duration,
    /// The game time its picture shows, in real time, ms.
    animation_ms: f64,
    /// How far from where it truly was it drew the metronome, and a ball past a wall
    /// of its box, px.
    error_px: f32,
    overshoot_px: f32,
}

impl FigureTracker {
    /// A stop begun at `now` (on the clock its frames are planned on), whose claim needs
    /// `need` of the machine.
    pub fn new(now: Duration, need: Need) -> Self {
        Self {
            began: now,
            need,
            drawn_in: FramesAgainst::default(),
            game_at_start: None,
            darts_at_start: (0, 0),
            taps_at_start: Taps::default(),
            recent: VecDeque::new(),
            last_drawn: None,
            most_updates: 0,
            behind_ms: 0.0,
            behind_at_start: None,
            most_overshoot_px: 0.0,
            hitches: 0,
            game_now: Duration::ZERO,
            darts: (0, 0),
            taps: Taps::default(),
        }
    }

    /// Frames called by `host`: a browser's too few calls are said to be the browser's.
    pub fn called_by(mut self, host: Host) -> Self {
        self.drawn_in.host = host;
        self
    }

    /// Hitches after which the figures begin again; any more and they count as they come,
    /// so a machine that keeps stalling still ends its stops.
    const HITCHES_FORGIVEN: u32 = 3;

    /// Figures from `now` on that count every frame, hitches too: what a person's change
    /// to the loop shows (a spiral of death is all hitches).
    pub fn counting_hitches(now: Duration, need: Need) -> Self {
        Self {
            hitches: Self::HITCHES_FORGIVEN,
            ..Self::new(now, need)
        }
    }

    /// A picture shown at `shown`, planned as `plan`, of `session`'s world, its frame begun
    /// after the loop slept `waited` of its own accord. A picture given again (the window's
    /// frames outnumber a lane's) counts once.
    ///
    /// A frame the loop clamped (a hitch: a start-up's shader compile, a stall) is no part
    /// of what a claim is watched on: the figures begin again after it, and `true` says so,
    /// for the stop's time to begin again too.
    pub fn picture(
        &mut self,
        shown: Duration,
        plan: &FramePlan,
        session: &Session,
        waited: Duration,
    ) -> bool {
        if self.recent.back().is_some_and(|p| p.at == shown) {
            return false;
        }
        if !plan.clamped.is_zero() && self.hitches < Self::HITCHES_FORGIVEN {
            let hitches = self.hitches + 1;
            *self = Self::new(shown, self.need).called_by(self.drawn_in.host);
            self.hitches = hitches;
            return true;
        }
        let darts = &session.world().darts;
        let counts = (darts.hits, darts.tunnels);
        let taps = session.ship_keys().taps();
        if self.game_at_start.is_none() {
            self.game_at_start = Some(plan.game_now);
            self.darts_at_start = counts;
            self.taps_at_start = taps;
        }
        if let Need::DrawsWithin(within) = self.need {
            // What the frame cost the machine: from the last picture to this one, less the
            // loop's own sleep (a browser's late callback or a busy machine counts; the
            // nap does not). The first picture has only its own frame's time.
            let since_last = self
                .recent
                .back()
                .map_or(shown.saturating_sub(plan.now), |p| {
                    shown.saturating_sub(p.at).saturating_sub(waited)
                });
            self.drawn_in.frame(shown, since_last, within);
        }
        let record = session.record(plan);
        let drawn = record.drawn_time();
        let (metronome, truth) = session.metronome_drawn(plan);
        self.recent.push_back(Shown {
            at: shown,
            updates: plan.updates,
            still: self.last_drawn == Some(drawn),
            alpha: match plan.view {
                View::Interpolate { alpha } => Some(alpha),
                _ => None,
            },
            began: plan.now,
            game: plan.game_now,
            animation_ms: record.animation_time().as_secs_f64() * 1e3,
            waited,
            error_px: metronome.distance(truth),
            overshoot_px: session.overshoot(plan),
        });
        self.last_drawn = Some(drawn);
        while self
            .recent
            .front()
            .is_some_and(|p| p.at + Duration::from_secs(1) < shown)
        {
            self.recent.pop_front();
        }
        self.most_updates = self.most_updates.max(plan.updates);
        if let Some(p) = self.recent.back() {
            self.most_overshoot_px = self.most_overshoot_px.max(p.overshoot_px);
        }
        let behind = (session.reference().as_secs_f64() - drawn.as_secs_f64()) * 1e3;
        self.behind_ms = behind - *self.behind_at_start.get_or_insert(behind);
        self.game_now = plan.game_now;
        self.darts = counts;
        self.taps = taps;
        false
    }

    /// The figures at `now`: compare mode's lanes agree with the first as `others` say, and
    /// show steering after `delays` (both empty in the single view).
    pub fn figures(
        &self,
        now: Duration,
        others: &[Agreement],
        delays: &[Option<Duration>],
    ) -> Figures {
        let seconds = now.saturating_sub(self.began).as_secs_f64();
        let game = self
            .game_now
            .saturating_sub(self.game_at_start.unwrap_or(self.game_now));
        let hits = self.darts.0 - self.darts_at_start.0;
        let tunnels = self.darts.1 - self.darts_at_start.1;
        let pictures = self.recent.len();
        let still = self.recent.iter().filter(|p| p.still).count();
        let alphas = || self.recent.iter().filter_map(|p| p.alpha);
        let fifth = |a: f32| ((a * 5.0) as usize).min(4);
        let most = |f: fn(&Shown) -> f32| self.recent.iter().map(f).fold(0.0f32, f32::max) as f64;
        Figures {
            seconds,
            game_behind_ms: self.behind_ms,
            game_per_real: if seconds > 0.0 {
                game.as_secs_f64() / seconds
            } else {
                0.0
            },
            tunnel_share: if hits + tunnels > 0 {
                tunnels as f64 / (hits + tunnels) as f64
            } else {
                0.0
            },
            darts: hits + tunnels,
            doubles_per_second: self.recent.iter().filter(|p| p.updates >= 2).count(),
            lanes_in_step_to: in_step_to(others),
            lanes_diverged_at: others.iter().find_map(|a| match a {
                Agreement::DivergedAt(t) => Some(t.as_secs_f64()),
                _ => None,
            }),
            most_updates: self.most_updates,
            still_share: still as f64 / pictures.max(1) as f64,
            animation_error: self.animation_error(),
            fps: pictures,
            asleep_share: self.asleep_share(now),
            napped_share: self.recent.iter().filter(|p| !p.waited.is_zero()).count() as f64
                / pictures.max(1) as f64,
            alpha_fifths: (0..5).filter(|&k| alphas().any(|a| fifth(a) == k)).count(),
            alpha_range: alphas().fold(None, |range, a| match range {
                None => Some((a, a)),
                Some((lo, hi)) => Some((a.min(lo), a.max(hi))),
            }),
            metronome_error_px: most(|p| p.error_px),
            overshoot_px: most(|p| p.overshoot_px),
            most_overshoot_px: self.most_overshoot_px as f64,
            recent_game_per_real: match (self.recent.front(), self.recent.back()) {
                (Some(first), Some(last)) if last.at > first.at => {
                    last.game.saturating_sub(first.game).as_secs_f64()
                        / (last.at - first.at).as_secs_f64()
                }
                _ => 0.0,
            },
            lane_delays_ms: delays
                .iter()
                .map(|d| d.map(|d| d.as_secs_f64() * 1e3))
                .collect(),
            taps_made: self.taps.made - self.taps_at_start.made,
            taps_reached: self.taps.reached - self.taps_at_start.reached,
            taps_lost: self.taps.lost - self.taps_at_start.lost,
            machine: match self.need {
                Need::Nothing => None,
                Need::DrawsWithin(within) => Some(self.drawn_in.verdict(within)),
            },
        }
    }

    /// The animation error of the last second's pictures, each against the one before.
    fn animation_error(&self) -> AnimationErrorFigures {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let errors: Vec<f64> = self
            .recent
            .iter()
            .zip(self.recent.iter().skip(1))
            .filter_map(|(a, b)| {
                animation::error_ms((a.animation_ms, ms(a.at)), b.animation_ms, ms(b.at))
            })
            .collect();
        AnimationErrorFigures::of(&errors)
    }

    /// Share of the last second before `now` (or of the stop, if shorter) the loop spent
    /// asleep of its own accord: the naps that ended as the frames of that second began,
    /// each counted as far as it lies inside the span.
    fn asleep_share(&self, now: Duration) -> f64 {
        let from = now.saturating_sub(Duration::from_secs(1)).max(self.began);
        let span = now.saturating_sub(from);
        if span.is_zero() {
            return 0.0;
        }
        let asleep: Duration = self
            .recent
            .iter()
            .map(|p| {
                let woke = p.began.min(now);
                woke.saturating_sub(p.began.saturating_sub(p.waited).max(from))
            })
            .sum();
        (asleep.as_secs_f64() / span.as_secs_f64()).min(1.0)
    }
}

/// The game time up to which every lane agreed with the first, if all have a common
/// checkpoint and none differed.
fn in_step_to(others: &[Agreement]) -> Option<f64> {
    let mut to: Option<f64> = None;
    for a in others {
        match a {
            Agreement::InStep(t) => {
                let t = t.as_secs_f64();
                to = Some(to.map_or(t, |x| x.min(t)));
            }
            _ => return None,
        }
    }
    to
}
