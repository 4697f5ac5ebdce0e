//! Generators: a generator body runs as a resumable frame; `next()` drives it to its next
//! `yield`.

use super::{start, FilterKind, Frame, FrameKind, IsFilter};
use crate::interp::scope::ScopeInfo;
use crate::interp::value::*;
use crate::interp::{Interp, Value};
use crate::interp::{PyErr, PyResult};
use crate::python::syntax as ast;
use std::rc::Rc;

impl<'a> Interp<'a> {
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

    // ------------------------------------------------------------------ generators

    pub(super) fn make_gen(
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
                crate::interp::scope::collect_target_names(&g.target, &mut info.locals);
            }
            // Walrus targets inside a comprehension bind in the enclosing scope.
            let mut walrus = ScopeInfo::default();
            match elt {
                GenElt::One(x) => crate::interp::scope::collect_expr_binds(x, &mut walrus),
                GenElt::Pair(k, v) => {
                    crate::interp::scope::collect_expr_binds(k, &mut walrus);
                    crate::interp::scope::collect_expr_binds(v, &mut walrus);
                }
            }
            for g in gens {
                for c in &g.ifs {
                    crate::interp::scope::collect_expr_binds(c, &mut walrus);
                }
            }
            #[allow(
                clippy::iter_over_hash_type,
                reason = "inserts into a set; the order does not matter"
            )]
            for n in walrus.locals {
                if !info.locals.contains(&n) {
                    info.nonlocals.insert(n);
                }
            }
            info
        });
        let scope = Scope::for_body(Self::closure_of(f), &info);
        let escapes = matches!(e, ast::Expr::GeneratorExp(_));
        if escapes {
            // A generator expression keeps its enclosing frame, which may keep it: a cycle.
            self.objects.note_scope(&scope);
        }
        let qual = match f.kind {
            FrameKind::Module | FrameKind::Class => "<genexpr>".to_string(),
            FrameKind::Function => format!("{}.<locals>.<genexpr>", f.qualname),
        };
        let filter = IsFilter::of_gen(elt, gens, &it);
        let g = Value::iter(PyIter::Gen(Box::new(GenState {
            elt,
            gens,
            scope,
            iters: Vec::new(),
            first: Some(it),
            qualname: Rc::from(qual),
            info,
            frames: if escapes { 2 } else { 1 },
            filter,
            skip_false: false,
        })));
        Ok(if escapes { self.made(g) } else { g })
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

    pub(super) fn gen_next_inner(
        &mut self,
        st: &mut GenState<'a>,
    ) -> PyResult<'a, Option<Value<'a>>> {
        let mut filter = st.filter.take();
        if let Some(flt) = &mut filter {
            // The consumer may have run Python code since the last item.
            flt.body_ran();
        }
        let r = self.gen_next_filtered(st, &mut filter);
        st.filter = filter;
        r
    }

    /// [`Self::gen_next_inner`] with the clause's `isinstance` filter, if any: a node the test
    /// rejects is skipped without evaluating it (a `Cond` filter; an `Elt` filter only while
    /// `any()` consumes), charged the steps the test takes, as in `for` loops
    /// ([`IsFilter`]).
    fn gen_next_filtered(
        &mut self,
        st: &mut GenState<'a>,
        filter: &mut Option<IsFilter<'a>>,
    ) -> PyResult<'a, Option<Value<'a>>> {
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
            let g = &st.gens[d];
            // The filter answers for the first clause's walk; later clauses run unfiltered.
            let mut unfiltered = None;
            let filter = if d == 0 { &mut *filter } else { &mut unfiltered };
            // The iterator borrowed, not cloned, for its next item.
            let next = |it: Option<&Value<'a>>, me: &mut Self| match it {
                Some(it) => me.next(it),
                None => Ok(None),
            };
            #[cfg(feature = "fast-parse")]
            let got = {
                if let Some(flt) = filter.as_mut() {
                    self.refresh_classes(&mut frame, flt);
                }
                let skip = filter
                    .as_ref()
                    .filter(|f| f.kind() == FilterKind::Cond || st.skip_false)
                    .and_then(IsFilter::walk_skip);
                let it = st.iters.get(d);
                let (got, passed) =
                    crate::interp::stdlib::ast::with_walk_skip(skip, || next(it, self));
                if let Some(flt) = filter.as_mut() {
                    let steps = flt.passed_over(passed);
                    self.charge(steps)?;
                }
                got
            };
            #[cfg(not(feature = "fast-parse"))]
            let got = next(st.iters.get(d), self);
            match got.map_err(|e| self.at(e, start(&g.iter)))? {
                None => {
                    st.iters.pop();
                    if st.iters.is_empty() {
                        self.skip_check(&mut frame, filter)?;
                        return Ok(None);
                    }
                }
                Some(v) => {
                    let active = filter
                        .as_ref()
                        .is_some_and(|f| f.kind() == FilterKind::Cond || st.skip_false);
                    let rejected = self.bind_filtered(&mut frame, &g.target, v, filter, active)?;
                    self.skip_check(&mut frame, filter)?;
                    if rejected {
                        if let Some(d) = filter.as_ref().and_then(IsFilter::delta) {
                            self.charge(d)?;
                            continue;
                        }
                    }
                    let before = self.steps;
                    let mut ok = true;
                    for cond in &g.ifs {
                        let c = self.eval(&mut frame, cond)?;
                        if !self.truthy(&c)? {
                            ok = false;
                            break;
                        }
                    }
                    if let Some(flt) = filter.as_mut() {
                        if rejected && flt.kind() == FilterKind::Cond {
                            // The first `if` was false: measured once.
                            flt.measured(self.steps.saturating_sub(before));
                        } else if !g.ifs.is_empty() {
                            flt.body_ran();
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
                    let before = self.steps;
                    let item = match st.elt {
                        GenElt::One(e) => self.eval(&mut frame, e)?,
                        GenElt::Pair(k, v) => {
                            let kv = self.eval(&mut frame, k)?;
                            let vv = self.eval(&mut frame, v)?;
                            Value::tuple(vec![kv, vv])
                        }
                    };
                    if rejected {
                        if let Some(flt) = filter.as_mut() {
                            if flt.kind() == FilterKind::Elt && !self.truthy(&item)? {
                                // `any()` drops it: measured once, and skipped here.
                                flt.measured(self.steps.saturating_sub(before));
                                continue;
                            }
                        }
                    }
                    return Ok(Some(item));
                }
            }
        }
    }
}
