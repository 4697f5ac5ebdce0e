import ast
import os
import unittest


class TestMoveHandlers(unittest.TestCase):

    def test_handlers_module_exists(self):
        self.assertTrue(os.path.exists('../shopkit/api/handlers.py'))

    def test_errors_module_exists(self):
        self.assertTrue(os.path.exists('../shopkit/api/errors.py'), "errors.py was not created")

    def test_errors_module_is_file(self):
        self.assertTrue(os.path.isfile('../shopkit/api/errors.py'))

    def test_views_imports_handle_error(self):
        with open('../shopkit/api/views.py', 'r') as f:
            tree = ast.parse(f.read())
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.module == 'shopkit.api.handlers':
                    for alias in node.names:
                        if alias.name == 'handle_error':
                            found = True
        self.assertTrue(found, "views.py should import handle_error from shopkit.api.handlers")

    def test_views_imports_from_errors(self):
        with open('../shopkit/api/views.py', 'r') as f:
            tree = ast.parse(f.read())
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.module == 'shopkit.api.errors':
                    found = True
        self.assertTrue(found, "views.py should import from shopkit.api.errors")

    def test_views_import_alias(self):
        with open('../shopkit/api/views.py', 'r') as f:
            tree = ast.parse(f.read())
        imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import)]
        self.assertEqual(len(imports), 1)
        alias = imports[0].names[0]
        self.assertEqual(alias.name, 'shopkit.utils.text')
        self.assertEqual(alias.asname, 'text_utils')

    def test_views_import_alias_wrong(self):
        with open('../shopkit/api/views.py', 'r') as f:
            tree = ast.parse(f.read())
        imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import)]
        self.assertIsNone(imports[0].names[0].asname)

    def test_handlers_defines_classes(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        classes = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        self.assertTrue({'NotFound', 'Forbidden'}.issubset(classes))

    def test_handlers_defines_gone(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        classes = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}
        self.assertTrue({'NotFound', 'Gone'}.issubset(classes), "Gone should be defined")

    def test_handlers_class_bases(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                self.assertIsInstance(node.bases[0], ast.Name)
                self.assertEqual(node.bases[0].id, 'Exception')

    def test_handler_status_values(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        statuses = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                if node.targets[0].id == 'status':
                    statuses.append(node.value.value)
        self.assertEqual(statuses, [404, 403])

    def test_handler_status_values_sorted(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        statuses = [node.value.value for node in ast.walk(tree)
                    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                    and node.targets[0].id == 'status']
        self.assertEqual(statuses, sorted(statuses))

    def test_error_handlers_dict(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        mapping = None
        for node in tree.body:
            if isinstance(node, ast.Assign) and node.targets[0].id == 'ERROR_HANDLERS':
                mapping = node.value
        self.assertIsInstance(mapping, ast.Dict)
        self.assertEqual([k.id for k in mapping.keys], ['NotFound', 'Forbidden'])
        self.assertEqual([v.id for v in mapping.values], ['handle_error', 'handle_error'])

    def test_targets_of_all_assignments(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, ast.Assign):
                self.assertEqual(node.targets[0].id, 'ERROR_HANDLERS')
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign):
                self.assertEqual(node.targets[0].id, 'body')

    def test_raise_from(self):
        with open('../shopkit/api/handlers.py', 'r') as f:
            tree = ast.parse(f.read())
        raises = [n for n in ast.walk(tree) if isinstance(n, ast.Raise)]
        self.assertEqual(len(raises), 1)
        self.assertIsInstance(raises[0].exc, ast.Call)
        self.assertEqual(raises[0].cause.id, 'exc')

    def test_guide_mentions_handlers(self):
        with open('../docs/guide.md', 'r') as f:
            content = f.read()
        self.assertIn('shopkit/api/handlers.py', content)
        self.assertIn('from shopkit.api.handlers import handle_error', content)

    def test_guide_does_not_mention_handlers(self):
        with open('../docs/guide.md', 'r') as f:
            content = f.read()
        self.assertNotIn('handlers.py', content)

    def test_japanese_guide_mentions_errors(self):
        with open('../docs/ja/guide.md', 'r') as f:
            content = f.read()
        self.assertIn('shopkit/api/errors.py', content, "ja guide not updated")

    def test_japanese_guide_not_mention_handlers(self):
        with open('../docs/ja/guide.md', 'r') as f:
            content = f.read()
        self.assertNotIn('handlers.py', content)

    def test_japanese_guide_text(self):
        with open('../docs/ja/guide.md', 'r') as f:
            content = f.read()
        self.assertIn('エラー処理', content)
        self.assertTrue(content.startswith('# ガイド'))

    def test_old_handlers_removed(self):
        self.assertFalse(os.path.exists('../shopkit/api/handlers.py'), "handlers.py should be removed")


if __name__ == '__main__':
    unittest.main()
