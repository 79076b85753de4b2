//! The demo: what a person sees and steers in the window, with no window in it.
//!
//! It holds the controls (and through them the session: the planner and the world), the
//! keys recorded since the last frame, compare mode's lanes, the guided tour, the readouts
//! the overlay shows, what the run keeps for its files, and a replay's check. The driver
//! ([`super::driver`]) owns the window, the surface and the loop's phases, and talks to the
//! demo through a few calls, in a frame's order:
//!
//! 1. the input of a frame: [`Demo::input`] records keys as they come, and
//!    [`Demo::apply_input`] applies them when the frame starts, answering with what it
//!    asks of the window ([`Requests`]);
//! 2. the start of a frame: [`Demo::run_updates`] runs the planned updates;
//! 3. what to draw: [`Demo::prepare_draw`], then [`Demo::with_frame_inputs`] for the
//!    composer;
//! 4. what was presented: [`Demo::presented`] or [`Demo::skipped`], then
//!    [`Demo::finish_frame`].
//!
//! Nothing here opens a window or waits on an event loop, so tests drive it with a manual
//! clock. Keys are named by winit's `KeyCode`, a plain enum.

mod frame;
mod outputs;
pub mod touring;

pub use frame::{Frame, Nap, Prepared};

use std::time::Duration;

use looplab_timing::{LoopSettings, Rate, Strategy, Wake};

use super::compose::Readouts;
use super::controls::{Controls, Effect, Knobs};
use super::input_queue::{Input, InputQueue};
use super::lanes_keys;
use super::pacing::{JitReadout, Pacing};
use super::replay::ReplayCheck;
use super::run_log::RunLog;
use crate::app::keys::{self, Action, LanesKey, ShipKey, TourKey};
use crate::lab::compare::{Compare, LaneSpec, Preset};
use crate::session::Session;
use crate::session::frame::FrameRecord;
use crate::session::present::PresentMode;
use crate::session::recording::Recording;
use crate::session::ship_input::Button;
use crate::session::steering::SteerScript;
use crate::world::WorldConfig;
use touring::Touring;

/// How the demo starts: the loop and the world a run begins with (a `--record` file's
/// header names them; the trace's header names the loop as it ended, and the bullets it
/// started with), and compare mode's custom lanes.
#[derive(Clone, Debug)]
pub struct DemoSetup {
    pub strategy: Strategy,
    pub settings: LoopSettings,
    pub world: WorldConfig,
    pub knobs: Knobs,
    /// Steer the ship by this recording and check the state at its end (`--replay`).
    pub replay: Option<Recording>,
    /// Compare mode's lanes given with `--lane` (its `custom` preset).
    pub lanes: Vec<LaneSpec>,
    /// Start with the guided tour's first stop (`--tour`).
    pub tour: bool,
    /// One of the book's embedded views: start at this stop of the tour, framed alone
    /// ([`crate::app::AppOptions::embedded`]).
    pub embedded: Option<usize>,
    /// The demo runs in a browser page, whose tour leaves out what a page cannot show.
    pub in_a_page: bool,
    /// Keep every frame for `--frame-log`, and every presented one for `--trace`.
    pub keep_frames: bool,
    pub keep_trace: bool,
}

/// What the input applied at a frame's start asks of the window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Requests {
    /// Set the surface up again with this present mode and frame latency (V, Shift+V).
    pub swapchain: Option<(PresentMode, u32)>,
    /// The window's new title (the strategy changed).
    pub title: Option<String>,
    /// Esc or Q: end the run.
    pub quit: bool,
}

/// The demo: see the module's docs.
pub struct Demo {
    /// The loop, world and lanes the run started with.
    start: DemoSetup,
    controls: Controls,
    input: InputQueue,
    readouts: Readouts,
    /// Compare mode's lanes, while it is on.
    compare: Option<Compare>,
    run: RunLog,
    /// The recording being played back, and the state reached at its end.
    replay: Option<ReplayCheck>,
    /// The guided tour, once started.
    touring: Option<Touring>,
    /// Just in time, while the J knob is on.
    pacing: Pacing,
}

impl Demo {
    pub fn new(start: DemoSetup) -> Self {
        let mut controls = Controls::new(
            start.strategy,
            start.settings.clone(),
            start.knobs.clone(),
            &start.world,
        );
        let replay = start.replay.as_ref().map(|recording| {
            controls
                .session_mut()
                .play(SteerScript::new(recording.changes.clone()));
            ReplayCheck::new(recording)
        });
        let mut input = InputQueue::default();
        if let Some(stop) = start.embedded {
            input.clicked([Action::Tour(TourKey::Visit(stop))], Duration::ZERO);
        } else if start.tour {
            // As if Enter were pressed before the first frame: the tour's first stop.
            input.clicked([Action::Tour(TourKey::Next)], Duration::ZERO);
        }
        Self {
            controls,
            input,
            readouts: Readouts::default(),
            compare: None,
            run: RunLog::new(start.keep_frames, start.keep_trace),
            replay,
            touring: None,
            pacing: Pacing::default(),
            start,
        }
    }

    /// The window's title: the strategy's key and name.
    pub fn title(&self) -> String {
        let s = self.controls.strategy();
        format!("Looplab: {} {}", keys::strategy_key(s), s.id())
    }

    /// Where keys, clicks and focus changes are recorded as they come, to be applied when
    /// the next frame starts.
    pub fn input(&mut self) -> &mut InputQueue {
        &mut self.input
    }

    pub fn knobs(&self) -> &Knobs {
        &self.controls.knobs
    }

    /// The frame about to start was delayed by the machine: the cap's deadlines restart
    /// from it.
    pub fn restart_deadlines(&mut self) {
        self.controls.session_mut().restart_deadlines();
    }

    pub fn session(&self) -> &Session {
        self.controls.session()
    }

    pub fn strategy(&self) -> Strategy {
        self.controls.strategy()
    }

    pub fn settings(&self) -> &LoopSettings {
        self.controls.settings()
    }

    /// The world the run started with.
    pub fn world(&self) -> &WorldConfig {
        &self.start.world
    }

    /// The refresh rate snapped deltas assume.
    pub fn display(&self) -> Rate {
        self.controls.display()
    }

    /// The display's refresh rate, once told or measured.
    pub fn set_display(&mut self, refresh: Rate) {
        self.controls.set_display(refresh);
        self.pacing.reset();
    }

    /// The present modes the window's surface offers.
    pub fn offer_present_modes(&mut self, offered: Vec<PresentMode>) {
        self.controls.set_offered(offered);
    }

    /// A frame let draw at `let_draw` was presented at `presented` (see
    /// [`Pacing::presented`]).
    pub fn display_presented(
        &mut self,
        let_draw: Duration,
        presented: Duration,
        record: &FrameRecord,
        compositor: bool,
    ) {
        self.pacing
            .presented(let_draw, presented, record, compositor);
    }

    /// When the frame after `record`, which ended at `now`, starts: the plan's `wake`, or
    /// just in time for its refresh while the J knob is on.
    pub fn pace(&mut self, wake: Wake, record: &FrameRecord, now: Duration) -> Wake {
        if !self.controls.knobs.just_in_time {
            return wake;
        }
        let period = self.controls.display().period();
        self.pacing.pace(wake, record, now, period)
    }

    /// What the just-in-time controller has learnt, while it is on.
    pub fn just_in_time(&self) -> Option<JitReadout> {
        self.controls
            .knobs
            .just_in_time
            .then(|| self.pacing.readout())
    }

    /// Starts the loop's clocks again at `now`: the time since is neither simulated nor
    /// clamped (the window was hidden, or the first picture took its time).
    pub fn resync(&mut self, now: Duration) {
        self.controls.session_mut().resync(now);
    }

    /// How many of compare mode's lanes are shown, while it is on.
    pub fn lanes_shown(&self) -> Option<usize> {
        self.compare.as_ref().map(|c| c.lanes.len())
    }

    /// Frames presented so far.
    pub fn presented_count(&self) -> u64 {
        self.run.presented
    }

    /// Share of one core the process used lately, in percent.
    pub fn cpu_percent(&self) -> Option<f64> {
        self.readouts.cpu.percent()
    }

    /// Applies the input recorded since the last frame, at `now` (the frame's start), and
    /// says what it asks of the window.
    pub fn apply_input(&mut self, now: Duration) -> Requests {
        let mut requests = Requests::default();
        for (input, arrival) in self.input.take() {
            let effect = self.effect_of(input, arrival);
            // Every press counts as input; a release only when it let go of a held key (a
            // lost focus lets go of all four, held or not).
            if matches!(input, Input::Press(_)) || effect.steered {
                self.input.count_applied();
                self.run.inputs_applied += 1;
            }
            if effect.steered {
                self.follow_steering(input, arrival);
            }
            self.take_effect(effect, arrival, &mut requests);
        }
        self.sync_compare(now);
        requests
    }

    /// What one input does, routed once by its key's group to the part that owns it: the
    /// tour, compare mode, the loop (compare mode's lanes while it is on), the knobs, the
    /// ship.
    fn effect_of(&mut self, input: Input, arrival: Duration) -> Effect {
        let action = match input {
            Input::Press(action) => action,
            Input::Release(direction) => return self.controls.release(direction, arrival),
        };
        self.run.key_applied(arrival);
        let effect = match action {
            Action::Tour(key) => self.tour_key(key, arrival),
            Action::Lanes(key) => self.lanes_key(key),
            Action::Loop(key) => match self.compare.as_mut() {
                Some(compare) => {
                    lanes_keys::loop_key(compare, self.controls.knobs.selected_lane, key)
                }
                None => self.controls.loop_key(key),
            },
            Action::Knob(key) => self.controls.knob_key(key),
            Action::Ship(key) => self.controls.ship_key(key, arrival),
            Action::Quit => Effect::quit(),
        };
        if action.changes_the_loop() && effect.changed {
            self.tour_tried(arrival);
        }
        effect
    }

    /// An arrow pressed or let go at `arrival` changed the ship's controls: its press is
    /// followed to the screen (see [`InputDelay`](crate::session::input_delay::InputDelay)).
    fn follow_steering(&mut self, input: Input, arrival: Duration) {
        let session = self.controls.session();
        let delays = &mut self.readouts.steer_delay;
        match input {
            Input::Press(Action::Ship(ShipKey::Steer(direction))) => {
                let from = session.press_acts_from(arrival);
                delays.pressed(arrival, Button::Arrow(direction), from);
            }
            Input::Release(direction) => delays.released(Button::Arrow(direction)),
            Input::Press(_) => {}
        }
    }

    /// Does what an applied input asks besides its change of the knobs, gathering what it
    /// asks of the window into `requests`.
    fn take_effect(&mut self, effect: Effect, arrival: Duration, requests: &mut Requests) {
        if effect.steered {
            // A replay steers by its recording; the arrows do nothing, in the lanes too.
            if let Some(c) = self.compare.as_mut().filter(|_| self.replay.is_none()) {
                c.steer(self.controls.steer_held(), arrival);
            }
        }
        if let Some(line) = &effect.log {
            log::info!("{line}");
        }
        if effect.swapchain_changed {
            let knobs = &self.controls.knobs;
            requests.swapchain = Some((knobs.present, knobs.latency));
        }
        if !self.controls.knobs.just_in_time {
            self.pacing.reset();
        }
        if effect.strategy_changed {
            requests.title = Some(self.title());
            self.readouts.history.clear();
        }
        self.input.stall = effect.stall.or(self.input.stall);
        requests.quit |= effect.quit;
    }

    /// A key of compare mode's: on and off, a preset, or (while it is on) the lane the loop
    /// keys act on.
    fn lanes_key(&mut self, key: LanesKey) -> Effect {
        match key {
            LanesKey::Compare => self.controls.toggle_compare(),
            LanesKey::Preset(preset) => self.controls.compare_preset(preset),
            LanesKey::Select => match self.compare.as_ref() {
                Some(compare) => {
                    let selected = self.controls.knobs.selected_lane;
                    let (next, line) = lanes_keys::next_selection(compare, selected);
                    self.controls.knobs.selected_lane = next;
                    Effect::changed(line)
                }
                None => Effect::default(),
            },
        }
    }

    /// Starts or ends compare mode, or changes its preset, as the knob says. The lanes start
    /// `now`, from the seed and bullet count in use, with the loop's current settings and
    /// the arrows held now.
    fn sync_compare(&mut self, now: Duration) {
        let wanted = self.controls.knobs.compare;
        if self.compare.as_ref().map(|c| c.preset) == wanted {
            return;
        }
        self.controls.knobs.selected_lane = None;
        self.compare = wanted.map(|preset| {
            let world = WorldConfig {
                seed: self.start.world.seed,
                bullets: self.controls.session().world().bullets.len(),
            };
            let settings = self.controls.settings().clone().with_paused(false);
            let lanes = match preset {
                Preset::Custom => self.start.lanes.clone(),
                p => p.lanes(),
            };
            let mut c = Compare::with_lanes(preset, lanes, &settings, &world, now);
            c.steer(self.controls.steer_held(), now);
            c
        });
    }
}

#[cfg(test)]
mod tests;
