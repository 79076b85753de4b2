//! The front page's map names every item the crate exports, so a newcomer who reads it has
//! seen them all.

use std::collections::BTreeSet;

/// The names `pub use` exports from `lib.rs`.
fn exported(lib: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in lib.lines().filter(|l| l.starts_with("pub use ")) {
        let list = line
            .trim_start_matches("pub use ")
            .trim_end_matches(';')
            .rsplit("::")
            .next()
            .unwrap_or_default();
        for name in list.trim_matches(|c| c == '{' || c == '}').split(',') {
            names.insert(name.trim().to_string());
        }
    }
    names
}

#[test]
fn the_map_names_every_exported_item() {
    let lib = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs"))
        .expect("src/lib.rs");
    let map: String = lib
        .split("# The crate at a glance")
        .nth(1)
        .and_then(|rest| rest.split("\n//! # ").next())
        .expect("lib.rs has the section")
        .to_string();
    let names = exported(&lib);
    assert!(names.len() > 40, "{names:?}");
    let missing: Vec<_> = names
        .iter()
        .filter(|name| !map.contains(&format!("`{name}`")))
        .collect();
    assert!(missing.is_empty(), "the map leaves out {missing:?}");
}
