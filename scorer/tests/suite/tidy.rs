//! Rules about the source tree itself, checked by `cargo test`: generated files are what their
//! generators write today, and every source module has a `//!` doc and a place in
//! ARCHITECTURE.md's code map.

use std::path::Path;
use std::process::Command;

/// `scorer/src/python/classes.rs` equals a fresh run of `scripts/gen-ast-classes.py` under
/// CPython 3.11. Skipped, with a message, without python3 3.11 (the generator reads its `ast`).
#[test]
fn ast_classes_are_what_the_generator_writes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let version = Command::new("python3")
        .args(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
        .output();
    let Ok(version) = version else {
        eprintln!("skipped: python3 not found");
        return;
    };
    if String::from_utf8_lossy(&version.stdout).trim() != "3.11" {
        eprintln!("skipped: python3 is not 3.11");
        return;
    }
    let out = Command::new("python3")
        .arg(root.join("../scripts/gen-ast-classes.py"))
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let committed =
        std::fs::read_to_string(root.join("src/python/classes.rs")).expect("classes.rs");
    assert!(
        String::from_utf8_lossy(&out.stdout) == committed,
        "scorer/src/python/classes.rs is stale: run \
         python3 scripts/gen-ast-classes.py > scorer/src/python/classes.rs"
    );
}

/// The crates whose sources the module rules below cover.
const SOURCE_ROOTS: &[&str] = &["scorer/src", "cli/src", "worker/src", "trajworker/src", "app/src"];

/// Every `.rs` file under `dir`, as a path relative to the workspace root, sorted.
fn rust_files(root: &Path, dir: &str, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(root.join(dir)) else { return };
    let mut names: Vec<_> = entries.filter_map(|e| e.ok()).collect();
    names.sort_by_key(|e| e.file_name());
    for e in names {
        let name = e.file_name().to_string_lossy().into_owned();
        let rel = format!("{dir}/{name}");
        if e.path().is_dir() {
            rust_files(root, &rel, out);
        } else if name.ends_with(".rs") {
            out.push(rel);
        }
    }
}

/// Every source module opens with a `//!` doc saying what it is for.
#[test]
fn every_module_opens_with_a_doc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in SOURCE_ROOTS {
        rust_files(&root, dir, &mut files);
    }
    assert!(files.len() > 100, "found only {} source files", files.len());
    let undocumented: Vec<&String> = files
        .iter()
        .filter(|f| {
            let text = std::fs::read_to_string(root.join(f)).unwrap_or_default();
            !text.trim_start().starts_with("//!")
        })
        .collect();
    assert!(undocumented.is_empty(), "modules without a `//!` doc: {undocumented:#?}");
}

/// The rows of ARCHITECTURE.md's code map (table rows and `###` area sections): each folder or
/// file key with its text.
fn code_map(root: &Path) -> Vec<(Vec<String>, String)> {
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let section = text.split("## Code map").nth(1).expect("a Code map section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let keys_of = |text: &str| text.split('`').skip(1).step_by(2).map(str::to_string).collect();
    let mut rows: Vec<(Vec<String>, String)> = Vec::new();
    // The table: one row per folder.
    for line in section.lines().filter(|l| l.starts_with("| `")) {
        let mut cells = line.splitn(3, '|').skip(1);
        let (Some(keys), Some(rest)) = (cells.next(), cells.next()) else { continue };
        rows.push((keys_of(keys), rest.to_string()));
    }
    // The areas: a `### `folder`` heading and the text up to the next heading.
    for area in section.split("\n### ").skip(1) {
        let (heading, text) = area.split_once('\n').unwrap_or((area, ""));
        rows.push((keys_of(heading), text.to_string()));
    }
    rows
}

/// Whether the code map names `file`: by its path, or in the row of its nearest listed folder
/// (which names its `mod.rs` and the crate's `lib.rs`/`main.rs`) by its path below that folder,
/// its file name, its module name in backticks, or a subfolder holding it.
fn named_in(rows: &[(Vec<String>, String)], file: &str) -> bool {
    if rows.iter().any(|(keys, text)| keys.iter().any(|k| k == file) || text.contains(file)) {
        return true;
    }
    let folder_row = rows
        .iter()
        .flat_map(|(keys, text)| keys.iter().map(move |k| (k, text)))
        .filter(|(k, _)| k.ends_with('/') && file.starts_with(k.as_str()))
        .max_by_key(|(k, _)| k.len());
    let Some((key, text)) = folder_row else { return false };
    let below = &file[key.len()..];
    let below = below.strip_prefix("src/").unwrap_or(below);
    let name = below.rsplit('/').next().unwrap_or(below);
    let stem = name.trim_end_matches(".rs");
    let mut names = vec![below.to_string(), format!("`{name}`"), format!("`{stem}`")];
    names.push(format!("{name} "));
    if let Some(folder) = below.strip_suffix("/mod.rs") {
        names.push(format!("`{folder}/`"));
        names.push(format!("{folder}/"));
    }
    if below == "mod.rs" || (!below.contains('/') && matches!(name, "lib.rs" | "main.rs")) {
        return true; // the folder's or the crate's own row
    }
    // A file in a subfolder the row names (`readers/`, `pages/`) is named by that folder.
    let mut folder = below;
    while let Some((up, _)) = folder.rsplit_once('/') {
        if text.contains(&format!("{up}/")) {
            return true;
        }
        folder = up;
    }
    names.iter().any(|n| text.contains(n.as_str()))
}

/// Every source module is named in ARCHITECTURE.md's code map, so the map stays the place to
/// look things up.
#[test]
fn every_module_is_in_the_code_map() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rows = code_map(&root);
    let mut files = Vec::new();
    for dir in SOURCE_ROOTS {
        rust_files(&root, dir, &mut files);
    }
    let missing: Vec<&String> = files.iter().filter(|f| !named_in(&rows, f)).collect();
    assert!(missing.is_empty(), "modules ARCHITECTURE.md's code map does not name: {missing:#?}");
}
