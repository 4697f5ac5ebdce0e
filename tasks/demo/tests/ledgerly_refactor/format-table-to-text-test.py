import unittest
import ast
import os


class TestMoveFormatTable(unittest.TestCase):

    def test_text_defines_format_table(self):
        file_path = '../ledgerly/utils/text.py'
        self.assertTrue(os.path.exists(file_path), f"{file_path} does not exist")
        with open(file_path, 'r') as f:
            tree = ast.parse(f.read())
        function_found = False
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == 'format_table':
                function_found = True
                args = [a.arg for a in node.args.args]
                self.assertEqual(args, ['rows', 'headers', 'align'], "format_table has the wrong parameters")
                self.assertEqual(len(node.args.defaults), 1, "align should keep its default")
                self.assertIsInstance(node.args.defaults[0], ast.Constant)
                self.assertIsNone(node.args.defaults[0].value, "align should default to None")
        self.assertTrue(function_found, "format_table is not defined at module level in ledgerly/utils/text.py")

    def test_text_keeps_existing_helpers(self):
        with open('../ledgerly/utils/text.py', 'r') as f:
            tree = ast.parse(f.read())
        names = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
        for name in ('slugify', 'truncate', 'pad', 'wrap_description'):
            self.assertTrue(name in names, f"{name} was removed from ledgerly/utils/text.py")

    def test_balance_no_longer_defines_format_table(self):
        with open('../ledgerly/reports/balance.py', 'r') as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'format_table':
                self.fail("format_table is still defined in ledgerly/reports/balance.py")

    def test_balance_imports_format_table(self):
        with open('../ledgerly/reports/balance.py', 'r') as f:
            tree = ast.parse(f.read())
        imported = False
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module == 'ledgerly.utils.text':
                if any(alias.name == 'format_table' for alias in node.names):
                    imported = True
        self.assertTrue(imported, "balance.py should import format_table from ledgerly.utils.text")

    def test_inventory_report_imports_from_text(self):
        with open('../ledgerly/reports/inventory_report.py', 'r') as f:
            tree = ast.parse(f.read())
        sources = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == 'format_table':
                        sources.append(node.module)
        self.assertEqual(sources, ['ledgerly.utils.text'], "inventory_report.py must import format_table from ledgerly.utils.text")

    def test_cli_imports_from_text(self):
        with open('../ledgerly/cli.py', 'r') as f:
            tree = ast.parse(f.read())
        sources = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == 'format_table':
                        sources.append(node.module)
        self.assertEqual(sources, ['ledgerly.utils.text'], "cli.py must import format_table from ledgerly.utils.text")

    def test_render_trial_balance_still_calls_format_table(self):
        with open('../ledgerly/reports/balance.py', 'r') as f:
            tree = ast.parse(f.read())
        calls = False
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'render_trial_balance':
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id == 'format_table':
                        calls = True
                break
        self.assertTrue(calls, "render_trial_balance should still use format_table")


if __name__ == '__main__':
    unittest.main()
