//! The latency curve as an SVG: median key-to-photon delay against missed refreshes, one
//! point per margin, for a fixed margin and for the just-in-time controller; and, as
//! lines across, the plain loop under FIFO with 1, 2 and 3 frames in flight.

use plotters::prelude::*;

use super::latency::{CurvePoint, LatencyReport, Pacing};
use crate::session::present::{LATENCIES, PresentMode};

const WIDTH: u32 = 760;
const HEIGHT: u32 = 460;
const FIXED: RGBColor = RGBColor(213, 94, 0);
const ADAPTIVE: RGBColor = RGBColor(0, 114, 178);
const PLAIN: RGBColor = RGBColor(120, 120, 120);

/// The curve of `report`, as SVG text.
pub fn svg(report: &LatencyReport) -> Result<String, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (WIDTH, HEIGHT)).into_drawing_area();
        draw(report, &root).map_err(|e| format!("cannot draw the curve: {e}"))?;
        root.present()
            .map_err(|e| format!("cannot draw the curve: {e}"))?;
    }
    Ok(text)
}

fn draw<DB: DrawingBackend>(
    report: &LatencyReport,
    root: &DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&WHITE)?;
    let plain = plain_fifo(report);
    let (x_max, y_max) = extent(report, &plain);
    let mut chart = ChartBuilder::on(root)
        .caption(
            format!(
                "{}: key to photon against missed refreshes (FIFO, 2 in flight)",
                report.profile
            ),
            ("sans-serif", 16),
        )
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)?;
    chart
        .configure_mesh()
        .x_desc("refreshes that showed no new frame, %")
        .y_desc("median delay, ms")
        .light_line_style(WHITE.mix(0.0))
        .draw()?;
    for &(n, delay) in &plain {
        chart.draw_series(LineSeries::new(
            [(0.0, delay), (x_max, delay)],
            PLAIN.mix(0.6).stroke_width(1),
        ))?;
        chart.draw_series(std::iter::once(Text::new(
            format!("plain FIFO, {n} in flight"),
            (x_max * 0.3, delay + y_max * 0.012),
            ("sans-serif", 12).into_font().color(&PLAIN),
        )))?;
    }
    for (policy, colour, label) in [
        ("fixed", FIXED, "just in time, fixed margin"),
        (
            "adaptive",
            ADAPTIVE,
            "just in time, controller from that floor",
        ),
    ] {
        let points: Vec<&CurvePoint> = report.curve.iter().filter(|p| p.policy == policy).collect();
        let xy: Vec<(f64, f64)> = points
            .iter()
            .filter_map(|p| Some((p.missed_share * 100.0, p.delay_p50_ms?)))
            .collect();
        chart
            .draw_series(LineSeries::new(xy.clone(), colour.stroke_width(2)))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], colour.stroke_width(2)));
        chart.draw_series(
            xy.iter()
                .map(|&(x, y)| Circle::new((x, y), 3, colour.filled())),
        )?;
        // Each point's margin beside it, on the fixed curve (the controller's sit close),
        // where it does not fall on the last one written.
        if policy == "fixed" {
            chart.draw_series(margin_labels(&points, (x_max, y_max), colour))?;
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::LowerRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 12))
        .draw()?;
    Ok(())
}

/// The chart's reach: a tenth beyond the most missed refreshes (at least 2%) and the
/// longest delay (at least 20 ms).
fn extent(report: &LatencyReport, plain: &[(u32, f64)]) -> (f64, f64) {
    let delays = report
        .curve
        .iter()
        .filter_map(|p| p.delay_p50_ms)
        .chain(plain.iter().map(|&(_, d)| d));
    let y_max = delays.fold(20.0f64, f64::max) * 1.1;
    let x_max = report
        .curve
        .iter()
        .map(|p| p.missed_share * 100.0)
        .fold(2.0f64, f64::max)
        * 1.1;
    (x_max, y_max)
}

/// The plain loop's median delay under FIFO with each number of frames in flight.
fn plain_fifo(report: &LatencyReport) -> Vec<(u32, f64)> {
    LATENCIES
        .filter_map(|n| {
            let row = report.row(PresentMode::Fifo, n, Pacing::Plain)?;
            Some((n, row.delay_p50_ms?))
        })
        .collect()
}

/// Each point's margin written beside it, where it does not fall on the last one written;
/// `max` is the chart's (x, y) extent.
fn margin_labels(
    points: &[&CurvePoint],
    max: (f64, f64),
    colour: RGBColor,
) -> Vec<Text<'static, (f64, f64), String>> {
    let (x_max, y_max) = max;
    let mut last: Option<(f64, f64)> = None;
    let mut labels = Vec::new();
    for p in points {
        let Some(y) = p.delay_p50_ms else { continue };
        let x = p.missed_share * 100.0;
        let apart = last
            .is_none_or(|(lx, ly)| (x - lx).abs() > x_max * 0.07 || (y - ly).abs() > y_max * 0.05);
        if apart {
            labels.push(Text::new(
                format!("{} ms", p.margin_ms),
                (x + x_max * 0.01, y - y_max * 0.03),
                ("sans-serif", 11).into_font().color(&colour),
            ));
            last = Some((x, y));
        }
    }
    labels
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::profile::Profile;
    use looplab_timing::Strategy;

    #[test]
    fn the_curve_draws_both_policies_and_the_plain_lines() {
        let machine = Profile::parse("jitter").unwrap();
        let report = super::super::latency::run_latency(
            &machine,
            Strategy::Interpolated,
            std::time::Duration::from_secs(5),
        );
        let svg = svg(&report).unwrap();
        assert!(svg.contains("fixed margin") && svg.contains("controller"));
        for n in 1..=3 {
            assert!(svg.contains(&format!("plain FIFO, {n} in flight")), "{n}");
        }
        // One dot per margin and policy.
        assert_eq!(svg.matches("<circle").count(), report.curve.len());
    }
}
