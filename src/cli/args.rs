//! The command line's options, as clap reads them. Every value a person can get wrong is
//! refused in one line, naming the problem, by its parser (`values.rs` and the readers'
//! own).

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use looplab_timing::{LoopSettings, Rate, Strategy, TimeScale};

use crate::app::controls::Knobs;
use crate::app::{AppOptions, Outputs};
use crate::failure::Failure;
use crate::hooks::Hooks;
use crate::hooks::key_script::KeyScript;
use crate::lab::compare::{LaneSpec, Preset, parse_lane};
use crate::lab::profile::{Profile, parse_profiles};
use crate::platform::frame_wait::CapWait;
use crate::session::present::{PresentMode, parse_latency};
use crate::text::settings::{
    Cap, DeltaKind, DurationOrOff, MaxUpdates, format_duration, parse_duration,
};
use crate::world::WorldConfig;

use super::values::{
    parse_boxed_profile, parse_bullets, parse_hours, parse_on_off, parse_pacing, parse_seconds,
    parse_size, parse_strategy,
};

#[derive(Parser, Debug)]
#[command(
    name = "looplab",
    version,
    about = "See, feel and measure how a game loop works.",
    long_about = "Looplab opens a window where bullets stream across the screen and the active \
                  game-loop strategy decides when the world updates and where each bullet is \
                  drawn. `looplab lab` runs every strategy headless against modelled hardware; \
                  `looplab bench` measures the real loop.",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub app: AppArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run every strategy headless against modelled hardware and report the trade-offs.
    Lab(Box<LabArgs>),
    /// Measure the real loop: pacing precision, sprite throughput, world and planner cost,
    /// input latency, start-up and memory, against the performance targets.
    Bench(BenchArgs),
    /// Render a few seconds of the scene offscreen under several strategies, one PNG per
    /// frame, with the same steering for each (scripts/motion.sh makes the README's
    /// animation from them).
    Motion(MotionArgs),
}

#[derive(Args, Debug)]
pub struct MotionArgs {
    /// A new (or empty) directory to write the frames into.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The strategies to render, comma-separated ids or keys.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_strategy, default_value = "catch-up,interpolated")]
    pub strategies: Vec<Strategy>,
    /// Fixed updates per second.
    #[arg(long, value_name = "HZ", default_value = "10")]
    pub ups: Rate,
    /// Frames per second of the pictures.
    #[arg(long, value_name = "N", default_value_t = 25, value_parser = clap::value_parser!(u32).range(1..=120))]
    pub fps: u32,
    /// Seconds to render.
    #[arg(long, value_name = "SECONDS", default_value = "3", value_parser = parse_seconds)]
    pub seconds: Duration,
    /// Width of each picture, in pixels (the height keeps 16:9).
    #[arg(long, value_name = "PX", default_value_t = 640, value_parser = clap::value_parser!(u32).range(160..=3840))]
    pub width: u32,
    /// Bullets in the stream.
    #[arg(long, value_name = "N", default_value_t = 600, value_parser = parse_bullets)]
    pub bullets: usize,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
    pub format: BenchFormat,
    /// Short runs: checks that every part works; the numbers are not for quoting.
    #[arg(long)]
    pub quick: bool,
    /// Start a private Xvfb display for the windowed parts (otherwise they use DISPLAY, or
    /// are skipped when there is none).
    #[arg(long)]
    pub xvfb: bool,
    /// Only time the planner and a world of this many bullets, and print JSON: the native
    /// side of `cargo xtask web measure`.
    #[arg(long, value_name = "BULLETS", hide = true, value_parser = parse_bullets)]
    pub kernel: Option<usize>,
    /// Pace a 60 Hz and a 144 Hz cap with each peer's frame limiter (spin_sleep_util's
    /// Interval in its three modes, a port of bevy_framepace's, thread::sleep) and
    /// looplab-timing's wait, three times each: the looplab-peers package's program.
    #[arg(long, conflicts_with_all = ["xvfb", "kernel"])]
    pub peers: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BenchFormat {
    Table,
    Json,
}

impl BenchFormat {
    /// The format's name on the command line, as the peers' program takes it too.
    pub fn id(self) -> &'static str {
        match self {
            BenchFormat::Table => "table",
            BenchFormat::Json => "json",
        }
    }
}

/// Loop and world settings shared by the window and the lab.
#[derive(Args, Debug, Clone)]
pub struct LoopArgs {
    /// Fixed updates per second (the step is its period).
    #[arg(
        long,
        value_name = "HZ",
        default_value = "60",
        allow_negative_numbers = true
    )]
    pub ups: Rate,
    /// Frame cap in Hz, or `off`.
    #[arg(
        long,
        value_name = "HZ|off",
        default_value = "off",
        allow_negative_numbers = true
    )]
    pub cap: Cap,
    /// Most fixed updates in one frame (deWiTTERS' MAX_FRAMESKIP), or `unlimited`.
    #[arg(
        long,
        value_name = "N|unlimited",
        default_value = "10",
        allow_negative_numbers = true
    )]
    pub max_updates: MaxUpdates,
    /// Longest real time one frame may account for after a stall, or `off`.
    #[arg(
        long,
        value_name = "DURATION|off",
        allow_hyphen_values = true,
        default_value = "250ms",
        allow_negative_numbers = true
    )]
    pub stall_clamp: DurationOrOff,
    /// A frame longer than this is a hitch: none of it is simulated and the loop resyncs,
    /// instead of clamping it and catching up (`off`: the stall clamp alone).
    #[arg(
        long,
        value_name = "DURATION|off",
        allow_hyphen_values = true,
        default_value = "off",
        allow_negative_numbers = true
    )]
    pub resync_after: DurationOrOff,
    /// End each frame of the accumulator strategies with one shorter update for the time
    /// still owed, so the world stands exactly at the frame's time.
    #[arg(long)]
    pub substeps: bool,
    /// Game time per real time (0 freezes, 2 is double speed).
    #[arg(
        long,
        value_name = "FACTOR",
        default_value = "1",
        allow_negative_numbers = true
    )]
    pub time_scale: TimeScale,
    /// Number of bullets in the stream.
    #[arg(long, value_name = "N", value_parser = parse_bullets, allow_negative_numbers = true)]
    pub bullets: Option<usize>,
    /// Seed of every random choice in the world.
    #[arg(
        long,
        value_name = "N",
        default_value = "1",
        allow_negative_numbers = true
    )]
    pub seed: u64,
}

impl LoopArgs {
    /// The loop settings these arguments describe (the loop refuses a limit of zero, as
    /// the options' parsers do).
    pub fn settings(&self) -> Result<LoopSettings, Failure> {
        fn invalid(option: &'static str) -> impl Fn(looplab_timing::TimingError) -> Failure {
            move |e| Failure::usage(format!("invalid value for '{option}': {e}"))
        }
        Ok(LoopSettings::default()
            .with_update_rate(self.ups)
            .with_frame_cap(self.cap.0)
            .with_max_updates(self.max_updates.0)
            .map_err(invalid("--max-updates"))?
            .with_max_frame_time(self.stall_clamp.0)
            .map_err(invalid("--stall-clamp"))?
            .with_resync_after(self.resync_after.0)
            .map_err(invalid("--resync-after"))?
            .with_substeps(self.substeps)
            .with_time_scale(self.time_scale))
    }

    /// Refuses settings that parse but make no sense together: a hitch limit no longer
    /// than an update would make every frame a hitch, and the game would never move.
    pub fn check(&self) -> Result<(), Failure> {
        if let Some(limit) = self.resync_after.0
            && limit <= self.ups.period()
        {
            return Err(Failure::usage(format!(
                "invalid value for '--resync-after': {} is not longer than an update ({} at {} UPS), so every frame would be a hitch",
                format_duration(limit),
                format_duration(self.ups.period()),
                self.ups.as_hz()
            )));
        }
        Ok(())
    }

    /// The world these arguments describe, with `default_bullets` unless given.
    pub fn world(&self, default_bullets: usize) -> WorldConfig {
        WorldConfig {
            seed: self.seed,
            bullets: self.bullets.unwrap_or(default_bullets),
        }
    }
}

/// Options of the window (no subcommand).
#[derive(Args, Debug, Clone)]
pub struct AppArgs {
    /// Loop strategy to start with: an id (`interpolated`) or its key (`5`).
    #[arg(long, value_name = "STRATEGY", default_value = "interpolated", value_parser = parse_strategy)]
    pub strategy: Strategy,
    #[command(flatten)]
    pub loop_args: LoopArgs,
    /// Present with vsync (FIFO): `on` or `off`. Under Xvfb there is no vertical blank, so
    /// use `--cap` there.
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = parse_on_off, action = clap::ArgAction::Set)]
    pub vsync: bool,
    /// The present mode, in place of what `--vsync` asks for: `fifo` (vsync), `relaxed`,
    /// `mailbox` or `immediate`; where the display does not offer it, the nearest it does.
    /// The V key steps through the modes offered.
    #[arg(long, value_name = "MODE", value_parser = PresentMode::parse)]
    pub present: Option<PresentMode>,
    /// Frames that may wait between the loop and the display: 1, 2 or 3 (wgpu's
    /// `desired_maximum_frame_latency`; the driver may keep more). Shift+V steps through them.
    #[arg(long, value_name = "N", default_value = "2", value_parser = parse_latency)]
    pub frame_latency: u32,
    /// Start each frame just in time for the refresh that shows it, so the input it reads
    /// is fresh (the J key turns it on and off).
    #[arg(long)]
    pub just_in_time: bool,
    /// The display's refresh rate in Hz, where the windowing system tells none or the wrong
    /// one (Xvfb, a remote desktop): snapped deltas and just in time keep to it, and the
    /// presents do not estimate it.
    #[arg(long, value_name = "HZ")]
    pub refresh: Option<Rate>,
    /// The window's inner size in physical pixels, `WIDTHxHEIGHT` (1280x720 when not
    /// given): a smaller window on a small screen, or where a software rasteriser's frame
    /// cost grows with the pixels it fills. A page takes its canvas's size instead.
    #[arg(long, value_name = "WIDTHxHEIGHT", value_parser = parse_size)]
    pub size: Option<(u32, u32)>,
    /// How the loop reads frame deltas: `measured`, `snapped` (to the monitor's refresh
    /// rate), `smoothed` or `synced` (Godot's timer sync). The D key cycles through them.
    #[arg(long, value_name = "KIND", default_value = "measured", value_parser = str::parse::<DeltaKind>)]
    pub delta: DeltaKind,
    /// Simulated cost of every update (a weak CPU), e.g. `5ms`.
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "0ms",
        value_parser = parse_duration,
        allow_hyphen_values = true
    )]
    pub update_cost: Duration,
    /// Simulated cost of rendering every frame (a weak GPU), e.g. `40ms`.
    #[arg(
        long,
        value_name = "DURATION",
        default_value = "0ms",
        value_parser = parse_duration,
        allow_hyphen_values = true
    )]
    pub render_cost: Duration,
    /// Show ghost markers at every bullet's true position.
    #[arg(long)]
    pub ghosts: bool,
    /// Start with the guided tour: each claim of the texts staged and watched for live
    /// (Enter goes on, Backspace back, End leaves).
    #[arg(long)]
    pub tour: bool,
    /// Start with the overlay hidden.
    #[arg(long)]
    pub hide_overlay: bool,
    /// Start with the full panel (every figure and the frame-time graph, as A gives) rather
    /// than the short one.
    #[arg(long)]
    pub full_panel: bool,
    /// Start with the loop's timeline strip hidden.
    #[arg(long)]
    pub hide_timeline: bool,
    /// Start in compare mode: modelled machines side by side from the same steering.
    /// `fred-and-george` (variable step on a fast and a slow machine), `fixed-step` (the
    /// same with a fixed step), `every-strategy` (one machine), `weak-gpu` (every strategy),
    /// `snapping` (measured, snapped, smoothed and synced deltas), `render-ticks` (interpolation and
    /// the render ticks at 10 UPS).
    #[arg(long, value_name = "PRESET", value_parser = str::parse::<Preset>)]
    pub compare: Option<Preset>,
    /// Start in compare mode with these lanes instead (two to six): a machine as the lab
    /// writes it (a built-in name or `NAME:render=9ms,refresh=59.94,...`) and a strategy,
    /// like `--lane fast/variable --lane weak-gpu/variable`; `+snapped`, `+smoothed` or `+synced` after
    /// the strategy reads its deltas that way. `capture=FILE[/STRATEGY]` is a frame
    /// capture's machine (given alone, beside the fast machine).
    #[arg(long = "lane", value_name = "PROFILE/STRATEGY[+DELTA]", value_parser = parse_lane, conflicts_with = "compare")]
    pub lanes: Vec<LaneSpec>,
    /// Load each frame as a real game's frames were, from a frame capture (PresentMon,
    /// OCAT, CapFrameX, FrameView, MangoHud): the stream stutters where the game did.
    /// `--lane capture=FILE` runs a capture as a compare lane instead.
    #[arg(long, value_name = "FILE")]
    pub capture: Option<PathBuf>,
    /// The application to read from a capture that holds several: its name, `.exe`
    /// optional. Default: the one with the most frames.
    #[arg(long, value_name = "NAME")]
    pub process: Option<String>,
    /// Keep the game running while the window is hidden (covered, minimized, no area); by
    /// default it pauses and the loop rests until the window is seen again.
    #[arg(long)]
    pub run_hidden: bool,
    /// Quit by itself after this many seconds.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub exit_after: Option<Duration>,
    /// On exit, write per-strategy FPS, UPS, game/real ratio and error to this JSON file.
    #[arg(long, value_name = "FILE.json")]
    pub stats: Option<PathBuf>,
    /// How a frame-cap wait ends: `precise` (OS wake-up, then a spin), `naive` (trust the
    /// OS wake-up), or `alternating` (each in turn, half a second at a time). For `looplab
    /// bench`.
    #[arg(long, value_name = "precise|naive|alternating", default_value = "precise", value_parser = parse_pacing, hide = true)]
    pub pacing: CapWait,
    /// On exit, write every frame's timings and every key's latency to this JSON file. For
    /// `looplab bench`.
    #[arg(long, value_name = "FILE.json", hide = true)]
    pub frame_log: Option<PathBuf>,
    /// Draw the bullets with the bare instanced renderer (no strategy view, no other bodies):
    /// the yardstick of `looplab bench`.
    #[arg(long, hide = true)]
    pub bare_renderer: bool,
    /// On exit, write the ship's steering and the state it led to into this file, a
    /// recording anyone can play back (`--replay`, `looplab lab --replay`). Not with
    /// `--substeps`: updates of odd lengths, set by the frames' timing, replay differently.
    #[arg(long, value_name = "FILE", conflicts_with = "substeps")]
    pub record: Option<PathBuf>,
    /// On exit, write every presented frame's real timings (start, wait, updates, render,
    /// present) to this file, for `looplab lab --trace FILE` to replay under every strategy.
    /// A FILE.csv is written in PresentMon's 1.x columns instead, for CapFrameX and the
    /// field's other tools (and `looplab lab --capture FILE.csv`).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Play a recording back: its world, strategy and settings, the ship steered as recorded
    /// (the arrow keys are ignored), and at its end a check that the state is the same.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["strategy", "ups", "cap", "max_updates", "stall_clamp", "resync_after", "substeps", "time_scale", "bullets", "seed", "delta"])]
    pub replay: Option<PathBuf>,
    /// Press keys from a script instead of a keyboard: `SECONDS:KEY` or `SECONDS:KEY/HELD`,
    /// separated by spaces or commas, xdotool's key names (`1.5:4 3:Right/0.5 6:Escape`).
    /// For tests on displays nothing can type into.
    #[arg(long, value_name = "SCRIPT", hide = true, value_parser = KeyScript::parse)]
    pub key_script: Option<KeyScript>,
    /// Make every N-th frame find its surface outdated or lost, alternately: a test of
    /// recovery.
    #[arg(long, value_name = "N", hide = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub surface_faults: Option<u32>,
    /// Destroy the GPU device this many seconds into the run: a test of recovery.
    #[arg(long, value_name = "SECONDS", hide = true, value_parser = parse_seconds)]
    pub lose_device_at: Option<Duration>,
    /// Once the device is lost, refuse every new one: a test of the run's end.
    #[arg(long, hide = true)]
    pub refuse_new_device: bool,
}

impl AppArgs {
    /// The window's start-up options.
    pub fn options(&self) -> Result<AppOptions, Failure> {
        Ok(AppOptions {
            strategy: self.strategy,
            settings: self
                .loop_args
                .settings()?
                .with_delta_mode(self.delta.mode(Rate::SIXTY_HZ)),
            world: self.loop_args.world(WorldConfig::DEFAULT_BULLETS),
            knobs: Knobs {
                present: self
                    .present
                    .unwrap_or_else(|| PresentMode::for_vsync(self.vsync)),
                latency: self.frame_latency,
                just_in_time: self.just_in_time,
                update_cost: self.update_cost,
                render_cost: self.render_cost,
                ghosts: self.ghosts,
                help: false,
                overlay: !self.hide_overlay,
                timeline: !self.hide_timeline,
                everything: self.full_panel,
                compare: if self.lanes.is_empty() {
                    self.compare
                } else {
                    Some(Preset::Custom)
                },
                selected_lane: None,
                capture: None,
            },
            refresh: self.refresh,
            size: self.size,
            exit_after: self.exit_after,
            tour: self.tour,
            embedded: None,
            outputs: Outputs {
                stats: self.stats.clone(),
                frame_log: self.frame_log.clone(),
                record: self.record.clone(),
                trace: self.trace.clone(),
            },
            run_hidden: self.run_hidden,
            replay: None,
            lanes: self.lanes.clone(),
            hooks: Hooks {
                key_script: self.key_script.clone(),
                surface_faults: self.surface_faults,
                pacing: self.pacing,
                bare_renderer: self.bare_renderer,
                lose_device_at: self.lose_device_at,
                refuse_new_device: self.refuse_new_device,
            },
        })
    }
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LabArgs {
    #[command(subcommand)]
    pub command: Option<LabCommand>,
    /// Strategies to run, comma-separated (default: every strategy, 1 to 8 as the window numbers them).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_strategy)]
    pub strategy: Vec<Strategy>,
    /// Hardware profiles: built-in names, comma-separated, or a custom
    /// `NAME:render=5ms,update=1ms,jitter=2ms,refresh=59.94,vsync=on,noise=0.5%,timer=coarse,stall=1s@4s`.
    /// Repeatable.
    #[arg(long, value_name = "PROFILE", value_parser = parse_profiles)]
    pub profile: Vec<Vec<Profile>>,
    /// Real (virtual) seconds each run lasts.
    #[arg(long, value_name = "SECONDS", default_value = "20", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: Duration,
    /// Game time at which states are hashed to compare profiles.
    #[arg(long, value_name = "SECONDS", default_value = "5", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub checkpoint: Duration,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Also draw game time and drawn-position error over time to this SVG file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// How the strategies that read frame deltas read them, comma-separated: `measured`,
    /// `snapped` (to each profile's display refresh), `smoothed` and `synced`; each is a run
    /// of its own.
    /// Default: `measured`, or all four with `--trace`.
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = str::parse::<DeltaKind>)]
    pub delta: Vec<DeltaKind>,
    /// Replay the frame costs of a window's run (recorded with `looplab --trace FILE`) under
    /// every strategy, with its update rate and frame cap, on the display it was recorded
    /// on, for as long as it ran.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["profile", "replay", "seconds", "ups", "cap"])]
    pub trace: Option<PathBuf>,
    /// Replay a frame capture of a real game under every strategy, for as long as it ran,
    /// on the display it was shown on: PresentMon (1.x, 2.x), OCAT, CapFrameX (JSON, CSV),
    /// FrameView or MangoHud, told from the file's header.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["profile", "replay", "seconds", "trace"])]
    pub capture: Option<PathBuf>,
    /// The application to read from a capture that holds several (PresentMon records every
    /// process): its name, `.exe` optional. Default: the one with the most frames.
    #[arg(long, value_name = "NAME", requires = "capture")]
    pub process: Option<String>,
    /// The capture's display refresh rate in Hz, where the capture does not tell it or tells
    /// it wrong (a capped game's display changes follow its cap).
    #[arg(long, value_name = "HZ", requires = "capture")]
    pub refresh: Option<Rate>,
    /// The pacing scorecard too (what each refresh showed, in MonitorSim's terms); with
    /// `--capture`, every run's tables after the answer.
    #[arg(long)]
    pub verbose: bool,
    /// Also write every run's frames to this file in PresentMon 2.x's `--v2_metrics`
    /// columns, one application a run (`looplab-STRATEGY-PROFILE`): the time each picture
    /// truly shows as `AnimationTime`, beside when it was shown, for a capture tool to open.
    #[arg(long, value_name = "FILE.csv", conflicts_with_all = ["replay", "capture"])]
    pub presentmon: Option<PathBuf>,
    /// End each run once this many updates have run (MonitorSim runs 10000), at most a day
    /// of virtual time; instead of `--seconds`.
    #[arg(long, value_name = "N", conflicts_with = "seconds", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub updates: Option<u64>,
    /// Play a recording (made with `looplab --record`) on every profile under every
    /// strategy and report whether each reaches the recorded state.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["plot", "seconds", "checkpoint"])]
    pub replay: Option<PathBuf>,
    #[command(flatten)]
    pub loop_args: LoopArgs,
}

#[derive(Subcommand, Debug)]
pub enum LabCommand {
    /// Reproduce deWiTTERS' floating-point drift experiment.
    Drift {
        /// Frame rates to compare, comma-separated.
        #[arg(
            long,
            value_name = "LIST",
            value_delimiter = ',',
            default_value = "40,100",
            allow_negative_numbers = true
        )]
        fps: Vec<Rate>,
    },
    /// A seeded person taps and holds the arrows on every profile, under every strategy,
    /// with accumulated and sampled input, at 10 and 60 updates a second: taps lost and
    /// taken twice, and the delay from a key to the first frame that shows it.
    Feel {
        /// Real (virtual) seconds each run lasts.
        #[arg(long, value_name = "SECONDS", default_value = "20", value_parser = parse_seconds, allow_negative_numbers = true)]
        seconds: Duration,
        /// Output format.
        #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
        format: BenchFormat,
    },
    /// Soak every strategy for hours of virtual time with the settings changed at random,
    /// checking that the game clock neither drifts nor loses time and memory stays flat.
    Soak {
        /// Virtual hours per strategy.
        #[arg(long, value_name = "HOURS", default_value = "24", value_parser = parse_hours, allow_negative_numbers = true)]
        hours: f64,
        /// Seed of the random settings changes.
        #[arg(long, value_name = "N", default_value = "1")]
        seed: u64,
        /// Output format.
        #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
        format: BenchFormat,
    },
    /// Key to photon through the swapchain's queue: every present mode with 1, 2 and 3
    /// frames in flight, a loop that goes straight on against one that starts each frame
    /// just in time, and the curve of delay against missed refreshes as the margin varies.
    Latency {
        /// The machine: a built-in profile or `NAME:render=9ms,jitter=8ms,...` (its
        /// display's refresh rate is kept; present mode and latency are varied).
        #[arg(long, value_name = "PROFILE", default_value = "jitter", value_parser = parse_boxed_profile, conflicts_with = "capture")]
        profile: Box<Profile>,
        /// A frame capture of the field's tools (PresentMon, OCAT, CapFrameX, FrameView,
        /// MangoHud) as the machine: its frames' costs, replayed.
        #[arg(long, value_name = "FILE")]
        capture: Option<PathBuf>,
        /// The display's refresh rate in Hz, in place of the machine's (a capture's
        /// frames on a 60 Hz display: `--refresh 60`).
        #[arg(long, value_name = "HZ")]
        refresh: Option<Rate>,
        /// The loop strategy: an id or its key.
        #[arg(long, value_name = "STRATEGY", default_value = "interpolated", value_parser = parse_strategy)]
        strategy: Strategy,
        /// Real (virtual) seconds each run lasts. Default: 20, or a capture's whole span.
        #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
        seconds: Option<Duration>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = BenchFormat::Table)]
        format: BenchFormat,
        /// Also draw the curve of delay against missed refreshes to this SVG file.
        #[arg(long, value_name = "FILE")]
        plot: Option<PathBuf>,
    },
    /// Run the loops Rust game developers pick instead (game-loop, bevy_time, renew-frame,
    /// and ports of ggez's, macroquad's and fixedstep's) beside looplab-timing on the lab's
    /// machines. The peers live in their own package, `looplab-peers`, built beside this
    /// program.
    Peers {
        /// Passed on: `--seconds N`, `--format table|json`.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "OPTIONS"
        )]
        options: Vec<String>,
    },
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Table,
    Csv,
    Json,
}
