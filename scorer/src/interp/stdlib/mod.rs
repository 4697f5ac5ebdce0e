//! The standard-library modules the official tests import, one file per module, each built over
//! the interpreter's values: [`ast`], [`os`] (with `os.path`, `stat`, `hashlib`, `sys`, `open`
//! and file objects), [`json`] and [`re`]; [`classdict`] holds `vars()` / `__dict__` of classes
//! and instances. `unittest` is the harness's and lives in
//! [`crate::unittest`]; `import` maps names to these in `builtins/imports.rs`.

pub(crate) mod ast;
pub(crate) mod classdict;
pub(crate) mod json;
pub(crate) mod os;
pub(crate) mod re;
pub(crate) mod sre;
pub(crate) mod statres;
