//! The figures a stop is watched on, gathered the same way in the window and in the
//! headless walk: from the pictures shown since the stop began, the loop's session, and
//! compare mode's lanes.

use std::collections::VecDeque;
use std::time::Duration;

use looplab_timing::FramePlan;

use super::Figures;
use crate::lab::lane::Agreement;
use crate::session::Session;
use crate::session::frame::FrameRecord;

/// Gathers a stop's [`Figures`] from the moment it began.
#[derive(Clone, Debug)]
pub struct FigureTracker {
    began: Duration,
    /// The session's game time and its darts' counts when the stop began.
    game_at_start: Option<Duration>,
    darts_at_start: (u64, u64),
    /// The pictures of the last second: when each was shown, its updates, and whether it
    /// showed the same game time as the one before.
    recent: VecDeque<(Duration, u32, bool)>,
    last_drawn: Option<Duration>,
    most_updates: u32,
    /// From the last picture: the wall-clock marker's lead, game time, and darts' counts.
    behind_ms: f64,
    game_now: Duration,
    darts: (u64, u64),
}

impl FigureTracker {
    /// A stop begun at `now` (on the clock its frames are planned on).
    pub fn new(now: Duration) -> Self {
        Self {
            began: now,
            game_at_start: None,
            darts_at_start: (0, 0),
            recent: VecDeque::new(),
            last_drawn: None,
            most_updates: 0,
            behind_ms: 0.0,
            game_now: Duration::ZERO,
            darts: (0, 0),
        }
    }

    /// A picture shown at `shown`, planned as `plan`, of `session`'s world.
    pub fn picture(&mut self, shown: Duration, plan: &FramePlan, session: &Session) {
        let darts = &session.world().darts;
        let counts = (darts.hits, darts.tunnels);
        if self.game_at_start.is_none() {
            self.game_at_start = Some(plan.game_now);
            self.darts_at_start = counts;
        }
        let drawn = FrameRecord::planned(plan).drawn_time();
        self.recent
            .push_back((shown, plan.updates, self.last_drawn == Some(drawn)));
        self.last_drawn = Some(drawn);
        while self
            .recent
            .front()
            .is_some_and(|&(t, _, _)| t + Duration::from_secs(1) < shown)
        {
            self.recent.pop_front();
        }
        self.most_updates = self.most_updates.max(plan.updates);
        self.behind_ms = (session.reference().as_secs_f64() - drawn.as_secs_f64()) * 1e3;
        self.game_now = plan.game_now;
        self.darts = counts;
    }

    /// The figures at `now`: compare mode's lanes agree with the first as `others` say
    /// (empty in the single view), and the machine was busy `busy_share` of the last second.
    pub fn figures(&self, now: Duration, others: &[Agreement], busy_share: f64) -> Figures {
        let seconds = now.saturating_sub(self.began).as_secs_f64();
        let game = self
            .game_now
            .saturating_sub(self.game_at_start.unwrap_or(self.game_now));
        let hits = self.darts.0 - self.darts_at_start.0;
        let tunnels = self.darts.1 - self.darts_at_start.1;
        let pictures = self.recent.len();
        let still = self.recent.iter().filter(|p| p.2).count();
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
            doubles_per_second: self.recent.iter().filter(|p| p.1 >= 2).count(),
            lanes_in_step_to: in_step_to(others),
            lanes_diverged_at: others.iter().find_map(|a| match a {
                Agreement::DivergedAt(t) => Some(t.as_secs_f64()),
                _ => None,
            }),
            most_updates: self.most_updates,
            still_share: still as f64 / pictures.max(1) as f64,
            fps: pictures,
            busy_share,
        }
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
