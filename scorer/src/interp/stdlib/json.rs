//! `json.loads` / `json.load` with CPython's JSONDecodeError messages, and `json.dumps` with the
//! options the tests use (`ensure_ascii`, `sort_keys`, `indent`, `separators`, `default`).

use std::rc::Rc;

use crate::interp::eval::Kwargs;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};

struct Parser<'s> {
    s: &'s str,
    b: &'s [u8],
    pos: usize,
}

enum JErr {
    At(&'static str, usize),
}

impl<'s> Parser<'s> {
    fn ws(&mut self) {
        while self.pos < self.b.len() && matches!(self.b[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn value<'a>(
        &mut self,
        it: &mut Interp<'a>,
        depth: usize,
    ) -> Result<PyResult<'a, Value<'a>>, JErr> {
        if depth > 900 {
            return Ok(Err(it.err(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded while decoding a JSON document",
            )));
        }
        self.ws();
        let Some(&c) = self.b.get(self.pos) else {
            return Err(JErr::At("Expecting value", self.pos));
        };
        match c {
            b'{' => {
                self.pos += 1;
                let d = it.new_dict();
                self.ws();
                if self.b.get(self.pos) == Some(&b'}') {
                    self.pos += 1;
                    return Ok(Ok(Value::Dict(d)));
                }
                loop {
                    self.ws();
                    if self.b.get(self.pos) != Some(&b'"') {
                        return Err(JErr::At(
                            "Expecting property name enclosed in double quotes",
                            self.pos,
                        ));
                    }
                    let k = self.string()?;
                    self.ws();
                    if self.b.get(self.pos) != Some(&b':') {
                        return Err(JErr::At("Expecting ':' delimiter", self.pos));
                    }
                    self.pos += 1;
                    let v = match self.value(it, depth + 1)? {
                        Ok(v) => v,
                        Err(e) => return Ok(Err(e)),
                    };
                    if let Err(e) = it.dict_set(&d, Value::str_rc(Rc::from(k)), v) {
                        return Ok(Err(e));
                    }
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b'}') => {
                            self.pos += 1;
                            return Ok(Ok(Value::Dict(d)));
                        }
                        _ => return Err(JErr::At("Expecting ',' delimiter", self.pos)),
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                let mut out = Vec::new();
                self.ws();
                if self.b.get(self.pos) == Some(&b']') {
                    self.pos += 1;
                    return Ok(Ok(it.new_list(out)));
                }
                loop {
                    match self.value(it, depth + 1)? {
                        Ok(v) => out.push(v),
                        Err(e) => return Ok(Err(e)),
                    }
                    self.ws();
                    match self.b.get(self.pos) {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Ok(it.new_list(out)));
                        }
                        _ => return Err(JErr::At("Expecting ',' delimiter", self.pos)),
                    }
                }
            }
            b'"' => Ok(Ok(Value::str_rc(Rc::from(self.string()?)))),
            b't' if self.s[self.pos..].starts_with("true") => {
                self.pos += 4;
                Ok(Ok(Value::Bool(true)))
            }
            b'f' if self.s[self.pos..].starts_with("false") => {
                self.pos += 5;
                Ok(Ok(Value::Bool(false)))
            }
            b'n' if self.s[self.pos..].starts_with("null") => {
                self.pos += 4;
                Ok(Ok(Value::None))
            }
            b'N' if self.s[self.pos..].starts_with("NaN") => {
                self.pos += 3;
                Ok(Ok(Value::Float(f64::NAN)))
            }
            b'I' if self.s[self.pos..].starts_with("Infinity") => {
                self.pos += 8;
                Ok(Ok(Value::Float(f64::INFINITY)))
            }
            b'-' | b'0'..=b'9' => {
                if self.s[self.pos..].starts_with("-Infinity") {
                    self.pos += 9;
                    return Ok(Ok(Value::Float(f64::NEG_INFINITY)));
                }
                let start = self.pos;
                if self.b[self.pos] == b'-' {
                    self.pos += 1;
                }
                let int_start = self.pos;
                if self.b.get(self.pos) == Some(&b'0') {
                    self.pos += 1;
                } else {
                    while self.pos < self.b.len() && self.b[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                }
                if self.pos == int_start {
                    return Err(JErr::At("Expecting value", start));
                }
                let mut is_float = false;
                if self.b.get(self.pos) == Some(&b'.')
                    && self.b.get(self.pos + 1).is_some_and(u8::is_ascii_digit)
                {
                    is_float = true;
                    self.pos += 1;
                    while self.pos < self.b.len() && self.b[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                }
                if matches!(self.b.get(self.pos), Some(b'e' | b'E')) {
                    let save = self.pos;
                    self.pos += 1;
                    if matches!(self.b.get(self.pos), Some(b'+' | b'-')) {
                        self.pos += 1;
                    }
                    if self.b.get(self.pos).is_some_and(u8::is_ascii_digit) {
                        is_float = true;
                        while self.pos < self.b.len() && self.b[self.pos].is_ascii_digit() {
                            self.pos += 1;
                        }
                    } else {
                        self.pos = save;
                    }
                }
                let text = &self.s[start..self.pos];
                if is_float {
                    Ok(Ok(Value::Float(text.parse().unwrap_or(f64::NAN))))
                } else {
                    // CPython's decoder calls `int(text)`: the digit limit applies.
                    if let Err(e) = it.check_int_parse_digits(text, 10) {
                        return Ok(Err(e));
                    }
                    Ok(Ok(num_bigint::BigInt::parse_bytes(text.as_bytes(), 10)
                        .map_or(Value::Int(0), Value::from_bigint)))
                }
            }
            _ => Err(JErr::At("Expecting value", self.pos)),
        }
    }

    fn string(&mut self) -> Result<String, JErr> {
        let begin = self.pos;
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(&c) = self.b.get(self.pos) else {
                return Err(JErr::At("Unterminated string starting at", begin));
            };
            match c {
                b'"' => {
                    self.pos += 1;
                    return Ok(out);
                }
                b'\\' => {
                    let Some(&e) = self.b.get(self.pos + 1) else {
                        return Err(JErr::At("Unterminated string starting at", begin));
                    };
                    self.pos += 2;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let hex = self
                                .s
                                .get(self.pos..self.pos + 4)
                                .and_then(|h| u32::from_str_radix(h, 16).ok());
                            let Some(mut cp) = hex else {
                                return Err(JErr::At("Invalid \\uXXXX escape", self.pos - 1));
                            };
                            self.pos += 4;
                            if (0xd800..0xdc00).contains(&cp)
                                && self.s[self.pos..].starts_with("\\u")
                            {
                                if let Some(lo) = self
                                    .s
                                    .get(self.pos + 2..self.pos + 6)
                                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                                {
                                    if (0xdc00..0xe000).contains(&lo) {
                                        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                                        self.pos += 6;
                                    }
                                }
                            }
                            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                        }
                        _ => return Err(JErr::At("Invalid \\escape", self.pos - 2)),
                    }
                }
                c if c < 0x20 => return Err(JErr::At("Invalid control character at", self.pos)),
                _ => {
                    let ch = self.s[self.pos..].chars().next().unwrap_or('\0');
                    out.push(ch);
                    self.pos += ch.len_utf8();
                }
            }
        }
    }
}

impl<'a> Interp<'a> {
    pub fn json_loads(&mut self, text: &str) -> PyResult<'a, Value<'a>> {
        self.charge((text.len() / 64) as u64)?;
        let mut p = Parser { s: text, b: text.as_bytes(), pos: 0 };
        let r = p.value(self, 0).and_then(|v| {
            p.ws();
            // A Python error inside the document (the digit limit) stops the parse where it is.
            if p.pos < p.b.len() && v.is_ok() {
                Err(JErr::At("Extra data", p.pos))
            } else {
                Ok(v)
            }
        });
        match r {
            Ok(v) => v,
            Err(JErr::At(msg, pos)) => {
                let before = &text[..pos.min(text.len())];
                let lineno = before.matches('\n').count() + 1;
                let colno = match before.rfind('\n') {
                    Some(i) => before[i + 1..].chars().count() + 1,
                    None => before.chars().count() + 1,
                };
                let cpos = before.chars().count();
                let full = format!("{msg}: line {lineno} column {colno} (char {cpos})");
                Err(self.err_args(
                    ExcKind::JSONDecodeError,
                    vec![Value::str_rc(Rc::from(full.as_str()))],
                    Some(full),
                ))
            }
        }
    }
}

/// Options of `json.dumps`.
struct DumpOpts {
    ensure_ascii: bool,
    sort_keys: bool,
    indent: Option<String>,
    item_sep: String,
    key_sep: String,
}

/// A JSON string literal as CPython's encoder writes it.
fn json_str(s: &str, ensure_ascii: bool, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (ensure_ascii && (c as u32) > 0x7e) => {
                let mut buf = [0u16; 2];
                for u in c.encode_utf16(&mut buf) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_float(f: f64) -> String {
    if f.is_nan() {
        "NaN".into()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else {
        crate::interp::fmt::float_repr(f)
    }
}

impl<'a> Interp<'a> {
    /// `json.dumps(obj, ensure_ascii=, sort_keys=, indent=, separators=, default=)`.
    pub fn json_dumps(&mut self, obj: &Value<'a>, kwargs: &Kwargs<'a>) -> PyResult<'a, Value<'a>> {
        let get = |k: &str| kwargs.iter().find(|(n, _)| &**n == k).map(|(_, v)| v.clone());
        let indent = match get("indent") {
            None | Some(Value::None) => None,
            Some(Value::Int(n)) => Some(" ".repeat(n.clamp(0, 1000) as usize)),
            Some(Value::Str(s)) => Some(s.to_string()),
            Some(_) => return Err(self.unsupported("json.dumps indent of this type")),
        };
        let (mut item_sep, mut key_sep) =
            (if indent.is_some() { "," } else { ", " }.to_string(), ": ".to_string());
        let seps = match get("separators") {
            Some(Value::Tuple(t)) => (*t).clone(),
            Some(Value::List(l)) => l.borrow().clone(),
            _ => Vec::new(),
        };
        if let (Some(Value::Str(a)), Some(Value::Str(b))) = (seps.first(), seps.get(1)) {
            item_sep = a.to_string();
            key_sep = b.to_string();
        }
        let ensure_ascii = match get("ensure_ascii") {
            Some(v) => self.truthy(&v)?,
            None => true,
        };
        let sort_keys = match get("sort_keys") {
            Some(v) => self.truthy(&v)?,
            None => false,
        };
        let opts = DumpOpts { ensure_ascii, sort_keys, indent, item_sep, key_sep };
        let default = get("default").filter(|v| !v.is_none());
        let mut out = String::new();
        self.json_encode(obj, &opts, default.as_ref(), 0, &mut out)?;
        Ok(Value::str(&out))
    }

    fn json_newline(opts: &DumpOpts, level: usize, out: &mut String) {
        if let Some(ind) = &opts.indent {
            out.push('\n');
            for _ in 0..level {
                out.push_str(ind);
            }
        }
    }

    fn json_encode(
        &mut self,
        v: &Value<'a>,
        opts: &DumpOpts,
        default: Option<&Value<'a>>,
        level: usize,
        out: &mut String,
    ) -> PyResult<'a, ()> {
        self.step()?;
        self.check_len(out.len())?;
        if level > 900 {
            return Err(self.err(ExcKind::ValueError, "Circular reference detected"));
        }
        match v {
            Value::None => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Int(i) => out.push_str(&i.to_string()),
            Value::Big(b) => out.push_str(&self.int_to_decimal(b)?),
            Value::Float(f) => out.push_str(&json_float(*f)),
            Value::Str(s) => json_str(s, opts.ensure_ascii, out),
            Value::List(_) | Value::Tuple(_) => {
                let items = match v {
                    Value::List(l) => l.borrow().clone(),
                    Value::Tuple(t) => (**t).clone(),
                    _ => Vec::new(),
                };
                if items.is_empty() {
                    out.push_str("[]");
                    return Ok(());
                }
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(&opts.item_sep);
                    }
                    Self::json_newline(opts, level + 1, out);
                    self.json_encode(x, opts, default, level + 1, out)?;
                }
                Self::json_newline(opts, level, out);
                out.push(']');
            }
            Value::Dict(d) => {
                let mut items: Vec<(Value<'a>, Value<'a>)> =
                    d.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                if items.is_empty() {
                    out.push_str("{}");
                    return Ok(());
                }
                let mut keyed = Vec::with_capacity(items.len());
                for (k, val) in items.drain(..) {
                    let ks = match &k {
                        Value::Str(s) => s.to_string(),
                        Value::Bool(b) => if *b { "true" } else { "false" }.into(),
                        Value::None => "null".into(),
                        Value::Int(i) => i.to_string(),
                        Value::Big(b) => self.int_to_decimal(b)?,
                        Value::Float(f) => json_float(*f),
                        other => {
                            return Err(self.err(
                                ExcKind::TypeError,
                                format!(
                                    "keys must be str, int, float, bool or None, not {}",
                                    self.type_name(other)
                                ),
                            ))
                        }
                    };
                    keyed.push((ks, val));
                }
                if opts.sort_keys {
                    keyed.sort_by(|a, b| a.0.cmp(&b.0));
                }
                out.push('{');
                for (i, (k, x)) in keyed.iter().enumerate() {
                    if i > 0 {
                        out.push_str(&opts.item_sep);
                    }
                    Self::json_newline(opts, level + 1, out);
                    json_str(k, opts.ensure_ascii, out);
                    out.push_str(&opts.key_sep);
                    self.json_encode(x, opts, default, level + 1, out)?;
                }
                Self::json_newline(opts, level, out);
                out.push('}');
            }
            other => match default {
                Some(f) => {
                    let r = self.call(f, vec![other.clone()], vec![])?;
                    self.json_encode(&r, opts, Some(f), level + 1, out)?;
                }
                None => {
                    return Err(self.err(
                        ExcKind::TypeError,
                        format!(
                            "Object of type {} is not JSON serializable",
                            self.type_name(other)
                        ),
                    ))
                }
            },
        }
        Ok(())
    }
}
