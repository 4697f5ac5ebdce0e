//! Where CPython 3.11's SyntaxErrors end (`end_lineno`, `end_offset`), from the error the parse
//! facade gives (class, message, line, offset) and the source.
//!
//! CPython's rules, by where the error is raised:
//! - the tokenizer's `syntaxerror` (unterminated strings, invalid characters and literals,
//!   unmatched brackets): the end is the start, except "leading zeros", whose range ends after
//!   the first digit that is not a zero (`zeros_end`);
//! - `tokenizer_error` and `raise_unclosed_parentheses_error` (`RAISE_ERROR_KNOWN_LOCATION`
//!   with an end column of -1): TabError, a `\` continuation error, "too many levels of
//!   indentation", "'(' was never closed", "':' expected after dictionary key": end column 0;
//! - errors at an INDENT, DEDENT or ENDMARKER token, which have no columns ("unexpected
//!   indent", "unindent does not match...", an indented block expected where the input ends or
//!   dedents): -1;
//! - the parser's errors at a token (`RAISE_SYNTAX_ERROR`, "invalid syntax"): the token's end
//!   (a NEWLINE token has no width); at a node (`RAISE_SYNTAX_ERROR_KNOWN_RANGE`, "cannot assign
//!   to ...", "Generator expression must be parenthesized"): the node's end, here the end of the
//!   expression read from the offset (`expression_end`).
//!
//! Columns are characters here; `ast.parse(bytes)` converts them as it does the offset
//! (`columns.rs`).

use super::{ErrorKind, SyntaxError};

/// `(end_lineno, end_offset)` of `e`, raised parsing `source`; `None` where CPython gives none.
pub fn error_end(e: &SyntaxError, source: &str) -> Option<(u32, i64)> {
    if !matches!(e.kind, ErrorKind::SyntaxError | ErrorKind::IndentationError | ErrorKind::TabError)
        || e.msg == "source code string cannot contain null bytes"
        || e.lineno == 0
    {
        return None;
    }
    let m = e.msg.as_str();
    let (line, offset) = (e.lineno, i64::from(e.offset));
    let zero = m.contains("' was never closed")
        || e.kind == ErrorKind::TabError
        || m == "unexpected character after line continuation character"
        || m == "too many levels of indentation"
        || m == "':' expected after dictionary key";
    if zero {
        return Some((line, 0));
    }
    if matches!(
        m,
        "unexpected indent"
            | "unexpected unindent"
            | "unindent does not match any outer indentation level"
            | "unexpected EOF while parsing"
    ) {
        return Some((line, -1));
    }
    let Some(at) = position(source, line, e.offset) else { return Some((line, offset)) };
    if m.starts_with("(unicode error)") {
        // In a literal (the parser's action): at the error; in a name (the tokenizer's
        // decoding): no column.
        let line_start = line_start(source, at);
        let in_literal = source[line_start..at.min(source.len())].contains(['\'', '"'])
            || matches!(source[at..].chars().next(), Some('\'' | '"'));
        return Some((line, if in_literal { offset } else { -1 }));
    }
    if m.starts_with("leading zeros in decimal integer literals") {
        // (`at` is the literal's start, or in an f-string the field's: past its zeros and
        // underscores, the digit after them)
        // (the tokenizer's range here is in bytes: `syntaxerror_known_range`)
        let start = position(source, line, 1).unwrap_or(at);
        let at = (start + (e.offset as usize).saturating_sub(1)).min(source.len());
        let rest = &source.as_bytes()[at..];
        let rest = rest.iter().position(u8::is_ascii_digit).map_or(rest, |k| &rest[k..]);
        let run = rest.iter().take_while(|&&c| c == b'0' || c == b'_').count();
        return Some((line, offset + run as i64));
    }
    if m == "f-string: invalid syntax" {
        // The field's expression is parsed alone, as `(expression)`, and the offset counted
        // there: the token's end in that text.
        let line_text = &source[line_start(source, at)..];
        let line_text = line_text.split(['\n', '\r']).next().unwrap_or_default();
        if let Some(open) = line_text.find('{') {
            let expr = &line_text[open + 1..];
            let expr = expr.find(['}', '!']).map_or(expr, |k| &expr[..k]);
            let sub = format!("({expr})");
            let k = (e.offset as usize).saturating_sub(1);
            let p = sub.char_indices().nth(k).map_or(sub.len(), |(p, _)| p);
            return Some(match token_end(&sub, p) {
                Some(end) => (line, sub[..end].chars().count() as i64 + 1),
                None => (line, offset),
            });
        }
    }
    if super::columns::from_tokenizer(m)
        || m.starts_with("f-string")
        || m.starts_with("unexpected EOF")
    {
        return Some((line, offset));
    }
    let block =
        m.starts_with("expected an indented block") || m == "expected 'except' or 'finally' block";
    if let Some(end) = node_end(m, source, at) {
        return Some(end_of(source, end));
    }
    match token_end(source, at) {
        // (a NEWLINE token has no width; where a block was expected, past the line's end is a
        // DEDENT or the ENDMARKER, which have no columns)
        None if block => Some((line, -1)),
        None => Some((line, offset)),
        Some(end) => Some(end_of(source, end)),
    }
}

/// The line and 1-based end column (characters) of a token or node ending at byte `end`.
fn end_of(source: &str, end: usize) -> (u32, i64) {
    let before = &source[..end.min(source.len())];
    let (mut line, mut start) = (1u32, 0);
    for s in line_starts(before.as_bytes()) {
        (line, start) = (line + 1, s);
    }
    (line, before[start.min(before.len())..].chars().count() as i64 + 1)
}

/// Where each line after the first starts: past each `\n`, `\r\n` or lone `\r`.
fn line_starts(b: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let c = b[i];
            i += 1;
            if c == b'\r' && b.get(i) == Some(&b'\n') {
                i += 1;
            }
            if c == b'\n' || c == b'\r' {
                return Some(i);
            }
        }
        None
    })
}

/// The start of the line holding byte `at`.
fn line_start(source: &str, at: usize) -> usize {
    let b = &source.as_bytes()[..at.min(source.len())];
    b.iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |p| p + 1)
}

/// The byte offset of 1-based `offset` (characters) on line `lineno`.
fn position(source: &str, lineno: u32, offset: u32) -> Option<usize> {
    let start = match (lineno as usize).checked_sub(2) {
        None => 0,
        Some(k) => line_starts(source.as_bytes()).nth(k)?,
    };
    let col = (offset as usize).checked_sub(1)?;
    let rest = &source[start..];
    Some(start + rest.char_indices().nth(col).map_or(rest.len(), |(k, _)| k))
}

const OPERATORS: &[&str] = &[
    "**=", "//=", ">>=", "<<=", "...", "->", "**", "//", ">>", "<<", "<=", ">=", "==", "!=", ":=",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
];

/// The end (byte) of the token CPython's tokenizer reads at byte `at`, or `None` at a line's
/// end (a NEWLINE token, no width) or the input's.
fn token_end(source: &str, at: usize) -> Option<usize> {
    let rest = source.get(at..)?;
    let c = rest.chars().next()?;
    if matches!(c, '\n' | '\r' | '#') {
        return None;
    }
    let is_name = |c: char| c == '_' || c.is_alphanumeric() || !c.is_ascii();
    if c == '\'' || c == '"' {
        return Some(at + string_len(rest));
    }
    if c.is_ascii_digit() || (c == '.' && rest[1..].starts_with(|d: char| d.is_ascii_digit())) {
        let b = rest.as_bytes();
        let mut k = 0;
        while k < b.len() {
            let x = b[k];
            let sign = matches!(x, b'+' | b'-')
                && k > 0
                && matches!(b[k - 1], b'e' | b'E')
                && !rest.starts_with("0x")
                && !rest.starts_with("0X");
            if x.is_ascii_alphanumeric() || x == b'_' || x == b'.' || sign {
                k += 1;
            } else {
                break;
            }
        }
        return Some(at + k);
    }
    if is_name(c) {
        let n: usize = rest.chars().take_while(|&c| is_name(c)).map(char::len_utf8).sum();
        let word = &rest[..n];
        let prefix = word.len() <= 2
            && word.chars().all(|c| matches!(c.to_ascii_lowercase(), 'r' | 'b' | 'f' | 'u'));
        if prefix && rest[n..].starts_with(['\'', '"']) {
            return Some(at + n + string_len(&rest[n..]));
        }
        return Some(at + n);
    }
    let op = OPERATORS.iter().find(|op| rest.starts_with(*op)).map_or(c.len_utf8(), |op| op.len());
    Some(at + op)
}

/// The length of the string literal starting at the quote `s` begins with (to the input's end
/// when unterminated).
fn string_len(s: &str) -> usize {
    let b = s.as_bytes();
    let q = b[0];
    let triple = b.len() >= 3 && b[1] == q && b[2] == q;
    let mut k = if triple { 3 } else { 1 };
    while k < b.len() {
        match b[k] {
            b'\\' => k += 2,
            x if x == q => {
                if !triple {
                    return k + 1;
                }
                if b.get(k + 1) == Some(&q) && b.get(k + 2) == Some(&q) {
                    return k + 3;
                }
                k += 1;
            }
            b'\n' | b'\r' if !triple => return k,
            _ => k += 1,
        }
    }
    b.len()
}

/// `at` moved back over the opening brackets of the groups it is the first token of (a `(`
/// after an operator, a keyword or another bracket, not a call's).
fn out_of_groups(source: &str, at: usize) -> usize {
    const KEYWORDS: &[&str] = &[
        "return", "raise", "assert", "yield", "del", "not", "in", "is", "and", "or", "if", "else",
        "await", "lambda", "print", "exec",
    ];
    let b = source.as_bytes();
    let mut at = at;
    loop {
        let mut k = at;
        while k > 0 && matches!(b[k - 1], b' ' | b'\t' | b'\x0c') {
            k -= 1;
        }
        if k == 0 || b[k - 1] != b'(' {
            return at;
        }
        let open = k - 1;
        let mut w = open;
        while w > 0 && matches!(b[w - 1], b' ' | b'\t' | b'\x0c') {
            w -= 1;
        }
        let word_end = w;
        while w > 0 && (b[w - 1].is_ascii_alphanumeric() || b[w - 1] == b'_' || b[w - 1] >= 0x80) {
            w -= 1;
        }
        let word = &source[w..word_end];
        let call = if word.is_empty() {
            w > 0 && matches!(b[w - 1], b')' | b']' | b'\'' | b'"')
        } else {
            !KEYWORDS.contains(&word)
        };
        // (the group must close before the conditional's `if`: `in (b if d)` holds it whole)
        if call || !closes_before_if(b, open) {
            return at;
        }
        at = open;
    }
}

/// Whether the bracket opened at `open` closes with no `if` inside it that lacks its `else`.
fn closes_before_if(b: &[u8], open: usize) -> bool {
    let mut depth = 0usize;
    let mut pending = 0usize;
    let mut i = open;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return pending == 0;
                }
            }
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i).unwrap_or(b.len());
                continue;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let start = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                match (&b[start..i], depth) {
                    (b"if", 1) => pending += 1,
                    (b"else", 1) => pending = pending.saturating_sub(1),
                    _ => {}
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// The end (byte) of the node an error of the parser's invalid-rules spans, read from its
/// start `at`: the expression (a target, a call's arguments...) up to the token that ends it.
fn node_end(msg: &str, source: &str, at: usize) -> Option<usize> {
    const NODES: &[&str] = &[
        "cannot assign to",
        "cannot delete",
        "assignment to yield expression not possible",
        "is an illegal expression for augmented assignment",
        "Generator expression must be parenthesized",
        "expected 'else' after 'if' expression",
        "invalid syntax. Maybe you meant '==' or ':=' instead of '='?",
        "invalid syntax. Perhaps you forgot a comma?",
        "Missing parentheses in call to",
        "positional argument follows keyword argument",
        "cannot use starred expression here",
        "cannot use double starred expression here",
        "did you forget parentheses around the comprehension target?",
        "invalid syntax. Maybe you meant",
        "only single target (not tuple) can be annotated",
    ];
    if !NODES.iter().any(|n| msg.contains(n)) {
        return None;
    }
    // Which tokens end it at its own bracket depth.
    // (a `yield_expr` reads `star_expressions`, or `from` and an expression)
    let yield_node = source.get(at..).is_some_and(|r| {
        r.starts_with("yield") && !r[5..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
    });
    let tuples = msg.contains("augmented assignment")
        || msg.starts_with("Missing parentheses")
        || yield_node;
    let missing_else = msg.starts_with("expected 'else'");
    // (`(a) if b`: the error starts at the expression a group holds, and its node, the
    // conditional, takes in the group's brackets)
    let at = if missing_else { out_of_groups(source, at) } else { at };
    // The start of the `bitwise_or` after `NAME =`.
    let mut value_start: Option<usize> = None;
    let mut prev_yield = false;
    // (`invalid_comprehension`: to the last item before the `for`, or a lone item's comma)
    let comp_target = msg.starts_with("did you forget parentheses");
    let mut operand_after_comma = false;
    let mut commas = 0;
    let mut item_start: Option<usize> = None;
    let assignment = msg.contains("Maybe you meant '==' or ':='");
    let keywords = msg.starts_with("Generator expression")
        || msg.starts_with("expected 'else'")
        || msg.contains("forgot a comma");
    // `lambda`s whose `:` is still to come.
    let mut lambdas = 0;
    // An operator binding less tightly than a comparison met: a `for` target's `in` is then
    // inside the node (`for a and b in x`).
    let mut low = false;
    // Where the node ended before an `if` whose `else` is still to come.
    let mut open_if: Option<Option<usize>> = None;
    // The `=` of `NAME = bitwise_or` read.
    let mut assigned = false;
    // Inside brackets open before it, line breaks are blanks.
    let bracketed = !super::scan::scan_until(source, at).open.is_empty();
    let mut i = at;
    let mut depth = 0i32;
    let mut end = None;
    loop {
        // (blanks and `\` continuations between tokens)
        let b = source.as_bytes();
        while i < b.len() && matches!(b[i], b' ' | b'\t' | b'\x0c') {
            i += 1;
        }
        if b.get(i) == Some(&b'\\') && matches!(b.get(i + 1), Some(b'\n' | b'\r')) {
            i += 2;
            continue;
        }
        if (depth > 0 || bracketed) && matches!(b.get(i), Some(b'\n' | b'\r')) {
            i += 1;
            continue;
        }
        let Some(t_end) = token_end(source, i) else { break };
        let tok = &source[i..t_end];
        if depth == 0 {
            let stop = match tok {
                ":" if lambdas > 0 => {
                    lambdas -= 1;
                    false
                }
                ")" | "]" | "}" | ";" | ":" => true,
                "," => !tuples && !comp_target,
                "=" if assignment && !assigned => {
                    assigned = true;
                    false
                }
                "=" => true,
                // (a `bitwise_or` ends at a comparison or a boolean operator)
                "<" | ">" | "==" | ">=" | "<=" | "!=" | "in" | "not" | "is" | "and" | "or"
                | "if"
                    if assignment =>
                {
                    true
                }
                "in" => !keywords && !low && end.is_some(),
                "from" if prev_yield => false,
                "for" | "async" if missing_else => end.is_some(),
                "for" | "async" | "as" | "from" | "import" => !keywords && end.is_some(),
                _ => {
                    !assignment && OPERATORS.contains(&tok) && tok.ends_with('=') && {
                        !matches!(tok, "==" | "!=" | "<=" | ">=" | ":=")
                    }
                }
            };
            if stop {
                break;
            }
        }
        if depth == 0 && matches!(tok, "lambda" | "and" | "or" | "not" | "if") {
            low = true;
        }
        if depth == 0 && !keywords {
            // (a conditional without its `else` is not in the node: the parser took the
            // expression before it)
            match tok {
                "if" if open_if.is_none() => open_if = Some(end),
                "else" => open_if = None,
                _ => {}
            }
        }
        match tok {
            "lambda" if depth == 0 => lambdas += 1,
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => depth -= 1,
            _ => {}
        }
        if tok.starts_with('#') {
            break;
        }
        // (a node ends with an operand: an operator the parser read past is not in it)
        let operand = matches!(tok, ")" | "]" | "}" | "...")
            || tok.starts_with(|c: char| c.is_alphanumeric() || matches!(c, '_' | '\'' | '"'))
            || !tok.is_ascii();
        // (depth counts the token: an opening bracket is at 1)
        let item_depth = if matches!(tok, "(" | "[" | "{") { 1 } else { 0 };
        if comp_target && depth == item_depth && tok != "," && item_start.is_none() {
            item_start = Some(i);
        }
        if comp_target && depth == 0 && tok == "," {
            item_start = None;
            commas += 1;
            if !operand_after_comma {
                end = Some(t_end);
            }
        }
        if operand && commas > 0 {
            operand_after_comma = true;
        }
        if operand {
            end = Some(t_end);
        }
        if assignment && assigned && value_start.is_none() && tok != "=" {
            value_start = Some(i);
        }
        prev_yield = tok == "yield";
        i = t_end;
    }
    if let (Some(start), Some(e)) = (value_start, end) {
        // (a parenthesized group after `NAME =`: the node inside)
        end = Some(ungroup(source, start, e));
    }
    if let (true, Some(start), Some(e)) = (comp_target && commas > 0, item_start, end) {
        // (the last item in grouping parentheses: its node ends inside them)
        end = Some(ungroup(source, start, e));
    }
    open_if.unwrap_or(end)
}

/// An end `error_end` gave, as `ast.parse(bytes)` reports it where its columns are in bytes
/// (`columns.rs`): the end column counted in UTF-8 bytes of its line; an end at the start
/// (`line`, `chars`, before the conversion) stays there (`offset`, after it).
pub fn end_in_bytes(
    source: &str,
    (end_line, end): (u32, i64),
    (line, chars, offset): (u32, u32, u32),
) -> (u32, i64) {
    if end_line == line && end == i64::from(chars) {
        return (line, i64::from(offset));
    }
    let Some(col) = u32::try_from(end).ok().filter(|&c| c > 0) else { return (end_line, end) };
    match position(source, end_line, col) {
        Some(at) => (end_line, (at - line_start(source, at)) as i64 + 1),
        None => (end_line, end),
    }
}

/// The end of the node an operand from `start` to `end` holds: inside its grouping parentheses
/// (not a tuple's or a generator's), if it is one group.
fn ungroup(source: &str, mut start: usize, mut end: usize) -> usize {
    let b = source.as_bytes();
    while b.get(start) == Some(&b'(') {
        let Some(close) = super::from_rustpython::matching_close(b, start) else { break };
        let inner = &source[start + 1..close];
        if close + 1 != end || inner.trim().is_empty() || tuple_or_generator(inner) {
            break;
        }
        end = start + 1 + inner.trim_end().len();
        start = start + 1 + (inner.len() - inner.trim_start().len());
    }
    end
}

/// Whether the inside of parentheses holds a comma or a `for` at its depth 0 (a tuple or a
/// generator, not a group).
pub(super) fn tuple_or_generator(inner: &str) -> bool {
    let b = inner.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i).unwrap_or(b.len());
                continue;
            }
            b',' if depth == 0 => return true,
            b'f' if depth == 0
                && inner[i..].starts_with("for")
                && !b.get(i + 3).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_')
                && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')) =>
            {
                return true
            }
            _ => {}
        }
        i += 1;
    }
    false
}
