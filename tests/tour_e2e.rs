//! The guided tour in the real window under Xvfb, walked by keys as a person walks it: every
//! stop in turn, on to the next once its claim is seen (or its time is up), a screenshot of
//! each with the stop's heading on screen, and `--stats` saying which stops were visited
//! and which claims were seen to come true.
//!
//! `LOOPLAB_TOUR_SHOTS=DIR` keeps the screenshots there, to look at.

mod support;

use std::time::{Duration, Instant};

use looplab::app::stats::SlowFramesReport;
use looplab::lab::blind::Question;
use looplab::session::frame::FrameRecord;
use looplab::tour::{Person, stops};
use support::{App, Scratch, Xvfb, frame_log, stats};

/// Stops whose claim this display cannot show: Xvfb has no vertical blank, so vsync does
/// not pace its presents (the stop says so on screen when its time is up).
const NOT_ON_XVFB: [&str; 1] = ["who-owns-the-loop"];

#[test]
fn every_stop_of_the_tour_is_walked_by_keys_and_seen_on_screen() {
    let _one = support::one_at_a_time();
    // The stops' claims need frames drawn within a step or so (each stop's `Need`): a light
    // scene (100 bullets in a 960 by 540 window: lavapipe's cost grows with the pixels it
    // fills, and drew the same frames in 5.9 ms at the median, against 8.8 ms at 1280 by
    // 720), and the app and its X server run ahead of other processes (nice -10, where
    // allowed), so a busy process beside them does not make the stops too slow.
    let xvfb = Xvfb::start();
    xvfb.ahead();
    let scratch = Scratch::new("tour");
    let stats_path = scratch.path("stats.json");
    let log_path = scratch.path("frames.json");
    let keep = std::env::var_os("LOOPLAB_TOUR_SHOTS").map(std::path::PathBuf::from);
    let stops = stops::stops();
    let app = App::start_ahead(
        &xvfb,
        &scratch,
        "--tour --vsync off --cap 60 --bullets 100 --size 960x540 --exit-after 600",
        &[("--stats", &stats_path), ("--frame-log", &log_path)],
    );
    xvfb.wait_for_window();
    let mut report = Vec::new();
    let mut tried = Vec::new();
    for (i, stop) in stops.iter().enumerate() {
        // A stop that asks first shows two lanes unnamed: look a while (steering, where it
        // asks which answers sooner), then answer B; its claim is watched from then.
        if let Some(pair) = stop.feel {
            for n in 0..8 {
                if pair.question() == Question::Sooner {
                    xvfb.keys(&[if n % 2 == 0 { "Right" } else { "Left" }]);
                }
                std::thread::sleep(Duration::from_millis(370));
            }
            let shot = scratch.path(&format!("stop-{:02}-{}-asked.png", i + 1, stop.id));
            xvfb.screenshot(&shot);
            if let Some(dir) = &keep {
                std::fs::create_dir_all(dir).unwrap();
                std::fs::copy(&shot, dir.join(shot.file_name().unwrap())).unwrap();
            }
            xvfb.keys(&["b"]);
            let answered = format!("tour: {}: you chose B", stop.id);
            assert!(
                app.wait_for_lines(&[&answered], 1, Duration::from_secs(5)),
                "stop {}: the answer taken\n{}",
                stop.id,
                app.log()
            );
        }
        let began = Instant::now();
        let ends = [
            format!("tour: {} seen after", stop.id),
            format!("tour: {} not seen in time", stop.id),
        ];
        let ends: Vec<&str> = ends.iter().map(String::as_str).collect();
        let limit = stop.limit + Duration::from_secs(5);
        let ended = match stop.person {
            Person::Watches => app.wait_for_lines(&ends, 1, limit),
            // Quick taps of the arrows, right then left, until the claim is seen.
            Person::TapsArrows => (0..)
                .map(|n| {
                    xvfb.keys(&[if n % 2 == 0 { "Right" } else { "Left" }]);
                    app.wait_for_lines(&ends, 1, Duration::from_millis(370))
                })
                .find(|&ended| ended || began.elapsed() > limit)
                .unwrap_or(false),
        };
        assert!(
            ended,
            "stop {}: neither seen nor given up\n{}",
            stop.id,
            app.log()
        );
        // The panel says how the stop stood from the next frame on.
        std::thread::sleep(Duration::from_millis(400));
        let shot = scratch.path(&format!("stop-{:02}-{}.png", i + 1, stop.id));
        xvfb.screenshot(&shot);
        if let Some(dir) = &keep {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::copy(&shot, dir.join(shot.file_name().unwrap())).unwrap();
        }
        let picture = looplab_headless::Image::read_png(&shot).unwrap();
        // The stop's heading, in gold, leads the panel.
        let gold = picture.count((16, 16, 316, 36), [255, 210, 90], 40);
        report.push((stop.id, gold));
        // The hint's keys, pressed as it names them: what it promises must show.
        if let Some(tries) = stop.tries.filter(|_| !NOT_ON_XVFB.contains(&stop.id)) {
            let keys: Vec<String> = tries.keys.iter().map(|k| xdotool_name(k)).collect();
            for key in &keys {
                xvfb.keys(&[key.as_str()]);
            }
            let shown = format!("tour: {} tried, and", stop.id);
            let missed = format!("tour: {} tried, not seen in time", stop.id);
            let began = Instant::now();
            (0..)
                .map(|n| {
                    if stop.person == Person::TapsArrows {
                        xvfb.keys(&[if n % 2 == 0 { "Right" } else { "Left" }]);
                    }
                    app.wait_for_lines(&[&shown, &missed], 1, Duration::from_millis(370))
                })
                .find(|&ended| ended || began.elapsed() > limit);
            // Not shown is a failure unless the frames measured this machine too slow for
            // it (as a claim may be: the try's need of the machine unmet).
            let log = app.log();
            let said = log
                .lines()
                .find(|l| l.contains(&shown) || l.contains(&missed));
            let outcome = match said {
                Some(l) if l.contains(&shown) => Tried::Shown,
                Some(l) if l.contains("this machine was too slow") => Tried::TooSlow,
                _ => Tried::NotShown,
            };
            tried.push((stop.id, keys.join(" "), outcome));
        }
        if i + 1 < stops.len() {
            xvfb.keys(&["Return"]);
        }
    }
    // Enter at the last stop says the tour is over; End gives back what the tour found.
    xvfb.keys(&["Return"]);
    assert!(
        app.wait_for_lines(&["tour: that was the last stop"], 1, Duration::from_secs(5)),
        "{}",
        app.log()
    );
    xvfb.keys(&["End"]);
    assert!(
        app.wait_for_lines(
            &["tour: left; your settings are back (interpolated"],
            1,
            Duration::from_secs(5)
        ),
        "{}",
        app.log()
    );
    xvfb.close_with("Escape");
    let log = app.finish(Duration::from_secs(60));
    for (id, keys, outcome) in &tried {
        eprintln!("{id:<24} pressed {keys:<18} {outcome:?}");
    }
    let not_shown: Vec<_> = tried.iter().filter(|t| t.2 == Tried::NotShown).collect();
    assert!(
        tried.len() >= 8 && not_shown.is_empty(),
        "a hint's keys did not show what it promises: {not_shown:?}\n{log}"
    );
    assert!(
        report.iter().all(|&(_, gold)| gold > 30),
        "each stop's heading on screen: {report:?}"
    );
    let tour = stats(&stats_path).tour.expect("the tour was taken");
    let visited: Vec<&str> = tour.stops.iter().map(|s| s.id.as_str()).collect();
    let all: Vec<&str> = stops.iter().map(|s| s.id).collect();
    assert_eq!(visited, all, "{log}");
    // A claim not seen is a failure, unless this display cannot show it or the stop measured
    // this machine too slow for it (its need of the machine unmet: a busy machine drawing a
    // frame in more than a step cannot keep a fixed-sleep game in time, and the stop says so).
    let mut missed = Vec::new();
    for stop in &tour.stops {
        match (stop.seen_after_s, &stop.seen, &stop.missed) {
            (Some(after), Some(figure), _) => {
                eprintln!("{:<24} seen after {after:>4.1} s: {figure}", stop.id)
            }
            (_, _, why) => {
                let why = why.as_deref().unwrap_or("left before its time ran out");
                eprintln!("{:<24} not seen: {why}", stop.id);
                if !stop.too_slow && !NOT_ON_XVFB.contains(&stop.id.as_str()) {
                    missed.push(stop.id.clone());
                }
            }
        }
    }
    assert!(missed.is_empty(), "claims not seen: {missed:?}\n{log}");
    // "Too slow" excuses a claim or a try only where the frame log says so too, and once a
    // run at most: the tour's scene is light enough for this machine kind, so a second is
    // the tour failing, not the machine.
    let frames = frame_log(&log_path).frames;
    let excused: Vec<(&str, &SlowFramesReport)> = tour
        .stops
        .iter()
        .flat_map(|s| {
            [s.too_slow_on.as_ref(), s.tried_too_slow_on.as_ref()]
                .into_iter()
                .flatten()
                .map(|j| (s.id.as_str(), j))
        })
        .collect();
    assert_eq!(
        excused.len(),
        tried.iter().filter(|t| t.2 == Tried::TooSlow).count()
            + tour.stops.iter().filter(|s| s.too_slow).count(),
        "every excuse said is in --stats with its frames"
    );
    for (id, judged) in &excused {
        let (frames_logged, over, overrun_ms) = slow_frames(&frames, judged);
        eprintln!(
            "{id}: judged too slow on {judged:?}; the frame log: {over} of {frames_logged} \
             over, {overrun_ms:.0} ms in all"
        );
        assert!(
            frames_logged.abs_diff(judged.frames) * 20 <= judged.frames,
            "{id}: the frame log has {frames_logged} frames where the stop counted {}",
            judged.frames
        );
        assert!(
            over * 10 >= frames_logged || overrun_ms >= 50.0,
            "{id}: judged too slow, but the frame log has {over} of {frames_logged} frames \
             over {:.1} ms ({overrun_ms:.0} ms in all)",
            judged.within_ms
        );
    }
    // Once a run at most, on a machine that drew the tour's frames as the scene is sized
    // for: their median start-to-present within two-thirds of the tightest need (10 of
    // 15 ms). This machine kind's speed swings by twice within an hour (lavapipe's present
    // of the same frame took 5 ms, then 11), and on a slow hour every stop that needs
    // speed is truly too slow: then each excuse is still held to the frame log above, and
    // the run says how slow the machine was.
    let mut drawn: Vec<f64> = frames
        .iter()
        .filter_map(|f| f.start_to_present().map(|d| d.as_secs_f64() * 1e3))
        .collect();
    drawn.sort_by(f64::total_cmp);
    let median_drawn = drawn[drawn.len() / 2];
    eprintln!(
        "the tour's frames drawn in {median_drawn:.1} ms at the median; {} excused",
        excused.len()
    );
    assert!(
        excused.len() <= 1,
        "more than one stop excused as too slow, frames drawn in {median_drawn:.1} ms at the \
         median: {excused:?}"
    );
    // Each stop that asked has its answer, and its lanes' figures told them apart.
    let felt: Vec<_> = tour.stops.iter().filter_map(|s| s.feel.as_ref()).collect();
    assert_eq!(
        felt.len(),
        stops.iter().filter(|s| s.feel.is_some()).count()
    );
    for feel in felt {
        eprintln!("{feel:?}");
        assert!(
            feel.answered && feel.chose.as_deref() == Some("B"),
            "{feel:?}"
        );
        assert!(feel.agreed_with_figures.is_some(), "{feel:?}");
    }
}

/// The frames of the log that `judged` counted, those presented from its first to its
/// last, each taken from the picture before less the loop's own sleep before it (the first
/// from its own start): how many, how many took longer than its need, and by how much in
/// all, ms.
fn slow_frames(frames: &[FrameRecord], judged: &SlowFramesReport) -> (u32, u32, f64) {
    let shown: Vec<(&FrameRecord, f64)> = frames
        .iter()
        .filter_map(|f| Some((f, f.presented?.as_secs_f64())))
        .collect();
    let (first, last) = (judged.first_s - 1e-9, judged.last_s + 1e-9);
    let (mut n, mut over, mut overrun) = (0, 0, 0.0);
    for (k, &(f, at)) in shown.iter().enumerate() {
        if !(first..=last).contains(&at) {
            continue;
        }
        let took = match k.checked_sub(1).map(|j| shown[j].1) {
            Some(before) if before >= first => at - before - f.waited.as_secs_f64(),
            _ => at - f.start.as_secs_f64(),
        } * 1e3;
        n += 1;
        if took > judged.within_ms {
            over += 1;
            overrun += took - judged.within_ms;
        }
    }
    (n, over, overrun)
}

/// A key as the help names it (`Shift+R`, `M`, `F6`), as xdotool names it.
fn xdotool_name(key: &str) -> String {
    match key.strip_prefix("Shift+") {
        Some(k) => format!("shift+{}", k.to_lowercase()),
        None if key.len() == 1 => key.to_lowercase(),
        None => key.to_string(),
    }
}

/// What pressing a hint's keys showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tried {
    Shown,
    /// Not shown, and the frames measured this machine too slow for it.
    TooSlow,
    NotShown,
}
