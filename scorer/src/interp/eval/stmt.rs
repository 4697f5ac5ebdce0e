//! Statements: the module and block runners, each statement's semantics, `raise`,
//! `try`/`except`/`finally` and `with` (whose `self.subTest()` blocks record their verdicts
//! through [`crate::unittest::verdict`]).

use super::isfilter::IsFilter;
use super::{start, Flow, Frame, FrameKind};
use crate::interp::scope::ScopeInfo;
use crate::interp::value::*;
use crate::interp::ExcKind;
use crate::interp::{Interp, Value};
use crate::interp::{PyErr, PyResult};
use crate::python::syntax as ast;
use std::rc::Rc;

impl<'a> Interp<'a> {
    // ------------------------------------------------------------------ module

    pub fn exec_module(&mut self, module: &'a ast::ModModule) -> PyResult<'a, ()> {
        self.set_plans = crate::interp::setplan::plan_module(&module.body);
        let mut frame = Frame {
            locals: self.globals.clone(),
            kind: FrameKind::Module,
            info: Rc::new(ScopeInfo::default()),
            qualname: Rc::from(""),
            func: None,
        };
        self.exec_block(&mut frame, &module.body)?;
        Ok(())
    }

    pub fn exec_block(
        &mut self,
        f: &mut Frame<'a>,
        body: &'a [ast::Stmt],
    ) -> PyResult<'a, Flow<'a>> {
        for s in body {
            match self.exec_stmt(f, s) {
                Ok(Flow::Normal) => {}
                Ok(other) => return Ok(other),
                Err(e) => return Err(self.at(e, start(s))),
            }
        }
        Ok(Flow::Normal)
    }

    /// Common statements inline; the rest in [`Self::exec_stmt_slow`] so that the frames on the
    /// recursive path (call → body → statement → expression → call) stay small.
    pub(super) fn exec_stmt(
        &mut self,
        f: &mut Frame<'a>,
        s: &'a ast::Stmt,
    ) -> PyResult<'a, Flow<'a>> {
        use ast::Stmt as S;
        self.step()?;
        match s {
            S::Expr(e) => {
                self.eval(f, &e.value)?;
                Ok(Flow::Normal)
            }
            S::Return(r) => match &r.value {
                Some(e) => Ok(Flow::Return(self.eval(f, e)?)),
                None => Ok(Flow::Return(Value::None)),
            },
            S::If(i) => {
                let t = self.eval(f, &i.test)?;
                if self.truthy(&t)? {
                    self.exec_block(f, &i.body)
                } else {
                    self.exec_block(f, &i.orelse)
                }
            }
            S::With(w) => self.exec_with(f, &w.items, 0, &w.body),
            S::Try(t) => self.exec_try(f, t),
            S::For(fo) => self.exec_for(f, fo),
            _ => self.exec_stmt_slow(f, s),
        }
    }

    #[inline(never)]
    pub(super) fn exec_for(
        &mut self,
        f: &mut Frame<'a>,
        fo: &'a ast::StmtFor,
    ) -> PyResult<'a, Flow<'a>> {
        let iterable = self.eval(f, &fo.iter)?;
        let it = self.get_iter(&iterable).map_err(|e| self.at(e, start(&*fo.iter)))?;
        let mut filter = IsFilter::of(f, fo, &it);
        if let Some(flt) = &mut filter {
            if self.loop_target_unread(f, fo) {
                flt.allow_skip();
            }
        }
        loop {
            self.step()?;
            #[cfg(feature = "fast-parse")]
            let next = {
                if let Some(flt) = &mut filter {
                    self.refresh_classes(f, flt);
                }
                let skip = filter.as_ref().and_then(IsFilter::walk_skip);
                let (next, passed) =
                    crate::interp::stdlib::ast::with_walk_skip(skip, || self.next(&it));
                if let Some(flt) = &mut filter {
                    let steps = flt.passed_over(passed);
                    self.charge(steps)?;
                }
                next
            };
            #[cfg(not(feature = "fast-parse"))]
            let next = self.next(&it);
            let Some(v) = next.map_err(|e| self.at(e, start(&*fo.iter)))? else {
                self.skip_check(f, &mut filter)?;
                return self.exec_block(f, &fo.orelse);
            };
            let rejected = self.bind_filtered(f, &fo.target, v, &mut filter, true)?;
            self.skip_check(f, &mut filter)?;
            if rejected {
                if let Some(d) = filter.as_ref().and_then(IsFilter::delta) {
                    self.charge(d)?;
                    continue;
                }
            }
            let before = self.steps;
            let flow = self.exec_block(f, &fo.body)?;
            if let Some(flt) = &mut filter {
                if rejected {
                    // The test was false, so the body did not run: measured once.
                    if matches!(flow, Flow::Normal) {
                        flt.measured(self.steps.saturating_sub(before));
                    }
                } else {
                    flt.body_ran();
                }
            }
            match flow {
                Flow::Break => return Ok(Flow::Normal),
                Flow::Return(v) => return Ok(Flow::Return(v)),
                Flow::Normal | Flow::Continue => {}
            }
        }
    }

    #[inline(never)]
    pub(super) fn exec_stmt_slow(
        &mut self,
        f: &mut Frame<'a>,
        s: &'a ast::Stmt,
    ) -> PyResult<'a, Flow<'a>> {
        use ast::Stmt as S;
        match s {
            S::Expr(e) => {
                self.eval(f, &e.value)?;
            }
            S::Assign(a) => {
                let v = self.eval(f, &a.value)?;
                for t in &a.targets {
                    self.assign(f, t, v.clone())?;
                }
            }
            S::AugAssign(a) => self.aug_assign(f, a)?,
            S::AnnAssign(a) => {
                if let Some(v) = &a.value {
                    let v = self.eval(f, v)?;
                    self.assign(f, &a.target, v)?;
                }
            }
            S::If(i) => {
                let t = self.eval(f, &i.test)?;
                if self.truthy(&t)? {
                    return self.exec_block(f, &i.body);
                }
                return self.exec_block(f, &i.orelse);
            }
            S::For(fo) => return self.exec_for(f, fo),
            S::While(w) => loop {
                self.step()?;
                let t = self.eval(f, &w.test)?;
                if !self.truthy(&t)? {
                    return self.exec_block(f, &w.orelse);
                }
                match self.exec_block(f, &w.body)? {
                    Flow::Break => return Ok(Flow::Normal),
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    Flow::Normal | Flow::Continue => {}
                }
            },
            S::Return(r) => {
                let v = match &r.value {
                    Some(e) => self.eval(f, e)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            S::Pass(_) => {}
            S::Break(_) => return Ok(Flow::Break),
            S::Continue(_) => return Ok(Flow::Continue),
            S::FunctionDef(d) => {
                let func = self.make_function(
                    f,
                    d.name.as_str(),
                    &d.args,
                    FuncBody::Stmts(&d.body),
                    Some(&d.body),
                )?;
                let mut v = Value::Func(func);
                for dec in d.decorator_list.iter().rev() {
                    let dv = self.eval(f, dec)?;
                    v = self.call(&dv, vec![v], vec![]).map_err(|e| self.at(e, start(dec)))?;
                }
                self.store(f, d.name.as_str(), v)?;
            }
            S::ClassDef(c) => {
                let v = self.make_class(f, c)?;
                self.store(f, c.name.as_str(), v)?;
            }
            S::With(w) => return self.exec_with(f, &w.items, 0, &w.body),
            S::Raise(r) => return Err(self.exec_raise(f, r)?),
            S::Try(t) => return self.exec_try(f, t),
            S::Assert(a) => {
                let t = self.eval(f, &a.test)?;
                if !self.truthy(&t)? {
                    let args = match &a.msg {
                        Some(m) => vec![self.eval(f, m)?],
                        None => vec![],
                    };
                    return Err(self.err_args(ExcKind::AssertionError, args, None));
                }
            }
            S::Import(i) => {
                for alias in &i.names {
                    let name = alias.name.as_str();
                    let m = self.import_module(name)?;
                    match &alias.asname {
                        Some(a) => self.store(f, a.as_str(), m)?,
                        None => {
                            let top = name.split('.').next().unwrap_or(name);
                            let tm = self.import_module(top)?;
                            self.store(f, top, tm)?;
                        }
                    }
                }
            }
            S::ImportFrom(i) => {
                if i.level.map_or(0, |l| l.to_u32()) > 0 {
                    return Err(self.unsupported("relative import"));
                }
                let mname = i.module.as_ref().map(|m| m.as_str()).unwrap_or("");
                let m = self.import_module(mname)?;
                for alias in &i.names {
                    let n = alias.name.as_str();
                    if n == "*" {
                        return Err(self.unsupported("from ... import *"));
                    }
                    let v = match self.getattr(&m, n) {
                        Ok(v) => v,
                        Err(e) if e.fatal => return Err(e),
                        Err(_) => match self.import_module(&format!("{mname}.{n}")) {
                            Ok(v) => v,
                            Err(_) => {
                                return Err(self.err(
                                    ExcKind::ImportError,
                                    format!(
                                        "cannot import name '{n}' from '{mname}' (/usr/local/lib/python3.11/{}.py)",
                                        mname.replace('.', "/")
                                    ),
                                ))
                            }
                        },
                    };
                    self.store(f, alias.asname.as_ref().map_or(n, |a| a.as_str()), v)?;
                }
            }
            S::Global(_) | S::Nonlocal(_) => {}
            S::Delete(d) => {
                for t in &d.targets {
                    self.delete(f, t)?;
                }
            }
            S::AsyncFunctionDef(_) => {
                return Err(self.unsupported(format!("async def (line {})", self.line_of(start(s)))))
            }
            S::AsyncFor(_) | S::AsyncWith(_) => {
                return Err(
                    self.unsupported(format!("async statement (line {})", self.line_of(start(s))))
                )
            }
            S::Match(_) => {
                return Err(
                    self.unsupported(format!("match statement (line {})", self.line_of(start(s))))
                )
            }
            S::TryStar(_) => {
                return Err(
                    self.unsupported(format!("try/except* (line {})", self.line_of(start(s))))
                )
            }
            S::TypeAlias(_) => {
                return Err(
                    self.unsupported(format!("type alias (line {})", self.line_of(start(s))))
                )
            }
        }
        Ok(Flow::Normal)
    }

    pub(super) fn exec_raise(
        &mut self,
        f: &mut Frame<'a>,
        r: &'a ast::StmtRaise,
    ) -> PyResult<'a, Box<PyErr<'a>>> {
        let Some(e) = &r.exc else {
            return match self.handling.last() {
                Some(h) => Ok(Box::new(PyErr { exc: h.exc.clone(), line: h.line, fatal: false })),
                None => Err(self.err(ExcKind::RuntimeError, "No active exception to reraise")),
            };
        };
        let v = self.eval(f, e)?;
        let cause = match &r.cause {
            Some(c) => Some(self.eval(f, c)?),
            None => None,
        };
        let exc = match &v {
            Value::Class(c) if crate::interp::exc::is_exception_class(c) => {
                self.call(&v, vec![], vec![])?
            }
            Value::Instance(i) if i.exc.is_some() => v.clone(),
            _ => {
                return Err(
                    self.err(ExcKind::TypeError, "exceptions must derive from BaseException")
                )
            }
        };
        if let Value::Instance(i) = &exc {
            // `raise X from Y` sets __cause__ (and __suppress_context__); inside a handler the
            // handled exception becomes __context__.
            if let Some(c) = cause {
                let c = match &c {
                    Value::Class(k) if crate::interp::exc::is_exception_class(k) => {
                        self.call(&c, vec![], vec![])?
                    }
                    Value::Instance(ci) if ci.exc.is_some() => c.clone(),
                    Value::None => Value::None,
                    _ => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            "exception causes must derive from BaseException",
                        ))
                    }
                };
                if let Some(e) = &i.exc {
                    let mut e = e.borrow_mut();
                    e.cause = Some(c);
                    e.suppress_context = true;
                }
            }
            if let Some(h) = self.handling.last() {
                if !h.exc.is(&exc) {
                    if let Some(e) = &i.exc {
                        e.borrow_mut().context = Some(h.exc.clone());
                    }
                }
            }
        }
        let line = match &exc {
            Value::Instance(i) => i.exc.as_ref().and_then(|e| e.borrow().tb_line),
            _ => None,
        };
        Ok(Box::new(PyErr {
            exc,
            line: line.or_else(|| Some(self.line_of(start(r)))),
            fatal: false,
        }))
    }

    pub(super) fn exec_try(
        &mut self,
        f: &mut Frame<'a>,
        t: &'a ast::StmtTry,
    ) -> PyResult<'a, Flow<'a>> {
        let mut result = match self.exec_block(f, &t.body) {
            Ok(Flow::Normal) => self.exec_block(f, &t.orelse),
            Ok(flow) => Ok(flow),
            Err(e) if e.fatal => return Err(e),
            Err(e) => self.handle_exception(f, t, e),
        };
        if !t.finalbody.is_empty() {
            if let Err(e) = &result {
                if e.fatal {
                    return result;
                }
            }
            match self.exec_block(f, &t.finalbody)? {
                Flow::Normal => {}
                other => result = Ok(other),
            }
        }
        result
    }

    pub(super) fn handle_exception(
        &mut self,
        f: &mut Frame<'a>,
        t: &'a ast::StmtTry,
        e: Box<PyErr<'a>>,
    ) -> PyResult<'a, Flow<'a>> {
        // Remember the traceback line on the instance, so `raise e` keeps the innermost line.
        if let (Value::Instance(i), Some(l)) = (&e.exc, e.line) {
            if let Some(x) = &i.exc {
                if x.borrow().tb_line.is_none() {
                    x.borrow_mut().tb_line = Some(l);
                }
            }
        }
        for h in &t.handlers {
            let ast::ExceptHandler::ExceptHandler(h) = h;
            let matches = match &h.type_ {
                None => true,
                Some(te) => {
                    let tv = self.eval(f, te)?;
                    self.exc_matches(&e.exc, &tv)?
                }
            };
            if !matches {
                continue;
            }
            if let Some(n) = &h.name {
                self.store(f, n.as_str(), e.exc.clone())?;
            }
            self.handling.push(e);
            let r = self.exec_block(f, &h.body);
            self.handling.pop();
            if let Some(n) = &h.name {
                f.locals.vars.remove(n.as_str());
            }
            return r;
        }
        Err(e)
    }

    pub(super) fn exc_matches(&mut self, exc: &Value<'a>, spec: &Value<'a>) -> PyResult<'a, bool> {
        match spec {
            Value::Class(c) if crate::interp::exc::is_exception_class(c) => Ok(match exc {
                Value::Instance(i) => i.class.is_subclass(c),
                _ => false,
            }),
            Value::Tuple(items) => {
                for s in items.iter() {
                    if self.exc_matches(exc, s)? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            _ => Err(self.err(
                ExcKind::TypeError,
                "catching classes that do not inherit from BaseException is not allowed",
            )),
        }
    }

    pub(super) fn exec_with(
        &mut self,
        f: &mut Frame<'a>,
        items: &'a [ast::WithItem],
        i: usize,
        body: &'a [ast::Stmt],
    ) -> PyResult<'a, Flow<'a>> {
        let Some(item) = items.get(i) else {
            return self.exec_block(f, body);
        };
        let ctx = self.eval(f, &item.context_expr)?;
        match &ctx {
            Value::Native(n) => match &**n {
                Native::File(_) => {
                    if let Some(t) = &item.optional_vars {
                        self.assign(f, t, ctx.clone())?;
                    }
                    let r = self.exec_with(f, items, i + 1, body);
                    if let Native::File(fo) = &**n {
                        fo.borrow_mut().closed = true;
                    }
                    r
                }
                Native::AssertRaises(expected, caught) => {
                    if let Some(t) = &item.optional_vars {
                        self.assign(f, t, ctx.clone())?;
                    }
                    let r = self.exec_with(f, items, i + 1, body);
                    match r {
                        Ok(flow) => {
                            let n = match expected {
                                Value::Class(c) => c.name.to_string(),
                                other => self.repr(other)?,
                            };
                            let _ = flow;
                            Err(self.err_args(
                                ExcKind::AssertionError,
                                vec![Value::Str(Rc::from(format!("{n} not raised")))],
                                None,
                            ))
                        }
                        Err(e) if e.fatal => Err(e),
                        Err(e) => {
                            if self.exc_matches(&e.exc, expected)? {
                                *caught.borrow_mut() = Some(e.exc.clone());
                                Ok(Flow::Normal)
                            } else {
                                Err(e)
                            }
                        }
                    }
                }
                Native::SubTest { .. } => {
                    if let Some(t) = &item.optional_vars {
                        self.assign(f, t, Value::None)?;
                    }
                    let r = self.exec_with(f, items, i + 1, body);
                    match r {
                        Ok(flow) => {
                            self.record_subtest(None);
                            Ok(flow)
                        }
                        Err(e) if e.fatal => Err(e),
                        Err(e) => {
                            self.record_subtest(Some(&e));
                            Ok(Flow::Normal)
                        }
                    }
                }
                _ => Err(self.err(
                    ExcKind::TypeError,
                    format!(
                        "'{}' object does not support the context manager protocol",
                        self.type_name(&ctx)
                    ),
                )),
            },
            Value::Instance(_) => {
                let enter = self.get_method(&ctx, "__enter__").map_err(|_| {
                    self.err(
                        ExcKind::TypeError,
                        format!(
                            "'{}' object does not support the context manager protocol",
                            self.type_name(&ctx)
                        ),
                    )
                })?;
                let exit = self.get_method(&ctx, "__exit__")?;
                let v = self.call_meth(enter, vec![], vec![])?;
                if let Some(t) = &item.optional_vars {
                    self.assign(f, t, v)?;
                }
                let r = self.exec_with(f, items, i + 1, body);
                match r {
                    Ok(flow) => {
                        self.call_meth(exit, vec![Value::None, Value::None, Value::None], vec![])?;
                        Ok(flow)
                    }
                    Err(e) if e.fatal => Err(e),
                    Err(e) => {
                        let cls = match &e.exc {
                            Value::Instance(i) => Value::Class(i.class.clone()),
                            _ => Value::None,
                        };
                        let sup =
                            self.call_meth(exit, vec![cls, e.exc.clone(), Value::None], vec![])?;
                        if self.truthy(&sup)? {
                            Ok(Flow::Normal)
                        } else {
                            Err(e)
                        }
                    }
                }
            }
            _ => Err(self.err(
                ExcKind::TypeError,
                format!(
                    "'{}' object does not support the context manager protocol",
                    self.type_name(&ctx)
                ),
            )),
        }
    }
}
