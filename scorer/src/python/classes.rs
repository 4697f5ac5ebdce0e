//! Tables generated from CPython 3.11.7 by `scripts/gen-ast-classes.py` (it reads `ast`;
//! CPython 3.11 only). Do not edit by hand; regenerate if the target CPython changes.

use super::node::NodeClass;

// Generated from CPython 3.11.7 `ast` (all AST subclasses, depth-first, subclasses sorted by name).
pub(crate) static ALL: [NodeClass; 131] = [
    NodeClass { name: "AST", base: None, fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "alias",
        base: Some("AST"),
        fields: &["name", "asname"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["asname", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "arg",
        base: Some("AST"),
        fields: &["arg", "annotation", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["annotation", "type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "arguments",
        base: Some("AST"),
        fields: &[
            "posonlyargs",
            "args",
            "vararg",
            "kwonlyargs",
            "kw_defaults",
            "kwarg",
            "defaults",
        ],
        attributes: &[],
        optional: &["vararg", "kwarg"],
    },
    NodeClass { name: "boolop", base: Some("AST"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "And", base: Some("boolop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Or", base: Some("boolop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "cmpop", base: Some("AST"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Eq", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Gt", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "GtE", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "In", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Is", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "IsNot", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Lt", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "LtE", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "NotEq", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "NotIn", base: Some("cmpop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "comprehension",
        base: Some("AST"),
        fields: &["target", "iter", "ifs", "is_async"],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "excepthandler",
        base: Some("AST"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "ExceptHandler",
        base: Some("excepthandler"),
        fields: &["type", "name", "body"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["type", "name", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "expr",
        base: Some("AST"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Attribute",
        base: Some("expr"),
        fields: &["value", "attr", "ctx"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Await",
        base: Some("expr"),
        fields: &["value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "BinOp",
        base: Some("expr"),
        fields: &["left", "op", "right"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "BoolOp",
        base: Some("expr"),
        fields: &["op", "values"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Call",
        base: Some("expr"),
        fields: &["func", "args", "keywords"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Compare",
        base: Some("expr"),
        fields: &["left", "ops", "comparators"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Constant",
        base: Some("expr"),
        fields: &["value", "kind"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["kind", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Bytes",
        base: Some("Constant"),
        fields: &["s"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Ellipsis",
        base: Some("Constant"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "NameConstant",
        base: Some("Constant"),
        fields: &["value", "kind"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["kind", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Num",
        base: Some("Constant"),
        fields: &["n"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Str",
        base: Some("Constant"),
        fields: &["s"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Dict",
        base: Some("expr"),
        fields: &["keys", "values"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "DictComp",
        base: Some("expr"),
        fields: &["key", "value", "generators"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "FormattedValue",
        base: Some("expr"),
        fields: &["value", "conversion", "format_spec"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["format_spec", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "GeneratorExp",
        base: Some("expr"),
        fields: &["elt", "generators"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "IfExp",
        base: Some("expr"),
        fields: &["test", "body", "orelse"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "JoinedStr",
        base: Some("expr"),
        fields: &["values"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Lambda",
        base: Some("expr"),
        fields: &["args", "body"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "List",
        base: Some("expr"),
        fields: &["elts", "ctx"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "ListComp",
        base: Some("expr"),
        fields: &["elt", "generators"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Name",
        base: Some("expr"),
        fields: &["id", "ctx"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "NamedExpr",
        base: Some("expr"),
        fields: &["target", "value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Set",
        base: Some("expr"),
        fields: &["elts"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "SetComp",
        base: Some("expr"),
        fields: &["elt", "generators"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Slice",
        base: Some("expr"),
        fields: &["lower", "upper", "step"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["lower", "upper", "step", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Starred",
        base: Some("expr"),
        fields: &["value", "ctx"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Subscript",
        base: Some("expr"),
        fields: &["value", "slice", "ctx"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Tuple",
        base: Some("expr"),
        fields: &["elts", "ctx"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "UnaryOp",
        base: Some("expr"),
        fields: &["op", "operand"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Yield",
        base: Some("expr"),
        fields: &["value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["value", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "YieldFrom",
        base: Some("expr"),
        fields: &["value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "expr_context",
        base: Some("AST"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "AugLoad",
        base: Some("expr_context"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "AugStore",
        base: Some("expr_context"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "Del",
        base: Some("expr_context"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "Load",
        base: Some("expr_context"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "Param",
        base: Some("expr_context"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "Store",
        base: Some("expr_context"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "keyword",
        base: Some("AST"),
        fields: &["arg", "value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["arg", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "match_case",
        base: Some("AST"),
        fields: &["pattern", "guard", "body"],
        attributes: &[],
        optional: &["guard"],
    },
    NodeClass { name: "mod", base: Some("AST"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "Expression",
        base: Some("mod"),
        fields: &["body"],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "FunctionType",
        base: Some("mod"),
        fields: &["argtypes", "returns"],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "Interactive",
        base: Some("mod"),
        fields: &["body"],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "Module",
        base: Some("mod"),
        fields: &["body", "type_ignores"],
        attributes: &[],
        optional: &[],
    },
    NodeClass { name: "Suite", base: Some("mod"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "operator", base: Some("AST"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Add", base: Some("operator"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "BitAnd",
        base: Some("operator"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "BitOr",
        base: Some("operator"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "BitXor",
        base: Some("operator"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass { name: "Div", base: Some("operator"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "FloorDiv",
        base: Some("operator"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "LShift",
        base: Some("operator"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "MatMult",
        base: Some("operator"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass { name: "Mod", base: Some("operator"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Mult", base: Some("operator"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "Pow", base: Some("operator"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "RShift",
        base: Some("operator"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass { name: "Sub", base: Some("operator"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "pattern",
        base: Some("AST"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &[],
    },
    NodeClass {
        name: "MatchAs",
        base: Some("pattern"),
        fields: &["pattern", "name"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["pattern", "name"],
    },
    NodeClass {
        name: "MatchClass",
        base: Some("pattern"),
        fields: &["cls", "patterns", "kwd_attrs", "kwd_patterns"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &[],
    },
    NodeClass {
        name: "MatchMapping",
        base: Some("pattern"),
        fields: &["keys", "patterns", "rest"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["rest"],
    },
    NodeClass {
        name: "MatchOr",
        base: Some("pattern"),
        fields: &["patterns"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &[],
    },
    NodeClass {
        name: "MatchSequence",
        base: Some("pattern"),
        fields: &["patterns"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &[],
    },
    NodeClass {
        name: "MatchSingleton",
        base: Some("pattern"),
        fields: &["value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &[],
    },
    NodeClass {
        name: "MatchStar",
        base: Some("pattern"),
        fields: &["name"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["name"],
    },
    NodeClass {
        name: "MatchValue",
        base: Some("pattern"),
        fields: &["value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &[],
    },
    NodeClass { name: "slice", base: Some("AST"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "ExtSlice",
        base: Some("slice"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass { name: "Index", base: Some("slice"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "stmt",
        base: Some("AST"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "AnnAssign",
        base: Some("stmt"),
        fields: &["target", "annotation", "value", "simple"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["value", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Assert",
        base: Some("stmt"),
        fields: &["test", "msg"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["msg", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Assign",
        base: Some("stmt"),
        fields: &["targets", "value", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "AsyncFor",
        base: Some("stmt"),
        fields: &["target", "iter", "body", "orelse", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "AsyncFunctionDef",
        base: Some("stmt"),
        fields: &["name", "args", "body", "decorator_list", "returns", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["returns", "type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "AsyncWith",
        base: Some("stmt"),
        fields: &["items", "body", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "AugAssign",
        base: Some("stmt"),
        fields: &["target", "op", "value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Break",
        base: Some("stmt"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "ClassDef",
        base: Some("stmt"),
        fields: &["name", "bases", "keywords", "body", "decorator_list"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Continue",
        base: Some("stmt"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Delete",
        base: Some("stmt"),
        fields: &["targets"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Expr",
        base: Some("stmt"),
        fields: &["value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "For",
        base: Some("stmt"),
        fields: &["target", "iter", "body", "orelse", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "FunctionDef",
        base: Some("stmt"),
        fields: &["name", "args", "body", "decorator_list", "returns", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["returns", "type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Global",
        base: Some("stmt"),
        fields: &["names"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "If",
        base: Some("stmt"),
        fields: &["test", "body", "orelse"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Import",
        base: Some("stmt"),
        fields: &["names"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "ImportFrom",
        base: Some("stmt"),
        fields: &["module", "names", "level"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["module", "level", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Match",
        base: Some("stmt"),
        fields: &["subject", "cases"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Nonlocal",
        base: Some("stmt"),
        fields: &["names"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Pass",
        base: Some("stmt"),
        fields: &[],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Raise",
        base: Some("stmt"),
        fields: &["exc", "cause"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["exc", "cause", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Return",
        base: Some("stmt"),
        fields: &["value"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["value", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "Try",
        base: Some("stmt"),
        fields: &["body", "handlers", "orelse", "finalbody"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "TryStar",
        base: Some("stmt"),
        fields: &["body", "handlers", "orelse", "finalbody"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "While",
        base: Some("stmt"),
        fields: &["test", "body", "orelse"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "With",
        base: Some("stmt"),
        fields: &["items", "body", "type_comment"],
        attributes: &["lineno", "col_offset", "end_lineno", "end_col_offset"],
        optional: &["type_comment", "end_lineno", "end_col_offset"],
    },
    NodeClass {
        name: "type_ignore",
        base: Some("AST"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass {
        name: "TypeIgnore",
        base: Some("type_ignore"),
        fields: &["lineno", "tag"],
        attributes: &[],
        optional: &[],
    },
    NodeClass { name: "unaryop", base: Some("AST"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "Invert",
        base: Some("unaryop"),
        fields: &[],
        attributes: &[],
        optional: &[],
    },
    NodeClass { name: "Not", base: Some("unaryop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "UAdd", base: Some("unaryop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass { name: "USub", base: Some("unaryop"), fields: &[], attributes: &[], optional: &[] },
    NodeClass {
        name: "withitem",
        base: Some("AST"),
        fields: &["context_expr", "optional_vars"],
        attributes: &[],
        optional: &["optional_vars"],
    },
];

/// Direct handles on each class, for fast conversion (`&ALL[i]` is the same object as `CLASSES[i]`).
#[allow(non_upper_case_globals, dead_code)]
pub mod k {
    use super::{NodeClass, ALL};
    pub static AST: &NodeClass = &ALL[0];
    pub static alias: &NodeClass = &ALL[1];
    pub static arg: &NodeClass = &ALL[2];
    pub static arguments: &NodeClass = &ALL[3];
    pub static boolop: &NodeClass = &ALL[4];
    pub static And: &NodeClass = &ALL[5];
    pub static Or: &NodeClass = &ALL[6];
    pub static cmpop: &NodeClass = &ALL[7];
    pub static Eq: &NodeClass = &ALL[8];
    pub static Gt: &NodeClass = &ALL[9];
    pub static GtE: &NodeClass = &ALL[10];
    pub static In: &NodeClass = &ALL[11];
    pub static Is: &NodeClass = &ALL[12];
    pub static IsNot: &NodeClass = &ALL[13];
    pub static Lt: &NodeClass = &ALL[14];
    pub static LtE: &NodeClass = &ALL[15];
    pub static NotEq: &NodeClass = &ALL[16];
    pub static NotIn: &NodeClass = &ALL[17];
    pub static comprehension: &NodeClass = &ALL[18];
    pub static excepthandler: &NodeClass = &ALL[19];
    pub static ExceptHandler: &NodeClass = &ALL[20];
    pub static expr: &NodeClass = &ALL[21];
    pub static Attribute: &NodeClass = &ALL[22];
    pub static Await: &NodeClass = &ALL[23];
    pub static BinOp: &NodeClass = &ALL[24];
    pub static BoolOp: &NodeClass = &ALL[25];
    pub static Call: &NodeClass = &ALL[26];
    pub static Compare: &NodeClass = &ALL[27];
    pub static Constant: &NodeClass = &ALL[28];
    pub static Bytes: &NodeClass = &ALL[29];
    pub static Ellipsis: &NodeClass = &ALL[30];
    pub static NameConstant: &NodeClass = &ALL[31];
    pub static Num: &NodeClass = &ALL[32];
    pub static Str: &NodeClass = &ALL[33];
    pub static Dict: &NodeClass = &ALL[34];
    pub static DictComp: &NodeClass = &ALL[35];
    pub static FormattedValue: &NodeClass = &ALL[36];
    pub static GeneratorExp: &NodeClass = &ALL[37];
    pub static IfExp: &NodeClass = &ALL[38];
    pub static JoinedStr: &NodeClass = &ALL[39];
    pub static Lambda: &NodeClass = &ALL[40];
    pub static List: &NodeClass = &ALL[41];
    pub static ListComp: &NodeClass = &ALL[42];
    pub static Name: &NodeClass = &ALL[43];
    pub static NamedExpr: &NodeClass = &ALL[44];
    pub static Set: &NodeClass = &ALL[45];
    pub static SetComp: &NodeClass = &ALL[46];
    pub static Slice: &NodeClass = &ALL[47];
    pub static Starred: &NodeClass = &ALL[48];
    pub static Subscript: &NodeClass = &ALL[49];
    pub static Tuple: &NodeClass = &ALL[50];
    pub static UnaryOp: &NodeClass = &ALL[51];
    pub static Yield: &NodeClass = &ALL[52];
    pub static YieldFrom: &NodeClass = &ALL[53];
    pub static expr_context: &NodeClass = &ALL[54];
    pub static AugLoad: &NodeClass = &ALL[55];
    pub static AugStore: &NodeClass = &ALL[56];
    pub static Del: &NodeClass = &ALL[57];
    pub static Load: &NodeClass = &ALL[58];
    pub static Param: &NodeClass = &ALL[59];
    pub static Store: &NodeClass = &ALL[60];
    pub static keyword: &NodeClass = &ALL[61];
    pub static match_case: &NodeClass = &ALL[62];
    pub static r#mod: &NodeClass = &ALL[63];
    pub static Expression: &NodeClass = &ALL[64];
    pub static FunctionType: &NodeClass = &ALL[65];
    pub static Interactive: &NodeClass = &ALL[66];
    pub static Module: &NodeClass = &ALL[67];
    pub static Suite: &NodeClass = &ALL[68];
    pub static operator: &NodeClass = &ALL[69];
    pub static Add: &NodeClass = &ALL[70];
    pub static BitAnd: &NodeClass = &ALL[71];
    pub static BitOr: &NodeClass = &ALL[72];
    pub static BitXor: &NodeClass = &ALL[73];
    pub static Div: &NodeClass = &ALL[74];
    pub static FloorDiv: &NodeClass = &ALL[75];
    pub static LShift: &NodeClass = &ALL[76];
    pub static MatMult: &NodeClass = &ALL[77];
    pub static Mod: &NodeClass = &ALL[78];
    pub static Mult: &NodeClass = &ALL[79];
    pub static Pow: &NodeClass = &ALL[80];
    pub static RShift: &NodeClass = &ALL[81];
    pub static Sub: &NodeClass = &ALL[82];
    pub static pattern: &NodeClass = &ALL[83];
    pub static MatchAs: &NodeClass = &ALL[84];
    pub static MatchClass: &NodeClass = &ALL[85];
    pub static MatchMapping: &NodeClass = &ALL[86];
    pub static MatchOr: &NodeClass = &ALL[87];
    pub static MatchSequence: &NodeClass = &ALL[88];
    pub static MatchSingleton: &NodeClass = &ALL[89];
    pub static MatchStar: &NodeClass = &ALL[90];
    pub static MatchValue: &NodeClass = &ALL[91];
    pub static slice: &NodeClass = &ALL[92];
    pub static ExtSlice: &NodeClass = &ALL[93];
    pub static Index: &NodeClass = &ALL[94];
    pub static stmt: &NodeClass = &ALL[95];
    pub static AnnAssign: &NodeClass = &ALL[96];
    pub static Assert: &NodeClass = &ALL[97];
    pub static Assign: &NodeClass = &ALL[98];
    pub static AsyncFor: &NodeClass = &ALL[99];
    pub static AsyncFunctionDef: &NodeClass = &ALL[100];
    pub static AsyncWith: &NodeClass = &ALL[101];
    pub static AugAssign: &NodeClass = &ALL[102];
    pub static Break: &NodeClass = &ALL[103];
    pub static ClassDef: &NodeClass = &ALL[104];
    pub static Continue: &NodeClass = &ALL[105];
    pub static Delete: &NodeClass = &ALL[106];
    pub static Expr: &NodeClass = &ALL[107];
    pub static For: &NodeClass = &ALL[108];
    pub static FunctionDef: &NodeClass = &ALL[109];
    pub static Global: &NodeClass = &ALL[110];
    pub static If: &NodeClass = &ALL[111];
    pub static Import: &NodeClass = &ALL[112];
    pub static ImportFrom: &NodeClass = &ALL[113];
    pub static Match: &NodeClass = &ALL[114];
    pub static Nonlocal: &NodeClass = &ALL[115];
    pub static Pass: &NodeClass = &ALL[116];
    pub static Raise: &NodeClass = &ALL[117];
    pub static Return: &NodeClass = &ALL[118];
    pub static Try: &NodeClass = &ALL[119];
    pub static TryStar: &NodeClass = &ALL[120];
    pub static While: &NodeClass = &ALL[121];
    pub static With: &NodeClass = &ALL[122];
    pub static type_ignore: &NodeClass = &ALL[123];
    pub static TypeIgnore: &NodeClass = &ALL[124];
    pub static unaryop: &NodeClass = &ALL[125];
    pub static Invert: &NodeClass = &ALL[126];
    pub static Not: &NodeClass = &ALL[127];
    pub static UAdd: &NodeClass = &ALL[128];
    pub static USub: &NodeClass = &ALL[129];
    pub static withitem: &NodeClass = &ALL[130];
}
