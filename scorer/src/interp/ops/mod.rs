//! Operators and the value protocols under them. This file holds the numeric helpers they share
//! and truthiness; equality, hashing and the dict/set primitives are in [`containers`],
//! comparisons in [`compare`], arithmetic in [`arith`], iteration in [`iter`], item access in
//! [`item`]. The static scope analysis is in [`super::scope`].

mod arith;
mod compare;
mod containers;
mod item;
mod iter;

use std::rc::Rc;

use num_bigint::BigInt;
use num_traits::{ToPrimitive, Zero};

use crate::python::syntax as ast;

use super::value::*;
use super::{ExcKind, Interp, PyErr, PyResult, Value};

pub(crate) fn to_big(v: &Value<'_>) -> Option<BigInt> {
    match v {
        Value::Int(i) => Some(BigInt::from(*i)),
        Value::Bool(b) => Some(BigInt::from(i64::from(*b))),
        Value::Big(b) => Some((**b).clone()),
        _ => None,
    }
}

fn as_f64(v: &Value<'_>) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::Bool(b) => Some(f64::from(u8::from(*b))),
        Value::Big(b) => b.to_f64(),
        Value::Float(f) => Some(*f),
        _ => None,
    }
}

/// A number as a complex (real, imaginary), `None` for non-numbers.
fn as_complex(v: &Value<'_>) -> Option<(f64, f64)> {
    match v {
        Value::Complex(r, i) => Some((*r, *i)),
        other => as_f64(other).map(|f| (f, 0.0)),
    }
}

fn c_prod(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
}

/// CPython's `_Py_c_quot` (Smith's method); `None` for a zero divisor.
fn c_quot(a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
    let (abs_br, abs_bi) = (b.0.abs(), b.1.abs());
    if abs_br >= abs_bi {
        if abs_br == 0.0 {
            return None;
        }
        let ratio = b.1 / b.0;
        let denom = b.0 + b.1 * ratio;
        Some(((a.0 + a.1 * ratio) / denom, (a.1 - a.0 * ratio) / denom))
    } else if abs_bi >= abs_br {
        let ratio = b.0 / b.1;
        let denom = b.0 * ratio + b.1;
        Some(((a.0 * ratio + a.1) / denom, (a.1 * ratio - a.0) / denom))
    } else {
        Some((f64::NAN, f64::NAN))
    }
}

/// CPython's `c_powi` (integral exponents up to 100 by repeated squaring); `None`: 0 to a negative power.
fn c_powi(x: (f64, f64), n: i64) -> Option<(f64, f64)> {
    let powu = |n: i64| {
        let (mut r, mut p, mut mask) = ((1.0, 0.0), x, 1i64);
        while mask > 0 && n >= mask {
            if n & mask != 0 {
                r = c_prod(r, p);
            }
            mask <<= 1;
            p = c_prod(p, p);
        }
        r
    };
    if n > 0 {
        Some(powu(n))
    } else {
        c_quot((1.0, 0.0), powu(-n))
    }
}

/// CPython's `_Py_c_pow`; `None`: 0 to a negative or complex power.
fn c_pow(a: (f64, f64), b: (f64, f64)) -> Option<(f64, f64)> {
    if b.0 == 0.0 && b.1 == 0.0 {
        return Some((1.0, 0.0));
    }
    if a.0 == 0.0 && a.1 == 0.0 {
        if b.1 != 0.0 || b.0 < 0.0 {
            return None;
        }
        return Some((0.0, 0.0));
    }
    let vabs = a.0.hypot(a.1);
    let mut len = vabs.powf(b.0);
    let at = a.1.atan2(a.0);
    let mut phase = at * b.0;
    if b.1 != 0.0 {
        len /= (at * b.1).exp();
        phase += b.1 * vabs.ln();
    }
    Some((len * phase.cos(), len * phase.sin()))
}

pub(crate) fn is_intlike(v: &Value<'_>) -> bool {
    matches!(v, Value::Int(_) | Value::Bool(_) | Value::Big(_))
}

fn is_num(v: &Value<'_>) -> bool {
    matches!(v, Value::Int(_) | Value::Bool(_) | Value::Big(_) | Value::Float(_))
}

fn int_of(v: &Value<'_>) -> Option<i64> {
    match v {
        Value::Int(i) => Some(*i),
        Value::Bool(b) => Some(i64::from(*b)),
        _ => None,
    }
}

fn op_symbol(op: ast::Operator) -> &'static str {
    use ast::Operator as O;
    match op {
        O::Add => "+",
        O::Sub => "-",
        O::Mult => "*",
        O::MatMult => "@",
        O::Div => "/",
        O::Mod => "%",
        O::Pow => "** or pow()",
        O::LShift => "<<",
        O::RShift => ">>",
        O::BitOr => "|",
        O::BitXor => "^",
        O::BitAnd => "&",
        O::FloorDiv => "//",
    }
}

/// `a | b` for types (`type.__or__`, PEP 604): a `types.UnionType` of the distinct members
/// of both (flattening unions), the type itself when only one remains; None when the
/// operands are not both types, unions or `None` (or both `None`).
fn union_of<'a>(a: &Value<'a>, b: &Value<'a>) -> Option<Value<'a>> {
    if matches!((a, b), (Value::None, Value::None)) {
        return None;
    }
    let mut args: Vec<Value<'a>> = Vec::new();
    for v in [a, b] {
        let members: Vec<Value<'a>> = match v {
            Value::None => vec![Value::Type(BType::NoneType)],
            Value::Type(_) | Value::Class(_) | Value::AstClass(_) => vec![v.clone()],
            Value::Native(n) => match &**n {
                Native::Union(m) => m.clone(),
                _ => return None,
            },
            _ => return None,
        };
        for m in members {
            if !args.iter().any(|x| x.is(&m)) {
                args.push(m);
            }
        }
    }
    if args.len() == 1 {
        return args.pop();
    }
    Some(Value::Native(Rc::new(Native::Union(args))))
}

/// A dunder a user class (not an exception) defines for instance `v`.
fn user_dunder<'a>(v: &Value<'a>, name: &str) -> Option<Value<'a>> {
    match v {
        Value::Instance(i) if i.exc.is_none() => i.class.lookup(name),
        _ => None,
    }
}

fn cmp_symbol(op: ast::CmpOp) -> &'static str {
    use ast::CmpOp as C;
    match op {
        C::Lt => "<",
        C::LtE => "<=",
        C::Gt => ">",
        C::GtE => ">=",
        C::Eq => "==",
        C::NotEq => "!=",
        _ => "in",
    }
}

impl<'a> Interp<'a> {
    pub fn is_exc(&self, e: &PyErr<'a>, kind: ExcKind) -> bool {
        match &e.exc {
            Value::Instance(i) => i.class.is_subclass_named(kind.name()),
            _ => false,
        }
    }

    pub fn truthy(&mut self, v: &Value<'a>) -> PyResult<'a, bool> {
        Ok(match v {
            Value::None => false,
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Big(b) => !b.is_zero(),
            Value::Float(f) => *f != 0.0,
            Value::Complex(r, i) => *r != 0.0 || *i != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::Bytes(b) => !b.is_empty(),
            Value::List(l) => !l.borrow().is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Dict(d) | Value::Set(d) | Value::DictView(d, _) => d.borrow().len > 0,
            Value::FrozenSet(d) => d.len > 0,
            Value::Range(r) => range_len(r[0], r[1], r[2]) > 0,
            Value::Instance(i) if i.exc.is_none() => {
                if let Some(m) = i.class.lookup("__bool__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    return self.truthy(&r);
                }
                if let Some(m) = i.class.lookup("__len__") {
                    let r = self.call(&m, vec![v.clone()], vec![])?;
                    return self.truthy(&r);
                }
                true
            }
            _ => true,
        })
    }
}

pub(crate) fn range_len(a: i64, b: i64, s: i64) -> i64 {
    if s > 0 && a < b {
        (b - a - 1) / s + 1
    } else if s < 0 && a > b {
        (a - b - 1) / (-s) + 1
    } else {
        0
    }
}
