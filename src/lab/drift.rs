//! deWiTTERS' floating-point drift experiment, computed exactly as the article does: a car
//! at 0.001 units per millisecond tick, moved frame by frame for 10 000 ticks, in double
//! precision, with `skip_ticks = 1000 / fps` as a float. At 40 and 100 FPS the article gets
//! 10.000000000000075 and 9.9999999999998312: the same ten seconds, two different answers.

use std::fmt::Write as _;

use looplab_timing::Rate;

/// The article's `get_distance(fps)`.
pub fn distance(fps: f64) -> f64 {
    let skip_ticks = 1000.0 / fps;
    let speed_per_tick = 0.001;
    let mut total_ticks = 0.0;
    let mut distance = 0.0;
    while total_ticks < 10000.0 {
        distance += speed_per_tick * skip_ticks;
        total_ticks += skip_ticks;
    }
    distance
}

/// Formats like C's `%.17g` (what the article's Python printed): 17 significant digits,
/// fixed or scientific notation as `%g` chooses, trailing zeros removed.
pub fn format_g17(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let sci = format!("{x:.16e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..17).contains(&exp) {
        let decimals = (16 - exp).max(0) as usize;
        let fixed = format!("{x:.decimals$}");
        trim_zeros(&fixed).to_string()
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim_zeros(mantissa), exp.abs())
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

/// The experiment's printout for the given frame rates.
pub fn report(rates: &[Rate]) -> String {
    let mut out = String::from(
        "deWiTTERS drift: distance after 10000 ticks at 0.001 per tick (exact answer 10)\n",
    );
    let _ = writeln!(
        out,
        "{:>10}  {:>22}  {:>24}",
        "fps", "skip_ticks", "distance (%.17g)"
    );
    let results: Vec<(f64, f64)> = rates
        .iter()
        .map(|r| (r.as_hz(), distance(r.as_hz())))
        .collect();
    for (fps, d) in &results {
        let _ = writeln!(
            out,
            "{:>10}  {:>22}  {:>24}",
            format_g17(*fps),
            format_g17(1000.0 / fps),
            format_g17(*d)
        );
    }
    if results.len() > 1 {
        out.push_str("differences:\n");
        for (i, (fa, da)) in results.iter().enumerate() {
            for (fb, db) in &results[i + 1..] {
                let _ = writeln!(
                    out,
                    "  distance({}) - distance({}) = {}",
                    format_g17(*fa),
                    format_g17(*fb),
                    format_g17(da - db)
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_articles_numbers_exactly() {
        assert_eq!(format_g17(distance(40.0)), "10.000000000000075");
        assert_eq!(format_g17(distance(100.0)), "9.9999999999998312");
        assert_eq!(
            format_g17(distance(40.0) - distance(100.0)),
            "2.4336088699783431e-13"
        );
    }

    #[test]
    fn g17_formatting_matches_printf() {
        assert_eq!(format_g17(10.0), "10");
        assert_eq!(format_g17(0.1), "0.10000000000000001");
        assert_eq!(format_g17(1e20), "1e+20");
        assert_eq!(format_g17(-0.00012), "-0.00012");
        assert_eq!(format_g17(1.5e-5), "1.5e-05");
        assert_eq!(format_g17(25.0), "25");
    }

    #[test]
    fn report_lists_each_rate_and_the_differences() {
        let rates = [Rate::hz(40.0).unwrap(), Rate::hz(100.0).unwrap()];
        let r = report(&rates);
        assert!(r.contains("10.000000000000075"));
        assert!(r.contains("9.9999999999998312"));
        assert!(r.contains("distance(40) - distance(100) = 2.4336088699783431e-13"));
    }
}
