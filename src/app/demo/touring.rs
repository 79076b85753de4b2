//! The guided tour in the window: its keys, each stop's setup through the controls, and
//! the watch on each presented frame's figures. The stops themselves are the tour's table
//! ([`crate::tour`]); nothing here knows any one of them.

use std::time::Duration;

use looplab_timing::FramePlan;

use super::Demo;
use crate::app::controls::{Effect, Snapshot};
use crate::app::keys::TourKey;
use crate::app::stats::{FeelReport, StopReport, TourReport};
use crate::lab::blind::{Judged, LETTERS};
use crate::lab::compare::Preset;
use crate::session::CountFrom;
use crate::text::settings::describe_settings;
use crate::tour::{
    Answer, FigureTracker, Host, Need, Setup, Stop, StopStatus, Tour, TourPanel, stops,
};

/// The tour as the window runs it (kept after it is left, for `--stats`).
#[derive(Clone, Debug)]
pub struct Touring {
    pub tour: Tour,
    /// On, or left (End): Enter takes it up again at the stop it was left at.
    pub on: bool,
    tracker: FigureTracker,
    /// How the current stop stands, as of the last frame.
    pub status: StopStatus,
    /// What the person had set when the tour began or was taken up again: leaving it
    /// gives that back.
    found: Snapshot,
}

impl Demo {
    /// A key of the tour's: start it or go on, back, leave; A (the whole screen, or the
    /// answer A where the stop asks) and B.
    pub(super) fn tour_key(&mut self, key: TourKey, now: Duration) -> Effect {
        let asking = self
            .touring
            .as_ref()
            .is_some_and(|t| t.on && t.tour.asking().is_some());
        if let TourKey::Visit(to) = key {
            return self.visit_stop(to, now);
        }
        let moved = match (key, self.touring.as_mut()) {
            (TourKey::Everything | TourKey::AnswerB, _) if asking => {
                let chose = usize::from(key == TourKey::AnswerB);
                return self.tour_answer(chose, now).unwrap_or_default();
            }
            (TourKey::Everything, _) => return self.controls.toggle_everything(),
            (TourKey::Next, None) => {
                self.touring = Some(self.new_tour(now));
                true
            }
            (TourKey::Next, Some(t)) if !t.on => {
                t.on = true;
                t.tour.begin_again(now);
                t.found = self.controls.snapshot();
                true
            }
            (TourKey::Next, Some(t)) => t.tour.go(true, now),
            (TourKey::Previous, Some(t)) if t.on => t.tour.go(false, now),
            (TourKey::Leave, Some(t)) if t.on => {
                t.on = false;
                let found = t.found.clone();
                return self.leave_tour(&found, now);
            }
            // Back, leave and B off the tour, or B where no question is asked.
            (TourKey::Previous | TourKey::Leave | TourKey::AnswerB | TourKey::Visit(_), _) => {
                return Effect::default();
            }
        };
        self.tour_moved(moved, key == TourKey::Next, now)
            .unwrap_or_default()
    }

    /// Goes to stop `to` at `now`, starting the tour (or taking it up again) if need be:
    /// what the book's view of a stop asks for as it scrolls into sight.
    fn visit_stop(&mut self, to: usize, now: Duration) -> Effect {
        let snapshot = self.controls.snapshot();
        let (in_a_page, host) = (self.start.in_a_page, self.host());
        let touring = self
            .touring
            .get_or_insert_with(|| Self::tour_from(in_a_page, snapshot.clone(), host, now));
        if !touring.on {
            touring.on = true;
            touring.found = snapshot;
        }
        let moved = touring.tour.visit(to, now);
        self.tour_moved(moved, false, now).unwrap_or_default()
    }

    /// After a tour key: the stop it came to set up, or why it did not move (`next` says
    /// whether it went forward).
    fn tour_moved(&mut self, moved: bool, next: bool, now: Duration) -> Option<Effect> {
        let touring = self.touring.as_mut()?;
        if !moved {
            let said = if next && touring.tour.at_last_stop() {
                "tour: that was the last stop; End leaves the tour and gives your settings back"
            } else {
                "tour: no stop that way"
            };
            return Some(Effect::said(said.into()));
        }
        let stop = touring.tour.stop()?.clone();
        let (at, of) = touring.tour.position();
        // A stop that asks first shows its pair of lanes unnamed; its own setup follows
        // the answer.
        let setup = match touring.tour.asking() {
            Some(blind) => Setup {
                compare: Some(Preset::Blind(blind)),
                ..stop.setup.clone()
            },
            None => stop.setup.clone(),
        };
        let mut effect = self.begin_stop(&setup, now);
        effect.log = Some(format!(
            "tour: stop {} of {of}, {}: {} ({})",
            at + 1,
            stop.title,
            stop.claim,
            effect.log.unwrap_or_default()
        ));
        Some(effect)
    }

    /// The tour from its first stop (the page's stops in a page), begun at `now`, keeping
    /// what the person had set.
    fn new_tour(&self, now: Duration) -> Touring {
        Self::tour_from(
            self.start.in_a_page,
            self.controls.snapshot(),
            self.host(),
            now,
        )
    }

    /// The tour from its first stop (a page's stops `in_a_page`), begun at `now` by a
    /// `host`, keeping what the person had set, `found`.
    fn tour_from(in_a_page: bool, found: Snapshot, host: Host, now: Duration) -> Touring {
        let stops = if in_a_page {
            stops::for_a_page()
        } else {
            stops::stops()
        };
        let tour = Tour::start(stops, now);
        let need = tour.stop().map_or(Need::Nothing, |s| s.needs);
        Touring {
            tour,
            on: true,
            tracker: FigureTracker::new(now, need).called_by(host),
            status: StopStatus::Watching,
            found,
        }
    }

    /// Leaves the tour: what the person had set, `found`, is theirs again from `now`.
    fn leave_tour(&mut self, found: &Snapshot, now: Duration) -> Effect {
        let mut effect = self.controls.restore(found);
        self.controls.session_mut().resync(now);
        effect.strategy_changed = true;
        effect.log = Some(format!(
            "tour: left; your settings are back ({}, {})",
            found.strategy.id(),
            describe_settings(&found.settings)
        ));
        effect
    }

    /// Sets `setup` up at `now` and watches the current stop's claim from then: each stop
    /// starts the loop's clocks together, so its figures are its own.
    fn begin_stop(&mut self, setup: &Setup, now: Duration) -> Effect {
        let host = self.host();
        if let Some(touring) = self.touring.as_mut() {
            let need = touring.tour.stop().map_or(Need::Nothing, |s| s.needs);
            touring.tracker = FigureTracker::new(now, need).called_by(host);
            touring.status = StopStatus::Watching;
        }
        let mut effect = self.controls.apply_setup(setup);
        self.controls.session_mut().resync(now);
        self.controls.session_mut().count_afresh(CountFrom::Stop);
        effect.strategy_changed = true;
        effect
    }

    /// The person answered the stop's question with lane `chose` (0 for A) at `now`: the
    /// lanes' figures judge it, the stop names the lanes, and its own setup and watch
    /// begin.
    fn tour_answer(&mut self, chose: usize, now: Duration) -> Option<Effect> {
        let blind = self.touring.as_ref()?.tour.asking()?;
        let judged = match &self.compare {
            Some(c) if c.preset == Preset::Blind(blind) => c.judge(blind),
            _ => Judged {
                favoured: None,
                said: "A and B had shown nothing yet".to_string(),
            },
        };
        let touring = self.touring.as_mut()?;
        let words = touring.tour.answer(chose, judged, now)?.words();
        let stop = touring.tour.stop()?.clone();
        let mut effect = self.begin_stop(&stop.setup, now);
        effect.log = Some(format!("tour: {}: {words}", stop.id));
        Some(effect)
    }

    /// The tour's current stop and its panel, while the tour is on: what the book's
    /// embedded view shows in words around its picture.
    pub fn tour_stop(&self) -> Option<(&Stop, TourPanel)> {
        let touring = self.touring.as_ref().filter(|t| t.on)?;
        Some((touring.tour.stop()?, touring.tour.panel(&touring.status)?))
    }

    /// Whether this is one of the book's embedded views, which frames the tour's stop
    /// alone.
    pub fn framed(&self) -> bool {
        self.start.embedded.is_some()
    }

    /// Who calls the frames: a page's browser, or the window's own loop.
    fn host(&self) -> Host {
        if self.start.in_a_page {
            Host::Browser
        } else {
            Host::Loop
        }
    }

    /// The person changed the loop at `now`: at a stop whose hint has keys, its watch on
    /// what they should show begins, on figures from now on.
    pub(super) fn tour_tried(&mut self, now: Duration) {
        let host = self.host();
        let Some(touring) = self.touring.as_mut().filter(|t| t.on) else {
            return;
        };
        // The captions and the stop's figures count from the keys, both.
        if touring.tour.try_it(now) {
            touring.tracker =
                FigureTracker::counting_hitches(now, touring.tour.try_needs()).called_by(host);
            touring.status = StopStatus::Trying;
        } else {
            touring.tour.begin_again(now);
            let need = touring.tour.stop().map_or(Need::Nothing, |s| s.needs);
            touring.tracker = FigureTracker::new(now, need).called_by(host);
            touring.status = StopStatus::Watching;
        }
        self.controls.session_mut().count_afresh(CountFrom::Keys);
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
        if touring.tracker.picture(shown, &plan, session, waited) {
            // A hitch: the stop's time begins again with its figures, and the captions'.
            touring.tour.begin_again(presented);
            if self.compare.is_none() {
                self.controls.session_mut().count_afresh(CountFrom::Hitch);
            }
            log::info!("tour: a hitch; the stop's figures begin again");
        }
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
                StopStatus::NotSeen(why) if why.starts_with("after your keys") => {
                    log::info!("tour: {id} tried, not seen in time; {why}")
                }
                StopStatus::NotSeen(why) => log::info!("tour: {id} not seen in time; {why}"),
                StopStatus::Tried(after, figure) => log::info!(
                    "tour: {id} tried, and {:.1} s later: {figure}",
                    after.as_secs_f64()
                ),
                StopStatus::Watching | StopStatus::Trying => {}
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
                    too_slow_on: visit.missed.and_then(|m| m.judged).map(Into::into),
                    tried_missed: visit.try_missed.map(|m| m.why.clone()),
                    tried_too_slow_on: visit.try_missed.and_then(|m| m.judged).map(Into::into),
                    feel: visit.stop.feel.map(|pair| FeelReport {
                        question: pair.question().words().to_string(),
                        answered: visit.answer.is_some(),
                        chose: visit.answer.map(|a| LETTERS[a.chose].to_string()),
                        agreed_with_figures: visit.answer.and_then(Answer::agreed),
                        figures: visit.answer.map(|a| a.said.clone()),
                    }),
                })
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use looplab_timing::{LoopSettings, Strategy};

    use crate::app::controls::{Controls, Knobs};
    use crate::app::keys::{self, Action, LanesKey};
    use crate::session::present::PresentMode;
    use crate::text::settings::DeltaKind;
    use crate::tour::{Setup, stops, walk};
    use crate::world::WorldConfig;

    /// What the controls run now, as a stop's setup would say it.
    fn setup_of(c: &Controls) -> Setup {
        let s = c.settings();
        Setup {
            strategy: c.strategy(),
            ups: s.update_rate.as_hz(),
            cap: s.frame_cap.map(|r| r.as_hz()),
            max_updates: s.max_updates(),
            delta: DeltaKind::of(&s.delta_mode),
            update_cost: c.knobs.update_cost,
            render_cost: c.knobs.render_cost,
            vsync: c.knobs.vsync(),
            compare: c.knobs.compare,
            input: c.session().ship_keys().mode(),
        }
    }

    #[test]
    fn each_hints_keys_do_what_it_says_and_the_figures_move_that_way() {
        let mut tried = Vec::new();
        for stop in stops::stops() {
            let Some(tries) = stop.tries else {
                assert!(
                    !stop.hint.contains("press"),
                    "{}: a hint that names a key has the keys to press",
                    stop.id
                );
                continue;
            };
            // The window's controls, on a surface that offers every present mode, with
            // the stop set up as the tour sets it; then the hint's keys, as dispatched.
            let mut c = Controls::new(
                Strategy::Interpolated,
                LoopSettings::default(),
                Knobs::default(),
                &WorldConfig {
                    seed: 1,
                    bullets: 10,
                },
            );
            c.set_offered(PresentMode::ALL.to_vec());
            c.apply_setup(&stop.setup);
            assert_eq!(
                setup_of(&c),
                stop.setup,
                "{}: set up as its table says",
                stop.id
            );
            for name in tries.keys {
                assert!(
                    stop.hint.contains(name),
                    "{}: the hint names {name}",
                    stop.id
                );
                let key = keys::key_named(name).unwrap_or_else(|| panic!("no key {name}"));
                let action = keys::action_for(key.code, key.shift).unwrap();
                assert!(action.changes_the_loop(), "{name}: {action:?}");
                match action {
                    Action::Loop(key) => c.loop_key(key),
                    Action::Knob(key) => c.knob_key(key),
                    Action::Ship(key) => c.ship_key(key, Duration::ZERO),
                    Action::Lanes(LanesKey::Compare) => c.toggle_compare(),
                    Action::Lanes(LanesKey::Preset(preset)) => c.compare_preset(preset),
                    other => panic!("{name}: {other:?} is none of the controls' keys"),
                };
            }
            let after = setup_of(&c);
            // Before the keys, what the hint promises does not show; after them, it does.
            let before = walk::walk_tried(&stop, &stop.setup).unwrap();
            assert_eq!(before.seen, None, "{}: shows without the keys", stop.id);
            let walked = walk::walk_tried(&stop, &after).unwrap();
            let Some((at, figure)) = walked.seen else {
                panic!(
                    "{}: after {:?}, {after:?} did not show {}; at the end {:?}",
                    stop.id,
                    tries.keys,
                    tries.shows.expected(),
                    walked.last
                );
            };
            tried.push(format!(
                "{:<22} {:<18} {:>5.2} s  {figure}",
                stop.id,
                tries.keys.join(" "),
                at.as_secs_f64()
            ));
        }
        eprintln!("{}", tried.join("\n"));
        assert!(tried.len() >= 8, "{tried:#?}");
    }
}
