import ast
import unittest

# Node identity and mutation of ast.parse results, reached by walking and through fields in
# every order (refscore makes node objects on demand: these must behave as CPython's).


def load():
    with open('../geometry/shapes.py') as f:
        return ast.parse(f.read())


class TestAstIdentity(unittest.TestCase):

    def setUp(self):
        self.tree = load()

    def test_walk_then_fields_same_objects(self):
        walked = list(ast.walk(self.tree))
        first = self.tree.body[0]
        self.assertTrue(any(n is first for n in walked))
        for cls in [n for n in walked if isinstance(n, ast.ClassDef)]:
            for item in cls.body:
                self.assertTrue(any(n is item for n in walked), ast.dump(item)[:40])

    def test_fields_then_walk_same_objects(self):
        body = list(self.tree.body)
        walked = list(ast.walk(self.tree))
        for b in body:
            self.assertIn(id(b), [id(n) for n in walked])

    def test_ids_stable_across_walks(self):
        first = [id(n) for n in ast.walk(self.tree)]
        second = [id(n) for n in ast.walk(self.tree)]
        self.assertEqual(first, second)

    def test_ids_stable_when_objects_were_dropped(self):
        ids = set()
        for n in ast.walk(self.tree):
            if isinstance(n, ast.Name):
                ids.add(id(n))
        again = {id(n) for n in ast.walk(self.tree) if isinstance(n, ast.Name)}
        self.assertEqual(ids, again)
        self.assertGreater(len(ids), 0)

    def test_two_parses_are_distinct(self):
        other = load()
        self.assertIsNot(self.tree, other)
        self.assertIsNot(self.tree.body[0], other.body[0])
        self.assertEqual(ast.dump(self.tree), ast.dump(other))

    def test_context_singletons_shared(self):
        loads = [n.ctx for n in ast.walk(self.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        other = [n.ctx for n in ast.walk(load()) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        self.assertTrue(all(c is loads[0] for c in loads + other))

    def test_mutation_seen_by_walk(self):
        for n in ast.walk(self.tree):
            if isinstance(n, ast.FunctionDef):
                n.name = 'renamed_' + n.name
                n.marker = 1
        names = [n.name for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef)]
        self.assertTrue(all(x.startswith('renamed_') for x in names))
        marked = [n for n in ast.walk(self.tree) if getattr(n, 'marker', None) == 1]
        self.assertEqual(len(marked), len(names))

    def test_list_mutation_changes_walk(self):
        before = len(list(ast.walk(self.tree)))
        cls = next(n for n in ast.walk(self.tree) if isinstance(n, ast.ClassDef))
        removed = cls.body.pop()
        after = list(ast.walk(self.tree))
        self.assertFalse(any(n is removed for n in after))
        self.assertLess(len(after), before)
        cls.body.append(ast.Pass())
        self.assertTrue(isinstance(list(ast.walk(cls))[-1], ast.Pass))

    def test_parent_links(self):
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                child.parent = node
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Return):
                p = node
                while not isinstance(p, ast.FunctionDef):
                    p = p.parent
                self.assertIsInstance(p, ast.FunctionDef)
        self.assertFalse(hasattr(self.tree, 'parent'))

    def test_equality_is_identity(self):
        a = self.tree.body[-1]
        walked = [n for n in ast.walk(self.tree) if n == a]
        self.assertEqual(len(walked), 1)
        self.assertNotEqual(a, load().body[-1])
        seen = {n for n in ast.walk(self.tree)}
        self.assertIn(a, seen)

    def test_fields_and_locations(self):
        fn = next(n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef))
        self.assertEqual([f for f, _ in ast.iter_fields(fn)], list(fn._fields))
        self.assertGreater(fn.lineno, 0)
        self.assertGreaterEqual(fn.end_lineno, fn.lineno)
        self.assertEqual(ast.get_docstring(self.tree), ast.get_docstring(load()))

    def test_failure_message_on_walked_node(self):
        fn = next(n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef))
        self.assertEqual(fn.name, 'no_such_function')

    def test_deleted_attribute(self):
        fn = next(n for n in ast.walk(self.tree) if isinstance(n, ast.FunctionDef))
        del fn.returns
        self.assertFalse(hasattr(fn, 'returns') and fn.returns is not None)
        self.assertIsNone(fn.returns)


if __name__ == '__main__':
    unittest.main()
