//! The loop's timeline, as Game Programming Patterns draws it: real time running left to
//! right, and on it each frame's wait, input, updates, render and present, with the
//! frame-cap deadlines; below it a second row for game time, where each update sits at the
//! game time it simulated and each presented frame at the game time it showed.
//!
//! The game row runs at the same scale as the real one, one second of game time to one of
//! real time, and is centred on the frames shown: so when the game keeps to real time its
//! ticks sit under the updates that made them, when it runs slow (a weak machine, a time
//! scale below one) the game row is shorter than the real one, and when it races (the
//! uncapped loop) it is longer and runs off both ends. A dotted link joins each update to
//! its game tick, so the fan of the links is the game clock's rate against the real one.
//!
//! This is a pure model: frame records in, marks at fractions of the strip's width out.
//! Where the marks go and in what colours is the view's ([`crate::view::timeline`]): the
//! window draws them with its sprite pipeline and the lab writes them into its SVG.

use std::time::Duration;

use super::frame::FrameRecord;

/// Real time the strip shows.
pub const TIMELINE_SPAN: Duration = Duration::from_secs(1);

/// What a mark stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// The loop waiting (sleeping or spinning) before a frame.
    Wait,
    /// Input handled at a frame's start.
    Input,
    /// An update, at about the real time it ran; `of` is the number its frame ran.
    Update { of: u32 },
    /// Drawing: the frame's CPU work, any simulated render cost, acquiring the surface.
    Render,
    /// Within the drawing, waiting for a surface image: the swapchain's queue was full (with
    /// FIFO, the frames ahead were waiting for their refreshes).
    Queue,
    /// Submitting and presenting (with vsync, waiting for the display).
    Present,
    /// The GPU device was lost: the time until a new one could draw.
    GpuLost,
    /// A frame-cap deadline: when the loop planned to start its next frame.
    Deadline,
    /// A frame that dropped game time (the update limit) or real time (a stall).
    Dropped,
    /// An update on the game row, at the game time of the state it made.
    GameUpdate,
    /// A presented frame on the game row, at the game time of the state it drew.
    Shown,
    /// From an update's tick on the real row (`from`) to its tick on the game row (`to`).
    Link,
}

impl MarkKind {
    /// Whether it is a stretch of real time (drawn as a bar), not an instant.
    pub fn is_span(self) -> bool {
        matches!(
            self,
            MarkKind::Wait
                | MarkKind::Render
                | MarkKind::Queue
                | MarkKind::Present
                | MarkKind::GpuLost
        )
    }

    /// The row the mark is drawn on (a link spans both).
    pub fn row(self) -> Row {
        match self {
            MarkKind::GameUpdate | MarkKind::Shown => Row::Game,
            MarkKind::Link => Row::Between,
            _ => Row::Real,
        }
    }
}

/// The strip's rows, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Real,
    Between,
    Game,
}

/// One thing drawn on the strip: a span from `from` to `to`, or a tick where they are equal,
/// as fractions of the strip's width (0 its left edge, 1 its right edge).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub kind: MarkKind,
    pub from: f32,
    pub to: f32,
}

/// The strip for one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Strip {
    pub marks: Vec<Mark>,
    /// Real time at the strip's right edge.
    pub end: Duration,
    /// Real time across the strip.
    pub span: Duration,
    /// How far the game clock was behind the wall clock at the newest frame, in seconds
    /// (negative when ahead).
    pub behind: f64,
}

impl Strip {
    /// The marks of one kind.
    pub fn of(&self, kind: MarkKind) -> impl Iterator<Item = &Mark> {
        self.marks.iter().filter(move |m| m.kind == kind)
    }

    /// How many marks of a kind there are.
    pub fn count(&self, kind: MarkKind) -> usize {
        self.of(kind).count()
    }
}

/// The recent frames the strip is drawn from.
#[derive(Clone, Debug, Default)]
pub struct FrameHistory {
    frames: Vec<FrameRecord>,
}

impl FrameHistory {
    /// Frames kept: a little more than the strip shows, so its left edge is never bare.
    const KEEP: Duration = Duration::from_millis(1500);

    /// Adds a finished frame; forgets frames that have left the strip.
    pub fn push(&mut self, record: FrameRecord) {
        let horizon = record.start.saturating_sub(Self::KEEP);
        let old = self.frames.partition_point(|f| f.start < horizon);
        self.frames.drain(..old);
        self.frames.push(record);
    }

    /// Forgets every frame (after a strategy switch).
    pub fn clear(&mut self) {
        self.frames.clear();
    }

    /// The frames, oldest first.
    pub fn frames(&self) -> &[FrameRecord] {
        &self.frames
    }

    /// The strip ending at the newest frame's end.
    pub fn strip(&self, span: Duration) -> Strip {
        let end = self.frames.last().map_or(Duration::ZERO, frame_end);
        strip(&self.frames, end, span)
    }
}

/// A wait for a surface image shorter than this is not drawn (a free image takes a few
/// microseconds).
const QUEUE_SHOWN: Duration = Duration::from_micros(200);

/// When a frame ended: its present, or the end of its updates if it was not presented.
pub fn frame_end(f: &FrameRecord) -> Duration {
    f.presented.unwrap_or(f.start + f.update_time)
}

/// The strip of `frames` (oldest first) over the `span` of real time ending at `end`.
pub fn strip(frames: &[FrameRecord], end: Duration, span: Duration) -> Strip {
    let start = end.saturating_sub(span);
    let x = |t: Duration| -> f32 {
        ((t.as_secs_f64() - start.as_secs_f64()) / span.as_secs_f64().max(1e-9)) as f32
    };
    let offset = game_offset(frames, start, end);
    let game_x = |g: Duration| {
        ((g.as_secs_f64() - offset - start.as_secs_f64()) / span.as_secs_f64().max(1e-9)) as f32
    };
    let mut marks = Marks::default();
    let mut push = |kind, from: f32, to: f32| marks.push(Mark { kind, from, to });
    for f in frames {
        if frame_end(f) < start || f.start.saturating_sub(f.waited) > end {
            continue;
        }
        if !f.waited.is_zero() {
            push(MarkKind::Wait, x(f.start - f.waited), x(f.start));
        }
        if f.inputs > 0 {
            push(MarkKind::Input, x(f.start), x(f.start));
        }
        if !f.dropped.is_zero() || !f.clamped.is_zero() {
            push(MarkKind::Dropped, x(f.start), x(f.start));
        }
        for i in 0..f.updates {
            let ran = f.start + f.update_time.mul_f64((i as f64 + 0.5) / f.updates as f64);
            let made = f.update_game_time(i) + f.step;
            push(MarkKind::Update { of: f.updates }, x(ran), x(ran));
            let g = game_x(made);
            push(MarkKind::GameUpdate, g, g);
            push(MarkKind::Link, x(ran), g);
        }
        let mut drawn = f.start + f.update_time;
        if !f.render.gpu_lost.is_zero() {
            push(MarkKind::GpuLost, x(drawn), x(drawn + f.render.gpu_lost));
            drawn += f.render.gpu_lost;
        }
        if let Some(presented) = f.presented {
            let present_from = presented.saturating_sub(f.render.present).max(drawn);
            push(MarkKind::Render, x(drawn), x(present_from));
            if f.render.acquire >= QUEUE_SHOWN {
                // The acquire came just before the upload and the encoding.
                let acquired = present_from
                    .saturating_sub(f.render.upload + f.render.encode)
                    .max(drawn);
                let asked = acquired.saturating_sub(f.render.acquire).max(drawn);
                push(MarkKind::Queue, x(asked), x(acquired));
            }
            push(MarkKind::Present, x(present_from), x(presented));
            let g = game_x(f.drawn_time());
            push(MarkKind::Shown, g, g);
        }
        if let Some(deadline) = f.deadline {
            push(MarkKind::Deadline, x(deadline), x(deadline));
        }
    }
    let behind = frames.last().map_or(0.0, |f| {
        f.reference.as_secs_f64() - f.game_shown.as_secs_f64()
    });
    Strip {
        marks: marks.marks,
        end,
        span,
        behind,
    }
}

/// Ticks of one kind closer than this (a fraction of the strip's width, under a pixel of
/// the window's strip) are drawn once, and spans of one kind that meet are drawn as one:
/// an uncapped loop's thousand frames a second stay a readable and cheap picture.
const MIN_GAP: f32 = 1.0 / 1500.0;
/// Links closer than this are drawn once: at most about 40 on the strip, every other frame
/// at 60 Hz, enough to show the game row keeping pace, falling behind or racing ahead.
const MIN_LINK_GAP: f32 = 1.0 / 40.0;

/// The marks being collected, thinned as they come.
#[derive(Default)]
struct Marks {
    marks: Vec<Mark>,
    /// Index in `marks` of the last mark of each kind.
    last: [Option<usize>; Marks::KINDS],
}

impl Marks {
    /// Kinds of mark, each with its slot in `last`.
    const KINDS: usize = 12;

    fn slot(kind: MarkKind) -> usize {
        match kind {
            MarkKind::Wait => 0,
            MarkKind::Input => 1,
            MarkKind::Update { .. } => 2,
            MarkKind::Render => 3,
            MarkKind::Present => 4,
            MarkKind::Deadline => 5,
            MarkKind::Dropped => 6,
            MarkKind::GameUpdate => 7,
            MarkKind::Shown => 8,
            MarkKind::Link => 9,
            MarkKind::Queue => 10,
            MarkKind::GpuLost => 11,
        }
    }

    /// Adds `m` if any of it is on the strip (a link: both its ends), clipped to it.
    fn push(&mut self, m: Mark) {
        let inside = |v: f32| (0.0..=1.0).contains(&v);
        let slot = Self::slot(m.kind);
        let last = self.last[slot].map(|i| self.marks[i]);
        let is_span = m.kind.is_span();
        let m = match m.kind {
            MarkKind::Link => {
                if !(inside(m.from) && inside(m.to))
                    || last.is_some_and(|l| (m.from - l.from).abs() < MIN_LINK_GAP)
                {
                    return;
                }
                m
            }
            _ => {
                if m.to < 0.0 || m.from > 1.0 || (is_span && m.to <= m.from) {
                    return;
                }
                Mark {
                    from: m.from.max(0.0),
                    to: m.to.min(1.0),
                    ..m
                }
            }
        };
        if let (Some(i), Some(l)) = (self.last[slot], last)
            && m.kind != MarkKind::Link
        {
            if is_span && m.from - l.to < MIN_GAP {
                self.marks[i].to = self.marks[i].to.max(m.to);
                return;
            }
            if !is_span && (m.from - l.from).abs() < MIN_GAP {
                return;
            }
        }
        self.last[slot] = Some(self.marks.len());
        self.marks.push(m);
    }
}

/// Game time minus real time (seconds), averaged over the frames that start between `start`
/// and `end`: where the game row is placed. An average, so a game clock that moves in steps
/// (10 updates a second) does not make the row jump at every frame.
fn game_offset(frames: &[FrameRecord], start: Duration, end: Duration) -> f64 {
    let (mut sum, mut n) = (0.0, 0u32);
    for f in frames.iter().filter(|f| f.start >= start && f.start <= end) {
        sum += f.game_shown.as_secs_f64() - f.start.as_secs_f64();
        n += 1;
    }
    if n == 0 { 0.0 } else { sum / f64::from(n) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use crate::session::frame::RenderTimes;
    use crate::world::WorldConfig;
    use looplab_timing::{LoopSettings, ManualClock, Rate, Strategy, Wake};

    /// A modelled machine: what an update and a frame's drawing cost.
    struct Machine {
        update: Duration,
        render: Duration,
        present: Duration,
    }

    const FAST: Machine = Machine {
        update: Duration::from_micros(300),
        render: Duration::from_millis(2),
        present: Duration::from_micros(500),
    };

    /// Runs the loop as the window does, on a manual clock, for `seconds`, and returns the
    /// history of its frames.
    fn run(strategy: Strategy, settings: LoopSettings, m: &Machine, seconds: u64) -> FrameHistory {
        let mut session = Session::new(
            strategy,
            settings,
            &WorldConfig {
                seed: 1,
                bullets: 10,
            },
        );
        let mut clock = ManualClock::default();
        let mut history = FrameHistory::default();
        let mut idle_since = Duration::ZERO;
        let mut frame = 0u32;
        while clock.now() < Duration::from_secs(seconds) {
            let now = clock.now();
            let plan = session.frame(now, |_, _| clock.advance(m.update));
            let mut record = session.record(&plan);
            record.waited = now - idle_since;
            record.update_time = clock.now() - now;
            record.inputs = u32::from(frame.is_multiple_of(30));
            clock.advance(m.render);
            clock.advance(m.present);
            record.render.present = m.present;
            record.presented = Some(clock.now());
            history.push(record);
            idle_since = clock.now();
            if let Wake::At(t) = plan.wake {
                clock.advance_to(t);
            }
            frame += 1;
        }
        history
    }

    /// 10 updates a second under a 60 Hz frame cap.
    fn ten_ups() -> LoopSettings {
        LoopSettings::default()
            .with_update_rate(Rate::hz(10.0).unwrap())
            .with_frame_cap(Some(Rate::SIXTY_HZ))
    }

    /// Updates on the real row per presented frame, for each frame on the strip.
    fn updates_per_render(strip: &Strip) -> Vec<usize> {
        let mut renders: Vec<f32> = strip.of(MarkKind::Render).map(|m| m.from).collect();
        renders.sort_by(f32::total_cmp);
        let updates: Vec<f32> = strip
            .marks
            .iter()
            .filter(|m| matches!(m.kind, MarkKind::Update { .. }))
            .map(|m| m.from)
            .collect();
        renders
            .windows(2)
            .map(|w| updates.iter().filter(|&&u| u > w[0] && u < w[1]).count())
            .collect()
    }

    #[test]
    fn a_wait_for_a_surface_image_is_drawn_inside_the_frame_where_it_happened() {
        let ms = |x: f64| Duration::from_secs_f64(x / 1e3);
        // 20 frames of FIFO with a full queue: 1 ms of updates, 12 ms waiting for an image,
        // then 1 ms of upload and encoding and 0.5 ms of present. The last frame's image
        // was free.
        let frames: Vec<FrameRecord> = (0..20)
            .map(|k| FrameRecord {
                start: ms(16.0 * k as f64),
                update_time: ms(1.0),
                render: RenderTimes {
                    acquire: if k == 19 { ms(0.01) } else { ms(12.0) },
                    encode: ms(1.0),
                    present: ms(0.5),
                    ..RenderTimes::default()
                },
                presented: Some(ms(16.0 * k as f64 + 14.5)),
                ..FrameRecord::default()
            })
            .collect();
        let s = strip(&frames, ms(320.0), Duration::from_millis(320));
        let queues: Vec<&Mark> = s.of(MarkKind::Queue).collect();
        assert_eq!(queues.len(), 19);
        let scale = 1.0 / 320.0;
        let q = queues[3];
        assert!(
            (q.from - 49.0 * scale).abs() < 1e-4 && (q.to - 61.0 * scale).abs() < 1e-4,
            "{q:?}"
        );
    }

    #[test]
    fn the_time_without_a_gpu_is_a_bar_of_its_own_before_the_frame_draws() {
        let ms = |x: f64| Duration::from_secs_f64(x / 1e3);
        // Frames every 16 ms; the sixth found the device lost and waited 40 ms for a new
        // one before it drew.
        let frames: Vec<FrameRecord> = (0..10)
            .map(|k| {
                let start = if k > 5 {
                    16.0 * k as f64 + 40.0
                } else {
                    16.0 * k as f64
                };
                let lost = if k == 5 { 40.0 } else { 0.0 };
                FrameRecord {
                    start: ms(start),
                    update_time: ms(1.0),
                    render: RenderTimes {
                        gpu_lost: ms(lost),
                        present: ms(0.5),
                        ..RenderTimes::default()
                    },
                    presented: Some(ms(start + lost + 3.0)),
                    ..FrameRecord::default()
                }
            })
            .collect();
        let s = strip(&frames, ms(200.0), Duration::from_millis(200));
        let lost: Vec<&Mark> = s.of(MarkKind::GpuLost).collect();
        assert_eq!(lost.len(), 1);
        let scale = 1.0 / 200.0;
        assert!(
            (lost[0].from - 81.0 * scale).abs() < 1e-4 && (lost[0].to - 121.0 * scale).abs() < 1e-4,
            "{:?}",
            lost[0]
        );
        // That frame's own drawing starts when the new device is there.
        let render = s
            .of(MarkKind::Render)
            .find(|m| (m.from - 121.0 * scale).abs() < 1e-4);
        assert!(render.is_some(), "{:?}", s.marks);
    }

    #[test]
    fn catch_up_at_ten_ups_renders_several_times_between_updates() {
        let strip = run(Strategy::CatchUp, ten_ups(), &FAST, 3).strip(TIMELINE_SPAN);
        let per_render = updates_per_render(&strip);
        let empty = per_render.iter().filter(|&&n| n == 0).count();
        assert!(per_render.len() > 50, "about 60 frames a second");
        let game_ticks = strip.count(MarkKind::GameUpdate);
        assert!(
            (9..=11).contains(&game_ticks),
            "10 updates a second: {game_ticks}"
        );
        assert!(empty > per_render.len() * 3 / 4, "{per_render:?}");
        assert!(per_render.iter().all(|&n| n <= 1));
        assert!(
            strip.count(MarkKind::Deadline) > 50,
            "the 60 Hz cap's deadlines"
        );
        assert!(strip.count(MarkKind::Wait) > 50, "it sleeps between frames");
        assert_eq!(strip.count(MarkKind::Dropped), 0);
        assert!(strip.behind.abs() < 0.11, "keeps pace: {}", strip.behind);
    }

    #[test]
    fn fixed_sleep_on_a_weak_gpu_never_sleeps_and_falls_behind() {
        let weak = Machine {
            render: Duration::from_millis(40),
            ..FAST
        };
        let history = run(Strategy::FixedSleep, LoopSettings::default(), &weak, 3);
        let strip = history.strip(TIMELINE_SPAN);
        let waits: f32 = strip.of(MarkKind::Wait).map(|m| m.to - m.from).sum();
        assert!(waits < 0.01, "no real sleep: {waits}");
        assert!(
            strip.behind > 1.0,
            "about 1.8 s behind after 3 s: {}",
            strip.behind
        );
        // One update per 42 ms frame, each 16.7 ms of game time: the game row is about
        // 0.4 of the real row's length, and the links fan in towards it.
        let extent = |kind: MarkKind| {
            let xs: Vec<f32> = strip
                .marks
                .iter()
                .filter(|m| m.kind == kind)
                .map(|m| m.from)
                .collect();
            xs.iter().copied().fold(f32::MIN, f32::max)
                - xs.iter().copied().fold(f32::MAX, f32::min)
        };
        let (real, game) = (
            extent(MarkKind::Update { of: 1 }),
            extent(MarkKind::GameUpdate),
        );
        assert!(real > 0.9, "{real}");
        assert!((0.3..0.5).contains(&game), "the game row is short: {game}");
        let links: Vec<&Mark> = strip.of(MarkKind::Link).collect();
        let inward = |m: &&&Mark| (m.to - 0.5).abs() < (m.from - 0.5).abs();
        assert!(links.len() > 20);
        assert!(links.iter().filter(inward).count() > links.len() * 3 / 4);
    }

    #[test]
    fn variable_runs_one_update_per_frame() {
        let strip = run(Strategy::Variable, LoopSettings::default(), &FAST, 2).strip(TIMELINE_SPAN);
        let per_render = updates_per_render(&strip);
        assert!(per_render.len() > 50);
        assert!(per_render.iter().all(|&n| n == 1), "{per_render:?}");
        assert!(strip.behind.abs() < 0.02, "{}", strip.behind);
        // Each link is nearly vertical: the game keeps to the wall clock.
        assert!(
            strip
                .of(MarkKind::Link)
                .all(|m| (m.to - m.from).abs() < 0.03)
        );
    }

    #[test]
    fn the_spiral_fills_frames_with_updates_and_drops() {
        let slow_updates = Machine {
            update: Duration::from_millis(20),
            ..FAST
        };
        let strip =
            run(Strategy::CatchUp, LoopSettings::default(), &slow_updates, 3).strip(TIMELINE_SPAN);
        let counts: Vec<u32> = strip
            .marks
            .iter()
            .filter_map(|m| match m.kind {
                MarkKind::Update { of } => Some(of),
                _ => None,
            })
            .collect();
        assert!(
            counts.iter().all(|&n| n == 10),
            "every frame runs the limit: {counts:?}"
        );
        assert!(strip.count(MarkKind::Dropped) >= 4, "and drops the rest");
        assert!(strip.behind > 0.3, "{}", strip.behind);
    }

    #[test]
    fn interpolation_shows_between_the_updates_and_latest_shows_on_them() {
        // The share of presented frames drawn at a game time where an update left the game.
        let on_ticks = |strategy| {
            let strip = run(strategy, ten_ups(), &FAST, 3).strip(TIMELINE_SPAN);
            let ticks: Vec<f32> = strip.of(MarkKind::GameUpdate).map(|m| m.from).collect();
            let shown: Vec<f32> = strip.of(MarkKind::Shown).map(|m| m.from).collect();
            // Frames that drew the same state share one mark.
            assert!(shown.len() >= 9, "{strategy}: {}", shown.len());
            let on = shown
                .iter()
                .filter(|&&s| ticks.iter().any(|&t| (t - s).abs() < 1e-3))
                .count();
            (on as f64 / shown.len() as f64, strip)
        };
        let (latest, _) = on_ticks(Strategy::CatchUp);
        let (blended, strip) = on_ticks(Strategy::Interpolated);
        assert!(
            latest > 0.95,
            "catch-up shows each update's state: {latest}"
        );
        assert!(blended < 0.25, "interpolation shows in between: {blended}");
        let inputs = strip.count(MarkKind::Input);
        assert!(
            (1..=3).contains(&inputs),
            "an input every 30 frames: {inputs}"
        );
    }

    #[test]
    fn uncapped_never_waits_and_races_the_wall_clock() {
        // A 60 Hz cap is set and ignored: running flat out is the point.
        let settings = LoopSettings::default().with_frame_cap(Some(Rate::SIXTY_HZ));
        let strip = run(Strategy::Uncapped, settings, &FAST, 2).strip(TIMELINE_SPAN);
        let per_render = updates_per_render(&strip);
        // 2.8 ms frames: about 350 a second, thinned on the strip but still far above 60.
        assert!(per_render.len() > 150, "{}", per_render.len());
        assert!(per_render.iter().all(|&n| n == 1), "{per_render:?}");
        assert_eq!(strip.count(MarkKind::Deadline), 0, "no deadlines");
        let waits: f32 = strip.of(MarkKind::Wait).map(|m| m.to - m.from).sum();
        assert!(waits < 0.001, "no waits: {waits}");
        // A 16.7 ms step per 2.8 ms frame: the game clock is seconds ahead after 2 s.
        assert!(
            strip.behind < -5.0,
            "ahead of the wall clock: {}",
            strip.behind
        );
    }

    #[test]
    fn extrapolation_draws_past_the_latest_update() {
        let strip = run(Strategy::Extrapolated, ten_ups(), &FAST, 3).strip(TIMELINE_SPAN);
        let ticks: Vec<f32> = strip.of(MarkKind::GameUpdate).map(|m| m.from).collect();
        let shown: Vec<f32> = strip.of(MarkKind::Shown).map(|m| m.from).collect();
        assert!((9..=11).contains(&ticks.len()), "{ticks:?}");
        assert!(
            shown.len() > 30,
            "a new state drawn every frame: {}",
            shown.len()
        );
        // Each shown state lies after the update before it and less than a step (0.1 of the
        // one-second strip) past it: drawn ahead of the game state, never behind it.
        let latest_before = |s: f32| {
            ticks
                .iter()
                .copied()
                .filter(|&t| t <= s + 1e-4)
                .fold(None, |a: Option<f32>, t| Some(a.map_or(t, |a| a.max(t))))
        };
        let mut ahead = 0;
        for &s in &shown {
            let Some(t) = latest_before(s) else { continue };
            assert!(s - t < 0.1 + 1e-3, "at most a step ahead: {s} after {t}");
            ahead += usize::from(s - t > 1e-3);
        }
        assert!(ahead > shown.len() * 3 / 4, "{ahead} of {}", shown.len());
        assert!(
            strip.count(MarkKind::Deadline) > 50,
            "the 60 Hz cap's deadlines"
        );
        let mut waits = strip.of(MarkKind::Wait);
        assert!(
            waits.any(|m| m.to - m.from > 0.005),
            "it sleeps to each deadline"
        );
    }

    #[test]
    fn marks_stay_on_the_strip_and_spans_are_ordered() {
        for strategy in Strategy::ALL {
            let strip = run(strategy, LoopSettings::default(), &FAST, 2).strip(TIMELINE_SPAN);
            assert!(!strip.marks.is_empty(), "{strategy}");
            for m in &strip.marks {
                assert!((0.0..=1.0).contains(&m.from), "{strategy} {m:?}");
                assert!((0.0..=1.0).contains(&m.to), "{strategy} {m:?}");
                if m.kind != MarkKind::Link {
                    assert!(m.from <= m.to, "{strategy} {m:?}");
                }
            }
        }
    }

    #[test]
    fn history_forgets_old_frames() {
        let mut h = FrameHistory::default();
        for i in 0..100 {
            h.push(FrameRecord {
                start: Duration::from_millis(100 * i),
                ..FrameRecord::default()
            });
        }
        let kept: Vec<_> = h.frames().iter().map(|f| f.start.as_millis()).collect();
        assert_eq!(kept.first(), Some(&8400));
        assert_eq!(kept.len(), 16);
        h.clear();
        assert_eq!(
            h.strip(TIMELINE_SPAN),
            Strip {
                span: TIMELINE_SPAN,
                ..Strip::default()
            }
        );
    }
}
