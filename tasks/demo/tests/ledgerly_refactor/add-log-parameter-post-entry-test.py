import unittest
import os
import ast


class TestPostEntryLogParameter(unittest.TestCase):

    def setUp(self):
        # Path to the journal module that defines post_entry
        self.file_path = '../ledgerly/journal.py'
        self.assertTrue(os.path.exists(self.file_path), f"{self.file_path} does not exist")

        with open(self.file_path, 'r') as file:
            self.tree = ast.parse(file.read())

    def _calls_with_log_true(self, tree):
        """Return (number of post_entry calls, number of them passing log=True)."""
        total = 0
        with_log = 0
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'post_entry':
                total += 1
                for keyword in node.keywords:
                    if keyword.arg == 'log' and isinstance(keyword.value, ast.Constant) and keyword.value.value is True:
                        with_log += 1
        return total, with_log

    def test_logging_imported(self):
        import_found = False
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == 'logging':
                        import_found = True
        self.assertTrue(import_found, "'logging' not imported in journal.py")

    def test_post_entry_has_log_parameter(self):
        function_found = False
        log_parameter_found = False
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'post_entry':
                function_found = True
                for arg in node.args.args:
                    if arg.arg == 'log':
                        log_parameter_found = True
                break
        self.assertTrue(function_found, "Function 'post_entry' not found in journal.py")
        self.assertTrue(log_parameter_found, "'log' parameter not found in post_entry")

    def test_log_default_false(self):
        log_default_false = False
        for node in ast.walk(self.tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'post_entry':
                for arg, default in zip(reversed(node.args.args), reversed(node.args.defaults)):
                    if arg.arg == 'log' and isinstance(default, ast.Constant) and default.value is False:
                        log_default_false = True
                break
        self.assertTrue(log_default_false, "'log' parameter of post_entry does not default to False")

    def test_journal_internal_calls(self):
        total, with_log = self._calls_with_log_true(self.tree)
        self.assertEqual(total, 2, "journal.py should call post_entry twice (reverse_entry, transfer)")
        self.assertEqual(with_log, total, "calls of post_entry in journal.py must pass log=True")

    def test_valuation_calls(self):
        with open('../ledgerly/inventory/valuation.py', 'r') as file:
            tree = ast.parse(file.read())
        total, with_log = self._calls_with_log_true(tree)
        self.assertTrue(total > 0, "post_entry is not called in valuation.py")
        self.assertEqual(with_log, total, "calls of post_entry in valuation.py must pass log=True")

    def test_importer_calls(self):
        for file_path in ['../ledgerly/importers/bank.py', '../ledgerly/importers/stock_count.py']:
            with open(file_path, 'r') as file:
                tree = ast.parse(file.read())
            total, with_log = self._calls_with_log_true(tree)
            self.assertTrue(total > 0, f"post_entry is not called in {file_path}")
            self.assertEqual(with_log, total, f"calls of post_entry in {file_path} must pass log=True")

    def test_cli_calls(self):
        with open('../ledgerly/cli.py', 'r') as file:
            tree = ast.parse(file.read())
        total, with_log = self._calls_with_log_true(tree)
        self.assertEqual(total, 3, "cli.py should still call post_entry three times")
        self.assertEqual(with_log, 3, "calls of post_entry in cli.py must pass log=True")

    def test_tests_do_not_log(self):
        with open('../tests/test_journal.py', 'r') as file:
            tree = ast.parse(file.read())
        total, with_log = self._calls_with_log_true(tree)
        self.assertTrue(total > 0, "tests/test_journal.py no longer calls post_entry")
        self.assertEqual(with_log, 0, "tests should not pass log=True to post_entry")


if __name__ == '__main__':
    unittest.main()
