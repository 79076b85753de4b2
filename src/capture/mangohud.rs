//! MangoHud's log (Linux): a system line and its values, then `fps,frametime,...,elapsed`.
//!
//! Its units changed with its versions, and the file does not say which wrote it, so they
//! are told from the values: `frametime` is milliseconds from 0.6.9 and microseconds in
//! 0.6.0-0.6.8 (a median over a thousand is taken for microseconds); 0.5 has no
//! `frametime` (the frame time is then `1000 / fps`) and counts `elapsed` in microseconds,
//! later versions in nanoseconds.
//!
//! With `log_interval` above zero (the default before 0.6.9) a row is a sample written
//! every so often, carrying the latest frame's time, not one row per frame. That is told
//! from `elapsed`: rows much further apart than their frame times. A sample then stands
//! for the frames of its interval, each as long as the frame it carries: what the log
//! knows, and the summary says that a hitch between two samples is not in it.

use std::time::Duration;

use super::format::Found;
use super::{Frame, Row, Sampling, Streams, number};

/// Reads MangoHud's rows from the header `found` points at.
pub(super) fn read(text: &str, found: &Found, streams: &mut Streams) -> Result<(), String> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(&text.as_bytes()[found.header_at..]);
    let header = reader
        .headers()
        .map_err(|e| {
            format!(
                "line {}: {}",
                found.header_line,
                crate::failure::one_line(&e.to_string())
            )
        })?
        .clone();
    let col = |name: &str| header.iter().position(|h| h == name);
    let (fps, frametime, elapsed) = (col("fps"), col("frametime"), col("elapsed"));
    if frametime.is_none() && fps.is_none() {
        return Err("the header has no frame-time column (frametime or fps)".into());
    }
    // (frame time in the file's unit, elapsed in the file's unit, line)
    let mut rows: Vec<(f64, Option<f64>, usize)> = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        match reader.read_record(&mut record) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return Err(crate::failure::one_line(&e.to_string())),
        }
        let line = found.header_line - 1 + record.position().map_or(0, |p| p.line() as usize);
        if record.len() == 1 && record.get(0) == Some("") {
            continue;
        }
        let num = |i: Option<usize>, name: &str| {
            number(i.and_then(|i| record.get(i)))
                .map_err(|bad| format!("line {line}, {name}: {bad} is not a number"))
        };
        let time = match frametime {
            Some(_) => num(frametime, "frametime")?,
            None => num(fps, "fps")?.filter(|&f| f > 0.0).map(|f| 1000.0 / f),
        };
        let Some(time) = time else {
            return Err(format!("line {line}: no frame time"));
        };
        if rows.len() >= super::MAX_FRAMES {
            return Err(format!("holds more than {} rows", super::MAX_FRAMES));
        }
        rows.push((time, num(elapsed, "elapsed")?, line));
    }
    streams.frame_time_column = if frametime.is_some() {
        "frametime"
    } else {
        "fps"
    }
    .into();
    // Units, from the values.
    let mut times: Vec<f64> = rows.iter().map(|r| r.0).collect();
    let median_time = median(&mut times);
    let frame_scale = if frametime.is_some() && median_time > 1000.0 {
        streams
            .notes
            .push("frametime in microseconds (MangoHud 0.6.0-0.6.8)".into());
        1e-3
    } else {
        1.0
    };
    let elapsed_to_ms = if frametime.is_some() { 1e-6 } else { 1e-3 };
    if frametime.is_none() {
        streams
            .notes
            .push("no frametime column (MangoHud 0.5): frame times are 1000 / fps".into());
    }
    // Sampled, or a row a frame?
    let mut gaps: Vec<f64> = rows
        .windows(2)
        .filter_map(|w| Some((w[1].1? - w[0].1?) * elapsed_to_ms))
        .collect();
    let median_gap = median(&mut gaps);
    let sampled = gaps.len() >= 3 && median_gap > 2.0 * median_time * frame_scale;
    if sampled {
        streams.sampled = Some(Sampling {
            every: Duration::from_secs_f64(median_gap / 1e3),
            samples: rows.len(),
        });
    }
    for (i, &(time, elapsed, line)) in rows.iter().enumerate() {
        let ms = time * frame_scale;
        // A sample stands for the frames since the one before it.
        let count = match (sampled, i.checked_sub(1).and_then(|j| rows[j].1), elapsed) {
            (true, Some(before), Some(now)) if ms > 0.0 => {
                let span = (now - before) * elapsed_to_ms;
                (span / ms).round().clamp(1.0, f64::from(u32::MAX))
            }
            _ => 1.0,
        };
        streams.push(
            Row {
                application: "",
                swap_chain: None,
                frame: Frame {
                    interval_ms: ms,
                    more: count as u32 - 1,
                    ..Frame::default()
                },
                generated: false,
                sync_interval: None,
                allows_tearing: None,
                present_mode: None,
            },
            line,
        )?;
    }
    streams.rows = rows.len();
    Ok(())
}

/// The median of `xs` (sorted in place); zero for none.
fn median(xs: &mut [f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.sort_unstable_by(f64::total_cmp);
    xs[xs.len() / 2]
}
