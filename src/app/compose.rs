//! One frame, composed: the single place where what a frame draws is put together from the
//! loop's state. The scene or compare mode's lanes, the demonstrations' captions, the loop's
//! timeline and the overlay's model all come from here, for the window, `looplab motion`
//! and the bench alike, so what they show and measure is the window's own frame.
//!
//! Composing reads; it changes nothing but its own scratch space. The caller runs the
//! frame's updates first (and compare mode's lanes to the frame's time), then composes, then
//! paints what comes out ([`ComposedFrame`]) on whatever it draws into.

use std::time::Duration;

use looplab_timing::FramePlan;
use winit::event::WindowEvent;
use winit::window::Window;

use super::controls::Knobs;
use super::lanes_view::compare_frame;
use super::live_figures::LiveFigures;
use super::overlay::{OverlayModel, WindowFacts, framed_region};
use super::overlay_host::{OverlayFrame, OverlayHost};
use crate::lab::compare::Compare;
use crate::platform::process::CpuMeter;
use crate::render::lanes::LanesScratch;
use crate::render::scene::{self, SceneView};
use crate::render::shapes::{ShapeInstance, ViewTransform};
use crate::render::sprites::SpriteFrame;
use crate::session::Session;
use crate::session::frame::FrameRecord;
use crate::session::input_delay::InputDelay;
use crate::session::timeline::{FrameHistory, Strip, TIMELINE_SPAN};
use crate::tour::TourPanel;
use crate::world::WORLD_SIZE;
use crate::world::layout::Region;

/// What the window keeps between frames for the overlay and the timeline: its live readouts.
#[derive(Clone, Debug, Default)]
pub struct Readouts {
    /// Animation error and picture lag of the recent frames.
    pub live: LiveFigures,
    /// The last presented frame, whole.
    pub last: FrameRecord,
    /// Recent frames, for the timeline strip (not added to while paused, so it freezes).
    pub history: FrameHistory,
    /// The ship's input-to-display delay.
    pub steer_delay: InputDelay,
    /// The process's CPU use.
    pub cpu: CpuMeter,
}

/// Everything a frame is composed from.
pub struct FrameInputs<'a> {
    /// The running loop, its updates for this frame run.
    pub session: &'a Session,
    pub knobs: &'a Knobs,
    /// This frame's plan: what it draws, and how.
    pub plan: &'a FramePlan,
    pub readouts: &'a Readouts,
    /// Compare mode's lanes, run to `now`, while it is on.
    pub lanes: Option<&'a Compare>,
    /// Real time of the frame on the loop's clock (the lanes' captions count from it).
    pub now: Duration,
    pub facts: &'a WindowFacts,
    /// The guided tour's current stop, while it is on.
    pub tour: Option<&'a TourPanel>,
    /// Whether to say, in one quiet line, how to start the tour.
    pub invite: bool,
    /// The book's embedded view: the tour's stop framed alone (while the tour is on).
    pub framed: bool,
}

impl<'a> FrameInputs<'a> {
    /// The single view's frame of `plan`, at the plan's time.
    pub fn new(
        session: &'a Session,
        knobs: &'a Knobs,
        plan: &'a FramePlan,
        readouts: &'a Readouts,
        facts: &'a WindowFacts,
    ) -> Self {
        Self {
            session,
            knobs,
            plan,
            readouts,
            lanes: None,
            now: plan.now,
            facts,
            tour: None,
            invite: false,
            framed: false,
        }
    }

    /// The same frame with compare mode's `lanes` (when on), run to real time `now`.
    #[must_use]
    pub fn with_lanes(self, lanes: Option<&'a Compare>, now: Duration) -> Self {
        Self { lanes, now, ..self }
    }

    /// The same frame with the tour's panel showing `tour`.
    #[must_use]
    pub fn with_tour(self, tour: Option<&'a TourPanel>) -> Self {
        Self { tour, ..self }
    }

    /// The same frame saying (`invite`) or not how to start the tour.
    #[must_use]
    pub fn with_tour_invite(self, invite: bool) -> Self {
        Self { invite, ..self }
    }

    /// The same frame as the book's embedded view shows it (`framed`): the tour's stop
    /// alone.
    #[must_use]
    pub fn framed(self, framed: bool) -> Self {
        Self { framed, ..self }
    }
}

/// A composed frame, ready to paint.
pub struct ComposedFrame<'a> {
    /// The scene (or the lanes) and the timeline strip, for the sprite pipeline.
    pub sprites: SpriteFrame<'a>,
    /// The words laid out by egui, with any buttons clicked; `None` for a composer without
    /// words.
    pub words: Option<OverlayFrame>,
}

/// Composes frames, keeping its scratch space (and egui's state) between them.
pub struct Composer {
    host: OverlayHost,
    shapes: Vec<ShapeInstance>,
    lanes: LanesScratch,
    strip: Option<Strip>,
    captions: Vec<(Region, String)>,
    words: bool,
}

impl Composer {
    /// For a window: egui reads its input (clicks on the overlay's buttons).
    pub fn for_window(window: &Window, max_texture_side: usize) -> Self {
        Self::with_host(OverlayHost::for_window(window, max_texture_side))
    }

    /// For frames drawn offscreen.
    pub fn headless() -> Self {
        Self::with_host(OverlayHost::headless())
    }

    fn with_host(host: OverlayHost) -> Self {
        Self {
            host,
            shapes: Vec::new(),
            lanes: LanesScratch::default(),
            strip: None,
            captions: Vec::new(),
            words: true,
        }
    }

    /// The same composer, laying out no words at all: the sprite path alone, the bench's
    /// yardstick of what the words add.
    #[must_use]
    pub fn without_words(mut self) -> Self {
        self.words = false;
        self
    }

    /// The same composer, saying where every text lands (tests of the layout).
    #[must_use]
    pub fn audited(mut self) -> Self {
        self.host = self.host.audited();
        self
    }

    /// Passes a window event to egui; true when egui used it (a click on a button).
    pub fn on_window_event(&mut self, window: &Window, event: &WindowEvent) -> bool {
        self.host.on_window_event(window, event)
    }

    /// Composes the frame `inputs` describe for a target of `size` pixels (`window`, when it
    /// is drawn in one, lends egui its scale factor and takes its cursor changes).
    pub fn compose<'a>(
        &'a mut self,
        inputs: &FrameInputs<'a>,
        window: Option<&Window>,
        size: (u32, u32),
    ) -> ComposedFrame<'a> {
        let Self {
            host,
            shapes,
            lanes,
            strip,
            captions,
            words,
        } = self;
        let (session, knobs, plan) = (inputs.session, inputs.knobs, inputs.plan);
        let transform = match inputs.tour.filter(|_| inputs.framed) {
            Some(tour) => {
                let lanes = inputs.lanes.map(|c| c.lanes.len());
                let region = framed_region(tour.focus, lanes, knobs.overlay);
                ViewTransform::framing(region, size.0, size.1)
            }
            None => ViewTransform::new(WORLD_SIZE, size.0, size.1),
        };
        let sprites = match inputs.lanes {
            Some(compare) => {
                *strip = None;
                let (frame, lane_captions) = compare_frame(
                    compare,
                    knobs.selected_lane,
                    knobs.overlay,
                    inputs.now,
                    transform,
                    plan.step,
                    lanes,
                );
                *captions = lane_captions;
                frame
            }
            None => {
                captions.clear();
                *strip = knobs
                    .timeline
                    .then(|| inputs.readouts.history.strip(TIMELINE_SPAN));
                let showing = SceneView {
                    view: plan.view,
                    step: plan.step,
                    game_now: plan.game_now,
                    reference: session.reference(),
                    ghosts: knobs.ghosts,
                };
                scene::sprite_frame(session.shown(), &showing, strip.as_ref(), transform, shapes)
            }
        };
        let words = words.then(|| {
            let model = overlay_model(inputs, strip.as_ref(), captions, transform);
            host.run(window, size, &model)
        });
        ComposedFrame { sprites, words }
    }
}

/// The overlay's model of the frame `inputs` describe, with the timeline `strip` and the
/// lanes' captions as composed, for a target `transform` maps the world onto.
pub fn overlay_model<'a>(
    inputs: &FrameInputs<'a>,
    strip: Option<&'a Strip>,
    lane_captions: &'a [(Region, String)],
    transform: ViewTransform,
) -> OverlayModel<'a> {
    OverlayModel {
        session: inputs.session,
        knobs: inputs.knobs,
        plan: inputs.plan,
        last: &inputs.readouts.last,
        summary: inputs.session.stats().summary(),
        smoothness: inputs.readouts.live.smoothness(),
        facts: inputs.facts,
        steer_delay: &inputs.readouts.steer_delay,
        strip,
        lane_captions,
        transform,
        tour: inputs.tour,
        // Compare mode fills the panel, and whoever opened it has found their way.
        invite: inputs.invite && inputs.tour.is_none() && inputs.lanes.is_none(),
        framed: inputs.framed,
    }
}
