//! Rules about the source tree itself, checked by `cargo test`: generated files are what their
//! generators write today.

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
