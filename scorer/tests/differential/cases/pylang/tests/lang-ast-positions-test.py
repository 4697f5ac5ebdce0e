import ast
import unittest

# Position attributes of parsed nodes (lineno, col_offset, end_lineno, end_col_offset): read,
# written, deleted and dumped. refscore keeps a parsed node's positions packed until one is
# written or deleted; every step must read as CPython's.


def load():
    with open('../geometry/shapes.py') as f:
        return ast.parse(f.read())


def positions(node):
    return [getattr(node, a, 'unset') for a in node._attributes]


class TestAstPositions(unittest.TestCase):

    def setUp(self):
        self.tree = load()
        self.names = [n for n in ast.walk(self.tree) if isinstance(n, ast.Name)]

    def test_read_positions(self):
        first = self.names[0]
        self.assertEqual(positions(first), [first.lineno, first.col_offset,
                                            first.end_lineno, first.end_col_offset])
        self.assertEqual([positions(n) for n in self.names[:3]], [])

    def test_write_one_keeps_the_others(self):
        n = self.names[1]
        before = positions(n)
        n.col_offset = 99
        self.assertEqual(positions(n), before[:1] + [99] + before[2:])
        n.lineno = 'x'
        self.assertEqual(positions(n), ['x', 99] + before[2:])

    def test_delete_one(self):
        n = self.names[2]
        seen = [positions(n)]
        del n.end_lineno
        seen.append(positions(n))
        seen.append(hasattr(n, 'end_lineno'))
        del n.col_offset
        seen.append(positions(n))
        try:
            del n.col_offset
        except AttributeError as e:
            seen.append(str(e))
        n.end_lineno = 7
        seen.append(positions(n))
        self.fail(repr(seen))

    def test_dump_after_writes(self):
        n = self.names[3]
        n.lineno = 1000
        del n.end_col_offset
        self.assertEqual(ast.dump(n, include_attributes=True), '')

    def test_dict(self):
        n = self.names[4]
        d = dict(n.__dict__)
        self.assertEqual(sorted(d), ['col_offset', 'ctx', 'end_col_offset', 'end_lineno', 'id', 'lineno'])
        n.lineno = 5
        self.assertEqual(n.__dict__['lineno'], 5)
        del n.col_offset
        self.assertEqual(sorted(n.__dict__), ['ctx', 'end_col_offset', 'end_lineno', 'id', 'lineno'])

    def test_nodes_without_positions(self):
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.arguments, ast.Load, ast.Store)):
                self.assertEqual(node._attributes, ())
        made = ast.Name(id='y', ctx=ast.Load(), lineno=3)
        self.assertEqual(positions(made), [3, 'unset', 'unset', 'unset'])
        self.assertEqual(ast.dump(made, include_attributes=True), '')

    def test_copy_location_by_hand(self):
        src, dst = self.names[5], ast.Name(id='z', ctx=ast.Load())
        for a in src._attributes:
            setattr(dst, a, getattr(src, a))
        self.assertEqual(positions(dst), positions(src))
        self.assertEqual(ast.get_source_segment(open('../geometry/shapes.py').read(), dst), src.id)

    def test_walk_lines_sorted(self):
        lines = sorted({n.lineno for n in ast.walk(self.tree) if hasattr(n, 'lineno')})
        self.assertEqual(lines[:5], [])
        self.assertTrue(all(n.end_lineno >= n.lineno for n in ast.walk(self.tree)
                            if hasattr(n, 'end_lineno')))


if __name__ == '__main__':
    unittest.main()
