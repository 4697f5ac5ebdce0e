//! The parse pipeline: pre-scan → rustpython → 3.11 validation, and the mapping of errors to
//! CPython's messages and positions.

use std::borrow::Cow;

use rustpython_parser::lexer::LexicalErrorType;
use rustpython_parser::{Parse, ParseError, ParseErrorType, Tok};

use super::from_rustpython::matching_close;
use super::scan::{self, is_ident_char, ScanError};
use super::validate;
use super::{idents, node, syntax, ErrorKind, LineIndex, SyntaxError};

pub(crate) struct Parsed {
    pub module: syntax::ModModule,
    /// Duplicate parameter / keyword names renamed before parsing: (byte offset, original).
    pub renames: Vec<(u32, String)>,
}

/// How many identifier occurrences with newer letters we replace one parse error at a time
/// (each costs a re-parse) after [`mask_newer_identifiers`] replaced the ones the pre-scan saw
/// (only names inside f-string expressions are left to this).
const MAX_PLACEHOLDERS: usize = 256;

/// How many duplicate names we rename before giving up (each costs a re-parse).
const MAX_RENAMES: usize = 64;

struct Ctx<'a> {
    src: &'a str,
    filename: &'a str,
    /// Built only when an error is reported.
    index_cell: std::cell::OnceCell<LineIndex>,
    /// The decoding problems of the bytes `src` stands for ([`undecodable_error`]).
    undecodable: Option<&'a Undecodable>,
}

/// What decoding bytes that are not valid UTF-8 met (`decode.rs`), for [`undecodable_error`].
#[derive(Default)]
pub(crate) struct Undecodable {
    /// Identifiers holding invalid bytes, in source order: tokenizer errors.
    pub idents: Vec<BadIdent>,
    /// The first run of string literals that does not decode: an error of the parser's action.
    pub literal: Option<BadLiteral>,
}

/// An identifier token holding invalid UTF-8.
pub(crate) struct BadIdent {
    /// Its byte offset.
    pub at: usize,
    /// It follows a number (the tokenizer starts a new token there).
    pub after_number: bool,
    /// The SyntaxError when the parser reads the token.
    pub error: SyntaxError,
    /// The UnicodeDecodeError's message when the tokenizing after a parser error meets it.
    pub raw: String,
}

/// A run of string literals whose decoding fails.
pub(crate) struct BadLiteral {
    /// The offset of its first literal (prefix included).
    pub start: usize,
    /// The offset of the token after it: the action runs once the parser has read that one.
    pub next: usize,
    pub error: SyntaxError,
}

/// The error CPython 3.11 reports for a source that is not valid UTF-8 outside comments, given
/// the source with its invalid bytes replaced (`sanitized`: same offsets, names for names,
/// characters for literal contents) and what decoding met. The parser reads tokens one by one:
/// an identifier that does not decode is a tokenizer error where the parser reads it; a literal
/// that does not decode fails in the parser's action. After any parser-phase error CPython
/// tokenizes the rest of the source (`_PyPegen_tokenize_full_source_to_check_for_errors`): the
/// first tokenizer error that raises an exception replaces the parser's, and an identifier's
/// decoding error then surfaces as the bare `UnicodeDecodeError`.
pub(crate) fn undecodable_error(sanitized: &str, found: &Undecodable) -> SyntaxError {
    match parse_inner(sanitized, "<unknown>", true, Some(found)) {
        Err(e) => e,
        Ok(_) => {
            // No parser error: the problems in source order.
            let ident = found.idents.first();
            match (ident, &found.literal) {
                (Some(id), Some(lit)) if id.at <= lit.next => id.error.clone(),
                (_, Some(lit)) => match found.idents.iter().find(|id| id.at > lit.next) {
                    Some(id) => unicode_decode_error(id),
                    None => lit.error.clone(),
                },
                (Some(id), None) => id.error.clone(),
                (None, None) => SyntaxError {
                    msg: "invalid syntax".to_string(),
                    filename: "<unknown>".to_string(),
                    lineno: 1,
                    offset: 1,
                    text: None,
                    kind: ErrorKind::SyntaxError,
                    byte_offset: None,
                },
            }
        }
    }
}

/// The bare `UnicodeDecodeError` of an identifier (no position).
fn unicode_decode_error(id: &BadIdent) -> SyntaxError {
    SyntaxError {
        msg: id.raw.clone(),
        lineno: 0,
        offset: 0,
        text: None,
        kind: ErrorKind::UnicodeDecodeError,
        ..id.error.clone()
    }
}

impl Ctx<'_> {
    fn index(&self) -> &LineIndex {
        self.index_cell.get_or_init(|| LineIndex::new(self.src))
    }

    fn error(&self, msg: impl Into<String>, offset: usize, kind: ErrorKind) -> SyntaxError {
        let offset = offset.min(self.src.len());
        let (lineno, col) = self.index().position(offset as u32);
        let line_start = offset - col as usize;
        let line_text = line_at(self.src, line_start);
        let msg = msg.into();
        // CPython's offset counts characters, 1-based.
        let mut column =
            self.src.get(line_start..offset).map_or(col as usize, |s| s.chars().count()) + 1;
        let mut byte_offset = None;
        if !super::columns::from_tokenizer(&msg) {
            let buffer = tokenizer_buffer_start(self.src, line_start);
            if buffer < line_start
                && msg == "unexpected character after line continuation character"
            {
                // E_LINECONT's column is `tok->cur - tok->buf`: counted from the buffer's start
                // (characters for str sources, bytes for bytes without a cookie).
                let before = self.src.get(buffer..offset).unwrap_or_default();
                column = before.chars().count() + 1;
                byte_offset = u32::try_from(before.len() + 1).ok();
            } else if buffer < line_start && !self.read_past_line(&msg, offset) {
                // The parser's error converts its byte column to characters over the
                // tokenizer's buffer (`_PyPegen_raise_error_known_location`), which starts at
                // the logical line's first physical line when this one follows a `\\`
                // continuation or a string spanning lines: the column's bytes counted there.
                let b = self.src.as_bytes();
                let end = (buffer + col as usize + 1).min(b.len());
                column = String::from_utf8_lossy(&b[buffer..end]).chars().count();
                byte_offset = Some(col + 1);
            }
        }
        let text = if super::columns::from_tokenizer(&msg) {
            // `tokenizer.c`'s `syntaxerror`: the line without its line break.
            line_text.to_string()
        } else {
            self.parser_error_text(&msg, offset, line_start)
        };
        let mut err = SyntaxError {
            msg,
            filename: self.filename.to_string(),
            lineno,
            offset: column as u32,
            text: Some(text),
            kind,
            byte_offset,
        };
        if !super::columns::from_tokenizer(&err.msg)
            && (super::ends::error_end(&err, self.src).is_some_and(|(end, _)| end > lineno)
                || for_target_read_to(self.src, offset)
                    .is_some_and(|stop| stop > line_bounds(self.src, offset).1))
        {
            // The node spans later lines, which the parser has read: the line alone.
            err.text = Some(line_text.to_string());
        }
        err
    }

    /// The `text` of a parser error (`_PyPegen_raise_error_known_location`): the tokenizer's
    /// buffer (from the logical line's first physical line, when a `\\` continuation or a
    /// string spanning lines led to this one) to the error line's end, line breaks translated
    /// to `\n` and one added; the line alone, without its break, when the tokenizer had read
    /// past the error's line (`get_error_line_from_tokenizer_buffers`).
    fn parser_error_text(&self, msg: &str, offset: usize, line_start: usize) -> String {
        let (_, line_end) = line_bounds(self.src, offset);
        let past = self.read_past_line(msg, offset)
            || (msg.ends_with("' was never closed") && {
                // (a later line, even empty: the tokenizer reached it)
                let rest = self.src.get(line_end..).unwrap_or_default();
                let rest = rest.strip_prefix("\r\n").or_else(|| rest.get(1..)).unwrap_or("");
                !rest.is_empty()
            });
        if past {
            return line_at(self.src, line_start).to_string();
        }
        let mut buffer = tokenizer_buffer_start(self.src, line_start);
        // (a `\\` continuation read with the indentation, only blanks before it: the buffer
        // starts again at the next line)
        while buffer < line_start {
            let rest = &self.src.as_bytes()[buffer..];
            let blanks = rest.iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\x0c')).count();
            if rest.get(blanks) != Some(&b'\\') {
                break;
            }
            buffer += blanks + 1;
            buffer += match rest.get(blanks + 1..blanks + 3) {
                Some(b"\r\n") => 2,
                Some([b'\n' | b'\r', ..]) => 1,
                _ => break,
            };
        }
        let raw = self.src.get(buffer..line_end).unwrap_or_default();
        let mut text = raw.replace("\r\n", "\n").replace('\r', "\n");
        text.push('\n');
        text
    }

    /// Has CPython's parser read a later line than the error's before raising it (its
    /// tokenizer buffer then holds the error's line alone)? The rule behind "Generator
    /// expression must be parenthesized" reads the call's other arguments, to its `)`.
    fn read_past_line(&self, msg: &str, offset: usize) -> bool {
        let (_, line_end) = line_bounds(self.src, offset);
        msg == "Generator expression must be parenthesized"
            && scan::scan_until(self.src, offset)
                .open
                .last()
                .and_then(|&(_, open)| matching_close(self.src.as_bytes(), open))
                .is_some_and(|close| close > line_end)
    }

    /// The identifier that does not decode behind a tokenizer error, if it is one.
    fn bad_ident(&self, e: &ScanError) -> Option<&BadIdent> {
        self.undecodable?.idents.first().filter(|id| id.at == e.at && id.error.msg == e.msg)
    }

    /// A tokenizer error met by the tokenizing of the rest of the source after a parser error;
    /// `None` for one that raises no exception there (it only stops that tokenizing).
    fn retokenized(&self, e: &ScanError) -> Option<SyntaxError> {
        if e.msg == "unexpected character after line continuation character" {
            return None;
        }
        Some(match self.bad_ident(e) {
            Some(id) => unicode_decode_error(id),
            None => self.scan_error(e),
        })
    }

    fn scan_error(&self, e: &ScanError) -> SyntaxError {
        if let Some(id) = self.bad_ident(e) {
            return id.error.clone();
        }
        let offset = if e.msg == "unindent does not match any outer indentation level" {
            // CPython's column is the line's length with its line break.
            line_bounds(self.src, e.offset).1
        } else {
            e.offset
        };
        let mut err = self.error(e.msg.clone(), offset, e.kind);
        if e.msg.starts_with("leading zeros") {
            // `syntaxerror_known_range` with the literal's start in bytes (UTF-8), whatever
            // the source.
            let (line_start, _) = line_bounds(self.src, offset);
            err.offset = (offset - line_start) as u32 + 1;
        }
        if e.msg == "source code string cannot contain null bytes" {
            // CPython raises it before tokenizing: no location.
            err.lineno = 0;
            err.offset = 0;
            err.text = None;
        }
        err
    }
}

/// Where CPython's tokenizer buffer (`tok->buf`) starts when it reads the line starting at
/// `line_start`: at that line, unless the tokenizer reached it inside a token (after a `\\`
/// continuation, or in a string spanning lines), when it is still the buffer of the line it
/// last began afresh. Error path only (scans the source before the line).
fn tokenizer_buffer_start(src: &str, line_start: usize) -> usize {
    let b = src.as_bytes();
    let mut fresh = 0;
    let mut i = 0;
    while i < line_start {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b'\'' | b'"' => match super::from_rustpython::skip_string(b, i) {
                Some(end) => {
                    i = end;
                    continue;
                }
                None => return line_start,
            },
            b'\\' if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => {
                // The next line continues this one.
                i += if b.get(i + 1..i + 3) == Some(b"\r\n") { 3 } else { 2 };
                continue;
            }
            b'\r' if b.get(i + 1) == Some(&b'\n') => {
                i += 2;
                fresh = i;
                continue;
            }
            b'\n' | b'\r' => fresh = i + 1,
            _ => {}
        }
        i += 1;
    }
    fresh.min(line_start)
}

fn line_at(src: &str, start: usize) -> &str {
    let rest = src.get(start..).unwrap_or("");
    let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
    &rest[..end]
}

pub(crate) fn parse(source: &str, filename: &str, ast_mode: bool) -> Result<Parsed, SyntaxError> {
    parse_inner(source, filename, ast_mode, None)
}

fn parse_inner(
    source: &str,
    filename: &str,
    ast_mode: bool,
    undecodable: Option<&Undecodable>,
) -> Result<Parsed, SyntaxError> {
    // CPython's `translate_newlines` turns a `\r\n` that ends the input into two line breaks (it
    // reads the `\n`, meets the end and appends the `\n` exec input must end with): one more
    // empty line, which ends a `\` continuation there and moves errors at the end one line down.
    let extended;
    let source = if source.ends_with("\r\n") {
        extended = format!("{source}\n");
        extended.as_str()
    } else {
        source
    };
    let ctx = Ctx { src: source, filename, index_cell: std::cell::OnceCell::new(), undecodable };
    let mut scanned = scan::scan(source);

    if let Some(id) = undecodable.and_then(|u| u.idents.first()) {
        // The first identifier that does not decode is a tokenizer error like the scan's.
        if scanned.error.as_ref().is_none_or(|e| id.at <= e.at) {
            scanned.error = Some(ScanError {
                msg: id.error.msg.clone(),
                offset: id.at,
                kind: ErrorKind::SyntaxError,
                fatal: false,
                at: id.at,
            });
        }
    }
    if let Some(e) = scanned.reject.as_ref().filter(|e| e.fatal) {
        return Err(ctx.scan_error(e));
    }
    let mut renames: Vec<(u32, String)> = Vec::new();
    let mut placeholders: Vec<(String, String)> = Vec::new();
    let mut replaced = 0;
    let mut text: Cow<str> = Cow::Borrowed(source);
    if !scanned.tab_indents.is_empty()
        || !scanned.blank_tabs.is_empty()
        || !scanned.blank_continuations.is_empty()
        || !scanned.split_indents.is_empty()
    {
        // Indentation CPython accepts is consistent, so equal columns have equal byte lengths:
        // (inconsistent indentation is in `reject` and reported at its line either way)
        // spaces of the same length give rustpython the same block structure.
        let mut bytes = source.as_bytes().to_vec();
        for &(a, b) in scanned.tab_indents.iter().chain(&scanned.blank_tabs) {
            for c in &mut bytes[a..b] {
                if *c == b'\t' {
                    *c = b' ';
                }
            }
        }
        for &at in scanned.blank_continuations.iter().chain(&scanned.split_indents) {
            bytes[at] = b' ';
        }
        if scanned.remap_indents {
            scan::flatten_indents(&mut bytes, &scanned.lines);
        }
        if let Ok(s) = String::from_utf8(bytes) {
            text = Cow::Owned(s);
        }
    }
    if !scanned.words.is_empty() {
        if let Some(masked) = mask_newer_identifiers(&text, &scanned.words, &mut placeholders) {
            text = Cow::Owned(masked);
        }
    }
    // `\N{...}` in an f-string's format spec: 3.11 decodes it, the parser crates read its `{`
    // as a nested field. Parsed behind same-length escapes of a placeholder, put back after.
    let mut spec_names_masked = false;
    // `with a as *x:` (a bare starred target, which 3.11's grammar takes and its compiler
    // refuses): rustpython stops at the `*`; parsed without it, wrapped back in the tree.
    // (star, target) offsets.
    let mut starred_targets: Vec<(usize, usize)> = Vec::new();
    if memchr::memmem::find(text.as_bytes(), b"\\N{").is_some() {
        if let Some(masked) = mask_spec_names(&text) {
            text = Cow::Owned(masked);
            spec_names_masked = true;
        }
    }
    loop {
        let parsed = if scanned.remap_indents {
            parse_with_indents(&text, filename, &scanned.lines)
        } else {
            syntax::ModModule::parse(&text, filename)
        };
        match parsed {
            Ok(mut module) => {
                if undecodable.is_some() {
                    // No rustpython error: a parser error of CPython's that `validate` finds,
                    // else `undecodable_error` orders the decoding problems.
                    if let Err(inv) = validate::validate(&module, source) {
                        // (a literal that does not decode, parsed before CPython names the
                        // target: its action fails first)
                        let at = match undecodable.and_then(|u| u.literal.as_ref()) {
                            Some(lit) if !invalid_before_literal(source, &inv, lit.start) => {
                                lit.start.max(inv.offset)
                            }
                            _ => inv.offset,
                        };
                        let err = ctx.error(inv.msg, inv.offset, inv.kind);
                        return Err(after_parser_error(&ctx, at, err, &scanned, None));
                    }
                    return Ok(Parsed { module, renames });
                }
                if let Some(e) = &scanned.reject {
                    // rustpython accepted something CPython rejects (f-string backslash); CPython
                    // meets an unknown `\N{...}` earlier in the source first.
                    let named_first = unknown_named_escape(source).is_some_and(|n| n.2 < e.at);
                    if e.fatal || !named_first {
                        return Err(ctx.scan_error(e));
                    }
                }
                if may_have_emoji(&text) {
                    if let Some((c, at)) = newer_name_before(&text, text.len()) {
                        let msg = validate::invalid_character(c);
                        return Err(ctx.error(msg, at, ErrorKind::SyntaxError));
                    }
                }
                // (CPython's first pass stops at a statement `validate` rejects before it
                // parses a literal past it; validated only when a literal fails)
                let invalid = std::cell::OnceCell::new();
                let literal_first = |lit: usize| {
                    invalid
                        .get_or_init(|| validate::validate(&module, source).err())
                        .as_ref()
                        .is_none_or(|inv| !invalid_before_literal(source, inv, lit))
                };
                if let Some((msg, off, _)) =
                    unknown_named_escape(source).filter(|&(_, _, lit)| literal_first(lit))
                {
                    return Err(ctx.error(msg, off, ErrorKind::SyntaxError));
                }
                if memchr::memchr(b'\\', source.as_bytes()).is_some() {
                    // The parser crates take an f-string's format spec raw: 3.11 decodes its
                    // escapes (`f'{x:\x4}'` is a truncated `\x` escape).
                    if let Some((msg, off, _)) =
                        bad_escape(source, true).filter(|&(_, _, lit)| literal_first(lit))
                    {
                        return Err(ctx.error(msg, off, ErrorKind::SyntaxError));
                    }
                }
                let names = names_of(&placeholders);
                if !source.is_ascii() {
                    idents::fix_module(&mut module, &names);
                }
                if memchr::memchr(b'\\', source.as_bytes()).is_some() {
                    idents::fix_format_specs(&mut module, &text, spec_names_masked);
                }
                if let Err(inv) = validate::validate(&module, source) {
                    let starred = starred_targets.iter().find(|&&(_, t)| {
                        inv.offset >= t
                            && inv.offset < item_end(source, t, line_bounds(source, t).1)
                    });
                    if let Some(stop) = starred.and_then(|&(_, t)| primary_end(source, t)) {
                        // (an invalid starred target is no `expression`: the first pass's stop)
                        let at = token_on_line(source, stop);
                        return Err(ctx.error("invalid syntax", at, ErrorKind::SyntaxError));
                    }
                    let err = ctx.error(unmask(&inv.msg, &names), inv.offset, inv.kind);
                    let whole = target_error(&err.msg);
                    return Err(legacy_first(&ctx, err, inv.offset, whole));
                }
                if let Some(&(star, _)) = starred_targets.first() {
                    if !ast_mode {
                        // (the compiler's error)
                        let msg = "starred assignment target must be in a list or tuple";
                        return Err(ctx.error(msg, star, ErrorKind::SyntaxError));
                    }
                    idents::star_with_targets(&mut module, &starred_targets);
                }
                return Ok(Parsed { module, renames });
            }
            Err(e) => {
                if starred_targets.len() < MAX_PLACEHOLDERS {
                    if let Some(star) = starred_with_target(&text, &e) {
                        let mut bytes = text.into_owned().into_bytes();
                        bytes[star] = b' ';
                        text = Cow::Owned(String::from_utf8(bytes).unwrap_or_default());
                        starred_targets.push((star, next_token(&text, star + 1)));
                        continue;
                    }
                }
                // rustpython refuses a `\N{...}` name it cannot resolve where CPython goes on
                // (see `neutralize_unknown_names`); the tree is never returned.
                if let Some(new) =
                    unknown_named_escape(&text).and_then(|_| neutralize_unknown_names(&text))
                {
                    text = Cow::Owned(new);
                    continue;
                }
                if replaced < MAX_PLACEHOLDERS {
                    if let Some(new) = replace_newer_identifier(&text, &e, &mut placeholders) {
                        replaced += 1;
                        text = Cow::Owned(new);
                        continue;
                    }
                }
                if ast_mode && renames.len() < MAX_RENAMES {
                    if let Some((offset, name)) = duplicate(&e) {
                        if let Some(new) = rename(&text, offset, &name) {
                            renames.push((offset as u32, name));
                            text = Cow::Owned(new);
                            continue;
                        }
                    }
                }
                // A bare starred `with` target parsed without its `*` that is no target
                // (`with a as *f():`): CPython's first pass stops after its primary, before a
                // later statement's error that rustpython met in the text without the `*`.
                let e_at = u32::from(e.offset) as usize;
                for &(_, t) in &starred_targets {
                    let Some(stop) = primary_end(source, t) else { continue };
                    let at = token_on_line(source, stop);
                    // (the item is that primary alone)
                    let alone = matches!(source.as_bytes().get(at), Some(b':' | b',' | b')'));
                    if e_at <= at || stop == t || !alone {
                        continue;
                    }
                    let target = source.get(t..stop).unwrap_or_default();
                    let invalid = matches!(as_expression(&ctx, target, false),
                        Some(Ok(x)) if validate::star_target_error(&x).is_some());
                    if invalid {
                        let err = ctx.error("invalid syntax", at, ErrorKind::SyntaxError);
                        return Err(after_parser_error(&ctx, at, err, &scanned, None));
                    }
                }
                let mut err = map_error(&ctx, &e, &scanned);
                if !placeholders.is_empty() {
                    err.msg = unmask(&err.msg, &names_of(&placeholders));
                }
                return Err(err);
            }
        }
    }
}

/// When rustpython stopped at the `*` of a `with` item's bare starred target (`with a as *x:`,
/// which 3.11's grammar takes), its offset.
fn starred_with_target(text: &str, e: &ParseError) -> Option<usize> {
    let ParseErrorType::UnrecognizedToken(Tok::Star, _) = &e.error else { return None };
    let star = u32::from(e.offset) as usize;
    let b = text.as_bytes();
    if b.get(star) != Some(&b'*') || b.get(star + 1) == Some(&b'*') {
        return None;
    }
    let mut j = star;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c') {
        j -= 1;
    }
    (word_before(text, j) == "as" && with_statement(&text[logical_line_start(text, star)..]))
        .then_some(star)
}

/// When rustpython stopped at a letter 3.11 accepts in identifiers (Unicode 14.0's XID), the
/// text with that identifier replaced by its placeholder (made, and remembered, on first use).
fn replace_newer_identifier(
    text: &str,
    e: &ParseError,
    placeholders: &mut Vec<(String, String)>,
) -> Option<String> {
    let ParseErrorType::Lexical(LexicalErrorType::UnrecognizedToken { tok }) = &e.error else {
        return None;
    };
    let c = *tok;
    if c.is_ascii() || !crate::unicode::is_xid_continue(c) {
        return None;
    }
    let off = u32::from(e.offset) as usize;
    let at = if text.get(..off).is_some_and(|t| t.ends_with(c)) { off - c.len_utf8() } else { off };
    if !text.get(at..).is_some_and(|t| t.starts_with(c)) {
        return None;
    }
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, ch)| crate::unicode::is_xid_continue(ch))
        .last()
        .map_or(at, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .find(|&(_, ch)| !crate::unicode::is_xid_continue(ch))
        .map_or(text.len(), |(i, _)| at + i);
    let name = &text[start..end];
    if !crate::unicode::is_identifier(name) {
        return None;
    }
    let placeholder = match placeholders.iter().find(|(_, o)| o == name) {
        Some((p, _)) => p.clone(),
        None => {
            let new = rename(text, start, name)?;
            let p = new.get(start..end)?.to_string();
            placeholders.push((p.clone(), name.to_string()));
            p
        }
    };
    Some(format!("{}{placeholder}{}", &text[..start], &text[end..]))
}

/// Hides, in one pass, every identifier the pre-scan saw whose letters rustpython's tables
/// (Unicode 10.0) lack but 3.11's (14.0) accept behind a same-length ASCII placeholder (one per
/// name, unused in the source), so rustpython parses the file once whatever the number of such
/// names. `None` when there is nothing to hide.
fn mask_newer_identifiers(
    text: &str,
    words: &[(usize, usize)],
    placeholders: &mut Vec<(String, String)>,
) -> Option<String> {
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut used: Option<std::collections::HashSet<&[u8]>> = None;
    let mut given: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    // Next candidate number per placeholder length.
    let mut next: std::collections::HashMap<usize, u64> = std::collections::HashMap::new();
    for &(start, end) in words {
        let Some(word) = text.get(start..end) else { continue };
        if (start > 0 && is_ident_byte(b[start - 1])) || !crate::unicode::is_identifier(word) {
            continue;
        }
        let lexed = rustpython_parser::lexer::lex(word, rustpython_parser::Mode::Module).next();
        if matches!(lexed, Some(Ok((Tok::Name { name }, _))) if name == word) {
            continue;
        }
        let i = match given.get(word) {
            Some(&i) => i,
            None => {
                let used = used.get_or_insert_with(|| {
                    b.split(|&c| !is_ident_byte(c)).filter(|w| w.is_ascii()).collect()
                });
                let n = next.entry(word.len()).or_insert(0);
                let p = loop {
                    let p = placeholder(*n, word.len())?;
                    *n += 1;
                    if !is_keyword(&p)
                        && !matches!(&*p, "match" | "case" | "type")
                        && !used.contains(p.as_bytes())
                    {
                        break p;
                    }
                };
                placeholders.push((p, word.to_string()));
                given.insert(word, placeholders.len() - 1);
                placeholders.len() - 1
            }
        };
        let out = out.get_or_insert_with(|| b.to_vec());
        out[start..end].copy_from_slice(placeholders[i].0.as_bytes());
    }
    out.and_then(|o| String::from_utf8(o).ok())
}

/// The `n`th ASCII identifier of `len` bytes (letter or `_`, then letters, digits, `_`).
fn placeholder(mut n: u64, len: usize) -> Option<String> {
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
    let mut p = String::with_capacity(len);
    for i in 0..len {
        let radix = if i == 0 { 53 } else { 63 };
        p.push(ALNUM[(n % radix) as usize] as char);
        n /= radix;
    }
    (n == 0).then_some(p)
}

/// Placeholder → the NFKC-normalised original, as CPython stores the name.
fn names_of(placeholders: &[(String, String)]) -> idents::Names {
    placeholders
        .iter()
        .map(|(p, o)| (p.clone(), node::normalize_identifier(o).into_owned()))
        .collect()
}

/// `msg` with the placeholders it names given back their names.
fn unmask(msg: &str, names: &idents::Names) -> String {
    if names.is_empty() {
        return msg.to_string();
    }
    let mut out = String::with_capacity(msg.len());
    let mut word = String::new();
    for c in msg.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        out.push_str(names.get(&word).map_or(&word, |o| o));
        word.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// Could the source hold a character rustpython lexes as a name although it is no letter (an
/// emoji: U+1xxxx, or U+2300-U+2BFF)? A cheap filter before lexing again.
fn may_have_emoji(src: &str) -> bool {
    let b = src.as_bytes();
    memchr::memchr(0xF0, b).is_some()
        || memchr::memchr_iter(0xE2, b)
            .any(|i| b.get(i + 1).is_some_and(|n| (0x8C..=0xAF).contains(n)))
}

/// The first character, up to the token at `off`, of a name rustpython lexed but 3.11's tokenizer
/// rejects (rustpython lexes an emoji as a name), with its offset. Lexes again: error path only.
fn newer_name_before(src: &str, off: usize) -> Option<(char, usize)> {
    if src.is_ascii() {
        return None;
    }
    for tok in rustpython_parser::lexer::lex(src, rustpython_parser::Mode::Module) {
        let Ok((tok, range)) = tok else { return None };
        let start = u32::from(range.start()) as usize;
        if start > off {
            return None;
        }
        if let Tok::Name { name } = &tok {
            if !name.is_ascii() && !crate::unicode::is_identifier(name) {
                let c = name.chars().find(|&c| !crate::unicode::is_xid_continue(c))?;
                return Some((c, start + name.find(c).unwrap_or(0)));
            }
        }
    }
    None
}

/// A duplicate parameter or keyword name rustpython rejected but `ast.parse` accepts.
fn duplicate(e: &ParseError) -> Option<(usize, String)> {
    match &e.error {
        ParseErrorType::Lexical(LexicalErrorType::DuplicateArgumentError(n))
        | ParseErrorType::Lexical(LexicalErrorType::DuplicateKeywordArgumentError(n)) => {
            Some((u32::from(e.offset) as usize, n.clone()))
        }
        _ => None,
    }
}

/// Replaces the name at `offset` by a same-length identifier that appears nowhere in the source,
/// so positions are unchanged; the converter restores the original.
fn rename(text: &str, offset: usize, name: &str) -> Option<String> {
    if text.get(offset..offset + name.len()) != Some(name) {
        return None;
    }
    let len = name.len();
    let bytes = text.as_bytes();
    let used = |cand: &str| {
        let mut from = 0;
        while let Some(p) = text[from..].find(cand) {
            let at = from + p;
            let before_ok = at == 0 || !is_ident_byte(bytes[at - 1]);
            let after_ok = bytes.get(at + cand.len()).is_none_or(|&c| !is_ident_byte(c));
            if before_ok && after_ok {
                return true;
            }
            from = at + 1;
        }
        false
    };
    const ALPHA: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_";
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789";
    // Candidates: first char from ALPHA, the rest from ALNUM, enumerated in order.
    let mut counter: u64 = 0;
    for _ in 0..100_000 {
        let mut n = counter;
        let mut cand = String::with_capacity(len);
        cand.push(ALPHA[(n % ALPHA.len() as u64) as usize] as char);
        n /= ALPHA.len() as u64;
        for _ in 1..len {
            cand.push(ALNUM[(n % ALNUM.len() as u64) as usize] as char);
            n /= ALNUM.len() as u64;
        }
        counter += 1;
        if n > 0 && len > 0 && counter > 53u64.saturating_pow(len as u32) {
            break;
        }
        if is_keyword(&cand) || used(&cand) {
            continue;
        }
        let mut out = String::with_capacity(text.len());
        out.push_str(&text[..offset]);
        out.push_str(&cand);
        out.push_str(&text[offset + len..]);
        return Some(out);
    }
    None
}

fn is_ident_byte(c: u8) -> bool {
    is_ident_char(c)
}

/// A keyword, or `_` (never a free name in the candidates this file makes).
fn is_keyword(s: &str) -> bool {
    super::is_hard_keyword(s) || s == "_"
}

/// The header keyword of the block statement whose `:` is just before `colon_end`, with its line
/// number: the nearest line at or above the colon starting with a block keyword.
fn block_header(src: &str, colon_end: usize) -> Option<(String, u32, usize)> {
    let b = src.as_bytes();
    let keywords = [
        "if", "elif", "else", "for", "while", "def", "class", "with", "try", "except", "finally",
        "match", "case", "lambda",
    ];
    let mut end = colon_end.min(b.len());
    loop {
        let ls = b[..end].iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |p| p + 1);
        let line = &src[ls..end];
        let t = line.trim_start();
        let mut word: String =
            t.chars().take_while(|c| c.is_ascii_alphabetic() || *c == '_').collect();
        if word == "async" {
            word = t[5..].trim_start().chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        }
        if word == "except" && t["except".len()..].trim_start().starts_with('*') {
            word.push('*');
        }
        if (keywords.contains(&word.as_str()) || word == "except*") && word != "lambda" {
            let line_no = LineIndex::new(&src[..ls]).position(ls as u32).0;
            return Some((word, line_no, ls));
        }
        if ls == 0 {
            return None;
        }
        end = ls - 1;
        if end > 0 && b[end] == b'\n' && b[end - 1] == b'\r' {
            end -= 1;
        }
    }
}

fn map_error(ctx: &Ctx, e: &ParseError, scanned: &scan::Scan) -> SyntaxError {
    let src = ctx.src;
    let mut off = (u32::from(e.offset) as usize).min(src.len());
    // Only blank lines left is the end of input for CPython's tokenizer (rustpython may stop at
    // a last blank line's blanks, reading them as indentation).
    let at_eof = next_token(src, off) >= src.len()
        || matches!(e.error, ParseErrorType::Eof)
        || matches!(&e.error, ParseErrorType::UnrecognizedToken(Tok::EndOfFile, _));
    let at_newline = matches!(&e.error, ParseErrorType::UnrecognizedToken(Tok::Newline, _));
    if at_newline && off < src.len() {
        // The parser stopped at a NEWLINE token: CPython's starts at a comment before it, and
        // after a continuation into blank lines (rustpython got blanks there), on the last one.
        let b = src.as_bytes();
        while off > 0 && b[off - 1] == b'\\' && matches!(b.get(off), Some(b'\n' | b'\r')) {
            off += if b.get(off..off + 2) == Some(b"\r\n") { 2 } else { 1 };
            while matches!(b.get(off), Some(b' ' | b'\t' | b'\x0c')) {
                off += 1;
            }
        }
        let (start, _) = line_bounds(src, off);
        if let Some(h) = comment_start(&src.as_bytes()[start..off]) {
            off = start + h;
        }
    } else if at_eof {
        // CPython's tokenizer sits on the last line at the end of input.
        off = scan::last_char(src.as_bytes());
    }
    let parser_is_lexical = matches!(e.error, ParseErrorType::Lexical(_));
    if parser_is_lexical && scanned.reject.as_ref().is_none_or(|r| !r.fatal) {
        if let Some(err) = unexpected_indent_before(ctx, off, scanned) {
            return err;
        }
    }
    if let Some(r) = &scanned.reject {
        if r.fatal || r.at <= off {
            return ctx.scan_error(r);
        }
    }
    // (rustpython's error is one of CPython's tokenizer, which its reading of an assignment's
    // value may meet)
    let tokenizer_error = matches!(&e.error, ParseErrorType::Lexical(lex) if matches!(
        lex,
        LexicalErrorType::LineContinuationError
            | LexicalErrorType::IndentationError
            | LexicalErrorType::TabError
            | LexicalErrorType::TabsAfterSpaces
    ) || matches!(lex, LexicalErrorType::UnrecognizedToken { tok } if !tok.is_ascii()));
    let tokenizer_error = tokenizer_error.then_some(off);
    if let Some(err) = yield_assignment_error(ctx, off) {
        return after_parser_error(ctx, off, err, scanned, Some(e));
    }
    if let Some(inv) = invalid_before(src, ctx.filename, off, tokenizer_error) {
        // CPython's parser fails at that statement already.
        let err = ctx.error(inv.msg, inv.offset, inv.kind);
        return after_parser_error(ctx, inv.offset, err, scanned, Some(e));
    }
    let expected_indent = matches!(&e.error,
        ParseErrorType::UnrecognizedToken(_, Some(exp)) if exp == "Indent");
    if let Some(lit) = ctx.undecodable.and_then(|u| u.literal.as_ref()) {
        // The parser reduced the literal run (it failed at or after it, and not for want of an
        // indented block before it), reading the token after it: a tokenizer error up to there
        // is met first; else the action's error, then CPython tokenizes the rest.
        if off >= lit.start && !expected_indent {
            if let Some(se) = scanned.error.as_ref().filter(|se| se.at <= lit.next) {
                return ctx.scan_error(se);
            }
            let b = src.as_bytes();
            if b.get(lit.next) == Some(&b'\\')
                && !matches!(b.get(lit.next + 1), None | Some(b'\n' | b'\r'))
            {
                // The token after the run is a `\` with a character after it: the tokenizer's
                // E_LINECONT, at that character (rustpython may have stopped before it).
                let msg = "unexpected character after line continuation character";
                return ctx.error(msg, lit.next + 1, ErrorKind::SyntaxError);
            }
            if let Some(u) = &scanned.unclosed {
                if next_token(src, lit.next) >= src.len() {
                    // The token after the run is the end inside brackets: the tokenizer's error.
                    return ctx.scan_error(u);
                }
            }
            if let ParseErrorType::Lexical(lex) = &e.error {
                // rustpython's tokenizer-level errors (its string and f-string errors are the
                // parser's in CPython).
                let tokenizer = matches!(
                    lex,
                    LexicalErrorType::LineContinuationError
                        | LexicalErrorType::IndentationError
                        | LexicalErrorType::TabError
                        | LexicalErrorType::TabsAfterSpaces
                ) || matches!(lex, LexicalErrorType::UnrecognizedToken { tok } if !tok.is_ascii());
                // (rustpython stops after the character it fails on)
                let first_char = src.get(lit.next..).and_then(|r| r.chars().next());
                if tokenizer && off <= lit.next + first_char.map_or(0, char::len_utf8) {
                    return map_lexical(ctx, lex, off);
                }
            }
            let found = scanned.error.as_ref().filter(|se| !parser_is_lexical || se.at <= off);
            if let Some(err) = found.and_then(|se| ctx.retokenized(se)) {
                return err;
            }
            if let Some(u) = &scanned.unclosed {
                let err_line = ctx.index().position(lit.next as u32).0;
                if err_line > ctx.index().position(u.offset as u32).0 {
                    return ctx.scan_error(u);
                }
            }
            return lit.error.clone();
        }
    }
    if let Some(at) = continuation_at_eof(src).filter(|_| scanned.unclosed.is_none()) {
        // A `\` continuing the last line into the end of the input: the tokenizer's E_EOF, met
        // when the parser reads on to it (no exception when tokenizing the rest after a parser
        // error). CPython's column is the line's length with its line break.
        let earlier_tokenizer_error = scanned.error.as_ref().is_some_and(|se| se.at < at);
        if off >= at && !earlier_tokenizer_error {
            let (_, end) = line_bounds(src, at);
            return ctx.error("unexpected EOF while parsing", end, ErrorKind::SyntaxError);
        }
    }
    // rustpython stops at a malformed or unknown `\N{...}`, or a truncated `\x`-style escape, with
    // various errors (or later).
    // CPython raises it while parsing, then tokenizes the whole source: a tokenizer error anywhere
    // (an unrecognised character here, before or after the string) wins.
    // (an ASCII one, `$`, is an operator token for CPython's tokenizer: no tokenizer error)
    let unrecognized = matches!(&e.error,
        ParseErrorType::Lexical(LexicalErrorType::UnrecognizedToken { tok }) if !tok.is_ascii());
    // (a literal where rustpython stopped is parsed only after an operand: `x = y '\N{..}'`)
    if let Some((msg, at, _)) = bad_escape(src, true)
        .filter(|&(_, _, start)| {
            start < off
                || (start == off && operand_before(src, off) && missing_else(ctx, off).is_none())
        })
        .filter(|_| !unrecognized)
    {
        if let Some((c, at)) = newer_name_before(src, src.len()) {
            return ctx.error(validate::invalid_character(c), at, ErrorKind::SyntaxError);
        }
        if let Some(se) = &scanned.error {
            return ctx.scan_error(se);
        }
        return ctx.error(msg, at, ErrorKind::SyntaxError);
    }
    if let Some((c, at)) = newer_name_before(src, off) {
        return ctx.error(validate::invalid_character(c), at, ErrorKind::SyntaxError);
    }
    let unexpected_indent =
        matches!(&e.error, ParseErrorType::UnrecognizedToken(Tok::Indent | Tok::Dedent, _));
    // CPython tokenizes the rest of the file after a parser error: a tokenizer error anywhere
    // wins, unless the parser stopped at an indentation token or at an earlier tokenizer error.
    if let Some(se) = &scanned.error {
        // (rustpython's indentation errors come at a line's start, before its tokens)
        let same_line = || line_bounds(src, off) == line_bounds(src, se.at);
        if se.at <= off || (parser_is_lexical && same_line()) {
            return ctx.scan_error(se);
        }
        // (an ASCII character no token starts with, `$`, is an operator token for CPython: its
        // parser fails there, then tokenizes the rest)
        let operator = matches!(&e.error,
            ParseErrorType::Lexical(LexicalErrorType::UnrecognizedToken { tok }) if tok.is_ascii());
        if !unexpected_indent && (!parser_is_lexical || operator) {
            if let Some(err) = ctx.retokenized(se) {
                return err;
            }
        }
    }
    // (a `\` before the end of the input is the tokenizer's E_EOF: never closed brackets)
    let line_continuation =
        matches!(e.error, ParseErrorType::Lexical(LexicalErrorType::LineContinuationError))
            && continuation_at_eof(src).is_none();
    if !unexpected_indent && !line_continuation {
        // `=` where a bracket's `named_expression` is parsed: the second pass's rule reads the
        // value after it, so a `\` error there comes before the end inside the brackets.
        if matches!(&e.error, ParseErrorType::UnrecognizedToken(Tok::Equal, _)) {
            let open = scan::scan_until(src, off).open;
            let linecont = named_expression_assignment(ctx, off, &open, false)
                .filter(|e| e.msg == "unexpected character after line continuation character");
            if let Some(err) = linecont.filter(|_| !open.is_empty()) {
                return err;
            }
        }
        if let Some(u) = &scanned.unclosed {
            let err_line = ctx.index().position(off as u32).0;
            let open_line = ctx.index().position(u.offset as u32).0;
            if at_eof || err_line > open_line {
                return ctx.scan_error(u);
            }
        }
    }
    let err = map_parser_error(ctx, e, off, at_eof);
    if second_pass(&err) {
        return legacy_first(ctx, err, off, false);
    }
    err
}

/// [`map_error`]'s answer once the tokenizer's errors are ruled out.
fn map_parser_error(ctx: &Ctx, e: &ParseError, off: usize, at_eof: bool) -> SyntaxError {
    let src = ctx.src;
    if !matches!(&e.error, ParseErrorType::UnrecognizedToken(Tok::Indent | Tok::Dedent, _)) {
        if let Some(err) = target_statement_error(ctx, off) {
            return err;
        }
        if let Some(err) = comprehension_error(ctx, off) {
            return err;
        }
        if let Some(err) = annotated_tuple_error(ctx, off) {
            return err;
        }
    }
    match &e.error {
        ParseErrorType::Eof => {
            if let Some(err) = indented_block_error(ctx, off) {
                return err;
            }
            if let Some(err) = try_without_handler(ctx, off) {
                return err;
            }
            ctx.error("unexpected EOF while parsing", off, ErrorKind::SyntaxError)
        }
        ParseErrorType::Lexical(lex) => {
            // An ASCII character no token starts with (`$`, `?`) is an operator token for
            // CPython's tokenizer: the parser fails there, first wanting an indented block.
            if let LexicalErrorType::UnrecognizedToken { tok } = lex {
                if tok.is_ascii() {
                    // (`x = a if b $`: the conditional without `else` before it)
                    if let Some(err) = missing_else(ctx, off.saturating_sub(1)) {
                        return err;
                    }
                    // (`(**$)`: CPython's first pass stops at the `**`)
                    if let Some(err) = double_starred_group(ctx, off.saturating_sub(1)) {
                        return err;
                    }
                }
                // (rustpython stops after it) Not indented deeper than the header: no INDENT.
                let at = off.saturating_sub(1);
                let (line_start, _) = line_bounds(src, at);
                let first_on_line = src.as_bytes()[line_start..at]
                    .iter()
                    .all(|c| matches!(c, b' ' | b'\t' | b'\x0c'));
                if tok.is_ascii() && first_on_line && !indented_deeper(src, at) {
                    if let Some(err) = indented_block_error(ctx, at) {
                        return err;
                    }
                }
            }
            if at_eof && matches!(lex, LexicalErrorType::IndentationError | LexicalErrorType::Eof) {
                if let Some(err) = indented_block_error(ctx, off) {
                    return err;
                }
            }
            map_lexical(ctx, lex, off)
        }
        ParseErrorType::UnrecognizedToken(tok, expected) => {
            if matches!(tok, Tok::Indent) {
                // CPython's column is the indentation's width (the INDENT token has none), on
                // the line of the first token: blanks split by `\` continuations are read on
                // into the next line first.
                let i = past_split_indentation(src, line_bounds(src, off).0);
                let width = i - line_bounds(src, i).0;
                let mut err = ctx.error("unexpected indent", i, ErrorKind::IndentationError);
                err.offset = width as u32;
                err.byte_offset = None;
                return err;
            }
            if matches!(tok, Tok::Dedent) {
                return ctx.error("unexpected unindent", off, ErrorKind::IndentationError);
            }
            if expected.as_deref() == Some("Indent") || at_eof {
                if let Some(err) = indented_block_error(ctx, off) {
                    return err;
                }
            }
            if let Some(err) = double_starred_group(ctx, off) {
                return err;
            }
            if let Some(err) = fstring_error_before(ctx, off) {
                return err;
            }
            if matches!(tok, Tok::String { .. })
                && operand_before(src, off)
                && missing_else(ctx, off).is_none()
            {
                // A string right after an operand: CPython's second pass parses it (as the
                // expression after a legacy name, or `invalid_expression`'s), its errors first.
                if let Some(err) = fstring_error_before(ctx, after_strings(src, off)) {
                    return err;
                }
            }
            if let Some(err) = guess_message(ctx, tok, off) {
                return err;
            }
            if fstring_before_is_unclosed(ctx.src, off) {
                // CPython 3.11 parses an f-string's fields when the string token is reduced, so
                // `f"{"x"}"` fails on the f-string before the tokens that follow it.
                return ctx.error("f-string: expecting '}'", off, ErrorKind::SyntaxError);
            }
            ctx.error("invalid syntax", off, ErrorKind::SyntaxError)
        }
        ParseErrorType::ExtraToken(_) | ParseErrorType::InvalidToken => {
            ctx.error("invalid syntax", off, ErrorKind::SyntaxError)
        }
    }
}

/// rustpython's parse of `text`, whose indentation [`scan::flatten_indents`] flattened, with
/// CPython's INDENT and DEDENT tokens put in from the scan's reading of each logical line (at
/// its first token, as rustpython's lexer places them; the last DEDENTs before the end).
fn parse_with_indents(
    text: &str,
    filename: &str,
    lines: &[scan::IndentLine],
) -> Result<syntax::ModModule, ParseError> {
    use rustpython_parser::text_size::{TextRange, TextSize};
    let mut tokens = Vec::new();
    let mut depth = 0usize;
    // An INDENT spans the blanks before the token on its line, as rustpython's lexer gives it
    // (the error mapping reads where it starts); DEDENTs are empty, at the token.
    let mut put = |to: usize, from: TextSize, at: TextSize, tokens: &mut Vec<_>| {
        for _ in to..depth {
            tokens.push(Ok((Tok::Dedent, TextRange::empty(at))));
        }
        if to > depth {
            tokens.push(Ok((Tok::Indent, TextRange::new(from.min(at), at))));
        }
        depth = to;
    };
    let b = text.as_bytes();
    let mut next = lines.iter().peekable();
    // (the lexer's iterator ends before its EndOfFile token)
    let mut ended = true;
    for item in syntax::ModModule::lex_starts_at(text, TextSize::default()) {
        match &item {
            Ok((Tok::Indent | Tok::Dedent, _)) => continue,
            Ok((_, range)) => {
                let at = range.start();
                while let Some(l) = next.next_if(|l| l.token <= usize::from(at)) {
                    let line = b.get(l.start..l.token).unwrap_or_default();
                    let from = match line.iter().rposition(|&c| c == b'\n' || c == b'\r') {
                        Some(p) => l.start + p + 1,
                        None => l.start,
                    };
                    put(l.depth, TextSize::try_from(from).unwrap_or_default(), at, &mut tokens);
                }
            }
            // (as rustpython's lexer does, the INDENT of a line whose first token fails is
            // not given)
            Err(_) => ended = false,
        }
        tokens.push(item);
        if !ended {
            break;
        }
    }
    if ended {
        let end = TextSize::try_from(text.len()).unwrap_or_default();
        put(0, end, end, &mut tokens);
    }
    syntax::ModModule::parse_tokens(tokens, filename)
}

/// rustpython's lexer failed in the first token of a line indented deeper than the statement
/// before it (not after a `:` header, not inside brackets or after a `\\`): CPython's tokenizer
/// gives the INDENT first and its parser fails there ("unexpected indent", at the indentation's
/// width), before reading the token.
fn unexpected_indent_before(ctx: &Ctx, off: usize, scanned: &scan::Scan) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    let at = off.saturating_sub(1).min(src.len());
    let (start, end) = line_bounds(src, at);
    let width = b[start..end].iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\x0c')).count();
    let first = start + width;
    // (rustpython stops in the token or right after its first character)
    let token_end = b[first..end]
        .iter()
        .position(|c| matches!(c, b' ' | b'\t' | b'\x0c' | b'#'))
        .map_or(end, |p| first + p);
    let deeper = indented_deeper(src, first) || next_token(src, 0) >= first;
    let real_token = !matches!(b.get(first), None | Some(b'\\' | b'#' | b'\n' | b'\r'));
    // (a tokenizer error before it, such as a string running into it, comes first; so does
    // CPython's dedent that matches no level, which the scan found reading indentations split
    // by continuations as CPython does, where the physical lines above look shallower)
    let earlier = scanned.error.as_ref().is_some_and(|se| se.at < first)
        || scanned.reject.as_ref().is_some_and(|r| r.msg.starts_with("unindent") && r.at <= first);
    if width == 0 || !real_token || earlier || off < first || off > token_end + 1 || !deeper {
        return None;
    }
    if !scan::scan_until(src, start).open.is_empty() {
        return None;
    }
    // The last line before it holding a token must not end a header or continue.
    let mut j = start;
    while j > 0 {
        let (s, e) = line_bounds(src, j - 1);
        let line = &src[s..e];
        let code = match comment_start(line.as_bytes()) {
            Some(h) => &line[..h],
            None => line,
        };
        let code = code.trim_end();
        if !code.trim_start().is_empty() {
            if code.ends_with(':') || code.ends_with('\\') {
                return None;
            }
            break;
        }
        j = s;
    }
    let mut err = ctx.error("unexpected indent", first, ErrorKind::IndentationError);
    err.offset = width as u32;
    err.byte_offset = None;
    Some(err)
}

/// Where a comment starts in `line` (outside one-line strings), if it holds one.
fn comment_start(line: &[u8]) -> Option<usize> {
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < line.len() {
        let c = line[i];
        match quote {
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'#' => return Some(i),
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None => {}
        }
        i += 1;
    }
    None
}

/// A parser error of CPython's that `validate` finds where rustpython stopped later (at `off`):
/// in the statements before the one holding `off` (a block header without its body last, as
/// `if y:` before the error's line, given one), or in that statement's beginning, read up to
/// the last token before `off` that leaves it whole (`1 = x $`: `1 = x`, whose target CPython's
/// second pass names before it reads on, unless that reading meets the `tokenizer_error` at
/// rustpython's stop, a bracket running to the end or a literal of the value). Error path only
/// (parses the statements again).
fn invalid_before(
    src: &str,
    filename: &str,
    off: usize,
    tokenizer_error: Option<usize>,
) -> Option<validate::Invalid> {
    let off = off.min(src.len());
    let start = statement_start(src, off)?;
    if let Some(head) = src.get(..start).filter(|h| !h.trim().is_empty()) {
        let parsed = match syntax::ModModule::parse(head, filename) {
            Ok(module) => Some((module, Cow::Borrowed(head))),
            Err(_) => with_body(head).and_then(|text| {
                Some((syntax::ModModule::parse(&text, filename).ok()?, Cow::Owned(text)))
            }),
        };
        if let Some((module, text)) = parsed {
            if let Err(inv) = validate::validate(&module, &text) {
                return Some(inv);
            }
        }
    }
    // Several targets, or one `invalid_named_expression` reads no value after: CPython names
    // an invalid one once it has read the `=` after it (`invalid_assignment`).
    let b = src.as_bytes();
    let first_eq = assign_after(src, start, off)?;
    let mut last_eq = first_eq;
    while let Some(eq) = assign_after(src, last_eq + 1, off) {
        last_eq = eq;
    }
    let value_at = token_on_line(src, first_eq + 1);
    let single = last_eq == first_eq && reads_value(&src[start..first_eq]);
    if single && tokenizer_error.is_some_and(|t| t <= value_at + 2) {
        // (reading the value, CPython's parser fetches its first token: the tokenizer's error)
        return None;
    }
    let invalid_assignment = || {
        let text = format!("{} _", &src[start..=last_eq]);
        let module = syntax::ModModule::parse(&text, filename).ok()?;
        let [syntax::Stmt::Assign(assign)] = module.body.as_slice() else { return None };
        // (`_PyPegen_get_invalid_target` of each target in turn)
        let inv = assign.targets.iter().find_map(validate::star_target_error)?;
        Some(validate::Invalid { offset: start + inv.offset, ..inv })
    };
    if !single || !starts_operand(src, value_at) {
        return invalid_assignment();
    }
    // The value's `bitwise_or`: the statement with its last tokens dropped one by one until it
    // parses; CPython reads the token after it too.
    let mut end = off;
    for _ in 0..16 {
        while end > first_eq && matches!(b[end - 1], b' ' | b'\t' | b'\x0c' | b'\\' | b'\n' | b'\r')
        {
            end -= 1;
        }
        if end <= first_eq + 1 {
            // No value: `invalid_assignment` names the target, unless rustpython stopped in
            // the value's brackets (its own error there, met while CPython reads it).
            let in_brackets = scan::scan_until(src, off).open.iter().any(|&(_, p)| p > first_eq);
            return if in_brackets { None } else { invalid_assignment() };
        }
        if b[end - 1] == b'#' {
            return None;
        }
        let text = &src[start..end];
        if let Ok(module) = syntax::ModModule::parse(text, filename) {
            let trailer = token_on_line(src, end);
            // (a call or subscript running to the end: CPython reads into it)
            let runs_to_end =
                matches!(b.get(trailer), Some(b'(' | b'[')) && matching_close(b, trailer).is_none();
            let mut next = trailer;
            if b.get(next) == Some(&b'.') && b.get(next + 1) != Some(&b'.') {
                // (an attribute: CPython fetches the name after the `.` too)
                next = token_on_line(src, next + 1);
            }
            let mut next_end = next + word_at(src, next).len().max(1);
            let mut runs_to_end = runs_to_end;
            if matches!(b.get(next), Some(b'+' | b'-' | b'*' | b'/' | b'%' | b'@' | b'&' | b'|'))
                || matches!(b.get(next), Some(b'^' | b'<' | b'>'))
            {
                // (a binary operator: CPython reads on to its right operand's first token)
                let operator_end =
                    next + b[next..].iter().take_while(|c| b"+-*/%@&|^<>".contains(c)).count();
                let operand = token_on_line(src, operator_end);
                runs_to_end |= matches!(b.get(operand), Some(b'(' | b'[' | b'{'))
                    && matching_close(b, operand).is_none();
                next_end = operand + word_at(src, operand).len().max(1);
            }
            let met_tokenizer_error = tokenizer_error.is_some_and(|t| t <= next_end + 1);
            if met_tokenizer_error || runs_to_end {
                return None;
            }
            return validate::validate(&module, text)
                .err()
                .map(|inv| validate::Invalid { offset: start + inv.offset, ..inv });
        }
        end = match b[end - 1] {
            b'\'' | b'"' => {
                // A string literal (prefix included): in the value, CPython parses it, and its
                // errors come first.
                let lit = string_containing(src, end - 1)?;
                let mut j = lit;
                while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c') {
                    j -= 1;
                }
                let after_operand = j > 0
                    && (is_ident_char(b[j - 1])
                        || matches!(b[j - 1], b')' | b']' | b'}' | b'\'' | b'"'));
                if !after_operand && in_bitwise_or(src.get(first_eq + 1..lit).unwrap_or("")) {
                    return None;
                }
                lit
            }
            c if is_ident_char(c) => end - word_before(src, end).len().max(1),
            _ => end - 1,
        };
    }
    None
}

/// Does `validate`'s error `inv` come before the literal starting at `lit` that fails to decode?
/// CPython's first pass stops at the statement `validate` rejects, before a later statement's
/// literal or one past the assignment `=` after an invalid target (the second pass names the
/// target once it has read that `=`); a literal in the target itself, or in what the second
/// pass reads whole (`del` targets, call arguments), is parsed, and fails, first.
fn invalid_before_literal(src: &str, inv: &validate::Invalid, lit: usize) -> bool {
    if inv.offset >= lit {
        return false;
    }
    if lit >= statement_end(src, inv.offset) {
        return true;
    }
    // (an `=` at the target's bracket depth)
    let depth = scan::scan_until(src, inv.offset).open.len();
    let Some(eq) = assign_after(src, inv.offset, lit)
        .filter(|&a| scan::scan_until(src, a).open.len() <= depth)
    else {
        return false;
    };
    // A single target `invalid_named_expression` reads a value after: the literal in that
    // value's leading `bitwise_or` is parsed first.
    let start = statement_start(src, inv.offset).unwrap_or(0);
    let single = assign_after(src, start, eq).is_none() && assign_after(src, eq + 1, lit).is_none();
    let value = src.get(eq + 1..lit).unwrap_or("");
    let in_value = single && reads_value(&src[start..eq]) && in_bitwise_or(value);
    !in_value
}

/// The first assignment `=` between `from` and `to` (strings skipped; not `==`, `<=`, `+=`...).
fn assign_after(src: &str, from: usize, to: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut i = from;
    while i < to {
        match b[i] {
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i)?;
                continue;
            }
            b'=' if b.get(i + 1) != Some(&b'=')
                && !matches!(
                    i.checked_sub(1).map(|p| b[p]),
                    Some(b'=' | b'!' | b'<' | b'>' | b':' | b'+' | b'-' | b'*' | b'/' | b'%')
                        | Some(b'&' | b'|' | b'^' | b'@')
                ) =>
            {
                return Some(i)
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset of the next token on the logical line from `at` (blanks and `\\` continuations
/// skipped; a comment or line break stands for the NEWLINE).
fn token_on_line(src: &str, at: usize) -> usize {
    let b = src.as_bytes();
    let mut i = at;
    loop {
        match b.get(i) {
            Some(b' ' | b'\t' | b'\x0c') => i += 1,
            Some(b'\\') if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => {
                i += if b.get(i + 1..i + 3) == Some(b"\r\n") { 3 } else { 2 };
            }
            _ => break i,
        }
    }
}

/// Can a `bitwise_or` start at `at` (a name that is no keyword, a number, a string, a bracket,
/// a unary `-`, `+`, `~`, `...`, `await`)?
fn starts_operand(src: &str, at: usize) -> bool {
    let b = src.as_bytes();
    match b.get(at) {
        Some(b'(' | b'[' | b'{' | b'-' | b'+' | b'~' | b'\'' | b'"') => true,
        Some(b'.') => b.get(at..at + 3) == Some(b"..."),
        Some(&c) if is_ident_char(c) => {
            let w = word_at(src, at);
            !super::is_hard_keyword(w) || matches!(w, "None" | "True" | "False" | "await")
        }
        _ => false,
    }
}

/// Does `invalid_named_expression` read a value after the target `target` (an assignment's
/// text before its `=`)? Its last element (after a comma) must be a `bitwise_or` that is no
/// list, tuple, generator, `None`, `True` or `False`.
fn reads_value(target: &str) -> bool {
    let b = target.as_bytes();
    let mut depth = 0usize;
    let mut element = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i).unwrap_or(b.len());
                continue;
            }
            b',' if depth == 0 => element = i + 1,
            _ => {}
        }
        i += 1;
    }
    let element = target[element..].trim();
    let eb = element.as_bytes();
    match eb.first() {
        None | Some(b'[' | b'*') => return false,
        Some(b'(') => {
            let inner = matching_close(eb, 0).and_then(|c| element.get(1..c)).unwrap_or("");
            if inner.trim().is_empty()
                || top_level_comma(inner.as_bytes(), 0).is_some()
                || top_level_word(inner.as_bytes(), b"for")
            {
                return false;
            }
        }
        _ => {}
    }
    if matches!(word_at(element, 0), "None" | "True" | "False") {
        return false;
    }
    // (a comparison, `not`, `and`, `or`, a conditional or a lambda is no `bitwise_or`)
    let operators = ["<", ">", "==", "!="];
    !["not", "and", "or", "if", "else", "lambda", "in", "is", "yield"]
        .iter()
        .any(|w| top_level_word(eb, w.as_bytes()))
        && !operators.iter().any(|op| top_level_text(eb, op.as_bytes()))
}

/// Is `prefix` (a value's text up to a token) within one `bitwise_or`: no comma, comparison,
/// `not`, `and`, `or`, conditional or lambda at its bracket depth 0, no starred item?
fn in_bitwise_or(prefix: &str) -> bool {
    let b = prefix.as_bytes();
    !prefix.trim_start().starts_with('*')
        && top_level_comma(b, 0).is_none()
        && !["not", "and", "or", "if", "else", "lambda", "in", "is", "for"]
            .iter()
            .any(|w| top_level_word(b, w.as_bytes()))
        && !["<", ">", "==", "!="].iter().any(|op| top_level_text(b, op.as_bytes()))
}

/// Does `needle` occur at the bracket depth 0 of `text` (strings skipped)?
fn top_level_text(text: &[u8], needle: &[u8]) -> bool {
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(text, i).unwrap_or(text.len());
                continue;
            }
            _ if depth == 0 && text[i..].starts_with(needle) => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// `head` (source ending in a block header whose body is missing) with a body: the header's
/// indentation and one more space, then `pass`. `None` when it ends otherwise.
fn with_body(head: &str) -> Option<String> {
    let code = head.trim_end();
    let (ls, _) = line_bounds(code, code.len().saturating_sub(1));
    let line = &code[ls..];
    let line_code = comment_start(line.as_bytes()).map_or(line, |h| &line[..h]).trim_end();
    if !line_code.ends_with(':') {
        return None;
    }
    let indent = &line[..line.len() - line.trim_start().len()];
    Some(format!("{code}\n{indent} pass\n"))
}

/// The start of the statement holding `at`: its logical line's start, after the `;` before
/// `at` (strings and comments skipped). `None` for a string running past `at`.
fn statement_start(src: &str, at: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut start = logical_line_start(src, at);
    let mut i = start;
    while i < at {
        match b[i] {
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i)?;
                continue;
            }
            b'#' => {
                while i < at && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b';' => start = i + 1,
            _ => {}
        }
        i += 1;
    }
    Some(start)
}

/// CPython's answer after a parser-phase error `err` at `at` (the undecodable source's first
/// problems first, in source order): it tokenizes the rest of the source, and the first
/// tokenizer error that raises an exception replaces `err` (`e`: rustpython's own error, a
/// tokenizer error without an exception that stops that tokenizing when it comes first).
fn after_parser_error(
    ctx: &Ctx,
    at: usize,
    err: SyntaxError,
    scanned: &scan::Scan,
    e: Option<&ParseError>,
) -> SyntaxError {
    if let Some(se) = scanned.error.as_ref().filter(|se| se.at <= at) {
        // The parser met it before.
        return ctx.scan_error(se);
    }
    if let Some(lit) = ctx.undecodable.and_then(|u| u.literal.as_ref()).filter(|l| l.start <= at) {
        // The literal's action failed first.
        let found = scanned.error.as_ref().filter(|se| se.at > lit.next);
        return found.and_then(|se| ctx.retokenized(se)).unwrap_or_else(|| lit.error.clone());
    }
    // CPython's parser reads on past where `validate` points (an invalid target), up to the
    // second `=` of the line (observed with python3.11): tokenizer errors before it come first.
    if let Some(se) = scanned.error.as_ref().filter(|se| se.at <= second_assign_or_end(ctx.src, at))
    {
        return ctx.scan_error(se);
    }
    let stop = e.and_then(|e| match &e.error {
        ParseErrorType::Lexical(
            LexicalErrorType::IndentationError
            | LexicalErrorType::TabError
            | LexicalErrorType::TabsAfterSpaces
            | LexicalErrorType::LineContinuationError,
        ) => Some(u32::from(e.offset) as usize),
        _ => None,
    });
    let found = scanned.error.as_ref().filter(|se| stop.is_none_or(|s| se.at < s));
    match found.and_then(|se| ctx.retokenized(se)) {
        Some(tokenizer) => tokenizer,
        None if second_pass(&err) => {
            let whole = target_error(&err.msg);
            legacy_first(ctx, err, at, whole)
        }
        None => err,
    }
}

/// A target error `validate` reports after CPython's parser read the whole statement
/// (`del print -1`), not one raised before the rest of it (`1 = ...`: "Maybe you meant '=='").
fn target_error(msg: &str) -> bool {
    msg.starts_with("cannot delete ")
        || (msg.starts_with("cannot assign to ") && !msg.contains(" here."))
}

/// Is `err` one CPython's second parser pass raises (or its generic "invalid syntax"), not one
/// of the tokenizer's or of the first pass's actions (literals, f-strings)?
fn second_pass(err: &SyntaxError) -> bool {
    const FIRST_PASS: &[&str] = &[
        "f-string",
        "(unicode error)",
        "(value error)",
        "bytes can only",
        "cannot mix bytes",
        "unexpected EOF",
        "unexpected character after line continuation",
        "unindent does not match",
        "inconsistent use of tabs",
        "source code string cannot contain null bytes",
        "too many",
        "unterminated",
        "encoding problem",
        "unknown encoding",
    ];
    matches!(err.kind, ErrorKind::SyntaxError | ErrorKind::IndentationError)
        && !super::columns::from_tokenizer(&err.msg)
        && !FIRST_PASS.iter().any(|p| err.msg.starts_with(p))
        && !err.msg.ends_with("was never closed")
}

/// The offset of the line's second `=` (an assignment's, outside strings), or the line's end.
fn second_assign_or_end(src: &str, at: usize) -> usize {
    let (start, end) = line_bounds(src, at);
    let b = src.as_bytes();
    let mut seen = 0;
    let mut quote: Option<u8> = None;
    let mut i = start;
    while i < end {
        let c = b[i];
        match quote {
            Some(_) if c == b'\\' => i += 1,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'#' => break,
            None if c == b'='
                && b.get(i + 1) != Some(&b'=')
                && !matches!(
                    i.checked_sub(1).map(|p| b[p]),
                    Some(
                        b'=' | b'!'
                            | b'<'
                            | b'>'
                            | b':'
                            | b'+'
                            | b'-'
                            | b'*'
                            | b'/'
                            | b'%'
                            | b'&'
                            | b'|'
                            | b'^'
                            | b'@'
                    )
                ) =>
            {
                seen += 1;
                if seen == 2 {
                    return i;
                }
            }
            None => {}
        }
        i += 1;
    }
    end
}

/// "expected an indented block after ..." when the statement before `off` ends with `:` and
/// nothing indented follows.
fn indented_block_error(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    // The last significant character before `off` must be the header's ':'.
    let before = &src.as_bytes()[..off.min(src.len())];
    let mut j = before.len();
    loop {
        // (and a continuation `\` into a blank line)
        while j > 0 && matches!(before[j - 1], b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' | b'\\') {
            j -= 1;
        }
        // Skip a comment on the line.
        let line_start =
            before[..j].iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |p| p + 1);
        match before[line_start..j].iter().position(|&c| c == b'#') {
            Some(h)
                if !before[line_start..line_start + h].contains(&b'\'')
                    && !before[line_start..line_start + h].contains(&b'"') =>
            {
                j = line_start + h;
                if before[line_start..j].iter().all(|c| matches!(c, b' ' | b'\t' | b'\x0c')) {
                    j = line_start;
                }
                continue;
            }
            _ => break,
        }
    }
    if j == 0 || before[j - 1] != b':' {
        return None;
    }
    let (kw, line, _) = block_header(src, j)?;
    let what = match kw.as_str() {
        "def" => format!("function definition on line {line}"),
        "class" => format!("class definition on line {line}"),
        "" => return None,
        k => format!("'{k}' statement on line {line}"),
    };
    let at = if off >= src.len() || src[off..].trim().is_empty() {
        scan::last_char(src.as_bytes())
    } else {
        next_token(src, off)
    };
    Some(ctx.error(
        format!("expected an indented block after {what}"),
        at,
        ErrorKind::IndentationError,
    ))
}

/// The offset of a `\` that ends the last line of the input (before at most one line break)
/// outside strings and comments: CPython's tokenizer reads the continuation, then the end.
fn continuation_at_eof(src: &str) -> Option<usize> {
    let b = src.as_bytes();
    let body = b.strip_suffix(b"\n").or_else(|| b.strip_suffix(b"\r")).unwrap_or(b);
    if body.last() != Some(&b'\\') {
        return None;
    }
    let (start, _) = line_bounds(src, body.len() - 1);
    let mut quote: Option<u8> = None;
    let mut i = start;
    while i < body.len() {
        let c = body[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) if c == b'\\' => i += 1,
            Some(_) => {}
            None if c == b'#' => return None,
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b'\\' => return (i + 1 == body.len()).then_some(i),
            None => {}
        }
        i += 1;
    }
    None
}

/// Does the token at `at` start its line, indented deeper than the last line before it that
/// holds a token?
fn indented_deeper(src: &str, at: usize) -> bool {
    let b = src.as_bytes();
    let indent = |start: usize| b[start..].iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    let (start, _) = line_bounds(src, at);
    if start + indent(start) != at {
        return false;
    }
    let mut end = start;
    while end > 0 {
        let (s, _) = line_bounds(src, end - 1);
        let k = s + indent(s);
        if !matches!(b.get(k), None | Some(b'\n' | b'\r' | b'#')) {
            return indent(start) > indent(s);
        }
        end = s;
    }
    false
}

fn line_bounds(src: &str, off: usize) -> (usize, usize) {
    let b = src.as_bytes();
    let off = off.min(b.len());
    let start = b[..off].iter().rposition(|&c| c == b'\n' || c == b'\r').map_or(0, |p| p + 1);
    let end = b[off..].iter().position(|&c| c == b'\n' || c == b'\r').map_or(b.len(), |p| off + p);
    (start, end)
}

fn is_expr_start(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::Name { .. }
            | Tok::Int { .. }
            | Tok::Float { .. }
            | Tok::Complex { .. }
            | Tok::String { .. }
            | Tok::Lpar
            | Tok::Lsqb
            | Tok::Lbrace
            | Tok::Tilde
            | Tok::Ellipsis
            | Tok::None
            | Tok::True
            | Tok::False
            | Tok::Not
            | Tok::Lambda
            | Tok::Await
    )
}

const NON_EXPR_END_WORDS: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];

/// CPython's specialised messages for common mistakes, recognised from the text around the
/// token rustpython stopped at.
fn guess_message(ctx: &Ctx, tok: &Tok, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    let (ls, le) = line_bounds(src, off);
    let line = &src[ls..le];
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    let first_word: String =
        trimmed.chars().take_while(|c| crate::unicode::is_alnum(*c) || *c == '_').collect();
    let se = |msg: &str, at: usize| Some(ctx.error(msg.to_string(), at, ErrorKind::SyntaxError));

    // `print x` / `exec x` (Python 2 statements).
    if (first_word == "print" || first_word == "exec") && off > ls + indent + first_word.len() {
        let after = trimmed[first_word.len()..].trim_start();
        if !after.is_empty() && !after.starts_with(['(', '=', '.', '[', ',', ')', ':']) {
            let msg = format!(
                "Missing parentheses in call to '{first_word}'. Did you mean {first_word}(...)?"
            );
            return se(&msg, ls + indent);
        }
    }
    // `y = print 'x'`, `f(print 'x')`, `return print 'x'`: 3.11's `invalid_legacy_expression`
    // where an `expression` starts (not an operand of an operator), rustpython stopping at the
    // token right after the name.
    if is_expr_start(tok) && !matches!(tok, Tok::Lpar | Tok::Lsqb) {
        let head = src[ls..off].trim_end_matches([' ', '\t', '\x0c']);
        for word in ["print", "exec"] {
            let Some(untrimmed) = head.strip_suffix(word) else { continue };
            let is_name_char = |c: char| crate::unicode::is_alnum(c) || c == '_';
            if untrimmed.ends_with(|c: char| is_name_char(c) || c == '.') {
                continue;
            }
            let before = untrimmed.trim_end_matches([' ', '\t', '\x0c']);
            let compares = ["==", "<=", ">=", "!="].iter().any(|op| before.ends_with(op));
            let after_keyword = [
                "return", "assert", "if", "elif", "while", "in", "else", "yield", "del", "for",
                "raise", "as",
            ]
            .iter()
            .any(|w| before.strip_suffix(w).is_some_and(|h| !h.ends_with(is_name_char)));
            let opens_expression = before.ends_with([';', '(', '[', ',', '{', ':'])
                || (before.ends_with('=') && !compares)
                || after_keyword;
            // Unclosed brackets at the end: the tokenizer's "was never closed" comes first. In
            // brackets, `print x y` fails inside its argument first ("Perhaps you forgot a
            // comma?" for `x y`), which the general rules report.
            let in_brackets = !scan::scan_until(src, off).open.is_empty();
            let unclosed = in_brackets && !scan::scan_until(src, src.len()).open.is_empty();
            let nested_comma = in_brackets
                && matches!(tok, Tok::Name { .. } | Tok::Int { .. } | Tok::Float { .. })
                && src[off..]
                    .trim_start_matches(|c: char| is_name_char(c) || c == '.')
                    .trim_start_matches([' ', '\t'])
                    .starts_with(|c: char| is_name_char(c) || c == '\'' || c == '"');
            if opens_expression && !unclosed && nested_comma {
                return se("invalid syntax. Perhaps you forgot a comma?", off);
            }
            if opens_expression && !unclosed {
                let msg =
                    format!("Missing parentheses in call to '{word}'. Did you mean {word}(...)?");
                return se(&msg, ls + untrimmed.len());
            }
        }
    }
    // `{1: }`
    if matches!(tok, Tok::Rbrace | Tok::Comma) {
        let before = src[..off].trim_end();
        if before.ends_with(':')
            && scan::scan_until(src, off).open.last().is_some_and(|(c, _)| *c == b'{')
        {
            return se("expression expected after dictionary key and ':'", before.len() - 1);
        }
    }
    // `{1: 2, 3}`: a dict display with a key lacking its value.
    if matches!(tok, Tok::Rbrace | Tok::Comma) {
        if let Some(&(b'{', open_at)) = scan::scan_until(src, off).open.last() {
            let (start, text) = previous_operand(src, off);
            let head = &src[open_at + 1..start];
            // (not in a comprehension's clauses: `{a: b for a in c, d}`)
            if !text.trim().is_empty()
                && !text.contains(':')
                && head.contains(':')
                && !top_level_word(head.as_bytes(), b"for")
                && !top_level_word(text.as_bytes(), b"for")
            {
                let last = start + text.trim_end().len() - 1;
                return se("':' expected after dictionary key", last);
            }
        }
    }
    // `a if b` without `else` (any token but `else` or `:` after it).
    if !matches!(tok, Tok::Else | Tok::Colon) {
        if let Some(err) = missing_else(ctx, off) {
            return Some(err);
        }
    }
    // `except* :`
    if trimmed.starts_with("except*") && matches!(tok, Tok::Colon) {
        return se("expected one or more exception types", off);
    }
    // `except` and `except*` in one `try`.
    if first_word == "except" {
        let star = trimmed.starts_with("except*")
            || trimmed["except".len()..].trim_start().starts_with('*');
        let mut j = ls;
        while j > 0 {
            let (pls, ple) = line_bounds(src, j - 1);
            let pl = &src[pls..ple];
            let pt = pl.trim_start();
            if !pt.is_empty() && pl.len() - pt.len() == indent {
                if pt.starts_with("try") {
                    break;
                }
                if let Some(rest) = pt.strip_prefix("except") {
                    let pstar = rest.trim_start().starts_with('*');
                    if pstar != star {
                        return se(
                            "cannot have both 'except' and 'except*' on the same 'try'",
                            ls + indent,
                        );
                    }
                }
            }
            j = pls;
        }
    }
    // `def f(*)` / `def f(**k, a)`.
    {
        let before = src[..off].trim_end();
        let in_params = first_word == "def" || first_word == "async" || line.contains("lambda");
        if in_params
            && matches!(tok, Tok::Rpar | Tok::Comma | Tok::Colon)
            && before.ends_with('*')
            && !before.ends_with("**")
        {
            return se("named arguments must follow bare *", before.len() - 1);
        }
        let b2 = before.trim_end_matches(',').trim_end();
        let word_start =
            b2.rfind(|c: char| !(crate::unicode::is_alnum(c) || c == '_')).map_or(0, |p| p + 1);
        if in_params
            && before.ends_with(',')
            && b2[..word_start].ends_with("**")
            && word_start < b2.len()
        {
            return se("arguments cannot follow var-keyword argument", off);
        }
    }
    // A `try:` block followed by neither `except` nor `finally`.
    if let Some(err) = try_without_handler(ctx, off) {
        return Some(err);
    }
    // `except A, e:`
    if first_word == "except" && matches!(tok, Tok::Comma) {
        let after = ls + indent + first_word.len();
        let at = next_token(src, after);
        return se("multiple exception types must be parenthesized", at);
    }
    // Missing ':' after a compound statement header.
    let headers = [
        "if", "elif", "else", "while", "for", "def", "class", "with", "try", "except", "finally",
        "async",
    ];
    let line_end = comment_start(line.as_bytes()).map_or(line, |h| &line[..h]).trim_end();
    if matches!(tok, Tok::Newline | Tok::EndOfFile)
        && headers.contains(&first_word.as_str())
        && (matches!(first_word.as_str(), "else" | "try" | "finally")
            || trimmed.trim_end().len() > first_word.len())
        && !line_end.ends_with([
            ':', ',', '\\', '+', '-', '*', '/', '%', '|', '&', '^', '=', '<', '>', '.', '@',
        ])
        && scan::scan_until(src, off).open.is_empty()
    {
        return se("expected ':'", off);
    }
    // `from x import a,`
    if first_word == "from"
        && matches!(tok, Tok::Newline | Tok::EndOfFile)
        && line.trim_end().ends_with(',')
        && !line.contains('(')
    {
        return se("trailing comma not allowed without surrounding parentheses", off);
    }
    // Assignment expressions with a non-name target.
    if matches!(tok, Tok::ColonEqual) {
        let (start, text) = previous_operand(src, off);
        let t = text.trim_end();
        let what = if t.ends_with(')') {
            Some("function call")
        } else if t.ends_with(']') {
            Some("subscript")
        } else if t.contains('.')
            && t.chars().last().is_some_and(|c| crate::unicode::is_alnum(c) || c == '_')
        {
            Some("attribute")
        } else {
            None
        };
        if let Some(w) = what {
            return se(&format!("cannot use assignment expressions with {w}"), start);
        }
        return None;
    }
    let open = scan::scan_until(src, off).open;
    // `(a.b = 1)`, `if f() = 1:`: `=` where a `named_expression` is parsed.
    if matches!(tok, Tok::Equal) {
        let header = matches!(first_word.as_str(), "if" | "elif" | "while");
        if let Some(err) = named_expression_assignment(ctx, off, &open, header) {
            return Some(err);
        }
    }
    // `f(a.b=1)`: keyword argument that is not a name.
    if matches!(tok, Tok::Equal)
        && open.last().is_some_and(|&(c, p)| c == b'(' && !atom_position(src, p))
    {
        // (`invalid_kwarg`: the argument from its start, a lambda's too)
        let start = item_start(src, off, &open);
        let t = src.get(start..off).unwrap_or("").trim_end();
        if matches!(t, "None" | "True" | "False") {
            return se(&format!("cannot assign to {t}"), start);
        }
        // (`f(**a = 1)`: no keyword argument's expression, plain "invalid syntax")
        let plain = !t.is_empty() && !t.starts_with('*');
        if plain && !t.chars().all(|c| crate::unicode::is_alnum(c) || c == '_') {
            // (at the expression's node: `(a)` is the name inside)
            let node_at = match as_expression(ctx, t, true) {
                Some(Ok(expr)) => {
                    u32::from(super::from_rustpython::range_of(&expr).start()) as usize
                }
                _ => 1,
            };
            let at = start + node_at.saturating_sub(1);
            return se("expression cannot contain assignment, perhaps you meant \"==\"?", at);
        }
    }
    // Two expressions side by side inside brackets: a missing comma (not in a parameter list).
    let in_def_params = (first_word == "def" || first_word == "async") && open.len() == 1;
    // (not in a comprehension's clauses, whose `in` and `if` parts are no `expression`s)
    let in_clauses = open.last().is_some_and(|&(_, p)| {
        src.get(p + 1..off).is_some_and(|inside| top_level_word(inside.as_bytes(), b"for"))
    });
    if !open.is_empty() && !in_def_params && !in_clauses && is_expr_start(tok) {
        let mut j = off;
        while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' | b'\\') {
            j -= 1;
        }
        let prev = b.get(j.wrapping_sub(1)).copied().unwrap_or(0);
        let word_start = b[..j]
            .iter()
            .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            .map_or(0, |p| p + 1);
        let prev_word = &src[word_start..j];
        let ends_expr = prev.is_ascii_alphanumeric()
            || matches!(prev, b'_' | b')' | b']' | b'}' | b'\'' | b'"')
            || prev >= 0x80;
        if ends_expr && !NON_EXPR_END_WORDS.contains(&prev_word) {
            let (start, text) = previous_operand(src, off);
            let single_name = text.trim().chars().all(|c| crate::unicode::is_alnum(c) || c == '_');
            let is_string = matches!(tok, Tok::String { .. });
            if !(single_name && is_string) {
                return se("invalid syntax. Perhaps you forgot a comma?", start);
            }
        }
        // `(a not b)`: rustpython waits for `in` after `not`; 3.11 reads `a` then `not b`.
        if prev_word == "not" {
            let mut k = word_start;
            while k > 0 && matches!(b[k - 1], b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' | b'\\') {
                k -= 1;
            }
            let p = b.get(k.wrapping_sub(1)).copied().unwrap_or(0);
            let w0 = b[..k]
                .iter()
                .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                .map_or(0, |p| p + 1);
            let ends = p.is_ascii_alphanumeric()
                || matches!(p, b'_' | b')' | b']' | b'}' | b'\'' | b'"')
                || p >= 0x80;
            if k < word_start && ends && !NON_EXPR_END_WORDS.contains(&&src[w0..k]) {
                let (start, _) = previous_operand(src, word_start);
                return se("invalid syntax. Perhaps you forgot a comma?", start);
            }
        }
    }
    None
}

/// `=` after an item where 3.11 parses a `named_expression` (a group, a tuple, list or set item,
/// a subscript, an `if`/`elif`/`while` condition: `header`), before a value and no second `=`:
/// `invalid_named_expression`'s "invalid syntax. Maybe you meant '==' or ':=' instead of '='?"
/// after a name, "cannot assign to X here. Maybe you meant '==' instead of '='?" after another
/// `bitwise_or` that is no list, tuple, generator, `None`, `True` or `False`.
fn named_expression_assignment(
    ctx: &Ctx,
    off: usize,
    open: &[(u8, usize)],
    header: bool,
) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    let in_context = match open.last() {
        Some(&(b'(', p)) => atom_position(src, p),
        Some(&(b'[', _)) => true,
        // (a set's item, not a dict's value)
        Some(&(b'{', p)) => {
            let items = src.get(p + 1..off).unwrap_or("").as_bytes();
            !top_level_text(items, b":") || top_level_text(items, b":=")
        }
        Some(_) => false,
        None => header,
    };
    if !in_context || b.get(off) != Some(&b'=') {
        return None;
    }
    let start = item_start(src, off, open);
    let text = src.get(start..off)?;
    let mut item = text.trim_end();
    let mut item_at = start;
    if open.is_empty() {
        // (the header's keyword)
        let word = word_at(item, 0);
        item = item[word.len()..].trim_start();
        item_at = start + (text.trim_end().len() - item.len());
    }
    if item.is_empty() || top_level_word(item.as_bytes(), b"lambda") {
        // (a lambda's body is no `named_expression`)
        return None;
    }
    // A value (`bitwise_or`), then no `=` or `:=` before the item ends.
    let value_at =
        if open.is_empty() { token_on_line(src, off + 1) } else { next_token(src, off + 1) };
    if !starts_operand(src, value_at) {
        return None;
    }
    let mut depth = 0usize;
    let mut i = value_at;
    while let Some(&c) = b.get(i) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' if depth == 0 => break,
            b')' | b']' | b'}' => depth -= 1,
            b',' | b'\n' | b'\r' | b';' if depth == 0 => break,
            b':' if depth == 0 && b.get(i + 1) != Some(&b'=') => break,
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i).unwrap_or(b.len());
                continue;
            }
            b'=' if depth == 0 && assign_after(src, i, i + 1).is_some() => return None,
            b':' if depth == 0 => return None,
            b'#' => {
                while b.get(i).is_some_and(|&c| c != b'\n' && c != b'\r') {
                    i += 1;
                }
                continue;
            }
            b'\\' if !matches!(b.get(i + 1), None | Some(b'\n' | b'\r')) => {
                // The rule reads the value token by token: the tokenizer's E_LINECONT first.
                let msg = "unexpected character after line continuation character";
                return Some(ctx.error(msg, i + 1, ErrorKind::SyntaxError));
            }
            _ => {}
        }
        i += 1;
    }
    let se = |msg: String, at: usize| Some(ctx.error(msg, at, ErrorKind::SyntaxError));
    let w = word_at(item, 0);
    if w.len() == item.len() && !super::is_hard_keyword(w) && !w.as_bytes()[0].is_ascii_digit() {
        return se(
            "invalid syntax. Maybe you meant '==' or ':=' instead of '='?".to_string(),
            item_at,
        );
    }
    if !reads_value(item) {
        return None;
    }
    // (the item's node: `(a)` is the name inside)
    let Some(Ok(expr)) = as_expression(ctx, item, true) else { return None };
    let node_at = u32::from(super::from_rustpython::range_of(&expr).start()) as usize;
    let at = item_at + node_at.saturating_sub(1);
    se(
        format!(
            "cannot assign to {} here. Maybe you meant '==' instead of '='?",
            validate::expr_name(&expr)
        ),
        at,
    )
}

/// Where the item holding `off` starts: after the innermost open bracket's last comma before it
/// (`open`: the brackets open at `off`), or at the logical line's statement start.
fn item_start(src: &str, off: usize, open: &[(u8, usize)]) -> usize {
    let from = match open.last() {
        Some(&(_, p)) => p + 1,
        None => statement_start(src, off).unwrap_or(0),
    };
    let b = src.as_bytes();
    let mut start = from;
    let mut i = from;
    let mut depth = 0usize;
    while i < off {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i).unwrap_or(off);
                continue;
            }
            b',' if depth == 0 => start = i + 1,
            _ => {}
        }
        i += 1;
    }
    next_token(src, start).min(off)
}

/// "expected 'else' after 'if' expression" (3.11's `invalid_expression`: `disjunction 'if'
/// disjunction` before a token that is no `else` or `:`) for the token at `off`.
fn missing_else(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let (ls, _) = line_bounds(src, off);
    let p = src.get(ls..off)?.rfind(" if ")?;
    let if_at = ls + p + 1;
    let (mut start, text) = previous_operand(src, if_at);
    // (`a if b else c if d`: the disjunction after the last `else` of a complete conditional)
    let base = start;
    let mut from = 0;
    while let Some(k) = top_level_word_at(&text.as_bytes()[from..], b"else") {
        from += k + 4;
        start = next_token(src, base + from).min(if_at);
    }
    // (`(a) if b`: a group is the node of the expression it holds, as CPython's `group` rule
    // returns it)
    // (`return a if b`, `*a if b`: the disjunction follows the statement's keyword or the star)
    start = past_leading_keyword(src, start, if_at);
    let mut end = if_at;
    while let Some((inner, close)) = group_inner(src, start, end) {
        (start, end) = (inner, close);
    }
    // (an `if` clause of a comprehension: a `for` at the top level of its brackets)
    let comprehension =
        top_level_word_at(&src.as_bytes()[enclosing_open(src, ls, if_at)..if_at], b"for").is_some();
    (!comprehension && !text.trim().is_empty() && !src[if_at..off].contains(" else"))
        .then(|| ctx.error("expected 'else' after 'if' expression", start, ErrorKind::SyntaxError))
}

/// `(**e)`: 3.11's `invalid_group` (`'(' '**' expression ')'`, "cannot use double starred
/// expression here" at the `**`), when rustpython stopped inside a parenthesised group (an atom's
/// `(`, not a call's) whose first token is `**`. CPython's first pass stops at the `**`: where the
/// group's inside is no single expression, "invalid syntax" there, unless the second pass meets
/// one of `expression`'s own errors in the inside's leading operand (`(**a b)`: a missing comma).
fn double_starred_group(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    let open = scan::scan_until(src, off).open;
    let &(_, paren) = open.iter().rev().find(|&&(c, p)| {
        c == b'(' && b.get(next_token(src, p + 1)..).is_some_and(|r| r.starts_with(b"**"))
    })?;
    // (a call's `(`: `f(**a b)` is a `**` argument, whose expression's own errors still count)
    let call = !atom_position(src, paren);
    let stars = next_token(src, paren + 1);
    let close = matching_close(b, paren)?;
    let inside = src.get(stars + 2..close)?;
    let invalid = || (!call).then(|| ctx.error("invalid syntax", stars, ErrorKind::SyntaxError));
    if b.get(stars + 2) == Some(&b'*') {
        return invalid();
    }
    // A dict key is an `expression`: no tuple, generator, `:=`, `yield` or starred item.
    if !call && parse(&format!("{{{inside}\n: 0}}"), ctx.filename, true).is_ok() {
        return Some(ctx.error(
            "cannot use double starred expression here",
            stars,
            ErrorKind::SyntaxError,
        ));
    }
    let wrapped = format!("({inside})");
    let Err(sub) = parse(&wrapped, ctx.filename, true) else {
        return invalid();
    };
    let at = byte_offset_at(&wrapped, sub.lineno, sub.offset)?;
    let lead_end = top_level_comma(wrapped.as_bytes(), 1).unwrap_or(wrapped.len());
    let own =
        ["invalid syntax. Perhaps you forgot a comma?", "expected 'else' after 'if' expression"];
    if at < lead_end && (own.contains(&sub.msg.as_str()) || sub.msg.starts_with("Missing paren")) {
        // (`wrapped` is the inside after a `(` standing for the `**`'s second `*`)
        return Some(ctx.error(sub.msg, stars + 1 + at, sub.kind));
    }
    invalid()
}

/// rustpython stopped in the targets of a `del` statement or a `for` loop. CPython's first pass
/// stops at the first token that cannot go on a target (`del x -`: the `-`); its second reads
/// the targets as expressions (`invalid_del_stmt`, `invalid_for_target`) and names the first
/// invalid one ("cannot delete comparison" for `del a in b`, "cannot assign to expression" for
/// `for x -1: ...`).
fn target_statement_error(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    // The statement's start: its first line, after a `;`.
    let ls = statement_start(src, off)?;
    let first = next_token(src, ls);
    let mut kw = first;
    if word_at(src, kw) == "async" {
        kw = next_token(src, kw + 5);
    }
    if kw > off || !scan::scan_until(src, ls).open.is_empty() {
        return None;
    }
    // (a compound statement after `;` is CPython's error at its keyword)
    let starts_line = next_token(src, line_bounds(src, first).0) == first;
    let del = match word_at(src, kw) {
        "del" => true,
        "for" if starts_line => false,
        "with" if starts_line => return with_items_error(ctx, off, kw + 4),
        _ => return None,
    };
    let start = kw + 3;
    if !matches!(b.get(start), Some(b' ' | b'\t' | b'\x0c' | b'(' | b'[')) {
        return None;
    }
    let start = next_token(src, start);
    let end = if del { statement_end(src, start) } else { header_colon(src, start)? };
    if off > end || start >= end {
        return None;
    }
    let text = src.get(start..end)?;
    // The targets read as expressions: `None` when they parse and hold no invalid target.
    let as_expression = |text: &str| -> Option<Result<SyntaxError, SyntaxError>> {
        if word_at(text, 0) == "yield" {
            return None;
        }
        match parse(text, ctx.filename, true) {
            Ok(p) => match p.module.body.as_slice() {
                [syntax::Stmt::Expr(stmt)] => {
                    let inv = validate::statement_target_error(&stmt.value, del)?;
                    Some(Ok(ctx.error(inv.msg, start + inv.offset, inv.kind)))
                }
                _ => None,
            },
            Err(sub) => Some(Err(sub)),
        }
    };
    match as_expression(text)? {
        Ok(err) => return Some(err),
        Err(sub) => {
            // `expression`'s own errors (`del x if y`: "expected 'else'")
            // (a `for` header's `:` follows: no "expected 'else'" there)
            let own = sub.msg == "invalid syntax. Perhaps you forgot a comma?"
                || (del && sub.msg == "expected 'else' after 'if' expression");
            if own {
                let at = byte_offset_at(text, sub.lineno, sub.offset)?;
                return Some(ctx.error(sub.msg, start + at, sub.kind));
            }
        }
    }
    // The first pass: targets (a name or a bracket, then `.name`, `[...]`, `(...)`) and commas.
    let mut i = start;
    loop {
        match b.get(i) {
            Some(b'(' | b'[') => i = matching_close(b, i)? + 1,
            Some(&c) if is_ident_char(c) && !super::is_hard_keyword(word_at(src, i)) => {
                i += word_at(src, i).len();
            }
            _ => break,
        }
        loop {
            let j = next_token(src, i).min(end);
            match b.get(j) {
                Some(b'.') => {
                    let k = next_token(src, j + 1);
                    i = k + word_at(src, k).len();
                }
                Some(b'(' | b'[') if j < end => i = matching_close(b, j)? + 1,
                _ => break,
            }
        }
        let j = next_token(src, i).min(end);
        if b.get(j) == Some(&b',') && j < end {
            i = next_token(src, j + 1).min(end);
            continue;
        }
        i = j;
        break;
    }
    if !del && word_at(src, i) == "in" {
        // (a `for` loop's targets end there)
        return None;
    }
    // CPython's second pass reads the targets before that token as expressions (`del f(x) y`).
    if let Some(Ok(err)) = src.get(start..i).and_then(as_expression) {
        return Some(err);
    }
    (i < off && i < end).then(|| ctx.error("invalid syntax", i, ErrorKind::SyntaxError))
}

/// `invalid_assignment`'s `(star_targets '=')* a=yield_expr '='`: a statement starting with a
/// bare `yield` expression followed by `=` (the parser stopped after that `=`) is "assignment
/// to yield expression not possible" at the `yield`.
fn yield_assignment_error(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let ls = statement_start(src, off)?;
    if !scan::scan_until(src, ls).open.is_empty() || !scan::scan_until(src, off).open.is_empty() {
        return None;
    }
    let first = next_token(src, ls);
    if word_at(src, first) != "yield" || first >= off {
        return None;
    }
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut i = first;
    // (the parser stops at the `=`, or after it)
    while i <= off.min(b.len().saturating_sub(1)) {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i)?;
                continue;
            }
            b'=' if depth == 0
                && b.get(i + 1) != Some(&b'=')
                && !matches!(b.get(i - 1), Some(b'=' | b'<' | b'>' | b'!' | b':')) =>
            {
                return Some(ctx.error(
                    "assignment to yield expression not possible",
                    first,
                    ErrorKind::SyntaxError,
                ));
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `invalid_assignment`'s `a=star_named_expression ',' star_named_expressions* ':' expression`:
/// a statement's unparenthesized tuple annotated (the parser stopped at its `:`) is "only
/// single target (not tuple) can be annotated", at the first item (inside its grouping
/// parentheses).
fn annotated_tuple_error(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    if b.get(off) != Some(&b':') || b.get(off + 1) == Some(&b'=') {
        return None;
    }
    let ls = statement_start(src, off)?;
    if !scan::scan_until(src, ls).open.is_empty() || !scan::scan_until(src, off).open.is_empty() {
        return None;
    }
    let first = next_token(src, ls);
    const STATEMENTS: &[&str] = &[
        "for", "if", "elif", "while", "with", "def", "class", "else", "try", "except", "finally",
        "lambda", "return", "del", "assert", "raise", "import", "from", "global", "nonlocal",
        "pass", "break", "continue", "yield", "await", "async", "match", "case", "print", "exec",
        "not",
    ];
    if STATEMENTS.contains(&word_at(src, first)) {
        return None;
    }
    let head = src.get(first..off)?;
    if top_level_comma(head.as_bytes(), 0).is_none()
        || top_level_text(head.as_bytes(), b"=")
        || top_level_word(head.as_bytes(), b"lambda")
    {
        return None;
    }
    // (`':' expression`)
    let rest_end = statement_end(src, off + 1);
    let rest = src.get(off + 1..rest_end)?;
    // (to an assignment's lone `=` at depth 0)
    let rb = rest.as_bytes();
    let mut depth = 0usize;
    let mut cut = rb.len();
    for (k, &c) in rb.iter().enumerate() {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'=' if depth == 0
                && rb.get(k + 1) != Some(&b'=')
                && !matches!(
                    k.checked_sub(1).and_then(|j| rb.get(j)),
                    Some(b'=' | b'<' | b'>' | b'!')
                ) =>
            {
                cut = k;
                break;
            }
            _ => {}
        }
    }
    let rest_cut = &rest[..cut];
    if rest_cut.trim().is_empty() || as_expression(ctx, rest_cut, true)?.is_err() {
        return None;
    }
    // The first item, inside grouping parentheses (not a tuple's or a generator's).
    let mut at = first;
    while b.get(at) == Some(&b'(') {
        let close = matching_close(b, at)?;
        let inner = src.get(at + 1..close)?;
        if inner.trim().is_empty()
            || top_level_comma(inner.as_bytes(), 0).is_some()
            || top_level_word(inner.as_bytes(), b"for")
        {
            break;
        }
        at = next_token(src, at + 1);
    }
    Some(ctx.error("only single target (not tuple) can be annotated", at, ErrorKind::SyntaxError))
}

/// The errors of CPython 3.11's second pass in the comprehension of the innermost bracket open
/// at `off`:
/// - `invalid_comprehension`: `[a, b for x in y]` / `{a, for x in y}` (the parser stopped at
///   `for`; the `for` clauses parse): "did you forget parentheses around the comprehension
///   target?" at the first item;
/// - `invalid_for_target`: the parser stopped in a `for` clause's target (before its `in`):
///   the expression after `for` read whole (`star_expressions`, to the next clause or the
///   bracket's end) names its first invalid target (`a and b in y`: the `and`), or fails with
///   its own error (`lambda: x in y if z`: "expected 'else' after 'if' expression").
fn comprehension_error(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    let &(kind, open) = scan::scan_until(src, off).open.last()?;
    let close = matching_close(b, open)?;
    if off <= open || off >= close {
        return None;
    }
    let inside = src.get(open + 1..close)?;
    let rel = off - open - 1;
    // Top-level words of the bracket: (offset in `inside`, word).
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut from = 0;
    while let Some(at) = ["for", "in", "async", "if", "lambda"]
        .iter()
        .filter_map(|w| {
            top_level_word_at(&inside.as_bytes()[from..], w.as_bytes()).map(|k| (from + k, *w))
        })
        .min_by_key(|&(k, _)| k)
    {
        words.push(at);
        from = at.0 + at.1.len();
    }
    let first_for = words.iter().find(|(_, w)| *w == "for" || *w == "async")?.0;
    if rel == first_for && kind != b'(' {
        // `invalid_comprehension`: items before the `for`, one comma at least.
        let head = &inside[..first_for];
        let comma = top_level_comma(head.as_bytes(), 0)?;
        let first = head[..comma].trim_start();
        let dict =
            kind == b'{' && !first.starts_with("lambda") && top_level_text(first.as_bytes(), b":");
        if !dict {
            // (`for_if_clauses` parse: to the bracket's end, or to a comma after them)
            let rest = &inside[first_for..];
            let cut = top_level_comma(rest.as_bytes(), 0).map_or(rest, |c| &rest[..c]);
            let parses =
                |t: &str| matches!(as_expression(ctx, &format!("[_ {t}]"), false), Some(Ok(_)));
            if parses(rest) || parses(cut) {
                let at = next_token(src, open + 1);
                let mut err = ctx.error(
                    "did you forget parentheses around the comprehension target?",
                    at,
                    ErrorKind::SyntaxError,
                );
                if line_bounds(src, at).1 < close {
                    // (the parser read the clauses to the bracket: the line alone)
                    err.text = Some(line_at(src, line_bounds(src, at).0).to_string());
                }
                return Some(err);
            }
        }
        return None;
    }
    // `invalid_for_target`: the last `for` before `off`, no `in` between.
    let (k, _) = *words.iter().rev().find(|(k, w)| *w == "for" && *k < rel)?;
    let target_start = k + 3;
    let lambdas = words.iter().filter(|(j, w)| *w == "lambda" && *j > k && *j < rel).count();
    if words.iter().any(|(j, w)| *w == "in" && *j > k && *j < rel) && lambdas == 0 {
        return None;
    }
    let end = words
        .iter()
        .find(|(j, w)| *j > k && (*w == "for" || *w == "async"))
        .map_or(inside.len(), |(j, _)| *j);
    let text = inside.get(target_start..end)?;
    let start = open + 1 + target_start;
    match as_expression(ctx, text, true)? {
        Ok(e) => {
            let inv = validate::statement_target_error(&e, false)?;
            // (offsets in `(text)`: one past the text's)
            Some(ctx.error(inv.msg, (start + inv.offset).saturating_sub(1), inv.kind))
        }
        Err(sub) if sub.msg == "expected 'else' after 'if' expression" => {
            let at = byte_offset_at(&format!("({text})"), sub.lineno, sub.offset)?;
            Some(ctx.error(sub.msg, (start + at).saturating_sub(1), sub.kind))
        }
        Err(_) => None,
    }
}

/// Where CPython's second pass stops reading when `at` is in a comprehension's `for` target
/// (`invalid_for_target` reads `target in iterable` and the token after it): that token, the
/// clause after it or the bracket's end. `None` elsewhere. Error path only.
fn for_target_read_to(src: &str, at: usize) -> Option<usize> {
    // (the target may be in parentheses of its own)
    let open = scan::scan_until(src, at).open;
    open.iter().rev().take(3).find_map(|&(_, o)| for_target_read_to_in(src, at, o))
}

fn for_target_read_to_in(src: &str, at: usize, open: usize) -> Option<usize> {
    let close = matching_close(src.as_bytes(), open)?;
    let inside = src.get(open + 1..close)?.as_bytes();
    let rel = at.checked_sub(open + 1)?;
    let word_after =
        |from: usize, w: &[u8]| top_level_word_at(inside.get(from..)?, w).map(|k| from + k);
    // The last top-level `for` before `at`, and the `in` after it.
    let mut for_at = None;
    let mut from = 0;
    while let Some(k) = word_after(from, b"for").filter(|&k| k < rel) {
        for_at = Some(k);
        from = k + 3;
    }
    let in_at = word_after(for_at? + 3, b"in")?;
    if in_at < rel {
        return None;
    }
    let after = in_at + 2;
    let next = ["for", "if", "async"]
        .iter()
        .filter_map(|w| word_after(after, w.as_bytes()))
        .min()
        .unwrap_or(inside.len());
    Some(open + 1 + next)
}

/// The start of the first line of the logical line holding `at` (before `\\` continuations and
/// the lines of brackets open at `at`). Error path only (scans the source before it).
fn logical_line_start(src: &str, at: usize) -> usize {
    let b = src.as_bytes();
    let (mut ls, _) = line_bounds(src, at);
    loop {
        let (ps, pe) = line_bounds(src, ls.saturating_sub(1));
        if ls > 0 && pe > 0 && b[pe - 1] == b'\\' {
            ls = ps;
            continue;
        }
        match scan::scan_until(src, ls).open.first() {
            Some(&(_, open)) => ls = line_bounds(src, open).0,
            None => break ls,
        }
    }
}

/// What CPython's passes make of one `with` item ([`with_items`]).
enum Item {
    /// Read whole: the next item follows.
    Fine,
    /// The second pass raised this.
    Raised(SyntaxError),
    /// The first pass stopped at this offset and the second raised nothing.
    Stopped(usize),
}

/// rustpython stopped in a `with` statement's items (`after_kw`: right after `with`). CPython
/// tries the parenthesized form first (`with (a as x, b): ...`), then the plain one; in each,
/// an item is `expression 'as' star_target` before `,`, `)` or `:`, else 3.11's
/// `invalid_with_item` reads the target as an `expression` and names its first invalid target
/// ("cannot assign to function call", or `expression`'s own errors), else the item is its
/// expression alone and the statement fails where the first pass stopped: the token after the
/// longest primary the target starts with (`with a as x -:` at the `-`).
fn with_items_error(ctx: &Ctx, off: usize, after_kw: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    let b = src.as_bytes();
    if !matches!(b.get(after_kw), Some(b' ' | b'\t' | b'\x0c' | b'(' | b'\\')) {
        return None;
    }
    let start = next_token(src, after_kw);
    // (rustpython stops there or later)
    let stopped =
        |at: usize| (at <= off).then(|| ctx.error("invalid syntax", at, ErrorKind::SyntaxError));
    if b.get(start) == Some(&b'(') {
        let close = matching_close(b, start)?;
        let then_colon = b.get(next_token(src, close + 1)) == Some(&b':');
        match with_items(ctx, start + 1, close, true, true)? {
            Item::Raised(err) => return Some(err),
            Item::Stopped(at) if then_colon => return stopped(at),
            Item::Fine if then_colon => return None,
            _ => {}
        }
    }
    let colon = header_colon(src, start);
    let end = colon.unwrap_or_else(|| line_bounds(src, start).1);
    match with_items(ctx, start, end, false, colon.is_some())? {
        Item::Raised(err) => Some(err),
        Item::Stopped(at) => stopped(at),
        Item::Fine => None,
    }
}

/// The items of a `with` statement between `from` and `to` (inside its parentheses, or up to
/// its header's `:` when `colon`), one by one: the first that is not [`Item::Fine`], or `None`
/// where an item is no `expression ['as' ...]` these rules know (rustpython's error stands).
fn with_items(ctx: &Ctx, from: usize, to: usize, parens: bool, colon: bool) -> Option<Item> {
    let src = ctx.src;
    let b = src.as_bytes();
    // The token after `at`: inside parentheses line breaks are no tokens, outside a line break
    // (or the comment before it) is the NEWLINE.
    let token_after = |at: usize| {
        if parens {
            return next_token(src, at);
        }
        let mut i = at;
        loop {
            match b.get(i) {
                Some(b' ' | b'\t' | b'\x0c') => i += 1,
                Some(b'\\') if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => {
                    i += if b.get(i + 1..i + 3) == Some(b"\r\n") { 3 } else { 2 };
                }
                _ => break i,
            }
        }
    };
    let mut s = from;
    while s < to {
        let e = item_end(src, s, to);
        let start = next_token(src, s);
        // What follows the item: `,`, or after the last `)` or `:` (else the NEWLINE).
        let lookahead_ok = e < to || parens || colon;
        if start >= e {
            // (a trailing comma in parentheses)
            return (parens && e >= to).then_some(Item::Fine);
        }
        let item = &src[start..e];
        let Some(as_at) = top_level_word_at(item.as_bytes(), b"as") else {
            as_expression(ctx, item, parens)?.ok()?;
            s = e + 1;
            continue;
        };
        as_expression(ctx, &item[..as_at], parens)?.ok()?;
        let t = next_token(src, start + as_at + 2);
        if t >= e {
            return None;
        }
        let star = b.get(t) == Some(&b'*') && b.get(t + 1) != Some(&b'*');
        let target_at = if star { next_token(src, t + 1) } else { t };
        let first_pass_stop = || primary_end(src, target_at).map(|i| Item::Stopped(token_after(i)));
        let text = &src[target_at..e];
        // (`expression` meets `invalid_legacy_expression` first)
        let legacy = |text: &str| {
            legacy_expression(text, text.len()).map(|(p, w)| {
                Item::Raised(ctx.error(
                    format!("Missing parentheses in call to '{w}'. Did you mean {w}(...)?"),
                    target_at + p,
                    ErrorKind::SyntaxError,
                ))
            })
        };
        if star {
            // (a starred target is no `expression`: `invalid_with_item` does not apply)
            let valid = matches!(as_expression(ctx, text, parens), Some(Ok(expr))
                if validate::star_target_error(&expr).is_none());
            if valid && lookahead_ok {
                s = e + 1;
                continue;
            }
            if valid && e >= to && !parens {
                // `invalid_with_stmt`: the items, then the NEWLINE.
                let at = token_after(primary_end(src, target_at)?);
                let err = ctx.error("expected ':'", at, ErrorKind::SyntaxError);
                return Some(Item::Raised(err));
            }
            // (rustpython stops at the `*`, before CPython's first pass)
            let at = token_after(primary_end(src, target_at)?);
            return Some(Item::Raised(ctx.error("invalid syntax", at, ErrorKind::SyntaxError)));
        }
        if word_at(text, 0) == "yield" || top_level_colon_equal(text.as_bytes()) {
            return first_pass_stop();
        }
        match as_expression(ctx, text, parens) {
            Some(Ok(expr)) => {
                let invalid = validate::star_target_error(&expr);
                if lookahead_ok {
                    if let Some(err) = legacy(text) {
                        return Some(err);
                    }
                    match invalid {
                        Some(inv) => {
                            let at = (target_at + inv.offset).saturating_sub(usize::from(parens));
                            return Some(Item::Raised(ctx.error(inv.msg, at, inv.kind)));
                        }
                        None => {
                            s = e + 1;
                            continue;
                        }
                    }
                }
                if invalid.is_none() && e >= to {
                    // `invalid_with_stmt`'s "expected ':'" (rustpython's error names it).
                    return None;
                }
                return first_pass_stop();
            }
            Some(Err(sub)) => {
                if let Some(err) = legacy(text) {
                    return Some(err);
                }
                // `expression`'s own errors (no "expected 'else'" before the header's `:`; a
                // `print` statement only with an operand after it)
                let legacy_statement = sub.msg.starts_with("Missing parentheses in call to ")
                    && b.get(next_token(src, target_at + word_at(text, 0).len()))
                        .is_some_and(|&c| is_ident_char(c) || matches!(c, b'\'' | b'"'));
                let own = sub.msg == "invalid syntax. Perhaps you forgot a comma?"
                    || legacy_statement
                    || (sub.msg == "expected 'else' after 'if' expression"
                        && !(colon && !parens && e >= to));
                if own {
                    let wrapped = if parens { format!("({text})") } else { text.to_string() };
                    let at = byte_offset_at(&wrapped, sub.lineno, sub.offset)?;
                    let at = (target_at + at).saturating_sub(usize::from(parens));
                    return Some(Item::Raised(ctx.error(sub.msg, at, sub.kind)));
                }
                return first_pass_stop();
            }
            None => return first_pass_stop(),
        }
    }
    Some(Item::Fine)
}

/// `text` read as one `expression` (in parentheses when `parens`, as CPython reads it at
/// bracket level 1; positions are then one more than in `text`): the expression, or the parse's
/// error; `None` when it parses as something else.
fn as_expression(ctx: &Ctx, text: &str, parens: bool) -> Option<Result<syntax::Expr, SyntaxError>> {
    let parsed = if parens {
        parse(&format!("({text})"), ctx.filename, true)
    } else {
        parse(text, ctx.filename, true)
    };
    match parsed {
        Ok(p) => match <[syntax::Stmt; 1]>::try_from(p.module.body) {
            Ok([syntax::Stmt::Expr(stmt)]) => Some(Ok(*stmt.value)),
            _ => None,
        },
        Err(sub) => Some(Err(sub)),
    }
}

/// The end of the `with` item starting at `from` (before `to`): its first comma at bracket depth
/// 0, not one of a `lambda`'s parameters; or `to`.
fn item_end(src: &str, from: usize, to: usize) -> usize {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut lambdas = 0usize;
    let mut i = from;
    while i < to {
        match b[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i).unwrap_or(to);
                continue;
            }
            b'#' => {
                while i < to && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b':' if depth == 0 && b.get(i + 1) != Some(&b'=') => {
                lambdas = lambdas.saturating_sub(1)
            }
            b',' if depth == 0 && lambdas == 0 => return i,
            c if is_ident_char(c) => {
                let w = word_at(src, i);
                if depth == 0 && w == "lambda" {
                    lambdas += 1;
                }
                i += w.len().max(1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    to
}

/// Does `text` hold a `:=` at bracket depth 0 (strings skipped)?
fn top_level_colon_equal(text: &[u8]) -> bool {
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(text, i).unwrap_or(text.len());
                continue;
            }
            b':' if depth == 0 && text.get(i + 1) == Some(&b'=') => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// Where CPython's `t_primary` (an atom, then `.name`, `[...]` and `(...)`) starting at `at`
/// ends: `at` itself when no atom starts there (an operator, a keyword); `None` for a bracket
/// never closed.
fn primary_end(src: &str, at: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut i = match b.get(at) {
        Some(b'(' | b'[' | b'{') => matching_close(b, at)? + 1,
        Some(b'.') if b.get(at..at + 3) == Some(b"...") => at + 3,
        Some(&c) if c == b'\'' || c == b'"' || is_ident_char(c) => {
            let w = word_at(src, at);
            if c == b'\'' || c == b'"' || matches!(b.get(at + w.len()), Some(b'\'' | b'"')) {
                // Strings, implicitly concatenated.
                let mut end = super::from_rustpython::skip_string(b, at)?;
                loop {
                    let n = next_token(src, end);
                    let w = word_at(src, n);
                    match super::from_rustpython::skip_string(b, n) {
                        Some(e) if w.len() <= 3 && !src[end..n].contains(['\n', '\r']) => end = e,
                        _ => break end,
                    }
                }
            } else if super::is_hard_keyword(w) && !matches!(w, "None" | "True" | "False") {
                return Some(at);
            } else {
                at + w.len()
            }
        }
        _ => return Some(at),
    };
    loop {
        let j = next_token(src, i);
        match b.get(j) {
            Some(b'.') if b.get(j + 1) != Some(&b'.') => {
                let k = next_token(src, j + 1);
                i = k + word_at(src, k).len();
            }
            Some(b'(' | b'[') => i = matching_close(b, j)? + 1,
            _ => break Some(i),
        }
    }
}

/// The `:` ending a compound statement's header that starts at `from` (bracket depth 0,
/// strings skipped; a `lambda`'s own `:` is not one).
fn header_colon(src: &str, from: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut lambdas = 0usize;
    let mut i = from;
    while let Some(&c) = b.get(i) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i)?;
                continue;
            }
            b'#' | b'\n' | b'\r' if depth == 0 => return None,
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b'l' if depth == 0 && word_at(src, i) == "lambda" => {
                lambdas += 1;
                i += 6;
                continue;
            }
            b':' if depth == 0 && b.get(i + 1) != Some(&b'=') => {
                if lambdas == 0 {
                    return Some(i);
                }
                lambdas -= 1;
            }
            c if is_ident_char(c) => {
                i += word_at(src, i).len().max(1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Is the `(` at `at` an atom's (a group, tuple or generator), not a call's?
fn atom_position(src: &str, at: usize) -> bool {
    let b = src.as_bytes();
    let mut j = at;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' | b'\\') {
        j -= 1;
    }
    let Some(&prev) = j.checked_sub(1).and_then(|p| b.get(p)) else {
        return true;
    };
    if matches!(prev, b')' | b']' | b'}' | b'\'' | b'"') {
        return false;
    }
    if !is_ident_char(prev) {
        return true;
    }
    let word = word_before(src, j);
    super::is_hard_keyword(word) && !matches!(word, "None" | "True" | "False")
}

/// The first comma at the bracket depth of `from` (strings skipped).
fn top_level_comma(b: &[u8], from: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = from;
    while let Some(&c) = b.get(i) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.checked_sub(1)?,
            b',' if depth == 0 => return Some(i),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i)?;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The first Python 2 `print` / `exec` statement read as an expression before byte `limit`
/// (`x = print -1`, `del print -1`, `f(print[0])`): valid 3.x (a subtraction, a subscript), but
/// after any parser error CPython's second pass parses the source again from its start with
/// `invalid_legacy_expression` on (`NAME !'(' star_expressions`), which raises "Missing
/// parentheses in call to 'print'" at the first one it meets. The name's offset and word.
fn legacy_expression(src: &str, limit: usize) -> Option<(usize, &'static str)> {
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len().min(limit) {
        let c = b[i];
        if c == b'#' {
            while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                i += 1;
            }
            continue;
        }
        if c == b'\'' || c == b'"' {
            i = super::from_rustpython::skip_string(b, i).unwrap_or(b.len());
            continue;
        }
        if !is_ident_char(c) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && is_ident_char(b[i]) {
            i += 1;
        }
        let word = &src[start..i];
        if matches!(b.get(i), Some(b'\'' | b'"')) {
            // a string's prefix
            i = super::from_rustpython::skip_string(b, start).unwrap_or(b.len());
            continue;
        }
        let word = match word {
            "print" => "print",
            "exec" => "exec",
            _ => continue,
        };
        if !legacy_at(src, start, i) {
            continue;
        }
        return Some((start, word));
    }
    None
}

/// Is the name `print` / `exec` at `start..end` an expression followed by one
/// (`invalid_legacy_expression`)?
fn legacy_at(src: &str, start: usize, end: usize) -> bool {
    let b = src.as_bytes();
    let mut j = start;
    while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c') {
        j -= 1;
    }
    if j > 0 && b[j - 1] == b'.' {
        return false;
    }
    let before = word_before(src, j);
    if matches!(before, "def" | "class" | "import" | "from" | "global" | "nonlocal" | "except")
        || (j > 0 && b[j - 1] == b'@')
        || (before == "as" && !with_statement(&src[logical_line_start(src, start)..]))
    {
        return false;
    }
    let mut k = end;
    while matches!(b.get(k), Some(b' ' | b'\t' | b'\x0c')) {
        k += 1;
    }
    let Some(&next) = b.get(k) else { return false };
    let after = b.get(k + 1).copied();
    // (a name, number or string after it is rustpython's error there, which `guess_message`
    // names)
    // A unary operator needs an operand.
    let operand = |from: usize| {
        let mut m = from;
        while matches!(b.get(m), Some(b' ' | b'\t' | b'\x0c')) {
            m += 1;
        }
        match b.get(m) {
            Some(b'(' | b'[' | b'{' | b'-' | b'+' | b'~' | b'.' | b'\'' | b'"') => true,
            Some(&c) if is_ident_char(c) => {
                let w = word_at(src, m);
                !super::is_hard_keyword(w)
                    || matches!(w, "not" | "lambda" | "await" | "None" | "True" | "False")
            }
            _ => false,
        }
    };
    match next {
        b'-' | b'+' => after != Some(b'=') && operand(k + 1),
        b'~' => operand(k + 1),
        b'*' => !matches!(after, Some(b'*' | b'=')) && operand(k + 1),
        // `print not a` (rustpython waits for `in`)
        b'n' if word_at(src, k) == "not" => {
            let w_end = k + 3;
            operand(w_end) && word_at(src, next_token(src, w_end)) != "in"
        }
        b'[' => {
            // `print[0] = 1`: a target at the statement's start, never parsed as an expression.
            let at_statement_start = j == 0 || matches!(b[j - 1], b'\n' | b'\r' | b';');
            let assigned = matching_close(b, k).is_some_and(|close| {
                let n = next_token(src, close + 1);
                b.get(n) == Some(&b'=') && b.get(n + 1) != Some(&b'=')
            });
            !(at_statement_start && assigned)
        }
        _ => false,
    }
}

/// Does `line` start a `with` statement (`async with` too)?
fn with_statement(line: &str) -> bool {
    let line = line.trim_start();
    let line = line.strip_prefix("async").map_or(line, str::trim_start);
    word_at(line, 0) == "with"
}

/// The name ending at byte `end` (empty if none).
fn word_before(src: &str, end: usize) -> &str {
    let b = src.as_bytes();
    let start =
        b.get(..end).and_then(|r| r.iter().rposition(|&c| !is_ident_char(c))).map_or(0, |p| p + 1);
    src.get(start..end).unwrap_or("")
}

/// The name starting at byte `at` (empty if none).
fn word_at(src: &str, at: usize) -> &str {
    let b = src.as_bytes();
    let end = b
        .get(at..)
        .and_then(|r| r.iter().position(|&c| !is_ident_char(c)))
        .map_or(b.len(), |p| at + p);
    src.get(at..end).unwrap_or("")
}

/// The end of the logical line holding `at` (a line break outside brackets, or a `;`).
fn statement_end(src: &str, at: usize) -> usize {
    let b = src.as_bytes();
    let mut depth = scan::scan_until(src, at).open.len();
    let mut i = at;
    while let Some(&c) = b.get(i) {
        match c {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(b, i).unwrap_or(b.len());
                continue;
            }
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
                continue;
            }
            b'\\' => i += 1,
            b'\n' | b'\r' | b';' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// `err`, or the legacy `print` / `exec` expression CPython's second pass meets first
/// ([`legacy_expression`]): before `err`'s offset `at`, or (`whole`) anywhere in its statement.
fn legacy_first(ctx: &Ctx, err: SyntaxError, at: usize, whole: bool) -> SyntaxError {
    let limit = if whole { statement_end(ctx.src, at) } else { at };
    match legacy_expression(ctx.src, limit) {
        Some((p, w)) => {
            let mut first = ctx.error(
                format!("Missing parentheses in call to '{w}'. Did you mean {w}(...)?"),
                p,
                ErrorKind::SyntaxError,
            );
            if first.lineno < err.lineno {
                // (the parser had read `err`'s line: the line alone)
                first.text = Some(line_at(ctx.src, line_bounds(ctx.src, p).0).to_string());
            }
            first
        }
        None => err,
    }
}

/// Does `word` stand as a word at the bracket depth 0 of `text` (strings skipped)?
fn top_level_word(text: &[u8], word: &[u8]) -> bool {
    top_level_word_at(text, word).is_some()
}

/// Where `word` first stands as a word at the bracket depth 0 of `text` (strings skipped).
/// `start` moved past a leading `return`, `raise`, `assert`, `yield` or `del` keyword, or `*` /
/// `**`, in `src[start..end]` (what precedes a disjunction there).
fn past_leading_keyword(src: &str, start: usize, end: usize) -> usize {
    let text = src.get(start..end).unwrap_or("");
    for kw in ["return", "raise", "assert", "yield", "del"] {
        if let Some(rest) = text.strip_prefix(kw) {
            if rest.starts_with(|c: char| !(c.is_alphanumeric() || c == '_')) {
                return next_token(src, start + kw.len()).min(end);
            }
        }
    }
    match text.as_bytes() {
        [b'*', b'*', ..] => next_token(src, start + 2).min(end),
        [b'*', ..] => next_token(src, start + 1).min(end),
        _ => start,
    }
}

/// Where the innermost bracket open at `off` starts its inside (`ls`, the line's start, when
/// none is open on the line).
fn enclosing_open(src: &str, ls: usize, off: usize) -> usize {
    let b = src.as_bytes();
    let mut depth = 0usize;
    let mut j = off;
    while j > ls {
        match b[j - 1] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    return j;
                }
                depth -= 1;
            }
            _ => {}
        }
        j -= 1;
    }
    ls
}

/// Where the expression starts that the parenthesised group spanning `src[start..end]` holds
/// (3.11's `group`: `'(' (yield_expr | named_expression) ')'` is that expression's node), and
/// where the group's `)` is; `None` when the span is no such group (a tuple, `()`, a generator
/// expression, a group followed by more, as in `(a) + 1`).
fn group_inner(src: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let b = src.as_bytes();
    if b.get(start) != Some(&b'(') {
        return None;
    }
    let close = super::from_rustpython::matching_close(b, start)?;
    let inner = src.get(start + 1..close)?;
    let followed = !src.get(close + 1..end)?.trim().is_empty();
    if followed || inner.trim().is_empty() || super::ends::tuple_or_generator(inner) {
        return None;
    }
    Some((next_token(src, start + 1), close))
}

fn top_level_word_at(text: &[u8], word: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'\'' | b'"' => {
                i = super::from_rustpython::skip_string(text, i).unwrap_or(text.len());
                continue;
            }
            c if is_ident_char(c) => {
                let start = i;
                while i < text.len() && is_ident_char(text[i]) {
                    i += 1;
                }
                if depth == 0 && &text[start..i] == word {
                    return Some(start);
                }
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The byte offset of CPython's 1-based `(lineno, offset)` (a column in characters) in `text`.
fn byte_offset_at(text: &str, lineno: u32, offset: u32) -> Option<usize> {
    let mut start = 0usize;
    for _ in 1..lineno {
        let (_, end) = line_bounds(text, start);
        start = end + if text.get(end..end + 2) == Some("\r\n") { 2 } else { 1 };
    }
    let col = offset.checked_sub(1)? as usize;
    let (_, end) = line_bounds(text, start);
    let line = text.get(start..end)?;
    Some(start + line.char_indices().nth(col).map_or(line.len(), |(i, _)| i))
}

/// "expected 'except' or 'finally' block": the statement at `off` follows a `try:` body.
fn try_without_handler(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let src = ctx.src;
    // The last non-blank, non-comment line before the error line is the try body's last line.
    let (ls, le) = line_bounds(src, off);
    let line = &src[ls..le];
    let err_indent = line.len() - line.trim_start().len();
    let at_eof = off >= scan::last_char(src.as_bytes());
    if !at_eof && off != ls + err_indent {
        return None; // not at the start of a statement
    }
    let mut j = if at_eof { le + 1 } else { ls };
    let mut body_indent = None;
    while j > 0 {
        let (pls, ple) = line_bounds(src, j - 1);
        let pl = &src[pls..ple];
        let pt = pl.trim_start();
        if !pt.is_empty() && !pt.starts_with('#') {
            let ind = pl.len() - pt.len();
            match body_indent {
                None => body_indent = Some(ind),
                Some(bi) if ind < bi => {
                    if pt.starts_with("try")
                        && pt.trim_end().ends_with(':')
                        && (at_eof || err_indent <= ind)
                    {
                        return Some(ctx.error(
                            "expected 'except' or 'finally' block",
                            off,
                            ErrorKind::SyntaxError,
                        ));
                    }
                    return None;
                }
                Some(_) => {}
            }
        }
        j = pls;
    }
    None
}

/// The operand before `off`: the text after the nearest unmatched opening bracket or top-level
/// comma (within the current brackets), with its start offset.
fn previous_operand(src: &str, off: usize) -> (usize, &str) {
    let b = src.as_bytes();
    let in_brackets = !scan::scan_until(src, off).open.is_empty();
    let mut depth = 0i32;
    let mut j = off;
    while j > 0 {
        let c = b[j - 1];
        match c {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            // A lone `=` (assignment, keyword argument), not one of `==`, `<=`, `>=`, `!=`.
            b'=' if depth == 0
                && b.get(j) != Some(&b'=')
                && !matches!(b.get(j.wrapping_sub(2)), Some(b'=' | b'<' | b'>' | b'!')) =>
            {
                break
            }
            b',' | b';' | b':' if depth == 0 => break,
            b'\n' | b'\r'
                if depth == 0
                    && !in_brackets
                    && !matches!(b.get(j.wrapping_sub(2)), Some(b'\\')) =>
            {
                // Inside brackets a newline is not a boundary; outside it is.
                break;
            }
            _ => {}
        }
        j -= 1;
    }
    let start = next_token(src, j);
    let start = start.min(off);
    (start, &src[start..off])
}

/// The end of the implicitly concatenated strings starting at `off` (CPython reports errors about
/// the concatenation at its last token).
fn end_of_strings(src: &str, off: usize) -> usize {
    let b = src.as_bytes();
    let in_brackets = !scan::scan_until(src, off).open.is_empty();
    let mut end = off;
    let mut i = off;
    while let Some(e) = super::from_rustpython::skip_string(b, i) {
        end = e;
        i = e;
        loop {
            match b.get(i) {
                Some(b' ' | b'\t' | b'\x0c') => i += 1,
                Some(b'\\') => i += 1,
                Some(b'\n' | b'\r') if in_brackets || b.get(i.wrapping_sub(1)) == Some(&b'\\') => {
                    i += 1
                }
                Some(b'#') if in_brackets => {
                    while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                        i += 1;
                    }
                }
                _ => break,
            }
        }
    }
    end
}

/// The offset of the next non-blank character (skipping blank and comment lines).
fn next_token(src: &str, off: usize) -> usize {
    let b = src.as_bytes();
    let mut i = off;
    while i < b.len() {
        match b[i] {
            b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' => i += 1,
            // a line continuation
            b'\\' if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => i += 1,
            b'#' => {
                while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    i
}

/// The first token of the line starting at `start`: past its blanks and the `\\` continuations
/// among them (CPython's tokenizer reads an indentation on into the next line).
fn past_split_indentation(src: &str, start: usize) -> usize {
    let b = src.as_bytes();
    let mut i = start;
    loop {
        while matches!(b.get(i), Some(b' ' | b'\t' | b'\x0c')) {
            i += 1;
        }
        let nl = match b.get(i + 1..i + 3) {
            _ if b.get(i) != Some(&b'\\') => 0,
            Some(b"\r\n") => 2,
            _ if matches!(b.get(i + 1), Some(b'\n' | b'\r')) => 1,
            _ => 0,
        };
        if nl == 0 || i + 1 + nl >= b.len() {
            return i;
        }
        i += 1 + nl;
    }
}

fn map_lexical(ctx: &Ctx, lex: &LexicalErrorType, off: usize) -> SyntaxError {
    use LexicalErrorType as L;
    match lex {
        L::IndentationError => ctx.error(
            "unindent does not match any outer indentation level",
            // CPython's column is the line's length with its line break (the line of the
            // first token, past continuations among the blanks).
            line_bounds(ctx.src, past_split_indentation(ctx.src, line_bounds(ctx.src, off).0)).1,
            ErrorKind::IndentationError,
        ),
        L::TabError | L::TabsAfterSpaces => ctx.error(
            "inconsistent use of tabs and spaces in indentation",
            off,
            ErrorKind::TabError,
        ),
        L::DefaultArgumentError => {
            ctx.error("non-default argument follows default argument", off, ErrorKind::SyntaxError)
        }
        L::DuplicateArgumentError(n) => ctx.error(
            format!("duplicate argument '{n}' in function definition"),
            off,
            ErrorKind::SyntaxError,
        ),
        L::FStringError(fe) => {
            use rustpython_parser::FStringErrorType as F;
            let msg = match fe {
                F::EmptyExpression => match string_containing(ctx.src, off)
                    .and_then(|s| empty_field_before(ctx.src, s))
                {
                    Some(c) => format!("f-string: expression required before '{c}'"),
                    None => "f-string: empty expression not allowed".to_string(),
                },
                F::UnclosedLbrace | F::ExpectedRbrace => match string_containing(ctx.src, off)
                    .and_then(|s| unmatched_in_field(ctx.src, s))
                {
                    Some(c) => format!("f-string: unmatched '{c}'"),
                    None => "f-string: expecting '}'".to_string(),
                },
                F::SingleRbrace | F::UnopenedRbrace => {
                    "f-string: single '}' is not allowed".to_string()
                }
                F::InvalidConversionFlag => {
                    "f-string: invalid conversion character: expected 's', 'r', or 'a'".to_string()
                }
                F::ExpressionCannotInclude('\\') => {
                    "f-string expression part cannot include a backslash".to_string()
                }
                F::ExpressionCannotInclude(c) => {
                    format!("f-string expression part cannot include '{c}'")
                }
                F::Unmatched(c) => format!("f-string: unmatched '{c}'"),
                F::MismatchedDelimiter(a, b) => format!(
                    "f-string: closing parenthesis '{b}' does not match opening parenthesis '{a}'"
                ),
                F::ExpressionNestedTooDeeply => {
                    "f-string: expressions nested too deeply".to_string()
                }
                F::UnterminatedString => "f-string: unterminated string".to_string(),
                F::InvalidExpression(inner) => {
                    if let Some(e) = fstring_expression_error(ctx, off) {
                        return e;
                    }
                    if let ParseErrorType::Lexical(LexicalErrorType::OtherError(m)) = &**inner {
                        // `f'{*a}'`: rustpython's own check of the expression, at its start
                        // (column 2 of `(expr)`).
                        let mut e =
                            ctx.error(format!("f-string: {m}"), off, ErrorKind::SyntaxError);
                        e.offset = 2;
                        e.byte_offset = None;
                        return e;
                    }
                    "f-string: invalid syntax".to_string()
                }
            };
            // 3.11 parses an f-string in the action of the string run, raising at the last
            // token its parser read: the one after the run.
            let at = if matches!(fe, F::ExpressionCannotInclude(_) | F::InvalidExpression(_)) {
                off
            } else {
                string_containing(ctx.src, off).map_or(off, |s| after_strings(ctx.src, s))
            };
            ctx.error(msg, at, ErrorKind::SyntaxError)
        }
        L::OtherError(m) if m == "cannot use double starred expression here" => {
            double_starred_group(ctx, off)
                .unwrap_or_else(|| ctx.error(m.clone(), off, ErrorKind::SyntaxError))
        }
        L::OtherError(m)
            if m == "named arguments must follow bare *"
                || m == "cannot use starred expression here" =>
        {
            ctx.error(m.clone(), off, ErrorKind::SyntaxError)
        }
        L::OtherError(m) if m == "cannot mix bytes and nonbytes literals" => {
            // Each literal is parsed first: a bytes literal with non-ASCII text fails there.
            let b = ctx.src.as_bytes();
            let end = end_of_strings(ctx.src, off);
            let mut i = off;
            while i < end {
                let Some(e) = super::from_rustpython::skip_string(b, i) else { break };
                let literal = &ctx.src[i..e];
                let bytes = literal
                    .bytes()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .any(|c| c == b'b' || c == b'B');
                if bytes && !literal.is_ascii() {
                    let msg = "bytes can only contain ASCII literal characters";
                    return ctx.error(msg, i, ErrorKind::SyntaxError);
                }
                i = next_token(ctx.src, e);
            }
            ctx.error(m.clone(), end, ErrorKind::SyntaxError)
        }
        L::OtherError(m) if m.starts_with("bytes can only contain ASCII") => ctx.error(
            "bytes can only contain ASCII literal characters",
            // (raised in the action at the literal's token)
            string_containing(ctx.src, off).unwrap_or(off),
            ErrorKind::SyntaxError,
        ),
        L::DuplicateKeywordArgumentError(n) => {
            ctx.error(format!("keyword argument repeated: {n}"), off, ErrorKind::SyntaxError)
        }
        L::PositionalArgumentError => {
            // CPython raises it at the last token its parser read: the call's `)`; "unpacking"
            // when a `**` argument comes before the positional one.
            let b = ctx.src.as_bytes();
            // (rustpython points inside the argument's own parentheses)
            let mut arg = off;
            loop {
                let mut j = arg;
                while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c' | b'\n' | b'\r' | b'\\') {
                    j -= 1;
                }
                if j == 0 || b[j - 1] != b'(' || !atom_position(ctx.src, j - 1) {
                    break;
                }
                arg = j - 1;
            }
            let call = scan::scan_until(ctx.src, arg).open.last().copied();
            if let Some((b'(', open)) = call {
                // `f(**a, b for b in c)`: the argument is an unparenthesised generator.
                let end = matching_close(b, open).unwrap_or(b.len());
                let item_end = top_level_comma(b, arg).filter(|&c| c < end).unwrap_or(end);
                if top_level_word(&b[arg..item_end], b"for") {
                    return ctx.error(
                        "Generator expression must be parenthesized",
                        off,
                        ErrorKind::SyntaxError,
                    );
                }
            }
            let (at, unpacking) = match call {
                Some((b'(', open)) => {
                    let stars = ctx.src.get(open + 1..off).is_some_and(|args| {
                        let ab = args.as_bytes();
                        let mut depth = 0usize;
                        let mut i = 0;
                        while i < ab.len() {
                            match ab[i] {
                                b'(' | b'[' | b'{' => depth += 1,
                                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                                b'\'' | b'"' => {
                                    i = super::from_rustpython::skip_string(ab, i)
                                        .unwrap_or(ab.len());
                                    continue;
                                }
                                b'*' if depth == 0 && ab.get(i + 1) == Some(&b'*') => return true,
                                _ => {}
                            }
                            i += 1;
                        }
                        false
                    });
                    (matching_close(b, open).unwrap_or(off), stars)
                }
                _ => (off, false),
            };
            let msg = if unpacking {
                "positional argument follows keyword argument unpacking"
            } else {
                "positional argument follows keyword argument"
            };
            ctx.error(msg, at, ErrorKind::SyntaxError)
        }
        L::UnpackedArgumentError => ctx.error(
            "iterable argument unpacking follows keyword argument unpacking",
            off,
            ErrorKind::SyntaxError,
        ),
        L::LineContinuationError => ctx.error(
            "unexpected character after line continuation character",
            // CPython's column is the character after the `\`'s (1-based).
            ctx.src.get(..off).and_then(|h| h.rfind('\\')).map_or(off, |p| p + 1),
            ErrorKind::SyntaxError,
        ),
        L::UnrecognizedToken { tok } => {
            let c = *tok;
            // rustpython reports the offset after the character; CPython the character's own.
            let off = if ctx.src.get(..off).is_some_and(|t| t.ends_with(c)) {
                off - c.len_utf8()
            } else {
                off
            };
            if c.is_ascii() {
                ctx.error("invalid syntax", off, ErrorKind::SyntaxError)
            } else if super::dump::is_printable_char(c) {
                ctx.error(
                    format!("invalid character '{c}' (U+{:04X})", c as u32),
                    off,
                    ErrorKind::SyntaxError,
                )
            } else {
                ctx.error(
                    format!("invalid non-printable character U+{:04X}", c as u32),
                    off,
                    ErrorKind::SyntaxError,
                )
            }
        }
        _ => ctx.error("invalid syntax", off, ErrorKind::SyntaxError),
    }
}

/// `text` with every `\N{name}` whose name `unicode_names2` does not know replaced by an escape of
/// the same length (`\x41AAA...`), or `None` when there is none. CPython raises the unknown name
/// while parsing and then tokenizes the whole source (a tokenizer error anywhere wins), so the
/// parse goes on past it. Called only when `unknown_named_escape` finds one, which then reports it
/// on the original source, so a tree parsed from the replaced text (raw strings and comments
/// included) is never returned. Positions are unchanged.
fn neutralize_unknown_names(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&b[from..], b"\\N{").map(|i| i + from) {
        from = i + 3;
        let Some(len) = b[i + 3..].iter().position(|&c| matches!(c, b'}' | b'\n' | b'\r' | b'\\'))
        else {
            break;
        };
        if b[i + 3 + len] != b'}' {
            continue;
        }
        let name = &text[i + 3..i + 3 + len];
        if name.contains(['"', '\'']) || unicode_names2::character(name).is_some() {
            continue;
        }
        let o = out.get_or_insert_with(|| b.to_vec());
        o[i..i + 4].copy_from_slice(b"\\x41");
        o[i + 4..i + 4 + len].fill(b'A');
        from = i + 4 + len;
    }
    out.and_then(|o| String::from_utf8(o).ok())
}

/// The first `\N{name}` escape of a (parsed) source that 3.11 cannot resolve: the parser crates
/// read names more leniently than 3.11 (lower-case CJK hex digits), and rustpython's error for an
/// unknown name is not CPython's. Returns CPython's message and the offset it reports (the token
/// after the implicitly concatenated strings), and where the string starts.
/// Malformed escapes (`\N` without `{...}`) are reported too.
fn unknown_named_escape(src: &str) -> Option<(String, usize, usize)> {
    memchr::memmem::find(src.as_bytes(), b"\\N")?;
    bad_escape(src, false)
}

/// A string literal of a source, as [`string_literals`] finds it.
struct StringLit<'a> {
    /// Its prefix (`rb`, `f`, ... or empty).
    prefix: &'a [u8],
    /// Where it starts, prefix included.
    start: usize,
    /// Its opening quote.
    quote: usize,
    /// Just past its closing quote.
    end: usize,
}

/// The string literals of a source in order, comments skipped (a name is a prefix only when a
/// quote follows it); an unterminated literal is a `None` item, after which nothing follows.
fn string_literals(b: &[u8]) -> impl Iterator<Item = Option<StringLit<'_>>> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() {
            let c = b[i];
            if c == b'#' {
                i += memchr::memchr2(b'\n', b'\r', &b[i..]).unwrap_or(b.len() - i);
                continue;
            }
            if !(is_ident_char(c) || c == b'\'' || c == b'"') {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && (is_ident_char(b[i])) {
                i += 1;
            }
            let prefix = &b[start..i];
            if !matches!(b.get(i), Some(b'\'' | b'"'))
                || prefix.len() > 2
                || !prefix.iter().all(|c| b"rRbBfFuU".contains(c))
            {
                continue;
            }
            let quote = i;
            let Some(end) = super::from_rustpython::skip_string(b, start) else {
                i = b.len();
                return Some(None);
            };
            i = end;
            return Some(Some(StringLit { prefix, start, quote, end }));
        }
        None
    })
}

/// The length of the quotes opening at `q`: 3 for a triple-quoted literal, else 1.
fn quote_len(b: &[u8], q: usize) -> usize {
    if b.get(q + 1) == b.get(q) && b.get(q + 2) == b.get(q) {
        3
    } else {
        1
    }
}

/// The first escape of a string literal 3.11's decoder refuses, reported as [`unknown_named_escape`]
/// does: with `all`, truncated `\x` / `\u` / `\U` escapes and `\U` beyond U+10FFFF too (str
/// literals: `(unicode error) 'unicodeescape' ...`; bytes literals: `(value error) invalid \x
/// escape at position N`), which rustpython rejects with an error of its own.
fn bad_escape(src: &str, all: bool) -> Option<(String, usize, usize)> {
    for lit in string_literals(src.as_bytes()) {
        let StringLit { prefix, start, quote: q, end } = lit?;
        let bytes = prefix.iter().any(|c| b"bB".contains(c));
        if prefix.iter().any(|c| b"rR".contains(c)) || (bytes && !all) {
            continue;
        }
        let ql = quote_len(src.as_bytes(), q);
        let body = src.get(q + ql..end - ql)?;
        let fstring = prefix.iter().any(|c| b"fF".contains(c));
        let found = if bytes {
            truncated_bytes_escape(body)
                .map(|p| format!("(value error) invalid \\x escape at position {p}"))
        } else {
            bad_escape_in(body, fstring, all).map(|(a, z, why)| {
                format!("(unicode error) 'unicodeescape' codec can't decode bytes in position {a}-{z}: {why}")
            })
        };
        if let Some(msg) = found {
            return Some((msg, after_strings(src, start), start));
        }
    }
    None
}

/// The body of the f-string literal starting (prefix included) at `start`.
fn fstring_body(src: &str, start: usize) -> Option<&str> {
    let b = src.as_bytes();
    let q = start + b[start..].iter().position(|c| matches!(c, b'\'' | b'"'))?;
    let ql = quote_len(b, q);
    let end = super::from_rustpython::skip_string(b, start).unwrap_or(b.len());
    src.get(q + ql..end.saturating_sub(ql).max(q + ql))
}

/// The first replacement field of the f-string at `start` with no expression before a `!`,
/// `:` or `=` (3.11: "expression required before ..."): that character.
fn empty_field_before(src: &str, start: usize) -> Option<char> {
    let body = fstring_body(src, start)?.as_bytes();
    let mut i = 0;
    while i < body.len() {
        if body[i] == b'{' {
            if body.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            let mut k = i + 1;
            while matches!(body.get(k), Some(b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')) {
                k += 1;
            }
            match body.get(k) {
                Some(&c @ (b'!' | b':' | b'=')) => return Some(c as char),
                Some(b'}') | None => return None,
                _ => {}
            }
        }
        i += 1;
    }
    None
}

/// The bracket left open at the end of the f-string at `start` inside its last unclosed
/// replacement field (3.11: "f-string: unmatched '['").
fn unmatched_in_field(src: &str, start: usize) -> Option<char> {
    let body = fstring_body(src, start)?.as_bytes();
    let mut i = 0;
    let mut stack: Vec<u8> = Vec::new();
    let mut in_field = false;
    let mut quote: Option<u8> = None;
    while i < body.len() {
        let c = body[i];
        if !in_field {
            if c == b'{' && body.get(i + 1) == Some(&b'{') {
                i += 2;
                continue;
            }
            if c == b'{' {
                in_field = true;
                stack.clear();
            }
            i += 1;
            continue;
        }
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'\'' | b'"' => quote = Some(c),
                b'(' | b'[' | b'{' => stack.push(c),
                b')' | b']' => {
                    stack.pop();
                }
                b'}' if stack.is_empty() => in_field = false,
                b'}' => {
                    stack.pop();
                }
                b':' | b'!' if stack.is_empty() => return None,
                _ => {}
            },
        }
        i += 1;
    }
    if quote.is_some() {
        return None;
    }
    stack.last().map(|&c| c as char)
}

/// `text` with each known `\N{NAME}` escape in a (non-raw) f-string's format spec spelled
/// `\\(NAME)` (same offsets), which the parser crates keep as text and
/// `idents::fix_format_specs` decodes.
fn mask_spec_names(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut masked: Option<Vec<u8>> = None;
    for lit in string_literals(b) {
        let StringLit { prefix, quote: q, end, .. } = lit?;
        if !prefix.iter().any(|c| b"fF".contains(c)) || prefix.iter().any(|c| b"rR".contains(c)) {
            continue;
        }
        let ql = quote_len(b, q);
        let body_start = q + ql;
        let body = b.get(body_start..end.checked_sub(ql)?)?;
        // Replacement fields open: (bracket nesting, in the spec).
        let mut fields: Vec<(usize, bool)> = Vec::new();
        let mut k = 0;
        while k < body.len() {
            let c = body[k];
            if let Some((nest, in_spec)) = fields.last_mut().filter(|f| !f.1) {
                match c {
                    b'\'' | b'"' => {
                        k += 1;
                        while k < body.len() && body[k] != c {
                            k += 1;
                        }
                    }
                    b'(' | b'[' | b'{' => *nest += 1,
                    b')' | b']' => *nest = nest.saturating_sub(1),
                    b'}' if *nest > 0 => *nest -= 1,
                    b'}' => {
                        fields.pop();
                    }
                    b':' if *nest == 0 => *in_spec = true,
                    b'!' if *nest == 0 && body.get(k + 1) != Some(&b'=') => k += 1,
                    _ => {}
                }
                k += 1;
                continue;
            }
            match c {
                b'{' if fields.is_empty() && body.get(k + 1) == Some(&b'{') => k += 2,
                b'}' if fields.is_empty() && body.get(k + 1) == Some(&b'}') => k += 2,
                b'{' => {
                    fields.push((0, false));
                    k += 1;
                }
                b'}' => {
                    fields.pop();
                    k += 1;
                }
                b'\\' if !fields.is_empty() && body.get(k + 1..k + 3) == Some(b"N{") => {
                    let close = body[k + 3..].iter().position(|&c| c == b'}').map(|p| k + 3 + p);
                    let Some(close) = close else { break };
                    let name = std::str::from_utf8(&body[k + 3..close]).ok()?;
                    let known = unicode_names2::character(name)
                        .is_some_and(|ch| crate::unicode::name_known_to_3_11(name, ch));
                    if known {
                        let m = masked.get_or_insert_with(|| b.to_vec());
                        m[body_start + k + 1] = b'\\';
                        m[body_start + k + 2] = b'(';
                        m[body_start + close] = b')';
                    }
                    k = close + 1;
                }
                b'\\' => k += 2,
                _ => k += 1,
            }
        }
    }
    masked.and_then(|m| String::from_utf8(m).ok())
}

/// The offset of the token after the run of implicitly concatenated strings starting at
/// `start` (the last token CPython's parser read when the run's action raises).
fn after_strings(src: &str, start: usize) -> usize {
    let b = src.as_bytes();
    let mut at = end_of_strings(src, start);
    let in_brackets = !scan::scan_until(src, at).open.is_empty();
    while let Some(&c) = b.get(at) {
        match c {
            b' ' | b'\t' | b'\x0c' => at += 1,
            b'\\' if matches!(b.get(at + 1), Some(b'\n' | b'\r')) => at = next_token(src, at),
            b'\n' | b'\r' | b'#' if in_brackets => at = next_token(src, at),
            _ => break,
        }
    }
    at
}

/// The start (prefix included) of the string literal holding byte `off` (or ending there).
fn string_containing(src: &str, off: usize) -> Option<usize> {
    let b = src.as_bytes();
    let mut i = 0;
    while i < b.len() && i <= off {
        let c = b[i];
        if c == b'#' {
            while i < b.len() && b[i] != b'\n' && b[i] != b'\r' {
                i += 1;
            }
            continue;
        }
        if is_ident_char(c) {
            let start = i;
            while i < b.len() && (is_ident_char(b[i])) {
                i += 1;
            }
            let prefix = &b[start..i];
            let is_prefix = prefix.len() <= 2 && prefix.iter().all(|c| b"rRbBfFuU".contains(c));
            if !(is_prefix && matches!(b.get(i), Some(b'\'' | b'"'))) {
                continue;
            }
            i = start;
        }
        if matches!(b[i], b'\'' | b'"') || (b[i].is_ascii_alphabetic()) {
            let start = i;
            let end = super::from_rustpython::skip_string(b, start).unwrap_or(b.len());
            if off < end || (off == end && end == b.len()) {
                return Some(start);
            }
            i = end;
            continue;
        }
        i += 1;
    }
    None
}

/// The position of the first truncated `\x` escape of a bytes literal's body (its bytes are
/// ASCII: anything else is refused before).
fn truncated_bytes_escape(body: &str) -> Option<usize> {
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            if b.get(i + 1) == Some(&b'x') {
                let digits =
                    b[i + 2..].iter().take(2).take_while(|c| c.is_ascii_hexdigit()).count();
                if digits < 2 {
                    return Some(i);
                }
            }
            i += 2;
            continue;
        }
        i += 1;
    }
    None
}

/// The position range 3.11 reports for the first escape of a string body its decoder refuses
/// (an unknown or malformed `\N{...}`; with `all`, a truncated `\x`/`\u`/`\U` or a `\U` beyond
/// U+10FFFF): counted in the literal chunk it decodes (an f-string's chunks end at replacement
/// fields and after the first of doubled braces), where every non-ASCII character counts 10 (it
/// was rewritten to `\\U%08x` before decoding).
fn bad_escape_in(body: &str, fstring: bool, all: bool) -> Option<(usize, usize, &'static str)> {
    let cs: Vec<char> = body.chars().collect();
    let (mut pos, mut i) = (0usize, 0usize);
    // The replacement fields open at `i`, innermost last: (bracket nesting in the expression,
    // in the format spec). A spec is literal text too (3.11 decodes its escapes, each chunk
    // between nested fields on its own).
    let mut fields: Vec<(usize, bool)> = Vec::new();
    let width = |c: char| if c.is_ascii() { 1 } else { 10 };
    while i < cs.len() {
        let c = cs[i];
        if let Some((nest, in_spec)) = fields.last_mut().filter(|f| fstring && !f.1) {
            match c {
                '\'' | '"' => {
                    // a string inside the expression
                    i += 1;
                    while i < cs.len() && cs[i] != c {
                        i += 1;
                    }
                }
                '(' | '[' | '{' => *nest += 1,
                ')' | ']' => *nest = nest.saturating_sub(1),
                '}' if *nest > 0 => *nest -= 1,
                '}' => {
                    fields.pop();
                    pos = 0;
                }
                ':' if *nest == 0 => {
                    *in_spec = true;
                    pos = 0;
                }
                '!' if *nest == 0 && cs.get(i + 1) != Some(&'=') => i += 1,
                _ => {}
            }
            i += 1;
            continue;
        }
        if fstring && (c == '{' || c == '}') {
            if fields.is_empty() && cs.get(i + 1) == Some(&c) {
                pos = 0;
                i += 2;
            } else if c == '{' {
                fields.push((0, false));
                i += 1;
            } else {
                if fields.pop().is_some() {
                    pos = 0;
                }
                i += 1;
            }
            continue;
        }
        if c == '\\' {
            if cs.get(i + 1) == Some(&'N') {
                const MALFORMED: &str = "malformed \\N character escape";
                if cs.get(i + 2) != Some(&'{') {
                    return Some((pos, pos + 1, MALFORMED));
                }
                let Some(close) = cs[i + 3..].iter().position(|&c| c == '}').map(|p| p + i + 3)
                else {
                    let len: usize = cs[i..].iter().map(|&c| width(c)).sum();
                    return Some((pos, pos + len - 1, MALFORMED));
                };
                if close == i + 3 {
                    return Some((pos, pos + 2, MALFORMED));
                }
                let name: String = cs[i + 3..close].iter().collect();
                let known = unicode_names2::character(&name)
                    .is_some_and(|ch| crate::unicode::name_known_to_3_11(&name, ch));
                let len: usize = cs[i..=close].iter().map(|&c| width(c)).sum();
                if !known {
                    return Some((pos, pos + len - 1, "unknown Unicode character name"));
                }
                pos += len;
                i = close + 1;
                continue;
            }
            let width_of = match cs.get(i + 1) {
                Some('x') if all => 2,
                Some('u') if all => 4,
                Some('U') if all => 8,
                _ => 0,
            };
            if width_of > 0 {
                let digits =
                    cs[i + 2..].iter().take(width_of).take_while(|c| c.is_ascii_hexdigit()).count();
                if digits < width_of {
                    let why = match width_of {
                        2 => "truncated \\xXX escape",
                        4 => "truncated \\uXXXX escape",
                        _ => "truncated \\UXXXXXXXX escape",
                    };
                    return Some((pos, pos + 1 + digits, why));
                }
                let hex: String = cs[i + 2..i + 2 + width_of].iter().collect();
                if u32::from_str_radix(&hex, 16).is_ok_and(|v| v > 0x10_FFFF) {
                    return Some((pos, pos + 1 + width_of, "illegal Unicode character"));
                }
                pos += 2 + width_of;
                i += 2 + width_of;
                continue;
            }
            if let Some(&n) = cs.get(i + 1) {
                pos += 1 + width(n);
                i += 2;
                continue;
            }
        }
        pos += width(c);
        i += 1;
    }
    None
}

/// The parser stopped at the token after a string run holding an f-string 3.11 refuses: the
/// run's action (parsing the f-string) raises once the parser has read that token, first.
fn fstring_error_before(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let b = ctx.src.as_bytes();
    let mut j = off.min(b.len());
    // (blanks and `\` continuations back to the string run)
    loop {
        while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c') {
            j -= 1;
        }
        let cont = if b[..j].ends_with(b"\\\r\n") {
            3
        } else if b[..j].ends_with(b"\\\n") || b[..j].ends_with(b"\\\r") {
            2
        } else {
            break;
        };
        j -= cont;
    }
    if j == 0 || !matches!(b[j - 1], b'\'' | b'"') {
        return None;
    }
    let start = string_containing(ctx.src, j - 1)?;
    let literal = ctx.src.get(start..j)?;
    let prefix = || literal.bytes().take_while(|c| c.is_ascii_alphabetic());
    if prefix().any(|c| c == b'b' || c == b'B') && !literal.is_ascii() {
        let msg = "bytes can only contain ASCII literal characters";
        return Some(ctx.error(msg, start, ErrorKind::SyntaxError));
    }
    if !prefix().any(|c| c == b'f' || c == b'F') {
        return None;
    }
    let sub = parse(literal, ctx.filename, true).err()?;
    if sub.msg.starts_with("f-string: invalid syntax") {
        // A field's expression, compiled alone as `(expr)`: its position there, on the
        // field's line.
        let lineno = ctx.index().position(start as u32).0 + sub.lineno - 1;
        return Some(SyntaxError { lineno, ..sub });
    }
    let own = sub.msg.starts_with("f-string: ") && !super::columns::from_tokenizer(&sub.msg);
    own.then(|| ctx.error(sub.msg, after_strings(ctx.src, start), ErrorKind::SyntaxError))
}

/// Does an operand of an `expression` end right before the token at `off` (a name that is no
/// keyword, a number, a closing bracket, a string; not a starred item's)?
fn operand_before(src: &str, off: usize) -> bool {
    let b = src.as_bytes();
    let mut j = off.min(b.len());
    while j > 0 && matches!(b[j - 1], b' ' | b'\t' | b'\x0c') {
        j -= 1;
    }
    let Some(&prev) = j.checked_sub(1).and_then(|p| b.get(p)) else { return false };
    let ends = match prev {
        b')' | b']' | b'}' | b'\'' | b'"' => true,
        c if is_ident_char(c) => {
            let w = word_before(src, j);
            !super::is_hard_keyword(w) || matches!(w, "None" | "True" | "False")
        }
        _ => false,
    };
    ends && !previous_operand(src, j).1.trim_start().starts_with('*')
}

/// Is the token right before byte `off` a one-line f-string whose replacement field is unclosed?
fn fstring_before_is_unclosed(src: &str, off: usize) -> bool {
    let b = src.as_bytes();
    let mut i = off.min(b.len());
    while i > 0 && matches!(b[i - 1], b' ' | b'\t') {
        i -= 1;
    }
    if i < 2 || !matches!(b[i - 1], b'"' | b'\'') {
        return false;
    }
    let q = b[i - 1];
    let Some(open) = b[..i - 1].iter().rposition(|&c| c == q || c == b'\n') else {
        return false;
    };
    if b[open] != q {
        return false;
    }
    let prefix_start =
        b[..open].iter().rposition(|c| !c.is_ascii_alphabetic()).map_or(0, |p| p + 1);
    let prefix = &b[prefix_start..open];
    if prefix.len() > 2 || !prefix.iter().any(|c| matches!(c, b'f' | b'F')) {
        return false;
    }
    let body = &b[open + 1..i - 1];
    let mut depth = 0i32;
    let mut j = 0;
    while j < body.len() {
        match (body[j], body.get(j + 1)) {
            (b'{', Some(b'{')) if depth == 0 => j += 1,
            (b'}', Some(b'}')) if depth == 0 => j += 1,
            (b'{', _) => depth += 1,
            (b'}', _) => depth -= 1,
            _ => {}
        }
        j += 1;
    }
    depth > 0
}

/// The error of an f-string replacement field's expression (starting at byte `off`) as 3.11
/// reports it: `fstring_compile_expr` parses the expression as `(expr)` on its own, so the
/// message is that parse's (with `f-string: ` before it, unless the tokenizer raised it), the
/// line is the expression's line in the file plus the parse's line, less one, and the column is
/// the parse's column in `(expr)`.
fn fstring_expression_error(ctx: &Ctx, off: usize) -> Option<SyntaxError> {
    let b = ctx.src.as_bytes();
    let mut i = off;
    let mut depth = 0usize;
    let mut quote: Option<u8> = None;
    while let Some(&c) = b.get(i) {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None => match c {
                b'\'' | b'"' => quote = Some(c),
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' if depth > 0 => depth -= 1,
                b'}' if depth > 0 => depth -= 1,
                b'}' | b':' if depth == 0 => break,
                b'!' if depth == 0 && b.get(i + 1) != Some(&b'=') => break,
                b'=' if depth == 0
                    && b.get(i + 1) != Some(&b'=')
                    && !matches!(b.get(i.wrapping_sub(1)), Some(b'=' | b'<' | b'>' | b'!')) =>
                {
                    break
                }
                b'\n' | b'\r' if depth == 0 => return None,
                _ => {}
            },
        }
        i += 1;
    }
    let expr = ctx.src.get(off..i)?;
    // Only the error is wanted, and the fast path answers only sources the reference accepts:
    // the reference alone (the fast conversion into a `Node` tree is then linked into tests and
    // the CLI only, not the scoring worker).
    let sub = super::parse_tree_reference(&format!("({expr})"), ctx.filename).err()?;
    let lineno = ctx.index().position(off as u32).0 + sub.lineno - 1;
    let msg = if super::columns::from_tokenizer(&sub.msg) {
        sub.msg
    } else {
        format!("f-string: {}", sub.msg)
    };
    Some(SyntaxError { msg, lineno, ..sub })
}
