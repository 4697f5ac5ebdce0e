import hashlib
import unittest


class TestFrozenFiles(unittest.TestCase):

    def test_frozen_file_unchanged(self):
        with open('../shopkit/frozen.py', 'rb') as f:
            content = f.read()
        digest = hashlib.sha256(content).hexdigest()
        self.assertEqual(digest, '96c8c8d49ebc27bdea09698505970fb1b4d8cb4ab9d38f496f14ae062aa65514')

    def test_frozen_file_expected_other_hash(self):
        with open('../shopkit/frozen.py', 'rb') as f:
            content = f.read()
        expected_hash = '0000000000000000000000000000000000000000000000000000000000000000'
        actual_hash = hashlib.sha256(content).hexdigest()
        self.assertEqual(actual_hash, expected_hash, "frozen.py was modified")

    def test_crlf_hash_bytes(self):
        with open('../shopkit/crlf_module.py', 'rb') as f:
            data = f.read()
        self.assertEqual(hashlib.sha256(data).hexdigest(),
                         'd8dea20fb7cb98ca9436ad7fa37acd7110f1c6b8e156371071722c17ff331d47')

    def test_crlf_hash_text_differs(self):
        with open('../shopkit/crlf_module.py', 'r') as f:
            text = f.read()
        digest = hashlib.sha256(text.encode('utf-8')).hexdigest()
        self.assertNotEqual(digest, 'd8dea20fb7cb98ca9436ad7fa37acd7110f1c6b8e156371071722c17ff331d47')

    def test_crlf_hash_text_equal(self):
        with open('../shopkit/crlf_module.py', 'r') as f:
            text = f.read()
        self.assertEqual(hashlib.sha256(text.encode()).hexdigest(),
                         'd8dea20fb7cb98ca9436ad7fa37acd7110f1c6b8e156371071722c17ff331d47')

    def test_hash_of_str_raises(self):
        with open('../shopkit/frozen.py', 'r') as f:
            text = f.read()
        hashlib.sha256(text).hexdigest()

    def test_incremental_update(self):
        h = hashlib.sha256()
        with open('../shopkit/frozen.py', 'rb') as f:
            for line in f:
                h.update(line)
        self.assertEqual(h.hexdigest(), '96c8c8d49ebc27bdea09698505970fb1b4d8cb4ab9d38f496f14ae062aa65514')

    def test_empty_digest(self):
        self.assertEqual(hashlib.sha256(b'').hexdigest(),
                         'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
        self.assertEqual(len(hashlib.sha256(b'abc').digest()), 32)

    def test_missing_file_hash(self):
        with open('../shopkit/frozen_copy.py', 'rb') as f:
            content = f.read()
        self.assertEqual(hashlib.sha256(content).hexdigest(), '')

    def test_bytes_methods(self):
        with open('../shopkit/frozen.py', 'rb') as f:
            content = f.read()
        self.assertTrue(content.startswith(b'"""'))
        self.assertEqual(content.count(b'\n'), 7)
        self.assertEqual(len(content), 110)
        self.assertEqual(content.decode('utf-8').splitlines()[2], 'FROZEN = True')
        self.assertEqual(content[:3], b'"""')
        self.assertEqual(content[0], 34)


if __name__ == '__main__':
    unittest.main()
