//! Which repository files a task needs: what its test file names and what its instructions name.
//!
//! The official tests run with the working directory `<repo>/refactorbench_eval/`, so a string
//! `'../x/y.py'` means `x/y.py` at the repository root. They also build paths as
//! `os.path.join('../lib/pkg/', 'name.py')` or `base_path + name` over a list of bare names, so a
//! folder string and a bare file name of the same test file are joined too (only when the result
//! exists). Over-inclusion only costs bytes; a missed file would make a test read fail, so the
//! rules err on the side of carrying a file. Nothing here is executed: the test source is parsed
//! and its string constants are read.

use std::collections::{BTreeMap, BTreeSet};

use crate::python::{self, syntax, syntax::Ranged};
use crate::tree::RepoPath;

/// A string constant of a test file and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrLit {
    /// The constant's value (escapes decoded).
    pub value: String,
    /// 1-based line of the constant's first character.
    pub line: u32,
}

/// What the importer learns from a test file's source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestScan {
    /// Every string constant (f-string parts included), in source order.
    pub literals: Vec<StrLit>,
    /// `Class.method` ids, as `unittest.TestLoader().loadTestsFromModule` orders them.
    pub methods: Vec<String>,
}

/// Parses a test file and collects its string constants and test methods.
pub fn scan_test(source: &str, file: &str) -> Result<TestScan, python::SyntaxError> {
    let module = python::parse_module(source, file)?;
    let index = python::LineIndex::new(source);
    let mut literals = Vec::new();
    {
        let mut push = |s: &str, at: u32| {
            let (line, _) = index.position(at);
            literals.push(StrLit { value: s.to_string(), line });
        };
        let mut w = Walker { f: &mut push };
        w.stmts(&module.body);
    }
    literals.sort_by_key(|l| l.line);
    Ok(TestScan { literals, methods: test_methods(&module.body) })
}

/// Test methods the loader finds: module-level `TestCase` subclasses (a later definition of a name
/// replaces an earlier one), their `test*` functions plus those inherited from such classes of the
/// same file; classes and methods in sorted order, as `dir()` gives them.
fn test_methods(body: &[syntax::Stmt]) -> Vec<String> {
    // class name -> (own test method names, in-file base names)
    let mut classes: BTreeMap<String, (BTreeSet<String>, Vec<String>, bool)> = BTreeMap::new();
    for stmt in body {
        let syntax::Stmt::ClassDef(class) = stmt else { continue };
        let mut bases = Vec::new();
        let mut direct = false;
        for b in &class.bases {
            match b {
                syntax::Expr::Attribute(a) if a.attr.as_str().ends_with("TestCase") => {
                    direct = true
                }
                syntax::Expr::Name(n) if n.id.as_str().ends_with("TestCase") => direct = true,
                syntax::Expr::Name(n) => bases.push(n.id.to_string()),
                _ => {}
            }
        }
        let mut own = BTreeSet::new();
        for s in &class.body {
            let name = match s {
                syntax::Stmt::FunctionDef(f) => f.name.as_str(),
                syntax::Stmt::AsyncFunctionDef(f) => f.name.as_str(),
                _ => continue,
            };
            if name.starts_with("test") {
                own.insert(name.to_string());
            }
        }
        classes.insert(class.name.to_string(), (own, bases, direct));
    }
    let mut out = Vec::new();
    for name in classes.keys() {
        let mut methods = BTreeSet::new();
        if collect(&classes, name, &mut methods, 0) {
            out.extend(methods.into_iter().map(|m| format!("{name}.{m}")));
        }
    }
    out
}

/// Adds the test methods of `name` and its in-file bases; true when it is a `TestCase` subclass.
fn collect(
    classes: &BTreeMap<String, (BTreeSet<String>, Vec<String>, bool)>,
    name: &str,
    methods: &mut BTreeSet<String>,
    depth: u32,
) -> bool {
    let Some((own, bases, direct)) = classes.get(name) else { return false };
    if depth > 32 {
        return false;
    }
    let mut is_case = *direct;
    for b in bases {
        is_case |= collect(classes, b, methods, depth + 1);
    }
    methods.extend(own.iter().cloned());
    is_case
}

/// File extensions that make a bare string look like a file name (as the official harness's scan).
const PATH_EXTENSIONS: &[&str] = &[
    "py", "pyi", "json", "txt", "rst", "md", "cfg", "toml", "ini", "yml", "yaml", "html", "js",
    "css", "in", "sh", "lock",
];

fn looks_like_file_name(s: &str) -> bool {
    let Some((stem, ext)) = s.rsplit_once('.') else { return false };
    !stem.is_empty()
        && PATH_EXTENSIONS.contains(&ext)
        && s.chars().all(|c| crate::unicode::is_alnum(c) || matches!(c, '_' | '.' | '-' | '/'))
}

/// The paths a test file names, resolved against the repository (`exists` answers for files,
/// `is_dir` for folders). Returns `(inspected, extra)`: `inspected` are the paths the test opens or
/// checks (`'../x'` strings and folder strings joined with bare names), with the lines naming them;
/// `extra` are existing files the test names in other ways (`'/x'`, a bare repository path), carried
/// because reading them costs nothing and a missed read would be an error.
pub fn test_paths(
    literals: &[StrLit],
    exists: &dyn Fn(&RepoPath) -> bool,
    is_dir: &dyn Fn(&str) -> bool,
) -> (BTreeMap<RepoPath, BTreeSet<u32>>, BTreeSet<RepoPath>) {
    let mut inspected: BTreeMap<RepoPath, BTreeSet<u32>> = BTreeMap::new();
    let mut extra = BTreeSet::new();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for lit in literals {
        let v = lit.value.as_str();
        if v.chars().any(crate::unicode::is_space) {
            continue;
        }
        if let Some(rest) = v.strip_prefix("../") {
            let Ok(p) = RepoPath::new(rest) else { continue };
            if v.ends_with('/') || is_dir(p.as_str()) {
                dirs.insert(p.as_str().to_string());
                if !v.ends_with('/') {
                    inspected.entry(p).or_default().insert(lit.line);
                }
            } else {
                inspected.entry(p).or_default().insert(lit.line);
            }
        } else {
            // `'/x'`, or a bare repository path.
            let named = v.strip_prefix('/').or_else(|| looks_like_file_name(v).then_some(v));
            if let Some(p) = named.and_then(|n| RepoPath::new(n).ok()).filter(|p| exists(p)) {
                extra.insert(p);
            }
        }
    }
    for lit in literals {
        let v = lit.value.as_str();
        if v.starts_with('/') || v.starts_with("../") || !looks_like_file_name(v) {
            continue;
        }
        for d in &dirs {
            if let Ok(p) = RepoPath::new(&format!("{d}/{v}")) {
                if exists(&p) {
                    inspected.entry(p).or_default().insert(lit.line);
                }
            }
        }
    }
    (inspected, extra)
}

/// File names an instruction mentions (`flask/helpers.py`, `setup.cfg`), as the official
/// harness's `instruction_mentions` finds them: `[\w./-]*[\w-]\.(py|pyi|json|txt|rst|md|cfg|toml|ini|yml|yaml)\b`.
pub fn instruction_mentions(text: &str) -> BTreeSet<String> {
    const EXTS: &[&str] =
        &["py", "pyi", "json", "txt", "rst", "md", "cfg", "toml", "ini", "yml", "yaml"];
    let word = |c: char| crate::unicode::is_alnum(c) || c == '_';
    let allowed = |c: char| word(c) || matches!(c, '.' | '/' | '-');
    let chars: Vec<char> = text.chars().collect();
    let mut out = BTreeSet::new();
    let mut i = 0;
    while i < chars.len() {
        if !allowed(chars[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let mut end = i;
        while end < chars.len() && allowed(chars[end]) {
            end += 1;
        }
        // The run is chars[start..end]; the greedy match ends at the last valid extension end.
        let mut best = None;
        for dot in start + 1..end {
            if chars[dot] != '.' || !(word(chars[dot - 1]) || chars[dot - 1] == '-') {
                continue;
            }
            for ext in EXTS {
                let stop = dot + 1 + ext.len();
                if stop > chars.len() {
                    continue;
                }
                let matches = chars[dot + 1..stop].iter().copied().eq(ext.chars());
                let boundary = stop == chars.len() || !word(chars[stop]);
                if matches && boundary && best.is_none_or(|b| stop > b) {
                    best = Some(stop);
                }
            }
        }
        match best {
            Some(stop) => {
                out.insert(chars[start..stop].iter().collect());
                i = stop;
            }
            None => i = end,
        }
    }
    out
}

/// Dotted module names an instruction mentions (`flask.helpers`, `celery.app.retry`): words of
/// two or more identifiers joined by dots. `flask.json` may be a module or a file, so words that
/// end in a file extension count too (`a.py` then looks for `a/py.py`, which costs nothing).
pub fn instruction_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for raw in text.split(|c: char| !(crate::unicode::is_alnum(c) || c == '_' || c == '.')) {
        let w = raw.trim_matches('.');
        let parts: Vec<&str> = w.split('.').collect();
        if parts.len() < 2 {
            continue;
        }
        let ident = |p: &&str| {
            p.chars().next().is_some_and(|c| crate::unicode::is_alpha(c) || c == '_')
                && p.chars().all(|c| crate::unicode::is_alnum(c) || c == '_')
        };
        if parts.iter().all(ident) {
            out.insert(w.to_string());
        }
    }
    out
}

/// Most files a single mention may resolve to; a mention matching more (`utils.py` in django) is
/// too vague to carry.
pub const MAX_MENTION_MATCHES: usize = 4;

/// Resolves an instruction's mentions against the repository's paths (sorted). A file mention
/// matches the path itself or any path ending in `/<mention>`; a dotted module `a.b` matches
/// `a/b.py` and `a/b/__init__.py` likewise (so `flask.helpers` finds `src/flask/helpers.py`).
pub fn resolve_mentions<'a>(
    text: &str,
    paths: impl Iterator<Item = &'a RepoPath> + Clone,
) -> BTreeSet<RepoPath> {
    let mut wanted: Vec<Vec<String>> = Vec::new();
    for m in instruction_mentions(text) {
        let m = m.trim_start_matches("./").trim_start_matches('/').to_string();
        if let Ok(p) = RepoPath::new(&m) {
            wanted.push(vec![p.as_str().to_string()]);
        }
    }
    for m in instruction_modules(text) {
        let base = m.replace('.', "/");
        wanted.push(vec![format!("{base}.py"), format!("{base}/__init__.py")]);
    }
    let mut out = BTreeSet::new();
    for alternatives in wanted {
        let hits: Vec<&RepoPath> = paths
            .clone()
            .filter(|p| {
                alternatives.iter().any(|a| {
                    let s = p.as_str();
                    s == a || (s.ends_with(a.as_str()) && s[..s.len() - a.len()].ends_with('/'))
                })
            })
            .collect();
        if !hits.is_empty() && hits.len() <= MAX_MENTION_MATCHES {
            out.extend(hits.into_iter().cloned());
        }
    }
    out
}

/// Visits every string constant of a module (f-string literal parts included).
struct Walker<'f> {
    f: &'f mut dyn FnMut(&str, u32),
}

impl Walker<'_> {
    fn stmts(&mut self, body: &[syntax::Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn exprs(&mut self, es: &[syntax::Expr]) {
        for e in es {
            self.expr(e);
        }
    }

    fn opt(&mut self, e: &Option<Box<syntax::Expr>>) {
        if let Some(e) = e {
            self.expr(e);
        }
    }

    fn args(&mut self, a: &syntax::Arguments) {
        for arg in a.posonlyargs.iter().chain(&a.args).chain(&a.kwonlyargs) {
            self.opt(&arg.def.annotation);
            self.opt(&arg.default);
        }
        for arg in a.vararg.iter().chain(&a.kwarg) {
            self.opt(&arg.annotation);
        }
    }

    fn handlers(&mut self, hs: &[syntax::ExceptHandler]) {
        for syntax::ExceptHandler::ExceptHandler(h) in hs {
            self.opt(&h.type_);
            self.stmts(&h.body);
        }
    }

    // The sync and async forms of a statement share one visit.
    fn function(
        &mut self,
        decorators: &[syntax::Expr],
        args: &syntax::Arguments,
        returns: &Option<Box<syntax::Expr>>,
        body: &[syntax::Stmt],
    ) {
        self.exprs(decorators);
        self.args(args);
        self.opt(returns);
        self.stmts(body);
    }

    fn for_loop(
        &mut self,
        target: &syntax::Expr,
        iter: &syntax::Expr,
        body: &[syntax::Stmt],
        orelse: &[syntax::Stmt],
    ) {
        self.expr(target);
        self.expr(iter);
        self.stmts(body);
        self.stmts(orelse);
    }

    fn with(&mut self, items: &[syntax::WithItem], body: &[syntax::Stmt]) {
        for item in items {
            self.expr(&item.context_expr);
            self.opt(&item.optional_vars);
        }
        self.stmts(body);
    }

    fn try_block(
        &mut self,
        body: &[syntax::Stmt],
        handlers: &[syntax::ExceptHandler],
        orelse: &[syntax::Stmt],
        finalbody: &[syntax::Stmt],
    ) {
        self.stmts(body);
        self.handlers(handlers);
        self.stmts(orelse);
        self.stmts(finalbody);
    }

    fn stmt(&mut self, s: &syntax::Stmt) {
        use syntax::Stmt as S;
        match s {
            S::FunctionDef(f) => self.function(&f.decorator_list, &f.args, &f.returns, &f.body),
            S::AsyncFunctionDef(f) => {
                self.function(&f.decorator_list, &f.args, &f.returns, &f.body)
            }
            S::ClassDef(c) => {
                self.exprs(&c.decorator_list);
                self.exprs(&c.bases);
                for k in &c.keywords {
                    self.expr(&k.value);
                }
                self.stmts(&c.body);
            }
            S::Return(r) => self.opt(&r.value),
            S::Delete(d) => self.exprs(&d.targets),
            S::Assign(a) => {
                self.exprs(&a.targets);
                self.expr(&a.value);
            }
            S::TypeAlias(a) => self.expr(&a.value),
            S::AugAssign(a) => {
                self.expr(&a.target);
                self.expr(&a.value);
            }
            S::AnnAssign(a) => {
                self.expr(&a.target);
                self.expr(&a.annotation);
                self.opt(&a.value);
            }
            S::For(f) => self.for_loop(&f.target, &f.iter, &f.body, &f.orelse),
            S::AsyncFor(f) => self.for_loop(&f.target, &f.iter, &f.body, &f.orelse),
            S::While(w) => {
                self.expr(&w.test);
                self.stmts(&w.body);
                self.stmts(&w.orelse);
            }
            S::If(i) => {
                self.expr(&i.test);
                self.stmts(&i.body);
                self.stmts(&i.orelse);
            }
            S::With(w) => self.with(&w.items, &w.body),
            S::AsyncWith(w) => self.with(&w.items, &w.body),
            S::Match(m) => {
                self.expr(&m.subject);
                for c in &m.cases {
                    self.opt(&c.guard);
                    self.stmts(&c.body);
                }
            }
            S::Raise(r) => {
                self.opt(&r.exc);
                self.opt(&r.cause);
            }
            S::Try(t) => self.try_block(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            S::TryStar(t) => self.try_block(&t.body, &t.handlers, &t.orelse, &t.finalbody),
            S::Assert(a) => {
                self.expr(&a.test);
                self.opt(&a.msg);
            }
            S::Expr(e) => self.expr(&e.value),
            S::Import(_)
            | S::ImportFrom(_)
            | S::Global(_)
            | S::Nonlocal(_)
            | S::Pass(_)
            | S::Break(_)
            | S::Continue(_) => {}
        }
    }

    fn comps(&mut self, gens: &[syntax::Comprehension]) {
        for g in gens {
            self.expr(&g.target);
            self.expr(&g.iter);
            self.exprs(&g.ifs);
        }
    }

    fn expr(&mut self, e: &syntax::Expr) {
        use syntax::Expr as E;
        match e {
            E::Constant(c) => self.constant(&c.value, u32::from(c.range().start())),
            E::BoolOp(b) => self.exprs(&b.values),
            E::NamedExpr(n) => {
                self.expr(&n.target);
                self.expr(&n.value);
            }
            E::BinOp(b) => {
                self.expr(&b.left);
                self.expr(&b.right);
            }
            E::UnaryOp(u) => self.expr(&u.operand),
            E::Lambda(l) => {
                self.args(&l.args);
                self.expr(&l.body);
            }
            E::IfExp(i) => {
                self.expr(&i.test);
                self.expr(&i.body);
                self.expr(&i.orelse);
            }
            E::Dict(d) => {
                for k in d.keys.iter().flatten() {
                    self.expr(k);
                }
                self.exprs(&d.values);
            }
            E::Set(s) => self.exprs(&s.elts),
            E::ListComp(c) => {
                self.expr(&c.elt);
                self.comps(&c.generators);
            }
            E::SetComp(c) => {
                self.expr(&c.elt);
                self.comps(&c.generators);
            }
            E::DictComp(c) => {
                self.expr(&c.key);
                self.expr(&c.value);
                self.comps(&c.generators);
            }
            E::GeneratorExp(c) => {
                self.expr(&c.elt);
                self.comps(&c.generators);
            }
            E::Await(a) => self.expr(&a.value),
            E::Yield(y) => self.opt(&y.value),
            E::YieldFrom(y) => self.expr(&y.value),
            E::Compare(c) => {
                self.expr(&c.left);
                self.exprs(&c.comparators);
            }
            E::Call(c) => {
                self.expr(&c.func);
                self.exprs(&c.args);
                for k in &c.keywords {
                    self.expr(&k.value);
                }
            }
            E::FormattedValue(f) => {
                self.expr(&f.value);
                self.opt(&f.format_spec);
            }
            E::JoinedStr(j) => self.exprs(&j.values),
            E::Attribute(a) => self.expr(&a.value),
            E::Subscript(s) => {
                self.expr(&s.value);
                self.expr(&s.slice);
            }
            E::Starred(s) => self.expr(&s.value),
            E::Name(_) => {}
            E::List(l) => self.exprs(&l.elts),
            E::Tuple(t) => self.exprs(&t.elts),
            E::Slice(s) => {
                self.opt(&s.lower);
                self.opt(&s.upper);
                self.opt(&s.step);
            }
        }
    }

    fn constant(&mut self, c: &syntax::Constant, at: u32) {
        match c {
            syntax::Constant::Str(s) => (self.f)(s, at),
            syntax::Constant::Tuple(items) => {
                for i in items {
                    self.constant(i, at);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> RepoPath {
        RepoPath::new(s).unwrap()
    }

    const TEST: &str = r#"import ast, os, unittest

FILES = ['../pkg/a.py', '../docs/api.rst']
base_path = '../pkg/commands/'

def helper(name):
    return os.path.join('../lib/x/', name)

class Base(unittest.TestCase):
    def test_shared(self):
        pass

class TestThing(Base):
    def setUp(self):
        with open("../pkg/b.py", 'r') as f:
            self.tree = ast.parse(f.read())

    def test_one(self):
        self.assertTrue(os.path.exists('../pkg/new.py'), "message with ../ no/path.py")
        self.assertIn('celery/app/retry.py', open('../bandit.json').read())
        print(f"../pkg/{self}.py", '/pkg/a.py')
        for name in ['bench.py', 'crawl.py', 'y.py']:
            with self.subTest(file=name):
                open(os.path.join(base_path, name))
        helper('y.py')

    def test_one(self):
        pass

    def helper(self):
        pass

class NotATest:
    def test_no(self):
        pass

if __name__ == '__main__':
    unittest.main()
"#;

    #[test]
    fn finds_methods_as_the_loader_does() {
        let scan = scan_test(TEST, "t.py").unwrap();
        assert_eq!(
            scan.methods,
            vec!["Base.test_shared", "TestThing.test_one", "TestThing.test_shared"]
        );
    }

    #[test]
    fn resolves_the_paths_a_test_names() {
        let scan = scan_test(TEST, "t.py").unwrap();
        let files: BTreeSet<RepoPath> = [
            "pkg/a.py",
            "pkg/b.py",
            "docs/api.rst",
            "bandit.json",
            "celery/app/retry.py",
            "pkg/commands/bench.py",
            "pkg/commands/crawl.py",
            "lib/x/y.py",
            "other.py",
        ]
        .into_iter()
        .map(p)
        .collect();
        let exists = |q: &RepoPath| files.contains(q);
        let is_dir = |d: &str| files.iter().any(|f| f.as_str().starts_with(&format!("{d}/")));
        let (inspected, extra) = test_paths(&scan.literals, &exists, &is_dir);
        let got: Vec<&str> = inspected.keys().map(RepoPath::as_str).collect();
        assert_eq!(
            got,
            vec![
                "bandit.json",
                "docs/api.rst",
                "lib/x/y.py",
                "pkg/a.py",
                "pkg/b.py",
                "pkg/commands/bench.py",
                "pkg/commands/crawl.py",
                "pkg/new.py",
            ]
        );
        assert_eq!(inspected[&p("pkg/a.py")], BTreeSet::from([3]));
        assert_eq!(inspected[&p("lib/x/y.py")], BTreeSet::from([22, 25]));
        let extra: Vec<&str> = extra.iter().map(RepoPath::as_str).collect();
        assert_eq!(extra, vec!["celery/app/retry.py", "pkg/a.py"]);
    }

    #[test]
    fn finds_file_mentions_like_the_harness_regex() {
        let text = "Move `foo` from flask/helpers.py to src/flask/app.py. Update README.md, \
                    setup.cfg and docs/x.rst; not python3 or a.pyc or data.jsonl. ./tests/t-1.py!";
        let got: Vec<String> = instruction_mentions(text).into_iter().collect();
        assert_eq!(
            got,
            vec![
                "./tests/t-1.py",
                "README.md",
                "docs/x.rst",
                "flask/helpers.py",
                "setup.cfg",
                "src/flask/app.py"
            ]
        );
        let mods: Vec<String> = instruction_modules("Use flask.helpers and os.path. See a.py too.")
            .into_iter()
            .collect();
        assert_eq!(mods, vec!["a.py", "flask.helpers", "os.path"]);
    }

    #[test]
    fn resolves_mentions_by_suffix_unless_vague() {
        let paths: Vec<RepoPath> = [
            "src/flask/helpers.py",
            "src/flask/json/__init__.py",
            "a/utils.py",
            "b/utils.py",
            "c/utils.py",
            "d/utils.py",
            "e/utils.py",
            "README.md",
        ]
        .into_iter()
        .map(p)
        .collect();
        let got = resolve_mentions(
            "Edit flask/helpers.py, flask.json, README.md and utils.py; xflask/helpers.py no.",
            paths.iter(),
        );
        let got: Vec<&str> = got.iter().map(RepoPath::as_str).collect();
        assert_eq!(got, vec!["README.md", "src/flask/helpers.py", "src/flask/json/__init__.py"]);
    }
}
