import unittest


class Box:
    pass


class TestAssignments(unittest.TestCase):

    def test_tuple_unpack(self):
        a, b = 1, 2
        a, b = b, a
        self.assertEqual((a, b), (2, 1))
        (c, d), e = (3, 4), 5
        self.assertEqual([c, d, e], [3, 4, 5])
        [f, g] = 'xy'
        self.assertEqual(f + g, 'xy')

    def test_star_unpack(self):
        first, *rest = [1, 2, 3, 4]
        self.assertEqual(first, 1)
        self.assertEqual(rest, [2, 3, 4])
        *init, last = 'abc'
        self.assertEqual(init, ['a', 'b'])
        self.assertEqual(last, 'c')
        a, *mid, z = range(2)
        self.assertEqual(mid, [])

    def test_unpack_too_many(self):
        a, b = [1, 2, 3]

    def test_unpack_too_few(self):
        a, b, c = (1, 2)

    def test_unpack_non_iterable(self):
        a, b = 5

    def test_chained_assignment(self):
        x = y = []
        x.append(1)
        self.assertIs(x, y)
        self.assertEqual(y, [1])
        p = q = 0
        p += 1
        self.assertEqual((p, q), (1, 0))

    def test_subscript_targets(self):
        data = {'a': [0, 0, 0]}
        data['a'][1] = 5
        data['b'] = data.get('b', 0) + 1
        self.assertEqual(data, {'a': [0, 5, 0], 'b': 1})
        items = [0, 1, 2, 3, 4, 5]
        items[1:3] = ['x']
        self.assertEqual(items, [0, 'x', 3, 4, 5])
        items[-1] = 'last'
        self.assertEqual(items[-1], 'last')

    def test_attribute_targets(self):
        box = Box()
        box.value = 1
        box.value += 2
        box.inner = Box()
        box.inner.name = 'in'
        self.assertEqual(box.value, 3)
        self.assertEqual(box.inner.name, 'in')

    def test_augmented_assignment(self):
        n = 10
        n += 5
        n -= 3
        n *= 2
        n //= 5
        n **= 3
        n %= 7
        self.assertEqual(n, 1)
        f = 7.0
        f /= 2
        self.assertEqual(f, 3.5)
        s = 'ab'
        s *= 3
        s += '!'
        self.assertEqual(s, 'ababab!')
        bits = 0b1100
        bits |= 0b0011
        bits &= 0b1010
        bits ^= 0b0001
        bits <<= 2
        bits >>= 1
        self.assertEqual(bits, 22)

    def test_augmented_list_is_inplace(self):
        a = [1]
        b = a
        a += [2]
        self.assertIs(a, b)
        t = (1,)
        u = t
        t += (2,)
        self.assertIsNot(t, u)
        self.assertEqual(u, (1,))

    def test_augmented_dict_item(self):
        counts = {}
        for word in 'a b a c a'.split():
            counts[word] = counts.get(word, 0) + 1
        self.assertEqual(counts, {'a': 3, 'b': 1, 'c': 1})
        counts['a'] += 10
        self.assertEqual(counts['a'], 13)

    def test_augmented_missing_key(self):
        counts = {}
        counts['x'] += 1

    def test_for_target_unpack(self):
        pairs = [(1, 'a'), (2, 'b')]
        out = []
        for i, (n, ch) in enumerate(pairs):
            out.append(f"{i}{n}{ch}")
        self.assertEqual(out, ['01a', '12b'])
        for k, v in {'x': 1}.items():
            pass
        self.assertEqual((k, v), ('x', 1))

    def test_loop_variable_leaks(self):
        for i in range(3):
            pass
        self.assertEqual(i, 2)
        squares = [j * j for j in range(3)]
        self.assertEqual(squares[-1], 4)

    def test_walrus(self):
        values = [1, 5, 9]
        if (n := len(values)) > 2:
            self.assertEqual(n, 3)
        found = [y for x in values if (y := x * 2) > 5]
        self.assertEqual(found, [10, 18])

    def test_del(self):
        x = 1
        del x
        items = [1, 2, 3]
        del items[0]
        d = {'a': 1, 'b': 2}
        del d['a']
        self.assertEqual((items, d), ([2, 3], {'b': 2}))
        del d['zzz']

    def test_annotated_assignment(self):
        count: int = 3
        name: str
        self.assertEqual(count, 3)

    def test_swap_via_index(self):
        xs = [3, 1, 2]
        xs[0], xs[1] = xs[1], xs[0]
        self.assertEqual(xs, [3, 1, 2], "swap happened")


if __name__ == '__main__':
    unittest.main()
