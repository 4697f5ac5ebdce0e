import ast
import unittest


class TestWalkOrder(unittest.TestCase):

    def setUp(self):
        with open('../shopkit/legacy.py', 'r') as f:
            self.legacy = ast.parse(f.read())
        with open('../shopkit/utils/text.py', 'r') as f:
            self.text = ast.parse(f.read())

    def _func(self, tree, name):
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return node

    def test_label_kind_dotted_if(self):
        func = self._func(self.legacy, 'label_kind')
        self.assertTrue(any(isinstance(stmt, ast.If) and "." in stmt.test.left.s for stmt in ast.walk(func)))

    def test_label_kind_v2_dotted_if(self):
        func = self._func(self.legacy, 'label_kind_v2')
        self.assertTrue(any(isinstance(stmt, ast.If) and "." in stmt.test.left.s for stmt in ast.walk(func)))

    def test_scan_prefers_shallow_if(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        func = self._func(tree, 'scan')
        self.assertTrue(any(isinstance(stmt, ast.If) and "." in stmt.test.left.s for stmt in ast.walk(func)))

    def test_first_normalize_is_module_level(self):
        func = self._func(self.text, 'normalize')
        self.assertEqual(func.args.args[0].arg, 'text')
        self.assertEqual(func.lineno, 15)

    def test_first_normalize_is_method(self):
        func = self._func(self.text, 'normalize')
        self.assertEqual(func.args.args[0].arg, 'self', "first normalize should be the method")

    def test_function_names_in_walk_order(self):
        names = [n.name for n in ast.walk(self.text) if isinstance(n, ast.FunctionDef)]
        self.assertEqual(names, ['normalize', 'slugify', 'truncate', 'normalize', 'slug'])

    def test_function_names_in_source_order(self):
        names = [n.name for n in ast.walk(self.text) if isinstance(n, ast.FunctionDef)]
        self.assertEqual(names, ['normalize', 'slug', 'normalize', 'slugify', 'truncate'])

    def test_node_types_prefix(self):
        kinds = [type(n).__name__ for n in ast.walk(self.text)][:12]
        self.assertEqual(kinds, ['Module', 'Import', 'Import', 'Assign', 'ClassDef', 'FunctionDef',
                                 'FunctionDef', 'FunctionDef', 'alias', 'alias', 'Name', 'Call'])

    def test_node_types_prefix_wrong(self):
        kinds = [type(n).__name__ for n in ast.walk(self.text)][:8]
        self.assertEqual(kinds, ['Module', 'Import', 'alias', 'Import', 'alias', 'Assign', 'Name', 'Store'])

    def test_constants_in_walk_order(self):
        values = [n.value for n in ast.walk(self.legacy) if isinstance(n, ast.Constant)]
        self.assertEqual(values[:6], ['Legacy helpers kept for backwards compatibility.',
                                      'hello world', b'raw-bytes', 42, 0.5, True])

    def test_constants_count(self):
        values = [n.value for n in ast.walk(self.legacy) if isinstance(n, ast.Constant)]
        self.assertEqual(len(values), 100)

    def test_first_return_of_label_kind(self):
        func = self._func(self.legacy, 'label_kind')
        ret = next(n for n in ast.walk(func) if isinstance(n, ast.Return))
        self.assertEqual(ret.value.value, 'plain')

    def test_first_return_expect_dotted(self):
        func = self._func(self.legacy, 'label_kind')
        for node in ast.walk(func):
            if isinstance(node, ast.Return):
                self.assertEqual(node.value.value, 'dotted')
                break

    def test_each_if_compares_label(self):
        func = self._func(self.legacy, 'label_kind')
        for node in ast.walk(func):
            if isinstance(node, ast.If):
                self.assertEqual(node.test.comparators[0].id, 'label', ast.dump(node.test))

    def test_while_loop_found(self):
        func = self._func(self.legacy, 'retry')
        loops = [n for n in ast.walk(func) if isinstance(n, ast.While)]
        self.assertEqual(len(loops), 1)
        test = loops[0].test
        self.assertIsInstance(test, ast.Compare)
        self.assertIsInstance(test.ops[0], ast.Lt)
        self.assertEqual(test.comparators[0].id, 'attempts')

    def test_try_handlers(self):
        func = self._func(self.legacy, 'retry')
        tries = [n for n in ast.walk(func) if isinstance(n, ast.Try)]
        self.assertEqual(len(tries), 1)
        handler = tries[0].handlers[0]
        self.assertEqual(handler.type.id, 'OSError')
        self.assertEqual(handler.name, 'exc')
        self.assertEqual(len(tries[0].finalbody), 1)
        self.assertIsInstance(tries[0].finalbody[0], ast.Pass)
        self.assertEqual(tries[0].orelse, [])

    def test_try_has_else(self):
        func = self._func(self.legacy, 'retry')
        node = next(n for n in ast.walk(func) if isinstance(n, ast.Try))
        self.assertTrue(node.orelse, "try should have an else clause")


if __name__ == '__main__':
    unittest.main()
