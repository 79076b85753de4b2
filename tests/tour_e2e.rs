//! The guided tour in the real window under Xvfb, walked by keys as a person walks it: each
//! stop's panel on screen, and `--stats` saying which stops were visited and which claims
//! were seen to come true.

mod support;

use std::time::Duration;

use support::{App, Scratch, Xvfb, stats};

#[test]
fn the_tour_is_walked_by_keys_and_its_claims_are_seen_on_screen() {
    let xvfb = Xvfb::start();
    let scratch = Scratch::new("tour");
    let stats_path = scratch.path("stats.json");
    let app = App::start(
        &xvfb,
        &scratch,
        "--tour --vsync off --cap 60 --bullets 500 --exit-after 60",
        &[("--stats", &stats_path)],
    );
    xvfb.wait_for_window();
    // The first four stops, five seconds each (their claims come true in one to three
    // seconds headless), a screenshot of each.
    let mut gold_headings = Vec::new();
    for stop in 0..4u64 {
        app.at(Duration::from_secs(3 + 5 * (stop + 1)));
        let shot = scratch.path(&format!("stop-{stop}.png"));
        xvfb.screenshot(&shot);
        let picture = looplab::testkit::Image::read_png(&shot).unwrap();
        // The stop's heading, in gold, leads the panel.
        gold_headings.push(picture.count((16, 16, 316, 36), [255, 210, 90], 40));
        xvfb.keys(&["Return"]);
    }
    xvfb.keys(&["BackSpace", "End", "Escape"]);
    let log = app.finish(Duration::from_secs(90));
    assert!(
        gold_headings.iter().all(|&n| n > 30),
        "each stop's heading on screen: {gold_headings:?}"
    );
    let tour = stats(&stats_path).tour.expect("the tour was taken");
    let ids: Vec<&str> = tour.stops.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "as-fast-as-you-can",
            "a-little-nap",
            "a-nap-on-a-weak-gpu",
            "one-giant-step",
            "fred-and-george"
        ],
        "{log}"
    );
    for stop in &tour.stops[..4] {
        let after = stop
            .seen_after_s
            .unwrap_or_else(|| panic!("{stop:?} not seen\n{log}"));
        assert!(after < 5.0, "{stop:?}");
        eprintln!(
            "{:<22} seen after {after:.1} s: {}",
            stop.id,
            stop.seen.as_deref().unwrap_or("")
        );
    }
}
