//! `ast.dump` on node objects (3.11's `_format`, a counted Python frame per level, so deep trees
//! fail at CPython's depth).

use super::*;
use crate::interp::ExcKind;

impl<'a> Interp<'a> {
    /// `ast.dump`'s `_format` (3.11): a Python frame per call, as CPython counts it for its
    /// recursion limit (a deep tree dumped from a deep helper fails where CPython's does).
    pub(super) fn dump(
        &mut self,
        v: &Value<'a>,
        level: usize,
        annotate: bool,
        attrs: bool,
        indent: Option<&str>,
    ) -> PyResult<'a, (String, bool)> {
        self.dump_levels(1)?;
        self.depth += 1;
        let r = self.dump_inner(v, level, annotate, attrs, indent);
        self.depth -= 1;
        r
    }

    /// RecursionError if `_format` cannot go `n` levels deeper. Measured with python3 3.11.7
    /// (warm, after the interpreter specialised `ast.py`): a failure inside `ast.dump` reads
    /// "while calling a Python object", except in the `repr` of a leaf value.
    fn dump_levels(&self, n: u32) -> PyResult<'a, ()> {
        if self.cpython_depth() + n > self.limits.max_recursion
            || self.stack_used() > self.limits.stack_budget
        {
            return Err(self.err(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded while calling a Python object",
            ));
        }
        Ok(())
    }

    fn dump_inner(
        &mut self,
        v: &Value<'a>,
        level: usize,
        annotate: bool,
        attrs: bool,
        indent: Option<&str>,
    ) -> PyResult<'a, (String, bool)> {
        self.step()?;
        let (prefix, sep) = match indent {
            Some(ind) => {
                let p = format!("\n{}", ind.repeat(level + 1));
                (p.clone(), format!(",{p}"))
            }
            None => (String::new(), ", ".to_string()),
        };
        let level = level + 1;
        match v {
            Value::Node(n) => {
                let class = n.class;
                let mut args = Vec::new();
                let mut allsimple = true;
                let mut keywords = annotate;
                let vals = n.values();
                for (i, name) in class.fields.iter().enumerate() {
                    let Some(Some(x)) = vals.get(i) else {
                        keywords = true;
                        continue;
                    };
                    if x.is_none() && is_optional(class, name) {
                        keywords = true;
                        continue;
                    }
                    let (s, simple) = self.dump(x, level, annotate, attrs, indent)?;
                    allsimple = allsimple && simple;
                    if keywords {
                        args.push(format!("{name}={s}"));
                    } else {
                        args.push(s);
                    }
                }
                if attrs {
                    for (i, name) in class.attributes.iter().enumerate() {
                        let Some(Some(x)) = vals.get(class.fields.len() + i) else { continue };
                        if x.is_none() && is_optional(class, name) {
                            continue;
                        }
                        let (s, simple) = self.dump(x, level, annotate, attrs, indent)?;
                        allsimple = allsimple && simple;
                        args.push(format!("{name}={s}"));
                    }
                }
                if allsimple && args.len() <= 3 {
                    let empty = args.is_empty();
                    return Ok((format!("{}({})", class.name, args.join(", ")), empty));
                }
                Ok((format!("{}({prefix}{})", class.name, args.join(&sep)), false))
            }
            Value::List(l) => {
                let items = l.borrow().clone();
                if items.is_empty() {
                    return Ok(("[]".into(), true));
                }
                // `sep.join(_format(x, level)[0] for x in node)`: the C call of `join`, the
                // generator's frame and the C entry resuming it are three levels more.
                self.dump_levels(3)?;
                self.depth += 3;
                let mut parts = Vec::new();
                let mut failed = None;
                for x in &items {
                    match self.dump(x, level, annotate, attrs, indent) {
                        Ok((s, _)) => parts.push(s),
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    }
                }
                self.depth -= 3;
                if let Some(e) = failed {
                    return Err(e);
                }
                Ok((format!("[{prefix}{}]", parts.join(&sep)), false))
            }
            other => {
                // `repr(node)` enters CPython's recursion guard once more.
                if self.cpython_depth() >= self.limits.max_recursion {
                    return Err(self.err(
                        ExcKind::RecursionError,
                        "maximum recursion depth exceeded while getting the repr of an object",
                    ));
                }
                Ok((self.repr(other)?, true))
            }
        }
    }
}
