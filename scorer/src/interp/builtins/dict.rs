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
