//! The on-screen words, laid out with egui: each demonstration's caption and live figure,
//! the timeline's row names and legend, and the overlay panel (what the active strategy is
//! doing, in numbers and a frame-time graph, plus the key help). Its text is built by plain
//! functions (tested without a GPU); [`ui`] lays it out in world pixels (egui's zoom makes a
//! point one world pixel), and the renderer paints what it lays out.

mod graph;
mod layout;
mod tour_panel;
mod words;

use std::sync::Arc;

use looplab_timing::{FramePlan, StatsSummary};

pub use graph::graph_scale_ms;
pub use layout::{LayoutOutcome, PlacedText, ViewFigures, help_region, layout_faults, ui};
pub use tour_panel::{TOUR_INVITE, framed_region};
pub use words::{captions, status_rows, steer_delay_text, taps_text};

use super::controls::Knobs;
use super::pacing::JitReadout;
use crate::app::live_figures::Smoothness;
use crate::render::shapes::ViewTransform;
use crate::session::Session;
use crate::session::frame::FrameRecord;
use crate::session::input_delay::InputDelay;
use crate::session::timeline::Strip;
use crate::tour::TourPanel;
use crate::world::layout::Region;

/// What the overlay says about where the loop runs: what the window knows of its surface
/// and process, or stand-ins for a frame drawn offscreen.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowFacts {
    pub present_mode: wgpu::PresentMode,
    /// Frames in flight asked of the surface.
    pub frame_latency: u32,
    /// What the just-in-time controller has learnt, while it paces the loop.
    pub just_in_time: Option<JitReadout>,
    /// Who starts the frames.
    pub paced_by: PacedBy,
    /// What the game did while the window was last hidden, for a while after it is shown.
    pub hidden_note: Option<String>,
    /// Share of one core the process used over the last half second, in percent.
    pub cpu_percent: Option<f64>,
    /// The GPU adapter in words.
    pub adapter: Arc<str>,
    /// The display's refresh rate, Hz, once the windowing system or the presents told it.
    pub refresh_hz: Option<f64>,
}

/// Who decides when the window's frames start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacedBy {
    /// The loop itself: it waits for its strategy's wake time.
    Loop,
    /// A Wayland compositor, through frame callbacks, whatever the present mode: vsync off
    /// and uncapped cannot outrun it.
    Compositor,
    /// A browser, through `requestAnimationFrame`: the page owns no loop, is called once a
    /// refresh, and a frame cap can only let callbacks pass.
    Browser,
}

impl WindowFacts {
    /// A frame drawn into a texture: no window, no process figures.
    pub fn offscreen(present_mode: wgpu::PresentMode) -> Self {
        Self {
            present_mode,
            frame_latency: crate::session::present::DEFAULT_LATENCY,
            just_in_time: None,
            paced_by: PacedBy::Loop,
            hidden_note: None,
            cpu_percent: None,
            adapter: Arc::from("offscreen"),
            refresh_hz: None,
        }
    }
}

/// Everything the overlay shows about one frame. Built by the frame composer
/// ([`super::compose`]), the one place a frame is put together.
pub struct OverlayModel<'a> {
    /// The running loop: its planner, world and statistics.
    pub session: &'a Session,
    pub knobs: &'a Knobs,
    pub plan: &'a FramePlan,
    /// The last presented frame, whole (this one is not presented yet).
    pub last: &'a FrameRecord,
    pub summary: StatsSummary,
    /// Animation error and picture lag of the recent frames.
    pub smoothness: Smoothness,
    pub facts: &'a WindowFacts,
    /// The ship's input-to-display delay.
    pub steer_delay: &'a InputDelay,
    /// The timeline strip, when it is shown.
    pub strip: Option<&'a Strip>,
    /// Compare mode's lanes: each tile and its caption (empty when compare mode is off;
    /// then the demonstrations' captions are shown).
    pub lane_captions: &'a [(Region, String)],
    /// From world pixels to the target's pixels.
    pub transform: ViewTransform,
    /// The guided tour's current stop, while it is on: the panel opens with it.
    pub tour: Option<&'a TourPanel>,
    /// Say in one quiet line how to start the tour (until the person's first key).
    pub invite: bool,
    /// The book's embedded view: the tour's stop framed alone, its rows handed to the
    /// book ([`LayoutOutcome::figures`]) instead of drawn.
    pub framed: bool,
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::graph::bar_colour;
    use super::words::*;
    use super::*;
    use crate::app::compose::{FrameInputs, Readouts, overlay_model};
    use crate::app::speed::speed_warning;
    use crate::session::ship_input::Taps;
    use crate::world::WorldConfig;
    use crate::world::layout::LAYOUT;
    use egui::Color32;
    use looplab_timing::Strategy;
    use looplab_timing::{LoopSettings, ManualClock, Wake};

    #[test]
    fn the_stream_caption_counts_taps_and_says_what_was_lost() {
        let taps = |made, reached, lost| Taps {
            made,
            reached,
            lost,
            doubled: 0,
        };
        let w = "since your keys";
        assert_eq!(taps_text(taps(0, 0, 0), w), "");
        assert_eq!(
            taps_text(taps(1, 1, 0), w),
            ", 1 tap since your keys, 1 reached the game"
        );
        assert_eq!(
            taps_text(taps(10, 10, 0), w),
            ", 10 taps since your keys, 10 reached the game"
        );
        assert_eq!(
            taps_text(taps(10, 5, 5), w),
            ", 10 taps since your keys, 5 lost"
        );
    }

    fn session(strategy: Strategy) -> Session {
        Session::new(
            strategy,
            LoopSettings::default(),
            &WorldConfig {
                seed: 1,
                bullets: 10,
            },
        )
    }

    fn run(s: &mut Session, frame: Duration, frames: u32) -> FramePlan {
        let mut clock = ManualClock::default();
        let mut plan = s.frame(clock.now(), |_, _| {});
        for _ in 0..frames {
            clock.advance(frame);
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            }
            plan = s.frame(clock.now(), |_, _| {});
        }
        plan
    }

    #[test]
    fn slow_fixed_sleep_is_flagged_and_interpolated_is_not() {
        let mut slow = session(Strategy::FixedSleep);
        run(&mut slow, Duration::from_millis(40), 60);
        let w = speed_warning(&slow.stats().summary(), &slow).unwrap();
        assert!(w.starts_with("game running slow: 42%"), "{w}");

        let mut fine = session(Strategy::Interpolated);
        run(&mut fine, Duration::from_millis(40), 60);
        assert_eq!(speed_warning(&fine.stats().summary(), &fine), None);

        let mut fast = session(Strategy::Uncapped);
        run(&mut fast, Duration::from_millis(2), 600);
        let w = speed_warning(&fast.stats().summary(), &fast).unwrap();
        assert!(w.starts_with("game running fast: 8.3x"), "{w}");
    }

    /// What the composer would make of `s` after `plan`, with a known error and CPU.
    fn with_model<R>(s: &Session, plan: &FramePlan, check: impl FnOnce(&OverlayModel) -> R) -> R {
        let knobs = Knobs::default();
        // Pictures 10 ms apart presented 10 ms apart, 4 ms after their frames start, but
        // one that showed the same time again: two errors of 10 ms in ten (it stopped, then
        // jumped), and 10 ms more lag once.
        let mut readouts = Readouts::default();
        for k in 0..11u64 {
            let ms = Duration::from_millis;
            let record = FrameRecord {
                start: ms(10 * k),
                game_before: ms(if k == 5 { 40 } else { 10 * k }),
                game_shown: ms(10 * k),
                time_scale: 1.0,
                presented: Some(ms(10 * k + 4)),
                ..FrameRecord::default()
            };
            readouts.live.presented(&record, Strategy::Variable);
        }
        let facts = WindowFacts {
            cpu_percent: Some(97.0),
            ..WindowFacts::offscreen(wgpu::PresentMode::Immediate)
        };
        let inputs = FrameInputs::new(s, &knobs, plan, &readouts, &facts);
        let transform = ViewTransform::new(crate::world::WORLD_SIZE, 1280, 720);
        check(&overlay_model(&inputs, None, &[], transform))
    }

    #[test]
    fn rows_show_the_plan_and_knobs() {
        let mut s = session(Strategy::Interpolated);
        let plan = run(&mut s, Duration::from_millis(7), 30);
        let rows = with_model(&s, &plan, status_rows);
        let get = |k: &str| rows.iter().find(|(l, _)| *l == k).unwrap().1.clone();
        assert!(get("this frame").ends_with(&format!("alpha {:.2}", plan.view.alpha())));
        assert!(get("FPS / UPS").contains("(target 60)"));
        assert_eq!(get("anim. err ms"), "2.0 mean, 10.0 p99, 20% >2ms");
        assert_eq!(get("picture lag ms"), "4.9 mean, 14.0 p99");
        assert!(get("present").starts_with("immediate, vsync off, cap off\n2 in flight"));
        assert_eq!(get("process CPU"), "97% of a core");
        assert_eq!(get("max updates"), "10 a frame");
        assert_eq!(get("ship delay"), "steer with the arrows");
        // No limit reads as one: not "unlimited a frame".
        s.set_settings(s.settings().clone().with_max_updates(None).unwrap());
        let rows = with_model(&s, &plan, status_rows);
        let limit = rows.iter().find(|(l, _)| *l == "max updates").unwrap();
        assert_eq!(limit.1, "unlimited");
    }

    #[test]
    fn captions_carry_each_demonstrations_figure() {
        let mut s = session(Strategy::Variable);
        let plan = run(&mut s, Duration::from_millis(7), 30);
        let captions = with_model(&s, &plan, captions);
        let text = |r: Region| captions.iter().find(|(x, _)| *x == r).unwrap().1.clone();
        assert!(text(LAYOUT.stream).starts_with("bullet stream: 10 bullets"));
        assert!(text(LAYOUT.balls).contains("energy drift"));
        let since = s.since_chosen();
        assert!(since.darts > 0);
        assert!(text(LAYOUT.wall).contains(&format!(
            "{} of {} darts went through since the start ({:.0} s)",
            since.tunnels,
            since.darts,
            since.game.as_secs_f64().floor()
        )));
        assert!(text(LAYOUT.metronome).contains("wall clock"));
    }

    #[test]
    fn the_metronome_says_how_much_of_its_gap_hitches_dropped() {
        let mut s = session(Strategy::CatchUp);
        let plan = run(&mut s, Duration::from_millis(10), 30);
        let metronome = |s: &Session, plan: &FramePlan| {
            let captions = with_model(s, plan, captions);
            captions
                .into_iter()
                .find(|(r, _)| *r == LAYOUT.metronome)
                .unwrap()
                .1
        };
        let before = metronome(&s, &plan);
        assert!(!before.contains("hitches"), "{before}");
        // A 1.25 s hitch: the stall clamp lets 250 ms of it through, the rest is dropped.
        let later = plan.now + Duration::from_millis(1250);
        let plan = s.frame(later, |_, _| {});
        assert_eq!(s.hitches(), Duration::from_secs(1));
        let text = metronome(&s, &plan);
        // The rest of the gap: the update limit's drop and the lag not yet simulated.
        assert!(
            text.ends_with(
                "game 1100 ms behind the wall clock since the start (1000 ms of it dropped in \
                 hitches)"
            ),
            "{text}"
        );
    }

    #[test]
    fn the_last_frames_parts_add_up_to_it() {
        let us = Duration::from_micros;
        let record = FrameRecord {
            waited: us(18_350),
            start: us(100_000),
            update_time: us(20),
            presented: Some(us(128_210)),
            ..FrameRecord::default()
        };
        // 18.35 ms asleep, then 28.21 ms from the frame's start to its present.
        assert_eq!(words::last_frame_text(&record), "18.4 + 0.0 + 28.2 = 46.6");
        assert_eq!(words::last_frame_text(&FrameRecord::default()), "-");
    }

    #[test]
    fn vsync_says_when_the_display_does_not_pace() {
        let said = |asked, fps, hz| {
            let (words, why) = words::vsync_text(asked, fps, hz);
            format!("{words}{why}")
        };
        // Xvfb: vsync asked, 165 FPS against a refresh measured at 29.5 Hz.
        assert_eq!(
            said(true, 165.0, Some(29.5)),
            "vsync asked\nbut this display does not pace:\n165 FPS on a 29.5 Hz display"
        );
        // No refresh measured: presents that wait for a display measure it, so frames
        // faster than 72 a second with none measured are not paced either.
        assert_eq!(
            said(true, 94.4, None),
            "vsync asked\nbut the presents keep no\nrefresh grid: 94 FPS"
        );
        // Paced: at the refresh, or below it.
        assert_eq!(said(true, 60.2, Some(60.0)), "vsync on");
        assert_eq!(said(true, 20.0, Some(60.0)), "vsync on");
        assert_eq!(said(true, 59.0, None), "vsync on");
        assert_eq!(said(false, 500.0, Some(60.0)), "vsync off");
    }

    #[test]
    fn the_graph_scales_to_its_longest_frame() {
        assert_eq!(graph_scale_ms(Duration::from_millis(16)), 25.0);
        assert_eq!(graph_scale_ms(Duration::from_millis(80)), 100.0);
        assert_eq!(graph_scale_ms(Duration::from_millis(1200)), 2000.0);
        assert_eq!(graph_scale_ms(Duration::from_secs(9)), 2000.0);
    }

    #[test]
    fn bars_turn_red_at_the_update_limit() {
        assert_eq!(bar_colour(10, Some(10)), Color32::from_rgb(235, 70, 60));
        assert_eq!(bar_colour(0, Some(10)), Color32::from_gray(110));
        assert_ne!(bar_colour(3, None), bar_colour(10, Some(10)));
    }
}
