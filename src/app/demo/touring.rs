//! The guided tour in the window: its keys, each stop's setup through the controls, and
//! the watch on each presented frame's figures. The stops themselves are the tour's table
//! ([`crate::tour`]); nothing here knows any one of them.

use std::time::Duration;

use looplab_timing::FramePlan;

use super::Demo;
use crate::app::controls::Effect;
use crate::app::keys::Action;
use crate::app::stats::{StopReport, TourReport};
use crate::tour::{FigureTracker, Need, StopStatus, Tour, stops};

/// The tour as the window runs it (kept after it is left, for `--stats`).
#[derive(Clone, Debug)]
pub struct Touring {
    pub tour: Tour,
    /// On, or left (End): Enter takes it up again at the stop it was left at.
    pub on: bool,
    tracker: FigureTracker,
    /// How the current stop stands, as of the last frame.
    pub status: StopStatus,
}

impl Demo {
    /// The tour's keys; `None` for any other action.
    pub(super) fn tour_key(&mut self, action: Action, now: Duration) -> Option<Effect> {
        let moved = match (action, self.touring.as_mut()) {
            (Action::TourNext, None) => {
                let tour = Tour::start(stops::stops(), now);
                let need = tour.stop().map_or(Need::Nothing, |s| s.needs);
                self.touring = Some(Touring {
                    tour,
                    on: true,
                    tracker: FigureTracker::new(now, need),
                    status: StopStatus::Watching,
                });
                true
            }
            (Action::TourNext, Some(t)) if !t.on => {
                t.on = true;
                t.tour.begin_again(now);
                true
            }
            (Action::TourNext, Some(t)) => t.tour.go(true, now),
            (Action::TourPrevious, Some(t)) if t.on => t.tour.go(false, now),
            (Action::TourLeave, Some(t)) if t.on => {
                t.on = false;
                return Some(Effect::log("tour: left".into()));
            }
            (Action::TourPrevious | Action::TourLeave, _) => {
                return Some(Effect::default());
            }
            _ => return None,
        };
        let touring = self.touring.as_mut()?;
        if !moved {
            return Some(Effect::log("tour: no stop that way".into()));
        }
        let stop = touring.tour.stop()?.clone();
        touring.tracker = FigureTracker::new(now, stop.needs);
        touring.status = StopStatus::Watching;
        let (at, of) = touring.tour.position();
        // Each stop starts the loop's clocks together, so its figures are its own.
        let mut effect = self.controls.apply_setup(&stop.setup);
        self.controls.session_mut().resync(now);
        effect.log = Some(format!(
            "tour: stop {} of {of}, {}: {} ({})",
            at + 1,
            stop.title,
            stop.claim,
            effect.log.unwrap_or_default()
        ));
        effect.strategy_changed = true;
        Some(effect)
    }

    /// Watches the tour's stop on a frame planned as `plan`, begun after the loop slept
    /// `waited`, and presented at `presented`; in compare mode, on the first lane's picture
    /// (each counted once, when it appears).
    pub(super) fn watch_tour(&mut self, presented: Duration, plan: &FramePlan, waited: Duration) {
        let Some(touring) = self.touring.as_mut().filter(|t| t.on) else {
            return;
        };
        let picture = match &self.compare {
            Some(c) => c.lanes[0]
                .picture()
                .map(|p| (p.shown_at, p.plan, c.lanes[0].session(), p.waited)),
            None => Some((presented, *plan, self.controls.session(), waited)),
        };
        let Some((shown, plan, session, waited)) = picture else {
            return;
        };
        touring.tracker.picture(shown, &plan, session, waited);
        let (others, delays) = self
            .compare
            .as_ref()
            .map_or_else(Default::default, |c| (c.agreements(), c.steer_delays()));
        let figures = touring.tracker.figures(presented, &others, &delays);
        let status = touring.tour.watch(&figures, presented);
        if status != touring.status {
            let id = touring.tour.stop().map_or("", |s| s.id);
            match &status {
                StopStatus::Seen(after, figure) => {
                    log::info!(
                        "tour: {id} seen after {:.1} s: {figure}",
                        after.as_secs_f64()
                    )
                }
                StopStatus::NotSeen(why) => log::info!("tour: {id} not seen in time; {why}"),
                StopStatus::Watching => {}
            }
            touring.status = status;
        }
    }

    pub(super) fn tour_report(&self) -> Option<TourReport> {
        let touring = self.touring.as_ref()?;
        Some(TourReport {
            stops: touring
                .tour
                .visits()
                .map(|visit| StopReport {
                    id: visit.stop.id.to_string(),
                    seen_after_s: visit.seen.map(|(at, _)| at.as_secs_f64()),
                    seen: visit.seen.map(|(_, figure)| figure.clone()),
                    missed: visit.missed.map(|m| m.why.clone()),
                    too_slow: visit.missed.is_some_and(|m| m.too_slow),
                })
                .collect(),
        })
    }
}
