//! unittest discovery and running: per-method verdicts as CPython 3.11's `unittest` gives them under
//! the official harness (module loaded as `refactorbench_official_test`, `loadTestsFromModule`, class
//! fixtures, setUp/tearDown, subtests, the harness's status combination rules).

pub mod case;
pub mod verdict;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::interp::isolation;
use crate::interp::observe::Observations;
use crate::interp::value::{ClassKind, Instance, NameMap, Value as V};
pub use crate::interp::FileAccess;
use crate::interp::{harness_depth, Interp, Limits, ParseCache, PyErr, Value};
use crate::python::{self, syntax};
use crate::report::{Status, TestOutcome};
use crate::tree::Tree;
use verdict::SubOutcome;

/// The default step budget: the official harness's per-file timeout (`DEFAULT_TIMEOUT = 300` s
/// in its runner) times the fastest rate at which CPython 3.11 gets through our steps.
///
/// Measured with python3 3.11.7 on the development machine (CPU time) against this
/// interpreter's step counts for the same code: tight loops (`while i < n: i += 1`, `for x in
/// range(n): t += x`) are 3-5 steps per iteration at 70-100 ns per iteration in CPython, so
/// 35-50 M steps/s; `ast.walk` over a parsed module with an `isinstance` test per node is ~30 M
/// steps for 5 walks of a 2 MB module (800 K nodes) that CPython parses and walks in ~8 s, so
/// ~4 M steps/s. Work that CPython finishes in 300 s therefore takes at most ~300 x 50 M steps:
/// the budget is 15 G. (The old 50 M stood for ~1-12 s of CPython and refused, e.g., five walks
/// of a 5 MB module, which CPython does in ~20 s.) The cost: a test that loops forever runs
/// that long here before its verdict, as it runs 300 s under the official harness before its
/// timeout.
pub const DEFAULT_STEP_BUDGET: u64 = 15_000_000_000;

/// The default size limit of one collection (items of a list, dict or set, units of a str or
/// bytes). It guards memory, not time: the browser's wasm32 worker has at most 4 GiB, and 100 M
/// values of 16 bytes already take 1.6 GiB. CPython builds such sizes in seconds, so they are
/// legitimate: a 10 MB string or f-string is well inside; past the limit the verdict names it.
pub const DEFAULT_MAX_COLLECTION_LEN: usize = 100_000_000;

/// Limits of one test-file run.
#[derive(Debug, Clone, Copy)]
pub struct RunConfig {
    /// Steps (statements, expressions, loop iterations, native work units) per test file. The budget
    /// is shared by the whole file, as the harness's per-file timeout is: once a method exhausts it,
    /// the methods after it also end as `error` (StepBudgetExceeded, naming the budget).
    ///
    /// Calibration (see [`DEFAULT_STEP_BUDGET`]): the budget stands for the official harness's
    /// per-file timeout, so it must not run out on work CPython finishes within it.
    pub step_budget: u64,
    /// Python call depth, as `sys.getrecursionlimit()`.
    pub max_recursion: u32,
    /// Largest list/str/dict a test may build ([`DEFAULT_MAX_COLLECTION_LEN`]); past it the
    /// verdict is `SizeLimitExceeded` (or CPython's MemoryError where CPython could not either).
    pub max_collection_len: usize,
    /// Bytes of native stack the interpreter may use before Python code gets a RecursionError. Must
    /// be below the stack of the thread that runs the scorer (see [`crate::interp::STACK_LIMIT`]).
    pub stack_budget: usize,
    /// Reuse a previous run's verdicts when the new tree answers every question that run asked
    /// of its tree the same way (see [`crate::interp::observe`]), and short of that, the verdicts
    /// of single test methods that can be proven to come out the same (see [`Ledger`]). Off:
    /// every run interprets every method.
    pub reuse_runs: bool,
    /// Memory the parse cache may hold (sources and their trees, estimated); the oldest parses
    /// are dropped past it ([`crate::interp::ParseCache`]).
    pub parse_cache_bytes: usize,
    /// Bytes the values of one run may hold, as [`crate::interp::memory`] counts them
    /// ([`crate::interp::memory::DEFAULT_MEMORY_BUDGET`]: 1 GiB); past it the running method
    /// ends with `SizeLimitExceeded` naming the budget.
    pub memory_budget: u64,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            step_budget: DEFAULT_STEP_BUDGET,
            max_recursion: 1000,
            max_collection_len: DEFAULT_MAX_COLLECTION_LEN,
            stack_budget: crate::interp::STACK_LIMIT,
            reuse_runs: true,
            parse_cache_bytes: crate::interp::DEFAULT_PARSE_CACHE_BYTES,
            memory_budget: crate::interp::memory::DEFAULT_MEMORY_BUDGET,
        }
    }
}

/// Most remembered runs per test file; the oldest is forgotten first.
const MAX_REMEMBERED_RUNS: usize = 64;

/// A finished run: what it asked the tree and what it gave, around and inside each test method.
struct RememberedRun {
    /// Questions asked outside test methods (module body, class fixtures).
    around: Observations,
    /// Each test method run, in run order.
    methods: Vec<MethodRun>,
    outcomes: Vec<TestOutcome>,
}

impl RememberedRun {
    /// Whether `tree` answers every question of the run as before: the whole run would repeat.
    fn holds_for(&self, tree: &Tree) -> bool {
        self.around.hold_for(tree) && self.methods.iter().all(|m| m.observations.hold_for(tree))
    }

    /// How many methods from the first on were isolated: method `i` of this run started from
    /// the state the run's fixtures made alone iff `i` is below this.
    fn isolated_prefix(&self) -> usize {
        self.methods.iter().take_while(|m| m.isolated).count()
    }
}

/// One test method's run (with its `setUp` and `tearDown`), as a later run may reuse it.
#[derive(Clone)]
struct MethodRun {
    /// `Class.method`, to confirm a reused record is the method at hand.
    id: String,
    /// Questions the method asked the tree.
    observations: Observations,
    /// Steps of the budget it used (a reuse charges them, so later methods meet the same limit).
    steps: u64,
    /// Its entries into `ast.parse` (a reuse counts them, so later methods meet the same
    /// specialisation state: `Interp::ast_parse_entries`).
    parse_entries: u32,
    /// It wrote only to objects it made and ended within the budget (see [`isolation`]).
    isolated: bool,
    outcome: TestOutcome,
}

/// Method-level reuse within one run: the remembered runs of the same test file whose questions
/// outside methods the new tree answers as before, and the methods this run has gone through.
///
/// Method `i` is answered from remembered run `r` without running when every method up to `i`
/// was isolated in `r`, every method this run ran so far was isolated, and the tree answers
/// method `i`'s questions as in `r`. The fixtures around the methods do run, on the same answers,
/// so the state method `i` starts from is the one it started from in `r`, and its verdict is.
struct Ledger<'r> {
    candidates: Vec<(&'r RememberedRun, usize)>,
    /// A method of this run wrote to state it did not make: from here on every method runs.
    broken: bool,
    methods: Vec<MethodRun>,
    reused: usize,
}

impl<'r> Ledger<'r> {
    fn new(runs: &'r [RememberedRun], tree: &Tree) -> Self {
        let candidates = runs
            .iter()
            .map(|r| (r, r.isolated_prefix()))
            .filter(|(r, isolated)| *isolated > 0 && r.around.hold_for(tree))
            .collect();
        Ledger { candidates, broken: false, methods: Vec::new(), reused: 0 }
    }

    /// The remembered run of the next method, if one answers it (`steps`: used so far).
    fn reusable(&self, id: &str, tree: &Tree, steps: u64, budget: u64) -> Option<&'r MethodRun> {
        if self.broken {
            return None;
        }
        let i = self.methods.len();
        self.candidates.iter().filter(|(_, isolated)| i < *isolated).find_map(|(r, _)| {
            let m = r.methods.get(i)?;
            (m.id == id && steps.saturating_add(m.steps) <= budget && m.observations.hold_for(tree))
                .then_some(m)
        })
    }
}

/// What a run records besides its verdicts.
enum Record<'l, 'r> {
    Nothing,
    /// The paths it touched, for the importer ([`Scorer::run_test_file_traced`]).
    FileAccess,
    /// Its questions to the tree with the answers, for run reuse: those asked outside test
    /// methods in [`Recorded::observations`], each method's in the ledger, which also answers
    /// the methods a remembered run can.
    Observations(&'l mut Ledger<'r>),
}

/// What a run recorded (each `None` unless asked for).
struct Recorded {
    access: Option<FileAccess>,
    observations: Option<Observations>,
}

/// Hash and length of a test file's source: the key of its parsed module.
fn source_key(source: &str) -> (u64, usize) {
    (crate::interp::value::hash_bytes(source.as_bytes()), source.len())
}

/// Key of a test file: hash and length of its source, and its name (`__file__` and the harness's
/// listing of the eval folder depend on it).
type TestKey = (u64, usize, String);

/// Runs unittest files; keeps a parse cache shared by all runs of this instance, and remembers
/// runs so that a submission that leaves everything a test looks at unchanged is not run again,
/// and a test method whose files a submission leaves unchanged is not run again either (when
/// no method before it changed state it did not make; see [`Ledger`]).
pub struct Scorer {
    config: RunConfig,
    cache: Rc<RefCell<ParseCache>>,
    modules: HashMap<(u64, usize), Result<Rc<syntax::ModModule>, python::SyntaxError>>,
    remembered: HashMap<TestKey, Vec<RememberedRun>>,
    reused: usize,
    reused_methods: usize,
    /// Codecs beyond UTF-8/Latin-1/ASCII ([`crate::codec`]): linked natively, none at first in
    /// the scoring worker.
    codecs: Option<Rc<dyn crate::codec::Codecs>>,
    /// A run since the last [`Scorer::take_needs_codecs`] stopped because it needed a codec and
    /// there was no provider: its outcomes are no verdict (and were not remembered).
    needs_codecs: bool,
}

impl Scorer {
    /// Sets the codec provider runs use from now on.
    pub fn set_codecs(&mut self, codecs: Rc<dyn crate::codec::Codecs>) {
        self.codecs = Some(codecs);
    }

    /// Runs have no codec provider from now on (the scoring worker starts so, whatever the
    /// build links: its provider is `codecs.wasm`, loaded when a run first needs it).
    pub fn remove_codecs(&mut self) {
        self.codecs = None;
    }

    /// Whether runs have a codec provider.
    pub fn has_codecs(&self) -> bool {
        self.codecs.is_some()
    }

    /// Whether a run since the last call stopped for want of a codec provider (then its results
    /// are no verdict: install one with [`Scorer::set_codecs`] and score again); resets it.
    pub fn take_needs_codecs(&mut self) -> bool {
        std::mem::take(&mut self.needs_codecs)
    }

    pub fn new(config: RunConfig) -> Self {
        let cache = Rc::new(RefCell::new(ParseCache::with_budget(config.parse_cache_bytes)));
        Scorer {
            config,
            cache,
            modules: HashMap::new(),
            remembered: HashMap::new(),
            reused: 0,
            reused_methods: 0,
            codecs: crate::codec::default_provider(),
            needs_codecs: false,
        }
    }

    /// How many runs were answered from a remembered run instead of being interpreted.
    pub fn reused_runs(&self) -> usize {
        self.reused
    }

    /// How many test methods of interpreted runs were answered from a remembered run.
    pub fn reused_methods(&self) -> usize {
        self.reused_methods
    }

    /// Number of distinct parsed trees held by the cache (for tests and diagnostics).
    pub fn cached_trees(&self) -> usize {
        self.cache.borrow().trees.len()
    }

    /// Estimated bytes the parse cache holds (for tests and diagnostics).
    pub fn cached_bytes(&self) -> usize {
        self.cache.borrow().held_bytes()
    }

    /// Runs one unittest file (name e.g. "rename-foo-test.py", source text) against `tree` with
    /// cwd = `<root>/refactorbench_eval`.
    pub fn run_test_file(
        &mut self,
        tree: &Tree,
        test_file_name: &str,
        test_source: &str,
    ) -> Vec<TestOutcome> {
        let source = source_key(test_source);
        if !self.config.reuse_runs {
            return self.run(tree, test_file_name, test_source, source, Record::Nothing).0;
        }
        let key: TestKey = (source.0, source.1, test_file_name.to_string());
        let mut runs = self.remembered.remove(&key).unwrap_or_default();
        if let Some(r) = runs.iter().find(|r| r.holds_for(tree)) {
            self.reused += 1;
            let outcomes = r.outcomes.clone();
            self.remembered.insert(key, runs);
            return outcomes;
        }
        let mut ledger = Ledger::new(&runs, tree);
        let (outcomes, recorded) =
            self.run(tree, test_file_name, test_source, source, Record::Observations(&mut ledger));
        self.reused_methods += ledger.reused;
        if self.needs_codecs {
            // No verdict: the run stopped for want of a codec provider.
            self.remembered.insert(key, runs);
            return outcomes;
        }
        let run = RememberedRun {
            around: recorded.observations.unwrap_or_default(),
            methods: ledger.methods,
            outcomes: outcomes.clone(),
        };
        if runs.len() >= MAX_REMEMBERED_RUNS {
            runs.remove(0);
        }
        runs.push(run);
        self.remembered.insert(key, runs);
        outcomes
    }

    /// [`Scorer::run_test_file`], also recording every repository path the run touched: the
    /// files it read, the paths it checked and the folders it listed (see [`FileAccess`]). A run
    /// that errors or exhausts its step budget reports what it touched until then; a test file
    /// that does not parse touches nothing.
    pub fn run_test_file_traced(
        &mut self,
        tree: &Tree,
        test_file_name: &str,
        test_source: &str,
    ) -> (Vec<TestOutcome>, FileAccess) {
        let source = source_key(test_source);
        let (outcomes, recorded) =
            self.run(tree, test_file_name, test_source, source, Record::FileAccess);
        (outcomes, recorded.access.unwrap_or_default())
    }

    /// Parses (cached by `source`, the source's key) and runs a test file, recording what
    /// `record` asks for.
    fn run(
        &mut self,
        tree: &Tree,
        test_file_name: &str,
        test_source: &str,
        source: (u64, usize),
        record: Record<'_, '_>,
    ) -> (Vec<TestOutcome>, Recorded) {
        let module = self
            .modules
            .entry(source)
            .or_insert_with(|| python::parse_module(test_source, test_file_name).map(Rc::new))
            .clone();
        let module = match module {
            Ok(m) => m,
            Err(e) => {
                let outcome = TestOutcome {
                    id: "<module>".into(),
                    status: Status::Error,
                    exc_type: Some(e.kind.name().into()),
                    message: Some(e.to_string()),
                    line: None,
                    reads: Vec::new(),
                };
                let recorded = Recorded {
                    access: matches!(record, Record::FileAccess).then(FileAccess::default),
                    observations: matches!(record, Record::Observations(_))
                        .then(Observations::default),
                };
                return (vec![outcome], recorded);
            }
        };
        let limits = Limits {
            step_budget: self.config.step_budget,
            max_recursion: self.config.max_recursion,
            max_collection_len: self.config.max_collection_len,
            stack_budget: self.config.stack_budget,
            memory_budget: self.config.memory_budget,
        };
        let mut it = Interp::new(tree, test_file_name, test_source, limits, self.cache.clone());
        it.codecs = self.codecs.clone();
        let ledger = match record {
            Record::Nothing => None,
            Record::FileAccess => {
                it.access = Some(Box::default());
                None
            }
            Record::Observations(ledger) => {
                it.observations = Some(RefCell::default());
                Some(ledger)
            }
        };
        it.mark_stack_base();
        let outcomes = run_module(&mut it, &module, tree, ledger);
        self.needs_codecs |= it.needs_codecs;
        let recorded = Recorded {
            access: it.access.take().map(|a| *a),
            observations: it.observations.take().map(RefCell::into_inner),
        };
        (outcomes, recorded)
    }
}

fn outcome_of<'a>(it: &mut Interp<'a>, id: &str, e: &PyErr<'a>) -> TestOutcome {
    let (status, exc_type, message) = it.classify(e);
    // A skip is reported with its reason only (the harness records no traceback for it).
    let line = if status == Status::Skip { None } else { e.line };
    TestOutcome {
        id: id.to_string(),
        status,
        exc_type: Some(exc_type),
        message: Some(message),
        line,
        reads: Vec::new(),
    }
}

fn run_module<'a>(
    it: &mut Interp<'a>,
    module: &'a syntax::ModModule,
    tree: &Tree,
    mut ledger: Option<&mut Ledger<'_>>,
) -> Vec<TestOutcome> {
    it.base_depth = harness_depth::MODULE;
    if let Err(e) = it.exec_module(module) {
        return vec![outcome_of(it, "<module>", &e)];
    }
    let Some(testcase) = it.testcase_class.clone() else {
        return Vec::new();
    };
    // dir(module) order: sorted names.
    let mut names: Vec<(String, Value<'a>)> =
        it.globals.vars.map().iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
    names.sort_by(|a, b| a.0.cmp(&b.0));
    let mut suites = Vec::new();
    for (_, v) in names {
        if let V::Class(c) = &v {
            if c.is_subclass(&testcase) {
                let methods = test_method_names(it, c);
                suites.push((c.clone(), methods));
            }
        }
    }
    let mut out = Vec::new();
    let mut prev: Option<Rc<crate::interp::value::Class<'a>>> = None;
    let mut class_failed = false;
    for (class, methods) in suites {
        for m in methods {
            let same = prev.as_ref().is_some_and(|p| Rc::ptr_eq(p, &class));
            if !same {
                if let Some(p) = prev.take() {
                    it.base_depth = harness_depth::TEAR_DOWN_CLASS - 1;
                    tear_down_class(it, &p, &mut out);
                }
                prev = Some(class.clone());
                class_failed = false;
                if !class_skipped(&class) {
                    it.base_depth = harness_depth::SET_UP_CLASS - 1;
                    if let Err(e) = call_class_fixture(it, &class, "setUpClass") {
                        class_failed = true;
                        let mut o = outcome_of(
                            it,
                            &format!("setUpClass (refactorbench_official_test.{})", class.qualname),
                            &e,
                        );
                        if o.status != Status::Skip {
                            o.status = Status::Error;
                        }
                        out.push(o);
                    }
                }
            }
            if class_failed {
                continue;
            }
            it.base_depth = harness_depth::METHOD - 1;
            let outcome = match ledger.as_deref_mut() {
                Some(ledger) => run_one_recorded(it, &class, &m, tree, ledger),
                None => run_one(it, &class, &m),
            };
            out.push(outcome);
            it.collect_after_method();
        }
    }
    if let Some(p) = prev.take() {
        it.base_depth = harness_depth::LAST_TEAR_DOWN_CLASS - 1;
        tear_down_class(it, &p, &mut out);
    }
    out
}

fn class_skipped(class: &Rc<crate::interp::value::Class<'_>>) -> bool {
    class.lookup("__unittest_skip__").is_some_and(|v| matches!(v, V::Bool(true)))
}

fn tear_down_class<'a>(
    it: &mut Interp<'a>,
    class: &Rc<crate::interp::value::Class<'a>>,
    out: &mut Vec<TestOutcome>,
) {
    if class_skipped(class) {
        return;
    }
    if let Err(e) = call_class_fixture(it, class, "tearDownClass") {
        let mut o = outcome_of(
            it,
            &format!("tearDownClass (refactorbench_official_test.{})", class.qualname),
            &e,
        );
        if o.status != Status::Skip {
            o.status = Status::Error;
        }
        out.push(o);
    }
}

fn call_class_fixture<'a>(
    it: &mut Interp<'a>,
    class: &Rc<crate::interp::value::Class<'a>>,
    name: &str,
) -> Result<(), Box<PyErr<'a>>> {
    let f = it.getattr(&V::Class(class.clone()), name)?;
    it.call(&f, vec![], vec![])?;
    Ok(())
}

/// `TestLoader.getTestCaseNames`: names starting with `test` (inherited too), callable, sorted.
fn test_method_names<'a>(
    it: &mut Interp<'a>,
    class: &Rc<crate::interp::value::Class<'a>>,
) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for k in class.mro.borrow().iter() {
        #[allow(
            clippy::iter_over_hash_type,
            reason = "the names are sorted below, as unittest's loader sorts them"
        )]
        for (n, v) in k.dict.borrow().iter() {
            if n.starts_with("test") {
                let callable = match v {
                    V::Func(_)
                    | V::Builtin(_)
                    | V::Class(_)
                    | V::Method(_)
                    | V::AstClass(_)
                    | V::Type(_) => true,
                    V::Native(nat) => matches!(
                        &**nat,
                        crate::interp::value::Native::ClassMethod(_)
                            | crate::interp::value::Native::StaticMethod(_)
                    ),
                    V::Instance(i) => i.class.lookup("__call__").is_some(),
                    _ => false,
                };
                // Only the first definition along the MRO counts (it shadows the others).
                if !names.iter().any(|x| x == &**n) {
                    if callable {
                        names.push(n.to_string());
                    } else {
                        names.push(format!("\0{n}"));
                    }
                }
            }
        }
    }
    let _ = it;
    let mut names: Vec<String> = names.into_iter().filter(|n| !n.starts_with('\0')).collect();
    names.sort();
    names
}

/// A method's id in the report (`Class.method`), also what a remembered method run is matched by.
fn method_id(class: &crate::interp::value::Class<'_>, method: &str) -> String {
    format!("{}.{}", class.name, method)
}

/// What a test method must leave of the interpreter's own state as it found it to be isolated:
/// call depth, exceptions being handled, generator sinks, `longMessage`.
fn frame_state(it: &Interp<'_>) -> (u32, usize, usize, bool) {
    (it.depth, it.handling.len(), it.yield_sinks.len(), it.long_message)
}

/// [`run_one`] with method-level reuse: answered from a remembered run when the ledger can,
/// else run in a generation of its own with its questions to the tree recorded apart.
fn run_one_recorded<'a>(
    it: &mut Interp<'a>,
    class: &Rc<crate::interp::value::Class<'a>>,
    method: &str,
    tree: &Tree,
    ledger: &mut Ledger<'_>,
) -> TestOutcome {
    let id = method_id(class, method);
    let budget = it.limits.step_budget;
    if let Some(m) = ledger.reusable(&id, tree, it.steps, budget) {
        it.steps = it.steps.saturating_add(m.steps);
        it.ast_parse_entries = it.ast_parse_entries.saturating_add(m.parse_entries);
        ledger.reused += 1;
        ledger.methods.push(m.clone());
        return m.outcome.clone();
    }
    let around = it.observations.replace(RefCell::default());
    let (steps_before, state_before) = (it.steps, frame_state(it));
    let entries_before = it.ast_parse_entries;
    let generation = isolation::Method::start();
    let outcome = run_one(it, class, method);
    let wrote_only_its_own = generation.is_some_and(isolation::Method::end);
    let observations = std::mem::replace(&mut it.observations, around)
        .map(RefCell::into_inner)
        .unwrap_or_default();
    // The interpreter's own state must be as the method found it too (it always is, unless a
    // limit cut the method short), and the budget must not have run out.
    let isolated = wrote_only_its_own && frame_state(it) == state_before && it.steps <= budget;
    ledger.broken |= !isolated;
    ledger.methods.push(MethodRun {
        id,
        observations,
        steps: it.steps.saturating_sub(steps_before),
        parse_entries: it.ast_parse_entries.saturating_sub(entries_before),
        isolated,
        outcome: outcome.clone(),
    });
    outcome
}

fn run_one<'a>(
    it: &mut Interp<'a>,
    class: &Rc<crate::interp::value::Class<'a>>,
    method: &str,
) -> TestOutcome {
    let expecting_failure = matches!(class.lookup(method), Some(V::Func(f))
        if f.dict.get("__unittest_expecting_failure__").is_some_and(|v| matches!(v, V::Bool(true))));
    // The method's reads (see `TestOutcome::reads`): they depend only on the tree's answers to
    // its recorded questions, so a reused method's remembered outcome carries the same.
    let outer = it.method_reads.replace(Default::default());
    let mut out = run_one_plain(it, class, method);
    out.reads = std::mem::replace(&mut it.method_reads, outer)
        .map(|r| r.into_iter().collect())
        .unwrap_or_default();
    if !expecting_failure {
        return out;
    }
    // @unittest.expectedFailure: a failure or error passes (the harness keeps its details), a
    // success is an "unexpected success" failure.
    match out.status {
        Status::Fail | Status::Error => TestOutcome { status: Status::Pass, ..out },
        Status::Pass => TestOutcome {
            status: Status::Fail,
            exc_type: Some("UnexpectedSuccess".into()),
            message: None,
            line: None,
            ..out
        },
        _ => out,
    }
}

fn run_one_plain<'a>(
    it: &mut Interp<'a>,
    class: &Rc<crate::interp::value::Class<'a>>,
    method: &str,
) -> TestOutcome {
    let id = method_id(class, method);
    it.record.subtests.clear();
    let inst =
        it.made(V::Instance(Rc::new(Instance::new(class.clone(), NameMap::default(), None))));
    if let V::Instance(i) = &inst {
        i.dict.set("_testMethodName", V::str(method));
    }
    // @unittest.skip on the method or the class.
    let skip_reason = match class.lookup(method) {
        Some(V::Func(f))
            if f.dict.get("__unittest_skip__").is_some_and(|v| matches!(v, V::Bool(true))) =>
        {
            Some(f.dict.get("__unittest_skip_why__").map_or(String::new(), |v| match v {
                V::Str(s) => s.to_string(),
                _ => String::new(),
            }))
        }
        _ => None,
    }
    .or_else(|| {
        if class_skipped(class) {
            Some(class.lookup("__unittest_skip_why__").map_or(String::new(), |v| match v {
                V::Str(s) => s.to_string(),
                _ => String::new(),
            }))
        } else {
            None
        }
    });
    if let Some(reason) = skip_reason {
        return TestOutcome {
            id,
            status: Status::Skip,
            exc_type: Some("SkipTest".into()),
            message: Some(reason),
            line: None,
            reads: Vec::new(),
        };
    }
    let mut own: Option<TestOutcome> = None;
    let mut success = true;
    let record = |it: &mut Interp<'a>, e: Box<PyErr<'a>>, own: &mut Option<TestOutcome>| {
        *own = Some(outcome_of(it, &id, &e));
    };
    match call_method(it, &inst, "setUp") {
        Err(e) => {
            success = false;
            record(it, e, &mut own);
        }
        Ok(()) => {
            if let Err(e) = call_method(it, &inst, method) {
                success = false;
                record(it, e, &mut own);
            }
            if let Err(e) = call_method(it, &inst, "tearDown") {
                success = false;
                record(it, e, &mut own);
            }
        }
    }
    let subs: Vec<SubOutcome> = std::mem::take(&mut it.record.subtests);
    if subs.iter().any(|s| s.status != Status::Pass) {
        success = false;
    }
    if success && own.is_none() {
        own = Some(TestOutcome {
            id: id.clone(),
            status: Status::Pass,
            exc_type: None,
            message: None,
            line: None,
            reads: Vec::new(),
        });
    }
    let mut worst: Option<Status> = own.as_ref().map(|o| o.status);
    for s in &subs {
        if worst.is_none_or(|w| s.status.severity() > w.severity()) {
            worst = Some(s.status);
        }
    }
    let Some(worst) = worst else {
        return TestOutcome {
            id,
            status: Status::Error,
            exc_type: Some("HarnessNoOutcome".into()),
            message: Some("no outcome reported".into()),
            line: None,
            reads: Vec::new(),
        };
    };
    if own.as_ref().map(|o| o.status) == Some(worst) {
        return own.unwrap_or_else(|| TestOutcome {
            id: id.clone(),
            status: worst,
            exc_type: None,
            message: None,
            line: None,
            reads: Vec::new(),
        });
    }
    let s = subs.iter().find(|s| s.status == worst).cloned();
    match s {
        Some(s) => TestOutcome {
            id,
            status: worst,
            exc_type: s.exc_type,
            message: s.message,
            line: s.line,
            reads: Vec::new(),
        },
        None => TestOutcome {
            id,
            status: worst,
            exc_type: None,
            message: None,
            line: None,
            reads: Vec::new(),
        },
    }
}

fn call_method<'a>(
    it: &mut Interp<'a>,
    inst: &Value<'a>,
    name: &str,
) -> Result<(), Box<PyErr<'a>>> {
    let m = it.get_method(inst, name)?;
    it.call_meth(m, vec![], vec![])?;
    Ok(())
}

#[allow(dead_code)]
fn is_user(kind: ClassKind) -> bool {
    kind == ClassKind::User
}
