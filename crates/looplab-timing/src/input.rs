//! Input for fixed steps: events stamped with when they arrived, handed to the updates that
//! simulate those moments.

use alloc::collections::VecDeque;
use alloc::vec::Vec;
use core::time::Duration;

use crate::plan::FramePlan;

/// What happened to one input.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InputEvent {
    /// A button went down. A press while it is already down (a key's auto-repeat) changes
    /// nothing.
    Press,
    /// A button came up. A release while it is up changes nothing.
    Release,
    /// An axis (a stick, a trigger) moved to this value.
    Axis(f32),
}

/// Input gathered between frames and handed to each fixed update as what happened during
/// the span of game time that update simulates.
///
/// # Why
///
/// A fixed-step loop runs its updates in bursts: none in one frame, three in the next. A
/// game that reads "is the key down?" at each update loses a tap that starts and ends
/// between two updates, and counts a press twice when two updates of one frame both see
/// it. This is the best-known open bug of the fixed step (bevy #6183, among others).
///
/// The accumulator fixes it by time. Each event is stamped with the time it arrived, on the
/// clock the [`Planner`](crate::Planner) is given. [`frame`](InputAccumulator::frame) maps
/// those times onto the game time the frame covers: the same clamp, time scale and pause
/// that the game clock applies. Each [`update`](InputAccumulator::update) then takes the
/// events stamped within its span and reports, for every input it has seen:
///
/// - whether a button was down at any moment of the span ([`UpdateInput::is_down`]);
/// - *just pressed* and *just released*, each reported by exactly one update;
/// - the number of presses;
/// - the share of the step during which it was held ([`UpdateInput::held_fraction`]):
///   a 30 ms tap moves a 10-updates-a-second ship 30 ms worth, not 0 and not 100;
/// - for an axis, its time-weighted mean over the span ([`UpdateInput::axis`]).
///
/// Button ids are the caller's: any `Copy + PartialEq` type, typically an enum of actions.
/// Axes share the id space, so one enum can name both.
///
/// # Time
///
/// - An event that arrives between two frames is placed, in proportion, within the game
///   time that the later frame added. Where the game clock drops time (a stall clamped,
///   updates given up), the events of that frame are placed closer together: none is lost
///   and their order holds.
/// - Events at the same instant keep the order they were given in.
/// - An event whose stamp is earlier than the last one given counts as arriving with it.
///
/// # While paused
///
/// Game time stands still while paused (or at a time scale of zero), so every event that
/// arrives then is stamped with the paused instant. None is lost: the first update that
/// runs (a single step, or the first after resuming) reports the presses and releases in
/// order. A button held across the pause counts as held from the moment game time moves
/// again; a tap made and released within the pause is a press with no held time.
///
/// # Example
///
/// Ten updates a second, frames every 16 ms, a 30 ms tap of `Right` between two updates,
/// and `Fire` tapped three times. Sampling "is it down?" at each update would miss the tap
/// entirely. Two of the shots fall within one update's 100 ms, so the shots are counted
/// with [`presses`](UpdateInput::presses), not
/// [`just_pressed`](UpdateInput::just_pressed), which would count them as one:
///
/// ```
/// use core::time::Duration;
/// use looplab_timing::{InputAccumulator, LoopSettings, Planner, Rate, Strategy};
///
/// #[derive(Clone, Copy, PartialEq, Debug)]
/// enum Key { Right, Fire }
///
/// let ms = Duration::from_millis;
/// let settings = LoopSettings::default().with_update_rate(Rate::hz(10.0)?);
/// let mut planner = Planner::new(Strategy::CatchUp, settings);
/// let mut input = InputAccumulator::new();
/// let (mut x, mut shots, mut most) = (0.0_f32, 0, 0);
/// for frame in 0..30u64 {
///     let now = ms(16 * frame);
///     // The event loop hands over input as it arrives, stamped on the planner's clock.
///     match now.as_millis() {
///         128 => { input.press(Key::Right, ms(120)); input.press(Key::Fire, ms(121)); }
///         160 => { input.release(Key::Fire, ms(140)); input.release(Key::Right, ms(150)); }
///         320 => { input.press(Key::Fire, ms(310)); input.release(Key::Fire, ms(315)); }
///         352 => { input.press(Key::Fire, ms(340)); input.release(Key::Fire, ms(345)); }
///         _ => {}
///     }
///     let plan = planner.plan_frame(now);
///     input.frame(&plan);
///     for _ in 0..plan.updates {
///         let tick = input.update(plan.step);
///         x += 100.0 * tick.held(Key::Right).as_secs_f32(); // 100 px/s while held
///         shots += tick.presses(Key::Fire);
///         most = most.max(tick.presses(Key::Fire));
///     }
/// }
/// assert_eq!((shots, most), (3, 2)); // three shots, two in one update
/// assert!((x - 3.0).abs() < 1e-3, "30 ms at 100 px/s, got {x}");
/// # Ok::<(), looplab_timing::TimingError>(())
/// ```
#[derive(Clone, Debug)]
pub struct InputAccumulator<B> {
    /// Events given but not yet placed in game time, with their arrival.
    arrived: VecDeque<(B, InputEvent, Duration)>,
    /// Events placed in game time and not yet taken by an update.
    placed: VecDeque<(B, InputEvent, Duration)>,
    /// Every input seen so far: its state and what the last update reported.
    tracks: Vec<Track<B>>,
    /// What [`preview`](InputAccumulator::preview) reports, kept to reuse its memory.
    preview: Vec<Track<B>>,
    /// Start of the previous frame, on the arrival clock.
    last_frame: Option<Duration>,
    /// The game-clock instant of the previous frame.
    last_game_now: Duration,
    /// Game time the updates have covered: where the next update's span starts.
    simulated: Duration,
    /// The latest arrival time given.
    latest: Duration,
    /// The length of the last update's span.
    last_step: Duration,
}

impl<B> Default for InputAccumulator<B> {
    fn default() -> Self {
        Self::new()
    }
}

impl<B> InputAccumulator<B> {
    /// An accumulator that has seen no input and no frame.
    pub const fn new() -> Self {
        Self {
            arrived: VecDeque::new(),
            placed: VecDeque::new(),
            tracks: Vec::new(),
            preview: Vec::new(),
            last_frame: None,
            last_game_now: Duration::ZERO,
            simulated: Duration::ZERO,
            latest: Duration::ZERO,
            last_step: Duration::ZERO,
        }
    }

    /// Events given and not yet reported by an update.
    pub fn pending(&self) -> usize {
        self.arrived.len() + self.placed.len()
    }
}

impl<B: Copy + PartialEq> InputAccumulator<B> {
    /// `button` went down at `at` (on the planner's clock).
    pub fn press(&mut self, button: B, at: Duration) {
        self.push(button, InputEvent::Press, at);
    }

    /// `button` came up at `at`.
    pub fn release(&mut self, button: B, at: Duration) {
        self.push(button, InputEvent::Release, at);
    }

    /// `axis` moved to `value` at `at`. A value that is not finite counts as zero.
    pub fn set_axis(&mut self, axis: B, value: f32, at: Duration) {
        let value = if value.is_finite() { value } else { 0.0 };
        self.push(axis, InputEvent::Axis(value), at);
    }

    /// Gives one event that arrived at `at`. Events are expected in the order they
    /// happened; one stamped earlier than the last counts as arriving with it.
    pub fn push(&mut self, id: B, event: InputEvent, at: Duration) {
        self.latest = self.latest.max(at);
        self.arrived.push_back((id, event, self.latest));
    }

    /// Places the events that arrived up to the start of the frame `plan` describes within
    /// the game time the frame added, and makes the frame's first update start where its
    /// updates do. Call it once a frame, right after
    /// [`Planner::plan_frame`](crate::Planner::plan_frame), before the updates.
    pub fn frame(&mut self, plan: &FramePlan) {
        let updates_start = plan.simulated.saturating_sub(plan.game_advance());
        self.frame_at(plan.now, plan.game_now, updates_start);
    }

    /// [`frame`](InputAccumulator::frame) for a loop whose fixed updates another scheduler
    /// runs (an engine's fixed timestep, such as Bevy's `Time<Fixed>`): the frame starts at
    /// `now` on the arrival clock, its game clock reads `game_now`, and its first update
    /// simulates from `updates_start` of game time (the fixed clock before this frame's
    /// updates, less than a step behind the game clock's previous reading).
    pub fn frame_at(&mut self, now: Duration, game_now: Duration, updates_start: Duration) {
        let end = game_now.max(updates_start);
        // The previous frame's instant, as far as the planner kept it: updates given up
        // since then moved the clock back, and nothing placed may lie beyond it.
        let start = self.last_game_now.clamp(updates_start, end);
        for placed in &mut self.placed {
            placed.2 = placed.2.min(start);
        }
        let real_start = self.last_frame.unwrap_or(now).min(now);
        let real = now - real_start;
        while let Some(&(id, event, at)) = self.arrived.front() {
            if at > now {
                break;
            }
            self.arrived.pop_front();
            let into = at.max(real_start) - real_start;
            self.placed
                .push_back((id, event, start + proportion(end - start, into, real)));
        }
        self.simulated = updates_start;
        self.last_frame = Some(now);
        self.last_game_now = end;
    }

    /// The frame `plan` describes ended with updates given up
    /// ([`Planner::run_updates`](crate::Planner::run_updates) stopped by a budget, or
    /// [`Planner::abandon`](crate::Planner::abandon)): `plan` as they corrected it. The
    /// game time given up is not the next frame's to place its input in, so without this
    /// the next frame's events would all land at its end, a frame late.
    pub fn updates_given_up(&mut self, plan: &FramePlan) {
        self.last_game_now = plan.game_now;
    }

    /// The input of the next update, `step` long: takes the events within its span and
    /// reports what they amounted to. Call it once for each update the plan runs, in order.
    pub fn update(&mut self, step: Duration) -> UpdateInput<'_, B> {
        let start = self.simulated;
        let end = start.saturating_add(step);
        let taken = summarize(&mut self.tracks, self.placed.iter().copied(), start, end);
        self.placed.drain(..taken);
        self.simulated = end;
        self.last_step = step;
        self.reported()
    }

    /// What the last [`update`](InputAccumulator::update) reported, again: for a scheduler
    /// that takes an update's input in one place and reads it in others (an engine's
    /// systems).
    pub fn reported(&self) -> UpdateInput<'_, B> {
        UpdateInput {
            tracks: &self.tracks,
            step: self.last_step,
        }
    }

    /// What an update of `span` starting where the next one would start would report,
    /// without taking anything: the input for a prediction drawn ahead of the simulation
    /// (the render tick of [`View::Predict`](crate::View::Predict)), which sees the newest
    /// input while the real updates still get every event.
    pub fn preview(&mut self, span: Duration) -> UpdateInput<'_, B> {
        let start = self.simulated;
        self.preview.clone_from(&self.tracks);
        let end = start.saturating_add(span);
        // Events not yet placed arrived after the frame started: the newest input, held
        // from the prediction's start.
        let all = self
            .placed
            .iter()
            .copied()
            .chain(self.arrived.iter().map(|&(id, e, _)| (id, e, start)));
        summarize(&mut self.preview, all, start, end);
        UpdateInput {
            tracks: &self.preview,
            step: span,
        }
    }

    /// Whether `button` is down after everything given so far, reported or not.
    pub fn is_down_now(&self, button: B) -> bool {
        let mut down = self.track(button).is_some_and(|t| t.down);
        for &(id, event, _) in self.placed.iter().chain(self.arrived.iter()) {
            if id == button {
                match event {
                    InputEvent::Press => down = true,
                    InputEvent::Release => down = false,
                    InputEvent::Axis(_) => {}
                }
            }
        }
        down
    }

    fn track(&self, id: B) -> Option<&Track<B>> {
        self.tracks.iter().find(|t| t.id == id)
    }
}

/// `whole * part / of`, in whole nanoseconds, rounded down (`of` zero gives zero).
fn proportion(whole: Duration, part: Duration, of: Duration) -> Duration {
    if of.is_zero() {
        return Duration::ZERO;
    }
    let ns = whole.as_nanos() * part.min(of).as_nanos() / of.as_nanos();
    Duration::from_nanos(u64::try_from(ns).unwrap_or(u64::MAX))
}

/// Runs the tracks through the span `[start, end)`: applies the events of `events` stamped
/// before `end` (those stamped before `start` count at `start`) and fills in each track's
/// report. Returns how many events it took.
fn summarize<B: Copy + PartialEq>(
    tracks: &mut Vec<Track<B>>,
    events: impl IntoIterator<Item = (B, InputEvent, Duration)>,
    start: Duration,
    end: Duration,
) -> usize {
    for t in tracks.iter_mut() {
        t.begin(start);
    }
    let mut taken = 0;
    for (id, event, at) in events {
        if at >= end {
            break;
        }
        let at = at.max(start);
        let index = match tracks.iter().position(|t| t.id == id) {
            Some(i) => i,
            None => {
                let mut t = Track::new(id);
                t.begin(start);
                tracks.push(t);
                tracks.len() - 1
            }
        };
        tracks[index].apply(event, at);
        taken += 1;
    }
    for t in tracks.iter_mut() {
        t.run_to(end);
    }
    taken
}

/// One input: its state, and what happened to it during the last span.
#[derive(Clone, Copy, Debug)]
struct Track<B> {
    id: B,
    down: bool,
    value: f32,
    /// Where the running sums have got to within the span.
    cursor: Duration,
    was_down: bool,
    presses: u32,
    releases: u32,
    held: Duration,
    /// Value times nanoseconds, summed over the span.
    weighted: f64,
}

impl<B> Track<B> {
    fn new(id: B) -> Self {
        Self {
            id,
            down: false,
            value: 0.0,
            cursor: Duration::ZERO,
            was_down: false,
            presses: 0,
            releases: 0,
            held: Duration::ZERO,
            weighted: 0.0,
        }
    }

    fn begin(&mut self, start: Duration) {
        self.cursor = start;
        self.was_down = self.down;
        self.presses = 0;
        self.releases = 0;
        self.held = Duration::ZERO;
        self.weighted = 0.0;
    }

    /// Counts the state as it was from the cursor up to `at`.
    fn run_to(&mut self, at: Duration) {
        let lasted = at.saturating_sub(self.cursor);
        if self.down {
            self.held += lasted;
        }
        self.weighted += f64::from(self.value) * lasted.as_nanos() as f64;
        self.cursor = self.cursor.max(at);
    }

    fn apply(&mut self, event: InputEvent, at: Duration) {
        self.run_to(at);
        match event {
            InputEvent::Press if !self.down => {
                self.down = true;
                self.was_down = true;
                self.presses += 1;
            }
            InputEvent::Release if self.down => {
                self.down = false;
                self.releases += 1;
            }
            InputEvent::Axis(v) => self.value = v,
            _ => {}
        }
    }
}

/// What one update's span of game time held for each input: from
/// [`InputAccumulator::update`]. An input never seen reads as up, never pressed, at zero.
#[derive(Clone, Copy, Debug)]
pub struct UpdateInput<'a, B> {
    tracks: &'a [Track<B>],
    step: Duration,
}

impl<B: Copy + PartialEq> UpdateInput<'_, B> {
    fn track(&self, id: B) -> Option<&Track<B>> {
        self.tracks.iter().find(|t| t.id == id)
    }

    /// The length of the span.
    pub fn step(&self) -> Duration {
        self.step
    }

    /// Whether `button` was down at any moment of the span (a tap within it counts).
    pub fn is_down(&self, button: B) -> bool {
        self.track(button).is_some_and(|t| t.was_down)
    }

    /// Whether `button` is down at the end of the span.
    pub fn is_down_at_end(&self, button: B) -> bool {
        self.track(button).is_some_and(|t| t.down)
    }

    /// Whether `button` went down during the span. Each press is reported by exactly one
    /// update.
    pub fn just_pressed(&self, button: B) -> bool {
        self.presses(button) > 0
    }

    /// Whether `button` came up during the span. Each release is reported by exactly one
    /// update.
    pub fn just_released(&self, button: B) -> bool {
        self.track(button).is_some_and(|t| t.releases > 0)
    }

    /// How many times `button` went down during the span.
    pub fn presses(&self, button: B) -> u32 {
        self.track(button).map_or(0, |t| t.presses)
    }

    /// Game time during the span that `button` was down.
    pub fn held(&self, button: B) -> Duration {
        self.track(button).map_or(Duration::ZERO, |t| t.held)
    }

    /// The share of the span that `button` was down, in `[0, 1]`. For a span of no length,
    /// 1 if it is down at its end.
    pub fn held_fraction(&self, button: B) -> f32 {
        let Some(t) = self.track(button) else {
            return 0.0;
        };
        if self.step.is_zero() {
            return if t.down { 1.0 } else { 0.0 };
        }
        (t.held.as_secs_f64() / self.step.as_secs_f64()).min(1.0) as f32
    }

    /// The time-weighted mean of `axis` over the span. For a span of no length, its value
    /// at the end.
    pub fn axis(&self, axis: B) -> f32 {
        let Some(t) = self.track(axis) else {
            return 0.0;
        };
        if self.step.is_zero() {
            return t.value;
        }
        (t.weighted / self.step.as_nanos() as f64) as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::ms;
    use crate::{LoopSettings, Planner, Rate, Strategy};

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum K {
        A,
        B,
        Stick,
    }

    fn ten_hz() -> Planner {
        let s = LoopSettings::default().with_update_rate(Rate::hz(10.0).unwrap());
        Planner::new(Strategy::CatchUp, s)
    }

    #[test]
    fn a_press_seen_by_two_updates_of_a_frame_counts_once() {
        let mut p = ten_hz();
        let mut input = InputAccumulator::new();
        let plan = p.plan_frame(ms(0));
        input.frame(&plan);
        input.press(K::A, ms(10));
        let plan = p.plan_frame(ms(250)); // two updates
        input.frame(&plan);
        assert_eq!(plan.updates, 2);
        let first = input.update(plan.step);
        assert!(first.just_pressed(K::A) && first.is_down(K::A));
        assert_eq!(first.held(K::A), ms(90));
        let second = input.update(plan.step);
        assert!(!second.just_pressed(K::A) && second.is_down(K::A));
        assert_eq!(second.held_fraction(K::A), 1.0);
    }

    #[test]
    fn an_engine_scheduled_frame_places_input_as_a_planned_one_does() {
        // The same frames told by a plan and by the three numbers an engine's fixed
        // timestep knows: the same updates see the same input, and it can be read again.
        let (mut p, mut planned, mut told) =
            (ten_hz(), InputAccumulator::new(), InputAccumulator::new());
        let mut seen = Vec::new();
        for (frame, now) in [0, 60, 110, 250, 330].into_iter().enumerate() {
            if frame == 2 {
                for input in [&mut planned, &mut told] {
                    input.press(K::A, ms(70));
                    input.release(K::A, ms(100));
                }
            }
            let plan = p.plan_frame(ms(now));
            planned.frame(&plan);
            let start = plan.simulated.saturating_sub(plan.game_advance());
            told.frame_at(plan.now, plan.game_now, start);
            for _ in 0..plan.updates {
                let a = planned.update(plan.step);
                let (presses, held) = (a.presses(K::A), a.held(K::A));
                told.update(plan.step);
                let again = told.reported();
                assert_eq!((again.presses(K::A), again.held(K::A)), (presses, held));
                assert_eq!(again.step(), plan.step);
                seen.push((presses, held));
            }
        }
        assert_eq!(seen.iter().map(|s| s.0).sum::<u32>(), 1);
        assert_eq!(seen.iter().map(|s| s.1).sum::<Duration>(), ms(30));
    }

    #[test]
    fn a_tap_between_updates_is_reported_with_its_length() {
        let mut p = ten_hz();
        let mut input = InputAccumulator::new();
        input.frame(&p.plan_frame(ms(0)));
        input.press(K::A, ms(20));
        input.release(K::A, ms(50));
        let plan = p.plan_frame(ms(60)); // no update yet
        input.frame(&plan);
        assert_eq!(plan.updates, 0);
        let plan = p.plan_frame(ms(110));
        input.frame(&plan);
        let tick = input.update(plan.step);
        assert!(tick.just_pressed(K::A) && tick.just_released(K::A) && tick.is_down(K::A));
        assert!(!tick.is_down_at_end(K::A));
        assert_eq!(tick.held(K::A), ms(30));
        assert!((tick.held_fraction(K::A) - 0.3).abs() < 1e-6);
        assert_eq!(tick.presses(K::B), 0, "an input never seen is up");
    }

    #[test]
    fn auto_repeat_and_stray_releases_change_nothing() {
        let mut p = ten_hz();
        let mut input = InputAccumulator::new();
        input.frame(&p.plan_frame(ms(0)));
        for t in [10, 20, 30] {
            input.press(K::A, ms(t));
        }
        input.release(K::B, ms(40));
        let plan = p.plan_frame(ms(100));
        input.frame(&plan);
        let tick = input.update(plan.step);
        assert_eq!(tick.presses(K::A), 1);
        assert_eq!(tick.held(K::A), ms(90));
        assert!(!tick.just_released(K::B));
    }

    #[test]
    fn an_axis_reads_as_its_mean_over_the_span() {
        let mut p = ten_hz();
        let mut input = InputAccumulator::new();
        input.frame(&p.plan_frame(ms(0)));
        input.set_axis(K::Stick, 1.0, ms(25));
        input.set_axis(K::Stick, -1.0, ms(75));
        input.set_axis(K::Stick, f32::NAN, ms(90));
        let plan = p.plan_frame(ms(100));
        input.frame(&plan);
        let tick = input.update(plan.step);
        // 25 ms at 0, 50 at 1, 15 at -1, 10 at 0.
        assert!((tick.axis(K::Stick) - 0.35).abs() < 1e-6);
    }

    #[test]
    fn time_scale_and_pause_move_events_in_game_time() {
        let s = LoopSettings::default()
            .with_update_rate(Rate::hz(10.0).unwrap())
            .with_time_scale(crate::TimeScale::new(0.5).unwrap());
        let mut p = Planner::new(Strategy::CatchUp, s);
        let mut input = InputAccumulator::new();
        input.frame(&p.plan_frame(ms(0)));
        input.press(K::A, ms(100));
        input.release(K::A, ms(140));
        let plan = p.plan_frame(ms(200)); // 100 ms of game time: one update
        input.frame(&plan);
        let tick = input.update(plan.step);
        assert_eq!(tick.held(K::A), ms(20), "40 ms of real time at half speed");

        // Paused: the tap waits, then the single step reports it with no held time.
        p.set_paused(true);
        input.press(K::B, ms(300));
        input.release(K::B, ms(320));
        let plan = p.plan_frame(ms(400));
        input.frame(&plan);
        assert_eq!(plan.updates, 0);
        p.single_step();
        let plan = p.plan_frame(ms(500));
        input.frame(&plan);
        let tick = input.update(plan.step);
        assert!(tick.just_pressed(K::B) && tick.just_released(K::B));
        assert_eq!(tick.held(K::B), Duration::ZERO);
    }

    #[test]
    fn preview_sees_the_newest_input_and_takes_nothing() {
        let mut p = ten_hz();
        let mut input = InputAccumulator::new();
        input.frame(&p.plan_frame(ms(0)));
        input.press(K::A, ms(30));
        let plan = p.plan_frame(ms(60));
        input.frame(&plan);
        input.press(K::B, ms(61)); // after the frame started
        let ahead = input.preview(p.overstep());
        assert!(ahead.just_pressed(K::A) && ahead.just_pressed(K::B));
        assert_eq!(ahead.held(K::A), ms(30));
        assert!(input.is_down_now(K::B));
        assert_eq!(input.pending(), 2, "nothing taken");
        let plan = p.plan_frame(ms(100));
        input.frame(&plan);
        let tick = input.update(plan.step);
        assert!(tick.just_pressed(K::A) && tick.just_pressed(K::B));
    }

    #[test]
    fn events_in_dropped_time_are_delivered_in_order() {
        let s = LoopSettings::default()
            .with_update_rate(Rate::hz(10.0).unwrap())
            .with_max_updates(Some(1))
            .unwrap();
        let mut p = Planner::new(Strategy::CatchUp, s);
        let mut input = InputAccumulator::new();
        input.frame(&p.plan_frame(ms(0)));
        input.press(K::A, ms(150));
        input.release(K::A, ms(160));
        input.press(K::B, ms(240));
        let plan = p.plan_frame(ms(250)); // 2.5 steps owed, one runs, one is dropped
        input.frame(&plan);
        assert_eq!((plan.updates, plan.skipped), (1, ms(100)));
        let tick = input.update(plan.step);
        assert!(tick.just_pressed(K::A) && !tick.just_pressed(K::B));
        input.release(K::B, ms(260));
        let plan = p.plan_frame(ms(300));
        input.frame(&plan);
        let tick = input.update(plan.step);
        assert!(tick.just_pressed(K::B) && tick.just_released(K::B));
        assert_eq!(input.pending(), 0);
    }
}
