//! `refscore._refscore`: the scorer as a Python extension module (PyO3, abi3 for CPython >= 3.9).
//!
//! Nothing is scored or read here that the CLI does not score or read the same way: bundles
//! through `cli::bundle_dir`, prediction and trajectory files through `cli::inputs`, many
//! submissions through `cli::run::score_all` (native threads, the GIL released), and every
//! result leaves as JSON written by `Report::to_json`, the one serialiser, then parsed by
//! Python's `json` so dict keys keep the report's order. The Python side (`refscore/__init__.py`)
//! re-exports these names; `refscore/_refscore.pyi` types them.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::{mpsc, Arc, Mutex};

use cli::bundle_dir::{BundleDir, LoadedTask};
use cli::inputs::{self, Batch};
use cli::run;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use scorer::report::{EntryError, InstructionSet, Report, SourceRef, TaskResult};
use scorer::submission::{Parsed, Submission};
use scorer::unittest::{RunConfig, Scorer};
use serde_json::Value;

/// As in the CLI (`cli/src/main.rs`): the interpreter allocates many small short-lived objects
/// from its scoring threads, where glibc's arenas were slow. Python's own objects keep Python's
/// allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

create_exception!(
    refscore,
    RefscoreError,
    PyException,
    "Base class of the errors refscore raises."
);
create_exception!(
    refscore,
    BundleError,
    RefscoreError,
    "A bundle folder that cannot be read: missing, not a bundle, hash mismatch, corrupt task files. \
     The message is the CLI's."
);
create_exception!(
    refscore,
    InputError,
    RefscoreError,
    "Input that cannot be read at all: an unreadable predictions file, a task the bundle lacks, a \
     value of the wrong shape. The message is the CLI's. Bad entries of a predictions file are not \
     raised: they are the report's `errors`."
);

/// The name plain prediction dicts without a `source` are reported under (their line is their
/// 1-based position in the input).
const IN_MEMORY: &str = "<predictions>";

fn bundle_err(e: anyhow::Error) -> PyErr {
    BundleError::new_err(format!("{e:#}"))
}

/// `json.loads(text)`: dicts keep the key order `Report::to_json` wrote.
fn loads(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (text,))?.unbind())
}

/// `json.dumps(value)` as a serde value; `Err` names what Python's json refused.
fn dumps(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<Result<Value, String>> {
    let json = py.import("json")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("allow_nan", false)?;
    let text = match json.call_method("dumps", (value,), Some(&kwargs)) {
        Ok(t) => t.extract::<String>()?,
        Err(e) => return Ok(Err(format!("not a JSON value: {}", e.value(py)))),
    };
    Ok(serde_json::from_str(&text).map_err(|e| format!("not a JSON value: {e}")))
}

/// Any serialisable value of the report model as plain Python values, through its JSON.
fn to_py<T: serde::Serialize>(py: Python<'_>, v: &T) -> PyResult<Py<PyAny>> {
    let text = serde_json::to_string(v).map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    loads(py, &text)
}

/// A patch as `git apply` reads it: `bytes` as they are, `str` as UTF-8.
fn patch_bytes(patch: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(b) = patch.cast::<PyBytes>() {
        return Ok(b.as_bytes().to_vec());
    }
    if let Ok(s) = patch.cast::<PyString>() {
        return Ok(s.to_cow()?.as_bytes().to_vec());
    }
    Err(PyTypeError::new_err(format!(
        "patch must be str or bytes, not {}",
        patch.get_type().name()?
    )))
}

/// `source=` of `score`: a file name (as the CLI's `--patch` names it) or `{"file", "line"}`.
fn source_arg(source: &Bound<'_, PyAny>) -> PyResult<SourceRef> {
    if let Ok(s) = source.extract::<String>() {
        return Ok(SourceRef { file: s, line: None });
    }
    match source_dict(source) {
        Some(s) => Ok(s),
        None => Err(PyTypeError::new_err(
            "source must be a file name (str) or a dict {\"file\": str, \"line\": int | None}",
        )),
    }
}

fn source_dict(source: &Bound<'_, PyAny>) -> Option<SourceRef> {
    let d = source.cast::<PyDict>().ok()?;
    let file = d.get_item("file").ok()??.extract::<String>().ok()?;
    let line = match d.get_item("line").ok()? {
        None => None,
        Some(l) if l.is_none() => None,
        Some(l) => Some(l.extract::<u32>().ok()?),
    };
    Some(SourceRef { file, line })
}

/// A job for a bundle's scoring thread.
struct Job {
    sub: Submission,
    reply: mpsc::Sender<Result<TaskResult, JobError>>,
}

/// Why a job gave no result.
enum JobError {
    /// The task's files cannot be read (a `BundleError`, as `score_all` treats it).
    Bundle(String),
    /// A refscore bug, or the thread is gone.
    Internal(String),
}

/// The thread `Bundle.score` runs on: the CLI's stack size and limits, one `Scorer` whose parse
/// cache and run reuse serve every call, and the tasks loaded so far.
fn scoring_thread(dir: Arc<BundleDir>, jobs: mpsc::Receiver<Job>) {
    let config =
        || RunConfig { parse_cache_bytes: run::parse_cache_budget(1), ..run::run_config() };
    let mut scorer = Scorer::new(config());
    let mut tasks: HashMap<String, LoadedTask> = HashMap::new();
    for job in jobs {
        let id = job.sub.instance_id.clone();
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| {
            if !tasks.contains_key(&id) {
                let task = dir.load_task(&id).map_err(|e| JobError::Bundle(format!("{e:#}")))?;
                tasks.insert(id.clone(), task);
            }
            let task = tasks
                .get(&id)
                .ok_or_else(|| JobError::Internal(format!("task {id} was not loaded")))?;
            Ok(run::score_one(&mut scorer, task, &job.sub))
        }));
        let reply = match outcome {
            Ok(r) => r,
            Err(_) => {
                // A refscore bug: start from a clean scorer rather than trust its caches.
                scorer = Scorer::new(config());
                Err(JobError::Internal(format!("scoring {id} panicked (a refscore bug)")))
            }
        };
        let _ = job.reply.send(reply);
    }
}

/// A task bundle folder (as written by `refscore import`), opened and hash checked.
#[pyclass(frozen, module = "refscore")]
struct Bundle {
    dir: Arc<BundleDir>,
    /// The sender of the scoring thread `score` uses, started by the first call.
    single: Mutex<Option<mpsc::Sender<Job>>>,
}

impl Bundle {
    fn check_known(&self, instance_id: &str) -> PyResult<()> {
        if self.dir.has_task(instance_id) {
            Ok(())
        } else {
            // The CLI's message for a predictions entry naming a task the bundle lacks.
            Err(InputError::new_err(format!(
                "unknown instance id {instance_id:?}: not a task of the bundle"
            )))
        }
    }

    /// Scores one submission on the bundle's scoring thread, the GIL released while it runs.
    fn score_sub(&self, py: Python<'_>, sub: Submission) -> PyResult<TaskResult> {
        self.check_known(&sub.instance_id)?;
        let (reply, answer) = mpsc::channel();
        let sender = {
            let mut slot =
                self.single.lock().map_err(|_| PyRuntimeError::new_err("bundle lock poisoned"))?;
            match slot.as_ref() {
                Some(s) => s.clone(),
                None => {
                    let (tx, rx) = mpsc::channel();
                    let dir = self.dir.clone();
                    std::thread::Builder::new()
                        .name("refscore-score".into())
                        .stack_size(run::THREAD_STACK)
                        .spawn(move || scoring_thread(dir, rx))
                        .map_err(|e| {
                            PyRuntimeError::new_err(format!("cannot start a scoring thread: {e}"))
                        })?;
                    *slot = Some(tx.clone());
                    tx
                }
            }
        };
        let answer = py.detach(move || {
            let gone = || JobError::Internal("the scoring thread stopped".to_string());
            sender.send(Job { sub, reply }).map_err(|_| gone())?;
            answer.recv().map_err(|_| gone())?
        });
        answer.map_err(|e| match e {
            JobError::Bundle(m) => BundleError::new_err(m),
            JobError::Internal(m) => {
                // Start a new thread next time rather than reuse a broken one.
                if let Ok(mut slot) = self.single.lock() {
                    *slot = None;
                }
                PyRuntimeError::new_err(m)
            }
        })
    }

    /// A submission as `score`'s arguments describe it.
    fn submission(
        &self,
        instance_id: &str,
        patch: &Bound<'_, PyAny>,
        source: Option<&Bound<'_, PyAny>>,
        model_name_or_path: Option<String>,
        instruction_set: Option<&str>,
    ) -> PyResult<Submission> {
        let source = source.map(source_arg).transpose()?;
        let instruction_set = match instruction_set {
            Some(name) => {
                Some(InstructionSet::from_name(&name.to_ascii_lowercase()).ok_or_else(|| {
                    InputError::new_err(format!(
                        "unknown `instruction_set` {name:?} (expected lazy, base or descriptive)"
                    ))
                })?)
            }
            // As the CLI's `--patch FILE`: the path may name the set.
            None => {
                source.as_ref().and_then(|s| scorer::submission::instruction_set_from_path(&s.file))
            }
        };
        Ok(Submission {
            instance_id: instance_id.to_string(),
            model_name_or_path,
            instruction_set,
            patch: patch_bytes(patch)?,
            source: source.unwrap_or(SourceRef { file: String::new(), line: None }),
        })
    }

    /// The files or in-memory entries `score_many` and `plan` take, one `Parsed` per file.
    fn gather(&self, py: Python<'_>, predictions: &Bound<'_, PyAny>) -> PyResult<Vec<Parsed>> {
        if predictions.is_instance_of::<PyString>() || predictions.is_instance_of::<PyDict>() {
            return Err(PyTypeError::new_err(
                "predictions must be an iterable of prediction dicts or of the per-file dicts \
                 read_submissions returns (a path: call refscore.read_submissions first)",
            ));
        }
        let mut groups: Vec<(bool, Parsed)> = Vec::new();
        let mut position = 0u32;
        for item in predictions.try_iter()? {
            let item = item?;
            if let Some(file) = per_file(&item)? {
                groups.push((false, file));
                continue;
            }
            position = position.saturating_add(1);
            let one = plain_entry(py, &item, position)?;
            let file = one
                .submissions
                .first()
                .map(|s| &s.source.file)
                .or_else(|| one.errors.first().map(|e| &e.source.file))
                .cloned()
                .unwrap_or_default();
            // Consecutive plain entries of one file are one file, as the CLI reads it.
            let same = groups.last().is_some_and(|(plain, p)| {
                *plain
                    && p.submissions
                        .first()
                        .map(|s| &s.source.file)
                        .or_else(|| p.errors.first().map(|e| &e.source.file))
                        == Some(&file)
            });
            match groups.last_mut() {
                Some((_, p)) if same => {
                    p.submissions.extend(one.submissions);
                    p.errors.extend(one.errors);
                }
                _ => groups.push((true, one)),
            }
        }
        Ok(groups.into_iter().map(|(_, p)| p).collect())
    }
}

/// A per-file dict of `read_submissions` (`{"file", "submissions", "errors", "warnings"}`) back
/// as the reader's `Parsed`; `None` for anything else.
fn per_file(item: &Bound<'_, PyAny>) -> PyResult<Option<Parsed>> {
    let Ok(d) = item.cast::<PyDict>() else { return Ok(None) };
    let Some(subs) = d.get_item("submissions")? else { return Ok(None) };
    let py = item.py();
    let mut out = Parsed::default();
    let mut position = 0u32;
    for s in subs.try_iter()? {
        position = position.saturating_add(1);
        let one = plain_entry(py, &s?, position)?;
        out.submissions.extend(one.submissions);
        out.errors.extend(one.errors);
    }
    for (key, list) in [("errors", &mut out.errors), ("warnings", &mut out.warnings)] {
        if let Some(entries) = d.get_item(key)? {
            for e in entries.try_iter()? {
                let e = e?;
                let v = dumps(py, &e)?.map_err(|m| InputError::new_err(format!("{key}: {m}")))?;
                let entry: EntryError = serde_json::from_value(v).map_err(|err| {
                    InputError::new_err(format!("{key}: not an entry of a report's {key}: {err}"))
                })?;
                list.push(entry);
            }
        }
    }
    Ok(Some(out))
}

/// One prediction dict (or any value) read as an entry of a predictions file: its `source` if it
/// carries one (as `read_submissions` gives them), else `<predictions>` at its position.
fn plain_entry(py: Python<'_>, item: &Bound<'_, PyAny>, position: u32) -> PyResult<Parsed> {
    let mut source = SourceRef { file: IN_MEMORY.to_string(), line: Some(position) };
    let mut raw_patch: Option<Vec<u8>> = None;
    let mut value = item.clone();
    if let Ok(d) = item.cast::<PyDict>() {
        if let Some(s) = d.get_item("source")? {
            match source_dict(&s) {
                Some(s) => source = s,
                None => {
                    let mut out = Parsed::default();
                    out.errors.push(EntryError {
                        source,
                        instance_id: None,
                        model_name_or_path: None,
                        message: "`source` must be {\"file\": str, \"line\": int or None}".into(),
                    });
                    return Ok(out);
                }
            }
        }
        // A patch as bytes is taken as it is (JSON has no bytes; `git apply` reads bytes).
        if let Some(p) = d.get_item("model_patch")? {
            if let Ok(b) = p.cast::<PyBytes>() {
                raw_patch = Some(b.as_bytes().to_vec());
                let copy = d.copy()?;
                copy.set_item("model_patch", "")?;
                copy.del_item("source").ok();
                value = copy.into_any();
            }
        }
        if raw_patch.is_none() && d.contains("source")? {
            let copy = d.copy()?;
            copy.del_item("source")?;
            value = copy.into_any();
        }
    }
    let v = match dumps(py, &value)? {
        Ok(v) => v,
        Err(message) => {
            let mut out = Parsed::default();
            out.errors.push(EntryError {
                source,
                instance_id: None,
                model_name_or_path: None,
                message,
            });
            return Ok(out);
        }
    };
    let mut parsed = scorer::submission::read_prediction(&v, source);
    if let (Some(bytes), Some(sub)) = (raw_patch, parsed.submissions.first_mut()) {
        sub.patch = bytes;
    }
    Ok(parsed)
}

/// A submission as the plain dict `read_submissions` and `Plan.submissions` give.
fn submission_dict<'py>(py: Python<'py>, s: &Submission) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("instance_id", &s.instance_id)?;
    d.set_item("model_name_or_path", s.model_name_or_path.as_deref())?;
    match std::str::from_utf8(&s.patch) {
        Ok(text) => d.set_item("model_patch", text)?,
        Err(_) => d.set_item("model_patch", PyBytes::new(py, &s.patch))?,
    }
    d.set_item("instruction_set", s.instruction_set.map(|i| i.as_str()))?;
    let src = PyDict::new(py);
    src.set_item("file", &s.source.file)?;
    src.set_item("line", s.source.line)?;
    d.set_item("source", src)?;
    Ok(d)
}

/// `jobs=` as `score_all` takes it (0 = all cores).
fn threads(jobs: Option<i64>) -> PyResult<usize> {
    match jobs {
        None => Ok(0),
        Some(n) if n >= 1 => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        Some(n) => {
            Err(PyValueError::new_err(format!("jobs must be at least 1 (or None), not {n}")))
        }
    }
}

#[pymethods]
impl Bundle {
    /// Opens a bundle folder written by `refscore import`, checking its hash against its files
    /// as `refscore score --tasks` does. Raises `BundleError` with the CLI's message.
    #[staticmethod]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<Bundle> {
        let dir = py.detach(|| BundleDir::open(&path)).map_err(bundle_err)?;
        Ok(Bundle { dir: Arc::new(dir), single: Mutex::new(None) })
    }

    /// The folder as given to `open`.
    #[getter]
    fn path(&self) -> PathBuf {
        self.dir.dir.clone()
    }

    /// The bundle hash every report names.
    #[getter]
    fn hash(&self) -> &str {
        self.dir.hash()
    }

    /// Task ids in the bundle's order.
    #[getter]
    fn tasks(&self) -> Vec<String> {
        self.dir.index.tasks.iter().map(|t| t.id.clone()).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<refscore.Bundle {} ({} tasks, hash {})>",
            self.dir.dir.display(),
            self.dir.index.tasks.len(),
            self.dir.hash()
        )
    }

    /// Scores one patch against one task and returns the report result: the dict
    /// `refscore score --json` prints in `results`, same keys, order and values.
    #[pyo3(signature = (instance_id, patch, *, source=None, model_name_or_path=None, instruction_set=None))]
    fn score(
        &self,
        py: Python<'_>,
        instance_id: &str,
        patch: &Bound<'_, PyAny>,
        source: Option<&Bound<'_, PyAny>>,
        model_name_or_path: Option<String>,
        instruction_set: Option<&str>,
    ) -> PyResult<Py<PyAny>> {
        let sub =
            self.submission(instance_id, patch, source, model_name_or_path, instruction_set)?;
        let no_source = source.is_none();
        let mut result = self.score_sub(py, sub)?;
        if no_source {
            result.source = None;
        }
        // The one serialiser: a report of this one result, its result taken back out.
        let json = Report::new(self.dir.hash(), vec![result], Vec::new()).to_json();
        let report = loads(py, &json)?;
        Ok(report.bind(py).get_item("results")?.get_item(0)?.unbind())
    }

    /// The reward of a patch: 1.0 when the task is resolved, else 0.0; with `partial=True`, the
    /// share of the task's subtests passed (a patch that does not apply passes none).
    #[pyo3(signature = (instance_id, patch, partial=false))]
    fn reward(
        &self,
        py: Python<'_>,
        instance_id: &str,
        patch: &Bound<'_, PyAny>,
        partial: bool,
    ) -> PyResult<f64> {
        let sub = self.submission(instance_id, patch, None, None, None)?;
        let r = self.score_sub(py, sub)?;
        Ok(if partial && r.subtests_total > 0 {
            f64::from(r.subtests_passed) / f64::from(r.subtests_total)
        } else if r.resolved {
            1.0
        } else {
            0.0
        })
    }

    /// Scores many submissions on native threads (`jobs`, default all cores) with the GIL
    /// released, and returns the whole report as `refscore score --predictions` writes it.
    #[pyo3(signature = (predictions, jobs=None))]
    fn score_many(
        &self,
        py: Python<'_>,
        predictions: &Bound<'_, PyAny>,
        jobs: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let threads = threads(jobs)?;
        let parsed = self.gather(py, predictions)?;
        let dir = self.dir.clone();
        let json = py
            .detach(move || {
                let batch = Batch::new(&dir, parsed);
                let scoring =
                    run::score_all(&dir, &batch.submissions, threads, &|| {}, run::Teardown::Free)?;
                Ok::<_, anyhow::Error>(batch.report(dir.hash(), scoring.scored).to_json())
            })
            .map_err(bundle_err)?;
        loads(py, &json)
    }

    /// The steps of `score_many` before scoring, for scoring elsewhere (`refscore.ray`): the
    /// submissions to score, in order, and the report's errors and warnings.
    fn plan(&self, py: Python<'_>, predictions: &Bound<'_, PyAny>) -> PyResult<Plan> {
        let parsed = self.gather(py, predictions)?;
        let batch = Batch::new(&self.dir, parsed);
        Ok(Plan { hash: self.dir.hash().to_string(), batch })
    }
}

/// What `Bundle.plan` found: submissions to score, and how to make the report of their results.
#[pyclass(frozen, module = "refscore")]
struct Plan {
    hash: String,
    batch: Batch,
}

#[pymethods]
impl Plan {
    /// The submissions to score, in report order, as plain dicts (`instance_id`,
    /// `model_name_or_path`, `model_patch`, `instruction_set`, `source`).
    #[getter]
    fn submissions(&self, py: Python<'_>) -> PyResult<Py<PyList>> {
        let list = PyList::empty(py);
        for s in &self.batch.submissions {
            list.append(submission_dict(py, s)?)?;
        }
        Ok(list.unbind())
    }

    /// Trajectory copies of `preds.json` entries left out.
    #[getter]
    fn copies(&self) -> usize {
        self.batch.copies
    }

    fn __len__(&self) -> usize {
        self.batch.submissions.len()
    }

    /// The report JSON, byte for byte as the CLI writes it, of `results` (one result dict per
    /// submission, in order, as `Bundle.score` returns them).
    fn report_json(&self, py: Python<'_>, results: &Bound<'_, PyAny>) -> PyResult<String> {
        let mut scored = Vec::new();
        for r in results.try_iter()? {
            let v = dumps(py, &r?)?.map_err(InputError::new_err)?;
            let r: TaskResult = serde_json::from_value(v)
                .map_err(|e| InputError::new_err(format!("not a report result: {e}")))?;
            scored.push(r);
        }
        if scored.len() != self.batch.submissions.len() {
            return Err(InputError::new_err(format!(
                "{} results for {} submissions",
                scored.len(),
                self.batch.submissions.len()
            )));
        }
        Ok(self.batch.report(&self.hash, scored).to_json())
    }

    /// `report_json` as plain Python values.
    fn report(&self, py: Python<'_>, results: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let json = self.report_json(py, results)?;
        loads(py, &json)
    }
}

/// Reads predictions files, trajectories or folders of them as `refscore score --predictions`
/// does: one dict per file (`file`, `submissions`, `errors`, `warnings`).
#[pyfunction]
fn read_submissions(py: Python<'_>, paths: &Bound<'_, PyAny>) -> PyResult<Py<PyList>> {
    let paths: Vec<PathBuf> = match paths.extract::<PathBuf>() {
        Ok(p) => vec![p],
        Err(_) => paths.extract::<Vec<PathBuf>>().map_err(|_| {
            PyTypeError::new_err("read_submissions takes a path or a list of paths")
        })?,
    };
    let read = py.detach(|| -> anyhow::Result<_> {
        let expanded = inputs::expand(&paths)?;
        let mut files = Vec::new();
        for (name, path) in &expanded.files {
            files.push((name.clone(), inputs::read_file(name, path)?));
        }
        Ok((files, expanded.left_out))
    });
    let (files, left_out) = read.map_err(|e| InputError::new_err(format!("{e:#}")))?;
    let warnings = py.import("warnings")?;
    for (dir, rel, why) in left_out {
        warnings.call_method1("warn", (format!("{}/{rel}: left out: {why}", dir.display()),))?;
    }
    let out = PyList::empty(py);
    for (name, parsed) in files {
        let d = PyDict::new(py);
        d.set_item("file", name)?;
        let subs = PyList::empty(py);
        for s in &parsed.submissions {
            subs.append(submission_dict(py, s)?)?;
        }
        d.set_item("submissions", subs)?;
        d.set_item("errors", to_py(py, &parsed.errors)?)?;
        d.set_item("warnings", to_py(py, &parsed.warnings)?)?;
        out.append(d)?;
    }
    Ok(out.unbind())
}

#[pymodule]
fn _refscore(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Bundle>()?;
    m.add_class::<Plan>()?;
    m.add_function(wrap_pyfunction!(read_submissions, m)?)?;
    m.add("RefscoreError", py.get_type::<RefscoreError>())?;
    m.add("BundleError", py.get_type::<BundleError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
