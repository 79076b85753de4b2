//! The bench's targets, judged from its measurements; [`tables`](super::tables) prints them.

use looplab_timing::Strategy;
use serde::{Deserialize, Serialize};

use super::BenchReport;
use super::headless::{PacingPair, SpriteVariant, ThroughputResult};
use super::measure::Spread;
use super::windowed::LatencySetting;

/// The performance targets the bench judges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetKey {
    CapStddev,
    CapP99,
    CapCpu,
    CapEveryRow,
    Sprites10k,
    Sprites100k,
    /// On a software rasteriser: as a share of the bare renderer's frame.
    CaptionsShare,
    /// On a GPU: in milliseconds.
    CaptionsCost,
    CompareMode,
    WorldUpdate,
    RenderTick2k,
    RenderTick100k,
    ShipDelayRenderTick,
    ShipDelayModel,
    InputLatency,
    Startup,
}

impl TargetKey {
    /// The target in words.
    pub fn name(self) -> &'static str {
        match self {
            TargetKey::CapStddev => "60 Hz cap: frame interval stddev",
            TargetKey::CapP99 => "60 Hz cap: p99 |interval - 16.667 ms|",
            TargetKey::CapCpu => "60 Hz cap: CPU against the naive cap",
            TargetKey::CapEveryRow => {
                "every cap (30, 60, 144 Hz; window and headless): precise stddev against naive, stalls counted"
            }
            TargetKey::Sprites10k => "sprites at 10k, overlay hidden, against bare",
            TargetKey::Sprites100k => "sprites at 100k, overlay hidden, against bare",
            TargetKey::CaptionsShare => {
                "captions and timeline strip at 2k bullets, software rasteriser"
            }
            TargetKey::CaptionsCost => "captions and timeline strip at 2k bullets, GPU",
            TargetKey::CompareMode => "compare mode against the single view, same bullets in all",
            TargetKey::WorldUpdate => "world update at 1M bullets",
            TargetKey::RenderTick2k => "render tick (copy + partial update) at 2k bullets",
            TargetKey::RenderTick100k => "render tick (copy + partial update) at 100k bullets",
            TargetKey::ShipDelayRenderTick => {
                "the ship's key-to-screen delay, render tick at 10 UPS, 60 Hz cap"
            }
            TargetKey::ShipDelayModel => {
                "the ship's mean delay in the window against the lab's model"
            }
            TargetKey::InputLatency => "input latency at a 60 Hz cap",
            TargetKey::Startup => "start-up to first presented frame",
        }
    }
}

/// How a measured figure must compare with a target's threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    AtMost,
    Below,
    AtLeast,
}

/// A target's threshold, written once: the goal printed and the judgement both come from it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    pub bound: Bound,
    pub threshold: f64,
    /// What the figure is, after the number: `" ms"`, `"x the bare renderer's FPS"`.
    pub unit: &'static str,
}

impl Limit {
    const fn new(bound: Bound, threshold: f64, unit: &'static str) -> Self {
        Self {
            bound,
            threshold,
            unit,
        }
    }

    /// The goal as the report prints it: `<= 0.05 ms`.
    pub fn goal(&self) -> String {
        let op = match self.bound {
            Bound::AtMost => "<=",
            Bound::Below => "<",
            Bound::AtLeast => ">=",
        };
        format!("{op} {}{}", self.threshold, self.unit)
    }

    /// Whether `value` (in the limit's unit) meets it.
    pub fn met(&self, value: f64) -> bool {
        match self.bound {
            Bound::AtMost => value <= self.threshold,
            Bound::Below => value < self.threshold,
            Bound::AtLeast => value >= self.threshold,
        }
    }

    /// The verdict on a figure with its spread: met or missed where the whole spread is
    /// on one side of the threshold, within noise where it straddles it.
    pub fn judge(&self, figure: Spread) -> Verdict {
        match (self.met(figure.low), self.met(figure.high)) {
            (true, true) => Verdict::Met,
            (false, false) => Verdict::Missed,
            _ => Verdict::WithinNoise,
        }
    }
}

/// How a target came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Met,
    Missed,
    /// The figure's spread straddles the threshold: this run cannot tell.
    WithinNoise,
    /// Not measured here (no display).
    NotMeasured,
}

impl Verdict {
    /// As the report's target lines print it.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Met => "met   ",
            Verdict::Missed => "MISSED",
            Verdict::WithinNoise => "noise ",
            Verdict::NotMeasured => "n/a   ",
        }
    }
}

impl TargetKey {
    /// The target's threshold.
    pub fn limit(self) -> Limit {
        use Bound::*;
        match self {
            TargetKey::CapStddev => Limit::new(AtMost, 0.05, " ms"),
            TargetKey::CapP99 => Limit::new(AtMost, 0.25, " ms"),
            TargetKey::CapCpu => Limit::new(AtMost, 1.5, "x"),
            TargetKey::CapEveryRow => Limit::new(
                AtMost,
                1.0,
                "x the naive wait's stddev, pooled over every cap row, no row lost beyond its spread",
            ),
            TargetKey::Sprites10k | TargetKey::Sprites100k => {
                Limit::new(AtLeast, 0.95, "x the bare renderer's FPS")
            }
            TargetKey::CaptionsShare => Limit::new(AtMost, 0.45, "x the bare renderer's frame"),
            TargetKey::CaptionsCost => Limit::new(AtMost, 0.5, " ms a frame"),
            TargetKey::CompareMode => Limit::new(AtMost, 1.3, "x the single view's frame time"),
            TargetKey::WorldUpdate => Limit::new(AtLeast, 300.0, " M bullet-steps/s"),
            TargetKey::RenderTick2k => Limit::new(Below, 0.5, " ms a frame"),
            TargetKey::RenderTick100k => Limit::new(Below, 3.0, " ms a frame"),
            TargetKey::ShipDelayRenderTick => Limit::new(
                AtMost,
                1.0,
                "x one frame interval + the frame's own work (the median)",
            ),
            TargetKey::ShipDelayModel => {
                Limit::new(AtMost, 20.0, "% from the model, every strategy and rate")
            }
            TargetKey::InputLatency => Limit::new(
                AtMost,
                0.0,
                "% of keys later than one frame interval + the frame's own render and present",
            ),
            TargetKey::Startup => Limit::new(Below, 1000.0, " ms (release build)"),
        }
    }
}

/// One target judged: its label, its threshold, the figure with its spread, what else was
/// measured beside it, and the verdict.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Target {
    pub key: TargetKey,
    pub goal: String,
    /// The figure in the goal's unit with its spread; `None` when not measured here.
    pub figure: Option<Spread>,
    pub measured: String,
    pub verdict: Verdict,
}

/// A target judged from its figure in the limit's unit (`None`: not measured here).
fn target(key: TargetKey, figure: Option<Spread>, measured: String) -> Target {
    let limit = key.limit();
    Target {
        key,
        goal: limit.goal(),
        figure,
        measured,
        verdict: figure.map_or(Verdict::NotMeasured, |f| limit.judge(f)),
    }
}

/// A target judged from a figure measured once, with no spread.
fn exact(key: TargetKey, figure: Option<f64>, measured: String) -> Target {
    target(key, figure.map(Spread::exact), measured)
}

fn find_sprites(
    rows: &[ThroughputResult],
    bullets: usize,
    variant: SpriteVariant,
) -> Option<&ThroughputResult> {
    rows.iter()
        .find(|r| r.bullets == bullets && r.variant == variant)
}

/// Judges every target, preferring windowed measurements where they exist.
pub fn judge(r: &BenchReport) -> Vec<Target> {
    let mut out = pacing_targets(r);
    out.extend(sprite_targets(r));
    out.extend(frame_cost_targets(r));
    out.extend(ship_targets(r));
    out.push(latency_target(r));
    out.push(match r.startup_ms {
        Some(ms) => exact(
            TargetKey::Startup,
            Some(ms),
            format!("{ms:.0} ms ({} build)", r.host.build),
        ),
        None => exact(TargetKey::Startup, None, "not measured (no display)".into()),
    });
    out
}

/// The 60 Hz cap's spread, error and CPU, from the window's run where there is one, and
/// the precise wait against the naive one at every rate.
fn pacing_targets(r: &BenchReport) -> Vec<Target> {
    let (pacing, where_pacing) = if r.pacing_window.is_empty() {
        (&r.pacing, "headless")
    } else {
        (&r.pacing_window, "window")
    };
    let mut out = Vec::new();
    if let Some(pair) = pacing.iter().find(|p| p.rate_hz == 60.0) {
        let (p, n) = (&pair.precise, &pair.naive);
        out.extend([
            target(
                TargetKey::CapStddev,
                Some(pair.precise_stddev),
                format!(
                    "{} ms ({where_pacing}; naive cap {:.3} ms); {} stalls over {} ms, {:.3} ms without them",
                    pair.precise_stddev.show(3, ""),
                    n.stddev_ms,
                    p.stalls,
                    super::headless::STALL_MS,
                    p.stddev_without_stalls_ms
                ),
            ),
            target(
                TargetKey::CapP99,
                Some(pair.precise_p99),
                format!(
                    "{} ms ({where_pacing}; naive cap {:.3} ms)",
                    pair.precise_p99.show(3, ""),
                    n.p99_error_ms
                ),
            ),
            target(
                TargetKey::CapCpu,
                Some(pair.cpu_ratio),
                format!(
                    "{} ({:.1}% vs {:.1}% of a core, {where_pacing})",
                    pair.cpu_ratio.show(2, "x"),
                    p.cpu_percent,
                    n.cpu_percent
                ),
            ),
        ]);
    }
    let rows: Vec<(&str, &PacingPair)> = r
        .pacing_window
        .iter()
        .map(|p| ("window", p))
        .chain(r.pacing.iter().map(|p| ("headless", p)))
        .collect();
    if let Some(every) = every_cap_row(&rows) {
        out.push(every);
    }
    out
}

/// The precise wait against the naive one over every cap row (headless and window, each
/// rate), stalls counted. One row alone is too noisy to judge the wait by (a stall or two
/// moves a half-second's stddev), so the rows are pooled: the root mean square of the
/// precise wait's stddevs over the naive wait's, each row's spread carried through. A row
/// the precise wait lost beyond its spread is a miss whatever the pool says; one lost
/// within its spread makes the verdict "within noise", and the report names it.
fn every_cap_row(rows: &[(&str, &PacingPair)]) -> Option<Target> {
    if rows.is_empty() {
        return None;
    }
    let naive: f64 = rows.iter().map(|(_, p)| p.naive.stddev_ms.powi(2)).sum();
    let pooled = |ratio: fn(&Spread) -> f64| {
        let precise: f64 = rows
            .iter()
            .map(|(_, p)| (ratio(&p.stddev_ratio) * p.naive.stddev_ms).powi(2))
            .sum();
        (precise / naive.max(f64::MIN_POSITIVE)).sqrt()
    };
    let pool = Spread {
        value: pooled(|s| s.value),
        low: pooled(|s| s.low),
        high: pooled(|s| s.high),
    };
    let lost_beyond = rows.iter().any(|(_, p)| p.stddev_ratio.low > 1.0);
    let lost_within = rows
        .iter()
        .any(|(_, p)| p.stddev_ratio.value > 1.0 && p.stddev_ratio.low <= 1.0);
    let each = rows
        .iter()
        .map(|(at, p)| {
            let r = p.stddev_ratio;
            let said = match (r.low > 1.0, r.value > 1.0) {
                (true, _) => ", lost",
                (false, true) => ", lost within noise",
                _ => "",
            };
            format!("{at} {}: {}{said}", p.rate_hz, r.show(2, "x"))
        })
        .collect::<Vec<_>>()
        .join("; ");
    let limit = TargetKey::CapEveryRow.limit();
    let verdict = match limit.judge(pool) {
        _ if lost_beyond => Verdict::Missed,
        Verdict::Met if lost_within => Verdict::WithinNoise,
        v => v,
    };
    Some(Target {
        key: TargetKey::CapEveryRow,
        goal: limit.goal(),
        figure: Some(pool),
        measured: format!("{} pooled ({each})", pool.show(2, "x")),
        verdict,
    })
}

/// The sprite renderer against the bare one, and what the captions cost it: from the
/// offscreen frames drawn in turn, with the window's separate runs beside them.
fn sprite_targets(r: &BenchReport) -> Vec<Target> {
    let mut out = Vec::new();
    let spread = |bullets: usize, variant: SpriteVariant| {
        r.sprite_spreads
            .iter()
            .find(|s| s.bullets == bullets && s.variant == variant)
    };
    for (bullets, key) in [
        (10_000, TargetKey::Sprites10k),
        (100_000, TargetKey::Sprites100k),
    ] {
        let Some(s) = spread(bullets, SpriteVariant::Sprites) else {
            continue;
        };
        let window = match (
            find_sprites(&r.sprites_window, bullets, SpriteVariant::Sprites),
            find_sprites(&r.sprites_window, bullets, SpriteVariant::Bare),
        ) {
            (Some(s), Some(b)) => format!(
                "; window {:.3}x ({:.1} vs {:.1} FPS, separate runs)",
                s.fps / b.fps.max(1e-9),
                s.fps,
                b.fps
            ),
            _ => String::new(),
        };
        out.push(target(
            key,
            Some(s.vs_bare),
            format!(
                "{} (offscreen, frames in turn{window})",
                s.vs_bare.show(3, "x")
            ),
        ));
    }
    if let Some(story) = spread(2_000, SpriteVariant::Story) {
        let words =
            |v: SpriteVariant| find_sprites(&r.sprites, 2_000, v).map_or(0.0, |t| t.overlay_ms);
        let composing_ms = words(SpriteVariant::Story) - words(SpriteVariant::Sprites);
        let bare_ms = find_sprites(&r.sprites, 2_000, SpriteVariant::Bare).map(|b| 1e3 / b.fps);
        out.push(captions_target(
            r.host.software,
            story.added_ms,
            bare_ms,
            composing_ms,
        ));
    }
    out
}

/// What the captions and the timeline strip add to a frame at 2k bullets. On a software
/// rasteriser the cost is the few hundred small shapes it rasterises on the CPU, a share of
/// whatever the bare frame takes on that machine, so it is judged as that share; on a GPU
/// they cost little and steadily, and are judged in milliseconds. The report says which.
/// `added_ms` is their cost with its spread, `bare_ms` the bare renderer's frame and
/// `composing_ms` the part spent composing them on the CPU.
fn captions_target(
    software: bool,
    added_ms: Spread,
    bare_ms: Option<f64>,
    composing_ms: f64,
) -> Target {
    let share = bare_ms.map(|bare| added_ms.map(|ms| ms / bare));
    let both = format!(
        "{} ms a frame{} ({composing_ms:.2} ms of it composing on the CPU; offscreen, frames in turn)",
        added_ms.show(2, ""),
        share.map_or(String::new(), |s| format!(
            ", {} the bare renderer's frame",
            s.show(2, "x")
        )),
    );
    match share.filter(|_| software) {
        Some(share) => target(TargetKey::CaptionsShare, Some(share), both),
        None => target(TargetKey::CaptionsCost, Some(added_ms), both),
    }
}

/// Compare mode against the single view, the world's update and the render tick.
fn frame_cost_targets(r: &BenchReport) -> Vec<Target> {
    let mut out = Vec::new();
    let single = r.compare.iter().find(|c| c.lanes == 1);
    let worst = r
        .compare
        .iter()
        .filter(|c| c.lanes > 1)
        .max_by(|a, b| a.frame_ms.total_cmp(&b.frame_ms));
    if let (Some(single), Some(w)) = (single, worst) {
        let ratio = w.frame_ms / single.frame_ms.max(1e-9);
        out.push(exact(
            TargetKey::CompareMode,
            Some(ratio),
            format!(
                "{ratio:.2}x at worst ({}: {:.2} vs {:.2} ms, offscreen)",
                w.view(),
                w.frame_ms,
                single.frame_ms
            ),
        ));
    }
    if let Some(w) = r.world.iter().find(|w| w.bullets == 1_000_000) {
        let millions = w.bullet_steps_per_sec / 1e6;
        out.push(exact(
            TargetKey::WorldUpdate,
            Some(millions),
            format!("{millions:.0} M/s ({:.2} ms an update)", w.update_ms),
        ));
    }
    for (bullets, key) in [
        (2_000, TargetKey::RenderTick2k),
        (100_000, TargetKey::RenderTick100k),
    ] {
        if let Some(t) = r.render_tick.iter().find(|t| t.bullets == bullets) {
            out.push(exact(
                key,
                Some(t.total_ms),
                format!(
                    "{:.3} ms (copy {:.3}, partial update {:.3}; {:.2}x a real update's {:.3} ms)",
                    t.total_ms,
                    t.copy_ms,
                    t.partial_update_ms,
                    t.total_ms / t.update_ms.max(1e-9),
                    t.update_ms
                ),
            ));
        }
    }
    out
}

/// The ship's delay from key to screen, against its bound and against the lab's model.
fn ship_targets(r: &BenchReport) -> Vec<Target> {
    let mut out = Vec::new();
    let ship = |strategy: Strategy, ups: f64| {
        r.ship_delay
            .iter()
            .find(|d| d.strategy == strategy && d.ups == ups)
    };
    if let Some(t) = ship(Strategy::Predicted, 10.0) {
        let bound = t.frame_interval_ms + t.frame_to_present_ms;
        let interpolated = ship(Strategy::Interpolated, 10.0)
            .map_or("-".to_string(), |i| format!("{:.1} ms", i.median_ms));
        out.push(exact(
            TargetKey::ShipDelayRenderTick,
            (t.samples > 0).then(|| t.median_ms / bound.max(1e-9)),
            format!(
                "{:.1} ms against {bound:.1} ms ({:.1} interval + {:.1} start to present); interpolated {interpolated}",
                t.median_ms, t.frame_interval_ms, t.frame_to_present_ms
            ),
        ));
    }
    if !r.ship_delay.is_empty() {
        let off: Vec<(Spread, String)> = r
            .ship_delay
            .iter()
            .filter_map(|d| {
                let model = d.model_mean_ms?;
                let mean = d.mean_spread_ms.unwrap_or(Spread::exact(d.mean_ms));
                Some((
                    off_model(mean, model).map(|o| o * 100.0),
                    format!(
                        "{} at {:.0}: {:.0} vs {:.0} ms",
                        d.strategy, d.ups, d.mean_ms, model
                    ),
                ))
            })
            .collect();
        // A strategy with no model to hold it against counts as missed.
        let figure = if off.len() == r.ship_delay.len() {
            Spread::worst(off.iter().map(|(o, _)| *o))
        } else {
            Some(Spread::exact(f64::INFINITY))
        };
        out.push(target(
            TargetKey::ShipDelayModel,
            figure,
            format!(
                "{} at worst ({})",
                figure.map_or("-".into(), |f| f.show(0, "%")),
                off.iter()
                    .map(|(_, s)| s.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        ));
    }
    out
}

/// How far a `measured` figure is from the `model`'s, as a share of the model's, with the
/// spread the figure's own spread gives it: none at the low end where the spread holds the
/// model.
fn off_model(measured: Spread, model: f64) -> Spread {
    let off = |v: f64| (v / model.max(1e-9) - 1.0).abs();
    let (a, b) = (off(measured.low), off(measured.high));
    let holds = measured.low <= model && model <= measured.high;
    Spread {
        value: off(measured.value),
        low: if holds { 0.0 } else { a.min(b) },
        high: a.max(b),
    }
}

/// Input latency at a 60 Hz cap, for every key.
fn latency_target(r: &BenchReport) -> Target {
    let cap60 = r
        .latency
        .iter()
        .find(|l| l.setting == LatencySetting::Cap60);
    match cap60 {
        Some(l) => {
            let late = l.samples - l.within_bound;
            let late_percent = late as f64 * 100.0 / l.samples.max(1) as f64;
            exact(
                TargetKey::InputLatency,
                (l.samples > 0).then_some(late_percent),
                format!(
                    "{}/{} keys; {late} ({late_percent:.0}%) waited over one interval; latency median {:.1} ms, p99 {:.1} ms; wait before the frame p99 {:.1} ms against a {:.1} ms interval",
                    l.within_bound,
                    l.samples,
                    l.median_ms,
                    l.p99_ms,
                    l.wait_p99_ms,
                    l.frame_interval_ms
                ),
            )
        }
        None => exact(
            TargetKey::InputLatency,
            None,
            "not measured (no display)".into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::headless::PacingResult;

    #[test]
    fn a_limit_prints_its_goal_and_judges_by_the_same_number() {
        let cap = TargetKey::CapStddev.limit();
        assert_eq!(cap.goal(), "<= 0.05 ms");
        assert!(cap.met(0.05) && !cap.met(0.0501));
        let tick = TargetKey::RenderTick2k.limit();
        assert_eq!(tick.goal(), "< 0.5 ms a frame");
        assert!(tick.met(0.499) && !tick.met(0.5));
        let sprites = TargetKey::Sprites100k.limit();
        assert_eq!(sprites.goal(), ">= 0.95x the bare renderer's FPS");
        assert!(sprites.met(0.95) && !sprites.met(0.949));
    }

    #[test]
    fn a_target_not_measured_is_neither_met_nor_missed() {
        let t = exact(TargetKey::Startup, None, "not measured (no display)".into());
        assert_eq!(t.verdict, Verdict::NotMeasured);
        assert_eq!(t.goal, "< 1000 ms (release build)");
        let t = exact(TargetKey::Startup, Some(1200.0), "1200 ms".into());
        assert_eq!(t.verdict, Verdict::Missed);
    }

    #[test]
    fn a_median_off_the_model_carries_its_spread() {
        let spread = |value, low, high| Spread { value, low, high };
        // 50 ms against a model of 67, the median moving 45 to 62: 25% off, 7 to 33%.
        let off = off_model(spread(50.0, 45.0, 62.0), 67.0);
        assert!((off.value - 0.254).abs() < 0.001, "{off:?}");
        assert!((off.low - 0.075).abs() < 0.001 && (off.high - 0.328).abs() < 0.001);
        assert_eq!(
            TargetKey::ShipDelayModel
                .limit()
                .judge(off.map(|o| o * 100.0)),
            Verdict::WithinNoise
        );
        // A spread that holds the model can be right on it.
        let off = off_model(spread(15.0, 14.0, 18.0), 16.7);
        assert_eq!(off.low, 0.0);
        assert!((off.high - 0.162).abs() < 0.001, "{off:?}");
        // Above the model, the far end of the spread is the high one.
        let off = off_model(spread(30.0, 28.0, 33.0), 20.0);
        assert!((off.low - 0.4).abs() < 1e-9 && (off.high - 0.65).abs() < 1e-9);
    }

    #[test]
    fn a_spread_across_the_threshold_is_within_noise() {
        let limit = TargetKey::Sprites100k.limit();
        let spread = |value, low, high| Spread { value, low, high };
        assert_eq!(limit.judge(spread(0.97, 0.96, 0.99)), Verdict::Met);
        assert_eq!(limit.judge(spread(0.94, 0.93, 0.945)), Verdict::Missed);
        // Measured below the goal, but the run's own spread reaches above it.
        assert_eq!(limit.judge(spread(0.94, 0.92, 0.96)), Verdict::WithinNoise);
        assert_eq!(limit.judge(spread(0.96, 0.94, 0.97)), Verdict::WithinNoise);
        assert_eq!(Verdict::WithinNoise.label().trim(), "noise");
    }

    #[test]
    fn the_captions_are_judged_as_a_share_on_a_software_rasteriser_and_in_ms_on_a_gpu() {
        let cost = |value, low, high| Spread { value, low, high };
        // lavapipe: 1.0 ms (0.9-1.1) on a 2.5 ms bare frame is 0.40x (0.36-0.44).
        let soft = captions_target(true, cost(1.0, 0.9, 1.1), Some(2.5), 0.2);
        assert_eq!(
            (soft.key, soft.verdict),
            (TargetKey::CaptionsShare, Verdict::Met)
        );
        assert!((soft.figure.unwrap().high - 0.44).abs() < 1e-9, "{soft:?}");
        assert!(
            soft.measured
                .contains("0.40x (0.36-0.44) the bare renderer's frame")
        );
        // The same on a 2 ms frame is 0.50x (0.45-0.55): across the line.
        let soft = captions_target(true, cost(1.0, 0.9, 1.1), Some(2.0), 0.2);
        assert_eq!(soft.verdict, Verdict::WithinNoise, "{soft:?}");
        // A GPU: 0.07 ms is met, 0.6 ms missed, whatever the bare frame.
        let gpu = captions_target(false, cost(0.07, 0.06, 0.08), Some(0.2), 0.05);
        assert_eq!(
            (gpu.key, gpu.verdict),
            (TargetKey::CaptionsCost, Verdict::Met)
        );
        let gpu = captions_target(false, cost(0.6, 0.55, 0.65), Some(0.2), 0.05);
        assert_eq!(gpu.verdict, Verdict::Missed, "{gpu:?}");
    }

    /// A cap row: the naive wait's stddev, and the precise wait's over it with its spread.
    fn row(rate_hz: f64, naive_ms: f64, ratio: (f64, f64, f64)) -> PacingPair {
        let result = |mode, stddev_ms| PacingResult {
            rate_hz,
            mode,
            frames: 100,
            mean_interval_ms: 1000.0 / rate_hz,
            stddev_ms,
            p99_error_ms: 0.0,
            stalls: 0,
            stddev_without_stalls_ms: stddev_ms,
            stall_causes: Default::default(),
            stddev_own_ms: stddev_ms,
            cpu_percent: 1.0,
        };
        let (value, low, high) = ratio;
        let ratio = Spread { value, low, high };
        PacingPair {
            rate_hz,
            naive: result(looplab_timing::WaitMode::Naive, naive_ms),
            precise: result(looplab_timing::WaitMode::Precise, naive_ms * value),
            stddev_ratio: ratio,
            own_stddev_ratio: None,
            precise_stddev: ratio.map(|r| r * naive_ms),
            precise_p99: Spread::exact(0.0),
            cpu_ratio: Spread::exact(1.0),
        }
    }

    #[test]
    fn the_cap_rows_are_pooled_and_a_row_lost_beyond_its_spread_is_a_miss() {
        let judge = |rows: &[PacingPair]| {
            let rows: Vec<(&str, &PacingPair)> = rows.iter().map(|p| ("headless", p)).collect();
            every_cap_row(&rows).unwrap()
        };
        // Worked by hand: naive stddevs 1 and 0.5 ms, the precise wait at 0.2x and 0.4x:
        // pooled sqrt((0.2^2 + 0.2^2) / (1 + 0.25)) = 0.253x; its spread from the rows' own.
        let won = judge(&[
            row(30.0, 1.0, (0.2, 0.1, 0.3)),
            row(60.0, 0.5, (0.4, 0.2, 0.6)),
        ]);
        assert!((won.figure.unwrap().value - 0.253).abs() < 0.001, "{won:?}");
        assert!((won.figure.unwrap().high - (0.18f64 / 1.25).sqrt()).abs() < 1e-9);
        assert_eq!(won.verdict, Verdict::Met, "{won:?}");
        // One row lost within its spread: the pool still wins, and the verdict says noise.
        let noisy = judge(&[
            row(30.0, 1.0, (0.2, 0.1, 0.3)),
            row(144.0, 0.1, (1.4, 0.6, 2.9)),
        ]);
        assert!(noisy.figure.unwrap().high < 1.0, "{noisy:?}");
        assert_eq!(noisy.verdict, Verdict::WithinNoise, "{noisy:?}");
        assert!(
            noisy
                .measured
                .contains("144: 1.40x (0.60-2.90), lost within noise")
        );
        // One row lost beyond its spread is a miss, however well the others did.
        let lost = judge(&[
            row(30.0, 1.0, (0.2, 0.1, 0.3)),
            row(144.0, 0.1, (1.4, 1.1, 2.9)),
        ]);
        assert_eq!(lost.verdict, Verdict::Missed, "{lost:?}");
        assert_eq!(
            lost.goal,
            "<= 1x the naive wait's stddev, pooled over every cap row, no row lost beyond its spread"
        );
    }
}
