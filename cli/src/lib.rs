//! The library half of the `cli` crate: what the `refscore` binary and the Python package
//! (`python/`) share, so both read bundles and submissions and score them by one code path
//! (the scorer itself does no I/O).
//!
//! - [`bundle_dir`]: a bundle folder, hash checked, tasks loaded on demand;
//! - [`fsread`]: defensive reads of the files users hand over;
//! - [`inputs`]: prediction and trajectory files and folders read as the CLI reads them, and the
//!   steps between reading and the report (unknown instances, trajectory copies, warnings);
//! - [`run`]: scoring on all cores, results in input order;
//! - [`touch`]: the touch-patch predictions of a bundle (the speed workload of issue 25).

pub mod bundle_dir;
pub mod fsread;
pub mod inputs;
pub mod run;
pub mod touch;
