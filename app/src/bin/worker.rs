//! Entry point of the scoring Web Worker: registers [`app::worker::ScoreWorker`].

use gloo_worker::Registrable;

fn main() {
    console_error_panic_hook::set_once();
    app::worker::ScoreWorker::registrar().register();
}
