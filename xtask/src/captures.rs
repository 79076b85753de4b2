//! `cargo xtask captures`: the test captures of `tests/captures/made/`, one or more per
//! format Looplab reads, written from the formats' documentation with the quirks real files
//! carry (a UTF-8 BOM, CRLF, quoted fields with commas, `NA` and empty values, rows of
//! other processes between the game's, rows shorter than the header, numbers padded with
//! spaces, a last line with no line end).
//!
//! Every file is written from one of three modelled sessions of a game, so a test knows
//! what each must read as: `vsync60`, a game presenting with vsync on an exactly 60 Hz
//! display (two hitches, so its frame times are not all one refresh), `tearing`, a game at
//! about 140 FPS presenting without vsync, some frames never displayed, and `capped30`, a
//! game held at 30 FPS by its own limiter on a 144 Hz display. Animation errors are worked
//! from each session's truth as PresentMon's metrics calculator works them. The three PresentMon
//! column sets are the same session, so their frame counts and medians must agree.
//!
//! The files are committed; `xtask/tests/captures.rs` checks they are what this writes.

use std::fmt::Write as _;
use std::path::Path;

/// One frame of a modelled session, in milliseconds from its start.
#[derive(Clone, Copy, Debug, Default)]
pub struct TruthFrame {
    pub cpu_start: f64,
    pub cpu_busy: f64,
    pub gpu_busy: f64,
    /// When the present call began, and the time spent in it.
    pub present: f64,
    pub in_present: f64,
    /// When the display showed it; `None` if it never did.
    pub shown: Option<f64>,
}

/// A modelled session of a game.
#[derive(Clone, Debug)]
pub struct Session {
    pub frames: Vec<TruthFrame>,
    pub vsync: bool,
}

/// A small deterministic random stream (xorshift), so the files are the same on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A game with vsync on a 60 Hz display: 6-9 ms of CPU work a frame (45 ms at frame 200,
/// 25 ms at frame 400), 4-7 ms of GPU work; the present waits for the refresh.
pub fn vsync60(frames: usize) -> Session {
    let period = 1000.0 / 60.0;
    let mut rng = Random(0x5eed_0060);
    let mut out = Vec::with_capacity(frames);
    let (mut t, mut last_shown) = (0.0, 0.0f64);
    for k in 0..frames {
        let cpu = match k {
            200 => 45.0,
            400 => 25.0,
            _ => 6.0 + 3.0 * rng.next(),
        };
        let gpu = 4.0 + 3.0 * rng.next();
        let present = t + cpu;
        // The present returns at the next refresh; the GPU's work shows at the refresh
        // after it is done.
        let vblank = (present / period).ceil() * period;
        let shown = (((present + gpu) / period).ceil() * period).max(last_shown + period);
        last_shown = shown;
        out.push(TruthFrame {
            cpu_start: t,
            cpu_busy: cpu,
            gpu_busy: gpu,
            present,
            in_present: vblank - present,
            shown: Some(shown),
        });
        t = vblank;
    }
    Session {
        frames: out,
        vsync: true,
    }
}

/// A game at about 140 FPS without vsync: 5-9 ms frames; a frame presented within 2 ms of
/// the one before is never displayed (the next one replaces it).
pub fn tearing(frames: usize) -> Session {
    let mut rng = Random(0x7ea5_0140);
    let mut out: Vec<TruthFrame> = Vec::with_capacity(frames);
    let mut t = 1.0;
    for k in 0..frames {
        let cpu = if k % 97 == 50 {
            1.5
        } else {
            5.0 + 4.0 * rng.next()
        };
        let gpu = 3.0 + 3.0 * rng.next();
        let present = t + cpu;
        let in_present = 0.2 + 0.2 * rng.next();
        out.push(TruthFrame {
            cpu_start: t,
            cpu_busy: cpu,
            gpu_busy: gpu,
            present,
            in_present,
            shown: Some(present + gpu + 0.5),
        });
        // A frame replaced within 2 ms was never shown.
        if out.len() >= 2 && cpu < 2.0 {
            let n = out.len();
            out[n - 2].shown = None;
        }
        t = present + in_present;
    }
    Session {
        frames: out,
        vsync: false,
    }
}

/// A game held at 30 FPS by its own frame limiter, on a 144 Hz display without vsync or
/// tearing (a flip shown at the next refresh): 8-12 ms of CPU work and 5-8 ms of GPU work
/// a frame (40 ms of CPU work at frame 150), the limiter sleeping before the present until
/// a deadline a thirtieth of a second after the last (it wakes up to 0.4 ms late), and
/// catching up after a frame that ran past it.
pub fn capped30(frames: usize) -> Session {
    let (cap, refresh) = (1000.0 / 30.0, 1000.0 / 144.0);
    let mut rng = Random(0xca9_0030);
    let mut out = Vec::with_capacity(frames);
    let (mut t, mut deadline, mut last_shown) = (2.0, 2.0, 0.0f64);
    for k in 0..frames {
        let cpu = if k == 150 {
            40.0
        } else {
            8.0 + 4.0 * rng.next()
        };
        let gpu = 5.0 + 3.0 * rng.next();
        deadline += cap;
        // The limiter's sleep, then the present.
        let present = (t + cpu).max(deadline + 0.4 * rng.next());
        if present > deadline + cap {
            deadline = present;
        }
        let in_present = 0.1 + 0.1 * rng.next();
        let shown = (((present + gpu) / refresh).ceil() * refresh).max(last_shown + refresh);
        last_shown = shown;
        out.push(TruthFrame {
            cpu_start: t,
            cpu_busy: cpu,
            gpu_busy: gpu,
            present,
            in_present,
            shown: Some(shown),
        });
        t = present + in_present;
    }
    Session {
        frames: out,
        vsync: false,
    }
}

/// What a file holds besides the game: dwm's frames, one every other refresh of 60 Hz.
fn dwm_rows(session: &Session) -> Vec<f64> {
    let end = session.frames.last().map_or(0.0, |f| f.present);
    (1..)
        .map(|k| k as f64 * 1000.0 / 30.0)
        .take_while(|&t| t < end)
        .collect()
}

/// A game frame after the first, with what its columns need of the frames before it.
struct Row<'a> {
    f: &'a TruthFrame,
    before: &'a TruthFrame,
    /// When the display last changed before this frame (to the last displayed frame).
    shown_before: Option<f64>,
    /// The last frame displayed before this one.
    displayed_before: Option<&'a TruthFrame>,
}

impl Row<'_> {
    /// PresentMon's animation error for a displayed frame, as its metrics calculator has it:
    /// the change in CPU start (the animation time it estimates) since the last displayed
    /// frame, less the change in display time; `None` for a frame not displayed or with no
    /// displayed frame before it.
    fn animation_error(&self) -> Option<f64> {
        animation_error(self.f, self.displayed_before)
    }

    /// PresentMon 1.x's display columns: `Dropped`, `MsUntilDisplayed` and
    /// `MsBetweenDisplayChange`, zeros where the frame was not displayed.
    fn display_v1(&self) -> (u8, f64, f64) {
        match (self.f.shown, self.shown_before) {
            (Some(shown), Some(before)) => (0, shown - self.f.present, shown - before),
            (Some(shown), None) => (0, shown - self.f.present, 0.0),
            (None, _) => (1, 0.0, 0.0),
        }
    }
}

/// Frame `f`'s animation error against the displayed frame `before` (see
/// [`Row::animation_error`]).
fn animation_error(f: &TruthFrame, before: Option<&TruthFrame>) -> Option<f64> {
    let (shown, b) = (f.shown?, before?);
    Some((f.cpu_start - b.cpu_start) - (shown - b.shown?))
}

fn rows(session: &Session) -> Vec<Row<'_>> {
    let fr = &session.frames;
    let mut last = fr[0].shown.map(|_| &fr[0]);
    let mut out = Vec::new();
    for k in 1..fr.len() {
        let displayed_before = last;
        if fr[k].shown.is_some() {
            last = Some(&fr[k]);
        }
        out.push(Row {
            f: &fr[k],
            before: &fr[k - 1],
            shown_before: displayed_before.and_then(|b| b.shown),
            displayed_before,
        });
    }
    out
}

/// PresentMon 1.7-1.10 (and 2.x `--v1_metrics`): lower-case `ms`, a BOM, CRLF, dwm's rows
/// between the game's.
pub fn presentmon_v1(s: &Session) -> String {
    let mut out = String::from(
        "\u{feff}Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,msInPresentAPI,msBetweenPresents,AllowsTearing,PresentMode,msUntilRenderComplete,msUntilDisplayed,msBetweenDisplayChange,msUntilRenderStart,msGPUActive\r\n",
    );
    let sync = u8::from(s.vsync);
    let mode = if s.vsync {
        "Hardware: Independent Flip"
    } else {
        "Hardware Composed: Independent Flip"
    };
    let mut dwm = dwm_rows(s).into_iter().peekable();
    for r in rows(s) {
        while let Some(t) = dwm.next_if(|&t| t < r.f.present) {
            let _ = write!(
                out,
                "dwm.exe,1268,0x00000224B280A1C0,DXGI,1,0,0,{:.14},0.08930000000000,33.33333333333333,0,Composed: Flip,0.06730000000000,16.42960000000000,33.33333333333333,-15.44710000000000,1.07520000000000\r\n",
                t / 1e3
            );
        }
        let f = r.f;
        let (dropped, until, change) = r.display_v1();
        let _ = write!(
            out,
            "game.exe,5120,0x000001A2B3C4D5E0,DXGI,{sync},0,{dropped},{:.14},{:.14},{:.14},{},{mode},{:.14},{until:.14},{change:.14},{:.14},{:.14}\r\n",
            f.present / 1e3,
            f.in_present,
            f.present - r.before.present,
            u8::from(!s.vsync),
            f.gpu_busy + 0.3,
            -(f.cpu_busy * 0.5),
            f.gpu_busy,
        );
    }
    out
}

/// PresentMon 2.4+'s default set: `TimeInMs`, `MsCPUBusy`, `NA` where a frame was not
/// displayed, a BOM, CRLF, dwm's rows between the game's.
pub fn presentmon_v2(s: &Session) -> String {
    let mut out = String::from(
        "\u{feff}Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,TimeInMs,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,CPUStartTimeInMs,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsAnimationError,AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,MsClickToPhotonLatency\r\n",
    );
    let sync = u8::from(s.vsync);
    let mut dwm = dwm_rows(s).into_iter().peekable();
    let na = |v: Option<f64>| v.map_or("NA".to_string(), |v| format!("{v:.4}"));
    for r in rows(s) {
        while let Some(t) = dwm.next_if(|&t| t < r.f.present) {
            let _ = write!(
                out,
                "dwm.exe,1268,0x224B280A1C0,DXGI,1,0,0,Composed: Flip,{t:.4},NA,33.33333333333333,33.33333333333333,0.08930000000000,0.06730000000000,16.4296,{:.4},33.3333,15.9000,0.7667,0.8529,1.5144,1.0752,0.4392,NA,NA,NA,NA,NA\r\n",
                t - 16.0
            );
        }
        let (f, b) = (r.f, r.before);
        let cpu_wait = f.cpu_start - b.cpu_start - b.cpu_busy;
        let _ = write!(
            out,
            "game.exe,5120,0x1A2B3C4D5E0,DXGI,{sync},0,{},{},{:.4},NA,{:.14},{},{:.14},{:.14},{},{:.4},{:.4},{:.4},{:.4},0.5000,{:.4},{:.4},0.2000,{},{:.4},NA,NA,NA\r\n",
            u8::from(!s.vsync),
            if s.vsync {
                "Hardware: Independent Flip"
            } else {
                "Hardware Composed: Independent Flip"
            },
            f.present,
            f.present - b.present,
            na(f.shown.zip(r.shown_before).map(|(a, b)| a - b)),
            f.in_present,
            f.gpu_busy + 0.3,
            na(f.shown.map(|sh| sh - f.present)),
            b.cpu_start,
            f.cpu_start - b.cpu_start,
            b.cpu_busy,
            cpu_wait,
            f.gpu_busy + 0.2,
            f.gpu_busy,
            na(r.animation_error()),
            f.cpu_start,
        );
    }
    out
}

/// PresentMon 2.x `--v2_metrics`: `FrameTime` (CPU start to the next CPU start), so the last
/// frame has no row; `CPUStartQPC` in ticks of a 10 MHz counter; `NA` display columns.
pub fn presentmon_v2_metrics(s: &Session) -> String {
    let mut out = String::from(
        "\u{feff}Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,CPUStartQPC,FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime,GPUBusy,GPUWait,DisplayLatency,DisplayedTime,AnimationError,AnimationTime,MsFlipDelay,AllInputToPhotonLatency,ClickToPhotonLatency\r\n",
    );
    let sync = u8::from(s.vsync);
    let fr = &s.frames;
    let mut dwm = dwm_rows(s).into_iter().peekable();
    let mut displayed_before = fr[0].shown.map(|_| &fr[0]);
    for k in 1..fr.len() - 1 {
        let (f, next) = (&fr[k], &fr[k + 1]);
        let error = animation_error(f, displayed_before);
        if f.shown.is_some() {
            displayed_before = Some(f);
        }
        while let Some(t) = dwm.next_if(|&t| t < f.present) {
            let _ = write!(
                out,
                "dwm.exe,1268,0x224B280A1C0,DXGI,1,0,0,Composed: Flip,{},33.3333,15.9000,17.4333,0.8529,1.5144,1.0752,0.4392,32.7296,33.3333,NA,NA,NA,NA,NA\r\n",
                20_000_000 + (t * 1e4) as u64
            );
        }
        let next_shown = fr[k + 1..].iter().find_map(|f| f.shown);
        let (latency, on_screen) = match (f.shown, next_shown) {
            (Some(shown), Some(next)) => (
                format!("{:.4}", shown - f.cpu_start),
                format!("{:.4}", next - shown),
            ),
            _ => ("NA".into(), "NA".into()),
        };
        let frame_time = next.cpu_start - f.cpu_start;
        let _ = write!(
            out,
            "game.exe,5120,0x1A2B3C4D5E0,DXGI,{sync},0,{},{},{},{frame_time:.4},{:.4},{:.4},0.5000,{:.4},{:.4},0.2000,{latency},{on_screen},{},NA,NA,NA,NA\r\n",
            u8::from(!s.vsync),
            if s.vsync {
                "Hardware: Independent Flip"
            } else {
                "Hardware Composed: Independent Flip"
            },
            20_000_000 + (f.cpu_start * 1e4) as u64,
            f.cpu_busy,
            frame_time - f.cpu_busy,
            f.gpu_busy + 0.2,
            f.gpu_busy,
            error.map_or("NA".to_string(), |e| format!("{e:.4}")),
        );
    }
    out
}

/// PresentMon 2.4's capture app: `TimeInSeconds` from the first row, `FrameType` with frame
/// generation's frames between the game's (each game frame followed by a generated one
/// halfway to the next), the duplicated `MsPCLatency` column of 2.4, telemetry, no BOM, and
/// the overflowed animation error (near -2^64 microseconds) it writes for a dropped frame.
pub fn presentmon_app(s: &Session) -> String {
    let mut out = String::from(
        "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,TimeInSeconds,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,CPUStartTime,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsAnimationError,AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,MsClickToPhotonLatency,InstrumentedLatency,MsPCLatency,GPUPower,GPUVoltage,3D/ComputeUtilization,GPUFanSpeed[0],CPUUtilization\n",
    );
    let origin = s.frames[0].present;
    for r in rows(s) {
        let (f, b) = (r.f, r.before);
        let half = (f.present - b.present) / 2.0;
        // The generated frame, presented halfway between the game's two.
        let _ = writeln!(
            out,
            "game.exe,5120,0x1A2B3C4D5E0,DXGI,0,512,1,Hardware Composed: Independent Flip,Intel XeSS-FG,{:.6},NA,{half:.4},{half:.4},0.0500,0.3000,1.0000,NA,{:.6},0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,0.0000,NA,NA,NA,NA,NA,NA,NA,211.4000,0.9810,97.0000,1450,31.5",
            (b.present + half - origin) / 1e3,
            (b.cpu_start - origin) / 1e3,
        );
        let _ = writeln!(
            out,
            "game.exe,5120,0x1A2B3C4D5E0,DXGI,0,512,1,Hardware Composed: Independent Flip,Application,{:.6},NA,{half:.4},{half:.4},{:.4},{:.4},{},NA,{:.6},{:.4},{:.4},{:.4},0.5000,{:.4},{:.4},0.2000,{},{:.4},NA,NA,NA,NA,NA,212.0500,0.9810,97.0000,1450,31.5",
            (f.present - origin) / 1e3,
            f.in_present,
            f.gpu_busy + 0.3,
            f.shown
                .map_or("NA".to_string(), |sh| format!("{:.4}", sh - f.present)),
            (f.cpu_start - origin) / 1e3,
            f.cpu_start - b.cpu_start,
            f.cpu_busy,
            (f.cpu_start - b.cpu_start - f.cpu_busy).max(0.0),
            f.gpu_busy + 0.2,
            f.gpu_busy,
            // The capture app writes an overflowed value for a frame it dropped.
            match (r.animation_error(), f.shown) {
                (Some(e), _) => format!("{e:.4}"),
                (None, None) => "-1844674407370933.5000".to_string(),
                (None, Some(_)) => "NA".to_string(),
            },
            f.cpu_start,
        );
    }
    out
}

/// OCAT 1.6 (Verbose): PresentMon 1.x's capital `Ms`, the system columns on the first row
/// only (quoted, one with a comma), later rows shorter than the header; CRLF, and no line
/// end after the last row.
pub fn ocat(s: &Session) -> String {
    let mut out = String::from(
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed,MsEstimatedDriverLag,Width,Height,Motherboard,OS,Processor,System RAM,Base Driver Version,Driver Package,GPU #,GPU,GPU Core Clock (MHz),GPU Memory Clock (MHz),GPU Memory (MB)",
    );
    for (i, r) in rows(s).iter().enumerate() {
        let f = r.f;
        let (dropped, until, change) = r.display_v1();
        let _ = write!(
            out,
            "\r\ngame.exe,9024,0x000001F0AB12CD30,DXGI,{},0,{},Hardware: Independent Flip,0,1,{dropped},{:.6},{:.3},{change:.3},{:.3},{:.3},{until:.3},4.076,2560,1440",
            u8::from(s.vsync),
            u8::from(!s.vsync),
            f.present / 1e3,
            f.present - r.before.present,
            f.in_present,
            f.gpu_busy + 0.3,
        );
        if i == 0 {
            out.push_str(",\"ExampleBoard X570 PRO\",\"Windows 10 Pro 2004 (OS Build 19041.1)\",\"AMD Ryzen 7 3700X, 8-Core Processor\",32 GB,20.11.2,27.20.14501.18003,1,Radeon RX 5700 XT,1905,-,8176");
        }
    }
    out
}

/// CapFrameX's CSV: its `//Key=Value` lines, then PresentMon 1.x's header and rows, times
/// from the first row; CRLF.
pub fn capframex_csv(s: &Session) -> String {
    let mut out = String::from(
        "//GameName=Example Game\r\n//ProcessName=game.exe\r\n//CreationDate=2019-11-02\r\n//CreationTime=20:14:07\r\n//Comment=benchmark, run 1\r\n//IsAggregated=False\r\nApplication,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,WasBatched,DwmNotified,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed\r\n",
    );
    let rs = rows(s);
    let origin = rs[0].f.present;
    for r in &rs {
        let f = r.f;
        let (dropped, until, change) = r.display_v1();
        let _ = write!(
            out,
            "game.exe,6310,0x0000021C44A81B30,DXGI,{},0,{},Hardware: Independent Flip,0,1,{dropped},{},{:.3},{change:.3},{:.3},{:.3},{until:.3}\r\n",
            u8::from(s.vsync),
            u8::from(!s.vsync),
            (f.present - origin) / 1e3,
            f.present - r.before.present,
            f.in_present,
            f.gpu_busy + 0.3,
        );
    }
    out
}

/// The PresentMon 1.x arrays of CapFrameX's JSON, comma-separated, as its importer writes
/// them: times from the first frame, zeros where a frame was not displayed.
struct Arrays {
    time: String,
    between: String,
    in_present: String,
    change: String,
    until: String,
}

impl Arrays {
    fn of(rs: &[Row]) -> Self {
        let origin = rs[0].f.present;
        let column =
            |get: &dyn Fn(&Row) -> String| rs.iter().map(get).collect::<Vec<String>>().join(",");
        Arrays {
            time: column(&|r| format!("{:.5}", (r.f.present - origin) / 1e3)),
            between: column(&|r| format!("{:.3}", r.f.present - r.before.present)),
            in_present: column(&|r| format!("{:.3}", r.f.in_present)),
            change: column(&|r| match (r.f.shown, r.shown_before) {
                (Some(a), Some(b)) => format!("{:.3}", a - b),
                _ => "0.0".into(),
            }),
            until: column(&|r| {
                r.f.shown
                    .map_or("0.0".into(), |sh| format!("{:.3}", sh - r.f.present))
            }),
        }
    }
}

/// CapFrameX's JSON: a BOM, `Info`, two runs (the longer read), `"NaN"` strings, a `null`
/// array, `CpuActive` and `GpuActive`.
pub fn capframex_json(s: &Session) -> String {
    let rs = rows(s);
    let Arrays {
        time,
        between,
        in_present,
        change,
        until,
    } = Arrays::of(&rs);
    let list = |values: Vec<String>| values.join(",");
    let column = |get: &dyn Fn(&Row) -> String| list(rs.iter().map(get).collect());
    let dropped = column(&|r| r.f.shown.is_none().to_string());
    let ints = |v: u8| list(vec![v.to_string(); rs.len()]);
    let nan = list(vec!["\"NaN\"".to_string(); rs.len()]);
    let gpu = column(&|r| format!("{:.3}", r.f.gpu_busy));
    let cpu = column(&|r| format!("{:.3}", r.f.cpu_busy));
    format!(
        "\u{feff}{{\"Hash\":\"9c1e0f7d2b\",\"Info\":{{\"AppVersion\":\"1.7.3.0\",\"Processor\":\"Example CPU 8-Core\",\"GameName\":\"Example Game\",\"ProcessName\":\"game.exe\",\"CreationDate\":\"2024-05-01T10:15:30.1234567Z\",\"GPU\":\"Example GPU\",\"Comment\":\"\",\"ResolutionInfo\":null}},\"Runs\":[\
         {{\"Hash\":\"short\",\"PresentMonRuntime\":\"DXGI\",\"CaptureData\":{{\"TimeInSeconds\":[0.0,0.01],\"MsBetweenPresents\":[10.0,10.0]}},\"SensorData\":null,\"SensorData2\":null,\"RTSSFrameTimes\":null,\"SampleTime\":0}},\
         {{\"Hash\":\"41d7aa\",\"PresentMonRuntime\":\"DXGI\",\"CaptureData\":{{\"TimeInSeconds\":[{time}],\"MsBetweenPresents\":[{between}],\"MsInPresentAPI\":[{in_present}],\"MsBetweenDisplayChange\":[{change}],\"MsUntilRenderComplete\":null,\"MsUntilDisplayed\":[{until}],\"PresentMode\":[{}],\"AllowsTearing\":[{}],\"SyncInterval\":[{}],\"Dropped\":[{dropped}],\"PcLatency\":[{nan}],\"GpuActive\":[{gpu}],\"CpuActive\":[{cpu}]}},\"SensorData\":null,\"SensorData2\":{{}},\"RTSSFrameTimes\":null,\"PmdGpuPower\":null,\"SampleTime\":0}}]}}",
        ints(3),
        ints(u8::from(!s.vsync)),
        ints(u8::from(s.vsync)),
    )
}

/// CapFrameX 1.7's JSON (before `CpuActive`, `GpuActive` and `AnimationError`): one run,
/// the frame's work only in `MsBetweenPresents` less `MsInPresentAPI`,
/// `MsUntilRenderComplete` all zeros (its importer never fills it), a BOM.
pub fn capframex_json_17(s: &Session) -> String {
    let rs = rows(s);
    let Arrays {
        time,
        between,
        in_present,
        change,
        until,
    } = Arrays::of(&rs);
    let same = |v: &str| vec![v; rs.len()].join(",");
    format!(
        "\u{feff}{{\"Hash\":\"e3b0c442\",\"Info\":{{\"AppVersion\":\"1.7.0.4\",\"GameName\":\"Example Game\",\"ProcessName\":\"game.exe\",\"CreationDate\":\"2022-12-14T16:34:30Z\",\"GPU\":\"Example GPU\",\"Comment\":\"\"}},\"Runs\":[\
         {{\"Hash\":\"5d41402a\",\"PresentMonRuntime\":\"DXGI\",\"CaptureData\":{{\"TimeInSeconds\":[{time}],\"MsBetweenPresents\":[{between}],\"MsInPresentAPI\":[{in_present}],\"MsBetweenDisplayChange\":[{change}],\"MsUntilRenderComplete\":[{}],\"MsUntilDisplayed\":[{until}],\"QPCTime\":[{}],\"PresentMode\":[{}],\"AllowsTearing\":[{}],\"SyncInterval\":[{}],\"Dropped\":[{}],\"PcLatency\":null}},\"SensorData\":null,\"SensorData2\":null,\"RTSSFrameTimes\":null,\"SampleTime\":0}}]}}",
        same("0.0"),
        same("0"),
        same("3"),
        same(if s.vsync { "0" } else { "1" }),
        same(if s.vsync { "1" } else { "0" }),
        same("false"),
    )
}

/// FrameView's per-frame log: its columns beside PresentMon's, `TimeInSeconds` from when
/// its background session began, numbers padded with spaces, `NA` for absent sensors, a
/// quoted processor name with a comma.
pub fn frameview(s: &Session) -> String {
    let mut out = String::from(
        "Application,GPU,CPU,Resolution,Runtime,AllowsTearing,ProcessID,SwapChainAddress,SyncInterval,PresentFlags,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,Render Queue Depth,MsPCLatency,GPU0Clk(MHz),GPU0MemClk(MHz),GPU0Util(%),GPU0Temp(C),GPU1Clk(MHz),CPUClk(MHz),CPUUtil(%),CPU Package Temp(C),CPUCoreUtil%[ 0],CPUCoreUtil%[ 1]\r\n",
    );
    for r in rows(s) {
        let f = r.f;
        let (dropped, until, change) = r.display_v1();
        let _ = write!(
            out,
            "game.exe,NVIDIA GeForce RTX 4070,\"AMD Ryzen 7 7700X, 8-Core Processor\",2560x1440,D3D12,{},11872,0x0000020A7E3B1C40,{},512,Hardware: Independent Flip,{dropped},{:.6},{:.3},{change:.3},{:.3},{:.3},{until:.3},1.204,NA,2730,10501,97, 63,NA,5210,41, 71, 35, 12\r\n",
            u8::from(!s.vsync),
            u8::from(s.vsync),
            1634.6 + f.present / 1e3,
            f.present - r.before.present,
            f.in_present,
            f.gpu_busy + 0.3,
        );
    }
    out
}

/// FrameView's per-frame log of a game held by its own 30 FPS limiter (see [`capped30`]):
/// `SyncInterval` 0, no tearing, the refresh rate stated nowhere; `MsRenderPresentLatency`
/// from the present to the GPU's completion, `MsPCLatency` from the frame's CPU start.
pub fn frameview_capped(s: &Session) -> String {
    let mut out = String::from(
        "Application,GPU,CPU,Resolution,Runtime,AllowsTearing,ProcessID,SwapChainAddress,SyncInterval,PresentFlags,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,Render Queue Depth,MsPCLatency,GPU0Clk(MHz),GPU0Util(%),CPUUtil(%)\r\n",
    );
    for r in rows(s) {
        let f = r.f;
        let (dropped, until, change) = r.display_v1();
        let _ = write!(
            out,
            "game.exe,NVIDIA GeForce RTX 4060 Ti,\"AMD Ryzen 5 7600, 6-Core Processor\",1920x1080,D3D12,0,20416,0x000001C9F1E2A0B0,0,0,Hardware: Independent Flip,{dropped},{:.6},{:.3},{change:.3},{:.3},{:.3},{until:.3},1.000,{:.3},2535, 41, 18\r\n",
            812.4 + f.present / 1e3,
            f.present - r.before.present,
            f.in_present,
            f.gpu_busy,
            f.shown.map_or(0.0, |sh| sh - f.cpu_start),
        );
    }
    out
}

/// MangoHud 0.8.2+, a row each frame (`log_interval=0`): its two preamble lines, frame
/// times in milliseconds, `elapsed` in nanoseconds, LF, no BOM.
pub fn mangohud(s: &Session) -> String {
    let mut out = String::from(
        "os,cpu,gpu,ram,kernel,driver,cpuscheduler\nArch Linux,AMD Ryzen 7 5800X 8-Core Processor,AMD Radeon RX 6800 XT (RADV NAVI21),32827044,6.9.7-arch1-1,,schedutil\nfps,frametime,cpu_load,cpu_power,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,cpu_mhz,elapsed\n",
    );
    for r in rows(s) {
        let ft = r.f.present - r.before.present;
        let _ = writeln!(
            out,
            "{:.3},{ft:.5},31.5,48.2,97,63,71,2455,1000,5.12305,231,9.8721,0,3.10547,4650,{}",
            1000.0 / ft,
            (r.f.present * 1e6) as u64
        );
    }
    out
}

/// MangoHud 0.6.8 with `log_interval=100` (its default then): a row every 100 ms carrying
/// the latest frame's time in microseconds.
pub fn mangohud_sampled(s: &Session) -> String {
    let mut out = String::from(
        "os,cpu,gpu,ram,kernel,driver\nUbuntu 22.04,Intel Core i5-8400,Intel UHD 630,16318412,5.15.0,\nfps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,gpu_vram_used,gpu_power,ram_used,elapsed\n",
    );
    let fr = &s.frames;
    let mut next = 100.0;
    for k in 1..fr.len() {
        if fr[k].present >= next {
            let ft = fr[k].present - fr[k - 1].present;
            let _ = writeln!(
                out,
                "{:.2},{},12,85,55,60,1150,1600,1.2,0,6.1,{}",
                1000.0 / ft,
                (ft * 1e3) as u64,
                (next * 1e6) as u64
            );
            next += 100.0;
        }
    }
    out
}

/// Every test capture: its file name and text.
pub fn all() -> Vec<(&'static str, String)> {
    let v = vsync60(300);
    let t = tearing(300);
    let c = capped30(600);
    vec![
        ("presentmon-v1.csv", presentmon_v1(&v)),
        ("presentmon-v2.csv", presentmon_v2(&v)),
        ("presentmon-v2-metrics.csv", presentmon_v2_metrics(&v)),
        ("presentmon-app.csv", presentmon_app(&t)),
        ("ocat.csv", ocat(&v)),
        ("capframex.csv", capframex_csv(&v)),
        ("capframex.json", capframex_json(&v)),
        ("capframex-1.7.json", capframex_json_17(&v)),
        ("frameview_game.exe_Log.csv", frameview(&t)),
        ("frameview-capped_game.exe_Log.csv", frameview_capped(&c)),
        ("mangohud.csv", mangohud(&t)),
        ("mangohud-sampled.csv", mangohud_sampled(&t)),
    ]
}

/// Writes every test capture into `dir`.
pub fn write_all(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for (name, text) in all() {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
