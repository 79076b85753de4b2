//! What Looplab's JSON-lines files (recordings, traces) share: a first line that names the
//! kind of file and its version, then one object a line.

use std::fmt;

use serde::de::DeserializeOwned;

use crate::failure::one_line;

/// Why a file's first line is not the header of the kind of file asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeaderError {
    /// The file has no line that is not blank.
    Empty,
    /// Its first line does not name the kind: it is some other file.
    NotThisKind {
        noun: &'static str,
        kind: &'static str,
    },
    /// It names the kind with a version this build does not read.
    Version {
        noun: &'static str,
        found: u64,
        reads: u32,
    },
    /// It names the kind and version, but its fields are not a header's: serde's words.
    Invalid(String),
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderError::Empty => write!(f, "is empty"),
            HeaderError::NotThisKind { noun, kind } => {
                write!(
                    f,
                    "is not a Looplab {noun} (its first line has no \"{kind}\")"
                )
            }
            HeaderError::Version { noun, found, reads } => {
                write!(
                    f,
                    "is a version {found} {noun}; this Looplab reads version {reads}"
                )
            }
            HeaderError::Invalid(why) => write!(f, "line 1 is not valid: {why}"),
        }
    }
}

/// The non-blank lines of `text` after a header that names `kind` (`"looplab_trace"`) with
/// `version`, parsed as `H`; each with its 1-based line number. `noun` names the file in
/// messages ("trace").
pub fn open<'a, H: DeserializeOwned>(
    text: &'a str,
    kind: &'static str,
    noun: &'static str,
    version: u32,
) -> Result<(H, impl Iterator<Item = (usize, &'a str)>), HeaderError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l));
    let Some((_, first)) = lines.next() else {
        return Err(HeaderError::Empty);
    };
    let found = serde_json::from_str::<serde_json::Value>(first)
        .ok()
        .and_then(|v| v.get(kind).and_then(|v| v.as_u64()))
        .ok_or(HeaderError::NotThisKind { noun, kind })?;
    if found != u64::from(version) {
        return Err(HeaderError::Version {
            noun,
            found,
            reads: version,
        });
    }
    let header =
        serde_json::from_str(first).map_err(|e| HeaderError::Invalid(one_line(&e.to_string())))?;
    Ok((header, lines))
}
