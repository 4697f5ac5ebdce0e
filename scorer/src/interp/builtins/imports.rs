//! `import`: the native modules by name (each built once and cached), and module objects.

use crate::interp::value::*;
use crate::interp::{Interp, PyResult, Value};
use std::rc::Rc;

impl<'a> Interp<'a> {
    pub fn new_module(&self, name: &'static str, entries: Vec<(&str, Value<'a>)>) -> Value<'a> {
        let mut d = NameMap::default();
        for (k, v) in entries {
            d.insert(Rc::from(k), v);
        }
        self.made(Value::Module(Rc::new(Module { name, dict: Attrs::new(d) })))
    }

    pub fn builtin_fn(name: &'static str) -> Value<'a> {
        Value::Builtin(Rc::new(Builtin { name, this: None }))
    }

    pub fn import_module(&mut self, name: &str) -> PyResult<'a, Value<'a>> {
        if let Some(m) = self.modules.get(name) {
            return Ok(m.clone());
        }
        // A module outlives the method that first imports it: its objects are shared, and
        // filling them in is not a write of the method's.
        crate::interp::isolation::shared(|| {
            let m = match name {
                "ast" => self.make_ast_module(),
                "os" | "os.path" | "stat" | "hashlib" | "json" | "sys" => {
                    self.make_os_module(name)?
                }
                "unittest" => self.make_unittest_module(),
                "re" => self.make_re_module(),
                _ => return Err(self.unsupported(format!("import of module '{name}'"))),
            };
            self.modules.insert(Rc::from(name), m.clone());
            if name == "os" {
                let p = self.import_module("os.path")?;
                if let Value::Module(om) = &m {
                    om.dict.borrow_mut().insert(Rc::from("path"), p);
                }
            }
            Ok(m)
        })
    }
}
