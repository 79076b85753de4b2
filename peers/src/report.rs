//! Every loop on every machine, as a table or JSON, and the verdict the README and the CI
//! test read: on each machine and each figure, is `looplab-timing` ahead of, level with or
//! behind the best of its peers, and by how much.

use std::fmt::Write as _;
use std::time::Duration;

use serde::Serialize;

use looplab::metrics::glossary;
use looplab::text::table::Table;

use crate::drive::{Run, run};
use crate::loops::{InputWay, Peer, all};
use looplab::lab::profile::Profile;

/// A loop as the report names it.
#[derive(Clone, Debug, Serialize)]
pub struct PeerInfo {
    pub name: String,
    pub source: String,
    pub port: bool,
    pub input: InputWay,
    pub input_doc: String,
}

/// A figure on which loops are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Figure {
    /// How far game time strays from real time: |game/real − 1|.
    KeepsTime,
    /// The longest frame: a spiral makes it grow.
    LongestFrame,
    /// Refreshes that showed no new frame.
    Missed,
    /// Animation error, the mean size, ms.
    AnimationError,
    /// Its 99th percentile size, ms.
    AnimationErrorP99,
    /// Picture lag, the mean, ms.
    Lag,
    /// Taps lost or seen twice.
    TapsMissed,
}

impl Figure {
    pub const ALL: [Figure; 7] = [
        Figure::KeepsTime,
        Figure::LongestFrame,
        Figure::Missed,
        Figure::AnimationError,
        Figure::AnimationErrorP99,
        Figure::Lag,
        Figure::TapsMissed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Figure::KeepsTime => "keeps time",
            Figure::LongestFrame => "longest frame",
            Figure::Missed => "missed refreshes",
            Figure::AnimationError => "animation error",
            Figure::AnimationErrorP99 => "animation error p99",
            Figure::Lag => "picture lag",
            Figure::TapsMissed => "taps lost or doubled",
        }
    }

    /// The run's value: lower is better.
    pub fn of(self, r: &Run) -> f64 {
        let c = &r.scorecard;
        match self {
            Figure::KeepsTime => (r.game_real - 1.0).abs(),
            Figure::LongestFrame => r.longest_frame_ms,
            Figure::Missed => c.missed as f64,
            Figure::AnimationError => c.animation_error.mean_abs_ms,
            Figure::AnimationErrorP99 => c.animation_error.p99_abs_ms,
            Figure::Lag => c.picture_lag.mean_ms,
            Figure::TapsMissed => (r.taps_lost + r.taps_doubled) as f64,
        }
    }

    /// Values closer than this are level (the figures' own noise: a frame's rounding).
    fn level_within(self) -> f64 {
        match self {
            Figure::KeepsTime => 0.002,
            Figure::LongestFrame | Figure::Lag => 0.05,
            // A refresh more or less at the run's end.
            Figure::Missed => 1.0,
            Figure::TapsMissed => 0.0,
            Figure::AnimationError | Figure::AnimationErrorP99 => 0.01,
        }
    }
}

/// Whether a loop is ranked against `looplab-timing`: not its own other strategies.
fn is_ours(name: &str) -> bool {
    name.starts_with("looplab-timing")
}

/// `looplab-timing` against the best peer on one machine and figure.
#[derive(Clone, Debug, Serialize)]
pub struct Verdict {
    pub profile: String,
    pub figure: Figure,
    pub looplab: f64,
    pub best_peer: String,
    pub best: f64,
    /// "ahead", "level" or "behind".
    pub standing: &'static str,
    /// Where `looplab-timing` is behind: what the loop ahead of it pays for that on the same
    /// machine, the figures on which it is behind `looplab-timing` (the trade it made).
    pub pays: Vec<Cost>,
}

/// One figure on which a peer is behind `looplab-timing` on the same machine, or the extra
/// update work it does at a faster rate of its own.
#[derive(Clone, Debug, Serialize)]
pub struct Cost {
    pub figure: &'static str,
    pub peer: f64,
    pub looplab: f64,
}

/// Everything one comparison found.
#[derive(Clone, Debug, Serialize)]
pub struct PeersReport {
    pub seconds: f64,
    pub update_hz: u32,
    pub peers: Vec<PeerInfo>,
    pub runs: Vec<Run>,
    pub verdicts: Vec<Verdict>,
}

/// The machines compared on: the lab's built-in profiles, and MonitorSim's noisy 60 Hz
/// display (where a 60 Hz step alternates 2 and 0 updates).
pub fn profiles() -> Vec<Profile> {
    let mut p = Profile::builtin();
    p.push(Profile::parse("monitor:refresh=60,render=5ms,noise=0.5%").expect("a valid profile"));
    p
}

/// Runs every loop on every profile for `length` of virtual time.
pub fn compare(profiles: &[Profile], length: Duration) -> PeersReport {
    let peers = all();
    let runs: Vec<Run> = profiles
        .iter()
        .flat_map(|profile| peers.iter().map(move |peer| run(peer, profile, length)))
        .collect();
    let verdicts = verdicts(peers, profiles, &runs);
    PeersReport {
        seconds: length.as_secs_f64(),
        update_hz: crate::loops::HZ,
        peers: peers.iter().map(info).collect(),
        runs,
        verdicts,
    }
}

fn info(p: &Peer) -> PeerInfo {
    PeerInfo {
        name: p.name.to_string(),
        source: p.source.to_string(),
        port: p.port,
        input: p.input,
        input_doc: p.input_doc.to_string(),
    }
}

fn verdicts(peers: &[Peer], profiles: &[Profile], runs: &[Run]) -> Vec<Verdict> {
    let ours = peers[0].name;
    let mut out = Vec::new();
    for profile in profiles {
        let on: Vec<&Run> = runs.iter().filter(|r| r.profile == profile.name).collect();
        let Some(mine) = on.iter().find(|r| r.peer == ours) else {
            continue;
        };
        for figure in Figure::ALL {
            let Some(best) = on
                .iter()
                .filter(|r| !is_ours(&r.peer))
                .min_by(|a, b| figure.of(a).total_cmp(&figure.of(b)))
            else {
                continue;
            };
            let (a, b) = (figure.of(mine), figure.of(best));
            let standing = standing_of(figure, a, b);
            let pays = if standing == "behind" {
                let faster = peers
                    .iter()
                    .any(|p| p.name == best.peer && p.hz > peers[0].hz);
                costs(mine, best, faster)
            } else {
                Vec::new()
            };
            out.push(Verdict {
                profile: profile.name.clone(),
                figure,
                looplab: a,
                best_peer: best.peer.clone(),
                best: b,
                standing,
                pays,
            });
        }
    }
    out
}

/// The figures on which `peer` is behind `mine`, and its extra updates a second where it
/// runs faster (bevy's 64 Hz default: a shorter step lags less, and it is more work).
fn costs(mine: &Run, peer: &Run, faster: bool) -> Vec<Cost> {
    let mut out: Vec<Cost> = Figure::ALL
        .into_iter()
        .filter(|&f| standing_of(f, f.of(mine), f.of(peer)) == "ahead")
        .map(|f| Cost {
            figure: f.name(),
            peer: f.of(peer),
            looplab: f.of(mine),
        })
        .collect();
    if faster {
        out.push(Cost {
            figure: "updates a second",
            peer: peer.ups,
            looplab: mine.ups,
        });
    }
    out
}

/// `looplab-timing`'s value `a` against a peer's `b` on `figure`.
fn standing_of(figure: Figure, a: f64, b: f64) -> &'static str {
    if (a - b).abs() <= figure.level_within() {
        "level"
    } else if a < b {
        "ahead"
    } else {
        "behind"
    }
}

impl PeersReport {
    /// The runs, a block per machine, then the verdicts.
    pub fn table(&self) -> String {
        let mut out = format!(
            "Loops against looplab-timing: {} s of each machine, {} updates a second, one body at {} px/s\n",
            self.seconds,
            self.update_hz,
            crate::drive::SPEED
        );
        let name_width = self.peers.iter().map(|p| p.name.len()).max().unwrap_or(0);
        for p in &self.peers {
            let _ = writeln!(
                out,
                "  {:<name_width$}  {}{}; input: {}",
                p.name,
                p.source,
                if p.port { " (a port)" } else { "" },
                p.input_doc
            );
        }
        let headers = [
            "loop",
            glossary::FPS.header,
            glossary::UPS.header,
            glossary::SPEED.header,
            glossary::MISSED.header,
            glossary::ANIMATION_ERROR.header,
            glossary::ANIMATION_ERROR_P99.header,
            glossary::ANIMATION_ERROR_OVER.header,
            glossary::PICTURE_LAG.header,
            "dropped",
            "longest",
            "taps lost/2x",
            "hash",
        ];
        let mut table = Table::new(&headers).grouped();
        let mut profile = None;
        for r in &self.runs {
            if profile != Some(&r.profile) {
                profile = Some(&r.profile);
                table.blank();
                table.note(format!("on {}:", r.profile));
                table.headers_again();
            }
            table.row(cells(r));
        }
        out += &table.text();
        out.push('\n');
        out += &glossary::legend(&[
            &glossary::FPS,
            &glossary::UPS,
            &glossary::SPEED,
            &glossary::MISSED,
            &glossary::ANIMATION_ERROR,
            &glossary::ANIMATION_ERROR_P99,
            &glossary::ANIMATION_ERROR_OVER,
            &glossary::PICTURE_LAG,
        ]);
        out += "dropped: real time the loop let go, and in how many frames. longest: the longest frame (a\n\
                spiral makes each longer than the last). taps lost/2x: a tap every 250 ms that no update saw,\n\
                or two did. hash: the body's state after 300 updates.\n";
        out += &self.verdict_lines();
        out
    }

    /// Each machine's verdicts, and under each row lost what the loop ahead of
    /// `looplab-timing` pays for it.
    fn verdict_lines(&self) -> String {
        let mut out = String::from(
            "\nlooplab-timing against the best of the others, machine by machine (lower is better):\n",
        );
        for v in &self.verdicts {
            let _ = writeln!(
                out,
                "  {:<9} {:<21} {:<6}  {:>9.3} against {:>9.3} ({})",
                v.profile,
                v.figure.name(),
                v.standing,
                v.looplab,
                v.best,
                v.best_peer
            );
            if v.standing == "behind" {
                let paid: Vec<String> = v
                    .pays
                    .iter()
                    .map(|c| format!("{} {:.3} against {:.3}", c.figure, c.peer, c.looplab))
                    .collect();
                let _ = writeln!(
                    out,
                    "{:<42}{} pays: {}",
                    "",
                    v.best_peer,
                    if paid.is_empty() {
                        "nothing measured here".to_string()
                    } else {
                        paid.join(", ")
                    }
                );
            }
        }
        out
    }
}

/// A run's row of the table, in the order of its headers.
fn cells(r: &Run) -> [String; 13] {
    let c = &r.scorecard;
    let a = &c.animation_error;
    [
        r.peer.clone(),
        format!("{:.1}", r.frame_times.average_fps),
        format!("{:.1}", r.ups),
        format!("{:.2}x", r.game_real),
        format!(
            "{} ({:.1}%)",
            c.missed,
            c.missed as f64 * 100.0 / c.refreshes.max(1) as f64
        ),
        format!("{:.2}", a.mean_abs_ms),
        format!("{:.2}", a.p99_abs_ms),
        format!("{:.1}%", a.over_2ms_share * 100.0),
        format!("{:.1}", c.picture_lag.mean_ms),
        format!("{:.0} ms ({})", r.dropped_ms, r.dropping_frames),
        format!("{:.1} ms", r.longest_frame_ms),
        format!("{}/{} of {}", r.taps_lost, r.taps_doubled, r.taps),
        r.hash.map_or("-".into(), |h| format!("{:08x}", h >> 32)),
    ]
}
