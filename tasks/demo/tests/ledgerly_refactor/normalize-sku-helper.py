import unittest
import ast
import os

CALL_SITES = [
    '../ledgerly/inventory/stock.py',
    '../ledgerly/importers/stock_count.py',
    '../ledgerly/cli.py',
]


def is_inline_normalisation(node):
    # matches <x>.strip().upper().replace(...)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'replace'
            and isinstance(node.func.value, ast.Call) and isinstance(node.func.value.func, ast.Attribute)
            and node.func.value.func.attr == 'upper')


class TestNormalizeSkuHelper(unittest.TestCase):

    def test_text_defines_normalize_sku(self):
        with open('../ledgerly/utils/text.py', 'r') as f:
            tree = ast.parse(f.read())
        found = None
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == 'normalize_sku':
                found = node
        self.assertTrue(found is not None, "normalize_sku is not defined in ledgerly/utils/text.py")
        self.assertEqual(len(found.args.args), 1, "normalize_sku should take exactly one argument")

    def test_helper_does_the_normalisation(self):
        with open('../ledgerly/utils/text.py', 'r') as f:
            tree = ast.parse(f.read())
        inline = False
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'normalize_sku':
                inline = any(is_inline_normalisation(sub) for sub in ast.walk(node))
        self.assertTrue(inline, "normalize_sku should strip, upper-case and replace spaces")

    def test_call_sites_import_helper(self):
        for path in CALL_SITES:
            with self.subTest(file=path):
                with open(path, 'r') as f:
                    tree = ast.parse(f.read())
                imported = False
                for node in ast.walk(tree):
                    if isinstance(node, ast.ImportFrom) and node.module == 'ledgerly.utils.text':
                        imported = imported or any(a.name == 'normalize_sku' for a in node.names)
                self.assertTrue(imported, f"{path} does not import normalize_sku from ledgerly.utils.text")

    def test_call_sites_call_helper(self):
        for path in CALL_SITES:
            with self.subTest(file=path):
                with open(path, 'r') as f:
                    tree = ast.parse(f.read())
                calls = [node for node in ast.walk(tree)
                         if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'normalize_sku']
                self.assertTrue(len(calls) > 0, f"{path} does not call normalize_sku")

    def test_no_inline_normalisation_left(self):
        for path in CALL_SITES:
            with self.subTest(file=path):
                with open(path, 'r') as f:
                    tree = ast.parse(f.read())
                leftovers = [node.lineno for node in ast.walk(tree) if is_inline_normalisation(node)]
                self.assertEqual(leftovers, [], f"{path} still normalises SKUs inline")

    def test_slugify_untouched(self):
        with open('../ledgerly/utils/text.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertIn('slugify', [n.name for n in tree.body if isinstance(n, ast.FunctionDef)])


if __name__ == '__main__':
    unittest.main()
