//! The bench's text table: each measurement set as a table with its title, the host, and
//! the targets as [`judge`](super::report::judge) found them.

use std::fmt::Write as _;

use crate::text::table::Table;

use super::BenchReport;
use super::headless::{PacingPair, PacingResult, SpriteVariant, ThroughputResult};

/// A table of the bench's, under its title: indented, a space between columns.
fn titled(out: &mut String, title: &str, table: &Table) {
    let _ = writeln!(out, "\n{title}");
    out.push_str(&table.text());
}

fn bench_table(headers: &[&str]) -> Table {
    Table::new(headers).indent("  ").left(0)
}

fn pacing_table(out: &mut String, title: &str, pairs: &[PacingPair]) {
    let mut t = bench_table(&[
        "cap Hz",
        "wait",
        "frames",
        "mean ms",
        "stddev ms",
        "p99 |err| ms",
        "CPU %",
        "stalls",
        "stddev w/o stalls",
        "precise/naive stddev",
    ])
    .text_column(1)
    .left(9);
    for pair in pairs {
        for p in [&pair.naive, &pair.precise] {
            let ratio = if std::ptr::eq(p, &pair.precise) {
                pair.stddev_ratio.show(2, "x")
            } else {
                String::new()
            };
            pacing_row(&mut t, p, ratio);
        }
    }
    titled(out, title, &t);
    let own: Vec<String> = pairs
        .iter()
        .filter_map(|pair| {
            let ratio = pair.own_stddev_ratio?;
            Some(format!("{} Hz {}", pair.rate_hz, ratio.show(2, "x")))
        })
        .collect();
    if !own.is_empty() {
        let _ = writeln!(
            out,
            "  precise/naive stddev of the intervals each wait decided (frames that overran, and the catch-up after each, left out): {}",
            own.join("; ")
        );
    }
    for p in pairs.iter().flat_map(|pair| [&pair.naive, &pair.precise]) {
        if p.stalls > 0 {
            let _ = writeln!(
                out,
                "  what made the stalls at {} Hz, {}: {}",
                p.rate_hz,
                p.mode.id(),
                p.stall_causes.describe()
            );
        }
    }
}

fn pacing_row(t: &mut Table, p: &PacingResult, ratio: String) {
    t.row([
        p.rate_hz.to_string(),
        p.mode.id().to_string(),
        p.frames.to_string(),
        format!("{:.3}", p.mean_interval_ms),
        format!("{:.3}", p.stddev_ms),
        format!("{:.3}", p.p99_error_ms),
        format!("{:.1}", p.cpu_percent),
        p.stalls.to_string(),
        format!("{:.3} ms", p.stddev_without_stalls_ms),
        ratio,
    ]);
}

fn sprites_table(
    out: &mut String,
    title: &str,
    rows: &[ThroughputResult],
    spreads: &[super::headless::SpriteSpread],
) {
    let mut t = bench_table(&[
        "bullets", "renderer", "FPS", "1% low", "vs bare", "acquire", "words", "upload", "encode",
        "present",
    ])
    .text_column(1);
    for s in rows {
        let bare = rows
            .iter()
            .find(|b| b.bullets == s.bullets && b.variant == SpriteVariant::Bare)
            .map_or(0.0, |b| b.fps);
        let vs_bare = spreads
            .iter()
            .find(|p| p.bullets == s.bullets && p.variant == s.variant)
            .map_or(format!("{:.3}x", s.fps / bare.max(1e-9)), |p| {
                p.vs_bare.show(3, "x")
            });
        t.row([
            s.bullets.to_string(),
            s.variant.label().to_string(),
            format!("{:.1}", s.fps),
            format!("{:.1}", s.frame_times.low1_fps),
            vs_bare,
            format!("{:.2}", s.acquire_ms),
            format!("{:.2}", s.overlay_ms),
            format!("{:.2}", s.upload_ms),
            format!("{:.2}", s.encode_ms),
            format!("{:.2}", s.present_ms),
        ]);
    }
    titled(out, title, &t);
}

fn compare_table(out: &mut String, r: &BenchReport) {
    let mut t = bench_table(&["view", "lanes", "per lane", "FPS", "frame ms", "vs single"]).left(1);
    let single = r.compare.iter().find(|c| c.lanes == 1).map(|c| c.frame_ms);
    for c in &r.compare {
        let ratio = single.map_or(String::from("-"), |s| {
            format!("{:.2}x", c.frame_ms / s.max(1e-9))
        });
        t.row([
            c.view().to_string(),
            c.lanes.to_string(),
            c.bullets_per_lane.to_string(),
            format!("{:.1}", c.fps),
            format!("{:.2}", c.frame_ms),
            ratio,
        ]);
    }
    let title = format!(
        "Compare mode offscreen at 1280x720, {} bullets in all (median frame: simulation, layout, drawing, GPU)",
        super::COMPARE_BULLETS
    );
    titled(out, &title, &t);
}

fn world_table(out: &mut String, r: &BenchReport) {
    let mut t = bench_table(&["bullets", "ms/update", "bullet-steps/s"]);
    for w in &r.world {
        t.row([
            w.bullets.to_string(),
            format!("{:.3}", w.update_ms),
            format!("{:.0} M", w.bullet_steps_per_sec / 1e6),
        ]);
    }
    titled(out, "World update, one thread", &t);
}

fn ship_delay_table(out: &mut String, r: &BenchReport) {
    let mut t = bench_table(&[
        "strategy",
        "UPS",
        "presses",
        "median ms",
        "model",
        "mean ms",
        "model",
        "p99 ms",
        "behind steps ms",
    ])
    .left(1);
    let model = |m: Option<f64>| m.map_or("-".into(), |m| format!("{m:.1}"));
    for d in &r.ship_delay {
        t.row([
            d.strategy.id().to_string(),
            format!("{:.0}", d.ups),
            d.samples.to_string(),
            d.median_spread_ms
                .map_or(format!("{:.1}", d.median_ms), |s| s.show(1, "")),
            model(d.model_median_ms),
            d.mean_spread_ms
                .map_or(format!("{:.1}", d.mean_ms), |s| s.show(1, "")),
            model(d.model_mean_ms),
            format!("{:.1}", d.p99_ms),
            model(d.step_phase_ms),
        ]);
    }
    titled(
        out,
        "the ship's key-to-screen delay, 60 Hz cap (window; the lab's model, each key timed from when the loop was free to take it, as the window times it, its frames as far behind the update steps as the window's were)",
        &t,
    );
}

fn queue_table(out: &mut String, r: &BenchReport) {
    let mut t = bench_table(&[
        "pacing",
        "presses",
        "median ms",
        "p99 ms",
        "frame interval ms",
        "acquire ms",
        "model: to present ms",
        "to shown ms",
    ])
    .left(1);
    for d in &r.queue {
        t.row([
            d.pacing.label().to_string(),
            d.samples.to_string(),
            format!("{:.1}", d.median_ms),
            format!("{:.1}", d.p99_ms),
            format!("{:.1}", d.frame_interval_ms),
            format!("{:.2}", d.acquire_ms),
            d.model_to_present_ms
                .map_or("-".into(), |m| format!("{m:.1}")),
            d.model_median_ms.map_or("-".into(), |m| format!("{m:.1}")),
        ]);
    }
    titled(
        out,
        "the ship's delay under Weston, FIFO, 2 in flight (window: key to the present's return; the lab's model)",
        &t,
    );
}

fn render_tick_table(out: &mut String, r: &BenchReport) {
    let mut t = bench_table(&[
        "bullets",
        "copy ms",
        "partial upd. ms",
        "total ms",
        "real update ms",
    ]);
    for k in &r.render_tick {
        t.row([
            k.bullets.to_string(),
            format!("{:.3}", k.copy_ms),
            format!("{:.3}", k.partial_update_ms),
            format!("{:.3}", k.total_ms),
            format!("{:.3}", k.update_ms),
        ]);
    }
    titled(
        out,
        "render tick (a copy of the world and a third of a step on it), median",
        &t,
    );
}

fn latency_table(out: &mut String, r: &BenchReport) {
    let mut t = bench_table(&[
        "setting",
        "keys",
        "median ms",
        "p99 ms",
        "wait p99 ms",
        "frame interval",
        "frame to present",
    ])
    .left(1);
    for l in &r.latency {
        t.row([
            l.setting.label().to_string(),
            l.samples.to_string(),
            format!("{:.2}", l.median_ms),
            format!("{:.2}", l.p99_ms),
            format!("{:.2}", l.wait_p99_ms),
            format!("{:.2} ms", l.frame_interval_ms),
            format!("{:.2} ms", l.frame_to_present_ms),
        ]);
    }
    titled(
        out,
        "Input latency: key event arrival to the end of the present that shows it",
        &t,
    );
}

/// The report's opening lines: the machine, its adapter and its scheduling noise.
fn host_lines(out: &mut String, r: &BenchReport) {
    let m = &r.host;
    let quick = if r.quick {
        " (quick: smoke test, not for quoting)"
    } else {
        ""
    };
    let _ = writeln!(out, "Looplab bench{quick}");
    let _ = writeln!(
        out,
        "machine: {}, {} cores, {}; {} build",
        m.cpu, m.cores, m.os, m.build
    );
    let _ = writeln!(out, "adapter: {}", m.adapter);
    let n = &r.noise;
    let _ = writeln!(
        out,
        "scheduling noise: a thread spinning for {} s lost the CPU {} times for over 0.2 ms ({} over 1 ms, longest {:.2} ms)",
        n.seconds, n.gaps_over_0_2ms, n.gaps_over_1ms, n.longest_gap_ms
    );
    if let Some(why) = &r.windowed_skipped {
        let _ = writeln!(out, "windowed parts skipped: {why}");
    }
}

/// The report as aligned text.
pub fn table(r: &BenchReport) -> String {
    let mut out = String::new();
    host_lines(&mut out, r);
    if !r.pacing_window.is_empty() {
        pacing_table(
            &mut out,
            "Frame-cap precision in the window, the two waits in turn every half second (frame start to frame start; naive = ControlFlow::WaitUntil; spread over the pairs of half seconds)",
            &r.pacing_window,
        );
    }
    if !r.driver.is_empty() || r.driver_skipped.is_some() {
        super::driver::table(&mut out, &r.driver, r.driver_skipped.as_deref());
    }
    pacing_table(
        &mut out,
        "Frame-cap precision, headless loop, the two waits in turn every half second (naive = one plain sleep to the deadline)",
        &r.pacing,
    );
    if !r.sprites_window.is_empty() {
        sprites_table(
            &mut out,
            "Sprite throughput in a 1280x720 window, uncapped, vsync off (1% low: CapFrameX's, the rate of the slowest 1% of frames; medians in ms; present = submit + present)",
            &r.sprites_window,
            &[],
        );
    }
    sprites_table(
        &mut out,
        "Sprite throughput offscreen at 1280x720, the renderers frame by frame in turn (FPS of the median frame; 1% low: CapFrameX's, the rate of the slowest 1% of frames; medians in ms; present = submit + wait for the GPU; vs bare with its spread)",
        &r.sprites,
        &r.sprite_spreads,
    );
    if !r.compare.is_empty() {
        compare_table(&mut out, r);
    }
    world_table(&mut out, r);
    if !r.ship_delay.is_empty() {
        ship_delay_table(&mut out, r);
    }
    if !r.queue.is_empty() {
        queue_table(&mut out, r);
    }
    render_tick_table(&mut out, r);
    if !r.latency.is_empty() {
        latency_table(&mut out, r);
    }
    let _ = writeln!(out);
    if let Some(ms) = r.startup_ms {
        let _ = writeln!(
            out,
            "Start-up, process start to first presented frame: {ms:.0} ms (median of 3)"
        );
    }
    if let Some((mib, how)) = &r.peak_rss_mib {
        let _ = writeln!(
            out,
            "Peak resident memory at 100k bullets: {mib:.0} MiB ({how})"
        );
    }
    let _ = writeln!(out, "\nTargets");
    for t in &r.targets {
        let verdict = t.verdict.label();
        let _ = writeln!(
            out,
            "  [{verdict}] {}: {} (goal {})",
            t.key.name(),
            t.measured,
            t.goal
        );
    }
    for n in &r.notes {
        let _ = writeln!(out, "note: {n}");
    }
    out
}
