//! Gives the worker's wasm an 8 MiB stack instead of wasm-ld's 1 MiB default: the parser and
//! interpreter need about 0.75 MiB at CPython's nesting limits on top of the interpreter's own
//! frames, and a stack overflow in wasm aborts the whole module.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-bins=-zstack-size=8388608");
    }
}
