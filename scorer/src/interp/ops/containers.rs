//! Equality, hashing, and the dict and set primitives built on them (`find`, `get`, `set`,
//! `del`, `add`), and the `in` operator.

use super::{as_f64, int_of, is_intlike, is_num, range_len, to_big, user_dunder};
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use crate::python::syntax as ast;
use num_bigint::BigInt;
use num_traits::Signed;
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub fn py_eq(&mut self, a: &Value<'a>, b: &Value<'a>) -> PyResult<'a, bool> {
        use Value as V;
        Ok(match (a, b) {
            (V::Str(x), V::Str(y)) => x == y,
            (V::Int(x), V::Int(y)) => x == y,
            (V::None, V::None) => true,
            (x, y) if is_num(x) && is_num(y) => {
                if is_intlike(x) && is_intlike(y) {
                    to_big(x) == to_big(y)
                } else {
                    match (x, y) {
                        (V::Big(bx), V::Float(f)) | (V::Float(f), V::Big(bx)) => {
                            f.is_finite() && f.fract() == 0.0 && BigInt::from(*f as i128) == **bx
                        }
                        _ => as_f64(x) == as_f64(y),
                    }
                }
            }
            (V::Bytes(x), V::Bytes(y)) => x == y,
            (V::Complex(r, i), V::Complex(r2, i2)) => r == r2 && i == i2,
            (V::Complex(r, i), n) | (n, V::Complex(r, i)) if is_num(n) => {
                *i == 0.0 && self.py_eq(&V::Float(*r), n)?
            }
            (V::List(x), V::List(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ok(true);
                }
                let (xv, yv) = (x.borrow().clone(), y.borrow().clone());
                self.seq_eq(&xv, &yv)?
            }
            (V::Tuple(x), V::Tuple(y)) => self.seq_eq(x, y)?,
            (V::Dict(x), V::Dict(y)) => {
                if Rc::ptr_eq(x, y) {
                    return Ok(true);
                }
                let xd = x.borrow().clone();
                if xd.len != y.borrow().len {
                    return Ok(false);
                }
                // Each nesting level counts as CPython's `Py_EnterRecursiveCall(" in comparison")`.
                self.c_level(" in comparison", |it| {
                    for (k, v) in xd.iter() {
                        match it.dict_get(y, k)? {
                            Some(v2) => {
                                if !it.py_eq(v, &v2)? {
                                    return Ok(false);
                                }
                            }
                            None => return Ok(false),
                        }
                    }
                    Ok(true)
                })?
            }
            // Sets, frozensets and keys views compare as sets with one another.
            (
                V::Set(_) | V::FrozenSet(_) | V::DictView(_, 0 | 2),
                V::Set(_) | V::FrozenSet(_) | V::DictView(_, 0 | 2),
            ) => {
                let xs = self.set_items(a);
                let ys = self.set_items(b);
                if xs.len() != ys.len() {
                    return Ok(false);
                }
                for x in &xs {
                    if !self.contains(b, x)? {
                        return Ok(false);
                    }
                }
                true
            }
            (V::Range(r1), V::Range(r2)) => {
                let ([a1, b1, s1], [a2, b2, s2]) = (**r1, **r2);
                let (l1, l2) = (range_len(a1, b1, s1), range_len(a2, b2, s2));
                l1 == l2 && (l1 == 0 || (a1 == a2 && (l1 == 1 || s1 == s2)))
            }
            (V::Instance(_), _) | (_, V::Instance(_))
                if user_dunder(a, "__eq__").is_some() || user_dunder(b, "__eq__").is_some() =>
            {
                let r = self.rich_compare(ast::CmpOp::Eq, a, b)?;
                self.truthy(&r)?
            }
            (V::Native(x), V::Native(y))
                if matches!((&**x, &**y), (Native::Union(_), Native::Union(_))) =>
            {
                // `union_richcompare`: the member sets are equal.
                match (&**x, &**y) {
                    (Native::Union(p), Native::Union(q)) => {
                        p.iter().all(|t| q.iter().any(|u| t.is(u)))
                            && q.iter().all(|t| p.iter().any(|u| t.is(u)))
                    }
                    _ => false,
                }
            }
            (V::Slice(x), V::Slice(y)) => {
                self.py_eq(&x[0], &y[0])?
                    && self.py_eq(&x[1], &y[1])?
                    && self.py_eq(&x[2], &y[2])?
            }
            _ => a.is(b),
        })
    }

    pub(super) fn seq_eq(&mut self, x: &[Value<'a>], y: &[Value<'a>]) -> PyResult<'a, bool> {
        if x.len() != y.len() {
            return Ok(false);
        }
        // Each nesting level counts as CPython's `Py_EnterRecursiveCall(" in comparison")`.
        self.c_level(" in comparison", |it| {
            for (p, q) in x.iter().zip(y.iter()) {
                if !(p.is(q) || it.py_eq(p, q)?) {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    pub fn hash(&mut self, v: &Value<'a>) -> PyResult<'a, u64> {
        Ok(match v {
            Value::None => 0x5bd1e995,
            Value::Bool(b) => u64::from(*b),
            Value::Int(i) => *i as u64,
            Value::Big(b) => hash_bytes(b.to_string().as_bytes()),
            Value::Float(f) => {
                if f.fract() == 0.0 && f.abs() < 9.2e18 {
                    *f as i64 as u64
                } else {
                    f.to_bits()
                }
            }
            // Equal to the hash of the real part when the imaginary part is 0 (`1+0j == 1`).
            Value::Complex(r, i) => {
                let hr = self.hash(&Value::Float(*r))?;
                if *i == 0.0 {
                    hr
                } else {
                    hr.wrapping_add(self.hash(&Value::Float(*i))?.wrapping_mul(1_000_003))
                }
            }
            Value::Str(s) => hash_bytes(s.as_bytes()),
            Value::Bytes(b) => hash_bytes(b) ^ 0x9e37_79b9,
            Value::Tuple(t) => {
                // CPython's tuple hash recurses unchecked (a deep enough tuple crashes it); here
                // the native stack is guarded and the error named.
                if self.stack_used() > self.limits.stack_budget {
                    return Err(self.err(
                        ExcKind::RecursionError,
                        "maximum recursion depth exceeded while hashing a tuple",
                    ));
                }
                let mut h: u64 = 0x345678;
                for x in t.iter() {
                    h = (h ^ self.hash(x)?).wrapping_mul(1_000_003).rotate_left(7);
                }
                h
            }
            Value::FrozenSet(s) => {
                let mut h: u64 = 0x1f2e3d;
                for (_, _, eh) in s.entries.iter().flatten() {
                    h ^= eh.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                }
                h
            }
            Value::Range(r) => (r[0] as u64) ^ ((r[1] as u64) << 7) ^ ((r[2] as u64) << 13),
            Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::DictView(..) => {
                return Err(self
                    .err(ExcKind::TypeError, format!("unhashable type: '{}'", self.type_name(v))))
            }
            Value::Slice(_) => return Err(self.err(ExcKind::TypeError, "unhashable type: 'slice'")),
            Value::Ellipsis => 0xe111,
            Value::NotImplemented => 0xe112,
            Value::AstClass(c) => hash_bytes(c.name().as_bytes()),
            // `union_hash`: of the member set, so `int | str` and `str | int` agree.
            Value::Native(n) if matches!(&**n, Native::Union(_)) => {
                let mut h: u64 = 0x5a17;
                if let Native::Union(args) = &**n {
                    for a in args {
                        h ^= self.hash(a)?.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                    }
                }
                h
            }
            Value::Instance(i) if i.exc.is_none() => {
                // A user `__hash__`; a class defining `__eq__` without it is unhashable.
                let mro = i.class.mro.borrow().clone();
                for k in &mro {
                    let d = k.dict.borrow();
                    if let Some(h) = d.get("__hash__").cloned() {
                        drop(d);
                        if h.is_none() {
                            break;
                        }
                        let r = self.call(&h, vec![v.clone()], vec![])?;
                        return match r {
                            Value::Int(n) => Ok(n as u64),
                            Value::Bool(b) => Ok(u64::from(b)),
                            Value::Big(b) => Ok(hash_bytes(b.to_string().as_bytes())),
                            _ => Err(self.err(
                                ExcKind::TypeError,
                                "__hash__ method should return an integer",
                            )),
                        };
                    }
                    if d.contains_key("__eq__") {
                        drop(d);
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!("unhashable type: '{}'", self.type_name(v)),
                        ));
                    }
                }
                v.addr() as u64
            }
            _ => v.addr() as u64,
        })
    }

    pub fn dict_find(
        &mut self,
        d: &Rc<Mut<PyDict<'a>>>,
        k: &Value<'a>,
    ) -> PyResult<'a, (u64, Option<usize>)> {
        let h = self.hash(k)?;
        let cands: Vec<(usize, Value<'a>)> = {
            let dd = d.borrow();
            match dd.index.get(&h) {
                None => return Ok((h, None)),
                Some(slots) => slots
                    .iter()
                    .filter_map(|&i| {
                        dd.entries[i as usize].as_ref().map(|(kk, _, _)| (i as usize, kk.clone()))
                    })
                    .collect(),
            }
        };
        for (i, kk) in cands {
            if kk.is(k) || self.py_eq(&kk, k)? {
                return Ok((h, Some(i)));
            }
        }
        Ok((h, None))
    }

    pub fn dict_get(
        &mut self,
        d: &Rc<Mut<PyDict<'a>>>,
        k: &Value<'a>,
    ) -> PyResult<'a, Option<Value<'a>>> {
        let (_, slot) = self.dict_find(d, k)?;
        Ok(slot.and_then(|i| d.borrow().entries[i].as_ref().map(|(_, v, _)| v.clone())))
    }

    pub fn dict_set(
        &mut self,
        d: &Rc<Mut<PyDict<'a>>>,
        k: Value<'a>,
        v: Value<'a>,
    ) -> PyResult<'a, ()> {
        let (h, slot) = self.dict_find(d, &k)?;
        match slot {
            Some(i) => {
                if let Some(e) = d.borrow_mut().entries[i].as_mut() {
                    e.1 = v;
                }
            }
            None => {
                self.check_len(d.borrow().len + 1)?;
                d.borrow_mut().insert_new(k, v, h);
            }
        }
        Ok(())
    }

    pub fn dict_del(
        &mut self,
        d: &Rc<Mut<PyDict<'a>>>,
        k: &Value<'a>,
    ) -> PyResult<'a, Option<Value<'a>>> {
        let (_, slot) = self.dict_find(d, k)?;
        Ok(slot.and_then(|i| d.borrow_mut().remove_slot(i).map(|(_, v)| v)))
    }

    pub fn set_add(&mut self, s: &Rc<Mut<PyDict<'a>>>, k: Value<'a>) -> PyResult<'a, ()> {
        let (h, slot) = self.dict_find(s, &k)?;
        if slot.is_none() {
            self.check_len(s.borrow().len + 1)?;
            s.borrow_mut().insert_new(k, Value::None, h);
        }
        Ok(())
    }

    pub fn set_items(&self, v: &Value<'a>) -> Vec<Value<'a>> {
        match v {
            Value::Set(s) => crate::interp::cpyhash::ordered_keys(&s.borrow()),
            Value::FrozenSet(s) => crate::interp::cpyhash::ordered_keys(s),
            Value::Dict(d) | Value::DictView(d, 0) => d.borrow().keys(),
            Value::DictView(d, 2) => {
                d.borrow().iter().map(|(k, v)| Value::tuple(vec![k.clone(), v.clone()])).collect()
            }
            _ => vec![],
        }
    }

    /// The table of a set's elements (for a frozenset made of a set).
    pub(super) fn set_items_dict(&self, v: &Value<'a>) -> PyDict<'a> {
        match v {
            Value::Set(s) => s.borrow().clone(),
            Value::FrozenSet(s) => (**s).clone(),
            _ => PyDict::new(),
        }
    }

    pub fn new_set(&mut self, items: Vec<Value<'a>>) -> PyResult<'a, Rc<Mut<PyDict<'a>>>> {
        let s = self.new_dict();
        for it in items {
            self.set_add(&s, it)?;
        }
        Ok(s)
    }

    pub fn contains(&mut self, container: &Value<'a>, item: &Value<'a>) -> PyResult<'a, bool> {
        match container {
            Value::Str(s) => match item {
                Value::Str(i) => Ok(s.contains(&**i)),
                _ => Err(self.err(
                    ExcKind::TypeError,
                    format!(
                        "'in <string>' requires string as left operand, not {}",
                        self.type_name(item)
                    ),
                )),
            },
            Value::Bytes(b) => match item {
                Value::Bytes(i) => Ok(i.is_empty() || b.windows(i.len()).any(|w| w == &i[..])),
                Value::Int(_) | Value::Bool(_) | Value::Big(_) => match int_of(item) {
                    Some(n) if (0..256).contains(&n) => Ok(b.iter().any(|x| i64::from(*x) == n)),
                    _ => Err(self.err(ExcKind::ValueError, "byte must be in range(0, 256)")),
                },
                _ => Err(self.err(
                    ExcKind::TypeError,
                    format!("a bytes-like object is required, not '{}'", self.type_name(item)),
                )),
            },
            Value::List(l) => {
                let items = l.borrow().clone();
                for x in &items {
                    if x.is(item) || self.py_eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Tuple(t) => {
                for x in t.iter() {
                    if x.is(item) || self.py_eq(x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Set(d) if matches!(item, Value::Set(_)) => {
                // `set_contains` retries an unhashable set key as a frozenset.
                let key = Value::FrozenSet(Rc::new(self.set_items_dict(item)));
                Ok(self.dict_find(d, &key)?.1.is_some())
            }
            Value::Dict(d) | Value::Set(d) | Value::DictView(d, 0) => {
                Ok(self.dict_find(d, item)?.1.is_some())
            }
            Value::DictView(d, m) => {
                let it = Value::iter(PyIter::DictKeys {
                    d: d.clone(),
                    idx: 0,
                    len: d.borrow().len,
                    mode: *m,
                });
                for x in self.to_vec(&it)? {
                    if x.is(item) || self.py_eq(&x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::FrozenSet(d) => {
                let tmp = Rc::new(Mut::new((**d).clone()));
                if matches!(item, Value::Set(_)) {
                    let key = Value::FrozenSet(Rc::new(self.set_items_dict(item)));
                    return Ok(self.dict_find(&tmp, &key)?.1.is_some());
                }
                Ok(self.dict_find(&tmp, item)?.1.is_some())
            }
            Value::Range(range) => Ok(
                match int_of(item).or_else(|| match item {
                    // Not an int: `range` falls back to equality, which only integral numbers meet.
                    Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e18 => Some(*f as i64),
                    Value::Complex(r, 0.0) if r.fract() == 0.0 && r.abs() < 9.0e18 => {
                        Some(*r as i64)
                    }
                    _ => None,
                }) {
                    Some(n) => {
                        let [a, b, s] = **range;
                        let in_bounds = if s > 0 { n >= a && n < b } else { n <= a && n > b };
                        in_bounds && (n - a) % s == 0
                    }
                    None => false,
                },
            ),
            Value::Iter(_) => {
                while let Some(x) = self.next(container)? {
                    if x.is(item) || self.py_eq(&x, item)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Value::Instance(i) if i.class.lookup("__contains__").is_some() => {
                let m = i.class.lookup("__contains__").unwrap_or(Value::None);
                let r = self.call(&m, vec![container.clone(), item.clone()], vec![])?;
                self.truthy(&r)
            }
            _ => Err(self.err(
                ExcKind::TypeError,
                format!("argument of type '{}' is not iterable", self.type_name(container)),
            )),
        }
    }
}
