//! Input for Bevy's `FixedUpdate` that loses and doubles nothing: keyboard and mouse
//! buttons from `bevy_input`, handed to each fixed run as what happened during the game
//! time it simulates, by [`looplab_timing::InputAccumulator`].
//!
//! # Why
//!
//! Bevy runs `FixedUpdate` zero, one or several times a frame, while `ButtonInput`'s
//! `just_pressed` holds for exactly one frame. A system in `FixedUpdate` that reads it misses
//! a press made in a frame that runs no fixed update (a display faster than the fixed
//! rate), and sees it twice in a frame that runs two (a slower one): bevy #6183, open since
//! 2022. Bevy's fixed-timestep example reads the keys once a frame before the fixed runs
//! and clears what the runs used after them; a flag per action counts two presses between
//! runs as one, and a key's state read once a frame loses a tap made and released between
//! two frames.
//!
//! # How
//!
//! The plugin reads the frame's `KeyboardInput` and `MouseButtonInput` messages for the
//! buttons it was told, and places them in game time: each fixed run then reads, through
//! [`FixedInput::update`], the presses, releases and held time of its own step. A press
//! reaches exactly one run; two presses in one step are two
//! ([`UpdateInput::presses`](looplab_timing::UpdateInput::presses)); a button held across
//! steps is held in each for the part of the step it was down.
//!
//! Bevy hands a frame's messages over together, with no time of their own, so each is
//! taken as arriving when the previous frame started (the earliest it can have come): a
//! press reaches the first fixed run of the frame that reads it, or the next frame's first
//! if this one runs none. Events in one frame keep their order at one instant, so a tap
//! pressed and released between two frames is a press with no held time.
//!
//! ```
//! use bevy_app::{App, FixedUpdate};
//! use bevy_ecs::prelude::{Res, ResMut, Resource};
//! use bevy_input::keyboard::KeyCode;
//! use looplab_bevy::{FixedInput, FixedInputPlugin};
//!
//! #[derive(Clone, Copy, PartialEq, Debug)]
//! enum Action { Jump }
//!
//! #[derive(Resource, Default)]
//! struct Jumps(u32);
//!
//! fn jump(input: Res<FixedInput<Action>>, mut jumps: ResMut<Jumps>) {
//!     jumps.0 += input.update().presses(Action::Jump);
//! }
//!
//! let mut app = App::new();
//! app.add_plugins((
//!     bevy_time::TimePlugin,
//!     bevy_input::InputPlugin,
//!     FixedInputPlugin::new().key(KeyCode::Space, Action::Jump),
//! ))
//! .init_resource::<Jumps>()
//! .add_systems(FixedUpdate, jump);
//! ```

use core::time::Duration;

use bevy_app::{App, FixedFirst, Plugin, PreUpdate, RunFixedMainLoop, RunFixedMainLoopSystems};
use bevy_ecs::prelude::{IntoScheduleConfigs, MessageReader, Res, ResMut, Resource};
use bevy_input::keyboard::{KeyCode, KeyboardFocusLost, KeyboardInput};
use bevy_input::mouse::{MouseButton, MouseButtonInput};
use bevy_input::{ButtonState, InputSystems};
use bevy_time::{Fixed, Real, Time, Virtual};
use looplab_timing::{InputAccumulator, InputEvent, UpdateInput, View};

/// Adds [`FixedInput<B>`] and the systems that fill it: the keys and mouse buttons named
/// here become the game's buttons `B` (an enum of actions, typically).
pub struct FixedInputPlugin<B> {
    keys: Vec<(KeyCode, B)>,
    mouse: Vec<(MouseButton, B)>,
}

impl<B> Default for FixedInputPlugin<B> {
    fn default() -> Self {
        Self {
            keys: Vec::new(),
            mouse: Vec::new(),
        }
    }
}

impl<B> FixedInputPlugin<B> {
    /// A plugin that names no button yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// `key` is the game's `button`.
    #[must_use]
    pub fn key(mut self, key: KeyCode, button: B) -> Self {
        self.keys.push((key, button));
        self
    }

    /// The mouse's `mouse` button is the game's `button`.
    #[must_use]
    pub fn mouse(mut self, mouse: MouseButton, button: B) -> Self {
        self.mouse.push((mouse, button));
        self
    }
}

impl<B: Copy + PartialEq + Send + Sync + 'static> Plugin for FixedInputPlugin<B> {
    fn build(&self, app: &mut App) {
        app.add_message::<KeyboardInput>()
            .add_message::<KeyboardFocusLost>()
            .add_message::<MouseButtonInput>()
            .insert_resource(FixedInput {
                input: InputAccumulator::new(),
                keys: self.keys.clone(),
                mouse: self.mouse.clone(),
                frame_start: None,
            })
            .add_systems(PreUpdate, gather::<B>.after(InputSystems))
            .add_systems(
                RunFixedMainLoop,
                place::<B>.in_set(RunFixedMainLoopSystems::BeforeFixedMainLoop),
            )
            .add_systems(FixedFirst, take::<B>);
    }
}

/// The input of the fixed run in progress; read it in `FixedUpdate` with
/// [`update`](FixedInput::update).
#[derive(Resource)]
pub struct FixedInput<B> {
    input: InputAccumulator<B>,
    keys: Vec<(KeyCode, B)>,
    mouse: Vec<(MouseButton, B)>,
    /// When the frame started, on `Time<Real>`: what this frame's events are stamped with,
    /// once the next frame reads them.
    frame_start: Option<Duration>,
}

impl<B: Copy + PartialEq> FixedInput<B> {
    /// What happened during the game time of the fixed run in progress: its presses,
    /// releases, held time and axes (in `FixedUpdate`; elsewhere, the last run's).
    pub fn update(&self) -> UpdateInput<'_, B> {
        self.input.reported()
    }

    /// Whether `button` is down after everything read so far.
    pub fn is_down_now(&self, button: B) -> bool {
        self.input.is_down_now(button)
    }

    /// An event of another source (a gamepad, a touch control, a network peer) for the
    /// updates, stamped `at` on `Time<Real>`'s elapsed time.
    pub fn push(&mut self, button: B, event: InputEvent, at: Duration) {
        self.input.push(button, event, at);
    }

    /// When this frame's events are taken to have arrived: the previous frame's start.
    fn stamp(&self, real: &Time<Real>) -> Duration {
        self.frame_start.unwrap_or(real.elapsed())
    }
}

/// Interpolation's view for drawing between the last two fixed states: how far the game
/// clock is past the last fixed run, as a fraction of a step.
pub fn interpolation(fixed: &Time<Fixed>) -> View {
    View::Interpolate {
        alpha: fixed.overstep_fraction(),
    }
}

fn event(state: ButtonState) -> InputEvent {
    match state {
        ButtonState::Pressed => InputEvent::Press,
        ButtonState::Released => InputEvent::Release,
    }
}

/// Reads the frame's button messages into the accumulator, in order.
fn gather<B: Copy + PartialEq + Send + Sync + 'static>(
    mut keys: MessageReader<KeyboardInput>,
    mut mouse: MessageReader<MouseButtonInput>,
    mut focus_lost: MessageReader<KeyboardFocusLost>,
    real: Res<Time<Real>>,
    mut fixed: ResMut<FixedInput<B>>,
) {
    let at = fixed.stamp(&real);
    let fixed = &mut *fixed;
    for key in keys.read() {
        if let Some(&(_, button)) = fixed.keys.iter().find(|(k, _)| *k == key.key_code) {
            fixed.input.push(button, event(key.state), at);
        }
    }
    for click in mouse.read() {
        if let Some(&(_, button)) = fixed.mouse.iter().find(|(m, _)| *m == click.button) {
            fixed.input.push(button, event(click.state), at);
        }
    }
    // A window that lost the keyboard hears no more releases: every key is up.
    if focus_lost.read().count() > 0 {
        for i in 0..fixed.keys.len() {
            let button = fixed.keys[i].1;
            if fixed.input.is_down_now(button) {
                fixed.input.push(button, InputEvent::Release, at);
            }
        }
    }
}

/// Places the frame's input in the game time the fixed runs will simulate.
fn place<B: Copy + PartialEq + Send + Sync + 'static>(
    real: Res<Time<Real>>,
    game: Res<Time<Virtual>>,
    fixed_time: Res<Time<Fixed>>,
    mut fixed: ResMut<FixedInput<B>>,
) {
    let now = real.elapsed();
    fixed
        .input
        .frame_at(now, game.elapsed(), fixed_time.elapsed());
    fixed.frame_start = Some(now);
}

/// Takes the input of the fixed run about to start.
fn take<B: Copy + PartialEq + Send + Sync + 'static>(
    fixed_time: Res<Time<Fixed>>,
    mut fixed: ResMut<FixedInput<B>>,
) {
    fixed.input.update(fixed_time.timestep());
}
