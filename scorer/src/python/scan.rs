//! A cheap pre-scan of the source, CPython-tokenizer style, run before rustpython sees it.
//!
//! It enforces the limits CPython's tokenizer enforces (200 nested brackets, 100 indentation
//! levels) and bounds the expression depth, so deep input never reaches the recursive parts of
//! rustpython (a stack overflow aborts a wasm module). It also finds tokenizer errors whose CPython
//! message rustpython does not give (unterminated strings, unmatched brackets, a backslash in an
//! f-string expression).

use super::ErrorKind;

/// A problem found by the scan, at a byte offset of the source.
#[derive(Debug, Clone)]
pub(crate) struct ScanError {
    pub msg: String,
    pub offset: usize,
    /// For errors CPython reports at a line without a useful column (e.g. indentation).
    pub kind: ErrorKind,
    /// Fatal errors must be reported without parsing (too deep to parse safely); the others are
    /// reported only if the parser does not fail earlier.
    pub fatal: bool,
    /// Where the tokenizer meets the problem (for ordering against parser errors).
    pub at: usize,
}

/// What the scan learned.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// The first tokenizer-level error, if any (reported only when the parser fails too).
    pub error: Option<ScanError>,
    /// An error CPython raises even where rustpython parses fine (backslash or `#` in an
    /// f-string expression), or a fatal one.
    pub reject: Option<ScanError>,
    /// Indentation runs containing tabs (start, end): rustpython rejects a tab after spaces that
    /// CPython accepts, so consistent indentation is handed to it as spaces (same byte length).
    pub tab_indents: Vec<(usize, usize)>,
    /// The blanks of blank lines holding a tab: no indentation for CPython, but rustpython's
    /// lexer checks their tabs too (`" \t"` was a TabError), so they become spaces as well.
    pub blank_tabs: Vec<(usize, usize)>,
    /// The `\\` of line continuations among the blanks that start a line CPython's tokenizer
    /// finds blank (the continued lines are blank too): rustpython reads them as indentation,
    /// so it is handed blanks there.
    pub blank_continuations: Vec<usize>,
    /// The `\\` of line continuations at column 0 that start a line whose indentation goes on
    /// after them: CPython's column is that of its first continuation at a nonzero column, else
    /// the blanks after the last one (`cont_line_col`), rustpython's the blanks before the first
    /// one (0). Handed to rustpython as blanks (the lines blank), it reads the same column; the
    /// fast path declines such sources.
    pub split_indents: Vec<usize>,
    /// A tab or form feed in the indentation of a line that is not blank: rustpython's lexer
    /// does not read them as CPython's (a tab before a continuation sets the column to the
    /// tab's, 8-column stops, `altcol` too, which no same-length blanks give rustpython: a
    /// strictly deeper level takes one more byte), so the indentation is flattened
    /// ([`flatten_indents`]) and CPython's INDENT and DEDENT tokens, from `lines`, handed to
    /// rustpython's parser.
    pub remap_indents: bool,
    /// Each logical line's indentation (not blank, outside brackets), as CPython's tokenizer
    /// reads it: for `remap_indents`.
    pub lines: Vec<IndentLine>,
    /// Brackets open at the `stop` offset, innermost last: (bracket, offset).
    pub open: Vec<(u8, usize)>,
    /// `'(' was never closed`: reported when the parser fails at the end of the input.
    pub unclosed: Option<ScanError>,
    /// The deepest expression nesting met (depth-increasing tokens, or a run of prefix
    /// operators): what the parsers' recursion is bounded by.
    pub deepest: usize,
    /// Words holding non-ASCII bytes outside strings and comments (start, end): the candidates
    /// for identifiers with letters rustpython's tables lack.
    pub words: Vec<(usize, usize)>,
}

/// A logical line's indentation: the bytes before its first token (blanks and `\\`
/// continuations), and the depth of CPython's indentation stack after it (an INDENT token
/// when one deeper than the line before, DEDENT tokens when shallower).
#[derive(Debug, Clone, Copy)]
pub(crate) struct IndentLine {
    pub start: usize,
    pub token: usize,
    pub depth: usize,
}

/// Flattens each logical line's indentation for rustpython to none at all (same byte length:
/// the blanks before the first token end in a form feed, which rustpython's lexer reads as a
/// reset; the continuations among them become blanks, blank lines for rustpython), so its
/// lexer gives no INDENT or DEDENT token: `parse.rs` puts CPython's in from `lines`.
/// Inconsistent indentation is the scan's `reject`, reported at its line either way.
pub(crate) fn flatten_indents(bytes: &mut [u8], lines: &[IndentLine]) {
    for l in lines {
        let Some(region) = bytes.get_mut(l.start..l.token) else { continue };
        for c in region.iter_mut() {
            if matches!(*c, b'\t' | b'\\') {
                *c = b' ';
            }
        }
        if let Some(last) = region.last_mut().filter(|c| **c == b' ') {
            *last = b'\x0c';
        }
    }
}

/// CPython's MAXLEVEL.
const MAX_LEVEL: usize = 200;
/// CPython's MAXINDENT.
const MAX_INDENT: usize = 100;
/// Above this many depth-increasing tokens in one expression we refuse to parse: the tree would
/// be deeper than CPython accepts (RecursionError) and deep enough to threaten our stack.
pub(crate) const MAX_EXPR_TOKENS: usize = 8000;

/// Where a statement stands in CPython 3.11's PEG parser: the levels (of its 6000, MAXSTACK)
/// the rules above a deep expression take, measured with python3 3.11.7 by the first failing
/// length of `-` and `**` chains (one and two levels per operator): an assignment `x = E` at
/// module level is the reference (0: `-` fails from 5968 operators, `**` from 2984); an
/// expression statement -2, `return` -1, `assert` / `raise` -3, a block of `if`, `for`,
/// `while`, `with`, `try` +6 each, of `def` and `class` +7, of `else` / `finally` +7, of the
/// k-th `elif` (and an `else` after k `elif`s) +6+k, of `except` +8, of `match` + `case` +8,
/// a body on its header's line +3 (+4 after `def` / `class`), a statement after `;` +2.
/// Brackets around the chain add more: see [`Pos`].
#[derive(Default, Clone, Copy)]
struct Ctx {
    /// The statement's own levels (its first word, `;`, a body on the header's line).
    own: i32,
    /// A body on its header's line: the levels every statement of that line starts from.
    base: i32,
    /// The block levels its first word opens for the lines indented below it.
    opens: i32,
    /// An `=` at bracket depth 0 made it an assignment (`Some(annotated)`).
    assign: Option<bool>,
    /// It starts with a keyword (`return`, `if`...): no expression statement.
    keyword: bool,
    /// Its first word was `if`/`def`/... (a `:` at depth 0 ends the header).
    header: bool,
    /// A `:` seen at depth 0 in a statement that is no header (an annotation).
    colon: bool,
    /// No word of it seen yet (the next one is its first).
    fresh: bool,
    /// A `def` or `class` header.
    def: bool,
    /// `lambda`s at bracket depth 0 whose `:` is still to come.
    lambdas: u32,
    /// The `=` that made it an assignment was an augmented one (`+=`).
    aug: bool,
    /// A `del` statement: its targets' brackets are reached through `del_targets`.
    del: bool,
}

/// An expression position inside its bracket (or at the statement's level), for the parser
/// levels CPython 3.11 spends reaching a chain there, measured with python3 3.11.7 (first
/// failing lengths of `-` chains, `scorer/tests/suite/depth_differential.rs` compares them):
/// - a bracket costs, from the position it opens at, 28 levels for `(`, 29 for `[` and `{`, 24
///   for a call's `(` or a subscript's `[` (after a name, `)`, `]` or a string), plus the
///   prefix operators right before it (one per `-` / `not`, two per `**` / `lambda`);
/// - but 18 fewer when it leads the right side of an assignment (`x = (E)`, `x = f(E)`: the
///   parser first reaches the inside through the target rules), 19 fewer when it leads an
///   expression statement, and then 27 fewer for a bracket leading that `(`'s inside (`((E))`),
///   28 fewer for the `(` right after `with`;
/// - inside a bracket, an element after a comma takes 2 more levels in a tuple (3 from its
///   third element), 1 in a list, set or dict, 4 in a call, 3 in a subscript; a keyword
///   argument or a `*`/`**` argument 3 (4 after a comma); a `*` element of a tuple, list or set
///   6 fewer; after a comma at the statement's level 2;
/// - an operand after `and` / `or` +2, after a comparison operator +3 (flat: once however many),
///   after each conditional expression's `else` +1; arithmetic operators add nothing (the
///   parser's left recursion loops).
///
/// - in a `del` statement the first bracket at the statement's level costs 23 fewer (24 after
///   a comma); each `not` ahead of a comparison's left operand adds 1 after its operators.
#[derive(Default, Clone, Copy)]
struct Pos {
    /// Levels at the leading position inside this bracket (unused at the statement's level).
    base: i32,
    /// `(`, `[`, `{`, `c` (a call), `s` (a subscript), 0 (the statement's level).
    kind: u8,
    commas: u32,
    /// The element slot's levels (comma, keyword argument, unpacking).
    slot: i32,
    boolop: i32,
    cmp: i32,
    elses: i32,
    /// Only names and dots since the bracket (or the statement's expression) started.
    lead: bool,
    /// The `(` leading an expression statement.
    expr_lead: bool,
    /// A `for` whose `in` (no comparison) is still to come.
    pending_for: bool,
    /// Prefix operators before the primary being scanned (`-a[E]`): its brackets' too.
    prefix: i32,
    /// `not`s ahead of the current comparison's left operand (`not y < E`): one level each
    /// for the operands after its operators.
    nots: i32,
}

impl Pos {
    fn start() -> Self {
        Pos { lead: true, ..Pos::default() }
    }

    fn extras(&self) -> i32 {
        let nots = if self.cmp > 0 { self.nots } else { 0 };
        self.slot + self.boolop + self.cmp + self.elses + nots
    }

    fn new_operand(&mut self) {
        (self.boolop, self.cmp, self.elses, self.nots) = (0, 0, 0, 0);
        self.lead = false;
    }
}

/// Words that end a primary (no call or subscript can follow them) or are operators.
fn is_keyword(w: &[u8]) -> bool {
    matches!(
        w,
        b"and"
            | b"or"
            | b"not"
            | b"in"
            | b"is"
            | b"if"
            | b"else"
            | b"for"
            | b"lambda"
            | b"await"
            | b"yield"
            | b"return"
            | b"del"
            | b"assert"
            | b"raise"
            | b"import"
            | b"from"
            | b"while"
            | b"with"
            | b"async"
            | b"def"
            | b"class"
            | b"elif"
            | b"try"
            | b"except"
            | b"finally"
            | b"pass"
            | b"global"
            | b"nonlocal"
            | b"as"
    )
}

impl Ctx {
    fn new(base: i32, own: i32) -> Self {
        Ctx { own, base, fresh: true, ..Ctx::default() }
    }
}

/// Levels of the reference statement (`x = E` at module level) at which a chain fails: CPython
/// 3.11's parser raises MemoryError when its rule recursion passes MAXSTACK (6000, `p->level` in
/// Parser/parser.c), whatever the caller's depth; shorter chains fail, if at all, converting
/// the tree (RecursionError, decided by the interpreter from the caller's depth).
const PARSER_LEVELS: i32 = 5968;

struct Scanner<'a> {
    s: &'a [u8],
    i: usize,
    /// Open brackets: (byte, offset, depth counter of the enclosing level at the time).
    brackets: Vec<(u8, usize)>,
    /// Depth-increasing tokens per bracket level (index 0 = outside brackets).
    counts: Vec<usize>,
    indents: Vec<(usize, usize)>,
    /// Per indentation level: the parser levels CPython's PEG parser spends on the blocks around
    /// it, and the `elif`s of the `if` chain open at that level (see [`Ctx`]).
    blocks: Vec<(i32, i32)>,
    /// The statement being scanned, for the parser levels of a deep run inside it.
    stmt: Ctx,
    /// Consecutive prefix operators (`-`, `+`, `~`, `not`): CPython's parser recursion.
    unary_run: usize,
    /// A chain of `**` operators or `lambda`s with only names, numbers, dots and colons between
    /// them: each nests two levels of CPython's parser (see [`Ctx`]).
    double_run: usize,
    /// Inside an import statement: its dots separate a dotted name (a string), not attributes.
    in_import: bool,
    /// The position being scanned (innermost bracket), and those of the enclosing brackets.
    pos: Pos,
    outer: Vec<Pos>,
    /// The prefix operators' levels right before a bracket (see [`Pos`]).
    pre_bracket: i32,
    stop: usize,
    /// Whether the source holds a `\r` (the string fast path looks for `\n` only).
    has_cr: bool,
    out: Scan,
}

fn err(msg: impl Into<String>, offset: usize, kind: ErrorKind, fatal: bool) -> ScanError {
    ScanError { msg: msg.into(), offset, kind, fatal, at: offset }
}

pub(crate) fn scan(src: &str) -> Scan {
    scan_until(src, usize::MAX)
}

/// Scans up to byte `stop` (the brackets open there end up in `Scan::open`).
pub(crate) fn scan_until(src: &str, stop: usize) -> Scan {
    let mut sc = Scanner {
        s: src.as_bytes(),
        i: 0,
        brackets: Vec::new(),
        counts: vec![0],
        indents: vec![(0, 0)],
        blocks: vec![(0, 0)],
        stmt: Ctx::default(),
        unary_run: 0,
        double_run: 0,
        in_import: false,
        pos: Pos::start(),
        outer: Vec::new(),
        pre_bracket: 0,
        stop,
        has_cr: memchr::memchr(b'\r', src.as_bytes()).is_some(),
        out: Scan::default(),
    };
    if src.starts_with('\u{feff}') {
        let e = err("invalid non-printable character U+FEFF", 0, ErrorKind::SyntaxError, true);
        sc.out.reject = Some(e);
        return sc.out;
    }
    if let Some(p) = src.find('\0') {
        let e =
            err("source code string cannot contain null bytes", p, ErrorKind::SyntaxError, true);
        sc.out.reject = Some(e);
        return sc.out;
    }
    sc.run();
    sc.out.open = std::mem::take(&mut sc.brackets);
    if let Some(e) = sc.out.error.as_ref().filter(|e| e.fatal) {
        sc.out.reject = Some(e.clone());
    }
    sc.out
}

/// Per byte: bit 0 a name may start with it, bit 1 a name may hold it (ASCII letters, `_`, every
/// non-ASCII byte; digits only inside). A table because names are most of a source's bytes.
const NAME_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphabetic() || b == b'_' || b >= 0x80 {
            t[c] = 3;
        } else if b.is_ascii_digit() {
            t[c] = 2;
        }
        c += 1;
    }
    t
};

/// [`TOKEN_BYTES`]: a name may start with the byte.
const STARTS_NAME: u8 = 1;
/// [`TOKEN_BYTES`]: `(`, `[`, `{`.
const OPENS: u8 = 2;
/// [`TOKEN_BYTES`]: a name byte, a blank, `.`, a backslash, `#` (the statement's lead goes on).
const KEEPS_LEAD: u8 = 4;
/// [`TOKEN_BYTES`]: `-`, `+`, `~`, a blank, `n` (a run of unary operators goes on).
const KEEPS_UNARY: u8 = 8;
/// [`TOKEN_BYTES`]: a name byte, a blank, `*`, `:`, `.` (a run of `**` goes on).
const KEEPS_DOUBLE: u8 = 16;

/// Per byte, how the bookkeeping at the start of each token in `Scanner::run` treats it: one
/// table lookup instead of four chains of comparisons per token.
const TOKEN_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        let name = NAME_BYTES[c] & 2 != 0;
        let blank = b == b' ' || b == b'\t';
        let mut f = 0;
        if NAME_BYTES[c] & 1 != 0 {
            f |= STARTS_NAME;
        }
        if b == b'(' || b == b'[' || b == b'{' {
            f |= OPENS;
        }
        if name || blank || b == b'.' || b == b'\\' || b == b'#' {
            f |= KEEPS_LEAD;
        }
        if b == b'-' || b == b'+' || b == b'~' || blank || b == b'n' {
            f |= KEEPS_UNARY;
        }
        if name || blank || b == b'*' || b == b':' || b == b'.' {
            f |= KEEPS_DOUBLE;
        }
        t[c] = f;
        c += 1;
    }
    t
};

#[inline]
fn is_ident_start(c: u8) -> bool {
    NAME_BYTES[c as usize] & 1 != 0
}

/// Whether a name can hold byte `c` (ASCII letters and digits, `_`, every non-ASCII byte).
#[inline]
pub(super) fn is_ident_char(c: u8) -> bool {
    NAME_BYTES[c as usize] & 2 != 0
}

impl Scanner<'_> {
    fn set_error(&mut self, e: ScanError) {
        if self.out.error.is_none() {
            self.out.error = Some(e);
        }
    }

    fn bump_depth(&mut self) -> bool {
        if let Some(c) = self.counts.last_mut() {
            *c += 1;
        }
        let total: usize = self.counts.iter().sum::<usize>() + self.counts.len();
        self.out.deepest = self.out.deepest.max(total);
        if total > MAX_EXPR_TOKENS {
            self.set_error(err(
                "maximum recursion depth exceeded during ast construction",
                self.i,
                ErrorKind::RecursionError,
                true,
            ));
            return false;
        }
        true
    }

    /// The parser levels around a chain starting here (see [`Ctx`]).
    fn chain_levels(&self) -> i32 {
        if !self.outer.is_empty() {
            return self.pos.base + self.pos.extras();
        }
        let form = match self.stmt.assign {
            Some(annotated) => i32::from(annotated),
            None if self.stmt.keyword => 0,
            None => -2,
        };
        self.blocks.last().map_or(0, |b| b.0) + self.stmt.own + form + self.pos.extras()
    }

    /// The last byte before `at` that is not blank (and the word it ends, if any).
    fn prev_token(&self, at: usize) -> (Option<u8>, &[u8]) {
        let before = &self.s[..at];
        let Some(end) = before.iter().rposition(|&c| !matches!(c, b' ' | b'\t' | b'\x0c')) else {
            return (None, &[]);
        };
        let b = before[end];
        if !is_ident_char(b) {
            return (Some(b), &[]);
        }
        let start = before[..=end].iter().rposition(|&c| !is_ident_char(c)).map_or(0, |p| p + 1);
        (Some(b), &before[start..=end])
    }

    /// A bracket opens at `self.i` (not yet pushed): the levels at its leading position (see
    /// [`Pos`]); false after a MemoryError.
    fn open_levels(&mut self, c: u8) -> bool {
        let (prev, word) = self.prev_token(self.i);
        let primary = match prev {
            Some(b')' | b']' | b'}' | b'\'' | b'"') => true,
            Some(b) if is_ident_char(b) => !is_keyword(word),
            _ => false,
        };
        let kind = match (c, primary) {
            (b'(', true) => b'c',
            (b'[', true) => b's',
            (c, _) => c,
        };
        let cost = match kind {
            b'(' => 28,
            b'c' | b's' => 24,
            _ => 29,
        };
        let lead = self.pos.lead;
        let discount = match self.outer.len() {
            0 if lead && self.stmt.assign == Some(false) && !self.stmt.aug => 18,
            0 if lead && self.stmt.assign.is_none() && !self.stmt.keyword => 19,
            0 if kind == b'(' && word == b"with" => 28,
            // `del_targets` reaches a target's first bracket 23 levels sooner (24 after a
            // comma, whose slot costs one level there).
            0 if self.stmt.del => 23 + i32::from(self.pos.commas > 0),
            1 if lead && self.pos.expr_lead => 27,
            _ => 0,
        };
        let prefix = if primary { self.pos.prefix } else { 0 };
        let base = self.chain_levels() + self.pre_bracket + prefix + cost - discount;
        let expr_lead = discount == 19 && kind == b'(';
        self.outer.push(self.pos);
        self.pos = Pos { base, kind, expr_lead, ..Pos::start() };
        if base >= PARSER_LEVELS {
            self.set_error(err("", self.i, ErrorKind::MemoryError, true));
            return false;
        }
        true
    }

    /// A comma at the current bracket's level: the next element's slot.
    fn comma_levels(&mut self) {
        let p = &mut self.pos;
        p.commas += 1;
        p.slot = match p.kind {
            0 => 2,
            b'(' if p.commas == 1 => 2,
            b'(' => 3,
            b'[' | b'{' => 1,
            b'c' => 4,
            _ => 3,
        };
        p.new_operand();
    }

    /// A keyword argument's `=` or an unpacking `*` / `**` (`c` `=` or `*`) in the current bracket.
    fn argument_levels(&mut self, c: u8) {
        let p = &mut self.pos;
        if p.kind == b'c' {
            p.slot = p.slot.max(3);
        } else if c == b'*' && matches!(p.kind, b'(' | b'[' | b'{') {
            p.slot -= 6;
        }
        p.new_operand();
    }

    /// The first word of a statement: its own levels and those of the block it opens.
    fn first_word(&mut self, word: &[u8], end: usize) {
        let elifs = self.blocks.last().map_or(0, |b| b.1);
        let (own, opens, elif) = match word {
            b"return" => (-1, 0, 0),
            b"assert" | b"raise" => (-3, 0, 0),
            b"del" => {
                self.stmt.del = true;
                (3, 0, 0)
            }
            b"yield" => (0, 0, 0),
            b"if" | b"while" => (-3, 6, 0),
            b"elif" => (-3, 7 + elifs, elifs + 1),
            b"else" => (0, 7 + elifs, elifs),
            b"for" | b"with" => (-2, 6, 0),
            b"try" => (0, 6, 0),
            b"finally" => (0, 7, 0),
            b"except" => (0, 8, 0),
            b"def" | b"class" => (0, 7, 0),
            b"async" if self.s[end..].trim_ascii_start().starts_with(b"def") => (0, 7, 0),
            b"async" => (-2, 6, 0),
            b"match" | b"case" => (0, 4, 0),
            _ => return,
        };
        self.stmt.own += own;
        self.stmt.opens = opens;
        self.stmt.keyword = true;
        self.stmt.header = opens > 0;
        self.stmt.def = matches!(word, b"def" | b"class") || opens == 7 && word == b"async";
        if let Some(b) = self.blocks.last_mut() {
            b.1 = elif;
        }
    }

    /// A `:` at bracket depth 0: the end of a header (a body may follow on the same line) or an
    /// annotation.
    fn colon_at_depth0(&mut self) {
        if self.stmt.lambdas > 0 {
            self.stmt.lambdas -= 1;
            return;
        }
        if !self.stmt.header {
            self.stmt.colon = true;
            return;
        }
        let rest = &self.s[self.i + 1..];
        let line = &rest[..memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len())];
        let line = line.trim_ascii();
        if !line.is_empty() && !line.starts_with(b"#") {
            let base = self.stmt.base + if self.stmt.def { 4 } else { 3 };
            self.stmt = Ctx::new(base, base);
            self.pos = Pos::start();
        }
    }

    fn unary(&mut self) -> bool {
        self.unary_run += 1;
        self.out.deepest = self.out.deepest.max(self.unary_run);
        if self.unary_run as i32 + self.chain_levels() >= PARSER_LEVELS {
            self.set_error(err("", self.i, ErrorKind::MemoryError, true));
            return false;
        }
        true
    }

    /// A comparison operator: the operands after it sit 3 levels deeper, plus one per `not`
    /// ahead of its left operand; a `not` run that deep fails there (`not not ... a < b`).
    fn comparison(&mut self) -> bool {
        self.pos.cmp = 3;
        if self.pos.nots > 0 && self.chain_levels() >= PARSER_LEVELS {
            self.set_error(err("", self.i, ErrorKind::MemoryError, true));
            return false;
        }
        true
    }

    fn double(&mut self) -> bool {
        self.double_run += 1;
        if 2 * self.double_run as i32 + self.chain_levels() >= PARSER_LEVELS {
            self.set_error(err("", self.i, ErrorKind::MemoryError, true));
            return false;
        }
        true
    }

    /// Whether only blanks stand between the start of the line (or a `;`) and `at`.
    fn stmt_starts_at(&self, at: usize) -> bool {
        let before = &self.s[..at];
        match before.iter().rposition(|&c| c != b' ' && c != b'\t' && c != b'\x0c') {
            None => true,
            Some(p) => matches!(before[p], b'\n' | b'\r' | b';'),
        }
    }

    fn reset_level(&mut self) {
        if let Some(c) = self.counts.last_mut() {
            *c = 0;
        }
    }

    /// CPython's indentation logic at the start of a logical line: `col` counts tabs to multiples
    /// of 8, `altcol` counts them as 1; the two must agree on every comparison (else TabError).
    fn at_line_start(&mut self) -> bool {
        let start = self.i;
        let mut col = 0usize;
        let mut altcol = 0usize;
        let mut has_tab = false;
        // `\` + line break among the leading blanks: CPython's tokenizer reads on into the next
        // line; the line is blank when what follows is (not when the input ends there: E_EOF).
        let mut conts: Vec<usize> = Vec::new();
        // The column at each of them, and whether a form feed came among the blanks.
        let mut cont_cols: Vec<usize> = Vec::new();
        let mut odd_blanks = false;
        // Spaces, most of an indentation, in one run (the loop below counts each the same way).
        let spaces =
            self.s.get(self.i..).map_or(0, |r| r.iter().take_while(|&&b| b == b' ').count());
        col += spaces;
        altcol += spaces;
        self.i += spaces;
        while self.i < self.s.len() {
            if self.s[self.i] == b'\\' {
                let nl = match self.s.get(self.i + 1..self.i + 3) {
                    Some(b"\r\n") => 2,
                    _ if matches!(self.s.get(self.i + 1), Some(b'\n' | b'\r')) => 1,
                    _ if self.i + 1 < self.s.len() => {
                        // Before the indentation is checked (CPython's column: the character
                        // after it).
                        let msg = "unexpected character after line continuation character";
                        let e = err(msg, self.i + 1, ErrorKind::SyntaxError, false);
                        self.set_error(ScanError { at: self.i, ..e });
                        break;
                    }
                    _ => break,
                };
                if self.i + 1 + nl >= self.s.len() {
                    break;
                }
                conts.push(self.i);
                cont_cols.push(col);
                self.i += 1 + nl;
                continue;
            }
            match self.s[self.i] {
                b' ' => {
                    col += 1;
                    altcol += 1;
                }
                b'\t' => {
                    col = (col / 8 + 1) * 8;
                    altcol += 1;
                    has_tab = true;
                }
                b'\x0c' => {
                    col = 0;
                    altcol = 0;
                    odd_blanks = true;
                }
                _ => break,
            }
            self.i += 1;
        }
        // The first token (after any continuations): where CPython's indentation errors point.
        let token_at = self.i;
        if !conts.is_empty() {
            // (a `\\` left is the input's end, or a line continuation error, either way after
            // a blank line)
            if matches!(self.s.get(self.i), None | Some(b'#' | b'\n' | b'\r' | b'\\')) {
                self.out.blank_continuations.extend(conts);
            } else {
                // Indentation split by continuations: CPython's column (`cont_line_col`) is the
                // first nonzero one at a continuation, else the blanks after the last; the
                // token follows them. Continuations at column 0 before that become blanks for
                // rustpython, which reads the column before the first continuation (with a
                // tab or form feed among the blanks, `remap_indents` decides instead).
                let k = cont_cols.iter().position(|&c| c > 0);
                self.out.split_indents.extend(&conts[..k.unwrap_or(conts.len())]);
                if let Some(k) = k {
                    col = cont_cols[k];
                    altcol = col;
                }
            }
        }
        let blank = matches!(self.s.get(self.i), None | Some(b'#' | b'\n' | b'\r' | b'\\'));
        if has_tab && blank {
            self.out.blank_tabs.push((start, self.i));
        } else if has_tab {
            self.out.tab_indents.push((start, self.i));
        }
        if blank {
            return true; // blank line: no indentation token
        }
        if has_tab || odd_blanks {
            // (tabs count 8 columns for CPython, form feeds reset them: rustpython's lexer is
            // handed CPython's INDENT and DEDENT tokens instead)
            self.out.remap_indents = true;
        }
        let at = self.i;
        // (CPython's line: that of the token, after any continuations)
        let token_line = match self.s[start..at].iter().rposition(|&c| c == b'\n' || c == b'\r') {
            Some(p) => start + p + 1,
            None => start,
        };
        let tab_error = || ScanError {
            at: start,
            ..err(
                "inconsistent use of tabs and spaces in indentation",
                token_line,
                ErrorKind::TabError,
                false,
            )
        };
        let (top, alttop) = self.indents.last().copied().unwrap_or((0, 0));
        if col == top {
            if altcol != alttop {
                self.set_reject(tab_error());
            }
        } else if col > top {
            if self.indents.len() >= MAX_INDENT {
                self.set_error(err(
                    "too many levels of indentation",
                    start,
                    ErrorKind::IndentationError,
                    true,
                ));
                return false;
            }
            if altcol <= alttop {
                self.set_reject(tab_error());
            }
            self.indents.push((col, altcol));
            let outer = self.blocks.last().map_or(0, |b| b.0);
            self.blocks.push((outer + self.stmt.opens, 0));
        } else {
            while self.indents.len() > 1 && self.indents.last().is_some_and(|&(t, _)| col < t) {
                self.indents.pop();
                self.blocks.pop();
            }
            let (top, alttop) = self.indents.last().copied().unwrap_or((0, 0));
            if col != top {
                let e = err(
                    "unindent does not match any outer indentation level",
                    token_at.max(at),
                    ErrorKind::IndentationError,
                    false,
                );
                self.set_reject(ScanError { at: start, ..e });
            } else if altcol != alttop {
                self.set_reject(tab_error());
            }
        }
        let depth = self.indents.len().saturating_sub(1);
        self.out.lines.push(IndentLine { start, token: at, depth });
        true
    }

    /// Is the `\\` at `self.i` a line continuation into a line of blanks (and a comment), not
    /// the last thing in the input?
    fn continues_into_blank_line(&self) -> bool {
        let s = self.s;
        let nl = match s.get(self.i + 1..self.i + 3) {
            Some(b"\r\n") => 2,
            _ if matches!(s.get(self.i + 1), Some(b'\n' | b'\r')) => 1,
            _ => return false,
        };
        let mut j = self.i + 1 + nl;
        if j >= s.len() {
            return false;
        }
        while matches!(s.get(j), Some(b' ' | b'\t' | b'\x0c')) {
            j += 1;
        }
        matches!(s.get(j), None | Some(b'#' | b'\n' | b'\r'))
    }

    /// CPython's tokenizer checks a name holding non-ASCII bytes (`verify_identifier`): the
    /// first character that cannot start (continue) it is a tokenizer error, at that character.
    fn invalid_character(&mut self, start: usize) {
        let Some(word) = self.s.get(start..self.i).and_then(|w| std::str::from_utf8(w).ok()) else {
            return;
        };
        let bad = word.char_indices().find(|&(k, c)| {
            if k == 0 {
                !(c == '_' || crate::unicode::is_xid_start(c))
            } else {
                !crate::unicode::is_xid_continue(c)
            }
        });
        if let Some((k, c)) = bad {
            let msg = super::validate::invalid_character(c);
            self.set_error(ScanError {
                at: start,
                ..err(msg, start + k, ErrorKind::SyntaxError, false)
            });
        }
    }

    fn set_reject(&mut self, e: ScanError) {
        if self.out.reject.is_none() {
            self.out.reject = Some(e);
        }
    }

    fn run(&mut self) {
        let mut line_start = true;
        while self.i < self.s.len() && self.i < self.stop {
            if self.out.error.as_ref().is_some_and(|e| e.fatal) {
                return;
            }
            let c0 = self.s[self.i];
            let t = TOKEN_BYTES[c0 as usize];
            if t & STARTS_NAME != 0 {
                self.pos.prefix = self.unary_run as i32;
            }
            if t & OPENS != 0 {
                self.pre_bracket = self.unary_run as i32 + 2 * self.double_run as i32;
            } else if t & KEEPS_LEAD == 0 {
                self.pos.lead = false;
                self.pos.prefix = 0;
            }
            if t & KEEPS_UNARY == 0 {
                self.unary_run = 0;
            }
            if t & KEEPS_DOUBLE == 0 {
                self.double_run = 0;
            }
            if line_start && self.brackets.is_empty() {
                line_start = false;
                if !self.at_line_start() {
                    return;
                }
                self.stmt = Ctx::new(0, 0);
                self.pos = Pos::start();
                continue;
            }
            let c = self.s[self.i];
            match c {
                b' ' | b'\t' => {
                    // Blanks inside a line change nothing above (no state moves on them): the
                    // whole run at once.
                    self.i += 1;
                    while matches!(self.s.get(self.i), Some(b' ' | b'\t')) {
                        self.i += 1;
                    }
                }
                b'#' => {
                    let rest = &self.s[self.i..];
                    self.i += memchr::memchr2(b'\n', b'\r', rest).unwrap_or(rest.len());
                }
                b'\n' | b'\r' => {
                    self.i += 1;
                    if c == b'\r' && self.s.get(self.i) == Some(&b'\n') {
                        self.i += 1;
                    }
                    if self.brackets.is_empty() {
                        line_start = true;
                        self.in_import = false;
                        self.reset_level();
                    }
                }
                b'\\' => {
                    if self.brackets.is_empty() && self.continues_into_blank_line() {
                        // The logical line ends on the blank line it joins: the same tokens as
                        // with a blank in its place (rustpython reads the next line otherwise).
                        self.out.blank_continuations.push(self.i);
                    }
                    self.i += 1;
                    match self.s.get(self.i) {
                        Some(b'\n') => self.i += 1,
                        Some(b'\r') => {
                            self.i += 1;
                            if self.s.get(self.i) == Some(&b'\n') {
                                self.i += 1;
                            }
                        }
                        _ => {}
                    }
                }
                b'\'' | b'"' => {
                    if !self.string(self.i, self.i, false) {
                        return;
                    }
                }
                b'(' | b'[' | b'{' => {
                    if self.brackets.len() >= MAX_LEVEL {
                        self.set_error(err(
                            "too many nested parentheses",
                            self.i,
                            ErrorKind::SyntaxError,
                            true,
                        ));
                        return;
                    }
                    if !self.bump_depth() || !self.open_levels(c) {
                        return;
                    }
                    self.brackets.push((c, self.i));
                    self.counts.push(0);
                    self.i += 1;
                }
                b')' | b']' | b'}' => {
                    let want = match c {
                        b')' => b'(',
                        b']' => b'[',
                        _ => b'{',
                    };
                    match self.brackets.pop() {
                        None => {
                            self.set_error(err(
                                format!("unmatched '{}'", c as char),
                                self.i,
                                ErrorKind::SyntaxError,
                                false,
                            ));
                        }
                        Some((open, at)) if open != want => {
                            let msg = if self.line_of(at) == self.line_of(self.i) {
                                format!(
                                    "closing parenthesis '{}' does not match opening parenthesis '{}'",
                                    c as char, open as char
                                )
                            } else {
                                format!(
                                    "closing parenthesis '{}' does not match opening parenthesis '{}' on line {}",
                                    c as char,
                                    open as char,
                                    self.line_of(at)
                                )
                            };
                            self.set_error(err(msg, self.i, ErrorKind::SyntaxError, false));
                        }
                        Some(_) => {}
                    }
                    if self.counts.len() > 1 {
                        self.counts.pop();
                    }
                    if let Some(p) = self.outer.pop() {
                        self.pos = Pos { lead: false, prefix: 0, ..p };
                    }
                    self.i += 1;
                }
                b',' | b';' | b'=' => {
                    if c == b';' {
                        self.in_import = false;
                        if self.brackets.is_empty() {
                            self.stmt = Ctx::new(self.stmt.base, self.stmt.base + 2);
                            self.pos = Pos::start();
                        }
                    }
                    if c == b',' {
                        self.comma_levels();
                    }
                    let prev = self.s.get(self.i.wrapping_sub(1)).copied();
                    let lone = c == b'='
                        && self.s.get(self.i + 1) != Some(&b'=')
                        && !matches!(prev, Some(b'=' | b'!' | b'<' | b'>'));
                    if c == b'='
                        && !lone
                        && prev != Some(b'=')
                        && !matches!(prev, Some(b'<' | b'>'))
                    {
                        // `==`, `!=` (`<=`, `>=` counted at their `<` / `>`).
                        if !self.comparison() {
                            return;
                        }
                    }
                    if lone && self.brackets.is_empty() {
                        self.stmt.assign = Some(self.stmt.colon);
                        self.stmt.aug = matches!(
                            prev,
                            Some(b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^')
                        );
                        self.pos = Pos { lead: !self.stmt.aug, ..Pos::default() };
                    } else if lone {
                        self.argument_levels(b'=');
                    }
                    // `==` is an operator, not a separator, but counting it as one only lowers
                    // the estimate of a chain that CPython keeps flat anyway (Compare).
                    self.reset_level();
                    self.i += 1;
                }
                b'.' => {
                    if self.s.get(self.i + 1).is_some_and(u8::is_ascii_digit) {
                        self.number();
                    } else {
                        // `import a.b.c` / `from ..a.b import c`: a flat name, not attributes.
                        if !self.in_import && !self.bump_depth() {
                            return;
                        }
                        self.i += 1;
                    }
                }
                b'+' | b'-' | b'~' => {
                    if self.s.get(self.i + 1) == Some(&b'>') {
                        self.i += 2; // `->`
                        continue;
                    }
                    // After an operand, `+` / `-` is a binary operator: no parser level.
                    let binary = match self.prev_token(self.i) {
                        (Some(b')' | b']' | b'}' | b'\'' | b'"'), _) => true,
                        (Some(b), w) if is_ident_char(b) => !is_keyword(w),
                        _ => false,
                    };
                    if binary && c != b'~' {
                        self.unary_run = 0;
                        if !self.bump_depth() {
                            return;
                        }
                    } else if !self.unary() || !self.bump_depth() {
                        return;
                    }
                    self.i += 1;
                }
                b'*' | b'/' | b'%' | b'@' | b'&' | b'|' | b'^' | b'<' | b'>' => {
                    let doubled = self.s.get(self.i + 1) == Some(&c);
                    // A comparison (`<`, `>`, `<=`, `>=`) continues one flat `Compare`; the other
                    // operators nest a tree level.
                    if (doubled || !matches!(c, b'<' | b'>')) && !self.bump_depth() {
                        return;
                    }
                    if matches!(c, b'<' | b'>') && !doubled && !self.comparison() {
                        return;
                    }
                    if c == b'*'
                        && matches!(self.prev_token(self.i).0, Some(b'(' | b'[' | b'{' | b','))
                    {
                        self.argument_levels(b'*');
                    }
                    if c == b'*' && doubled && !self.double() {
                        return;
                    }
                    self.i += 1;
                    // `**`, `//`, `<<`, `>>`, `->` are one operator (one tree level at most).
                    if doubled {
                        self.i += 1;
                    }
                }
                b'0'..=b'9' => self.number(),
                c if is_ident_start(c) => {
                    let start = self.i;
                    while self.i < self.s.len() && is_ident_char(self.s[self.i]) {
                        self.i += 1;
                    }
                    let src = self.s;
                    let word = &src[start..self.i];
                    if !word.is_ascii() {
                        self.out.words.push((start, self.i));
                        self.invalid_character(start);
                    }
                    let first = self.stmt.fresh && self.brackets.is_empty();
                    if first {
                        self.stmt.fresh = false;
                        self.first_word(word, self.i);
                    }
                    self.word_levels(word, first);
                    if matches!(self.s.get(self.i), Some(b'\'' | b'"')) && is_prefix(word) {
                        let f = word.iter().any(|c| matches!(c, b'f' | b'F'));
                        if !self.string(start, self.i, f) {
                            return;
                        }
                    } else if word == b"not" {
                        let (prev, pw) = self.prev_token(start);
                        let prefix = match prev {
                            Some(b')' | b']' | b'}' | b'\'' | b'"') => false,
                            Some(b) if is_ident_char(b) => is_keyword(pw),
                            _ => true,
                        };
                        if prefix && self.pos.cmp == 0 {
                            self.pos.nots += 1;
                        }
                        if !self.unary() || !self.bump_depth() {
                            return;
                        }
                    } else {
                        self.unary_run = 0;
                        if word == b"import" || (word == b"from" && self.stmt_starts_at(start)) {
                            self.in_import = true;
                        }
                        if word == b"lambda" {
                            if self.brackets.is_empty() {
                                self.stmt.lambdas += 1;
                            }
                            if !self.double() {
                                return;
                            }
                        }
                        // A conditional expression nests at its `else`; the `if`s of a
                        // comprehension are one flat list.
                        if matches!(word, b"lambda" | b"await" | b"else") && !self.bump_depth() {
                            return;
                        }
                    }
                }
                b':' => {
                    if self.brackets.is_empty() && self.s.get(self.i + 1) != Some(&b'=') {
                        self.colon_at_depth0();
                    }
                    self.i += 1;
                }
                _ => self.i += 1,
            }
        }
        if let Some(&(open, at)) = self.brackets.last() {
            self.out.unclosed = Some(err(
                format!("'{}' was never closed", open as char),
                at,
                ErrorKind::SyntaxError,
                false,
            ));
        }
    }

    /// The levels a word changes at the current position (see [`Pos`]).
    fn word_levels(&mut self, word: &[u8], first: bool) {
        let p = &mut self.pos;
        match word {
            b"and" | b"or" => {
                p.new_operand();
                p.boolop = 2;
            }
            b"for" => {
                p.new_operand();
                p.pending_for = true;
            }
            b"in" if p.pending_for => {
                p.pending_for = false;
                // A comprehension's iterable is a `disjunction`: two levels above an element.
                if p.kind != 0 {
                    p.slot = -2;
                }
            }
            b"in" | b"is" => p.cmp = 3,
            b"else" if !first => p.elses += 1,
            _ => {}
        }
        if is_keyword(word) || !is_ident_start(word[0]) {
            p.lead = false;
        }
    }

    /// Skips a number literal, noting CPython's tokenizer errors about it.
    fn number(&mut self) {
        self.pos.lead = false;
        let start = self.i;
        let s = self.s;
        let at = |j: usize| s.get(j).copied().unwrap_or(0);
        if at(start) == b'0' && matches!(at(start + 1), b'x' | b'X' | b'o' | b'O' | b'b' | b'B') {
            let (kind, radix) = match at(start + 1) {
                b'x' | b'X' => ("hexadecimal", 16),
                b'o' | b'O' => ("octal", 8),
                _ => ("binary", 2),
            };
            self.i += 2;
            let mut ndigits = 0;
            loop {
                let c = at(self.i);
                if c == b'_' {
                    self.i += 1;
                    if !(at(self.i) as char).is_digit(radix) {
                        // (CPython's column: the characters before the one it backs up over)
                        let e = err(
                            format!("invalid {kind} literal"),
                            self.i - 1,
                            ErrorKind::SyntaxError,
                            false,
                        );
                        self.set_error(ScanError { at: start, ..e });
                        return;
                    }
                } else if (c as char).is_digit(radix) {
                    self.i += 1;
                    ndigits += 1;
                } else {
                    break;
                }
            }
            let c = at(self.i);
            if radix < 16 && c.is_ascii_digit() {
                let msg = format!("invalid digit '{}' in {kind} literal", c as char);
                let e = err(msg, self.i, ErrorKind::SyntaxError, false);
                self.set_error(ScanError { at: start, ..e });
            } else if ndigits == 0 || (is_ident_char(c) && !keyword_follows(&s[self.i..])) {
                let e = err(
                    format!("invalid {kind} literal"),
                    self.i - 1,
                    ErrorKind::SyntaxError,
                    false,
                );
                self.set_error(ScanError { at: start, ..e });
            }
            while is_ident_char(at(self.i)) {
                self.i += 1;
            }
            return;
        }
        let mut kind = "decimal";
        let mut is_int = true;
        let digits = |this: &mut Self| -> bool {
            // digits with single underscores between them
            while at(this.i).is_ascii_digit() || at(this.i) == b'_' {
                if at(this.i) == b'_' && !at(this.i + 1).is_ascii_digit() {
                    let e = err("invalid decimal literal", this.i, ErrorKind::SyntaxError, false);
                    this.set_error(ScanError { at: start, ..e });
                    this.i += 1;
                    return false;
                }
                this.i += 1;
            }
            true
        };
        if !digits(self) {
            return;
        }
        if at(self.i) == b'.' {
            is_int = false;
            self.i += 1;
            // (a fraction starts with a digit: `1._5` ends at the `_`)
            if at(self.i).is_ascii_digit() && !digits(self) {
                return;
            }
        }
        if matches!(at(self.i), b'e' | b'E') {
            let save = self.i;
            let mut j = self.i + 1;
            if matches!(at(j), b'+' | b'-') {
                j += 1;
                if !at(j).is_ascii_digit() {
                    let e = err("invalid decimal literal", j - 1, ErrorKind::SyntaxError, false);
                    self.set_error(ScanError { at: start, ..e });
                    self.i = j;
                    return;
                }
            }
            if at(j).is_ascii_digit() {
                is_int = false;
                self.i = j;
                if !digits(self) {
                    return;
                }
            } else {
                self.i = save;
            }
        }
        if matches!(at(self.i), b'j' | b'J') {
            is_int = false;
            kind = "imaginary";
            self.i += 1;
        }
        let text = &s[start..self.i];
        if is_int
            && text.first() == Some(&b'0')
            && text.iter().any(|c| c.is_ascii_digit() && *c != b'0')
        {
            let e = err(
                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
                start,
                ErrorKind::SyntaxError,
                false,
            );
            self.set_error(ScanError { at: start, ..e });
            return;
        }
        let c = at(self.i);
        if is_ident_char(c) && !keyword_follows(&s[self.i..]) {
            // (CPython's column: the characters before the one it backs up over)
            let e =
                err(format!("invalid {kind} literal"), self.i - 1, ErrorKind::SyntaxError, false);
            self.set_error(ScanError { at: start, ..e });
        }
    }

    fn line_of(&self, offset: usize) -> usize {
        let mut line = 1;
        let mut j = 0;
        while j < offset && j < self.s.len() {
            match self.s[j] {
                b'\n' => line += 1,
                b'\r' if self.s.get(j + 1) != Some(&b'\n') => line += 1,
                _ => {}
            }
            j += 1;
        }
        line
    }

    /// Scans a string literal whose prefix starts at `start` and quote at `q`; returns false on a
    /// fatal condition (the scan stops).
    fn string(&mut self, start: usize, q: usize, fstring: bool) -> bool {
        self.pos.lead = false;
        let quote = self.s[q];
        let triple = self.s.get(q + 1) == Some(&quote) && self.s.get(q + 2) == Some(&quote);
        self.i = q + if triple { 3 } else { 1 };
        // f-string expression tracking: nesting of `{` replacement fields; inside one, bracket
        // depth and whether we are in the format spec.
        let mut fields: Vec<(usize, bool)> = Vec::new(); // (bracket depth, in_spec)
        let mut fstring_error: Option<&'static str> = None;
        // Deepest bracket nesting inside a replacement field (CPython: MAXLEVEL 200 there too).
        let mut fmax = 0usize;
        // Outside f-strings only the quote, a backslash and line ends matter: jump to the next one
        // (docstrings are most of a scan's bytes).
        let plain = !fstring && !self.has_cr;
        while self.i < self.s.len() {
            if plain {
                let rest = &self.s[self.i..];
                self.i += memchr::memchr3(quote, b'\\', b'\n', rest).unwrap_or(rest.len());
                if self.i >= self.s.len() {
                    break;
                }
            }
            let c = self.s[self.i];
            if c == quote {
                let close = if !triple {
                    Some(1)
                } else if self.s.get(self.i + 1) == Some(&quote)
                    && self.s.get(self.i + 2) == Some(&quote)
                {
                    Some(3)
                } else {
                    None
                };
                if let Some(n) = close {
                    self.i += n;
                    if fmax == MAX_LEVEL {
                        let e =
                            err("too many nested parentheses", start, ErrorKind::SyntaxError, true);
                        self.set_error(e);
                        return false;
                    }
                    if let Some(msg) = fstring_error {
                        // CPython 3.11 reports it at the end of the string token.
                        if self.out.reject.is_none() {
                            let mut e = err(msg, self.i, ErrorKind::SyntaxError, false);
                            e.at = start;
                            self.out.reject = Some(e);
                        }
                    }
                    return true;
                }
                self.i += 1;
                continue;
            }
            if (c == b'\n' || c == b'\r') && !triple {
                let line = self.line_of(self.i);
                self.set_error(err(
                    format!("unterminated string literal (detected at line {line})"),
                    start,
                    ErrorKind::SyntaxError,
                    false,
                ));
                // Stop the scan: what follows would be tokenized differently.
                return false;
            }
            if fmax > MAX_LEVEL {
                let e = err(
                    "f-string: too many nested parenthesis",
                    start,
                    ErrorKind::SyntaxError,
                    true,
                );
                self.set_error(e);
                return false;
            }
            let in_expr = fields.last().is_some_and(|&(_, spec)| !spec);
            if c == b'\\' {
                if fstring && in_expr {
                    fstring_error
                        .get_or_insert("f-string expression part cannot include a backslash");
                }
                self.i += if self.s.get(self.i + 1) == Some(&b'\r')
                    && self.s.get(self.i + 2) == Some(&b'\n')
                {
                    3
                } else {
                    2
                };
                continue;
            }
            if fstring {
                match c {
                    b'{' => {
                        if fields.is_empty() && self.s.get(self.i + 1) == Some(&b'{') {
                            self.i += 2;
                            continue;
                        }
                        if in_expr {
                            if let Some(f) = fields.last_mut() {
                                f.0 += 1;
                                fmax = fmax.max(f.0);
                            }
                        } else {
                            fields.push((0, false));
                        }
                    }
                    b'}' => {
                        if fields.is_empty() {
                            if self.s.get(self.i + 1) == Some(&b'}') {
                                self.i += 2;
                                continue;
                            }
                        } else if let Some(f) = fields.last_mut() {
                            if !f.1 && f.0 > 0 {
                                f.0 -= 1;
                            } else {
                                fields.pop();
                            }
                        }
                    }
                    b'(' | b'[' if in_expr => {
                        if let Some(f) = fields.last_mut() {
                            f.0 += 1;
                            fmax = fmax.max(f.0);
                        }
                    }
                    b')' | b']' if in_expr => {
                        if let Some(f) = fields.last_mut() {
                            f.0 = f.0.saturating_sub(1);
                        }
                    }
                    b':' if in_expr => {
                        if let Some(f) = fields.last_mut() {
                            if f.0 == 0 {
                                f.1 = true;
                            }
                        }
                    }
                    b'#' if in_expr => {
                        fstring_error.get_or_insert("f-string expression part cannot include '#'");
                    }
                    c if in_expr && c >= 0x80 => {
                        // A name of the expression (its ASCII head is already passed).
                        let mut start = self.i;
                        while start > q && is_ident_char(self.s[start - 1]) {
                            start -= 1;
                        }
                        while self.i < self.s.len() && is_ident_char(self.s[self.i]) {
                            self.i += 1;
                        }
                        self.out.words.push((start, self.i));
                        continue;
                    }
                    b'\'' | b'"' if in_expr => {
                        // A nested string of the other quote kind: skip it.
                        let other = c;
                        self.i += 1;
                        while self.i < self.s.len()
                            && self.s[self.i] != other
                            && self.s[self.i] != quote
                        {
                            if matches!(self.s[self.i], b'\n' | b'\r') && !triple {
                                break;
                            }
                            if self.s[self.i] == b'\\' {
                                fstring_error.get_or_insert(
                                    "f-string expression part cannot include a backslash",
                                );
                            }
                            self.i += 1;
                        }
                        if self.s.get(self.i) == Some(&other) {
                            self.i += 1;
                        }
                        continue;
                    }
                    _ => {}
                }
            }
            self.i += 1;
        }
        let line = self.line_of(last_char(self.s));
        let msg = if triple {
            format!("unterminated triple-quoted string literal (detected at line {line})")
        } else {
            format!("unterminated string literal (detected at line {line})")
        };
        self.set_error(err(msg, start, ErrorKind::SyntaxError, false));
        false
    }
}

/// Offset of the last character, where CPython's tokenizer sits at the end of the input (the final
/// newline belongs to the last line).
/// CPython's `verify_end_of_number`: a keyword that may follow a number in valid code starts
/// `rest` (only a SyntaxWarning, then the number ends there).
fn keyword_follows(rest: &[u8]) -> bool {
    [&b"and"[..], b"else", b"for", b"if", b"in", b"is", b"or", b"not"]
        .iter()
        .any(|k| rest.starts_with(k))
}

pub(crate) fn last_char(s: &[u8]) -> usize {
    match s.last() {
        Some(b'\n') if s.len() >= 2 && s[s.len() - 2] == b'\r' => s.len() - 2,
        Some(b'\n' | b'\r') => s.len() - 1,
        _ => s.len(),
    }
}

fn is_prefix(w: &[u8]) -> bool {
    if w.len() > 2 {
        return false;
    }
    let lower: Vec<u8> = w.iter().map(u8::to_ascii_lowercase).collect();
    matches!(lower.as_slice(), b"r" | b"u" | b"b" | b"f" | b"br" | b"rb" | b"fr" | b"rf")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The token table says for every byte what the comparisons it replaced said.
    #[test]
    fn token_bytes_agree_with_the_comparisons() {
        for c in 0..=255u8 {
            let t = TOKEN_BYTES[c as usize];
            assert_eq!(t & STARTS_NAME != 0, is_ident_start(c), "{c}");
            assert_eq!(t & OPENS != 0, matches!(c, b'(' | b'[' | b'{'), "{c}");
            assert_eq!(
                t & KEEPS_LEAD != 0,
                is_ident_char(c) || matches!(c, b' ' | b'\t' | b'.' | b'\\' | b'#'),
                "{c}"
            );
            assert_eq!(
                t & KEEPS_UNARY != 0,
                matches!(c, b'-' | b'+' | b'~' | b' ' | b'\t' | b'n'),
                "{c}"
            );
            assert_eq!(
                t & KEEPS_DOUBLE != 0,
                is_ident_char(c) || matches!(c, b' ' | b'\t' | b'*' | b':' | b'.'),
                "{c}"
            );
        }
    }
}
