#!/usr/bin/env python3
"""Writes scorer/src/python/classes.rs: every `ast` class of CPython 3.11 (name, base, `_fields`,
`_attributes`, and which of them default to None).

Needs CPython 3.11 (the classes are read from its `ast` module; another version has other
classes), stdlib only:

    python3.11 scripts/gen-ast-classes.py > scorer/src/python/classes.rs

The output is already laid out as rustfmt (max_width 100, use_small_heuristics "Max") lays it
out, so `cargo fmt` leaves it alone and `scorer/tests/suite/tidy.rs` can compare the
committed file with a fresh run byte for byte.

Order: `ast.AST` and its subclasses depth-first, each class's direct subclasses sorted by name
(code-point order). `optional` lists the fields, then the attributes, whose class attribute is
None in 3.11 (ASDL `?`): an instance built without them reads None, and `ast.dump` omits them.
"""

import ast
import platform
import sys

if sys.version_info[:2] != (3, 11):
    sys.exit("run with CPython 3.11 (the classes of another version differ)")

WIDTH = 100

# Class names that are Rust keywords are written as raw identifiers in `k` (`r#mod`).
RUST_KEYWORDS = set(
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop"
    " match mod move mut pub ref return self static struct super trait true type unsafe use where"
    " while abstract become box do final macro override priv try typeof unsized virtual yield".split()
)


def classes():
    out = []

    def visit(cls):
        out.append(cls)
        for sub in sorted(cls.__subclasses__(), key=lambda c: c.__name__):
            visit(sub)

    visit(ast.AST)
    return out


def optional(cls):
    missing = object()
    names = list(cls._fields) + list(getattr(cls, "_attributes", ()))
    return [n for n in names if getattr(cls, n, missing) is None]


def strs(names):
    return "&[" + ", ".join('"%s"' % n for n in names) + "]"


def field_lines(key, names):
    """One `key: &[...]` field at indent 8, broken one item per line when it is too long."""
    one = "        %s: %s," % (key, strs(names))
    if len(one) <= WIDTH:
        return [one]
    return ["        %s: &[" % key] + ['            "%s",' % n for n in names] + ["        ],"]


def entry(cls):
    base = cls.__bases__[0].__name__ if cls is not ast.AST else None
    fields = [
        ("name", '"%s"' % cls.__name__),
        ("base", 'Some("%s")' % base if base else "None"),
        ("fields", strs(cls._fields)),
        ("attributes", strs(getattr(cls, "_attributes", ()))),
        ("optional", strs(optional(cls))),
    ]
    one = "    NodeClass { " + ", ".join("%s: %s" % kv for kv in fields) + " },"
    if len(one) <= WIDTH:
        return [one]
    lines = ["    NodeClass {"]
    lines += ['        name: "%s",' % cls.__name__]
    lines += ["        base: %s," % fields[1][1]]
    lines += field_lines("fields", cls._fields)
    lines += field_lines("attributes", getattr(cls, "_attributes", ()))
    lines += field_lines("optional", optional(cls))
    lines += ["    },"]
    return lines


def main():
    version = platform.python_version()
    all_classes = classes()
    out = [
        "//! Tables generated from CPython %s by `scripts/gen-ast-classes.py` (it reads `ast`;"
        % version,
        "//! CPython 3.11 only). Do not edit by hand; regenerate if the target CPython changes.",
        "",
        "use super::node::NodeClass;",
        "",
        "// Generated from CPython %s `ast` (all AST subclasses, depth-first, subclasses sorted by name)."
        % version,
        "pub(crate) static ALL: [NodeClass; %d] = [" % len(all_classes),
    ]
    for cls in all_classes:
        out += entry(cls)
    out += [
        "];",
        "",
        "/// Direct handles on each class, for fast conversion (`&ALL[i]` is the same object as `CLASSES[i]`).",
        "#[allow(non_upper_case_globals, dead_code)]",
        "pub mod k {",
        "    use super::{NodeClass, ALL};",
    ]
    for i, cls in enumerate(all_classes):
        name = cls.__name__
        ident = "r#" + name if name in RUST_KEYWORDS else name
        out.append("    pub static %s: &NodeClass = &ALL[%d];" % (ident, i))
    out.append("}")
    sys.stdout.write("\n".join(out) + "\n")


main()
