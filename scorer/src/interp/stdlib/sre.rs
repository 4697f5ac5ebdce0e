//! An exact matcher for what the `regex` crate answers differently from CPython 3.11's `sre`:
//! a backtracking interpreter of the translated pattern's HIR (`regex-syntax`, the parser the
//! `regex` crate itself uses) with `sre`'s semantics: leftmost-first alternation, greedy and
//! lazy repetition, `$` (the end, or before a final newline), `\b`/`\B` over Python's word set (`str.isalnum()` or `_`; none at all in an
//! empty string, as 3.11's `SRE_AT_NON_BOUNDARY`), and the iteration rule of `findall`, `sub`,
//! `split` and `finditer` (an empty match may follow a non-empty one at the same position).
//!
//! [`super::re`] uses it only when the answers can differ: a pattern with `\b`/`\B` on a
//! haystack holding a character the two word sets disagree on (combining marks, `²`, `‿`,
//! ZWJ, letters newer than Unicode 14), or an empty haystack. It is bounded: past
//! [`STEP_LIMIT`] steps or [`DEPTH_LIMIT`] nested frames it gives up (the caller reports an
//! `UnsupportedConstruct`, never a different answer).

use regex_syntax::hir::{Class, Hir, HirKind, Look};

/// Backtracking steps one search may take before giving up.
pub(crate) const STEP_LIMIT: u64 = 20_000_000;
/// Nested matcher frames one search may use before giving up (single-character repetitions
/// loop without nesting).
pub(crate) const DEPTH_LIMIT: u32 = 4_000;

/// Group spans (byte offsets) of one match, group 0 first.
pub(crate) type Spans = Vec<Option<(usize, usize)>>;

/// The matcher gave up (step or depth limit).
#[derive(Debug)]
pub(crate) struct GaveUp;

/// A pattern ready for the exact matcher.
pub(crate) struct Program {
    hir: Hir,
    groups: usize,
}

/// Python's word character for `str` patterns (`\w`, `\b`).
pub(crate) fn py_word(c: char) -> bool {
    c == '_' || crate::unicode::is_alnum(c)
}

/// Whether the `regex` crate's `\b` treats `c` as a word character differently from Python.
pub(crate) fn word_disagrees(c: char) -> bool {
    !c.is_ascii() && regex_syntax::is_word_character(c) != py_word(c)
}

impl Program {
    /// Parses the translated pattern (`regex` syntax, flags inline). `None` when it holds an
    /// assertion Python has no counterpart for (the translation never makes one).
    pub(crate) fn new(pattern: &str) -> Option<Program> {
        let hir = regex_syntax::ParserBuilder::new().build().parse(pattern).ok()?;
        let groups = hir.properties().explicit_captures_len() + 1;
        supported(&hir).then_some(Program { hir, groups })
    }

    /// Whether the pattern has a word-boundary assertion (`\b`, `\B`).
    pub(crate) fn has_word_boundary(&self) -> bool {
        let looks = self.hir.properties().look_set();
        looks.contains(Look::WordUnicode)
            || looks.contains(Look::WordUnicodeNegate)
            || looks.contains(Look::WordAscii)
            || looks.contains(Look::WordAsciiNegate)
    }

    /// Whether the pattern has a `$` without MULTILINE (translated as `\b{end-half}`).
    pub(crate) fn has_python_dollar(&self) -> bool {
        self.hir.properties().look_set().contains(Look::WordEndHalfUnicode)
    }

    /// Whether the pattern can match the empty string.
    pub(crate) fn can_be_empty(&self) -> bool {
        self.hir.properties().minimum_len() == Some(0)
    }

    /// The first match starting at `from` or later (`anchored`: at `from` only; `full`: ending
    /// at the end), not empty at `from` when `must_advance`.
    pub(crate) fn find(
        &self,
        hay: &str,
        from: usize,
        anchored: bool,
        full: bool,
        must_advance: bool,
    ) -> Result<Option<Spans>, GaveUp> {
        let mut m =
            Matcher { hay, caps: vec![None; self.groups * 2], steps: 0, depth: 0, gave_up: false };
        let mut start = from;
        loop {
            m.caps.iter_mut().for_each(|c| *c = None);
            let advance = must_advance && start == from;
            let mut done = |m: &mut Matcher<'_>, p: usize| {
                if (full && p != hay.len()) || (advance && p == start) {
                    return false;
                }
                m.caps[0] = Some(start);
                m.caps[1] = Some(p);
                true
            };
            if m.run(&self.hir, start, &mut done) {
                return Ok(Some(m.spans()));
            }
            if m.gave_up {
                return Err(GaveUp);
            }
            if anchored || start >= hay.len() {
                return Ok(None);
            }
            start += hay[start..].chars().next().map_or(1, char::len_utf8);
        }
    }

    /// Every match as `findall`/`finditer`/`sub`/`split` find them (at most `limit`, 0 for
    /// all): after an empty match the next may not be empty at the same position.
    pub(crate) fn find_all(&self, hay: &str, limit: usize) -> Result<Vec<Spans>, GaveUp> {
        let mut out = Vec::new();
        let mut pos = 0;
        let mut must_advance = false;
        while pos <= hay.len() && (limit == 0 || out.len() < limit) {
            let Some(spans) = self.find(hay, pos, false, false, must_advance)? else { break };
            let Some((s, e)) = spans[0] else { break };
            must_advance = s == e;
            pos = e;
            out.push(spans);
        }
        Ok(out)
    }
}

/// Whether every assertion in `h` is one the matcher knows.
fn supported(h: &Hir) -> bool {
    match h.kind() {
        HirKind::Look(l) => matches!(
            l,
            Look::Start
                | Look::End
                | Look::StartLF
                | Look::EndLF
                | Look::WordUnicode
                | Look::WordUnicodeNegate
                | Look::WordAscii
                | Look::WordAsciiNegate
                | Look::WordEndHalfUnicode
        ),
        HirKind::Repetition(r) => supported(&r.sub),
        HirKind::Capture(c) => supported(&c.sub),
        HirKind::Concat(v) | HirKind::Alternation(v) => v.iter().all(supported),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Class(_) => true,
    }
}

type Cont<'k, 'h> = &'k mut dyn FnMut(&mut Matcher<'h>, usize) -> bool;

struct Matcher<'h> {
    hay: &'h str,
    caps: Vec<Option<usize>>,
    steps: u64,
    depth: u32,
    gave_up: bool,
}

impl<'h> Matcher<'h> {
    fn spans(&self) -> Spans {
        self.caps
            .chunks(2)
            .map(|c| match (c[0], c[1]) {
                (Some(a), Some(b)) => Some((a, b)),
                _ => None,
            })
            .collect()
    }

    /// The character at `pos`, if any.
    fn char_at(&self, pos: usize) -> Option<char> {
        self.hay.get(pos..).and_then(|s| s.chars().next())
    }

    fn char_before(&self, pos: usize) -> Option<char> {
        self.hay.get(..pos).and_then(|s| s.chars().next_back())
    }

    /// The end of one character at `pos` that `h` (a class or a one-character literal)
    /// matches; `None` when `h` is not such a node, `Some(None)` when it does not match.
    fn one_char(&self, h: &Hir, pos: usize) -> Option<Option<usize>> {
        match h.kind() {
            HirKind::Class(cls) => {
                let c = self.char_at(pos);
                Some(c.filter(|&c| class_has(cls, c)).map(|c| pos + c.len_utf8()))
            }
            HirKind::Literal(lit)
                if std::str::from_utf8(&lit.0).is_ok_and(|s| s.chars().count() == 1) =>
            {
                Some(
                    self.hay
                        .as_bytes()
                        .get(pos..pos + lit.0.len())
                        .filter(|b| *b == &*lit.0)
                        .map(|_| pos + lit.0.len()),
                )
            }
            _ => None,
        }
    }

    fn look(&self, l: Look, pos: usize) -> bool {
        let len = self.hay.len();
        match l {
            Look::Start => pos == 0,
            Look::End => pos == len,
            Look::StartLF => pos == 0 || self.hay.as_bytes()[pos - 1] == b'\n',
            Look::EndLF => pos == len || self.hay.as_bytes()[pos] == b'\n',
            // Python's `$` without MULTILINE (see `re::translate`).
            Look::WordEndHalfUnicode => {
                pos == len || (pos + 1 == len && self.hay.as_bytes()[pos] == b'\n')
            }
            Look::WordUnicode
            | Look::WordUnicodeNegate
            | Look::WordAscii
            | Look::WordAsciiNegate => {
                // 3.11's `SRE_AT_BOUNDARY` & co.: nothing matches in an empty string.
                if len == 0 {
                    return false;
                }
                let word: fn(char) -> bool = match l {
                    Look::WordAscii | Look::WordAsciiNegate => {
                        |c| c == '_' || c.is_ascii_alphanumeric()
                    }
                    _ => py_word,
                };
                let before = self.char_before(pos).is_some_and(word);
                let after = self.char_at(pos).is_some_and(word);
                (before != after) == matches!(l, Look::WordUnicode | Look::WordAscii)
            }
            _ => false,
        }
    }

    /// Matches `h` at `pos`, then the continuation `k` at the end; true once `k` accepts.
    fn run(&mut self, h: &Hir, pos: usize, k: Cont<'_, 'h>) -> bool {
        self.steps += 1;
        if self.gave_up || self.steps > STEP_LIMIT || self.depth > DEPTH_LIMIT {
            self.gave_up = true;
            return false;
        }
        self.depth += 1;
        let r = self.run_inner(h, pos, k);
        self.depth -= 1;
        r
    }

    fn run_inner(&mut self, h: &Hir, pos: usize, k: Cont<'_, 'h>) -> bool {
        match h.kind() {
            HirKind::Empty => k(self, pos),
            HirKind::Literal(lit) => {
                let b = &*lit.0;
                if self.hay.as_bytes().get(pos..pos + b.len()) == Some(b) {
                    k(self, pos + b.len())
                } else {
                    false
                }
            }
            HirKind::Class(_) => match self.one_char(h, pos) {
                Some(Some(e)) => k(self, e),
                _ => false,
            },
            HirKind::Look(l) => self.look(*l, pos) && k(self, pos),
            HirKind::Capture(c) => {
                let i = c.index as usize * 2;
                let saved = (self.caps[i], self.caps[i + 1]);
                let ok = self.run(&c.sub, pos, &mut |m: &mut Matcher<'h>, e| {
                    let inner = (m.caps[i], m.caps[i + 1]);
                    m.caps[i] = Some(pos);
                    m.caps[i + 1] = Some(e);
                    if k(m, e) {
                        return true;
                    }
                    m.caps[i] = inner.0;
                    m.caps[i + 1] = inner.1;
                    false
                });
                if !ok {
                    self.caps[i] = saved.0;
                    self.caps[i + 1] = saved.1;
                }
                ok
            }
            HirKind::Concat(items) => self.concat(items, pos, k),
            HirKind::Alternation(alts) => {
                for a in alts {
                    if self.run(a, pos, k) {
                        return true;
                    }
                    if self.gave_up {
                        return false;
                    }
                }
                false
            }
            HirKind::Repetition(r) => {
                if self.one_char(&r.sub, pos).is_some() {
                    return self.repeat_chars(&r.sub, r.min, r.max, r.greedy, pos, k);
                }
                self.repeat(&r.sub, r.min, r.max, r.greedy, 0, pos, k)
            }
        }
    }

    fn concat(&mut self, items: &[Hir], pos: usize, k: Cont<'_, 'h>) -> bool {
        match items.split_first() {
            None => k(self, pos),
            Some((first, rest)) => {
                self.run(first, pos, &mut |m: &mut Matcher<'h>, p| m.concat(rest, p, &mut *k))
            }
        }
    }

    /// A repetition of a one-character node, without nesting: the run of matches is measured,
    /// then tried from the longest (greedy) or the shortest (lazy).
    #[allow(clippy::too_many_arguments)]
    fn repeat_chars(
        &mut self,
        sub: &Hir,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        pos: usize,
        k: Cont<'_, 'h>,
    ) -> bool {
        let mut ends = vec![pos];
        let cap = max.map_or(usize::MAX, |m| m as usize);
        let mut p = pos;
        if greedy {
            while ends.len() - 1 < cap {
                match self.one_char(sub, p) {
                    Some(Some(e)) => {
                        p = e;
                        ends.push(e);
                    }
                    _ => break,
                }
            }
            self.steps += ends.len() as u64;
            for n in (min as usize..ends.len()).rev() {
                if k(self, ends[n]) {
                    return true;
                }
                if self.gave_up {
                    return false;
                }
            }
            false
        } else {
            let mut n = 0usize;
            loop {
                if n >= min as usize {
                    if k(self, p) {
                        return true;
                    }
                    if self.gave_up {
                        return false;
                    }
                }
                if n >= cap {
                    return false;
                }
                match self.one_char(sub, p) {
                    Some(Some(e)) => {
                        p = e;
                        n += 1;
                        self.steps += 1;
                    }
                    _ => return false,
                }
            }
        }
    }

    /// A general repetition, `count` iterations done; an iteration past `min` that matches
    /// the empty string ends it (`sre`'s guard against empty loops).
    #[allow(clippy::too_many_arguments)]
    fn repeat(
        &mut self,
        sub: &Hir,
        min: u32,
        max: Option<u32>,
        greedy: bool,
        count: u32,
        pos: usize,
        k: Cont<'_, 'h>,
    ) -> bool {
        if count < min {
            return self.run(sub, pos, &mut |m: &mut Matcher<'h>, p| {
                m.repeat(sub, min, max, greedy, count + 1, p, &mut *k)
            });
        }
        let more = max.is_none_or(|mx| count < mx);
        let again = |m: &mut Matcher<'h>, k: Cont<'_, 'h>| {
            m.run(sub, pos, &mut |m: &mut Matcher<'h>, p| {
                p != pos && m.repeat(sub, min, max, greedy, count + 1, p, &mut *k)
            })
        };
        if greedy {
            if more && again(self, &mut *k) {
                return true;
            }
            !self.gave_up && k(self, pos)
        } else {
            if k(self, pos) {
                return true;
            }
            !self.gave_up && more && again(self, k)
        }
    }
}

fn class_has(cls: &Class, c: char) -> bool {
    match cls {
        Class::Unicode(u) => {
            let r = u.ranges();
            let i = r.partition_point(|x| x.end() < c);
            r.get(i).is_some_and(|x| x.start() <= c)
        }
        Class::Bytes(b) => {
            let Ok(byte) = u8::try_from(c as u32) else { return false };
            let r = b.ranges();
            let i = r.partition_point(|x| x.end() < byte);
            r.get(i).is_some_and(|x| x.start() <= byte) && c.is_ascii()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(p: &str, hay: &str) -> Vec<(usize, usize)> {
        let prog = Program::new(p).expect("pattern");
        prog.find_all(hay, 0).expect("bounded").iter().filter_map(|s| s[0]).collect()
    }

    #[test]
    fn matches_as_sre_does() {
        // Empty matches after a non-empty one, and `|a` taking `a` once `''` was found.
        assert_eq!(all("a*", "baaab"), [(0, 0), (1, 4), (4, 4), (5, 5)]);
        assert_eq!(all("|a", "a"), [(0, 0), (0, 1), (1, 1)]);
        // Python's word set: a combining mark and `²` are not word characters... and are.
        assert_eq!(all(r"\b", "x\u{301}y"), [(0, 0), (1, 1), (3, 3), (4, 4)]);
        assert_eq!(all(r"\b", "\u{b2}3"), [(0, 0), (3, 3)]);
        assert!(all(r"\B", "").is_empty());
        assert_eq!(all(r"(a|ab)(c|bcd)(d*)", "abcd"), [(0, 4)]);
        assert_eq!(all(r"a+?b", "aab"), [(0, 3)]);
        assert_eq!(all(r"(?:a|b)*c", "ababc"), [(0, 5)]);
    }

    /// The `regex` crate's `\b` word set is `regex_syntax::is_word_character` (what
    /// [`word_disagrees`] compares against): checked on every code point.
    #[test]
    fn regex_crate_word_boundary_is_regex_syntax_word() {
        let re = regex::Regex::new(r"\b").expect("regex");
        let mut s = String::new();
        for cp in 0..=0x10_ffffu32 {
            let Some(c) = char::from_u32(cp) else { continue };
            s.clear();
            s.push(c);
            assert_eq!(re.is_match(&s), regex_syntax::is_word_character(c), "U+{cp:04X}");
        }
    }
}
