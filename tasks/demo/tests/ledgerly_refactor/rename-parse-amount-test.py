import unittest
import ast
import os


class TestRenameParseAmount(unittest.TestCase):

    def _parse(self, path):
        with open(path, 'rb') as f:
            return ast.parse(f.read())

    def _called_names(self, tree):
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                names.add(node.func.id)
        return names

    def _imported_names(self, tree, module):
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == module:
                for alias in node.names:
                    names.add(alias.name)
        return names

    def test_money_defines_parse_money(self):
        tree = self._parse('../ledgerly/money.py')
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'parse_money':
                found = True
                params = [arg.arg for arg in node.args.args]
                self.assertEqual(params, ['text', 'currency'], "parse_money should keep the parameters (text, currency)")
                break
        self.assertTrue(found, "Function 'parse_money' not found in ledgerly/money.py")

    def test_money_no_longer_defines_parse_amount(self):
        tree = self._parse('../ledgerly/money.py')
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                self.assertNotEqual(node.name, 'parse_amount', "'parse_amount' is still defined in ledgerly/money.py")

    def test_money_keeps_format_amount(self):
        tree = self._parse('../ledgerly/money.py')
        names = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
        self.assertIn('format_amount', names, "format_amount should not be renamed")

    def test_package_exports_parse_money(self):
        tree = self._parse('../ledgerly/__init__.py')
        self.assertIn('parse_money', self._imported_names(tree, 'ledgerly.money'),
                      "ledgerly/__init__.py does not import parse_money from ledgerly.money")
        exported = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == '__all__' for t in node.targets):
                exported = [elt.value for elt in node.value.elts if isinstance(elt, ast.Constant)]
        self.assertIn('parse_money', exported, "'parse_money' missing from __all__")
        self.assertNotIn('parse_amount', exported, "'parse_amount' still listed in __all__")

    def test_journal_uses_parse_money(self):
        tree = self._parse('../ledgerly/journal.py')
        self.assertIn('parse_money', self._imported_names(tree, 'ledgerly.money'),
                      "journal.py does not import parse_money")
        called = self._called_names(tree)
        self.assertIn('parse_money', called, "journal.py does not call parse_money")
        self.assertNotIn('parse_amount', called, "journal.py still calls parse_amount")

    def test_importers_use_parse_money(self):
        for path in ['../ledgerly/importers/bank.py', '../ledgerly/importers/stock_count.py']:
            tree = self._parse(path)
            called = self._called_names(tree)
            self.assertIn('parse_money', called, f"{path} does not call parse_money")
            self.assertNotIn('parse_amount', called, f"{path} still calls parse_amount")

    def test_cli_uses_parse_money(self):
        tree = self._parse('../ledgerly/cli.py')
        self.assertIn('parse_money', self._imported_names(tree, 'ledgerly.money'),
                      "cli.py does not import parse_money")
        self.assertNotIn('parse_amount', self._imported_names(tree, 'ledgerly.money'),
                         "cli.py still imports parse_amount")

    def test_tests_use_parse_money(self):
        tree = self._parse('../tests/test_money.py')
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                self.assertNotEqual(node.id, 'parse_amount', "tests/test_money.py still uses parse_amount")
        self.assertIn('parse_money', self._imported_names(tree, 'ledgerly.money'),
                      "tests/test_money.py does not import parse_money")


if __name__ == '__main__':
    unittest.main()
