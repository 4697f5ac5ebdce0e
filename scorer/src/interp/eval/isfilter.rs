//! The official tests' `ast.walk` loops, answered for the nodes they pass over:
//!
//! ```python
//! for node in ast.walk(tree):
//!     if isinstance(node, ast.FunctionDef) and node.name == "f":
//!         ...
//! ```
//!
//! 473 of the ~500 `for` loops over `ast.walk` in the benchmark's test files have this shape: a
//! body of one `if` without `else`, whose test is `isinstance(target, C)` alone or first in an
//! `and`. For most nodes the `isinstance` is false, and the interpreter spent an `if`, a call, three
//! name loads and an attribute load on each (~15% of a touch run's instructions) to learn it.
//!
//! Here a loop of that shape evaluates `isinstance` and `C` once, purely (names, a module's
//! attribute, a tuple of those; anything else and the loop runs as before), and from then on
//! answers "false" for a node of another AST class without evaluating the test: the target is
//! still bound, and the steps the test would have taken are charged (measured on the first such
//! node, so the step count, which the step budget and method reuse read, is the same as before).
//! Nothing but the body can rebind the names the test reads (the iterator must be a native one,
//! which runs no Python code), so after every run of the body `isinstance` and `C` are evaluated
//! again before the next answer.

use super::{Frame, FrameKind};
use crate::interp::stdlib::ast::node_isinstance;
use crate::interp::value::*;
use crate::interp::{Interp, Value};
use crate::python::syntax as ast;

/// A loop of the shape above, and what is known of its test.
pub(super) struct IsFilter<'a> {
    /// The `isinstance` of the test (a name).
    func: &'a ast::Expr,
    /// Its `C`.
    cls: &'a ast::Expr,
    /// The AST classes `C` names, while the body has not run since they were evaluated.
    classes: Option<Vec<AstCls>>,
    /// Steps the test takes for a node it rejects, once measured.
    delta: Option<u64>,
}

impl<'a> IsFilter<'a> {
    /// The filter of a `for` loop over `it` in a function body, if loop and iterator qualify.
    pub(super) fn of(f: &Frame<'a>, fo: &'a ast::StmtFor, it: &Value<'a>) -> Option<Self> {
        if cfg!(feature = "gc-stress") || f.kind != FrameKind::Function {
            return None;
        }
        // Iterators whose `next` runs no Python code (so nothing rebinds names between items).
        let Value::Iter(cell) = it else { return None };
        if !matches!(
            &*cell.borrow(),
            PyIter::Walk(_) | PyIter::Seq { .. } | PyIter::Tuple { .. } | PyIter::Owned { .. }
        ) {
            return None;
        }
        let ast::Expr::Name(target) = &*fo.target else { return None };
        let [ast::Stmt::If(i)] = fo.body.as_slice() else { return None };
        if !i.orelse.is_empty() {
            return None;
        }
        let test = match &*i.test {
            ast::Expr::BoolOp(b) if matches!(b.op, ast::BoolOp::And) => b.values.first()?,
            other => other,
        };
        let ast::Expr::Call(c) = test else { return None };
        if !c.keywords.is_empty() {
            return None;
        }
        let ast::Expr::Name(func) = &*c.func else { return None };
        if func.id.as_str() != "isinstance" {
            return None;
        }
        let [ast::Expr::Name(x), cls] = c.args.as_slice() else { return None };
        // The test must read the target only as `isinstance`'s first argument: what else it
        // reads is evaluated once for many items.
        if x.id != target.id || func.id == target.id || !pure_shape(cls, target.id.as_str()) {
            return None;
        }
        Some(IsFilter { func: &c.func, cls, classes: None, delta: None })
    }

    /// The body ran (or may have): names the test reads may have been rebound.
    pub(super) fn body_ran(&mut self) {
        self.classes = None;
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
            // The probe's evaluations are not the test's: the step count is left as it was.
            let saved = self.steps;
            let classes = self.is_filter_classes(f, flt.func, flt.cls);
            self.steps = saved;
            flt.classes = Some(classes.ok_or(())?);
        }
        let classes = flt.classes.as_deref().unwrap_or_default();
        Ok(!classes.iter().any(|c| node_isinstance(v, *c)))
    }

    /// `C` as AST classes, when `func` is the builtin `isinstance` and `C` evaluates without
    /// effects to AST classes; `None` otherwise (errors included: the test will raise them).
    fn is_filter_classes(
        &mut self,
        f: &mut Frame<'a>,
        func: &'a ast::Expr,
        cls: &'a ast::Expr,
    ) -> Option<Vec<AstCls>> {
        let func = self.eval(f, func).ok()?;
        let Value::Builtin(b) = &func else { return None };
        if b.this.is_some() || b.name != "isinstance" {
            return None;
        }
        let mut out = Vec::new();
        match cls {
            ast::Expr::Tuple(t) => {
                for e in &t.elts {
                    out.push(self.is_filter_class(f, e)?);
                }
            }
            e => out.push(self.is_filter_class(f, e)?),
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
