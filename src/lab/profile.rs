//! Modelled hardware: what a frame and an update cost, how much that varies, the display
//! (its refresh rate, whether presents wait for it), the timer (noise on each reading, how
//! late a sleep wakes), and a one-off stall. A profile is plain data, so a user can write
//! their own on the command line:
//!
//! ```text
//! --profile 'laptop:render=9ms,update=1.5ms,jitter=3ms,refresh=59.94,noise=2%,timer=coarse'
//! ```

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::capture::Capture;
use crate::capture::summary::Summary;
use crate::session::present::{DEFAULT_LATENCY, PresentMode, parse_latency};
use crate::session::trace::{Trace, TraceFrame};

pub use super::profile_error::ProfileError;
use super::swapchain::SwapchainSpec;
use crate::text::settings::{format_duration, parse_duration};
use crate::text::value_error::ValueError;
use looplab_timing::Rate;

/// A one-off pause of the whole process (a debugger break, a swap storm, a suspend).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stall {
    /// Real time at which it happens.
    pub at: Duration,
    /// How long nothing runs.
    pub length: Duration,
}

/// A hardware model for the lab.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Profile {
    pub name: String,
    /// What it stands for.
    pub description: String,
    /// CPU and GPU time to draw and present one frame.
    pub render: Duration,
    /// Time one game update takes.
    pub update: Duration,
    /// Each frame's render time varies uniformly by up to this much either way (seeded).
    pub jitter: Duration,
    /// The display's refresh rate (59.94 Hz for a TV, 143.86 Hz for many "144 Hz"
    /// monitors).
    #[serde(serialize_with = "serialize_rate")]
    pub refresh: Rate,
    /// Whether a present waits for the next refresh (FIFO: one frame in flight, the present
    /// returns when the refresh that shows it begins). Without vsync a frame is shown by the
    /// first refresh after it is done, the newest of several winning.
    pub vsync: bool,
    /// Each reading of the clock at a frame's start is off by up to this fraction of a
    /// refresh period either way (uniform, seeded), as a real timer's is.
    pub noise: f64,
    /// How late a sleep until a deadline wakes, at most (uniform, seeded): zero for a
    /// precise timer, about a millisecond for a coarse one.
    pub timer: Duration,
    pub stall: Option<Stall>,
    /// The swapchain between the loop and the display, where the profile names one
    /// (`present=`, `latency=`): frames in flight, back-pressure in acquire, and the GPU
    /// working behind the CPU. Without one, the simpler display `vsync` describes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swapchain: Option<SwapchainSpec>,
    /// Of `render`, the part the GPU does after the loop submits the frame: with a
    /// swapchain it overlaps the CPU's next frame.
    #[serde(skip_serializing_if = "Duration::is_zero")]
    pub gpu: Duration,
    /// Frame costs recorded on a real machine (`looplab --trace`, or a capture of the
    /// field's tools), replayed in turn instead of `render`, `update` and `jitter`.
    #[serde(skip)]
    pub recorded: Option<Arc<Vec<RecordedFrame>>>,
}

/// One recorded frame's cost, as the machine replays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedFrame {
    /// What each of its updates took; `None` where the record does not say (a frame that
    /// ran none, or a capture, which does not tell the game's updates from its drawing):
    /// the profile's `update` then.
    pub update: Option<Duration>,
    /// Drawing and presenting, without the waits for the display where the profile models
    /// them (vsync).
    pub render: Duration,
}

fn serialize_rate<S: serde::Serializer>(r: &Rate, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(r.as_hz())
}

/// A coarse OS timer wakes up to this late: the 1 ms scheduler tick of a desktop that asked
/// for 1 ms timers, what a plain `thread::sleep` gets on many machines.
pub const COARSE_TIMER: Duration = Duration::from_millis(1);

impl Profile {
    fn base(name: &str, description: &str) -> Self {
        Self {
            name: name.to_string(),
            description: description.to_string(),
            render: Duration::from_millis(2),
            update: Duration::from_micros(200),
            jitter: Duration::ZERO,
            refresh: Rate::SIXTY_HZ,
            vsync: false,
            noise: 0.0,
            timer: Duration::ZERO,
            stall: None,
            swapchain: None,
            gpu: Duration::ZERO,
            recorded: None,
        }
    }

    /// This profile's machine behind a swapchain of `spec` on its display: named after
    /// both (`jitter@fifo/2`), and waiting for refreshes as the mode does.
    pub fn with_swapchain(&self, spec: SwapchainSpec) -> Profile {
        Profile {
            name: format!("{}@{}/{}", self.name, spec.mode, spec.latency),
            description: format!(
                "{}; {} with {} frame{} in flight",
                self.description,
                spec.mode,
                spec.latency,
                if spec.latency == 1 { "" } else { "s" }
            ),
            vsync: spec.mode != PresentMode::Immediate,
            swapchain: Some(spec),
            ..self.clone()
        }
    }

    /// Whether its presents tear: shown the moment they are presented, in part, rather than
    /// at a refresh (a swapchain of the immediate mode).
    pub fn tears(&self) -> bool {
        self.swapchain
            .is_some_and(|s| s.mode == PresentMode::Immediate)
    }

    /// A machine that costs what the frames of `trace` cost, on the display it was taken on.
    pub fn from_trace(name: &str, trace: &Trace) -> Self {
        let mut renders: Vec<Duration> = trace.frames.iter().map(TraceFrame::render).collect();
        renders.sort_unstable();
        let mut updates: Vec<Duration> = trace
            .frames
            .iter()
            .filter_map(TraceFrame::per_update)
            .collect();
        updates.sort_unstable();
        let at = |xs: &[Duration], q: f64| {
            let ms: Vec<f64> = xs.iter().map(|d| d.as_secs_f64()).collect();
            Duration::try_from_secs_f64(crate::metrics::quantile(&ms, q)).unwrap_or_default()
        };
        let refresh = Rate::hz(trace.header.refresh_hz).unwrap_or(Rate::SIXTY_HZ);
        let h = &trace.header;
        Self {
            render: at(&renders, 0.5),
            update: at(&updates, 0.5),
            refresh,
            vsync: h.vsync,
            recorded: Some(Arc::new(
                trace
                    .frames
                    .iter()
                    .map(|f| RecordedFrame {
                        update: f.per_update(),
                        // With vsync, the waits to be let draw, for a surface image and in
                        // the present are the display's, which the model adds itself (GPU
                        // work hidden in the present is lost with them); without, they are
                        // what the frame cost.
                        render: if h.vsync {
                            f.render()
                        } else {
                            f.redraw_wait() + f.acquire() + f.render() + f.present()
                        },
                    })
                    .collect(),
            )),
            description: format!(
                "{} frames recorded over {:.1} s ({}, {} bullets, {} display, vsync {}); render median {}, p99 {}, max {}",
                trace.frames.len(),
                trace.span().as_secs_f64(),
                h.strategy,
                h.bullets,
                refresh,
                if h.vsync { "on" } else { "off" },
                format_duration(at(&renders, 0.5)),
                format_duration(at(&renders, 0.99)),
                format_duration(at(&renders, 1.0)),
            ),
            ..Self::base(name, "")
        }
    }

    /// A machine whose frames cost what a capture's cost (see [`crate::capture::work`]), on
    /// the display it was shown on (60 Hz where the capture does not tell), presenting as
    /// its columns say it did ([`capture_swapchain`]). A capture does not tell the game's
    /// updates from its drawing: a frame costs what the capture measured, its updates
    /// included, whatever updates the lab's loop runs.
    pub fn from_capture(name: &str, capture: &Capture, summary: &Summary) -> Self {
        let frames: Vec<RecordedFrame> = capture
            .costs(crate::capture::MAX_FRAMES)
            .map(|render| RecordedFrame {
                update: None,
                render,
            })
            .collect();
        let refresh = summary
            .display
            .hz
            .and_then(|hz| Rate::hz(hz).ok())
            .unwrap_or(Rate::SIXTY_HZ);
        let of_app = capture
            .application_name()
            .map_or(String::new(), |name| format!(" of {name}"));
        let swapchain = capture_swapchain(capture, summary, refresh);
        let presents = match swapchain {
            Some(spec) => format!(
                "{}, {} frame{} in flight",
                spec.mode,
                spec.latency,
                if spec.latency == 1 { "" } else { "s" }
            ),
            None => "no vsync (the capture does not say how it presented)".into(),
        };
        Self {
            render: Duration::from_secs_f64(summary.cost_median_ms / 1e3),
            update: Duration::ZERO,
            refresh,
            vsync: swapchain.is_some_and(|s| s.mode != PresentMode::Immediate),
            swapchain,
            recorded: Some(Arc::new(frames)),
            description: format!(
                "{} frames{of_app} captured over {:.1} s ({}); cost median {:.2} ms, p99 {:.2} ms; {:.2} Hz display, {presents}",
                capture.frame_count(),
                summary.span_seconds,
                capture.format,
                summary.cost_median_ms,
                summary.cost_p99_ms,
                refresh.as_hz(),
            ),
            ..Self::base(name, "")
        }
    }

    /// The built-in profiles, each the situation one of the texts' claims is about.
    pub fn builtin() -> Vec<Profile> {
        let ms = Duration::from_millis;
        vec![
            Profile {
                render: ms(1),
                ..Self::base("fast", "a powerful machine: 1 ms frames")
            },
            Profile {
                render: ms(45),
                ..Self::base("weak-gpu", "slow rendering: 45 ms frames (22 FPS)")
            },
            Profile {
                update: ms(25),
                ..Self::base(
                    "weak-cpu",
                    "an update costs 25 ms, more than the 16.7 ms step it simulates",
                )
            },
            Profile {
                stall: Some(Stall {
                    at: Duration::from_secs(4),
                    length: ms(1500),
                }),
                ..Self::base("stall", "2 ms frames and one 1.5 s stall at 4 s")
            },
            Profile {
                render: ms(9),
                jitter: ms(8),
                ..Self::base("jitter", "frames of 1-17 ms, uniformly random (seeded)")
            },
            Profile {
                vsync: true,
                ..Self::base("vsync-60", "2 ms frames presented on a 60 Hz display")
            },
        ]
    }

    /// A built-in profile by name, or a custom one from `name:key=value,...` where the keys
    /// are `render`, `update`, `jitter` (durations), `refresh` (the display in Hz, which
    /// turns vsync on, or `off` for no vsync on a 60 Hz display), `vsync` (`on` or `off`),
    /// `noise` (a fraction of a refresh: `0.005` or `0.5%`), `timer` (`precise`, `coarse` or
    /// a duration), `stall` (`LENGTH@AT`), and the swapchain: `present` (`fifo`, `relaxed`,
    /// `mailbox` or `immediate`), `latency` (frames in flight, 1 to 3; either key alone
    /// gives FIFO with 2) and `gpu` (the part of `render` the GPU does behind the CPU).
    /// Unnamed keys keep the defaults (2 ms render, 0.2 ms update, a 60 Hz display without
    /// vsync, a noiseless precise timer, no swapchain).
    pub fn parse(spec: &str) -> Result<Profile, ProfileError> {
        let spec = spec.trim();
        let Some((name, settings)) = spec.split_once(':') else {
            return Self::builtin_named(spec);
        };
        let name = name.trim();
        check_profile_name(name)?;
        let mut p = Self::base(name, "custom");
        let mut vsync = None;
        for pair in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            p.apply_setting(&mut vsync, name, pair)?;
        }
        p.vsync = match p.swapchain {
            Some(spec) => spec.mode != PresentMode::Immediate,
            None => vsync.unwrap_or(false),
        };
        for (part, length) in [("jitter", p.jitter), ("gpu", p.gpu)] {
            if length > p.render {
                return Err(ProfileError::PartOverRender {
                    profile: name.to_string(),
                    part,
                    length,
                    render: p.render,
                });
            }
        }
        p.description = p.custom_description();
        Ok(p)
    }

    /// The built-in profile called `name`, or a refusal that lists them all and shows how
    /// to write a custom one.
    fn builtin_named(name: &str) -> Result<Profile, ProfileError> {
        Self::builtin()
            .into_iter()
            .find(|p| p.name == name)
            .ok_or_else(|| ProfileError::Unknown {
                name: name.to_string(),
                builtin: Self::builtin().into_iter().map(|p| p.name).collect(),
            })
    }

    /// Applies one `key=value` of custom profile `name`. Vsync is gathered apart in `vsync`
    /// because a `refresh` turns it on only where no `vsync` key said otherwise, whichever
    /// comes first.
    fn apply_setting(
        &mut self,
        vsync: &mut Option<bool>,
        name: &str,
        pair: &str,
    ) -> Result<(), ProfileError> {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| ProfileError::NotKeyValue {
                profile: name.to_string(),
                pair: pair.to_string(),
            })?;
        let (key, value) = (key.trim(), value.trim());
        let in_profile = |error: ValueError| ProfileError::Value {
            profile: name.to_string(),
            key: key.to_string(),
            error,
        };
        match key {
            "render" => self.render = parse_duration(value).map_err(in_profile)?,
            "update" => self.update = parse_duration(value).map_err(in_profile)?,
            "jitter" => self.jitter = parse_duration(value).map_err(in_profile)?,
            "gpu" => self.gpu = parse_duration(value).map_err(in_profile)?,
            "present" => {
                let mode = PresentMode::parse(value).map_err(in_profile)?;
                let latency = self.swapchain.map_or(DEFAULT_LATENCY, |s| s.latency);
                self.swapchain = Some(SwapchainSpec { mode, latency });
            }
            "latency" => {
                let latency = parse_latency(value).map_err(in_profile)?;
                let mode = self.swapchain.map_or(PresentMode::Fifo, |s| s.mode);
                self.swapchain = Some(SwapchainSpec { mode, latency });
            }
            "refresh" => match value {
                "off" | "none" => *vsync = vsync.or(Some(false)),
                v => {
                    self.refresh = v
                        .parse::<Rate>()
                        .map_err(|e| in_profile(ValueError::Timing(e)))?;
                    *vsync = vsync.or(Some(true));
                }
            },
            "vsync" => {
                *vsync = Some(match value {
                    "on" | "true" | "yes" => true,
                    "off" | "false" | "no" => false,
                    v => return Err(in_profile(ValueError::not(v, "on or off"))),
                })
            }
            "noise" => self.noise = parse_fraction(value).map_err(in_profile)?,
            "timer" => {
                self.timer = match value {
                    "precise" => Duration::ZERO,
                    "coarse" => COARSE_TIMER,
                    v => parse_duration(v).map_err(in_profile)?,
                }
            }
            "stall" => {
                let (length, at) = value
                    .split_once('@')
                    .ok_or_else(|| in_profile(ValueError::not(value, "LENGTH@AT, like 1s@5s")))?;
                self.stall = Some(Stall {
                    length: parse_duration(length).map_err(in_profile)?,
                    at: parse_duration(at).map_err(in_profile)?,
                });
            }
            other => {
                return Err(ProfileError::UnknownKey {
                    profile: name.to_string(),
                    key: other.to_string(),
                });
            }
        }
        Ok(())
    }

    /// A custom profile's description: its costs, then only what differs from the defaults,
    /// so a listing shows at a glance what the profile is about.
    fn custom_description(&self) -> String {
        let mut description = format!(
            "render {}, update {}",
            format_duration(self.render),
            format_duration(self.update)
        );
        if !self.jitter.is_zero() {
            let _ = write!(description, " ±{}", format_duration(self.jitter));
        }
        if !self.gpu.is_zero() {
            let _ = write!(description, " (GPU {})", format_duration(self.gpu));
        }
        if let Some(spec) = self.swapchain {
            let _ = write!(
                description,
                ", {} with {} in flight on a {} display",
                spec.mode, spec.latency, self.refresh
            );
        } else if self.vsync {
            let _ = write!(description, ", vsync {}", self.refresh);
        } else if self.refresh != Rate::SIXTY_HZ {
            let _ = write!(description, ", a {} display, no vsync", self.refresh);
        }
        if self.noise > 0.0 {
            let _ = write!(description, ", timer noise ±{}%", self.noise * 100.0);
        }
        if !self.timer.is_zero() {
            let _ = write!(
                description,
                ", sleeps up to {} late",
                format_duration(self.timer)
            );
        }
        if let Some(s) = self.stall {
            let _ = write!(
                description,
                ", {} stall at {}",
                format_duration(s.length),
                format_duration(s.at)
            );
        }
        description
    }
}

/// Refuses a custom profile's name unless it is letters, digits, '-' or '_', so it never
/// needs quoting in the report's comma-separated values.
fn check_profile_name(name: &str) -> Result<(), ProfileError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ProfileError::BadName {
            name: name.to_string(),
        });
    }
    Ok(())
}

/// A fraction from `0.02` or `2%`, at most one half.
fn parse_fraction(value: &str) -> Result<f64, ValueError> {
    let (number, scale) = match value.strip_suffix('%') {
        Some(n) => (n, 0.01),
        None => (value, 1.0),
    };
    let x = number
        .trim()
        .parse::<f64>()
        .map_err(|_| ValueError::not(value, "a fraction like 0.02 or 2%"))?
        * scale;
    if !(0.0..=0.5).contains(&x) {
        return Err(ValueError::out_of_range("between 0 and 50%", value));
    }
    Ok(x)
}

/// Parses one `--profile` argument: a custom spec (it has a `:`) or a comma-separated list of
/// built-in names.
pub fn parse_profiles(arg: &str) -> Result<Vec<Profile>, ProfileError> {
    if arg.contains(':') {
        Profile::parse(arg).map(|p| vec![p])
    } else {
        arg.split(',').map(Profile::parse).collect()
    }
}

/// How a capture's frames reached its display, as the lab's swapchain models it:
///
/// - presents that waited for a refresh (`SyncInterval` 1 or more): FIFO;
/// - presents that tore (`SyncInterval` 0, tearing allowed): immediate;
/// - other presents without vsync: the newest at each refresh (mailbox, as a compositor or a
///   flip without tearing shows them), unless the game presented at the display's rate
///   (within 2%), held there by the compositor's back-pressure: FIFO then; where the sync
///   interval is not known (Direct3D 9 writes -1), as its tearing says;
/// - a capture that says neither (MangoHud): none, the simple display without vsync.
///
/// The frames in flight are one more than the refreshes a displayed frame typically waited
/// beyond the quickest (the median of `MsUntilDisplayed` less its 5th percentile: the
/// quickest is the GPU's render and the scanout, which every frame waits), 2 to 3: a
/// Direct3D game has three unless it asks for fewer (DXGI's default frame latency), and
/// wgpu asks for two, the default here where the capture does not say.
pub fn capture_swapchain(
    capture: &Capture,
    summary: &Summary,
    refresh: Rate,
) -> Option<SwapchainSpec> {
    let p = &capture.presenting;
    let period_ms = refresh.period().as_secs_f64() * 1e3;
    let held = (summary.as_captured.presented_fps * period_ms / 1e3 - 1.0).abs() <= 0.02;
    let mode = match (p.vsync(), p.allows_tearing) {
        (Some(true), _) => PresentMode::Fifo,
        (Some(false) | None, Some(true)) => PresentMode::Immediate,
        (Some(false), _) | (None, Some(false)) if held && summary.display.hz.is_some() => {
            PresentMode::Fifo
        }
        (Some(false), _) | (None, Some(false)) => PresentMode::Mailbox,
        (None, None) => return None,
    };
    let waits: Vec<f64> = capture
        .frames
        .iter()
        .filter(|f| f.displayed != Some(false))
        .filter_map(|f| f.until_displayed_ms)
        .collect();
    let latency = if waits.is_empty() || capture.timeline != crate::capture::Timeline::PresentStart
    {
        DEFAULT_LATENCY
    } else {
        let queued = crate::metrics::median(&waits) - crate::metrics::quantile_of(&waits, 0.05);
        let refreshes = 1.0 + (queued / period_ms).round();
        (refreshes as u32).clamp(DEFAULT_LATENCY, *crate::session::present::LATENCIES.end())
    };
    Some(SwapchainSpec { mode, latency })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_profiles_are_found_by_name() {
        let names: Vec<String> = Profile::builtin().into_iter().map(|p| p.name).collect();
        assert_eq!(
            names,
            [
                "fast", "weak-gpu", "weak-cpu", "stall", "jitter", "vsync-60"
            ]
        );
        assert_eq!(
            Profile::parse("weak-cpu").unwrap().update,
            Duration::from_millis(25)
        );
        let list = parse_profiles("fast,stall").unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].stall.unwrap().length, Duration::from_millis(1500));
    }

    #[test]
    fn custom_profiles_parse_every_key() {
        let p =
            Profile::parse("laptop:render=9ms, update=1.5ms,jitter=3ms,refresh=59.94,stall=2s@6s")
                .unwrap();
        assert_eq!(p.name, "laptop");
        assert_eq!(p.render, Duration::from_millis(9));
        assert_eq!(p.update, Duration::from_micros(1500));
        assert_eq!(p.jitter, Duration::from_millis(3));
        assert_eq!(p.refresh.as_hz(), 59.94);
        assert!(p.vsync, "a refresh rate turns vsync on");
        assert_eq!(
            p.stall,
            Some(Stall {
                at: Duration::from_secs(6),
                length: Duration::from_secs(2)
            })
        );
        assert!(p.description.contains("vsync 59.94 Hz"));
        let defaults = Profile::parse("plain:").unwrap();
        assert_eq!(defaults.render, Duration::from_millis(2));
        assert!(!defaults.vsync && defaults.noise == 0.0 && defaults.timer.is_zero());
        let tv = Profile::parse("tv:vsync=off,refresh=59.94,noise=0.5%,timer=coarse").unwrap();
        assert!(!tv.vsync, "vsync=off wins whatever the order");
        assert_eq!((tv.noise, tv.timer), (0.005, COARSE_TIMER));
        assert!(
            tv.description.contains("a 59.94 Hz display, no vsync"),
            "{}",
            tv.description
        );
        assert_eq!(
            Profile::parse("t:timer=3ms").unwrap().timer,
            Duration::from_millis(3)
        );
        assert!(!Profile::parse("t:refresh=off").unwrap().vsync);
    }

    #[test]
    fn malformed_profiles_are_rejected_with_the_reason() {
        let err = |s: &str| Profile::parse(s).unwrap_err().to_string();
        assert!(err("turbo").contains("unknown profile \"turbo\""));
        assert!(err("x:render").contains("not key=value"));
        assert!(err("x:render=fast").contains("render in profile \"x\""));
        assert!(err("x:render=-3ms").contains("negative"));
        assert!(err("x:colour=red").contains("unknown key \"colour\""));
        assert!(err("x:refresh=-60").contains("positive"));
        assert!(err("x:stall=2s").contains("LENGTH@AT"));
        assert!(err("x:render=1ms,jitter=2ms").contains("must not exceed"));
        assert!(err("x:vsync=maybe").contains("not on or off"));
        assert!(err("x:noise=80%").contains("between 0 and 50%"));
        assert!(err("x:noise=lots").contains("not a fraction"));
        assert!(err("x:timer=sloppy").contains("timer in profile \"x\""));
        assert!(err("bad name!:render=1ms").contains("profile name"));
        assert!(err("x:present=vsync").contains("not a present mode"));
        assert!(err("x:latency=4").contains("not a frame latency"));
        assert!(
            err("x:render=2ms,gpu=3ms").contains("gpu in profile \"x\" (3 ms) must not exceed")
        );
        assert!(parse_profiles("fast,nope").is_err());
    }

    #[test]
    fn a_swapchain_is_named_by_its_mode_and_latency_either_alone_giving_fifo_with_two() {
        let p =
            Profile::parse("q:render=6ms,gpu=4ms,latency=3,present=mailbox,refresh=144").unwrap();
        let spec = p.swapchain.unwrap();
        assert_eq!(
            (spec.mode, spec.latency, p.gpu),
            (PresentMode::Mailbox, 3, Duration::from_millis(4))
        );
        assert!(p.vsync, "mailbox waits for a refresh");
        assert!(
            p.description
                .contains("(GPU 4 ms), mailbox with 3 in flight on a 144 Hz display"),
            "{}",
            p.description
        );
        let fifo = Profile::parse("q:latency=1").unwrap().swapchain.unwrap();
        assert_eq!((fifo.mode, fifo.latency), (PresentMode::Fifo, 1));
        let immediate = Profile::parse("q:present=immediate").unwrap();
        assert_eq!(immediate.swapchain.unwrap().latency, DEFAULT_LATENCY);
        assert!(!immediate.vsync);
        let on_fifo = Profile::parse("jitter")
            .unwrap()
            .with_swapchain(SwapchainSpec {
                mode: PresentMode::Fifo,
                latency: 2,
            });
        assert_eq!(on_fifo.name, "jitter@fifo/2");
        assert!(on_fifo.vsync && on_fifo.render == Duration::from_millis(9));
    }
}
