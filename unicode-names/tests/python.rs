//! The names table against CPython 3.11 itself: every name `unicodedata.name` gives resolves to its
//! character, other inputs (case variants too) resolve as `\N{...}` does in 3.11, and `tables.rs`
//! is what the generator writes. Skipped, with a message, without python3 3.11.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "test code: a failed unwrap is a failed test, and skips are printed for the reader"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `script` under python3 3.11; `None` (after saying why) when there is none.
fn python(script: &str, args: &[&str]) -> Option<String> {
    let out = Command::new("python3").arg("-c").arg(script).args(args).output();
    let Ok(out) = out else {
        eprintln!("skipped: python3 not found");
        return None;
    };
    let stdout = String::from_utf8(out.stdout).expect("python3 prints UTF-8");
    if let Some(rest) = stdout.strip_prefix("SKIP ") {
        eprintln!("skipped: {rest}");
        return None;
    }
    assert!(out.status.success(), "python3 failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(stdout)
}

const NEEDS_3_11: &str = "import sys, unicodedata\n\
if sys.version_info[:2] != (3, 11):\n    print('SKIP python3 is not 3.11'); sys.exit()\n";

#[test]
fn every_name_3_11_gives_resolves_to_its_character() {
    let script = format!(
        "{NEEDS_3_11}for cp in range(0x110000):\n    try: print(cp, unicodedata.name(chr(cp)), sep='\\t')\n    except ValueError: pass\n"
    );
    let Some(out) = python(&script, &[]) else { return };
    let mut n = 0;
    for (i, line) in out.lines().enumerate() {
        let (cp, name) = line.split_once('\t').expect("cp<TAB>name");
        let c = char::from_u32(cp.parse().expect("a number")).expect("a char");
        assert_eq!(unicode_names2::character(name), Some(c), "{name}");
        // Stored names are ASCII case-insensitive in 3.11 (Hangul and CJK names are computed).
        let computed = name.starts_with("HANGUL SYLLABLE ") || name.starts_with("CJK UNIFIED");
        if i % 7 == 0 && !computed {
            assert_eq!(unicode_names2::character(&name.to_ascii_lowercase()), Some(c), "{name}");
        }
        n += 1;
    }
    // Unicode 14.0: 34,527 stored names, 92,853 CJK unified ideographs, 11,172 Hangul syllables.
    assert_eq!(n, 138_552);
}

/// Inputs near real names (truncated, extended, mixed, other spacing), Hangul syllables and CJK
/// ideographs of every shape, aliases old and new: resolved as 3.11's `\N{...}` resolves them.
#[test]
fn other_inputs_resolve_as_in_3_11() {
    let script = format!(
        r#"{NEEDS_3_11}import codecs, random
random.seed(11)
names = []
for cp in range(0x110000):
    try: names.append(unicodedata.name(chr(cp)))
    except ValueError: pass
inputs = ["", " ", "X" * 88, "X" * 89, "NULL", "NUL", "LF", "NEW LINE", "BYTE ORDER MARK", "BOM",
    "ZWNJ", "NBSP", "EM", "LATIN CAPITAL LETTER GHA", "LATIN CAPITAL LETTER OI",
    "LATIN CAPITAL LETTER A WITH MACRON AND GRAVE", "SNOWMAN", "SNOWMA", "SNOWMANN", "SPACE",
    "CUNEIFORM SIGN KALAM", "ARABIC SMALL HIGH LIGATURE ALEF WITH YEH BARREE",
    "TANGUT IDEOGRAPH-17000", "CJK COMPATIBILITY IDEOGRAPH-F900", "NUSHU CHARACTER-1B170"]
jamo = "G GG N D DD R M B BB S SS J JJ C K T P H A AE YA YAE EO E YEO YE O WA WAE OE YO U WEO WE WI YU EU YI I L LG NG X".split() + [""]
for _ in range(3000):
    inputs.append("HANGUL SYLLABLE " + "".join(random.choice(jamo) for _ in range(random.randint(0, 4))))
    inputs.append("CJK UNIFIED IDEOGRAPH-" + "".join(random.choice("0123456789ABCDEFG") for _ in range(random.randint(0, 6))))
    a, b = random.sample(names, 2)
    k = random.randint(0, len(a))
    inputs += [a[:k] + b[k:], a + " ", a[:-1], a.replace(" ", "  ", 1), " " + b]
for n in inputs:
    try:
        r = codecs.decode("\\N{{%s}}" % n, "unicode_escape")
        print(n, ord(r), sep="\t")
    except UnicodeDecodeError:
        print(n, "", sep="\t")
"#
    );
    let Some(out) = python(&script, &[]) else { return };
    let mut n = 0;
    for line in out.lines() {
        let (name, cp) = line.split_once('\t').expect("name<TAB>cp");
        let want =
            (!cp.is_empty()).then(|| char::from_u32(cp.parse().expect("num")).expect("char"));
        assert_eq!(unicode_names2::character(name), want, "{name:?}");
        n += 1;
    }
    assert!(n > 20_000, "{n} inputs");
}

/// Case variants (upper, lower, title, swapped, random mixes, the prefix or the rest alone
/// changed) of many names of each kind: stored names, aliases, Hangul syllables, CJK unified
/// ideographs. 3.11 matches stored names and aliases ASCII case-insensitively but reads the two
/// computed kinds, prefix and all, case-sensitively.
#[test]
fn case_variants_resolve_as_in_3_11() {
    let script = format!(
        r#"{NEEDS_3_11}import codecs, random
random.seed(3)
names = []
for cp in range(0x110000):
    try: names.append(unicodedata.name(chr(cp)))
    except ValueError: pass
stored = [n for n in names if not n.startswith(("HANGUL SYLLABLE ", "CJK UNIFIED IDEOGRAPH-"))]
hangul = [n for n in names if n.startswith("HANGUL SYLLABLE ")]
cjk = [n for n in names if n.startswith("CJK UNIFIED IDEOGRAPH-")]
aliases = ["NULL", "LINE FEED", "BYTE ORDER MARK", "BOM", "ZWNJ", "NBSP", "LATIN CAPITAL LETTER GHA",
    "KANNADA LETTER LLLA", "SYMBOL FOR SAMARITAN SOURCE", "VS256", "ESC", "DEL", "CHARACTER TABULATION"]
def mix(s):
    return "".join(c.lower() if random.random() < 0.5 else c.upper() for c in s)
def variants(n):
    cut = n.index("-") + 1 if n.startswith("CJK UNIFIED") else (16 if n.startswith("HANGUL SYLLABLE ") else random.randint(0, len(n)))
    head, tail = n[:cut], n[cut:]
    return [n, n.lower(), n.title(), n.swapcase(), mix(n), mix(n), head.lower() + tail,
        head + tail.lower(), head.title() + tail, head + mix(tail), mix(head) + tail]
inputs = []
for pool, k in ((stored, 1500), (aliases, len(aliases)), (hangul, 700), (cjk, 700)):
    for n in random.sample(pool, k):
        inputs += variants(n)
for n in inputs:
    try:
        r = codecs.decode("\\N{{%s}}" % n, "unicode_escape")
        print(n, ord(r), sep="\t")
    except UnicodeDecodeError:
        print(n, "", sep="\t")
"#
    );
    let Some(out) = python(&script, &[]) else { return };
    let (mut n, mut known) = (0, 0);
    for line in out.lines() {
        let (name, cp) = line.split_once('\t').expect("name<TAB>cp");
        let want =
            (!cp.is_empty()).then(|| char::from_u32(cp.parse().expect("num")).expect("char"));
        assert_eq!(unicode_names2::character(name), want, "{name:?}");
        n += 1;
        known += usize::from(want.is_some());
    }
    eprintln!("{n} case variants compared with python3: {known} known, all agree");
    assert!(n > 30_000 && known > 15_000 && known < n, "{n} inputs, {known} known");
}

/// Regression fixtures: `unicode_names2` (which this crate replaced) and this crate until
/// 2026-12 read Hangul jamo and CJK hex case-insensitively, and refscore accepted these; 3.11
/// refuses every one but the upper-case spellings.
#[test]
fn hangul_and_cjk_names_are_case_sensitive_as_in_3_11() {
    for (name, want) in [
        ("HANGUL SYLLABLE GA", Some('\u{ac00}')),
        ("hangul syllable ga", None),
        ("hangul syllable GA", None),
        ("Hangul Syllable GA", None),
        ("HANGUL SYLLABLE ga", None),
        ("HANGUL SYLLABLE Ga", None),
        ("CJK UNIFIED IDEOGRAPH-4E00", Some('\u{4e00}')),
        ("cjk unified ideograph-4E00", None),
        ("cjk unified ideograph-4e00", None),
        ("CJK UNIFIED IDEOGRAPH-4e00", None),
        ("Cjk Unified Ideograph-4E00", None),
        ("CJK UNIFIED IDEOGRAPH-4E0", None),
        ("CJK UNIFIED IDEOGRAPH-04E00", Some('\u{4e00}')),
        ("CJK UNIFIED IDEOGRAPH-004E00", None),
        ("snowman", Some('\u{2603}')),
        ("Snowman", Some('\u{2603}')),
        ("bom", Some('\u{feff}')),
    ] {
        assert_eq!(unicode_names2::character(name), want, "{name:?}");
    }
}

/// The NameAliases.txt the generator reads: `UNICODE_NAME_ALIASES`, else the one the unicode_names2
/// crate ships in the cargo registry.
fn name_aliases() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("UNICODE_NAME_ALIASES") {
        return Some(PathBuf::from(p));
    }
    let home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
    let src = std::fs::read_dir(home.join("registry/src")).ok()?;
    for index in src.flatten() {
        for krate in std::fs::read_dir(index.path()).ok()?.flatten() {
            let name = krate.file_name();
            if name.to_string_lossy().starts_with("unicode_names2-1.") {
                let p = krate.path().join("data/NameAliases.txt");
                if p.is_file() {
                    return Some(p);
                }
            }
        }
    }
    None
}

#[test]
fn tables_are_what_the_generator_writes() {
    let Some(aliases) = name_aliases() else {
        eprintln!("skipped: no NameAliases.txt (set UNICODE_NAME_ALIASES)");
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let check = format!("{NEEDS_3_11}print('OK')");
    if python(&check, &[]).is_none() {
        return;
    }
    let out = Command::new("python3")
        .arg(root.join("../scripts/gen-unicode-names.py"))
        .arg(&aliases)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let committed = std::fs::read_to_string(root.join("src/tables.rs")).expect("tables.rs");
    assert!(
        String::from_utf8_lossy(&out.stdout) == committed,
        "unicode-names/src/tables.rs is stale: run python3 scripts/gen-unicode-names.py {} > unicode-names/src/tables.rs",
        aliases.display()
    );
}
