import ast
import os
import unittest


class TestModernSyntax(unittest.TestCase):

    def test_modern_module_exists(self):
        self.assertTrue(os.path.exists('../shopkit/modern.py'))

    def test_modern_type_alias(self):
        with open('../shopkit/modern.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertTrue(any(isinstance(n, ast.FunctionDef) and n.name == 'first' for n in ast.walk(tree)))

    def test_modern_with_filename(self):
        with open('../shopkit/modern.py', 'r') as f:
            source = f.read()
        tree = ast.parse(source, filename='modern.py')
        self.assertIsNotNone(tree)

    def test_modern_generic_function_only(self):
        with open('../shopkit/modern.py', 'r') as f:
            source = f.read()
        tree = ast.parse(source.split('\n\n\n', 1)[1])
        self.assertIsNotNone(tree)

    def test_modern_raises_syntax_error(self):
        with open('../shopkit/modern.py', 'r') as f:
            source = f.read()
        with self.assertRaises(SyntaxError):
            ast.parse(source)

    def test_modern_syntax_error_details(self):
        with open('../shopkit/modern.py', 'r') as f:
            source = f.read()
        try:
            ast.parse(source)
        except SyntaxError as exc:
            self.assertEqual(exc.lineno, 1)
            self.assertEqual(exc.msg, 'invalid syntax')
            self.assertEqual(exc.msg, 'expected something else')

    def test_broken_module(self):
        with open('../shopkit/broken.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertTrue(tree.body)

    def test_broken_module_with_filename(self):
        with open('../shopkit/broken.py', 'r') as f:
            ast.parse(f.read(), filename='__init__.py')

    def test_unexpected_indent(self):
        ast.parse("x = 1\n  y = 2\n")

    def test_unterminated_string(self):
        ast.parse("x = 'abc\n")

    def test_fstring_nested_quotes_312(self):
        ast.parse('f"{"nested"}"\n')

    def test_walrus_and_match_parse(self):
        tree = ast.parse("if (n := 10) > 5:\n    pass\nmatch n:\n    case 1:\n        pass\n")
        self.assertIsInstance(tree.body[0].test.left, ast.NamedExpr)
        self.assertIsInstance(tree.body[1], ast.Match)

    def test_parse_empty_file(self):
        with open('../shopkit/api/__init__.py', 'r') as f:
            source = f.read()
        self.assertEqual(source, '')
        tree = ast.parse(source)
        self.assertEqual(tree.body, [])
        self.assertIsInstance(tree, ast.Module)

    def test_parse_empty_file_has_body(self):
        with open('../shopkit/api/__init__.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertTrue(tree.body, "empty module")

    def test_syntax_error_is_subclass(self):
        self.assertTrue(issubclass(SyntaxError, Exception))
        try:
            ast.parse("def (")
        except Exception as exc:
            self.assertEqual(type(exc).__name__, 'SyntaxError')


if __name__ == '__main__':
    unittest.main()
