//! The interpreter for the Python subset the official tests use, with its standard-library shims.
//!
//! A tree-walking evaluator over the typed syntax tree of the test file ([`crate::python::syntax`]).
//! Values are in [`value`]; statements, expressions, names, definitions, calls and generators in
//! [`eval`]; operators, iteration and item access in [`ops`]; the static scope analysis in
//! [`scope`]; builtin functions, type constructors, attributes and the methods of builtin types in
//! [`builtins`]; reprs and formatting in [`fmt`]; the modules `ast`, `os` (with `open`, `hashlib`,
//! `sys`), `json` and `re` in [`stdlib`]; the harness's verdict rules in
//! [`crate::unittest::verdict`]. Every statement, expression and loop iteration charges a step
//! budget, Python calls are bounded by a recursion limit, collections by a size limit: a hostile
//! test always terminates with an `error`.

pub(crate) mod builtins;
pub(crate) mod cpyhash;
pub(crate) mod cycles;
pub(crate) mod eval;
pub(crate) mod exc;
pub mod fmt;
pub(crate) mod intlimit;
pub(crate) mod isolation;
pub(crate) mod loadcache;
pub(crate) mod memory;
pub(crate) mod observe;
pub(crate) mod ops;
pub(crate) mod scope;
pub(crate) mod setplan;
pub(crate) mod stdlib;
pub(crate) mod value;

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::python::{self, node::Node, LineIndex};
use crate::tree::Tree;
use crate::unittest::verdict::SubOutcome;

pub use exc::ExcKind;
use scope::ScopeInfo;
pub use stdlib::os::FileAccess;
use value::*;
pub use value::{Str, Value};

/// A raised Python exception travelling up the Rust stack.
pub struct PyErr<'a> {
    /// The exception instance.
    pub exc: Value<'a>,
    /// Innermost line of the test file where it passed (CPython's traceback line).
    pub line: Option<u32>,
    /// Limits and unsupported constructs: cannot be caught by `except`.
    pub fatal: bool,
}

pub type PyResult<'a, T> = Result<T, Box<PyErr<'a>>>;

/// Limits of one run.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub step_budget: u64,
    pub max_recursion: u32,
    pub max_collection_len: usize,
    /// Native stack (bytes below the entry point) Python code may use; see [`STACK_LIMIT`].
    pub stack_budget: usize,
    /// Bytes the run's values may hold, as [`memory`] counts them
    /// ([`memory::DEFAULT_MEMORY_BUDGET`]).
    pub memory_budget: u64,
}

/// Bytes the memory account of this thread's last run still counts (after a sweep): once the run
/// has ended, what it left alive. For tests and the fuzz targets' leak checks.
pub fn bytes_left() -> u64 {
    memory::sweep()
}

/// A cycle collection runs only once `budget / GC_AFTER_FRACTION` bytes more than after the
/// last one are charged ([`Interp::check_memory`], [`Interp::collect_after_method`]).
pub const GC_AFTER_FRACTION: u64 = 8;

/// At the end of a test method, cycles are collected when the account holds more than
/// `budget / GC_METHOD_END_FRACTION` bytes ([`Interp::collect_after_method`]).
pub const GC_METHOD_END_FRACTION: u64 = 4;

/// Sizes from which CPython 3.11 raises MemoryError on any machine the harness plausibly runs on
/// (2^32 items: 32 GiB of list slots, or a 4 GiB str that `'a' * n` must allocate at once).
pub const CPYTHON_MEMORY_ERROR_LEN: u64 = 1 << 32;

/// Memory a cached parse holds per byte of source: the source itself plus its tree. Measured: 800
/// distinct edits of one 388 KB file held 4.4 GB (about 14 bytes a source byte); rounded up.
pub const PARSE_CACHE_BYTES_PER_SOURCE_BYTE: usize = 16;

/// The parse cache's default budget (the worker's; the CLI sets one from the machine's memory).
pub const DEFAULT_PARSE_CACHE_BYTES: usize = 256 << 20;

type ParseKey = (u64, usize, String);

/// Parsed files shared across runs: identical contents are parsed once. Bounded by the memory its
/// trees hold (estimated from their sources' sizes), not by a count of trees: one large file edited
/// many times must not grow it past its budget. The oldest parses are dropped first.
pub struct ParseCache {
    /// Keyed by (hash, length, file name) of the source; the value keeps the source itself so a
    /// hit is confirmed byte for byte (a hash collision must never hand out another file's tree).
    /// The `u32` is the tree's [`python::node::ast2obj_depth`] (0 for a SyntaxError).
    pub trees: HashMap<ParseKey, CachedParse>,
    /// The key of the entry holding the source string at this address (entries hold their
    /// source, so the address cannot be reused while it is here): `ast.parse` of a string the
    /// cache already holds, as [`Interp::read_texts`] hands out, needs no hash or byte compare.
    by_text: HashMap<usize, ParseKey>,
    /// Keys in insertion order, for dropping the oldest.
    order: std::collections::VecDeque<ParseKey>,
    /// Estimated bytes held ([`PARSE_CACHE_BYTES_PER_SOURCE_BYTE`] a source byte).
    held: usize,
    budget: usize,
}

impl Default for ParseCache {
    fn default() -> Self {
        ParseCache::with_budget(DEFAULT_PARSE_CACHE_BYTES)
    }
}

impl ParseCache {
    /// A cache holding at most about `budget` bytes of sources and trees.
    pub fn with_budget(budget: usize) -> ParseCache {
        ParseCache {
            trees: HashMap::new(),
            by_text: HashMap::new(),
            order: std::collections::VecDeque::new(),
            held: 0,
            budget,
        }
    }

    /// Estimated bytes the cache holds now.
    pub fn held_bytes(&self) -> usize {
        self.held
    }

    /// Whether an entry holds this very string (not merely equal text).
    pub fn holds(&self, text: &Str) -> bool {
        self.by_identity(text).is_some()
    }

    /// The key of the entry holding this very string, if any.
    fn by_identity(&self, text: &Str) -> Option<&ParseKey> {
        let key = self.by_text.get(&text_address(text))?;
        self.trees.get(key).filter(|v| Rc::ptr_eq(&v.0, text)).map(|_| key)
    }

    /// Forgets `v`'s address if it names `key`'s entry.
    fn forget_text(&mut self, key: &ParseKey, v: &CachedParse) {
        let addr = text_address(&v.0);
        if self.by_text.get(&addr) == Some(key) {
            self.by_text.remove(&addr);
        }
    }

    fn cost(source_len: usize) -> usize {
        source_len.saturating_mul(PARSE_CACHE_BYTES_PER_SOURCE_BYTE).saturating_add(256)
    }

    /// Keeps `value` under `key`, dropping the oldest parses until it fits; a parse larger than the
    /// whole budget is not kept.
    pub fn insert(&mut self, key: ParseKey, value: CachedParse) {
        let cost = Self::cost(value.0.len());
        if cost > self.budget {
            return;
        }
        while self.held + cost > self.budget {
            let Some(old) = self.order.pop_front() else { break };
            if let Some(v) = self.trees.remove(&old) {
                self.held = self.held.saturating_sub(Self::cost(v.0.len()));
                self.forget_text(&old, &v);
            }
        }
        let addr = text_address(&value.0);
        if let Some(v) = self.trees.insert(key.clone(), value) {
            self.held = self.held.saturating_sub(Self::cost(v.0.len()));
            self.forget_text(&key, &v);
            self.order.retain(|k| k != &key);
        }
        self.by_text.insert(addr, key.clone());
        self.order.push_back(key);
        self.held += cost;
    }
}

/// A cached parse: the source, its result and the tree's `ast2obj` depth.
pub type CachedParse = (Str, ParseResult, u32);

/// A parse the cache holds: a tree `ast.parse` copies into node objects.
#[derive(Clone)]
pub enum CachedTree {
    /// The CPython-shaped tree (the reference path's, or one a test put there).
    Tree(Rc<Node>),
    /// ruff's parse, converted straight into node objects at each `ast.parse`
    /// ([`Interp::fast_to_value`]): most sources are parsed once per run, and building a
    /// [`Node`] tree only to copy it cost a tenth of a run's instructions.
    #[cfg(feature = "fast-parse")]
    Fast(Rc<python::FastTree>),
}

impl CachedTree {
    /// Whether both are the same cached parse.
    pub fn ptr_eq(&self, other: &CachedTree) -> bool {
        match (self, other) {
            (CachedTree::Tree(a), CachedTree::Tree(b)) => Rc::ptr_eq(a, b),
            #[cfg(feature = "fast-parse")]
            (CachedTree::Fast(a), CachedTree::Fast(b)) => Rc::ptr_eq(a, b),
            #[cfg(feature = "fast-parse")]
            _ => false,
        }
    }
}

/// A file's bytes (held, so their address stays theirs) and their decoded text
/// ([`Interp::read_texts`]).
pub type ReadText = (std::sync::Arc<[u8]>, Str);

/// Address of a string's bytes: its identity while something holds it.
fn text_address(text: &Str) -> usize {
    text.as_ptr() as usize
}

type ParseResult = Result<CachedTree, python::SyntaxError>;

/// Current subtest bookkeeping (set by the unittest runner).
#[derive(Default)]
pub struct TestRecord {
    /// `(status, exc_type, message, line)` of each subtest, in order.
    pub subtests: Vec<SubOutcome>,
}

pub struct Interp<'a> {
    /// Read only through `stdlib::os`'s recording accessors (`tree_node`, `tree_dir`, `list_dir`,
    /// `file_bytes`): [`observe::Observations`] relies on it.
    tree: &'a Tree,
    pub test_file_name: String,
    pub test_source: &'a str,
    /// Codecs beyond UTF-8/Latin-1/ASCII ([`crate::codec`]); `None`: a run needing one stops
    /// ([`Interp::needs_codecs_error`]).
    pub codecs: Option<Rc<dyn crate::codec::Codecs>>,
    /// Set when the run stopped for want of [`Interp::codecs`].
    pub needs_codecs: bool,
    pub line_index: LineIndex,
    pub globals: Rc<Scope<'a>>,
    /// Filled by `Interp::new` and only read after: the global load cache relies on it.
    pub builtins: NameMap<Value<'a>>,
    /// What the global or builtin name at a load site of a function body resolved to, with the
    /// globals' version it was read at.
    pub global_loads: loadcache::GlobalLoads<'a>,
    /// The slot of the local name at a load site of a function body.
    pub local_sites: loadcache::LocalSites,
    /// Where the attribute at a site was found in a module's namespace.
    pub module_attrs: loadcache::ModuleAttrSites,
    /// Imported modules; made inside [`isolation::shared`] (they outlive the method importing them).
    pub modules: NameMap<Value<'a>>,
    pub exc_classes: NameMap<Rc<Class<'a>>>,
    pub testcase_class: Option<Rc<Class<'a>>>,
    pub steps: u64,
    pub limits: Limits,
    /// A class got `__getattribute__`, `__setattr__`, `__delattr__` or a property after it was
    /// made: every instance takes the attribute protocol's general path ([`value::Class::hooks`]).
    pub attr_dynamic: bool,
    /// Python frames the interpreter has entered (calls of Python functions and their like).
    pub depth: u32,
    /// Entries into CPython's `ast.parse` so far in the process (saturating): the test's calls
    /// (and `ast.literal_eval`'s), and one per traceback unittest formats for a failure or an
    /// error (3.11's `traceback` parses the line of each frame with `ast.parse` to place its
    /// carets; counted as one frame, the test method's). Decides [`stdlib::ast::WARM_AFTER`].
    pub ast_parse_entries: u32,
    /// CPython's recursion depth below the code running at `depth` 0: the frames the official
    /// harness has on the stack (its runner, unittest's suite and case machinery, the import
    /// system), set by the unittest runner per phase ([`harness_depth`]). CPython raises
    /// RecursionError when `base_depth + depth` would pass `sys.getrecursionlimit()`.
    pub base_depth: u32,
    pub cache: Rc<RefCell<ParseCache>>,
    pub scope_infos: HashMap<usize, Rc<ScopeInfo>>,
    /// How the test module's set displays of constants are built ([`setplan`]), by node address.
    pub(crate) set_plans: setplan::SetPlans,
    /// Attributes the test set on `ast`'s classes (`ast.AST.parent = None`): (class name,
    /// attribute, value). Node objects and the classes find them through their bases.
    pub ast_class_attrs: Vec<(&'static str, Str, Value<'a>)>,
    /// Exceptions being handled (innermost last), for bare `raise`.
    pub handling: Vec<Box<PyErr<'a>>>,
    /// Shared field-less AST nodes (`Load()`, `Add()`...), as CPython shares them; indexed by
    /// [`NodeClass::index`](crate::python::node::NodeClass::index). Made inside
    /// [`isolation::shared`], like `modules`.
    pub singletons: Rc<RefCell<Vec<Option<Value<'a>>>>>,
    pub record: TestRecord,
    /// Qualified name of the running function (for generator reprs).
    pub qualname_stack: Vec<Str>,
    /// Values of string/bytes/int constants of the test source, by node address (no re-allocation).
    pub const_cache: HashMap<usize, Value<'a>, value::FxBuild>,
    /// Address of a local of the first interpreter frame: stack use is measured from it.
    pub stack_base: usize,
    /// `longMessage` of the TestCase whose assertion runs (False: a custom msg replaces the standard).
    pub long_message: bool,
    /// Values yielded by the generator bodies running (innermost last).
    pub yield_sinks: Vec<Vec<Value<'a>>>,
    /// The repository paths the run touched; `None` (the default) records nothing.
    pub access: Option<Box<FileAccess>>,
    /// Every question the run asked the tree, with its answer; `None` records nothing.
    pub observations: Option<RefCell<observe::Observations>>,
    /// The repository files and paths the running test method (with its `setUp` and
    /// `tearDown`) opened or checked, folders left out: the per-test `reads` of the report.
    /// `None` outside test methods.
    pub method_reads: Option<std::collections::BTreeSet<String>>,
    /// `sys.get_int_max_str_digits()` (0: no limit), see [`intlimit`].
    pub max_str_digits: u32,
    /// [`memory::charged`] past which the next step sweeps the account and checks the budget.
    pub memory_check_at: u64,
    /// Decoded text of each file's bytes read in text mode this run, by the address of the bytes
    /// (which the entry holds) and newline translation: a file read again while no Python object
    /// holds its earlier text gets that text back instead of a new decode and copy.
    pub read_texts: HashMap<(usize, bool), ReadText, value::FxBuild>,
    /// The mutable objects the run made, emptied when it ends ([`memory::Objects`]).
    pub(crate) objects: Rc<memory::Objects<'a>>,
    /// Per `for` loop (by address): whether its target is read only inside loops binding it
    /// (`eval::loop_target`).
    pub(crate) loop_targets: HashMap<usize, bool>,
    /// Bytes the memory account held after the last cycle collection ([`Interp::collect_cycles`]).
    pub gc_live_after: u64,
    /// Cycle collections so far, and objects they freed (for tests and measurements).
    pub gc_stats: (u32, u64),
    /// A collection ran while a method was running (the budget was reached): the method's
    /// frame may hold cycles once it ends, so the next [`Interp::collect_after_method`] collects.
    pub gc_since_method_end: bool,
}

/// CPython's recursion depth (`tstate->recursion_limit - recursion_remaining` in 3.11) of the
/// frames the official harness runs each phase of a test file in, measured under
/// `official-harness.py`'s runner (python3 3.11.7) by recursing until RecursionError: the module
/// body runs at depth 6 (`<module>`, `main`, importlib's `exec_module` and
/// `_call_with_frames_removed`, the C call into the module code), `setUpClass` and a
/// `tearDownClass` between two classes at 8, the last `tearDownClass` at 6 (called by the
/// outermost suite), `setUp`, the test method and `tearDown` at 11 (`main`, three levels of
/// `TestSuite.run` / `__call__`, where each `__call__` through `tp_call` also counts once, then
/// `TestCase.run` and `_callTestMethod`).
pub mod harness_depth {
    /// The module body (our depth 0).
    pub const MODULE: u32 = 6;
    /// Inside `setUpClass` (our depth 1 there: the fixture's own frame).
    pub const SET_UP_CLASS: u32 = 8;
    /// Inside a `tearDownClass` followed by another class's suite.
    pub const TEAR_DOWN_CLASS: u32 = 8;
    /// Inside the last `tearDownClass` of the file.
    pub const LAST_TEAR_DOWN_CLASS: u32 = 6;
    /// Inside `setUp`, the test method and `tearDown`.
    pub const METHOD: u32 = 11;
}

/// Default Rust stack the interpreter may use below its entry point before Python code gets a
/// RecursionError ([`crate::unittest::RunConfig::stack_budget`] overrides it). Measured cost of one
/// Python call (x86_64): release 1.5-1.9 KiB for a small function, ~3.7 KiB for one with a loop
/// and a list; debug ~4.6 KiB. So CPython's 1000 frames need a budget of ~4 MiB in release: run
/// on a stack of 8 MiB (wasm: `-C link-arg=-zstack-size=8388608`) with a budget of 6 MiB. This
/// default fits wasm32's default 1 MiB stack and 2 MiB test threads; deep recursion must fail
/// cleanly, never overflow.
pub const STACK_LIMIT: usize = if cfg!(debug_assertions) { 1536 * 1024 } else { 768 * 1024 };

impl<'a> Interp<'a> {
    pub fn new(
        tree: &'a Tree,
        test_file_name: &str,
        test_source: &'a str,
        limits: Limits,
        cache: Rc<RefCell<ParseCache>>,
    ) -> Self {
        let mut it = Interp {
            tree,
            test_file_name: test_file_name.to_string(),
            test_source,
            codecs: None,
            needs_codecs: false,
            line_index: LineIndex::new(test_source),
            globals: Scope::new(None),
            builtins: NameMap::default(),
            global_loads: loadcache::GlobalLoads::default(),
            local_sites: loadcache::LocalSites::default(),
            module_attrs: loadcache::ModuleAttrSites::default(),
            modules: NameMap::default(),
            exc_classes: NameMap::default(),
            testcase_class: None,
            steps: 0,
            attr_dynamic: false,
            limits,
            depth: 0,
            ast_parse_entries: 0,
            base_depth: 0,
            cache,
            scope_infos: HashMap::new(),
            set_plans: HashMap::new(),
            ast_class_attrs: Vec::new(),
            handling: Vec::new(),
            singletons: Rc::default(),
            record: TestRecord::default(),
            qualname_stack: Vec::new(),
            stack_base: 0,
            long_message: true,
            yield_sinks: Vec::new(),
            const_cache: HashMap::default(),
            access: None,
            observations: None,
            method_reads: None,
            max_str_digits: intlimit::DEFAULT_MAX_STR_DIGITS,
            memory_check_at: limits.memory_budget,
            read_texts: HashMap::default(),
            objects: Rc::default(),
            loop_targets: HashMap::new(),
            gc_live_after: 0,
            gc_stats: (0, 0),
            gc_since_method_end: false,
        };
        memory::reset();
        it.mark_stack_base();
        exc::install(&mut it);
        builtins::install(&mut it);
        it
    }

    /// Records the current stack position as the base for [`Interp::stack_exhausted`].
    pub fn mark_stack_base(&mut self) {
        let probe = 0u8;
        self.stack_base = std::ptr::addr_of!(probe) as usize;
    }

    /// Bytes of Rust stack used since the base mark.
    #[inline]
    pub fn stack_used(&self) -> usize {
        let probe = 0u8;
        (std::ptr::addr_of!(probe) as usize).abs_diff(self.stack_base)
    }

    /// CPython's recursion depth of the running frame: the harness's frames and ours.
    #[inline]
    pub fn cpython_depth(&self) -> u32 {
        self.base_depth.saturating_add(self.depth)
    }

    /// A RecursionError when Python recursion or the Rust stack is too deep: entering one more
    /// frame would pass CPython's limit counted with the harness's frames.
    #[inline]
    pub fn check_depth(&self) -> PyResult<'a, ()> {
        if self.cpython_depth() >= self.limits.max_recursion
            || self.stack_used() > self.limits.stack_budget
        {
            return Err(self.err(ExcKind::RecursionError, "maximum recursion depth exceeded"));
        }
        Ok(())
    }

    /// 1-based line of a byte offset of the test source.
    pub fn line_of(&self, offset: u32) -> u32 {
        self.line_index.position(offset).0
    }

    /// Charges one step; fatal error when the budget is exhausted, or when the run's values hold
    /// more than its memory budget.
    #[inline]
    pub fn step(&mut self) -> PyResult<'a, ()> {
        self.steps += 1;
        #[cfg(feature = "gc-stress")]
        if self.steps % 2000 == 0 {
            self.collect_cycles();
        }
        if memory::charged() > self.memory_check_at {
            self.check_memory(0)?;
        }
        if self.steps > self.limits.step_budget {
            return Err(self.fatal(
                ExcKind::StepBudgetExceeded,
                format!(
                    "step budget of {} exhausted (the test may loop forever)",
                    self.limits.step_budget
                ),
            ));
        }
        Ok(())
    }

    /// Charges `n` steps at once (native work proportional to input size).
    pub fn charge(&mut self, n: u64) -> PyResult<'a, ()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps > self.limits.step_budget {
            return Err(self.fatal(
                ExcKind::StepBudgetExceeded,
                format!(
                    "step budget of {} exhausted (the test may loop forever)",
                    self.limits.step_budget
                ),
            ));
        }
        Ok(())
    }

    /// A collection of `n` items (or a str/bytes of `n` units) may be built. Past any memory
    /// CPython gets ([`CPYTHON_MEMORY_ERROR_LEN`]) this is CPython's MemoryError; between our
    /// limit and that, CPython would go on, so the verdict names our limit instead (an
    /// uncatchable `SizeLimitExceeded`), never passing it off as CPython's answer.
    /// The bytes it needs (at least one a unit) must also fit the memory budget ([`memory`]).
    pub fn check_len(&mut self, n: usize) -> PyResult<'a, ()> {
        if n > self.limits.max_collection_len {
            if n as u64 >= CPYTHON_MEMORY_ERROR_LEN {
                return Err(self.err(ExcKind::MemoryError, ""));
            }
            return Err(self.fatal(
                ExcKind::SizeLimitExceeded,
                format!(
                    "size limit of {} items exceeded (refscore's collection size limit)",
                    self.limits.max_collection_len
                ),
            ));
        }
        self.check_bytes(n as u64)
    }

    /// Whether `extra` more bytes fit the run's memory budget ([`memory`]): sweeps the account
    /// (crediting strings freed since the last sweep) and names the budget when they do not.
    /// The next sweep is due once a quarter of the budget more has been charged, so sweeps cost
    /// amortised constant time per byte made; tracked bytes never pass 1.25 times the budget.
    /// Before naming the budget, the run's unreachable reference cycles are collected
    /// ([`Interp::collect_cycles`]), unless less than an eighth of the budget was charged since
    /// the last collection: each collection then follows that much allocation, so their cost
    /// stays proportional to the work.
    #[cold]
    pub fn check_memory(&mut self, extra: u64) -> PyResult<'a, ()> {
        let budget = self.limits.memory_budget;
        let mut live = memory::sweep();
        if live.saturating_add(extra) > budget
            && live > self.gc_live_after.saturating_add(budget / GC_AFTER_FRACTION)
        {
            self.collect_cycles();
            live = self.gc_live_after;
        }
        self.memory_check_at = budget.max(live.saturating_add(budget / 4));
        if live.saturating_add(extra) > budget {
            return Err(self.fatal(
                ExcKind::SizeLimitExceeded,
                format!(
                    "memory budget of {} MiB exceeded (refscore's limit on the values one test \
                     file's run holds)",
                    budget >> 20
                ),
            ));
        }
        Ok(())
    }

    /// Frees the run's objects that only reference cycles keep alive ([`cycles`]), as CPython's
    /// `gc` would have by now; sweeps the account after.
    pub fn collect_cycles(&mut self) {
        let c = self.objects.collect();
        self.gc_stats.0 = self.gc_stats.0.saturating_add(1);
        self.gc_stats.1 = self.gc_stats.1.saturating_add(c.freed as u64);
        self.gc_live_after = memory::sweep();
        self.gc_since_method_end = true;
    }

    /// At the end of a test method: collects the run's cycles when the account holds more than
    /// [`GC_METHOD_END_FRACTION`] of the budget, and either a collection ran since the last
    /// method ended (the budget was reached: the method's frame, gone now, may have held what
    /// that collection could not free) or an eighth of the budget more is charged than after
    /// the last collection. A method that left its memory in cycles with its frame must not make
    /// the file's later methods run out of the budget; a run holding much memory legitimately is
    /// not walked again after every method.
    pub fn collect_after_method(&mut self) {
        let budget = self.limits.memory_budget;
        let live = memory::sweep();
        let due = live > budget / GC_METHOD_END_FRACTION
            && (self.gc_since_method_end
                || live > self.gc_live_after.saturating_add(budget / GC_AFTER_FRACTION));
        if due || cfg!(feature = "gc-stress") {
            self.collect_cycles();
        }
        self.gc_since_method_end = false;
    }

    /// Bytes a value about to be built needs ([`memory::SLOT_BYTES`] a list item): refused
    /// before it is allocated when they do not fit the run's memory budget.
    pub fn check_bytes(&mut self, n: u64) -> PyResult<'a, ()> {
        if memory::charged().saturating_add(n) > self.limits.memory_budget {
            self.check_memory(n)?;
        }
        Ok(())
    }

    /// A Python exception of builtin class `cls` with one string argument.
    pub fn err(&self, cls: ExcKind, msg: impl Into<String>) -> Box<PyErr<'a>> {
        let msg: String = msg.into();
        let args = if msg.is_empty() && cls == ExcKind::MemoryError {
            vec![]
        } else {
            vec![Value::str(&msg)]
        };
        self.err_args(cls, args, None)
    }

    pub fn err_args(
        &self,
        cls: ExcKind,
        args: Vec<Value<'a>>,
        str_override: Option<String>,
    ) -> Box<PyErr<'a>> {
        Box::new(PyErr {
            exc: self.made(exc::new_instance(self.exc_class(cls), args, str_override)),
            line: None,
            fatal: false,
        })
    }

    /// The class object of builtin exception `kind` (installed by [`exc::install`]).
    pub fn exc_class(&self, kind: ExcKind) -> Rc<Class<'a>> {
        self.exc_classes.get(kind.name()).cloned().unwrap_or_else(|| exc::bare_class(kind.name()))
    }

    /// An uncatchable error (limits, unsupported constructs, content missing from the bundle).
    pub fn fatal(&self, kind: ExcKind, msg: impl Into<String>) -> Box<PyErr<'a>> {
        let mut e = self.err(kind, msg);
        e.fatal = true;
        e
    }

    /// The run needs a codec and has no provider: an uncatchable stop, whose outcomes the
    /// scorer reports as no verdict ([`crate::unittest::Scorer::take_needs_codecs`]).
    pub fn needs_codecs_error(&mut self, codec: &str) -> Box<PyErr<'a>> {
        self.needs_codecs = true;
        self.unsupported(format!("codec '{codec}' (refscore's codecs module is not loaded)"))
    }

    pub fn unsupported(&self, what: impl Into<String>) -> Box<PyErr<'a>> {
        self.fatal(
            ExcKind::UnsupportedConstruct,
            format!("unsupported by refscore's interpreter: {}", what.into()),
        )
    }

    /// Parses `source` for `ast.parse`, sharing results across runs of the same scorer. A parse
    /// comes with its tree's [`python::node::ast2obj_depth`], for
    /// [`Interp::ast_construction_check`], and, when it was not cached, the node objects
    /// already built from it (the fast path builds them while it converts ruff's tree).
    #[allow(clippy::type_complexity)]
    pub fn parse_cached(
        &mut self,
        source: &Str,
        filename: &str,
    ) -> Result<(CachedTree, u32, Option<Value<'a>>), python::SyntaxError> {
        {
            let cache = self.cache.borrow();
            if let Some(key) = cache.by_identity(source).filter(|k| k.2 == filename) {
                if let Some((_, r, depth)) = cache.trees.get(key) {
                    return r.clone().map(|t| (t, *depth, None));
                }
            }
        }
        let key = (value::hash_bytes(source.as_bytes()), source.len(), filename.to_string());
        if let Some((text, r, depth)) = self.cache.borrow().trees.get(&key) {
            if **text == **source {
                return r.clone().map(|t| (t, *depth, None));
            }
        }
        // Bounded by bytes: a long session scoring many submissions must not grow without limit.
        // The entry keeps `source` itself (no copy), which also makes it findable by identity.
        #[cfg(feature = "fast-parse")]
        if let Some(fast) = python::parse_fast(source) {
            let fast = Rc::new(fast);
            if let Some((v, depth)) =
                fast.check(source).and_then(|d| self.fast_to_value(&fast, source, d))
            {
                let t = CachedTree::Fast(fast);
                self.cache.borrow_mut().insert(key, (source.clone(), Ok(t.clone()), depth));
                return Ok((t, depth, Some(v)));
            }
        }
        let r =
            python::parse_tree_reference(source, filename).map(|t| CachedTree::Tree(Rc::new(t)));
        let depth = match &r {
            Ok(CachedTree::Tree(t)) => python::node::ast2obj_depth(t),
            _ => 0,
        };
        self.cache.borrow_mut().insert(key, (source.clone(), r.clone(), depth));
        r.map(|t| (t, depth, None))
    }

    /// The node objects of a cached parse of `source`.
    pub fn cached_to_value(
        &mut self,
        tree: &CachedTree,
        source: &Str,
        filename: &str,
    ) -> Value<'a> {
        #[cfg(not(feature = "fast-parse"))]
        let _ = (source, filename);
        match tree {
            CachedTree::Tree(t) => self.node_to_value(t),
            #[cfg(feature = "fast-parse")]
            CachedTree::Fast(f) => match self.fast_to_value(f, source, 0) {
                Some((v, _)) => v,
                // It converted when it was cached, and conversion is deterministic.
                None => match python::parse_tree_reference(source, filename) {
                    Ok(t) => self.node_to_value(&t),
                    Err(_) => Value::None,
                },
            },
        }
    }

    /// CPython 3.11's `ast.parse` limits on a tree `tree_depth` deep ([`python::node::
    /// ast2obj_depth`]): `ast.parse` is a Python function, so calling it needs one more frame;
    /// its `compile` converts the parsed tree with a C recursion budget scaled from the Python
    /// one (`PyAST_mod2obj`: starts at 3 x the current depth, fails past 3 x the limit with
    /// "maximum recursion depth exceeded during ast construction"). So the same file parses in
    /// a test method and fails in a helper 30 calls deeper, as in CPython.
    /// While `ast.parse` is `cold` ([`stdlib::ast::WARM_AFTER`]) its `compile` call counts one more
    /// level.
    pub fn ast_construction_check(&self, tree_depth: u32, cold: bool) -> PyResult<'a, ()> {
        self.check_depth()?;
        let parse_frame = u64::from(self.cpython_depth()) + 1 + u64::from(cold);
        let limit = u64::from(self.limits.max_recursion) * 3;
        if 3 * parse_frame + u64::from(tree_depth) > limit {
            return Err(self.err(
                ExcKind::RecursionError,
                "maximum recursion depth exceeded during ast construction",
            ));
        }
        Ok(())
    }

    /// `v`, noted as made by this run (see [`memory::Objects`]): every list, dict, set,
    /// instance, class, function, module and generator the run makes goes through here.
    #[inline]
    pub(crate) fn made(&self, v: Value<'a>) -> Value<'a> {
        self.objects.note(&v);
        v
    }

    /// A new list made by the run ([`Interp::made`]).
    #[inline]
    pub(crate) fn new_list(&self, items: Vec<Value<'a>>) -> Value<'a> {
        self.made(Value::list(items))
    }

    /// A new empty dict (or set) made by the run ([`Interp::made`]).
    #[inline]
    pub(crate) fn new_dict(&self) -> Rc<Mut<PyDict<'a>>> {
        self.new_dict_from(PyDict::new())
    }

    /// A dict (or set) holding `d`, made by the run ([`Interp::made`]).
    pub(crate) fn new_dict_from(&self, d: PyDict<'a>) -> Rc<Mut<PyDict<'a>>> {
        let d = Rc::new(Mut::new(d));
        self.objects.note(&Value::Dict(d.clone()));
        d
    }

    /// Type name as `type(x).__name__` gives it.
    pub fn type_name(&self, v: &Value<'a>) -> String {
        fmt::type_name(v)
    }
}

/// Values are reference counted without a cycle collector: classes refer to themselves (their MRO
/// starts with the class), module-level functions to the globals that hold them, and a test makes
/// its own cycles (`o.me = o`, a class made inside a test method and kept only by its instances,
/// a closure referring to itself, a list containing itself). Left alone, every run would keep them
/// after it ended, and a process scoring many test files (the CLI, the worker, the fuzzer) would
/// grow without end (the `interp` fuzz target reached 3 GB). Dropping the interpreter empties
/// every object the run made and every object its tables reach ([`memory::Objects`]), which frees
/// them all.
impl Drop for Interp<'_> {
    fn drop(&mut self) {
        let mut roots: Vec<Value<'_>> = std::mem::take(&mut self.modules).into_values().collect();
        roots.extend(std::mem::take(&mut self.exc_classes).into_values().map(Value::Class));
        roots.extend(self.testcase_class.take().map(Value::Class));
        roots.extend(std::mem::take(&mut *self.singletons.borrow_mut()).into_iter().flatten());
        roots.extend(std::mem::take(&mut self.builtins).into_values());
        roots.extend(std::mem::take(&mut self.handling).into_iter().map(|e| e.exc));
        roots.extend(std::mem::take(&mut self.const_cache).into_values());
        roots.extend(std::mem::take(&mut self.yield_sinks).into_iter().flatten());
        self.objects.break_cycles(roots, vec![self.globals.clone()]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An interpreter for `src` as module `t.py`, under the default stack and memory budgets.
    fn interp<'t>(
        tree: &'t Tree,
        src: &'t str,
        step_budget: u64,
        max_collection_len: usize,
    ) -> Interp<'t> {
        let limits = Limits {
            step_budget,
            max_recursion: 1000,
            max_collection_len,
            stack_budget: crate::unittest::RunConfig::default().stack_budget,
            memory_budget: memory::DEFAULT_MEMORY_BUDGET,
        };
        let cache = Rc::new(RefCell::new(ParseCache::default()));
        let mut it = Interp::new(tree, "t.py", src, limits, cache);
        it.mark_stack_base();
        it
    }

    /// Runs `module` to its end; a Python exception fails the test with its classification.
    fn exec<'t>(it: &mut Interp<'t>, module: &'t python::syntax::ModModule) {
        if let Err(e) = it.exec_module(module) {
            panic!("{:?}", it.classify(&e));
        }
    }

    /// A run's classes (self-referring through their MRO) and module-level functions (referring
    /// to the globals holding them) are freed with the interpreter.
    #[test]
    fn dropping_the_interpreter_frees_classes_and_functions() {
        let tree = Tree::new();
        let src = "class A:\n    def f(self):\n        return A\n\nclass B(A):\n    pass\n\n\
                   def g():\n    return g\n\nclass E(ValueError):\n    pass\n\nb = B()\n";
        let module = python::parse_module(src, "t.py").expect("parses");
        let mut it = interp(&tree, src, 100_000, 1000);
        exec(&mut it, &module);
        let class = |name: &str| match it.globals.vars.get(name) {
            Some(Value::Class(c)) => Rc::downgrade(&c),
            _ => panic!("{name} is not a class"),
        };
        let (a, b, e) = (class("A"), class("B"), class("E"));
        let g = match it.globals.vars.get("g") {
            Some(Value::Func(f)) => Rc::downgrade(&f),
            _ => panic!("g is not a function"),
        };
        let globals = Rc::downgrade(&it.globals);
        drop(it);
        assert!(a.upgrade().is_none() && b.upgrade().is_none() && e.upgrade().is_none());
        assert!(g.upgrade().is_none(), "the function");
        assert!(globals.upgrade().is_none(), "the globals");
    }

    /// Runs `src` with the `isinstance` filters on, then off: each run's steps and `RESULT`.
    fn with_and_without_filters(tree: &Tree, src: &str) -> Vec<(u64, Option<String>)> {
        let module = python::parse_module(src, "t.py").expect("the test program parses");
        let runs = [false, true].map(|off| {
            eval::ISFILTER_OFF.with(|o| o.set(off));
            let mut it = interp(tree, src, 10_000_000, 100_000);
            exec(&mut it, &module);
            let result = it.globals.vars.get("RESULT").map(|v| it.repr(&v).unwrap_or_default());
            (it.steps, result)
        });
        eval::ISFILTER_OFF.with(|o| o.set(false));
        runs.into()
    }

    /// The `isinstance` filters of `for` loops and comprehensions over `ast.walk` change no
    /// result: every shape they answer, and shapes next to them, run with and without the
    /// filters. The step count (which the step budget and method reuse read) is the same, or,
    /// where a walk passed over unread statements and then ended early, higher by at most the
    /// nodes it passed over (they are charged when passed, see `eval::isfilter`).
    #[test]
    fn isinstance_filters_keep_results_and_step_counts() {
        let tree = Tree::new();
        let src = r#"import ast
T = ast.parse('import os\nclass K(B):\n    def f(self, a):\n        return [a.b for a in c if a]\n\ndef g():\n    return f(1) and K.x\n' * 3)

def run():
    out = []
    out.append(any(isinstance(n, ast.FunctionDef) and n.name == 'g' for n in ast.walk(T)))
    out.append(any(isinstance(n, ast.FunctionDef) and n.name == 'nope' for n in ast.walk(T)))
    out.append(any(isinstance(n, (ast.Import, ast.Return)) for n in ast.walk(T)))
    out.append(all(isinstance(n, ast.AST) for n in ast.walk(T)))
    out.append(list(isinstance(n, ast.Name) for n in ast.walk(T)).count(True))
    out.append([n.name for n in ast.walk(T) if isinstance(n, ast.ClassDef)])
    out.append(sum(1 for n in ast.walk(T) if isinstance(n, ast.Call) and n.args))
    out.append({type(n).__name__ for n in ast.walk(T) if isinstance(n, (ast.Attribute, ast.Return))})
    out.append({n.lineno: 1 for n in ast.walk(T) if isinstance(n, ast.FunctionDef)})
    g = (isinstance(n, ast.Call) for n in ast.walk(T))
    out.append((any(g), next(g), list(g).count(False)))
    cls = ast.Import
    seen = []
    for x in (isinstance(n, cls) for n in ast.walk(T)):
        if x:
            seen.append(x)
            cls = ast.Call
    out.append(len(seen))
    for n in ast.walk(T):
        if isinstance(n, ast.Return):
            out.append(type(n.value).__name__)
    out.append([n for n in [1, T, 'a'] if isinstance(n, ast.Module)] == [T])
    out.append(any(isinstance(n, ast.Name) and n.id == 'c' for m in T.body for n in ast.walk(m)))
    return out

RESULT = run()
"#;
        let runs = with_and_without_filters(&tree, src);
        assert!(
            runs[0].1.as_deref().is_some_and(|r| r.starts_with("[True, False, True")),
            "{runs:?}"
        );
        assert_eq!(runs[0].1, runs[1].1);
        assert!(runs[0].0 >= runs[1].0 && runs[0].0 <= runs[1].0 + 200, "{runs:?}");
    }

    /// Walks that run to their end are charged exactly the steps of a walk binding every node,
    /// whatever they passed over unread.
    #[test]
    fn complete_filtered_walks_keep_step_counts() {
        let tree = Tree::new();
        let src = r#"import ast
SRC = 'import os\nclass K(B):\n    def f(self, a):\n        if a:\n            return [a.b for a in c if a]\n        else:\n            raise E(a)\n\ndef g():\n    try:\n        return f(1) and K.x\n    except E:\n        pass\n' * 3

def run():
    out = []
    T = ast.parse(SRC)
    for n in ast.walk(T):
        if isinstance(n, ast.ClassDef):
            out.append(n.name)
    for n in ast.walk(T):
        if isinstance(n, (ast.Raise, ast.Import)):
            out.append(n.lineno)
    out.append([n.lineno for n in ast.walk(ast.parse(SRC)) if isinstance(n, ast.Try)])
    out.append(sum(1 for n in ast.walk(T) if isinstance(n, ast.Call)))
    out.append(sorted({a.name for n in ast.walk(T) if isinstance(n, ast.Import) for a in n.names}))
    out.append([(h.lineno, k) for n in ast.walk(T) if isinstance(n, ast.Try) for h in n.handlers for k in range(2) if k])
    g = (b.lineno for n in ast.walk(T) if isinstance(n, (ast.ClassDef, ast.If)) and n.lineno > 1 for b in n.body)
    out.append((next(g), list(g)))
    for n in ast.walk(T):
        if isinstance(n, ast.Import) or isinstance(n, (ast.Raise, ast.Try)):
            out.append(type(n).__name__)
    out.append([n.lineno for n in ast.walk(T) if isinstance(n, ast.If) or isinstance(n, ast.ClassDef) and n.bases])
    out.append(any(isinstance(n, ast.Global) or isinstance(n, ast.Nonlocal) for n in ast.walk(T)))
    for n in ast.walk(T):
        if isinstance(n, ast.FunctionDef):
            out.append(n.name)
            for m in ast.walk(n):
                if isinstance(m, ast.Raise):
                    out.append(m.lineno)
    return out

RESULT = run()
"#;
        let runs = with_and_without_filters(&tree, src);
        assert!(
            runs[0].1.as_deref().is_some_and(|r| r.starts_with("['K', 'K', 'K', 1")),
            "{runs:?}"
        );
        assert_eq!(runs[0], runs[1]);
    }

    /// A filter whose classes change after its walk passed over statements fails the run as
    /// unsupported (the nodes passed over were judged by the old classes); without the filters
    /// the same program runs to CPython's answer.
    #[test]
    fn filter_classes_changing_after_a_skip_are_unsupported() {
        let tree = Tree::new();
        let src = r#"import ast
def run():
    T = ast.parse('import os\nclass K:\n    pass\nprint(len(x))\n')
    C = ast.ClassDef
    out = []
    for n in ast.walk(T):
        if isinstance(n, C):
            out.append(type(n).__name__)
            C = ast.Call
    return out

RESULT = run()
"#;
        let module = python::parse_module(src, "t.py").expect("parses");
        let mut it = interp(&tree, src, 10_000_000, 100_000);
        match it.exec_module(&module) {
            Err(e) => {
                let got = it.classify(&e);
                assert!(format!("{got:?}").contains("isinstance filter"), "{got:?}");
            }
            Ok(_) => panic!("ran to the end"),
        }
        eval::ISFILTER_OFF.with(|o| o.set(true));
        let mut it = interp(&tree, src, 10_000_000, 100_000);
        exec(&mut it, &module);
        eval::ISFILTER_OFF.with(|o| o.set(false));
        let result = it.globals.vars.get("RESULT").map(|v| it.repr(&v).unwrap_or_default());
        assert_eq!(result.as_deref(), Some("['ClassDef', 'Call', 'Call']"));
    }

    /// Test bodies that leave reference cycles behind, each with a check that the objects are
    /// alive while the run uses them.
    const CYCLES: &[(&str, &str)] = &[
        ("instance_self", "o = C()\n        o.me = o\n        self.assertIs(o.me.me, o)"),
        ("instance_pair", "a, b = C(), C()\n        a.b = b\n        b.a = a\n        self.assertIs(a.b.a, a)"),
        ("class_in_method", "class K:\n            pass\n        k = K()\n        self.assertIs(type(k), K)"),
        ("closure_self", "def f():\n            return f\n        self.assertIs(f(), f)"),
        ("lambda_in_method", "g = lambda: g\n        self.assertIs(g(), g)"),
        ("nested_closures", "def outer():\n            def inner():\n                return inner\n            return inner\n        self.assertEqual(outer()().__name__, 'inner')"),
        ("list_self", "l = [1]\n        l.append(l)\n        self.assertIs(l[1][1], l)"),
        ("dict_self", "d = {}\n        d['d'] = d\n        s = {1}\n        self.assertIs(d['d'], d)"),
        ("exception_holds_holder", "h = C()\n        try:\n            raise ValueError(h)\n        except ValueError as e:\n            h.e = e\n        self.assertIs(h.e.args[0], h)"),
        ("exception_context_cycle", "try:\n            try:\n                raise KeyError(1)\n            except KeyError:\n                raise ValueError(2)\n        except ValueError as b:\n            a = b.__context__\n            a.later = b\n            self.assertIs(a.later.__context__, a)"),
        ("generator_over_its_list", "l = []\n        g = (x for x in l)\n        l.append(g)\n        self.assertEqual(len(l), 1)"),
        ("generator_function", "def gen():\n            yield gen\n        g = gen()\n        self.assertIs(next(g), gen)"),
        ("testcase_attr", "self.me = self\n        self.f = lambda: self\n        self.assertIs(self.f(), self)"),
    ];

    /// Every shape of reference cycle a test makes is freed when its run ends: the same program
    /// run again and again in one process leaves nothing charged to the memory account behind
    /// (before, each run kept its cycles: the instances, frames and lists they hold), and its
    /// verdict is still `pass`.
    #[test]
    fn cycles_made_by_a_run_are_freed_when_it_ends() {
        use crate::report::Status;
        use crate::unittest::{RunConfig, Scorer};
        let tree = Tree::new();
        let mut leaks = Vec::new();
        for (name, body) in CYCLES {
            let src = format!(
                "import unittest\n\nclass C:\n    pass\n\nclass T(unittest.TestCase):\n    \
                 def test_cycle(self):\n        {body}\n"
            );
            let mut scorer = Scorer::new(RunConfig { reuse_runs: false, ..RunConfig::default() });
            let mut left = Vec::new();
            for _ in 0..5 {
                let out = scorer.run_test_file(&tree, "test_cycle.py", &src);
                assert!(out.len() == 1 && out[0].status == Status::Pass, "{name}: {out:?}\n{src}");
                left.push(memory::sweep());
            }
            if left.iter().any(|&b| b > 0) {
                leaks.push(format!("{name}: bytes left after each run {left:?}"));
            }
        }
        assert!(leaks.is_empty(), "{}", leaks.join("\n"));
    }

    /// An interpreter for `src` whose memory budget leaves `room` bytes above what the
    /// interpreter itself holds when made.
    fn small_budget<'t>(tree: &'t Tree, src: &'t str, room: u64) -> Interp<'t> {
        let mut it = interp(tree, src, 50_000_000, 10_000_000);
        it.limits.memory_budget = memory::sweep() + room;
        it.memory_check_at = it.limits.memory_budget;
        it
    }

    /// Makes garbage cycles of about 50 KB each (a list holding itself), so a small budget is
    /// reached again and again and the collector runs in the middle of whatever calls it.
    const CHURN: &str = "def churn():\n    a = [0] * 2000\n    a.append(a)\n\n";

    /// Collections in the middle of a function free the garbage cycles and nothing the running
    /// frames, the values the Rust stack holds (a sort's items, a comprehension being built,
    /// call arguments) or the live objects reach: a self-referring list in a local, a
    /// generator expression suspended mid-iteration, a generator function's remaining items, a
    /// closure's cell held only by the function, an iterator over a list, a bound method,
    /// instances in cycles held by a list only a Rust local holds. The program checks each of
    /// them after the collections.
    #[test]
    fn collecting_during_a_run_keeps_what_is_reachable() {
        let tree = Tree::new();
        let src = format!(
            "{CHURN}class C:\n    def __init__(self, i):\n        self.i = i\n        self.me = self\n\
             \n    def get(self):\n        return self.i\n\n\
             def mk():\n    cell = [0]\n    def inc():\n        cell[0] += 1\n        return cell[0]\n    return inc\n\n\
             def gen():\n    yield from range(5)\n\n\
             def body():\n    keep = [1]\n    keep.append(keep)\n    keep.append({{'k': keep, 'c': C(7)}})\n\
             \x20   g = (x * 2 for x in range(5))\n    assert next(g) == 0\n\
             \x20   gf = gen()\n    assert next(gf) == 0\n    inc = mk()\n\
             \x20   lst = [C(i) for i in range(10)]\n    li = iter(lst)\n    assert next(li).i == 0\n\
             \x20   m = C(42).get\n    view = keep[2].keys()\n\
             \x20   for _ in range(300):\n        churn()\n\
             \x20   s = sorted([C(i) for i in range(40)], key=lambda o: (churn(), -o.i)[1])\n\
             \x20   assert [o.i for o in s] == list(range(39, -1, -1)), [o.i for o in s]\n\
             \x20   assert all(o.me is o for o in s)\n\
             \x20   built = [(churn(), C(i))[1] for i in range(40)]\n\
             \x20   assert [o.me.i for o in built] == list(range(40))\n\
             \x20   assert keep[1] is keep and keep[2]['k'] is keep and keep[2]['c'].me.i == 7\n\
             \x20   assert list(g) == [2, 4, 6, 8]\n    assert list(gf) == [1, 2, 3, 4]\n\
             \x20   assert inc() == 1 and inc() == 2\n    assert next(li).i == 1 and len(list(li)) == 8\n\
             \x20   assert m() == 42 and list(view) == ['k', 'c']\n\
             \x20   return keep\n\n\
             result = body()\nassert result[1] is result\n"
        );
        let module = python::parse_module(&src, "t.py").expect("parses");
        let mut it = small_budget(&tree, &src, 1 << 20);
        exec(&mut it, &module);
        assert!(it.gc_stats.0 >= 5, "collections: {:?}", it.gc_stats);
        assert!(it.gc_stats.1 >= 300, "objects freed: {:?}", it.gc_stats);
    }

    /// Every cycle shape of [`CYCLES`], made again and again by a function under a small budget,
    /// is freed while the run goes on (without the collector the same run exceeds the budget).
    #[test]
    fn cycles_are_collected_during_the_run() {
        let tree = Tree::new();
        let mut failures = Vec::new();
        for (name, body) in CYCLES {
            let body = body.replace("\n        ", "\n    ");
            let src = format!(
                "class C:\n    pass\n\nclass Check:\n    def assertIs(self, a, b):\n        assert a is b\n\
                 \n    def assertEqual(self, a, b):\n        assert a == b\n\n\
                 def once(self):\n    pad = [0] * 100\n    {body}\n    return pad\n\n\
                 for i in range(12000):\n    once(Check())\n"
            );
            let module = python::parse_module(&src, "t.py").expect("parses");
            for collect in [true, false] {
                let mut it = small_budget(&tree, &src, 512 << 10);
                if !collect {
                    it.gc_live_after = u64::MAX / 2;
                }
                let r = it.exec_module(&module);
                let got = match &r {
                    Ok(()) => "ok".to_string(),
                    Err(e) => format!("{:?}", it.classify(e)),
                };
                let want_ok = collect;
                if r.is_ok() != want_ok || (collect && it.gc_stats.1 == 0) {
                    failures
                        .push(format!("{name} (collector {collect}): {got}, gc {:?}", it.gc_stats));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// The list of noted objects drops entries of freed objects as it grows: a run making a
    /// million short-lived lists holds a few thousand entries, not a million.
    #[test]
    fn noted_objects_stay_proportional_to_live_ones() {
        let tree = Tree::new();
        let src = "keep = [[i] for i in range(100)]\nfor i in range(200000):\n    x = [i]\n";
        let module = python::parse_module(src, "t.py").expect("parses");
        let mut it = interp(&tree, src, 10_000_000, 1_000_000);
        exec(&mut it, &module);
        assert!(it.objects.live() >= 101, "the kept lists are noted");
        assert!(it.objects.len() < 3 * 4096, "{} entries", it.objects.len());
    }

    /// Attribute maps charge what every write makes them hold, whoever writes (an exception's
    /// `__context__`, an `OSError`'s fields, `setattr`), and credit it when freed; function
    /// objects charge themselves, not only their frames.
    #[test]
    fn attribute_maps_and_functions_are_charged() {
        memory::reset();
        let attrs = Attrs::default();
        for i in 0..1000 {
            attrs.borrow_mut().insert(Rc::from(format!("a{i}")), Value::None);
        }
        assert!(memory::charged() >= 1000 * memory::DICT_ENTRY_BYTES, "{}", memory::charged());
        drop(attrs);
        assert_eq!(memory::charged(), 0);

        let tree = Tree::new();
        let src = "fs = [lambda: 1 for i in range(1000)]\n\
                   def f():\n    pass\n\
                   for i in range(1000):\n    setattr(f, 'a' + str(i), None)\n";
        let module = python::parse_module(src, "t.py").expect("parses");
        let mut it = interp(&tree, src, 1_000_000, 100_000);
        let before = memory::charged();
        exec(&mut it, &module);
        let made = memory::sweep() - before;
        let want = 1000 * memory::FUNCTION_BYTES + 1000 * memory::DICT_ENTRY_BYTES;
        assert!(made >= want, "charged {made}, want at least {want}");
        drop(it);
        assert_eq!(memory::sweep(), 0, "all credited when the run ends");
    }

    fn dumped(r: &ParseResult, source: &str) -> Option<String> {
        let n = match r.as_ref().ok()? {
            CachedTree::Tree(t) => (**t).clone(),
            #[cfg(feature = "fast-parse")]
            CachedTree::Fast(f) => f.to_node(source)?,
        };
        Some(python::node::dump(&n, true, false, None))
    }

    /// A tree for the cache, as `parse_cached` would hold it on the reference path.
    fn ref_tree(source: &str) -> ParseResult {
        python::parse_tree(source, "f.py").map(|t| CachedTree::Tree(Rc::new(t)))
    }

    /// The cache holds at most its budget: one large file edited many times evicts the oldest
    /// parses instead of growing (800 edits of a 388 KB file once held 4.4 GB).
    #[test]
    fn parse_cache_is_bounded_by_bytes_oldest_first() {
        let source = |i: usize| format!("x = {i}\n{}", "# pad\n".repeat(1000));
        let one = ParseCache::cost(source(0).len());
        let mut cache = ParseCache::with_budget(one * 3 + one / 2);
        for i in 0..10 {
            let s = source(i);
            let key = (value::hash_bytes(s.as_bytes()), s.len(), "f.py".to_string());
            cache.insert(key, (s.as_str().into(), ref_tree(&s), 1));
            assert!(cache.held_bytes() <= one * 3 + one / 2);
        }
        assert_eq!(cache.trees.len(), 3);
        let newest = source(9);
        let key = (value::hash_bytes(newest.as_bytes()), newest.len(), "f.py".to_string());
        assert!(cache.trees.contains_key(&key), "the newest parse is kept");
        // A parse larger than the whole budget is not kept at all.
        let mut tiny = ParseCache::with_budget(10);
        tiny.insert(key, (newest.as_str().into(), ref_tree(&newest), 1));
        assert_eq!((tiny.trees.len(), tiny.held_bytes()), (0, 0));
    }

    /// A cache entry whose key matches but whose source differs (what a hash collision would
    /// look like) is never handed out: the source is parsed afresh.
    #[test]
    fn parse_cache_confirms_the_source_on_a_hit() {
        let tree = Tree::new();
        let cache = Rc::new(RefCell::new(ParseCache::default()));
        let (a, b) = ("x = 1\n", "y = 2\n");
        let key = (value::hash_bytes(a.as_bytes()), a.len(), "f.py".to_string());
        cache.borrow_mut().trees.insert(key, (b.into(), ref_tree(b), 0));
        let limits = Limits {
            step_budget: 1000,
            max_recursion: 50,
            max_collection_len: 1000,
            stack_budget: 0,
            memory_budget: memory::DEFAULT_MEMORY_BUDGET,
        };
        let mut it = Interp::new(&tree, "t.py", "", limits, cache);
        let got = dumped(&it.parse_cached(&Rc::from(a), "f.py").map(|t| t.0), a);
        assert_eq!(got, dumped(&ref_tree(a), a));
        assert!(got.is_some_and(|d| d.contains("'x'")));
        // The fresh tree replaced the stale entry and is served from the cache from now on.
        assert!(dumped(&it.parse_cached(&Rc::from(a), "f.py").map(|t| t.0), a)
            .is_some_and(|d| d.contains("'x'")));
    }

    /// An entry is found by the identity of the string it holds, only for that very string and
    /// file name; an evicted or replaced entry forgets its string's address.
    #[test]
    fn parse_cache_finds_held_strings_by_identity() {
        let tree = Tree::new();
        let cache = Rc::new(RefCell::new(ParseCache::default()));
        let limits = Limits {
            step_budget: 1000,
            max_recursion: 50,
            max_collection_len: 1000,
            stack_budget: 0,
            memory_budget: memory::DEFAULT_MEMORY_BUDGET,
        };
        let mut it = Interp::new(&tree, "t.py", "", limits, cache.clone());
        let s: Str = Rc::from("x = 1\n");
        let equal: Str = Rc::from("x = 1\n");
        let first = it.parse_cached(&s, "f.py").map(|t| t.0);
        assert!(cache.borrow().holds(&s), "the entry keeps the string it parsed");
        assert!(!cache.borrow().holds(&equal), "equal text is not the same string");
        let again = it.parse_cached(&s, "f.py").map(|t| t.0);
        assert!(matches!((&first, &again), (Ok(a), Ok(b)) if a.ptr_eq(b)));
        // Another file name is another entry (SyntaxError messages name the file).
        let other = it.parse_cached(&s, "g.py").map(|t| t.0);
        assert!(matches!((&first, &other), (Ok(a), Ok(b)) if !a.ptr_eq(b)));
        // Replacing the entry under the same key with an equal string drops the old identity.
        let key = (value::hash_bytes(s.as_bytes()), s.len(), "f.py".to_string());
        cache.borrow_mut().insert(key, (equal.clone(), ref_tree(&equal), 1));
        assert!(cache.borrow().holds(&equal));
        let mut small = ParseCache::with_budget(ParseCache::cost(s.len()));
        let k = |t: &Str| (value::hash_bytes(t.as_bytes()), t.len(), "f.py".to_string());
        small.insert(k(&s), (s.clone(), ref_tree(&s), 1));
        assert!(small.holds(&s));
        let y: Str = Rc::from("y = 2\n");
        small.insert(k(&y), (y.clone(), ref_tree(&y), 1));
        assert!(!small.holds(&s) && small.holds(&y), "eviction forgets the address");
    }
}
