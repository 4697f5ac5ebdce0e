//! The interpreter on generated programs: the input bytes drive `arbitrary` through a small Python
//! grammar (statements, expressions, functions, classes, generators, exceptions, comprehensions,
//! f-strings, the builtins and methods tests use), the program becomes a unittest method, and
//! the scorer runs it with small limits. Findings: a panic, a run that does not end within its
//! step budget (libFuzzer's `-timeout`), no verdict for the method, or two runs of the same
//! program that disagree (a run is a pure function of its source and tree).

use arbitrary::{Arbitrary, Unstructured};
use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

const VARS: [&str; 6] = ["a", "b", "c", "d", "e", "self.x"];
const FUNCS: [&str; 3] = ["f", "g", "h"];
const BUILTINS: [&str; 24] = [
    "len",
    "str",
    "repr",
    "int",
    "float",
    "bool",
    "list",
    "tuple",
    "dict",
    "set",
    "sorted",
    "reversed",
    "sum",
    "min",
    "max",
    "abs",
    "range",
    "enumerate",
    "zip",
    "isinstance",
    "hash",
    "iter",
    "next",
    "format",
];
const METHODS: [&str; 20] = [
    "append",
    "pop",
    "get",
    "items",
    "keys",
    "join",
    "split",
    "upper",
    "replace",
    "format",
    "index",
    "count",
    "insert",
    "update",
    "add",
    "strip",
    "startswith",
    "copy",
    "extend",
    "setdefault",
];
const EXCS: [&str; 8] = [
    "Exception",
    "ValueError",
    "TypeError",
    "KeyError",
    "IndexError",
    "ZeroDivisionError",
    "StopIteration",
    "AttributeError",
];
const BINOPS: [&str; 13] = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^", "@"];
const CMPOPS: [&str; 10] = ["==", "!=", "<", "<=", ">", ">=", "in", "not in", "is", "is not"];
const SPECS: [&str; 10] = ["", ">5", "<3", "^7", "08.3f", "x", ",", "!r", "+d", ".2%"];

#[derive(Arbitrary, Debug)]
enum Expr {
    Int(i16),
    Big(u64),
    Float(u8),
    Str(u8),
    Bytes(u8),
    Const(u8),
    Var(u8),
    Bin(Box<Expr>, u8, Box<Expr>),
    Cmp(Box<Expr>, u8, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    BoolOp(bool, Box<Expr>, Box<Expr>),
    List(Vec<Expr>),
    Tuple(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    Set(Vec<Expr>),
    Builtin(u8, Vec<Expr>),
    Method(Box<Expr>, u8, Vec<Expr>),
    Call(u8, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>, Option<Box<Expr>>),
    Lambda(u8, Box<Expr>),
    ListComp(Box<Expr>, u8, Box<Expr>, Option<Box<Expr>>),
    DictComp(Box<Expr>, Box<Expr>, u8, Box<Expr>),
    GenExp(Box<Expr>, u8, Box<Expr>),
    IfExp(Box<Expr>, Box<Expr>, Box<Expr>),
    FStr(Box<Expr>, u8),
    Attr(Box<Expr>, u8),
    Star(Box<Expr>),
    Walrus(u8, Box<Expr>),
}

#[derive(Arbitrary, Debug)]
enum Stmt {
    Assign(u8, Expr),
    AugAssign(u8, u8, Expr),
    Unpack(u8, u8, Expr),
    SetItem(u8, Expr, Expr),
    Expr(Expr),
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    While(Expr, Vec<Stmt>),
    For(u8, Expr, Vec<Stmt>, Vec<Stmt>),
    Try(Vec<Stmt>, u8, Vec<Stmt>, Vec<Stmt>),
    Raise(u8, Option<Expr>),
    Def(u8, u8, Vec<Stmt>),
    Class(Vec<Stmt>),
    Return(Option<Expr>),
    Yield(Expr),
    Break,
    Continue,
    Del(u8),
    Assert(Expr),
    AssertEqual(Expr, Expr),
    With(Vec<Stmt>),
    Global,
    Nonlocal,
}

/// Where a statement stands: what `break`, `return`, `yield` may do there.
#[derive(Clone, Copy, Default)]
struct Ctx {
    in_loop: bool,
    in_def: bool,
    depth: usize,
}

fn pick<'s>(list: &[&'s str], i: u8) -> &'s str {
    list[i as usize % list.len()]
}

/// Deeper nesting than this is cut to a constant: generated programs stay readable and the
/// rendering's own recursion small.
const MAX_DEPTH: usize = 40;

fn expr(e: &Expr, d: usize, out: &mut String) {
    if d > MAX_DEPTH {
        out.push('0');
        return;
    }
    let d = d + 1;
    let list = |items: &[Expr], out: &mut String| {
        for (i, x) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            expr(x, d, out);
        }
    };
    match e {
        Expr::Int(i) => out.push_str(&format!("({i})")),
        Expr::Big(n) => out.push_str(&format!("{n}{}", if n % 3 == 0 { "**7" } else { "" })),
        Expr::Float(x) => out.push_str(
            ["1.5", "0.0", "-0.0", "1e308", "float('nan')", "float('inf')", "3.25"]
                [*x as usize % 7],
        ),
        Expr::Str(x) => out.push_str(
            ["''", "'abc'", "'a b c'", "'{}'", "'x' * 3", "'\\u00e9\\n'", "'%s-%d'", "'10'"]
                [*x as usize % 8],
        ),
        Expr::Bytes(x) => {
            out.push_str(["b''", "b'ab'", "bytes(3)", "bytearray(b'xy')"][*x as usize % 4])
        }
        Expr::Const(x) => out.push_str(
            ["None", "True", "False", "...", "[]", "{}", "()", "NotImplemented"][*x as usize % 8],
        ),
        Expr::Var(v) => out.push_str(pick(&VARS, *v)),
        Expr::Bin(l, op, r) => {
            out.push('(');
            expr(l, d, out);
            out.push_str(&format!(" {} ", pick(&BINOPS, *op)));
            expr(r, d, out);
            out.push(')');
        }
        Expr::Cmp(l, op, r) => {
            out.push('(');
            expr(l, d, out);
            out.push_str(&format!(" {} ", pick(&CMPOPS, *op)));
            expr(r, d, out);
            out.push(')');
        }
        Expr::Not(x) => {
            out.push_str("(not ");
            expr(x, d, out);
            out.push(')');
        }
        Expr::Neg(x) => {
            out.push_str("(-");
            expr(x, d, out);
            out.push(')');
        }
        Expr::BoolOp(and, l, r) => {
            out.push('(');
            expr(l, d, out);
            out.push_str(if *and { " and " } else { " or " });
            expr(r, d, out);
            out.push(')');
        }
        Expr::List(items) => {
            out.push('[');
            list(items, out);
            out.push(']');
        }
        Expr::Tuple(items) => {
            out.push('(');
            list(items, out);
            out.push_str(",)");
        }
        Expr::Dict(items) => {
            out.push('{');
            for (i, (k, v)) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr(k, d, out);
                out.push_str(": ");
                expr(v, d, out);
            }
            out.push('}');
        }
        Expr::Set(items) => {
            if items.is_empty() {
                out.push_str("set()");
            } else {
                out.push('{');
                list(items, out);
                out.push('}');
            }
        }
        Expr::Builtin(b, args) => {
            out.push_str(pick(&BUILTINS, *b));
            out.push('(');
            list(args, out);
            out.push(')');
        }
        Expr::Method(obj, m, args) => {
            out.push('(');
            expr(obj, d, out);
            out.push_str(&format!(").{}(", pick(&METHODS, *m)));
            list(args, out);
            out.push(')');
        }
        Expr::Call(f, args) => {
            out.push_str(pick(&FUNCS, *f));
            out.push('(');
            list(args, out);
            out.push(')');
        }
        Expr::Index(obj, i) => {
            out.push('(');
            expr(obj, d, out);
            out.push_str(")[");
            expr(i, d, out);
            out.push(']');
        }
        Expr::Slice(obj, a, b, c) => {
            out.push('(');
            expr(obj, d, out);
            out.push_str(")[");
            for (i, part) in [a, b, c].into_iter().enumerate() {
                if i > 0 {
                    out.push(':');
                }
                if let Some(p) = part {
                    expr(p, d, out);
                }
            }
            out.push(']');
        }
        Expr::Lambda(v, body) => {
            out.push_str(&format!("(lambda {}: ", pick(&VARS[..5], *v)));
            expr(body, d, out);
            out.push(')');
        }
        Expr::ListComp(elt, v, it, cond) => {
            out.push('[');
            expr(elt, d, out);
            out.push_str(&format!(" for {} in ", pick(&VARS[..5], *v)));
            expr(it, d, out);
            if let Some(c) = cond {
                out.push_str(" if ");
                expr(c, d, out);
            }
            out.push(']');
        }
        Expr::DictComp(k, v, var, it) => {
            out.push('{');
            expr(k, d, out);
            out.push_str(": ");
            expr(v, d, out);
            out.push_str(&format!(" for {} in ", pick(&VARS[..5], *var)));
            expr(it, d, out);
            out.push('}');
        }
        Expr::GenExp(elt, v, it) => {
            out.push('(');
            expr(elt, d, out);
            out.push_str(&format!(" for {} in ", pick(&VARS[..5], *v)));
            expr(it, d, out);
            out.push(')');
        }
        Expr::IfExp(a, c, b) => {
            out.push('(');
            expr(a, d, out);
            out.push_str(" if ");
            expr(c, d, out);
            out.push_str(" else ");
            expr(b, d, out);
            out.push(')');
        }
        Expr::FStr(x, spec) => {
            let spec = pick(&SPECS, *spec);
            out.push_str("f'<{");
            expr(x, d, out);
            if let Some(conv) = spec.strip_prefix('!') {
                out.push('!');
                out.push_str(conv);
            } else if !spec.is_empty() {
                out.push(':');
                out.push_str(spec);
            }
            out.push_str("}>'");
        }
        Expr::Attr(x, a) => {
            out.push('(');
            expr(x, d, out);
            out.push_str(&format!(
                ").{}",
                ["real", "__class__", "x", "__name__", "imag", "__dict__"][*a as usize % 6]
            ));
        }
        Expr::Star(x) => {
            out.push_str("[*");
            expr(x, d, out);
            out.push(']');
        }
        Expr::Walrus(v, x) => {
            out.push_str(&format!("({} := ", pick(&VARS[..5], *v)));
            expr(x, d, out);
            out.push(')');
        }
    }
}

fn block(stmts: &[Stmt], ctx: Ctx, indent: usize, out: &mut String) {
    let before = out.len();
    for s in stmts {
        stmt(s, ctx, indent, out);
    }
    if out.len() == before {
        line(indent, "pass", out);
    }
}

fn line(indent: usize, text: &str, out: &mut String) {
    out.extend(std::iter::repeat_n(' ', indent * 4));
    out.push_str(text);
    out.push('\n');
}

fn e2s(e: &Expr) -> String {
    let mut s = String::new();
    expr(e, 0, &mut s);
    s
}

fn stmt(s: &Stmt, ctx: Ctx, ind: usize, out: &mut String) {
    if ctx.depth > 12 {
        line(ind, "pass", out);
        return;
    }
    let inner = Ctx { depth: ctx.depth + 1, ..ctx };
    match s {
        Stmt::Assign(v, e) => line(ind, &format!("{} = {}", pick(&VARS, *v), e2s(e)), out),
        Stmt::AugAssign(v, op, e) => {
            line(ind, &format!("{} {}= {}", pick(&VARS, *v), pick(&BINOPS, *op), e2s(e)), out)
        }
        Stmt::Unpack(a, b, e) => line(
            ind,
            &format!("{}, *{} = {}", pick(&VARS[..5], *a), pick(&VARS[..5], *b), e2s(e)),
            out,
        ),
        Stmt::SetItem(v, k, e) => {
            line(ind, &format!("{}[{}] = {}", pick(&VARS, *v), e2s(k), e2s(e)), out)
        }
        Stmt::Expr(e) => line(ind, &e2s(e), out),
        Stmt::If(c, a, b) => {
            line(ind, &format!("if {}:", e2s(c)), out);
            block(a, inner, ind + 1, out);
            if !b.is_empty() {
                line(ind, "else:", out);
                block(b, inner, ind + 1, out);
            }
        }
        Stmt::While(c, body) => {
            line(ind, &format!("while {}:", e2s(c)), out);
            block(body, Ctx { in_loop: true, ..inner }, ind + 1, out);
        }
        Stmt::For(v, it, body, orelse) => {
            line(ind, &format!("for {} in {}:", pick(&VARS, *v), e2s(it)), out);
            block(body, Ctx { in_loop: true, ..inner }, ind + 1, out);
            if !orelse.is_empty() {
                line(ind, "else:", out);
                block(orelse, inner, ind + 1, out);
            }
        }
        Stmt::Try(body, exc, handler, fin) => {
            line(ind, "try:", out);
            block(body, inner, ind + 1, out);
            line(ind, &format!("except {} as err:", pick(&EXCS, *exc)), out);
            block(handler, inner, ind + 1, out);
            if !fin.is_empty() {
                line(ind, "finally:", out);
                block(fin, inner, ind + 1, out);
            }
        }
        Stmt::Raise(exc, arg) => {
            let arg = arg.as_ref().map(e2s).unwrap_or_default();
            line(ind, &format!("raise {}({arg})", pick(&EXCS, *exc)), out)
        }
        Stmt::Def(f, params, body) => {
            let ps = ["", "a", "a, b=1", "*a", "a, **b", "a, /, b=2, *, c=3"][*params as usize % 6];
            line(ind, &format!("def {}({ps}):", pick(&FUNCS, *f)), out);
            block(body, Ctx { in_loop: false, in_def: true, depth: ctx.depth + 1 }, ind + 1, out);
        }
        Stmt::Class(body) => {
            line(ind, "class K:", out);
            block(body, Ctx { in_loop: false, in_def: false, depth: ctx.depth + 1 }, ind + 1, out);
            line(ind, "e = K()", out);
        }
        Stmt::Return(e) if ctx.in_def => {
            line(ind, &format!("return {}", e.as_ref().map(e2s).unwrap_or_default()), out)
        }
        Stmt::Yield(e) if ctx.in_def => line(ind, &format!("yield {}", e2s(e)), out),
        Stmt::Break if ctx.in_loop => line(ind, "break", out),
        Stmt::Continue if ctx.in_loop => line(ind, "continue", out),
        // `global` / `nonlocal` after a use is a SyntaxError; the method declares its globals.
        Stmt::Return(_)
        | Stmt::Yield(_)
        | Stmt::Break
        | Stmt::Continue
        | Stmt::Global
        | Stmt::Nonlocal => line(ind, "pass", out),
        Stmt::Del(v) => line(ind, &format!("del {}", pick(&VARS, *v)), out),
        Stmt::Assert(e) => line(ind, &format!("assert {}", e2s(e)), out),
        Stmt::AssertEqual(a, b) => {
            line(ind, &format!("self.assertEqual({}, {})", e2s(a), e2s(b)), out)
        }
        Stmt::With(body) => {
            line(ind, "with self.subTest(i=1):", out);
            block(body, inner, ind + 1, out);
        }
    }
}

/// The test file a generated body becomes: module-level variables and functions, so names the
/// body reads mostly exist, then one test method holding the body.
pub fn program(data: &[u8]) -> Option<String> {
    let mut u = Unstructured::new(data);
    let body: Vec<Stmt> = Vec::arbitrary(&mut u).ok()?;
    let mut out = String::from(
        "import unittest\n\na, b, c, d, e = 1, 'two', [3], {'k': 4}, (5, 6)\n\n\
         def f(*args, **kw):\n    return args\n\n\
         def g(x=0, *rest):\n    return x\n\n\
         def h(*args):\n    yield from args\n\n\n\
         class T(unittest.TestCase):\n    x = 0\n\n    def test_generated(self):\n",
    );
    out.push_str("        global a, b, c, d, e\n");
    block(&body, Ctx { in_loop: false, in_def: true, depth: 0 }, 2, &mut out);
    Some(out)
}

/// Limits small enough for thousands of runs a second, with every limit reachable.
fn config() -> RunConfig {
    RunConfig {
        step_budget: 200_000,
        max_recursion: 200,
        max_collection_len: 100_000,
        reuse_runs: false,
        parse_cache_bytes: 1 << 20,
        ..RunConfig::default()
    }
}

/// The target.
pub fn fuzz(data: &[u8]) {
    let Some(source) = program(data) else { return };
    let tree = Tree::new();
    let first = Scorer::new(config()).run_test_file(&tree, "test_fuzz.py", &source);
    assert!(!first.is_empty(), "no verdict at all for\n{source}");
    let second = Scorer::new(config()).run_test_file(&tree, "test_fuzz.py", &source);
    assert_eq!(first, second, "two runs of one program disagree:\n{source}");
}

#[cfg(test)]
mod tests {
    /// `FUZZ_SHOW=FILE cargo test -p fuzz show_program -- --ignored --nocapture` prints the
    /// program an input of the `interp` target becomes.
    #[test]
    #[ignore]
    fn show_program() {
        let file = std::env::var("FUZZ_SHOW").expect("FUZZ_SHOW=FILE");
        let data = std::fs::read(file).expect("read input");
        println!("{}", super::program(&data).unwrap_or_default());
    }

    /// `FUZZ_LEAKS=DIR cargo test -p fuzz leaks -- --ignored --nocapture` runs the program of
    /// every input in DIR and prints those whose run leaves bytes charged to the memory account
    /// once it has ended (objects the end of the run did not free).
    #[test]
    #[ignore]
    fn leaks() {
        let dir = std::env::var("FUZZ_LEAKS").expect("FUZZ_LEAKS=DIR");
        let mut n = 0;
        for e in std::fs::read_dir(dir).expect("read dir").flatten() {
            let data = std::fs::read(e.path()).expect("read input");
            let Some(source) = super::program(&data) else { continue };
            let tree = scorer::tree::Tree::new();
            let _ = scorer::unittest::Scorer::new(super::config()).run_test_file(
                &tree,
                "test_fuzz.py",
                &source,
            );
            n += 1;
            let left = scorer::interp::bytes_left();
            if left > 0 {
                println!("LEAK {left} {}\n{source}", e.path().display());
            }
        }
        println!("{n} programs run");
    }

    /// `cargo test -p fuzz --release corpus_outcomes -- --ignored --nocapture` prints each
    /// corpus input's verdicts, one line each, then how many rounds over the corpus it ran
    /// (`FUZZ_ROUNDS`, default 1) with the resident memory after each. Comparing its output
    /// with `--features scorer/gc-stress` and without shows whether the cycle collector (after
    /// every method and every 2,000 steps there) changes any verdict; the rounds show whether
    /// replaying grows the process.
    #[test]
    #[ignore]
    fn corpus_outcomes() {
        let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("corpus/interp");
        let mut files: Vec<_> =
            std::fs::read_dir(dir).expect("corpus").flatten().map(|e| e.path()).collect();
        files.sort();
        let rounds: usize =
            std::env::var("FUZZ_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(1);
        let rss = || {
            std::fs::read_to_string("/proc/self/status")
                .ok()
                .and_then(|s| {
                    let l = s.lines().find(|l| l.starts_with("VmRSS:"))?.to_string();
                    l.split_whitespace().nth(1)?.parse::<u64>().ok()
                })
                .unwrap_or(0)
        };
        for round in 0..rounds {
            for p in &files {
                let data = std::fs::read(p).expect("read input");
                let Some(source) = super::program(&data) else { continue };
                let out = scorer::unittest::Scorer::new(super::config()).run_test_file(
                    &scorer::tree::Tree::new(),
                    "test_fuzz.py",
                    &source,
                );
                if round == 0 {
                    let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
                    println!(
                        "OUT {} {}",
                        name.unwrap_or_default(),
                        serde_json::to_string(&out).expect("json")
                    );
                }
            }
            println!(
                "ROUND {round} rss {} KB, left charged {}",
                rss(),
                scorer::interp::bytes_left()
            );
        }
    }

    /// Found by this target: `[] * 7668058830512687692` looped once per repetition (a hang
    /// within every budget). CPython answers `[]` and `()` at once; so must the scorer.
    #[test]
    fn empty_sequence_repeat_ends_at_once() {
        let source =
            "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        \
                      self.assertEqual([] * 7668058830512687692, [])\n        \
                      self.assertEqual(() * 7668058830512687692, ())\n        \
                      self.assertEqual(7668058830512687692 * [], [])\n";
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || {
                let out = scorer::unittest::Scorer::new(super::config()).run_test_file(
                    &scorer::tree::Tree::new(),
                    "test_repeat.py",
                    source,
                );
                let _ = tx.send(out);
            })
            .expect("spawn");
        let out = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("the run must end");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].status, scorer::report::Status::Pass, "{:?}", out[0]);
    }
}
