//! The official tests' `ast.walk` loops and comprehensions, answered for the nodes they pass over:
//!
//! ```python
//! for node in ast.walk(tree):
//!     if isinstance(node, ast.FunctionDef) and node.name == "f":
//!         ...
//! ```
//!
//! 473 of the ~500 `for` loops over `ast.walk` in the benchmark's test files have this shape: a
//! body of one `if` without `else`, whose test is `isinstance(target, C)` alone or first in an
//! `and` (10 more test `isinstance(target, A) or isinstance(target, B)`, which is false exactly
//! when `isinstance(target, (A, B))` is, and get the same filter). For most nodes the
//! `isinstance` is false, and the interpreter spent an `if`, a call, three name loads and an
//! attribute load on each (~15% of a touch run's instructions) to learn it.
//!
//! Here a loop of that shape evaluates `isinstance` and `C` once, purely (names, a module's
//! attribute, a tuple of those; anything else and the loop runs as before), and from then on
//! answers "false" for a node of another AST class without evaluating the test: the target is
//! still bound, and the steps the test would have taken are charged (measured on the first such
//! node, so the step count, which the step budget and method reuse read, is the same as before).
//! Nothing but the body can rebind the names the test reads (the iterator must be a native one,
//! which runs no Python code), so after every run of the body `isinstance` and `C` are evaluated
//! again before the next answer.
//!
//! Comprehensions and generator expressions whose first `for` clause is over such an iterator get
//! the same filter (91 `any(isinstance(node, C) and ... for node in ast.walk(tree))` and 18
//! comprehensions with `if isinstance(...)` in the official tests, some with a second clause such
//! as `for alias in node.names`): a rejected node is skipped when the test is the first clause's
//! first `if`, and when the test is the element of a one-clause generator, only while `any()`
//! consumes it (a rejected element is `False`, which `any()` drops). Later clauses run unfiltered,
//! only for accepted nodes. A generator's consumer can run Python code between two items, so its
//! classes are evaluated anew on every resumption.
//!
//! Classes the body (or a consumer) may have changed are evaluated again before the walk's next
//! step rather than at the test: only the native walk runs in between, so they are the same, and
//! the walk can pass over the next node's statements too.
//!
//! Once a rejected node's steps are known, the walk may also pass over a lazy statement's nodes
//! without converting them ([`crate::interp::stdlib::ast::WalkSkip`]): when none of their
//! class buckets is one the test accepts, and nothing reads the loop's target after the loop
//! ([`super::loop_target`]; a comprehension's target is its own). Each node passed over is charged
//! as a rejected one, when the walk passes its statement: a walk that runs to its end is charged
//! exactly, one that ends early may be charged for nodes it would not have reached. If the test's
//! classes change after the walk passed over nodes, the run fails as unsupported.

use super::{Frame, FrameKind};
use crate::interp::stdlib::ast::node_isinstance;
use crate::interp::value::*;
use crate::interp::{Interp, PyResult, Value};
use crate::python::node::{class_set, ClassSet};
use crate::python::syntax as ast;

/// A loop of the shape above, and what is known of its test.
pub(crate) struct IsFilter<'a> {
    /// The test's `isinstance(target, C)` calls (one, or the operands of an `or`): each
    /// `isinstance` (a name) and its `C`.
    calls: IsinstanceCalls<'a>,
    /// The AST classes `C` names, while the body has not run since they were evaluated.
    classes: Option<Classes>,
    /// Steps the test takes for a node it rejects, once measured.
    delta: Option<u64>,
    /// Where the test sits.
    kind: FilterKind,
    /// Whether the walk may pass over lazy statements' nodes without binding them: nothing
    /// reads the target after the loop (a comprehension's is its own; a `for` loop's, see
    /// [`super::loop_target`]).
    may_skip: bool,
    /// The accepted class buckets the walk passed over nodes with, once it has.
    skipped_with: Option<u64>,
    /// The test's classes changed after the walk passed over nodes with others: those nodes
    /// were judged with classes the test no longer names.
    pub(crate) skip_broken: bool,
}

/// The classes of a filter's test: all of them, and as one set when every one is a real class
/// (no `ast.Str`-style alias), so a node is checked against the set in one step.
struct Classes {
    all: Vec<AstCls>,
    real: Option<ClassSet>,
    /// The class buckets `real` accepts ([`crate::python::node::accepted_by`]).
    accept: Option<u64>,
}

impl Classes {
    fn new(all: Vec<AstCls>) -> Self {
        let real = all
            .iter()
            .map(|c| match c {
                AstCls::Real(c) => Some(*c),
                AstCls::Alias(_) => None,
            })
            .collect::<Option<Vec<_>>>()
            .and_then(class_set);
        let accept = real.as_ref().map(crate::python::node::accepted_by);
        Classes { all, real, accept }
    }

    /// `isinstance(v, C)`.
    fn holds(&self, v: &Value<'_>) -> bool {
        if let (Some(set), Value::Node(n)) = (&self.real, v) {
            if let Some(hit) = n.class.derives_from_any(set) {
                return hit;
            }
        }
        self.all.iter().any(|c| node_isinstance(v, *c))
    }
}

/// Where a filter's test sits in its loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FilterKind {
    /// The `if` that is a `for` statement's whole body.
    Loop,
    /// The first `if` of a comprehension's first `for` clause: a rejected node is skipped.
    Cond,
    /// The element of a generator expression without `if`s: a rejected node's element is
    /// `False`, which only a consumer that drops false items (`any()`) may skip.
    Elt,
}

impl<'a> IsFilter<'a> {
    /// The filter of a `for` loop over `it` in a function body, if loop and iterator qualify.
    pub(super) fn of(f: &Frame<'a>, fo: &'a ast::StmtFor, it: &Value<'a>) -> Option<Self> {
        if f.kind != FrameKind::Function || !native_iter(it) {
            return None;
        }
        let ast::Expr::Name(target) = &*fo.target else { return None };
        let [ast::Stmt::If(i)] = fo.body.as_slice() else { return None };
        if !i.orelse.is_empty() {
            return None;
        }
        let calls = isinstance_test(&i.test, target.id.as_str())?;
        Some(IsFilter {
            calls,
            kind: FilterKind::Loop,
            classes: None,
            delta: None,
            may_skip: false,
            skipped_with: None,
            skip_broken: false,
        })
    }

    /// The filter of a comprehension or generator expression whose first `for` clause is over
    /// `it`: that clause's first `if` is the test ([`FilterKind::Cond`]; further clauses run
    /// only for the nodes it accepts), or, for one clause without `if`s, its element is
    /// ([`FilterKind::Elt`], used only while `any()` consumes it).
    pub(super) fn of_gen(
        elt: GenElt<'a>,
        gens: &'a [ast::Comprehension],
        it: &Value<'a>,
    ) -> Option<Self> {
        let g = gens.first()?;
        if !native_iter(it) {
            return None;
        }
        let ast::Expr::Name(target) = &g.target else { return None };
        let (test, kind) = match (g.ifs.first(), elt) {
            (Some(test), _) => (test, FilterKind::Cond),
            (None, GenElt::One(e)) if gens.len() == 1 => (e, FilterKind::Elt),
            (None, _) => return None,
        };
        let calls = isinstance_test(test, target.id.as_str())?;
        Some(IsFilter {
            calls,
            kind,
            classes: None,
            delta: None,
            may_skip: true,
            skipped_with: None,
            skip_broken: false,
        })
    }

    /// Which part of its loop the test is.
    pub(crate) fn kind(&self) -> FilterKind {
        self.kind
    }

    /// Lets the walk pass over nodes without binding them (the loop's target is read only
    /// where a loop binds it, [`super::loop_target`]).
    pub(super) fn allow_skip(&mut self) {
        self.may_skip = true;
    }

    /// What the walk may pass over for the next node: lazy statements holding no node the test
    /// accepts, once the steps of a rejected node are known (they are charged per node passed).
    #[cfg(feature = "fast-parse")]
    pub(super) fn walk_skip(&self) -> Option<crate::interp::stdlib::ast::WalkSkip> {
        if !self.may_skip || self.skip_broken {
            return None;
        }
        self.delta?;
        let accept = self.classes.as_ref()?.accept?;
        Some(crate::interp::stdlib::ast::WalkSkip { accept })
    }

    /// The walk passed over `n` nodes with [`Self::walk_skip`]'s classes; the steps to charge.
    #[cfg(feature = "fast-parse")]
    pub(super) fn passed_over(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        self.skipped_with = self.classes.as_ref().and_then(|c| c.accept);
        // Per node: the walk's step for yielding it, the loop's step for taking it, the test's.
        n.saturating_mul(self.delta.unwrap_or(0).saturating_add(2))
    }

    /// The body ran (or may have): names the test reads may have been rebound.
    pub(super) fn body_ran(&mut self) {
        self.classes = None;
    }

    /// The classes `C` evaluated to now; if the walk passed over nodes with others, those were
    /// judged wrongly and the run cannot go on ([`Interp::skip_check`]).
    fn set_classes(&mut self, classes: Classes) {
        if self.skipped_with.is_some_and(|a| classes.accept != Some(a)) {
            self.skip_broken = true;
        }
        self.classes = Some(classes);
    }

    /// The steps a rejected node's test takes, if measured.
    pub(super) fn delta(&self) -> Option<u64> {
        self.delta
    }

    /// Records the steps the test took for a node [`Interp::is_filter_rejects`] rejected.
    pub(super) fn measured(&mut self, steps: u64) {
        self.delta = Some(steps);
    }
}

/// Iterators whose `next` runs no Python code (so nothing rebinds names between items).
fn native_iter(it: &Value<'_>) -> bool {
    if cfg!(feature = "gc-stress") || off_in_test() {
        return false;
    }
    let Value::Iter(cell) = it else { return false };
    matches!(
        &*cell.borrow(),
        PyIter::Walk(_) | PyIter::Seq { .. } | PyIter::Tuple { .. } | PyIter::Owned { .. }
    )
}

#[cfg(test)]
thread_local! {
    /// Turns every filter off on this thread (tests compare step counts with and without).
    pub(crate) static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn off_in_test() -> bool {
    OFF.with(std::cell::Cell::get)
}

#[cfg(not(test))]
const fn off_in_test() -> bool {
    false
}

/// The `isinstance` calls of a test: `(isinstance, C)` each.
type IsinstanceCalls<'a> = smallvec::SmallVec<[(&'a ast::Expr, &'a ast::Expr); 1]>;

/// `isinstance(target, C)`, or an `or` of such calls (false together only when the node is none
/// of their classes), alone or first in an `and`, reading `target` only as each call's first
/// argument (what else they read is evaluated once for many items): each call's function and `C`.
fn isinstance_test<'a>(test: &'a ast::Expr, target: &str) -> Option<IsinstanceCalls<'a>> {
    let test = match test {
        ast::Expr::BoolOp(b) if matches!(b.op, ast::BoolOp::And) => b.values.first()?,
        other => other,
    };
    match test {
        ast::Expr::BoolOp(b) if matches!(b.op, ast::BoolOp::Or) => {
            b.values.iter().map(|v| isinstance_call(v, target)).collect()
        }
        one => isinstance_call(one, target).map(|c| smallvec::smallvec![c]),
    }
}

/// `isinstance(target, C)` with a pure `C` ([`pure_shape`]): the call's function and `C`.
fn isinstance_call<'a>(
    test: &'a ast::Expr,
    target: &str,
) -> Option<(&'a ast::Expr, &'a ast::Expr)> {
    let ast::Expr::Call(c) = test else { return None };
    if !c.keywords.is_empty() {
        return None;
    }
    let ast::Expr::Name(func) = &*c.func else { return None };
    if func.id.as_str() != "isinstance" {
        return None;
    }
    let [ast::Expr::Name(x), cls] = c.args.as_slice() else { return None };
    if x.id.as_str() != target || func.id.as_str() == target || !pure_shape(cls, target) {
        return None;
    }
    Some((&c.func, cls))
}

/// `C` shapes whose evaluation has no effect: a name, a name's attribute (evaluated only when the
/// name is a module), a tuple of those; none of the names the loop's `target`.
fn pure_shape(e: &ast::Expr, target: &str) -> bool {
    let one = |e: &ast::Expr| match e {
        ast::Expr::Name(n) => n.id.as_str() != target,
        ast::Expr::Attribute(a) => {
            matches!(&*a.value, ast::Expr::Name(n) if n.id.as_str() != target)
        }
        _ => false,
    };
    match e {
        ast::Expr::Tuple(t) => t.elts.iter().all(one),
        e => one(e),
    }
}

impl<'a> Interp<'a> {
    /// Whether the loop's test is false for `v` without evaluating it: `v` is a node and `C`
    /// evaluates (purely) to AST classes `v` is none of. `Err(())`: the test cannot be answered
    /// this way in this loop (the caller drops the filter).
    pub(super) fn is_filter_rejects(
        &mut self,
        f: &mut Frame<'a>,
        flt: &mut IsFilter<'a>,
        v: &Value<'a>,
    ) -> Result<bool, ()> {
        if !matches!(v, Value::Node(_)) {
            return Ok(false);
        }
        if flt.classes.is_none() {
            let classes = self.probe_classes(f, &flt.calls);
            flt.set_classes(Classes::new(classes.ok_or(())?));
        }
        Ok(!flt.classes.as_ref().is_some_and(|c| c.holds(v)))
    }

    /// Binds `v` to a loop's `target` and says whether `filter` rejects it (`active`: the filter
    /// may answer for this item); a filter that cannot answer in this loop is dropped.
    pub(super) fn bind_filtered(
        &mut self,
        f: &mut Frame<'a>,
        target: &'a ast::Expr,
        v: Value<'a>,
        filter: &mut Option<IsFilter<'a>>,
        active: bool,
    ) -> PyResult<'a, bool> {
        // The test is answered before `v` is bound (so `v` moves into the target, no copy): it
        // reads nothing the binding changes (`isinstance` and `C` are not the target's name).
        let rejected =
            filter.as_mut().filter(|_| active).map(|flt| self.is_filter_rejects(f, flt, &v));
        match target {
            ast::Expr::Name(n) => self.store_site(f, n.id.as_str(), v)?,
            _ => self.assign(f, target, v)?,
        }
        Ok(match rejected {
            Some(Ok(r)) => r,
            Some(Err(())) => {
                *filter = None;
                false
            }
            None => false,
        })
    }

    /// Whether the loop's target is read only inside loops binding it (cached per loop: the
    /// function body does not change).
    pub(super) fn loop_target_unread(&mut self, f: &Frame<'a>, fo: &'a ast::StmtFor) -> bool {
        let key = fo as *const ast::StmtFor as usize;
        if let Some(v) = self.loop_targets.get(&key) {
            return *v;
        }
        let ast::Expr::Name(target) = &*fo.target else { return false };
        let unread = match f.func.as_deref().map(|func| &func.body) {
            Some(FuncBody::Stmts(body)) => {
                super::loop_target::read_only_in_own_loops(body, target.id.as_str())
            }
            _ => false,
        };
        self.loop_targets.insert(key, unread);
        unread
    }

    /// The test's classes, evaluated before the walk's next step when the body (or a consumer)
    /// has run since: only the native walk runs until the test, so they are the classes the test
    /// will see, and the walk may pass over the next node's statements too. Nothing when they are
    /// known, the walk may not pass over nodes, or `C` does not evaluate to classes (the test
    /// then decides, as before).
    #[cfg(feature = "fast-parse")]
    pub(super) fn refresh_classes(&mut self, f: &mut Frame<'a>, flt: &mut IsFilter<'a>) {
        if flt.classes.is_some() || !flt.may_skip || flt.skip_broken || flt.delta.is_none() {
            return;
        }
        if let Some(classes) = self.probe_classes(f, &flt.calls) {
            flt.set_classes(Classes::new(classes));
        }
    }

    /// After a filtered walk passed over nodes: fails (unsupported) if the test's classes have
    /// changed since, so the nodes passed over were judged by classes it no longer names.
    /// Checked again when the loop ends, as a walk yielding every node would have judged them.
    pub(super) fn skip_check(
        &mut self,
        f: &mut Frame<'a>,
        filter: &mut Option<IsFilter<'a>>,
    ) -> PyResult<'a, ()> {
        let Some(flt) = filter else { return Ok(()) };
        if flt.skipped_with.is_some() && flt.classes.is_none() && !flt.skip_broken {
            let classes = self.probe_classes(f, &flt.calls);
            if classes.map(Classes::new).and_then(|c| c.accept) != flt.skipped_with {
                flt.skip_broken = true;
            }
        }
        if flt.skip_broken {
            return Err(self.unsupported(
                "the classes of an isinstance filter changed while its ast.walk loop passed over \
                 statements without binding their nodes",
            ));
        }
        Ok(())
    }

    /// [`Self::is_filter_classes`] as a probe: its evaluations are not the test's, so the step
    /// count is left as it was.
    fn probe_classes(
        &mut self,
        f: &mut Frame<'a>,
        calls: &IsinstanceCalls<'a>,
    ) -> Option<Vec<AstCls>> {
        let saved = self.steps;
        let classes = self.is_filter_classes(f, calls);
        self.steps = saved;
        classes
    }

    /// Every call's `C` as AST classes, when each `func` is the builtin `isinstance` and each
    /// `C` evaluates without effects to AST classes; `None` otherwise (errors included: the test
    /// will raise them).
    fn is_filter_classes(
        &mut self,
        f: &mut Frame<'a>,
        calls: &IsinstanceCalls<'a>,
    ) -> Option<Vec<AstCls>> {
        let mut out = Vec::new();
        for &(func, cls) in calls {
            let func = self.eval(f, func).ok()?;
            let Value::Builtin(b) = &func else { return None };
            if b.this.is_some() || b.name != "isinstance" {
                return None;
            }
            match cls {
                ast::Expr::Tuple(t) => {
                    for e in &t.elts {
                        out.push(self.is_filter_class(f, e)?);
                    }
                }
                e => out.push(self.is_filter_class(f, e)?),
            }
        }
        Some(out)
    }

    fn is_filter_class(&mut self, f: &mut Frame<'a>, e: &'a ast::Expr) -> Option<AstCls> {
        let v = match e {
            ast::Expr::Name(_) => self.eval(f, e).ok()?,
            ast::Expr::Attribute(a) => {
                let ast::Expr::Name(_) = &*a.value else { return None };
                let Value::Module(m) = self.eval(f, &a.value).ok()? else { return None };
                self.module_attr(&m, a.attr.as_str())?
            }
            _ => return None,
        };
        match v {
            Value::AstClass(c) => Some(c),
            _ => None,
        }
    }
}
