import unittest
import ast
import os


class TestRenameFeedItem(unittest.TestCase):

    def parse(self, path):
        self.assertTrue(os.path.exists(path), f"{path} does not exist")
        with open(path, 'r') as f:
            return ast.parse(f.read())

    def test_models_defines_feed_entry(self):
        tree = self.parse('../tinyfeed/models.py')
        cls = None
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef) and node.name == 'FeedEntry':
                cls = node
                break
        self.assertIsNotNone(cls, "class FeedEntry not found in tinyfeed/models.py")
        decorators = [d.id for d in cls.decorator_list if isinstance(d, ast.Name)]
        self.assertIn('dataclass', decorators, "FeedEntry should stay a dataclass")

    def test_models_no_feed_item(self):
        tree = self.parse('../tinyfeed/models.py')
        names = [node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
        self.assertNotIn('FeedItem', names, "class FeedItem still exists in tinyfeed/models.py")

    def test_feed_items_annotation(self):
        tree = self.parse('../tinyfeed/models.py')
        annotation_ok = False
        for node in ast.walk(tree):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == 'items':
                annotation_ok = any(isinstance(n, ast.Name) and n.id == 'FeedEntry' for n in ast.walk(node.annotation))
        self.assertTrue(annotation_ok, "Feed.items should be annotated as List[FeedEntry]")

    def test_parser_constructs_feed_entry(self):
        tree = self.parse('../tinyfeed/parser.py')
        calls = 0
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                self.assertNotEqual(node.id, 'FeedItem', "tinyfeed/parser.py still uses FeedItem")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == 'FeedEntry':
                calls += 1
        self.assertEqual(calls, 2, "parse_rss and parse_atom should both build FeedEntry objects")

    def test_merge_uses_feed_entry(self):
        tree = self.parse('../tinyfeed/merge.py')
        found = False
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr == 'sort_key':
                found = isinstance(node.value, ast.Name) and node.value.id == 'FeedEntry'
        self.assertTrue(found, "merge_feeds should sort with FeedEntry.sort_key")

    def test_package_exports(self):
        tree = self.parse('../tinyfeed/__init__.py')
        exported = []
        for node in tree.body:
            if isinstance(node, ast.Assign) and node.targets[0].id == '__all__':
                exported = [elt.value for elt in node.value.elts]
        self.assertIn('FeedEntry', exported, "FeedEntry is not exported from tinyfeed")
        self.assertNotIn('FeedItem', exported, "FeedItem is still exported from tinyfeed")

    def test_guide_updated(self):
        with open('../docs/guide.md', 'r') as f:
            text = f.read()
        self.assertIn('FeedEntry', text, "docs/guide.md should describe FeedEntry")
        self.assertNotIn('FeedItem', text, "docs/guide.md still mentions FeedItem")


if __name__ == '__main__':
    unittest.main()
