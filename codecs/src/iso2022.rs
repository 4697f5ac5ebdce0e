//! CPython 3.11's stateful CJK codecs: the ISO-2022 family (`iso2022_jp`, `iso2022_jp_1`,
//! `iso2022_jp_2`, `iso2022_jp_2004`, `iso2022_jp_3`, `iso2022_jp_ext`, `iso2022_kr`:
//! `_codecs_iso2022.c`) and HZ (`hz`: `_codecs_cn.c`), whole-buffer decoding and encoding as
//! `bytes.decode` / `str.encode` run them (one state from the start, kept across errors; the
//! encoder's reset to ASCII at the end).
//!
//! No tables of their own: each charset is read from a table codec's tables, in the shape
//! CPython's charset functions have (checked over every code point and byte pair by
//! `tests/differential.rs`): JIS X 0208 and JIS X 0212 from `euc_jp` (0x8F for 0212), KS X
//! 1001 from `cp949` (decoding) and `euc_kr` (encoding), GB2312 from `gb2312`, JIS X 0213's
//! planes from `euc_jis_2004` (2004) and `euc_jisx0213` (2000), whose plane 2 falls back to JIS
//! X 0212 where ISO-2022 does not (those entries are the ones `euc_jp` has alike), and its
//! pairs; JIS X 0201 and the G2 sets of `iso2022_jp_2` (ISO-8859-1, ISO-8859-7) are computed.
//!
//! Decoding: designations `ESC ( F`, `ESC ) F`, `ESC $ F`, `ESC $ ( F`, `ESC $ ) F`, `ESC . F`
//! (G2, `jp_2`) and `ESC & @ ESC $ B`, each checked against the codec's charsets (an unknown
//! one is an illegal sequence of the escape's length); SO / SI (`iso2022_kr` only; LF also
//! leaves SO); `ESC N` single shifts into G2; an escape sequence of no ISO-2022 shape is passed
//! through as Latin-1 up to its final byte, as CPython does. Encoding: each character in the
//! first charset of the codec's list that has it, designated when not already; ASCII (and the
//! end) designates ASCII back. A replacement an error handler gives is ASCII and encoded in the
//! same state, as CPython's `multibytecodec_encerror` does.

use crate::tables::{self, Codec, Tables};
use crate::{handler, replacement, step, CodecError, DecodeErrors, Handler};

const ESC: u8 = 0x1B;
const SO: u8 = 0x0E;
const SI: u8 = 0x0F;

/// CPython's charset marks: the final byte of the designation, 0x80 set for double-byte sets.
const DBCS: u8 = 0x80;
const ASCII: u8 = b'B';
const ISO8859_1: u8 = b'A';
const ISO8859_7: u8 = b'F';
const JISX0201_K: u8 = b'I';
const JISX0201_R: u8 = b'J';
const GB2312: u8 = b'A' | DBCS;
const JISX0208: u8 = b'B' | DBCS;
const KSX1001: u8 = b'C' | DBCS;
const JISX0212: u8 = b'D' | DBCS;
const JISX0213_2000_1: u8 = b'O' | DBCS;
const JISX0213_2: u8 = b'P' | DBCS;
const JISX0213_2004_1: u8 = b'Q' | DBCS;
const JISX0208_O: u8 = b'@' | DBCS;

const ILLEGAL: &str = "illegal multibyte sequence";
const INCOMPLETE: &str = "incomplete multibyte sequence";

/// A charset's decoder and encoder (CPython's `iso2022_designation` functions).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Set {
    Ksx1001,
    Jisx0201R,
    Jisx0201K,
    Jisx0208,
    Jisx0212,
    /// JIS X 0213 plane 1 (`true`: the 2004 edition), every character.
    J1(bool),
    /// JIS X 0213 plane 1, the pairs only (the first designation of `jp_2004` and `jp_3`).
    J1Pairs(bool),
    /// JIS X 0213 plane 2.
    J2(bool),
    Gb2312,
    /// ISO-8859-1 / ISO-8859-7 in G2: decoded by `ESC N` only, never encoded.
    G2,
}

#[derive(Clone, Copy, Debug)]
struct Designation {
    mark: u8,
    /// G0, G1 or G2.
    plane: u8,
    width: usize,
    set: Set,
}

const fn dsg(mark: u8, plane: u8, width: usize, set: Set) -> Designation {
    Designation { mark, plane, width, set }
}

const KSX1001_G0: Designation = dsg(KSX1001, 0, 2, Set::Ksx1001);
const KSX1001_G1: Designation = dsg(KSX1001, 1, 2, Set::Ksx1001);
const R: Designation = dsg(JISX0201_R, 0, 1, Set::Jisx0201R);
const K: Designation = dsg(JISX0201_K, 0, 1, Set::Jisx0201K);
const J0208: Designation = dsg(JISX0208, 0, 2, Set::Jisx0208);
const J0208_O: Designation = dsg(JISX0208_O, 0, 2, Set::Jisx0208);
const J0212: Designation = dsg(JISX0212, 0, 2, Set::Jisx0212);
const GB: Designation = dsg(GB2312, 0, 2, Set::Gb2312);
const L1: Designation = dsg(ISO8859_1, 2, 1, Set::G2);
const L7: Designation = dsg(ISO8859_7, 2, 1, Set::G2);

/// One ISO-2022 codec (CPython's `iso2022_config`).
#[derive(Debug)]
pub(crate) struct Config {
    name: &'static str,
    /// SO and SI are ordinary control characters (`NO_SHIFT`).
    no_shift: bool,
    /// `ESC . F` designates G2 and `ESC N` shifts into it once (`USE_G2`).
    g2: bool,
    /// `ESC & @` may prefix `ESC $ B` (`USE_JISX0208_EXT`).
    ext: bool,
    dsgs: &'static [Designation],
}

static CONFIGS: &[Config] = &[
    Config { name: "iso2022_kr", no_shift: false, g2: false, ext: false, dsgs: &[KSX1001_G1] },
    Config { name: "iso2022_jp", no_shift: true, g2: false, ext: true, dsgs: &[J0208, R, J0208_O] },
    Config {
        name: "iso2022_jp_1",
        no_shift: true,
        g2: false,
        ext: true,
        dsgs: &[J0208, J0212, R, J0208_O],
    },
    Config {
        name: "iso2022_jp_2",
        no_shift: true,
        g2: true,
        ext: true,
        dsgs: &[J0208, J0212, KSX1001_G0, GB, R, J0208_O, L1, L7],
    },
    Config {
        name: "iso2022_jp_2004",
        no_shift: true,
        g2: false,
        ext: true,
        dsgs: &[
            dsg(JISX0213_2004_1, 0, 2, Set::J1Pairs(true)),
            J0208,
            dsg(JISX0213_2004_1, 0, 2, Set::J1(true)),
            dsg(JISX0213_2, 0, 2, Set::J2(true)),
        ],
    },
    Config {
        name: "iso2022_jp_3",
        no_shift: true,
        g2: false,
        ext: true,
        dsgs: &[
            dsg(JISX0213_2000_1, 0, 2, Set::J1Pairs(false)),
            J0208,
            dsg(JISX0213_2000_1, 0, 2, Set::J1(false)),
            dsg(JISX0213_2, 0, 2, Set::J2(false)),
        ],
    },
    Config {
        name: "iso2022_jp_ext",
        no_shift: true,
        g2: false,
        ext: true,
        dsgs: &[J0208, J0212, R, K, J0208_O],
    },
];

/// A stateful codec.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stateful {
    Iso(&'static Config),
    Hz,
}

/// The module names, and `encodings.aliases`' entries for them.
const MODULES: &[&str] = &[
    "iso2022_jp",
    "iso2022_jp_1",
    "iso2022_jp_2",
    "iso2022_jp_2004",
    "iso2022_jp_3",
    "iso2022_jp_ext",
    "iso2022_kr",
    "hz",
];
const ALIASES: &[(&str, &str)] = &[
    ("csiso2022jp", "iso2022_jp"),
    ("iso2022jp", "iso2022_jp"),
    ("iso_2022_jp", "iso2022_jp"),
    ("iso2022jp_1", "iso2022_jp_1"),
    ("iso_2022_jp_1", "iso2022_jp_1"),
    ("iso2022jp_2", "iso2022_jp_2"),
    ("iso_2022_jp_2", "iso2022_jp_2"),
    ("iso2022jp_2004", "iso2022_jp_2004"),
    ("iso_2022_jp_2004", "iso2022_jp_2004"),
    ("iso2022jp_3", "iso2022_jp_3"),
    ("iso_2022_jp_3", "iso2022_jp_3"),
    ("iso2022jp_ext", "iso2022_jp_ext"),
    ("iso_2022_jp_ext", "iso2022_jp_ext"),
    ("csiso2022kr", "iso2022_kr"),
    ("iso2022kr", "iso2022_kr"),
    ("iso_2022_kr", "iso2022_kr"),
    ("hz_gb", "hz"),
    ("hz_gb_2312", "hz"),
    ("hzgb", "hz"),
];

/// The module a normalised name is, as `encodings.search_function` finds it: an alias as
/// written or with `.` as `_`, else a module name without `.`.
pub(crate) fn module(norm: &str, dotless: &str) -> Option<&'static str> {
    let alias = |n: &str| ALIASES.iter().find(|(a, _)| *a == n).map(|(_, m)| *m);
    alias(norm)
        .or_else(|| alias(dotless))
        .or_else(|| MODULES.iter().copied().find(|m| *m == norm && !norm.contains('.')))
}

/// The codec of a module name [`module`] gave.
pub(crate) fn codec(module: &str) -> Option<Stateful> {
    if module == "hz" {
        return Some(Stateful::Hz);
    }
    CONFIGS.iter().find(|c| c.name == module).map(Stateful::Iso)
}

/// The table codecs the charsets are read from.
struct Sets<'t> {
    t: &'t Tables,
    euc_jp: &'t Codec,
    cp949: &'t Codec,
    euc_kr: &'t Codec,
    gb2312: &'t Codec,
    /// `euc_jisx0213` (JIS X 0213:2000) and `euc_jis_2004`.
    jis: [&'t Codec; 2],
}

impl<'t> Sets<'t> {
    fn new(t: &'t Tables) -> Result<Self, CodecError> {
        let get = |n: &str| crate::codec(t, n);
        Ok(Sets {
            t,
            euc_jp: get("euc_jp")?,
            cp949: get("cp949")?,
            euc_kr: get("euc_kr")?,
            gb2312: get("gb2312")?,
            jis: [get("euc_jisx0213")?, get("euc_jis_2004")?],
        })
    }

    /// The characters `bytes` decode to in `c`, if exactly those bytes make one step.
    fn trie(&self, c: &Codec, bytes: &[u8]) -> Option<String> {
        let mut s = String::new();
        match step(self.t, c.root, bytes, &mut s) {
            Ok(n) if n == bytes.len() => Some(s),
            _ => None,
        }
    }

    /// A double-byte set's characters for `c1 c2` (both 0x21-0x7E), as CPython's decoders.
    fn decode2(&self, set: Set, c1: u8, c2: u8) -> Option<String> {
        let gr = [c1 | 0x80, c2 | 0x80];
        let plane2 = [0x8F, c1 | 0x80, c2 | 0x80];
        match set {
            Set::Jisx0208 => self.trie(self.euc_jp, &gr),
            Set::Jisx0212 => self.trie(self.euc_jp, &plane2),
            Set::Ksx1001 => self.trie(self.cp949, &gr),
            Set::Gb2312 => self.trie(self.gb2312, &gr),
            Set::J1(y) | Set::J1Pairs(y) => {
                // The EUC codecs decode 0x2232 as U+FF5E; ISO-2022's map has U+007E.
                if (c1, c2) == (0x22, 0x32) {
                    return Some("~".into());
                }
                self.trie(self.jis[usize::from(y)], &gr)
            }
            Set::J2(y) => {
                // `jisx0213_2000_2_decoder`'s emulation gives U+9B1C there.
                if !y && (c1, c2) == (0x7D, 0x3B) {
                    return Some("\u{9b1c}".into());
                }
                let s = self.trie(self.jis[usize::from(y)], &plane2)?;
                // The EUC codecs' fallback to JIS X 0212, which ISO-2022 does not have.
                (self.trie(self.euc_jp, &plane2).as_deref() != Some(&s)).then_some(s)
            }
            Set::Jisx0201R | Set::Jisx0201K | Set::G2 => None,
        }
    }

    /// A code of `c`'s encoding map: (code, byte count).
    fn enc(c: &Codec, ch: u32) -> Option<(u32, u8)> {
        c.encode.get(&ch).copied()
    }

    /// A double-byte EUC code (both bytes 0xA1-0xFE) as the set's 7-bit code.
    fn gr2(e: Option<(u32, u8)>) -> Option<u32> {
        match e {
            Some((code, 2)) if code & 0x8080 == 0x8080 && code >> 8 >= 0xA1 => Some(code & 0x7F7F),
            _ => None,
        }
    }

    /// An EUC code set 3 code (0x8F and two bytes 0xA1-0xFE) as the set's 7-bit code.
    fn gr3(e: Option<(u32, u8)>) -> Option<u32> {
        match e {
            Some((code, 3)) if code >> 16 == 0x8F => Some(code & 0x7F7F),
            _ => None,
        }
    }

    /// Designation `d`'s code for `chars[0]` (and how many characters it takes), as CPython's
    /// encoder loop asks it: JIS X 0213's pair starters (MAP_MULTIPLE_AVAIL) are asked again
    /// with the next character (a pair, by its low 16 bits as CPython casts it) or, last, alone.
    fn encode(&self, set: Set, chars: &[u32]) -> Option<(u32, usize)> {
        let ch = chars[0];
        let pair = |y: bool| {
            let next = *chars.get(1)?;
            let (code, _) = self.jis[usize::from(y)].pairs.get(&(ch, next & 0xFFFF))?;
            Some((code & 0x7F7F, 2))
        };
        let one = |code: Option<u32>| code.map(|c| (c, 1));
        match set {
            Set::Jisx0208 if ch == 0xFF3C => Some((0x2140, 1)),
            Set::Jisx0208 => one(Self::gr2(Self::enc(self.euc_jp, ch))),
            Set::Jisx0212 => one(Self::gr3(Self::enc(self.euc_jp, ch))),
            Set::Ksx1001 => one(Self::gr2(Self::enc(self.euc_kr, ch))),
            Set::Gb2312 => one(Self::gr2(Self::enc(self.gb2312, ch))),
            Set::Jisx0201R => match ch {
                0xA5 => Some((0x5C, 1)),
                0x203E => Some((0x7E, 1)),
                _ => None,
            },
            Set::Jisx0201K => (0xFF61..=0xFF9F).contains(&ch).then(|| (ch - 0xFEC0 - 0x80, 1)),
            Set::J1Pairs(y) => pair(y),
            Set::J1(y) => {
                // The EUC codecs' own additions (U+FF3C, U+FF5E) are not JIS X 0213's.
                if ch == 0xFF3C || ch == 0xFF5E {
                    return None;
                }
                pair(y).or_else(|| one(Self::gr2(Self::enc(self.jis[usize::from(y)], ch))))
            }
            Set::J2(y) => {
                let e = Self::enc(self.jis[usize::from(y)], ch);
                // The EUC codecs write JIS X 0212's characters there too: not ISO-2022.
                if e.is_some() && Self::enc(self.euc_jp, ch) == e {
                    return None;
                }
                one(Self::gr3(e))
            }
            Set::G2 => None,
        }
    }
}

/// Why a decoder step stopped: an illegal sequence of n bytes, too few bytes (the rest of the
/// input is the error), or CPython's MBERR_INTERNAL (a RuntimeError).
enum Fault {
    Illegal(usize),
    TooFew,
    Internal,
}

/// CPython's `IS_ESCEND`: an escape sequence's final byte.
fn is_escend(c: u8) -> bool {
    c.is_ascii_uppercase() || c == b'@'
}

/// ISO-8859-7's upper half (`ISO8859_7_DECODE`) for `c` (0x80 set), as the G2 set.
fn iso8859_7(c: u32) -> Option<u32> {
    if c < 0xA0 || (c < 0xC0 && (0x288f_3bc9u32 >> (c - 0xA0)) & 1 != 0) {
        Some(c)
    } else if (0xB4..=0xFE).contains(&c) && (c >= 0xD4 || (0xbfff_fd77u32 >> (c - 0xB4)) & 1 != 0) {
        Some(0x02D0 + c)
    } else {
        match c {
            0xA1 => Some(0x2018),
            0xA2 => Some(0x2019),
            0xAF => Some(0x2015),
            _ => None,
        }
    }
}

/// The decoder's state: G0-G2's charsets, locking shift (SO), and "ESC throughout" (an escape
/// sequence of no ISO-2022 shape passed through).
struct Dec {
    g: [u8; 3],
    shifted: bool,
    through: bool,
}

impl Dec {
    /// `iso2022processesc` on `b` (starting at ESC): the sequence's length.
    fn escape(&mut self, cfg: &Config, b: &[u8]) -> Result<usize, Fault> {
        let mut esclen = 0;
        let mut i = 1;
        while i < 16 {
            if i >= b.len() {
                return Err(Fault::TooFew);
            }
            if is_escend(b[i]) {
                esclen = i + 1;
                break;
            }
            if cfg.ext && i + 1 < b.len() && b[i] == b'&' && b[i + 1] == b'@' {
                i += 2;
            }
            i += 1;
        }
        let (charset, g) = match esclen {
            0 => return Err(Fault::Illegal(1)),
            3 if b[1] == b'$' => (b[2] | DBCS, 0),
            3 => match b[1] {
                b'(' => (b[2], 0),
                b')' => (b[2], 1),
                b'.' if cfg.g2 => (b[2], 2),
                _ => return Err(Fault::Illegal(3)),
            },
            4 if b[1] == b'$' => match b[2] {
                b'(' => (b[3] | DBCS, 0),
                b')' => (b[3] | DBCS, 1),
                _ => return Err(Fault::Illegal(4)),
            },
            6 if cfg.ext && b[3] == ESC && b[4] == b'$' && b[5] == b'B' => (JISX0208, 0),
            n => return Err(Fault::Illegal(n)),
        };
        if charset != ASCII && !cfg.dsgs.iter().any(|d| d.mark == charset) {
            return Err(Fault::Illegal(esclen));
        }
        self.g[g] = charset;
        Ok(esclen)
    }

    /// One step of `DECODER(iso2022)` at the start of `b`: bytes consumed.
    fn step(
        &mut self,
        cfg: &Config,
        sets: &Sets<'_>,
        b: &[u8],
        out: &mut String,
    ) -> Result<usize, Fault> {
        let c = b[0];
        if self.through {
            out.push(char::from(c));
            if is_escend(c) {
                self.through = false;
            }
            return Ok(1);
        }
        match c {
            ESC => {
                let Some(&c2) = b.get(1) else { return Err(Fault::TooFew) };
                if matches!(c2, b'(' | b')' | b'$' | b'.' | b'&') {
                    return self.escape(cfg, b);
                }
                if cfg.g2 && c2 == b'N' {
                    let Some(&x) = b.get(2) else { return Err(Fault::TooFew) };
                    let ch = match self.g[2] {
                        ISO8859_1 => (x < 0x80).then(|| u32::from(x) + 0x80),
                        ISO8859_7 => iso8859_7(u32::from(x ^ 0x80)),
                        ASCII => (x < 0x80).then_some(u32::from(x)),
                        _ => return Err(Fault::Internal),
                    };
                    let ch = ch.and_then(char::from_u32).ok_or(Fault::Illegal(3))?;
                    out.push(ch);
                    return Ok(3);
                }
                out.push('\u{1b}');
                self.through = true;
                Ok(1)
            }
            SI if !cfg.no_shift => {
                self.shifted = false;
                Ok(1)
            }
            SO if !cfg.no_shift => {
                self.shifted = true;
                Ok(1)
            }
            b'\n' => {
                self.shifted = false;
                out.push('\n');
                Ok(1)
            }
            0x80..=0xFF => Err(Fault::Illegal(1)),
            _ => {
                let charset = if self.shifted { self.g[1] } else { self.g[0] };
                if c < 0x20 || charset == ASCII {
                    out.push(char::from(c));
                    return Ok(1);
                }
                let d = cfg.dsgs.iter().find(|d| d.mark == charset).ok_or(Fault::Internal)?;
                let Some(bytes) = b.get(..d.width) else { return Err(Fault::TooFew) };
                let decoded = match (d.set, bytes) {
                    (Set::Jisx0201R, _) => Some(match c {
                        0x5C => '\u{a5}',
                        0x7E => '\u{203e}',
                        _ => char::from(c),
                    }),
                    (Set::Jisx0201K, _) => (0x21..=0x5F)
                        .contains(&c)
                        .then(|| char::from_u32(0xFF40 + u32::from(c)))
                        .flatten(),
                    (_, &[c1, c2])
                        if (0x21..=0x7E).contains(&c1) && (0x21..=0x7E).contains(&c2) =>
                    {
                        match sets.decode2(d.set, c1, c2) {
                            Some(s) => {
                                out.push_str(&s);
                                return Ok(2);
                            }
                            None => None,
                        }
                    }
                    _ => None,
                };
                let ch = decoded.ok_or(Fault::Illegal(d.width))?;
                out.push(ch);
                Ok(d.width)
            }
        }
    }
}

/// `data.decode(codec, errors)` for a stateful codec.
pub(crate) fn decode(codec: Stateful, data: &[u8], errors: &str) -> Result<String, CodecError> {
    let t = tables::tables()?;
    let sets = Sets::new(t)?;
    let name = match codec {
        Stateful::Iso(cfg) => cfg.name,
        Stateful::Hz => "hz",
    };
    let mut d = DecodeErrors::new(data, errors, name);
    let mut dec = Dec { g: [ASCII; 3], shifted: false, through: false };
    // HZ's state: GB2312 (after `~{`) or ASCII.
    let mut gb = false;
    let mut pos = 0;
    while pos < data.len() {
        let b = &data[pos..];
        let r = match codec {
            Stateful::Iso(cfg) => dec.step(cfg, &sets, b, &mut d.out),
            Stateful::Hz => hz_step(&sets, &mut gb, b, &mut d.out),
        };
        pos = match r {
            Ok(n) => pos + n,
            Err(Fault::Illegal(n)) => d.handle(pos, pos + n, ILLEGAL)?,
            Err(Fault::TooFew) => d.handle(pos, data.len(), INCOMPLETE)?,
            Err(Fault::Internal) => return Err(CodecError::Internal(name.to_string())),
        };
    }
    d.finish()
}

/// One step of CPython 3.11's `DECODER(hz)`: `~~` (`~`), `~{` and `~}` switch to GB2312 and
/// back, `~` newline is a line continuation (each in its mode only), GB2312 as 7-bit pairs.
fn hz_step(sets: &Sets<'_>, gb: &mut bool, b: &[u8], out: &mut String) -> Result<usize, Fault> {
    let c = b[0];
    if c == b'~' {
        let Some(&c2) = b.get(1) else { return Err(Fault::TooFew) };
        match (c2, *gb) {
            (b'~', false) => out.push('~'),
            (b'{', false) => *gb = true,
            (b'\n', false) => {}
            (b'}', true) => *gb = false,
            _ => return Err(Fault::Illegal(1)),
        }
        return Ok(2);
    }
    if c >= 0x80 {
        return Err(Fault::Illegal(1));
    }
    if !*gb {
        out.push(char::from(c));
        return Ok(1);
    }
    let Some(&c2) = b.get(1) else { return Err(Fault::TooFew) };
    if !(0x21..=0x7E).contains(&c) || !(0x21..=0x7E).contains(&c2) {
        return Err(Fault::Illegal(1));
    }
    let s = sets.decode2(Set::Gb2312, c, c2).ok_or(Fault::Illegal(1))?;
    out.push_str(&s);
    Ok(2)
}

/// The encoder's state: G0's and G1's charsets and locking shift (ISO-2022), or GB2312 mode
/// (HZ).
struct Enc {
    g0: u8,
    g1: u8,
    shifted: bool,
    gb: bool,
    hz: bool,
    /// HZ: the size of CPython's output buffer (`datalen * 2 + 16`, grown as
    /// `expand_encodebuffer` grows it). Its encoder writes the second `~` of `~~` after
    /// consuming the character: when the buffer is full there, the retry after the buffer
    /// grows goes on without it, which CPython's output shows.
    cap: usize,
}

impl Enc {
    /// CPython's REQUIRE_OUTBUF(n) before a write of `n` bytes: the buffer grown when short
    /// (`esize`: a replacement's size, or none for the encoder's MBERR_TOOSMALL).
    fn room(&mut self, out: &[u8], n: usize, esize: Option<usize>) {
        if out.len() + n > self.cap {
            let half = self.cap >> 1;
            self.cap += match esize {
                Some(e) if e >= half => e,
                _ => half | 1,
            };
        }
    }

    /// An ASCII character, the modes left first.
    fn ascii(&mut self, out: &mut Vec<u8>, c: u8) {
        if self.hz {
            if self.gb {
                self.room(out, 2, None);
                out.extend_from_slice(b"~}");
                self.gb = false;
            }
            self.room(out, 1, None);
            out.push(c);
            if c == b'~' {
                if out.len() < self.cap {
                    out.push(b'~');
                } else {
                    self.room(out, 1, None);
                }
            }
            return;
        }
        if self.g0 != ASCII {
            out.extend_from_slice(&[ESC, b'(', b'B']);
            self.g0 = ASCII;
        }
        if self.shifted {
            out.push(SI);
            self.shifted = false;
        }
        out.push(c);
    }

    /// `d`'s designation and shift, when not in effect.
    fn designate(&mut self, out: &mut Vec<u8>, d: &Designation) {
        let m = d.mark & 0x7F;
        if d.plane == 0 {
            if self.shifted {
                out.push(SI);
                self.shifted = false;
            }
            if self.g0 != d.mark {
                if d.width == 1 {
                    out.extend_from_slice(&[ESC, b'(', m]);
                } else if d.mark == JISX0208 {
                    out.extend_from_slice(&[ESC, b'$', m]);
                } else {
                    out.extend_from_slice(&[ESC, b'$', b'(', m]);
                }
                self.g0 = d.mark;
            }
        } else {
            if self.g1 != d.mark {
                if d.width == 1 {
                    out.extend_from_slice(&[ESC, b')', m]);
                } else {
                    out.extend_from_slice(&[ESC, b'$', b')', m]);
                }
                self.g1 = d.mark;
            }
            if !self.shifted {
                out.push(SO);
                self.shifted = true;
            }
        }
    }

    /// The encoder's reset at the end (`ENCODER_RESET`).
    fn reset(&mut self, out: &mut Vec<u8>) {
        if self.hz {
            if self.gb {
                out.extend_from_slice(b"~}");
            }
            return;
        }
        if self.shifted {
            out.push(SI);
        }
        if self.g0 != ASCII {
            out.extend_from_slice(&[ESC, b'(', b'B']);
        }
    }
}

/// `text.encode(codec, errors)` for a stateful codec.
pub(crate) fn encode(codec: Stateful, text: &str, errors: &str) -> Result<Vec<u8>, CodecError> {
    let t = tables::tables()?;
    let sets = Sets::new(t)?;
    let chars: Vec<u32> = text.chars().map(u32::from).collect();
    let hz = matches!(codec, Stateful::Hz);
    let cap = chars.len() * 2 + 16;
    let mut st = Enc { g0: ASCII, g1: ASCII, shifted: false, gb: false, hz, cap };
    let mut out = Vec::with_capacity(chars.len() * 2);
    let mut handler_now: Option<Handler> = None;
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        if ch < 0x80 {
            st.ascii(&mut out, ch as u8);
            i += 1;
            continue;
        }
        let found = match codec {
            Stateful::Hz => sets.encode(Set::Gb2312, &chars[i..]).map(|(code, n)| (None, code, n)),
            Stateful::Iso(cfg) => cfg
                .dsgs
                .iter()
                .find_map(|d| sets.encode(d.set, &chars[i..]).map(|(code, n)| (Some(d), code, n))),
        };
        if let Some((d, code, n)) = found {
            match d {
                Some(d) => st.designate(&mut out, d),
                None if !st.gb => {
                    st.room(&out, 4, None);
                    out.extend_from_slice(b"~{");
                    st.gb = true;
                }
                None => st.room(&out, 2, None),
            }
            if d.map_or(2, |d| d.width) == 2 {
                out.push((code >> 8) as u8);
            }
            out.push(code as u8);
            i += n;
            continue;
        }
        let h = match handler_now {
            Some(h) => h,
            None => *handler_now.insert(handler(errors, false)?),
        };
        let name = match codec {
            Stateful::Iso(cfg) => cfg.name,
            Stateful::Hz => "hz",
        };
        let Some(r) = replacement(h, &chars[i..=i]) else {
            return Err(CodecError::Codec {
                encoding: name.to_string(),
                start: i,
                end: i + 1,
                reason: ILLEGAL.to_string(),
            });
        };
        // The replacements are ASCII, encoded in the encoder's state: `?` into the output,
        // the others apart (CPython's `multibytecodec_encode` of the handler's string), then
        // copied in.
        if h == Handler::Replace || !hz {
            for b in r.bytes() {
                st.ascii(&mut out, b);
            }
        } else {
            let mut apart = Vec::new();
            let cap = std::mem::replace(&mut st.cap, usize::MAX);
            for b in r.bytes() {
                st.ascii(&mut apart, b);
            }
            st.cap = cap;
            st.room(&out, apart.len(), Some(apart.len()));
            out.extend_from_slice(&apart);
        }
        i += 1;
    }
    st.reset(&mut out);
    Ok(out)
}
