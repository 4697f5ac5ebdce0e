//! Item access: `x[i]`, `x[a:b:c]`, assignment and deletion of items and slices, `__index__`.

use super::range_len;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use num_traits::Signed;
use std::rc::Rc;

impl<'a> Interp<'a> {
    // ------------------------------------------------------------------ items

    pub fn index_of(&mut self, k: &Value<'a>, len: usize, what: &str) -> PyResult<'a, usize> {
        let i = match k {
            Value::Int(i) => *i,
            Value::Bool(b) => i64::from(*b),
            Value::Big(_) => {
                return Err(
                    self.err(ExcKind::IndexError, "cannot fit 'int' into an index-sized integer")
                );
            }
            _ if what == "str" => {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("string indices must be integers, not '{}'", self.type_name(k)),
                ))
            }
            _ => {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("{what} indices must be integers or slices, not {}", self.type_name(k)),
                ))
            }
        };
        let j = if i < 0 { i + len as i64 } else { i };
        if j < 0 || j >= len as i64 {
            let what2 = if what == "str" { "string" } else { what };
            return Err(self.err(ExcKind::IndexError, format!("{what2} index out of range")));
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
                ExcKind::TypeError,
                "slice indices must be integers or None or have an __index__ method",
            ));
        };
        let step = st.unwrap_or(1);
        if step == 0 {
            return Err(self.err(ExcKind::ValueError, "slice step cannot be zero"));
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
                    return Ok(self.new_list(idx.into_iter().map(|i| items[i].clone()).collect()));
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
                                return Ok(Value::str_rc(Rc::from(&s[*f..=*l])));
                            }
                            return Ok(Value::str(""));
                        }
                        let out: String = idx.into_iter().map(|i| b[i] as char).collect();
                        return Ok(Value::str_rc(Rc::from(out)));
                    }
                    let out: String = idx.into_iter().map(|i| chars[i]).collect();
                    return Ok(Value::str_rc(Rc::from(out)));
                }
                let i = self.index_of(k, len, "str")?;
                let c = if s.is_ascii() { s.as_bytes()[i] as char } else { chars[i] };
                Ok(Value::str_rc(Rc::from(c.to_string())))
            }
            Value::Bytes(b) => {
                if let Value::Slice(sl) = k {
                    let idx = self.slice_indices(sl, b.len())?;
                    let out: Vec<u8> = idx.into_iter().map(|i| b[i]).collect();
                    return Ok(Value::bytes_rc(Rc::from(out)));
                }
                let i = self.index_of(k, b.len(), "index")?;
                Ok(Value::Int(i64::from(b[i])))
            }
            Value::Dict(d) => match self.dict_get(d, k)? {
                Some(v) => Ok(v),
                None => {
                    let r = self.repr(k)?;
                    Err(self.err_args(ExcKind::KeyError, vec![k.clone()], Some(r)))
                }
            },
            Value::Range(r) => {
                let [a, b, s] = **r;
                let len = range_len(a, b, s) as usize;
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
                Err(self.err(ExcKind::TypeError, format!("{r} is not a generic class")))
            }
            _ => Err(self.err(
                ExcKind::TypeError,
                format!("'{}' object is not subscriptable", self.type_name(o)),
            )),
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
                        l.borrow().sync();
                        return Ok(());
                    }
                    if idx.len() != new.len() {
                        return Err(self.err(
                            ExcKind::ValueError,
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
                    if self.is_exc(&e, ExcKind::IndexError) {
                        self.err(ExcKind::IndexError, "list assignment index out of range")
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
                ExcKind::TypeError,
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
                    if self.is_exc(&e, ExcKind::IndexError) {
                        self.err(ExcKind::IndexError, "list assignment index out of range")
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
                    Err(self.err_args(ExcKind::KeyError, vec![k.clone()], Some(r)))
                }
            },
            _ => Err(self.err(
                ExcKind::TypeError,
                format!("'{}' object doesn't support item deletion", self.type_name(o)),
            )),
        }
    }
}
