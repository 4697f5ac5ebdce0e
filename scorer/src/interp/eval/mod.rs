//! The evaluator: frames and the types its parts share, and error line attribution. Statements
//! are in [`stmt`], expressions in [`expr`], name resolution and binding in [`names`], `def` and
//! `class` in [`defs`], calls and argument binding in [`call`], generators in [`generator`], the
//! `isinstance` filter of `ast.walk` loops in [`isfilter`].

mod call;
pub(crate) use call::missing_msg;
mod defs;
mod expr;
mod generator;
mod isfilter;
mod loop_target;
#[cfg(test)]
pub(crate) use isfilter::OFF as ISFILTER_OFF;
pub(crate) use isfilter::{FilterKind, IsFilter};
mod names;
mod stmt;

use std::rc::Rc;

use crate::python::syntax::{self as ast, Ranged};

use super::scope::ScopeInfo;
use super::value::*;
use super::PyErr;
use super::{Interp, Value};

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
pub(crate) type Kwargs<'a> = Vec<(Str, Value<'a>)>;

/// A looked-up method, bound without allocating.
pub enum Meth<'a> {
    Plain(Value<'a>),
    Func(Value<'a>, Rc<Function<'a>>),
    Builtin(&'static str, Value<'a>),
}

fn start(r: &impl Ranged) -> u32 {
    u32::from(r.start())
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
}
