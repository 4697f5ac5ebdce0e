//! The catalogue of hostile test bodies of issue 22 (classes 1-3: memory, native stack, int/str
//! digit limit). Each case is a unittest file with one hostile method and one ordinary method; it
//! runs in a child process (this test binary re-executed) under a virtual-memory cap
//! (`ulimit -v`, [`MEMORY_CAP_KB`]), so an abort or an OOM shows up as a failed case, not a crashed
//! test binary. Each case asserts the child's exit code, the hostile method's verdict (exception
//! type and message), that the ordinary method of the same run was scored (`pass`, after
//! allocating a quarter of the budget: what the hostile method held is freed), and that the
//! child's peak resident memory (`VmHWM`) stayed under [`PEAK_CAP_KB`]. Set `HOSTILE_ONLY=a,b`
//! to run some cases only.
//! CLI-level cases (classes 4-9) live in `cli/tests/` (`score.rs`, `import.rs`, `report.rs`).

use std::process::Command;

use scorer::tree::Tree;
use scorer::unittest::{RunConfig, Scorer};

/// Address-space cap of each child: the per-run memory budget the cases must stay within.
const MEMORY_CAP_KB: u64 = 3_000_000;

/// The memory budget of each child's run (smaller than the default 1 GiB so the growth cases
/// are quick; the cap above leaves room for the budget's 1.25 sweep margin and the binary).
const HOSTILE_BUDGET: u64 = 256 << 20;

/// Peak resident memory (`VmHWM`) every child must stay under.
const PEAK_CAP_KB: u64 = 1_200_000;

/// `(name, hostile method body, expected exc_type, expected message prefix)`.
const CASES: &[(&str, &str, &str, &str)] = &[
    // Class 1: sizes past the memory budget are MemoryError or the named size limit.
    ("format_width", "'{:>9000000000}'.format(1)", "MemoryError", ""),
    ("fstring_width", "N = 9000000000\n        f'{1:>{N}}'", "MemoryError", ""),
    ("percent_width", "'%3000000000d' % 1", "SizeLimitExceeded", "size limit of"),
    ("bytes_huge", "bytes(10**12)", "MemoryError", ""),
    ("str_repeat", "'a' * 10**12", "MemoryError", ""),
    ("list_repeat", "[0] * 10**12", "MemoryError", ""),
    ("str_doubling", "s = 'x'\n        while True:\n            s += s", "SizeLimitExceeded", "size limit of"),
    // Class 2: deep values; CPython runs the build and the drop, and raises RecursionError
    // for repr and comparison (its tuple hash crashes: here a RecursionError names it).
    ("dict_nest_drop", "x = {}\n        for i in range(300000):\n            x = {'a': x}\n        del x\n        raise ValueError('built')", "ValueError", "built"),
    ("dict_nest_repr", "x = {}\n        for i in range(300000):\n            x = {'a': x}\n        repr(x)", "RecursionError", "maximum recursion depth exceeded while getting the repr of an object"),
    ("dict_nest_compare", "x = {}\n        y = {}\n        for i in range(300000):\n            x = {'a': x}\n            y = {'a': y}\n        x == y", "RecursionError", "maximum recursion depth exceeded in comparison"),
    ("list_nest_compare", "x = []\n        y = []\n        for i in range(300000):\n            x = [x]\n            y = [y]\n        h = {'x': x, 'y': y}\n        del x, y\n        h['x'] == h['y']", "RecursionError", "maximum recursion depth exceeded in comparison"),
    ("tuple_nest_hash", "x = ()\n        for i in range(300000):\n            x = (x,)\n        h = {'x': x}\n        del x\n        hash(h['x'])", "RecursionError", "maximum recursion depth exceeded while hashing a tuple"),
    ("recursion", "def f(n):\n            return f(n + 1)\n        f(0)", "RecursionError", "maximum recursion depth exceeded"),
    // Class 1, the per-run memory budget (the child runs with HOSTILE_BUDGET): growth without
    // end ends with the named budget, not an OOM kill.
    ("list_grow", "l = []\n        while True:\n            l.append('x' * 1000 + str(len(l)))", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("list_of_lists", "l = []\n        while True:\n            l.append([0] * 1000)", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("dict_grow", "d = {}\n        i = 0\n        while True:\n            d[i] = (i,) * 500\n            i += 1", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("set_grow", "s = set()\n        i = 0\n        while True:\n            s.add('y' * 4000 + str(i))\n            i += 1", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("bytes_grow", "l = []\n        while True:\n            l.append(b'x' * 4000 + bytes(len(l) % 7))", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("concat_grow", "parts = []\n        s = 'z' * 5000\n        while True:\n            parts.append(s + str(len(parts)))", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("big_int_grow", "l = []\n        x = 7 ** 20000\n        while True:\n            l.append(x + len(l))", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("list_repeat_budget", "[None] * 90000000", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("list_range_huge", "list(range(10**10))", "MemoryError", ""),
    ("bytes_repeat_huge", "b'x' * 10**10", "MemoryError", ""),
    ("str_repeat_huge", "'x' * 10**10", "MemoryError", ""),
    // What a method freed is credited: this one makes 860 MiB of strings and 290 MiB of lists,
    // at most 90 MiB at a time.
    ("budget_credited", "for i in range(10):\n            s = 'x' * 90000000\n            del s\n        for i in range(4):\n            l = [None] * 3000000\n        raise ValueError('freed')", "ValueError", "freed"),
    // Class 2: deep values whose drop must not recurse (CPython frees them all).
    ("list_nest_drop", "x = []\n        for i in range(300000):\n            x = [x]\n        del x\n        raise ValueError('built')", "ValueError", "built"),
    ("tuple_nest_drop", "x = ()\n        for i in range(300000):\n            x = (x,)\n        del x\n        raise ValueError('built')", "ValueError", "built"),
    ("instance_chain_drop", "class N:\n            pass\n        n = None\n        for i in range(300000):\n            m = N()\n            m.next = n\n            n = m\n        del n, m\n        raise ValueError('built')", "ValueError", "built"),
    ("exception_chain_drop", "e = None\n        for i in range(300000):\n            x = ValueError(i)\n            x.__cause__ = e\n            e = x\n        del e, x\n        raise ValueError('built')", "ValueError", "built"),
    ("exception_chain_raise", "e = None\n        for i in range(300000):\n            x = KeyError(i)\n            x.__context__ = e\n            e = x\n        raise e", "KeyError", "299999"),
    ("generator_nest_drop", "g = iter([1])\n        for i in range(300000):\n            g = (y for y in g)\n        del g\n        raise ValueError('built')", "ValueError", "built"),
    ("generator_nest_next", "g = iter([1])\n        for i in range(300000):\n            g = (y for y in g)\n        next(g)", "RecursionError", "maximum recursion depth exceeded"),
    ("list_nest_repr", "x = []\n        for i in range(300000):\n            x = [x]\n        repr(x)", "RecursionError", "maximum recursion depth exceeded while getting the repr of an object"),
    ("tuple_nest_compare", "x = ()\n        y = ()\n        for i in range(300000):\n            x = (x,)\n            y = (y,)\n        x == y", "RecursionError", "maximum recursion depth exceeded in comparison"),
    // Class 1, values the account missed before (each fails without its charge: the child
    // grows past the address-space cap and aborts): strings built by `os.path` and `ast`, a
    // list grown once and never touched again, instance attribute maps, frames kept by closures.
    ("os_path_grow", "import os\n        p = 'a' * 10000000\n        l = []\n        while True:\n            l.append(os.path.join(p, 'b'))", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("ast_dump_grow", "import ast\n        t = ast.parse(repr('x' * 10000000))\n        l = []\n        while True:\n            l.append(ast.dump(t))", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("list_extend_unseen", "l = []\n        while True:\n            x = []\n            x.extend(range(100000))\n            l.append(x)", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("instance_attrs_grow", "class C:\n            pass\n        l = []\n        while True:\n            o = C()\n            {ATTRS}\n            l.append(o)", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    ("closure_frames_grow", "def mk():\n            if 0:\n                {LOCALS}\n            return lambda: 1\n        l = []\n        while True:\n            l.append(mk())", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    // Function objects and class namespaces are charged too (each fails without its charge:
    // the child grows past the address-space cap and aborts).
    ("function_objects_grow", "l = []\n        while True:\n            l.append(lambda: 1)", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    // A function made in the method holds the method's frame, which holds it: the frame and all
    // it holds outlive the method until the cycle collector frees them when the method ends,
    // so the ordinary method after it (which allocates) is scored as usual.
    ("function_attrs_grow", "l = []\n        while True:\n            def o():\n                pass\n            {ATTRS}\n            l.append(o)", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    // Frames kept by their own closures, 240 KB each, made 20,000 times (4.8 GB in all): the
    // collector frees them while the method runs, as CPython's gc does, so the method goes on.
    ("frame_cycles_churn", "def mk():\n            data = [0] * 10000\n            def f():\n                return data, f\n            return f\n        for i in range(20000):\n            mk()\n        raise ValueError('survived')", "ValueError", "survived"),
    ("class_dicts_grow", "l = []\n        while True:\n            class K:\n                {LOCALS}\n            l.append(K)", "SizeLimitExceeded", "memory budget of 256 MiB exceeded"),
    // Class 2: chains through generator-function calls (run eagerly on the first `next`) and
    // closures drop without recursion, as CPython's do; a deep `next` is a RecursionError.
    ("genfunc_nest_drop", "def gen(it):\n            yield from it\n        g = iter([1])\n        for i in range(300000):\n            g = gen(g)\n        del g\n        raise ValueError('built')", "ValueError", "built"),
    ("genfunc_nest_next", "def gen(it):\n            yield from it\n        g = iter([1])\n        for i in range(3000):\n            g = gen(g)\n        next(g)", "RecursionError", "maximum recursion depth exceeded"),
    ("closure_chain_drop", "f = None\n        for i in range(300000):\n            f = (lambda g: (lambda: g))(f)\n        del f\n        raise ValueError('built')", "ValueError", "built"),
    // Class 3: CPython's int/str digit limit.
    ("int_to_str", "str(10 ** 5000)", "ValueError", "Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit"),
    ("str_to_int", "int('1' * 5000)", "ValueError", "Exceeds the limit (4300 digits) for integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase the limit"),
    ("fstring_int", "f'{10 ** 4300:,}'", "ValueError", "Exceeds the limit (4300 digits)"),
    ("raised_limit", "import sys\n        sys.set_int_max_str_digits(0)\n        assert len(str(10 ** 5000)) == 5001\n        sys.set_int_max_str_digits(640)\n        '%d' % 10 ** 640", "ValueError", "Exceeds the limit (640 digits)"),
];

/// A case's test file. `{LOCALS}` in a body stands for `a0 = a1 = ... = a999 = 0` (a frame
/// with a thousand slots), `{ATTRS}` for `o.a0 = ... = o.a999 = None` (a thousand attributes).
fn case_source(body: &str) -> String {
    let names = |f: &dyn Fn(usize) -> String| (0..1000).map(f).collect::<Vec<_>>().join(" = ");
    let body = body
        .replace("{LOCALS}", &(names(&|i| format!("a{i}")) + " = 0"))
        .replace("{ATTRS}", &(names(&|i| format!("o.a{i}")) + " = None"));
    format!(
        "import unittest\n\n\nclass T(unittest.TestCase):\n    def test_hostile(self):\n        {body}\n\n    def test_ordinary(self):\n        self.assertEqual(sum(range(10)), 45)\n        self.assertEqual(len([0] * 3000000), 3000000)\n"
    )
}

/// The child: runs the case named by `HOSTILE_CASE` and prints its outcomes.
#[test]
fn hostile_child() {
    let Ok(name) = std::env::var("HOSTILE_CASE") else { return };
    let Some((_, body, _, _)) = CASES.iter().find(|c| c.0 == name) else {
        panic!("unknown case {name}")
    };
    let src = case_source(body);
    let mut scorer =
        Scorer::new(RunConfig { memory_budget: HOSTILE_BUDGET, ..RunConfig::default() });
    let out = scorer.run_test_file(&Tree::new(), "test_hostile.py", &src);
    for o in out {
        println!("OUTCOME {}", serde_json::to_string(&o).expect("json"));
    }
    // Peak resident memory of the child, for the parent's cap (Linux only; elsewhere 0).
    let peak = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let l = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            l.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .unwrap_or(0);
    println!("PEAK_KB {peak}");
}

#[test]
fn hostile_catalogue() {
    let exe = std::env::current_exe().expect("test binary");
    // The child's test name in this binary: its module path below the crate.
    let child = module_path!().split_once("::").map_or(String::new(), |(_, m)| format!("{m}::"))
        + "hostile_child";
    let mut failures = Vec::new();
    let mut peaks = Vec::new();
    let only = std::env::var("HOSTILE_ONLY").ok();
    for (name, _, exc, msg) in CASES {
        if only.as_deref().is_some_and(|o| !o.split(',').any(|x| x == *name)) {
            continue;
        }
        let out = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {MEMORY_CAP_KB}; exec \"$0\" {child} --exact --nocapture --test-threads=1"
            ))
            .arg(&exe)
            .env("HOSTILE_CASE", name)
            .output()
            .expect("spawn child");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let outcomes: Vec<serde_json::Value> = stdout
            .lines()
            .filter_map(|l| l.split_once("OUTCOME ").map(|(_, j)| j))
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let peak: u64 = stdout
            .lines()
            .find_map(|l| l.strip_prefix("PEAK_KB ")?.trim().parse().ok())
            .unwrap_or(u64::MAX);
        peaks.push((peak, *name));
        let find = |id: &str| outcomes.iter().find(|o| o["id"] == id).cloned();
        let hostile = find("T.test_hostile");
        let ordinary = find("T.test_ordinary");
        let ok = out.status.code() == Some(0)
            && hostile.as_ref().is_some_and(|h| {
                h["status"] == "error"
                    && h["exc_type"] == *exc
                    && h["message"].as_str().is_some_and(|m| m.starts_with(msg))
            })
            && ordinary.as_ref().is_some_and(|o| o["status"] == "pass")
            && peak < PEAK_CAP_KB;
        if !ok {
            failures.push(format!(
                "{name}: exit {:?}, peak {peak} KB, hostile {hostile:?}, ordinary {ordinary:?}\n{}",
                out.status.code(),
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .rev()
                    .take(4)
                    .collect::<Vec<_>>()
                    .join(" / ")
            ));
        }
    }
    peaks.sort();
    eprintln!(
        "{} hostile cases, {} failed; peak resident memory (KB) of the largest: {:?}",
        CASES.len(),
        failures.len(),
        peaks.iter().rev().take(5).collect::<Vec<_>>()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
