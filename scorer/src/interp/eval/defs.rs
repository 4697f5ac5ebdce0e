//! Definitions: `def` and `lambda` make functions (with their scope analysis and closure),
//! `class` makes classes (C3 method resolution order).

use super::{start, Frame, FrameKind};
use crate::interp::scope::ScopeInfo;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::PyResult;
use crate::interp::{Interp, Value};
use crate::python::syntax as ast;
use std::rc::Rc;

impl<'a> Interp<'a> {
    // ------------------------------------------------------------------ definitions

    pub(super) fn scope_info_for(
        &mut self,
        key: usize,
        build: impl FnOnce() -> ScopeInfo,
    ) -> Rc<ScopeInfo> {
        if let Some(i) = self.scope_infos.get(&key) {
            return i.clone();
        }
        let i = Rc::new(build());
        self.scope_infos.insert(key, i.clone());
        i
    }

    pub(super) fn nested_qualname(&self, f: &Frame<'a>, name: &str) -> Str {
        match f.kind {
            FrameKind::Module => Rc::from(name),
            FrameKind::Class => Rc::from(format!("{}.{name}", f.qualname)),
            FrameKind::Function => Rc::from(format!("{}.<locals>.{name}", f.qualname)),
        }
    }

    pub(super) fn closure_of(f: &Frame<'a>) -> Option<Rc<Scope<'a>>> {
        match f.kind {
            FrameKind::Module => None,
            FrameKind::Function => Some(f.locals.clone()),
            FrameKind::Class => f.locals.parent.clone(),
        }
    }

    pub(super) fn make_function(
        &mut self,
        f: &mut Frame<'a>,
        name: &str,
        args: &'a ast::Arguments,
        body: FuncBody<'a>,
        stmts: Option<&'a [ast::Stmt]>,
    ) -> PyResult<'a, Rc<Function<'a>>> {
        let mut defaults = Vec::new();
        for a in args.posonlyargs.iter().chain(args.args.iter()) {
            defaults.push(match &a.default {
                Some(d) => Some(self.eval(f, d)?),
                None => None,
            });
        }
        let mut kwdefaults = Vec::new();
        for a in &args.kwonlyargs {
            kwdefaults.push(match &a.default {
                Some(d) => Some(self.eval(f, d)?),
                None => None,
            });
        }
        let key = args as *const ast::Arguments as usize;
        let mut is_gen = false;
        let info = self.scope_info_for(key, || {
            let mut info = ScopeInfo::default();
            for a in args.posonlyargs.iter().chain(args.args.iter()).chain(args.kwonlyargs.iter()) {
                info.locals.insert(Rc::from(a.def.arg.as_str()));
            }
            if let Some(a) = &args.vararg {
                info.locals.insert(Rc::from(a.arg.as_str()));
            }
            if let Some(a) = &args.kwarg {
                info.locals.insert(Rc::from(a.arg.as_str()));
            }
            match body {
                FuncBody::Stmts(b) => crate::interp::scope::collect_locals(b, &mut info),
                FuncBody::Expr(e) => crate::interp::scope::collect_expr_binds(e, &mut info),
            }
            info
        });
        if let Some(b) = stmts {
            is_gen = crate::interp::scope::contains_yield(b);
        }
        let qualname = if name == "<lambda>" {
            self.nested_qualname(f, "<lambda>")
        } else {
            self.nested_qualname(f, name)
        };
        let closure = Self::closure_of(f);
        if let Some(s) = &closure {
            self.objects.note_scope(s);
        }
        let func = new_function(Function {
            name: Rc::from(name),
            qualname,
            args,
            body,
            defaults,
            kwdefaults,
            closure,
            info,
            dict: Attrs::default(),
            is_generator: is_gen,
            defining_class: std::cell::RefCell::new(None),
        });
        self.objects.note(&Value::Func(func.clone()));
        Ok(func)
    }

    pub(super) fn make_class(
        &mut self,
        f: &mut Frame<'a>,
        c: &'a ast::StmtClassDef,
    ) -> PyResult<'a, Value<'a>> {
        let mut bases = Vec::new();
        for b in &c.bases {
            match self.eval(f, b)? {
                Value::Class(k) => bases.push(k),
                Value::Type(BType::Object) => {}
                other => {
                    return Err(self.unsupported(format!(
                        "class base of type '{}' (line {})",
                        self.type_name(&other),
                        self.line_of(start(b))
                    )))
                }
            }
        }
        if !c.keywords.is_empty() {
            return Err(
                self.unsupported(format!("class keywords (line {})", self.line_of(start(c))))
            );
        }
        let qualname = self.nested_qualname(f, c.name.as_str());
        let ns = Scope::new(Self::closure_of(f));
        let mut frame = Frame {
            locals: ns.clone(),
            kind: FrameKind::Class,
            info: Rc::new(ScopeInfo::default()),
            qualname: qualname.clone(),
            func: None,
        };
        ns.vars.set("__module__", Value::str("refactorbench_official_test"));
        ns.vars.set("__qualname__", Value::Str(qualname.clone()));
        // A docstring is the body's first assignment (`__doc__`), before any other name.
        if let Some(doc) = crate::interp::stdlib::ast::docstring_of_body(&c.body) {
            ns.vars.set("__doc__", Value::str(&doc));
        }
        self.exec_block(&mut frame, &c.body)?;
        let mut dict = std::mem::take(&mut *ns.vars.map_mut());
        let is_testcase = bases.iter().any(|b| b.is_subclass_named("TestCase"));
        crate::interp::stdlib::classdict::finish_class_dict(
            &mut dict,
            c.name.as_str(),
            &bases,
            is_testcase,
        );
        let is_exc = bases.iter().any(crate::interp::exc::is_exception_class);
        let class = Rc::new(Class {
            name: Rc::from(c.name.as_str()),
            qualname,
            module: Rc::from("refactorbench_official_test"),
            bases: bases.clone(),
            mro: Mut::new(Vec::new()),
            hooks: bases.iter().fold(hooks_of_dict(&dict), |h, b| h | b.hooks),
            dict: Attrs::new(dict),
            kind: ClassKind::User,
        });
        let _ = is_exc;
        self.objects.note(&Value::Class(class.clone()));
        let mro = self.c3(&class, &bases)?;
        *class.mro.borrow_mut() = mro;
        // Zero-argument super() needs the defining class of each method.
        #[allow(
            clippy::iter_over_hash_type,
            reason = "sets each method's defining class; the order does not matter"
        )]
        for v in class.dict.borrow().values() {
            let v: &Value<'a> = v;
            let func = match v {
                Value::Func(fu) => Some(fu.clone()),
                Value::Native(n) => match &**n {
                    Native::ClassMethod(Value::Func(fu))
                    | Native::StaticMethod(Value::Func(fu)) => Some(fu.clone()),
                    _ => None,
                },
                _ => None,
            };
            if let Some(fu) = func {
                *fu.defining_class.borrow_mut() = Some(class.clone());
            }
        }
        let mut v = Value::Class(class);
        for dec in c.decorator_list.iter().rev() {
            let dv = self.eval(f, dec)?;
            v = self.call(&dv, vec![v], vec![])?;
        }
        Ok(v)
    }

    pub(super) fn c3(
        &self,
        class: &Rc<Class<'a>>,
        bases: &[Rc<Class<'a>>],
    ) -> PyResult<'a, Vec<Rc<Class<'a>>>> {
        let mut seqs: Vec<Vec<Rc<Class<'a>>>> =
            bases.iter().map(|b| b.mro.borrow().clone()).collect();
        seqs.push(bases.to_vec());
        let mut out = vec![class.clone()];
        loop {
            seqs.retain(|s| !s.is_empty());
            if seqs.is_empty() {
                return Ok(out);
            }
            let mut found = None;
            for s in &seqs {
                let cand = &s[0];
                if !seqs.iter().any(|o| o[1..].iter().any(|x| Rc::ptr_eq(x, cand))) {
                    found = Some(cand.clone());
                    break;
                }
            }
            let Some(c) = found else {
                return Err(self.err(
                    ExcKind::TypeError,
                    "Cannot create a consistent method resolution order (MRO)",
                ));
            };
            for s in &mut seqs {
                if Rc::ptr_eq(&s[0], &c) {
                    s.remove(0);
                }
            }
            out.push(c);
        }
    }
}
