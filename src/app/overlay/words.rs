//! The overlay's words, as plain functions of the frame's model (tested without a GPU): the
//! panel's rows, the demonstrations' captions with their live figures, and the small
//! formatters they share.

use std::time::Duration;

use looplab_timing::{FramePlan, PredictFrom, Strategy, View};

use super::super::controls::{Knobs, delta_text};
use super::*;
use crate::app::keys::strategy_key;
use crate::app::live_figures::Smoothness;
use crate::session::frame::FrameRecord;
use crate::session::input_delay::InputDelay;
use crate::session::ship_input::{InputMode, Taps};
use crate::text::settings::{Cap, MaxUpdates, format_duration};
use crate::world::layout::{LAYOUT, Region};

/// The overlay's rows: a label and a value each, short enough for the overlay's column.
pub fn status_rows(m: &OverlayModel) -> Vec<(&'static str, String)> {
    let s = m.session.settings();
    let strategy = m.session.planner().strategy();
    let st = &m.summary;
    let ft = &st.frame_time;
    let time_scale = if strategy == Strategy::Uncapped {
        format!("{} (unused)", s.time_scale)
    } else {
        s.time_scale.to_string()
    };
    // A variable step runs one update a frame of whatever length, and uncapped one a
    // frame as fast as it can: neither aims at an update rate.
    let target = if !matches!(strategy, Strategy::Variable | Strategy::Uncapped) {
        format!(" (target {})", trim(s.update_rate.as_hz()))
    } else {
        String::new()
    };
    let mut rows = vec![
        (
            "FPS / UPS",
            format!("{:.1} / {:.1}{target}", st.fps, st.ups),
        ),
        (
            "frame ms",
            format!("{} avg, {} p99, {} max", ms(ft.avg), ms(ft.p99), ms(ft.max)),
        ),
        ("this frame", this_frame_text(m.plan)),
        ("idle upd draw", last_frame_text(m.last)),
        ("game / real", format!("{:.3}", st.ratio)),
        ("anim. err ms", animation_error_text(&m.smoothness)),
        ("picture lag ms", picture_lag_text(&m.smoothness)),
        ("ship delay", steer_delay_text(m.steer_delay)),
        ("present", present_text(m)),
        ("frame deltas", delta_text(&s.delta_mode)),
        ("window", m.facts.hidden_note.clone().unwrap_or_default()),
        (
            "max updates",
            match s.max_updates() {
                Some(_) => format!("{} a frame", MaxUpdates(s.max_updates())),
                None => format!("{}", MaxUpdates(None)),
            },
        ),
        ("time scale", time_scale),
        ("sim. load", load_text(m.knobs)),
        (
            "process CPU",
            m.facts
                .cpu_percent
                .map_or("-".to_string(), |p| format!("{p:.0}% of a core")),
        ),
    ];
    // A page is one of the browser's threads and is told nothing of its CPU time: the row
    // is left out there (the help says so).
    if m.facts.paced_by == PacedBy::Browser {
        rows.retain(|(label, _)| *label != "process CPU");
    }
    // The window's row says only what being hidden did: a window in sight leaves it out.
    rows.retain(|(label, value)| *label != "window" || !value.is_empty());
    rows
}

/// The overlay's rows the panel shows. On the tour, one thing at a time: the rows its stop
/// is about, the rest a key away. (In compare mode the lanes carry the figures, and the
/// window's stay a key away.)
pub(super) fn shown_rows(m: &OverlayModel) -> Vec<(&'static str, String)> {
    let mut rows = status_rows(m);
    let compare = m.knobs.compare.is_some();
    if let Some(tour) = m.tour.filter(|_| !m.knobs.everything || compare) {
        rows.retain(|(label, _)| tour.rows.contains(label));
    } else if m.tour.is_none() && !compare && !m.knobs.everything {
        let focus = focus_row(m.session.planner().strategy());
        rows.retain(|(label, _)| *label == "FPS / UPS" || *label == focus);
    }
    rows
}

/// The row that shows what a strategy is about, which the short panel keeps beside FPS /
/// UPS: the game racing ahead of real time, the nap, the frame's updates, the smoothness
/// that drawing between or ahead of states buys, the render ticks' shorter lag.
pub fn focus_row(strategy: Strategy) -> &'static str {
    match strategy {
        Strategy::Uncapped => "game / real",
        Strategy::FixedSleep => "idle upd draw",
        Strategy::Variable | Strategy::CatchUp => "this frame",
        Strategy::Interpolated | Strategy::Extrapolated => "anim. err ms",
        Strategy::Predicted | Strategy::PredictedKept => "picture lag ms",
    }
}

/// What compare mode's panel says of the figures: where each lane's are, and whether the
/// window's own loop has rows below.
pub(super) fn compare_note(rows_below: bool) -> &'static str {
    if rows_below {
        "each lane's strategy and figures are on its caption; the rows below are the \
         window's own loop's"
    } else {
        "each lane's strategy and figures are on its caption"
    }
}

/// The recent frames' animation error: its mean and 99th percentile size in ms, and the
/// share over 2 ms ([`crate::metrics::animation`]).
fn animation_error_text(s: &Smoothness) -> String {
    let a = &s.animation_error;
    if a.frames == 0 {
        return "-".into();
    }
    // Short enough for the overlay's column at its widest figures ("64.9 mean, 204 p99,
    // 100% >2ms").
    let p99 = if a.p99_abs_ms >= 100.0 {
        format!("{:.0}", a.p99_abs_ms)
    } else {
        format!("{:.1}", a.p99_abs_ms)
    };
    format!(
        "{:.1} mean, {p99} p99, {:.0}% >2ms",
        a.mean_abs_ms,
        a.over_2ms_share * 100.0
    )
}

/// How far the recent pictures were behind the game clock when presented.
fn picture_lag_text(s: &Smoothness) -> String {
    let l = &s.picture_lag;
    if l.frames == 0 {
        return "-".into();
    }
    format!("{:.1} mean, {:.1} p99", l.mean_ms, l.p99_ms)
}

/// What this frame's plan does: its updates and the view drawn.
fn this_frame_text(plan: &FramePlan) -> String {
    match plan.view {
        View::Latest => format!("{} updates, latest state", plan.updates),
        View::Predict { to, from } => format!(
            "{} updates, {} +{} ms",
            plan.updates,
            if from == PredictFrom::Kept {
                "kept copy"
            } else {
                "copy"
            },
            ms_short(to.saturating_sub(plan.simulated))
        ),
        view => format!("{} updates, alpha {:.2}", plan.updates, view.alpha()),
    }
}

/// Where the last presented frame's time went, from the end of the frame before to its
/// present, and that time in parts that add up to it: the loop's own wait, the updates,
/// and the drawing (the overlay, the simulated load, encoding, and the present, which with
/// vsync waits for the display).
pub(super) fn last_frame_text(last: &FrameRecord) -> String {
    let one = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1e3);
    match (last.draw_time(), last.start_to_present()) {
        (Some(draw), Some(frame)) => format!(
            "{} + {} + {} = {}",
            one(last.waited),
            one(last.update_time),
            one(draw),
            one(last.waited + frame),
        ),
        _ => "-".to_string(),
    }
}

/// How frames reach the display: the present mode, vsync and cap, and who paces them.
fn present_text(m: &OverlayModel) -> String {
    let cap = Cap(m.session.settings().frame_cap);
    match m.facts.paced_by {
        // A browser presents at the display's refresh whatever is asked: vsync is not the
        // page's to choose.
        PacedBy::Browser => format!(
            "cap {cap}, paced by the browser\n(requestAnimationFrame){}",
            if m.knobs.just_in_time {
                "\njust in time: not in a page, which cannot\nsleep to start a frame later"
            } else {
                ""
            }
        ),
        paced => {
            let (vsync, why) = vsync_text(m.knobs.vsync(), m.summary.fps, m.facts.refresh_hz);
            let mode = crate::render::gpu::present_mode_words(m.facts.present_mode);
            format!(
                "{mode}, {vsync}, cap {cap}{why}\n{} in flight{}{}",
                m.facts.frame_latency,
                jit_text(m.facts.just_in_time),
                if paced == PacedBy::Compositor {
                    "\npaced by the compositor"
                } else {
                    ""
                },
            )
        }
    }
}

/// What vsync does here: asked for or not, and, where the frames run well above the
/// display's refresh (a display that does not pace, as Xvfb's), that it was asked but does
/// nothing: the row's words, and the lines that say why.
pub fn vsync_text(asked: bool, fps: f64, refresh_hz: Option<f64>) -> (&'static str, String) {
    let not_paced = match refresh_hz {
        Some(hz) if fps > hz * 1.2 => Some(format!(
            "but this display does not pace:\n{fps:.0} FPS on a {hz:.1} Hz display"
        )),
        // Presents that wait for the display lie on its refresh grid, and measure it within
        // a second; frames faster than the commonest display's with none measured do not.
        None if fps > 60.0 * 1.2 => Some(format!(
            "but the presents keep no\nrefresh grid: {fps:.0} FPS"
        )),
        _ => None,
    };
    match (asked, not_paced) {
        (true, Some(why)) => ("vsync asked", format!("\n{why}")),
        (true, None) => ("vsync on", String::new()),
        (false, _) => ("vsync off", String::new()),
    }
}

/// The just-in-time controller's line, while it paces the loop: how long before its
/// refresh a frame starts, and the refreshes it missed.
fn jit_text(jit: Option<JitReadout>) -> String {
    match jit {
        None => String::new(),
        Some(JitReadout { lead: None, .. }) => {
            ", just in time:\nlearning its frames' cost".to_string()
        }
        Some(JitReadout {
            lead: Some(lead),
            missed,
            ..
        }) => format!(
            ", just in time:\nlead {:.1} ms, {missed} missed",
            lead.as_secs_f64() * 1e3
        ),
    }
}

/// The simulated load: the update and render costs, or the capture's frame it is at. As
/// short as the other rows: the panel is no wider than they are.
fn load_text(knobs: &Knobs) -> String {
    let costs = (
        format_duration(knobs.update_cost),
        format_duration(knobs.render_cost),
    );
    match &knobs.capture {
        Some(c) => {
            let (at, of) = c.position();
            let name: String = c.name.chars().take(16).collect();
            if knobs.update_cost.is_zero() && knobs.render_cost.is_zero() {
                format!("{name} frame {at}/{of}")
            } else {
                format!("upd {}, render {} + {name}", costs.0, costs.1)
            }
        }
        None => format!("update {}, render {}", costs.0, costs.1),
    }
}

/// The ship's delay as the overlay says it.
pub fn steer_delay_text(delay: &InputDelay) -> String {
    match (delay.last(), delay.median()) {
        (Some(last), Some(median)) => {
            format!("{} ms last, {} median", ms_short(last), ms_short(median))
        }
        _ => "steer with the arrows".to_string(),
    }
}

/// The taps counted over `window` and what became of them, for the stream's caption:
/// `, 10 taps since the stop began, 10 reached the game` or `, 10 taps ..., 5 lost`; nothing
/// before the first tap.
pub fn taps_text(taps: Taps, window: &str) -> String {
    match taps {
        Taps { made: 0, .. } => String::new(),
        Taps { made, lost: 0, .. } => {
            let reached = taps.reached;
            format!(
                ", {made} {} {window}, {reached} reached the game",
                plural(made, "tap")
            )
        }
        Taps { made, lost, .. } => {
            format!(", {made} {} {window}, {lost} lost", plural(made, "tap"))
        }
    }
}

/// `tap` or `taps`, as `n` says.
fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

fn ms_short(d: Duration) -> String {
    format!("{:.0}", d.as_secs_f64() * 1e3)
}

/// Each demonstration's caption with its live figure, and the region it heads.
pub fn captions(m: &OverlayModel) -> Vec<(Region, String)> {
    let session = m.session;
    let world = session.world();
    // Counted since the loop last changed (a strategy or rate chosen, a tour's stop or a
    // key at one), and said so: the tour's verdict beside them counts from the same moment.
    let since = session.since_chosen();
    let window = since.from.words();
    let over = format!("{window} ({:.0} s)", since.game.as_secs_f64().floor());
    // The wall-clock marker shows `reference`; the metronome is drawn at the frame's view.
    let drawn = FrameRecord::planned(m.plan).drawn_time();
    let gap = drawn.as_secs_f64() - session.reference().as_secs_f64();
    let hitches = session.hitches().as_secs_f64() * 1e3;
    let gap = if gap.abs() < 0.0005 {
        "in step with the wall clock".to_string()
    } else if gap < 0.0 && hitches >= 0.5 {
        format!(
            "game {} ms behind the wall clock {window} ({} ms of it dropped in hitches)",
            trim_ms(-gap * 1e3),
            trim_ms(hitches)
        )
    } else {
        format!(
            "game {} ms {} the wall clock {window}",
            trim_ms(gap.abs() * 1e3),
            if gap < 0.0 { "behind" } else { "ahead of" }
        )
    };
    vec![
        (
            LAYOUT.stream,
            format!(
                "{}bullet stream: {} bullets   ship: arrow keys, {} input, delay {}{}",
                strategy_prefix(m),
                world.bullets.len(),
                match session.ship_keys().mode() {
                    InputMode::Accumulated => "accumulated",
                    InputMode::Sampled => "sampled",
                },
                m.steer_delay
                    .last()
                    .map_or("-".to_string(), |d| format!("{} ms", ms_short(d))),
                taps_text(since.taps, window)
            ),
        ),
        (
            LAYOUT.metronome,
            format!("metronome (white: game clock, red ring: wall clock): {gap}"),
        ),
        (
            LAYOUT.balls,
            format!(
                "bouncing balls: energy drift {:+.2}% {over}",
                since.energy_drift * 100.0
            ),
        ),
        (
            LAYOUT.wall,
            format!(
                "thin wall: {} of {} darts went through {over}",
                since.tunnels, since.darts
            ),
        ),
    ]
}

/// With the overlay hidden, the stream's caption says which strategy runs and at what rate.
fn strategy_prefix(m: &OverlayModel) -> String {
    if m.knobs.overlay {
        return String::new();
    }
    let s = m.session.planner().strategy();
    format!(
        "{} {} at {} UPS   ",
        strategy_key(s),
        s.id(),
        trim(m.session.settings().update_rate.as_hz())
    )
}

fn trim_ms(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Milliseconds, to two places below 100 ms, whole above (so a row keeps its width).
fn ms(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms >= 100.0 {
        format!("{ms:.0}")
    } else {
        format!("{ms:.2}")
    }
}

fn trim(x: f64) -> String {
    let s = format!("{x:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
