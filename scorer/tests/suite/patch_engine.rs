//! Behaviour of the patch engine that git cannot be asked about (blob-only files, the fallback
//! ladder, the report shape) and hostile inputs: each must give a clear outcome, never a panic or
//! a hang.

use std::time::{Duration, Instant};

use scorer::patch::{
    apply, parse, ApplyOptions, ApplyStep, Fallback, FileChangeKind, FileResult, PatchError,
    PatchStatus,
};
use scorer::tree::{git_blob_id, Content, FileEntry, FileMode, RepoPath, Tree};

fn tree(files: &[(&str, &[u8])]) -> Tree {
    let mut t = Tree::new();
    for (p, b) in files {
        t.insert_bytes(p, b.to_vec()).unwrap();
    }
    t
}

fn bytes(t: &Tree, p: &str) -> Vec<u8> {
    t.get(&RepoPath::new(p).unwrap()).unwrap().bytes().unwrap().to_vec()
}

fn strict() -> ApplyOptions {
    ApplyOptions::default()
}

const MOD: &[u8] = b"import os\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n";

#[test]
fn empty_and_blank_patches_are_none() {
    let t = tree(&[("a.py", b"x\n")]);
    for p in [&b""[..], b"\n", b"  \r\n\t\n", b"\x0c\n"] {
        let out = apply(&t, p, &strict());
        assert_eq!(out.status, PatchStatus::None);
        assert_eq!(out.tree, t);
        assert!(out.files.is_empty());
    }
}

#[test]
fn outcome_serialises_with_lowercase_names() {
    let t = tree(&[("pkg/mod.py", MOD)]);
    let p = b"--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -4,3 +4,3 @@\n def f():\n-    return 1\n+    return 10\n \n";
    let out = apply(&t, p, &strict());
    assert_eq!(out.status, PatchStatus::Applied);
    assert_eq!(out.step, ApplyStep::Strict);
    assert_eq!(out.files.len(), 1);
    assert_eq!(out.files[0].kind, FileChangeKind::Modify);
    let json = serde_json::to_value(&out).unwrap();
    assert_eq!(json["status"], "applied");
    assert_eq!(json["step"], "strict");
    assert_eq!(json["files"][0]["kind"], "modify");
    assert_eq!(json["files"][0]["result"]["result"], "applied");
    assert_eq!(json["files"][0]["path"], "pkg/mod.py");
    assert!(json.get("tree").is_none());
    let back: scorer::patch::ApplyOutcome = serde_json::from_value(json).unwrap();
    assert_eq!(back.files, out.files);
}

#[test]
fn rejected_hunk_reports_expected_and_found() {
    let t = tree(&[("pkg/mod.py", MOD)]);
    let p = b"--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -4,3 +4,3 @@\n def f():\n-    return 3\n+    return 10\n \n";
    let out = apply(&t, p, &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    assert_eq!(out.reason.as_deref(), Some("patch failed: pkg/mod.py:4"));
    assert_eq!(out.tree, t);
    match &out.files[0].result {
        FileResult::Rejected { hunk, reason, expected, found } => {
            assert_eq!(*hunk, 1);
            assert_eq!(reason, "patch failed: pkg/mod.py:4");
            assert_eq!(expected, &["def f():", "    return 3", ""]);
            assert_eq!(found, &["def f():", "    return 1", ""]);
        }
        r => panic!("unexpected {r:?}"),
    }
    let json = serde_json::to_value(&out).unwrap();
    assert_eq!(json["status"], "failed");
    assert_eq!(json["files"][0]["result"]["result"], "rejected");
}

#[test]
fn parse_reports_files_hunks_and_error_lines() {
    let p = b"diff --git a/x.py b/y.py\nsimilarity index 90%\nrename from x.py\nrename to y.py\nindex 1234567..89abcde 100755\n--- a/x.py\n+++ b/y.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n";
    let parsed = parse(p).unwrap();
    assert_eq!(parsed.files.len(), 1);
    let f = &parsed.files[0];
    assert_eq!(f.old_name.as_deref(), Some(&b"x.py"[..]));
    assert_eq!(f.new_name.as_deref(), Some(&b"y.py"[..]));
    assert!(f.is_rename);
    assert_eq!(f.old_oid_prefix, "1234567");
    assert_eq!(f.old_mode, 0o100755);
    assert_eq!(f.hunks.len(), 1);
    assert_eq!((f.hunks[0].old_pos, f.hunks[0].old_lines), (1, 2));
    assert_eq!(f.hunks[0].line, 8);

    let bad = b"--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n";
    let e = parse(bad).unwrap_err();
    assert!(matches!(e, PatchError::Corrupt { .. }), "{e:?}");
    assert_eq!(e.line(), 7);
    assert_eq!(e.to_string(), "corrupt patch at line 7");
}

#[test]
fn blob_only_files_are_checked_by_index_line() {
    let content = b"a\nb\nc\n";
    let id = git_blob_id(content);
    let mut t = Tree::new();
    t.insert(
        RepoPath::new("big/file.py").unwrap(),
        FileEntry { mode: FileMode::Regular, content: Content::BlobOnly(id.as_str().into()) },
    );
    let good = format!(
        "diff --git a/big/file.py b/big/file.py\nindex {}..1111111 100644\n--- a/big/file.py\n+++ b/big/file.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
        &id[..7]
    );
    let out = apply(&t, good.as_bytes(), &strict());
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    let e = out.tree.get(&RepoPath::new("big/file.py").unwrap()).unwrap();
    assert_eq!(e.content, Content::BlobOnly("1111111".into()));

    let wrong = good.replace(&id[..7], "abcdef0");
    let out = apply(&t, wrong.as_bytes(), &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    let reason = out.reason.unwrap();
    assert!(reason.starts_with("big/file.py: only the blob id"), "{reason}");
    assert!(matches!(out.files[0].result, FileResult::Invalid { .. }));

    let plain = b"--- a/big/file.py\n+++ b/big/file.py\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n";
    let out = apply(&t, plain, &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    assert!(out.reason.unwrap().contains("no index line"));

    let rename = b"diff --git a/big/file.py b/big/moved.py\nsimilarity index 100%\nrename from big/file.py\nrename to big/moved.py\n";
    let out = apply(&t, rename, &strict());
    assert_eq!(out.status, PatchStatus::Applied);
    assert_eq!(out.files[0].kind, FileChangeKind::Rename);
    assert_eq!(out.files[0].old_path.as_deref(), Some("big/file.py"));
    let e = out.tree.get(&RepoPath::new("big/moved.py").unwrap()).unwrap();
    assert_eq!(e.content, Content::BlobOnly(id.as_str().into()));
    assert!(!out.tree.is_file(&RepoPath::new("big/file.py").unwrap()));

    let delete = format!(
        "diff --git a/big/file.py b/big/file.py\ndeleted file mode 100644\nindex {}..0000000\n--- a/big/file.py\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-a\n-b\n-c\n",
        &id[..7]
    );
    let out = apply(&t, delete.as_bytes(), &strict());
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    assert!(out.tree.is_empty());
}

#[test]
fn fallback_ladder_is_off_by_default_and_names_its_rung() {
    let t = tree(&[("pkg/mod.py", MOD), ("b.py", b"one\ntwo\nthree\nfour\nfive\n")]);
    // hunk 1 of mod.py applies, hunk 2 has a wrong context line at its edge
    let p = b"--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -4,3 +4,3 @@\n def f():\n-    return 1\n+    return 10\n \n@@ -7,3 +7,3 @@\n WRONG\n def g():\n-    return 2\n+    return 20\n--- a/b.py\n+++ b/b.py\n@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n";
    let out = apply(&t, p, &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    assert_eq!(out.step, ApplyStep::Strict);
    assert_eq!(out.tree, t);

    let out = apply(&t, p, &ApplyOptions { fallback: Fallback::Reject });
    assert_eq!(out.status, PatchStatus::Applied);
    assert_eq!(out.step, ApplyStep::Reject);
    let reason = out.reason.clone().unwrap();
    assert!(
        reason.contains("reject fallback") && reason.contains("1 hunk(s) rejected"),
        "{reason}"
    );
    assert_eq!(
        bytes(&out.tree, "pkg/mod.py"),
        MOD.to_vec().replace_first(b"return 1", b"return 10")
    );
    assert_eq!(bytes(&out.tree, "b.py"), b"one\ntwo\nTHREE\nfour\nfive\n");
    assert!(matches!(out.files[0].result, FileResult::Rejected { hunk: 2, .. }));
    assert_eq!(out.files[0].rejected_hunks, vec![2]);
    assert_eq!(out.files[1].result, FileResult::Applied);

    let out = apply(&t, p, &ApplyOptions { fallback: Fallback::Fuzz });
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    assert_eq!(out.step, ApplyStep::Fuzz);
    let want = MOD
        .to_vec()
        .replace_first(b"return 1", b"return 10")
        .replace_first(b"return 2", b"return 20");
    assert_eq!(bytes(&out.tree, "pkg/mod.py"), want);
    assert!(out.files.iter().all(|f| f.result == FileResult::Applied));
}

#[test]
fn fuzz_ignores_anchoring_and_line_numbers() {
    let t = tree(&[("a.py", b"header\nx = 1\ny = 2\nz = 3\n")]);
    // git anchors "-1" at the top, so strict fails; the fuzz rung finds it one line down.
    let p = b"--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n x = 1\n-y = 2\n+y = 5\n";
    assert_eq!(apply(&t, p, &strict()).status, PatchStatus::Failed);
    let out = apply(&t, p, &ApplyOptions { fallback: Fallback::Fuzz });
    assert_eq!(out.step, ApplyStep::Fuzz);
    assert_eq!(bytes(&out.tree, "a.py"), b"header\nx = 1\ny = 5\nz = 3\n");
}

#[test]
fn fallback_cannot_rescue_a_corrupt_patch() {
    let t = tree(&[("a.py", b"x\n")]);
    let p = b"--- a/a.py\n+++ b/a.py\n@@ -1,5 +1,5 @@\n-x\n+y\n";
    let out = apply(&t, p, &ApplyOptions { fallback: Fallback::Fuzz });
    assert_eq!(out.status, PatchStatus::Failed);
    assert_eq!(out.reason.as_deref(), Some("corrupt patch at line 6"));
}

// ------------------------------------------------------------------------- hostile inputs

fn quick<T>(limit_secs: u64, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let r = f();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(limit_secs), "took {took:?}");
    r
}

#[test]
fn eight_megabyte_lines() {
    let long = vec![b'x'; 8 << 20];
    let mut file = b"a\n".to_vec();
    file.extend_from_slice(&long);
    file.extend_from_slice(b"\nb\n");
    let t = tree(&[("a.py", &file)]);
    // add an 8 MB line next to an 8 MB context line
    let mut p = b"--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,4 @@\n a\n+".to_vec();
    p.extend_from_slice(&long);
    p.extend_from_slice(b"y\n ");
    p.extend_from_slice(&long);
    p.extend_from_slice(b"\n b\n");
    let out = quick(30, || apply(&t, &p, &strict()));
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    assert_eq!(bytes(&out.tree, "a.py").len(), file.len() + long.len() + 2);
    // the same patch with the long context line one byte short does not apply
    let mut bad = p.clone();
    let at = bad.len() - 4;
    bad.remove(at);
    let out = quick(30, || apply(&t, &bad, &strict()));
    assert_eq!(out.status, PatchStatus::Failed);
}

#[test]
fn hunk_counts_that_lie() {
    let t = tree(&[("a.py", b"x\ny\n")]);
    for header in [
        "@@ -1,999999999 +1,999999999 @@",
        "@@ -1,18446744073709551615 +1,18446744073709551615 @@",
        "@@ -99999999999999999999999,2 +99999999999999999999999,2 @@",
        "@@ -18446744073709551615 +18446744073709551615 @@",
        "@@ -0,0 +0,0 @@",
        "@@ -1,2 +1,2 @",
        "@@ -a,2 +1,2 @@",
    ] {
        let p = format!("--- a/a.py\n+++ b/a.py\n{header}\n x\n-y\n+z\n");
        for fb in [Fallback::None, Fallback::Reject, Fallback::Fuzz] {
            let out = quick(10, || apply(&t, p.as_bytes(), &ApplyOptions { fallback: fb }));
            assert_ne!(out.status, PatchStatus::None, "{header}");
            assert!(out.reason.is_some() || out.status == PatchStatus::Applied, "{header}");
        }
    }
}

#[test]
fn binary_garbage_and_truncations_never_panic() {
    let t = tree(&[("pkg/mod.py", MOD)]);
    let mut state: u64 = 0x1234_5678_9abc_def1;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let valid = b"diff --git a/pkg/mod.py b/pkg/mod.py\nindex 1234567..89abcde 100644\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -4,3 +4,3 @@\n def f():\n-    return 1\n+    return 10\n \n";
    for i in 0..3000 {
        let p: Vec<u8> = match i % 3 {
            0 => (0..(next() % 400)).map(|_| next() as u8).collect(),
            1 => valid[..(next() as usize % valid.len())].to_vec(),
            _ => {
                let mut v = valid.to_vec();
                for _ in 0..3 {
                    let at = next() as usize % v.len();
                    v[at] =
                        [b'\n', b'@', b'-', b'+', b' ', b'\\', b'"', 0, 0xff][next() as usize % 9];
                }
                v
            }
        };
        for fb in [Fallback::None, Fallback::Fuzz] {
            let out = apply(&t, &p, &ApplyOptions { fallback: fb });
            if out.status != PatchStatus::Applied {
                assert_eq!(out.tree, t);
            }
            if let Some(r) = &out.reason {
                assert!(!r.contains('\n'), "multi-line reason {r:?}");
            }
        }
    }
    // a megabyte of random bytes
    let big: Vec<u8> = (0..1 << 20).map(|_| next() as u8).collect();
    let out = quick(10, || apply(&t, &big, &strict()));
    assert_eq!(out.status, PatchStatus::Failed);
    // a GIT binary patch with broken data is refused as git refuses it
    let bin = b"diff --git a/x.bin b/x.bin\nnew file mode 100644\nindex 0000000000000000000000000000000000000000..9ee4b2b7b2b28ef3bba0a7e9a2a4d7ab1d1b2a3c\nGIT binary patch\nliteral 3\nKcmZ?wWB>pF01N;C\n\nliteral 0\nHcmV?d00001\n\n";
    let out = apply(&t, bin, &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    // (its data is not a valid zlib stream: git says so and finds no patch)
    assert_eq!(out.reason.as_deref(), Some("inflate: data stream error (incorrect data check)"));
}

/// `x.bin` before and after [`BIN_PATCH`] (bytes made up here; the patch is `git diff --binary`
/// output for them).
fn bin_before() -> Vec<u8> {
    [&[0u8, 1, 2][..], &b"binary data ".repeat(20), &[0]].concat()
}

fn bin_after() -> Vec<u8> {
    let a = bin_before();
    [&a[..100], b"CHANGED", &a[100..]].concat()
}

const BIN_PATCH: &[u8] = b"diff --git a/x.bin b/x.bin
index 943d8bfc6ef89d3bd9608f7aed21bc9385df588b..d20da197f395a6a421bdb9ada01477001072724d 100644
GIT binary patch
delta 19
acmeyu_?vM;3cIt1qo2F0%S3^GMg{;!ItB;;

delta 20
Vcmey(_=Ryo%0veh7*b|r0034M2D$(M

diff --git a/y.bin b/y.bin
new file mode 100644
index 0000000000000000000000000000000000000000..75218e894e32342684e832bb24ab81135eac8900
GIT binary patch
literal 4
LcmZSJ<m3bZ06G91

literal 0
HcmV?d00001

";

#[test]
fn binary_patches_apply_and_check_blob_ids() {
    assert_eq!(git_blob_id(&bin_before()), "943d8bfc6ef89d3bd9608f7aed21bc9385df588b");
    // bytes: the delta and the literal are run and their results checked
    let mut t = Tree::new();
    t.insert_bytes("x.bin", bin_before()).unwrap();
    let out = apply(&t, BIN_PATCH, &strict());
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    assert_eq!(bytes(&out.tree, "x.bin"), bin_after());
    assert_eq!(bytes(&out.tree, "y.bin"), [0, 9, 9, 9]);

    // only the blob id: checked by id; a delta's result is known only by its id
    let mut blob = Tree::new();
    let id = git_blob_id(&bin_before());
    blob.insert(
        RepoPath::new("x.bin").unwrap(),
        FileEntry { mode: FileMode::Regular, content: Content::BlobOnly(id.as_str().into()) },
    );
    let out = apply(&blob, BIN_PATCH, &strict());
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    let e = out.tree.get(&RepoPath::new("x.bin").unwrap()).unwrap();
    assert_eq!(e.content, Content::BlobOnly(git_blob_id(&bin_after()).as_str().into()));

    // another preimage (bytes or id): git's message names the id it found
    let mut other = Tree::new();
    other.insert_bytes("x.bin", b"other\0".to_vec()).unwrap();
    let out = apply(&other, BIN_PATCH, &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    let want = format!(
        "the patch applies to 'x.bin' ({}), which does not match the current contents.",
        git_blob_id(b"other\0")
    );
    assert_eq!(out.reason.as_deref(), Some(want.as_str()));
    let mut other_id = Tree::new();
    other_id.insert(
        RepoPath::new("x.bin").unwrap(),
        FileEntry { mode: FileMode::Regular, content: Content::BlobOnly("1".repeat(40).into()) },
    );
    let out = apply(&other_id, BIN_PATCH, &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    assert!(out.reason.unwrap().contains(&"1".repeat(40)));

    // the postimage already in the repository is taken from there, even without data
    let mut has_post = t.clone();
    has_post.insert_bytes("copy.bin", bin_after()).unwrap();
    let no_data = format!(
        "diff --git a/x.bin b/x.bin\nindex {}..{} 100644\nBinary files a/x.bin and b/x.bin differ\n",
        git_blob_id(&bin_before()),
        git_blob_id(&bin_after())
    );
    let out = apply(&has_post, no_data.as_bytes(), &strict());
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    assert_eq!(bytes(&out.tree, "x.bin"), bin_after());
    let out = apply(&t, no_data.as_bytes(), &strict());
    assert_eq!(out.reason.as_deref(), Some("missing binary patch data for 'x.bin'"));
    // a broken hunk is refused while the patch is read, with zlib's message
    let broken = String::from_utf8_lossy(BIN_PATCH).replace("acmeyu_?vM", "acmeyu_?vN");
    let out = apply(&has_post, broken.as_bytes(), &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    assert!(out.reason.unwrap().starts_with("inflate: data stream error"));

    // a cut data line stops git's reading: what came before still applies (git prints the
    // error and exits 0), and with nothing before it the patch fails with that error
    let cut = &BIN_PATCH[..BIN_PATCH.len() - 40];
    let out = apply(&t, cut, &strict());
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    assert_eq!(bytes(&out.tree, "x.bin"), bin_after());
    assert!(!out.tree.is_file(&RepoPath::new("y.bin").unwrap()));
    let y_at = cut.windows(18).position(|w| w == b"diff --git a/y.bin").unwrap();
    let y_only = &cut[y_at..];
    let out = apply(&t, y_only, &strict());
    assert_eq!(out.status, PatchStatus::Failed);
    assert_eq!(out.reason.as_deref(), Some("corrupt binary patch at line 6: "));
}

#[test]
fn path_traversal_is_refused() {
    let t = tree(&[("a.py", b"x\n")]);
    let cases: &[(&[u8], &str)] = &[
        (
            b"--- /dev/null\n+++ b/../../etc/passwd\n@@ -0,0 +1 @@\n+x\n",
            "invalid path '../../etc/passwd'",
        ),
        (b"--- /dev/null\n+++ b//abs\n@@ -0,0 +1 @@\n+x\n", "invalid path '/abs'"),
        (b"--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n", "invalid path '.git/config'"),
        (
            b"--- /dev/null\n+++ b/sub/.GIT/hooks/pre-commit\n@@ -0,0 +1 @@\n+x\n",
            "invalid path 'sub/.GIT/hooks/pre-commit'",
        ),
        (b"--- /dev/null\n+++ b/a/./b\n@@ -0,0 +1 @@\n+x\n", "invalid path 'a/./b'"),
        (b"diff --git a/x b/y\nrename from a.py\nrename to ../a.py\n", "invalid path '../a.py'"),
    ];
    for (p, want) in cases {
        for fb in [Fallback::None, Fallback::Reject, Fallback::Fuzz] {
            let out = apply(&t, p, &ApplyOptions { fallback: fb });
            assert_eq!(out.status, PatchStatus::Failed, "{want}");
            assert_eq!(out.reason.as_deref(), Some(*want));
            assert_eq!(out.tree, t);
        }
    }
}

#[test]
fn adversarial_offset_search_is_bounded() {
    // 50k identical lines and a 400-line hunk that almost matches everywhere
    let file = b"x\n".repeat(50_000);
    let t = tree(&[("a.py", &file)]);
    let mut p = b"--- a/a.py\n+++ b/a.py\n@@ -100,401 +100,401 @@\n".to_vec();
    p.extend_from_slice(&b" x\n".repeat(399));
    p.extend_from_slice(b"-y\n+z\n x\n");
    for fb in [Fallback::None, Fallback::Fuzz] {
        let out = quick(60, || apply(&t, &p, &ApplyOptions { fallback: fb }));
        assert_eq!(out.status, PatchStatus::Failed);
    }
    // many hunks, each searched from far away
    let mut p = b"--- a/a.py\n+++ b/a.py\n".to_vec();
    for i in 0..2000 {
        p.extend_from_slice(
            format!("@@ -{},2 +{},2 @@\n x\n-q\n+r\n", 40_000 - i, 40_000 - i).as_bytes(),
        );
    }
    let out = quick(60, || apply(&t, &p, &strict()));
    assert_eq!(out.status, PatchStatus::Failed);
}

trait ReplaceFirst {
    fn replace_first(self, from: &[u8], to: &[u8]) -> Vec<u8>;
}

impl ReplaceFirst for Vec<u8> {
    fn replace_first(self, from: &[u8], to: &[u8]) -> Vec<u8> {
        match self.windows(from.len()).position(|w| w == from) {
            Some(i) => [&self[..i], to, &self[i + from.len()..]].concat(),
            None => self,
        }
    }
}

#[test]
fn backslash_names_and_control_characters_in_messages() {
    // a backslash is an ordinary file-name character on Linux: git creates `post\image.txt`
    let t = tree(&[("a.py", b"x\n")]);
    let p = b"--- /dev/null\n+++ b/post\\image.txt\n@@ -0,0 +1 @@\n+x\n";
    let out = apply(&t, p, &strict());
    assert_eq!(out.status, PatchStatus::Applied, "{:?}", out.reason);
    assert_eq!(bytes(&out.tree, "post\\image.txt"), b"x\n");
    // git prints control characters of a message as `?` (its `vreportf`)
    let out = apply(&t, b"@@ -1 +1 @@\r\n-a\n+b\n", &strict());
    assert_eq!(
        out.reason.as_deref(),
        Some("patch fragment without header at line 1: @@ -1 +1 @@?")
    );
}

/// zlib's own message for broken deflate streams, as `git apply` prints it for a binary hunk:
/// python3's `zlib` (the same zlib) decompresses valid streams of stored, fixed and dynamic
/// blocks with one byte changed at every position, and its error text is held against
/// `patch::inflate_error` (git reports these as `inflate: data stream error (...)`).
#[test]
fn broken_deflate_streams_are_named_as_zlib_names_them() {
    const PY: &str = r#"
import zlib, random, json
rng = random.Random(7)
out = []
texts = [bytes(rng.randrange(256) for _ in range(300)), b"abc" * 200, bytes(range(256)) * 3,
         b"hello world, " * 40 + bytes(rng.randrange(4) for _ in range(500)), b"x", b""]
for t in texts:
    for level in (0, 1, 6, 9):
        for strategy in (zlib.Z_DEFAULT_STRATEGY, zlib.Z_FIXED, zlib.Z_HUFFMAN_ONLY):
            c = zlib.compressobj(level, zlib.DEFLATED, 15, 9, strategy)
            good = c.compress(t) + c.flush()
            for pos in range(2, len(good) - 4):
                for v in (good[pos] ^ (1 << rng.randrange(8)), rng.randrange(256), 0xff):
                    bad = good[:pos] + bytes([v]) + good[pos + 1:]
                    try:
                        zlib.decompress(bad)
                        msg = None
                    except zlib.error as e:
                        msg = str(e)
                    out.append([bad.hex(), msg])
print(json.dumps(out))
"#;
    let Ok(o) = std::process::Command::new("python3").args(["-c", PY]).output() else {
        eprintln!("skipped: python3 is not available");
        return;
    };
    let cases: Vec<(String, Option<String>)> =
        serde_json::from_slice(&o.stdout).expect("python3 output");
    let (mut named, mut bad) = (0, Vec::new());
    for (hex, msg) in &cases {
        let data: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
            .collect();
        // zlib's data errors ("Error -3 ...: <msg>"); truncation (-5) and the check sum are
        // reported elsewhere (no message, and miniz_oxide's Adler-32 check).
        let theirs = msg
            .as_deref()
            .and_then(|m| m.strip_prefix("Error -3 while decompressing data: "))
            .filter(|m| *m != "incorrect data check");
        let ours = scorer::patch::inflate_error(&data, u64::MAX);
        if theirs.is_some() {
            named += 1;
        }
        if ours != theirs {
            bad.push(format!("{hex}: zlib {msg:?}, ours {ours:?}"));
        }
    }
    let n = bad.len();
    bad.truncate(5);
    assert!(n == 0, "{n} of {} streams differ:\n{}", cases.len(), bad.join("\n"));
    assert!(named > 100, "only {named} broken streams");
    eprintln!(
        "{} changed deflate streams ({named} broken with a zlib message): all as zlib",
        cases.len()
    );
}
