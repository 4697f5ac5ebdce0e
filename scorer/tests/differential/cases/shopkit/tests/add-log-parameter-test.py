import ast
import unittest


class TestAddLogParameter(unittest.TestCase):

    def _get_function(self, tree, name):
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
                return node
        return None

    def _parse(self, path):
        with open(path, 'r') as f:
            return ast.parse(f.read())

    def test_add_has_log_parameter(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'add')
        self.assertIsNotNone(func, "add not found")
        self.assertIn('log', [arg.arg for arg in func.args.args])

    def test_add_log_default_is_false(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'add')
        args = func.args.args
        defaults = func.args.defaults
        found = False
        for arg, default in zip(args[-len(defaults):], defaults):
            if arg.arg == 'log' and isinstance(default, ast.Constant) and default.value is False:
                found = True
        self.assertTrue(found, "log should default to False")

    def test_add_log_default_equals_false(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'add')
        default = func.args.defaults[-1]
        self.assertTrue(default.value == False, "0 == False holds")
        self.assertFalse(default.value is False)

    def test_zip_pairs_from_the_left(self):
        tree = self._parse('../shopkit/pricing.py')
        func = self._get_function(tree, 'apply_discount')
        pairs = list(zip(func.args.args, func.args.defaults))
        self.assertEqual(len(pairs), 1)
        self.assertEqual(pairs[0][0].arg, 'amount')

    def test_zip_pairs_expect_percent(self):
        tree = self._parse('../shopkit/pricing.py')
        func = self._get_function(tree, 'apply_discount')
        for arg, default in zip(func.args.args, func.args.defaults):
            self.assertEqual(arg.arg, 'percent', "defaults should pair with percent")

    def test_kwonly_log(self):
        tree = self._parse('../shopkit/pricing.py')
        func = self._get_function(tree, 'apply_discount')
        names = [a.arg for a in func.args.kwonlyargs]
        self.assertEqual(names, ['cap', 'log'])
        defaults = func.args.kw_defaults
        self.assertIsNone(defaults[0].value)
        self.assertIs(defaults[1].value, False)

    def test_kwonly_log_is_true(self):
        tree = self._parse('../shopkit/pricing.py')
        func = self._get_function(tree, 'apply_discount')
        self.assertIs(func.args.kw_defaults[1].value, True)

    def test_compute_total_has_log(self):
        tree = self._parse('../shopkit/pricing.py')
        func = self._get_function(tree, 'compute_total')
        self.assertIn('log', [arg.arg for arg in func.args.args], "compute_total lacks log")

    def test_compute_total_first_match_is_method(self):
        tree = self._parse('../shopkit/pricing.py')
        func = self._get_function(tree, 'compute_total')
        self.assertEqual([a.arg for a in func.args.args], ['self', 'items'])

    def test_logger_info_called_with_log(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'add')
        calls = [n for n in ast.walk(func) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Attribute) and n.func.attr == 'info']
        self.assertEqual(len(calls), 1)
        self.assertEqual(calls[0].func.value.id, 'logger')
        self.assertEqual(calls[0].args[0].value, 'adding %s')

    def test_if_log_guard(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'add')
        guards = [n for n in ast.walk(func) if isinstance(n, ast.If)
                  and isinstance(n.test, ast.Name) and n.test.id == 'log']
        self.assertTrue(guards)
        self.assertIsInstance(guards[0].body[0], ast.Expr)

    def test_every_function_has_log(self):
        tree = self._parse('../shopkit/cart.py')
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                self.assertIn('log', [a.arg for a in node.args.args],
                              f"{node.name} has no log parameter")

    def test_async_sync_method(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'sync')
        self.assertIsInstance(func, ast.AsyncFunctionDef)
        awaits = [n for n in ast.walk(func) if isinstance(n, ast.Await)]
        self.assertEqual(len(awaits), 1)
        self.assertEqual(awaits[0].value.func.attr, 'push')

    def test_sync_is_function_def(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'sync')
        self.assertIsInstance(func, ast.FunctionDef)

    def test_missing_function_returns_none(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'checkout')
        self.assertIsNone(func)
        self.assertEqual(func.args, None)

    def test_annotation_of_total(self):
        tree = self._parse('../shopkit/cart.py')
        func = self._get_function(tree, 'total')
        ann = func.args.args[1].annotation
        self.assertIsInstance(ann, ast.Subscript)
        self.assertEqual(ann.value.id, 'Optional')
        self.assertEqual(ann.slice.id, 'int')

    def test_dataclass_fields(self):
        tree = self._parse('../shopkit/cart.py')
        cls = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == 'CartItem')
        self.assertEqual(cls.decorator_list[0].id, 'dataclass')
        fields = [s.target.id for s in cls.body if isinstance(s, ast.AnnAssign)]
        self.assertEqual(fields, ['sku', 'quantity', 'price', 'tags'])
        self.assertIsNone(cls.body[0].value)
        self.assertEqual(cls.body[3].value.keywords[0].value.id, 'list')


if __name__ == '__main__':
    unittest.main()
