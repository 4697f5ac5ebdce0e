//! Whether a function reads a name only where a `for` loop over it has just bound it.
//!
//! A filtered `ast.walk` loop may pass over a lazy statement's nodes without binding each to its
//! target ([`crate::interp::stdlib::ast::WalkSkip`]): then, after the loop ends, the target
//! holds the last node bound, not the last node of the walk. That is unobservable exactly when
//! nothing reads the name except the bodies of `for` loops binding it (each read then follows a
//! binding of its own loop). The check is syntactic and conservative: any construct it does not
//! know, a nested scope mentioning the name, `del`, `global`/`nonlocal`, or a call that can read
//! the frame's variables (`locals`, `vars`, `eval`, `exec`, `dir`) makes the answer "no".

use crate::python::syntax as ast;

/// Names whose call can read a frame's variables without naming them.
const FRAME_READERS: &[&str] = &["locals", "vars", "eval", "exec", "dir", "globals"];

/// Whether `body` reads `name` only inside bodies of `for` loops whose target is `name`.
pub(crate) fn read_only_in_own_loops(body: &[ast::Stmt], name: &str) -> bool {
    !stmts(body, name, false)
}

/// Whether `body` reads `name` where no loop of its own binds it (`inside`: within such a body).
fn stmts(body: &[ast::Stmt], name: &str, inside: bool) -> bool {
    body.iter().any(|s| stmt(s, name, inside))
}

fn opt(e: Option<&ast::Expr>, name: &str, inside: bool) -> bool {
    e.is_some_and(|e| expr(e, name, inside))
}

fn exprs(es: &[ast::Expr], name: &str, inside: bool) -> bool {
    es.iter().any(|e| expr(e, name, inside))
}

/// Whether a nested scope (function, class, lambda) mentions `name` at all, or calls a frame
/// reader: conservatively a read from outside the loops.
fn nested_stmts(body: &[ast::Stmt], name: &str) -> bool {
    stmts(body, name, false)
}

fn stmt(s: &ast::Stmt, name: &str, inside: bool) -> bool {
    use ast::Stmt as S;
    match s {
        S::For(f) => {
            let binds = matches!(&*f.target, ast::Expr::Name(n) if n.id.as_str() == name);
            expr(&f.iter, name, inside)
                || (!binds && expr(&f.target, name, inside))
                || stmts(&f.body, name, inside || binds)
                || stmts(&f.orelse, name, inside)
        }
        S::Expr(e) => expr(&e.value, name, inside),
        S::Assign(a) => exprs(&a.targets, name, inside) || expr(&a.value, name, inside),
        S::AugAssign(a) => expr(&a.target, name, inside) || expr(&a.value, name, inside),
        S::AnnAssign(a) => {
            expr(&a.target, name, inside)
                || expr(&a.annotation, name, inside)
                || opt(a.value.as_deref(), name, inside)
        }
        S::Return(r) => opt(r.value.as_deref(), name, inside),
        S::If(i) => {
            expr(&i.test, name, inside)
                || stmts(&i.body, name, inside)
                || stmts(&i.orelse, name, inside)
        }
        S::While(w) => {
            expr(&w.test, name, inside)
                || stmts(&w.body, name, inside)
                || stmts(&w.orelse, name, inside)
        }
        S::With(w) => {
            w.items.iter().any(|i| {
                expr(&i.context_expr, name, inside) || opt(i.optional_vars.as_deref(), name, inside)
            }) || stmts(&w.body, name, inside)
        }
        S::Try(t) => {
            stmts(&t.body, name, inside)
                || stmts(&t.orelse, name, inside)
                || stmts(&t.finalbody, name, inside)
                || t.handlers.iter().any(|h| {
                    let ast::ExceptHandler::ExceptHandler(h) = h;
                    h.name.as_ref().is_some_and(|n| n.as_str() == name)
                        || opt(h.type_.as_deref(), name, inside)
                        || stmts(&h.body, name, inside)
                })
        }
        S::Raise(r) => opt(r.exc.as_deref(), name, inside) || opt(r.cause.as_deref(), name, inside),
        S::Assert(a) => expr(&a.test, name, inside) || opt(a.msg.as_deref(), name, inside),
        S::Import(_) | S::ImportFrom(_) | S::Pass(_) | S::Break(_) | S::Continue(_) => false,
        // A nested definition may read the name from a closure, later: any mention counts.
        S::FunctionDef(d) => {
            exprs(&d.decorator_list, name, inside)
                || nested_stmts(&d.body, name)
                || arguments(&d.args, name)
        }
        S::ClassDef(c) => {
            exprs(&c.decorator_list, name, inside)
                || exprs(&c.bases, name, inside)
                || c.keywords.iter().any(|k| expr(&k.value, name, inside))
                || nested_stmts(&c.body, name)
        }
        // `async` forms, `del`, `global`, `nonlocal`, `match` and anything newer: conservatively a
        // read.
        _ => true,
    }
}

fn arguments(a: &ast::Arguments, name: &str) -> bool {
    a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs).any(|d| {
        d.def.arg.as_str() == name || d.default.as_deref().is_some_and(|e| expr(e, name, false))
    }) || a.vararg.as_ref().is_some_and(|v| v.arg.as_str() == name)
        || a.kwarg.as_ref().is_some_and(|v| v.arg.as_str() == name)
}

/// A comprehension: its first iterable is evaluated in the enclosing scope, the rest in its
/// own, where a clause whose target is `name` binds its own variable for what follows it.
fn comprehension(
    elts: &[&ast::Expr],
    gens: &[ast::Comprehension],
    name: &str,
    inside: bool,
) -> bool {
    let mut own = inside;
    for g in gens {
        let binds = matches!(&g.target, ast::Expr::Name(n) if n.id.as_str() == name);
        if expr(&g.iter, name, own) || (!binds && expr(&g.target, name, own)) {
            return true;
        }
        own = own || binds;
        if exprs(&g.ifs, name, own) {
            return true;
        }
    }
    elts.iter().any(|e| expr(e, name, own))
}

fn expr(e: &ast::Expr, name: &str, inside: bool) -> bool {
    use ast::Expr as E;
    match e {
        E::Name(n) => {
            let id = n.id.as_str();
            (id == name && !inside) || FRAME_READERS.contains(&id)
        }
        E::Constant(_) => false,
        E::Attribute(a) => expr(&a.value, name, inside),
        E::Subscript(s) => expr(&s.value, name, inside) || expr(&s.slice, name, inside),
        E::Call(c) => {
            expr(&c.func, name, inside)
                || exprs(&c.args, name, inside)
                || c.keywords.iter().any(|k| expr(&k.value, name, inside))
        }
        E::BoolOp(b) => exprs(&b.values, name, inside),
        E::BinOp(b) => expr(&b.left, name, inside) || expr(&b.right, name, inside),
        E::UnaryOp(u) => expr(&u.operand, name, inside),
        E::Compare(c) => expr(&c.left, name, inside) || exprs(&c.comparators, name, inside),
        E::IfExp(i) => {
            expr(&i.test, name, inside)
                || expr(&i.body, name, inside)
                || expr(&i.orelse, name, inside)
        }
        E::Tuple(t) => exprs(&t.elts, name, inside),
        E::List(t) => exprs(&t.elts, name, inside),
        E::Set(t) => exprs(&t.elts, name, inside),
        E::Dict(d) => {
            d.keys.iter().flatten().any(|k| expr(k, name, inside)) || exprs(&d.values, name, inside)
        }
        E::Starred(s) => expr(&s.value, name, inside),
        E::JoinedStr(j) => exprs(&j.values, name, inside),
        E::FormattedValue(v) => {
            expr(&v.value, name, inside) || opt(v.format_spec.as_deref(), name, inside)
        }
        E::Slice(s) => {
            opt(s.lower.as_deref(), name, inside)
                || opt(s.upper.as_deref(), name, inside)
                || opt(s.step.as_deref(), name, inside)
        }
        E::ListComp(c) => comprehension(&[&c.elt], &c.generators, name, inside),
        E::SetComp(c) => comprehension(&[&c.elt], &c.generators, name, inside),
        E::GeneratorExp(c) => comprehension(&[&c.elt], &c.generators, name, inside),
        E::DictComp(c) => comprehension(&[&c.key, &c.value], &c.generators, name, inside),
        // A lambda is a nested scope: any mention counts.
        E::Lambda(l) => expr(&l.body, name, false) || arguments(&l.args, name),
        // Walrus, await, yield and anything newer: conservatively a read.
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(src: &str) -> Vec<ast::Stmt> {
        match crate::python::parse_module(src, "t.py") {
            Ok(m) => m.body.clone(),
            Err(e) => panic!("{e}"),
        }
    }

    /// Reads inside the loops that bind the name are fine; one anywhere else, or anything the
    /// check does not know, is not.
    #[test]
    fn only_reads_in_loops_binding_the_name_pass() {
        let ok = "for node in ast.walk(t):\n    if isinstance(node, ast.If):\n        x = node.test\n\
                  for node in ast.walk(u):\n    if isinstance(node, ast.Call) and node.func:\n        pass\n\
                  y = [n for n in ast.walk(t)]\n\
                  z = any(isinstance(node, ast.Call) for node in ast.walk(t))\n";
        assert!(read_only_in_own_loops(&body(ok), "node"));
        for bad in [
            "for node in ast.walk(t):\n    pass\nprint(node)\n",
            "for node in ast.walk(t):\n    pass\nelse:\n    print(node)\n",
            "for node in ast.walk(node):\n    pass\n",
            "for node in ast.walk(t):\n    pass\ndel node\n",
            "for node in ast.walk(t):\n    pass\nprint(locals())\n",
            "for node in ast.walk(t):\n    pass\nf = lambda: node\n",
            "for node in ast.walk(t):\n    pass\ndef g():\n    return node\n",
            "for node in ast.walk(t):\n    pass\nx = [node for _ in t]\n",
            "for node in ast.walk(t):\n    pass\nx = [n for n in node.body]\n",
            "for node in ast.walk(t):\n    pass\nif (y := node):\n    pass\n",
            "for node in ast.walk(t):\n    pass\nfor x in t:\n    node.y\n",
        ] {
            assert!(!read_only_in_own_loops(&body(bad), "node"), "{bad}");
        }
    }
}
