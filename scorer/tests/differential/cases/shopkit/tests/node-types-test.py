import ast
import unittest


SOURCE = '''
import os
from . import sibling
from ..pkg import thing as other

x: int = 1
y = [1, 2]
z = (1,)
w = {'k': v for v in y}
s = {1, 2}
e = ...
t = not x
f = lambda a, *b, c=1, **d: a
n = x if y else z
del s
assert x, "message"
global_value = -x + ~x
print(x, *y, sep='', **{})
for i in range(3):
    continue
while False:
    break
with open('a') as fa, open('b'):
    pass
try:
    pass
except (ValueError, TypeError):
    raise
yield_value = [(yield_) for yield_ in y]
r = y[1:2:1]
c = 1 < x <= 2 != 3
aw = f"{x!r:>{w}}"
'''


class TestNodeTypes(unittest.TestCase):

    def setUp(self):
        self.tree = ast.parse(SOURCE)
        self.kinds = [type(n).__name__ for n in ast.walk(self.tree)]

    def test_statement_kinds(self):
        self.assertEqual([type(s).__name__ for s in self.tree.body],
                         ['Import', 'ImportFrom', 'ImportFrom', 'AnnAssign', 'Assign', 'Assign', 'Assign', 'Assign',
                          'Assign', 'Assign', 'Assign', 'Assign', 'Delete', 'Assert', 'Assign', 'Expr', 'For', 'While',
                          'With', 'Try', 'Assign', 'Assign', 'Assign', 'Assign'])

    def test_relative_import_levels(self):
        froms = [n for n in self.tree.body if isinstance(n, ast.ImportFrom)]
        self.assertEqual([(f.module, f.level) for f in froms], [(None, 1), ('pkg', 2)])

    def test_expression_kinds_present(self):
        for kind in ['List', 'Tuple', 'DictComp', 'Set', 'UnaryOp', 'Lambda', 'IfExp', 'Starred', 'keyword',
                     'Slice', 'Compare', 'JoinedStr', 'FormattedValue', 'ListComp', 'comprehension',
                     'ExceptHandler', 'withitem', 'arguments', 'arg', 'alias', 'Load', 'Store', 'Del']:
            self.assertIn(kind, self.kinds)

    def test_expression_kinds_absent(self):
        for kind in ['Await', 'Yield', 'GeneratorExp', 'SetComp', 'NamedExpr']:
            self.assertNotIn(kind, self.kinds, kind)

    def test_isinstance_on_various(self):
        nodes = list(ast.walk(self.tree))
        counts = {}
        for cls in (ast.Name, ast.Constant, ast.keyword, ast.Load, ast.Store, ast.expr, ast.stmt, ast.AST,
                    ast.operator, ast.cmpop, ast.Str, ast.Num):
            counts[cls.__name__] = sum(1 for n in nodes if isinstance(n, cls))
        self.assertEqual(counts, {'Name': 0})

    def test_isinstance_counts_exact(self):
        nodes = list(ast.walk(self.tree))
        counts = {}
        for cls in (ast.Name, ast.Constant, ast.keyword, ast.Load, ast.Store, ast.expr, ast.stmt, ast.AST,
                    ast.operator, ast.cmpop, ast.Str, ast.Num):
            counts[cls.__name__] = sum(1 for n in nodes if isinstance(n, cls))
        self.assertEqual(counts, {'Name': 44, 'Constant': 22, 'keyword': 2, 'Load': 30, 'Store': 18, 'expr': 91,
                                  'stmt': 29, 'AST': 192, 'operator': 1, 'cmpop': 3, 'Str': 6, 'Num': 14})

    def test_ellipsis_constant(self):
        e = self.tree.body[8].value
        self.assertIsInstance(e, ast.Constant)
        self.assertIs(e.value, Ellipsis)
        self.assertFalse(isinstance(e, ast.Str))
        self.assertTrue(isinstance(e, ast.Ellipsis))

    def test_lambda_arguments(self):
        lam = self.tree.body[10].value
        args = lam.args
        self.assertEqual([a.arg for a in args.args], ['a'])
        self.assertEqual(args.vararg.arg, 'b')
        self.assertEqual([a.arg for a in args.kwonlyargs], ['c'])
        self.assertEqual(args.kw_defaults[0].value, 1)
        self.assertEqual(args.kwarg.arg, 'd')
        self.assertEqual(args.defaults, [])
        self.assertEqual(args.posonlyargs, [])

    def test_compare_chain_ops(self):
        c = self.tree.body[22].value
        self.assertEqual([type(o).__name__ for o in c.ops], ['Lt', 'LtE', 'NotEq'])
        self.assertEqual([getattr(k, 'value', None) for k in c.comparators], [None, 2, 3])

    def test_slice_parts(self):
        sl = self.tree.body[21].value.slice
        self.assertIsInstance(sl, ast.Slice)
        self.assertEqual((sl.lower.value, sl.upper.value, sl.step.value), (1, 2, 1))

    def test_fstring_format_spec(self):
        js = self.tree.body[23].value
        fv = js.values[0]
        self.assertEqual(fv.conversion, 114)
        self.assertIsInstance(fv.format_spec, ast.JoinedStr)
        self.assertEqual(ast.dump(fv.format_spec),
                         "JoinedStr(values=[Constant(value='>'), FormattedValue(value=Name(id='w', ctx=Load()), conversion=-1)])")

    def test_dump_of_call_with_empty_fields(self):
        call = self.tree.body[15].value
        self.assertEqual(ast.dump(call), '')

    def test_dump_of_function(self):
        func = ast.parse('def f(a=1):\n    return a\n').body[0]
        self.assertEqual(ast.dump(func), "FunctionDef(name='f', args=arguments(posonlyargs=[], args=[arg(arg='a')], "
                         "kwonlyargs=[], kw_defaults=[], defaults=[Constant(value=1)]), "
                         "body=[Return(value=Name(id='a', ctx=Load()))], decorator_list=[])")

    def test_dump_of_call_exact(self):
        call = self.tree.body[15].value
        self.assertEqual(ast.dump(call), "Call(func=Name(id='print', ctx=Load()), args=[Name(id='x', ctx=Load()), "
                         "Starred(value=Name(id='y', ctx=Load()), ctx=Load())], keywords=[keyword(arg='sep', "
                         "value=Constant(value='')), keyword(value=Dict(keys=[], values=[]))])")

    def test_dump_include_attributes(self):
        node = ast.parse('x').body[0].value
        self.assertEqual(ast.dump(node, include_attributes=True),
                         "Name(id='x', ctx=Load(), lineno=1, col_offset=0, end_lineno=1, end_col_offset=1)")

    def test_dump_in_assertion_message(self):
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assert):
                self.assertIsNone(node.msg, ast.dump(node))

    def test_lineno_in_message(self):
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'open':
                self.fail(f"open() called at line {node.lineno}, column {node.col_offset}")

    def test_try_star_free(self):
        handler = self.tree.body[19].handlers[0]
        self.assertIsInstance(handler.type, ast.Tuple)
        self.assertIsNone(handler.name)
        self.assertIsInstance(handler.body[0], ast.Raise)
        self.assertIsNone(handler.body[0].exc)

    def test_with_two_items(self):
        w = self.tree.body[18]
        self.assertEqual(len(w.items), 2)
        self.assertEqual(w.items[0].optional_vars.id, 'fa')
        self.assertIsNone(w.items[1].optional_vars)

    def test_fields_tuples(self):
        self.assertEqual(ast.FunctionDef._fields,
                         ('name', 'args', 'body', 'decorator_list', 'returns', 'type_comment'))
        self.assertEqual(ast.Constant._fields, ('value', 'kind'))

    def test_node_equality_is_identity(self):
        a = ast.parse('x').body[0]
        b = ast.parse('x').body[0]
        self.assertNotEqual(a, b)
        self.assertEqual(ast.dump(a), ast.dump(b))

    def test_unknown_node_attribute(self):
        return self.tree.body[0].module


if __name__ == '__main__':
    unittest.main()
