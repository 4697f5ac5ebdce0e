//! The codecs against CPython 3.11: every codec's cases (`cpython_cases.py` lists them) reduced
//! to one SHA-256 per category, compared with the digests CPython gives (`cpython-digests.json`,
//! recomputed live and required equal where python3.11 is present). A mismatch writes our lines
//! to `target/codecs-<codec>-<category>.txt` to diff with the script's `CODEC CATEGORY` output.
//! Regenerate the stored digests (after `scripts/gen-codec-tables.py`) with
//! `python3 codecs/tests/cpython_cases.py < names.json > codecs/tests/cpython-digests.json`, the
//! names being the JSON list of the 93 codec module names (`codecs::codec_names` and the 8
//! stateful ones of `STATEFUL`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stderr, reason = "test code")]

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const MULTIBYTE: &[&str] = &[
    "big5",
    "big5hkscs",
    "cp932",
    "cp949",
    "cp950",
    "euc_jis_2004",
    "euc_jisx0213",
    "euc_jp",
    "euc_kr",
    "gb18030",
    "gb2312",
    "gbk",
    "johab",
    "shift_jis",
    "shift_jis_2004",
    "shift_jisx0213",
];
/// The stateful codecs (ISO-2022, HZ), each with the designations its charsets are read
/// through (`sp`: every byte pair after each).
const STATEFUL: &[(&str, &[&[u8]])] = &[
    ("iso2022_jp", &[b"\x1b$B", b"\x1b$@", b"\x1b(J", b"\x1b&@\x1b$B"]),
    ("iso2022_jp_1", &[b"\x1b$B", b"\x1b$(D", b"\x1b(J"]),
    (
        "iso2022_jp_2",
        &[
            b"\x1b$B",
            b"\x1b$(D",
            b"\x1b$(C",
            b"\x1b$A",
            b"\x1b(J",
            b"\x1b.A\x1bN",
            b"\x1b.F\x1bN",
            b"\x1bN",
        ],
    ),
    ("iso2022_jp_2004", &[b"\x1b$(Q", b"\x1b$(P", b"\x1b$B"]),
    ("iso2022_jp_3", &[b"\x1b$(O", b"\x1b$(P", b"\x1b$B"]),
    ("iso2022_jp_ext", &[b"\x1b$B", b"\x1b$(D", b"\x1b(J", b"\x1b(I"]),
    ("iso2022_kr", &[b"\x1b$)C\x0e", b"\x1b$(C", b"\x0e"]),
    ("hz", &[b"~{", b""]),
];
/// Pieces of stateful byte strings (`sr`): every designation any of them knows, broken and
/// truncated escapes, shifts, HZ's tildes.
const PIECES: &[&[u8]] = &[
    b"\x1b(B",
    b"\x1b(J",
    b"\x1b(I",
    b"\x1b$@",
    b"\x1b$B",
    b"\x1b$A",
    b"\x1b$(C",
    b"\x1b$)C",
    b"\x1b$(D",
    b"\x1b$(O",
    b"\x1b$(P",
    b"\x1b$(Q",
    b"\x1b&@\x1b$B",
    b"\x1b.A",
    b"\x1b.F",
    b"\x1b.B",
    b"\x1b.J",
    b"\x1bN",
    b"\x1b(A",
    b"\x1b(F",
    b"\x1b)B",
    b"\x1b$",
    b"\x1b(",
    b"\x1b",
    b"\x1bx",
    b"\x1b&@",
    b"\x1b$(",
    b"\x1b((((((((((((((((",
    b"\x1b$)A",
    b"\x1b$(A",
    b"\x1b&@x",
    b"\x0e",
    b"\x0f",
    b"\n",
    b"~{",
    b"~}",
    b"~~",
    b"~\n",
    b"~",
    b"~x",
    b"\x1b$(Q$w",
    b"\x1b$(Q$x",
];
/// Characters of the stateful codecs' repertoires and beyond (`st`): JIS X 0213's pair starters
/// and second halves, kana, kanji, hangul, hanzi, Greek, Latin-1, half-width katakana, yen and
/// overline, astral (and one that truncates to a pair's second half), ASCII, `~`, newline.
const POOL: &str =
    "\u{304b}\u{309a}\u{30ab}\u{31f7}\u{e6}\u{300}\u{254}\u{301}\u{2e9}\u{2e5}\u{2e5}\u{2e9}\
    \u{4e00}\u{4e9c}\u{ac00}\u{d7a3}\u{554a}\u{3b1}\u{e9}\u{ff61}\u{ff9f}\u{a5}\u{203e}\u{ff3c}\
    \u{ff5e}\u{9b1c}\u{9b1d}\u{20b9f}\u{2000b}\u{1309a}a~\n\u{3164}\u{2015}\u{2018}\u{20ac}\
    \u{e000}\u{391}\u{c0}\u{ff}\u{ca}\u{304}\u{ea}\u{1030c}";
const HANDLERS: &[&str] = &["strict", "replace", "ignore", "backslashreplace", "xmlcharrefreplace"];
const CATS: &[&str] = &["d1", "d2", "d3", "rd", "ec", "re", "sp", "sr", "st"];

struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn dec(codec: &str, b: &[u8], errors: &str) -> String {
    match codecs::decode(codec, b, errors) {
        Ok(s) => {
            use std::fmt::Write;
            let mut out = String::from("ok ");
            for (k, c) in s.chars().enumerate() {
                let sep = if k == 0 { "" } else { " " };
                let _ = write!(out, "{sep}{:x}", u32::from(c));
            }
            out
        }
        Err(codecs::CodecError::Codec { encoding, start, end, reason }) => {
            format!("err {encoding} {start} {end} {reason}")
        }
        Err(codecs::CodecError::WrongDirection(_)) => "type".into(),
        Err(codecs::CodecError::Internal(_)) => "runtime".into(),
        Err(codecs::CodecError::UnknownHandler(_)) => "lookup".into(),
        Err(e) => format!("failed {e}"),
    }
}

fn enc(codec: &str, s: &str, errors: &str) -> String {
    match codecs::encode(codec, s, errors) {
        Ok(b) => format!("ok {}", hex(&b)),
        Err(codecs::CodecError::Codec { encoding, start, end, reason }) => {
            format!("err {encoding} {start} {end} {reason}")
        }
        Err(codecs::CodecError::UnknownHandler(_)) => "lookup".into(),
        Err(e) => format!("failed {e}"),
    }
}

fn hex(b: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(b.len() * 2);
    for &x in b {
        s.push(char::from(DIGITS[usize::from(x >> 4)]));
        s.push(char::from(DIGITS[usize::from(x & 15)]));
    }
    s
}

fn random_bytes(r: &mut Lcg) -> Vec<u8> {
    let n = 1 + r.below(12) as usize;
    let mut out = Vec::new();
    while out.len() < n {
        let k = r.below(10);
        if k < 3 {
            out.push(r.below(128) as u8);
        } else if k < 7 {
            out.push(0x81 + r.below(0x7E) as u8);
        } else if k < 8 {
            out.push(r.below(256) as u8);
        } else if k < 9 {
            let v = [
                0x81 + r.below(0x7E),
                0x30 + r.below(10),
                0x81 + r.below(0x7E),
                0x30 + r.below(10),
            ];
            out.extend(v.map(|x| x as u8));
        } else {
            let v = [
                0xA4,
                0xD4,
                0xA4,
                0xA1 + r.below(0x34),
                0xA4,
                0xA1 + r.below(0x34),
                0xA4,
                0xA1 + r.below(0x34),
            ];
            out.extend(v.map(|x| x as u8));
        }
    }
    out
}

const RANGES: &[(u32, u32)] = &[
    (0x20, 0x7F),
    (0xA0, 0x370),
    (0x2E5, 0x2EA),
    (0x2000, 0x2070),
    (0x3000, 0x3100),
    (0x31F0, 0x3200),
    (0x4E00, 0xA000),
    (0xAC00, 0xD7A4),
    (0xFF00, 0xFFF0),
    (0x20000, 0x2A6E0),
    (0xE000, 0xE100),
];

fn random_text(r: &mut Lcg) -> String {
    let n = 1 + r.below(8);
    (0..n)
        .map(|_| {
            let (lo, hi) = RANGES[r.below(RANGES.len() as u64) as usize];
            char::from_u32(lo + r.below(u64::from(hi - lo)) as u32).unwrap()
        })
        .collect()
}

fn stateful_bytes(r: &mut Lcg) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..1 + r.below(8) {
        let k = r.below(10);
        if k < 4 {
            out.extend_from_slice(PIECES[r.below(PIECES.len() as u64) as usize]);
        } else if k < 7 {
            out.extend([0x21 + r.below(0x5E) as u8, 0x21 + r.below(0x5E) as u8]);
        } else if k < 9 {
            out.push(r.below(128) as u8);
        } else {
            out.push(r.below(256) as u8);
        }
    }
    out
}

fn stateful_text(r: &mut Lcg) -> String {
    let pool: Vec<char> = POOL.chars().collect();
    (0..1 + r.below(8)).map(|_| pool[r.below(pool.len() as u64) as usize]).collect()
}

/// The stateful codecs' own categories.
fn stateful_lines(codec: &str, cat: &str, prefixes: &[&[u8]]) -> Vec<String> {
    let mut out = Vec::new();
    match cat {
        "sp" => {
            for p in prefixes {
                for b1 in 0..=255u8 {
                    for b2 in 0..=255u8 {
                        let b = [p, &[b1, b2][..]].concat();
                        out.push(format!("{}|strict|{}", hex(&b), dec(codec, &b, "strict")));
                    }
                }
            }
        }
        "sr" => {
            let mut r = Lcg(4);
            for _ in 0..3000 {
                let b = stateful_bytes(&mut r);
                for h in HANDLERS {
                    out.push(format!("{}|{h}|{}", hex(&b), dec(codec, &b, h)));
                }
            }
        }
        "st" => {
            let mut r = Lcg(5);
            for _ in 0..3000 {
                let s = stateful_text(&mut r);
                let k: Vec<String> = s.chars().map(|c| format!("{:x}", u32::from(c))).collect();
                let k = k.join(" ");
                for h in HANDLERS {
                    out.push(format!("{k}|{h}|{}", enc(codec, &s, h)));
                }
                let b = codecs::encode(codec, &s, "replace").unwrap();
                out.push(format!("{k}|roundtrip|{}", dec(codec, &b, "strict")));
            }
        }
        _ => {}
    }
    out
}

fn lines(codec: &str, cat: &str) -> Vec<String> {
    let multi = MULTIBYTE.contains(&codec);
    let stateful = STATEFUL.iter().find(|(n, _)| *n == codec);
    if let Some((_, prefixes)) = stateful {
        if !matches!(cat, "d1" | "ec" | "re") {
            return stateful_lines(codec, cat, prefixes);
        }
    }
    if cat == "st" && multi {
        return stateful_lines(codec, cat, &[]);
    }
    let mut out = Vec::new();
    match cat {
        "d1" => {
            for b in 0..=255u8 {
                out.push(format!("{b:02x}|strict|{}", dec(codec, &[b], "strict")));
            }
            let whole: Vec<u8> = (0..=255u8).collect();
            for h in HANDLERS {
                out.push(format!("all|{h}|{}", dec(codec, &whole, h)));
            }
        }
        "d2" if multi => {
            for b1 in 0..=255u8 {
                for b2 in 0..=255u8 {
                    out.push(format!(
                        "{b1:02x}{b2:02x}|strict|{}",
                        dec(codec, &[b1, b2], "strict")
                    ));
                }
            }
        }
        "d3" if multi => {
            let mut r = Lcg(3);
            for _ in 0..4096 {
                let n = 3 + r.below(2);
                let mut b = vec![0x80 + r.below(0x80) as u8];
                for _ in 1..n {
                    b.push(r.below(256) as u8);
                }
                out.push(format!("{}|strict|{}", hex(&b), dec(codec, &b, "strict")));
            }
        }
        "rd" => {
            let mut r = Lcg(1);
            for _ in 0..if multi { 600 } else { 100 } {
                let b = random_bytes(&mut r);
                for h in HANDLERS {
                    out.push(format!("{}|{h}|{}", hex(&b), dec(codec, &b, h)));
                }
            }
        }
        "ec" => {
            let cps: Vec<char> = (0..0x110000u32).filter_map(char::from_u32).collect();
            for (k, chunk) in cps.chunks(4096).enumerate() {
                let s: String = chunk.iter().collect();
                out.push(format!("{}|replace|{}", k * 4096, enc(codec, &s, "replace")));
                out.push(format!("{}|strict|{}", k * 4096, enc(codec, &s, "strict")));
            }
        }
        "re" => {
            let mut r = Lcg(2);
            for _ in 0..if multi || stateful.is_some() { 600 } else { 100 } {
                let s = random_text(&mut r);
                let k: Vec<String> = s.chars().map(|c| format!("{:x}", u32::from(c))).collect();
                let k = k.join(" ");
                for h in HANDLERS {
                    out.push(format!("{k}|{h}|{}", enc(codec, &s, h)));
                }
            }
        }
        _ => {}
    }
    out
}

type Digests = BTreeMap<String, BTreeMap<String, String>>;

fn ours(names: &[String]) -> Digests {
    let mut all = Digests::new();
    for codec in names {
        let mut per = BTreeMap::new();
        for cat in CATS {
            let ls = lines(codec, cat);
            if ls.is_empty() {
                continue;
            }
            let mut h = Sha256::new();
            for l in &ls {
                h.update(l.as_bytes());
                h.update(b"\n");
            }
            let d: String = h.finalize().iter().take(8).map(|x| format!("{x:02x}")).collect();
            per.insert(cat.to_string(), format!("{}:{d}", ls.len()));
        }
        all.insert(codec.clone(), per);
    }
    all
}

fn python311() -> bool {
    Command::new("python3")
        .args(["-c", "import sys; sys.exit(sys.version_info[:2] != (3, 11))"])
        .status()
        .is_ok_and(|s| s.success())
}

/// The codecs whose digests are recomputed by python3.11 on every run (about 7 s, beside our
/// 10 s): one of each family and shape; `REFSCORE_CODECS_FULL=1` recomputes all 85 (about 22 s).
fn live_names(names: &[String]) -> Vec<String> {
    const SOME: &[&str] = &[
        "big5hkscs",
        "cp037",
        "cp1252",
        "euc_kr",
        "gb18030",
        "hz",
        "iso2022_jp_2",
        "koi8_r",
        "shift_jis_2004",
    ];
    let full = std::env::var_os("REFSCORE_CODECS_FULL").is_some();
    names.iter().filter(|n| full || SOME.contains(&n.as_str())).cloned().collect()
}

#[test]
fn every_codec_agrees_with_cpython() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let stored_path = root.join("tests/cpython-digests.json");
    let mut names = codecs::codec_names().unwrap();
    names.extend(STATEFUL.iter().map(|(n, _)| n.to_string()));
    names.sort();
    let stored: Digests =
        serde_json::from_slice(&std::fs::read(&stored_path).expect("cpython-digests.json"))
            .unwrap();
    // CPython's digests computed live (where python3.11 is present) while ours are computed.
    let live = python311().then(|| {
        let mut child = Command::new("python3")
            .arg(root.join("tests/cpython_cases.py"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        let names = serde_json::to_string(&live_names(&names)).unwrap();
        child.stdin.take().unwrap().write_all(names.as_bytes()).unwrap();
        child
    });
    assert_eq!(names.len(), stored.len(), "codecs: {names:?}");
    let ours = ours(&names);
    if let Some(child) = live {
        let out = child.wait_with_output().unwrap();
        let live: Digests = serde_json::from_slice(&out.stdout).expect("digests");
        assert!(
            live.iter().all(|(k, v)| stored.get(k) == Some(v)) && !live.is_empty(),
            "tests/cpython-digests.json is stale: python3 codecs/tests/cpython_cases.py < names > it"
        );
    }
    let mut differ = Vec::new();
    let mut cases = 0usize;
    for (codec, per) in &stored {
        for (cat, want) in per {
            cases += want.split(':').next().unwrap().parse::<usize>().unwrap();
            let got = ours.get(codec).and_then(|p| p.get(cat));
            if got != Some(want) {
                let dump = root.join(format!("../target/codecs-{codec}-{cat}.txt"));
                std::fs::write(&dump, lines(codec, cat).join("\n") + "\n").unwrap();
                differ.push(format!(
                    "{codec} {cat}: ours {got:?}, CPython {want} ({})",
                    dump.display()
                ));
            }
        }
    }
    eprintln!("codecs: {} codecs, {cases} cases, {} categories differ", stored.len(), differ.len());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// `codecs.lookup`'s normalisation and aliases, and the codecs these tables refuse by name.
#[test]
fn lookup_follows_encodings_search_function() {
    use codecs::Lookup;
    let found = |n: &str| codecs::lookup(n).unwrap();
    assert_eq!(found("GBK"), Lookup::Found("gbk".into()));
    assert_eq!(found("cp936"), Lookup::Found("gbk".into()));
    assert_eq!(found("Shift-JIS"), Lookup::Found("shift_jis".into()));
    assert_eq!(found("sjis"), Lookup::Found("shift_jis".into()));
    assert_eq!(found("windows-1252"), Lookup::Found("cp1252".into()));
    assert_eq!(found("  euc.jp "), Lookup::Unknown);
    assert_eq!(found("eucjp"), Lookup::Found("euc_jp".into()));
    assert_eq!(found("utf-16"), Lookup::Found("utf_16".into()));
    assert_eq!(found("UnicodeLittleUnmarked"), Lookup::Found("utf_16_le".into()));
    assert_eq!(found("U32"), Lookup::Found("utf_32".into()));
    assert_eq!(found("utf16le"), Lookup::Unknown);
    assert_eq!(found("utf-7"), Lookup::Found("utf_7".into()));
    assert_eq!(found("hz"), Lookup::Found("hz".into()));
    assert_eq!(found("HZ-GB-2312"), Lookup::Found("hz".into()));
    assert_eq!(found("iso2022_jp"), Lookup::Found("iso2022_jp".into()));
    assert_eq!(found("ISO-2022-JP"), Lookup::Found("iso2022_jp".into()));
    assert_eq!(found("csISO2022KR"), Lookup::Found("iso2022_kr".into()));
    assert_eq!(found("iso2022jp-2004"), Lookup::Found("iso2022_jp_2004".into()));
    assert_eq!(found("iso-2022-jp.ext"), Lookup::Found("iso2022_jp_ext".into()));
    assert_eq!(found("iso2022.jp"), Lookup::Unknown);
    assert_eq!(found("idna"), Lookup::Unsupported("idna".into()));
    assert_eq!(found("no-such-codec"), Lookup::Unknown);
}

/// CPython matches a pair's second character by its low 16 bits (JIS X 0213's `ucs2_t`, HKSCS's
/// mask): an astral character there joins the pair and is consumed with it.
#[test]
fn pairs_match_the_second_character_by_its_low_16_bits() {
    let enc = |c: &str, s: &str| codecs::encode(c, s, "strict").unwrap();
    assert_eq!(enc("euc_jis_2004", "\u{304b}\u{1309a}"), b"\xa4\xf7");
    assert_eq!(enc("shift_jisx0213", "\u{304b}\u{1309a}"), b"\x82\xf5");
    assert_eq!(enc("big5hkscs", "\u{ca}\u{10304}"), b"\x88b");
    assert_eq!(enc("iso2022_jp_2004", "\u{304b}\u{1309a}"), b"\x1b$(Q$w\x1b(B");
}
