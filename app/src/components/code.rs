//! Source views: a small Python tokenizer that turns a file into coloured text spans, and
//! [`CodeView`], which renders them with line numbers and an optional highlighted line.
//!
//! Test files and repository files come from bundles, which are hostile input: everything here is
//! text nodes and class names chosen from a fixed list, never `inner_html`. The tokenizer is for
//! colouring only; it never rejects input and every byte of the source ends up in exactly one span,
//! so a line's spans concatenate back to the line (tested).

use leptos::prelude::*;

/// What a span is, as far as colouring goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tok {
    /// Names, operators, brackets, whitespace.
    Plain,
    Keyword,
    /// `True`, `False`, `None`, `self`, `cls`.
    Constant,
    /// A few builtins a test file uses all the time (`open`, `isinstance`, `len`…).
    Builtin,
    /// A string literal, prefix and quotes included.
    Str,
    /// A replacement field `{…}` of an f-string.
    Interp,
    Comment,
    Number,
    /// `@name.attr` at the start of a line.
    Decorator,
    /// The name after `def` or `class`.
    DefName,
}

impl Tok {
    /// The CSS class of the span (`None` for plain text, which needs no element).
    pub fn class(self) -> Option<&'static str> {
        Some(match self {
            Tok::Plain => return None,
            Tok::Keyword => "t-kw",
            Tok::Constant => "t-const",
            Tok::Builtin => "t-builtin",
            Tok::Str => "t-str",
            Tok::Interp => "t-interp",
            Tok::Comment => "t-com",
            Tok::Number => "t-num",
            Tok::Decorator => "t-deco",
            Tok::DefName => "t-def",
        })
    }
}

/// A run of one line's text with one colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span<'a> {
    pub kind: Tok,
    pub text: &'a str,
}

const KEYWORDS: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif",
    "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda",
    "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
];
const CONSTANTS: &[&str] = &["True", "False", "None", "self", "cls"];
const BUILTINS: &[&str] = &[
    "abs",
    "all",
    "any",
    "bool",
    "dict",
    "enumerate",
    "filter",
    "getattr",
    "hasattr",
    "int",
    "isinstance",
    "issubclass",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "open",
    "print",
    "range",
    "repr",
    "set",
    "sorted",
    "str",
    "super",
    "tuple",
    "type",
    "zip",
];

/// Where the previous line left off: in code, or inside a string that continues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Code,
    /// Inside a string opened with `quote` (tripled or not). `interp` is the brace depth inside an
    /// f-string replacement field (0 outside one).
    Str {
        quote: u8,
        triple: bool,
        fmt: bool,
        interp: u32,
    },
}

/// Splits `src` into lines (on `\n`, exactly as `src.split('\n')`: a `\r` stays at the end of its
/// line and a final newline gives a last empty line) and colours each line's text.
pub fn highlight_python(src: &str) -> Vec<Vec<Span<'_>>> {
    let mut mode = Mode::Code;
    src.split('\n')
        .map(|line| {
            let mut out = LineOut::new(line);
            mode = scan_line(line, mode, &mut out);
            out.spans
        })
        .collect()
}

/// Lines of a file without colouring (for non-Python files), in the same shape.
pub fn plain_lines(src: &str) -> Vec<Vec<Span<'_>>> {
    src.split('\n')
        .map(
            |line| {
                if line.is_empty() {
                    Vec::new()
                } else {
                    vec![Span { kind: Tok::Plain, text: line }]
                }
            },
        )
        .collect()
}

struct LineOut<'a> {
    line: &'a str,
    spans: Vec<Span<'a>>,
    /// Byte offset where the last span starts, for merging.
    last_start: usize,
}

impl<'a> LineOut<'a> {
    fn new(line: &'a str) -> Self {
        LineOut { line, spans: Vec::new(), last_start: 0 }
    }

    /// Adds `line[start..end]` as `kind`, merging with the previous span when it has the same
    /// kind and ends at `start`.
    fn push(&mut self, kind: Tok, start: usize, end: usize) {
        if start >= end {
            return;
        }
        if let Some(last) = self.spans.last_mut() {
            if last.kind == kind && self.last_start + last.text.len() == start {
                if let Some(joined) = self.line.get(self.last_start..end) {
                    last.text = joined;
                    return;
                }
            }
        }
        if let Some(text) = self.line.get(start..end) {
            self.spans.push(Span { kind, text });
            self.last_start = start;
        }
    }
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_char(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

/// Length in bytes of the char at `i` (1 when `i` is at the end, to always make progress).
fn char_len(line: &str, i: usize) -> usize {
    line[i..].chars().next().map_or(1, char::len_utf8)
}

/// Colours one line starting in `mode`; returns the mode the next line starts in.
fn scan_line(line: &str, mut mode: Mode, out: &mut LineOut<'_>) -> Mode {
    let bytes = line.as_bytes();
    let mut i = 0;
    // The previous significant word, to colour the name after `def` / `class`.
    let mut after_def = false;
    // Only whitespace so far (a decorator must come first on its line).
    let mut line_start = true;
    while i < bytes.len() {
        if let Mode::Str { .. } = mode {
            let (end, next) = scan_string(line, i, mode, out);
            i = end;
            mode = next;
            line_start = false;
            continue;
        }
        let c = bytes[i];
        if c == b' ' || c == b'\t' || c == b'\r' || c == b'\x0c' {
            let start = i;
            while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\x0c') {
                i += 1;
            }
            out.push(Tok::Plain, start, i);
            continue;
        }
        if c == b'#' {
            out.push(Tok::Comment, i, bytes.len());
            return Mode::Code;
        }
        if c == b'"' || c == b'\'' {
            mode = open_string(line, i, i, false, out);
            i = string_body_start(line, i);
            line_start = false;
            after_def = false;
            continue;
        }
        if c == b'@' && line_start {
            let start = i;
            i += 1;
            while i < bytes.len() {
                let ch = line[i..].chars().next().unwrap_or(' ');
                if is_ident_char(ch) || ch == '.' {
                    i += ch.len_utf8();
                } else {
                    break;
                }
            }
            out.push(Tok::Decorator, start, i);
            line_start = false;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(|b| b.is_ascii_digit()))
        {
            let start = i;
            i = scan_number(bytes, i);
            out.push(Tok::Number, start, i);
            line_start = false;
            after_def = false;
            continue;
        }
        let ch = line[i..].chars().next().unwrap_or(' ');
        if is_ident_start(ch) {
            let start = i;
            while i < bytes.len() {
                let ch = line[i..].chars().next().unwrap_or(' ');
                if is_ident_char(ch) {
                    i += ch.len_utf8();
                } else {
                    break;
                }
            }
            let word = &line[start..i];
            // A string prefix (`f`, `rb`, `Rf`…) directly followed by a quote.
            if matches!(bytes.get(i), Some(b'"' | b'\'')) && is_string_prefix(word) {
                let fmt = word.contains(['f', 'F']);
                mode = open_string(line, start, i, fmt, out);
                i = string_body_start(line, i);
                line_start = false;
                after_def = false;
                continue;
            }
            let kind = if after_def {
                Tok::DefName
            } else if KEYWORDS.contains(&word) {
                Tok::Keyword
            } else if CONSTANTS.contains(&word) {
                Tok::Constant
            } else if BUILTINS.contains(&word) {
                Tok::Builtin
            } else {
                Tok::Plain
            };
            after_def = word == "def" || word == "class";
            out.push(kind, start, i);
            line_start = false;
            continue;
        }
        let len = char_len(line, i);
        out.push(Tok::Plain, i, i + len);
        i += len;
        line_start = false;
        after_def = false;
    }
    mode
}

fn is_string_prefix(word: &str) -> bool {
    matches!(word.to_ascii_lowercase().as_str(), "r" | "u" | "b" | "f" | "br" | "rb" | "fr" | "rf")
}

/// Where the body of a string whose first quote is at `q` starts (after one or three quotes).
fn string_body_start(line: &str, q: usize) -> usize {
    let b = line.as_bytes();
    let quote = b[q];
    if b.get(q + 1) == Some(&quote) && b.get(q + 2) == Some(&quote) {
        q + 3
    } else {
        q + 1
    }
}

/// Emits the prefix and opening quotes of a string (prefix at `start`, first quote at `q`).
fn open_string(line: &str, start: usize, q: usize, fmt: bool, out: &mut LineOut<'_>) -> Mode {
    let quote = line.as_bytes()[q];
    let body = string_body_start(line, q);
    out.push(Tok::Str, start, body);
    Mode::Str { quote, triple: body - q == 3, fmt, interp: 0 }
}

/// Scans string content from `i` in `mode` (a `Mode::Str`) until the string ends or the line
/// does; returns the position reached and the mode after it.
fn scan_string(line: &str, mut i: usize, mode: Mode, out: &mut LineOut<'_>) -> (usize, Mode) {
    let Mode::Str { quote, triple, fmt, mut interp } = mode else { return (i, mode) };
    let b = line.as_bytes();
    let closes = |at: usize| {
        b.get(at) == Some(&quote)
            && (!triple || (b.get(at + 1) == Some(&quote) && b.get(at + 2) == Some(&quote)))
    };
    let mut start = i;
    let kind_now = |interp: u32| if interp > 0 { Tok::Interp } else { Tok::Str };
    while i < b.len() {
        if interp > 0 {
            // Inside `{…}` of an f-string: brackets nest; a string of another quote is skipped
            // whole; the outer closing quote ends everything (an unterminated field).
            match b[i] {
                b'{' | b'[' | b'(' => {
                    interp += 1;
                    i += 1;
                }
                b'}' | b']' | b')' => {
                    interp -= 1;
                    i += 1;
                    if interp == 0 {
                        out.push(Tok::Interp, start, i);
                        start = i;
                    }
                }
                q @ (b'"' | b'\'') if !closes(i) => {
                    i += 1;
                    while i < b.len() && b[i] != q {
                        i += 1;
                    }
                    i = (i + 1).min(b.len());
                }
                _ if closes(i) => {
                    out.push(Tok::Interp, start, i);
                    let end = i + if triple { 3 } else { 1 };
                    out.push(Tok::Str, i, end);
                    return (end, Mode::Code);
                }
                _ => i += char_len(line, i),
            }
            continue;
        }
        match b[i] {
            b'\\' => {
                if i + 1 >= b.len() {
                    // A backslash-newline continues even a one-quote string.
                    out.push(Tok::Str, start, b.len());
                    return (b.len(), Mode::Str { quote, triple, fmt, interp: 0 });
                }
                i += 1 + char_len(line, i + 1);
            }
            b'{' if fmt => {
                if b.get(i + 1) == Some(&b'{') {
                    i += 2;
                } else {
                    out.push(Tok::Str, start, i);
                    start = i;
                    interp = 1;
                    i += 1;
                }
            }
            _ if closes(i) => {
                let end = i + if triple { 3 } else { 1 };
                out.push(Tok::Str, start, end);
                return (end, Mode::Code);
            }
            _ => i += char_len(line, i),
        }
    }
    out.push(kind_now(interp), start, b.len());
    if triple {
        (b.len(), Mode::Str { quote, triple, fmt, interp })
    } else {
        // A one-quote string ends with its line (Python would report it unterminated).
        (b.len(), Mode::Code)
    }
}

/// End of a number literal starting at `i`: digits, `_`, `.`, letters (`0x`, `1e5`, `2j`), and a
/// sign right after a decimal exponent.
fn scan_number(b: &[u8], mut i: usize) -> usize {
    let hex = b.get(i) == Some(&b'0') && matches!(b.get(i + 1), Some(b'x' | b'X'));
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
            i += 1;
            if !hex && (c == b'e' || c == b'E') && matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
        } else {
            break;
        }
    }
    i
}

/// Which colouring a file gets, from its name.
pub fn is_python_path(path: &str) -> bool {
    path.ends_with(".py") || path.ends_with(".pyi")
}

/// Files bigger than this are shown without colouring (tens of thousands of spans make the page
/// slow to build, and nobody reads them for colour).
pub const HIGHLIGHT_LIMIT_BYTES: usize = 256 * 1024;

/// A source file with line numbers. `highlight` (1-based) marks one line and scrolls it into view
/// whenever it changes; each line has the id `{anchor}-L{n}` so it can be linked to.
#[component]
pub fn CodeView(
    /// The file's text.
    #[prop(into)]
    source: String,
    /// Colour as Python (otherwise plain text).
    #[prop(optional)]
    python: bool,
    /// Prefix of the line ids (unique on the page).
    #[prop(into)]
    anchor: String,
    /// The line to mark, if any.
    #[prop(into, optional)]
    highlight: Signal<Option<u32>>,
) -> impl IntoView {
    let colour = python && source.len() <= HIGHLIGHT_LIMIT_BYTES;
    let mut lines = if colour { highlight_python(&source) } else { plain_lines(&source) };
    // A final newline does not start a line of its own.
    if source.ends_with('\n') {
        lines.pop();
    }
    let width = lines.len().to_string().len();
    let rows = lines
        .into_iter()
        .enumerate()
        .map(|(n, spans)| {
            let n = n + 1;
            let spans = spans
                .into_iter()
                .map(|s| {
                    let text = s.text.strip_suffix('\r').unwrap_or(s.text).to_string();
                    match s.kind.class() {
                        Some(class) => view! { <span class=class>{text}</span> }.into_any(),
                        None => text.into_any(),
                    }
                })
                .collect_view();
            view! {
                <span class="line" id=format!("{anchor}-L{n}") data-line=n>
                    <span class="ln">{format!("{n:>width$}")}</span>
                    <span class="lc">{spans}</span>
                </span>
            }
        })
        .collect_view();
    let pre = NodeRef::<leptos::html::Pre>::new();
    // Marking a line touches two elements instead of making every line reactive.
    Effect::new(move |prev: Option<Option<u32>>| {
        let line = highlight.get();
        if let Some(el) = pre.get() {
            if let Some(Some(old)) = prev {
                if let Ok(Some(e)) = el.query_selector(&format!("[data-line=\"{old}\"]")) {
                    let _ = e.class_list().remove_1("hl");
                }
            }
            if let Some(new) = line {
                if let Ok(Some(e)) = el.query_selector(&format!("[data-line=\"{new}\"]")) {
                    let _ = e.class_list().add_1("hl");
                    scroll_to(&e, &el);
                }
            }
        }
        line
    });
    // A link to a line (`#{anchor}-L{n}`) marks it and scrolls to it once the code is on the
    // page; a click on a line number puts that link in the address bar.
    let prefix = format!("{anchor}-L");
    Effect::new(move |_| {
        let Some(el) = pre.get() else { return };
        let hash =
            leptos::web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
        let line = hash.strip_prefix('#').and_then(|h| h.strip_prefix(prefix.as_str()));
        if let Some(n) = line.and_then(|n| n.parse::<u32>().ok()) {
            if let Ok(Some(e)) = el.query_selector(&format!("[data-line=\"{n}\"]")) {
                let _ = e.class_list().add_1("hl");
                scroll_to(&e, &el);
            }
        }
    });
    let on_click = move |ev: leptos::ev::MouseEvent| {
        use leptos::wasm_bindgen::JsCast;
        let target = ev.target().and_then(|t| t.dyn_into::<leptos::web_sys::Element>().ok());
        let Some(ln) = target.filter(|t| t.class_list().contains("ln")) else { return };
        let Some(id) = ln.parent_element().map(|l| l.id()) else { return };
        if let Some(history) = leptos::web_sys::window().and_then(|w| w.history().ok()) {
            let _ = history.replace_state_with_url(
                &leptos::wasm_bindgen::JsValue::NULL,
                "",
                Some(&format!("#{id}")),
            );
        }
    };
    view! {
        <pre class="code" tabindex="0" class:code-plain=!colour node_ref=pre on:click=on_click><code>{rows}</code></pre>
    }
}

/// Scrolls the code box so `line` sits about a third down it, then scrolls the page only when
/// that line is off screen. (`.code` is `position: relative`, so a line's `offsetTop` is
/// measured from the box.)
fn scroll_to(line: &leptos::web_sys::Element, boxed: &leptos::web_sys::HtmlPreElement) {
    use leptos::wasm_bindgen::JsCast;
    let Some(line) = line.dyn_ref::<leptos::web_sys::HtmlElement>() else { return };
    boxed.set_scroll_top((line.offset_top() - boxed.client_height() / 3).max(0));
    let Some(window) = leptos::web_sys::window() else { return };
    let vh = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(0.0);
    let scroll_y = window.scroll_y().unwrap_or(0.0);
    // Page position of the box: sum of offsets up the offset-parent chain.
    let mut top = 0.0;
    let mut el: Option<leptos::web_sys::HtmlElement> = Some(boxed.clone().into());
    while let Some(e) = el {
        top += f64::from(e.offset_top());
        el = e.offset_parent().and_then(|p| p.dyn_into().ok());
    }
    let y = top + f64::from(line.offset_top() - boxed.scroll_top());
    if y < scroll_y + 40.0 || y > scroll_y + vh - 40.0 {
        window.scroll_to_with_x_and_y(0.0, (y - vh / 3.0).max(0.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds<'a>(line: &[Span<'a>]) -> Vec<(Tok, &'a str)> {
        line.iter().map(|s| (s.kind, s.text)).collect()
    }

    /// Every line's spans concatenate back to exactly that line, and no span is empty.
    fn assert_lossless(src: &str) {
        let lines = highlight_python(src);
        let expected: Vec<&str> = src.split('\n').collect();
        assert_eq!(lines.len(), expected.len());
        for (spans, line) in lines.iter().zip(expected) {
            let joined: String = spans.iter().map(|s| s.text).collect();
            assert_eq!(joined, line);
            assert!(spans.iter().all(|s| !s.text.is_empty()), "{spans:?}");
        }
    }

    #[test]
    fn keywords_names_numbers_and_def_names() {
        let src = "class TestX(unittest.TestCase):\n    def test_a(self, n=0x1F, f=1e-5):\n        return None";
        assert_lossless(src);
        let lines = highlight_python(src);
        assert_eq!(
            kinds(&lines[0]),
            vec![
                (Tok::Keyword, "class"),
                (Tok::Plain, " "),
                (Tok::DefName, "TestX"),
                (Tok::Plain, "(unittest.TestCase):"),
            ]
        );
        let l1 = kinds(&lines[1]);
        assert!(l1.contains(&(Tok::Keyword, "def")));
        assert!(l1.contains(&(Tok::DefName, "test_a")));
        assert!(l1.contains(&(Tok::Constant, "self")));
        assert!(l1.contains(&(Tok::Number, "0x1F")));
        assert!(l1.contains(&(Tok::Number, "1e-5")));
        assert_eq!(
            kinds(&lines[2]),
            vec![
                (Tok::Plain, "        "),
                (Tok::Keyword, "return"),
                (Tok::Plain, " "),
                (Tok::Constant, "None")
            ]
        );
    }

    #[test]
    fn triple_quoted_string_spans_lines() {
        let src = "x = '''first # not a comment\nsecond \"quoted\" 'x'\nthird''' + y  # real";
        assert_lossless(src);
        let lines = highlight_python(src);
        assert_eq!(
            kinds(&lines[0]),
            vec![(Tok::Plain, "x = "), (Tok::Str, "'''first # not a comment")]
        );
        assert_eq!(kinds(&lines[1]), vec![(Tok::Str, "second \"quoted\" 'x'")]);
        assert_eq!(
            kinds(&lines[2]),
            vec![(Tok::Str, "third'''"), (Tok::Plain, " + y  "), (Tok::Comment, "# real")]
        );
    }

    #[test]
    fn f_string_fields_and_escaped_braces() {
        let src = "msg = f\"{name!r} not in {d['k']:>{w}} {{lit}}\" # done";
        assert_lossless(src);
        let lines = highlight_python(src);
        assert_eq!(
            kinds(&lines[0]),
            vec![
                (Tok::Plain, "msg = "),
                (Tok::Str, "f\""),
                (Tok::Interp, "{name!r}"),
                (Tok::Str, " not in "),
                (Tok::Interp, "{d['k']:>{w}}"),
                (Tok::Str, " {{lit}}\""),
                (Tok::Plain, " "),
                (Tok::Comment, "# done"),
            ]
        );
    }

    #[test]
    fn comment_with_quotes_and_string_with_hash() {
        let src = "a = \"it's # here\"  # don't \"stop\"\nb = 'x\\'y' + rb'\\d'";
        assert_lossless(src);
        let lines = highlight_python(src);
        assert_eq!(
            kinds(&lines[0]),
            vec![
                (Tok::Plain, "a = "),
                (Tok::Str, "\"it's # here\""),
                (Tok::Plain, "  "),
                (Tok::Comment, "# don't \"stop\""),
            ]
        );
        assert_eq!(
            kinds(&lines[1]),
            vec![
                (Tok::Plain, "b = "),
                (Tok::Str, "'x\\'y'"),
                (Tok::Plain, " + "),
                (Tok::Str, "rb'\\d'")
            ]
        );
    }

    #[test]
    fn decorators_only_at_line_start() {
        let src = "@unittest.skipIf(True, 'x')\ndef f(): return a @ b";
        assert_lossless(src);
        let lines = highlight_python(src);
        assert_eq!(lines[0][0], Span { kind: Tok::Decorator, text: "@unittest.skipIf" });
        assert!(!lines[1].iter().any(|s| s.kind == Tok::Decorator));
    }

    #[test]
    fn triple_f_string_field_across_lines_and_crlf() {
        let src = "s = f\"\"\"a {\r\n  x }\"\"\"\r\nprint(s)\r\n";
        assert_lossless(src);
        let lines = highlight_python(src);
        assert_eq!(
            kinds(&lines[1]),
            vec![(Tok::Interp, "  x }"), (Tok::Str, "\"\"\""), (Tok::Plain, "\r")]
        );
        assert_eq!(lines[2][0], Span { kind: Tok::Builtin, text: "print" });
        assert!(lines[3].is_empty());
    }

    #[test]
    fn unterminated_and_hostile_input_is_lossless() {
        for src in [
            "x = 'open",
            "'''never closed\n# still string",
            "f'{' + \"\\",
            "é = ünï + 'ß' # ∑\n\t\u{0}\u{7f}",
            "\\\n'a\\\nb'",
            "f\"{a\"",
            "0b10_01 .5 1.e3 2j",
        ] {
            assert_lossless(src);
        }
        let lines = highlight_python("'''never closed\n# still string");
        assert_eq!(kinds(&lines[1]), vec![(Tok::Str, "# still string")]);
        // A backslash-newline continues a one-quote string.
        let lines = highlight_python("'a\\\nb' + c");
        assert_eq!(kinds(&lines[1])[0], (Tok::Str, "b'"));
    }

    #[test]
    fn real_demo_test_files_are_lossless() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tasks/demo/tests");
        let mut seen = 0;
        for repo in std::fs::read_dir(dir).unwrap() {
            for f in std::fs::read_dir(repo.unwrap().path()).unwrap() {
                let src = std::fs::read_to_string(f.unwrap().path()).unwrap();
                assert_lossless(&src);
                seen += 1;
            }
        }
        assert_eq!(seen, 9);
    }
}
