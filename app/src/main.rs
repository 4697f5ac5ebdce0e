//! Entry point of the UI bundle (the worker is the `worker` crate's bin).

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::app::App);
}
