import json
import unittest


class TestJson(unittest.TestCase):

    def setUp(self):
        with open('../data/records.json', 'r') as f:
            self.records = json.load(f)

    def test_load_records(self):
        self.assertEqual(len(self.records), 4)
        self.assertEqual(self.records[0]['name'], 'alpha')
        self.assertIs(self.records[0]['active'], True)
        self.assertIsNone(self.records[3]['active'])
        self.assertEqual(self.records[2]['note'], 'Grüße')
        self.assertEqual([r['size'] for r in self.records], [3, 12, 7, -2])

    def test_records_filter(self):
        active = [r['name'] for r in self.records if r['active']]
        self.assertEqual(active, ['alpha', 'gamma'])
        tagged = sorted({t for r in self.records for t in r['tags']})
        self.assertEqual(tagged, ['x', 'y', 'z'])

    def test_records_wrong(self):
        self.assertEqual(max(self.records, key=lambda r: r['size'])['name'], 'gamma')

    def test_missing_note(self):
        self.assertEqual(self.records[0]['note'], '')

    def test_loads_values(self):
        self.assertEqual(json.loads('[1, 2.5, "x", null, true, false]'), [1, 2.5, 'x', None, True, False])
        self.assertEqual(json.loads('{"a": {"b": []}}'), {'a': {'b': []}})
        self.assertEqual(json.loads('"\\u00e9\\n"'), 'é\n')
        self.assertEqual(json.loads('1e3'), 1000.0)
        self.assertEqual(json.loads(' 12 '), 12)
        self.assertEqual(json.loads('{"k": 1, "k": 2}'), {'k': 2})

    def test_loads_invalid(self):
        json.loads('{"a": 1,}')

    def test_loads_invalid_caught(self):
        with self.assertRaises(json.JSONDecodeError):
            json.loads('not json')
        with self.assertRaises(ValueError):
            json.loads('')

    def test_dumps(self):
        self.assertEqual(json.dumps({'a': [1, None, True]}), '{"a": [1, null, true]}')
        self.assertEqual(json.dumps('é'), '"\\u00e9"')
        self.assertEqual(json.dumps('é', ensure_ascii=False), '"é"')
        self.assertEqual(json.dumps({'b': 1, 'a': 2}, sort_keys=True), '{"a": 2, "b": 1}')
        self.assertEqual(json.dumps([1, 2], indent=2), '[\n  1,\n  2\n]')
        self.assertEqual(json.dumps({'a': 1}, separators=(',', ':')), '{"a":1}')
        self.assertEqual(json.dumps((1, 2)), '[1, 2]')
        self.assertEqual(json.dumps(1.0), '1.0')
        self.assertEqual(json.dumps({1: 'x'}), '{"1": "x"}')

    def test_dumps_unserialisable(self):
        json.dumps({'s': {1, 2}})

    def test_roundtrip(self):
        text = json.dumps(self.records)
        self.assertEqual(json.loads(text), self.records)


if __name__ == '__main__':
    unittest.main()
