import ast
import unittest

# Walks filtered by isinstance over every statement body kind (refscore converts statements
# when first read and lets such walks pass over what they cannot accept): results, order,
# identity, the loop variable after the loop, and mutations in between must be CPython's.


def load():
    with open('../flows/control.py') as f:
        return ast.parse(f.read())


class TestLazyWalks(unittest.TestCase):

    def test_imports_in_every_body(self):
        tree = load()
        found = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                found.append((node.module, node.lineno, node.col_offset))
        self.assertEqual(found, [])

    def test_returns_and_raises_in_order(self):
        tree = load()
        seen = [type(n).__name__ + str(n.lineno) for n in ast.walk(tree)
                if isinstance(n, (ast.Return, ast.Raise))]
        self.assertEqual(seen, ['x'])

    def test_any_over_nested_definitions(self):
        tree = load()
        self.assertTrue(any(isinstance(n, ast.AsyncFunctionDef) and n.name == 'aread'
                            for n in ast.walk(tree)))
        self.assertFalse(any(isinstance(n, ast.Global) for n in ast.walk(tree)))

    def test_loop_variable_after_the_loop(self):
        tree = load()
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                pass
        self.assertEqual(ast.dump(node), '')

    def test_loop_variable_read_in_another_loop_only(self):
        tree = load()
        names = []
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                names.append(node.name)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                names.append(node.func.id)
        self.assertEqual(names, [])

    def test_found_statement_then_walk_inside(self):
        tree = load()
        calls = []
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == 'retry':
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call):
                        calls.append(ast.unparse(inner))
        self.assertEqual(calls, [])

    def test_mutation_between_walks(self):
        tree = load()
        for node in ast.walk(tree):
            if isinstance(node, ast.If):
                node.body.append(ast.Pass())
                node.parent_marker = True
        passes = sum(1 for n in ast.walk(tree) if isinstance(n, ast.Pass))
        marked = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.If)
                  and getattr(n, 'parent_marker', False)]
        self.assertEqual((passes, marked), (0, []))

    def test_parent_links_on_statements_read_late(self):
        tree = load()
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                child.parent = parent
        loads = [n for n in ast.walk(tree) if isinstance(n, ast.Name)]
        self.assertTrue(all(n.ctx is loads[0].ctx or isinstance(n.ctx, ast.Store) for n in loads))
        chain = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Return):
                cur = node
                while hasattr(cur, 'parent'):
                    cur = cur.parent
                    chain.append(type(cur).__name__)
                break
        self.assertEqual(chain, [])

    def test_same_tree_identity_after_skipping(self):
        tree = load()
        first = [n for n in ast.walk(tree) if isinstance(n, ast.Try)]
        body_try = tree.body[4].body[0].body[0]
        self.assertIs(first[0], body_try)
        self.assertEqual(len(first), 2)

    def test_second_clauses_run_for_accepted_nodes(self):
        tree = load()
        names = {a.name for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
                 for a in n.names}
        handlers = [(n.lineno, h.lineno) for n in ast.walk(tree) if isinstance(n, ast.Try)
                    for h in n.handlers if h.type]
        g = (s.lineno for n in ast.walk(tree) if isinstance(n, ast.If) for s in n.orelse)
        first = next(g)
        self.assertEqual((sorted(names), handlers, first, list(g)), ())

    def test_classes_read_again_after_each_body(self):
        tree = load()
        C = ast.FunctionDef
        seen = []
        for node in ast.walk(tree):
            if isinstance(node, C) and node.args.args:
                seen.append(node.name)
                C = getattr(ast, 'FunctionDef')
        found = any(isinstance(n, C) and n.name == 'nope' for n in ast.walk(tree))
        self.assertEqual((seen, found), ())

    def test_either_of_two_classes(self):
        tree = load()
        seen = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) or isinstance(node, ast.ImportFrom):
                seen.append(node.lineno)
        for node in ast.walk(tree):
            if (isinstance(node, ast.While) or isinstance(node, (ast.With, ast.AsyncWith))) and node.body:
                seen.append(type(node).__name__)
        seen.append([n.lineno for n in ast.walk(tree) if isinstance(n, ast.Try) or isinstance(n, ast.Match)])
        seen.append(any(isinstance(n, ast.Global) or isinstance(n, ast.Nonlocal) for n in ast.walk(tree)))
        self.assertEqual(seen, [])

    def test_two_parses_share_context_singletons(self):
        a = [n.ctx for n in ast.walk(load()) if isinstance(n, ast.Attribute)]
        b = [n.ctx for n in ast.walk(load()) if isinstance(n, ast.Attribute)]
        self.assertIs(a[0], b[0])


if __name__ == '__main__':
    unittest.main()
