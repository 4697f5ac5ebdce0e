//! Operators, truthiness, equality, hashing, containers, iteration and static scope analysis.

use std::cmp::Ordering;
use std::rc::Rc;

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::python::syntax as ast;

use super::value::*;
use super::{Interp, PyErr, PyResult, Value};

pub fn to_big(v: &Value<'_>) -> Option<BigInt> {
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

fn is_intlike(v: &Value<'_>) -> bool {
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
    pub fn is_exc(&self, e: &PyErr<'a>, name: &str) -> bool {
        match &e.exc {
            Value::Instance(i) => i.class.is_subclass_named(name),
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
            Value::Range(a, b, s) => range_len(*a, *b, *s) > 0,
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
                for (k, v) in xd.iter() {
                    match self.dict_get(y, k)? {
                        Some(v2) => {
                            if !self.py_eq(v, &v2)? {
                                return Ok(false);
                            }
                        }
                        None => return Ok(false),
                    }
                }
                true
            }
            (V::Set(_) | V::FrozenSet(_), V::Set(_) | V::FrozenSet(_)) => {
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
            (V::DictView(_, 0), V::Set(_) | V::FrozenSet(_) | V::DictView(_, 0))
            | (V::Set(_) | V::FrozenSet(_), V::DictView(_, 0)) => {
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
            (V::Range(a1, b1, s1), V::Range(a2, b2, s2)) => {
                let (l1, l2) = (range_len(*a1, *b1, *s1), range_len(*a2, *b2, *s2));
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

    fn seq_eq(&mut self, x: &[Value<'a>], y: &[Value<'a>]) -> PyResult<'a, bool> {
        if x.len() != y.len() {
            return Ok(false);
        }
        for (p, q) in x.iter().zip(y.iter()) {
            if !(p.is(q) || self.py_eq(p, q)?) {
                return Ok(false);
            }
        }
        Ok(true)
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
            Value::Range(a, b, c) => (*a as u64) ^ ((*b as u64) << 7) ^ ((*c as u64) << 13),
            Value::List(_) | Value::Dict(_) | Value::Set(_) | Value::DictView(..) => {
                return Err(
                    self.err("TypeError", format!("unhashable type: '{}'", self.type_name(v)))
                )
            }
            Value::Slice(_) => return Err(self.err("TypeError", "unhashable type: 'slice'")),
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
                            _ => {
                                Err(self
                                    .err("TypeError", "__hash__ method should return an integer"))
                            }
                        };
                    }
                    if d.contains_key("__eq__") {
                        drop(d);
                        return Err(self.err(
                            "TypeError",
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
            Value::Set(s) => super::cpyhash::ordered_keys(&s.borrow()),
            Value::FrozenSet(s) => super::cpyhash::ordered_keys(s),
            Value::Dict(d) | Value::DictView(d, 0) => d.borrow().keys(),
            _ => vec![],
        }
    }

    /// The table of a set's elements (for a frozenset made of a set).
    fn set_items_dict(&self, v: &Value<'a>) -> PyDict<'a> {
        match v {
            Value::Set(s) => s.borrow().clone(),
            Value::FrozenSet(s) => (**s).clone(),
            _ => PyDict::new(),
        }
    }

    pub fn new_set(&mut self, items: Vec<Value<'a>>) -> PyResult<'a, Rc<Mut<PyDict<'a>>>> {
        let s = Rc::new(Mut::new(PyDict::new()));
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
                    "TypeError",
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
                    _ => Err(self.err("ValueError", "byte must be in range(0, 256)")),
                },
                _ => Err(self.err(
                    "TypeError",
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
            Value::Range(a, b, s) => Ok(
                match int_of(item).or_else(|| match item {
                    // Not an int: `range` falls back to equality, which only integral numbers meet.
                    Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e18 => Some(*f as i64),
                    Value::Complex(r, 0.0) if r.fract() == 0.0 && r.abs() < 9.0e18 => {
                        Some(*r as i64)
                    }
                    _ => None,
                }) {
                    Some(n) => {
                        let in_bounds = if *s > 0 { n >= *a && n < *b } else { n <= *a && n > *b };
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
                "TypeError",
                format!("argument of type '{}' is not iterable", self.type_name(container)),
            )),
        }
    }

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
                    (Value::Tuple(x), Value::Tuple(y)) => Some((x.clone(), y.clone())),
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
                "TypeError",
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
    fn try_dunder(
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
    fn builtin_compare(
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
            (V::DictView(_, 0), V::Set(_) | V::FrozenSet(_) | V::DictView(_, 0))
            | (V::Set(_) | V::FrozenSet(_), V::DictView(_, 0)) => {
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
                "TypeError",
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
    fn as_set(&mut self, v: &Value<'a>) -> PyResult<'a, Value<'a>> {
        match v {
            Value::DictView(d, 0) => {
                let keys = d.borrow().keys();
                Ok(Value::Set(self.new_set(keys)?))
            }
            other => Ok(other.clone()),
        }
    }

    fn seq_order(
        &mut self,
        op: ast::CmpOp,
        x: &[Value<'a>],
        y: &[Value<'a>],
    ) -> PyResult<'a, Ordering> {
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
                    "TypeError",
                    format!("bad operand type for unary -: '{}'", self.type_name(v)),
                )),
            },
            U::UAdd => match v {
                Value::Int(_) | Value::Big(_) | Value::Float(_) | Value::Complex(..) => {
                    Ok(v.clone())
                }
                Value::Bool(b) => Ok(Value::Int(i64::from(*b))),
                _ => Err(self.err(
                    "TypeError",
                    format!("bad operand type for unary +: '{}'", self.type_name(v)),
                )),
            },
            U::Invert => match to_big(v) {
                Some(b) => Ok(Value::from_bigint(-b - 1)),
                None => Err(self.err(
                    "TypeError",
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
        if matches!(op, O::BitOr) {
            if let Some(u) = union_of(a, b) {
                return Ok(u);
            }
        }
        if matches!(op, O::Sub | O::BitAnd | O::BitOr | O::BitXor)
            && (matches!(a, Value::DictView(_, 0)) || matches!(b, Value::DictView(_, 0)))
        {
            // `dictviews_sub` and friends: both operands as sets, any iterable accepted.
            let mut sides = Vec::with_capacity(2);
            for v in [a, b] {
                let items = match v {
                    Value::Set(_) | Value::FrozenSet(_) => self.set_items(v),
                    Value::DictView(d, 0) => d.borrow().keys(),
                    other => {
                        let it = self.get_iter(other)?;
                        self.to_vec(&it)?
                    }
                };
                sides.push(Value::Set(self.new_set(items)?));
            }
            return self.binop(op, &sides[0], &sides[1]);
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
                        Err(self.err("ZeroDivisionError", "float division by zero"))
                    } else {
                        Ok(V::Float(x / y))
                    }
                }
                O::FloorDiv => {
                    if y == 0.0 {
                        Err(self.err("ZeroDivisionError", "float floor division by zero"))
                    } else {
                        Ok(V::Float((x / y).floor()))
                    }
                }
                O::Mod => {
                    if y == 0.0 {
                        Err(self.err("ZeroDivisionError", "float modulo"))
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
                        return Err(self
                            .err("ZeroDivisionError", "0.0 cannot be raised to a negative power"));
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
                Ok(V::Str(Rc::from(s)))
            }
            (O::Add, V::Str(_), _) => Err(self.err(
                "TypeError",
                format!("can only concatenate str (not \"{}\") to str", self.type_name(b)),
            )),
            (O::Add, V::List(x), V::List(y)) => {
                let mut v = x.borrow().clone();
                v.extend(y.borrow().iter().cloned());
                self.check_len(v.len())?;
                Ok(V::list(v))
            }
            (O::Add, V::List(_), _) => Err(self.err(
                "TypeError",
                format!("can only concatenate list (not \"{}\") to list", self.type_name(b)),
            )),
            (O::Add, V::Tuple(x), V::Tuple(y)) => {
                let mut v = (**x).clone();
                v.extend(y.iter().cloned());
                self.check_len(v.len())?;
                Ok(V::tuple(v))
            }
            (O::Add, V::Tuple(_), _) => Err(self.err(
                "TypeError",
                format!("can only concatenate tuple (not \"{}\") to tuple", self.type_name(b)),
            )),
            (O::Add, V::Bytes(x), V::Bytes(y)) => {
                let mut v = x.to_vec();
                v.extend_from_slice(y);
                Ok(V::Bytes(Rc::from(v)))
            }
            (O::Add, V::Bytes(_), _) => {
                Err(self.err("TypeError", format!("can't concat {} to bytes", self.type_name(b))))
            }
            (O::Mod, V::Bytes(fmt), args) if !fmt.contains(&b'%') => {
                let unused = match args {
                    V::Tuple(t) => !t.is_empty(),
                    V::Dict(_) | V::List(_) | V::Range(..) => false,
                    V::Instance(i) => i.class.lookup("__getitem__").is_none(),
                    _ => true,
                };
                if unused {
                    return Err(self
                        .err("TypeError", "not all arguments converted during bytes formatting"));
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
                    "TypeError",
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
            (O::Mod, V::Str(fmt), args) => Ok(V::Str(Rc::from(self.percent_format(fmt, args)?))),
            (
                O::Sub | O::BitAnd | O::BitOr | O::BitXor,
                V::Set(_) | V::FrozenSet(_),
                V::Set(_) | V::FrozenSet(_),
            ) => {
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
                let d = Rc::new(Mut::new(x.borrow().clone()));
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
    fn complex_binop(
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
                None => return Err(self.err("ZeroDivisionError", "complex division by zero")),
            },
            O::Pow => {
                let r = if y.1 == 0.0 && y.0 == y.0.floor() && y.0.abs() <= 100.0 {
                    c_powi(x, y.0 as i64)
                } else {
                    c_pow(x, y)
                };
                match r {
                    Some(r) if r.0.is_infinite() || r.1.is_infinite() => {
                        return Err(self.err("OverflowError", "complex exponentiation"));
                    }
                    Some(r) => r,
                    None => {
                        return Err(
                            self.err("ZeroDivisionError", "0.0 to a negative or complex power")
                        )
                    }
                }
            }
            _ => return Err(self.unsupported_operands(op, a, b)),
        };
        Ok(Value::Complex(r.0, r.1))
    }

    fn unsupported_operands(
        &self,
        op: ast::Operator,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> Box<PyErr<'a>> {
        self.err(
            "TypeError",
            format!(
                "unsupported operand type(s) for {}: '{}' and '{}'",
                op_symbol(op),
                self.type_name(a),
                self.type_name(b)
            ),
        )
    }

    fn repeat(&mut self, seq: &Value<'a>, n: &Value<'a>) -> PyResult<'a, Value<'a>> {
        let n = match to_big(n).and_then(|b| b.to_i64()) {
            Some(n) => n.max(0) as usize,
            None => {
                return Err(
                    self.err("OverflowError", "cannot fit 'int' into an index-sized integer")
                )
            }
        };
        match seq {
            Value::Str(s) => {
                self.check_len(s.len().saturating_mul(n))?;
                Ok(Value::Str(Rc::from(s.repeat(n))))
            }
            Value::Bytes(s) => {
                self.check_len(s.len().saturating_mul(n))?;
                Ok(Value::Bytes(Rc::from(s.repeat(n))))
            }
            Value::List(l) => {
                let items = l.borrow().clone();
                self.check_len(items.len().saturating_mul(n))?;
                let mut out = Vec::with_capacity(items.len() * n);
                for _ in 0..n {
                    out.extend(items.iter().cloned());
                }
                Ok(Value::list(out))
            }
            Value::Tuple(t) => {
                self.check_len(t.len().saturating_mul(n))?;
                let mut out = Vec::with_capacity(t.len() * n);
                for _ in 0..n {
                    out.extend(t.iter().cloned());
                }
                Ok(Value::tuple(out))
            }
            _ => Ok(Value::None),
        }
    }

    fn int_binop(
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
                    return Err(self.err("MemoryError", ""));
                }
                Value::from_bigint(x * y)
            }
            O::Div => {
                if y.is_zero() {
                    return Err(self.err("ZeroDivisionError", "division by zero"));
                }
                Value::Float(x.to_f64().unwrap_or(f64::NAN) / y.to_f64().unwrap_or(f64::NAN))
            }
            O::FloorDiv => {
                if y.is_zero() {
                    return Err(self.err("ZeroDivisionError", "integer division or modulo by zero"));
                }
                Value::from_bigint(x.div_floor(&y))
            }
            O::Mod => {
                if y.is_zero() {
                    return Err(self.err("ZeroDivisionError", "integer modulo by zero"));
                }
                Value::from_bigint(x.mod_floor(&y))
            }
            O::Pow => {
                if y.is_negative() {
                    if x.is_zero() {
                        return Err(self
                            .err("ZeroDivisionError", "0.0 cannot be raised to a negative power"));
                    }
                    Value::Float(x.to_f64().unwrap_or(0.0).powf(y.to_f64().unwrap_or(0.0)))
                } else {
                    let e = y.to_u32().unwrap_or(u32::MAX);
                    if x.bits().saturating_mul(u64::from(e)) > 1 << 20 && x.bits() > 1 {
                        return Err(self.err("MemoryError", ""));
                    }
                    Value::from_bigint(num_traits::pow(x, e as usize))
                }
            }
            O::LShift => {
                let s = y.to_u32().unwrap_or(u32::MAX);
                if y.is_negative() {
                    return Err(self.err("ValueError", "negative shift count"));
                }
                if s > 1 << 20 {
                    return Err(self.err("MemoryError", ""));
                }
                Value::from_bigint(x << s)
            }
            O::RShift => {
                if y.is_negative() {
                    return Err(self.err("ValueError", "negative shift count"));
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

    // ------------------------------------------------------------------ iteration

    pub fn get_iter(&mut self, v: &Value<'a>) -> PyResult<'a, Value<'a>> {
        Ok(Value::iter(match v {
            Value::List(l) => PyIter::Seq { items: l.clone(), idx: 0 },
            Value::Tuple(t) => PyIter::Tuple { items: t.clone(), idx: 0 },
            Value::Str(s) => PyIter::Chars { s: s.clone(), pos: 0 },
            Value::Bytes(b) => PyIter::Bytes { b: b.clone(), idx: 0 },
            Value::Dict(d) => {
                let len = d.borrow().len;
                PyIter::DictKeys { d: d.clone(), idx: 0, len, mode: 0 }
            }
            Value::Set(s) => {
                PyIter::Owned { items: super::cpyhash::ordered_keys(&s.borrow()).into_iter() }
            }
            Value::FrozenSet(s) => {
                PyIter::Owned { items: super::cpyhash::ordered_keys(s).into_iter() }
            }
            Value::Range(a, b, s) => PyIter::Range { cur: *a, stop: *b, step: *s },
            Value::Iter(_) => return Ok(v.clone()),
            Value::DictView(d, m) => {
                let len = d.borrow().len;
                PyIter::DictKeys { d: d.clone(), idx: 0, len, mode: *m }
            }
            Value::Native(n) if matches!(&**n, Native::File(_)) => {
                PyIter::FileLines { file: n.clone() }
            }
            Value::Instance(i) if i.class.lookup("__iter__").is_some() => {
                let m = i.class.lookup("__iter__").unwrap_or(Value::None);
                let r = self.call(&m, vec![v.clone()], vec![])?;
                return self.get_iter(&r);
            }
            _ => {
                return Err(self
                    .err("TypeError", format!("'{}' object is not iterable", self.type_name(v))))
            }
        }))
    }

    /// Advances an iterator; `None` when exhausted.
    pub fn next(&mut self, it: &Value<'a>) -> PyResult<'a, Option<Value<'a>>> {
        let Value::Iter(cell) = it else {
            return Err(self
                .err("TypeError", format!("'{}' object is not an iterator", self.type_name(it))));
        };
        if matches!(&*cell.borrow(), PyIter::GenFunc { .. }) {
            let st = std::mem::replace(&mut *cell.borrow_mut(), PyIter::Running);
            if let PyIter::GenFunc { func, scope } = st {
                let (items, err) = self.run_generator(&func, scope);
                *cell.borrow_mut() = PyIter::GenDone { items: items.into_iter(), err };
            }
        }
        {
            let mut st = cell.borrow_mut();
            match &mut *st {
                PyIter::Seq { items, idx } => {
                    let r = items.borrow().get(*idx).cloned();
                    *idx += 1;
                    return Ok(r);
                }
                PyIter::Tuple { items, idx } => {
                    let r = items.get(*idx).cloned();
                    *idx += 1;
                    return Ok(r);
                }
                PyIter::Owned { items } => return Ok(items.next()),
                PyIter::GenDone { items, err } => {
                    if let Some(v) = items.next() {
                        return Ok(Some(v));
                    }
                    return match err.take() {
                        Some(e) => Err(e),
                        None => Ok(None),
                    };
                }
                PyIter::Reversed { items } => return Ok(items.pop()),
                PyIter::Chars { s, pos } => {
                    let r = s[*pos..].chars().next();
                    return Ok(r.map(|c| {
                        *pos += c.len_utf8();
                        let mut b = [0u8; 4];
                        Value::Str(Rc::from(&*c.encode_utf8(&mut b)))
                    }));
                }
                PyIter::Bytes { b, idx } => {
                    let r = b.get(*idx).map(|x| Value::Int(i64::from(*x)));
                    *idx += 1;
                    return Ok(r);
                }
                PyIter::Range { cur, stop, step } => {
                    if (*step > 0 && *cur < *stop) || (*step < 0 && *cur > *stop) {
                        let r = *cur;
                        *cur = cur.saturating_add(*step);
                        return Ok(Some(Value::Int(r)));
                    }
                    return Ok(None);
                }
                PyIter::DictKeys { d, idx, len, mode } => {
                    let dd = d.borrow();
                    if dd.len != *len {
                        drop(dd);
                        *st = PyIter::Exhausted;
                        return Err(
                            self.err("RuntimeError", "dictionary changed size during iteration")
                        );
                    }
                    while *idx < dd.entries.len() {
                        let i = *idx;
                        *idx += 1;
                        if let Some((k, v, _)) = &dd.entries[i] {
                            return Ok(Some(match mode {
                                0 => k.clone(),
                                1 => v.clone(),
                                _ => Value::tuple(vec![k.clone(), v.clone()]),
                            }));
                        }
                    }
                    return Ok(None);
                }
                PyIter::Walk(queue) => {
                    let Some(n) = queue.pop_front() else { return Ok(None) };
                    if let Err(e) = self.child_nodes_into(&n, queue) {
                        *st = PyIter::Exhausted;
                        return Err(e);
                    }
                    drop(st);
                    self.step()?;
                    return Ok(Some(n));
                }
                PyIter::Exhausted => return Ok(None),
                PyIter::Running => {
                    return Err(self.err("ValueError", "generator already executing"))
                }
                _ => {}
            }
        }
        let state = std::mem::replace(&mut *cell.borrow_mut(), PyIter::Running);
        let (r, back) = match state {
            PyIter::Gen(mut g) => match self.gen_next(&mut g) {
                Ok(Some(v)) => (Ok(Some(v)), PyIter::Gen(g)),
                Ok(None) => (Ok(None), PyIter::Exhausted),
                Err(e) => (Err(e), PyIter::Exhausted),
            },
            PyIter::Enumerate { inner, count } => match self.next(&inner) {
                Ok(Some(v)) => (
                    Ok(Some(Value::tuple(vec![Value::Int(count), v]))),
                    PyIter::Enumerate { inner, count: count + 1 },
                ),
                Ok(None) => (Ok(None), PyIter::Exhausted),
                Err(e) => (Err(e), PyIter::Enumerate { inner, count }),
            },
            PyIter::Zip(inners) => {
                let mut out = Vec::with_capacity(inners.len());
                let mut res = Ok(None);
                let mut done = false;
                for i in &inners {
                    match self.next(i) {
                        Ok(Some(v)) => out.push(v),
                        Ok(None) => {
                            done = true;
                            break;
                        }
                        Err(e) => {
                            res = Err(e);
                            done = true;
                            break;
                        }
                    }
                }
                if done {
                    (res, PyIter::Exhausted)
                } else {
                    (Ok(Some(Value::tuple(out))), PyIter::Zip(inners))
                }
            }
            PyIter::Map { func, inner } => {
                let mut args = Vec::new();
                let mut stop = false;
                let mut res = Ok(None);
                for i in &inner {
                    match self.next(i) {
                        Ok(Some(v)) => args.push(v),
                        Ok(None) => {
                            stop = true;
                            break;
                        }
                        Err(e) => {
                            res = Err(e);
                            stop = true;
                            break;
                        }
                    }
                }
                if stop {
                    (res, PyIter::Exhausted)
                } else {
                    match self.call(&func, args, vec![]) {
                        Ok(v) => (Ok(Some(v)), PyIter::Map { func, inner }),
                        Err(e) => (Err(e), PyIter::Map { func, inner }),
                    }
                }
            }
            PyIter::Filter { func, inner } => {
                let r = loop {
                    match self.next(&inner) {
                        Ok(Some(v)) => {
                            let keep = if func.is_none() {
                                self.truthy(&v)
                            } else {
                                match self.call(&func, vec![v.clone()], vec![]) {
                                    Ok(r) => self.truthy(&r),
                                    Err(e) => Err(e),
                                }
                            };
                            match keep {
                                Ok(true) => break Ok(Some(v)),
                                Ok(false) => continue,
                                Err(e) => break Err(e),
                            }
                        }
                        other => break other,
                    }
                };
                (r, PyIter::Filter { func, inner })
            }
            PyIter::FileLines { file } => {
                let r = self.file_readline(&file);
                match r {
                    Ok(Some(l)) => (Ok(Some(l)), PyIter::FileLines { file }),
                    Ok(None) => (Ok(None), PyIter::FileLines { file }),
                    Err(e) => (Err(e), PyIter::FileLines { file }),
                }
            }
            other => (Ok(None), other),
        };
        *cell.borrow_mut() = back;
        r
    }

    /// Materialises any iterable.
    pub fn to_vec(&mut self, v: &Value<'a>) -> PyResult<'a, Vec<Value<'a>>> {
        match v {
            Value::List(l) => Ok(l.borrow().clone()),
            Value::Tuple(t) => Ok((**t).clone()),
            Value::Range(a, b, s) => {
                let n = range_len(*a, *b, *s).max(0) as usize;
                self.check_len(n)?;
                self.charge(n as u64 / 8)?;
                Ok((0..n as i64).map(|i| Value::Int(a + i * s)).collect())
            }
            _ => {
                let it = self.get_iter(v)?;
                let mut out = Vec::new();
                while let Some(x) = self.next(&it)? {
                    out.push(x);
                    self.check_len(out.len())?;
                }
                Ok(out)
            }
        }
    }

    // ------------------------------------------------------------------ items

    pub fn index_of(&mut self, k: &Value<'a>, len: usize, what: &str) -> PyResult<'a, usize> {
        let i = match k {
            Value::Int(i) => *i,
            Value::Bool(b) => i64::from(*b),
            Value::Big(_) => {
                return Err(self.err("IndexError", "cannot fit 'int' into an index-sized integer"));
            }
            _ if what == "str" => {
                return Err(self.err(
                    "TypeError",
                    format!("string indices must be integers, not '{}'", self.type_name(k)),
                ))
            }
            _ => {
                return Err(self.err(
                    "TypeError",
                    format!("{what} indices must be integers or slices, not {}", self.type_name(k)),
                ))
            }
        };
        let j = if i < 0 { i + len as i64 } else { i };
        if j < 0 || j >= len as i64 {
            let what2 = if what == "str" { "string" } else { what };
            return Err(self.err("IndexError", format!("{what2} index out of range")));
        }
        Ok(j as usize)
    }

    /// Indices selected by a slice over a sequence of length `len`.
    pub fn slice_indices(&mut self, s: &[Value<'a>; 3], len: usize) -> PyResult<'a, Vec<usize>> {
        let get = |v: &Value<'a>| -> Option<Option<i64>> {
            match v {
                Value::None => Some(None),
                Value::Int(i) => Some(Some(*i)),
                Value::Bool(b) => Some(Some(i64::from(*b))),
                Value::Big(b) => {
                    Some(Some(if b.is_negative() { i64::MIN / 2 } else { i64::MAX / 2 }))
                }
                _ => None,
            }
        };
        let (Some(lo), Some(hi), Some(st)) = (get(&s[0]), get(&s[1]), get(&s[2])) else {
            return Err(self.err(
                "TypeError",
                "slice indices must be integers or None or have an __index__ method",
            ));
        };
        let step = st.unwrap_or(1);
        if step == 0 {
            return Err(self.err("ValueError", "slice step cannot be zero"));
        }
        let n = len as i64;
        let clamp = |x: i64, lo_b: i64, hi_b: i64| -> i64 {
            let x = if x < 0 { x + n } else { x };
            x.clamp(lo_b, hi_b)
        };
        let mut out = Vec::new();
        if step > 0 {
            let a = lo.map_or(0, |x| clamp(x, 0, n));
            let b = hi.map_or(n, |x| clamp(x, 0, n));
            let mut i = a;
            while i < b {
                out.push(i as usize);
                i += step;
            }
        } else {
            let a = lo.map_or(n - 1, |x| clamp(x, -1, n - 1));
            let b = hi.map_or(-1, |x| clamp(x, -1, n - 1));
            let mut i = a;
            while i > b {
                out.push(i as usize);
                i += step;
            }
        }
        Ok(out)
    }

    pub fn getitem(&mut self, o: &Value<'a>, k: &Value<'a>) -> PyResult<'a, Value<'a>> {
        match o {
            Value::List(l) => {
                if let Value::Slice(s) = k {
                    let items = l.borrow();
                    let idx = self.slice_indices(s, items.len())?;
                    return Ok(Value::list(idx.into_iter().map(|i| items[i].clone()).collect()));
                }
                let len = l.borrow().len();
                let i = self.index_of(k, len, "list")?;
                Ok(l.borrow()[i].clone())
            }
            Value::Tuple(t) => {
                if let Value::Slice(s) = k {
                    let idx = self.slice_indices(s, t.len())?;
                    return Ok(Value::tuple(idx.into_iter().map(|i| t[i].clone()).collect()));
                }
                let i = self.index_of(k, t.len(), "tuple")?;
                Ok(t[i].clone())
            }
            Value::Str(s) => {
                let chars: Vec<char> = if s.is_ascii() { Vec::new() } else { s.chars().collect() };
                let len = if s.is_ascii() { s.len() } else { chars.len() };
                if let Value::Slice(sl) = k {
                    let idx = self.slice_indices(sl, len)?;
                    if s.is_ascii() {
                        let b = s.as_bytes();
                        if sl[2].is_none() || matches!(sl[2], Value::Int(1)) {
                            if let (Some(f), Some(l)) = (idx.first(), idx.last()) {
                                return Ok(Value::Str(Rc::from(&s[*f..=*l])));
                            }
                            return Ok(Value::str(""));
                        }
                        let out: String = idx.into_iter().map(|i| b[i] as char).collect();
                        return Ok(Value::Str(Rc::from(out)));
                    }
                    let out: String = idx.into_iter().map(|i| chars[i]).collect();
                    return Ok(Value::Str(Rc::from(out)));
                }
                let i = self.index_of(k, len, "str")?;
                let c = if s.is_ascii() { s.as_bytes()[i] as char } else { chars[i] };
                Ok(Value::Str(Rc::from(c.to_string())))
            }
            Value::Bytes(b) => {
                if let Value::Slice(sl) = k {
                    let idx = self.slice_indices(sl, b.len())?;
                    let out: Vec<u8> = idx.into_iter().map(|i| b[i]).collect();
                    return Ok(Value::Bytes(Rc::from(out)));
                }
                let i = self.index_of(k, b.len(), "index")?;
                Ok(Value::Int(i64::from(b[i])))
            }
            Value::Dict(d) => match self.dict_get(d, k)? {
                Some(v) => Ok(v),
                None => {
                    let r = self.repr(k)?;
                    Err(self.err_args("KeyError", vec![k.clone()], Some(r)))
                }
            },
            Value::Range(a, b, s) => {
                let len = range_len(*a, *b, *s) as usize;
                let i = self.index_of(k, len, "range object")?;
                Ok(Value::Int(a + s * i as i64))
            }
            Value::Instance(i) if i.class.lookup("__getitem__").is_some() => {
                let m = i.class.lookup("__getitem__").unwrap_or(Value::None);
                self.call(&m, vec![o.clone(), k.clone()], vec![])
            }
            // `union_getitem` on a union without type variables.
            Value::Native(n) if matches!(&**n, Native::Union(_)) => {
                let r = self.repr(o)?;
                Err(self.err("TypeError", format!("{r} is not a generic class")))
            }
            _ => Err(self
                .err("TypeError", format!("'{}' object is not subscriptable", self.type_name(o)))),
        }
    }

    pub fn setitem(&mut self, o: &Value<'a>, k: Value<'a>, v: Value<'a>) -> PyResult<'a, ()> {
        match o {
            Value::List(l) => {
                if let Value::Slice(s) = &k {
                    let new = self.to_vec(&v)?;
                    let len = l.borrow().len();
                    let idx = self.slice_indices(s, len)?;
                    if s[2].is_none() {
                        let (a, b) = match (idx.first(), idx.last()) {
                            (Some(a), Some(b)) => (*a, *b + 1),
                            _ => {
                                let st = self.slice_indices(
                                    &[s[0].clone(), Value::None, Value::None],
                                    len,
                                )?;
                                let a = st.first().copied().unwrap_or(len);
                                (a, a)
                            }
                        };
                        l.borrow_mut().splice(a..b, new);
                        return Ok(());
                    }
                    if idx.len() != new.len() {
                        return Err(self.err(
                            "ValueError",
                            format!("attempt to assign sequence of size {} to extended slice of size {}", new.len(), idx.len()),
                        ));
                    }
                    let mut lb = l.borrow_mut();
                    for (i, x) in idx.into_iter().zip(new) {
                        lb[i] = x;
                    }
                    return Ok(());
                }
                let len = l.borrow().len();
                let i = self.index_of(&k, len, "list").map_err(|e| {
                    if self.is_exc(&e, "IndexError") {
                        self.err("IndexError", "list assignment index out of range")
                    } else {
                        e
                    }
                })?;
                l.borrow_mut()[i] = v;
                Ok(())
            }
            Value::Dict(d) => self.dict_set(d, k, v),
            Value::Instance(i) if i.class.lookup("__setitem__").is_some() => {
                let m = i.class.lookup("__setitem__").unwrap_or(Value::None);
                self.call(&m, vec![o.clone(), k, v], vec![])?;
                Ok(())
            }
            _ => Err(self.err(
                "TypeError",
                format!("'{}' object does not support item assignment", self.type_name(o)),
            )),
        }
    }

    pub fn delitem(&mut self, o: &Value<'a>, k: &Value<'a>) -> PyResult<'a, ()> {
        match o {
            Value::List(l) => {
                if let Value::Slice(s) = k {
                    let len = l.borrow().len();
                    let mut idx = self.slice_indices(s, len)?;
                    idx.sort_unstable();
                    let mut lb = l.borrow_mut();
                    for i in idx.into_iter().rev() {
                        lb.remove(i);
                    }
                    return Ok(());
                }
                let len = l.borrow().len();
                let i = self.index_of(k, len, "list").map_err(|e| {
                    if self.is_exc(&e, "IndexError") {
                        self.err("IndexError", "list assignment index out of range")
                    } else {
                        e
                    }
                })?;
                l.borrow_mut().remove(i);
                Ok(())
            }
            Value::Dict(d) => match self.dict_del(d, k)? {
                Some(_) => Ok(()),
                None => {
                    let r = self.repr(k)?;
                    Err(self.err_args("KeyError", vec![k.clone()], Some(r)))
                }
            },
            _ => Err(self.err(
                "TypeError",
                format!("'{}' object doesn't support item deletion", self.type_name(o)),
            )),
        }
    }
}

pub fn range_len(a: i64, b: i64, s: i64) -> i64 {
    if s > 0 && a < b {
        (b - a - 1) / s + 1
    } else if s < 0 && a > b {
        (a - b - 1) / (-s) + 1
    } else {
        0
    }
}

// ---------------------------------------------------------------------- static scope analysis

/// Names bound by a function body (CPython's "local" symbols), and its global/nonlocal declarations.
pub fn collect_locals(body: &[ast::Stmt], info: &mut ScopeInfo) {
    for s in body {
        collect_stmt(s, info);
    }
    let globals: Vec<Str> = info.globals.iter().cloned().collect();
    for g in globals.iter().chain(info.nonlocals.clone().iter()) {
        info.locals.remove(g);
    }
}

fn collect_stmt(s: &ast::Stmt, info: &mut ScopeInfo) {
    use ast::Stmt as S;
    match s {
        S::FunctionDef(d) => {
            info.locals.insert(Rc::from(d.name.as_str()));
            for dec in &d.decorator_list {
                collect_expr_binds(dec, info);
            }
        }
        S::AsyncFunctionDef(d) => {
            info.locals.insert(Rc::from(d.name.as_str()));
        }
        S::ClassDef(c) => {
            info.locals.insert(Rc::from(c.name.as_str()));
        }
        S::Assign(a) => {
            for t in &a.targets {
                collect_target_names(t, &mut info.locals);
            }
            collect_expr_binds(&a.value, info);
        }
        S::AugAssign(a) => {
            collect_target_names(&a.target, &mut info.locals);
            collect_expr_binds(&a.value, info);
        }
        S::For(f) => {
            collect_target_names(&f.target, &mut info.locals);
            collect_expr_binds(&f.iter, info);
            collect_locals_nested(&f.body, info);
            collect_locals_nested(&f.orelse, info);
        }
        S::AsyncFor(f) => {
            collect_target_names(&f.target, &mut info.locals);
            collect_expr_binds(&f.iter, info);
            collect_locals_nested(&f.body, info);
            collect_locals_nested(&f.orelse, info);
        }
        S::While(w) => {
            collect_expr_binds(&w.test, info);
            collect_locals_nested(&w.body, info);
            collect_locals_nested(&w.orelse, info);
        }
        S::If(i) => {
            collect_expr_binds(&i.test, info);
            collect_locals_nested(&i.body, info);
            collect_locals_nested(&i.orelse, info);
        }
        S::With(w) => {
            for it in &w.items {
                collect_expr_binds(&it.context_expr, info);
                if let Some(v) = &it.optional_vars {
                    collect_target_names(v, &mut info.locals);
                }
            }
            collect_locals_nested(&w.body, info);
        }
        S::AsyncWith(w) => {
            for it in &w.items {
                if let Some(v) = &it.optional_vars {
                    collect_target_names(v, &mut info.locals);
                }
            }
            collect_locals_nested(&w.body, info);
        }
        S::Try(t) => {
            collect_locals_nested(&t.body, info);
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                if let Some(n) = &h.name {
                    info.locals.insert(Rc::from(n.as_str()));
                }
                collect_locals_nested(&h.body, info);
            }
            collect_locals_nested(&t.orelse, info);
            collect_locals_nested(&t.finalbody, info);
        }
        S::TryStar(t) => {
            collect_locals_nested(&t.body, info);
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                if let Some(n) = &h.name {
                    info.locals.insert(Rc::from(n.as_str()));
                }
                collect_locals_nested(&h.body, info);
            }
            collect_locals_nested(&t.orelse, info);
            collect_locals_nested(&t.finalbody, info);
        }
        S::Import(i) => {
            for a in &i.names {
                let n = a.asname.as_ref().map_or_else(
                    || a.name.split('.').next().unwrap_or("").to_string(),
                    |x| x.to_string(),
                );
                info.locals.insert(Rc::from(n));
            }
        }
        S::ImportFrom(i) => {
            for a in &i.names {
                let n = a.asname.as_ref().unwrap_or(&a.name);
                info.locals.insert(Rc::from(n.as_str()));
            }
        }
        S::Global(g) => {
            for n in &g.names {
                info.globals.insert(Rc::from(n.as_str()));
            }
        }
        S::Nonlocal(g) => {
            for n in &g.names {
                info.nonlocals.insert(Rc::from(n.as_str()));
            }
        }
        S::Delete(d) => {
            for t in &d.targets {
                collect_target_names(t, &mut info.locals);
            }
        }
        S::Expr(e) => collect_expr_binds(&e.value, info),
        S::Return(r) => {
            if let Some(v) = &r.value {
                collect_expr_binds(v, info);
            }
        }
        S::Match(m) => {
            collect_expr_binds(&m.subject, info);
            for c in &m.cases {
                collect_pattern_names(&c.pattern, &mut info.locals);
                if let Some(g) = &c.guard {
                    collect_expr_binds(g, info);
                }
                collect_locals_nested(&c.body, info);
            }
        }
        S::AnnAssign(a) => {
            collect_target_names(&a.target, &mut info.locals);
            if let Some(v) = &a.value {
                collect_expr_binds(v, info);
            }
        }
        S::Assert(a) => {
            collect_expr_binds(&a.test, info);
            if let Some(m) = &a.msg {
                collect_expr_binds(m, info);
            }
        }
        S::Raise(r) => {
            for e in r.exc.iter().chain(r.cause.iter()) {
                collect_expr_binds(e, info);
            }
        }
        _ => {}
    }
}

/// Names a `case` pattern captures (they bind in the enclosing function scope).
fn collect_pattern_names(p: &ast::Pattern, out: &mut NameSet) {
    use ast::Pattern as P;
    match p {
        P::MatchValue(_) | P::MatchSingleton(_) => {}
        P::MatchSequence(s) => s.patterns.iter().for_each(|x| collect_pattern_names(x, out)),
        P::MatchMapping(m) => {
            m.patterns.iter().for_each(|x| collect_pattern_names(x, out));
            if let Some(r) = &m.rest {
                out.insert(Rc::from(r.as_str()));
            }
        }
        P::MatchClass(c) => c
            .patterns
            .iter()
            .chain(c.kwd_patterns.iter())
            .for_each(|x| collect_pattern_names(x, out)),
        P::MatchStar(s) => {
            if let Some(n) = &s.name {
                out.insert(Rc::from(n.as_str()));
            }
        }
        P::MatchAs(a) => {
            if let Some(inner) = &a.pattern {
                collect_pattern_names(inner, out);
            }
            if let Some(n) = &a.name {
                out.insert(Rc::from(n.as_str()));
            }
        }
        P::MatchOr(o) => o.patterns.iter().for_each(|x| collect_pattern_names(x, out)),
    }
}

fn collect_locals_nested(body: &[ast::Stmt], info: &mut ScopeInfo) {
    for s in body {
        collect_stmt(s, info);
    }
}

/// Walrus targets bind in the enclosing function scope.
pub fn collect_expr_binds(e: &ast::Expr, info: &mut ScopeInfo) {
    use ast::Expr as E;
    let mut go = |x: &ast::Expr| collect_expr_binds(x, info);
    match e {
        E::NamedExpr(n) => {
            collect_target_names(&n.target, &mut info.locals);
            collect_expr_binds(&n.value, info);
        }
        // A lambda is its own scope, but its defaults run in the enclosing one; comprehension
        // walruses bind in the enclosing one.
        E::Lambda(l) => {
            let a = &l.args;
            for d in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
                if let Some(d) = &d.default {
                    go(d);
                }
            }
        }
        E::BoolOp(b) => b.values.iter().for_each(go),
        E::BinOp(b) => {
            go(&b.left);
            go(&b.right);
        }
        E::UnaryOp(u) => go(&u.operand),
        E::Call(c) => {
            go(&c.func);
            c.args.iter().for_each(&mut go);
            c.keywords.iter().for_each(|k| go(&k.value));
        }
        E::Attribute(a) => go(&a.value),
        E::Subscript(s) => {
            go(&s.value);
            go(&s.slice);
        }
        E::Tuple(t) => t.elts.iter().for_each(go),
        E::List(t) => t.elts.iter().for_each(go),
        E::Set(t) => t.elts.iter().for_each(go),
        E::IfExp(i) => {
            go(&i.test);
            go(&i.body);
            go(&i.orelse);
        }
        E::Compare(c) => {
            go(&c.left);
            c.comparators.iter().for_each(go);
        }
        E::ListComp(c) => {
            go(&c.elt);
            comp_binds(&c.generators, info);
        }
        E::SetComp(c) => {
            go(&c.elt);
            comp_binds(&c.generators, info);
        }
        E::GeneratorExp(c) => {
            go(&c.elt);
            comp_binds(&c.generators, info);
        }
        E::DictComp(c) => {
            go(&c.key);
            collect_expr_binds(&c.value, info);
            comp_binds(&c.generators, info);
        }
        E::Dict(d) => {
            d.keys.iter().flatten().for_each(&mut go);
            d.values.iter().for_each(go);
        }
        E::Starred(s) => go(&s.value),
        E::Await(a) => go(&a.value),
        E::Yield(y) => y.value.iter().for_each(|v| go(v)),
        E::YieldFrom(y) => go(&y.value),
        E::JoinedStr(j) => j.values.iter().for_each(go),
        E::FormattedValue(v) => {
            go(&v.value);
            if let Some(spec) = &v.format_spec {
                go(spec);
            }
        }
        E::Slice(s) => {
            for x in s.lower.iter().chain(s.upper.iter()).chain(s.step.iter()) {
                go(x);
            }
        }
        _ => {}
    }
}

fn comp_binds(gens: &[ast::Comprehension], info: &mut ScopeInfo) {
    for g in gens {
        collect_expr_binds(&g.iter, info);
        for c in &g.ifs {
            collect_expr_binds(c, info);
        }
    }
}

pub fn collect_target_names(t: &ast::Expr, out: &mut NameSet) {
    match t {
        ast::Expr::Name(n) => {
            out.insert(Rc::from(n.id.as_str()));
        }
        ast::Expr::Tuple(tu) => {
            for e in &tu.elts {
                collect_target_names(e, out);
            }
        }
        ast::Expr::List(l) => {
            for e in &l.elts {
                collect_target_names(e, out);
            }
        }
        ast::Expr::Starred(s) => collect_target_names(&s.value, out),
        _ => {}
    }
}

/// Does a function body contain `yield` (outside nested scopes)? Such functions are generators.
pub fn contains_yield(body: &[ast::Stmt]) -> bool {
    fn expr(e: &ast::Expr) -> bool {
        use ast::Expr as E;
        match e {
            E::Yield(_) | E::YieldFrom(_) => true,
            E::Lambda(_) | E::GeneratorExp(_) | E::ListComp(_) | E::SetComp(_) | E::DictComp(_) => {
                false
            }
            E::BoolOp(b) => b.values.iter().any(expr),
            E::BinOp(b) => expr(&b.left) || expr(&b.right),
            E::UnaryOp(u) => expr(&u.operand),
            E::Call(c) => {
                expr(&c.func)
                    || c.args.iter().any(expr)
                    || c.keywords.iter().any(|k| expr(&k.value))
            }
            E::Attribute(a) => expr(&a.value),
            E::Subscript(s) => expr(&s.value) || expr(&s.slice),
            E::Tuple(t) => t.elts.iter().any(expr),
            E::List(t) => t.elts.iter().any(expr),
            E::IfExp(i) => expr(&i.test) || expr(&i.body) || expr(&i.orelse),
            E::Compare(c) => expr(&c.left) || c.comparators.iter().any(expr),
            E::NamedExpr(n) => expr(&n.value),
            E::Await(a) => expr(&a.value),
            _ => false,
        }
    }
    fn stmt(s: &ast::Stmt) -> bool {
        use ast::Stmt as S;
        match s {
            S::Expr(e) => expr(&e.value),
            S::Assign(a) => expr(&a.value),
            S::AugAssign(a) => expr(&a.value),
            S::AnnAssign(a) => a.value.as_deref().is_some_and(expr),
            S::Return(r) => r.value.as_deref().is_some_and(expr),
            S::For(f) => expr(&f.iter) || f.body.iter().any(stmt) || f.orelse.iter().any(stmt),
            S::While(w) => expr(&w.test) || w.body.iter().any(stmt) || w.orelse.iter().any(stmt),
            S::If(i) => expr(&i.test) || i.body.iter().any(stmt) || i.orelse.iter().any(stmt),
            S::With(w) => w.items.iter().any(|i| expr(&i.context_expr)) || w.body.iter().any(stmt),
            S::Try(t) => {
                t.body.iter().any(stmt)
                    || t.orelse.iter().any(stmt)
                    || t.finalbody.iter().any(stmt)
                    || t.handlers.iter().any(|h| {
                        let ast::ExceptHandler::ExceptHandler(h) = h;
                        h.body.iter().any(stmt)
                    })
            }
            _ => false,
        }
    }
    body.iter().any(stmt)
}
