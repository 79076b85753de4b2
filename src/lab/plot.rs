//! The lab's picture: for each profile, game time against real time and drawn-position error
//! over time, one line per strategy; then, for each profile, the loop's timeline over one
//! second of every strategy's run, drawn as the window draws it; then every run's pacing
//! scorecard as a bar of its refreshes; as an SVG.

use plotters::prelude::*;

use super::report::LabReport;
use super::run::STRIP_END;
use crate::session::timeline::TIMELINE_SPAN;
use crate::view::timeline::{StripGeometry, StripPiece, strip_pieces};
use crate::world::layout::Region;
use looplab_timing::Strategy;

/// One colour per strategy, in key order; chosen to stay apart for colour-blind readers.
const COLOURS: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(120, 120, 120),
    RGBColor(170, 150, 40),
];

const PANEL_WIDTH: u32 = 640;
const PANEL_HEIGHT: u32 = 300;
/// Height of one strategy's timeline strip, and the width of its name on the left.
const STRIP_HEIGHT: u32 = 46;
const STRIP_LABEL: u32 = 110;
/// The title band above each profile's strips.
const STRIP_TITLE: u32 = 26;
/// Height of one run's scorecard bar, and the band above them.
const SCORE_HEIGHT: u32 = 18;
const SCORE_TITLE: u32 = 30;
/// Refreshes with 0, 1, 2 and 3+ new updates: a stop, smooth motion, a jump, a leap.
const SCORE_COLOURS: [RGBColor; 4] = [
    RGBColor(150, 150, 160),
    RGBColor(0, 158, 115),
    RGBColor(230, 159, 0),
    RGBColor(213, 94, 0),
];

/// The plot of `report`, as SVG text (the command line writes it to the file).
pub fn svg(report: &LabReport) -> Result<String, String> {
    let profiles = &report.profiles;
    let rows = profiles.len().max(1) as u32;
    let strips = strip_panel_height(report) * profiles.len() as u32;
    let cards = SCORE_TITLE + SCORE_HEIGHT * report.runs.len() as u32 + 12;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(
            &mut text,
            (PANEL_WIDTH * 2, PANEL_HEIGHT * rows + strips + cards),
        )
        .into_drawing_area();
        let (charts, rest) = root.split_vertically(PANEL_HEIGHT * rows);
        let (timelines, scorecards) = rest.split_vertically(strips);
        draw(report, &charts).map_err(|e| format!("cannot draw the plot: {e}"))?;
        draw_strips(report, &timelines).map_err(|e| format!("cannot draw the plot: {e}"))?;
        draw_scorecards(report, &scorecards).map_err(|e| format!("cannot draw the plot: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the plot: {e}"))?;
    }
    Ok(text)
}

/// A chart of real seconds against one quantity, both continuous.
type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// A chart on `area` titled `title`: real seconds across up to `real_max`, and up the
/// side, from zero to `y.0`, the quantity `y.1` names; its mesh drawn.
fn chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, plotters::coord::Shift>,
    title: String,
    real_max: f64,
    y: (f64, &str),
) -> Result<Chart<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 16))
        .margin(8)
        .x_label_area_size(30)
        .y_label_area_size(40)
        .build_cartesian_2d(0.0..real_max, 0.0..y.0)?;
    chart
        .configure_mesh()
        .x_desc("real s")
        .y_desc(y.1)
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    Ok(chart)
}

fn draw<DB: DrawingBackend>(
    report: &LabReport,
    root: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let panels = root.split_evenly((report.profiles.len().max(1), 2));
    let strategies: Vec<Strategy> = {
        let mut v: Vec<Strategy> = report.runs.iter().map(|r| r.result.strategy).collect();
        v.dedup();
        v
    };
    let real_max = report.seconds;
    for (i, profile) in report.profiles.iter().enumerate() {
        let runs: Vec<_> = report
            .runs
            .iter()
            .filter(|r| r.result.profile == profile.name)
            .collect();
        let game_max = real_max * 2.0;
        let error_max = runs
            .iter()
            .flat_map(|r| r.result.trace.iter().map(|p| p.error))
            .fold(1.0f64, f64::max)
            .min(40.0);

        let title = format!("{}: game time vs real time", profile.name);
        let mut time_chart = chart(&panels[2 * i], title, real_max, (game_max, "game s"))?;
        time_chart.draw_series(LineSeries::new(
            [(0.0, 0.0), (real_max, real_max)],
            BLACK.mix(0.25).stroke_width(1),
        ))?;

        let title = format!("{}: drawn-position error", profile.name);
        let mut error_chart = chart(&panels[2 * i + 1], title, real_max, (error_max, "px"))?;

        for run in &runs {
            let k = strategies
                .iter()
                .position(|s| *s == run.result.strategy)
                .unwrap_or(0);
            let colour = COLOURS[k % COLOURS.len()];
            let trace = &run.result.trace;
            time_chart
                .draw_series(LineSeries::new(
                    trace.iter().map(|p| (p.real, p.game.min(game_max))),
                    colour.stroke_width(2),
                ))?
                .label(run.result.strategy.id())
                .legend(move |(x, y)| {
                    PathElement::new([(x, y), (x + 16, y)], colour.stroke_width(2))
                });
            error_chart.draw_series(LineSeries::new(
                trace.iter().map(|p| (p.real, p.error.min(error_max))),
                colour.stroke_width(1),
            ))?;
        }
        time_chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 12))
            .draw()?;
    }
    Ok(())
}

/// The strips' background: the window's region fill.
const STRIP_BACKGROUND: RGBColor = RGBColor(22, 25, 36);

/// A colour with alpha, blended over the strips' background (an SVG viewer need not blend
/// the way the window does).
fn over_background([r, g, b, a]: [u8; 4]) -> RGBColor {
    let t = f64::from(a) / 255.0;
    let mix =
        |c: u8, under: u8| (f64::from(under) + (f64::from(c) - f64::from(under)) * t).round() as u8;
    let RGBColor(br, bg, bb) = STRIP_BACKGROUND;
    RGBColor(mix(r, br), mix(g, bg), mix(b, bb))
}

/// Height of one profile's panel of timeline strips.
fn strip_panel_height(report: &LabReport) -> u32 {
    let per_profile = report
        .profiles
        .iter()
        .map(|p| {
            report
                .runs
                .iter()
                .filter(|r| r.result.profile == p.name)
                .count()
        })
        .max()
        .unwrap_or(0) as u32;
    STRIP_TITLE + STRIP_HEIGHT * per_profile + 8
}

/// For each profile, every strategy's loop over the second before [`STRIP_END`]: waits,
/// updates, renders and presents on real time; game ticks below.
fn draw_strips<DB: DrawingBackend>(
    report: &LabReport,
    root: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    if report.profiles.is_empty() {
        return Ok(());
    }
    // A dark background, as in the window, so the strips' colours read the same.
    root.fill(&STRIP_BACKGROUND)?;
    let panels = root.split_evenly((report.profiles.len(), 1));
    let light = |size| {
        ("sans-serif", size)
            .into_font()
            .color(&RGBColor(220, 220, 225))
    };
    let (width, _) = root.dim_in_pixel();
    for (profile, panel) in report.profiles.iter().zip(&panels) {
        let from = STRIP_END.saturating_sub(TIMELINE_SPAN).as_secs_f64();
        panel.draw_text(
            &format!(
                "{}: the loop from {from:.0} s to {:.0} s of real time (wait grey, update green/yellow/red by updates a frame, render blue, present violet; game ticks below, white squares: the state each frame drew)",
                profile.name,
                STRIP_END.as_secs_f64()
            ),
            &light(13),
            (8, 6),
        )?;
        let runs = report
            .runs
            .iter()
            .filter(|r| r.result.profile == profile.name);
        for (k, run) in runs.enumerate() {
            let top = (STRIP_TITLE + STRIP_HEIGHT * k as u32) as f32;
            panel.draw_text(&run.result.label(), &light(12), (8, top as i32 + 14))?;
            let plot = Region::new(
                STRIP_LABEL as f32,
                top + 6.0,
                width as f32 - 10.0,
                top + STRIP_HEIGHT as f32 - 4.0,
            );
            let mut pieces: Vec<StripPiece> = Vec::new();
            strip_pieces(
                &run.result.strip(),
                &StripGeometry::within(plot),
                &mut pieces,
            );
            let corner = |v: glam::Vec2| (v.x.round() as i32, v.y.round() as i32);
            for piece in pieces {
                let colour = over_background(piece.colour());
                match piece {
                    StripPiece::Rect { area, .. } => {
                        let (a, mut b) = (corner(area.min), corner(area.max));
                        // At least a pixel wide and tall, as the GPU draws a thin quad.
                        b.0 = b.0.max(a.0 + 1);
                        b.1 = b.1.max(a.1 + 1);
                        panel.draw(&Rectangle::new([a, b], colour.filled()))?;
                    }
                    StripPiece::Line {
                        from, to, width, ..
                    } => {
                        let style = colour.stroke_width(width.round().max(1.0) as u32);
                        panel.draw(&PathElement::new(vec![corner(from), corner(to)], style))?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Every run's refreshes as one bar, split by how many new updates each showed: all green is
/// perfect pacing; grey is motion that stopped, orange and red motion that jumped.
fn draw_scorecards<DB: DrawingBackend>(
    report: &LabReport,
    root: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let font = |size| ("sans-serif", size).into_font().color(&BLACK);
    root.draw_text(
        "Pacing: each run's display refreshes by the new updates they showed (grey 0: the motion stops; green 1: smooth; orange 2, red 3+: it jumps)",
        &font(13),
        (8, 8),
    )?;
    let (width, _) = root.dim_in_pixel();
    let label_width = 300i32;
    let bar_width = f64::from(width) - f64::from(label_width) - 250.0;
    for (k, row) in report.runs.iter().enumerate() {
        let r = &row.result;
        let top = (SCORE_TITLE + SCORE_HEIGHT * k as u32) as i32;
        root.draw_text(
            &format!("{} on {}", r.label(), r.profile),
            &font(12),
            (8, top + 3),
        )?;
        let total = r.scorecard.refreshes.max(1) as f64;
        let mut x = f64::from(label_width);
        for (count, colour) in r.scorecard.histogram.iter().zip(SCORE_COLOURS) {
            let w = bar_width * *count as f64 / total;
            if w > 0.0 {
                let (x0, x1) = (x.round() as i32, (x + w).round().max(x + 1.0) as i32);
                root.draw(&Rectangle::new(
                    [(x0, top + 2), (x1, top + SCORE_HEIGHT as i32 - 3)],
                    colour.filled(),
                ))?;
            }
            x += w;
        }
        root.draw_text(
            &format!(
                "{:.1}% smooth, {} doubles, {} skipped",
                r.scorecard.smooth_share() * 100.0,
                r.scorecard.doubles,
                r.scorecard.skipped
            ),
            &font(12),
            (label_width + bar_width as i32 + 8, top + 3),
        )?;
    }
    Ok(())
}
