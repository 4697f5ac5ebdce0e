//! The builtin exception hierarchy (CPython 3.11 names and bases).

use std::rc::Rc;

use super::value::*;
use super::Interp;

/// `(name, base)` in definition order (bases first).
const HIERARCHY: &[(&str, &str)] = &[
    ("BaseException", ""),
    ("SystemExit", "BaseException"),
    ("KeyboardInterrupt", "BaseException"),
    ("GeneratorExit", "BaseException"),
    ("Exception", "BaseException"),
    ("StopIteration", "Exception"),
    ("ArithmeticError", "Exception"),
    ("ZeroDivisionError", "ArithmeticError"),
    ("OverflowError", "ArithmeticError"),
    ("AssertionError", "Exception"),
    ("AttributeError", "Exception"),
    ("BufferError", "Exception"),
    ("EOFError", "Exception"),
    ("LookupError", "Exception"),
    ("IndexError", "LookupError"),
    ("KeyError", "LookupError"),
    ("NameError", "Exception"),
    ("UnboundLocalError", "NameError"),
    ("OSError", "Exception"),
    ("FileNotFoundError", "OSError"),
    ("FileExistsError", "OSError"),
    ("IsADirectoryError", "OSError"),
    ("NotADirectoryError", "OSError"),
    ("PermissionError", "OSError"),
    ("RuntimeError", "Exception"),
    ("RecursionError", "RuntimeError"),
    ("NotImplementedError", "RuntimeError"),
    ("SyntaxError", "Exception"),
    ("IndentationError", "SyntaxError"),
    ("TabError", "IndentationError"),
    ("TypeError", "Exception"),
    ("ValueError", "Exception"),
    ("UnicodeError", "ValueError"),
    ("JSONDecodeError", "ValueError"),
    ("error", "Exception"),
    ("UnicodeDecodeError", "UnicodeError"),
    ("UnicodeEncodeError", "UnicodeError"),
    ("ImportError", "Exception"),
    ("ModuleNotFoundError", "ImportError"),
    ("MemoryError", "Exception"),
    ("Warning", "Exception"),
    ("DeprecationWarning", "Warning"),
    ("UserWarning", "Warning"),
    ("SkipTest", "Exception"),
    ("StepBudgetExceeded", "BaseException"),
    ("SizeLimitExceeded", "BaseException"),
    ("UnsupportedConstruct", "BaseException"),
    ("ContentNotInBundle", "BaseException"),
];

pub fn bare_class<'a>(name: &str) -> Rc<Class<'a>> {
    let c = Rc::new(Class {
        name: Rc::from(name),
        qualname: Rc::from(name),
        module: Rc::from("builtins"),
        bases: vec![],
        mro: Mut::new(vec![]),
        dict: Mut::new(NameMap::default()),
        kind: ClassKind::Exception,
    });
    c.mro.borrow_mut().push(c.clone());
    c
}

pub fn install(it: &mut Interp<'_>) {
    for (name, base) in HIERARCHY {
        let bases: Vec<_> = it.exc_classes.get(*base).cloned().into_iter().collect();
        let module = match *name {
            "SkipTest" => "unittest.case",
            "JSONDecodeError" => "json.decoder",
            "error" => "re",
            _ => "builtins",
        };
        let c = Rc::new(Class {
            name: Rc::from(*name),
            qualname: Rc::from(*name),
            module: Rc::from(module),
            bases: bases.clone(),
            mro: Mut::new(vec![]),
            dict: Mut::new(NameMap::default()),
            kind: ClassKind::Exception,
        });
        let mut mro = vec![c.clone()];
        if let Some(b) = bases.first() {
            mro.extend(b.mro.borrow().iter().cloned());
        }
        *c.mro.borrow_mut() = mro;
        it.exc_classes.insert(Rc::from(*name), c.clone());
        if !matches!(*name, "SkipTest" | "JSONDecodeError" | "error") {
            it.builtins.insert(Rc::from(*name), Value::Class(c));
        }
    }
    for (alias, target) in [("IOError", "OSError"), ("EnvironmentError", "OSError")] {
        if let Some(c) = it.exc_classes.get(target).cloned() {
            it.builtins.insert(Rc::from(alias), Value::Class(c));
        }
    }
}

pub fn new_instance<'a>(
    class: Rc<Class<'a>>,
    args: Vec<Value<'a>>,
    str_override: Option<String>,
) -> Value<'a> {
    Value::Instance(Rc::new(Instance {
        class,
        dict: Mut::new(NameMap::default()),
        exc: Some(Mut::new(ExcData { args, str_override })),
    }))
}

/// Is `class` a subclass of BaseException?
pub fn is_exception_class(c: &Rc<Class<'_>>) -> bool {
    c.mro.borrow().iter().any(|k| k.kind == ClassKind::Exception && &*k.name == "BaseException")
}
