# -*- coding: utf-8 -*-
# This test file itself has CRLF line endings and non-ASCII text.
import ast
import os
import unittest


class TestCrlfTestFile(unittest.TestCase):

    def test_non_ascii_literal(self):
        greeting = 'Grüß Gott — こんにちは'
        self.assertEqual(len(greeting), 18)
        self.assertEqual(greeting.split(' ')[0], 'Grüß')

    def test_non_ascii_message(self):
        self.assertEqual('café', 'cafe', "naïve comparison")

    def test_line_numbers_after_crlf(self):
        with open('../shopkit/i18n.py', 'r') as f:
            tree = ast.parse(f.read())
        self.assertTrue(os.path.exists('../shopkit/i18n.py'))
        self.assertEqual(len(tree.body), 4)

    def test_error_line_after_crlf(self):
        with open('../shopkit/i18n.py', 'r') as f:
            tree = ast.parse(f.read())
        return tree.body[10]

    def test_multiline_string_in_crlf_source(self):
        text = """one
two"""
        self.assertEqual(text, 'one\ntwo')
        self.assertNotIn('\r', text)


if __name__ == '__main__':
    unittest.main()
