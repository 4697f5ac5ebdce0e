import os
import unittest


class TestOsWalk(unittest.TestCase):

    def test_listdir_data(self):
        self.assertEqual(sorted(os.listdir('../data')), ['nested', 'notes.txt', 'numbers.csv', 'records.json'])

    def test_listdir_types(self):
        entries = sorted(os.listdir('../data'))
        kinds = [os.path.isdir(os.path.join('../data', e)) for e in entries]
        self.assertEqual(kinds, [True, False, False, False])

    def test_walk_all_files(self):
        files = []
        for root, dirs, names in os.walk('../data'):
            for name in names:
                files.append(os.path.relpath(os.path.join(root, name), '..'))
        self.assertEqual(sorted(files), ['data/nested/deeper/leaf.txt', 'data/nested/info.txt',
                                         'data/notes.txt', 'data/numbers.csv', 'data/records.json'])

    def test_walk_roots(self):
        roots = sorted(root for root, _, _ in os.walk('../data'))
        self.assertEqual(roots, ['../data', '../data/nested', '../data/nested/deeper'])

    def test_walk_missing_dir_is_empty(self):
        self.assertEqual(list(os.walk('../nowhere')), [])

    def test_walk_topdown_first(self):
        first = next(os.walk('../data'))
        self.assertEqual(first[0], '../data')
        self.assertEqual(first[1], ['nested'])
        self.assertEqual(sorted(first[2]), ['notes.txt', 'numbers.csv', 'records.json'])

    def test_walk_wrong_count(self):
        count = sum(1 for _ in os.walk('..'))
        self.assertEqual(count, 3)

    def test_read_csv_lines(self):
        with open('../data/numbers.csv', 'r') as f:
            header = f.readline().strip().split(',')
            rows = [line.strip().split(',') for line in f if line.strip()]
        self.assertEqual(header, ['id', 'value', 'weight'])
        values = [int(r[1]) for r in rows]
        weights = [float(r[2]) for r in rows]
        self.assertEqual(sum(values), 56)
        self.assertEqual(sum(weights), 3.875)
        self.assertEqual(max(values), 42)

    def test_csv_wrong(self):
        with open('../data/numbers.csv', 'r') as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[-1], '5,0,0')

    def test_nested_read(self):
        with open('../data/nested/deeper/leaf.txt') as f:
            self.assertEqual(f.read(), 'deep file\n')

    def test_relpath_normpath(self):
        self.assertEqual(os.path.normpath('../data/./nested/../notes.txt'), '../data/notes.txt')
        self.assertEqual(os.path.relpath('../data/notes.txt', '../data'), 'notes.txt')
        self.assertTrue(os.path.isabs('/tmp'))
        self.assertFalse(os.path.isabs('../data'))

    def test_exists_on_each(self):
        for name in ['notes.txt', 'numbers.csv', 'records.json', 'missing.txt']:
            with self.subTest(name=name):
                self.assertTrue(os.path.exists('../data/' + name), name + " is missing")


if __name__ == '__main__':
    unittest.main()
