//! The methods of `str`: `str_method`'s match, `str.format`, `str.encode`, `splitlines`.

use super::{arg, kw, py_isspace, Sig};
use crate::interp::eval::Kwargs;
use crate::interp::fmt::type_name;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use crate::python::BuiltinCodec;
use crate::unicode;
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub(super) fn str_method(
        &mut self,
        s: Str,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let vs = |x: String| Value::str_rc(Rc::from(x));
        let strs =
            |v: Vec<&str>| Value::list(v.into_iter().map(|x| Value::str_rc(Rc::from(x))).collect());
        self.charge((s.len() / 64) as u64)?;
        const NO_ARGS: &[&str] = &[
            "upper",
            "lower",
            "title",
            "capitalize",
            "swapcase",
            "casefold",
            "isdigit",
            "isalpha",
            "isalnum",
            "isspace",
            "isupper",
            "islower",
            "istitle",
            "isidentifier",
            "isnumeric",
            "isdecimal",
            "isascii",
            "isprintable",
        ];
        if !args.is_empty() && NO_ARGS.contains(&name) {
            return Err(self.err(
                ExcKind::TypeError,
                format!("str.{name}() takes no arguments ({} given)", args.len()),
            ));
        }
        match name {
            "join" => {
                if self.get_iter(&arg(&args, 0)).is_err() {
                    return Err(self.err(ExcKind::TypeError, "can only join an iterable"));
                }
                let items = self.to_vec(&arg(&args, 0))?;
                let mut out = String::new();
                for (i, it) in items.iter().enumerate() {
                    let Value::Str(p) = it else {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                                "sequence item {i}: expected str instance, {} found",
                                type_name(it)
                            ),
                        ));
                    };
                    if i > 0 {
                        out.push_str(&s);
                    }
                    out.push_str(p);
                    self.check_len(out.len())?;
                }
                Ok(vs(out))
            }
            "split" | "rsplit" => {
                let f = if name == "split" { "split" } else { "rsplit" };
                let a = self.bind(&Sig::clinic(f, &["sep", "maxsplit"], 0), args, kwargs)?;
                let sep = a.or_none(0);
                let maxsplit = match a.get(1) {
                    Some(Value::Int(n)) if n >= 0 => Some(n as usize),
                    _ => None,
                };
                match sep {
                    Value::None => {
                        let mut parts: Vec<&str> = Vec::new();
                        if name == "split" {
                            let mut rest: &str = s.trim_start_matches(py_isspace);
                            while !rest.is_empty() {
                                if maxsplit.is_some_and(|m| parts.len() >= m) {
                                    parts.push(
                                        rest.trim_end_matches(py_isspace)
                                            .trim_end_matches(py_isspace),
                                    );
                                    let last = parts.pop().unwrap_or("");
                                    parts.push(if maxsplit.is_some() { rest } else { last });
                                    break;
                                }
                                let end = rest.find(py_isspace).unwrap_or(rest.len());
                                parts.push(&rest[..end]);
                                rest = rest[end..].trim_start_matches(py_isspace);
                            }
                        } else {
                            let mut rest: &str = s.trim_end_matches(py_isspace);
                            while !rest.is_empty() {
                                if maxsplit.is_some_and(|m| parts.len() >= m) {
                                    parts.push(rest);
                                    break;
                                }
                                let start = rest.rfind(py_isspace).map_or(0, |i| {
                                    i + rest[i..].chars().next().map_or(1, |c| c.len_utf8())
                                });
                                parts.push(&rest[start..]);
                                rest = rest[..start].trim_end_matches(py_isspace);
                            }
                            parts.reverse();
                        }
                        Ok(self.made(strs(parts)))
                    }
                    Value::Str(sep) => {
                        if sep.is_empty() {
                            return Err(self.err(ExcKind::ValueError, "empty separator"));
                        }
                        let parts: Vec<&str> = match (name, maxsplit) {
                            ("split", None) => s.split(&*sep).collect(),
                            ("split", Some(m)) => s.splitn(m + 1, &*sep).collect(),
                            (_, None) => s.split(&*sep).collect(),
                            (_, Some(m)) => {
                                let mut v: Vec<&str> = s.rsplitn(m + 1, &*sep).collect();
                                v.reverse();
                                v
                            }
                        };
                        self.check_len(parts.len())?;
                        Ok(self.made(strs(parts)))
                    }
                    other => Err(self.err(
                        ExcKind::TypeError,
                        format!("must be str or None, not {}", type_name(&other)),
                    )),
                }
            }
            "strip" | "lstrip" | "rstrip" => {
                let r: &str = match arg(&args, 0) {
                    Value::None => match name {
                        "strip" => s.trim_matches(py_isspace),
                        "lstrip" => s.trim_start_matches(py_isspace),
                        _ => s.trim_end_matches(py_isspace),
                    },
                    Value::Str(chars) => {
                        let set: Vec<char> = chars.chars().collect();
                        let p = |c: char| set.contains(&c);
                        match name {
                            "strip" => s.trim_matches(p),
                            "lstrip" => s.trim_start_matches(p),
                            _ => s.trim_end_matches(p),
                        }
                    }
                    _ => {
                        return Err(
                            self.err(ExcKind::TypeError, format!("{name} arg must be None or str"))
                        )
                    }
                };
                Ok(vs(r.to_string()))
            }
            "startswith" | "endswith" => {
                let pats = match arg(&args, 0) {
                    Value::Str(p) => vec![p],
                    Value::Tuple(t) => {
                        let mut v = Vec::new();
                        for x in t.iter() {
                            match x {
                                Value::Str(p) => v.push(p.clone()),
                                other => {
                                    return Err(self.err(
                                        ExcKind::TypeError,
                                        format!(
                                            "tuple for {name} must only contain str, not {}",
                                            type_name(other)
                                        ),
                                    ))
                                }
                            }
                        }
                        v
                    }
                    other => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                                "{name} first arg must be str or a tuple of str, not {}",
                                type_name(&other)
                            ),
                        ))
                    }
                };
                let sub = self.substr(&s, args.get(1), args.get(2));
                Ok(Value::Bool(pats.iter().any(|p| {
                    if name == "startswith" {
                        sub.starts_with(&**p)
                    } else {
                        sub.ends_with(&**p)
                    }
                })))
            }
            "replace" => {
                let (Value::Str(a), Value::Str(b)) = (arg(&args, 0), arg(&args, 1)) else {
                    let bad = if matches!(arg(&args, 0), Value::Str(_)) { 2 } else { 1 };
                    let culprit = arg(&args, bad - 1);
                    return Err(self.err(
                        ExcKind::TypeError,
                        format!(
                            "replace() argument {bad} must be str, not {}",
                            type_name(&culprit)
                        ),
                    ));
                };
                let r = match args.get(2) {
                    Some(Value::Int(n)) if *n >= 0 => s.replacen(&*a, &b, *n as usize),
                    _ => {
                        let est = if b.len() > a.len() {
                            s.len() / a.len().max(1) * (b.len() - a.len())
                        } else {
                            0
                        };
                        self.check_len(s.len() + est)?;
                        s.replace(&*a, &b)
                    }
                };
                Ok(vs(r))
            }
            "lower" => Ok(vs(unicode::lower(&s))),
            "casefold" => Ok(vs(unicode::casefold(&s))),
            "upper" => Ok(vs(unicode::upper(&s))),
            "swapcase" => Ok(vs(unicode::swapcase(&s))),
            "title" => Ok(vs(unicode::title(&s))),
            "capitalize" => Ok(vs(unicode::capitalize(&s))),
            "find" | "rfind" | "index" | "rindex" | "count" => {
                let Value::Str(p) = arg(&args, 0) else {
                    return Err(self.err(
                        ExcKind::TypeError,
                        format!("must be str, not {}", type_name(&arg(&args, 0))),
                    ));
                };
                let chars_before = |b: usize| -> i64 { s[..b].chars().count() as i64 };
                let (lo, hi) = self.char_bounds(&s, args.get(1), args.get(2));
                let sub = &s[lo..hi];
                if name == "count" {
                    if p.is_empty() {
                        return Ok(Value::Int(sub.chars().count() as i64 + 1));
                    }
                    return Ok(Value::Int(sub.matches(&*p).count() as i64));
                }
                let found = if name.starts_with('r') { sub.rfind(&*p) } else { sub.find(&*p) };
                match found {
                    Some(i) => Ok(Value::Int(chars_before(lo + i))),
                    None => {
                        if name.ends_with("index") {
                            Err(self.err(ExcKind::ValueError, "substring not found"))
                        } else {
                            Ok(Value::Int(-1))
                        }
                    }
                }
            }
            "splitlines" => {
                let a = self.bind(&Sig::clinic("splitlines", &["keepends"], 0), args, kwargs)?;
                let keep = match a.get(0) {
                    Some(v) => self.truthy(&v)?,
                    None => false,
                };
                Ok(self.new_list(
                    splitlines(&s, keep).into_iter().map(|x| Value::str_rc(Rc::from(x))).collect(),
                ))
            }
            "format" => Ok(vs(self.str_format(&s, &args, &kwargs)?)),
            "isidentifier" => Ok(Value::Bool(unicode::is_identifier(&s))),
            "isdigit" => Ok(Value::Bool(unicode::all(&s, unicode::is_digit))),
            "isnumeric" => Ok(Value::Bool(unicode::all(&s, unicode::is_numeric))),
            "isdecimal" => Ok(Value::Bool(unicode::all(&s, unicode::is_decimal))),
            "isalpha" => Ok(Value::Bool(unicode::all(&s, unicode::is_alpha))),
            "isalnum" => Ok(Value::Bool(unicode::all(&s, unicode::is_alnum))),
            "isspace" => Ok(Value::Bool(unicode::all(&s, unicode::is_space))),
            "isascii" => Ok(Value::Bool(s.is_ascii())),
            "isupper" => Ok(Value::Bool(unicode::isupper(&s))),
            "islower" => Ok(Value::Bool(unicode::islower(&s))),
            "istitle" => Ok(Value::Bool(unicode::istitle(&s))),
            "isprintable" => Ok(Value::Bool(s.chars().all(unicode::is_printable))),
            "encode" => self.str_encode(&s, args, kwargs),
            "partition" | "rpartition" => {
                let Value::Str(p) = arg(&args, 0) else {
                    return Err(self.err(ExcKind::TypeError, "must be str"));
                };
                if p.is_empty() {
                    return Err(self.err(ExcKind::ValueError, "empty separator"));
                }
                let found = if name == "partition" { s.find(&*p) } else { s.rfind(&*p) };
                Ok(match found {
                    Some(i) => Value::tuple(vec![
                        vs(s[..i].to_string()),
                        Value::Str(p.clone()),
                        vs(s[i + p.len()..].to_string()),
                    ]),
                    None if name == "partition" => {
                        Value::tuple(vec![Value::Str(s.clone()), Value::str(""), Value::str("")])
                    }
                    None => {
                        Value::tuple(vec![Value::str(""), Value::str(""), Value::Str(s.clone())])
                    }
                })
            }
            "removeprefix" => {
                let Value::Str(p) = arg(&args, 0) else {
                    return Err(self.err(ExcKind::TypeError, "must be str"));
                };
                Ok(vs(s.strip_prefix(&*p).unwrap_or(&s).to_string()))
            }
            "removesuffix" => {
                let Value::Str(p) = arg(&args, 0) else {
                    return Err(self.err(ExcKind::TypeError, "must be str"));
                };
                Ok(vs(s.strip_suffix(&*p).unwrap_or(&s).to_string()))
            }
            "zfill" | "center" | "ljust" | "rjust" => {
                let w = match arg(&args, 0) {
                    Value::Int(n) => n.max(0) as usize,
                    _ => 0,
                };
                self.check_len(w)?;
                let fill = match args.get(1) {
                    Some(Value::Str(f)) => f.chars().next().unwrap_or(' '),
                    _ => ' ',
                };
                let n = s.chars().count();
                if n >= w {
                    return Ok(Value::Str(s));
                }
                let pad = w - n;
                let rep = |k: usize, c: char| -> String { std::iter::repeat_n(c, k).collect() };
                Ok(vs(match name {
                    "zfill" => {
                        if let Some(rest) = s.strip_prefix(['-', '+']) {
                            format!("{}{}{rest}", &s[..1], rep(pad, '0'))
                        } else {
                            format!("{}{s}", rep(pad, '0'))
                        }
                    }
                    "ljust" => format!("{s}{}", rep(pad, fill)),
                    "rjust" => format!("{}{s}", rep(pad, fill)),
                    _ => {
                        let left = pad / 2 + (pad & w & 1);
                        format!("{}{s}{}", rep(left, fill), rep(pad - left, fill))
                    }
                }))
            }
            "expandtabs" => {
                let a = self.bind(&Sig::clinic("expandtabs", &["tabsize"], 0), args, kwargs)?;
                let size = match a.or_none(0) {
                    Value::Int(n) => n,
                    _ => 8,
                };
                let mut out = String::new();
                let mut col: i64 = 0;
                for c in s.chars() {
                    match c {
                        '\t' => {
                            if size > 0 {
                                let n = size - col % size;
                                self.check_len(out.len() + n as usize)?;
                                out.extend(std::iter::repeat_n(' ', n as usize));
                                col += n;
                            }
                        }
                        '\n' | '\r' => {
                            out.push(c);
                            col = 0;
                        }
                        c => {
                            out.push(c);
                            col += 1;
                        }
                    }
                }
                Ok(vs(out))
            }
            _ => Err(self.unsupported(format!("str.{name}"))),
        }
    }

    /// Slice of `s` between optional char indices (start/end arguments of find/startswith...).
    fn substr<'s>(&self, s: &'s str, a: Option<&Value<'a>>, b: Option<&Value<'a>>) -> &'s str {
        let (lo, hi) = self.char_bounds(s, a, b);
        &s[lo..hi]
    }

    fn char_bounds(&self, s: &str, a: Option<&Value<'a>>, b: Option<&Value<'a>>) -> (usize, usize) {
        let n = s.chars().count() as i64;
        let norm = |v: Option<&Value<'a>>, d: i64| -> i64 {
            match v {
                Some(Value::Int(i)) => {
                    let i = if *i < 0 { i + n } else { *i };
                    i.clamp(0, n)
                }
                _ => d,
            }
        };
        let lo = norm(a, 0);
        let hi = norm(b, n).max(lo);
        let byte =
            |ci: i64| -> usize { s.char_indices().nth(ci as usize).map_or(s.len(), |(b, _)| b) };
        if s.is_ascii() {
            (lo as usize, hi as usize)
        } else {
            (byte(lo), byte(hi))
        }
    }

    fn str_format(
        &mut self,
        fmt: &str,
        args: &[Value<'a>],
        kwargs: &Kwargs<'a>,
    ) -> PyResult<'a, String> {
        let mut out = String::new();
        let mut auto = 0usize;
        let mut manual = false;
        let cs: Vec<char> = fmt.chars().collect();
        let mut i = 0;
        while i < cs.len() {
            let c = cs[i];
            if c == '{' {
                if cs.get(i + 1) == Some(&'{') {
                    out.push('{');
                    i += 2;
                    continue;
                }
                let end =
                    cs[i..].iter().position(|&x| x == '}').map(|p| p + i).ok_or_else(|| {
                        self.err(ExcKind::ValueError, "Single '{' encountered in format string")
                    })?;
                let field: String = cs[i + 1..end].iter().collect();
                let (name_conv, spec) = match field.split_once(':') {
                    Some((a, b)) => (a.to_string(), b.to_string()),
                    None => (field.clone(), String::new()),
                };
                let (fname, conv) = match name_conv.split_once('!') {
                    Some((a, b)) => (a.to_string(), Some(b.to_string())),
                    None => (name_conv, None),
                };
                let (base, attrs) = match fname.find(['.', '[']) {
                    Some(p) => (fname[..p].to_string(), fname[p..].to_string()),
                    None => (fname.clone(), String::new()),
                };
                if base.is_empty() && manual {
                    return Err(self.err(ExcKind::ValueError, "cannot switch from manual field specification to automatic field numbering"));
                }
                if !base.is_empty() && base.parse::<usize>().is_ok() {
                    if auto > 0 {
                        return Err(self.err(ExcKind::ValueError, "cannot switch from automatic field numbering to manual field specification"));
                    }
                    manual = true;
                }
                let mut v = if base.is_empty() {
                    let v = args.get(auto).cloned().ok_or_else(|| {
                        self.err(
                            ExcKind::IndexError,
                            format!(
                                "Replacement index {auto} out of range for positional args tuple"
                            ),
                        )
                    })?;
                    auto += 1;
                    v
                } else if let Ok(n) = base.parse::<usize>() {
                    args.get(n).cloned().ok_or_else(|| {
                        self.err(
                            ExcKind::IndexError,
                            format!("Replacement index {n} out of range for positional args tuple"),
                        )
                    })?
                } else {
                    kw(kwargs, &base).ok_or_else(|| {
                        let r = crate::interp::fmt::str_repr(&base);
                        self.err_args(
                            ExcKind::KeyError,
                            vec![Value::str_rc(Rc::from(base.as_str()))],
                            Some(r),
                        )
                    })?
                };
                // `.name` attribute and `[key]` item accessors, left to right (a key of digits
                // is an int index).
                let ac: Vec<char> = attrs.chars().collect();
                let mut j = 0;
                while j < ac.len() {
                    if ac[j] == '.' {
                        let k = ac[j + 1..]
                            .iter()
                            .position(|&c| c == '.' || c == '[')
                            .map_or(ac.len(), |p| p + j + 1);
                        let name: String = ac[j + 1..k].iter().collect();
                        if name.is_empty() {
                            return Err(
                                self.err(ExcKind::ValueError, "Empty attribute in format string")
                            );
                        }
                        v = self.getattr(&v, &name)?;
                        j = k;
                    } else if ac[j] == '[' {
                        let Some(k) = ac[j..].iter().position(|&c| c == ']').map(|p| p + j) else {
                            return Err(
                                self.err(ExcKind::ValueError, "Missing ']' in format string")
                            );
                        };
                        let key: String = ac[j + 1..k].iter().collect();
                        let kv = match key.parse::<i64>() {
                            Ok(n) if key.bytes().all(|b| b.is_ascii_digit()) => Value::Int(n),
                            _ => Value::str_rc(Rc::from(key.as_str())),
                        };
                        v = self.getitem(&v, &kv)?;
                        j = k + 1;
                    } else {
                        return Err(self.err(
                            ExcKind::ValueError,
                            "Only '.' or '[' may follow ']' in format field specifier",
                        ));
                    }
                }
                let v = match conv.as_deref() {
                    Some("r") => Value::str_rc(Rc::from(self.repr(&v)?)),
                    Some("s") => Value::str_rc(Rc::from(self.str_of(&v)?)),
                    _ => v,
                };
                out.push_str(&self.format_value(&v, &spec)?);
                i = end + 1;
            } else if c == '}' {
                if cs.get(i + 1) == Some(&'}') {
                    i += 1;
                }
                out.push('}');
                i += 1;
            } else {
                out.push(c);
                i += 1;
            }
        }
        Ok(out)
    }

    /// `str.encode(encoding='utf-8', errors='strict')`: UTF-8, Latin-1 and ASCII here, any other
    /// codec through the run's codec provider ([`crate::codec`]).
    fn str_encode(
        &mut self,
        s: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let a = self.bind(&Sig::clinic("encode", &["encoding", "errors"], 0), args, kwargs)?;
        let enc: Str = match a.or_none(0) {
            Value::Str(e) => e,
            _ => Rc::from("utf-8"),
        };
        let errors = match a.or_none(1) {
            Value::Str(e) => e.to_string(),
            _ => "strict".into(),
        };
        let (name, limit) = match crate::python::builtin_codec(&enc) {
            Some(BuiltinCodec::Utf8) => return Ok(Value::bytes_rc(Rc::from(s.as_bytes()))),
            Some(BuiltinCodec::Utf8Sig) => {
                return Ok(Value::bytes_rc(Rc::from([b"\xef\xbb\xbf", s.as_bytes()].concat())))
            }
            Some(BuiltinCodec::Latin1) => ("latin-1", 256u32),
            Some(BuiltinCodec::Ascii) => ("ascii", 128u32),
            None => {
                let codec = self.find_codec(&enc)?;
                let Some(codecs) = self.codecs.clone() else {
                    return Err(self.needs_codecs_error(&enc));
                };
                return match codecs.encode(&codec, s, &errors) {
                    Ok(b) => Ok(Value::bytes_rc(Rc::from(b))),
                    Err(e) => {
                        Err(self.registry_codec_error(e, super::bytes::CodecInput::Text(s), &enc))
                    }
                };
            }
        };
        let chars: Vec<char> = s.chars().collect();
        let mut out = Vec::with_capacity(chars.len());
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if (c as u32) < limit {
                out.push(c as u32 as u8);
                i += 1;
                continue;
            }
            match errors.as_str() {
                "ignore" => {}
                "replace" => out.push(b'?'),
                "strict" => {
                    let mut j = i;
                    while j < chars.len() && (chars[j] as u32) >= limit {
                        j += 1;
                    }
                    let what = if j - i == 1 {
                        let cp = c as u32;
                        let esc = if cp < 0x100 {
                            format!("\\x{cp:02x}")
                        } else if cp < 0x10000 {
                            format!("\\u{cp:04x}")
                        } else {
                            format!("\\U{cp:08x}")
                        };
                        format!("can't encode character '{esc}' in position {i}")
                    } else {
                        format!("can't encode characters in position {i}-{}", j - 1)
                    };
                    let msg = format!("'{name}' codec {what}: ordinal not in range({limit})");
                    return Err(self.err(ExcKind::UnicodeEncodeError, msg));
                }
                other => {
                    return Err(self.unsupported(format!("str.encode errors='{other}'")));
                }
            }
            i += 1;
        }
        Ok(Value::bytes_rc(Rc::from(out)))
    }
}

/// `str.splitlines` boundaries.
pub(crate) fn splitlines(s: &str, keep: bool) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut it = s.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        let is_break = matches!(
            c,
            '\n' | '\r'
                | '\x0b'
                | '\x0c'
                | '\x1c'
                | '\x1d'
                | '\x1e'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !is_break {
            continue;
        }
        let mut end = i + c.len_utf8();
        if c == '\r' {
            if let Some((_, '\n')) = it.peek() {
                it.next();
                end += 1;
            }
        }
        out.push(if keep { &s[start..end] } else { &s[start..i] });
        start = end;
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}
