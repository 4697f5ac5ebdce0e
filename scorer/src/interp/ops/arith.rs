//! Unary and binary operators: int (arbitrary precision), float, complex, sequence repetition
//! and concatenation, `|` on dicts and sets, user dunders, and CPython's `TypeError` texts.

use super::{
    as_complex, as_f64, c_pow, c_powi, c_prod, c_quot, is_intlike, is_num, op_symbol, to_big,
    union_of,
};
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyErr, PyResult, Value};
use crate::python::syntax as ast;
use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub fn unaryop(&mut self, op: ast::UnaryOp, v: &Value<'a>) -> PyResult<'a, Value<'a>> {
        use ast::UnaryOp as U;
        match op {
            U::Not => Ok(Value::Bool(!self.truthy(v)?)),
            U::USub => match v {
                Value::Int(i) => Ok(i
                    .checked_neg()
                    .map_or_else(|| Value::from_bigint(-BigInt::from(*i)), Value::Int)),
                Value::Bool(b) => Ok(Value::Int(-i64::from(*b))),
                Value::Big(b) => Ok(Value::from_bigint(-(**b).clone())),
                Value::Float(f) => Ok(Value::Float(-f)),
                Value::Complex(r, i) => Ok(Value::Complex(-r, -i)),
                _ => Err(self.err(
                    ExcKind::TypeError,
                    format!("bad operand type for unary -: '{}'", self.type_name(v)),
                )),
            },
            U::UAdd => match v {
                Value::Int(_) | Value::Big(_) | Value::Float(_) | Value::Complex(..) => {
                    Ok(v.clone())
                }
                Value::Bool(b) => Ok(Value::Int(i64::from(*b))),
                _ => Err(self.err(
                    ExcKind::TypeError,
                    format!("bad operand type for unary +: '{}'", self.type_name(v)),
                )),
            },
            U::Invert => match to_big(v) {
                Some(b) => Ok(Value::from_bigint(-b - 1)),
                None => Err(self.err(
                    ExcKind::TypeError,
                    format!("bad operand type for unary ~: '{}'", self.type_name(v)),
                )),
            },
        }
    }

    pub fn binop(
        &mut self,
        op: ast::Operator,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        use ast::Operator as O;
        use Value as V;
        // Fast int paths.
        if let (V::Int(x), V::Int(y)) = (a, b) {
            let r = match op {
                O::Add => x.checked_add(*y),
                O::Sub => x.checked_sub(*y),
                O::Mult => x.checked_mul(*y),
                _ => None,
            };
            if let Some(r) = r {
                return Ok(V::Int(r));
            }
        }
        // `os.stat_result` is a tuple subclass: its operators are the tuple's.
        if crate::interp::stdlib::statres::is_stat_result(a)
            || crate::interp::stdlib::statres::is_stat_result(b)
        {
            let (a, b) = (self.stat_as_tuple(a)?, self.stat_as_tuple(b)?);
            return self.binop(op, &a, &b);
        }
        if matches!(op, O::BitOr) {
            if let Some(u) = union_of(a, b) {
                return Ok(u);
            }
        }
        if matches!(op, O::Sub | O::BitAnd | O::BitOr | O::BitXor)
            && (crate::interp::builtins::dict::is_set_view(a)
                || crate::interp::builtins::dict::is_set_view(b))
        {
            // `dictviews_sub` and friends, for keys and items views on either side.
            return self.dictview_binop(op, a, b);
        }
        if is_intlike(a) && is_intlike(b) {
            return self.int_binop(
                op,
                to_big(a).unwrap_or_default(),
                to_big(b).unwrap_or_default(),
                a,
                b,
            );
        }
        if let (Some(x), Some(y)) = (as_complex(a), as_complex(b)) {
            if matches!(a, V::Complex(..)) || matches!(b, V::Complex(..)) {
                return self.complex_binop(op, x, y, a, b);
            }
        }
        if is_num(a) && is_num(b) {
            let (x, y) = (as_f64(a).unwrap_or(0.0), as_f64(b).unwrap_or(0.0));
            return match op {
                O::Add => Ok(V::Float(x + y)),
                O::Sub => Ok(V::Float(x - y)),
                O::Mult => Ok(V::Float(x * y)),
                O::Div => {
                    if y == 0.0 {
                        Err(self.err(ExcKind::ZeroDivisionError, "float division by zero"))
                    } else {
                        Ok(V::Float(x / y))
                    }
                }
                O::FloorDiv => {
                    if y == 0.0 {
                        Err(self.err(ExcKind::ZeroDivisionError, "float floor division by zero"))
                    } else {
                        Ok(V::Float((x / y).floor()))
                    }
                }
                O::Mod => {
                    if y == 0.0 {
                        Err(self.err(ExcKind::ZeroDivisionError, "float modulo"))
                    } else {
                        let m = x % y;
                        Ok(V::Float(if m == 0.0 {
                            0.0f64.copysign(y)
                        } else if (m < 0.0) != (y < 0.0) {
                            m + y
                        } else {
                            m
                        }))
                    }
                }
                O::Pow => {
                    if x == 0.0 && y < 0.0 {
                        return Err(self.err(
                            ExcKind::ZeroDivisionError,
                            "0.0 cannot be raised to a negative power",
                        ));
                    }
                    if x < 0.0 && y.is_finite() && y != y.floor() {
                        // A negative base to a fractional power is complex (`float_pow`).
                        return self.complex_binop(op, (x, 0.0), (y, 0.0), a, b);
                    }
                    Ok(V::Float(x.powf(y)))
                }
                _ => Err(self.unsupported_operands(op, a, b)),
            };
        }
        match (op, a, b) {
            (O::Add, V::Str(x), V::Str(y)) => {
                self.check_len(x.len() + y.len())?;
                let mut s = String::with_capacity(x.len() + y.len());
                s.push_str(x);
                s.push_str(y);
                Ok(V::str_rc(Rc::from(s)))
            }
            (O::Add, V::Str(_), _) => Err(self.err(
                ExcKind::TypeError,
                format!("can only concatenate str (not \"{}\") to str", self.type_name(b)),
            )),
            (O::Add, V::List(x), V::List(y)) => {
                let mut v = x.borrow().clone();
                v.extend(y.borrow().iter().cloned());
                self.check_len(v.len())?;
                Ok(self.new_list(v))
            }
            (O::Add, V::List(_), _) => Err(self.err(
                ExcKind::TypeError,
                format!("can only concatenate list (not \"{}\") to list", self.type_name(b)),
            )),
            (O::Add, V::Tuple(x), V::Tuple(y)) => {
                let mut v = (**x).clone();
                v.extend(y.iter().cloned());
                self.check_len(v.len())?;
                Ok(V::tuple(v))
            }
            (O::Add, V::Tuple(_), _) => Err(self.err(
                ExcKind::TypeError,
                format!("can only concatenate tuple (not \"{}\") to tuple", self.type_name(b)),
            )),
            (O::Add, V::Bytes(x), V::Bytes(y)) => {
                let mut v = x.to_vec();
                v.extend_from_slice(y);
                Ok(V::bytes_rc(Rc::from(v)))
            }
            (O::Add, V::Bytes(_), _) => Err(self
                .err(ExcKind::TypeError, format!("can't concat {} to bytes", self.type_name(b)))),
            (O::Mod, V::Bytes(fmt), args) if !fmt.contains(&b'%') => {
                let unused = match args {
                    V::Tuple(t) => !t.is_empty(),
                    V::Dict(_) | V::List(_) | V::Range(..) => false,
                    V::Instance(i) => i.class.lookup("__getitem__").is_none(),
                    _ => true,
                };
                if unused {
                    return Err(self.err(
                        ExcKind::TypeError,
                        "not all arguments converted during bytes formatting",
                    ));
                }
                Ok(a.clone())
            }
            (O::Mult, V::Str(_) | V::List(_) | V::Tuple(_) | V::Bytes(_), other)
            | (O::Mult, other, V::Str(_) | V::List(_) | V::Tuple(_) | V::Bytes(_))
                if !is_intlike(other)
                    && !matches!(other, V::Instance(i) if i.class.lookup("__rmul__").is_some() || i.class.lookup("__mul__").is_some()) =>
            {
                let culprit = if matches!(a, V::Str(_) | V::List(_) | V::Tuple(_) | V::Bytes(_)) {
                    b
                } else {
                    a
                };
                Err(self.err(
                    ExcKind::TypeError,
                    format!(
                        "can't multiply sequence by non-int of type '{}'",
                        self.type_name(culprit)
                    ),
                ))
            }
            (O::Mult, V::Str(_) | V::List(_) | V::Tuple(_) | V::Bytes(_), n) if is_intlike(n) => {
                self.repeat(a, n)
            }
            (O::Mult, n, V::Str(_) | V::List(_) | V::Tuple(_) | V::Bytes(_)) if is_intlike(n) => {
                self.repeat(b, n)
            }
            (O::Mod, V::Str(fmt), args) => Ok(V::str_rc(Rc::from(self.percent_format(fmt, args)?))),
            (
                O::Sub | O::BitAnd | O::BitOr | O::BitXor,
                V::Set(_) | V::FrozenSet(_),
                V::Set(_) | V::FrozenSet(_),
            ) => {
                if let Some(v) = self.set_binop_cpython(op, a, b)? {
                    return Ok(v);
                }
                let xs = self.set_items(a);
                let ys = self.set_items(b);
                let mut out = Vec::new();
                match op {
                    O::Sub => {
                        for x in xs {
                            if !self.contains(b, &x)? {
                                out.push(x);
                            }
                        }
                    }
                    O::BitAnd => {
                        for x in xs {
                            if self.contains(b, &x)? {
                                out.push(x);
                            }
                        }
                    }
                    O::BitOr => {
                        out = xs;
                        out.extend(ys);
                    }
                    _ => {
                        for x in xs {
                            if !self.contains(b, &x)? {
                                out.push(x);
                            }
                        }
                        for y in ys {
                            if !self.contains(a, &y)? {
                                out.push(y);
                            }
                        }
                    }
                }
                let s = self.new_set(out)?;
                if matches!(a, V::FrozenSet(_)) {
                    let inner = s.borrow().clone();
                    Ok(V::FrozenSet(Rc::new(inner)))
                } else {
                    Ok(V::Set(s))
                }
            }
            (O::BitOr, V::Dict(x), V::Dict(y)) => {
                let d = self.new_dict_from(x.borrow().clone());
                let pairs: Vec<_> =
                    y.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                for (k, v) in pairs {
                    self.dict_set(&d, k, v)?;
                }
                Ok(V::Dict(d))
            }
            _ => Err(self.unsupported_operands(op, a, b)),
        }
    }

    /// `complex` arithmetic as CPython's `complexobject.c` computes it (`//` and `%` are undefined).
    pub(super) fn complex_binop(
        &mut self,
        op: ast::Operator,
        x: (f64, f64),
        y: (f64, f64),
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        use ast::Operator as O;
        let r = match op {
            O::Add => (x.0 + y.0, x.1 + y.1),
            O::Sub => (x.0 - y.0, x.1 - y.1),
            O::Mult => c_prod(x, y),
            O::Div => match c_quot(x, y) {
                Some(r) => r,
                None => {
                    return Err(self.err(ExcKind::ZeroDivisionError, "complex division by zero"))
                }
            },
            O::Pow => {
                let r = if y.1 == 0.0 && y.0 == y.0.floor() && y.0.abs() <= 100.0 {
                    c_powi(x, y.0 as i64)
                } else {
                    c_pow(x, y)
                };
                match r {
                    Some(r) if r.0.is_infinite() || r.1.is_infinite() => {
                        return Err(self.err(ExcKind::OverflowError, "complex exponentiation"));
                    }
                    Some(r) => r,
                    None => {
                        return Err(self
                            .err(ExcKind::ZeroDivisionError, "0.0 to a negative or complex power"))
                    }
                }
            }
            _ => return Err(self.unsupported_operands(op, a, b)),
        };
        Ok(Value::Complex(r.0, r.1))
    }

    pub(super) fn unsupported_operands(
        &self,
        op: ast::Operator,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> Box<PyErr<'a>> {
        self.err(ExcKind::TypeError, self.unsupported_message(op_symbol(op), a, b))
    }

    /// `unsupported operand type(s) for SYMBOL: 'A' and 'B'`, CPython's `binop_type_error`.
    fn unsupported_message(&self, symbol: &str, a: &Value<'a>, b: &Value<'a>) -> String {
        format!(
            "unsupported operand type(s) for {symbol}: '{}' and '{}'",
            self.type_name(a),
            self.type_name(b)
        )
    }

    /// The error of an augmented assignment whose binary fallback failed: CPython names the
    /// in-place operator (`unsupported operand type(s) for +=: 'int' and 'str'`, `**=` for `**`)
    /// when neither side supports it, and `PyNumber_InPlaceMultiply` does not retry a left
    /// operand that has sequence methods but no repeat (a dict, set, range, view, any instance
    /// of a Python class) as the right operand's count; every other error passes unchanged.
    pub(crate) fn inplace_error(
        &self,
        e: Box<PyErr<'a>>,
        op: ast::Operator,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> Box<PyErr<'a>> {
        let Value::Instance(i) = &e.exc else { return e };
        if e.fatal || &*i.class.name != "TypeError" || i.class.kind != ClassKind::Exception {
            return e;
        }
        let message = i.exc.as_ref().and_then(|x| match x.borrow().args.as_slice() {
            [Value::Str(m)] => Some(m.clone()),
            _ => None,
        });
        let Some(message) = message else { return e };
        let unsupported = *message == *self.unsupported_message(op_symbol(op), a, b);
        let not_retried = matches!(op, ast::Operator::Mult)
            && *message
                == *format!("can't multiply sequence by non-int of type '{}'", self.type_name(a))
            && matches!(
                a,
                Value::Dict(_)
                    | Value::Set(_)
                    | Value::FrozenSet(_)
                    | Value::Range(..)
                    | Value::DictView(..)
                    | Value::Instance(_)
                    | Value::Node(_)
            );
        if unsupported || not_retried {
            // `**` is `** or pow()` in the binary message, plain `**=` in place.
            let base = if matches!(op, ast::Operator::Pow) { "**" } else { op_symbol(op) };
            self.err(ExcKind::TypeError, self.unsupported_message(&format!("{base}="), a, b))
        } else {
            e
        }
    }

    pub(super) fn repeat(&mut self, seq: &Value<'a>, n: &Value<'a>) -> PyResult<'a, Value<'a>> {
        let n = match to_big(n).and_then(|b| b.to_i64()) {
            Some(n) => n.max(0) as usize,
            None => {
                return Err(self
                    .err(ExcKind::OverflowError, "cannot fit 'int' into an index-sized integer"))
            }
        };
        // An empty list or tuple repeats to itself at once, as in CPython: `[] * 10**18` must
        // not loop 10**18 times (found by the `interp` fuzz target).
        let n = if matches!(seq, Value::List(l) if l.borrow().is_empty())
            || matches!(seq, Value::Tuple(t) if t.is_empty())
        {
            0
        } else {
            n
        };
        match seq {
            Value::Str(s) => {
                self.check_len(s.len().saturating_mul(n))?;
                Ok(Value::str_rc(Rc::from(s.repeat(n))))
            }
            Value::Bytes(s) => {
                self.check_len(s.len().saturating_mul(n))?;
                Ok(Value::bytes_rc(Rc::from(s.repeat(n))))
            }
            Value::List(l) => {
                let items = l.borrow().clone();
                self.check_len(items.len().saturating_mul(n))?;
                self.check_bytes(
                    (items.len().saturating_mul(n) as u64)
                        .saturating_mul(crate::interp::memory::SLOT_BYTES),
                )?;
                let mut out = Vec::with_capacity(items.len() * n);
                for _ in 0..n {
                    out.extend(items.iter().cloned());
                }
                Ok(self.new_list(out))
            }
            Value::Tuple(t) => {
                self.check_len(t.len().saturating_mul(n))?;
                self.check_bytes(
                    (t.len().saturating_mul(n) as u64)
                        .saturating_mul(crate::interp::memory::SLOT_BYTES),
                )?;
                let mut out = Vec::with_capacity(t.len() * n);
                for _ in 0..n {
                    out.extend(t.iter().cloned());
                }
                Ok(Value::tuple(out))
            }
            _ => Ok(Value::None),
        }
    }

    pub(super) fn int_binop(
        &mut self,
        op: ast::Operator,
        x: BigInt,
        y: BigInt,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        use ast::Operator as O;
        Ok(match op {
            O::Add => Value::from_bigint(x + y),
            O::Sub => Value::from_bigint(x - y),
            O::Mult => {
                if x.bits() + y.bits() > 1 << 20 {
                    return Err(self.err(ExcKind::MemoryError, ""));
                }
                Value::from_bigint(x * y)
            }
            O::Div => {
                if y.is_zero() {
                    return Err(self.err(ExcKind::ZeroDivisionError, "division by zero"));
                }
                Value::Float(x.to_f64().unwrap_or(f64::NAN) / y.to_f64().unwrap_or(f64::NAN))
            }
            O::FloorDiv => {
                if y.is_zero() {
                    return Err(
                        self.err(ExcKind::ZeroDivisionError, "integer division or modulo by zero")
                    );
                }
                Value::from_bigint(x.div_floor(&y))
            }
            O::Mod => {
                if y.is_zero() {
                    return Err(self.err(ExcKind::ZeroDivisionError, "integer modulo by zero"));
                }
                Value::from_bigint(x.mod_floor(&y))
            }
            O::Pow => {
                if y.is_negative() {
                    if x.is_zero() {
                        return Err(self.err(
                            ExcKind::ZeroDivisionError,
                            "0.0 cannot be raised to a negative power",
                        ));
                    }
                    Value::Float(x.to_f64().unwrap_or(0.0).powf(y.to_f64().unwrap_or(0.0)))
                } else {
                    let e = y.to_u32().unwrap_or(u32::MAX);
                    if x.bits().saturating_mul(u64::from(e)) > 1 << 20 && x.bits() > 1 {
                        return Err(self.err(ExcKind::MemoryError, ""));
                    }
                    Value::from_bigint(num_traits::pow(x, e as usize))
                }
            }
            O::LShift => {
                let s = y.to_u32().unwrap_or(u32::MAX);
                if y.is_negative() {
                    return Err(self.err(ExcKind::ValueError, "negative shift count"));
                }
                if s > 1 << 20 {
                    return Err(self.err(ExcKind::MemoryError, ""));
                }
                Value::from_bigint(x << s)
            }
            O::RShift => {
                if y.is_negative() {
                    return Err(self.err(ExcKind::ValueError, "negative shift count"));
                }
                let s = y.to_u32().unwrap_or(u32::MAX);
                Value::from_bigint(x >> s.min(1 << 24))
            }
            O::BitAnd => {
                if let (Value::Bool(p), Value::Bool(q)) = (a, b) {
                    return Ok(Value::Bool(*p && *q));
                }
                Value::from_bigint(x & y)
            }
            O::BitOr => {
                if let (Value::Bool(p), Value::Bool(q)) = (a, b) {
                    return Ok(Value::Bool(*p || *q));
                }
                Value::from_bigint(x | y)
            }
            O::BitXor => {
                if let (Value::Bool(p), Value::Bool(q)) = (a, b) {
                    return Ok(Value::Bool(*p != *q));
                }
                Value::from_bigint(x ^ y)
            }
            O::MatMult => return Err(self.unsupported_operands(op, a, b)),
        })
    }
}
