//! Iteration: `iter()` over every iterable value and `next()` on every iterator kind.

use super::range_len;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use std::rc::Rc;

impl<'a> Interp<'a> {
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
            Value::Set(s) => PyIter::Owned {
                items: crate::interp::cpyhash::ordered_keys(&s.borrow()).into_iter(),
            },
            Value::FrozenSet(s) => {
                PyIter::Owned { items: crate::interp::cpyhash::ordered_keys(s).into_iter() }
            }
            Value::Range(r) => PyIter::Range { cur: r[0], stop: r[1], step: r[2] },
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
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("'{}' object is not iterable", self.type_name(v)),
                ))
            }
        }))
    }

    /// Advances an iterator; `None` when exhausted.
    pub fn next(&mut self, it: &Value<'a>) -> PyResult<'a, Option<Value<'a>>> {
        let Value::Iter(cell) = it else {
            return Err(self.err(
                ExcKind::TypeError,
                format!("'{}' object is not an iterator", self.type_name(it)),
            ));
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
                        return Err(self.err(
                            ExcKind::RuntimeError,
                            "dictionary changed size during iteration",
                        ));
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
                    return Err(self.err(ExcKind::ValueError, "generator already executing"))
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
            Value::Range(r) => {
                let [a, b, s] = **r;
                let n = range_len(a, b, s).max(0) as usize;
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
}
