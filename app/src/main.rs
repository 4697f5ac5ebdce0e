//! Entry point of the UI bundle (the worker has its own, `src/bin/worker.rs`).

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::app::App);
}
