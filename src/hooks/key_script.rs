//! Keys pressed by a script instead of a person (`--key-script`, for tests): the way to send
//! the window keys where no tool can, as on a headless Wayland compositor, which has no seat
//! to type into. A thread of its own hands each key to the event loop when it falls due (as
//! a user event, which wakes the loop as a real key does), and from there it goes the way a
//! real key goes, from its action to the frame that applies it.
//!
//! The script is a list of `SECONDS:KEY` (a press and release) or `SECONDS:KEY/HELD`
//! (held for HELD seconds), separated by spaces or commas, times from the start of the run,
//! keys by the names xdotool uses: `4`, `g`, `shift+f`, `space`, `Escape`, `Right`, `F9`.

use std::time::Duration;

use winit::keyboard::KeyCode;

use crate::platform::clock::WallClock;

/// A key going down or up at a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptedKey {
    /// When the script says it happens, from the start of the run (the window counts it as
    /// arriving when it is delivered, as a real key).
    pub at: Duration,
    pub code: KeyCode,
    pub shift: bool,
    pub down: bool,
}

/// The keys of a script, in time order, handed out as they fall due.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyScript {
    keys: Vec<ScriptedKey>,
    next: usize,
}

impl KeyScript {
    /// Reads a script, or says which entry is wrong.
    pub fn parse(text: &str) -> Result<KeyScript, KeyScriptError> {
        let mut keys = Vec::new();
        for entry in text
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|e| !e.is_empty())
        {
            let bad = |problem| KeyScriptError {
                entry: entry.to_string(),
                problem,
            };
            let (at, key) = entry
                .split_once(':')
                .ok_or_else(|| bad(EntryProblem::NoTime))?;
            let at = seconds(at).ok_or_else(|| bad(EntryProblem::NoSeconds))?;
            let (key, held) = match key.split_once('/') {
                Some((k, h)) => (k, seconds(h).ok_or_else(|| bad(EntryProblem::NoHeld))?),
                None => (key, Duration::ZERO),
            };
            let (shift, name) = match key.strip_prefix("shift+") {
                Some(name) => (true, name),
                None => (false, key),
            };
            let code = key_code(name).ok_or_else(|| bad(EntryProblem::NoSuchKey))?;
            keys.push(ScriptedKey {
                at,
                code,
                shift,
                down: true,
            });
            keys.push(ScriptedKey {
                at: at + held,
                code,
                shift,
                down: false,
            });
        }
        keys.sort_by_key(|k| k.at);
        Ok(KeyScript { keys, next: 0 })
    }

    /// When the next key not yet handed out is due.
    fn next_due(&self) -> Option<Duration> {
        self.keys.get(self.next).map(|k| k.at)
    }

    /// Hands the keys to `send` as they fall due on `clock`, from a thread of its own;
    /// stops when `send` answers that nobody listens any more (the event loop has ended).
    pub fn feed(
        mut self,
        clock: WallClock,
        mut send: impl FnMut(ScriptedKey) -> bool + Send + 'static,
    ) -> Result<(), String> {
        let feeder = move || {
            while let Some(at) = self.next_due() {
                std::thread::sleep(at.saturating_sub(clock.now()));
                for &key in self.due(clock.now()) {
                    if !send(key) {
                        return;
                    }
                }
            }
        };
        std::thread::Builder::new()
            .name("key-script".into())
            .spawn(feeder)
            .map(drop)
            .map_err(|e| format!("cannot start the key script: {e}"))
    }

    /// The keys due by `now`, not handed out before.
    pub fn due(&mut self, now: Duration) -> &[ScriptedKey] {
        let from = self.next;
        while self.next < self.keys.len() && self.keys[self.next].at <= now {
            self.next += 1;
        }
        &self.keys[from..self.next]
    }
}

/// Why a key script is refused: the entry, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyScriptError {
    pub entry: String,
    pub problem: EntryProblem,
}

/// What is wrong with a key script's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryProblem {
    /// No `SECONDS:` before the key.
    NoTime,
    /// The time is not a number of seconds from 0 to a day.
    NoSeconds,
    /// The time after `/` is not one.
    NoHeld,
    /// The key is none of the names xdotool uses that Looplab binds.
    NoSuchKey,
}

impl std::fmt::Display for KeyScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let why = match self.problem {
            EntryProblem::NoTime => "has no time",
            EntryProblem::NoSeconds => "has no time in seconds",
            EntryProblem::NoHeld => "holds for no time",
            EntryProblem::NoSuchKey => "names no key Looplab knows",
        };
        write!(
            f,
            "{:?} {why} (write SECONDS:KEY or SECONDS:KEY/HELD)",
            self.entry
        )
    }
}

impl std::error::Error for KeyScriptError {}

fn seconds(s: &str) -> Option<Duration> {
    let x: f64 = s.trim().parse().ok()?;
    (x.is_finite() && (0.0..=86_400.0).contains(&x)).then(|| Duration::from_secs_f64(x))
}

/// The digit keys, 0 to 9.
pub const DIGITS: [KeyCode; 10] = [
    KeyCode::Digit0,
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// A key by its xdotool name.
fn key_code(name: &str) -> Option<KeyCode> {
    use KeyCode as K;
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        let letters = [
            K::KeyA,
            K::KeyB,
            K::KeyC,
            K::KeyD,
            K::KeyE,
            K::KeyF,
            K::KeyG,
            K::KeyH,
            K::KeyI,
            K::KeyJ,
            K::KeyK,
            K::KeyL,
            K::KeyM,
            K::KeyN,
            K::KeyO,
            K::KeyP,
            K::KeyQ,
            K::KeyR,
            K::KeyS,
            K::KeyT,
            K::KeyU,
            K::KeyV,
            K::KeyW,
            K::KeyX,
            K::KeyY,
            K::KeyZ,
        ];
        return match c {
            '0'..='9' => Some(DIGITS[c as usize - '0' as usize]),
            'a'..='z' => Some(letters[c as usize - 'a' as usize]),
            _ => None,
        };
    }
    let f_keys = [
        K::F1,
        K::F2,
        K::F3,
        K::F4,
        K::F5,
        K::F6,
        K::F7,
        K::F8,
        K::F9,
        K::F10,
        K::F11,
        K::F12,
    ];
    if let Some(n) = name.strip_prefix('F').and_then(|n| n.parse::<usize>().ok()) {
        return f_keys.get(n.checked_sub(1)?).copied();
    }
    Some(match name {
        "Left" => K::ArrowLeft,
        "Right" => K::ArrowRight,
        "Up" => K::ArrowUp,
        "Down" => K::ArrowDown,
        "space" => K::Space,
        "Tab" => K::Tab,
        "Escape" => K::Escape,
        "Return" => K::Enter,
        "KP_Enter" => K::NumpadEnter,
        "BackSpace" => K::Backspace,
        "End" => K::End,
        "Page_Up" => K::PageUp,
        "Page_Down" => K::PageDown,
        "bracketleft" => K::BracketLeft,
        "bracketright" => K::BracketRight,
        "equal" | "plus" => K::Equal,
        "minus" => K::Minus,
        "period" => K::Period,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_hands_out_presses_and_releases_in_time() {
        let mut s = KeyScript::parse("2:4, 1:shift+f 3:Right/0.5 5.5:Escape").unwrap();
        let secs = Duration::from_secs_f64;
        assert!(s.due(secs(0.9)).is_empty());
        assert_eq!(s.next_due(), Some(secs(1.0)));
        let due: Vec<(KeyCode, bool, bool)> = s
            .due(secs(2.0))
            .iter()
            .map(|k| (k.code, k.shift, k.down))
            .collect();
        assert_eq!(
            due,
            [
                (KeyCode::KeyF, true, true),
                (KeyCode::KeyF, true, false),
                (KeyCode::Digit4, false, true),
                (KeyCode::Digit4, false, false)
            ]
        );
        let held: Vec<bool> = s.due(secs(3.2)).iter().map(|k| k.down).collect();
        assert_eq!(held, [true], "Right is held");
        assert_eq!(s.due(secs(3.5))[0].code, KeyCode::ArrowRight);
        assert_eq!(s.due(secs(9.0)).len(), 2, "Escape");
        assert!(s.due(secs(10.0)).is_empty());
    }

    #[test]
    fn bad_scripts_name_the_entry() {
        let err = |t: &str| KeyScript::parse(t).unwrap_err().to_string();
        assert!(err("4").contains("\"4\" has no time"));
        assert!(err("x:4").contains("no time in seconds"));
        assert!(err("1:Hyper").contains("names no key"));
        assert!(err("1:Right/soon").contains("holds for no time"));
        assert!(err("-1:4").contains("no time in seconds"));
        assert_eq!(KeyScript::parse("").unwrap(), KeyScript::default());
        assert_eq!(key_code("F9"), Some(KeyCode::F9));
        assert_eq!(key_code("F13"), None);
    }
}
