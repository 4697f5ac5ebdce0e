//! Scoring many submissions on all cores. Submissions are grouped by task, so a worker loads a
//! task's tree once and its `Scorer` parse cache serves every submission of that task; results
//! come back in input order whatever the thread timing.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::{anyhow, Result};
use scorer::report::TaskResult;
use scorer::submission::{evaluate_submission, Submission};
use scorer::unittest::{RunConfig, Scorer};

use crate::bundle_dir::{BundleDir, LoadedTask};

/// Native stack of a scoring thread. Python recursion is bounded by `max_recursion` (CPython's
/// 1000) and the interpreter's stack guard; a big stack lets the guard's budget be generous, so
/// deep recursion ends in CPython's RecursionError rather than a crash.
pub const THREAD_STACK: usize = 256 << 20;

/// The interpreter's limits for a scoring thread: half the thread's stack for Python frames,
/// the rest for the parser and Rust frames around the interpreter.
pub fn run_config() -> RunConfig {
    RunConfig { stack_budget: THREAD_STACK / 2, ..RunConfig::default() }
}

/// The parse-cache budget of each of `threads` scoring threads: a quarter of the machine's memory
/// (`MemTotal` of /proc/meminfo; 8 GiB where it cannot be read) shared between them, at least
/// 64 MiB a thread. `refscore score --help` states this rule.
pub fn parse_cache_budget(threads: usize) -> usize {
    let total = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            let line = t.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib.saturating_mul(1024))
        })
        .unwrap_or(8 << 30);
    let per_thread = total / 4 / threads.max(1) as u64;
    usize::try_from(per_thread).unwrap_or(usize::MAX).max(64 << 20)
}

/// The outcome of one submission (a patch git refuses is a `failed` result too).
pub type Scored = TaskResult;

/// What [`score_all`] did.
pub struct Scoring {
    /// One entry per submission, in input order.
    pub scored: Vec<Scored>,
    /// Test runs answered from an earlier run of the same test file whose every file-system
    /// answer the new tree gave again ([`Scorer`]'s run reuse), instead of being interpreted.
    pub reused_runs: usize,
    /// Test methods of interpreted runs answered from an earlier run ([`Scorer`]'s method reuse).
    pub reused_methods: usize,
}

/// One submission against its loaded task (a combined task's constituents each run on the
/// patched tree), on the calling thread: it must be a thread with [`THREAD_STACK`] of stack for
/// [`run_config`]'s limits.
pub fn score_one(scorer: &mut Scorer, task: &LoadedTask, sub: &Submission) -> Scored {
    match task.data.combined {
        Some(_) => scorer::combine::evaluate_submission(scorer, &task.data, &task.base, sub),
        None => evaluate_submission(scorer, &task.base, &task.data, sub),
    }
}

/// What becomes of the scoring threads' caches (every parsed tree, remembered runs) when
/// [`score_all`] ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Teardown {
    /// Freed: the caller lives on (the Python package).
    Free,
    /// Left to the operating system: the caller exits right after (the CLI). Freeing a run's
    /// parsed trees node by node, long after they were made and cold in the cache, took ~5% of a
    /// touch run's time; clang's driver skips its final frees (`-disable-free`) for the same reason.
    AtExit,
}

/// Scores `subs` against `bundle` with `threads` workers (0 = all cores). `tick` is called once
/// per submission scored (progress). A task the bundle cannot load (corrupt bundle) is an
/// `Err`: that is unreadable input, not an entry.
pub fn score_all(
    bundle: &BundleDir,
    subs: &[Submission],
    threads: usize,
    tick: &(dyn Fn() + Sync),
    teardown: Teardown,
) -> Result<Scoring> {
    // Groups in order of first appearance; the biggest first so the tail of the run stays busy.
    let mut groups: Vec<(&str, Vec<usize>)> = Vec::new();
    for (i, s) in subs.iter().enumerate() {
        match groups.iter_mut().find(|(id, _)| *id == s.instance_id) {
            Some((_, v)) => v.push(i),
            None => groups.push((s.instance_id.as_str(), vec![i])),
        }
    }
    groups.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    }
    .clamp(1, groups.len().max(1));

    let slots: Mutex<Vec<Option<Scored>>> = Mutex::new(vec![None; subs.len()]);
    let fatal: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let reused = AtomicUsize::new(0);
    let reused_methods = AtomicUsize::new(0);
    let cache_budget = parse_cache_budget(threads);
    let worker = || {
        let mut scorer = Scorer::new(RunConfig { parse_cache_bytes: cache_budget, ..run_config() });
        loop {
            let g = next.fetch_add(1, Ordering::Relaxed);
            let Some((id, members)) = groups.get(g) else { break };
            let task = match bundle.load_task(id) {
                Ok(t) => t,
                Err(e) => {
                    if let Ok(mut f) = fatal.lock() {
                        f.push(format!("{e:#}"));
                    }
                    members.iter().for_each(|_| tick());
                    continue;
                }
            };
            for &i in members {
                let r = score_one(&mut scorer, &task, &subs[i]);
                if let Ok(mut s) = slots.lock() {
                    s[i] = Some(r);
                }
                tick();
            }
        }
        reused.fetch_add(scorer.reused_runs(), Ordering::Relaxed);
        reused_methods.fetch_add(scorer.reused_methods(), Ordering::Relaxed);
        if teardown == Teardown::AtExit {
            std::mem::forget(scorer);
        }
    };
    std::thread::scope(|scope| -> Result<()> {
        let mut handles = Vec::new();
        for n in 0..threads {
            let h = std::thread::Builder::new()
                .name(format!("score-{n}"))
                .stack_size(THREAD_STACK)
                .spawn_scoped(scope, worker)
                .map_err(|e| anyhow!("cannot start a scoring thread: {e}"))?;
            handles.push(h);
        }
        for h in handles {
            h.join().map_err(|_| anyhow!("a scoring thread panicked (a refscore bug)"))?;
        }
        Ok(())
    })?;
    let fatal = fatal.into_inner().unwrap_or_default();
    if let Some(first) = fatal.into_iter().min() {
        return Err(anyhow!(first));
    }
    let slots = slots.into_inner().map_err(|_| anyhow!("a scoring thread panicked"))?;
    let scored = slots
        .into_iter()
        .enumerate()
        .map(|(i, s)| s.ok_or_else(|| anyhow!("submission {i} was not scored (a refscore bug)")))
        .collect::<Result<_>>()?;
    Ok(Scoring {
        scored,
        reused_runs: reused.into_inner(),
        reused_methods: reused_methods.into_inner(),
    })
}
