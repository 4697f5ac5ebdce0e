//! `json.loads` / `json.load` (decoding only), with CPython's JSONDecodeError messages.

use std::cell::RefCell;
use std::rc::Rc;

use super::value::PyDict;
use super::{Interp, PyResult, Value};

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
                "RecursionError",
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
                let d = Rc::new(RefCell::new(PyDict::new()));
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
                    if let Err(e) = it.dict_set(&d, Value::Str(Rc::from(k)), v) {
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
                    return Ok(Ok(Value::list(out)));
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
                            return Ok(Ok(Value::list(out)));
                        }
                        _ => return Err(JErr::At("Expecting ',' delimiter", self.pos)),
                    }
                }
            }
            b'"' => Ok(Ok(Value::Str(Rc::from(self.string()?)))),
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
            if p.pos < p.b.len() {
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
                    "JSONDecodeError",
                    vec![Value::Str(Rc::from(full.as_str()))],
                    Some(full),
                ))
            }
        }
    }
}
