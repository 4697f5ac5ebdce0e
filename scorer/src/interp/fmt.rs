//! `repr`, `str`, `format` and `%`-formatting with CPython's exact output.

use std::rc::Rc;

use super::value::*;
use super::{Interp, PyResult, Value};
use crate::interp::ExcKind;

pub fn type_name(v: &Value<'_>) -> String {
    match v {
        Value::Instance(i) => i.class.name.to_string(),
        Value::Node(n) => n.class.name.to_string(),
        Value::DictView(_, m) => {
            ["dict_keys", "dict_values", "dict_items"][usize::from(*m).min(2)].into()
        }
        Value::Class(_) => "type".into(),
        Value::AstClass(_) => "type".into(),
        Value::Native(n) => match &**n {
            Native::File(f) => {
                if f.borrow().binary {
                    "BufferedReader".into()
                } else {
                    "TextIOWrapper".into()
                }
            }
            Native::Sha256(_) => "_hashlib.HASH".into(),
            Native::SubTest { .. } => "_GeneratorContextManager".into(),
            Native::ClassMethod(_) => "classmethod".into(),
            Native::StaticMethod(_) => "staticmethod".into(),
            Native::Property(..) => "property".into(),
            Native::SkipDecorator(_) => "function".into(),
            Native::Super(..) => "super".into(),
            Native::AssertRaises(..) => "_AssertRaisesContext".into(),
            Native::RePattern(_) => "re.Pattern".into(),
            Native::ReMatch(_) => "re.Match".into(),
            Native::Union(_) => "types.UnionType".into(),
        },
        other => btype_of(other).name().into(),
    }
}

pub fn btype_of(v: &Value<'_>) -> BType {
    match v {
        Value::None => BType::NoneType,
        Value::Ellipsis => BType::Ellipsis,
        Value::NotImplemented => BType::Object,
        Value::Bool(_) => BType::Bool,
        Value::Int(_) | Value::Big(_) => BType::Int,
        Value::Float(_) => BType::Float,
        Value::Complex(..) => BType::Complex,
        Value::Str(_) => BType::Str,
        Value::Bytes(_) => BType::Bytes,
        Value::List(_) => BType::List,
        Value::Tuple(_) => BType::Tuple,
        Value::Dict(_) => BType::Dict,
        Value::Set(_) => BType::Set,
        Value::FrozenSet(_) => BType::FrozenSet,
        Value::Range(..) => BType::Range,
        Value::Func(_) => BType::Function,
        Value::Method(_) => BType::Method,
        Value::Builtin(_) => BType::BuiltinFunction,
        Value::Class(_) | Value::AstClass(_) | Value::Type(_) => BType::Type,
        Value::Module(_) => BType::Module,
        Value::Iter(i) => match &*i.borrow() {
            PyIter::Gen(_) => BType::Generator,
            PyIter::Enumerate { .. } => BType::Enumerate,
            PyIter::Zip(_) => BType::Zip,
            _ => BType::Iterator,
        },
        Value::Slice(_) => BType::Slice,
        Value::Native(n) if matches!(&**n, Native::Union(_)) => BType::UnionType,
        Value::Native(n) if matches!(&**n, Native::Property(..)) => BType::Property,
        Value::Instance(_) | Value::Node(_) | Value::Native(_) | Value::DictView(..) => {
            BType::Object
        }
    }
}

/// Replaces ` object at 0x…>` addresses with `0x0`, as the harness does.
pub fn normalise_addresses(s: &str) -> String {
    let pat = " object at 0x";
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find(pat) {
        let after = &rest[i + pat.len()..];
        let hex_len = after.bytes().take_while(|b| b.is_ascii_hexdigit()).count();
        if hex_len > 0 && after[hex_len..].starts_with('>') {
            out.push_str(&rest[..i]);
            out.push_str(" object at 0x0>");
            rest = &after[hex_len + 1..];
        } else {
            out.push_str(&rest[..i + pat.len()]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Is `c` printable as `str.isprintable` sees it (CPython 3.11's Unicode 14.0 table)?
pub fn is_printable(c: char) -> bool {
    crate::unicode::is_printable(c)
}

pub fn str_repr(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if is_printable(c) => out.push(c),
            c => {
                let u = c as u32;
                if u < 0x100 {
                    out.push_str(&format!("\\x{u:02x}"));
                } else if u < 0x10000 {
                    out.push_str(&format!("\\u{u:04x}"));
                } else {
                    out.push_str(&format!("\\U{u:08x}"));
                }
            }
        }
    }
    out.push(quote);
    out
}

pub fn bytes_repr(b: &[u8]) -> String {
    let quote = if b.contains(&b'\'') && !b.contains(&b'"') { b'"' } else { b'\'' };
    let mut out = String::from("b");
    out.push(quote as char);
    for &c in b {
        match c {
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c as char);
            }
            0x20..=0x7e => out.push(c as char),
            c => out.push_str(&format!("\\x{c:02x}")),
        }
    }
    out.push(quote as char);
    out
}

pub fn ascii_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let u = c as u32;
        if u < 0x80 {
            out.push(c);
        } else if u < 0x100 {
            out.push_str(&format!("\\x{u:02x}"));
        } else if u < 0x10000 {
            out.push_str(&format!("\\u{u:04x}"));
        } else {
            out.push_str(&format!("\\U{u:08x}"));
        }
    }
    out
}

/// `repr(float)`: shortest round-trip digits, CPython's switch to exponent notation.
pub fn float_repr(f: f64) -> String {
    if f.is_nan() {
        return "nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "inf".into() } else { "-inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0.0".into() } else { "0.0".into() };
    }
    let e = format!("{f:e}");
    let (mant, exp) = e.split_once('e').unwrap_or((&e, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if (-4..16).contains(&exp) {
        let n = digits.len() as i32;
        if exp >= 0 {
            let int_len = exp + 1;
            if n <= int_len {
                out.push_str(&digits);
                for _ in 0..(int_len - n) {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len as usize]);
                out.push('.');
                out.push_str(&digits[int_len as usize..]);
            }
        } else {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push('e');
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
    }
    out
}

impl<'a> Interp<'a> {
    /// `PyObject_Repr`: one level of CPython 3.11's recursion count (shared with Python frames)
    /// per object, so a nested container fails at the depth CPython's does (measured with
    /// python3 3.11.7: `repr` of n nested lists needs n + 2 levels above the caller's frame, the
    /// call of `repr` and the innermost leaf included).
    pub fn repr(&mut self, v: &Value<'a>) -> PyResult<'a, String> {
        self.c_level(" while getting the repr of an object", |it| it.repr_inner(v))
    }

    /// Runs `f` one C recursion level deeper (`_Py_EnterRecursiveCall(where)`): a RecursionError
    /// when CPython's count (frames and C levels) is at its limit.
    pub fn c_level<T>(
        &mut self,
        at: &str,
        f: impl FnOnce(&mut Self) -> PyResult<'a, T>,
    ) -> PyResult<'a, T> {
        if self.cpython_depth() >= self.limits.max_recursion
            || self.stack_used() > self.limits.stack_budget
        {
            return Err(
                self.err(ExcKind::RecursionError, format!("maximum recursion depth exceeded{at}"))
            );
        }
        self.depth += 1;
        let r = f(self);
        self.depth -= 1;
        r
    }

    fn repr_inner(&mut self, v: &Value<'a>) -> PyResult<'a, String> {
        self.step()?;
        Ok(match v {
            Value::None => "None".into(),
            Value::Ellipsis => "Ellipsis".into(),
            Value::NotImplemented => "NotImplemented".into(),
            Value::Bool(b) => if *b { "True" } else { "False" }.into(),
            Value::Int(i) => i.to_string(),
            Value::Big(b) => self.int_to_decimal(b)?,
            Value::Float(f) => float_repr(*f),
            Value::Complex(r, i) => crate::python::node::repr_complex(*r, *i),
            Value::Str(s) => str_repr(s),
            Value::Bytes(b) => bytes_repr(b),
            Value::List(l) => {
                let items = l.borrow().clone();
                let mut parts = Vec::with_capacity(items.len());
                for x in &items {
                    if let Value::List(inner) = x {
                        if Rc::ptr_eq(inner, l) {
                            parts.push("[...]".to_string());
                            continue;
                        }
                    }
                    parts.push(self.repr(x)?);
                }
                format!("[{}]", parts.join(", "))
            }
            Value::Tuple(t) => {
                let mut parts = Vec::with_capacity(t.len());
                for x in t.iter() {
                    parts.push(self.repr(x)?);
                }
                if parts.len() == 1 {
                    format!("({},)", parts[0])
                } else {
                    format!("({})", parts.join(", "))
                }
            }
            Value::Dict(d) => {
                let pairs: Vec<_> =
                    d.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                let mut parts = Vec::with_capacity(pairs.len());
                for (k, x) in &pairs {
                    parts.push(format!("{}: {}", self.repr(k)?, self.repr(x)?));
                }
                format!("{{{}}}", parts.join(", "))
            }
            Value::Set(s) => {
                let items = super::cpyhash::ordered_keys(&s.borrow());
                if items.is_empty() {
                    "set()".into()
                } else {
                    let mut parts = Vec::new();
                    for x in &items {
                        parts.push(self.repr(x)?);
                    }
                    format!("{{{}}}", parts.join(", "))
                }
            }
            Value::FrozenSet(s) => {
                let items = super::cpyhash::ordered_keys(s);
                if items.is_empty() {
                    "frozenset()".into()
                } else {
                    let mut parts = Vec::new();
                    for x in &items {
                        parts.push(self.repr(x)?);
                    }
                    format!("frozenset({{{}}})", parts.join(", "))
                }
            }
            Value::Range(r) => {
                let [a, b, s] = **r;
                if s == 1 {
                    format!("range({a}, {b})")
                } else {
                    format!("range({a}, {b}, {s})")
                }
            }
            Value::Func(f) => format!("<function {} at 0x0>", f.qualname),
            Value::Method(m) => {
                let name = match &m.1 {
                    Value::Func(f) => f.qualname.to_string(),
                    Value::Builtin(b) => b.name.to_string(),
                    _ => "?".into(),
                };
                let inner = self.repr(&m.0)?;
                format!("<bound method {name} of {inner}>")
            }
            Value::Builtin(b) => match &b.this {
                None => {
                    format!("<built-in function {}>", b.name.rsplit('.').next().unwrap_or(b.name))
                }
                Some(this) => {
                    let short = b.name.rsplit('.').next().unwrap_or(b.name);
                    if let Value::Instance(_) = this {
                        let inner = self.repr(this)?;
                        format!("<bound method TestCase.{short} of {inner}>")
                    } else {
                        format!("<built-in method {short} of {} object at 0x0>", type_name(this))
                    }
                }
            },
            Value::Class(c) => {
                if &*c.module == "builtins" {
                    format!("<class '{}'>", c.qualname)
                } else {
                    format!("<class '{}.{}'>", c.module, c.qualname)
                }
            }
            Value::AstClass(c) => format!("<class 'ast.{}'>", c.name()),
            Value::Type(t) => format!("<class '{}'>", t.name()),
            Value::Module(m) => format!("<module '{}'>", m.name),
            Value::Iter(i) => match &*i.borrow() {
                PyIter::Gen(g) => format!("<generator object {} at 0x0>", g.qualname),
                PyIter::Walk(_) => "<generator object walk at 0x0>".into(),
                _ => format!("<{} object at 0x0>", type_name(v)),
            },
            Value::Slice(s) => {
                let (a, b, c) = (self.repr(&s[0])?, self.repr(&s[1])?, self.repr(&s[2])?);
                format!("slice({a}, {b}, {c})")
            }
            Value::Node(n) => format!("<ast.{} object at 0x0>", n.class.name),
            Value::DictView(d, m) => {
                let it = Value::iter(PyIter::DictKeys {
                    d: d.clone(),
                    idx: 0,
                    len: d.borrow().len,
                    mode: *m,
                });
                let items = self.to_vec(&it)?;
                let inner = self.repr(&self.new_list(items))?;
                format!("{}({inner})", type_name(v))
            }
            Value::Instance(i) => {
                if let Some(exc) = &i.exc {
                    let args = exc.borrow().args.clone();
                    let mut parts = Vec::new();
                    for a in &args {
                        parts.push(self.repr(a)?);
                    }
                    return Ok(format!("{}({})", i.class.name, parts.join(", ")));
                }
                if let Some(m) = i.class.lookup("__repr__") {
                    if matches!(m, Value::Func(_) | Value::Builtin(_)) {
                        let r = self.call(&m, vec![v.clone()], vec![])?;
                        return match r {
                            Value::Str(s) => Ok(s.to_string()),
                            other => Err(self.err(
                                ExcKind::TypeError,
                                format!(
                                    "__repr__ returned non-string (type {})",
                                    type_name(&other)
                                ),
                            )),
                        };
                    }
                }
                format!("<{}.{} object at 0x0>", i.class.module, i.class.qualname)
            }
            Value::Native(n) => match &**n {
                Native::File(f) => {
                    let f = f.borrow();
                    if f.binary {
                        format!("<_io.BufferedReader name={}>", str_repr(&f.name))
                    } else {
                        format!(
                            "<_io.TextIOWrapper name={} mode='r' encoding='UTF-8'>",
                            str_repr(&f.name)
                        )
                    }
                }
                Native::Sha256(_) => "<sha256 _hashlib.HASH object @ 0x0>".into(),
                // `match_repr`: the span in code points and group 0's repr.
                Native::ReMatch(m) => {
                    let (a, b) = m.spans.first().copied().flatten().unwrap_or((0, 0));
                    let at = |i: usize| m.string.get(..i).map_or(0, |p| p.chars().count());
                    format!(
                        "<re.Match object; span=({}, {}), match={}>",
                        at(a),
                        at(b),
                        str_repr(m.string.get(a..b).unwrap_or_default())
                    )
                }
                Native::Union(args) => {
                    // `union_repr`: `None` for NoneType, a class by its (module.)qualname.
                    let mut parts = Vec::with_capacity(args.len());
                    for a in args {
                        parts.push(match a {
                            Value::Type(BType::NoneType) => "None".to_string(),
                            Value::Type(t) => t.name().to_string(),
                            Value::AstClass(c) => format!("ast.{}", c.name()),
                            Value::Class(c) if &*c.module == "builtins" => c.qualname.to_string(),
                            Value::Class(c) => format!("{}.{}", c.module, c.qualname),
                            other => self.repr(other)?,
                        });
                    }
                    parts.join(" | ")
                }
                _ => format!("<{} object at 0x0>", type_name(v)),
            },
        })
    }

    /// `str(v)`.
    pub fn str_of(&mut self, v: &Value<'a>) -> PyResult<'a, String> {
        match v {
            Value::Str(s) => Ok(s.to_string()),
            Value::Instance(i) => {
                if let Some(exc) = &i.exc {
                    let data = exc.borrow().clone();
                    if let Some(s) = data.str_override {
                        return Ok(s);
                    }
                    if i.class.lookup("__str__").is_some_and(|m| matches!(m, Value::Func(_))) {
                        let m = i.class.lookup("__str__").unwrap_or(Value::None);
                        let r = self.call(&m, vec![v.clone()], vec![])?;
                        return self.str_of(&r);
                    }
                    let is_key = i.class.is_subclass_named(ExcKind::KeyError.name());
                    return match data.args.len() {
                        0 => Ok(String::new()),
                        1 => {
                            if is_key {
                                self.repr(&data.args[0])
                            } else {
                                self.str_of(&data.args[0])
                            }
                        }
                        _ => self.repr(&Value::tuple(data.args)),
                    };
                }
                if let Some(m) = i.class.lookup("__str__") {
                    if matches!(m, Value::Func(_) | Value::Builtin(_)) {
                        let r = self.call(&m, vec![v.clone()], vec![])?;
                        return self.str_of(&r);
                    }
                }
                self.repr(v)
            }
            _ => self.repr(v),
        }
    }

    /// `format(v, spec)`.
    pub fn format_value(&mut self, v: &Value<'a>, spec: &str) -> PyResult<'a, String> {
        if spec.is_empty() {
            return self.str_of(v);
        }
        let sp = parse_spec(spec)
            .ok_or_else(|| self.err(ExcKind::ValueError, "Invalid format specifier"))?;
        let body = match v {
            Value::Str(s) => {
                if !matches!(sp.ty, None | Some('s')) {
                    return Err(self.err(
                        ExcKind::ValueError,
                        format!(
                            "Unknown format code '{}' for object of type 'str'",
                            sp.ty.unwrap_or('s')
                        ),
                    ));
                }
                match sp.precision {
                    Some(p) => s.chars().take(p).collect(),
                    None => s.to_string(),
                }
            }
            Value::Int(_) | Value::Big(_) | Value::Bool(_) => {
                let n = super::ops::to_big(v).unwrap_or_default();
                match sp.ty {
                    None | Some('d') | Some('n') => group(&self.int_to_decimal(&n)?, sp.grouping),
                    Some('x') => format!("{}{:x}", if sp.alt { "0x" } else { "" }, n),
                    Some('X') => format!("{}{:X}", if sp.alt { "0X" } else { "" }, n),
                    Some('o') => format!("{}{:o}", if sp.alt { "0o" } else { "" }, n),
                    Some('b') => format!("{}{:b}", if sp.alt { "0b" } else { "" }, n),
                    Some('c') => char::from_u32(num_traits::ToPrimitive::to_u32(&n).unwrap_or(0))
                        .unwrap_or('\0')
                        .to_string(),
                    Some('f' | 'F' | 'e' | 'E' | 'g' | 'G' | '%') => {
                        let f = num_traits::ToPrimitive::to_f64(&n).unwrap_or(0.0);
                        float_spec(f, &sp)
                    }
                    Some(c) => {
                        return Err(self.err(
                            ExcKind::ValueError,
                            format!("Unknown format code '{c}' for object of type 'int'"),
                        ))
                    }
                }
            }
            Value::Float(f) => float_spec(*f, &sp),
            _ => {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("unsupported format string passed to {}.__format__", type_name(v)),
                ))
            }
        };
        let (sign_str, digits) = match v {
            Value::Str(_) => ("", body.as_str()),
            _ => {
                if let Some(rest) = body.strip_prefix('-') {
                    ("-", rest)
                } else {
                    (
                        match sp.sign {
                            Some('+') => "+",
                            Some(' ') => " ",
                            _ => "",
                        },
                        body.as_str(),
                    )
                }
            }
        };
        let len = sign_str.chars().count() + digits.chars().count();
        let width = sp.width.unwrap_or(0);
        if len >= width {
            return Ok(format!("{sign_str}{digits}"));
        }
        // The padded text is allocated at once: a width past the size limit is refused first.
        self.check_len(width)?;
        let pad = width - len;
        let fill = sp.fill.unwrap_or(if sp.zero { '0' } else { ' ' });
        let align = sp.align.unwrap_or(if sp.zero && !matches!(v, Value::Str(_)) {
            '='
        } else if matches!(v, Value::Str(_)) {
            '<'
        } else {
            '>'
        });
        let f = |n: usize| -> String { std::iter::repeat_n(fill, n).collect() };
        Ok(match align {
            '<' => format!("{sign_str}{digits}{}", f(pad)),
            '^' => format!("{}{sign_str}{digits}{}", f(pad / 2), f(pad - pad / 2)),
            '=' => format!("{sign_str}{}{digits}", f(pad)),
            _ => format!("{}{sign_str}{digits}", f(pad)),
        })
    }

    /// `fmt % args` for the common conversions.
    pub fn percent_format(&mut self, fmt: &str, args: &Value<'a>) -> PyResult<'a, String> {
        let items: Vec<Value<'a>> = match args {
            Value::Tuple(t) => (**t).clone(),
            other => vec![other.clone()],
        };
        let mut out = String::new();
        let mut idx = 0;
        let mut chars = fmt.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '%' {
                out.push(c);
                continue;
            }
            let mut spec = String::new();
            let conv = loop {
                match chars.next() {
                    Some(ch) if "-+ #0123456789.".contains(ch) => spec.push(ch),
                    Some(ch) => break ch,
                    None => return Err(self.err(ExcKind::ValueError, "incomplete format")),
                }
            };
            if conv == '%' {
                out.push('%');
                continue;
            }
            let Some(arg) = items.get(idx).cloned() else {
                return Err(self.err(ExcKind::TypeError, "not enough arguments for format string"));
            };
            idx += 1;
            let s = match conv {
                's' => self.str_of(&arg)?,
                'r' | 'a' => self.repr(&arg)?,
                'd' | 'i' => match &arg {
                    Value::Float(f) => format!("{}", f.trunc() as i64),
                    _ => match super::ops::to_big(&arg) {
                        Some(b) => self.int_to_decimal(&b)?,
                        None => {
                            return Err(self.err(
                                ExcKind::TypeError,
                                format!(
                                    "%d format: a real number is required, not {}",
                                    type_name(&arg)
                                ),
                            ))
                        }
                    },
                },
                'f' | 'e' | 'g' | 'x' | 'X' | 'o' => {
                    let mut sp = spec.clone();
                    sp.push(conv);
                    self.format_value(&arg, &sp)?
                }
                other => {
                    return Err(self.err(
                        ExcKind::ValueError,
                        format!("unsupported format character '{other}'"),
                    ))
                }
            };
            let width: usize = spec
                .trim_start_matches(['-', '+', ' ', '#', '0'])
                .split('.')
                .next()
                .unwrap_or("")
                .parse()
                .unwrap_or(0);
            self.check_len(width)?;
            let n = s.chars().count();
            let flags: &str =
                &spec[..spec.len() - spec.trim_start_matches(['-', '+', ' ', '#', '0']).len()];
            let s = if matches!(conv, 'd' | 'i') && flags.contains('+') && !s.starts_with('-') {
                format!("+{s}")
            } else if matches!(conv, 'd' | 'i') && flags.contains(' ') && !s.starts_with('-') {
                format!(" {s}")
            } else {
                s
            };
            let n = n.max(s.chars().count());
            if n < width && matches!(conv, 'd' | 'i') && flags.contains('0') && !flags.contains('-')
            {
                // Zero padding goes between the sign and the digits.
                let (sign, digits) = match s.chars().next() {
                    Some(c @ ('-' | '+' | ' ')) => (c.to_string(), &s[1..]),
                    _ => (String::new(), &s[..]),
                };
                out.push_str(&sign);
                out.push_str(&"0".repeat(width - n));
                out.push_str(digits);
            } else if n < width && !"fegxXo".contains(conv) {
                if spec.starts_with('-') {
                    out.push_str(&s);
                    out.push_str(&" ".repeat(width - n));
                } else {
                    out.push_str(&" ".repeat(width - n));
                    out.push_str(&s);
                }
            } else {
                out.push_str(&s);
            }
        }
        // A mapping argument (anything subscriptable but a tuple or str) may go unused.
        let mapping =
            matches!(args, Value::Dict(_) | Value::List(_) | Value::Range(..) | Value::Bytes(_))
                || matches!(args, Value::Instance(i) if i.class.lookup("__getitem__").is_some());
        if idx < items.len() && !mapping {
            return Err(self
                .err(ExcKind::TypeError, "not all arguments converted during string formatting"));
        }
        Ok(out)
    }
}

struct Spec {
    fill: Option<char>,
    align: Option<char>,
    sign: Option<char>,
    alt: bool,
    zero: bool,
    width: Option<usize>,
    grouping: Option<char>,
    precision: Option<usize>,
    ty: Option<char>,
}

fn parse_spec(s: &str) -> Option<Spec> {
    let cs: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut sp = Spec {
        fill: None,
        align: None,
        sign: None,
        alt: false,
        zero: false,
        width: None,
        grouping: None,
        precision: None,
        ty: None,
    };
    if cs.len() >= 2 && "<>=^".contains(cs[1]) {
        sp.fill = Some(cs[0]);
        sp.align = Some(cs[1]);
        i = 2;
    } else if !cs.is_empty() && "<>=^".contains(cs[0]) {
        sp.align = Some(cs[0]);
        i = 1;
    }
    if i < cs.len() && "+- ".contains(cs[i]) {
        sp.sign = Some(cs[i]);
        i += 1;
    }
    if i < cs.len() && cs[i] == '#' {
        sp.alt = true;
        i += 1;
    }
    if i < cs.len() && cs[i] == '0' {
        sp.zero = true;
        i += 1;
    }
    let st = i;
    while i < cs.len() && cs[i].is_ascii_digit() {
        i += 1;
    }
    if i > st {
        sp.width = cs[st..i].iter().collect::<String>().parse().ok();
    }
    if i < cs.len() && (cs[i] == ',' || cs[i] == '_') {
        sp.grouping = Some(cs[i]);
        i += 1;
    }
    if i < cs.len() && cs[i] == '.' {
        i += 1;
        let st = i;
        while i < cs.len() && cs[i].is_ascii_digit() {
            i += 1;
        }
        sp.precision = Some(cs[st..i].iter().collect::<String>().parse().ok()?);
    }
    if i < cs.len() {
        sp.ty = Some(cs[i]);
        i += 1;
    }
    if i != cs.len() {
        return None;
    }
    Some(sp)
}

fn group(digits: &str, sep: Option<char>) -> String {
    let Some(sep) = sep else { return digits.to_string() };
    let (neg, d) = match digits.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, digits),
    };
    let mut out = String::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i) % 3 == 0 {
            out.push(sep);
        }
        out.push(c);
    }
    if neg {
        format!("-{out}")
    } else {
        out
    }
}

fn float_spec(f: f64, sp: &Spec) -> String {
    let p = sp.precision;
    match sp.ty {
        Some('f' | 'F') => group_float(&format!("{:.*}", p.unwrap_or(6), f), sp.grouping),
        Some('%') => format!("{:.*}%", p.unwrap_or(6), f * 100.0),
        Some('e' | 'E') => {
            let s = format!("{:.*e}", p.unwrap_or(6), f);
            let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
            let e: i32 = e.parse().unwrap_or(0);
            let r = format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs());
            if sp.ty == Some('E') {
                r.to_ascii_uppercase()
            } else {
                r
            }
        }
        Some('g' | 'G') | None if sp.ty.is_some() || p.is_some() => {
            if !f.is_finite() {
                return float_repr(f);
            }
            let prec = p.unwrap_or(6).max(1);
            // The decimal exponent after rounding to `prec` significant digits decides the form.
            let sci = format!("{:.*e}", prec - 1, f);
            let exp: i32 = sci.split_once('e').and_then(|(_, e)| e.parse().ok()).unwrap_or(0);
            let s = if exp < -4 || exp >= prec as i32 {
                let s = format!("{:.*e}", prec - 1, f);
                let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
                let m =
                    if m.contains('.') { m.trim_end_matches('0').trim_end_matches('.') } else { m };
                let e: i32 = e.parse().unwrap_or(0);
                format!("{m}e{}{:02}", if e < 0 { '-' } else { '+' }, e.abs())
            } else {
                let s = format!("{:.*}", (prec as i32 - 1 - exp).max(0) as usize, f);
                if s.contains('.') {
                    s.trim_end_matches('0').trim_end_matches('.').to_string()
                } else {
                    s
                }
            };
            s
        }
        _ => group_float(&float_repr(f), sp.grouping),
    }
}

fn group_float(s: &str, sep: Option<char>) -> String {
    if sep.is_none() {
        return s.to_string();
    }
    match s.split_once('.') {
        Some((a, b)) => format!("{}.{b}", group(a, sep)),
        None => group(s, sep),
    }
}
