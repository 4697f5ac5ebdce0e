import unittest
import ast
import os


class TestSplitLoaders(unittest.TestCase):

    def get_function_names(self, file_path):
        with open(file_path, 'r') as file:
            tree = ast.parse(file.read())
        return [node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)]

    def test_csv_loader_exists(self):
        self.assertTrue(os.path.exists('../ledgerly/storage/csv_loader.py'), "ledgerly/storage/csv_loader.py does not exist")

    def test_json_loader_exists(self):
        self.assertTrue(os.path.exists('../ledgerly/storage/json_loader.py'), "ledgerly/storage/json_loader.py does not exist")

    def test_loaders_module_removed(self):
        self.assertFalse(os.path.exists('../ledgerly/storage/loaders.py'), "ledgerly/storage/loaders.py should be deleted")

    def test_csv_loader_functions(self):
        names = self.get_function_names('../ledgerly/storage/csv_loader.py')
        for name in ['read_csv_rows', 'load_csv_entries']:
            self.assertIn(name, names, f"{name} not found in csv_loader.py")
        self.assertNotIn('load_json_entries', names, "JSON code does not belong in csv_loader.py")

    def test_json_loader_functions(self):
        names = self.get_function_names('../ledgerly/storage/json_loader.py')
        for name in ['load_json_entries', 'dump_json_entries']:
            self.assertIn(name, names, f"{name} not found in json_loader.py")
        self.assertNotIn('read_csv_rows', names, "CSV code does not belong in json_loader.py")

    def test_no_imports_of_old_module(self):
        files = ['../ledgerly/storage/__init__.py', '../ledgerly/reports/export.py',
                 '../ledgerly/importers/bank.py', '../ledgerly/cli.py', '../tests/test_storage.py']
        for file_path in files:
            with open(file_path, 'r') as file:
                tree = ast.parse(file.read())
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom):
                    self.assertNotEqual(node.module, 'ledgerly.storage.loaders',
                                        f"{file_path} still imports ledgerly.storage.loaders")

    def test_cli_imports_new_modules(self):
        with open('../ledgerly/cli.py', 'r') as file:
            tree = ast.parse(file.read())
        modules = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    modules[alias.name] = node.module
        for name in ['load_csv_entries', 'load_json_entries', 'dump_json_entries']:
            self.assertIn(name, modules, f"cli.py does not import {name}")
        self.assertEqual(modules['load_csv_entries'], 'ledgerly.storage.csv_loader')
        self.assertEqual(modules['load_json_entries'], 'ledgerly.storage.json_loader')
        self.assertEqual(modules['dump_json_entries'], 'ledgerly.storage.json_loader')

    def test_docs_api_reference(self):
        with open('../docs/api.rst', 'r') as file:
            content = file.read()
        self.assertTrue('automodule:: ledgerly.storage.csv_loader' in content, "docs/api.rst does not document csv_loader")
        self.assertTrue('automodule:: ledgerly.storage.json_loader' in content, "docs/api.rst does not document json_loader")
        self.assertFalse('ledgerly.storage.loaders' in content, "docs/api.rst still mentions ledgerly.storage.loaders")


if __name__ == '__main__':
    unittest.main()
