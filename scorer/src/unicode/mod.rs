//! Unicode as CPython 3.11 sees it (Unicode 14.0.0): the one table behind `repr` escaping, identifiers
//! (parser and `str.isidentifier`), the `str` predicates and case mappings.
//!
//! Rust's std and the parser crates carry newer Unicode versions (std's, `unicode-ident` 18.0,
//! `unic-ucd-ident` 10.0), so none of them may decide a question 3.11 answers from its own tables.
//! `tables.rs` is generated from CPython 3.11 by `scripts/gen-unicode-tables.py`.

// Generated: kept as the generator writes it, so a test can compare the two.
#[rustfmt::skip]
mod tables;

use tables::{CHECKPOINTS, COMBOS, FOLD, LOWER, RUN_LEN, RUN_PROPS, SPECIAL, STEP, TITLE, UPPER};

/// The Unicode version of the tables (`unicodedata.unidata_version` of CPython 3.11).
pub const UNIDATA_VERSION: &str = tables::UNIDATA_VERSION;

/// Property bits of `tables::COMBOS` (same order as the generator's).
mod prop {
    pub(crate) const PRINTABLE: u16 = 1;
    pub(crate) const XID_START: u16 = 1 << 1;
    pub(crate) const XID_CONTINUE: u16 = 1 << 2;
    pub(crate) const ALPHA: u16 = 1 << 3;
    pub(crate) const DECIMAL: u16 = 1 << 4;
    pub(crate) const DIGIT: u16 = 1 << 5;
    pub(crate) const NUMERIC: u16 = 1 << 6;
    pub(crate) const SPACE: u16 = 1 << 7;
    pub(crate) const LOWER: u16 = 1 << 8;
    pub(crate) const UPPER: u16 = 1 << 9;
    pub(crate) const TITLE: u16 = 1 << 10;
    pub(crate) const CASED: u16 = 1 << 11;
    pub(crate) const CASE_IGNORABLE: u16 = 1 << 12;
    pub(crate) const ASSIGNED: u16 = 1 << 13;
}

fn props(c: char) -> u16 {
    let cp = c as u32;
    let k = CHECKPOINTS.partition_point(|&s| s <= cp).saturating_sub(1);
    let mut start = CHECKPOINTS.get(k).copied().unwrap_or(0);
    let mut i = k * STEP;
    while let Some(&n) = RUN_LEN.get(i) {
        if cp < start + u32::from(n) {
            break;
        }
        start += u32::from(n);
        i += 1;
    }
    RUN_PROPS.get(i).and_then(|&p| COMBOS.get(usize::from(p))).copied().unwrap_or(0)
}

fn has(c: char, bit: u16) -> bool {
    props(c) & bit != 0
}

/// `str.isprintable` of one character: false for the characters `repr` escapes.
pub fn is_printable(c: char) -> bool {
    if c.is_ascii() {
        return (' '..='~').contains(&c);
    }
    has(c, prop::PRINTABLE)
}

/// XID_Start (CPython's identifier start, without `_`).
pub fn is_xid_start(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    has(c, prop::XID_START)
}

/// XID_Continue (CPython's identifier continuation).
pub fn is_xid_continue(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric() || c == '_';
    }
    has(c, prop::XID_CONTINUE)
}

/// Is `c` assigned (general category other than Cn) in Unicode 14.0?
pub fn is_assigned(c: char) -> bool {
    has(c, prop::ASSIGNED)
}

/// `str.isidentifier` (`_PyUnicode_ScanIdentifier`): keywords are identifiers too.
pub fn is_identifier(s: &str) -> bool {
    let mut cs = s.chars();
    cs.next().is_some_and(|c| c == '_' || is_xid_start(c)) && cs.all(is_xid_continue)
}

pub fn is_alpha(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    has(c, prop::ALPHA)
}

pub fn is_decimal(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    has(c, prop::DECIMAL)
}

/// `Py_UNICODE_TODECIMAL`: a decimal digit's value. Unicode lays every decimal digit out in
/// runs of ten consecutive code points from 0 to 9 (runs may abut, as the mathematical digits
/// do), so the value is the offset from the start of its run modulo 10 (checked against
/// `unicodedata.decimal` for all 660 of 14.0).
pub fn decimal_value(c: char) -> Option<u32> {
    if !is_decimal(c) {
        return None;
    }
    let mut start = u32::from(c);
    while start > 0 && char::from_u32(start - 1).is_some_and(is_decimal) {
        start -= 1;
    }
    Some((u32::from(c) - start) % 10)
}

pub fn is_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    has(c, prop::DIGIT)
}

pub fn is_numeric(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    has(c, prop::NUMERIC)
}

/// `Py_UNICODE_ISALNUM`: alpha, decimal, digit or numeric.
pub fn is_alnum(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    props(c) & (prop::ALPHA | prop::DECIMAL | prop::DIGIT | prop::NUMERIC) != 0
}

/// `Py_UNICODE_ISSPACE` (what `str.split()` and `str.strip()` split and strip on).
pub fn is_space(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, ' ' | '\t'..='\r' | '\x1c'..='\x1f');
    }
    has(c, prop::SPACE)
}

pub fn is_lower(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_lowercase();
    }
    has(c, prop::LOWER)
}

pub fn is_upper(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_uppercase();
    }
    has(c, prop::UPPER)
}

/// Titlecase (category Lt), which `Py_UNICODE_ISTITLE` adds to the uppercase letters.
pub fn is_title(c: char) -> bool {
    !c.is_ascii() && has(c, prop::TITLE)
}

fn is_cased(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    has(c, prop::CASED)
}

fn is_case_ignorable(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\'' | '.' | ':' | '^' | '`');
    }
    has(c, prop::CASE_IGNORABLE)
}

/// Which mapping of `SPECIAL` and the run tables.
#[derive(Clone, Copy, PartialEq)]
enum Case {
    Lower = 0,
    Upper = 1,
    Title = 2,
    Fold = 3,
}

/// The delta of `c` in a run table, if a run covers it.
fn run_delta(table: &[(u32, i32)], c: char) -> Option<i32> {
    let cp = c as u32;
    let i = table.partition_point(|&(k, _)| k & 0x1F_FFFF <= cp).checked_sub(1)?;
    let (k, d) = table[i];
    let (start, stride, count) = (k & 0x1F_FFFF, ((k >> 21) & 1) + 1, k >> 22);
    let off = cp - start;
    (off.is_multiple_of(stride) && off / stride < count).then_some(d)
}

fn push_mapped(out: &mut String, c: char, case: Case) {
    if c.is_ascii() {
        out.push(match case {
            Case::Upper | Case::Title => c.to_ascii_uppercase(),
            Case::Lower | Case::Fold => c.to_ascii_lowercase(),
        });
        return;
    }
    let cp = c as u32;
    let at = SPECIAL.partition_point(|&(k, m, _)| (k, m) < (cp, case as u8));
    if let Some(&(k, m, s)) = SPECIAL.get(at) {
        if k == cp && m == case as u8 {
            out.push_str(s);
            return;
        }
    }
    let delta = match case {
        Case::Lower => run_delta(&LOWER, c),
        Case::Upper => run_delta(&UPPER, c),
        Case::Title => run_delta(&TITLE, c).or_else(|| run_delta(&UPPER, c)),
        Case::Fold => run_delta(&FOLD, c).or_else(|| run_delta(&LOWER, c)),
    };
    let mapped = delta.and_then(|d| cp.checked_add_signed(d)).and_then(char::from_u32).unwrap_or(c);
    out.push(mapped);
}

/// `Py_UNICODE_TOLOWER` / `Py_UNICODE_TOUPPER` of one character (what `re` compares under
/// IGNORECASE): the first character of its full mapping.
pub fn lower_char(c: char) -> char {
    let mut s = String::new();
    push_mapped(&mut s, c, Case::Lower);
    s.chars().next().unwrap_or(c)
}

/// See [`lower_char`].
pub fn upper_char(c: char) -> char {
    let mut s = String::new();
    push_mapped(&mut s, c, Case::Upper);
    s.chars().next().unwrap_or(c)
}

/// `lower_ucs4`: the full lowercase mapping, with the final-sigma rule (`handle_capital_sigma`).
fn push_lower(out: &mut String, cs: &[char], i: usize) {
    if cs[i] != '\u{3A3}' {
        push_mapped(out, cs[i], Case::Lower);
        return;
    }
    let before = cs[..i].iter().rev().find(|&&c| !is_case_ignorable(c));
    let mut final_sigma = before.is_some_and(|&c| is_cased(c));
    if final_sigma {
        let after = cs[i + 1..].iter().find(|&&c| !is_case_ignorable(c));
        final_sigma = after.is_none_or(|&c| !is_cased(c));
    }
    out.push(if final_sigma { '\u{3C2}' } else { '\u{3C3}' });
}

pub fn lower(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for i in 0..cs.len() {
        push_lower(&mut out, &cs, i);
    }
    out
}

fn map_each(s: &str, case: Case) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        push_mapped(&mut out, c, case);
    }
    out
}

pub fn upper(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_uppercase();
    }
    map_each(s, Case::Upper)
}

pub fn casefold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    map_each(s, Case::Fold)
}

pub fn swapcase(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for (i, &c) in cs.iter().enumerate() {
        if is_upper(c) {
            push_lower(&mut out, &cs, i);
        } else if is_lower(c) {
            push_mapped(&mut out, c, Case::Upper);
        } else {
            out.push(c);
        }
    }
    out
}

/// `str.title`: titlecase after an uncased character, lowercase after a cased one.
pub fn title(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut prev_cased = false;
    for (i, &c) in cs.iter().enumerate() {
        if prev_cased {
            push_lower(&mut out, &cs, i);
        } else {
            push_mapped(&mut out, c, Case::Title);
        }
        prev_cased = is_cased(c);
    }
    out
}

/// `str.capitalize` (3.8+): the first character titlecased, the rest lowercased.
pub fn capitalize(s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    for i in 0..cs.len() {
        if i == 0 {
            push_mapped(&mut out, cs[0], Case::Title);
        } else {
            push_lower(&mut out, &cs, i);
        }
    }
    out
}

pub fn isupper(s: &str) -> bool {
    let mut cased = false;
    for c in s.chars() {
        if is_lower(c) || is_title(c) {
            return false;
        }
        cased |= is_upper(c);
    }
    cased
}

pub fn islower(s: &str) -> bool {
    let mut cased = false;
    for c in s.chars() {
        if is_upper(c) || is_title(c) {
            return false;
        }
        cased |= is_lower(c);
    }
    cased
}

pub fn istitle(s: &str) -> bool {
    let (mut cased, mut prev_cased) = (false, false);
    for c in s.chars() {
        if is_upper(c) || is_title(c) {
            if prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else if is_lower(c) {
            if !prev_cased {
                return false;
            }
            prev_cased = true;
            cased = true;
        } else {
            prev_cased = false;
        }
    }
    cased
}

/// `str.isalpha` and friends: true for a non-empty string whose every character passes `f`.
pub fn all(s: &str, f: fn(char) -> bool) -> bool {
    !s.is_empty() && s.chars().all(f)
}

/// Aliases of Unicode 15.0 and later that the crates.io `unicode_names2` (Unicode 16.0) resolved but
/// 3.11's `\N{...}` does not know. The workspace now patches that crate with `unicode-names/`
/// (3.11's own names and aliases), which refuses them itself; kept as a guard.
const NEW_ALIASES: [&str; 7] = [
    "EM",
    "ARABIC SMALL HIGH LIGATURE ALEF WITH YEH BARREE",
    "SUNDANESE LETTER ARCHAIC I",
    "CUNEIFORM SIGN KALAM",
    "BAMUM LETTER PHASE-A MAEMGBIEE",
    "MENDE KIKAKUI SYLLABLE M172 MBO",
    "MENDE KIKAKUI SYLLABLE M174 MBOO",
];

/// Would 3.11 resolve `name` in `\N{name}`, given that `unicode_names2::character` resolved it to
/// `c`? Guards from when the crate was `unicode_names2`'s (Unicode 16.0, lower-case CJK hex
/// read): `unicode-names/` now resolves exactly as 3.11 does, these checks never refuse.
pub fn name_known_to_3_11(name: &str, c: char) -> bool {
    // 3.11 reads the code point of `CJK UNIFIED IDEOGRAPH-XXXX` in upper-case hex only.
    let cjk = "CJK UNIFIED IDEOGRAPH-";
    if name.get(..cjk.len()).is_some_and(|p| p.eq_ignore_ascii_case(cjk))
        && name[cjk.len()..].bytes().any(|b| b.is_ascii_lowercase())
    {
        return false;
    }
    is_assigned(c) && !NEW_ALIASES.iter().any(|a| a.eq_ignore_ascii_case(name))
}
