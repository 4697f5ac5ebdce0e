import unittest
import os
import ast

class TestExtractMoneyUtils(unittest.TestCase):

    def test_money_file_exists(self):
        # Path to the file where format_money should be defined
        file_path = '../shopkit/utils/money.py'

        # Check if the file exists
        self.assertTrue(os.path.exists(file_path), f"{file_path} does not exist")

    def test_currency_file_exists(self):
        # Path to the new module
        file_path = '../shopkit/utils/currency.py'

        # Check if the file exists
        self.assertTrue(os.path.exists(file_path), f"{file_path} does not exist")

    def test_format_money_function_exists(self):
        file_path = '../shopkit/utils/money.py'
        self.assertTrue(os.path.exists(file_path), f"{file_path} does not exist")

        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        format_money_function = None

        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'format_money':
                format_money_function = node
                break

        self.assertIsNotNone(format_money_function, "Function 'format_money' not found in money.py")

    def test_format_money_signature(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'format_money':
                args = [arg.arg for arg in node.args.args]
                self.assertEqual(args, ['amount', 'currency'], "format_money should take amount and currency")
                defaults = [d.value for d in node.args.defaults]
                self.assertEqual(defaults, ['USD'], "currency should default to USD")
                break

    def test_symbols_moved(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        symbols_defined = False
        for node in tree.body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and target.id == 'SYMBOLS':
                        symbols_defined = True

        self.assertFalse(symbols_defined, "SYMBOLS should be moved out of money.py")

    def test_symbols_keys(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        keys = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                keys.update(k.value for k in node.keys)

        self.assertTrue({'EUR', 'USD'}.issubset(keys))
        self.assertTrue({'EUR', 'JPY'}.issubset(keys), f"missing currencies, found {sorted(keys)}")

    def test_symbols_values_non_ascii(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        values = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                values = [v.value for v in node.values]
                break

        self.assertEqual(values, ['€', '$', '£'])
        self.assertEqual(''.join(values).encode('utf-8'), b'\xe2\x82\xac$\xc2\xa3')

    def test_import_to_decimal(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        import_found = False

        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.module == 'shopkit.pricing':
                    imported_names = {alias.name for alias in node.names}
                    if {'to_decimal'}.issubset(imported_names):
                        import_found = True
                        break

        self.assertTrue(import_found, "'to_decimal' not imported from 'shopkit.pricing' in money.py")

    def test_import_from_currency(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        import_found = False

        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.module == 'shopkit.utils.currency':
                    imported_names = {alias.name for alias in node.names}
                    if {'SYMBOLS', 'format_symbol'}.issubset(imported_names):
                        import_found = True
                        break

        self.assertTrue(import_found, "'SYMBOLS' and 'format_symbol' not imported from 'shopkit.utils.currency' in money.py")

    def test_all_declaration(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            content = file.read()

        # Look for the exact __all__ declaration
        expected_all_declaration = "__all__ = ('format_money', 'parse_money')"
        self.assertIn(expected_all_declaration, content, f"{expected_all_declaration} not found in money.py")

    def test_parse_money_lstrip(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'lstrip':
                self.assertEqual(node.args[0].value, '€$£')
                self.assertEqual(len(node.args[0].value), 3)
                return
        self.fail("lstrip call not found")

    def test_format_money_uses_currency_module(self):
        file_path = '../shopkit/utils/money.py'
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        calls = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                if isinstance(node.func, ast.Name):
                    calls.add(node.func.id)
                elif isinstance(node.func, ast.Attribute):
                    calls.add(node.func.attr)

        self.assertIn('format_symbol', sorted(calls), "format_symbol is not called")

    def test_currency_module_functions(self):
        file_path = '../shopkit/utils/currency.py'

        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())

        functions = [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]
        self.assertIn('format_symbol', functions)

if __name__ == '__main__':
    unittest.main()
