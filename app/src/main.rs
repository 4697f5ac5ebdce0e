//! Entry point of the UI bundle (the worker is the `worker` crate's bin).

/// talc instead of Rust's default wasm allocator (dlmalloc): the interpreter allocates many small
/// objects, and talc is faster at that and smaller; small blocks are recycled by size class in
/// front of it ([`small_alloc`]).
#[cfg(all(not(target_feature = "atomics"), target_family = "wasm"))]
#[global_allocator]
static ALLOC: small_alloc::SmallAlloc<talc::wasm::WasmDynamicTalc> =
    small_alloc::SmallAlloc::new(talc::wasm::new_wasm_dynamic_allocator());

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::app::App);
}
