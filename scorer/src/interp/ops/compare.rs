//! Comparison operators: rich comparison with the reflected dunder, the builtin orderings of
//! numbers, strings and sequences, and set inclusion.

use super::{as_f64, cmp_symbol, is_intlike, is_num, to_big, user_dunder};
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use crate::python::syntax as ast;
use std::cmp::Ordering;
use std::rc::Rc;

impl<'a> Interp<'a> {
    /// `a op b` as a bool (what `sorted`, `min` and containers ask).
    pub fn compare(&mut self, op: ast::CmpOp, a: &Value<'a>, b: &Value<'a>) -> PyResult<'a, bool> {
        use ast::CmpOp as C;
        match op {
            C::Is => Ok(a.is(b)),
            C::IsNot => Ok(!a.is(b)),
            C::In => self.contains(b, a),
            C::NotIn => Ok(!self.contains(b, a)?),
            _ => match self.rich_compare(op, a, b)? {
                Value::Bool(t) => Ok(t),
                r => self.truthy(&r),
            },
        }
    }

    /// `a op b` as CPython's rich comparison: a user `__eq__`/`__lt__`/... result is returned
    /// as it is (not made a bool); the reflected dunder is tried when the first gives
    /// `NotImplemented` (first when the right operand's class subclasses the left's), then
    /// identity for `==`/`!=` and a TypeError for ordering.
    pub fn rich_compare(
        &mut self,
        op: ast::CmpOp,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        use ast::CmpOp as C;
        if let (Value::Int(x), Value::Int(y)) = (a, b) {
            // The common case, without the dunder look-ups.
            let r = match op {
                C::Eq => x == y,
                C::NotEq => x != y,
                C::Lt => x < y,
                C::LtE => x <= y,
                C::Gt => x > y,
                C::GtE => x >= y,
                _ => return Ok(Value::Bool(self.compare(op, a, b)?)),
            };
            return Ok(Value::Bool(r));
        }
        let (name, refl) = match op {
            C::Eq => ("__eq__", "__eq__"),
            C::NotEq => ("__ne__", "__ne__"),
            C::Lt => ("__lt__", "__gt__"),
            C::LtE => ("__le__", "__ge__"),
            C::Gt => ("__gt__", "__lt__"),
            C::GtE => ("__ge__", "__le__"),
            _ => return Ok(Value::Bool(self.compare(op, a, b)?)),
        };
        let has = |v: &Value<'a>, m: &str| {
            user_dunder(v, m).is_some() || (m == "__ne__" && user_dunder(v, "__eq__").is_some())
        };
        if !has(a, name) && !has(b, refl) {
            if !matches!(op, C::Eq | C::NotEq) {
                // `list_richcompare`/`tuplerichcompare`: the first items that differ decide,
                // with their own comparison's result.
                let seqs = match (a, b) {
                    (Value::List(x), Value::List(y)) => {
                        Some((Rc::new(x.borrow().clone()), Rc::new(y.borrow().clone())))
                    }
                    (Value::Tuple(x), Value::Tuple(y)) => {
                        Some((Rc::new(x.to_vec()), Rc::new(y.to_vec())))
                    }
                    _ => None,
                };
                if let Some((x, y)) = seqs {
                    for (p, q) in x.iter().zip(y.iter()) {
                        if !(p.is(q) || self.py_eq(p, q)?) {
                            return self.rich_compare(op, p, q);
                        }
                    }
                    let ord = x.len().cmp(&y.len());
                    return Ok(Value::Bool(match op {
                        C::Lt => ord == Ordering::Less,
                        C::LtE => ord != Ordering::Greater,
                        C::Gt => ord == Ordering::Greater,
                        _ => ord != Ordering::Less,
                    }));
                }
            }
            return Ok(Value::Bool(self.builtin_compare(op, a, b)?));
        }
        let b_first = match (a, b) {
            (Value::Instance(x), Value::Instance(y)) => {
                !Rc::ptr_eq(&x.class, &y.class) && y.class.is_subclass(&x.class)
            }
            _ => false,
        };
        let tries =
            if b_first { [(b, a, refl), (a, b, name)] } else { [(a, b, name), (b, a, refl)] };
        for (x, y, m) in tries {
            if let Some(r) = self.try_dunder(x, y, m)? {
                return Ok(r);
            }
        }
        match op {
            C::Eq => Ok(Value::Bool(a.is(b))),
            C::NotEq => Ok(Value::Bool(!a.is(b))),
            _ => Err(self.err(
                ExcKind::TypeError,
                format!(
                    "'{}' not supported between instances of '{}' and '{}'",
                    cmp_symbol(op),
                    self.type_name(a),
                    self.type_name(b)
                ),
            )),
        }
    }

    /// `x.m(y)` for a user dunder, None when absent or `NotImplemented`; a missing `__ne__`
    /// inverts `__eq__` as `object.__ne__` does.
    pub(super) fn try_dunder(
        &mut self,
        x: &Value<'a>,
        y: &Value<'a>,
        m: &str,
    ) -> PyResult<'a, Option<Value<'a>>> {
        let (f, invert) = match user_dunder(x, m) {
            Some(f) => (f, false),
            None if m == "__ne__" => match user_dunder(x, "__eq__") {
                Some(f) => (f, true),
                None => return Ok(None),
            },
            None => return Ok(None),
        };
        let r = self.call(&f, vec![x.clone(), y.clone()], vec![])?;
        if matches!(r, Value::NotImplemented) {
            return Ok(None);
        }
        if invert {
            return Ok(Some(Value::Bool(!self.truthy(&r)?)));
        }
        Ok(Some(r))
    }

    /// Comparison of values without user dunders.
    pub(super) fn builtin_compare(
        &mut self,
        op: ast::CmpOp,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, bool> {
        use ast::CmpOp as C;
        match op {
            C::Eq => self.py_eq(a, b),
            C::NotEq => Ok(!self.py_eq(a, b)?),
            C::Is | C::IsNot | C::In | C::NotIn => self.compare(op, a, b),
            _ => {
                let ord = self.order(op, a, b)?;
                Ok(match op {
                    C::Lt => ord == Ordering::Less,
                    C::LtE => ord != Ordering::Greater,
                    C::Gt => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                })
            }
        }
    }

    /// Three-way order for `<`-family comparisons (sets use subset order via special cases).
    pub fn order(
        &mut self,
        op: ast::CmpOp,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, Ordering> {
        use Value as V;
        match (a, b) {
            (V::Int(x), V::Int(y)) => Ok(x.cmp(y)),
            (x, y) if is_num(x) && is_num(y) => {
                if is_intlike(x) && is_intlike(y) {
                    Ok(to_big(x).cmp(&to_big(y)))
                } else {
                    let (fx, fy) = (as_f64(x).unwrap_or(0.0), as_f64(y).unwrap_or(0.0));
                    Ok(fx.partial_cmp(&fy).unwrap_or(Ordering::Equal))
                }
            }
            (V::Str(x), V::Str(y)) => Ok(x.cmp(y)),
            (V::Bytes(x), V::Bytes(y)) => Ok(x.cmp(y)),
            (V::List(x), V::List(y)) => {
                let (xv, yv) = (x.borrow().clone(), y.borrow().clone());
                self.seq_order(op, &xv, &yv)
            }
            (V::Tuple(x), V::Tuple(y)) => self.seq_order(op, x, y),
            (V::DictView(_, 0 | 2), V::Set(_) | V::FrozenSet(_) | V::DictView(_, 0 | 2))
            | (V::Set(_) | V::FrozenSet(_), V::DictView(_, 0 | 2)) => {
                let (x, y) = (self.as_set(a)?, self.as_set(b)?);
                self.order(op, &x, &y)
            }
            (V::Set(_) | V::FrozenSet(_), V::Set(_) | V::FrozenSet(_)) => {
                let sub = self.is_subset(a, b)?;
                let sup = self.is_subset(b, a)?;
                Ok(match (sub, sup) {
                    (true, true) => Ordering::Equal,
                    (true, false) => Ordering::Less,
                    (false, true) => Ordering::Greater,
                    // Incomparable: make every strict and non-strict comparison false.
                    _ => match op {
                        ast::CmpOp::Lt | ast::CmpOp::LtE => Ordering::Greater,
                        _ => Ordering::Less,
                    },
                })
            }
            _ => Err(self.err(
                ExcKind::TypeError,
                format!(
                    "'{}' not supported between instances of '{}' and '{}'",
                    cmp_symbol(op),
                    self.type_name(a),
                    self.type_name(b)
                ),
            )),
        }
    }

    /// A dict_keys view as a set (sets as they are).
    pub(super) fn as_set(&mut self, v: &Value<'a>) -> PyResult<'a, Value<'a>> {
        match v {
            Value::DictView(d, 0) => {
                let keys = d.borrow().keys();
                Ok(Value::Set(self.new_set(keys)?))
            }
            Value::DictView(_, 2) => {
                let pairs = self.set_items(v);
                Ok(Value::Set(self.new_set(pairs)?))
            }
            other => Ok(other.clone()),
        }
    }

    pub(super) fn seq_order(
        &mut self,
        op: ast::CmpOp,
        x: &[Value<'a>],
        y: &[Value<'a>],
    ) -> PyResult<'a, Ordering> {
        if self.stack_used() > self.limits.stack_budget {
            return Err(
                self.err(ExcKind::RecursionError, "maximum recursion depth exceeded in comparison")
            );
        }
        for (p, q) in x.iter().zip(y.iter()) {
            if !(p.is(q) || self.py_eq(p, q)?) {
                if matches!(p, Value::Instance(_)) || matches!(q, Value::Instance(_)) {
                    // The first differing items decide, through their own dunders.
                    let t = self.compare(op, p, q)?;
                    let less = matches!(op, ast::CmpOp::Lt | ast::CmpOp::LtE) == t;
                    return Ok(if less { Ordering::Less } else { Ordering::Greater });
                }
                return self.order(op, p, q);
            }
        }
        Ok(x.len().cmp(&y.len()))
    }

    pub fn is_subset(&mut self, a: &Value<'a>, b: &Value<'a>) -> PyResult<'a, bool> {
        for x in self.set_items(a) {
            if !self.contains(b, &x)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
}
