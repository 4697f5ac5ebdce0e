//! The methods of `set` and `frozenset`.

use super::arg;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub(super) fn set_method(
        &mut self,
        this: &Value<'a>,
        name: &str,
        args: Vec<Value<'a>>,
    ) -> PyResult<'a, Value<'a>> {
        use crate::python::syntax::Operator as O;
        let as_set = |it: &mut Self, v: &Value<'a>| -> PyResult<'a, Value<'a>> {
            match v {
                Value::Set(_) | Value::FrozenSet(_) => Ok(v.clone()),
                other => {
                    let items = it.to_vec(other)?;
                    Ok(Value::Set(it.new_set(items)?))
                }
            }
        };
        match (name, this) {
            ("add", Value::Set(s)) => {
                self.set_add(s, arg(&args, 0))?;
                Ok(Value::None)
            }
            ("update", Value::Set(s)) => {
                for a in &args {
                    for x in self.to_vec(a)? {
                        self.set_add(s, x)?;
                    }
                }
                Ok(Value::None)
            }
            ("remove" | "discard", Value::Set(s)) => {
                let k = arg(&args, 0);
                if self.dict_del(s, &k)?.is_none() && name == "remove" {
                    let r = self.repr(&k)?;
                    return Err(self.err_args(ExcKind::KeyError, vec![k], Some(r)));
                }
                Ok(Value::None)
            }
            ("pop", Value::Set(s)) => {
                let first = s.borrow().entries.iter().position(Option::is_some);
                match first.and_then(|i| s.borrow_mut().remove_slot(i)) {
                    Some((k, _)) => Ok(k),
                    None => Err(self.err(ExcKind::KeyError, "pop from an empty set")),
                }
            }
            ("clear", Value::Set(s)) => {
                s.borrow_mut().clear();
                Ok(Value::None)
            }
            ("copy", _) => Ok(match this {
                Value::Set(s) => Value::Set(Rc::new(Mut::new(s.borrow().clone()))),
                other => other.clone(),
            }),
            ("union" | "intersection" | "difference" | "symmetric_difference", _) => {
                let op = match name {
                    "union" => O::BitOr,
                    "intersection" => O::BitAnd,
                    "difference" => O::Sub,
                    _ => O::BitXor,
                };
                let mut acc = match this {
                    Value::Set(s) => Value::Set(Rc::new(Mut::new(s.borrow().clone()))),
                    other => other.clone(),
                };
                for a in &args {
                    let o = as_set(self, a)?;
                    acc = self.binop(op, &acc, &o)?;
                }
                Ok(acc)
            }
            ("issubset", _) => {
                let o = as_set(self, &arg(&args, 0))?;
                Ok(Value::Bool(self.is_subset(this, &o)?))
            }
            ("issuperset", _) => {
                let o = as_set(self, &arg(&args, 0))?;
                Ok(Value::Bool(self.is_subset(&o, this)?))
            }
            ("isdisjoint", _) => {
                for x in self.to_vec(&arg(&args, 0))? {
                    if self.contains(this, &x)? {
                        return Ok(Value::Bool(false));
                    }
                }
                Ok(Value::Bool(true))
            }
            ("intersection_update" | "difference_update", Value::Set(s)) => {
                let o = as_set(self, &arg(&args, 0))?;
                let op = if name == "intersection_update" { O::BitAnd } else { O::Sub };
                let r = self.binop(op, this, &o)?;
                if let Value::Set(r) = r {
                    let inner = r.borrow().clone();
                    *s.borrow_mut() = inner;
                }
                Ok(Value::None)
            }
            _ => Err(self.no_attr(this, name)),
        }
    }
}
