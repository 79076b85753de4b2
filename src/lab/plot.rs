//! The lab's picture: for each profile, game time against real time and drawn-position error
//! over time, one line per strategy, as an SVG.

use plotters::prelude::*;

use super::report::LabReport;

/// One colour per strategy, in key order; chosen to stay apart for colour-blind readers.
const COLOURS: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
];

const PANEL_WIDTH: u32 = 640;
const PANEL_HEIGHT: u32 = 300;

/// The plot of `report`, as SVG text (the command line writes it to the file).
pub fn svg(report: &LabReport) -> Result<String, String> {
    let profiles = &report.profiles;
    let rows = profiles.len().max(1) as u32;
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (PANEL_WIDTH * 2, PANEL_HEIGHT * rows))
            .into_drawing_area();
        draw(report, &root).map_err(|e| format!("cannot draw the plot: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the plot: {e}"))?;
    }
    Ok(text)
}

fn draw<DB: DrawingBackend>(
    report: &LabReport,
    root: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let panels = root.split_evenly((report.profiles.len().max(1), 2));
    let strategies: Vec<&str> = {
        let mut v: Vec<&str> = report
            .runs
            .iter()
            .map(|r| r.result.strategy.as_str())
            .collect();
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

        let mut time_chart = ChartBuilder::on(&panels[2 * i])
            .caption(
                format!("{}: game time vs real time", profile.name),
                ("sans-serif", 16),
            )
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(0.0..real_max, 0.0..game_max)?;
        time_chart
            .configure_mesh()
            .x_desc("real s")
            .y_desc("game s")
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        time_chart.draw_series(LineSeries::new(
            [(0.0, 0.0), (real_max, real_max)],
            BLACK.mix(0.25).stroke_width(1),
        ))?;

        let mut error_chart = ChartBuilder::on(&panels[2 * i + 1])
            .caption(
                format!("{}: drawn-position error", profile.name),
                ("sans-serif", 16),
            )
            .margin(8)
            .x_label_area_size(30)
            .y_label_area_size(40)
            .build_cartesian_2d(0.0..real_max, 0.0..error_max)?;
        error_chart
            .configure_mesh()
            .x_desc("real s")
            .y_desc("px")
            .light_line_style(WHITE.mix(0.0))
            .draw()?;

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
                .label(run.result.strategy.clone())
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
