//! The builtin exception hierarchy (CPython 3.11 names and bases).

use std::rc::Rc;

use super::value::*;
use super::Interp;

/// Declares [`ExcKind`] and its table from one list: `Kind(Base) = "python name" in "module";`
/// (name defaults to the variant's, module to `builtins`; a module other than `builtins` also
/// keeps the class out of the builtins namespace). Bases come before their subclasses.
macro_rules! exceptions {
    ($($kind:ident $(($base:ident))? $(= $name:literal)? $(in $module:literal)?;)*) => {
        /// A builtin exception class, by its place in CPython 3.11's hierarchy (plus refscore's
        /// uncatchable limit classes). Raising by kind makes a misspelt name a compile error:
        ///
        /// ```compile_fail
        /// let _ = scorer::interp::ExcKind::TypErorr;
        /// ```
        /// ```
        /// assert_eq!(scorer::interp::ExcKind::ReError.name(), "error");
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum ExcKind {
            $($kind,)*
        }

        impl ExcKind {
            /// Every kind in definition order (bases first).
            pub const ALL: &'static [ExcKind] = &[$(ExcKind::$kind,)*];

            /// The Python class name (`__name__`).
            pub fn name(self) -> &'static str {
                match self {
                    $(ExcKind::$kind => exceptions!(@or $($name)? ; stringify!($kind)),)*
                }
            }

            /// The direct base class (`None` for BaseException).
            pub fn base(self) -> Option<ExcKind> {
                match self {
                    $(ExcKind::$kind => exceptions!(@base $($base)?),)*
                }
            }

            /// The class's `__module__`.
            pub fn module(self) -> &'static str {
                match self {
                    $(ExcKind::$kind => exceptions!(@or $($module)? ; "builtins"),)*
                }
            }
        }
    };
    (@or $given:literal ; $default:expr) => { $given };
    (@or ; $default:expr) => { $default };
    (@base $base:ident) => { Some(ExcKind::$base) };
    (@base) => { None };
}

exceptions! {
    BaseException;
    SystemExit(BaseException);
    KeyboardInterrupt(BaseException);
    GeneratorExit(BaseException);
    Exception(BaseException);
    StopIteration(Exception);
    ArithmeticError(Exception);
    ZeroDivisionError(ArithmeticError);
    OverflowError(ArithmeticError);
    AssertionError(Exception);
    AttributeError(Exception);
    BufferError(Exception);
    EOFError(Exception);
    LookupError(Exception);
    IndexError(LookupError);
    KeyError(LookupError);
    NameError(Exception);
    UnboundLocalError(NameError);
    OSError(Exception);
    FileNotFoundError(OSError);
    FileExistsError(OSError);
    IsADirectoryError(OSError);
    NotADirectoryError(OSError);
    PermissionError(OSError);
    RuntimeError(Exception);
    RecursionError(RuntimeError);
    NotImplementedError(RuntimeError);
    SyntaxError(Exception);
    IndentationError(SyntaxError);
    TabError(IndentationError);
    TypeError(Exception);
    ValueError(Exception);
    UnicodeError(ValueError);
    JSONDecodeError(ValueError) in "json.decoder";
    ReError(Exception) = "error" in "re";
    UnicodeDecodeError(UnicodeError);
    UnicodeEncodeError(UnicodeError);
    ImportError(Exception);
    ModuleNotFoundError(ImportError);
    MemoryError(Exception);
    Warning(Exception);
    DeprecationWarning(Warning);
    UserWarning(Warning);
    SkipTest(Exception) in "unittest.case";
    StepBudgetExceeded(BaseException);
    SizeLimitExceeded(BaseException);
    UnsupportedConstruct(BaseException);
    ContentNotInBundle(BaseException);
}

impl ExcKind {
    /// The kind named `name`, if it is one of the table's.
    pub fn from_name(name: &str) -> Option<ExcKind> {
        ExcKind::ALL.iter().copied().find(|k| k.name() == name)
    }
}

pub(crate) fn bare_class<'a>(name: &str) -> Rc<Class<'a>> {
    Class::builtin(name, "builtins", NameMap::default(), ClassKind::Exception)
}

pub(crate) fn install(it: &mut Interp<'_>) {
    for &kind in ExcKind::ALL {
        let name = kind.name();
        let bases: Vec<_> =
            kind.base().and_then(|b| it.exc_classes.get(b.name()).cloned()).into_iter().collect();
        let module = kind.module();
        let c = Rc::new(Class {
            name: Rc::from(name),
            qualname: Rc::from(name),
            module: Rc::from(module),
            bases: bases.clone(),
            mro: Mut::new(vec![]),
            dict: Attrs::default(),
            kind: ClassKind::Exception,
            hooks: 0,
        });
        let mut mro = vec![c.clone()];
        if let Some(b) = bases.first() {
            mro.extend(b.mro.borrow().iter().cloned());
        }
        *c.mro.borrow_mut() = mro;
        it.exc_classes.insert(Rc::from(name), c.clone());
        if module == "builtins" {
            it.builtins.insert(Rc::from(name), Value::Class(c));
        }
    }
    for (alias, target) in [("IOError", "OSError"), ("EnvironmentError", "OSError")] {
        if let Some(c) = it.exc_classes.get(target).cloned() {
            it.builtins.insert(Rc::from(alias), Value::Class(c));
        }
    }
}

pub(crate) fn new_instance<'a>(
    class: Rc<Class<'a>>,
    args: Vec<Value<'a>>,
    str_override: Option<String>,
) -> Value<'a> {
    Value::Instance(Rc::new(Instance::new(
        class,
        NameMap::default(),
        Some(ExcData::new(args, str_override)),
    )))
}

/// Is `class` a subclass of BaseException?
pub(crate) fn is_exception_class(c: &Rc<Class<'_>>) -> bool {
    c.mro.borrow().iter().any(|k| k.kind == ClassKind::Exception && &*k.name == "BaseException")
}
