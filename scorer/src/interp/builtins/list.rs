//! The methods of `list`, and the stable sort `list.sort` and `sorted` share.

use super::{arg, Sig};
use crate::interp::eval::Kwargs;
use crate::interp::fmt::type_name;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use std::rc::Rc;

impl<'a> Interp<'a> {
    /// `list.sort(*, key=None, reverse=False)`; `sorted` passes its keywords on, as CPython does.
    pub fn list_sort(
        &mut self,
        l: &Rc<Mut<PyList<'a>>>,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, ()> {
        let a =
            self.bind(&Sig::clinic("sort", &[], 0).kwonly(&["key", "reverse"]), args, kwargs)?;
        let key = a.get(0).filter(|k| !k.is_none());
        let reverse = match a.get(1) {
            Some(v) => self.truthy(&v)?,
            None => false,
        };
        let items = l.borrow_mut().take();
        let mut keyed = Vec::with_capacity(items.len());
        for x in items {
            let k = match &key {
                Some(f) => self.call(f, vec![x.clone()], vec![])?,
                None => x.clone(),
            };
            keyed.push((k, x));
        }
        // Stable merge sort with a fallible comparison (Python's sort only uses `<`).
        let mut err = None;
        let n = keyed.len();
        let mut buf: Vec<(Value<'a>, Value<'a>)> = keyed;
        let mut width = 1;
        while width < n && err.is_none() {
            let mut out = Vec::with_capacity(n);
            let mut i = 0;
            while i < n {
                let mid = (i + width).min(n);
                let end = (i + 2 * width).min(n);
                let (mut a, mut b) = (i, mid);
                while a < mid && b < end {
                    let lt = if reverse {
                        self.compare(crate::python::syntax::CmpOp::Lt, &buf[a].0, &buf[b].0)
                    } else {
                        self.compare(crate::python::syntax::CmpOp::Lt, &buf[b].0, &buf[a].0)
                    };
                    match lt {
                        Ok(true) => {
                            out.push(buf[b].clone());
                            b += 1;
                        }
                        Ok(false) => {
                            out.push(buf[a].clone());
                            a += 1;
                        }
                        Err(e) => {
                            err = Some(e);
                            break;
                        }
                    }
                }
                if err.is_some() {
                    break;
                }
                out.extend(buf[a..mid].iter().cloned());
                out.extend(buf[b..end].iter().cloned());
                i = end;
            }
            if err.is_some() {
                break;
            }
            buf = out;
            width *= 2;
        }
        *l.borrow_mut() = buf.into_iter().map(|(_, x)| x).collect();
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    pub(super) fn list_method(
        &mut self,
        l: Rc<Mut<PyList<'a>>>,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        match name {
            "append" => {
                self.nargs("list.append", &args, 1, 1)?;
                self.check_len(l.borrow().len() + 1)?;
                l.borrow_mut().push(args[0].clone());
                l.borrow().sync();
                Ok(Value::None)
            }
            "extend" => {
                let items = self.to_vec(&arg(&args, 0))?;
                self.check_len(l.borrow().len() + items.len())?;
                l.borrow_mut().extend(items);
                l.borrow().sync();
                Ok(Value::None)
            }
            "insert" => {
                let n = l.borrow().len() as i64;
                let i = match arg(&args, 0) {
                    Value::Int(i) => {
                        if i < 0 {
                            (i + n).max(0)
                        } else {
                            i.min(n)
                        }
                    }
                    other => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                                "'{}' object cannot be interpreted as an integer",
                                type_name(&other)
                            ),
                        ))
                    }
                };
                self.check_len(l.borrow().len() + 1)?;
                l.borrow_mut().insert(i as usize, arg(&args, 1));
                l.borrow().sync();
                Ok(Value::None)
            }
            "pop" => {
                let n = l.borrow().len();
                if n == 0 {
                    return Err(self.err(ExcKind::IndexError, "pop from empty list"));
                }
                let i = match args.first() {
                    None => n - 1,
                    Some(k) => self
                        .index_of(k, n, "pop")
                        .map_err(|_| self.err(ExcKind::IndexError, "pop index out of range"))?,
                };
                Ok(l.borrow_mut().remove(i))
            }
            "remove" | "index" | "count" => {
                let items = l.borrow().clone();
                let x = arg(&args, 0);
                let mut count = 0;
                for (i, it) in items.iter().enumerate() {
                    if it.is(&x) || self.py_eq(it, &x)? {
                        match name {
                            "remove" => {
                                l.borrow_mut().remove(i);
                                return Ok(Value::None);
                            }
                            "index" => return Ok(Value::Int(i as i64)),
                            _ => count += 1,
                        }
                    }
                }
                match name {
                    "count" => Ok(Value::Int(count)),
                    "remove" => Err(self.err(ExcKind::ValueError, "list.remove(x): x not in list")),
                    _ => {
                        let r = self.repr(&x)?;
                        Err(self.err(ExcKind::ValueError, format!("{r} is not in list")))
                    }
                }
            }
            "sort" => {
                self.list_sort(&l, args, kwargs)?;
                Ok(Value::None)
            }
            "reverse" => {
                l.borrow_mut().reverse();
                Ok(Value::None)
            }
            "clear" => {
                l.borrow_mut().clear();
                Ok(Value::None)
            }
            "copy" => Ok(self.new_list(l.borrow().clone())),
            _ => Err(self.unsupported(format!("list.{name}"))),
        }
    }
}
