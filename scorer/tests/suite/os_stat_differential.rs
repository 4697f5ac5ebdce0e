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
