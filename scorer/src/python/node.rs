//! The CPython-shaped generic syntax tree: what `ast.parse` returns to Python code.
//!
//! Every node names its 3.11 class, holds its fields in `_fields` order and, for positioned classes,
//! its `lineno`, `col_offset`, `end_lineno`, `end_col_offset`.

use num_bigint::BigInt;

use super::{syntax, LineIndex};

/// One `ast` class of CPython 3.11.
#[derive(Debug, PartialEq, Eq)]
pub struct NodeClass {
    pub name: &'static str,
    /// Direct base class (`None` only for `AST`).
    pub base: Option<&'static str>,
    pub fields: &'static [&'static str],
    pub attributes: &'static [&'static str],
}

/// A constant as `ast.Constant.value` holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    None,
    Bool(bool),
    Int(BigInt),
    Float(f64),
    Complex { real: f64, imag: f64 },
    Str(String),
    Bytes(Vec<u8>),
    Ellipsis,
}

/// One field value.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// `None` (an absent optional child or a null string field).
    None,
    Node(Box<Node>),
    List(Vec<Field>),
    /// Identifier or other plain string field (`Name.id`, `alias.name`, `ImportFrom.module`).
    Str(String),
    /// Plain int field (`ImportFrom.level`, `FormattedValue.conversion`, `is_async`).
    Int(i64),
    /// `Constant.value`.
    Const(Constant),
}

/// CPython source positions of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    pub lineno: u32,
    pub col_offset: u32,
    pub end_lineno: u32,
    pub end_col_offset: u32,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub class: &'static NodeClass,
    /// In `class.fields` order.
    pub fields: Vec<Field>,
    pub loc: Option<Loc>,
}

/// Every 3.11 `ast` class, abstract ones included. Filled in by the python module work.
pub static CLASSES: &[NodeClass] = &[
    NodeClass { name: "AST", base: None, fields: &[], attributes: &[] },
    NodeClass { name: "mod", base: Some("AST"), fields: &[], attributes: &[] },
    NodeClass { name: "Module", base: Some("mod"), fields: &["body", "type_ignores"], attributes: &[] },
];

/// Looks a class up by name.
pub fn class(name: &str) -> Option<&'static NodeClass> {
    CLASSES.iter().find(|c| c.name == name)
}

/// Converts a parsed module. (Placeholder body: an empty `Module`; the python-module work replaces it.)
pub fn from_module(_module: &syntax::ModModule, _index: &LineIndex) -> Node {
    let class = &CLASSES[2];
    Node { class, fields: vec![Field::List(Vec::new()), Field::List(Vec::new())], loc: None }
}
