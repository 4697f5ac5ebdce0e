//! Statements and expressions: scoping, calls, classes, comprehensions and generator expressions.

use std::rc::Rc;

use crate::python::syntax::{self as ast, Ranged};

use super::scope::ScopeInfo;
use super::value::*;
use super::{Interp, Value};
use super::{PyErr, PyResult};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameKind {
    Module,
    Function,
    Class,
}

/// One executing code block.
pub struct Frame<'a> {
    pub locals: Rc<Scope<'a>>,
    pub kind: FrameKind,
    pub info: Rc<ScopeInfo>,
    pub qualname: Str,
    /// The function running in this frame (for zero-argument `super()`).
    pub func: Option<Rc<Function<'a>>>,
}

pub enum Flow<'a> {
    Normal,
    Break,
    Continue,
    Return(Value<'a>),
}

/// Positional and keyword arguments of a call.
pub type Kwargs<'a> = Vec<(Str, Value<'a>)>;

/// A looked-up method, bound without allocating.
pub enum Meth<'a> {
    Plain(Value<'a>),
    Func(Value<'a>, Rc<Function<'a>>),
    Builtin(&'static str, Value<'a>),
}

fn start(r: &impl Ranged) -> u32 {
    u32::from(r.start())
}

/// Whether every body whose variables a name load in `f` can reach (its own and the enclosing
/// function bodies) binds only the names its static analysis found: then a site found global
/// stays global ([`Interp::global_load_seen`] may answer first).
fn scopes_fixed(f: &Frame<'_>) -> bool {
    if f.info.missed_a_binding() {
        return false;
    }
    let mut s = f.locals.parent.as_deref();
    while let Some(sc) = s {
        if !sc.vars.bindings_fixed() {
            return false;
        }
        s = sc.parent.as_deref();
    }
    true
}

/// Whether a body enclosing `f` has `name` among its locals (bound now or not).
fn enclosing_may_bind(f: &Frame<'_>, name: &str) -> bool {
    let mut s = f.locals.parent.as_deref();
    while let Some(sc) = s {
        if sc.vars.may_bind(name) {
            return true;
        }
        s = sc.parent.as_deref();
    }
    false
}

impl<'a> Interp<'a> {
    // ------------------------------------------------------------------ errors and lines

    /// Attaches the line of `offset` to an error that has none yet (the innermost test-file line).
    fn at(&self, mut e: Box<PyErr<'a>>, offset: u32) -> Box<PyErr<'a>> {
        if e.line.is_none() {
            e.line = Some(self.line_of(offset));
        }
        e
    }

    fn expr_line_offset(&self, e: &ast::Expr) -> u32 {
        match e {
            // CPython 3.11 reports attribute loads spanning lines at the attribute's last line.
            ast::Expr::Attribute(a) => u32::from(a.range.end()),
            ast::Expr::Call(c) => match &*c.func {
                ast::Expr::Attribute(a) => u32::from(a.range.end()),
                _ => start(e),
            },
            _ => start(e),
        }
    }

    // ------------------------------------------------------------------ module

    pub fn exec_module(&mut self, module: &'a ast::ModModule) -> PyResult<'a, ()> {
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
    fn exec_stmt(&mut self, f: &mut Frame<'a>, s: &'a ast::Stmt) -> PyResult<'a, Flow<'a>> {
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
    fn exec_for(&mut self, f: &mut Frame<'a>, fo: &'a ast::StmtFor) -> PyResult<'a, Flow<'a>> {
        let iterable = self.eval(f, &fo.iter)?;
        let it = self.get_iter(&iterable).map_err(|e| self.at(e, start(&*fo.iter)))?;
        loop {
            self.step()?;
            let Some(v) = self.next(&it).map_err(|e| self.at(e, start(&*fo.iter)))? else {
                return self.exec_block(f, &fo.orelse);
            };
            self.assign(f, &fo.target, v)?;
            match self.exec_block(f, &fo.body)? {
                Flow::Break => return Ok(Flow::Normal),
                Flow::Return(v) => return Ok(Flow::Return(v)),
                Flow::Normal | Flow::Continue => {}
            }
        }
    }

    #[inline(never)]
    fn exec_stmt_slow(&mut self, f: &mut Frame<'a>, s: &'a ast::Stmt) -> PyResult<'a, Flow<'a>> {
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
                    return Err(self.err_args("AssertionError", args, None));
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
                                    "ImportError",
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

    fn exec_raise(
        &mut self,
        f: &mut Frame<'a>,
        r: &'a ast::StmtRaise,
    ) -> PyResult<'a, Box<PyErr<'a>>> {
        let Some(e) = &r.exc else {
            return match self.handling.last() {
                Some(h) => Ok(Box::new(PyErr { exc: h.exc.clone(), line: h.line, fatal: false })),
                None => Err(self.err("RuntimeError", "No active exception to reraise")),
            };
        };
        let v = self.eval(f, e)?;
        let cause = match &r.cause {
            Some(c) => Some(self.eval(f, c)?),
            None => None,
        };
        let exc = match &v {
            Value::Class(c) if super::exc::is_exception_class(c) => {
                self.call(&v, vec![], vec![])?
            }
            Value::Instance(i) if i.exc.is_some() => v.clone(),
            _ => return Err(self.err("TypeError", "exceptions must derive from BaseException")),
        };
        if let Value::Instance(i) = &exc {
            // `raise X from Y` sets __cause__ (and __suppress_context__); inside a handler the
            // handled exception becomes __context__.
            if let Some(c) = cause {
                let c = match &c {
                    Value::Class(k) if super::exc::is_exception_class(k) => {
                        self.call(&c, vec![], vec![])?
                    }
                    Value::Instance(ci) if ci.exc.is_some() => c.clone(),
                    Value::None => Value::None,
                    _ => {
                        return Err(self
                            .err("TypeError", "exception causes must derive from BaseException"))
                    }
                };
                let mut d = i.dict.borrow_mut();
                d.insert(Rc::from("__cause__"), c);
                d.insert(Rc::from("__suppress_context__"), Value::Bool(true));
            }
            if let Some(h) = self.handling.last() {
                if !h.exc.is(&exc) {
                    i.dict.borrow_mut().insert(Rc::from("__context__"), h.exc.clone());
                }
            }
        }
        let line = match &exc {
            Value::Instance(i) => i.dict.borrow().get("__tb_line__").and_then(|v| match v {
                Value::Int(n) => Some(*n as u32),
                _ => None,
            }),
            _ => None,
        };
        Ok(Box::new(PyErr {
            exc,
            line: line.or_else(|| Some(self.line_of(start(r)))),
            fatal: false,
        }))
    }

    fn exec_try(&mut self, f: &mut Frame<'a>, t: &'a ast::StmtTry) -> PyResult<'a, Flow<'a>> {
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

    fn handle_exception(
        &mut self,
        f: &mut Frame<'a>,
        t: &'a ast::StmtTry,
        e: Box<PyErr<'a>>,
    ) -> PyResult<'a, Flow<'a>> {
        // Remember the traceback line on the instance, so `raise e` keeps the innermost line.
        if let (Value::Instance(i), Some(l)) = (&e.exc, e.line) {
            i.dict.borrow_mut().entry(Rc::from("__tb_line__")).or_insert(Value::Int(i64::from(l)));
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

    fn exc_matches(&mut self, exc: &Value<'a>, spec: &Value<'a>) -> PyResult<'a, bool> {
        match spec {
            Value::Class(c) if super::exc::is_exception_class(c) => Ok(match exc {
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
                "TypeError",
                "catching classes that do not inherit from BaseException is not allowed",
            )),
        }
    }

    fn exec_with(
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
                                "AssertionError",
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
                    "TypeError",
                    format!(
                        "'{}' object does not support the context manager protocol",
                        self.type_name(&ctx)
                    ),
                )),
            },
            Value::Instance(_) => {
                let enter = self.get_method(&ctx, "__enter__").map_err(|_| {
                    self.err(
                        "TypeError",
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
                "TypeError",
                format!(
                    "'{}' object does not support the context manager protocol",
                    self.type_name(&ctx)
                ),
            )),
        }
    }

    /// Records one subtest outcome (None = passed).
    pub fn record_subtest(&mut self, e: Option<&PyErr<'a>>) {
        let o = match e {
            None => super::SubOutcome {
                status: crate::report::Status::Pass,
                exc_type: None,
                message: None,
                line: None,
            },
            Some(e) => {
                let (status, exc_type, message) = self.classify(e);
                let line = if status == crate::report::Status::Skip { None } else { e.line };
                super::SubOutcome { status, exc_type: Some(exc_type), message: Some(message), line }
            }
        };
        self.record.subtests.push(o);
    }

    /// Status, exception type name and first message line of an error, as the harness reports them.
    pub fn classify(&mut self, e: &PyErr<'a>) -> (crate::report::Status, String, String) {
        use crate::report::Status;
        let (name, status, message) = match &e.exc {
            Value::Instance(i) => {
                let name = i.class.name.to_string();
                let status = if e.fatal {
                    Status::Error
                } else if i.class.is_subclass_named("SkipTest") {
                    Status::Skip
                } else if i.class.is_subclass_named("AssertionError") {
                    Status::Fail
                } else {
                    Status::Error
                };
                (name, status, self.str_of(&e.exc).unwrap_or_else(|_| "<unprintable>".to_string()))
            }
            other => (self.type_name(other), Status::Error, String::new()),
        };
        if matches!(status, Status::Fail | Status::Error) {
            // unittest formats its traceback (see `Interp::ast_parse_entries`).
            self.ast_parse_entries = self.ast_parse_entries.saturating_add(1);
        }
        let first = message.split('\n').next().unwrap_or("").to_string();
        let first = super::fmt::normalise_addresses(&first);
        let cut: String = first.chars().take(1000).collect();
        (status, name, cut)
    }

    // ------------------------------------------------------------------ definitions

    fn scope_info_for(&mut self, key: usize, build: impl FnOnce() -> ScopeInfo) -> Rc<ScopeInfo> {
        if let Some(i) = self.scope_infos.get(&key) {
            return i.clone();
        }
        let i = Rc::new(build());
        self.scope_infos.insert(key, i.clone());
        i
    }

    fn nested_qualname(&self, f: &Frame<'a>, name: &str) -> Str {
        match f.kind {
            FrameKind::Module => Rc::from(name),
            FrameKind::Class => Rc::from(format!("{}.{name}", f.qualname)),
            FrameKind::Function => Rc::from(format!("{}.<locals>.{name}", f.qualname)),
        }
    }

    fn closure_of(f: &Frame<'a>) -> Option<Rc<Scope<'a>>> {
        match f.kind {
            FrameKind::Module => None,
            FrameKind::Function => Some(f.locals.clone()),
            FrameKind::Class => f.locals.parent.clone(),
        }
    }

    fn make_function(
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
                FuncBody::Stmts(b) => super::scope::collect_locals(b, &mut info),
                FuncBody::Expr(e) => super::scope::collect_expr_binds(e, &mut info),
            }
            info
        });
        if let Some(b) = stmts {
            is_gen = super::scope::contains_yield(b);
        }
        let qualname = if name == "<lambda>" {
            self.nested_qualname(f, "<lambda>")
        } else {
            self.nested_qualname(f, name)
        };
        Ok(Rc::new(Function {
            name: Rc::from(name),
            qualname,
            args,
            body,
            defaults,
            kwdefaults,
            closure: Self::closure_of(f),
            info,
            dict: Mut::new(NameMap::default()),
            is_generator: is_gen,
        }))
    }

    fn make_class(
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
        self.exec_block(&mut frame, &c.body)?;
        let dict = std::mem::take(&mut *ns.vars.map_mut());
        let is_exc = bases.iter().any(super::exc::is_exception_class);
        let class = Rc::new(Class {
            name: Rc::from(c.name.as_str()),
            qualname,
            module: Rc::from("refactorbench_official_test"),
            bases: bases.clone(),
            mro: Mut::new(Vec::new()),
            dict: Mut::new(dict),
            kind: ClassKind::User,
        });
        let _ = is_exc;
        let mro = self.c3(&class, &bases)?;
        *class.mro.borrow_mut() = mro;
        // Zero-argument super() needs the defining class of each method.
        for v in class.dict.borrow().values() {
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
                fu.dict
                    .borrow_mut()
                    .insert(Rc::from("__defining_class__"), Value::Class(class.clone()));
            }
        }
        let mut v = Value::Class(class);
        for dec in c.decorator_list.iter().rev() {
            let dv = self.eval(f, dec)?;
            v = self.call(&dv, vec![v], vec![])?;
        }
        Ok(v)
    }

    fn c3(
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
                return Err(self
                    .err("TypeError", "Cannot create a consistent method resolution order (MRO)"));
            };
            for s in &mut seqs {
                if Rc::ptr_eq(&s[0], &c) {
                    s.remove(0);
                }
            }
            out.push(c);
        }
    }

    // ------------------------------------------------------------------ names

    /// The value of `name` at a load site: `name` is the identifier in the syntax tree, so its
    /// address names the site for the global load cache.
    pub fn load_name(&mut self, f: &Frame<'a>, name: &'a str) -> PyResult<'a, Value<'a>> {
        match f.kind {
            FrameKind::Function => {
                // No enclosing function scope: a global or a builtin (`isinstance`, `ast` in a
                // test method), the same at this site until the globals change. The cache only
                // knows sites found not local, and whether a name is local is fixed by the syntax
                // tree, so it is asked first: unless the body bound a name its static analysis
                // missed (`ScopeInfo::missed_a_binding`), when its variables must be asked first.
                let top_level = f.locals.parent.is_none();
                let fixed = scopes_fixed(f);
                if fixed {
                    if let Some(v) = self.global_load_seen(name) {
                        return Ok(v);
                    }
                }
                // A function's variables hold only its locals, in slots (the site remembers its
                // slot), and names a missed binding form bound; then tell an unbound local from a
                // global or closure name.
                if f.locals.vars.laid_out_by(&f.info) {
                    match self.local_slot(f, name) {
                        Some(i) => {
                            if let Some(v) = f.locals.vars.slot(i) {
                                return Ok(v);
                            }
                        }
                        None if f.info.missed_a_binding() => {
                            if let Some(v) = f.locals.vars.get(name) {
                                return Ok(v);
                            }
                        }
                        None => {}
                    }
                } else if let Some(v) = f.locals.vars.get(name) {
                    return Ok(v);
                }
                if top_level && f.info.missed_a_binding() {
                    if let Some(v) = self.global_load_seen(name) {
                        return Ok(v);
                    }
                }
                if f.info.is_local(name) {
                    return Err(self.err(
                        "UnboundLocalError",
                        format!("cannot access local variable '{name}' where it is not associated with a value"),
                    ));
                }
                if top_level {
                    return self.load_global(name);
                }
                if !f.info.globals.contains(name) {
                    let mut s = f.locals.parent.clone();
                    while let Some(sc) = s {
                        if let Some(v) = sc.vars.get(name) {
                            return Ok(v);
                        }
                        s = sc.parent.clone();
                    }
                }
                // Not local to any enclosing body either (so never will be): a global or builtin
                // for good, as at the top level.
                if fixed && !enclosing_may_bind(f, name) {
                    return self.load_global(name);
                }
            }
            FrameKind::Class => {
                let mut s = Some(f.locals.clone());
                while let Some(sc) = s {
                    if let Some(v) = sc.vars.get(name) {
                        return Ok(v);
                    }
                    s = sc.parent.clone();
                }
            }
            FrameKind::Module => {}
        }
        if let Some(v) = self.globals.vars.map().get(name) {
            return Ok(v.clone());
        }
        if let Some(v) = self.builtins.get(name) {
            return Ok(v.clone());
        }
        Err(self.err("NameError", format!("name '{name}' is not defined")))
    }

    /// A global or builtin load from a function body that [`Self::global_load_seen`] did not
    /// answer: looked up, and remembered for the site with the globals' version (builtins never
    /// change after `Interp::new`). A name that is neither is not remembered (NameError each time).
    fn load_global(&mut self, name: &'a str) -> PyResult<'a, Value<'a>> {
        let version = self.globals.vars.version();
        let found = self.globals.vars.map().get(name).cloned();
        let Some(v) = found.or_else(|| self.builtins.get(name).cloned()) else {
            return Err(self.err("NameError", format!("name '{name}' is not defined")));
        };
        self.global_loads.put(name, version, v.clone());
        Ok(v)
    }

    /// The slot of local `name` (a site in the syntax tree) in the variables of `f`, laid out by
    /// `f.info`; `None` when it is not one of the body's locals. Remembered per site.
    #[inline]
    fn local_slot(&mut self, f: &Frame<'a>, name: &'a str) -> Option<u32> {
        if let Some(slot) = self.local_sites.get(name, &f.info) {
            return (slot != super::loadcache::NOT_LOCAL).then_some(slot);
        }
        let slot = f.info.slot_of(name);
        self.local_sites.put(name, &f.info, slot.unwrap_or(super::loadcache::NOT_LOCAL));
        slot
    }

    /// Binds the name at a target site of the syntax tree: a local's slot directly, else as
    /// [`Self::store`] does.
    pub fn store_site(
        &mut self,
        f: &mut Frame<'a>,
        name: &'a str,
        v: Value<'a>,
    ) -> PyResult<'a, ()> {
        if f.kind == FrameKind::Function && f.locals.vars.laid_out_by(&f.info) {
            // A slot is never a `global` or `nonlocal` name: the analysis leaves those out.
            if let Some(i) = self.local_slot(f, name) {
                f.locals.vars.set_slot(i, v);
                return Ok(());
            }
        }
        self.store(f, name, v)
    }

    /// The value the load site `name` resolved to, if the globals have not changed since.
    fn global_load_seen(&self, name: &'a str) -> Option<Value<'a>> {
        self.global_loads.get(name, self.globals.vars.version()).cloned()
    }

    pub fn store(&mut self, f: &mut Frame<'a>, name: &str, v: Value<'a>) -> PyResult<'a, ()> {
        if f.kind == FrameKind::Function {
            if f.info.globals.contains(name) {
                self.globals.vars.set(name, v);
                return Ok(());
            }
            if f.info.nonlocals.contains(name) {
                let mut s = f.locals.parent.clone();
                while let Some(sc) = s {
                    if sc.vars.contains(name) {
                        sc.vars.set(name, v);
                        return Ok(());
                    }
                    s = sc.parent.clone();
                }
                // A comprehension's walrus binding a name not yet set: the enclosing function's
                // scope, or the module's.
                match &f.locals.parent {
                    Some(p) => p.vars.set(name, v),
                    None => self.globals.vars.set(name, v),
                };
                return Ok(());
            }
        }
        f.locals.vars.set(name, v);
        Ok(())
    }

    fn delete(&mut self, f: &mut Frame<'a>, t: &'a ast::Expr) -> PyResult<'a, ()> {
        match t {
            ast::Expr::Name(n) => {
                let removed =
                    if f.kind == FrameKind::Function && f.info.globals.contains(n.id.as_str()) {
                        self.globals.vars.remove(n.id.as_str())
                    } else {
                        f.locals.vars.remove(n.id.as_str())
                    };
                if removed.is_none() {
                    return Err(self.err("NameError", format!("name '{}' is not defined", n.id)));
                }
                Ok(())
            }
            ast::Expr::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                self.delitem(&o, &k)
            }
            ast::Expr::Attribute(a) => {
                let o = self.eval(f, &a.value)?;
                self.delattr(&o, a.attr.as_str())
            }
            ast::Expr::Tuple(t) => {
                for e in &t.elts {
                    self.delete(f, e)?;
                }
                Ok(())
            }
            ast::Expr::List(t) => {
                for e in &t.elts {
                    self.delete(f, e)?;
                }
                Ok(())
            }
            _ => Err(self.unsupported("del target")),
        }
    }

    pub fn assign(
        &mut self,
        f: &mut Frame<'a>,
        t: &'a ast::Expr,
        v: Value<'a>,
    ) -> PyResult<'a, ()> {
        match t {
            ast::Expr::Name(n) => self.store_site(f, n.id.as_str(), v),
            ast::Expr::Tuple(tu) => self.unpack(f, &tu.elts, v),
            ast::Expr::List(l) => self.unpack(f, &l.elts, v),
            ast::Expr::Attribute(a) => {
                let o = self.eval(f, &a.value)?;
                self.setattr(&o, a.attr.as_str(), v).map_err(|e| self.at(e, start(t)))
            }
            ast::Expr::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                self.setitem(&o, k, v).map_err(|e| self.at(e, start(t)))
            }
            ast::Expr::Starred(_) => {
                Err(self.err("SyntaxError", "starred assignment target must be in a list or tuple"))
            }
            _ => {
                Err(self
                    .unsupported(format!("assignment target (line {})", self.line_of(start(t)))))
            }
        }
    }

    fn unpack(
        &mut self,
        f: &mut Frame<'a>,
        elts: &'a [ast::Expr],
        v: Value<'a>,
    ) -> PyResult<'a, ()> {
        let items = self.to_vec(&v).map_err(|e| {
            if self.is_exc(&e, "TypeError") {
                self.err(
                    "TypeError",
                    format!("cannot unpack non-iterable {} object", self.type_name(&v)),
                )
            } else {
                e
            }
        })?;
        let star = elts.iter().position(|e| matches!(e, ast::Expr::Starred(_)));
        match star {
            None => {
                if items.len() < elts.len() {
                    return Err(self.err(
                        "ValueError",
                        format!(
                            "not enough values to unpack (expected {}, got {})",
                            elts.len(),
                            items.len()
                        ),
                    ));
                }
                if items.len() > elts.len() {
                    return Err(self.err(
                        "ValueError",
                        format!("too many values to unpack (expected {})", elts.len()),
                    ));
                }
                for (t, v) in elts.iter().zip(items) {
                    self.assign(f, t, v)?;
                }
            }
            Some(si) => {
                let after = elts.len() - si - 1;
                if items.len() < elts.len() - 1 {
                    return Err(self.err(
                        "ValueError",
                        format!(
                            "not enough values to unpack (expected at least {}, got {})",
                            elts.len() - 1,
                            items.len()
                        ),
                    ));
                }
                let mut items = items;
                let tail = items.split_off(items.len() - after);
                let mid = items.split_off(si);
                for (t, v) in elts[..si].iter().zip(items) {
                    self.assign(f, t, v)?;
                }
                if let ast::Expr::Starred(s) = &elts[si] {
                    self.assign(f, &s.value, Value::list(mid))?;
                }
                for (t, v) in elts[si + 1..].iter().zip(tail) {
                    self.assign(f, t, v)?;
                }
            }
        }
        Ok(())
    }

    fn aug_assign(&mut self, f: &mut Frame<'a>, a: &'a ast::StmtAugAssign) -> PyResult<'a, ()> {
        match &*a.target {
            ast::Expr::Name(n) => {
                let cur =
                    self.load_name(f, n.id.as_str()).map_err(|e| self.at(e, start(&*a.target)))?;
                let rhs = self.eval(f, &a.value)?;
                let nv = self.inplace_op(a.op, cur, rhs)?;
                self.store_site(f, n.id.as_str(), nv)
            }
            ast::Expr::Attribute(at) => {
                let o = self.eval(f, &at.value)?;
                let cur = self.getattr(&o, at.attr.as_str())?;
                let rhs = self.eval(f, &a.value)?;
                let nv = self.inplace_op(a.op, cur, rhs)?;
                self.setattr(&o, at.attr.as_str(), nv)
            }
            ast::Expr::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                let cur = self.getitem(&o, &k)?;
                let rhs = self.eval(f, &a.value)?;
                let nv = self.inplace_op(a.op, cur, rhs)?;
                self.setitem(&o, k, nv)
            }
            _ => Err(self.unsupported("augmented assignment target")),
        }
    }

    fn inplace_op(
        &mut self,
        op: ast::Operator,
        cur: Value<'a>,
        rhs: Value<'a>,
    ) -> PyResult<'a, Value<'a>> {
        // Lists extend in place (`l += x` keeps identity).
        if let (ast::Operator::Add, Value::List(l)) = (op, &cur) {
            let items = self.to_vec(&rhs)?;
            self.check_len(l.borrow().len() + items.len())?;
            l.borrow_mut().extend(items);
            return Ok(cur);
        }
        if let (ast::Operator::BitOr, Value::Set(s)) = (op, &cur) {
            let items = self.to_vec(&rhs)?;
            for it in items {
                self.set_add(s, it)?;
            }
            return Ok(cur);
        }
        self.binop(op, &cur, &rhs)
    }

    // ------------------------------------------------------------------ expressions

    pub fn eval(&mut self, f: &mut Frame<'a>, e: &'a ast::Expr) -> PyResult<'a, Value<'a>> {
        match self.eval_inner(f, e) {
            Ok(v) => Ok(v),
            Err(err) => {
                if err.line.is_none() {
                    let off = self.expr_line_offset(e);
                    return Err(self.at(err, off));
                }
                Err(err)
            }
        }
    }

    /// Common expressions inline, the rest in [`Self::eval_slow`] (small frames on the recursive path).
    fn eval_inner(&mut self, f: &mut Frame<'a>, e: &'a ast::Expr) -> PyResult<'a, Value<'a>> {
        use ast::Expr as E;
        self.step()?;
        if self.stack_used() > self.limits.stack_budget {
            return Err(self.err("RecursionError", "maximum recursion depth exceeded"));
        }
        match e {
            E::Name(n) => self.load_name(f, n.id.as_str()),
            E::Constant(c) => Ok(self.cached_constant(&c.value)),
            E::Attribute(a) => {
                let o = self.eval(f, &a.value)?;
                self.getattr(&o, a.attr.as_str())
            }
            E::Call(c) => self.eval_call(f, c),
            _ => self.eval_mid(f, e),
        }
    }

    #[inline(never)]
    fn eval_mid(&mut self, f: &mut Frame<'a>, e: &'a ast::Expr) -> PyResult<'a, Value<'a>> {
        use ast::Expr as E;
        match e {
            E::Compare(c) => {
                let mut left = self.eval(f, &c.left)?;
                let n = c.ops.len();
                for (k, (op, right)) in c.ops.iter().zip(c.comparators.iter()).enumerate() {
                    let r = self.eval(f, right)?;
                    // A rich comparison's own result is the value (of the last, or of the
                    // first that is false in a chain); `in`/`is` give bools.
                    let v = match op {
                        ast::CmpOp::In | ast::CmpOp::NotIn | ast::CmpOp::Is | ast::CmpOp::IsNot => {
                            Value::Bool(self.compare(*op, &left, &r)?)
                        }
                        _ => self.rich_compare(*op, &left, &r)?,
                    };
                    if k + 1 == n {
                        return Ok(v);
                    }
                    let t = match v {
                        Value::Bool(t) => t,
                        ref other => self.truthy(other)?,
                    };
                    if !t {
                        return Ok(v);
                    }
                    left = r;
                }
                Ok(Value::Bool(true))
            }
            E::BoolOp(b) => {
                let is_and = matches!(b.op, ast::BoolOp::And);
                let mut last = Value::None;
                for v in &b.values {
                    last = self.eval(f, v)?;
                    let t = self.truthy(&last)?;
                    if is_and != t {
                        return Ok(last);
                    }
                }
                Ok(last)
            }
            E::UnaryOp(u) => {
                let v = self.eval(f, &u.operand)?;
                self.unaryop(u.op, &v)
            }
            E::BinOp(b) => {
                let l = self.eval(f, &b.left)?;
                let r = self.eval(f, &b.right)?;
                self.binop(b.op, &l, &r)
            }
            E::IfExp(i) => {
                let t = self.eval(f, &i.test)?;
                if self.truthy(&t)? {
                    self.eval(f, &i.body)
                } else {
                    self.eval(f, &i.orelse)
                }
            }
            E::Subscript(s) => {
                let o = self.eval(f, &s.value)?;
                let k = self.eval(f, &s.slice)?;
                self.getitem(&o, &k)
            }
            _ => self.eval_slow(f, e),
        }
    }

    #[inline(never)]
    fn eval_slow(&mut self, f: &mut Frame<'a>, e: &'a ast::Expr) -> PyResult<'a, Value<'a>> {
        use ast::Expr as E;
        match e {
            E::List(l) => Ok(Value::list(self.eval_elts(f, &l.elts)?)),
            E::Tuple(t) => Ok(Value::tuple(self.eval_elts(f, &t.elts)?)),
            E::Set(s) => {
                let items = self.eval_elts(f, &s.elts)?;
                let set = Rc::new(Mut::new(PyDict::new()));
                for it in items {
                    self.set_add(&set, it)?;
                }
                // Three or more constants: 3.11 builds the set from a folded frozenset.
                // (`-1` is a constant too: the AST optimizer folds it.)
                let folded = |e: &ast::Expr| match e {
                    ast::Expr::Constant(_) => true,
                    ast::Expr::UnaryOp(u) => matches!(&*u.operand, ast::Expr::Constant(_)),
                    _ => false,
                };
                if s.elts.len() > 2 && s.elts.iter().all(folded) {
                    let pin = super::cpyhash::display_order(&set.borrow());
                    set.borrow_mut().pinned = pin;
                }
                Ok(Value::Set(set))
            }
            E::Dict(d) => {
                let dict = Rc::new(Mut::new(PyDict::new()));
                for (k, v) in d.keys.iter().zip(d.values.iter()) {
                    match k {
                        Some(k) => {
                            let kv = self.eval(f, k)?;
                            let vv = self.eval(f, v)?;
                            self.dict_set(&dict, kv, vv)?;
                        }
                        None => {
                            let other = self.eval(f, v)?;
                            let Value::Dict(o) = &other else {
                                return Err(self.err(
                                    "TypeError",
                                    format!("'{}' object is not a mapping", self.type_name(&other)),
                                ));
                            };
                            let pairs: Vec<_> =
                                o.borrow().iter().map(|(a, b)| (a.clone(), b.clone())).collect();
                            for (a, b) in pairs {
                                self.dict_set(&dict, a, b)?;
                            }
                        }
                    }
                }
                Ok(Value::Dict(dict))
            }
            E::Slice(s) => {
                let mut parts = [Value::None, Value::None, Value::None];
                for (i, p) in [&s.lower, &s.upper, &s.step].into_iter().enumerate() {
                    if let Some(p) = p {
                        parts[i] = self.eval(f, p)?;
                    }
                }
                Ok(Value::Slice(Rc::new(parts)))
            }
            E::JoinedStr(j) => {
                let mut out = String::new();
                for part in &j.values {
                    match part {
                        E::Constant(c) => {
                            if let ast::Constant::Str(s) = &c.value {
                                out.push_str(s);
                            }
                        }
                        E::FormattedValue(fv) => out.push_str(&self.formatted_value(f, fv)?),
                        other => {
                            let v = self.eval(f, other)?;
                            out.push_str(&self.str_of(&v)?);
                        }
                    }
                }
                self.check_len(out.len())?;
                Ok(Value::Str(Rc::from(out)))
            }
            E::FormattedValue(fv) => Ok(Value::Str(Rc::from(self.formatted_value(f, fv)?))),
            E::Lambda(l) => {
                let func =
                    self.make_function(f, "<lambda>", &l.args, FuncBody::Expr(&l.body), None)?;
                Ok(Value::Func(func))
            }
            E::GeneratorExp(g) => self.make_gen(f, e, GenElt::One(&g.elt), &g.generators),
            E::ListComp(l) => {
                let g = self.make_gen(f, e, GenElt::One(&l.elt), &l.generators)?;
                Ok(Value::list(self.drain(&g)?))
            }
            E::SetComp(l) => {
                let g = self.make_gen(f, e, GenElt::One(&l.elt), &l.generators)?;
                let items = self.drain(&g)?;
                let set = Rc::new(Mut::new(PyDict::new()));
                for it in items {
                    self.set_add(&set, it)?;
                }
                Ok(Value::Set(set))
            }
            E::DictComp(d) => {
                let g = self.make_gen(f, e, GenElt::Pair(&d.key, &d.value), &d.generators)?;
                let items = self.drain(&g)?;
                let dict = Rc::new(Mut::new(PyDict::new()));
                for it in items {
                    if let Value::Tuple(t) = it {
                        self.dict_set(&dict, t[0].clone(), t[1].clone())?;
                    }
                }
                Ok(Value::Dict(dict))
            }
            E::NamedExpr(n) => {
                let v = self.eval(f, &n.value)?;
                self.assign(f, &n.target, v.clone())?;
                Ok(v)
            }
            E::Starred(_) => Err(self.err("SyntaxError", "can't use starred expression here")),
            E::Name(_)
            | E::Constant(_)
            | E::Attribute(_)
            | E::Call(_)
            | E::Compare(_)
            | E::BoolOp(_)
            | E::UnaryOp(_)
            | E::BinOp(_)
            | E::IfExp(_)
            | E::Subscript(_) => Err(self.unsupported("expression dispatch")),
            E::Yield(y) if !self.yield_sinks.is_empty() => {
                let v = match &y.value {
                    Some(x) => self.eval(f, x)?,
                    None => Value::None,
                };
                let n = self.yield_sinks.last().map_or(0, Vec::len);
                self.check_len(n + 1)?;
                if let Some(s) = self.yield_sinks.last_mut() {
                    s.push(v);
                }
                Ok(Value::None)
            }
            E::YieldFrom(y) if !self.yield_sinks.is_empty() => {
                let src = self.eval(f, &y.value)?;
                let it = self.get_iter(&src)?;
                while let Some(v) = self.next(&it)? {
                    let n = self.yield_sinks.last().map_or(0, Vec::len);
                    self.check_len(n + 1)?;
                    if let Some(s) = self.yield_sinks.last_mut() {
                        s.push(v);
                    }
                }
                Ok(Value::None)
            }
            E::Await(_) | E::Yield(_) | E::YieldFrom(_) => Err(self
                .unsupported(format!("yield/await expression (line {})", self.line_of(start(e))))),
        }
    }

    fn drain(&mut self, g: &Value<'a>) -> PyResult<'a, Vec<Value<'a>>> {
        let mut out = Vec::new();
        while let Some(v) = self.next(g)? {
            out.push(v);
            self.check_len(out.len())?;
        }
        Ok(out)
    }

    /// A constant of the test source; str/bytes/int values are built once per node.
    #[inline(never)]
    fn cached_constant(&mut self, c: &ast::Constant) -> Value<'a> {
        match c {
            ast::Constant::None => Value::None,
            ast::Constant::Bool(b) => Value::Bool(*b),
            other => {
                let key = other as *const ast::Constant as usize;
                if let Some(v) = self.const_cache.get(&key) {
                    return v.clone();
                }
                let v = self.constant(other);
                self.const_cache.insert(key, v.clone());
                v
            }
        }
    }

    pub fn constant(&mut self, c: &ast::Constant) -> Value<'a> {
        match c {
            ast::Constant::None => Value::None,
            ast::Constant::Bool(b) => Value::Bool(*b),
            ast::Constant::Str(s) => Value::Str(Rc::from(s.as_str())),
            ast::Constant::Bytes(b) => Value::Bytes(Rc::from(b.as_slice())),
            ast::Constant::Int(i) => Value::from_bigint(i.clone()),
            ast::Constant::Float(x) => Value::Float(*x),
            ast::Constant::Tuple(t) => Value::tuple(t.iter().map(|c| self.constant(c)).collect()),
            ast::Constant::Ellipsis => Value::Ellipsis,
            ast::Constant::Complex { real, imag } => Value::Complex(*real, *imag),
        }
    }

    fn formatted_value(
        &mut self,
        f: &mut Frame<'a>,
        fv: &'a ast::ExprFormattedValue,
    ) -> PyResult<'a, String> {
        let v = self.eval(f, &fv.value)?;
        let v = match fv.conversion {
            ast::ConversionFlag::None => v,
            ast::ConversionFlag::Str => Value::Str(Rc::from(self.str_of(&v)?)),
            ast::ConversionFlag::Repr => Value::Str(Rc::from(self.repr(&v)?)),
            ast::ConversionFlag::Ascii => {
                Value::Str(Rc::from(super::fmt::ascii_escape(&self.repr(&v)?)))
            }
        };
        let spec = match &fv.format_spec {
            Some(s) => {
                let sv = self.eval(f, s)?;
                self.str_of(&sv)?
            }
            None => String::new(),
        };
        // `PyObject_Format` calls `__format__` (one recursion level) unless `v` is a str or int.
        if matches!(v, Value::Str(_) | Value::Int(_) | Value::Big(_)) {
            return self.format_value(&v, &spec);
        }
        self.c_level(" while calling a Python object", |it| it.format_value(&v, &spec))
    }

    fn eval_elts(
        &mut self,
        f: &mut Frame<'a>,
        elts: &'a [ast::Expr],
    ) -> PyResult<'a, Vec<Value<'a>>> {
        let mut out = Vec::with_capacity(elts.len());
        for e in elts {
            if let ast::Expr::Starred(s) = e {
                let v = self.eval(f, &s.value)?;
                out.extend(self.to_vec(&v)?);
            } else {
                out.push(self.eval(f, e)?);
            }
        }
        self.check_len(out.len())?;
        Ok(out)
    }

    fn eval_args(
        &mut self,
        f: &mut Frame<'a>,
        c: &'a ast::ExprCall,
    ) -> PyResult<'a, (Vec<Value<'a>>, Kwargs<'a>)> {
        let args = self.eval_elts(f, &c.args)?;
        let mut kwargs = Vec::new();
        for k in &c.keywords {
            let v = self.eval(f, &k.value)?;
            match &k.arg {
                Some(name) => kwargs.push((Rc::from(name.as_str()), v)),
                None => {
                    let Value::Dict(d) = &v else {
                        return Err(self.err(
                            "TypeError",
                            format!(
                                "argument after ** must be a mapping, not {}",
                                self.type_name(&v)
                            ),
                        ));
                    };
                    for (k, v) in d.borrow().iter() {
                        let Value::Str(s) = k else {
                            return Err(self.err("TypeError", "keywords must be strings"));
                        };
                        kwargs.push((s.clone(), v.clone()));
                    }
                }
            }
        }
        Ok((args, kwargs))
    }

    fn eval_call(&mut self, f: &mut Frame<'a>, c: &'a ast::ExprCall) -> PyResult<'a, Value<'a>> {
        if let ast::Expr::Attribute(a) = &*c.func {
            let o = self.eval(f, &a.value)?;
            let m = self
                .get_method(&o, a.attr.as_str())
                .map_err(|e| self.at(e, u32::from(a.range.end())))?;
            let (args, kwargs) = self.eval_args(f, c)?;
            return self.call_meth(m, args, kwargs);
        }
        if let ast::Expr::Name(n) = &*c.func {
            if n.id.as_str() == "super" && c.args.is_empty() && !f.info.locals.contains("super") {
                return self.zero_arg_super(f);
            }
        }
        let func = self.eval(f, &c.func)?;
        let (args, kwargs) = self.eval_args(f, c)?;
        self.call(&func, args, kwargs)
    }

    fn zero_arg_super(&mut self, f: &Frame<'a>) -> PyResult<'a, Value<'a>> {
        let Some(func) = &f.func else {
            return Err(self.err("RuntimeError", "super(): no arguments"));
        };
        let cls = func.dict.borrow().get("__defining_class__").cloned();
        let Some(Value::Class(cls)) = cls else {
            return Err(self.err("RuntimeError", "super(): __class__ cell not found"));
        };
        let first = func.args.posonlyargs.iter().chain(func.args.args.iter()).next();
        let Some(first) = first else {
            return Err(self.err("RuntimeError", "super(): no arguments"));
        };
        let obj = f.locals.vars.get(first.def.arg.as_str());
        let Some(obj) = obj else {
            return Err(self.err("RuntimeError", "super(): arg[0] deleted"));
        };
        Ok(Value::Native(Rc::new(Native::Super(cls, obj))))
    }

    // ------------------------------------------------------------------ calls

    pub fn call_meth(
        &mut self,
        m: Meth<'a>,
        mut args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        match m {
            Meth::Plain(v) => self.call(&v, args, kwargs),
            Meth::Func(this, func) => {
                args.insert(0, this);
                self.call_function(&func, args, kwargs)
            }
            Meth::Builtin(name, this) => self.call_builtin(name, Some(this), args, kwargs),
        }
    }

    pub fn call(
        &mut self,
        func: &Value<'a>,
        mut args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        match func {
            Value::Func(fu) => self.call_function(fu, args, kwargs),
            Value::Method(m) => {
                let (this, inner) = (&m.0, &m.1);
                args.insert(0, this.clone());
                self.call(inner, args, kwargs)
            }
            Value::Builtin(b) => self.call_builtin(b.name, b.this.clone(), args, kwargs),
            Value::Class(c) => self.instantiate(c, args, kwargs),
            Value::Type(t) => self.call_type(*t, args, kwargs),
            Value::AstClass(c) => self.make_node(*c, args, kwargs),
            _ => self.call_other(func, args, kwargs),
        }
    }

    #[inline(never)]
    fn call_other(
        &mut self,
        func: &Value<'a>,
        mut args: Vec<Value<'a>>,
        _kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        match func {
            Value::Native(n) => match &**n {
                Native::SkipDecorator(reason) => {
                    // Applying @unittest.skip(reason) to a function marks it skipped.
                    if let Some(Value::Func(fu)) = args.first() {
                        fu.dict
                            .borrow_mut()
                            .insert(Rc::from("__unittest_skip__"), Value::Bool(true));
                        fu.dict.borrow_mut().insert(
                            Rc::from("__unittest_skip_why__"),
                            Value::Str(reason.clone().unwrap_or_else(|| Rc::from(""))),
                        );
                        return Ok(args.swap_remove(0));
                    }
                    if let Some(Value::Class(c)) = args.first() {
                        c.dict
                            .borrow_mut()
                            .insert(Rc::from("__unittest_skip__"), Value::Bool(true));
                        c.dict.borrow_mut().insert(
                            Rc::from("__unittest_skip_why__"),
                            Value::Str(reason.clone().unwrap_or_else(|| Rc::from(""))),
                        );
                        return Ok(args.swap_remove(0));
                    }
                    Ok(args.into_iter().next().unwrap_or(Value::None))
                }
                _ => Err(self.err(
                    "TypeError",
                    format!("'{}' object is not callable", self.type_name(func)),
                )),
            },
            _ => {
                Err(self
                    .err("TypeError", format!("'{}' object is not callable", self.type_name(func))))
            }
        }
    }

    pub fn call_function(
        &mut self,
        func: &Rc<Function<'a>>,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        if func.is_generator {
            let scope = Scope::for_body(func.closure.clone(), &func.info);
            self.bind_args(func, &scope, args, kwargs)?;
            return Ok(Value::iter(PyIter::GenFunc { func: func.clone(), scope }));
        }
        self.check_depth()?;
        let scope = Scope::for_body(func.closure.clone(), &func.info);
        self.bind_args(func, &scope, args, kwargs)?;
        let mut frame = Frame {
            locals: scope,
            kind: FrameKind::Function,
            info: func.info.clone(),
            qualname: func.qualname.clone(),
            func: Some(func.clone()),
        };
        self.depth += 1;
        let r = match func.body {
            FuncBody::Stmts(b) => match self.exec_block(&mut frame, b) {
                Ok(Flow::Return(v)) => Ok(v),
                Ok(_) => Ok(Value::None),
                Err(e) => Err(e),
            },
            FuncBody::Expr(e) => self.eval(&mut frame, e),
        };
        self.depth -= 1;
        r
    }

    /// Runs a generator function's body to its end, collecting what it yields.
    pub fn run_generator(
        &mut self,
        func: &Rc<Function<'a>>,
        scope: Rc<Scope<'a>>,
    ) -> (Vec<Value<'a>>, Option<Box<PyErr<'a>>>) {
        if let Err(e) = self.check_depth() {
            return (Vec::new(), Some(e));
        }
        let mut frame = Frame {
            locals: scope,
            kind: FrameKind::Function,
            info: func.info.clone(),
            qualname: func.qualname.clone(),
            func: Some(func.clone()),
        };
        self.yield_sinks.push(Vec::new());
        self.depth += 1;
        let r = match func.body {
            FuncBody::Stmts(b) => self.exec_block(&mut frame, b).map(|_| ()),
            FuncBody::Expr(e) => self.eval(&mut frame, e).map(|_| ()),
        };
        self.depth -= 1;
        let items = self.yield_sinks.pop().unwrap_or_default();
        (items, r.err())
    }

    fn bind_args(
        &mut self,
        func: &Function<'a>,
        scope: &Rc<Scope<'a>>,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, ()> {
        let a = func.args;
        let positional: Vec<&ast::ArgWithDefault> =
            a.posonlyargs.iter().chain(a.args.iter()).collect();
        let npos = positional.len();
        let mut slots: Vec<Option<Value<'a>>> = vec![None; npos];
        let mut kwslots: Vec<Option<Value<'a>>> = vec![None; a.kwonlyargs.len()];
        let nargs = args.len();
        let mut extra = Vec::new();
        for (i, v) in args.into_iter().enumerate() {
            if i < npos {
                slots[i] = Some(v);
            } else {
                extra.push(v);
            }
        }
        if !extra.is_empty() && a.vararg.is_none() {
            let ndef = func.defaults.iter().filter(|d| d.is_some()).count();
            let takes = if ndef > 0 {
                format!("from {} to {} positional arguments", npos - ndef, npos)
            } else if npos == 1 {
                "1 positional argument".to_string()
            } else {
                format!("{npos} positional arguments")
            };
            let were = if nargs == 1 { "was" } else { "were" };
            return Err(self.err(
                "TypeError",
                format!("{}() takes {takes} but {nargs} {were} given", func.qualname),
            ));
        }
        let mut kwdict: Option<Rc<Mut<PyDict<'a>>>> =
            a.kwarg.as_ref().map(|_| Rc::new(Mut::new(PyDict::new())));
        for (k, v) in kwargs {
            if let Some(i) = a.args.iter().position(|p| p.def.arg.as_str() == &*k) {
                let i = i + a.posonlyargs.len();
                if slots[i].is_some() {
                    return Err(self.err(
                        "TypeError",
                        format!("{}() got multiple values for argument '{k}'", func.qualname),
                    ));
                }
                slots[i] = Some(v);
            } else if let Some(i) = a.kwonlyargs.iter().position(|p| p.def.arg.as_str() == &*k) {
                kwslots[i] = Some(v);
            } else if let Some(d) = &kwdict {
                self.dict_set(d, Value::Str(k), v)?;
            } else {
                return Err(self.err(
                    "TypeError",
                    format!("{}() got an unexpected keyword argument '{k}'", func.qualname),
                ));
            }
        }
        let mut missing = Vec::new();
        for (i, s) in slots.iter_mut().enumerate() {
            if s.is_none() {
                match &func.defaults[i] {
                    Some(d) => *s = Some(d.clone()),
                    None => missing.push(positional[i].def.arg.as_str()),
                }
            }
        }
        if !missing.is_empty() {
            return Err(self.err("TypeError", missing_msg(&func.qualname, "positional", &missing)));
        }
        let mut kwmissing = Vec::new();
        for (i, s) in kwslots.iter_mut().enumerate() {
            if s.is_none() {
                match &func.kwdefaults[i] {
                    Some(d) => *s = Some(d.clone()),
                    None => kwmissing.push(a.kwonlyargs[i].def.arg.as_str()),
                }
            }
        }
        if !kwmissing.is_empty() {
            return Err(
                self.err("TypeError", missing_msg(&func.qualname, "keyword-only", &kwmissing))
            );
        }
        let vars = &scope.vars;
        for (p, v) in positional.iter().zip(slots) {
            if let Some(v) = v {
                vars.set(p.def.arg.as_str(), v);
            }
        }
        for (p, v) in a.kwonlyargs.iter().zip(kwslots) {
            if let Some(v) = v {
                vars.set(p.def.arg.as_str(), v);
            }
        }
        if let Some(va) = &a.vararg {
            vars.set(va.arg.as_str(), Value::tuple(extra));
        }
        if let (Some(kw), Some(d)) = (&a.kwarg, kwdict.take()) {
            vars.set(kw.arg.as_str(), Value::Dict(d));
        }
        Ok(())
    }

    fn instantiate(
        &mut self,
        c: &Rc<Class<'a>>,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let is_exc = super::exc::is_exception_class(c);
        if c.kind == ClassKind::Exception {
            if !kwargs.is_empty() {
                return Err(
                    self.err("TypeError", format!("{}() takes no keyword arguments", c.name))
                );
            }
            return Ok(super::exc::new_instance(c.clone(), args, None));
        }
        let inst = Rc::new(Instance {
            class: c.clone(),
            dict: Mut::new(NameMap::default()),
            exc: if is_exc {
                Some(Mut::new(ExcData { args: args.clone(), str_override: None }))
            } else {
                None
            },
        });
        let v = Value::Instance(inst);
        match c.lookup("__init__") {
            Some(Value::Func(init)) => {
                let mut a = args;
                a.insert(0, v.clone());
                // `type.__call__` runs `__init__` through its C slot: one level more than a
                // plain call in CPython's recursion count.
                self.depth += 1;
                let r = self.call_function(&init, a, kwargs);
                self.depth -= 1;
                r?;
            }
            Some(Value::Builtin(b)) => {
                self.call_builtin(b.name, Some(v.clone()), args, kwargs)?;
            }
            _ => {
                if !is_exc && (!args.is_empty() || !kwargs.is_empty()) {
                    return Err(self.err("TypeError", format!("{}() takes no arguments", c.name)));
                }
            }
        }
        Ok(v)
    }

    // ------------------------------------------------------------------ generators

    fn make_gen(
        &mut self,
        f: &mut Frame<'a>,
        e: &'a ast::Expr,
        elt: GenElt<'a>,
        gens: &'a [ast::Comprehension],
    ) -> PyResult<'a, Value<'a>> {
        let Some(first) = gens.first() else {
            return Err(self.unsupported("comprehension without for"));
        };
        if gens.iter().any(|g| g.is_async) {
            return Err(self.unsupported("async comprehension"));
        }
        // The outermost iterable is evaluated (and iter() called) eagerly, in the enclosing scope.
        let iterable = self.eval(f, &first.iter)?;
        let it = self.get_iter(&iterable).map_err(|er| self.at(er, start(&first.iter)))?;
        let key = e as *const ast::Expr as usize;
        let info = self.scope_info_for(key, || {
            let mut info = ScopeInfo::default();
            for g in gens {
                super::scope::collect_target_names(&g.target, &mut info.locals);
            }
            // Walrus targets inside a comprehension bind in the enclosing scope.
            let mut walrus = ScopeInfo::default();
            match elt {
                GenElt::One(x) => super::scope::collect_expr_binds(x, &mut walrus),
                GenElt::Pair(k, v) => {
                    super::scope::collect_expr_binds(k, &mut walrus);
                    super::scope::collect_expr_binds(v, &mut walrus);
                }
            }
            for g in gens {
                for c in &g.ifs {
                    super::scope::collect_expr_binds(c, &mut walrus);
                }
            }
            for n in walrus.locals {
                if !info.locals.contains(&n) {
                    info.nonlocals.insert(n);
                }
            }
            info
        });
        let scope = Scope::for_body(Self::closure_of(f), &info);
        let qual = match f.kind {
            FrameKind::Module | FrameKind::Class => "<genexpr>".to_string(),
            FrameKind::Function => format!("{}.<locals>.<genexpr>", f.qualname),
        };
        Ok(Value::iter(PyIter::Gen(Box::new(GenState {
            elt,
            gens,
            scope,
            iters: Vec::new(),
            first: Some(it),
            qualname: Rc::from(qual),
            info,
            frames: if matches!(e, ast::Expr::GeneratorExp(_)) { 2 } else { 1 },
        }))))
    }

    /// The next item of a comprehension or generator expression, its body running as deep as
    /// CPython runs it ([`GenState::frames`]).
    pub fn gen_next(&mut self, st: &mut GenState<'a>) -> PyResult<'a, Option<Value<'a>>> {
        let extra = st.frames.saturating_sub(1);
        self.depth += extra;
        let r = match self.check_depth() {
            Ok(()) => {
                self.depth += 1;
                let r = self.gen_next_inner(st);
                self.depth -= 1;
                r
            }
            Err(e) => Err(e),
        };
        self.depth -= extra;
        r
    }

    fn gen_next_inner(&mut self, st: &mut GenState<'a>) -> PyResult<'a, Option<Value<'a>>> {
        let mut frame = Frame {
            locals: st.scope.clone(),
            kind: FrameKind::Function,
            info: st.info.clone(),
            qualname: st.qualname.clone(),
            func: None,
        };
        loop {
            self.step()?;
            if st.iters.is_empty() {
                match st.first.take() {
                    Some(it) => st.iters.push(it),
                    None => return Ok(None),
                }
            }
            let d = st.iters.len() - 1;
            let it = st.iters[d].clone();
            let g = &st.gens[d];
            match self.next(&it).map_err(|e| self.at(e, start(&g.iter)))? {
                None => {
                    st.iters.pop();
                    if st.iters.is_empty() {
                        return Ok(None);
                    }
                }
                Some(v) => {
                    self.assign(&mut frame, &g.target, v)?;
                    let mut ok = true;
                    for cond in &g.ifs {
                        let c = self.eval(&mut frame, cond)?;
                        if !self.truthy(&c)? {
                            ok = false;
                            break;
                        }
                    }
                    if !ok {
                        continue;
                    }
                    if d + 1 < st.gens.len() {
                        let ng = &st.gens[d + 1];
                        let iterable = self.eval(&mut frame, &ng.iter)?;
                        let nit =
                            self.get_iter(&iterable).map_err(|e| self.at(e, start(&ng.iter)))?;
                        st.iters.push(nit);
                        continue;
                    }
                    return Ok(Some(match st.elt {
                        GenElt::One(e) => self.eval(&mut frame, e)?,
                        GenElt::Pair(k, v) => {
                            let kv = self.eval(&mut frame, k)?;
                            let vv = self.eval(&mut frame, v)?;
                            Value::tuple(vec![kv, vv])
                        }
                    }));
                }
            }
        }
    }
}

fn missing_msg(qualname: &str, kind: &str, names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("'{n}'")).collect();
    let list = match quoted.len() {
        1 => quoted[0].clone(),
        2 => format!("{} and {}", quoted[0], quoted[1]),
        _ => format!("{}, and {}", quoted[..quoted.len() - 1].join(", "), quoted[quoted.len() - 1]),
    };
    let s = if names.len() == 1 { "" } else { "s" };
    format!("{qualname}() missing {} required {kind} argument{s}: {list}", names.len())
}
