//! What a game gives the driver: its update, its draw, and optionally which events are its
//! buttons and what else it does with events and a new size.

use core::time::Duration;

use looplab_timing::{GameLoop, Planner, Rate, UpdateInput, View};
use winit::dpi::PhysicalSize;
use winit::event::{KeyEvent, MouseButton, WindowEvent};
use winit::event_loop::ActiveEventLoop;
use winit::keyboard::{Key, NamedKey};
use winit::window::Window;

use crate::clock::WinitClock;

/// A game the driver runs: [`update`](Game::update) once for each fixed step of game time,
/// with the input of that step, and [`draw`](Game::draw) once a frame, with the view between
/// the last two states.
pub trait Game: 'static {
    /// What the updates read as buttons and axes (`()` for a game with one button or
    /// none).
    type Button: Copy + PartialEq + 'static;

    /// One step of game time: [`UpdateInput::step`] long, with the presses, releases, held
    /// time and axes that fell in it, each press in exactly one update.
    fn update(&mut self, input: &UpdateInput<'_, Self::Button>);

    /// Draws a frame and presents it: `view` says where between the last two states (or
    /// how far past the newest) to draw. The driver has already told the window a frame is
    /// coming (`Window::pre_present_notify`), so drawing should end with the present.
    fn draw(&mut self, view: View);

    /// Which of the game's buttons `trigger` is, if any. The driver stamps it with the time
    /// it arrived and sends its press and release to the updates; keys held down and
    /// repeating are not pressed again.
    fn button(&self, trigger: Trigger<'_>) -> Option<Self::Button> {
        let _ = trigger;
        None
    }

    /// Every window event, after the driver has taken what it needs (buttons, the size,
    /// close, Escape unless told otherwise): for axes, text, or changing the loop.
    fn event(&mut self, event: &WindowEvent, cx: &mut Context<'_, Self::Button>) {
        let _ = (event, cx);
    }

    /// The window's inner size changed (never to zero: a minimised window draws nothing).
    fn resized(&mut self, size: PhysicalSize<u32>) {
        let _ = size;
    }
}

/// An event that can be one of the game's buttons.
#[derive(Clone, Copy, Debug)]
pub enum Trigger<'a> {
    /// A key went down or up.
    Key(&'a KeyEvent),
    /// A mouse button went down or up.
    Mouse(MouseButton),
}

impl Trigger<'_> {
    /// Whether this is the key `named` (by its meaning in the keyboard's layout).
    pub fn is(&self, named: NamedKey) -> bool {
        matches!(self, Trigger::Key(event) if event.logical_key == Key::Named(named))
    }

    /// Whether this is the character key that types `text` (letters compared without case).
    pub fn is_char(&self, text: &str) -> bool {
        match self {
            Trigger::Key(event) => match &event.logical_key {
                Key::Character(c) => c.eq_ignore_ascii_case(text),
                _ => false,
            },
            Trigger::Mouse(_) => false,
        }
    }
}

/// What a game's [`event`](Game::event) hook may do to the loop and the window.
pub struct Context<'a, B> {
    pub(crate) event_loop: &'a ActiveEventLoop,
    pub(crate) window: &'a Window,
    pub(crate) game_loop: &'a mut GameLoop<WinitClock, B>,
    pub(crate) display_rate: Option<Rate>,
}

impl<B: Copy + PartialEq> Context<'_, B> {
    /// Ends the run after this event.
    pub fn exit(&self) {
        self.event_loop.exit();
    }

    /// The game's window.
    pub fn window(&self) -> &Window {
        self.window
    }

    /// The loop's clock now: time since the game started.
    pub fn now(&self) -> Duration {
        self.game_loop.now()
    }

    /// `button` went down now.
    pub fn press(&mut self, button: B) {
        self.game_loop.press(button);
    }

    /// `button` came up now.
    pub fn release(&mut self, button: B) {
        self.game_loop.release(button);
    }

    /// `axis` moved to `value` now.
    pub fn set_axis(&mut self, axis: B, value: f32) {
        self.game_loop.set_axis(axis, value);
    }

    /// The planner: its strategy, settings, game time and statistics.
    pub fn planner(&self) -> &Planner {
        self.game_loop.planner()
    }

    /// The planner, to change the strategy or the settings from the next frame on.
    pub fn planner_mut(&mut self) -> &mut Planner {
        self.game_loop.planner_mut()
    }

    /// The display's refresh rate as the driver knows it: measured from the frames it
    /// presented, or as the monitor reports it until then (`None` when neither says).
    pub fn display_rate(&self) -> Option<Rate> {
        self.display_rate
    }
}
