//! Files: the ones a person asked for (`--stats`, `--frame-log`, `--plot`), checked before a
//! run without touching them and written whole at its end, through a temporary file renamed
//! into place, so a failure leaves the old file as it was and never an empty or partial one;
//! and the ones a person hands in (recordings, traces), read here. The app touches the file
//! system nowhere else.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::failure::Failure;

/// Checks, before a run, that `path` (given to `option`) can be written when the run ends:
/// its directory exists and takes new files, and it is not a directory itself. An existing
/// file is not changed. Exit status 2: the path is the person's to fix.
pub fn check_target(option: &str, path: &Path) -> Result<(), Failure> {
    let bad = |why: String| {
        Failure::usage(format!(
            "invalid value '{}' for '{option}': {why}",
            path.display()
        ))
    };
    if path.is_dir() {
        return Err(bad("it is a directory".into()));
    }
    let dir = directory_of(path);
    if !dir.is_dir() {
        return Err(bad(format!("no directory {}", dir.display())));
    }
    let probe = temporary_beside(path);
    std::fs::File::create(&probe)
        .map_err(|e| bad(format!("cannot write in {}: {e}", dir.display())))?;
    let _ = std::fs::remove_file(&probe);
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| bad(format!("cannot write it: {e}")))?;
    }
    Ok(())
}

/// Writes `bytes` to `path` whole: into a temporary file beside it, then renamed over it.
/// On failure `path` is left as it was and the failure names `option` and the reason
/// (exit status 1).
pub fn write_file(option: &str, path: &Path, bytes: &[u8]) -> Result<(), Failure> {
    let fail = |e: std::io::Error| {
        Failure::runtime(format!(
            "cannot write the {option} file {}: {e}",
            path.display()
        ))
    };
    held_back_for_tests();
    let temporary = temporary_beside(path);
    // With the list held: a second Ctrl+C that comes meanwhile waits for the file to be
    // renamed or removed, so it is never made after the removal and left behind.
    let written = UNFINISHED.while_writing(|| {
        let written = std::fs::File::create(&temporary)
            .and_then(|mut f| f.write_all(bytes).and_then(|()| f.sync_all()))
            .and_then(|()| std::fs::rename(&temporary, path));
        if written.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        written
    });
    written.map_err(fail)
}

/// Holds each write of a whole file back by `LOOPLAB_WRITE_DELAY_MS` milliseconds before it
/// starts, outside the door: the tests of a second Ctrl+C need a run whose outputs take
/// seconds to write, so that the signal provably lands while they are under way. Unset (as
/// for everyone else), nothing waits.
fn held_back_for_tests() {
    let delay = std::env::var("LOOPLAB_WRITE_DELAY_MS")
        .ok()
        .and_then(|ms| ms.parse().ok());
    if let Some(ms) = delay {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

/// The door the writes of whole files pass through. A second Ctrl+C ends the process at
/// once, and no destructor runs; it [closes](WriteGate::close) the door first, which waits
/// for a write under way to finish (its temporary file renamed into place, or removed) and
/// lets none start after it, so no temporary file is left behind.
pub struct WriteGate(std::sync::Mutex<bool>);

impl WriteGate {
    pub const fn new() -> Self {
        Self(std::sync::Mutex::new(false))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, bool> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `write`, which makes a file and renames or removes it before it returns, with
    /// the door held, so [`WriteGate::close`] waits for it rather than racing it; once the
    /// door is closed, nothing is written (the process is ending).
    pub fn while_writing(
        &self,
        write: impl FnOnce() -> std::io::Result<()>,
    ) -> std::io::Result<()> {
        let closed = self.lock();
        if *closed {
            return Err(std::io::Error::new(
                std::io::ErrorKind::Interrupted,
                "the process is ending",
            ));
        }
        write()
    }

    /// Waits for a write under way, and lets none start after it.
    pub fn close(&self) {
        *self.lock() = true;
    }
}

impl Default for WriteGate {
    fn default() -> Self {
        Self::new()
    }
}

/// The writes of whole files ([`write_file`]): each holds it while its temporary file
/// exists.
static UNFINISHED: WriteGate = WriteGate::new();

/// Lets a write of a whole file under way finish (renamed into place, or removed), and
/// starts none after it: the process is about to end (a second Ctrl+C), and no temporary
/// file may be left behind. A file not yet written stays as it was.
pub fn remove_unfinished() {
    UNFINISHED.close();
}

/// `value` as JSON (pretty when `pretty`), or a failure that says what could not be
/// written, instead of an empty text.
pub fn to_json<T: Serialize>(what: &str, value: &T, pretty: bool) -> Result<String, Failure> {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    text.map_err(|e| Failure::runtime(format!("cannot write the {what} as JSON: {e}")))
}

/// Why a file a person handed in cannot be read: one line, after the file's name.
#[derive(Debug)]
pub enum ReadError {
    /// The system would not open or read it.
    Unreadable(std::io::Error),
    /// It is larger than this kind of file may be, in MiB.
    TooLarge { limit_mib: u64 },
    /// It is not UTF-8 text from this byte on.
    NotText { valid_up_to: usize },
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Unreadable(e) => write!(f, "cannot be read: {e}"),
            ReadError::TooLarge { limit_mib } => {
                write!(
                    f,
                    "is larger than the {limit_mib} MiB this kind of file may be"
                )
            }
            ReadError::NotText { valid_up_to } => {
                write!(f, "is not text (not UTF-8 from byte {valid_up_to})")
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// The bytes of a file a person handed in, read only up to `limit` bytes (a file over it
/// is refused without being read further, one whose size is known before a byte is read),
/// or why it cannot be read.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(ReadError::Unreadable)?;
    let too_large = || ReadError::TooLarge {
        limit_mib: limit >> 20,
    };
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Unreadable)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    Ok(bytes)
}

/// The text of a file a person handed in, read only up to `limit` bytes (a file over it,
/// or one that never ends, such as `/dev/zero`, is refused without being read further), or
/// why it cannot be read.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|e| ReadError::NotText {
        valid_up_to: e.utf8_error().valid_up_to(),
    })
}

/// Makes sure `dir` (given to `option`) is a new or empty directory to write into,
/// creating it if need be: nothing in it is ever overwritten.
pub fn fresh_directory(option: &str, dir: &Path) -> Result<(), Failure> {
    match std::fs::read_dir(dir).map(|mut entries| entries.next().is_none()) {
        Ok(true) => Ok(()),
        Ok(false) => Err(Failure::usage(format!(
            "{option} {}: the directory is not empty; give a new or empty one",
            dir.display()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir).map_err(|e| {
                Failure::runtime(format!("{option} {}: cannot create it: {e}", dir.display()))
            })
        }
        Err(e) => Err(Failure::usage(format!("{option} {}: {e}", dir.display()))),
    }
}

/// Whether two paths name the same file (the second exists; the first may not yet): the
/// same device and inode where both exist (a hard link too), else the same resolved path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return (x.dev(), x.ino()) == (y.dev(), y.ino());
    }
    let canonical = |p: &Path| {
        p.canonicalize().ok().or_else(|| {
            let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
            let dir = parent
                .map_or_else(std::env::current_dir, |d| d.canonicalize())
                .ok()?;
            Some(dir.join(p.file_name()?))
        })
    };
    match (canonical(a), canonical(b)) {
        (Some(a), Some(b)) => a == b,
        _ => a == b,
    }
}

fn directory_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A hidden file in `path`'s directory, unique to this process.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    directory_of(path).join(format!(".{name}.{}.tmp", std::process::id()))
}

/// Where a file written as the run goes lives until the run ends well: `flight.jsonl` is
/// written as `flight.jsonl.partial`, renamed into place at the end. A run killed outright
/// leaves the partial file, and whatever was at the final name stays as it was.
pub fn partial_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".partial");
    path.with_file_name(name)
}

/// Checks, before a run, that the partial file `path` is written as (given to `option`)
/// is free: one left by a killed run is the person's, not ours to overwrite.
pub fn check_partial(option: &str, path: &Path) -> Result<(), Failure> {
    let partial = partial_of(path);
    if partial.exists() {
        return Err(Failure::usage(format!(
            "{option} {}: {} is there, left by a run that did not finish; move or remove it first",
            path.display(),
            partial.display()
        )));
    }
    Ok(())
}

/// A file written as a run goes, line by line, by a thread of its own (a disk that stalls
/// never stalls a frame): each line reaches the operating system as soon as the thread takes
/// it, so a process killed outright loses none of the lines handed over, and each batch is
/// synced to the disk, so a power cut loses at most the last moments. It is written as its
/// [`partial_of`] name and renamed to its own when [`Appender::finish`] closes it.
pub struct Appender {
    option: &'static str,
    path: PathBuf,
    partial: PathBuf,
    lines: std::sync::mpsc::Sender<String>,
    writer: std::thread::JoinHandle<std::io::Result<()>>,
    /// Everything handed over so far.
    written: String,
}

impl Appender {
    /// Starts `path`'s partial file (given to `option`), which must not exist.
    pub fn create(option: &'static str, path: &Path) -> Result<Appender, Failure> {
        let partial = partial_of(path);
        let fail = |e: std::io::Error| {
            Failure::runtime(format!(
                "cannot write the {option} file {}: {e}",
                partial.display()
            ))
        };
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&partial)
            .map_err(fail)?;
        let (lines, incoming) = std::sync::mpsc::channel::<String>();
        let writer = std::thread::Builder::new()
            .name(format!("{option} writer"))
            .spawn(move || {
                while let Ok(line) = incoming.recv() {
                    file.write_all(line.as_bytes())?;
                    // Whatever else is waiting goes in the same batch, synced once.
                    for line in incoming.try_iter() {
                        file.write_all(line.as_bytes())?;
                    }
                    file.sync_data()?;
                }
                Ok(())
            })
            .map_err(fail)?;
        Ok(Appender {
            option,
            path: path.to_path_buf(),
            partial,
            lines,
            writer,
            written: String::new(),
        })
    }

    /// Hands `text` (whole lines) to the writer; never waits for the disk.
    pub fn append(&mut self, text: &str) {
        self.written.push_str(text);
        let _ = self.lines.send(text.to_string());
    }

    /// Everything handed over so far.
    pub fn written(&self) -> &str {
        &self.written
    }

    /// Closes the file with its `whole` text (which begins with what was appended): appends
    /// the rest, waits for the writer, and renames the file into place. If the writer failed
    /// on the way (a full disk), the whole text is written again the usual way
    /// ([`write_file`]); if that fails too, the failure names the option (exit status 1),
    /// and whatever was at the final name is left as it was.
    pub fn finish(mut self, whole: &str) -> Result<(), Failure> {
        let rest = whole.strip_prefix(self.written.as_str());
        if let Some(rest) = rest {
            self.append(rest);
        }
        let Appender {
            option,
            path,
            partial,
            lines,
            writer,
            ..
        } = self;
        drop(lines);
        let streamed = writer
            .join()
            .unwrap_or_else(|_| Err(std::io::Error::other("its writer stopped")));
        let renamed = match (rest, streamed) {
            (Some(_), Ok(())) => std::fs::rename(&partial, &path).is_ok(),
            _ => false,
        };
        if !renamed {
            write_file(option, &path, whole.as_bytes())?;
            let _ = std::fs::remove_file(&partial);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("looplab-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn checking_leaves_an_existing_file_as_it_was() {
        let dir = scratch("check");
        let path = dir.join("stats.json");
        std::fs::write(&path, "the person's file").unwrap();
        check_target("--stats", &path).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "the person's file");
        assert!(!dir.join("new.json").exists());
        check_target("--stats", &dir.join("new.json")).unwrap();
        assert!(
            !dir.join("new.json").exists(),
            "nothing is created by a check"
        );
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no probe left");

        let missing = check_target("--stats", &dir.join("no/such/dir.json")).unwrap_err();
        assert_eq!(missing.status, crate::failure::EXIT_USAGE);
        assert!(missing.message.contains("'--stats'"), "{}", missing.message);
        let directory = check_target("--plot", &dir).unwrap_err();
        assert!(directory.message.contains("is a directory"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_write_is_whole_or_leaves_the_old_file() {
        let dir = scratch("write");
        let path = dir.join("log.json");
        write_file("--frame-log", &path, b"first").unwrap();
        write_file("--frame-log", &path, b"second").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "second");
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary left"
        );

        // A directory where the file should go: the write fails and says so.
        let blocked = dir.join("sub");
        std::fs::create_dir_all(blocked.join("x")).unwrap();
        let e = write_file("--stats", &blocked, b"data").unwrap_err();
        assert_eq!(e.status, crate::failure::EXIT_FAILURE);
        assert!(
            e.message.starts_with("cannot write the --stats file"),
            "{}",
            e.message
        );
        assert!(blocked.join("x").is_dir(), "what was there is still there");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn json_that_cannot_be_written_is_a_failure_not_an_empty_text() {
        let mut map = std::collections::HashMap::new();
        map.insert((1, 2), "a key JSON cannot have");
        let e = to_json("stats", &map, true).unwrap_err();
        assert!(
            e.message.starts_with("cannot write the stats as JSON"),
            "{}",
            e.message
        );
        assert_eq!(to_json("x", &[1, 2], false).unwrap(), "[1,2]");
    }

    #[test]
    fn closing_the_gate_waits_for_a_write_under_way() {
        let dir = std::env::temp_dir().join(format!("looplab-writing-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (temporary, whole) = (dir.join(".run.json.tmp"), dir.join("run.json"));
        let gate = std::sync::Arc::new(WriteGate::new());
        let (started, began) = std::sync::mpsc::channel();
        let writer = {
            let (gate, temporary, whole) = (gate.clone(), temporary.clone(), whole.clone());
            std::thread::spawn(move || {
                gate.while_writing(|| {
                    std::fs::write(&temporary, "half")?;
                    started.send(()).unwrap();
                    // A slow disk: the second Ctrl+C comes now.
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    std::fs::rename(&temporary, &whole)
                })
            })
        };
        began.recv().unwrap();
        gate.close();
        // It waited for the write: the file is whole and nothing temporary is left.
        assert!(whole.exists() && !temporary.exists());
        assert!(writer.join().unwrap().is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_closed_gate_lets_no_write_start() {
        let dir = std::env::temp_dir().join(format!("looplab-gate-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let gate = WriteGate::new();
        let early = dir.join("early.json");
        assert!(
            gate.while_writing(|| std::fs::write(&early, "whole"))
                .is_ok()
        );
        gate.close();
        gate.close();
        // Once closed, a write that would start is refused, not left behind.
        let late = dir.join("late.json");
        let refused = gate.while_writing(|| std::fs::write(&late, "late"));
        assert!(refused.is_err() && !late.exists() && early.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
