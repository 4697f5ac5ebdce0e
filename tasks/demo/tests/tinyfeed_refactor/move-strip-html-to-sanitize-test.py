import unittest
import ast
import os


class TestMoveStripHtml(unittest.TestCase):

    def test_sanitize_module_exists(self):
        self.assertTrue(os.path.exists('../tinyfeed/sanitize.py'), "tinyfeed/sanitize.py was not created")

    def test_strip_html_defined_in_sanitize(self):
        with open('../tinyfeed/sanitize.py', 'r') as f:
            tree = ast.parse(f.read())
        func = None
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == 'strip_html':
                func = node
        self.assertTrue(func is not None, "strip_html is not defined in tinyfeed/sanitize.py")
        self.assertEqual([a.arg for a in func.args.args], ['text', 'limit'])
        self.assertTrue(func.args.defaults[0].value is None, "limit should default to None")

    def test_patterns_moved(self):
        with open('../tinyfeed/sanitize.py', 'r') as f:
            sanitize = ast.parse(f.read())
        with open('../tinyfeed/render.py', 'r') as f:
            render = ast.parse(f.read())

        in_sanitize = []
        for node in sanitize.body:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    in_sanitize.append(t.id)
        in_render = []
        for node in render.body:
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    in_render.append(t.id)

        for name in ['_TAG', '_SPACE']:
            self.assertIn(name, in_sanitize, f"{name} should move to sanitize.py")
            self.assertNotIn(name, in_render, f"render.py should no longer define {name}")

    def test_render_no_longer_defines_strip_html(self):
        with open('../tinyfeed/render.py', 'r') as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'strip_html':
                self.fail("strip_html is still defined in tinyfeed/render.py")

    def test_render_imports_from_sanitize(self):
        with open('../tinyfeed/render.py', 'r') as f:
            tree = ast.parse(f.read())
        ok = any(isinstance(node, ast.ImportFrom) and node.module == 'tinyfeed.sanitize'
                 and 'strip_html' in [a.name for a in node.names] for node in ast.walk(tree))
        self.assertTrue(ok, "render.py should import strip_html from tinyfeed.sanitize")

    def test_parser_imports_from_sanitize(self):
        with open('../tinyfeed/parser.py', 'r') as f:
            tree = ast.parse(f.read())
        modules = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   and 'strip_html' in [a.name for a in node.names]]
        self.assertEqual(modules, ['tinyfeed.sanitize'], "parser.py should import strip_html from tinyfeed.sanitize")


if __name__ == '__main__':
    unittest.main()
