//! The source tree keeps the shape `cargo xtask shape` measures: no file over 700 lines and
//! no function over 80 outside tests, no modules that import each other, and
//! `cfg(target_arch)` in the app only where native and page builds part ways.

#[test]
fn the_source_tree_keeps_its_shape() {
    let report = xtask::shape::workspace(&xtask::root()).unwrap_or_else(|e| panic!("{e}"));
    assert!(report.files > 150, "read {} files", report.files);
    let failures = report.failures();
    assert!(
        failures.is_empty(),
        "the tree is out of shape (`cargo xtask shape` shows it):\n  {}",
        failures.join("\n  ")
    );
}
