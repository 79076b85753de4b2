//! The guided tour: the classic texts' claims one stop at a time, each staged, pointed at,
//! and watched for on the figures Looplab measures anyway.
//!
//! The tour is data: [`stops::stops`] is a table of [`Stop`]s, each with its setup, its
//! words, the region to look at, one thing to try, a [`Watch`] on the measured figures and
//! a time limit. The window, the page and the tests read the same table, and no stop is a
//! special case in a frame loop: a stop's setup goes through the settings path the keys
//! use, and its watch reads [`Figures`] the frame already has.
//!
//! [`walk::walk`] runs a stop headless, on the lab's modelled machine and the virtual
//! clock, so the tests check every claim the tour makes on every run.

pub mod figures;
pub mod stops;
pub mod walk;
pub mod watch;

use std::time::Duration;

use looplab_timing::{LoopSettings, Rate, Strategy};

use crate::lab::blind::{Blind, Judged, LETTERS, Pair, Question};
use crate::lab::compare::Preset;
use crate::lab::profile::Profile;
use crate::session::ship_input::InputMode;
use crate::text::settings::DeltaKind;
pub use figures::{FigureTracker, FramesAgainst};
pub use watch::{Figures, FramesJudged, MachineVerdict, Watch};

/// One stop of the tour.
#[derive(Clone, Debug, PartialEq)]
pub struct Stop {
    /// A short name, for `--stats` and the tests.
    pub id: &'static str,
    /// The stop's title, as the panel heads it.
    pub title: &'static str,
    /// The claim, in one or two sentences of our own.
    pub claim: &'static str,
    /// Where the claim comes from: the text and its section.
    pub source: &'static str,
    pub setup: Setup,
    /// Where to look.
    pub focus: Focus,
    /// The line of its strategy's loop ([`Strategy::pseudocode`]) the claim lives in, by a
    /// part of it that no other line of that loop has. The panel highlights it, with the
    /// try's key beside it.
    pub line: &'static str,
    /// Where the claim is about what a person sees: a loop and its refinement, shown
    /// unnamed as lanes A and B before the claim, for the person to say which is smoother
    /// (or sooner) before the tour names them and says what the figures favour.
    pub feel: Option<Pair>,
    /// The overlay's rows the stop is about (its watched figures and the knob its hint
    /// turns), by their labels; the rest are one key away. None in compare mode, whose
    /// lanes carry their own figures.
    pub rows: &'static [&'static str],
    /// One thing to try, in words that name its keys.
    pub hint: &'static str,
    /// The hint's keys, and what shows that pressing them undid the claim.
    pub tries: Option<Try>,
    /// What shows that the claim came true.
    pub watch: Watch,
    /// What the person does at the stop, that the headless walk and the key-driven test
    /// stand in for.
    pub person: Person,
    /// How long the claim is given to come true.
    pub limit: Duration,
    /// What the claim asks of the machine, measured while the stop runs.
    pub needs: Need,
    /// Why this machine may not show it, said when the limit passes first: for a stop with a
    /// need of the machine, what else than its speed may keep the claim from showing.
    pub may_differ: &'static str,
}

/// What a stop's hint asks a person to press, and what the figures show once they have.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Try {
    /// The keys, in order, as the help names them (`Shift+R`); the hint names each.
    pub keys: &'static [&'static str],
    /// What the figures show, watched from the last press on.
    pub shows: Watch,
    /// What showing it asks of the machine's speed, measured while it is tried.
    pub needs: Need,
}

/// What a stop's claim asks of the machine's speed, measured while the stop runs, so that a
/// claim that did not come true is told apart from a machine too slow to show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Nothing the machine's speed decides.
    Nothing,
    /// Frames within this long, from one picture to the next less the loop's own sleep (so
    /// a late browser callback or a busy machine counts, a nap does not). A machine that
    /// took longer for one frame in ten, or by 50 ms in all, was too slow for the claim.
    DrawsWithin(Duration),
}

/// Who calls the loop's frames.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Host {
    /// The loop itself: a native window's event loop, or the lab's model.
    #[default]
    Loop,
    /// A browser, which calls a page back once a refresh when it can, and less often when
    /// it is busy or throttled (a background tab, a slow machine).
    Browser,
}

/// Why a stop's claim was not seen in its time.
#[derive(Clone, Debug, PartialEq)]
pub struct Missed {
    /// What was expected, and why this machine did not show it.
    pub why: String,
    /// The stop's need was measured unmet: this machine was too slow for the claim.
    pub too_slow: bool,
    /// The frames the machine was judged on, where it was judged too slow.
    pub judged: Option<FramesJudged>,
}

impl Missed {
    /// Missed for what `machine` measured, where it measured too slow; otherwise for what
    /// this machine `may_differ` in.
    fn of(expected: String, machine: Option<&MachineVerdict>, may_differ: &str) -> Self {
        let (said, judged) = match machine {
            Some(m) if m.too_slow => (m.said.clone(), Some(m.judged)),
            Some(m) if may_differ.is_empty() => (m.said.clone(), None),
            Some(m) => (format!("{}; {may_differ}", m.said), None),
            None => (may_differ.to_string(), None),
        };
        let why = match said.is_empty() {
            true => expected,
            false => format!("{expected}; {said}"),
        };
        Missed {
            why,
            too_slow: judged.is_some(),
            judged,
        }
    }
}

/// A region of the window a stop points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The bullet stream and the ship.
    Stream,
    /// The metronome and the wall-clock marker.
    Metronome,
    /// The darts and the thin wall.
    Wall,
    /// The bouncing balls.
    Balls,
    /// The loop's timeline.
    Timeline,
    /// Compare mode's lanes.
    Lanes,
}

/// What the person does at a stop for its claim to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Person {
    /// Only watches.
    Watches,
    /// Taps an arrow key now and then, quickly.
    TapsArrows,
}

/// What a stop sets up: the loop, the simulated machine, and compare mode.
#[derive(Clone, Debug, PartialEq)]
pub struct Setup {
    pub strategy: Strategy,
    /// Fixed updates per second.
    pub ups: f64,
    /// The frame cap, Hz.
    pub cap: Option<f64>,
    /// Most updates in a frame (`None`: unlimited).
    pub max_updates: Option<u32>,
    /// How deltas are read.
    pub delta: DeltaKind,
    /// Simulated cost of each update (a weak CPU) and of each frame's drawing (a weak GPU).
    pub update_cost: Duration,
    pub render_cost: Duration,
    /// Present with vsync, on a 60 Hz display.
    pub vsync: bool,
    /// Compare mode's preset, or the single view.
    pub compare: Option<Preset>,
    /// How the ship's updates read the keys.
    pub input: InputMode,
}

impl Setup {
    /// Interpolation at 60 UPS, no cap, no simulated cost, no vsync, the single view.
    pub const BASE: Setup = Setup {
        strategy: Strategy::Interpolated,
        ups: 60.0,
        cap: None,
        max_updates: Some(LoopSettings::DEFAULT_MAX_UPDATES),
        delta: DeltaKind::Measured,
        update_cost: Duration::ZERO,
        render_cost: Duration::ZERO,
        vsync: false,
        compare: None,
        input: InputMode::Accumulated,
    };

    /// The loop settings of the setup.
    pub fn settings(&self) -> LoopSettings {
        let rate = |hz: f64| Rate::hz(hz).ok();
        let settings = LoopSettings::default()
            .with_update_rate(rate(self.ups).unwrap_or(Rate::SIXTY_HZ))
            .with_frame_cap(self.cap.and_then(rate))
            .with_delta_mode(self.delta.mode(Rate::SIXTY_HZ));
        // A stop's limit is a constant of at least one update.
        settings
            .clone()
            .with_max_updates(self.max_updates)
            .unwrap_or(settings)
    }

    /// The machine the headless walk models for it: the lab's fast machine (1 ms frames,
    /// 0.2 ms updates) with the simulated costs added, as the window adds them to its own,
    /// on a 60 Hz display, with vsync if the setup has it.
    pub fn machine(&self) -> Profile {
        let mut p = Profile::parse("fast").expect("a built-in profile");
        p.name = "tour".into();
        p.render += self.render_cost;
        p.update += self.update_cost;
        p.vsync = self.vsync;
        p
    }
}

/// Where a person is in the tour.
#[derive(Clone, Debug, PartialEq)]
pub struct Tour {
    stops: Vec<Stop>,
    at: usize,
    /// When the current stop began, on the clock the frames are planned on.
    since: Duration,
    /// What was seen at each stop visited, and when (since the stop began).
    seen: Vec<Option<(Duration, String)>>,
    /// Why each stop whose limit passed first was not seen.
    missed: Vec<Option<Missed>>,
    visited: Vec<bool>,
    /// Since when the person has been trying the current stop's hint (the last change
    /// they made to the loop), and what it showed at each stop where it did.
    trying: Option<Duration>,
    tried: Vec<Option<(Duration, String)>>,
    /// Why each stop's last try did not show in the stop's time, once it has not.
    try_missed: Vec<Option<Missed>>,
    /// The lanes the current stop shows unnamed while it waits for the person's answer.
    asking: Option<Blind>,
    /// Each stop's last answer, where it asked.
    answers: Vec<Option<Answer>>,
}

/// A person's answer at a stop that asked which of two lanes was smoother or sooner.
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    pub question: Question,
    /// The lane chosen: 0 for A.
    pub chose: usize,
    /// The lane the figures favour, where they told the two apart.
    pub favoured: Option<usize>,
    /// Each lane's name and figure, in words.
    pub said: String,
}

impl Answer {
    /// Whether the person's eye agreed with the figures; `None` where they told nothing.
    pub fn agreed(&self) -> Option<bool> {
        self.favoured.map(|f| f == self.chose)
    }

    /// The answer, the lanes named, and what the figures say of it.
    pub fn words(&self) -> String {
        let chose = LETTERS[self.chose];
        let verdict = match self.favoured {
            Some(f) if f == self.chose => {
                format!("the figures favour {chose} too: your eye agreed")
            }
            Some(f) => format!(
                "the figures favour {}: your eye saw it the other way",
                LETTERS[f]
            ),
            None => "the figures did not tell them apart".to_string(),
        };
        format!("you chose {chose}. {}: {verdict}", self.said)
    }
}

/// What the tour's panel shows of the current stop.
#[derive(Clone, Debug, PartialEq)]
pub struct TourPanel {
    /// `tour 3/12: A nap on a weak GPU`.
    pub heading: String,
    pub claim: String,
    pub source: String,
    /// `look at: the metronome   try: press R ...`.
    pub look_and_try: String,
    /// How the stop stands, and whether it was seen.
    pub standing: String,
    pub seen: Option<bool>,
    /// The tour's keys from here: `Enter: next stop ...`, or at the last stop, that the
    /// tour is over and how to leave it.
    pub keys: String,
    /// The region to frame.
    pub focus: Focus,
    /// The overlay's rows the stop shows.
    pub rows: &'static [&'static str],
    /// The stop's loop, its claim's line lit.
    pub code: LoopCode,
    /// The question the stop asks before its claim, while it waits for the answer (its
    /// loop stays hidden, since it would name a lane).
    pub asking: Option<Question>,
    /// The person's answer, the lanes named and what the figures say.
    pub felt: Option<String>,
}

/// A stop's loop as the panel shows it: its strategy's loop in the texts' style, with the
/// line its claim lives in lit and the key of its try beside that line.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopCode {
    pub strategy: Strategy,
    /// The loop's lines, the lit one without its comment, so that the key fits beside it.
    pub lines: Vec<String>,
    /// Which line is lit.
    pub lit: usize,
    /// The first key of the stop's try, which turns the lit line's knob.
    pub key: Option<&'static str>,
}

impl LoopCode {
    /// `stop`'s loop, or None when its line is not in its strategy's loop (a test holds
    /// every stop to having one).
    pub fn of(stop: &Stop) -> Option<LoopCode> {
        let strategy = stop.setup.strategy;
        let code = strategy.pseudocode();
        let lit = code.lines().position(|l| l.contains(stop.line))?;
        let key = stop.tries.and_then(|t| t.keys.first().copied());
        let lines = code
            .lines()
            .enumerate()
            .map(|(i, l)| match (i == lit, key) {
                (true, Some(_)) => l.split(" //").next().unwrap_or(l).to_string(),
                _ => l.to_string(),
            })
            .collect();
        Some(LoopCode {
            strategy,
            lines,
            lit,
            key,
        })
    }
}

impl Focus {
    /// The region's name, as the panel says where to look.
    pub fn name(self) -> &'static str {
        match self {
            Focus::Stream => "the bullet stream",
            Focus::Metronome => "the metronome and the wall-clock marker",
            Focus::Wall => "the darts and the wall",
            Focus::Balls => "the bouncing balls",
            Focus::Timeline => "the loop's timeline",
            Focus::Lanes => "the lanes",
        }
    }
}

/// A stop visited: what was seen there and when, or why it was not.
#[derive(Clone, Copy, Debug)]
pub struct Visit<'a> {
    pub stop: &'a Stop,
    pub seen: Option<&'a (Duration, String)>,
    pub missed: Option<&'a Missed>,
    /// Why the stop's last try did not show, where it did not in time.
    pub try_missed: Option<&'a Missed>,
    /// The person's answer, where the stop asked one.
    pub answer: Option<&'a Answer>,
}

/// How the current stop stands.
#[derive(Clone, Debug, PartialEq)]
pub enum StopStatus {
    /// Watching; the limit has not passed.
    Watching,
    /// The claim came true: when, and the figure that showed it.
    Seen(Duration, String),
    /// The limit passed first: what was expected, and why this machine may differ.
    NotSeen(String),
    /// The person changed the loop as the hint says: watching for what that should show.
    Trying,
    /// What the hint said came true: when (since the last change) and the figure.
    Tried(Duration, String),
}

impl Tour {
    /// The tour at its first stop, begun at `now`.
    pub fn start(stops: Vec<Stop>, now: Duration) -> Self {
        let n = stops.len();
        let mut tour = Self {
            stops,
            at: 0,
            since: now,
            seen: vec![None; n],
            missed: vec![None; n],
            visited: vec![false; n],
            trying: None,
            tried: vec![None; n],
            try_missed: vec![None; n],
            asking: None,
            answers: vec![None; n],
        };
        if n > 0 {
            tour.visited[0] = true;
            tour.ask(now);
        }
        tour
    }

    pub fn stop(&self) -> Option<&Stop> {
        self.stops.get(self.at)
    }

    /// The current stop's number, from 0, and how many there are.
    pub fn position(&self) -> (usize, usize) {
        (self.at, self.stops.len())
    }

    /// Goes to the next stop (`forward`) or the previous one at `now`; false at either end.
    pub fn go(&mut self, forward: bool, now: Duration) -> bool {
        let to = if forward {
            self.at + 1
        } else {
            match self.at.checked_sub(1) {
                Some(to) => to,
                None => return false,
            }
        };
        self.visit(to, now)
    }

    /// Goes to stop `to` (from 0) at `now`, as the book's view of that stop does when it
    /// scrolls into sight; false where there is no such stop.
    pub fn visit(&mut self, to: usize, now: Duration) -> bool {
        if to >= self.stops.len() {
            return false;
        }
        self.at = to;
        self.visited[to] = true;
        self.begin_again(now);
        self.ask(now);
        true
    }

    /// At a stop that asks and has no answer yet, its lanes unnamed, in an order that
    /// `now` picks (so that the refinement is not always B).
    fn ask(&mut self, now: Duration) {
        let swapped = (now.as_micros() ^ self.at as u128) % 2 == 1;
        self.asking = self
            .stop()
            .and_then(|s| s.feel)
            .filter(|_| self.answers[self.at].is_none())
            .map(|pair| Blind { pair, swapped });
    }

    /// The lanes shown unnamed while the current stop waits for an answer.
    pub fn asking(&self) -> Option<Blind> {
        self.asking
    }

    /// The person chose lane `chose` (0 for A) at `now`, and the lanes' figures are
    /// `judged`: the stop names them, and its claim's watch begins. `None` where the stop
    /// was not asking.
    pub fn answer(&mut self, chose: usize, judged: Judged, now: Duration) -> Option<&Answer> {
        let blind = self.asking.take()?;
        self.answers[self.at] = Some(Answer {
            question: blind.pair.question(),
            chose,
            favoured: judged.favoured,
            said: judged.said,
        });
        self.begin_again(now);
        self.answers[self.at].as_ref()
    }

    /// Starts the current stop's watch over from `now` (the tour taken up again): a claim
    /// seen stays seen; one not seen in time is watched for afresh.
    pub fn begin_again(&mut self, now: Duration) {
        self.since = now;
        self.missed[self.at] = None;
        self.trying = None;
        self.try_missed[self.at] = None;
    }

    /// The person changed the loop at `now`: where the stop has a hint to try, its watch
    /// begins, from now, in place of the claim's (true: the figures should begin again).
    pub fn try_it(&mut self, now: Duration) -> bool {
        if self.stop().and_then(|s| s.tries).is_none() {
            return false;
        }
        self.trying = Some(now);
        self.tried[self.at] = None;
        self.try_missed[self.at] = None;
        true
    }

    /// What the current stop's try needs of the machine (nothing, at a stop with none).
    pub fn try_needs(&self) -> Need {
        self.stop()
            .and_then(|s| s.tries)
            .map_or(Need::Nothing, |t| t.needs)
    }

    /// Watches the current stop on this frame's `figures` (whose clock reads `now`).
    pub fn watch(&mut self, figures: &Figures, now: Duration) -> StopStatus {
        let Some(stop) = self.stops.get(self.at) else {
            return StopStatus::Watching;
        };
        if self.asking.is_some() {
            // The claim's time begins with the answer.
            return StopStatus::Watching;
        }
        if let (Some(since), Some(tries)) = (self.trying, stop.tries) {
            if let Some((at, figure)) = &self.tried[self.at] {
                return StopStatus::Tried(*at, figure.clone());
            }
            if let Some(missed) = &self.try_missed[self.at] {
                return StopStatus::NotSeen(missed.why.clone());
            }
            let at = now.saturating_sub(since);
            return match tries.shows.seen(figures) {
                Some(figure) => {
                    self.tried[self.at] = Some((at, figure.clone()));
                    StopStatus::Tried(at, figure)
                }
                // As a claim is: said once its time is up, with what the frames measured.
                None if at > stop.limit => {
                    let expected = format!("after your keys, expected: {}", tries.shows.expected());
                    let missed = Missed::of(expected, figures.machine.as_ref(), "");
                    let why = missed.why.clone();
                    self.try_missed[self.at] = Some(missed);
                    StopStatus::NotSeen(why)
                }
                None => StopStatus::Trying,
            };
        }
        if let Some((at, figure)) = &self.seen[self.at] {
            return StopStatus::Seen(*at, figure.clone());
        }
        let elapsed = now.saturating_sub(self.since);
        if let Some(figure) = stop.watch.seen(figures) {
            self.seen[self.at] = Some((elapsed, figure.clone()));
            self.missed[self.at] = None;
            return StopStatus::Seen(elapsed, figure);
        }
        if let Some(missed) = &self.missed[self.at] {
            // Said once, with the figures of the moment the time ran out.
            return StopStatus::NotSeen(missed.why.clone());
        }
        if elapsed > stop.limit {
            let expected = format!("expected: {}", stop.watch.expected());
            let missed = Missed::of(expected, figures.machine.as_ref(), stop.may_differ);
            let why = missed.why.clone();
            self.missed[self.at] = Some(missed);
            return StopStatus::NotSeen(why);
        }
        StopStatus::Watching
    }

    /// What the panel shows of the current stop, as `status` says it stands.
    pub fn panel(&self, status: &StopStatus) -> Option<TourPanel> {
        let stop = self.stop()?;
        let (at, of) = self.position();
        let (line, seen) = match status {
            StopStatus::Watching => (format!("watching for: {}", stop.watch.expected()), None),
            StopStatus::Seen(after, figure) => (
                format!("seen after {:.1} s: {figure}", after.as_secs_f64()),
                Some(true),
            ),
            StopStatus::NotSeen(why) => (format!("not seen: {why}"), Some(false)),
            StopStatus::Trying => (
                format!(
                    "you changed the loop; watching for: {}",
                    stop.tries.map_or(String::new(), |t| t.shows.expected())
                ),
                None,
            ),
            StopStatus::Tried(after, figure) => (
                format!(
                    "you tried it, and {:.1} s later: {figure}",
                    after.as_secs_f64()
                ),
                Some(true),
            ),
        };
        let asking = self.asking.map(|b| b.pair.question());
        if let Some(question) = asking {
            return Some(TourPanel {
                heading: format!("tour {}/{of}: {}", at + 1, stop.title),
                claim: format!("Before the claim, your eye: {}", question.words()),
                source: "Two machines run the same bullets with two loops: A on top, B beneath."
                    .to_string(),
                look_and_try: "watch them a while, then press A or B (or click it)".to_string(),
                standing: "the stop names them, and says what the figures favour, once you answer"
                    .to_string(),
                seen: None,
                keys: Self::keys_line(at, of),
                focus: Focus::Lanes,
                rows: &[],
                code: LoopCode::of(stop)?,
                asking,
                felt: None,
            });
        }
        Some(TourPanel {
            heading: format!("tour {}/{of}: {}", at + 1, stop.title),
            claim: stop.claim.to_string(),
            source: format!("from: {}", stop.source),
            look_and_try: format!("look at {}; try: {}", stop.focus.name(), stop.hint),
            standing: line,
            seen,
            keys: Self::keys_line(at, of),
            focus: stop.focus,
            rows: stop.rows,
            code: LoopCode::of(stop)?,
            asking: None,
            felt: self.answers[self.at].as_ref().map(Answer::words),
        })
    }

    /// The keys that lead on from stop `at` of `of` (from 0).
    fn keys_line(at: usize, of: usize) -> String {
        let leave = "End: leave the tour, your settings back";
        match (at == 0, at + 1 >= of) {
            (_, true) => format!("The tour is over.   {leave}   Bksp: back a stop"),
            (true, false) => format!("Enter: next stop   {leave}"),
            (false, false) => format!("Enter: next stop   Bksp: back   {leave}"),
        }
    }

    /// Whether the current stop is the last.
    pub fn at_last_stop(&self) -> bool {
        self.at + 1 >= self.stops.len()
    }

    /// Each stop visited, with what was seen there, or why it was not.
    pub fn visits(&self) -> impl Iterator<Item = Visit<'_>> {
        self.stops
            .iter()
            .zip(&self.seen)
            .zip(&self.missed)
            .zip(&self.try_missed)
            .zip(&self.answers)
            .zip(&self.visited)
            .filter(|(_, visited)| **visited)
            .map(
                |(((((stop, seen), missed), try_missed), answer), _)| Visit {
                    stop,
                    seen: seen.as_ref(),
                    missed: missed.as_ref(),
                    try_missed: try_missed.as_ref(),
                    answer: answer.as_ref(),
                },
            )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figures(behind_ms: f64) -> Figures {
        Figures {
            game_behind_ms: behind_ms,
            ..Figures::default()
        }
    }

    #[test]
    fn a_start_up_hitch_neither_fails_a_stop_nor_counts_against_the_machine() {
        use crate::session::Session;
        use crate::world::WorldConfig;
        // The first stop (uncapped: the game races ahead) on a machine drawing 10 ms frames,
        // whose sixth frame took 600 ms (a start-up's shader compile). Before the figures
        // began again after a hitch, the hitch put the game 0.6 s behind and its overrun
        // alone judged the machine too slow for the stop.
        let stop = stops::stops().remove(0);
        let ms = Duration::from_millis;
        let mut session = Session::new(
            stop.setup.strategy,
            stop.setup.settings(),
            &WorldConfig {
                seed: 1,
                bullets: 10,
            },
        );
        let mut tour = Tour::start(stops::stops(), Duration::ZERO);
        let mut tracker = FigureTracker::new(Duration::ZERO, stop.needs);
        let (mut now, mut restarts, mut status) = (Duration::ZERO, 0, StopStatus::Watching);
        let mut figures = Figures::default();
        for frame in 0..2000 {
            let plan = session.frame(now, |_, _| {});
            let shown = now + if frame == 5 { ms(600) } else { ms(10) };
            if tracker.picture(shown, &plan, &session, Duration::ZERO) {
                tour.begin_again(shown);
                restarts += 1;
            }
            figures = tracker.figures(shown, &[], &[]);
            status = tour.watch(&figures, shown);
            now = shown;
            if status != StopStatus::Watching {
                break;
            }
        }
        assert_eq!(restarts, 1);
        match &status {
            StopStatus::Seen(after, figure) => {
                assert!(*after < Duration::from_secs(3), "{after:?}: {figure}")
            }
            other => panic!("{other:?}; {figures:?}"),
        }
        let verdict = figures.machine.expect("the stop needs the machine fast");
        assert!(!verdict.too_slow, "{verdict:?}");
    }

    #[test]
    fn frames_quick_to_draw_but_far_apart_are_too_slow_and_naps_are_not() {
        use crate::session::Session;
        use crate::world::WorldConfig;
        // A nap's claim needs frames within a step. A browser calling back 100 ms apart
        // (each frame drawn in 1 ms) is too slow for it; a loop napping 15 ms of each
        // 16.7 ms step is not.
        let ms = Duration::from_millis;
        let verdict = |apart: Duration, napped: Duration| {
            let mut session = Session::new(
                looplab_timing::Strategy::FixedSleep,
                Setup::BASE.settings(),
                &WorldConfig {
                    seed: 1,
                    bullets: 10,
                },
            );
            let need = Need::DrawsWithin(Duration::from_nanos(16_666_667));
            let mut tracker = FigureTracker::new(Duration::ZERO, need);
            let mut now = Duration::ZERO;
            for _ in 0..40 {
                let plan = session.frame(now, |_, _| {});
                let _ = tracker.picture(now + ms(1), &plan, &session, napped);
                now += apart;
            }
            tracker.figures(now, &[], &[]).machine.unwrap()
        };
        let late = verdict(ms(100), Duration::ZERO);
        assert!(late.too_slow, "{late:?}");
        let napping = verdict(Duration::from_micros(16_600), ms(15));
        assert!(!napping.too_slow, "{napping:?}");
    }

    #[test]
    fn a_stop_is_seen_once_and_remembered_and_the_keys_walk_the_table() {
        let s = Duration::from_secs;
        let mut tour = Tour::start(stops::stops(), s(10));
        let first = tour.stop().unwrap().id;
        assert!(!tour.go(false, s(11)), "nothing before the first stop");
        assert!(tour.go(true, s(12)));
        let second = tour.stop().unwrap().clone();
        // Its claim not yet true: watching, then after the limit, said so with the reason.
        let nothing = Figures::default();
        assert_eq!(tour.watch(&nothing, s(13)), StopStatus::Watching);
        match tour.watch(&nothing, s(12) + second.limit + s(1)) {
            StopStatus::NotSeen(why) => assert!(why.contains(second.may_differ), "{why}"),
            other => panic!("{other:?}"),
        }
        // A stop whose need of the machine was measured unmet says so, measured, and keeps
        // saying what it said when its time ran out, whatever later frames measure.
        let slow = Figures {
            machine: Some(MachineVerdict {
                too_slow: true,
                said: "9 of 60 frames took longer than 16.7 ms to draw".into(),
                judged: FramesJudged::default(),
            }),
            ..Figures::default()
        };
        tour.begin_again(s(20));
        assert_eq!(tour.watch(&slow, s(21)), StopStatus::Watching);
        let said = tour.watch(&slow, s(20) + second.limit + s(1));
        match &said {
            StopStatus::NotSeen(why) => {
                assert!(why.contains("9 of 60 frames") && !why.contains(second.may_differ))
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(tour.watch(&nothing, s(40)), said);
        let visit = tour.visits().find(|v| v.stop.id == second.id).unwrap();
        assert!(visit.missed.is_some_and(|m| m.too_slow), "{visit:?}");
        assert!(tour.go(false, s(30)));
        assert_eq!(tour.stop().unwrap().id, first);
        let visited: Vec<&str> = tour.visits().map(|v| v.stop.id).collect();
        assert_eq!(visited, [first, second.id]);
        // Seen on a frame, the figure is kept, whatever later frames say.
        let mut tour = Tour::start(stops::stops(), s(0));
        while tour.stop().unwrap().id != "a-nap-on-a-weak-gpu" {
            assert!(tour.go(true, s(1)));
        }
        assert_eq!(tour.watch(&figures(200.0), s(2)), StopStatus::Watching);
        let seen = StopStatus::Seen(s(2), "the game is 1.4 s behind the wall clock".into());
        assert_eq!(tour.watch(&figures(1400.0), s(3)), seen);
        assert_eq!(tour.watch(&figures(0.0), s(4)), seen);
        while tour.go(true, s(5)) {}
        assert_eq!(tour.position().0, tour.position().1 - 1);
        assert!(!tour.go(true, s(6)), "nothing after the last stop");
    }
}
