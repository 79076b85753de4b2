//! The demo driven as the driver drives it, with a manual clock and no window: keys in,
//! frames run, pictures reported presented.

use crate::session::present::PresentMode;
use std::time::Duration;

use looplab_timing::{LoopSettings, ManualClock, Strategy};
use winit::keyboard::KeyCode;

use super::{Demo, DemoSetup, Requests};
use crate::app::controls::Knobs;
use crate::app::overlay::{PacedBy, WindowFacts};
use crate::app::stats::{RunEnd, WindowReport, WindowSystem};
use crate::world::WorldConfig;

fn demo(tour: bool) -> Demo {
    demo_in(tour, false)
}

fn demo_in(tour: bool, in_a_page: bool) -> Demo {
    Demo::new(setup(tour, in_a_page))
}

fn setup(tour: bool, in_a_page: bool) -> DemoSetup {
    DemoSetup {
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
        embedded: None,
        in_a_page,
        keep_frames: false,
        keep_trace: false,
    }
}

fn facts() -> WindowFacts {
    WindowFacts {
        present_mode: wgpu::PresentMode::Fifo,
        frame_latency: 2,
        just_in_time: None,
        paced_by: PacedBy::Loop,
        hidden_note: None,
        cpu_percent: None,
        adapter: "test".into(),
        refresh_hz: None,
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
        window_system: WindowSystem::X11,
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

/// What a person sees at a tour stop on one frame: the panel's standing and the captions.
struct Seen {
    status: crate::tour::StopStatus,
    captions: Vec<(crate::world::layout::Region, String)>,
}

/// One frame of a machine whose frames take 1 ms plus the simulated costs, its loop
/// sleeping to its wake time: input, updates, picture, present; what was on screen.
fn seen_frame(d: &mut Demo, clock: &mut ManualClock) -> Seen {
    use crate::app::compose::overlay_model;
    use crate::app::overlay::captions;
    use crate::render::shapes::ViewTransform;
    d.apply_input(clock.now());
    let mut frame = d.run_updates(clock, None);
    clock.advance(Duration::from_millis(1) + d.knobs().render_cost + d.knobs().update_cost);
    d.prepare_draw(clock);
    let captions = d.with_frame_inputs(&frame.plan, &facts(), clock.now(), |inputs| {
        let transform = ViewTransform::new(crate::world::WORLD_SIZE, 1280, 720);
        captions(&overlay_model(inputs, None, &[], transform))
    });
    d.presented(clock, &frame.plan, &mut frame.record);
    d.finish_frame(&frame.record, clock.now());
    if let looplab_timing::Wake::At(t) = frame.plan.wake {
        clock.advance_to(t);
    }
    Seen {
        status: d.touring.as_ref().unwrap().status.clone(),
        captions,
    }
}

/// The caption of `region`.
fn caption(seen: &Seen, region: crate::world::layout::Region) -> &str {
    &seen.captions.iter().find(|(r, _)| *r == region).unwrap().1
}

/// A tour walked by Enter to the stop `id`.
fn at_stop(id: &str, clock: &mut ManualClock) -> Demo {
    let mut d = demo(true);
    seen_frame(&mut d, clock);
    while d.touring.as_ref().unwrap().tour.stop().unwrap().id != id {
        d.input().key(KeyCode::Enter, true, false, clock.now());
        seen_frame(&mut d, clock);
    }
    d
}

/// Runs frames until the stop's hint, tried, shows; `each` acts before every frame.
fn until_tried(
    d: &mut Demo,
    clock: &mut ManualClock,
    mut each: impl FnMut(&mut Demo, Duration),
) -> Seen {
    use crate::tour::StopStatus;
    for _ in 0..2000 {
        each(d, clock.now());
        let seen = seen_frame(d, clock);
        match &seen.status {
            StopStatus::Tried(..) => return seen,
            StopStatus::NotSeen(why) => panic!("{why}"),
            _ => {}
        }
    }
    panic!("the try never showed");
}

#[test]
fn a_verdict_and_the_captions_beside_it_count_over_the_same_time() {
    use crate::tour::StopStatus;
    use crate::world::layout::LAYOUT;
    let ms = Duration::from_millis;
    let press = |d: &mut Demo, code: KeyCode, shift: bool, at: Duration| {
        d.input().key_with_shift(code, shift, true, at);
    };

    // The nap on a weak GPU: the game falls behind for a second, then Shift+R three times
    // and it keeps to real time. The metronome's caption counts from the keys too: the
    // second lost before them is not set beside "keeps to real time".
    let mut clock = ManualClock::new();
    let mut d = at_stop("a-nap-on-a-weak-gpu", &mut clock);
    let began = clock.now();
    while clock.now() < began + ms(1000) {
        seen_frame(&mut d, &mut clock);
    }
    for _ in 0..3 {
        press(&mut d, KeyCode::KeyR, true, clock.now());
    }
    let keys = clock.now();
    let seen = until_tried(&mut d, &mut clock, |_, _| {});
    let StopStatus::Tried(_, figure) = &seen.status else {
        unreachable!()
    };
    assert!(figure.contains("keeps to real time"), "{figure}");
    let metronome = caption(&seen, LAYOUT.metronome);
    let gap_ms: f64 = metronome
        .split("): game ")
        .nth(1)
        .and_then(|s| s.split(" ms").next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{metronome}"));
    let window_ms = (clock.now() - keys).as_secs_f64() * 1e3;
    assert!(
        metronome.contains("since your keys") && gap_ms <= 0.05 * window_ms + 17.0,
        "{figure} beside {metronome:?} after {window_ms:.0} ms"
    );

    // One giant step: darts go through the thin wall on a weak GPU; after Shift+R three
    // times the verdict's "none went through" and the wall's caption count the same darts.
    let mut clock = ManualClock::new();
    let mut d = at_stop("one-giant-step", &mut clock);
    let began = clock.now();
    while clock.now() < began + ms(3000) {
        seen_frame(&mut d, &mut clock);
    }
    let before = caption(&seen_frame(&mut d, &mut clock), LAYOUT.wall).to_string();
    assert!(
        !before.contains(" 0 of"),
        "darts went through on the weak GPU: {before}"
    );
    for _ in 0..3 {
        press(&mut d, KeyCode::KeyR, true, clock.now());
    }
    let seen = until_tried(&mut d, &mut clock, |_, _| {});
    let StopStatus::Tried(_, figure) = &seen.status else {
        unreachable!()
    };
    let wall = caption(&seen, LAYOUT.wall);
    let darts: u64 = figure.split(' ').next().unwrap().parse().unwrap();
    let counted: Vec<u64> = wall
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(
        wall.contains("since your keys") && counted[0] == 0 && counted[1].abs_diff(darts) <= 1,
        "{figure} beside {wall:?}"
    );

    // Taps lost between ticks: taps before I, then I and more taps. "All 4 taps reached
    // the game" stands beside the stream's count of the same taps.
    let mut clock = ManualClock::new();
    let mut d = at_stop("taps-lost", &mut clock);
    let tap = |d: &mut Demo, at: Duration, held: &mut bool| {
        // A quick tap every 370 ms: down, and up 5 ms later (between two 10 Hz updates).
        if *held {
            d.input().key(KeyCode::ArrowRight, false, false, at + ms(5));
            *held = false;
        } else if at.as_millis() % 370 < 17 {
            d.input().key(KeyCode::ArrowRight, true, false, at);
            *held = true;
        }
    };
    let mut k = false;
    let began = clock.now();
    while clock.now() < began + ms(3000) {
        let now = clock.now();
        tap(&mut d, now, &mut k);
        seen_frame(&mut d, &mut clock);
    }
    press(&mut d, KeyCode::KeyI, false, clock.now());
    let seen = until_tried(&mut d, &mut clock, |d, now| tap(d, now, &mut k));
    let StopStatus::Tried(_, figure) = &seen.status else {
        unreachable!()
    };
    let stream = caption(&seen, LAYOUT.stream);
    let taps: u64 = figure.split(' ').nth(1).unwrap().parse().unwrap();
    assert!(
        stream.contains(&format!(
            ", {taps} taps since your keys, {taps} reached the game"
        )),
        "{figure} beside {stream:?}"
    );
}

#[test]
fn the_tours_invitation_stays_until_the_first_key() {
    let mut d = demo(false);
    let mut clock = ManualClock::new();
    let invited = |d: &mut Demo, clock: &ManualClock| {
        frame(d, clock);
        let plan = d.run_updates(clock, None).plan;
        d.with_frame_inputs(&plan, &facts(), clock.now(), |inputs| inputs.invite)
    };
    assert!(invited(&mut d, &clock));
    // A minute of reading the screen, no key: still there.
    clock.advance(Duration::from_secs(60));
    assert!(invited(&mut d, &clock));
    // Any key (here T, the timeline) is a person who has found the keys: gone.
    d.input().key(KeyCode::KeyT, true, false, clock.now());
    assert!(!invited(&mut d, &clock));
}

#[test]
fn a_stop_that_asks_shows_two_lanes_unnamed_and_counts_the_answer_against_the_figures() {
    use crate::app::lanes_view::caption_of;
    use crate::lab::compare::Preset;
    use crate::tour::StopStatus;
    let mut clock = ManualClock::new();
    let mut d = at_stop("stuck-in-the-middle", &mut clock);
    let blind = d.touring.as_ref().unwrap().tour.asking().expect("it asks");
    for _ in 0..3 {
        seen_frame(&mut d, &mut clock);
    }
    let compare = d.compare.as_ref().expect("the pair runs as lanes");
    assert_eq!(compare.preset, Preset::Blind(blind));
    for (i, letter) in ["A", "B"].into_iter().enumerate() {
        let caption = caption_of(compare, i, clock.now(), 900.0);
        assert!(caption.starts_with(letter), "{caption}");
        for name in ["catch-up", "interpolated", "vsync", "FPS", "UPS"] {
            assert!(
                !caption.contains(name),
                "lane {letter} is unnamed: {caption}"
            );
        }
    }
    // The claim's time does not run while the person looks: past the stop's limit, it
    // still waits for the answer.
    let until = clock.now() + Duration::from_secs(12);
    while clock.now() < until {
        assert_eq!(seen_frame(&mut d, &mut clock).status, StopStatus::Watching);
    }
    d.input().key(KeyCode::KeyB, true, false, clock.now());
    seen_frame(&mut d, &mut clock);
    let touring = d.touring.as_ref().unwrap();
    assert_eq!(touring.tour.asking(), None);
    assert_eq!(
        d.compare.as_ref().map(|c| c.preset),
        None,
        "the stop's own view"
    );
    assert!(!d.knobs().everything);
    let panel = touring.tour.panel(&touring.status).unwrap();
    let felt = panel.felt.expect("the lanes named");
    assert!(
        felt.contains("you chose B") && felt.contains("interpolated"),
        "{felt}"
    );
    // Interpolation's animation error is the smaller one, wherever it was shown.
    let report = d.tour_report().unwrap();
    let stop = report.stops.iter().find(|s| s.id == "stuck-in-the-middle");
    let feel = stop
        .and_then(|s| s.feel.clone())
        .expect("the answer in --stats");
    assert!(feel.answered);
    assert_eq!(feel.chose.as_deref(), Some("B"));
    let b_is_interpolation = blind.refined() == 1;
    assert_eq!(feel.agreed_with_figures, Some(b_is_interpolation), "{felt}");
    // Then the stop's own claim is watched for, and comes true.
    let seen = (0..2000).find_map(|_| match seen_frame(&mut d, &mut clock).status {
        StopStatus::Seen(..) => Some(()),
        StopStatus::NotSeen(why) => panic!("{why}"),
        _ => None,
    });
    assert!(seen.is_some(), "the claim after the answer");
    // A stop that asked and was left by Enter counts as unanswered; A answers, and does
    // not take the whole screen.
    let mut d = at_stop("render-tick", &mut clock);
    seen_frame(&mut d, &mut clock);
    d.input().key(KeyCode::Enter, true, false, clock.now());
    seen_frame(&mut d, &mut clock);
    let report = d.tour_report().unwrap();
    let skipped = report.stops.iter().find(|s| s.id == "render-tick").unwrap();
    let feel = skipped.feel.clone().unwrap();
    assert!(!feel.answered && feel.chose.is_none() && feel.agreed_with_figures.is_none());
    let mut d = at_stop("frames-in-flight", &mut clock);
    seen_frame(&mut d, &mut clock);
    d.input().key(KeyCode::KeyA, true, false, clock.now());
    seen_frame(&mut d, &mut clock);
    assert!(!d.knobs().everything, "A answered");
    let report = d.tour_report().unwrap();
    let answered = report
        .stops
        .iter()
        .find(|s| s.id == "frames-in-flight")
        .unwrap();
    assert_eq!(answered.feel.as_ref().unwrap().chose.as_deref(), Some("A"));
}

/// A page's demo opened as the book's embedded view of the stop `id`, with `knobs`.
fn embedded_on(id: &str, knobs: Knobs) -> Demo {
    let at = crate::tour::stops::for_a_page()
        .iter()
        .position(|s| s.id == id)
        .unwrap();
    Demo::new(DemoSetup {
        embedded: Some(at),
        knobs,
        ..setup(false, true)
    })
}

#[test]
fn an_embedded_view_opens_on_its_stop_framed_with_the_stops_rows_for_the_book() {
    let mut d = embedded_on("a-nap-on-a-weak-gpu", Knobs::default());
    let clock = ManualClock::new();
    frame(&mut d, &clock);
    let stop = d.tour_stop().expect("on the tour").0.clone();
    assert_eq!(stop.id, "a-nap-on-a-weak-gpu");
    assert!(d.framed());
    assert_eq!(d.knobs().render_cost, Duration::from_millis(40));
    // The frame is framed on the stop's region, and its rows are handed over, not drawn.
    let mut composer = crate::app::compose::Composer::headless();
    let mut next = d.run_updates(&clock, None);
    let rows = d.with_frame_inputs(&next.plan, &facts(), clock.now(), |inputs| {
        composer
            .compose(inputs, None, (480, 160))
            .words
            .map(|w| w.figures.rows)
    });
    let labels: Vec<&str> = rows.unwrap().iter().map(|(label, _)| *label).collect();
    assert_eq!(labels, stop.rows);
    d.presented(&clock, &next.plan, &mut next.record);
    let lesson = crate::app::lessons::now(&d, &Default::default()).unwrap();
    assert_eq!(lesson.id, "a-nap-on-a-weak-gpu");
    assert!(lesson.code.is_some() && lesson.asking.is_none());
    // Off the tour (End), nothing is framed and there is no lesson.
    d.input().key(KeyCode::End, true, false, clock.now());
    frame(&mut d, &clock);
    assert!(d.tour_stop().is_none());
    assert!(crate::app::lessons::now(&d, &Default::default()).is_none());
}

#[test]
fn an_embedded_view_that_asks_frames_the_questions_lanes_and_hands_their_captions_over() {
    // As the page's address `embed=` sets it up: no overlay (the book shows the words).
    let knobs = Knobs {
        overlay: false,
        ..Knobs::default()
    };
    let mut d = embedded_on("stuck-in-the-middle", knobs);
    let clock = ManualClock::new();
    frame(&mut d, &clock);
    assert_eq!(
        d.lanes_shown(),
        Some(2),
        "it opens on the question's two lanes"
    );
    let mut composer = crate::app::compose::Composer::headless();
    let next = d.run_updates(&clock, None);
    let figures = d
        .with_frame_inputs(&next.plan, &facts(), clock.now(), |inputs| {
            composer
                .compose(inputs, None, (720, 240))
                .words
                .map(|w| w.figures)
        })
        .unwrap();
    // The lanes' captions, unnamed, and none of the stop's rows (they would name a lane).
    assert!(figures.rows.is_empty(), "{figures:?}");
    assert_eq!(figures.lanes.len(), 2);
    assert!(figures.lanes[0].starts_with('A') && figures.lanes[1].starts_with('B'));
    let lesson = crate::app::lessons::now(&d, &figures).unwrap();
    assert!(lesson.asking.is_some() && lesson.code.is_none());
    assert_eq!(
        lesson.which_is_which,
        Some("A is the left lane, B the right")
    );
    // Framed on the two tiles: as wide as the lanes' area, no taller than the tiles (the
    // world around them is not framed with them).
    let tiles = crate::render::lanes::lane_tiles(2, false);
    let framed = crate::app::overlay::framed_region(lesson_focus(&d), Some(2), false);
    assert_eq!(framed.min.x, tiles[0].min.x);
    assert_eq!(framed.max.x, tiles[1].max.x);
    assert!(
        framed.size().y <= tiles[0].size().y + 1e-3,
        "{framed:?} {tiles:?}"
    );
    let size = framed.size();
    assert!((lesson.aspect - size.x / size.y).abs() < 1e-4);
    let card = crate::app::lessons::catalogue()
        .into_iter()
        .find(|c| c.id == "stuck-in-the-middle")
        .unwrap();
    assert_eq!(
        card.aspect, lesson.aspect,
        "the view opens in the shape it runs in"
    );
}

fn lesson_focus(d: &Demo) -> crate::tour::Focus {
    d.tour_stop().unwrap().0.focus
}
