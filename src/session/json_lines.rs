//! What Looplab's JSON-lines files (recordings, traces) share: a first line that names the
//! kind of file and its version, then one object a line.

use serde::de::DeserializeOwned;

use crate::failure::one_line;

/// The non-blank lines of `text` after a header that names `kind` (`"looplab_trace"`) with
/// `version`, parsed as `H`; each with its 1-based line number. `noun` names the file in
/// messages ("trace").
pub fn open<'a, H: DeserializeOwned>(
    text: &'a str,
    kind: &str,
    noun: &str,
    version: u32,
) -> Result<(H, impl Iterator<Item = (usize, &'a str)>), String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| (i + 1, l));
    let Some((_, first)) = lines.next() else {
        return Err("is empty".into());
    };
    let found = serde_json::from_str::<serde_json::Value>(first)
        .ok()
        .and_then(|v| v.get(kind).and_then(|v| v.as_u64()))
        .ok_or_else(|| format!("is not a Looplab {noun} (its first line has no \"{kind}\")"))?;
    if found != u64::from(version) {
        return Err(format!(
            "is a version {found} {noun}; this Looplab reads version {version}"
        ));
    }
    let header = serde_json::from_str(first)
        .map_err(|e| format!("line 1 is not valid: {}", one_line(&e.to_string())))?;
    Ok((header, lines))
}
