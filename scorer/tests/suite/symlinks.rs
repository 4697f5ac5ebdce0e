//! Symbolic links where CPython cannot be the reference: links that leave the repository (the
//! one deliberate difference: nothing outside the tree exists, the host is never read), a link
//! whose target the bundle lacks, and a link a patch creates. Links inside the tree are checked
//! against CPython by `differential.rs` (`symbolic_links_match_cpython`).

use std::sync::Arc;

use scorer::patch::{apply, ApplyOptions, PatchStatus};
use scorer::report::{Status, TestOutcome};
use scorer::tree::{git_blob_id, Content, FileEntry, FileMode, RepoPath, Tree};
use scorer::unittest::{RunConfig, Scorer};

fn run(tree: &Tree, src: &str) -> Vec<TestOutcome> {
    Scorer::new(RunConfig::default()).run_test_file(tree, "links-test.py", src)
}

/// `(id, status, message)` of every outcome.
fn verdicts(out: &[TestOutcome]) -> Vec<(String, Status, Option<String>)> {
    out.iter().map(|o| (o.id.clone(), o.status, o.message.clone())).collect()
}

#[test]
fn links_that_leave_the_repository_lead_nowhere() {
    let mut t = Tree::new();
    t.insert_bytes("pkg/a.py", b"A\n".to_vec()).unwrap();
    t.insert_symlink("links/passwd", "/etc/passwd").unwrap();
    t.insert_symlink("links/etc", "/etc").unwrap();
    t.insert_symlink("links/above", "../..").unwrap();
    t.insert_symlink("up", "..").unwrap();
    t.insert_symlink("links/back_in", "../../refactorbench/pkg/a.py").unwrap();
    let src = r#"import os
import unittest


class Outside(unittest.TestCase):
    def test_passwd_exists(self):
        self.assertFalse(os.path.exists("../links/passwd"))

    def test_passwd_is_a_link(self):
        self.assertTrue(os.path.islink("../links/passwd"))
        self.assertTrue(os.path.lexists("../links/passwd"))
        self.assertEqual(os.readlink("../links/passwd"), "/etc/passwd")

    def test_passwd_open(self):
        open("../links/passwd")

    def test_etc_listdir(self):
        os.listdir("../links/etc/")

    def test_etc_walk(self):
        self.assertEqual(list(os.walk("../links/etc")), [])

    def test_above_root(self):
        self.assertFalse(os.path.isdir("../links/above"))
        self.assertFalse(os.path.exists("../up/refactorbench_eval"))
        self.assertFalse(os.path.isdir("../up"))

    def test_back_in_through_the_parent(self):
        self.assertFalse(os.path.exists("../links/back_in"))

    def test_realpath_is_lexical_outside(self):
        self.assertEqual(os.path.realpath("../links/passwd"), "/etc/passwd")
"#;
    let got = verdicts(&run(&t, src));
    let pass = |id: &str| (format!("Outside.{id}"), Status::Pass, None);
    assert_eq!(
        got,
        vec![
            pass("test_above_root"),
            pass("test_back_in_through_the_parent"),
            (
                "Outside.test_etc_listdir".into(),
                Status::Error,
                Some("[Errno 2] No such file or directory: '../links/etc/'".into())
            ),
            pass("test_etc_walk"),
            pass("test_passwd_exists"),
            pass("test_passwd_is_a_link"),
            (
                "Outside.test_passwd_open".into(),
                Status::Error,
                Some("[Errno 2] No such file or directory: '../links/passwd'".into())
            ),
            pass("test_realpath_is_lexical_outside"),
        ]
    );
}

#[test]
fn a_link_whose_target_the_bundle_lacks_is_reported_not_guessed() {
    let mut t = Tree::new();
    t.insert_bytes("pkg/a.py", b"A\n".to_vec()).unwrap();
    t.insert(
        RepoPath::new("links/cur").unwrap(),
        FileEntry {
            mode: FileMode::Symlink,
            content: Content::BlobOnly(Arc::from(git_blob_id(b"../pkg/a.py").as_str())),
        },
    );
    let src = r#"import os
import unittest


class Blob(unittest.TestCase):
    def test_is_link(self):
        self.assertTrue(os.path.islink("../links/cur"))

    def test_exists(self):
        os.path.exists("../links/cur")
"#;
    let out = run(&t, src);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].id, "Blob.test_exists");
    assert_eq!(out[0].exc_type.as_deref(), Some("ContentNotInBundle"), "{out:?}");
    assert_eq!(out[1].status, Status::Pass, "{out:?}");
}

#[test]
fn a_link_a_patch_creates_is_followed() {
    let mut t = Tree::new();
    t.insert_bytes("pkg/a.py", b"A = 1\n".to_vec()).unwrap();
    let target = "../pkg/a.py";
    let patch = format!(
        "diff --git a/links/new b/links/new\nnew file mode 120000\nindex 0000000..{}\n\
         --- /dev/null\n+++ b/links/new\n@@ -0,0 +1 @@\n+{target}\n\\ No newline at end of file\n",
        &git_blob_id(target.as_bytes())[..7]
    );
    let applied = apply(&t, patch.as_bytes(), &ApplyOptions::default());
    assert_eq!(applied.status, PatchStatus::Applied, "{:?}", applied.reason);
    let entry = applied.tree.get(&RepoPath::new("links/new").unwrap()).expect("link created");
    assert_eq!(entry.mode, FileMode::Symlink);
    let src = r#"import hashlib
import os
import unittest


class Patched(unittest.TestCase):
    def test_link(self):
        self.assertTrue(os.path.islink("../links/new"))
        self.assertTrue(os.path.isfile("../links/new"))
        with open("../links/new", "rb") as f:
            self.assertEqual(f.read(), b"A = 1\n")
        self.assertEqual(sorted(os.listdir("../links")), ["new"])
"#;
    let out = run(&applied.tree, src);
    assert_eq!(verdicts(&out), vec![("Patched.test_link".into(), Status::Pass, None)]);
}
