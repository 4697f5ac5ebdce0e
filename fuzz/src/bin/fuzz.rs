//! The libFuzzer driver: one binary for every target, chosen by `FUZZ_TARGET` (built by
//! `fuzz/run.sh`; see `fuzz/README.md`).

#![no_main]

use std::sync::OnceLock;

fn chosen() -> fuzz::Target {
    static T: OnceLock<fuzz::Target> = OnceLock::new();
    *T.get_or_init(|| {
        let name = std::env::var("FUZZ_TARGET").unwrap_or_default();
        fuzz::target(&name).unwrap_or_else(|| {
            let names: Vec<&str> = fuzz::TARGETS.iter().map(|(n, _)| *n).collect();
            eprintln!("set FUZZ_TARGET to one of {names:?}");
            std::process::exit(2)
        })
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    fuzz::run(chosen(), data);
});
