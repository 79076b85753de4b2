//! The demo driven as the driver drives it, with a manual clock and no window: keys in,
//! frames run, pictures reported presented.

use crate::session::queue::PresentMode;
use std::time::Duration;

use looplab_timing::{LoopSettings, ManualClock, Strategy};
use winit::keyboard::KeyCode;

use super::{Demo, DemoSetup, Requests};
use crate::app::controls::Knobs;
use crate::app::overlay::{PacedBy, PlatformFacts};
use crate::app::stats::{Platform, RunEnd, WindowReport};
use crate::world::WorldConfig;

fn demo(tour: bool) -> Demo {
    demo_in(tour, false)
}

fn demo_in(tour: bool, in_a_page: bool) -> Demo {
    Demo::new(DemoSetup {
        strategy: Strategy::Interpolated,
        settings: LoopSettings::default(),
        world: WorldConfig {
            seed: 7,
            bullets: 50,
        },
        knobs: Knobs::default(),
        replay: None,
        lanes: Vec::new(),
        tour,
        in_a_page,
        keep_frames: false,
        keep_trace: false,
    })
}

fn facts() -> PlatformFacts {
    PlatformFacts {
        present_mode: wgpu::PresentMode::Fifo,
        frame_latency: 2,
        just_in_time: None,
        paced_by: PacedBy::Loop,
        hidden_note: None,
        cpu_percent: None,
        adapter: "test".into(),
    }
}

/// One frame as the driver runs it at `clock`'s now: input, updates, picture, present.
fn frame(demo: &mut Demo, clock: &ManualClock) -> Requests {
    let requests = demo.apply_input(clock.now());
    let mut frame = demo.run_updates(clock, None);
    demo.prepare_draw(clock);
    let drawn = demo.with_frame_inputs(&frame.plan, &facts(), clock.now(), |inputs| {
        inputs.session.shown().ship.pos
    });
    assert_eq!(drawn, demo.session().shown().ship.pos);
    demo.presented(clock, &frame.plan, &mut frame.record);
    demo.finish_frame(&frame.record, clock.now());
    requests
}

fn window_report() -> WindowReport {
    WindowReport {
        platform: Platform::X11,
        end: RunEnd::Running,
        surface_recoveries: Default::default(),
        gpu_recoveries: 0,
        gpu_errors: 0,
        adapter: None,
        present_mode: None,
        surface_size: None,
        frame_wait: crate::platform::frame_wait::FramePacer::new(
            crate::platform::frame_wait::CapWait::Only(looplab_timing::WaitMode::Precise),
        )
        .report(),
        display: crate::app::display_rate::DisplayRate::new().report(),
        hidden: crate::app::visibility::Visibility::default().report(false),
    }
}

#[test]
fn a_held_arrow_steers_the_ship_over_frames_run_without_a_window() {
    let mut d = demo(false);
    let mut clock = ManualClock::new();
    frame(&mut d, &clock);
    let start = d.session().world().ship.pos;
    d.input().key(KeyCode::ArrowRight, true, false, clock.now());
    for _ in 0..30 {
        clock.advance(Duration::from_millis(16));
        frame(&mut d, &clock);
    }
    let moved = d.session().world().ship.pos - start;
    assert!(moved.x > 10.0, "the ship moved {moved:?}");
    assert!(moved.y.abs() < 1e-3, "the ship moved {moved:?}");
    assert_eq!(d.presented_count(), 31);
    let report = d.stats_report(clock.now(), window_report());
    assert_eq!(report.frames_presented, 31);
    assert_eq!(report.inputs_applied, 1);
    assert_eq!(report.ship.taps.made, 1);
}

#[test]
fn keys_answer_with_what_they_ask_of_the_window() {
    let mut d = demo(false);
    let mut clock = ManualClock::new();
    assert_eq!(frame(&mut d, &clock), Requests::default());
    // Mesa's Wayland surface: mailbox and FIFO only. From immediate (asked for, not
    // offered), V goes to FIFO; Shift+V from 2 frames in flight to 3.
    d.offer_present_modes(vec![PresentMode::Mailbox, PresentMode::Fifo]);
    assert_eq!(
        d.knobs().present,
        PresentMode::Mailbox,
        "the nearest offered"
    );
    d.input().key(KeyCode::KeyV, true, false, clock.now());
    d.input()
        .key_with_shift(KeyCode::KeyV, true, true, clock.now());
    d.input().key(KeyCode::Digit2, true, false, clock.now());
    clock.advance(Duration::from_millis(16));
    let asked = frame(&mut d, &clock);
    assert_eq!(asked.swapchain, Some((PresentMode::Fifo, 3)));
    assert_eq!(d.strategy(), Strategy::FixedSleep);
    assert_eq!(asked.title, Some(d.title()));
    assert!(asked.title.unwrap().contains(Strategy::FixedSleep.id()));
    assert!(!asked.quit);
    d.input().key(KeyCode::Escape, true, false, clock.now());
    assert!(d.apply_input(clock.now()).quit);
}

#[test]
fn the_tour_option_starts_at_the_first_stop_on_the_first_frame() {
    let mut with_tour = demo(true);
    let mut without = demo(false);
    let clock = ManualClock::new();
    let asked = frame(&mut with_tour, &clock);
    frame(&mut without, &clock);
    // The first stop sets the loop up (its strategy named in the title).
    assert!(asked.title.is_some());
    let report = with_tour.stats_report(clock.now(), window_report());
    assert_eq!(report.tour.map(|t| t.stops.len()), Some(1));
    assert!(
        without
            .stats_report(clock.now(), window_report())
            .tour
            .is_none()
    );
}

#[test]
fn leaving_the_tour_gives_back_what_it_found() {
    // A person at 4 (catch-up) with ghosts on takes the tour, walks to Fred and George (a
    // compare stop) and presses End: their strategy, ghosts and the single view come back.
    let mut d = demo(false);
    let clock = ManualClock::new();
    for (code, shift) in [(KeyCode::Digit4, false), (KeyCode::KeyG, false)] {
        d.input().key(code, true, shift, clock.now());
        frame(&mut d, &clock);
    }
    let found = (d.strategy(), d.knobs().ghosts, d.knobs().compare);
    assert_eq!(found, (Strategy::CatchUp, true, None));
    d.input().key(KeyCode::Enter, true, false, clock.now());
    frame(&mut d, &clock);
    while d.knobs().compare.is_none() {
        d.input().key(KeyCode::Enter, true, false, clock.now());
        frame(&mut d, &clock);
    }
    assert_ne!(d.knobs().compare, None, "at a compare stop");
    d.input().key(KeyCode::End, true, false, clock.now());
    frame(&mut d, &clock);
    assert_eq!((d.strategy(), d.knobs().ghosts, d.knobs().compare), found);
}

#[test]
fn a_page_called_seldom_blames_the_browser_not_the_loop() {
    use looplab_timing::Wake;

    use super::Nap;
    use crate::tour::StopStatus;
    // A page's first stop (the nap at 60 UPS) in a browser that calls it back every 100 ms,
    // each frame's work taking 1 ms. The loop's own nap is to its wake time; the rest of
    // each gap is the browser's, and the stop, not seen, says how often the browser called.
    let mut d = demo_in(true, true);
    let mut clock = ManualClock::new();
    let mut ended = clock.now();
    let mut wake = Wake::Immediately;
    for _ in 0..130 {
        let nap = Nap::before(wake, ended, true);
        d.apply_input(clock.now());
        let mut frame = d.run_updates(&clock, nap);
        clock.advance(Duration::from_millis(1));
        d.prepare_draw(&clock);
        d.presented(&clock, &frame.plan, &mut frame.record);
        d.finish_frame(&frame.record, clock.now());
        (ended, wake) = (clock.now(), frame.plan.wake);
        clock.advance(Duration::from_millis(99));
    }
    let touring = d.touring.as_ref().unwrap();
    assert_eq!(touring.tour.stop().unwrap().id, "a-little-nap");
    match &touring.status {
        StopStatus::NotSeen(why) => {
            assert!(
                why.contains("the browser called the page 10 times a second")
                    && why.contains("too slow to show this here")
                    && !why.contains("bug"),
                "{why}"
            );
        }
        other => panic!("{other:?}"),
    }
}
