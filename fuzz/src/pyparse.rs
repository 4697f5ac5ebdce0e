//! The Python parse facade (`decode_source` + `parse_tree`, what `ast.parse(bytes)` answers),
//! differential against CPython 3.11: the same accept or reject for every input. Also the fast
//! path's invariant (ARCHITECTURE.md): it answers only sources CPython accepts, and then with the
//! reference pipeline's tree. CPython runs as one long-lived `python3` process that reads
//! length-prefixed sources from stdin and answers one line each.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};

use scorer::python::{decode_source, node, parse_tree, parse_tree_fast, parse_tree_reference};

/// The checker: `ok`, or `err <class>` (SyntaxError and its subclasses, and what `ast.parse`
/// raises besides: ValueError for NUL bytes, RecursionError/MemoryError for deep nesting).
const CHECKER: &str = r#"
import ast, sys, warnings
warnings.simplefilter("ignore")
inp, out = sys.stdin.buffer, sys.stdout
while True:
    head = inp.read(4)
    if len(head) < 4:
        break
    data = inp.read(int.from_bytes(head, "big"))
    try:
        ast.parse(data)
        out.write("ok\n")
    except (SyntaxError, ValueError, RecursionError, MemoryError, UnicodeError) as e:
        out.write("err %s\n" % type(e).__name__)
    out.flush()
"#;

struct Python {
    exe: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Python {
    fn start(exe: &str) -> Option<Python> {
        let mut child = Command::new(exe)
            .arg("-c")
            .arg(CHECKER)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let stdin = child.stdin.take()?;
        let stdout = BufReader::new(child.stdout.take()?);
        Some(Python { exe: exe.to_string(), child, stdin, stdout })
    }

    /// CPython's answer: `Some(Ok(()))` accepted, `Some(Err(class))` rejected, `None` when the
    /// checker died (it is restarted for the next input).
    fn check(&mut self, data: &[u8]) -> Option<Result<(), String>> {
        let len = u32::try_from(data.len()).ok()?.to_be_bytes();
        self.stdin.write_all(&len).ok()?;
        self.stdin.write_all(data).ok()?;
        self.stdin.flush().ok()?;
        let mut line = String::new();
        self.stdout.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line == "ok" {
            Some(Ok(()))
        } else {
            line.strip_prefix("err ").map(|c| Err(c.to_string()))
        }
    }
}

impl Drop for Python {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The checker process; `None` inside when python3 is missing or not 3.11.
fn python() -> &'static Mutex<Option<Python>> {
    static PY: OnceLock<Mutex<Option<Python>>> = OnceLock::new();
    PY.get_or_init(|| {
        // The interpreter's own path: a version manager's `python3` shim costs a second a start.
        let exe = Command::new("python3")
            .args([
                "-c",
                "import sys; print(sys.executable if sys.version_info[:2] == (3, 11) else '')",
            ])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_default();
        if exe.is_empty() {
            eprintln!("fuzz pyparse: python3 3.11 not found, comparing with CPython skipped");
            return Mutex::new(None);
        }
        Mutex::new(Python::start(&exe))
    })
}

/// The target.
pub fn fuzz(data: &[u8]) {
    let ours = decode_source(data).and_then(|src| {
        // The fast path answers only valid sources, and with the reference's tree.
        if let Some(fast) = parse_tree_fast(&src) {
            let reference = parse_tree_reference(&src, "<unknown>")
                .map(|r| node::dump(&r, true, true, None))
                .map_err(|e| e.msg);
            assert_eq!(
                Ok(node::dump(&fast, true, true, None)),
                reference,
                "the fast path's tree differs from the reference's"
            );
        }
        parse_tree(&src, "<unknown>")
    });
    let mut guard = python().lock().unwrap_or_else(|e| e.into_inner());
    let Some(py) = guard.as_mut() else { return };
    let Some(cpython) = py.check(data) else {
        let exe = py.exe.clone();
        *guard = Python::start(&exe);
        return;
    };
    match (&ours, &cpython) {
        (Ok(_), Ok(())) | (Err(_), Err(_)) => {}
        (Ok(_), Err(class)) => panic!("CPython 3.11 raises {class}, refscore accepts"),
        (Err(e), Ok(())) => panic!(
            "CPython 3.11 accepts, refscore raises {}: {} (line {})",
            e.kind.name(),
            e.msg,
            e.lineno
        ),
    }
}
