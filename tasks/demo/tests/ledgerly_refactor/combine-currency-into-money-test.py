import unittest
import ast
import os


class TestCombineCurrencyIntoMoney(unittest.TestCase):

    def test_currency_module_removed(self):
        self.assertFalse(os.path.exists('../ledgerly/currency.py'), "ledgerly/currency.py should be merged into money.py and deleted")

    def test_money_module_exists(self):
        self.assertTrue(os.path.exists('../ledgerly/money.py'), "ledgerly/money.py is missing")

    def test_money_defines_currency_functions(self):
        with open('../ledgerly/money.py', 'r') as f:
            tree = ast.parse(f.read())
        names = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
        for name in ['currency_info', 'currency_exponent', 'currency_symbol', 'symbol_to_code', 'parse_amount']:
            self.assertIn(name, names, f"{name} is not defined at module level in money.py")

    def test_money_defines_tables_and_error(self):
        with open('../ledgerly/money.py', 'r') as f:
            tree = ast.parse(f.read())
        assigned = set()
        classes = set()
        for node in tree.body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.add(target.id)
            elif isinstance(node, ast.ClassDef):
                classes.add(node.name)
        self.assertTrue('CURRENCIES' in assigned, "CURRENCIES table not found in money.py")
        self.assertTrue('DEFAULT_CURRENCY' in assigned, "DEFAULT_CURRENCY not found in money.py")
        self.assertTrue('UnknownCurrency' in classes, "UnknownCurrency not found in money.py")

    def test_no_imports_of_currency_module(self):
        for file_path in ['../ledgerly/money.py', '../ledgerly/reports/export.py']:
            with open(file_path, 'r') as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    self.assertNotEqual(node.module, 'ledgerly.currency', f"{file_path} still imports ledgerly.currency")
                elif isinstance(node, ast.Import):
                    for alias in node.names:
                        self.assertNotEqual(alias.name, 'ledgerly.currency', f"{file_path} still imports ledgerly.currency")

    def test_export_imports_currency_symbol_from_money(self):
        with open('../ledgerly/reports/export.py', 'r') as f:
            tree = ast.parse(f.read())
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == 'ledgerly.money':
                if 'currency_symbol' in [alias.name for alias in node.names]:
                    found = True
        self.assertTrue(found, "reports/export.py should import currency_symbol from ledgerly.money")

    def test_docs_no_currency_module(self):
        with open('../docs/api.rst', 'r') as f:
            text = f.read()
        self.assertNotIn('automodule:: ledgerly.currency', text, "docs/api.rst still documents ledgerly.currency")


if __name__ == '__main__':
    unittest.main()
