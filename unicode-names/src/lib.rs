//! Character names as CPython 3.11 resolves them in `\N{...}` (Unicode 14.0.0), behind the one
//! function of the `unicode_names2` crate that refscore's parser crates call, [`character`]; the
//! workspace patches `unicode_names2` to this crate.
//!
//! `tables.rs` is generated from CPython 3.11 by `scripts/gen-unicode-names.py`: the names
//! `unicodedata.name` gives and the aliases `unicodedata.lookup` resolves. The names are stored
//! front-coded in code-point order (about 100 KB gzip, against about 300 KB for the phrasebook
//! and hash tables of `unicode_names2`) and looked up by one scan: `\N{...}` escapes are rare.
//!
//! The table is linked in only with the feature `embedded` (the CLI, the tests, the Python
//! package). The scoring Web Worker leaves it out (a sixth of its wasm) and loads the same bytes
//! ([`table_file`], written into the site as `unicode-names.bin`) the first time a source holds
//! a `\N{...}` escape: without a table, [`character`] answers `None` and notes that the table
//! was wanted ([`take_table_wanted`]); the worker then installs it ([`install_table`]) and scores
//! the job again, so no verdict is ever made without it. The table is per thread.
//!
//! Matching is CPython 3.11's `_getcode` (Modules/unicodedata.c): a name starting with exactly
//! `HANGUL SYLLABLE ` is read greedily jamo by jamo, one starting with exactly
//! `CJK UNIFIED IDEOGRAPH-` takes four or five upper-case hex digits (both case-sensitively, the
//! prefix too: 3.11 compares them with `strncmp`); every other name and alias matches ASCII
//! case-insensitively (3.11's hash lookup upper-cases). So `\N{hangul syllable ga}` and
//! `\N{CJK UNIFIED IDEOGRAPH-4e00}` are unknown names, as in 3.11. The computed names need no
//! table.

use std::cell::Cell;

// Generated: kept as the generator writes it, so a test can compare the two.
#[rustfmt::skip]
#[cfg_attr(not(feature = "embedded"), allow(dead_code, reason = "the worker loads NAMES and ALIASES"))]
mod tables;

pub use tables::UNIDATA_VERSION;
use tables::{CJK_UNIFIED, MAX_NAME_LENGTH};

/// The stored names and aliases (`tables.rs`'s encoding).
#[derive(Clone, Copy)]
struct Table {
    names: &'static [u8],
    aliases: &'static [u8],
}

#[cfg(feature = "embedded")]
const EMBEDDED: Option<Table> = Some(Table { names: tables::NAMES, aliases: tables::ALIASES });
#[cfg(not(feature = "embedded"))]
const EMBEDDED: Option<Table> = None;

thread_local! {
    static TABLE: Cell<Option<Table>> = const { Cell::new(EMBEDDED) };
    static WANTED: Cell<bool> = const { Cell::new(false) };
}

/// The first bytes of [`table_file`]'s format.
const MAGIC: &[u8; 8] = b"RSUNAME1";

/// Why [`install_table`] refused bytes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("not a names table (bad header)")]
    Header,
    #[error("names table for Unicode {found}, expected {UNIDATA_VERSION}")]
    Version { found: String },
    #[error("names table truncated or corrupt (digest mismatch)")]
    Corrupt,
}

/// FNV-1a 64: a check that the file arrived whole, not a security measure (the site serves both
/// the worker and the file).
fn digest(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// The table as the file the site serves: `RSUNAME1`, the Unicode version (length byte, text),
/// the names' and the aliases' lengths (u32 LE), their FNV-1a 64 digest (u64 LE), then the bytes.
#[cfg(feature = "embedded")]
pub fn table_file() -> Vec<u8> {
    let (names, aliases) = (tables::NAMES, tables::ALIASES);
    let mut out = MAGIC.to_vec();
    out.push(UNIDATA_VERSION.len() as u8);
    out.extend_from_slice(UNIDATA_VERSION.as_bytes());
    out.extend_from_slice(&(names.len() as u32).to_le_bytes());
    out.extend_from_slice(&(aliases.len() as u32).to_le_bytes());
    let body = [names, aliases].concat();
    out.extend_from_slice(&digest(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Installs a [`table_file`] for this thread (kept for the thread's life: a worker loads it once).
pub fn install_table(file: &[u8]) -> Result<(), TableError> {
    let rest = file.strip_prefix(MAGIC.as_slice()).ok_or(TableError::Header)?;
    let (&vlen, rest) = rest.split_first().ok_or(TableError::Header)?;
    let (version, rest) = rest.split_at_checked(usize::from(vlen)).ok_or(TableError::Header)?;
    if version != UNIDATA_VERSION.as_bytes() {
        return Err(TableError::Version { found: String::from_utf8_lossy(version).into_owned() });
    }
    let (head, body) = rest.split_at_checked(16).ok_or(TableError::Header)?;
    let word =
        |i: usize| head.get(i..i + 4).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes);
    let (Some(names_len), Some(aliases_len)) = (word(0), word(4)) else {
        return Err(TableError::Header);
    };
    let want = head.get(8..16).and_then(|b| b.try_into().ok()).map(u64::from_le_bytes);
    if Some(digest(body)) != want || body.len() != names_len as usize + aliases_len as usize {
        return Err(TableError::Corrupt);
    }
    let body: &'static [u8] = Box::leak(body.to_vec().into_boxed_slice());
    let (names, aliases) = body.split_at(names_len as usize);
    TABLE.with(|t| t.set(Some(Table { names, aliases })));
    Ok(())
}

/// Whether this thread has a table (embedded or installed).
pub fn table_installed() -> bool {
    TABLE.with(Cell::get).is_some()
}

/// Forgets this thread's table: for tests of the loading path.
#[doc(hidden)]
pub fn remove_table() {
    TABLE.with(|t| t.set(None));
}

/// Whether [`character`] was asked for a stored name on this thread while it had no table, since
/// the last call (which clears it).
pub fn take_table_wanted() -> bool {
    WANTED.with(|w| w.replace(false))
}

const HANGUL_SYLLABLE: &[u8] = b"HANGUL SYLLABLE ";
const CJK_UNIFIED_IDEOGRAPH: &[u8] = b"CJK UNIFIED IDEOGRAPH-";

/// The character named `name` (or one of its aliases) as 3.11's `\N{...}` reads it (see the crate
/// doc for where case matters); `None` for a name CPython 3.11 does not know.
pub fn character(name: &str) -> Option<char> {
    // Computed names: prefix and rest case-sensitive, and no fall-through to the tables.
    if let Some(rest) = name.as_bytes().strip_prefix(HANGUL_SYLLABLE) {
        return hangul(rest);
    }
    if let Some(rest) = name.as_bytes().strip_prefix(CJK_UNIFIED_IDEOGRAPH) {
        return cjk(rest);
    }
    let mut buf = [0u8; MAX_NAME_LENGTH];
    let upper = buf.get_mut(..name.len())?;
    for (place, byte) in upper.iter_mut().zip(name.bytes()) {
        *place = byte.to_ascii_uppercase();
    }
    let name = &*upper;
    let Some(table) = TABLE.with(Cell::get) else {
        WANTED.with(|w| w.set(true));
        return None;
    };
    find(table.names, name).or_else(|| find(table.aliases, name)).and_then(char::from_u32)
}

/// The code point of `name` in a table of `tables.rs`'s encoding: one pass keeping the length of
/// the prefix the current name shares with `name`, so most names are skipped without a compare.
fn find(table: &[u8], name: &[u8]) -> Option<u32> {
    // Code points step from -1 (wrapping), so the first name's step is its code point plus one.
    let mut cp = u32::MAX;
    let mut step: Option<u32> = None;
    // The current name's length so far, and how much of it equals the start of `name`.
    let (mut len, mut common) = (0usize, 0usize);
    let found = |cp: u32, len: usize, common: usize| {
        (cp != u32::MAX && len == name.len() && common == len).then_some(cp)
    };
    for &b in table {
        if b < 0x20 {
            step = Some(step.unwrap_or(0) * 32 + u32::from(b));
        } else if b >= 0x80 {
            if let Some(cp) = found(cp, len, common) {
                return Some(cp);
            }
            cp = cp.wrapping_add(step.take().unwrap_or(1));
            len = usize::from(b - 0x80);
            common = common.min(len);
        } else {
            if common == len && name.get(len) == Some(&b) {
                common += 1;
            }
            len += 1;
        }
    }
    found(cp, len, common)
}

/// Every stored name with its character, in code-point order (not the computed CJK unified
/// ideograph and Hangul syllable names, nor aliases): for tests that need names to write. Empty
/// on a thread without a table.
pub fn names() -> impl Iterator<Item = (char, String)> {
    let mut cp = u32::MAX;
    let mut step: Option<u32> = None;
    let mut name = Vec::new();
    let stored = TABLE.with(Cell::get).map_or(&[][..], |t| t.names);
    let mut bytes = stored.iter().copied().peekable();
    core::iter::from_fn(move || loop {
        let b = bytes.next()?;
        if b < 0x20 {
            step = Some(step.unwrap_or(0) * 32 + u32::from(b));
            continue;
        }
        cp = cp.wrapping_add(step.take().unwrap_or(1));
        name.truncate(usize::from(b - 0x80));
        while let Some(c) = bytes.next_if(|&c| (0x20..0x80).contains(&c)) {
            name.push(c);
        }
        let c = char::from_u32(cp)?;
        return Some((c, name.iter().map(|&b| char::from(b)).collect()));
    })
}

/// `CJK UNIFIED IDEOGRAPH-XXXX(X)`: 3.11 takes exactly four or five upper-case hex digits.
fn cjk(hex: &[u8]) -> Option<char> {
    if !(4..=5).contains(&hex.len()) {
        return None;
    }
    let mut v = 0u32;
    for &c in hex {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'A'..=b'F' => c - b'A' + 10,
            _ => return None,
        };
        v = (v << 4) | u32::from(d);
    }
    CJK_UNIFIED.iter().any(|&(lo, hi)| (lo..=hi).contains(&v)).then(|| char::from_u32(v)).flatten()
}

/// Jamo names of Hangul syllables (initial, medial, final), from Unicode's Jamo.txt.
const CHOSEONG: [&[u8]; 19] = [
    b"G", b"GG", b"N", b"D", b"DD", b"R", b"M", b"B", b"BB", b"S", b"SS", b"", b"J", b"JJ", b"C",
    b"K", b"T", b"P", b"H",
];
const JUNGSEONG: [&[u8]; 21] = [
    b"A", b"AE", b"YA", b"YAE", b"EO", b"E", b"YEO", b"YE", b"O", b"WA", b"WAE", b"OE", b"YO",
    b"U", b"WEO", b"WE", b"WI", b"YU", b"EU", b"YI", b"I",
];
const JONGSEONG: [&[u8]; 28] = [
    b"", b"G", b"GG", b"GS", b"N", b"NJ", b"NH", b"D", b"L", b"LG", b"LM", b"LB", b"LS", b"LT",
    b"LP", b"LH", b"M", b"B", b"BS", b"S", b"SS", b"NG", b"J", b"C", b"K", b"T", b"P", b"H",
];

/// The jamo `s` starts with, reading as `unicode_names2` does: the longest jamo name that is a
/// prefix of `s` (the empty name when the list has one and nothing longer matches).
fn shift<'n>(s: &'n [u8], jamos: &[&[u8]]) -> Option<(u32, &'n [u8])> {
    let (i, j) =
        jamos.iter().enumerate().filter(|(_, j)| s.starts_with(j)).max_by_key(|(_, j)| j.len())?;
    Some((i as u32, &s[j.len()..]))
}

/// `HANGUL SYLLABLE <initial><medial><final>`, the whole rest read.
fn hangul(rest: &[u8]) -> Option<char> {
    let (l, rest) = shift(rest, &CHOSEONG)?;
    let (v, rest) = shift(rest, &JUNGSEONG)?;
    let (t, rest) = shift(rest, &JONGSEONG)?;
    if !rest.is_empty() {
        return None;
    }
    char::from_u32(0xac00 + (l * 21 + v) * 28 + t)
}

#[cfg(all(test, feature = "embedded"))]
mod tests {
    use super::*;

    /// On a thread of its own: the table is per thread.
    fn on_fresh_thread(f: fn()) {
        std::thread::spawn(f).join().unwrap_or_else(|e| std::panic::resume_unwind(e));
    }

    #[test]
    fn without_a_table_stored_names_are_wanted_and_computed_ones_are_not() {
        on_fresh_thread(|| {
            remove_table();
            assert!(!table_installed());
            assert_eq!(character("HANGUL SYLLABLE GA"), Some('\u{AC00}'));
            assert_eq!(character("CJK UNIFIED IDEOGRAPH-4E00"), Some('\u{4E00}'));
            assert!(!take_table_wanted(), "computed names need no table");
            assert_eq!(character("BULLET"), None);
            assert!(take_table_wanted());
            assert!(!take_table_wanted(), "taking clears it");
            assert_eq!(names().count(), 0);
            install_table(&table_file()).unwrap();
            assert_eq!(character("bullet"), Some('\u{2022}'));
            assert_eq!(character("NBSP"), Some('\u{A0}'), "aliases come with it");
            assert!(!take_table_wanted());
            assert!(names().count() > 30_000);
        });
    }

    #[test]
    fn damaged_table_files_are_refused_and_leave_no_table() {
        on_fresh_thread(|| {
            remove_table();
            let file = table_file();
            assert_eq!(install_table(b""), Err(TableError::Header));
            assert_eq!(install_table(&file[..20]), Err(TableError::Header));
            assert_eq!(install_table(&file[..file.len() - 1]), Err(TableError::Corrupt));
            let mut flipped = file.clone();
            let last = flipped.len() - 1;
            flipped[last] ^= 1;
            assert_eq!(install_table(&flipped), Err(TableError::Corrupt));
            let mut other = file.clone();
            other[9..15].copy_from_slice(b"15.0.0");
            assert_eq!(install_table(&other), Err(TableError::Version { found: "15.0.0".into() }));
            assert!(!table_installed());
        });
    }
}
