//! The ship's controls: the arrows and the dash as a person presses them, turned into what
//! each fixed update gives the ship.
//!
//! Two ways, to feel the difference:
//!
//! - **Accumulated** (the default): every key event goes into the timing crate's
//!   [`InputAccumulator`] with its arrival time, and each update gets what happened during
//!   the span of game time it simulates. No tap is lost between updates, no press is seen
//!   twice by two updates of one frame, and a 30 ms tap moves the ship 30 ms worth.
//! - **Sampled**: the texts' `processInput(); update()...`: the keys held when the frame
//!   starts are read by every update of the frame, and a press is a flag the frame's
//!   updates all see. A tap that starts and ends between two updates never reaches the
//!   game; a dash in a frame with two updates happens twice, and in a frame with none, not
//!   at all. This is bevy #6183, open since 2022.

use std::time::Duration;

use glam::Vec2;
use looplab_timing::{FramePlan, InputAccumulator, UpdateInput};
use serde::{Deserialize, Serialize};

use crate::world::ship::{ShipInput, Steer};

/// How key events reach the ship's updates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InputMode {
    /// Each update gets what happened during its span of game time.
    #[default]
    Accumulated,
    /// Each update reads the keys held when its frame started.
    Sampled,
}

impl InputMode {
    /// The other one.
    pub fn toggled(self) -> Self {
        match self {
            InputMode::Accumulated => InputMode::Sampled,
            InputMode::Sampled => InputMode::Accumulated,
        }
    }

    /// In a few words, for the overlay and the log.
    pub fn describe(self) -> &'static str {
        match self {
            InputMode::Accumulated => "accumulated: each update gets its span's input",
            InputMode::Sampled => "sampled: keys read as each update starts",
        }
    }
}

/// A way to steer the ship: an arrow key, held while it steers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Left,
    Right,
    Up,
    Down,
}

/// Every way to steer, in [`Steer::from_held`]'s order.
pub const DIRECTIONS: [Direction; 4] = [
    Direction::Left,
    Direction::Right,
    Direction::Up,
    Direction::Down,
];

/// A control of the ship.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Button {
    /// An arrow: it steers while it is held.
    Arrow(Direction),
    /// The one-shot action: a dash ahead.
    Dash,
}

impl From<Direction> for Button {
    fn from(direction: Direction) -> Self {
        Button::Arrow(direction)
    }
}

/// Taps of the arrows, and whether they reached the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Taps {
    /// Presses of an arrow (a key's auto-repeat is no press).
    pub made: u64,
    /// Presses some update saw.
    pub reached: u64,
    /// Presses let go before any update saw them.
    pub lost: u64,
    /// Times a press was taken as new by a second update (sampled input: a press is news
    /// to every update of the frame it arrived before, so a frame of two updates takes it
    /// twice).
    pub doubled: u64,
}

/// Presses of the dash key, and the dashes the ship made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dashes {
    pub pressed: u64,
    pub made: u64,
}

/// The ship's keys (the arrows and the dash) and what they have done.
#[derive(Clone, Debug, Default)]
pub struct ShipKeys {
    mode: InputMode,
    accumulator: InputAccumulator<Button>,
    /// The arrows held, as the events so far say.
    held: [bool; 4],
    /// Sampled: arrows pressed and not yet seen held by an update.
    unseen: [bool; 4],
    /// Sampled: the dash key was pressed since the frame started.
    dash_this_frame: bool,
    /// Sampled: updates of this frame that took each arrow's press as new.
    fresh: [Option<u32>; 4],
    /// When each arrow held went down, and how long arrows were held in all, press to
    /// release, as the events' arrival times say.
    pressed_at: [Option<Duration>; 4],
    held_for: Duration,
    taps: Taps,
    dashes: Dashes,
}

impl ShipKeys {
    pub fn mode(&self) -> InputMode {
        self.mode
    }

    /// Switches how the updates read the keys, from the next update on.
    pub fn set_mode(&mut self, mode: InputMode) {
        self.mode = mode;
        self.unseen = [false; 4];
    }

    pub fn taps(&self) -> Taps {
        self.taps
    }

    pub fn dashes(&self) -> Dashes {
        self.dashes
    }

    /// How long the arrows were held in all, each from its press to its release as the
    /// events arrived (an arrow still held is not counted yet): with accumulated input the
    /// ship moves for exactly this long, however the frames fell.
    pub fn held_for(&self) -> Duration {
        self.held_for
    }

    /// The arrows held now.
    pub fn held(&self) -> Steer {
        let [left, right, up, down] = self.held;
        Steer::from_held(left, right, up, down)
    }

    /// `button` went down at `arrival` (on the loop's clock). Returns whether it changed
    /// anything (an arrow already held did not).
    pub fn press(&mut self, button: Button, arrival: Duration) -> bool {
        match arrow_index(button) {
            None => {
                self.accumulator.press(button, arrival);
                self.accumulator.release(button, arrival);
                self.dashes.pressed += 1;
                self.dash_this_frame = true;
                true
            }
            Some(i) if !self.held[i] => {
                self.held[i] = true;
                self.unseen[i] = true;
                self.fresh[i] = Some(0);
                self.pressed_at[i] = Some(arrival);
                self.taps.made += 1;
                self.accumulator.press(button, arrival);
                true
            }
            Some(_) => false,
        }
    }

    /// `button` came up at `arrival`. Returns whether it was held.
    pub fn release(&mut self, button: Button, arrival: Duration) -> bool {
        let Some(i) = arrow_index(button).filter(|&i| self.held[i]) else {
            return false;
        };
        self.held[i] = false;
        if let Some(pressed) = self.pressed_at[i].take() {
            self.held_for += arrival.saturating_sub(pressed);
        }
        if self.mode == InputMode::Sampled && self.unseen[i] {
            self.taps.lost += 1;
        }
        self.unseen[i] = false;
        self.accumulator.release(button, arrival);
        true
    }

    /// Holds exactly the arrows of `steer` from `arrival` on: presses and releases for the
    /// ones that change.
    pub fn steer(&mut self, steer: Steer, arrival: Duration) {
        let want = [steer.x < 0, steer.x > 0, steer.y < 0, steer.y > 0];
        for (i, direction) in DIRECTIONS.into_iter().enumerate() {
            if want[i] && !self.held[i] {
                self.press(direction.into(), arrival);
            } else if !want[i] && self.held[i] {
                self.release(direction.into(), arrival);
            }
        }
    }

    /// A frame starts with `plan`: the events that arrived by its start are placed in the
    /// game time it adds.
    pub fn frame(&mut self, plan: &FramePlan) {
        self.accumulator.frame(plan);
    }

    /// The input of the frame's next update, `step` long.
    pub fn update(&mut self, step: Duration) -> ShipInput {
        let tick = self.accumulator.update(step);
        match self.mode {
            InputMode::Accumulated => {
                let input = ShipInput {
                    thrust: thrust(&tick),
                    dashes: tick.presses(Button::Dash),
                };
                self.taps.reached += DIRECTIONS
                    .iter()
                    .map(|&d| u64::from(tick.presses(d.into())))
                    .sum::<u64>();
                self.dashes.made += u64::from(input.dashes);
                input
            }
            InputMode::Sampled => {
                for i in 0..4 {
                    if self.held[i] && self.unseen[i] {
                        self.unseen[i] = false;
                        self.taps.reached += 1;
                    }
                    if let Some(takers) = &mut self.fresh[i] {
                        *takers += 1;
                        if *takers > 1 {
                            self.taps.doubled += 1;
                        }
                    }
                }
                let dashes = u32::from(self.dash_this_frame);
                self.dashes.made += u64::from(dashes);
                ShipInput {
                    thrust: self.held().direction(),
                    dashes,
                }
            }
        }
    }

    /// The frame's updates are done: a sampled press is forgotten, seen or not.
    pub fn frame_done(&mut self) {
        self.dash_this_frame = false;
        self.fresh = [None; 4];
    }

    /// The thrust for a prediction `span` past the last update: the newest input, taking
    /// nothing from the updates still to come.
    pub fn preview(&mut self, span: Duration) -> Vec2 {
        match self.mode {
            InputMode::Accumulated => thrust(&self.accumulator.preview(span)),
            InputMode::Sampled => self.held().direction(),
        }
    }
}

fn arrow_index(button: Button) -> Option<usize> {
    match button {
        Button::Arrow(d) => DIRECTIONS.iter().position(|&b| b == d),
        Button::Dash => None,
    }
}

/// The arrows' held shares as a thrust: right less left, down less up, at most 1 long.
fn thrust(tick: &UpdateInput<'_, Button>) -> Vec2 {
    let share = |b| tick.held_fraction(b);
    Vec2::new(
        share(Button::Arrow(Direction::Right)) - share(Button::Arrow(Direction::Left)),
        share(Button::Arrow(Direction::Down)) - share(Button::Arrow(Direction::Up)),
    )
    .clamp_length_max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use looplab_timing::{LoopSettings, Planner, Rate, Strategy};

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    /// Ten taps of 30 ms, half a second apart, at 10 updates a second and 60 frames a
    /// second, the keys applied as each frame starts. Returns the taps and the thrust the
    /// updates added up to, in seconds of full thrust, and how long the arrows were held.
    fn ten_taps(mode: InputMode) -> (Taps, f32, Duration) {
        let settings = LoopSettings::default().with_update_rate(Rate::hz(10.0).unwrap());
        let mut planner = Planner::new(Strategy::CatchUp, settings);
        let mut c = ShipKeys::default();
        c.set_mode(mode);
        let mut events: Vec<(Duration, bool)> = (0..10u64)
            .flat_map(|i| [(ms(1013 + 500 * i), true), (ms(1043 + 500 * i), false)])
            .collect();
        events.reverse();
        let mut moved = 0.0;
        for frame in 0..400u64 {
            let now = Duration::from_micros(16_667 * frame);
            while events.last().is_some_and(|&(t, _)| t <= now) {
                let (t, down) = events.pop().unwrap();
                if down {
                    c.press(Button::Arrow(Direction::Right), t);
                } else {
                    c.release(Button::Arrow(Direction::Right), t);
                }
            }
            let plan = planner.plan_frame(now);
            c.frame(&plan);
            for _ in 0..plan.updates {
                moved += c.update(plan.step).thrust.x * plan.step.as_secs_f32();
            }
            c.frame_done();
        }
        (c.taps(), moved, c.held_for())
    }

    #[test]
    fn accumulated_taps_all_arrive_each_for_its_length() {
        let (taps, moved, held) = ten_taps(InputMode::Accumulated);
        assert_eq!(
            taps,
            Taps {
                made: 10,
                reached: 10,
                lost: 0,
                doubled: 0
            }
        );
        assert_eq!(held, ms(300), "10 x 30 ms held");
        assert!((moved - 0.3).abs() < 1e-4, "10 x 30 ms, got {moved} s");
    }

    #[test]
    fn sampled_taps_are_lost_between_updates() {
        let (taps, moved, held) = ten_taps(InputMode::Sampled);
        assert_eq!(held, ms(300), "held as long, whatever the updates saw");
        assert_eq!(taps.made, 10);
        assert_eq!(taps.reached + taps.lost, 10);
        assert!(taps.lost >= 5, "{taps:?}");
        // A tap that is seen moves the ship a whole step: 100 ms, not 30.
        assert!((moved - 0.1 * taps.reached as f32).abs() < 1e-4, "{moved}");
    }

    /// A dash pressed before a frame of `updates` updates: how many dashes it made.
    fn dash_in_a_frame_of(mode: InputMode, updates: u32) -> (u32, u32) {
        let settings = LoopSettings::default()
            .with_update_rate(Rate::hz(10.0).unwrap())
            .with_max_frame_time(None)
            .unwrap();
        let mut planner = Planner::new(Strategy::CatchUp, settings);
        let mut c = ShipKeys::default();
        c.set_mode(mode);
        c.frame(&planner.plan_frame(ms(0)));
        c.frame_done();
        c.press(Button::Dash, ms(5));
        let mut now = ms(5) + ms(100) * updates;
        let plan = planner.plan_frame(now);
        assert_eq!(plan.updates, updates);
        c.frame(&plan);
        let in_frame: u32 = (0..plan.updates).map(|_| c.update(plan.step).dashes).sum();
        c.frame_done();
        // Later frames: whatever is still owed.
        let mut later = 0;
        for _ in 0..5 {
            now += ms(100);
            let plan = planner.plan_frame(now);
            c.frame(&plan);
            later += (0..plan.updates)
                .map(|_| c.update(plan.step).dashes)
                .sum::<u32>();
            c.frame_done();
        }
        (in_frame, later)
    }

    #[test]
    fn a_dash_happens_once_per_press_in_frames_of_none_one_and_ten_updates() {
        assert_eq!(dash_in_a_frame_of(InputMode::Accumulated, 0), (0, 1));
        assert_eq!(dash_in_a_frame_of(InputMode::Accumulated, 1), (1, 0));
        assert_eq!(dash_in_a_frame_of(InputMode::Accumulated, 10), (1, 0));
        // Sampled: lost in a frame with none, ten times in a frame with ten.
        assert_eq!(dash_in_a_frame_of(InputMode::Sampled, 0), (0, 0));
        assert_eq!(dash_in_a_frame_of(InputMode::Sampled, 1), (1, 0));
        assert_eq!(dash_in_a_frame_of(InputMode::Sampled, 10), (10, 0));
    }

    #[test]
    fn steer_presses_and_releases_what_changes() {
        let mut c = ShipKeys::default();
        c.steer(Steer::from_held(false, true, true, false), ms(1));
        assert_eq!(c.held(), Steer::from_held(false, true, true, false));
        c.steer(Steer::from_held(false, true, false, false), ms(2));
        assert_eq!(c.held(), Steer::from_held(false, true, false, false));
        assert_eq!(c.taps().made, 2);
        assert!(
            !c.press(Button::Arrow(Direction::Right), ms(3)),
            "auto-repeat"
        );
        assert!(c.release(Button::Arrow(Direction::Right), ms(4)));
        assert!(!c.release(Button::Arrow(Direction::Right), ms(5)));
    }
}
