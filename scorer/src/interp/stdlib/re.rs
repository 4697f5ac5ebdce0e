//! The `re` module on the `regex` crate: search/match/fullmatch/findall/finditer/sub/split/compile/
//! escape, flags I/M/S/X, and Pattern/Match objects. Positions are code-point indices as in Python.
//! Syntax `regex` cannot express (backreferences, lookaround) is an `UnsupportedConstruct`, never a
//! silently different answer. Where `regex` and `sre` would answer the same pattern differently
//! (`\b`/`\B` next to a character the two word sets disagree on, `\B` in an empty string, the
//! empty matches `findall`/`sub`/`split` find), the exact matcher [`super::sre`] answers.

use std::rc::Rc;

use crate::interp::builtins::Sig;
use crate::interp::eval::Kwargs;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult};

pub(crate) const IGNORECASE: i64 = 2;
pub(crate) const MULTILINE: i64 = 8;
pub(crate) const DOTALL: i64 = 16;
pub(crate) const VERBOSE: i64 = 64;
pub(crate) const LOCALE: i64 = 4;
pub(crate) const UNICODE: i64 = 32;
pub(crate) const ASCII: i64 = 256;

/// A compiled pattern: the unanchored regex and the anchored forms for `match`/`fullmatch`.
pub struct RePattern {
    pub source: Str,
    pub flags: i64,
    pub search: regex::Regex,
    pub anchored: regex::Regex,
    pub full: regex::Regex,
    /// The exact matcher's program, for the patterns the `regex` crate can answer differently
    /// on some strings (a word boundary; an empty match).
    pub(crate) exact: Option<super::sre::Program>,
}

/// Group spans of one match (byte offsets), group 0 first.
type Spans = super::sre::Spans;

fn spans_of(c: &regex::Captures<'_>) -> Spans {
    (0..c.len()).map(|i| c.get(i).map(|m| (m.start(), m.end()))).collect()
}

/// Which matcher answers `p` on `s`: the exact one where `regex` could differ. `iterating`:
/// all matches are wanted (where empty matches follow `sre`'s rule).
fn exact_for<'p>(p: &'p RePattern, s: &str, iterating: bool) -> Option<&'p super::sre::Program> {
    let prog = p.exact.as_ref()?;
    let boundary = prog.has_word_boundary()
        && (s.is_empty() || (!s.is_ascii() && s.chars().any(super::sre::word_disagrees)));
    let dollar = prog.has_python_dollar() && s.ends_with('\n');
    (boundary || dollar || (iterating && prog.can_be_empty())).then_some(prog)
}

/// A successful match: byte spans of each group in `string`.
pub struct ReMatch {
    pub pattern: Rc<RePattern>,
    pub string: Str,
    pub spans: Vec<Option<(usize, usize)>>,
}

const PATTERN_METHODS: &[&str] =
    &["search", "match", "fullmatch", "findall", "finditer", "sub", "split"];
const MATCH_METHODS: &[&str] = &["group", "groups", "groupdict", "start", "end", "span"];

/// Method names of re objects, for attribute lookup.
pub(crate) fn method_names(n: &Native<'_>) -> Option<(&'static str, &'static [&'static str])> {
    match n {
        Native::RePattern(_) => Some(("re.Pattern", PATTERN_METHODS)),
        Native::ReMatch(_) => Some(("re.Match", MATCH_METHODS)),
        _ => None,
    }
}

/// Letters CPython's `re` accepts after a backslash, outside and inside a character class (`x`,
/// `u`, `U`, `N` take arguments, checked by the regex engine). Any other letter is a "bad escape":
/// notably `\p{..}`, which the `regex` crate would accept.
const ESCAPES_OUTSIDE: &str = "abdfnrstvwxuUNABDSWZ";
const ESCAPES_IN_CLASS: &str = "abdfnrstvwxuUNDSW";

/// CPython's message for the first error it reports that `regex` reports differently or not at
/// all (a bad escape, unbalanced parentheses), if any; CPython parses left to right, so does this.
fn pattern_error(p: &str) -> Option<String> {
    let mut open: Vec<usize> = Vec::new();
    let mut in_class = false;
    let mut chars = p.chars().enumerate().peekable();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                if let Some((_, x)) = chars.next() {
                    let known = if in_class { ESCAPES_IN_CLASS } else { ESCAPES_OUTSIDE };
                    if x.is_ascii_alphabetic() && !known.contains(x) {
                        return Some(format!("bad escape \\{x} at position {i}"));
                    }
                }
            }
            '[' if !in_class => {
                in_class = true;
                if let Some((_, ']')) = chars.peek() {
                    chars.next();
                }
            }
            ']' if in_class => in_class = false,
            '(' if !in_class => open.push(i),
            ')' if !in_class && open.pop().is_none() => {
                return Some(format!("unbalanced parenthesis at position {i}"));
            }
            _ => {}
        }
    }
    open.first().map(|i| format!("missing ), unterminated subpattern at position {i}"))
}

/// The code-point ranges of `\\w`, `\\d` and `\\s` on `str` as CPython 3.11's `sre` defines them
/// (`str.isalnum()` or `_`, `str.isdecimal()`, `str.isspace()` of Unicode 14.0, from the
/// project's table), in `regex` class syntax without brackets. The `regex` crate's own classes
/// follow a newer Unicode and other definitions (its `\\w` takes combining marks, its `\\s`
/// misses U+001C..U+001F). Built once per thread (a few hundred ranges each).
fn sre_class(kind: char) -> Rc<str> {
    thread_local! {
        static CLASSES: std::cell::OnceCell<[Rc<str>; 3]> = const { std::cell::OnceCell::new() };
    }
    let i = match kind {
        'w' => 0,
        'd' => 1,
        _ => 2,
    };
    CLASSES.with(|c| {
        c.get_or_init(|| {
            let build = |f: &dyn Fn(char) -> bool| -> Rc<str> {
                let mut out = String::new();
                let mut start: Option<u32> = None;
                for cp in 0..=0x11_0000u32 {
                    let ok = char::from_u32(cp).is_some_and(f);
                    match (ok, start) {
                        (true, None) => start = Some(cp),
                        (false, Some(s)) => {
                            out.push_str(&format!("\\x{{{s:x}}}"));
                            if cp - 1 > s {
                                out.push_str(&format!("-\\x{{{:x}}}", cp - 1));
                            }
                            start = None;
                        }
                        _ => {}
                    }
                }
                Rc::from(out)
            };
            [
                build(&|c| c == '_' || crate::unicode::is_alnum(c)),
                build(&crate::unicode::is_decimal),
                build(&crate::unicode::is_space),
            ]
        })[i]
            .clone()
    })
}

/// `\\w`, `\\d` and `\\s` under the ASCII flag (sre's `SRE_CATEGORY_*` without `UNI_`), in the
/// syntax of [`sre_class`].
fn ascii_class(kind: char) -> Rc<str> {
    Rc::from(match kind {
        'w' => "0-9A-Za-z_",
        'd' => "0-9",
        _ => "\\t\\n\\x0b\\x0c\\r ",
    })
}

/// `re._casefix._EXTRA_CASES` of CPython 3.11: lowercase characters IGNORECASE also equates
/// (beyond equal lowercase), as (character, its equivalents).
const EXTRA_CASES: &[(u32, &[u32])] = &[
    (105, &[305]),
    (115, &[383]),
    (181, &[956]),
    (305, &[105]),
    (383, &[115]),
    (837, &[953, 8126]),
    (912, &[8147]),
    (944, &[8163]),
    (946, &[976]),
    (949, &[1013]),
    (952, &[977]),
    (953, &[837, 8126]),
    (954, &[1008]),
    (956, &[181]),
    (960, &[982]),
    (961, &[1009]),
    (962, &[963]),
    (963, &[962]),
    (966, &[981]),
    (976, &[946]),
    (977, &[952]),
    (981, &[966]),
    (982, &[960]),
    (1008, &[954]),
    (1009, &[961]),
    (1013, &[949]),
    (1074, &[7296]),
    (1076, &[7297]),
    (1086, &[7298]),
    (1089, &[7299]),
    (1090, &[7300, 7301]),
    (1098, &[7302]),
    (1123, &[7303]),
    (7296, &[1074]),
    (7297, &[1076]),
    (7298, &[1086]),
    (7299, &[1089]),
    (7300, &[1090, 7301]),
    (7301, &[1090, 7300]),
    (7302, &[1098]),
    (7303, &[1123]),
    (7304, &[42571]),
    (7777, &[7835]),
    (7835, &[7777]),
    (8126, &[837, 953]),
    (8147, &[912]),
    (8163, &[944]),
    (42571, &[7304]),
    (64261, &[64262]),
    (64262, &[64261]),
];

/// The characters an IGNORECASE literal `c` matches in CPython 3.11's `sre` (`_compile`:
/// an uncased character only itself; a cased one every character whose `Py_UNICODE_TOLOWER`
/// is `c`'s, or one of [`EXTRA_CASES`] of it), as a `regex` class that no case folding
/// changes. `None` for an uncased character. The inverse lowercase map is built once per
/// thread.
fn sre_literal_ignorecase(c: char) -> Option<String> {
    use crate::unicode::{lower_char, upper_char};
    if lower_char(c) == c && upper_char(c) == c {
        return None;
    }
    thread_local! {
        static INVERSE: std::cell::OnceCell<std::collections::HashMap<char, Vec<char>>> =
            const { std::cell::OnceCell::new() };
    }
    let lo = lower_char(c);
    let mut targets = vec![lo];
    if let Some((_, more)) = EXTRA_CASES.iter().find(|(k, _)| *k == lo as u32) {
        targets.extend(more.iter().filter_map(|&m| char::from_u32(m)));
    }
    let mut members: Vec<char> = INVERSE.with(|inv| {
        let inv = inv.get_or_init(|| {
            let mut m: std::collections::HashMap<char, Vec<char>> = Default::default();
            for x in (0..=0x10_FFFFu32).filter_map(char::from_u32) {
                let l = lower_char(x);
                if l != x {
                    m.entry(l).or_default().push(x);
                }
            }
            m
        });
        targets
            .iter()
            .flat_map(|t| {
                let own = (lower_char(*t) == *t).then_some(*t);
                own.into_iter().chain(inv.get(t).into_iter().flatten().copied())
            })
            .collect()
    });
    members.sort_unstable();
    members.dedup();
    let mut out = String::from("(?-i:[");
    for m in members {
        out.push_str(&format!("\\x{{{:x}}}", m as u32));
    }
    out.push_str("])");
    Some(out)
}

/// One item of a character class as `sre_parse` reads it.
enum ClassItem {
    Lit(u32),
    Range(u32, u32),
    /// `\w`, `\d`, `\s` (lowercase) or their negations (uppercase).
    Cat(char),
}

/// Parses a class body (after `[`; `chars` starts there) as `sre_parse` does: a leading `^`,
/// a `]` first is literal, escapes as `_class_escape`, ranges of two literals. Returns whether
/// it is negated, its items and the number of chars read through the closing `]`; `None` for
/// anything this does not model (left to the `regex` crate).
fn parse_class(chars: &[char]) -> Option<(bool, Vec<ClassItem>, usize)> {
    let mut i = 0;
    let negate = chars.first() == Some(&'^');
    if negate {
        i += 1;
    }
    let mut items: Vec<ClassItem> = Vec::new();
    let escape = |i: &mut usize| -> Option<ClassItem> {
        let c = *chars.get(*i)?;
        *i += 1;
        let hex = |i: &mut usize, n: usize| -> Option<u32> {
            let s: String = chars.get(*i..*i + n)?.iter().collect();
            if !s.chars().all(|c| c.is_ascii_hexdigit()) {
                return None;
            }
            *i += n;
            u32::from_str_radix(&s, 16).ok()
        };
        Some(match c {
            'a' => ClassItem::Lit(7),
            'b' => ClassItem::Lit(8),
            'f' => ClassItem::Lit(12),
            'n' => ClassItem::Lit(10),
            'r' => ClassItem::Lit(13),
            't' => ClassItem::Lit(9),
            'v' => ClassItem::Lit(11),
            'w' | 'd' | 's' | 'W' | 'D' | 'S' => ClassItem::Cat(c),
            'x' => ClassItem::Lit(hex(i, 2)?),
            'u' => ClassItem::Lit(hex(i, 4)?),
            'U' => ClassItem::Lit(char::from_u32(hex(i, 8)?)? as u32),
            '0'..='7' => {
                let mut v = c.to_digit(8)?;
                for _ in 0..2 {
                    match chars.get(*i).and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            *i += 1;
                        }
                        None => break,
                    }
                }
                if v > 0o377 {
                    return None;
                }
                ClassItem::Lit(v)
            }
            c if c.is_ascii_alphanumeric() => return None,
            c => ClassItem::Lit(c as u32),
        })
    };
    loop {
        let c = *chars.get(i)?;
        i += 1;
        if c == ']' && !items.is_empty() {
            return Some((negate, items, i));
        }
        let first = if c == '\\' { escape(&mut i)? } else { ClassItem::Lit(c as u32) };
        if chars.get(i) == Some(&'-') {
            let that = *chars.get(i + 1)?;
            if that == ']' {
                items.push(first);
                items.push(ClassItem::Lit('-' as u32));
                return Some((negate, items, i + 2));
            }
            i += 2;
            let second = if that == '\\' { escape(&mut i)? } else { ClassItem::Lit(that as u32) };
            match (first, second) {
                (ClassItem::Lit(lo), ClassItem::Lit(hi)) if lo <= hi => {
                    items.push(ClassItem::Range(lo, hi))
                }
                _ => return None,
            }
        } else {
            items.push(first);
        }
    }
}

/// A character class under IGNORECASE as CPython 3.11's `sre` compiles it
/// (`_optimize_charset` with `tolower` and `re._casefix`, then `IN_UNI_IGNORE`: a character
/// matches when its lowercase is in the set; literals and ranges whose lowercase is past the
/// BMP are tested raw, ranges also by the lowercase's uppercase), as an explicit `regex` class
/// that no case folding changes. `chars` starts after the `[`; returns the class and the chars
/// read, `None` when [`parse_class`] declines.
fn sre_class_ignorecase(chars: &[char]) -> Option<(String, usize)> {
    use crate::unicode::{lower_char, upper_char};
    let (negate, items, used) = parse_class(chars)?;
    let ch = |v: u32| char::from_u32(v).unwrap_or('\0');
    let cased = |v: u32| lower_char(ch(v)) != ch(v) || upper_char(ch(v)) != ch(v);
    let fixes = |lo: u32| EXTRA_CASES.iter().find(|(k, _)| *k == lo).map_or(&[][..], |(_, m)| *m);
    // the BMP charmap (lowercased, with the fixes), the raw tail, categories
    let mut charmap: std::collections::BTreeSet<u32> = Default::default();
    let mut tail_lits: Vec<u32> = Vec::new();
    let mut tail_ranges: Vec<(u32, u32)> = Vec::new();
    let mut cats = String::new();
    let mut hascased = false;
    for item in &items {
        match *item {
            ClassItem::Lit(av) => {
                let lo = lower_char(ch(av)) as u32;
                if lo > 0xFFFF {
                    // A lone literal is no set for `sre_parse` (`[X]` is `X`, `[^X]` is
                    // NOT_LITERAL): compared lowercased. In a set it stays raw.
                    tail_lits.push(if items.len() == 1 { lo } else { av });
                    hascased = true;
                    continue;
                }
                charmap.insert(lo);
                charmap.extend(fixes(lo));
                hascased |= cased(av);
            }
            ClassItem::Range(a, b) => {
                for i in a..=b.min(0xFFFF) {
                    let lo = lower_char(ch(i)) as u32;
                    charmap.insert(lo);
                    charmap.extend(fixes(lo));
                }
                if b > 0xFFFF {
                    tail_ranges.push((a, b));
                    hascased = true;
                } else {
                    hascased = hascased || (a..=b).any(cased);
                }
            }
            ClassItem::Cat(k) => {
                let class = sre_class(k.to_ascii_lowercase());
                if k.is_ascii_lowercase() {
                    cats.push_str(&class);
                } else {
                    cats.push_str(&format!("[^{class}]"));
                }
            }
        }
    }
    // the characters whose lowercase is in the set
    let mut members: Vec<u32> = Vec::new();
    if hascased {
        thread_local! {
            static INVERSE: std::cell::OnceCell<std::collections::HashMap<u32, Vec<u32>>> =
                const { std::cell::OnceCell::new() };
        }
        let lowered_is = |targets: &mut dyn Iterator<Item = u32>, out: &mut Vec<u32>| {
            INVERSE.with(|inv| {
                let inv = inv.get_or_init(|| {
                    let mut m: std::collections::HashMap<u32, Vec<u32>> = Default::default();
                    for x in (0..=0x10_FFFFu32).filter_map(char::from_u32) {
                        let l = lower_char(x);
                        if l != x {
                            m.entry(l as u32).or_default().push(x as u32);
                        }
                    }
                    m
                });
                for t in targets {
                    if lower_char(ch(t)) as u32 == t {
                        out.push(t);
                    }
                    out.extend(inv.get(&t).into_iter().flatten());
                }
            })
        };
        lowered_is(&mut charmap.iter().copied().chain(tail_lits.iter().copied()), &mut members);
        for &(a, b) in &tail_ranges {
            for x in (0x1_0000u32..=0x10_FFFF).filter(|&x| char::from_u32(x).is_some()) {
                let lo = lower_char(ch(x)) as u32;
                let up = upper_char(ch(lo)) as u32;
                if (a..=b).contains(&lo) || (a..=b).contains(&up) {
                    members.push(x);
                }
            }
        }
    } else {
        members.extend(charmap.iter().copied());
    }
    members.sort_unstable();
    members.dedup();
    let mut out = String::from(if negate { "(?-i:[^" } else { "(?-i:[" });
    let mut k = 0;
    while k < members.len() {
        let start = members[k];
        while k + 1 < members.len() && members[k + 1] == members[k] + 1 {
            k += 1;
        }
        out.push_str(&format!("\\x{{{start:x}}}"));
        if members[k] > start {
            out.push_str(&format!("-\\x{{{:x}}}", members[k]));
        }
        k += 1;
    }
    out.push_str(&cats);
    if members.is_empty() && cats.is_empty() {
        // `regex` has no empty class: an impossible match (or any character, negated)
        return Some((if negate { "(?s:.)".into() } else { "[^\\x{0}-\\x{10ffff}]".into() }, used));
    }
    out.push_str("])");
    Some((out, used))
}

/// Python pattern syntax → `regex` syntax; `ignorecase`: the IGNORECASE flag was given, so
/// literal characters outside classes match as `sre` matches them ([`sre_literal_ignorecase`]).
/// Scoped flag groups (`(?i:...)`, `(?-i:...)`) switch that for their body, as `sre` compiles
/// each group with its own flags.
///
/// `dollar`: a `$` without MULTILINE in force becomes `\b{end-half}`, which the exact matcher
/// ([`super::sre`]) reads as Python's `$` (the end, or before a newline that ends the string);
/// otherwise it stays the `regex` crate's `$` (the end only).
///
/// `ascii` (the ASCII flag): `\\w`, `\\d`, `\\s` and `\\b` are ASCII's, and IGNORECASE literals are
/// left to the `regex` crate's folding (the caller refuses what differs from ASCII folding).
fn translate(p: &str, ignorecase: bool, multiline: bool, dollar: bool, ascii: bool) -> String {
    let ignorecase = ignorecase && !ascii;
    let mut out = String::with_capacity(p.len() + 8);
    let mut chars = p.chars().peekable();
    let mut in_class = false;
    // IGNORECASE and MULTILINE in force, and the state each open group restores at its `)`.
    let mut ignorecase = ignorecase;
    let mut multiline = multiline;
    let mut groups: Vec<(bool, bool)> = Vec::new();
    while let Some(c) = chars.next() {
        if c == '[' && !in_class && ignorecase {
            let rest: Vec<char> = chars.clone().collect();
            if let Some((class, used)) = sre_class_ignorecase(&rest) {
                out.push_str(&class);
                for _ in 0..used {
                    chars.next();
                }
                continue;
            }
        }
        if c == '[' && !in_class {
            in_class = true;
            out.push(c);
            if chars.peek() == Some(&'^') {
                out.push('^');
                chars.next();
            }
            // A `]` first in a class is literal in Python.
            if chars.peek() == Some(&']') {
                out.push_str("\\]");
                chars.next();
            }
        } else if c == ']' && in_class {
            in_class = false;
            out.push(c);
        } else if c == '(' && !in_class && chars.peek() == Some(&'?') {
            // A group's flags or name are no literals: copied up to the `:`, `)` or `>`.
            out.push(c);
            let mut head = String::new();
            while let Some(&n) = chars.peek() {
                if n.is_ascii_alphanumeric() || matches!(n, '?' | '-' | '_' | '<' | '=' | 'P') {
                    head.push(n);
                    chars.next();
                } else {
                    break;
                }
            }
            // `a` and `u` (ASCII, UNICODE) are no flags of the `regex` crate: the caller reads
            // them (a leading `(?a)`) or refuses them (a scoped one).
            let head: String = head.chars().filter(|c| !matches!(c, 'a' | 'u')).collect();
            if head == "?" && chars.peek() == Some(&')') {
                out.push_str("?:");
            } else {
                out.push_str(&head);
            }
            groups.push((ignorecase, multiline));
            if chars.peek() == Some(&':') {
                // `(?on-off:...)`: a scoped flag group.
                let flags = head.trim_start_matches('?');
                let (on, off) = flags.split_once('-').unwrap_or((flags, ""));
                if on.contains('i') {
                    ignorecase = true;
                } else if off.contains('i') {
                    ignorecase = false;
                }
                if on.contains('m') {
                    multiline = true;
                } else if off.contains('m') {
                    multiline = false;
                }
            }
        } else if c == '(' && !in_class {
            groups.push((ignorecase, multiline));
            out.push(c);
        } else if c == ')' && !in_class {
            if let Some(outer) = groups.pop() {
                (ignorecase, multiline) = outer;
            }
            out.push(c);
        } else if c == '$' && !in_class && dollar && !multiline {
            out.push_str("\\b{end-half}");
        } else if c == '\\' {
            match chars.next() {
                Some('Z') if !in_class => out.push_str("\\z"),
                // Backspace, as in CPython; `regex` has no `\b` in a class.
                Some('b') if in_class => out.push_str("\\x08"),
                // sre's categories, unaffected by IGNORECASE (it tests the category, not a
                // case-folded set); inside a class the ranges join it (a negated one as a
                // nested class).
                Some(k @ ('b' | 'B')) if ascii && !in_class => {
                    out.push_str(&format!("(?-u:\\{k})"))
                }
                Some(k @ ('w' | 'd' | 's')) => {
                    let class = if ascii { ascii_class(k) } else { sre_class(k) };
                    if in_class {
                        out.push_str(&class);
                    } else {
                        out.push_str(&format!("(?-i:[{class}])"));
                    }
                }
                Some(k @ ('W' | 'D' | 'S')) => {
                    let k = k.to_ascii_lowercase();
                    let class = if ascii { ascii_class(k) } else { sre_class(k) };
                    if in_class {
                        out.push_str(&format!("[^{class}]"));
                    } else {
                        out.push_str(&format!("(?-i:[^{class}])"));
                    }
                }
                // A character by number is a literal: folded as one under IGNORECASE (the
                // digits must not be read as literals themselves).
                Some(k @ ('x' | 'u' | 'U')) if !in_class => {
                    let want = match k {
                        'x' => 2,
                        'u' => 4,
                        _ => 8,
                    };
                    let digits: String = chars.clone().take(want).collect();
                    let code = (digits.len() == want
                        && digits.chars().all(|d| d.is_ascii_hexdigit()))
                    .then(|| u32::from_str_radix(&digits, 16).ok().and_then(char::from_u32))
                    .flatten();
                    match code {
                        Some(ch) => {
                            for _ in 0..want {
                                chars.next();
                            }
                            match sre_literal_ignorecase(ch).filter(|_| ignorecase) {
                                Some(class) => out.push_str(&class),
                                None => out.push_str(&format!("\\x{{{:x}}}", ch as u32)),
                            }
                        }
                        None => {
                            out.push('\\');
                            out.push(k);
                        }
                    }
                }
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else if ignorecase && !in_class {
            match sre_literal_ignorecase(c) {
                Some(class) => out.push_str(&class),
                None => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether the pattern's leading global flag groups (`(?i)`, `(?im)`...; 3.11 allows them only
/// at the start) set the flag `letter`.
fn leading_inline_flag(p: &str, letter: char) -> bool {
    let mut rest = p;
    while let Some(r) = rest.strip_prefix("(?") {
        let n = r.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(r.len());
        if n == 0 || !r[n..].starts_with(')') {
            return false;
        }
        if r[..n].contains(letter) {
            return true;
        }
        rest = &r[n + 1..];
    }
    false
}

/// Whether the pattern has a scoped group turning ASCII or UNICODE on or off (`(?a:...)`,
/// `(?-u:...)`), which the translation does not model.
fn scoped_ascii_group(p: &str) -> bool {
    p.match_indices("(?").any(|(i, _)| {
        let rest = &p[i + 2..];
        let n = rest.find(|c: char| !(c.is_ascii_alphabetic() || c == '-')).unwrap_or(rest.len());
        rest[n..].starts_with(':') && rest[..n].contains(['a', 'u'])
    })
}

/// The group sre closed last in the match (`Match.lastindex`: its `MARK` of a group's end sets
/// `lastindex`): the one ending furthest; of groups ending at the same place, one enclosing
/// another closes after it, otherwise the later one in the pattern.
fn last_closed(m: &ReMatch) -> Option<usize> {
    let parents = group_parents(m.pattern.search.as_str());
    let encloses = |outer: usize, mut inner: usize| {
        while let Some(Some(p)) = parents.get(inner) {
            if *p == outer {
                return true;
            }
            inner = *p;
        }
        false
    };
    let mut best: Option<(usize, usize)> = None;
    for (i, span) in m.spans.iter().enumerate().skip(1) {
        let Some((_, end)) = span else { continue };
        best = match best {
            None => Some((i, *end)),
            Some((b, bend)) => {
                let later = *end > bend || (*end == bend && (encloses(i, b) || !encloses(b, i)));
                Some(if later { (i, *end) } else { (b, bend) })
            }
        };
    }
    best.map(|(i, _)| i)
}

/// Each capture group's enclosing group (by index; `None` at the top level) in `pattern`.
fn group_parents(pattern: &str) -> Vec<Option<usize>> {
    use regex_syntax::hir::{Hir, HirKind};
    fn walk(h: &Hir, cur: Option<usize>, out: &mut Vec<Option<usize>>) {
        match h.kind() {
            HirKind::Capture(c) => {
                let i = c.index as usize;
                if out.len() <= i {
                    out.resize(i + 1, None);
                }
                out[i] = cur;
                walk(&c.sub, Some(i), out);
            }
            HirKind::Concat(v) | HirKind::Alternation(v) => {
                v.iter().for_each(|x| walk(x, cur, out))
            }
            HirKind::Repetition(r) => walk(&r.sub, cur, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let Ok(h) = regex_syntax::ParserBuilder::new().build().parse(pattern) {
        walk(&h, None, &mut out);
    }
    out
}

fn char_index(s: &str, byte: usize) -> i64 {
    s.get(..byte).map_or(0, |p| p.chars().count()) as i64
}

impl<'a> Interp<'a> {
    pub fn make_re_module(&mut self) -> Value<'a> {
        let mut entries: Vec<(&str, Value<'a>)> = Vec::new();
        for f in [
            "search",
            "match",
            "fullmatch",
            "findall",
            "finditer",
            "sub",
            "split",
            "compile",
            "escape",
        ] {
            let name: &'static str = match f {
                "search" => "re.search",
                "match" => "re.match",
                "fullmatch" => "re.fullmatch",
                "findall" => "re.findall",
                "finditer" => "re.finditer",
                "sub" => "re.sub",
                "split" => "re.split",
                "compile" => "re.compile",
                _ => "re.escape",
            };
            entries.push((f, Self::builtin_fn(name)));
        }
        for (n, v) in [
            ("I", IGNORECASE),
            ("IGNORECASE", IGNORECASE),
            ("M", MULTILINE),
            ("MULTILINE", MULTILINE),
            ("S", DOTALL),
            ("DOTALL", DOTALL),
            ("X", VERBOSE),
            ("VERBOSE", VERBOSE),
            ("A", ASCII),
            ("ASCII", ASCII),
            ("U", UNICODE),
            ("UNICODE", UNICODE),
            ("L", LOCALE),
            ("LOCALE", LOCALE),
            ("NOFLAG", 0),
        ] {
            entries.push((n, Value::Int(v)));
        }
        entries.push(("error", Value::Class(self.exc_class(ExcKind::ReError))));
        self.new_module("re", entries)
    }

    fn re_compile(&mut self, pat: &Value<'a>, flags: &Value<'a>) -> PyResult<'a, Rc<RePattern>> {
        if let Value::Native(n) = pat {
            if let Native::RePattern(p) = &**n {
                return Ok(p.clone());
            }
        }
        let Value::Str(src) = pat else {
            return Err(self.unsupported(format!("re pattern of type {}", self.type_name(pat))));
        };
        let flags = match flags {
            Value::Int(f) => *f,
            Value::None => 0,
            _ => return Err(self.unsupported("re flags of this type")),
        };
        if let Some(msg) = pattern_error(src) {
            return Err(self.err(ExcKind::ReError, msg));
        }
        if flags & LOCALE != 0 {
            return Err(self.err(ExcKind::ValueError, "cannot use LOCALE flag with a str pattern"));
        }
        let mut flags = flags;
        if leading_inline_flag(src, 'a') {
            flags |= ASCII;
        }
        if flags & ASCII != 0 && flags & UNICODE != 0 {
            return Err(self.err(ExcKind::ValueError, "ASCII and UNICODE flags are incompatible"));
        }
        let ascii = flags & ASCII != 0;
        if scoped_ascii_group(src) || (ascii && flags & IGNORECASE != 0 && !src.is_ascii()) {
            return Err(self.unsupported(format!(
                "regular expression {} with these ASCII flags",
                crate::interp::fmt::str_repr(src)
            )));
        }
        let mut prefix = String::new();
        for (bit, ch) in [(IGNORECASE, 'i'), (MULTILINE, 'm'), (DOTALL, 's'), (VERBOSE, 'x')] {
            if flags & bit != 0 {
                prefix.push(ch);
            }
        }
        let ignorecase = flags & IGNORECASE != 0 || leading_inline_flag(src, 'i');
        let multiline = flags & MULTILINE != 0 || leading_inline_flag(src, 'm');
        let body = translate(src, ignorecase, multiline, false, ascii);
        let marked = translate(src, ignorecase, multiline, true, ascii);
        let body = if prefix.is_empty() { body } else { format!("(?{prefix}){body}") };
        let build = |p: String| regex::RegexBuilder::new(&p).size_limit(1 << 22).build();
        let (Ok(search), Ok(anchored), Ok(full)) = (
            build(body.clone()),
            build(format!("\\A(?:{body})")),
            build(format!("\\A(?:{body})\\z")),
        ) else {
            return Err(self
                .unsupported(format!("regular expression {}", crate::interp::fmt::str_repr(src))));
        };
        let marked = if prefix.is_empty() { marked } else { format!("(?{prefix}){marked}") };
        let exact = super::sre::Program::new(&marked).filter(|prog| {
            prog.has_word_boundary() || prog.can_be_empty() || prog.has_python_dollar()
        });
        Ok(Rc::new(RePattern { source: src.clone(), flags, search, anchored, full, exact }))
    }

    /// The first match of `p` in `s`: anywhere (`search`), at the start (`match`) or of the
    /// whole string (`fullmatch`).
    fn re_find(&self, p: &RePattern, s: &str, name: &str) -> PyResult<'a, Option<Spans>> {
        self.ascii_fold_guard(p, s)?;
        if let Some(prog) = exact_for(p, s, false) {
            let (anchored, full) = (name != "search", name == "fullmatch");
            return prog.find(s, 0, anchored, full, false).map_err(|_| self.exact_gave_up(p));
        }
        let re = match name {
            "search" => &p.search,
            "match" => &p.anchored,
            _ => &p.full,
        };
        Ok(re.captures(s).map(|c| spans_of(&c)))
    }

    /// Every match of `p` in `s` as `findall` & co. find them, at most `limit` (0: all).
    fn re_find_all(&self, p: &RePattern, s: &str, limit: usize) -> PyResult<'a, Vec<Spans>> {
        self.ascii_fold_guard(p, s)?;
        if let Some(prog) = exact_for(p, s, true) {
            return prog.find_all(s, limit).map_err(|_| self.exact_gave_up(p));
        }
        let it = p.search.captures_iter(s).map(|c| spans_of(&c));
        Ok(if limit == 0 { it.collect() } else { it.take(limit).collect() })
    }

    /// ASCII with IGNORECASE is translated with the `regex` crate's Unicode folding, which equals
    /// sre's on strings without the two non-ASCII characters that fold to ASCII letters (KELVIN
    /// SIGN, LATIN SMALL LETTER LONG S): refused on the others.
    fn ascii_fold_guard(&self, p: &RePattern, s: &str) -> PyResult<'a, ()> {
        if p.flags & ASCII != 0 && p.flags & IGNORECASE != 0 && s.contains(['\u{212a}', '\u{17f}'])
        {
            return Err(self.unsupported(format!(
                "regular expression {} with ASCII and IGNORECASE on this string",
                crate::interp::fmt::str_repr(&p.source)
            )));
        }
        Ok(())
    }

    fn exact_gave_up(&self, p: &RePattern) -> Box<crate::interp::PyErr<'a>> {
        self.unsupported(format!(
            "regular expression {} on this string (past the exact matcher's limits)",
            crate::interp::fmt::str_repr(&p.source)
        ))
    }

    fn re_match_value(&self, p: &Rc<RePattern>, s: &Str, spans: Spans) -> Value<'a> {
        Value::Native(Rc::new(Native::ReMatch(ReMatch {
            pattern: p.clone(),
            string: s.clone(),
            spans,
        })))
    }

    fn str_arg(&self, v: &Value<'a>) -> PyResult<'a, Str> {
        match v {
            Value::Str(s) => Ok(s.clone()),
            other => Err(self.err(
                ExcKind::TypeError,
                format!("expected string or bytes-like object, got '{}'", self.type_name(other)),
            )),
        }
    }

    /// `re.<name>(...)` module functions.
    pub fn re_function(
        &mut self,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let sig = match name {
            "escape" => Sig::def("escape", &["pattern"], 1),
            "compile" => Sig::def("compile", &["pattern", "flags"], 1),
            "search" => Sig::def("search", &["pattern", "string", "flags"], 2),
            "match" => Sig::def("match", &["pattern", "string", "flags"], 2),
            "fullmatch" => Sig::def("fullmatch", &["pattern", "string", "flags"], 2),
            "findall" => Sig::def("findall", &["pattern", "string", "flags"], 2),
            "finditer" => Sig::def("finditer", &["pattern", "string", "flags"], 2),
            "sub" => Sig::def("sub", &["pattern", "repl", "string", "count", "flags"], 3),
            "split" => Sig::def("split", &["pattern", "string", "maxsplit", "flags"], 2),
            other => return Err(self.unsupported(format!("re.{other}"))),
        };
        let a = self.bind(&sig, args, kwargs)?;
        let get = |i: usize| a.or_none(i);
        match name {
            "escape" => {
                let s = self.str_arg(&get(0))?;
                let mut out = String::with_capacity(s.len() * 2);
                for c in s.chars() {
                    if "()[]{}?*+-|^$\\.&~# \t\n\r\x0b\x0c".contains(c) {
                        out.push('\\');
                    }
                    out.push(c);
                }
                Ok(Value::str(&out))
            }
            "compile" => {
                let p = self.re_compile(&get(0), &get(1))?;
                Ok(Value::Native(Rc::new(Native::RePattern(p))))
            }
            "search" | "match" | "fullmatch" | "findall" | "finditer" => {
                let p = self.re_compile(&get(0), &get(2))?;
                self.pattern_method(p, name, vec![get(1)], vec![])
            }
            "sub" => {
                let p = self.re_compile(&get(0), &get(4))?;
                self.pattern_method(p, name, vec![get(1), get(2), get(3)], vec![])
            }
            "split" => {
                let p = self.re_compile(&get(0), &get(3))?;
                self.pattern_method(p, name, vec![get(1), get(2)], vec![])
            }
            other => Err(self.unsupported(format!("re.{other}"))),
        }
    }

    /// Methods and attributes of Pattern and Match objects.
    pub fn re_method(
        &mut self,
        n: &Native<'a>,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        match n {
            Native::RePattern(p) => self.pattern_method(p.clone(), name, args, kwargs),
            Native::ReMatch(m) => self.match_method(m, name, args),
            _ => Err(self.unsupported(format!("method {name}"))),
        }
    }

    fn pattern_method(
        &mut self,
        p: Rc<RePattern>,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        const SEARCH: &[&str] = &["string", "pos", "endpos"];
        let sig = match name {
            "search" => Some(Sig::clinic("search", SEARCH, 1)),
            "match" => Some(Sig::clinic("match", SEARCH, 1)),
            "fullmatch" => Some(Sig::clinic("fullmatch", SEARCH, 1)),
            "findall" => Some(Sig::clinic("findall", SEARCH, 1)),
            "finditer" => Some(Sig::clinic("finditer", SEARCH, 1)),
            "sub" => Some(Sig::clinic("sub", &["repl", "string", "count"], 2)),
            "split" => Some(Sig::clinic("split", &["string", "maxsplit"], 1)),
            _ => None,
        };
        let a = match sig {
            Some(sig) => Some(self.bind(&sig, args, kwargs)?),
            None => None,
        };
        let get = |i: usize, _: &str| a.as_ref().map_or(Value::None, |a| a.or_none(i));
        if sig.is_some_and(|s| s.params == SEARCH)
            && (!get(1, "pos").is_none() || !get(2, "endpos").is_none())
        {
            return Err(self.unsupported(format!("re.Pattern.{name} with pos or endpos")));
        }
        let int_or = |v: Value<'a>, d: i64| match v {
            Value::Int(i) => i,
            _ => d,
        };
        match name {
            "search" | "match" | "fullmatch" => {
                let s = self.str_arg(&get(0, "string"))?;
                self.charge((s.len() / 16) as u64)?;
                Ok(match self.re_find(&p, &s, name)? {
                    Some(spans) => self.re_match_value(&p, &s, spans),
                    None => Value::None,
                })
            }
            "findall" | "finditer" => {
                let s = self.str_arg(&get(0, "string"))?;
                self.charge((s.len() / 16) as u64)?;
                let mut out = Vec::new();
                for c in self.re_find_all(&p, &s, 0)? {
                    self.step()?;
                    if name == "finditer" {
                        out.push(self.re_match_value(&p, &s, c));
                        continue;
                    }
                    let g = |i: usize| {
                        Value::str(c[i].map_or("", |(a, b)| s.get(a..b).unwrap_or_default()))
                    };
                    out.push(match c.len() {
                        1 => g(0),
                        2 => g(1),
                        n => Value::tuple((1..n).map(g).collect()),
                    });
                }
                self.check_len(out.len())?;
                if name == "finditer" {
                    Ok(Value::iter(PyIter::Owned { items: out.into_iter() }))
                } else {
                    Ok(self.new_list(out))
                }
            }
            "sub" => {
                let repl = get(0, "repl");
                let s = self.str_arg(&get(1, "string"))?;
                let count = int_or(get(2, "count"), 0);
                if count < 0 {
                    // sre's loop `while (!count || n < count)` never runs
                    return Ok(Value::Str(s));
                }
                self.charge((s.len() / 16) as u64)?;
                let mut out = String::with_capacity(s.len());
                let mut last = 0;
                for c in self.re_find_all(&p, &s, usize::try_from(count).unwrap_or(0))? {
                    self.step()?;
                    let Some((m0s, m0e)) = c[0] else { continue };
                    out.push_str(&s[last..m0s]);
                    match &repl {
                        Value::Str(t) => {
                            let r = self.expand_template(t, &p, &s, &c)?;
                            out.push_str(&r);
                        }
                        f => {
                            let mv = self.re_match_value(&p, &s, c);
                            let r = self.call(f, vec![mv], vec![])?;
                            out.push_str(&self.str_arg(&r)?);
                        }
                    }
                    last = m0e;
                    self.check_len(out.len())?;
                }
                out.push_str(&s[last..]);
                Ok(Value::str(&out))
            }
            "split" => {
                let s = self.str_arg(&get(0, "string"))?;
                let maxsplit = int_or(get(1, "maxsplit"), 0);
                if maxsplit < 0 {
                    return Ok(self.new_list(vec![Value::Str(s)]));
                }
                self.charge((s.len() / 16) as u64)?;
                let mut out = Vec::new();
                let mut last = 0;
                for c in self.re_find_all(&p, &s, usize::try_from(maxsplit).unwrap_or(0))? {
                    self.step()?;
                    let Some((m0s, m0e)) = c[0] else { continue };
                    out.push(Value::str(&s[last..m0s]));
                    for g in c.iter().skip(1) {
                        out.push(g.map_or(Value::None, |(a, b)| Value::str(&s[a..b])));
                    }
                    last = m0e;
                }
                out.push(Value::str(&s[last..]));
                self.check_len(out.len())?;
                Ok(self.new_list(out))
            }
            "pattern" => Ok(Value::Str(p.source.clone())),
            "flags" => {
                Ok(Value::Int(if p.flags & ASCII != 0 { p.flags } else { p.flags | UNICODE }))
            }
            "groups" => Ok(Value::Int(p.search.captures_len() as i64 - 1)),
            other => Err(self.unsupported(format!("re.Pattern.{other}"))),
        }
    }

    /// `\1`, `\g<name>`, `\g<1>` and character escapes of a `sub` replacement.
    fn expand_template(&self, t: &str, p: &RePattern, s: &str, c: &Spans) -> PyResult<'a, String> {
        let group = |i: usize| c.get(i).copied().flatten().map_or("", |(a, b)| &s[a..b]);
        let mut out = String::new();
        let mut chars = t.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch != '\\' {
                out.push(ch);
                continue;
            }
            match chars.next() {
                Some(d) if d.is_ascii_digit() => {
                    let mut num = d.to_string();
                    if let Some(&d2) = chars.peek() {
                        if d2.is_ascii_digit() {
                            num.push(d2);
                            chars.next();
                        }
                    }
                    let i: usize = num.parse().unwrap_or(0);
                    if i >= c.len() {
                        return Err(
                            self.err(ExcKind::ReError, format!("invalid group reference {i}"))
                        );
                    }
                    out.push_str(group(i));
                }
                Some('g') => {
                    let mut name = String::new();
                    if chars.next() != Some('<') {
                        return Err(self.err(ExcKind::ReError, "missing <"));
                    }
                    for x in chars.by_ref() {
                        if x == '>' {
                            break;
                        }
                        name.push(x);
                    }
                    let i = match name.parse::<usize>() {
                        Ok(i) => Some(i),
                        Err(_) => p.search.capture_names().position(|n| n == Some(&*name)),
                    };
                    out.push_str(i.map_or("", group));
                }
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('\\') => out.push('\\'),
                Some(x) if x.is_ascii_alphabetic() => {
                    return Err(self.err(ExcKind::ReError, format!("bad escape \\{x}")));
                }
                Some(x) => {
                    out.push('\\');
                    out.push(x);
                }
                None => out.push('\\'),
            }
        }
        Ok(out)
    }

    fn group_index(&self, m: &ReMatch, g: &Value<'a>) -> PyResult<'a, usize> {
        let idx = match g {
            Value::Int(i) if *i >= 0 => Some(*i as usize),
            Value::Bool(b) => Some(usize::from(*b)),
            Value::Str(n) => m.pattern.search.capture_names().position(|x| x == Some(&**n)),
            _ => None,
        };
        match idx {
            Some(i) if i < m.spans.len() => Ok(i),
            _ => Err(self.err(ExcKind::IndexError, "no such group")),
        }
    }

    fn group_value(m: &ReMatch, i: usize, default: &Value<'a>) -> Value<'a> {
        match m.spans.get(i).copied().flatten() {
            Some((a, b)) => Value::str(m.string.get(a..b).unwrap_or("")),
            None => default.clone(),
        }
    }

    fn match_method(
        &mut self,
        m: &ReMatch,
        name: &str,
        args: Vec<Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        match name {
            "group" => {
                if args.is_empty() {
                    return Ok(Self::group_value(m, 0, &Value::None));
                }
                let mut out = Vec::new();
                for a in &args {
                    let i = self.group_index(m, a)?;
                    out.push(Self::group_value(m, i, &Value::None));
                }
                Ok(if out.len() == 1 { out.swap_remove(0) } else { Value::tuple(out) })
            }
            "groups" => {
                let d = args.first().cloned().unwrap_or(Value::None);
                Ok(Value::tuple((1..m.spans.len()).map(|i| Self::group_value(m, i, &d)).collect()))
            }
            "groupdict" => {
                let d = args.first().cloned().unwrap_or(Value::None);
                let dict = self.new_dict();
                let names: Vec<(usize, String)> = m
                    .pattern
                    .search
                    .capture_names()
                    .enumerate()
                    .filter_map(|(i, n)| n.map(|n| (i, n.to_string())))
                    .collect();
                for (i, n) in names {
                    self.dict_set(&dict, Value::str(&n), Self::group_value(m, i, &d))?;
                }
                Ok(Value::Dict(dict))
            }
            "start" | "end" | "span" => {
                let i = match args.first() {
                    Some(g) => self.group_index(m, g)?,
                    None => 0,
                };
                let (a, b) = match m.spans.get(i).copied().flatten() {
                    Some((a, b)) => (char_index(&m.string, a), char_index(&m.string, b)),
                    None => (-1, -1),
                };
                Ok(match name {
                    "start" => Value::Int(a),
                    "end" => Value::Int(b),
                    _ => Value::tuple(vec![Value::Int(a), Value::Int(b)]),
                })
            }
            "string" => Ok(Value::Str(m.string.clone())),
            "re" => Ok(Value::Native(Rc::new(Native::RePattern(m.pattern.clone())))),
            "lastindex" => Ok(last_closed(m).map_or(Value::None, |i| Value::Int(i as i64))),
            "lastgroup" => Ok(last_closed(m)
                .and_then(|i| m.pattern.search.capture_names().nth(i).flatten())
                .map_or(Value::None, Value::str)),
            other => Err(self.unsupported(format!("re.Match.{other}"))),
        }
    }
}
