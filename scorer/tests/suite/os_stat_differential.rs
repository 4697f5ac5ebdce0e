//! `os.stat` results against python3: the fields the tree answers (mode, size, link count,
//! blocks, block size), the tuple protocol (indexing, negative indexes, slices, `len`,
//! iteration, unpacking, the errors of bad indexes), the types of the time fields, and
//! identities between paths to one file. The machine's own values (inode numbers, device,
//! owner, times) are fixed in refscore (`interp/statres.rs`) and compared only with each
//! other. Generated: every path kind x every expression, one method each.

use crate::interp_common;

#[test]
fn os_stat_results_match_cpython() {
    if std::process::Command::new("python3").arg("-c").arg("pass").status().is_err() {
        eprintln!("skipped: python3 not found");
        return;
    }
    let big = vec![b'x'; 10_000];
    let files: Vec<(&str, &[u8])> = vec![
        ("empty.txt", b""),
        ("one.txt", b"1"),
        ("page.txt", &big[..4096]),
        ("page1.txt", &big[..4097]),
        ("big.txt", &big),
        ("pkg/a.py", b"A = 1\n"),
        ("pkg/sub1/b.py", b"B = 2\n"),
        ("pkg/sub2/c.py", b"C = 3\n"),
        ("pkg/sub2/deep/d.py", b"D = 4\n"),
        ("flat/e.py", b"E = 5\n"),
    ];
    // Paths from the eval folder (the test's cwd).
    let paths = [
        "../empty.txt",
        "../one.txt",
        "../page.txt",
        "../page1.txt",
        "../big.txt",
        "../pkg/a.py",
        "../pkg",
        "../pkg/sub2",
        "../pkg/sub2/deep",
        "../flat",
    ];
    let exprs = [
        "r.st_mode",
        "r.st_size",
        "r.st_nlink",
        "r.st_blocks",
        "r.st_blksize",
        "r.st_rdev",
        "r[0]",
        "r[3]",
        "r[6]",
        "r[-4]",
        "r[0:1]",
        "r[6:7]",
        "r[3::10]",
        "r[stat.ST_SIZE], r[stat.ST_NLINK], r[stat.ST_MODE]",
        "r[stat.ST_MTIME] == r[stat.ST_CTIME] == int(r.st_mtime)",
        "[getattr(stat, k) for k in ('ST_INO', 'ST_DEV', 'ST_UID', 'ST_GID', 'ST_ATIME')]",
        "len(r)",
        "len(list(r))",
        "list(r)[6]",
        "tuple(r)[0]",
        "[type(x).__name__ for x in r]",
        "type(r.st_mtime).__name__",
        "type(r.st_mtime_ns).__name__",
        "type(r[8]).__name__",
        "int(r.st_mtime) == r[8]",
        "r.st_mtime_ns // 10**9 == r[8]",
        "(r.n_fields, r.n_sequence_fields, r.n_unnamed_fields)",
        "type(r).__name__",
        "r[10]",
        "r[-11]",
        "r['st_mode']",
        "r[1.5]",
        "os.stat(P).st_ino == r.st_ino",
        "os.stat(P + '/../' + os.path.basename(P)).st_ino == r.st_ino if os.path.isdir(P) else None",
        "os.stat('.').st_ino == r.st_ino",
        "os.stat(P).st_dev == os.stat('.').st_dev",
        "os.lstat(P).st_mode == r.st_mode",
        "m, i, *rest = r; (m, len(rest))",
        // A tuple subclass (issue 18): isinstance, the MRO, comparisons, hashing, concatenation.
        "isinstance(r, tuple), issubclass(type(r), tuple), isinstance(r, list)",
        "type(r).__mro__, type(r).__bases__",
        "tuple(r) == r, r == tuple(r), r != tuple(r), r == os.stat(P), r == list(r), r == 5",
        "hash(r) == hash(tuple(r)), {r: 1}[tuple(r)]",
        "r < tuple(r) + (1,), r <= tuple(r), r > tuple(r)[:3], tuple(r)[:3] < r",
        "r + (1,) == tuple(r) + (1,), type(r + (1,)).__name__, (0,) + r == (0,) + tuple(r)",
        "r.count(r[0]), r.index(r[6]), r[6] in r, 'x' in r",
        "r == os.stat('../one.txt'), r != os.stat('../one.txt')",
        "os.path.samestat(r, os.stat(P)), os.path.samestat(r, os.stat('../one.txt'))",
        "os.path.samefile(P, P), os.path.samefile(P, '../one.txt'), os.path.samefile(P, '.')",
        "os.path.samefile(P, '../nope')",
        "os.path.samestat(r)",
        "os.path.samestat(r, 1)",
    ];
    let mut src = String::from("import os, stat, unittest\n\nclass T(unittest.TestCase):\n");
    let mut n = 0;
    for (i, p) in paths.iter().enumerate() {
        for (j, e) in exprs.iter().enumerate() {
            let e = e.replace('P', &format!("{p:?}"));
            let body = match e.split_once("; ") {
                Some((stmt, value)) => format!("{stmt}\n        v = {value}"),
                None => format!("v = {e}"),
            };
            src.push_str(&format!(
                "    def test_{i:02}_{j:02}(self):\n        r = os.stat({p:?})\n        {body}\n        raise Exception(repr(v))\n"
            ));
            n += 1;
        }
    }
    let (py, mine) = interp_common::run_both("test_stat.py", &files, &src);
    let (pa, ma) =
        (py.as_array().cloned().unwrap_or_default(), mine.as_array().cloned().unwrap_or_default());
    assert_eq!(pa.len(), n, "python3: {py}");
    let mut bad = String::new();
    for (p, m) in pa.iter().zip(&ma) {
        if p != m {
            bad.push_str(&format!("\n python: {p}\n mine:   {m}"));
        }
    }
    assert!(bad.is_empty(), "os.stat differs:{bad}");
    eprintln!("os.stat cases compared with python3: {n}, all agree");
}

/// Regression fixtures without python3 (CPython 3.11.7's answers): `os.stat_result` was no
/// tuple, and `os.path.samestat` / `samefile` were missing.
#[test]
fn stat_result_is_a_tuple_regression_fixtures() {
    let src = r#"import os, unittest

class T(unittest.TestCase):
    def test_a(self):
        r = os.stat('../one.txt')
        raise Exception(repr((isinstance(r, tuple), issubclass(type(r), tuple), r == tuple(r))))
    def test_b(self):
        raise Exception(repr(type(os.stat('../one.txt')).__mro__))
    def test_c(self):
        r = os.stat('../one.txt')
        raise Exception(repr((r + (1,))[-1:] + (hash(r) == hash(tuple(r)), r.count(r[0]))))
    def test_d(self):
        raise Exception(repr((os.path.samefile('../one.txt', '../pkg/../one.txt'),
                              os.path.samestat(os.stat('../pkg'), os.stat('../one.txt')))))
"#;
    let files: Vec<(&str, &[u8])> = vec![("one.txt", b"1"), ("pkg/a.py", b"A = 1\n")];
    let got = interp_common::run_scorer("test_stat.py", &files, src);
    let got: Vec<&str> = got.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        got,
        [
            "(True, True, True)",
            "(<class 'os.stat_result'>, <class 'tuple'>, <class 'object'>)",
            "(1, True, 1)",
            "(True, False)",
        ]
    );
}
