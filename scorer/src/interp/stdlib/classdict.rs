//! Class namespaces as CPython 3.11 shows them: `vars(C)` / `C.__dict__` is a `mappingproxy`
//! over the class dict in definition order (`__module__`, the body's names, then what
//! `type.__new__` adds: the `__dict__` / `__weakref__` getset descriptors where no base has them,
//! `__doc__` when the body has no docstring, and `TestCase.__init_subclass__`'s two attributes),
//! and `vars(obj)` of an instance or function is its own dict.
//!
//! The proxy is live, as CPython's: each of its operations reads the class dict as it is then.

use std::rc::Rc;

use crate::interp::eval::Kwargs;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, PyResult, Value};

/// The instance-dict key under which a proxy keeps its class (not an identifier).
const MAPPING: &str = "<mapping>";
/// The instance-dict keys of a getset descriptor (not identifiers).
const GS_NAME: &str = "<name>";
const GS_OWNER: &str = "<owner>";

fn native_class<'a>(name: &str, methods: &[(&str, &'static str)]) -> Rc<Class<'a>> {
    let mut d = NameMap::default();
    for (m, builtin) in methods {
        d.insert(Rc::from(*m), Interp::builtin_fn(builtin));
    }
    Class::builtin(name, "builtins", d, ClassKind::Native)
}

/// `<attribute 'NAME' of 'OWNER' objects>`: the `__dict__` / `__weakref__` entry of a class dict.
fn getset<'a>(name: &str, owner: &str) -> Value<'a> {
    let class = native_class(
        "getset_descriptor",
        &[("__repr__", "mappingproxy.getset_repr"), ("__str__", "mappingproxy.getset_repr")],
    );
    let mut d = NameMap::default();
    d.insert(Rc::from(GS_NAME), Value::str(name));
    d.insert(Rc::from(GS_OWNER), Value::str(owner));
    Value::Instance(Rc::new(Instance::new(class, d, None)))
}

/// Completes a user class's dict as `type.__new__` does (see the module doc). `bases` are the
/// class's explicit bases (`object` left out); `is_testcase`: it derives from `TestCase`.
pub(crate) fn finish_class_dict<'a>(
    dict: &mut NameMap<Value<'a>>,
    name: &str,
    bases: &[Rc<Class<'a>>],
    is_testcase: bool,
) {
    dict.shift_remove("__qualname__");
    // `type.__new__` adds the slots its best base lacks: the base with the most derived
    // layout, an exception class over plain Python classes (whose layout is `object`'s). A
    // Python class (user or harness) has both slots; a builtin exception class `__dict__` only.
    let best = bases
        .iter()
        .find(|b| b.mro.borrow().iter().any(|k| k.kind == ClassKind::Exception))
        .or(bases.first());
    if best.is_none() {
        dict.entry(Rc::from("__dict__")).or_insert_with(|| getset("__dict__", name));
    }
    if best.is_none_or(|b| b.kind == ClassKind::Exception) {
        dict.entry(Rc::from("__weakref__")).or_insert_with(|| getset("__weakref__", name));
    }
    dict.entry(Rc::from("__doc__")).or_insert(Value::None);
    if is_testcase {
        dict.entry(Rc::from("_classSetupFailed")).or_insert(Value::Bool(false));
        dict.entry(Rc::from("_class_cleanups")).or_insert_with(|| Value::list(Vec::new()));
    }
}

/// Whether `v` is a getset descriptor made by [`getset`] (`obj.__dict__` / `obj.__weakref__`
/// then read the object's own value, not the descriptor).
pub(crate) fn is_getset(v: &Value<'_>) -> bool {
    matches!(v, Value::Instance(i) if i.class.kind == ClassKind::Native
        && &*i.class.name == "getset_descriptor")
}

impl<'a> Interp<'a> {
    /// `C.__dict__` / `vars(C)`.
    pub fn class_proxy(&mut self, c: &Rc<Class<'a>>) -> PyResult<'a, Value<'a>> {
        let class = native_class(
            "mappingproxy",
            &[
                ("__getitem__", "mappingproxy.__getitem__"),
                ("__len__", "mappingproxy.__len__"),
                ("__iter__", "mappingproxy.__iter__"),
                ("__contains__", "mappingproxy.__contains__"),
                ("__repr__", "mappingproxy.__repr__"),
                ("__str__", "mappingproxy.__str__"),
                ("__eq__", "mappingproxy.__eq__"),
                ("keys", "mappingproxy.keys"),
                ("values", "mappingproxy.values"),
                ("items", "mappingproxy.items"),
                ("get", "mappingproxy.get"),
                ("copy", "mappingproxy.copy"),
            ],
        );
        let mut inst = NameMap::default();
        inst.insert(Rc::from(MAPPING), Value::Class(c.clone()));
        Ok(self.made(Value::Instance(Rc::new(Instance::new(class, inst, None)))))
    }

    /// A copy of a class's namespace, in order (what a proxy's operation reads).
    fn class_mapping(&mut self, c: &Rc<Class<'a>>) -> PyResult<'a, Value<'a>> {
        let d = self.new_dict();
        let pairs: Vec<_> = c.dict.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        for (k, v) in pairs {
            self.dict_set(&d, Value::Str(k), v)?;
        }
        Ok(Value::Dict(d))
    }

    /// The mapping behind a proxy, read now.
    fn proxy_mapping(&mut self, proxy: &Value<'a>) -> Option<PyResult<'a, Value<'a>>> {
        let Value::Instance(i) = proxy else { return None };
        if &*i.class.name != "mappingproxy" || i.class.kind != ClassKind::Native {
            return None;
        }
        match i.dict.get(MAPPING)? {
            Value::Class(c) => Some(self.class_mapping(&c)),
            other => Some(Ok(other)),
        }
    }

    /// The methods of `mappingproxy` and `getset_descriptor` (`args[0]` is the object).
    pub fn mappingproxy_method(
        &mut self,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let this = args.first().cloned().unwrap_or(Value::None);
        let Value::Instance(i) = &this else {
            return Err(self.err(
                ExcKind::TypeError,
                format!("descriptor '{name}' requires a 'mappingproxy' object"),
            ));
        };
        if name == "getset_repr" {
            let s = |k: &str| match i.dict.get(k) {
                Some(Value::Str(s)) => s.to_string(),
                _ => String::new(),
            };
            return Ok(Value::str(&format!(
                "<attribute '{}' of '{}' objects>",
                s(GS_NAME),
                s(GS_OWNER)
            )));
        }
        let map = match self.proxy_mapping(&this) {
            Some(m) => m?,
            None => return Err(self.err(ExcKind::TypeError, "mappingproxy without a mapping")),
        };
        let rest: Vec<Value<'a>> = args.iter().skip(1).cloned().collect();
        match name {
            "__getitem__" => self.getitem(&map, &rest.first().cloned().unwrap_or(Value::None)),
            "__len__" => Ok(Value::Int(self.len_of(&map)? as i64)),
            "__iter__" => self.get_iter(&map),
            "__contains__" => {
                Ok(Value::Bool(self.contains(&map, &rest.first().cloned().unwrap_or(Value::None))?))
            }
            "__repr__" => Ok(Value::str(&format!("mappingproxy({})", self.repr(&map)?))),
            "__str__" => Ok(Value::str(&self.str_of(&map)?)),
            "__eq__" => {
                let other = rest.first().cloned().unwrap_or(Value::None);
                let other = match self.proxy_mapping(&other) {
                    Some(m) => m?,
                    None => other,
                };
                Ok(Value::Bool(self.compare(crate::python::syntax::CmpOp::Eq, &map, &other)?))
            }
            "keys" | "values" | "items" | "get" | "copy" => {
                let m = self.getattr(&map, name)?;
                self.call(&m, rest, kwargs)
            }
            _ => Err(self.err(
                ExcKind::AttributeError,
                format!("'mappingproxy' object has no attribute '{name}'"),
            )),
        }
    }
}
