//! A recording of a run's inputs: what a person steered, the world and loop it steered, and
//! the state it ended in, so anyone can play it back and check that the same inputs give the
//! same world.
//!
//! The file is JSON lines, one object a line, readable and diffable:
//!
//! ```text
//! {"looplab_recording":2,"seed":1,"bullets":2000,"strategy":"catch-up","update_hz":60.0,"max_updates":10,"frame_cap_hz":60.0}
//! {"step":212,"game_time_ns":3533333404,"thrust":[0.3,0.0]}
//! {"step":213,"game_time_ns":3550000071,"thrust":[0.0,0.0],"dashes":1}
//! {"step":214,"game_time_ns":3566666738,"thrust":[0.0,0.0]}
//! {"end":{"steps":600,"game_time_ns":10000000200,"hash":"5f0c3e0d9a1b2c4d","ship":[861.2,190.0]}}
//! {"checksum":"0e4c21aa5b9d7f31"}
//! ```
//!
//! The header names the format's version, the world (seed, bullets) and the loop (strategy,
//! update rate, update limit, frame cap). Each input line is a change of what an update gave
//! the ship, and the update it first applies to: the thrust (x and y, y down, at most 1
//! long: the arrows weighted by the share of the update each was held) and the dashes that
//! update made (left out when none). A version 1 file holds held arrows, which the updates
//! do not read; such a file is refused with a line that says so. The end line
//! gives the state reached and its hash, and the last line a checksum (xxh3-64) of every line
//! before it, so a file damaged or edited by hand is refused rather than played wrongly.

use std::time::Duration;

use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64;

use super::checkpoint::Checkpoint;
use super::json_lines;
use super::recording_error::{LineProblem, RecordingError};
use super::steering::SteerChange;
use crate::world::WorldConfig;
use crate::world::hash::StateHash;
use crate::world::ship::ShipInput;
use glam::Vec2;
use looplab_timing::{LoopSettings, Rate, Strategy};

/// The version this build writes and reads.
pub const VERSION: u32 = 2;

/// The state a recorded run ended in.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedEnd {
    /// Updates run.
    pub steps: u64,
    pub game_time: Duration,
    /// The world's state hash.
    pub hash: StateHash,
    /// Where the ship ended.
    pub ship: [f32; 2],
}

/// How a run compared with a recording at the recording's end.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ReplayOutcome {
    /// The state is the recorded one, bit for bit.
    pub same_state: bool,
    /// How far the ship is from where it was in the recording, world pixels.
    pub ship_offset_px: f64,
}

impl RecordedEnd {
    /// How the state a run reached at the recording's end game time (`reached`, a
    /// checkpoint at that time) compares with the recorded one; `None` until it got there.
    pub fn compare(&self, reached: &Checkpoint) -> Option<ReplayOutcome> {
        let hash = reached.hash()?;
        let [x, y] = reached.ship()?;
        let [rx, ry] = self.ship;
        Some(ReplayOutcome {
            same_state: hash == self.hash,
            ship_offset_px: f64::from(x - rx).hypot(f64::from(y - ry)),
        })
    }
}

/// A run's inputs and the state they led to.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub world: WorldConfig,
    pub strategy: Strategy,
    pub update_rate: Rate,
    pub max_updates: Option<u32>,
    pub frame_cap: Option<Rate>,
    pub changes: Vec<SteerChange>,
    pub end: RecordedEnd,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    looplab_recording: u32,
    seed: u64,
    bullets: usize,
    strategy: String,
    update_hz: f64,
    max_updates: Option<u32>,
    frame_cap_hz: Option<f64>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChangeLine {
    step: u64,
    game_time_ns: u64,
    thrust: [f32; 2],
    #[serde(default, skip_serializing_if = "is_zero")]
    dashes: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EndState {
    steps: u64,
    game_time_ns: u64,
    hash: String,
    ship: [f32; 2],
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EndLine {
    end: EndState,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ChecksumLine {
    checksum: String,
}

/// Any line but the header: a change, the end, or the checksum.
#[derive(Deserialize)]
#[serde(untagged)]
enum Line {
    Change(ChangeLine),
    End(EndLine),
    Checksum(ChecksumLine),
}

/// The most dashes one update makes in a recording (a person presses a key at most some
/// tens of times a second; a step is at most a second).
const MAX_DASHES: u32 = 100;

/// The longest recording a replay takes: a day of game time.
const MAX_GAME_TIME: Duration = Duration::from_secs(24 * 3600);

impl Recording {
    /// The loop settings the recording was made with.
    pub fn settings(&self) -> LoopSettings {
        let settings = LoopSettings::default()
            .with_update_rate(self.update_rate)
            .with_frame_cap(self.frame_cap);
        // Never a limit of zero: the reader refuses one, and a run's settings hold none.
        settings
            .clone()
            .with_max_updates(self.max_updates)
            .unwrap_or(settings)
    }

    /// The file's text.
    pub fn to_text(&self) -> String {
        let mut text = Self::header_line(self.strategy, &self.settings(), &self.world);
        for c in &self.changes {
            text += &Self::change_line(c);
        }
        let closing = self.closing_lines(&text);
        text + &closing
    }

    /// The first line of a recording of `world` run by `strategy` with `settings`: what a
    /// recording written as the run goes starts with.
    pub fn header_line(strategy: Strategy, settings: &LoopSettings, world: &WorldConfig) -> String {
        let mut line = String::new();
        push_line(
            &mut line,
            &Header {
                looplab_recording: VERSION,
                seed: world.seed,
                bullets: world.bullets,
                strategy: strategy.id().to_string(),
                update_hz: settings.update_rate.as_hz(),
                max_updates: settings.max_updates(),
                frame_cap_hz: settings.frame_cap.map(Rate::as_hz),
            },
        );
        line
    }

    /// The line of one change, as it is appended when it happens.
    pub fn change_line(c: &SteerChange) -> String {
        let mut line = String::new();
        push_line(
            &mut line,
            &ChangeLine {
                step: c.step,
                game_time_ns: nanos(c.game_time),
                thrust: c.input.thrust.to_array(),
                dashes: c.input.dashes,
            },
        );
        line
    }

    /// The end line and the checksum line that close `text` (the header and every change
    /// line), written only when the run ends well.
    pub fn closing_lines(&self, text: &str) -> String {
        let mut closing = String::new();
        push_line(
            &mut closing,
            &EndLine {
                end: EndState {
                    steps: self.end.steps,
                    game_time_ns: nanos(self.end.game_time),
                    hash: self.end.hash.to_string(),
                    ship: self.end.ship,
                },
            },
        );
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(text.as_bytes());
        hasher.update(closing.as_bytes());
        let checksum = format!("{:016x}", hasher.digest());
        push_line(&mut closing, &ChecksumLine { checksum });
        closing
    }

    /// Reads a recording, refusing (with what is wrong, in a few words) anything this build
    /// did not write as it is: another version, a damaged or cut-short file, or one edited
    /// by hand.
    pub fn parse(text: &str) -> Result<Recording, RecordingError> {
        let (header, lines): (Header, _) =
            json_lines::open(text, "looplab_recording", "recording", VERSION)?;
        let run = HeaderRun::check(&header)
            .map_err(|problem| RecordingError::Line { line: 1, problem })?;
        let body = Body::read(text, lines)?;
        let (Some((end_line, end)), Some((checked_len, written))) = (body.end, body.checksum)
        else {
            return Err(RecordingError::CutShort {
                changes: body.changes.len(),
            });
        };
        check_checksum(text, checked_len, &written)?;
        let end =
            recorded_end(end, body.changes.last()).map_err(|problem| RecordingError::Line {
                line: end_line,
                problem,
            })?;
        Ok(Recording {
            world: WorldConfig {
                seed: header.seed,
                bullets: header.bullets,
            },
            strategy: run.strategy,
            update_rate: run.update_rate,
            max_updates: header.max_updates,
            frame_cap: run.frame_cap,
            changes: body.changes,
            end,
        })
    }
}

/// What the header's loop fields stand for, checked once so a bad header is refused on
/// line 1 rather than when the replay reaches it.
struct HeaderRun {
    strategy: Strategy,
    update_rate: Rate,
    frame_cap: Option<Rate>,
}

impl HeaderRun {
    /// The header's strategy and rates, or what is wrong with them, its bullets or its
    /// update limit (in that order, so a file with several faults names the same one).
    fn check(header: &Header) -> Result<HeaderRun, LineProblem> {
        let strategy: Strategy = header.strategy.parse().map_err(LineProblem::Strategy)?;
        let rate = |hz: f64, field: &'static str| {
            Rate::hz(hz).map_err(|error| LineProblem::Rate { field, error })
        };
        let update_rate = rate(header.update_hz, "update_hz")?;
        let frame_cap = header
            .frame_cap_hz
            .map(|hz| rate(hz, "frame_cap_hz"))
            .transpose()?;
        if header.bullets > WorldConfig::MAX_BULLETS {
            return Err(LineProblem::Bullets(header.bullets));
        }
        if header.max_updates == Some(0) {
            return Err(LineProblem::NoUpdates);
        }
        Ok(HeaderRun {
            strategy,
            update_rate,
            frame_cap,
        })
    }
}

/// The lines after the header as read so far: the changes, then the end line and the
/// checksum line with the line number or byte offset each is checked against.
#[derive(Default)]
struct Body {
    changes: Vec<SteerChange>,
    /// The end line's number and state.
    end: Option<(usize, EndState)>,
    /// Where the checksum line starts (the bytes it covers) and the checksum written.
    checksum: Option<(usize, String)>,
}

impl Body {
    /// Reads every line after the header of `text`, refusing the first out of place.
    fn read<'a>(
        text: &str,
        lines: impl Iterator<Item = (usize, &'a str)>,
    ) -> Result<Body, RecordingError> {
        let mut body = Body::default();
        for (n, line) in lines {
            if body.checksum.is_some() {
                return Err(RecordingError::MoreAfterChecksum { line: n });
            }
            body.take(text, n, line)?;
        }
        Ok(body)
    }

    /// Takes line `n` of `text`: a change while there is no end yet, the end, or the
    /// checksum after it.
    fn take(&mut self, text: &str, n: usize, line: &str) -> Result<(), RecordingError> {
        let at = |problem| RecordingError::Line { line: n, problem };
        match serde_json::from_str::<Line>(line) {
            Ok(Line::Change(_) | Line::End(_)) if self.end.is_some() => {
                Err(at(LineProblem::AfterTheEnd))
            }
            Ok(Line::Change(c)) => {
                let change = checked_change(&c, self.changes.last()).map_err(at)?;
                self.changes.push(change);
                Ok(())
            }
            Ok(Line::End(e)) => {
                self.end = Some((n, e.end));
                Ok(())
            }
            Ok(Line::Checksum(c)) => {
                self.checksum = Some((line_start(text, n - 1), c.checksum));
                Ok(())
            }
            // A last line cut off mid-write (no newline after it): the run was killed.
            Err(_) if self.end.is_none() && !text.ends_with('\n') && is_last_line(text, n) => {
                Err(RecordingError::CutShort {
                    changes: self.changes.len(),
                })
            }
            Err(_) => Err(at(LineProblem::NotALine)),
        }
    }
}

/// A change line's change, refused if its input is one no update could have received or
/// it does not come after `previous`, so a replay never meets an input out of order.
fn checked_change(
    c: &ChangeLine,
    previous: Option<&SteerChange>,
) -> Result<SteerChange, LineProblem> {
    let thrust = Vec2::from_array(c.thrust);
    if !thrust.is_finite() || thrust.length() > 1.0 + 1e-6 {
        return Err(LineProblem::Thrust);
    }
    if c.dashes > MAX_DASHES {
        return Err(LineProblem::Dashes { most: MAX_DASHES });
    }
    let game_time = Duration::from_nanos(c.game_time_ns);
    if previous.is_some_and(|p| p.step >= c.step || p.game_time > game_time) {
        return Err(LineProblem::StepsMustIncrease);
    }
    Ok(SteerChange {
        step: c.step,
        game_time,
        input: ShipInput {
            thrust,
            dashes: c.dashes,
        },
    })
}

/// Refuses `text` unless `written` is the checksum of its first `checked_len` bytes (every
/// line before the checksum line), so a damaged or hand-edited file is not played wrongly.
fn check_checksum(text: &str, checked_len: usize, written: &str) -> Result<(), RecordingError> {
    let written = u64::from_str_radix(written, 16).ok();
    if written != Some(xxh3_64(&text.as_bytes()[..checked_len])) {
        return Err(RecordingError::Changed);
    }
    Ok(())
}

/// The end line's state, refused if a replay could not reach it: a hash that is not one,
/// more than a day of game time, or an end before the `last` change.
fn recorded_end(e: EndState, last: Option<&SteerChange>) -> Result<RecordedEnd, LineProblem> {
    let hash = e.hash.parse::<StateHash>().map_err(|_| LineProblem::Hash)?;
    let game_time = Duration::from_nanos(e.game_time_ns);
    if game_time > MAX_GAME_TIME {
        return Err(LineProblem::EndsAfterADay);
    }
    if last.is_some_and(|c| c.step >= e.steps || c.game_time >= game_time) {
        return Err(LineProblem::EndsBeforeLastChange);
    }
    Ok(RecordedEnd {
        steps: e.steps,
        game_time,
        hash,
        ship: e.ship,
    })
}

/// Whether line `n` (from 1) is the text's last.
fn is_last_line(text: &str, n: usize) -> bool {
    text.lines().count() == n
}

/// Byte offset where line `index` (0-based, counting every line) starts.
fn line_start(text: &str, index: usize) -> usize {
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i == index {
            return offset;
        }
        offset += line.len();
    }
    offset
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// Appends `value` as one JSON line. The line types are plain structs of numbers and
/// strings, which always serialise.
fn push_line(text: &mut String, value: &impl Serialize) {
    text.push_str(&serde_json::to_string(value).unwrap_or_default());
    text.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording() -> Recording {
        let step = Duration::from_nanos(16_666_667);
        Recording {
            world: WorldConfig {
                seed: 7,
                bullets: 300,
            },
            strategy: Strategy::CatchUp,
            update_rate: Rate::hz(60.0).unwrap(),
            max_updates: Some(10),
            frame_cap: Some(Rate::hz(59.94).unwrap()),
            changes: vec![
                SteerChange {
                    step: 12,
                    game_time: step * 12,
                    input: ShipInput {
                        thrust: Vec2::new(0.3, 0.0),
                        dashes: 0,
                    },
                },
                SteerChange {
                    step: 13,
                    game_time: step * 13,
                    input: ShipInput {
                        thrust: Vec2::new(0.6, -0.8),
                        dashes: 1,
                    },
                },
                SteerChange {
                    step: 40,
                    game_time: step * 40,
                    input: ShipInput::NONE,
                },
            ],
            end: RecordedEnd {
                steps: 90,
                game_time: step * 90,
                hash: StateHash(0x0123_4567_89ab_cdef),
                ship: [612.5, 190.25],
            },
        }
    }

    #[test]
    fn a_recording_reads_back_as_written() {
        let r = recording();
        let text = r.to_text();
        assert_eq!(text.lines().count(), 6);
        assert!(text.starts_with("{\"looplab_recording\":2,"), "{text}");
        assert!(
            text.contains("\"thrust\":[0.3,0.0]}"),
            "no dashes, none written: {text}"
        );
        assert!(
            text.contains("\"thrust\":[0.6,-0.8],\"dashes\":1}"),
            "{text}"
        );
        assert_eq!(Recording::parse(&text), Ok(r.clone()));
        assert_eq!(r.settings().step(), Duration::from_nanos(16_666_667));
    }

    #[test]
    fn every_kind_of_bad_file_is_refused_with_its_reason() {
        let good = recording().to_text();
        let lines: Vec<&str> = good.lines().collect();
        let joined = |ls: &[&str]| ls.iter().map(|l| format!("{l}\n")).collect::<String>();
        // Well formed, checksum and all, but not a run that could have happened.
        let mut r = recording();
        r.end.steps = 40;
        let ends_early = r.to_text();
        let cases = [
            ("", "is empty"),
            ("hello\n", "is not a Looplab recording"),
            (
                &good.replace("\"looplab_recording\":2", "\"looplab_recording\":3"),
                "version 3",
            ),
            (
                &good.replace("\"looplab_recording\":2", "\"looplab_recording\":1"),
                "version 1 recording, of held arrows",
            ),
            (&joined(&lines[..4]), "cut short"),
            (&joined(&lines[..5]), "cut short"),
            (&good[..good.len() - 10], "line 6 is not"),
            (&good.replace("\"steps\":90", "\"steps\":91"), "checksum"),
            (&good.replace("[0.3,0.0]", "[0.3,0.5]"), "checksum"),
            (&good.replace("[0.3,0.0]", "[3.0,0.0]"), "thrust must be"),
            (&good.replace("[0.3,0.0]", "[1e40,0.0]"), "thrust must be"),
            (&good.replace("[0.3,0.0]", "[0.3,\"x\"]"), "line 2 is not"),
            (
                &good.replace("\"dashes\":1", "\"dashes\":1000"),
                "dashes must be",
            ),
            (
                &good.replace("\"step\":40", "\"step\":2"),
                "steps must increase",
            ),
            (&format!("{good}{}\n", lines[1]), "after its checksum"),
            (&ends_early, "before its last input change"),
            (
                &good.replace("\"max_updates\":10", "\"max_updates\":0"),
                "at least 1",
            ),
            (&good.replace("catch-up", "sideways"), "strategy"),
        ];
        for (text, reason) in cases {
            let err = Recording::parse(text).expect_err(reason).to_string();
            assert!(err.contains(reason), "{reason:?} not in {err:?}");
            assert!(!err.contains('\n'), "one line: {err:?}");
        }
    }
}
