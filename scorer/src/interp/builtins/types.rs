//! The builtin type objects called as constructors (`int(...)`, `str(...)`, `dict(...)`, ...),
//! `type(x)`, and the text parsing `int()`, `float()` and `complex()` share with CPython.

use super::{arg, CALL};
use crate::interp::eval::Kwargs;
use crate::interp::fmt::{btype_of, type_name};
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use num_traits::ToPrimitive;
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub fn call_type(
        &mut self,
        t: BType,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let _ = &kwargs;
        match t {
            BType::Str if args.len() > 3 => Err(self.err(
                ExcKind::TypeError,
                format!("str() takes at most 3 arguments ({} given)", args.len()),
            )),
            BType::Str => match args.first() {
                None => Ok(Value::str("")),
                Some(Value::Bytes(b)) if args.len() > 1 => self.decode_bytes(b, args.get(1), args.get(2)),
                Some(v @ (Value::Str(_) | Value::Int(_) | Value::Bool(_))) => {
                    Ok(Value::str_rc(Rc::from(self.str_of(v)?)))
                }
                // The unspecialised call of `str` counts a level (see `"repr"`).
                Some(v) => Ok(Value::str_rc(Rc::from(self.c_level(CALL, |it| it.str_of(v))?))),
            },
            BType::Int => match args.first() {
                None => Ok(Value::Int(0)),
                Some(Value::Int(i)) => Ok(Value::Int(*i)),
                Some(Value::Bool(b)) => Ok(Value::Int(i64::from(*b))),
                Some(Value::Big(b)) => Ok(Value::Big(b.clone())),
                Some(Value::Float(f)) => {
                    if !f.is_finite() {
                        return Err(self.err(ExcKind::ValueError, "cannot convert float NaN to integer"));
                    }
                    Ok(Value::from_bigint(num_bigint::BigInt::from(f.trunc() as i128)))
                }
                Some(Value::Str(s)) => {
                    let base = match args.get(1) {
                        Some(Value::Int(b)) => *b,
                        Some(Value::Bool(b)) => i64::from(*b),
                        _ => 10,
                    };
                    if base != 0 && !(2..=36).contains(&base) {
                        return Err(self.err(ExcKind::ValueError, "int() base must be >= 2 and <= 36, or 0"));
                    }
                    let text = decimal_and_space_to_ascii(s);
                    self.check_int_parse_digits(&text, base as u32)?;
                    match parse_int_literal(&text, base as u32) {
                        Some(b) => Ok(Value::from_bigint(b)),
                        None => Err(self.err(
                            ExcKind::ValueError,
                            format!("invalid literal for int() with base {base}: {}", crate::interp::fmt::str_repr(s).chars().take(200).collect::<String>()),
                        )),
                    }
                }
                // Bytes are parsed as their ASCII text; no Unicode digits or spaces.
                Some(Value::Bytes(b)) if b.is_ascii() => {
                    let base = match args.get(1) {
                        Some(Value::Int(b)) => *b,
                        Some(Value::Bool(b)) => i64::from(*b),
                        _ => 10,
                    };
                    if base != 0 && !(2..=36).contains(&base) {
                        return Err(self.err(ExcKind::ValueError, "int() base must be >= 2 and <= 36, or 0"));
                    }
                    let text = String::from_utf8_lossy(b);
                    self.check_int_parse_digits(&text, base as u32)?;
                    match parse_int_literal(&text, base as u32) {
                        Some(n) => Ok(Value::from_bigint(n)),
                        None => Err(self.err(
                            ExcKind::ValueError,
                            format!("invalid literal for int() with base {base}: {}", crate::interp::fmt::bytes_repr(b).chars().take(200).collect::<String>()),
                        )),
                    }
                }
                Some(other) => Err(self.err(
                    ExcKind::TypeError,
                    format!("int() argument must be a string, a bytes-like object or a real number, not '{}'", type_name(other)),
                )),
            },
            BType::Complex => self.make_complex(&args),
            BType::Float => match args.first() {
                None => Ok(Value::Float(0.0)),
                Some(Value::Float(f)) => Ok(Value::Float(*f)),
                Some(Value::Str(s)) => {
                    let t = decimal_and_space_to_ascii(s);
                    let t = t.trim_matches(ascii_isspace).to_ascii_lowercase();
                    let v = match t.as_str() {
                        "inf" | "+inf" | "infinity" => Some(f64::INFINITY),
                        "-inf" | "-infinity" => Some(f64::NEG_INFINITY),
                        "nan" | "+nan" | "-nan" => Some(f64::NAN),
                        _ => t.replace('_', "").parse::<f64>().ok(),
                    };
                    v.map(Value::Float).ok_or_else(|| {
                        self.err(ExcKind::ValueError, format!("could not convert string to float: {}", crate::interp::fmt::str_repr(s)))
                    })
                }
                Some(v) => match crate::interp::ops::to_big(v) {
                    Some(b) => Ok(Value::Float(b.to_f64().unwrap_or(f64::INFINITY))),
                    None => Err(self.err(
                        ExcKind::TypeError,
                        format!("float() argument must be a string or a real number, not '{}'", type_name(v)),
                    )),
                },
            },
            BType::Bool => match args.first() {
                None => Ok(Value::Bool(false)),
                Some(v) => Ok(Value::Bool(self.truthy(v)?)),
            },
            BType::List => {
                let items = match args.first() {
                    None => vec![],
                    Some(v) => self.to_vec(v)?,
                };
                Ok(self.new_list(items))
            }
            BType::Tuple => Ok(match args.first() {
                None => Value::tuple(vec![]),
                Some(Value::Tuple(t)) => Value::Tuple(t.clone()),
                Some(v) => Value::tuple(self.to_vec(v)?),
            }),
            BType::Set | BType::FrozenSet => {
                // `set_update_internal`: a set is merged, a dict's keys go into a presized table.
                match args.first() {
                    Some(v @ Value::FrozenSet(_)) if t == BType::FrozenSet => return Ok(v.clone()),
                    Some(v @ (Value::Set(_) | Value::FrozenSet(_))) => {
                        if let Some(s) = self.set_copy_cpython(v)? {
                            return Ok(if t == BType::Set {
                                Value::Set(s)
                            } else {
                                let inner = s.borrow().clone();
                                Value::FrozenSet(Rc::new(inner))
                            });
                        }
                    }
                    Some(Value::Dict(d)) => {
                        let keys = d.borrow().keys();
                        let s = self.new_set(vec![])?;
                        self.set_update_from_dict(&s, keys)?;
                        return Ok(if t == BType::Set {
                            Value::Set(s)
                        } else {
                            let inner = s.borrow().clone();
                            Value::FrozenSet(Rc::new(inner))
                        });
                    }
                    _ => {}
                }
                let items = match args.first() {
                    None => vec![],
                    Some(v) => self.to_vec(v)?,
                };
                let s = self.new_set(items)?;
                if t == BType::Set {
                    Ok(Value::Set(s))
                } else {
                    let inner = s.borrow().clone();
                    Ok(Value::FrozenSet(Rc::new(inner)))
                }
            }
            BType::Dict => {
                let d = self.new_dict();
                if let Some(src) = args.first() {
                    self.dict_update(&d, src)?;
                }
                for (k, v) in kwargs {
                    self.dict_set(&d, Value::Str(k), v)?;
                }
                Ok(Value::Dict(d))
            }
            BType::Range => {
                let ints: Vec<i64> = args
                    .iter()
                    .map(|a| match a {
                        Value::Int(i) => Some(*i),
                        Value::Bool(b) => Some(i64::from(*b)),
                        _ => None,
                    })
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| {
                        let bad = args
                            .iter()
                            .find(|a| !matches!(a, Value::Int(_) | Value::Bool(_)))
                            .map_or_else(|| "float".to_string(), type_name);
                        self.err(ExcKind::TypeError, format!("'{bad}' object cannot be interpreted as an integer"))
                    })?;
                match ints.as_slice() {
                    [b] => Ok(Value::Range(Rc::new([0, *b, 1]))),
                    [a, b] => Ok(Value::Range(Rc::new([*a, *b, 1]))),
                    [a, b, s] => {
                        if *s == 0 {
                            return Err(self.err(ExcKind::ValueError, "range() arg 3 must not be zero"));
                        }
                        Ok(Value::Range(Rc::new([*a, *b, *s])))
                    }
                    _ => Err(self.err(ExcKind::TypeError, format!("range expected at most 3 arguments, got {}", ints.len()))),
                }
            }
            BType::Type => {
                if args.len() == 1 {
                    return Ok(self.type_of(&args[0]));
                }
                Err(self.unsupported("type() with 3 arguments"))
            }
            BType::Object => Ok(self.made(Value::Instance(Rc::new(Instance::new(
                crate::interp::exc::bare_class("object"),
                NameMap::default(),
                None,
            ))))),
            BType::Bytes => match args.first() {
                None => Ok(Value::bytes_rc(Rc::from(&b""[..]))),
                Some(Value::Str(s)) if args.len() > 1 => Ok(Value::bytes_rc(Rc::from(s.as_bytes()))),
                Some(Value::Str(_)) => Err(self.err(ExcKind::TypeError, "string argument without an encoding")),
                Some(Value::Bytes(b)) => Ok(Value::Bytes(b.clone())),
                // `bytes(n)`: n zero bytes, within the size limit (`bytes(10**12)` is a MemoryError).
                Some(Value::Int(n)) => {
                    let n = usize::try_from(*n).map_err(|_| self.err(ExcKind::ValueError, "negative count"))?;
                    self.check_len(n)?;
                    Ok(Value::bytes_rc(Rc::from(vec![0u8; n])))
                }
                Some(Value::Bool(b)) => Ok(Value::bytes_rc(Rc::from(vec![0u8; usize::from(*b)]))),
                Some(Value::Big(_)) => {
                    Err(self.err(ExcKind::OverflowError, "cannot fit 'int' into an index-sized integer"))
                }
                Some(v) => {
                    let items = self.to_vec(v)?;
                    let mut out = Vec::new();
                    for x in items {
                        match x {
                            Value::Int(i) if (0..256).contains(&i) => out.push(i as u8),
                            _ => return Err(self.err(ExcKind::ValueError, "bytes must be in range(0, 256)")),
                        }
                    }
                    Ok(Value::bytes_rc(Rc::from(out)))
                }
            },
            BType::Slice => {
                let (a, b, c) = match args.len() {
                    1 => (Value::None, args[0].clone(), Value::None),
                    2 => (args[0].clone(), args[1].clone(), Value::None),
                    _ => (arg(&args, 0), arg(&args, 1), arg(&args, 2)),
                };
                Ok(Value::Slice(Rc::new([a, b, c])))
            }
            other => Err(self.err(ExcKind::TypeError, format!("cannot create '{}' instances", other.name()))),
        }
    }

    /// `complex()`, `complex(x)`, `complex(re, im)` over numbers and `complex("1+2j")`.
    fn make_complex(&mut self, args: &[Value<'a>]) -> PyResult<'a, Value<'a>> {
        let part = |v: &Value<'a>| -> Option<(f64, f64)> {
            match v {
                Value::Complex(r, i) => Some((*r, *i)),
                Value::Float(f) => Some((*f, 0.0)),
                other => crate::interp::ops::to_big(other)
                    .map(|b| (b.to_f64().unwrap_or(f64::INFINITY), 0.0)),
            }
        };
        match args {
            [] => Ok(Value::Complex(0.0, 0.0)),
            [Value::Str(s)] => parse_complex(&decimal_and_space_to_ascii(s))
                .map(|(r, i)| Value::Complex(r, i))
                .ok_or_else(|| {
                    self.err(ExcKind::ValueError, "complex() arg is a malformed string")
                }),
            [Value::Str(_), _] => Err(self
                .err(ExcKind::TypeError, "complex() can't take second arg if first is a string")),
            [x] | [x, _] if part(x).is_none() => Err(self.err(
                ExcKind::TypeError,
                format!(
                    "complex() first argument must be a string or a number, not '{}'",
                    type_name(x)
                ),
            )),
            [_, Value::Str(_)] => {
                Err(self.err(ExcKind::TypeError, "complex() second arg can't be a string"))
            }
            [_, y] if part(y).is_none() => Err(self.err(
                ExcKind::TypeError,
                format!("complex() second argument must be a number, not '{}'", type_name(y)),
            )),
            [x] => {
                let (r, i) = part(x).unwrap_or((0.0, 0.0));
                Ok(Value::Complex(r, i))
            }
            [x, y] => {
                let ((a, b), (c, d)) =
                    (part(x).unwrap_or((0.0, 0.0)), part(y).unwrap_or((0.0, 0.0)));
                // complex(a+bj, c+dj) = (a - d) + (b + c)j; a real second argument adds only to imag.
                let real = if matches!(y, Value::Complex(..)) { a - d } else { a };
                let imag = if matches!(x, Value::Complex(..)) { c + b } else { c };
                Ok(Value::Complex(real, imag))
            }
            _ => Err(self.err(
                ExcKind::TypeError,
                format!("complex() takes at most 2 arguments ({} given)", args.len()),
            )),
        }
    }

    pub fn type_of(&self, v: &Value<'a>) -> Value<'a> {
        match v {
            Value::Instance(i) => Value::Class(i.class.clone()),
            Value::Node(n) => Value::AstClass(AstCls::Real(n.class)),
            Value::Native(_) | Value::Iter(_) => Value::Type(btype_of(v)),
            other => Value::Type(btype_of(other)),
        }
    }
}

/// `_PyUnicode_TransformDecimalAndSpaceToASCII`, what `int()` and `float()` parse: Unicode
/// whitespace becomes ' ', a decimal digit its ASCII digit, and the text ends with '?' at
/// the first other non-ASCII character (so it fails to parse).
pub(crate) fn decimal_and_space_to_ascii(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if u32::from(c) < 127 {
            out.push(c);
        } else if crate::unicode::is_space(c) {
            out.push(' ');
        } else if let Some(d) =
            crate::unicode::decimal_value(c).and_then(|d| char::from_digit(d, 10))
        {
            out.push(d);
        } else {
            out.push('?');
            break;
        }
    }
    std::borrow::Cow::Owned(out)
}

/// `Py_ISSPACE`: the ASCII whitespace `int()` and `float()` strip after the transform.
fn ascii_isspace(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
}

/// `int(text, base)` as CPython parses it: whitespace, sign, optional base prefix (auto-detected for
/// base 0, where a decimal may not have leading zeros), single underscores between digits. `None`
/// when invalid; `base` must be 0 or 2..=36.
pub(crate) fn parse_int_literal(text: &str, base: u32) -> Option<num_bigint::BigInt> {
    let t = text.trim_matches(ascii_isspace);
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let lower = t.get(..2).map(|p| p.to_ascii_lowercase());
    let prefix_base = match lower.as_deref() {
        Some("0x") => Some(16),
        Some("0o") => Some(8),
        Some("0b") => Some(2),
        _ => None,
    };
    let auto_decimal = base == 0 && prefix_base.is_none();
    let (base, digits, had_prefix) = match (base, prefix_base) {
        (0, Some(pb)) => (pb, &t[2..], true),
        (0, None) => (10, t, false),
        (b, Some(pb)) if b == pb => (b, &t[2..], true),
        (b, _) => (b, t, false),
    };
    // After a prefix, one underscore may precede the first digit.
    let digits = if had_prefix { digits.strip_prefix('_').unwrap_or(digits) } else { digits };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    if !clean.chars().all(|c| c.is_ascii_alphanumeric() && c.to_digit(36).is_some_and(|d| d < base))
    {
        return None;
    }
    if auto_decimal && clean.starts_with('0') && clean.bytes().any(|b| b != b'0') {
        return None;
    }
    let v = num_bigint::BigInt::parse_bytes(clean.as_bytes(), base)?;
    Some(if neg { -v } else { v })
}

/// `complex("…")`: `[sign]real`, `[sign]imagj`, `real±imagj`, optionally in parentheses.
fn parse_complex(s: &str) -> Option<(f64, f64)> {
    let t = s.trim_matches(ascii_isspace);
    let t = match t.strip_prefix('(') {
        Some(inner) => inner.strip_suffix(')')?.trim_matches(ascii_isspace),
        None => t,
    };
    let float = |x: &str| -> Option<f64> {
        let body = x.trim_start_matches(['+', '-']);
        if body.is_empty() || x.len() - body.len() > 1 {
            return None;
        }
        let neg = x.starts_with('-');
        let v = match body.to_ascii_lowercase().as_str() {
            "inf" | "infinity" => f64::INFINITY,
            "nan" => f64::NAN,
            b if b.starts_with(|c: char| c.is_ascii_digit() || c == '.')
                && !b.contains("__")
                && !b.starts_with('_')
                && !b.ends_with('_') =>
            {
                b.replace('_', "").parse::<f64>().ok()?
            }
            _ => return None,
        };
        Some(if neg { -v } else { v })
    };
    if let Some(im) = t.strip_suffix(['j', 'J']) {
        // The split between the real and imaginary parts: the last sign not after an exponent mark.
        let bytes = im.as_bytes();
        let split = (1..bytes.len())
            .rev()
            .find(|&k| matches!(bytes[k], b'+' | b'-') && !matches!(bytes[k - 1], b'e' | b'E'));
        let imag = |x: &str| -> Option<f64> {
            match x {
                "" | "+" => Some(1.0),
                "-" => Some(-1.0),
                other => float(other),
            }
        };
        match split {
            Some(k) => Some((float(&im[..k])?, imag(&im[k..])?)),
            None => Some((0.0, imag(im)?)),
        }
    } else {
        Some((float(t)?, 0.0))
    }
}
