import ast
import unittest


class TestGetCartUsages(unittest.TestCase):

    def _check(self, path, name):
        with open(path, 'r') as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name:
                in_with = any(isinstance(parent, ast.With) for parent in ast.iter_parent_nodes(tree, node))
                self.assertTrue(in_with, f"{name} call should be inside a with block")

    def test_views_tests_use_get_cart_safely(self):
        self._check('../tests/test_views.py', 'get_cart')

    def test_direct_tests_use_get_cart_safely(self):
        self._check('../tests/test_views_direct.py', 'get_cart')

    def test_direct_tests_use_cart_summary(self):
        self._check('../tests/test_views_direct.py', 'callable')

    def test_missing_tests_file(self):
        self._check('../tests/test_handlers.py', 'handle_error')

    def test_attribute_calls_counted(self):
        with open('../tests/test_views.py', 'r') as f:
            tree = ast.parse(f.read())
        calls = [n.func.attr for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
        self.assertEqual(calls, ['get_cart', 'assertRaises', 'assertIsNotNone'])

    def test_attribute_calls_counted_sorted(self):
        with open('../tests/test_views.py', 'r') as f:
            tree = ast.parse(f.read())
        calls = sorted(n.func.attr for n in ast.walk(tree)
                       if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute))
        self.assertEqual(calls, ['assertIsNotNone', 'assertRaises', 'get_cart'])

    def test_with_items(self):
        with open('../tests/test_views_direct.py', 'r') as f:
            tree = ast.parse(f.read())
        withs = [n for n in ast.walk(tree) if isinstance(n, ast.With)]
        self.assertEqual(len(withs), 1)
        item = withs[0].items[0]
        self.assertEqual(item.context_expr.func.attr, 'assertRaises')
        self.assertIsNone(item.optional_vars)

    def test_generator_outer_iterable_is_eager(self):
        gen = (x for x in ast.iter_parent_nodes())
        self.assertIsNotNone(gen)

    def test_generator_inner_iterable_is_lazy(self):
        gen = (y for x in [] for y in ast.iter_parent_nodes())
        self.assertEqual(list(gen), [])

    def test_hasattr_iter_parent_nodes(self):
        self.assertFalse(hasattr(ast, 'iter_parent_nodes'))
        self.assertTrue(hasattr(ast, 'iter_child_nodes'))

    def test_iter_child_nodes_of_call(self):
        tree = ast.parse("f(a, b, k=c)")
        call = tree.body[0].value
        kinds = [type(n).__name__ for n in ast.iter_child_nodes(call)]
        self.assertEqual(kinds, ['Name', 'Name', 'Name', 'keyword'])


if __name__ == '__main__':
    unittest.main()
