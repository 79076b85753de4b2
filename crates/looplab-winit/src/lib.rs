//! A winit 0.30 window whose loop [`looplab_timing`] runs: the game gives its
//! [`update`](Game::update) and its [`draw`](Game::draw), the [`Driver`] does the rest.
//!
//! ```no_run
//! use looplab_winit::{Driver, Game, LoopSettings, Rate, Trigger, UpdateInput, View};
//! use winit::keyboard::NamedKey;
//!
//! #[derive(Clone, Copy, PartialEq)]
//! struct Jump;
//!
//! #[derive(Default)]
//! struct Hopper { height: f32, previous: f32, speed: f32 }
//!
//! impl Game for Hopper {
//!     type Button = Jump;
//!     fn button(&self, trigger: Trigger<'_>) -> Option<Jump> {
//!         trigger.is(NamedKey::Space).then_some(Jump)
//!     }
//!     fn update(&mut self, input: &UpdateInput<'_, Jump>) {
//!         let dt = input.step().as_secs_f32();
//!         if input.presses(Jump) > 0 && self.height == 0.0 {
//!             self.speed = 300.0;
//!         }
//!         self.previous = self.height;
//!         self.speed -= 900.0 * dt;
//!         self.height = (self.height + self.speed * dt).max(0.0);
//!     }
//!     fn draw(&mut self, view: View) {
//!         let _height = view.lerp(self.previous, self.height);
//!         // draw the hopper `_height` pixels up, and present
//!     }
//! }
//!
//! let settings = LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ));
//! Driver::new(settings).run(|_window| async { Hopper::default() })?;
//! # Ok::<(), looplab_winit::RunError>(())
//! ```
//!
//! What the driver does each frame:
//!
//! - **Input, stamped as it arrives.** Keys and mouse buttons the game names in
//!   [`Game::button`] are pushed to the loop's `InputAccumulator` with the time they came,
//!   so each update reads the presses, releases and held time of the game time it
//!   simulates: no press lost or doubled, however many updates a frame runs.
//! - **Planned in `about_to_wait`**, natively, once the last frame was drawn: the updates the
//!   strategy asks for run (within a real-time budget, so a machine too slow for them lets
//!   the game slow down), then a redraw is asked for.
//! - **Paced.** A frame cap's deadline is kept with `ControlFlow::WaitUntil` a little before
//!   it and the last stretch turned out precisely (`FrameWait`); without a cap, the present
//!   (vsync) paces the loop. In a page the display's frame callbacks
//!   (`requestAnimationFrame`) drive it, and a cap below the display's rate comes out in
//!   whole refreshes (`FrameCallbacks`).
//! - **Drawn between states.** [`Game::draw`] gets the view for the moment it draws, just
//!   after the driver tells the window a frame is coming (`Window::pre_present_notify`).
//! - **Following the display.** The display's rate is measured from the frames it paced
//!   (`RefreshEstimator`; in a page, from the callbacks), and a snapped delta
//!   ([`DeltaMode::Snapped`](looplab_timing::DeltaMode::Snapped)) is kept on it.
//!
//! The same code runs in a browser on winit's web backend: the window is a canvas added
//! to the page, the clock is `performance.now()` ([`WinitClock`]), and the game's start (an
//! async function of the window, since a page cannot block on a GPU) runs as a future.
//!
//! What the Looplab window does beyond this: it switches strategies and settings live
//! from keys, runs "just in time" (starting a frame as late as its present allows), reads
//! the present modes and frame latency of its swap chain, records and replays runs,
//! survives a lost GPU, and draws its overlay, plots and tour. A game that needs those
//! drives [`looplab_timing::GameLoop`] from its own handler, as the repository's
//! `square_by_hand` example shows.

#![warn(missing_docs)]

mod clock;
mod driver;
mod game;
mod pacing;

pub use clock::WinitClock;
pub use driver::{Driver, RunError};
pub use game::{Context, Game, Trigger};
/// The timing types a game on the driver names: its settings, and what an update and a draw
/// are given. The rest of the timing crate is under [`looplab_timing`].
pub use looplab_timing::{LoopSettings, Rate, Strategy, UpdateInput, View};
pub use pacing::Pacing;

/// The timing crate this driver runs, for its settings, strategies and input types.
pub use looplab_timing;
/// The winit this driver is built on (0.30), for its events, keys and window.
pub use winit;
