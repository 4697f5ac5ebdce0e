//! The methods of `dict`, and the update rule `dict(...)` and `dict.update` share.

use super::arg;
use crate::interp::eval::Kwargs;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub(crate) fn dict_update(
        &mut self,
        d: &Rc<Mut<PyDict<'a>>>,
        src: &Value<'a>,
    ) -> PyResult<'a, ()> {
        if let Value::Dict(o) = src {
            let pairs: Vec<_> = o.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            for (k, v) in pairs {
                self.dict_set(d, k, v)?;
            }
            return Ok(());
        }
        // A mapping that is no dict (a `mappingproxy`, a user class with `keys`): its keys,
        // then an item lookup per key, as CPython's `PyDict_Merge` does.
        if let Value::Instance(i) = src {
            if let Some(keys) = i.class.lookup("keys") {
                let keys = match keys {
                    Value::Func(_) => self.call(&keys, vec![src.clone()], vec![])?,
                    other => self.call(&other, vec![src.clone()], vec![])?,
                };
                for k in self.to_vec(&keys)? {
                    let v = self.getitem(src, &k)?;
                    self.dict_set(d, k, v)?;
                }
                return Ok(());
            }
        }
        let items = self.to_vec(src)?;
        for (i, it) in items.into_iter().enumerate() {
            if self.get_iter(&it).is_err() {
                return Err(self.err(
                    ExcKind::TypeError,
                    format!("cannot convert dictionary update sequence element #{i} to a sequence"),
                ));
            }
            let pair = self.to_vec(&it)?;
            if pair.len() != 2 {
                return Err(self.err(
                    ExcKind::ValueError,
                    format!(
                        "dictionary update sequence element #{i} has length {}; 2 is required",
                        pair.len()
                    ),
                ));
            }
            let mut p = pair.into_iter();
            let (k, v) = (p.next().unwrap_or(Value::None), p.next().unwrap_or(Value::None));
            self.dict_set(d, k, v)?;
        }
        Ok(())
    }

    pub(super) fn dict_method(
        &mut self,
        d: Rc<Mut<PyDict<'a>>>,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        match name {
            "get" => Ok(self.dict_get(&d, &arg(&args, 0))?.unwrap_or_else(|| arg(&args, 1))),
            "keys" | "values" | "items" => {
                let len = d.borrow().len;
                let mode = match name {
                    "keys" => 0,
                    "values" => 1,
                    _ => 2,
                };
                let _ = len;
                Ok(Value::DictView(d.clone(), mode))
            }
            "pop" => match self.dict_del(&d, &arg(&args, 0))? {
                Some(v) => Ok(v),
                None => {
                    if args.len() > 1 {
                        return Ok(args[1].clone());
                    }
                    let k = arg(&args, 0);
                    let r = self.repr(&k)?;
                    Err(self.err_args(ExcKind::KeyError, vec![k], Some(r)))
                }
            },
            "setdefault" => {
                let k = arg(&args, 0);
                if let Some(v) = self.dict_get(&d, &k)? {
                    return Ok(v);
                }
                let v = arg(&args, 1);
                self.dict_set(&d, k, v.clone())?;
                Ok(v)
            }
            "update" => {
                if let Some(src) = args.first() {
                    self.dict_update(&d, src)?;
                }
                for (k, v) in kwargs {
                    self.dict_set(&d, Value::Str(k), v)?;
                }
                Ok(Value::None)
            }
            "copy" => Ok(Value::Dict(self.new_dict_from(d.borrow().clone()))),
            "clear" => {
                d.borrow_mut().clear();
                Ok(Value::None)
            }
            "popitem" => {
                let last = d.borrow().entries.iter().rposition(Option::is_some);
                match last.and_then(|i| d.borrow_mut().remove_slot(i)) {
                    Some((k, v)) => Ok(Value::tuple(vec![k, v])),
                    None => Err(self.err(ExcKind::KeyError, "popitem(): dictionary is empty")),
                }
            }
            _ => Err(self.unsupported(format!("dict.{name}"))),
        }
    }
}

/// Whether `v` is a set-like dict view (`dict_keys` or `dict_items`; `dict_values` is not).
pub(crate) fn is_set_view(v: &Value<'_>) -> bool {
    matches!(v, Value::DictView(_, 0 | 2))
}

impl<'a> Interp<'a> {
    /// `dictviews_to_set`: a keys view of a dict as `set(dict)` (the dict fast path), anything
    /// else as `set(x)`.
    fn dictview_to_set(&mut self, v: &Value<'a>) -> PyResult<'a, Rc<Mut<PyDict<'a>>>> {
        match v {
            Value::DictView(d, 0) => {
                let keys = d.borrow().keys();
                let s = self.new_set(vec![])?;
                self.set_update_from_dict(&s, keys)?;
                Ok(s)
            }
            Value::Set(_) | Value::FrozenSet(_) => match self.set_copy_cpython(v)? {
                Some(c) => Ok(c),
                None => {
                    let items = self.set_items(v);
                    self.new_set(items)
                }
            },
            other => {
                let items = self.to_vec(other)?;
                self.new_set(items)
            }
        }
    }

    /// `-`, `&`, `|`, `^` with a keys or items view on either side, as CPython 3.11's
    /// `dictviews_sub`, `_PyDictView_Intersect`, `dictviews_or` and `dictviews_xor` build their
    /// set (so its table, and the order it prints in, is 3.11's).
    pub(crate) fn dictview_binop(
        &mut self,
        op: crate::python::syntax::Operator,
        a: &Value<'a>,
        b: &Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        use crate::python::syntax::Operator as O;
        let method = match op {
            O::BitAnd => return self.dictview_intersect(a, b),
            O::BitXor if matches!((a, b), (Value::DictView(_, 2), Value::DictView(_, 2))) => {
                return self.dictitems_xor(a, b);
            }
            O::Sub => "difference_update",
            O::BitOr => "update",
            _ => "symmetric_difference_update",
        };
        let r = self.dictview_to_set(a)?;
        let result = Value::Set(r);
        self.set_method(&result, method, vec![b.clone()])?;
        Ok(result)
    }

    /// `_PyDictView_Intersect`: the view on the left; a larger exact set runs its own
    /// `intersection`; of two views the larger one is tested; the other side's items, in its
    /// order, that the view holds.
    fn dictview_intersect(&mut self, a: &Value<'a>, b: &Value<'a>) -> PyResult<'a, Value<'a>> {
        let (mut this, mut other) = if is_set_view(a) { (a, b) } else { (b, a) };
        let len = |v: &Value<'a>| match v {
            Value::DictView(d, _) | Value::Set(d) => d.borrow().len,
            Value::FrozenSet(d) => d.len,
            _ => 0,
        };
        if matches!(other, Value::Set(_)) && len(this) <= len(other) {
            return self.set_method(other, "intersection", vec![this.clone()]);
        }
        if is_set_view(other) && len(other) > len(this) {
            std::mem::swap(&mut this, &mut other);
        }
        let r = self.new_set(vec![])?;
        let it = self.get_iter(other)?;
        for x in self.to_vec(&it)? {
            if self.dictview_contains(this, &x)? {
                self.set_add(&r, x)?;
            }
        }
        Ok(Value::Set(r))
    }

    /// `dictkeys_contains` / `dictitems_contains`: an items view holds a 2-tuple whose key is in
    /// the dict (an unhashable key raises) with an equal value.
    fn dictview_contains(&mut self, view: &Value<'a>, x: &Value<'a>) -> PyResult<'a, bool> {
        match view {
            Value::DictView(d, 2) => {
                let Value::Tuple(t) = x else { return Ok(false) };
                if t.len() != 2 {
                    return Ok(false);
                }
                match self.dict_get(d, &t[0])? {
                    Some(v) => Ok(v.is(&t[1]) || self.py_eq(&v, &t[1])?),
                    None => Ok(false),
                }
            }
            other => self.contains(other, x),
        }
    }

    /// `dictviews_isdisjoint`: the other side iterated (the shorter one, when both are sets
    /// or views), each item looked up in the other.
    pub(crate) fn dictview_isdisjoint(
        &mut self,
        this: &Value<'a>,
        other: &Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let (mut a, mut b) = (this, other);
        let len = |v: &Value<'a>| match v {
            Value::DictView(d, _) | Value::Set(d) => d.borrow().len,
            Value::FrozenSet(d) => d.len,
            _ => 0,
        };
        if (matches!(b, Value::Set(_) | Value::FrozenSet(_)) || is_set_view(b)) && len(b) > len(a) {
            std::mem::swap(&mut a, &mut b);
        }
        let it = self.get_iter(b)?;
        for x in self.to_vec(&it)? {
            let found = match a {
                Value::DictView(..) => self.dictview_contains(a, &x)?,
                _ => self.contains(a, &x)?,
            };
            if found {
                return Ok(Value::Bool(false));
            }
        }
        Ok(Value::Bool(true))
    }

    /// `dictitems_xor`: the second dict's pairs not in a copy of the first (deleting the equal
    /// ones from the copy), then the copy's remaining pairs.
    fn dictitems_xor(&mut self, a: &Value<'a>, b: &Value<'a>) -> PyResult<'a, Value<'a>> {
        let Value::DictView(d1, _) = a else {
            return Err(self.err(ExcKind::TypeError, "dict_items expected"));
        };
        let temp = Rc::new(Mut::new(PyDict::new()));
        self.dict_update(&temp, &Value::Dict(d1.clone()))?;
        let r = self.new_set(vec![])?;
        let pairs = self.to_vec(b)?;
        for pair in pairs {
            let Value::Tuple(t) = &pair else { continue };
            let (k, v2) = (t[0].clone(), t[1].clone());
            let delete = match self.dict_get(&temp, &k)? {
                Some(v1) => v1.is(&v2) || self.py_eq(&v1, &v2)?,
                None => false,
            };
            if delete {
                self.dict_del(&temp, &k)?;
            } else {
                self.set_add(&r, pair.clone())?;
            }
        }
        self.set_update_with(&r, &Value::DictView(temp, 2))?;
        Ok(Value::Set(r))
    }
}
