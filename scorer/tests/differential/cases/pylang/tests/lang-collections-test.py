import unittest


class TestLists(unittest.TestCase):

    def test_list_methods(self):
        xs = [3, 1, 2]
        xs.append(4)
        xs.extend([5, 6])
        xs.insert(0, 0)
        xs.insert(100, 7)
        xs.insert(-1, 'x')
        self.assertEqual(xs, [0, 3, 1, 2, 4, 5, 6, 'x', 7])
        self.assertEqual(xs.pop(), 7)
        self.assertEqual(xs.pop(0), 0)
        xs.remove('x')
        self.assertEqual(xs.index(2), 2)
        self.assertEqual(xs.count(1), 1)
        xs.sort()
        self.assertEqual(xs, [1, 2, 3, 4, 5, 6])
        xs.reverse()
        self.assertEqual(xs[0], 6)
        ys = xs.copy()
        ys.clear()
        self.assertEqual((len(xs), ys), (6, []))

    def test_sort_stability_and_key(self):
        rows = [('b', 2), ('a', 2), ('c', 1)]
        rows.sort(key=lambda r: r[1])
        self.assertEqual(rows, [('c', 1), ('b', 2), ('a', 2)])
        rows.sort(key=lambda r: r[0], reverse=True)
        self.assertEqual([r[0] for r in rows], ['c', 'b', 'a'])

    def test_pop_empty(self):
        [].pop()

    def test_remove_missing(self):
        [1, 2].remove(3)

    def test_index_missing(self):
        ['a'].index('b')

    def test_sort_mixed(self):
        [1, 'a', 2].sort()

    def test_list_equality_and_nesting(self):
        grid = [[0] * 3 for _ in range(2)]
        grid[0][1] = 5
        self.assertEqual(grid, [[0, 5, 0], [0, 0, 0]])
        alias = [[0] * 2] * 2
        alias[0][0] = 1
        self.assertEqual(alias, [[1, 0], [1, 0]])
        self.assertEqual([1, [2, 3]], [1, [2, 3]])
        self.assertNotEqual([1, 2], [2, 1])

    def test_list_message(self):
        self.assertEqual([1, [2, 3], {'a': None}], [1, [2, 4], {'a': None}])


class TestDicts(unittest.TestCase):

    def test_dict_methods(self):
        d = {'b': 1, 'a': 2}
        d['c'] = 3
        self.assertEqual(list(d), ['b', 'a', 'c'])
        self.assertEqual(list(d.keys()), ['b', 'a', 'c'])
        self.assertEqual(list(d.values()), [1, 2, 3])
        self.assertEqual(list(d.items())[0], ('b', 1))
        self.assertEqual(d.get('z'), None)
        self.assertEqual(d.get('z', 0), 0)
        self.assertEqual(d.setdefault('e', []), [])
        d['e'].append(1)
        self.assertEqual(d['e'], [1])
        self.assertEqual(d.pop('b'), 1)
        self.assertEqual(d.pop('zz', 'gone'), 'gone')
        d.update({'a': 20}, f=6)
        self.assertEqual(d, {'a': 20, 'c': 3, 'e': [1], 'f': 6})
        self.assertEqual(sorted(d.items())[0], ('a', 20))
        self.assertEqual(len(d), 4)
        self.assertIn('a', d)
        self.assertNotIn(20, d)

    def test_dict_order_after_update(self):
        d = {'x': 1, 'y': 2}
        d['x'] = 10
        del d['y']
        d['y'] = 3
        self.assertEqual(list(d.items()), [('x', 10), ('y', 3)])

    def test_dict_constructors(self):
        self.assertEqual(dict([('a', 1), ('b', 2)]), {'a': 1, 'b': 2})
        self.assertEqual(dict(a=1), {'a': 1})
        self.assertEqual(dict(zip('ab', [1, 2])), {'a': 1, 'b': 2})
        self.assertEqual(dict.fromkeys(['x', 'y'], 0), {'x': 0, 'y': 0})
        self.assertEqual({**{'a': 1}, 'b': 2, **{'a': 3}}, {'a': 3, 'b': 2})
        self.assertEqual({1: 'int', 1.0: 'float', True: 'bool'}, {1: 'bool'})

    def test_dict_equality_ignores_order(self):
        self.assertEqual({'a': 1, 'b': 2}, {'b': 2, 'a': 1})

    def test_missing_key_message(self):
        d = {'known': 1}
        return d['unknown']

    def test_missing_tuple_key(self):
        return {}[(1, 'a')]

    def test_popitem(self):
        d = {'a': 1, 'b': 2}
        self.assertEqual(d.popitem(), ('b', 2))
        d.popitem()
        d.popitem()

    def test_dict_message(self):
        self.assertEqual({'name': 'x', 'tags': ['a']}, {'name': 'x', 'tags': ['b']}, "dict mismatch")


class TestSetsAndTuples(unittest.TestCase):

    def test_set_methods(self):
        s = set()
        s.add(3)
        s.add(1)
        s.add(3)
        s.update([5, 1])
        self.assertEqual(sorted(s), [1, 3, 5])
        s.discard(99)
        s.remove(5)
        self.assertEqual(len(s), 2)
        self.assertTrue(s.issubset({1, 2, 3}))
        self.assertTrue({1, 2, 3}.issuperset(s))
        self.assertTrue(s.isdisjoint({7}))
        self.assertEqual(s.intersection([3, 4]), {3})
        self.assertEqual(s.difference({1}), {3})
        self.assertEqual(frozenset([1, 2]), {1, 2})

    def test_set_remove_missing(self):
        {1}.remove(2)

    def test_set_of_strings_sorted(self):
        words = {'pear', 'apple', 'fig'}
        self.assertEqual(sorted(words), ['apple', 'fig', 'pear'])
        self.assertEqual(len(words | {'apple'}), 3)
        self.assertIn('fig', words)

    def test_tuple_methods(self):
        t = (1, 2, 2, 3)
        self.assertEqual(t.count(2), 2)
        self.assertEqual(t.index(3), 3)
        self.assertEqual(tuple([1, 2]), (1, 2))
        self.assertEqual(tuple('ab'), ('a', 'b'))
        self.assertEqual((1,) * 3, (1, 1, 1))
        self.assertEqual(len(()), 0)
        self.assertTrue((1, 2) == (1, 2))

    def test_tuple_assignment_error(self):
        t = (1, 2)
        t[0] = 5

    def test_tuple_message(self):
        self.assertEqual((1, 'two', 3.0), (1, 'two', 3))
        self.assertEqual((1, 'two', 3.0), (1, 'too', 3.0))


if __name__ == '__main__':
    unittest.main()
