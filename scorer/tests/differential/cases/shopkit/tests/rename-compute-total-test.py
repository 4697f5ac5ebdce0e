import ast
import os
import unittest


class TestRenameComputeTotal(unittest.TestCase):

    def test_pricing_defines_compute_total(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'compute_total':
                found = True
                break
        self.assertTrue(found, "compute_total should be defined in pricing.py")

    def test_pricing_defines_get_total(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'get_total':
                found = True
                break
        self.assertTrue(found, "get_total should be defined in shopkit/pricing.py")

    def test_cart_imports_compute_total(self):
        with open('../shopkit/cart.py', 'r') as f:
            tree = ast.parse(f.read())
        imported = any(
            isinstance(node, ast.ImportFrom)
            and node.module == 'shopkit.pricing'
            and any(alias.name == 'compute_total' for alias in node.names)
            for node in ast.walk(tree)
        )
        self.assertTrue(imported, "cart.py should import compute_total from shopkit.pricing")

    def test_cart_imports_get_total(self):
        with open('../shopkit/cart.py', 'r') as f:
            tree = ast.parse(f.read())
        imported = any(
            isinstance(node, ast.ImportFrom)
            and node.module == 'shopkit.pricing'
            and any(alias.name == 'get_total' for alias in node.names)
            for node in ast.walk(tree)
        )
        self.assertTrue(imported)

    def test_cart_calls_compute_total_with_keyword(self):
        with open('../shopkit/cart.py', 'r') as f:
            tree = ast.parse(f.read())
        calls = [node for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                 and node.func.id == 'compute_total']
        self.assertEqual(len(calls), 1)
        self.assertIn('discount', [kw.arg for kw in calls[0].keywords])

    def test_cart_calls_get_total(self):
        with open('../shopkit/cart.py', 'r') as f:
            tree = ast.parse(f.read())
        calls = [node for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                 and node.func.id == 'get_total']
        self.assertEqual(len(calls), 1, "expected exactly one call to get_total")

    def test_first_compute_total_is_module_level(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        first = None
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'compute_total':
                first = node
                break
        self.assertIsNotNone(first)
        self.assertEqual(first.args.args[0].arg, 'items')

    def test_first_compute_total_takes_self(self):
        with open('../shopkit/pricing.py', 'r') as f:
            tree = ast.parse(f.read())
        first = next(node for node in ast.walk(tree)
                     if isinstance(node, ast.FunctionDef) and node.name == 'compute_total')
        self.assertEqual(first.args.args[0].arg, 'self')

    def test_docs_mention_compute_total(self):
        with open('../docs/index.rst', 'r') as f:
            content = f.read()
        self.assertIn('shopkit.pricing.compute_total', content)

    def test_docs_mention_get_total(self):
        with open('../docs/index.rst', 'r') as f:
            content = f.read()
        self.assertIn('get_total', content, "docs should mention get_total")

    def test_changelog_mentions_rename(self):
        with open('../docs/changelog.txt', 'r') as f:
            content = f.read()
        self.assertIn('Renamed ``get_total`` to ``compute_total``.\n', content)

    def test_changelog_text_has_no_cr(self):
        with open('../docs/changelog.txt', 'r') as f:
            content = f.read()
        self.assertNotIn('\r', content)

    def test_changelog_bytes_have_crlf(self):
        with open('../docs/changelog.txt', 'rb') as f:
            data = f.read()
        self.assertIn(b'\r\n', data)
        self.assertTrue(data.startswith(b'Changelog'))

    def test_new_module_exists(self):
        self.assertTrue(os.path.exists('../shopkit/totals.py'), "shopkit/totals.py should exist")

    def test_new_module_content(self):
        with open('../shopkit/totals.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertTrue(any(isinstance(n, ast.FunctionDef) for n in ast.walk(tree)))

    def test_old_name_not_in_init(self):
        with open('../shopkit/__init__.py', 'r') as f:
            content = f.read()
        self.assertNotIn('get_total', content)
        self.assertNotIn('compute_total', content, "__init__ should not re-export compute_total")


if __name__ == '__main__':
    unittest.main()
