//! One argument binder for native functions: a [`Sig`] names the parameters (positional-or-keyword
//! with the first `required` of them required, then keyword-only), and [`Interp::bind`] places the
//! call's positional and keyword arguments into slots with CPython 3.11's arity messages. Two
//! families of messages exist in CPython: functions written in C through Argument Clinic
//! ([`Style::Clinic`]: `open`, `sorted`'s keywords, `str.split`...) and functions written in Python
//! ([`Style::PyDef`]: `re.sub`, `ast.parse`, `os.walk`, `json.loads`...).

use crate::interp::eval::missing_msg;
use crate::interp::eval::Kwargs;
use crate::interp::{ExcKind, Interp, PyResult, Value};

/// Which CPython argument parser's messages a native function reproduces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// `_PyArg_UnpackKeywords` (Argument Clinic): `open() missing required argument 'file' (pos 1)`.
    Clinic,
    /// A `def` in the standard library: `sub() missing 1 required positional argument: 'string'`.
    PyDef,
}

/// A native function's parameters.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sig {
    /// The name in messages (`__qualname__` for [`Style::PyDef`]).
    pub name: &'static str,
    /// Positional-or-keyword parameters, in order.
    pub params: &'static [&'static str],
    /// How many of `params` (from the front) have no default.
    pub required: usize,
    /// Keyword-only parameters (all optional).
    pub kwonly: &'static [&'static str],
    pub style: Style,
}

impl Sig {
    /// A Python-defined function's signature with no keyword-only parameters.
    pub(crate) const fn def(name: &'static str, params: &'static [&'static str], n: usize) -> Sig {
        Sig { name, params, required: n, kwonly: &[], style: Style::PyDef }
    }

    /// An Argument Clinic function's signature with no keyword-only parameters.
    pub(crate) const fn clinic(
        name: &'static str,
        params: &'static [&'static str],
        n: usize,
    ) -> Sig {
        Sig { style: Style::Clinic, ..Sig::def(name, params, n) }
    }

    /// The same signature with keyword-only parameters `kwonly`.
    pub(crate) const fn kwonly(self, kwonly: &'static [&'static str]) -> Sig {
        Sig { kwonly, ..self }
    }

    fn slot(&self, name: &str) -> Option<usize> {
        self.params.iter().chain(self.kwonly).position(|p| *p == name)
    }
}

/// The arguments of one call, one slot per parameter of its [`Sig`] (`params`, then `kwonly`).
pub(crate) struct Bound<'a> {
    slots: Vec<Option<Value<'a>>>,
}

impl<'a> Bound<'a> {
    /// The argument for parameter `i`, if given.
    pub(crate) fn get(&self, i: usize) -> Option<Value<'a>> {
        self.slots.get(i).cloned().flatten()
    }

    /// The argument for parameter `i`, or None when not given (the common default).
    pub(crate) fn or_none(&self, i: usize) -> Value<'a> {
        self.get(i).unwrap_or(Value::None)
    }
}

impl<'a> Interp<'a> {
    /// Binds `args` and `kwargs` to `sig`'s parameters, or raises CPython's TypeError for the call.
    pub(crate) fn bind(
        &self,
        sig: &Sig,
        args: Vec<Value<'a>>,
        kwargs: Kwargs<'a>,
    ) -> PyResult<'a, Bound<'a>> {
        let msg = match sig.style {
            Style::Clinic => clinic_error(sig, args.len(), &kwargs),
            Style::PyDef => def_error(sig, args.len(), &kwargs),
        };
        if let Some(msg) = msg {
            return Err(self.err(ExcKind::TypeError, msg));
        }
        let mut slots: Vec<Option<Value<'a>>> = vec![None; sig.params.len() + sig.kwonly.len()];
        for (slot, v) in slots.iter_mut().zip(args) {
            *slot = Some(v);
        }
        for (k, v) in kwargs {
            if let Some(i) = sig.slot(&k) {
                slots[i] = Some(v);
            }
        }
        Ok(Bound { slots })
    }
}

/// `_PyArg_UnpackKeywords`'s checks, in its order (CPython 3.11 Python/getargs.c).
fn clinic_error(sig: &Sig, nargs: usize, kwargs: &Kwargs<'_>) -> Option<String> {
    let f = sig.name;
    let maxpos = sig.params.len();
    let maxargs = maxpos + sig.kwonly.len();
    let given = nargs + kwargs.len();
    let s = |n: usize| if n == 1 { "" } else { "s" };
    if given > maxargs {
        let keyword = if nargs == 0 { "keyword " } else { "" };
        return Some(format!(
            "{f}() takes at most {maxargs} {keyword}argument{} ({given} given)",
            s(maxargs)
        ));
    }
    if nargs > maxpos {
        if maxpos == 0 {
            return Some(format!("{f}() takes no positional arguments"));
        }
        let how = if sig.required < maxpos { "at most" } else { "exactly" };
        return Some(format!(
            "{f}() takes {how} {maxpos} positional argument{} ({nargs} given)",
            s(maxpos)
        ));
    }
    let find = |name: &str| kwargs.iter().any(|(k, _)| &**k == name);
    let mut nkwargs = kwargs.len();
    for (i, p) in sig.params.iter().chain(sig.kwonly).enumerate().skip(nargs) {
        if nkwargs == 0 && i >= sig.required {
            break;
        }
        if nkwargs > 0 && find(p) {
            nkwargs -= 1;
        } else if i < sig.required {
            return Some(format!("{f}() missing required argument '{p}' (pos {})", i + 1));
        }
    }
    if nkwargs > 0 {
        for (i, p) in sig.params.iter().enumerate().take(nargs) {
            if find(p) {
                return Some(format!(
                    "argument for {f}() given by name ('{p}') and position ({})",
                    i + 1
                ));
            }
        }
        if let Some((k, _)) = kwargs.iter().find(|(k, _)| sig.slot(k).is_none()) {
            return Some(format!("'{k}' is an invalid keyword argument for {f}()"));
        }
    }
    None
}

/// The checks of CPython 3.11's `initialize_locals` for a `def` without `*args`/`**kwargs`,
/// in its order: keywords, too many positionals, missing positionals, missing keyword-only.
fn def_error(sig: &Sig, nargs: usize, kwargs: &Kwargs<'_>) -> Option<String> {
    let f = sig.name;
    let npos = sig.params.len();
    let mut filled = vec![false; npos + sig.kwonly.len()];
    for slot in filled.iter_mut().take(nargs.min(npos)) {
        *slot = true;
    }
    for (k, _) in kwargs {
        match sig.slot(k) {
            None => return Some(format!("{f}() got an unexpected keyword argument '{k}'")),
            Some(i) if filled[i] => {
                return Some(format!("{f}() got multiple values for argument '{k}'"))
            }
            Some(i) => filled[i] = true,
        }
    }
    if nargs > npos {
        let kwonly_given = filled[npos..].iter().filter(|b| **b).count();
        let (takes, plural) = if sig.required < npos {
            (format!("from {} to {npos}", sig.required), true)
        } else {
            (npos.to_string(), npos != 1)
        };
        let s = |b: bool| if b { "s" } else { "" };
        let kwonly = if kwonly_given > 0 {
            format!(
                " positional argument{} (and {kwonly_given} keyword-only argument{})",
                s(nargs != 1),
                s(kwonly_given != 1)
            )
        } else {
            String::new()
        };
        let were = if nargs == 1 && kwonly_given == 0 { "was" } else { "were" };
        return Some(format!(
            "{f}() takes {takes} positional argument{} but {nargs}{kwonly} {were} given",
            s(plural)
        ));
    }
    let missing: Vec<&str> =
        (0..sig.required).filter(|i| !filled[*i]).map(|i| sig.params[i]).collect();
    if !missing.is_empty() {
        return Some(missing_msg(f, "positional", &missing));
    }
    None
}
