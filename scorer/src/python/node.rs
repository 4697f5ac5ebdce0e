//! The CPython-shaped generic syntax tree: what `ast.parse` returns to Python code.
//!
//! Every node names its 3.11 class, holds its fields in `_fields` order and, for positioned classes,
//! its `lineno`, `col_offset`, `end_lineno`, `end_col_offset`.
//!
//! The trees are built by `from_rustpython.rs` (the reference parser) and `from_ruff.rs` (the
//! fast path); `ast.dump` and the `repr` of constants are in `dump.rs`. Both are re-exported here,
//! so `node::from_module`, `node::dump` and `node::repr_*` keep their paths.

use num_bigint::BigInt;
use std::rc::Rc;

use super::classes;

pub use super::dump::{dump, repr_bytes, repr_complex, repr_constant, repr_float, repr_str};
pub use super::from_rustpython::from_module;
pub(crate) use super::from_rustpython::from_module_renamed;

/// One `ast` class of CPython 3.11.
#[derive(Debug, PartialEq, Eq)]
pub struct NodeClass {
    pub name: &'static str,
    /// Direct base class (`None` only for `AST`).
    pub base: Option<&'static str>,
    pub fields: &'static [&'static str],
    pub attributes: &'static [&'static str],
    /// Fields and attributes whose class attribute is `None` in CPython (ASDL `?`): an instance
    /// built without them reads `None`, and `ast.dump` omits them when they are `None`.
    pub optional: &'static [&'static str],
}

impl NodeClass {
    /// The direct base class.
    pub fn base_class(&self) -> Option<&'static NodeClass> {
        // `isinstance` walks this chain for every node of every `ast.walk`: look the base up by
        // position in CLASSES instead of by name.
        static BASES: std::sync::OnceLock<Vec<Option<&'static NodeClass>>> =
            std::sync::OnceLock::new();
        let bases = BASES.get_or_init(|| CLASSES.iter().map(|c| c.base.and_then(class)).collect());
        match self.index().and_then(|i| bases.get(i)) {
            Some(b) => *b,
            None => self.base.and_then(class),
        }
    }

    /// This class's position in [`CLASSES`] (`None` for a class defined elsewhere), so per-class
    /// tables are plain vectors instead of maps keyed by name.
    #[inline]
    pub fn index(&self) -> Option<usize> {
        let offset = (self as *const NodeClass as usize).wrapping_sub(CLASSES.as_ptr() as usize);
        let i = offset / std::mem::size_of::<NodeClass>().max(1);
        CLASSES.get(i).filter(|c| std::ptr::eq(*c, self)).map(|_| i)
    }

    /// `issubclass(self, other)` within the `ast` hierarchy.
    #[inline]
    pub fn is_subclass_of(&self, other: &NodeClass) -> bool {
        // `isinstance(node, ast.X)` runs for every node of every `ast.walk`: a bit test in a
        // table of each class's ancestors, made at compile time from the classes' base names.
        if let (Some(i), Some(j)) = (self.index(), other.index()) {
            if let (Some(bits), Some(word)) = (ANCESTORS.get(i), bits_word(j)) {
                return bits[word] & (1 << (j % 64)) != 0;
            }
        }
        self.walk_is_subclass_of(other)
    }

    /// Whether this class is, or derives from, a class of `set` (`None` for a class defined
    /// elsewhere): one row of the ancestor table against the set, however many classes it holds.
    #[inline]
    pub fn derives_from_any(&self, set: &ClassSet) -> Option<bool> {
        let row = ANCESTORS.get(self.index()?)?;
        Some(row.iter().zip(set).any(|(a, b)| a & b != 0))
    }

    /// `issubclass(self, other)` by walking the base chain.
    fn walk_is_subclass_of(&self, other: &NodeClass) -> bool {
        let mut cur: Option<&NodeClass> = Some(self);
        while let Some(c) = cur {
            if std::ptr::eq(c, other) || c.name == other.name {
                return true;
            }
            cur = c.base_class();
        }
        false
    }

    /// Index of a field in `fields`.
    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| *f == name)
    }

    /// Whether the class attribute `name` is `None` (optional field or attribute).
    pub fn is_optional(&self, name: &str) -> bool {
        self.optional.contains(&name)
    }
}

/// A constant as `ast.Constant.value` holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Constant {
    None,
    Bool(bool),
    Int(BigInt),
    Float(f64),
    Complex {
        real: f64,
        imag: f64,
    },
    /// Shared with the `str` values `ast.parse` hands out (no copy per parse).
    Str(Rc<str>),
    Bytes(Rc<[u8]>),
    Ellipsis,
}

/// One field value.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    /// `None` (an absent optional child or a null string field).
    None,
    /// Shared: the parse cache hands one parsed tree to every `ast.parse` of the same source.
    Node(Rc<Node>),
    List(Vec<Field>),
    /// Identifier or other plain string field (`Name.id`, `alias.name`, `ImportFrom.module`).
    Str(Rc<str>),
    /// Plain int field (`ImportFrom.level`, `FormattedValue.conversion`, `is_async`).
    Int(i64),
    /// `Constant.value`.
    Const(Constant),
}

impl Field {
    pub fn as_node(&self) -> Option<&Node> {
        match self {
            Field::Node(n) => Some(n),
            _ => None,
        }
    }

    pub fn as_list(&self) -> Option<&[Field]> {
        match self {
            Field::List(v) => Some(v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Field::Str(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_int(&self) -> Option<i64> {
        match self {
            Field::Int(i) => Some(*i),
            _ => None,
        }
    }

    pub fn as_const(&self) -> Option<&Constant> {
        match self {
            Field::Const(c) => Some(c),
            _ => None,
        }
    }
}

/// CPython source positions of a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Loc {
    pub lineno: u32,
    pub col_offset: u32,
    pub end_lineno: u32,
    pub end_col_offset: u32,
}

/// A node's fields: most classes have at most three, held in the node itself (one allocation
/// per node: building and freeing parsed trees showed in profiles).
pub type NodeFields = smallvec::SmallVec<[Field; 3]>;

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub class: &'static NodeClass,
    /// In `class.fields` order.
    pub fields: NodeFields,
    pub loc: Option<Loc>,
}

impl Node {
    /// The value of field `name` (`None` if the class has no such field).
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.class.field_index(name).and_then(|i| self.fields.get(i))
    }

    /// The value of attribute `name` (`lineno`, `col_offset`, `end_lineno`, `end_col_offset`).
    pub fn attribute(&self, name: &str) -> Option<u32> {
        let loc = self.loc?;
        match name {
            "lineno" => Some(loc.lineno),
            "col_offset" => Some(loc.col_offset),
            "end_lineno" => Some(loc.end_lineno),
            "end_col_offset" => Some(loc.end_col_offset),
            _ => None,
        }
    }

    /// Child nodes in `ast.iter_child_nodes` order (fields in order, lists flattened).
    pub fn children(&self) -> impl Iterator<Item = &Node> {
        self.fields.iter().flat_map(|f| {
            let (one, many): (Option<&Node>, &[Field]) = match f {
                Field::Node(n) => (Some(n), &[]),
                Field::List(items) => (None, items.as_slice()),
                _ => (None, &[]),
            };
            one.into_iter().chain(many.iter().filter_map(|x| match x {
                Field::Node(n) => Some(&**n),
                _ => None,
            }))
        })
    }
}

/// How deep CPython's `ast2obj` recursion goes converting `root` (3.11 `Python/Python-ast.c`):
/// every node it converts counts one level, except the shared field-less singletons of the
/// simple sums (`Load`, `Add`, `Eq`...), which it hands out without recursing. `ast.parse`
/// raises RecursionError when `3 * (caller's depth + 1)` plus this passes `3 *
/// sys.getrecursionlimit()`. Iterative, so any tree can be measured.
pub fn ast2obj_depth(root: &Node) -> u32 {
    let counts = |n: &Node| !(n.class.fields.is_empty() && n.class.attributes.is_empty());
    let mut deepest = 0u32;
    let mut todo: Vec<(&Node, u32)> = vec![(root, u32::from(counts(root)))];
    while let Some((n, d)) = todo.pop() {
        deepest = deepest.max(d);
        for f in &n.fields {
            let items: &[Field] = match f {
                Field::List(items) => items,
                one => std::slice::from_ref(one),
            };
            for item in items {
                if let Field::Node(c) = item {
                    let dc = d + u32::from(counts(c));
                    if c.fields.is_empty() {
                        // Nothing below it (a shared leaf such as `Load`, or an empty node).
                        deepest = deepest.max(dc);
                    } else {
                        todo.push((c, dc));
                    }
                }
            }
        }
    }
    deepest
}

/// Every 3.11 `ast` class, abstract and deprecated ones included (131 classes, as
/// `AST.__subclasses__()` enumerates them recursively).
pub static CLASSES: &[NodeClass] = &classes::ALL;

/// Words of an [`ANCESTORS`] row.
const ANCESTOR_WORDS: usize = classes::ALL.len().div_ceil(64);

/// A set of classes of [`CLASSES`], one bit per position (see [`NodeClass::derives_from_any`]).
pub type ClassSet = [u64; ANCESTOR_WORDS];

/// The buckets ([`bucket`]) of the classes that are, or derive from, a class of `set`: what
/// `isinstance(node, set)` accepts, for a walk passing over subtrees whose buckets miss them.
pub fn accepted_by(set: &ClassSet) -> u64 {
    let mut out = 0u64;
    for (row, b) in ANCESTORS.iter().zip(BUCKETS) {
        if row.iter().zip(set).any(|(a, b)| a & b != 0) {
            out |= 1 << b;
        }
    }
    out
}

/// A class's walk bucket, one bit of a `u64` (all bits for a class defined elsewhere): a subtree
/// whose nodes' buckets miss every bucket a filter accepts holds no node the filter accepts.
#[inline]
pub fn bucket(c: &NodeClass) -> u64 {
    c.index().and_then(|i| BUCKETS.get(i)).map_or(u64::MAX, |b| 1 << b)
}

/// The classes besides statements and expressions that get a bucket of their own.
const OWN_BUCKET: [&str; 8] = [
    "alias",
    "arg",
    "arguments",
    "keyword",
    "comprehension",
    "ExceptHandler",
    "withitem",
    "match_case",
];

/// The bucket of each class: every statement and expression class, and [`OWN_BUCKET`]'s, a bucket
/// of its own (62 in 3.11); operators and contexts share bucket 62, everything else (patterns,
/// modules, abstract and deprecated classes) 63. Shared buckets only make a walk pass over less;
/// an index mod 64 once put `ImportFrom` with `Subscript`, and `ImportFrom` filters then
/// converted every statement holding a subscript.
static BUCKETS: [u8; classes::ALL.len()] = buckets();

const fn buckets() -> [u8; classes::ALL.len()] {
    const N: usize = classes::ALL.len();
    let all = &classes::ALL;
    let mut out = [63u8; N];
    let mut next = 0u8;
    let mut i = 0;
    while i < N {
        let own = match all[i].base {
            Some(b) => same_name(b, "stmt") || same_name(b, "expr"),
            None => false,
        };
        let mut helper = false;
        let mut k = 0;
        while k < OWN_BUCKET.len() {
            helper |= same_name(all[i].name, OWN_BUCKET[k]);
            k += 1;
        }
        if own || helper {
            assert!(next < 62, "more classes than buckets of their own");
            out[i] = next;
            next += 1;
        } else if let Some(b) = all[i].base {
            let op = same_name(b, "expr_context")
                || same_name(b, "boolop")
                || same_name(b, "operator")
                || same_name(b, "unaryop")
                || same_name(b, "cmpop");
            if op {
                out[i] = 62;
            }
        }
        i += 1;
    }
    out
}

/// The set of `classes` (`None` when one is not among [`CLASSES`]).
pub fn class_set<'c>(classes: impl IntoIterator<Item = &'c NodeClass>) -> Option<ClassSet> {
    let mut set = [0u64; ANCESTOR_WORDS];
    for c in classes {
        let j = c.index()?;
        set[bits_word(j)?] |= 1 << (j % 64);
    }
    Some(set)
}

/// The word of an [`ANCESTORS`] row holding class `j`'s bit.
#[inline]
fn bits_word(j: usize) -> Option<usize> {
    let w = j / 64;
    (w < ANCESTOR_WORDS).then_some(w)
}

/// Row `i`: bit `j` set when `CLASSES[j]` is `CLASSES[i]` or one of its bases (found by name,
/// as [`NodeClass::base_class`] finds them), computed when the crate compiles.
static ANCESTORS: [[u64; ANCESTOR_WORDS]; classes::ALL.len()] = ancestors();

const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut k = 0;
    while k < a.len() {
        if a[k] != b[k] {
            return false;
        }
        k += 1;
    }
    true
}

const fn ancestors() -> [[u64; ANCESTOR_WORDS]; classes::ALL.len()] {
    const N: usize = classes::ALL.len();
    let all = &classes::ALL;
    // Each class's base by position (`N`: none, or not among the classes).
    let mut base = [N; N];
    let mut i = 0;
    while i < N {
        if let Some(b) = all[i].base {
            let mut j = 0;
            while j < N {
                if same_name(all[j].name, b) {
                    base[i] = j;
                    break;
                }
                j += 1;
            }
        }
        i += 1;
    }
    let mut out = [[0u64; ANCESTOR_WORDS]; N];
    let mut i = 0;
    while i < N {
        let mut c = i;
        let mut hops = 0;
        while c < N && hops <= N {
            out[i][c / 64] |= 1 << (c % 64);
            c = base[c];
            hops += 1;
        }
        i += 1;
    }
    out
}

/// The attributes of every class that has any, in this order (the values `Loc` holds).
pub const LOCATION_ATTRIBUTES: [&str; 4] = ["lineno", "col_offset", "end_lineno", "end_col_offset"];

/// Looks a class up by name.
pub fn class(name: &str) -> Option<&'static NodeClass> {
    CLASSES.iter().find(|c| c.name == name)
}

pub(crate) fn node(class: &'static NodeClass, fields: NodeFields, loc: Option<Loc>) -> Field {
    Field::Node(Rc::new(Node { class, fields, loc }))
}

/// A node of a class with no fields and no positions (`Load`, `Add`, `Eq`): a quarter of a
/// tree's nodes. Each thread hands out one shared node per class instead of allocating one per
/// occurrence: the parse cache holds every tree, and their allocation and drop showed in profiles.
pub(crate) fn leaf(class: &'static NodeClass) -> Field {
    type Leaves = [std::cell::OnceCell<Rc<Node>>; classes::ALL.len()];
    thread_local! {
        static LEAVES: Leaves = const { [const { std::cell::OnceCell::new() }; classes::ALL.len()] };
    }
    let Some(i) = class.index() else {
        return node(class, NodeFields::new(), None);
    };
    LEAVES.with(|leaves| match leaves.get(i) {
        Some(cell) => Field::Node(
            cell.get_or_init(|| Rc::new(Node { class, fields: NodeFields::new(), loc: None }))
                .clone(),
        ),
        None => node(class, NodeFields::new(), None),
    })
}

/// PEP 3131 normalisation of a non-ASCII identifier (rustpython keeps the source spelling).
pub fn normalize_identifier(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        std::borrow::Cow::Borrowed(s)
    } else {
        use unicode_normalization::UnicodeNormalization;
        std::borrow::Cow::Owned(s.nfkc().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `node_to_value` fills attributes from `Loc` by position: every class must have none or
    /// exactly [`LOCATION_ATTRIBUTES`].
    #[test]
    fn attributes_are_none_or_the_four_locations() {
        for c in CLASSES {
            assert!(
                c.attributes.is_empty() || c.attributes == LOCATION_ATTRIBUTES,
                "{}: {:?}",
                c.name,
                c.attributes
            );
        }
    }

    #[test]
    fn statements_and_expressions_have_buckets_of_their_own() {
        let own =
            |c: &NodeClass| matches!(c.base, Some("stmt" | "expr")) || OWN_BUCKET.contains(&c.name);
        let owners: Vec<&NodeClass> = CLASSES.iter().filter(|c| own(c)).collect();
        assert_eq!(owners.len(), 62, "27 statements, 27 expressions, 8 others in 3.11");
        for c in CLASSES {
            for o in &owners {
                if !std::ptr::eq(c, *o) {
                    assert_eq!(bucket(c) & bucket(o), 0, "{} shares {}'s bucket", c.name, o.name);
                }
            }
        }
        // Names of 3.11 classes, spelled as `CLASSES` spells them: a miss is a typo in this test.
        let named = |n: &str| class(n).unwrap_or_else(|| panic!("no class {n}"));
        let set = |n: &str| class_set([named(n)]).unwrap_or_default();
        // What a filter accepts: the class and its subclasses' buckets, nothing else of its kind.
        assert_eq!(accepted_by(&set("ImportFrom")), bucket(named("ImportFrom")));
        assert_eq!(accepted_by(&set("ImportFrom")) & bucket(named("Subscript")), 0);
        let stmts = accepted_by(&set("stmt"));
        assert_eq!(stmts.count_ones(), 28, "27 statements and the shared bucket (the class stmt)");
        assert_eq!(bucket(named("Load")), bucket(named("Add")));
        assert_eq!(
            bucket(&NodeClass {
                name: "X",
                base: None,
                fields: &[],
                attributes: &[],
                optional: &[]
            }),
            u64::MAX
        );
    }

    #[test]
    fn index_is_the_position_in_classes() {
        for (i, c) in CLASSES.iter().enumerate() {
            assert_eq!(c.index(), Some(i));
        }
        let elsewhere =
            NodeClass { name: "X", base: None, fields: &[], attributes: &[], optional: &[] };
        assert_eq!(elsewhere.index(), None);
    }

    /// The ancestor table answers as the walk up the base chain does, for every pair of classes
    /// (and the walk still serves a class defined elsewhere).
    #[test]
    fn subclass_table_agrees_with_the_walk() {
        let mut yes = 0;
        for a in CLASSES {
            for b in CLASSES {
                assert_eq!(a.is_subclass_of(b), a.walk_is_subclass_of(b), "{} {}", a.name, b.name);
                yes += usize::from(a.is_subclass_of(b));
            }
        }
        assert!(yes > CLASSES.len(), "every class is its own subclass, and some have bases");
        let expr = class("expr").map(|c| class("Name").is_some_and(|n| n.is_subclass_of(c)));
        assert_eq!(expr, Some(true));
        let elsewhere = NodeClass {
            name: "Name",
            base: Some("expr"),
            fields: &[],
            attributes: &[],
            optional: &[],
        };
        assert!(class("AST").is_some_and(|ast| elsewhere.is_subclass_of(ast)));
    }
}
