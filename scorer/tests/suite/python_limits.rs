//! Deep and large inputs: CPython's limits are enforced before rustpython sees the text, and
//! nothing overflows the stack of an ordinary test thread (2 MiB) on the way.

use scorer::python::{parse_tree, ErrorKind};

/// Runs `f` on a thread with `stack` bytes of stack.
fn on_stack<T: Send + 'static>(stack: usize, f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(f).expect("spawn").join().expect("no panic")
}

/// Parses on an ordinary 2 MiB thread: for input refused by the pre-scan, and shallow input.
fn kind_of(src: String) -> Option<ErrorKind> {
    on_stack(2 << 20, move || parse_tree(&src, "<unknown>").err().map(|e| e.kind))
}

/// Parses a tree close to CPython's depth limit. Validation, conversion and dump recurse once
/// per tree level; unoptimised (debug) frames are several KiB, optimised ones a few hundred
/// bytes, so this uses a large stack (the wasm build needs a few MiB of stack for such input).
fn kind_of_deep(src: String) -> Option<ErrorKind> {
    on_stack(256 << 20, move || parse_tree(&src, "<unknown>").err().map(|e| e.kind))
}

#[test]
fn huge_inputs_are_refused_before_parsing() {
    // Far beyond what CPython accepts: rejected by the pre-scan, never parsed.
    assert_eq!(kind_of(format!("x = {}1\n", "-".repeat(100_000))), Some(ErrorKind::MemoryError));
    assert_eq!(
        kind_of(format!("x = a{}\n", "+a".repeat(100_000))),
        Some(ErrorKind::RecursionError)
    );
    assert_eq!(
        kind_of(format!("x = a{}\n", ".b".repeat(100_000))),
        Some(ErrorKind::RecursionError)
    );
    assert_eq!(
        kind_of(format!("x = f{}\n", "()".repeat(100_000))),
        Some(ErrorKind::RecursionError)
    );
    assert_eq!(
        kind_of(format!("x = {}1{}\n", "[".repeat(100_000), "]".repeat(100_000))),
        Some(ErrorKind::SyntaxError)
    );
    let mut deep = String::new();
    for i in 0..1000 {
        deep.push_str(&" ".repeat(i));
        deep.push_str("if x:\n");
    }
    deep.push_str(&" ".repeat(1000));
    deep.push_str("pass\n");
    assert_eq!(kind_of(deep), Some(ErrorKind::IndentationError));
}

#[test]
fn trees_around_cpythons_depth_limit() {
    // CPython accepts these (depth < ~2940).
    assert_eq!(kind_of_deep(format!("x = a{}\n", "+a".repeat(2800))), None);
    assert_eq!(kind_of_deep(format!("x = a{}\n", ".b".repeat(2800))), None);
    assert_eq!(kind_of_deep(format!("x = {}1\n", "-".repeat(2800))), None);
    assert_eq!(kind_of_deep(format!("x = {}1{}\n", "[".repeat(199), "]".repeat(199))), None);
    // And just over it: RecursionError, as in CPython.
    assert_eq!(
        kind_of_deep(format!("x = a{}\n", "+a".repeat(3100))),
        Some(ErrorKind::RecursionError)
    );
    let elifs: String = (0..3500).map(|i| format!("elif x == {i}:\n    pass\n")).collect();
    assert_eq!(kind_of_deep(format!("if x:\n    pass\n{elifs}")), Some(ErrorKind::RecursionError));
}

#[test]
fn long_flat_inputs_are_fine() {
    // Wide is not deep: a 50k-element literal and a 20k-statement file.
    let wide =
        format!("x = [{}]\n", (0..50_000).map(|i| format!("-{i}")).collect::<Vec<_>>().join(", "));
    assert_eq!(kind_of(wide), None);
    let many: String = (0..20_000).map(|i| format!("v{i} = a.b.c(d, e) + {i}\n")).collect();
    assert_eq!(kind_of(many), None);
    let chain = format!("x = a {}\n", "and a ".repeat(20_000));
    assert_eq!(kind_of(chain), None);
}
