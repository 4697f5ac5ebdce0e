//! Writes the names table file the scoring worker loads on demand (`unicode-names.bin` of the
//! site): `unicode-names-table OUT`. Run by `scripts/build-site.sh`.

#![allow(clippy::print_stderr, reason = "a command line tool reports its errors on stderr")]

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: unicode-names-table OUT");
        return ExitCode::from(2);
    };
    match std::fs::write(&out, unicode_names2::table_file()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}: {e}", std::path::Path::new(&out).display());
            ExitCode::FAILURE
        }
    }
}
