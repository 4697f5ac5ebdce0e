import ast
import unittest

# Global and builtin names loaded from function bodies. refscore remembers what the name at each
# load site resolved to until the module's globals change; every load below must still read as
# CPython's after the globals are rebound, deleted or created, by `global` statements, by
# module-level code and by names that shadow builtins.

LIMIT = 3
counter = 0


def limit():
    return LIMIT


def bump():
    global counter
    counter += 1
    return counter


def kinds(tree):
    return sorted({type(n).__name__ for n in ast.walk(tree) if isinstance(n, ast.stmt)})


def length(x):
    return len(x)


def shadow_len(value):
    global len
    len = value


def unshadow_len():
    global len
    del len


def read_missing():
    return not_defined_yet


def define_missing():
    global not_defined_yet
    not_defined_yet = 'now'


def forget_missing():
    global not_defined_yet
    del not_defined_yet


def set_limit(value):
    global LIMIT
    LIMIT = value


class TestGlobalLoads(unittest.TestCase):

    def test_rebound_global_is_seen(self):
        seen = [limit()]
        set_limit(7)
        seen.append(limit())
        set_limit(LIMIT + 1)
        seen.append(limit())
        set_limit(3)
        self.assertEqual(seen, [3, 7, 9])

    def test_global_statement_counter(self):
        start = counter
        values = [bump() for _ in range(4)]
        self.assertEqual(values, [start + 1, start + 2, start + 3, start + 4])
        self.assertEqual(counter, start + 4)

    def test_shadowed_builtin_then_restored(self):
        seen = [length('abc')]
        shadow_len(lambda x: 'shadowed')
        seen.append(length('abc'))
        unshadow_len()
        seen.append(length('abcd'))
        self.assertEqual(seen, [3, 'shadowed', 4])

    def test_name_defined_between_calls(self):
        with self.assertRaises(NameError) as cm:
            read_missing()
        first = str(cm.exception)
        define_missing()
        second = read_missing()
        forget_missing()
        with self.assertRaises(NameError):
            read_missing()
        self.assertEqual((first, second), ("name 'not_defined_yet' is not defined", 'now'))

    def test_builtins_in_a_walk(self):
        tree = ast.parse('x = 1\nif x:\n    pass\nfor i in y:\n    del i\n')
        self.assertEqual(kinds(tree), ['Assign', 'Delete', 'For', 'If', 'Pass'])

    def test_missing_global_fails_the_test(self):
        self.assertEqual(read_missing(), 'now')

    def test_global_changed_inside_a_loop(self):
        seen = []
        for value in (1, 2, 3):
            set_limit(value)
            seen.append(limit())
        set_limit(3)
        self.assertEqual(seen, [1, 2, 4])

    def test_module_attribute_of_imported_module(self):
        def walk_count(src):
            return sum(1 for _ in ast.walk(ast.parse(src)))
        self.assertEqual([walk_count('a'), walk_count('a + b')], [4, 7])


if __name__ == '__main__':
    unittest.main()
