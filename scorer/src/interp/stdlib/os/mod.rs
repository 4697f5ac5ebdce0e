//! `os`, `os.path`, `open`, `hashlib`, `json` and `sys` over the in-memory tree.
//!
//! The test runs with cwd = `<root>/refactorbench_eval` (which holds the test file itself); relative
//! paths resolve component by component as the kernel does, following symbolic links (mode `120000`
//! entries, whose content is the target) the way Linux does. Paths above the root, absolute paths
//! and absolute link targets do not exist: nothing outside the repository is visible.
//!
//! This file holds the module objects and their functions; `resolve.rs` path resolution over the
//! tree and its recording accessors (the interpreter's only way to the tree); `path.rs` the
//! string-only `os.path` helpers; `io.rs` `open` and file objects.

use std::collections::BTreeSet;
use std::rc::Rc;

use crate::interp::builtins::Sig;
use crate::interp::ExcKind;
use crate::tree::{FileMode, RepoPath, EVAL_DIR};

use crate::interp::eval::Kwargs;
use crate::interp::fmt::{str_repr, type_name};
use crate::interp::value::*;
use crate::interp::{Interp, PyResult, Value};

mod io;
mod path;
mod resolve;

pub(crate) use resolve::Resolved;
use resolve::{Node, ROOT};

use path::{abspath, basename, cwd, dirname, posix_join, posix_normpath, relpath, splitext};

/// The repository paths one test run touched, relative to the repository root (the root itself is
/// `""`). Recorded only when asked for ([`Interp::access`] is `Some`), so an ordinary run pays
/// nothing. The importer uses it to carry every file a test reads through a path it computes at
/// run time, which no scan of the source can see.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileAccess {
    /// Files whose bytes the run needed: `open` (in any mode, read or not) and
    /// `os.path.getsize` (answered from the bytes). Only files of the tree are listed, by the path
    /// they resolved to (a file read through a link is listed at its target; the links themselves
    /// are not: manifests carry every link's target).
    pub read: BTreeSet<String>,
    /// Every path the run resolved, existing or not: `os.path.exists/lexists/isfile/isdir/getsize`,
    /// `os.listdir`, `os.walk`'s top and `open` (so `read` is a subset of it). Paths that lead out
    /// of the repository are left out.
    pub probed: BTreeSet<String>,
    /// Folders whose entries the run listed (`os.listdir`, and every folder `os.walk` visits).
    pub listed: BTreeSet<String>,
}

impl FileAccess {
    /// Whether the run touched no path at all.
    pub fn is_empty(&self) -> bool {
        self.read.is_empty() && self.probed.is_empty() && self.listed.is_empty()
    }
}

/// File type bits of `st_mode` (`stat.S_IFDIR`, `S_IFREG`, `S_IFLNK`).
const S_IFDIR: i64 = 0o040000;
const S_IFREG: i64 = 0o100000;
const S_IFLNK: i64 = 0o120000;

/// The builtin name of a `stat` module function.
fn stat_fn(n: &str) -> &'static str {
    match n {
        "S_ISDIR" => "stat.S_ISDIR",
        "S_ISREG" => "stat.S_ISREG",
        "S_ISLNK" => "stat.S_ISLNK",
        "S_IFMT" => "stat.S_IFMT",
        _ => "stat.S_IMODE",
    }
}

/// `os.stat_result`: what `os.stat` returns (fields and tuple protocol: `statres.rs`).
fn stat_result_class<'a>() -> Rc<Class<'a>> {
    Class::builtin("stat_result", "os", super::statres::class_dict(), ClassKind::Native)
}

impl<'a> Interp<'a> {
    pub fn make_os_module(&mut self, name: &str) -> PyResult<'a, Value<'a>> {
        Ok(match name {
            "os.path" => {
                let mut e: Vec<(&str, Value<'a>)> = Vec::new();
                for (n, f) in [
                    ("exists", "os.path.exists"),
                    ("lexists", "os.path.lexists"),
                    ("isfile", "os.path.isfile"),
                    ("isdir", "os.path.isdir"),
                    ("islink", "os.path.islink"),
                    ("join", "os.path.join"),
                    ("basename", "os.path.basename"),
                    ("dirname", "os.path.dirname"),
                    ("split", "os.path.split"),
                    ("splitext", "os.path.splitext"),
                    ("normpath", "os.path.normpath"),
                    ("getsize", "os.path.getsize"),
                    ("isabs", "os.path.isabs"),
                    ("abspath", "os.path.abspath"),
                    ("realpath", "os.path.realpath"),
                    ("relpath", "os.path.relpath"),
                    ("samestat", "os.path.samestat"),
                    ("samefile", "os.path.samefile"),
                ] {
                    e.push((n, Self::builtin_fn(f)));
                }
                e.push(("sep", Value::str("/")));
                self.new_module("posixpath", e)
            }
            "os" => self.new_module(
                "os",
                vec![
                    ("listdir", Self::builtin_fn("os.listdir")),
                    ("walk", Self::builtin_fn("os.walk")),
                    ("getcwd", Self::builtin_fn("os.getcwd")),
                    ("stat", Self::builtin_fn("os.stat")),
                    ("lstat", Self::builtin_fn("os.lstat")),
                    ("stat_result", Value::Class(stat_result_class())),
                    ("readlink", Self::builtin_fn("os.readlink")),
                    ("sep", Value::str("/")),
                    ("curdir", Value::str(".")),
                    ("pardir", Value::str("..")),
                    ("linesep", Value::str("\n")),
                    ("name", Value::str("posix")),
                ],
            ),
            "stat" => {
                let mut e: Vec<(&str, Value<'a>)> = Vec::new();
                for n in ["S_ISDIR", "S_ISREG", "S_ISLNK", "S_IFMT", "S_IMODE"] {
                    e.push((n, Value::Builtin(Rc::new(Builtin { name: stat_fn(n), this: None }))));
                }
                for (n, v) in [
                    ("S_IFDIR", S_IFDIR),
                    ("S_IFREG", S_IFREG),
                    ("S_IFLNK", S_IFLNK),
                    ("ST_MODE", 0),
                    ("ST_INO", 1),
                    ("ST_DEV", 2),
                    ("ST_NLINK", 3),
                    ("ST_UID", 4),
                    ("ST_GID", 5),
                    ("ST_SIZE", 6),
                    ("ST_ATIME", 7),
                    ("ST_MTIME", 8),
                    ("ST_CTIME", 9),
                ] {
                    e.push((n, Value::Int(v)));
                }
                self.new_module("stat", e)
            }
            "hashlib" => self.new_module(
                "hashlib",
                vec![
                    ("sha256", Self::builtin_fn("hashlib.sha256")),
                    ("md5", Self::builtin_fn("hashlib.md5")),
                    ("sha1", Self::builtin_fn("hashlib.sha1")),
                ],
            ),
            "json" => {
                let mut entries = vec![
                    ("loads", Self::builtin_fn("json.loads")),
                    ("load", Self::builtin_fn("json.load")),
                    ("dumps", Self::builtin_fn("json.dumps")),
                ];
                entries.push((
                    "JSONDecodeError",
                    Value::Class(self.exc_class(ExcKind::JSONDecodeError)),
                ));
                self.new_module("json", entries)
            }
            _ => self.new_module(
                "sys",
                vec![
                    (
                        "version_info",
                        Value::tuple(vec![
                            Value::Int(3),
                            Value::Int(11),
                            Value::Int(7),
                            Value::str("final"),
                            Value::Int(0),
                        ]),
                    ),
                    ("version", Value::str("3.11.7 (main) [GCC 12.2.0]")),
                    ("platform", Value::str("linux")),
                    ("maxsize", Value::Int(i64::MAX)),
                    ("path", self.new_list(vec![])),
                    ("argv", self.new_list(vec![])),
                    ("exit", Self::builtin_fn("sys.exit")),
                    ("int_info", self.int_info()),
                    ("set_int_max_str_digits", Self::builtin_fn("sys.set_int_max_str_digits")),
                    ("get_int_max_str_digits", Self::builtin_fn("sys.get_int_max_str_digits")),
                ],
            ),
        })
    }

    pub fn os_function(
        &mut self,
        name: &str,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Value<'a>> {
        let a0 = args.first().cloned().unwrap_or(Value::None);
        match name {
            "os.path.exists" | "os.path.lexists" | "os.path.isfile" | "os.path.isdir"
            | "os.path.islink" => {
                let fname = name.rsplit('.').next().unwrap_or("exists");
                let p = match &a0 {
                    Value::Str(s) => s.clone(),
                    Value::Bytes(b) => Rc::from(String::from_utf8_lossy(b).as_ref()),
                    Value::Int(_) | Value::Bool(_) if fname == "exists" => {
                        return Ok(Value::Bool(false))
                    }
                    // `os.lstat` takes no file descriptor, so its message names no integer.
                    other if matches!(fname, "lexists" | "islink") => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                                "lstat: path should be string, bytes or os.PathLike, not {}",
                                type_name(other)
                            ),
                        ))
                    }
                    other => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                            "stat: path should be string, bytes, os.PathLike or integer, not {}",
                            type_name(other)
                        ),
                        ))
                    }
                };
                if p.contains('\0') {
                    return Ok(Value::Bool(false));
                }
                // `exists`, `isfile` and `isdir` follow links (`os.stat`); `lexists` and
                // `islink` look at the last component itself (`os.lstat`).
                let r = if matches!(fname, "lexists" | "islink") {
                    self.resolve_no_follow(&p)?
                } else {
                    self.resolve(&p)?
                };
                Ok(Value::Bool(match fname {
                    "exists" => matches!(r, Resolved::File(_) | Resolved::Dir(_)),
                    "lexists" => {
                        matches!(r, Resolved::File(_) | Resolved::Dir(_) | Resolved::Link(..))
                    }
                    "isfile" => matches!(r, Resolved::File(_)),
                    "isdir" => matches!(r, Resolved::Dir(_)),
                    _ => matches!(r, Resolved::Link(..)),
                }))
            }
            "os.path.join" => {
                let mut parts = Vec::new();
                for a in &args {
                    match a {
                        Value::Str(s) => parts.push(s.clone()),
                        other => {
                            return Err(self.err(
                                ExcKind::TypeError,
                                format!("join() argument must be str, bytes, or os.PathLike object, not '{}'", type_name(other)),
                            ))
                        }
                    }
                }
                if parts.is_empty() {
                    return Err(self.err(
                        ExcKind::TypeError,
                        "join() missing 1 required positional argument: 'a'",
                    ));
                }
                Ok(Value::str_rc(Rc::from(posix_join(&parts))))
            }
            "os.path.basename" => {
                let p = self.path_arg(&a0, "basename")?;
                Ok(Value::str(basename(&p)))
            }
            "os.path.dirname" => {
                let p = self.path_arg(&a0, "dirname")?;
                Ok(Value::str_rc(Rc::from(dirname(&p))))
            }
            "os.path.split" => {
                let p = self.path_arg(&a0, "split")?;
                Ok(Value::tuple(vec![
                    Value::str_rc(Rc::from(dirname(&p))),
                    Value::str(basename(&p)),
                ]))
            }
            "os.path.splitext" => {
                let p = self.path_arg(&a0, "splitext")?;
                let (a, b) = splitext(&p);
                Ok(Value::tuple(vec![Value::str_rc(Rc::from(a)), Value::str_rc(Rc::from(b))]))
            }
            "os.path.normpath" => {
                let p = self.path_arg(&a0, "normpath")?;
                Ok(Value::str_rc(Rc::from(posix_normpath(&p))))
            }
            "os.getcwd" => Ok(Value::str_rc(Rc::from(cwd()))),
            "os.path.abspath" => {
                let p = self.path_arg(&a0, "abspath")?;
                Ok(Value::str_rc(Rc::from(abspath(&p))))
            }
            "os.path.realpath" => {
                let a = self.bind(
                    &Sig::def("realpath", &["filename"], 1).kwonly(&["strict"]),
                    args,
                    kwargs,
                )?;
                let p = self.path_arg(&a.or_none(0), "realpath")?;
                if let Some(v) = a.get(1) {
                    if self.truthy(&v)? {
                        return Err(self.unsupported("os.path.realpath(strict=True)"));
                    }
                }
                let (path, _) = self.join_realpath(String::new(), &p, &mut Default::default())?;
                Ok(Value::str_rc(Rc::from(abspath(&path))))
            }
            "os.readlink" => {
                let p = self.path_arg(&a0, "readlink")?;
                match self.resolve_no_follow(&p)? {
                    Resolved::Link(path, content) => {
                        let target = self.link_target(&path, content)?;
                        Ok(match a0 {
                            Value::Bytes(_) => Value::bytes_rc(Rc::from(target)),
                            _ => Value::str_rc(Rc::from(String::from_utf8_lossy(target).as_ref())),
                        })
                    }
                    Resolved::File(_) | Resolved::Dir(_) => {
                        Err(self.os_error(ExcKind::OSError, 22, "Invalid argument", &p))
                    }
                    other => Err(self.lookup_error(&other, &p)),
                }
            }
            "os.path.relpath" => {
                let a = self.bind(&Sig::def("relpath", &["path", "start"], 1), args, kwargs)?;
                let p = self.path_arg(&a.or_none(0), "relpath")?;
                if p.is_empty() {
                    return Err(self.err(ExcKind::ValueError, "no path specified"));
                }
                let start = match a.get(1) {
                    None | Some(Value::None) => Rc::from("."),
                    Some(v) => self.path_arg(&v, "relpath")?,
                };
                Ok(Value::str_rc(Rc::from(relpath(&p, &start))))
            }
            "os.path.isabs" => {
                let p = self.path_arg(&a0, "isabs")?;
                Ok(Value::Bool(p.starts_with('/')))
            }
            "os.path.getsize" => {
                let p = self.path_arg(&a0, "getsize")?;
                match self.resolve(&p)? {
                    Resolved::File(f) => Ok(Value::Int(self.file_bytes(&f, &p)?.len() as i64)),
                    Resolved::Dir(_) => Ok(Value::Int(4096)),
                    other => Err(self.lookup_error(&other, &p)),
                }
            }
            "os.listdir" => {
                let p = match &a0 {
                    Value::None => Rc::from("."),
                    other => self.path_arg(other, "listdir")?,
                };
                match self.resolve(&p)? {
                    Resolved::Dir(d) => {
                        let names = self.list_dir(&d);
                        Ok(self.new_list(
                            names.into_iter().map(|n| Value::str_rc(Rc::from(n))).collect(),
                        ))
                    }
                    Resolved::File(_) => {
                        Err(self.os_error(ExcKind::NotADirectoryError, 20, "Not a directory", &p))
                    }
                    other => Err(self.lookup_error(&other, &p)),
                }
            }
            "os.walk" => {
                const WALK: Sig =
                    Sig::def("walk", &["top", "topdown", "onerror", "followlinks"], 1);
                let a = self.bind(&WALK, args, kwargs)?;
                let top = self.path_arg(&a.or_none(0), "walk")?;
                let followlinks = match a.get(3) {
                    Some(v) => self.truthy(&v)?,
                    None => false,
                };
                let mut links = 0;
                let top_resolved = self.lookup(&top, true, &mut links);
                self.trace_probe(&top, top_resolved.as_ref().ok());
                let Resolved::Dir(d) = top_resolved? else {
                    return Ok(Value::iter(PyIter::Owned { items: Vec::new().into_iter() }));
                };
                // Top-down, names sorted (the real order is the file system's, which is arbitrary).
                // A folder is entered by the path walk yields for it, so the links followed to
                // reach it count towards ELOOP as they do for `os.scandir` of that path.
                let mut out = Vec::new();
                let mut stack = vec![(top.to_string(), d, links)];
                while let Some((shown, real, links)) = stack.pop() {
                    self.charge(1)?;
                    let names = self.list_dir(&real);
                    let (mut dirs, mut files, mut enter) = (Vec::new(), Vec::new(), Vec::new());
                    for n in names {
                        let child = if real.is_empty() { n.clone() } else { format!("{real}/{n}") };
                        match self.node(&child, false) {
                            Node::Dir => {
                                enter.push((n.clone(), child, links));
                                dirs.push(n);
                            }
                            // `DirEntry.is_dir()` follows the link; `os.walk` enters the
                            // folder only with `followlinks`.
                            Node::Link(_) => {
                                let mut via = links;
                                match self.walk_path(real.clone(), &n, true, &mut via)? {
                                    Resolved::Dir(target) => {
                                        if followlinks {
                                            enter.push((n.clone(), target, via));
                                        }
                                        dirs.push(n);
                                    }
                                    _ => files.push(n),
                                }
                            }
                            Node::File | Node::Missing => files.push(n),
                        }
                    }
                    let join = |n: &str| {
                        if shown.ends_with('/') {
                            format!("{shown}{n}")
                        } else {
                            format!("{shown}/{n}")
                        }
                    };
                    for (dn, child, links) in enter.into_iter().rev() {
                        stack.push((join(&dn), child, links));
                    }
                    out.push(Value::tuple(vec![
                        Value::str_rc(Rc::from(shown.as_str())),
                        self.new_list(
                            dirs.into_iter().map(|n| Value::str_rc(Rc::from(n))).collect(),
                        ),
                        self.new_list(
                            files.into_iter().map(|n| Value::str_rc(Rc::from(n))).collect(),
                        ),
                    ]));
                }
                Ok(Value::iter(PyIter::Owned { items: out.into_iter() }))
            }
            "hashlib.sha256" => {
                use sha2::Digest;
                let mut h = sha2::Sha256::new();
                match args.first().cloned().or_else(|| {
                    kwargs
                        .iter()
                        .find(|(k, _)| &**k == "string" || &**k == "data")
                        .map(|(_, v)| v.clone())
                }) {
                    None => {}
                    Some(Value::Bytes(b)) => h.update(&b[..]),
                    Some(Value::Str(_)) => {
                        return Err(
                            self.err(ExcKind::TypeError, "Strings must be encoded before hashing")
                        )
                    }
                    Some(other) => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                                "object supporting the buffer API required, not '{}'",
                                type_name(&other)
                            ),
                        ))
                    }
                }
                Ok(Value::Native(Rc::new(Native::Sha256(Mut::new(h)))))
            }
            "sys.exit" => Err(self.err_args(ExcKind::SystemExit, args, None)),
            "sys.set_int_max_str_digits" | "sys.get_int_max_str_digits" => {
                self.int_max_str_digits_fn(name, args, kwargs)
            }
            "json.dumps" => self.json_dumps(&a0, &kwargs),
            "json.loads" => match &a0 {
                Value::Str(s) => {
                    let s = s.clone();
                    self.json_loads(&s)
                }
                Value::Bytes(b) => match std::str::from_utf8(b) {
                    Ok(s) => {
                        let s = s.to_string();
                        self.json_loads(&s)
                    }
                    Err(e) => Err(self.utf8_error(b, &e)),
                },
                other => Err(self.err(
                    ExcKind::TypeError,
                    format!(
                        "the JSON object must be str, bytes or bytearray, not {}",
                        type_name(other)
                    ),
                )),
            },
            // posixpath's own definitions: the same inode on the same device.
            "os.path.samestat" | "os.path.samefile" => {
                let f = &name[8..];
                let p = if name == "os.path.samefile" { "f" } else { "s" };
                match args.len() {
                    2 => {}
                    0 => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                                "{f}() missing 2 required positional arguments: '{p}1' and '{p}2'"
                            ),
                        ))
                    }
                    1 => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!("{f}() missing 1 required positional argument: '{p}2'"),
                        ))
                    }
                    n => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!("{f}() takes 2 positional arguments but {n} were given"),
                        ))
                    }
                }
                let (s1, s2) = if name == "os.path.samefile" {
                    let a = self.os_function("os.stat", vec![args[0].clone()], vec![])?;
                    let b = self.os_function("os.stat", vec![args[1].clone()], vec![])?;
                    (a, b)
                } else {
                    (args[0].clone(), args[1].clone())
                };
                let (i1, i2) = (self.getattr(&s1, "st_ino")?, self.getattr(&s2, "st_ino")?);
                if !self.compare(crate::python::syntax::CmpOp::Eq, &i1, &i2)? {
                    return Ok(Value::Bool(false));
                }
                let (d1, d2) = (self.getattr(&s1, "st_dev")?, self.getattr(&s2, "st_dev")?);
                Ok(Value::Bool(self.compare(crate::python::syntax::CmpOp::Eq, &d1, &d2)?))
            }
            "os.stat" | "os.lstat" => {
                let follow = name == "os.stat";
                let p = match &a0 {
                    Value::Int(_) | Value::Bool(_) if follow => {
                        return Err(self.unsupported("os.stat of a file descriptor"))
                    }
                    Value::Str(_) | Value::Bytes(_) => self.path_arg(&a0, "stat")?,
                    other if follow => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!(
                            "stat: path should be string, bytes, os.PathLike or integer, not {}",
                            type_name(other)
                        ),
                        ))
                    }
                    other => self.path_arg(other, "lstat")?,
                };
                let r = if follow { self.resolve(&p)? } else { self.resolve_no_follow(&p)? };
                // Modes as a git checkout under umask 022 leaves them; a folder's size is
                // ext4's block, a link's the length of its target.
                let (mode, size, at, subdirs) = match r {
                    Resolved::File(f) => {
                        let exec = RepoPath::new(&f)
                            .ok()
                            .and_then(|rp| self.tree_entry(&rp))
                            .is_some_and(|e| e.mode == FileMode::Executable);
                        let size = self.file_bytes(&f, &p)?.len() as i64;
                        (S_IFREG | if exec { 0o755 } else { 0o644 }, size, f, None)
                    }
                    Resolved::Dir(d) => {
                        let n = self.subdir_count(&d)?;
                        (S_IFDIR | 0o755, 4096, d, Some(n))
                    }
                    Resolved::Link(path, content) => {
                        let size = self.link_target(&path, content)?.len() as i64;
                        (S_IFLNK | 0o777, size, path, None)
                    }
                    other => return Err(self.lookup_error(&other, &p)),
                };
                let of = super::statres::StatOf { path: &at, mode, size, subdirs };
                let d = self.stat_result_fields(&of);
                let os = self.modules.get("os").cloned();
                let class = match os.map(|m| self.getattr(&m, "stat_result")) {
                    Some(Ok(Value::Class(c))) => c,
                    _ => stat_result_class(),
                };
                Ok(self.made(Value::Instance(Rc::new(Instance::new(class, d, None)))))
            }
            "stat.S_ISDIR" | "stat.S_ISREG" | "stat.S_ISLNK" | "stat.S_IFMT" | "stat.S_IMODE" => {
                let m = match (&a0, args.len()) {
                    (Value::Int(m), 1) => *m,
                    (Value::Bool(b), 1) => i64::from(*b),
                    (_, 1) => {
                        return Err(self.err(ExcKind::TypeError, "an integer is required"));
                    }
                    (_, n) => {
                        return Err(self.err(
                            ExcKind::TypeError,
                            format!("{}() takes exactly one argument ({n} given)", &name[5..]),
                        ))
                    }
                };
                Ok(match name {
                    "stat.S_ISDIR" => Value::Bool(m & 0o170000 == S_IFDIR),
                    "stat.S_ISREG" => Value::Bool(m & 0o170000 == S_IFREG),
                    "stat.S_ISLNK" => Value::Bool(m & 0o170000 == S_IFLNK),
                    "stat.S_IFMT" => Value::Int(m & 0o170000),
                    _ => Value::Int(m & 0o7777),
                })
            }
            n if n.starts_with("os.stat_result.") => self.stat_result_method(n, &args),
            "json.load" => {
                let m = self.get_method(&a0, "read")?;
                let text = self.call_meth(m, vec![], vec![])?;
                self.os_function("json.loads", vec![text], kwargs)
            }
            other => Err(self.unsupported(format!("{other}()"))),
        }
    }
}
