//! The committed test captures (`tests/captures/made`) are what `cargo xtask captures`
//! writes: none was edited by hand, and a change to the generator was written out.

#[test]
fn the_test_captures_are_what_the_generator_writes() {
    let dir = xtask::root().join("tests/captures/made");
    let made = xtask::captures::all();
    assert!(made.len() >= 10);
    for (name, text) in made {
        let path = dir.join(name);
        let committed = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run cargo xtask captures)", path.display()));
        assert!(
            committed == text,
            "{} is not what the generator writes: run cargo xtask captures",
            path.display()
        );
    }
}
