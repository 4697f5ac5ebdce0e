import ast
import unittest


class TestAstHelpers(unittest.TestCase):

    def setUp(self):
        with open('../shopkit/pricing.py', 'r') as f:
            self.source = f.read()
        self.tree = ast.parse(self.source)
        self.func = next(n for n in ast.walk(self.tree)
                         if isinstance(n, ast.FunctionDef) and n.name == 'apply_discount')

    def test_or_of_classes_is_first_class(self):
        matches = [n.name for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef or ast.ClassDef)]
        self.assertNotIn('PriceRule', matches)
        self.assertIn('scan', matches)

    def test_name_or_string_always_true(self):
        found = [n.name for n in ast.walk(self.tree)
                 if isinstance(n, ast.FunctionDef) and n.name == 'missing' or 'other']
        self.assertEqual(len(found), 0, "the condition is always true")

    def test_walk_over_list_fails(self):
        names = [n for n in ast.walk(self.func.body)]
        self.assertTrue(names)

    def test_walk_over_none_fails(self):
        node = next((n for n in ast.walk(self.tree) if isinstance(n, ast.AsyncFunctionDef)), None)
        return list(ast.walk(node))

    def test_search_in_dump(self):
        dump = ast.dump(self.tree)
        self.assertIn("name='compute_total'", dump)
        self.assertNotIn("name='get_total'", dump)
        self.assertIn("arg(arg='percent')", dump)

    def test_search_in_dump_fails(self):
        self.assertIn("FunctionDef(name='get_total'", ast.dump(self.tree))

    def test_iter_fields(self):
        fields = [name for name, value in ast.iter_fields(self.func)]
        self.assertEqual(fields, ['name', 'args', 'body', 'decorator_list', 'returns', 'type_comment'])

    def test_iter_child_nodes_of_function(self):
        kinds = [type(n).__name__ for n in ast.iter_child_nodes(self.func)]
        self.assertEqual(kinds, ['arguments', 'If', 'Assign', 'If', 'Return'])

    def test_unparse(self):
        self.assertEqual(ast.unparse(self.func.args), 'amount, percent=10, *, cap=None, log=False')
        self.assertEqual(ast.unparse(self.func.body[1]), 'result = amount * (100 - percent) / 100')

    def test_literal_eval(self):
        self.assertEqual(ast.literal_eval("{'a': [1, 2.5, None, True], 'b': (-1,)}"),
                         {'a': [1, 2.5, None, True], 'b': (-1,)})
        self.assertEqual(ast.literal_eval(self.func.args.defaults[0]), 10)

    def test_literal_eval_rejects_names(self):
        ast.literal_eval("os.getcwd()")

    def test_get_source_segment(self):
        segment = ast.get_source_segment(self.source, self.func.body[0].test)
        self.assertEqual(segment, 'percent < 0 or percent > 100')

    def test_get_docstring_of_module(self):
        self.assertEqual(ast.get_docstring(self.tree), 'Prices, discounts and totals.')
        self.assertIsNone(ast.get_docstring(self.func))

    def test_get_docstring_of_assign_fails(self):
        ast.get_docstring(self.func.body[1])

    def test_node_class_names(self):
        self.assertEqual(type(self.func).__name__, 'FunctionDef')
        self.assertEqual(self.func.__class__.__name__, 'FunctionDef')
        self.assertEqual(ast.FunctionDef.__name__, 'FunctionDef')
        self.assertTrue(issubclass(ast.FunctionDef, ast.stmt))
        self.assertTrue(issubclass(ast.Constant, ast.expr))

    def test_compare_with_ast_constant_instance(self):
        node = ast.Constant(value=10)
        self.assertNotEqual(self.func.args.defaults[0], node)
        self.assertEqual(ast.dump(self.func.args.defaults[0]), ast.dump(node))

    def test_build_node_and_dump(self):
        call = ast.Call(func=ast.Name(id='f', ctx=ast.Load()), args=[], keywords=[])
        self.assertEqual(ast.dump(call), "Call(func=Name(id='f', ctx=Load()), args=[], keywords=[])")

    def test_get_source_segment_missing_positions(self):
        node = ast.Name(id='x', ctx=ast.Load())
        self.assertIsNone(ast.get_source_segment(self.source, node))


if __name__ == '__main__':
    unittest.main()
