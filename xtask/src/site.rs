//! `cargo xtask book`: the book in `docs/` built with mdBook, the page built into it for
//! its live views (one module that every view of a chapter shares, in `page/`), the whole
//! site weighed (at most 3 MB gzipped), and the README's and the book's links, headings
//! and views checked ([`crate::book::check`]). The site is a folder of static files for any
//! static host (`.github/workflows/book.yml` publishes it as the repository's pages).

use std::path::Path;
use std::process::Command;

use crate::book::{BOOK, Disk, Problem, check};

/// The mdBook the book is built with: the one on the PATH at this version, or one
/// installed for the build (`build::tool`).
pub const MDBOOK_VERSION: &str = "0.5.4";
/// How it is installed: the HTML renderer's search index is the one feature the book uses
/// (no `serve` or `watch`), which keeps the install short.
const MDBOOK_FEATURES: [&str; 4] = ["--locked", "--no-default-features", "--features", "search"];

/// Where the built book is, under the workspace's root.
pub const BUILT: &str = "target/book";
/// Where the page is inside it, for the views (`docs/looplab-views.js` loads it from here).
pub const PAGE_IN_BOOK: &str = "page";
/// The most the whole site may weigh, each file gzipped as a server sends it.
pub const SITE_LIMIT_BYTES: u64 = 3_000_000;

/// Builds the page and the book with mdBook into `target/book`, the page's module in its
/// `page/` folder for the live views, runs [`check`] on the workspace and weighs the
/// site.
pub fn build_and_check(root: &Path) -> Result<String, String> {
    let mdbook = crate::build::tool("mdbook", "mdbook", MDBOOK_VERSION, &MDBOOK_FEATURES)?;
    let page = crate::build::build()?;
    let status = Command::new(&mdbook)
        .args(["build", BOOK])
        .current_dir(root)
        .status()
        .map_err(|e| format!("mdbook build {BOOK}: {e}"))?;
    if !status.success() {
        return Err(format!("mdbook build {BOOK} failed ({status})"));
    }
    let built = root.join(BUILT);
    prune(root, &built)?;
    let in_book = built.join(PAGE_IN_BOOK);
    std::fs::create_dir_all(&in_book)
        .map_err(|e| format!("cannot make {}: {e}", in_book.display()))?;
    // The views' module, and the whole window as a page beside them (`page/index.html`).
    for file in ["looplab.js", "looplab_bg.wasm", "index.html"] {
        std::fs::copy(page.dir.join(file), in_book.join(file))
            .map_err(|e| format!("cannot copy the page's {file} into the book: {e}"))?;
    }
    let disk = Disk(root.to_path_buf());
    let mut problems = check(&disk);
    problems.extend(crate::views::check(&disk));
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(Problem::to_string).collect();
        return Err(format!(
            "{} problem(s) in the README and the book:\n{}",
            problems.len(),
            list.join("\n")
        ));
    }
    let weight = site_weight(&built)?;
    let mb = |b: u64| b as f64 / 1e6;
    if weight.gzipped > SITE_LIMIT_BYTES {
        return Err(format!(
            "the site in {} weighs {:.2} MB gzipped, over its {:.0} MB (the page's wasm {:.2} MB)",
            built.display(),
            mb(weight.gzipped),
            mb(SITE_LIMIT_BYTES),
            mb(page.wasm_gzip_bytes)
        ));
    }
    Ok(format!(
        "built the book into {} with the page in {PAGE_IN_BOOK}/ (mdbook {MDBOOK_VERSION}); \
         its links, headings and views are whole; {} files, {:.2} MB, {:.2} MB gzipped \
         (the page's wasm {:.2} MB of it; at most {:.0} MB)",
        built.display(),
        weight.files,
        mb(weight.bytes),
        mb(weight.gzipped),
        mb(page.wasm_gzip_bytes),
        mb(SITE_LIMIT_BYTES)
    ))
}

/// Takes out of the built site the files mdBook copied from `docs/` that no chapter shows
/// or links to (the README's own pictures, `book.toml`): mdBook copies every file of its
/// source folder, and the site carries only what its pages use.
fn prune(root: &Path, built: &Path) -> Result<(), String> {
    let files = Disk(root.to_path_buf());
    let chapters = crate::book::Files::markdown_under(&files, BOOK);
    let mut used = std::collections::BTreeSet::new();
    for chapter in &chapters {
        let text = std::fs::read_to_string(root.join(chapter))
            .map_err(|e| format!("cannot read {chapter}: {e}"))?;
        for link in crate::book::links(&text) {
            used.insert(link.dest.split(['#', '?']).next().unwrap_or("").to_string());
        }
        for view in crate::views::views(&text) {
            used.extend(view.still);
        }
    }
    let source = root.join(BOOK);
    for path in files_under(&source)? {
        let Ok(relative) = path.strip_prefix(&source) else {
            continue;
        };
        let name = relative.to_string_lossy().replace('\\', "/");
        let copied = built.join(relative);
        if !name.ends_with(".md") && !used.contains(&name) && copied.is_file() {
            std::fs::remove_file(&copied)
                .map_err(|e| format!("cannot remove {}: {e}", copied.display()))?;
        }
    }
    Ok(())
}

/// Every file under `dir`, at any depth.
fn files_under(dir: &Path) -> Result<Vec<std::path::PathBuf>, String> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        let entries =
            std::fs::read_dir(&d).map_err(|e| format!("cannot read {}: {e}", d.display()))?;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    Ok(files)
}

/// What a built site weighs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Weight {
    pub files: usize,
    pub bytes: u64,
    /// Each file gzipped, as a server sends it.
    pub gzipped: u64,
}

/// The weight of every file under `dir`.
pub fn site_weight(dir: &Path) -> Result<Weight, String> {
    let mut weight = Weight::default();
    for path in files_under(dir)? {
        let bytes =
            std::fs::read(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        weight.files += 1;
        weight.bytes += bytes.len() as u64;
        weight.gzipped += crate::build::gzipped_size(&bytes);
    }
    Ok(weight)
}
