import unittest
import ast
import os


def find_class(tree, name):
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    return None


class TestStockLedgerClass(unittest.TestCase):

    def test_stock_ledger_class_exists(self):
        with open('../ledgerly/inventory/stock.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertIsNotNone(find_class(tree, 'StockLedger'), "class StockLedger not found in ledgerly/inventory/stock.py")

    def test_stock_ledger_methods(self):
        with open('../ledgerly/inventory/stock.py', 'r') as f:
            tree = ast.parse(f.read())
        cls = find_class(tree, 'StockLedger')
        methods = {}
        for item in cls.body:
            if isinstance(item, ast.FunctionDef):
                methods[item.name] = [a.arg for a in item.args.args]
        for name in ('receive', 'issue', 'on_hand'):
            self.assertIn(name, methods, f"StockLedger has no method {name}")
            self.assertTrue(len(methods[name]) >= 2 and methods[name][0] == 'self' and methods[name][1] == 'sku',
                            f"StockLedger.{name} should take (self, sku, ...)")

    def test_init_takes_optional_levels(self):
        with open('../ledgerly/inventory/stock.py', 'r') as f:
            tree = ast.parse(f.read())
        init_found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == '__init__':
                init_found = True
                args = [a.arg for a in node.args.args]
                self.assertEqual(args, ['self', 'levels'], "__init__ should take (self, levels=None)")
                self.assertTrue(node.args.defaults and isinstance(node.args.defaults[0], ast.Constant)
                                and node.args.defaults[0].value is None, "levels should default to None")
        self.assertTrue(init_found, "StockLedger.__init__ not found")

    def test_module_functions_removed(self):
        with open('../ledgerly/inventory/stock.py', 'r') as f:
            tree = ast.parse(f.read())
        module_functions = [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
        for old in ('receive_stock', 'issue_stock', 'stock_on_hand'):
            self.assertNotIn(old, module_functions, f"{old} is still a module-level function")

    def test_stock_error_kept(self):
        with open('../ledgerly/inventory/stock.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertIsNotNone(find_class(tree, 'StockError'), "StockError must stay in stock.py")

    def test_package_exports_stock_ledger(self):
        with open('../ledgerly/inventory/__init__.py', 'r') as f:
            tree = ast.parse(f.read())
        imported = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == 'ledgerly.inventory.stock':
                for alias in node.names:
                    imported.append(alias.name)
        self.assertIn('StockLedger', imported, "ledgerly/inventory/__init__.py does not import StockLedger")
        for old in ['receive_stock', 'issue_stock', 'stock_on_hand']:
            self.assertNotIn(old, imported, f"ledgerly/inventory/__init__.py still imports {old}")

    def test_callers_use_stock_ledger(self):
        for path in ['../ledgerly/cli.py', '../ledgerly/importers/stock_count.py',
                     '../ledgerly/reports/inventory_report.py']:
            with open(path, 'r') as f:
                tree = ast.parse(f.read())
            instantiated = False
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                    self.assertNotIn(node.func.id, ('receive_stock', 'issue_stock', 'stock_on_hand'),
                                     f"{path} still calls {node.func.id}")
                    if node.func.id == 'StockLedger':
                        instantiated = True
            self.assertTrue(instantiated, f"{path} does not create a StockLedger")

    def test_on_hand_called_as_method(self):
        with open('../ledgerly/reports/inventory_report.py', 'r') as f:
            tree = ast.parse(f.read())
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'on_hand':
                found = True
                break
        self.assertTrue(found, "inventory_report.py should read levels with StockLedger.on_hand")


if __name__ == '__main__':
    unittest.main()
