#!/usr/bin/env python3
"""Tests of the realworld grader and needle derivation (ctest: realworld_grader). Each view
below is written by hand to be one kind of failure the grader must catch, or one honest view
it must accept; none depends on the engine."""
import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rw.common import claude_listing  # noqa: E402
from rw.grade import grade, selector_regex  # noqa: E402
from rw.needles import derive  # noqa: E402

ACCESS = [f'127.0.0.1 - - [07/Dec/2026:10:00:{i:02d}] "GET /api/orders/{100 + i} HTTP/1.1" 200 {500 + i}' for i in range(40)]
ACCESS[17] = '127.0.0.1 - - [07/Dec/2026:10:00:17] "POST /api/orders HTTP/1.1" 413 0'
ACCESS[29] = '127.0.0.1 - - [07/Dec/2026:10:00:29] "GET /api/orders/x HTTP/1.1" 404 9'
LOG = "\n".join(ACCESS) + "\n"


def run(source, view, lossless=False, expanded=None, file_read=False, listing=False, first_line=1, original=None):
    return grade(source, view, lossless, derive(source, file_read), view if expanded is None else expanded,
                 listing=listing, file_read=file_read, first_line=first_line, original=original)


class Needles(unittest.TestCase):
    def test_failure_lines_and_rare_lines_are_needles(self):
        texts = {n["text"] for n in derive(LOG, False)}
        self.assertIn(ACCESS[17], texts)
        self.assertIn(ACCESS[29], texts)
        self.assertNotIn(ACCESS[3], texts)  # one of 38 lines of one template

    def test_generic_identifiers_are_substring_needles(self):
        src = "a.cpp:3:5: note: candidate: std::map<std::string, std::vector<P>> f()\n"
        subs = [n["text"] for n in derive(src, False) if n["sub"]]
        self.assertIn("std::map<std::string, std::vector<P>>", subs)

    def test_a_file_read_needs_every_line(self):
        self.assertEqual(len(derive("a\n\nb\nc\n", True)), 3)


class Grader(unittest.TestCase):
    def test_pass_through_keeps_everything(self):
        v = run(LOG, LOG)
        self.assertEqual(v.corruptions, [])
        self.assertEqual(v.kept, v.needles)

    def test_unmarked_elision_of_4xx_lines_is_a_corruption(self):
        view = "\n".join(ACCESS[:5] + ["… 35 lines elided (caveman): elided lines resemble shown lines …"]) + "\n"
        v = run(LOG, view)
        facts = {c["fact"] for c in v.corruptions}
        self.assertIn(ACCESS[17], facts)
        self.assertIn(ACCESS[29], facts)

    def test_a_true_selector_with_the_right_count_covers_its_lines(self):
        kept = ACCESS[:17] + [ACCESS[17]] + ACCESS[18:29] + [ACCESS[29]]
        hidden = ACCESS[30:]
        marker = f'… {len(hidden)} lines matching "127.0.0.1 - - [07/Dec/2026:10:00:{{s}}] \\"GET /api/orders/{{id}} HTTP/1.1\\" 200 {{n}}" elided (caveman) …'
        v = run(LOG, "\n".join(kept + [marker]) + "\n")
        self.assertEqual(v.corruptions, [])
        self.assertEqual(v.kept, v.needles)

    def test_a_selector_false_of_a_hidden_line_is_a_corruption(self):
        marker = '… 23 lines matching "127.0.0.1 - - [{d}] \\"GET /api/orders/{id} HTTP/1.1\\" 200 {n}" elided (caveman) …'
        v = run(LOG, "\n".join(ACCESS[:17] + [marker]) + "\n")
        self.assertTrue(any("selector" in c["why"] for c in v.corruptions), v.corruptions)

    def test_a_wrong_count_is_a_corruption(self):
        marker = '… 20 lines matching "{*}" elided (caveman) …'
        v = run(LOG, "\n".join(ACCESS[:10] + [marker]) + "\n")
        self.assertTrue(any("state 20 lines and stand for 30" in c["why"] for c in v.corruptions), v.corruptions)

    def test_a_lossless_view_must_expand_exactly(self):
        v = run(LOG, "[40 lines ...]\n", lossless=True, expanded=LOG.replace("413", "414"))
        self.assertEqual(v.corruptions[0]["why"], "a view marked lossless does not expand to the input")
        self.assertEqual(run(LOG, "[40 lines ...]\n", lossless=True, expanded=LOG).corruptions, [])

    def test_a_changed_character_in_a_kept_line_is_a_corruption(self):
        src = "x.cpp:9:3: error: no match for 'operator=' in std::map<std::string, std::vector<P>> m\n" * 1 + "ok\n"
        view = src.replace("std::map<std::string, std::vector<P>>", "std::map>")
        self.assertTrue(run(src, view).corruptions)
        self.assertTrue(run(LOG, LOG.replace('" 413 0', '" 418 0')).corruptions)

    def test_markup_flattened_to_text_is_a_corruption(self):
        src = ('<?xml version="1.0"?>\n<component>\n  <releases>\n    <release version="1.2.3" date="2026-01-02"/>\n'
               "  </releases>\n</component>\n")
        self.assertTrue(run(src, "1.2.3 2026-01-02\n").corruptions)

    def test_a_file_read_elision_must_name_its_exact_range(self):
        body = "".join(f"line {i} of the file\n" for i in range(1, 41))
        shown = claude_listing(body).split("\n")
        good = shown[:10] + ["… lines 11-30 elided (caveman): Read offset=11 limit=20 …"] + shown[30:]
        self.assertEqual(run(body, "\n".join(good), file_read=True, listing=True).corruptions, [])
        bad = shown[:10] + ["… lines 11-29 elided (caveman): Read offset=11 limit=19 …"] + shown[30:]
        self.assertTrue(run(body, "\n".join(bad), file_read=True, listing=True).corruptions)
        bodies = shown[:10] + ["… 20 lines elided (caveman): function bodies …"] + shown[30:]
        self.assertTrue(run(body, "\n".join(bodies), file_read=True, listing=True).corruptions)

    def test_a_code_body_marker_must_name_the_lines_it_hides(self):
        src = ("func Do(req *Request) error {\n\tif req == nil {\n\t\treturn ErrNil\n\t}\n"
               "\treturn send(req)\n}\n")
        good = "func Do(req *Request) error {\n\t// … lines 2–5 elided (caveman)\n}\n"
        self.assertEqual(run(src, good).corruptions, [])
        off = "func Do(req *Request) error {\n\t// … lines 2–4 elided (caveman)\n}\n"
        self.assertTrue(run(src, off).corruptions)
        silent = "func Do(req *Request) error { /* caveman: body elided */ }\n"
        self.assertTrue(run(src, silent).corruptions)

    def test_a_stated_range_is_aligned_as_a_unit(self):
        # A blank line right after the hidden run and a blank line inside it: aligned line by
        # line, the view's blank could match the one inside and make a true range look false.
        src = ('def wraps(self, f):\n    """Wrap f."""\n\n    @functools.wraps(f)\n'
               "    def wrapped_f(*a):\n        return self(f, *a)\n\n    return wrapped_f\n\n"
               "def begin(self):\n    self.clear()\n    self.reset()\n")
        view = ('def wraps(self, f):\n    """Wrap f."""\n    ...  # … lines 3–8 elided (caveman)\n\n'
                "def begin(self):\n    ...  # … lines 11–12 elided (caveman)\n")
        self.assertEqual(run(src, view).corruptions, [])
        lying = view.replace("lines 3–8", "lines 3–7")
        self.assertTrue(run(src, lying).corruptions)

    def test_a_gutter_that_no_longer_matches_the_file_is_a_corruption(self):
        body = "<p>a &amp; b</p>\n<div>\n  <span>x</span>\n</div>\n"
        view = "1\ta & b\n2\t<div>\n3\t  <span>x</span>\n4\t</div>\n5\t"
        self.assertTrue(run(body, view, file_read=True, listing=True, original=claude_listing(body)).corruptions)

    def test_a_sparse_gutter_keeps_tab_indented_lines(self):
        body = "{\n\t\"name\": \"gopd\",\n\t\"version\": \"1.2.0\"\n}\n"
        view = '1\t{\n\t"name": "gopd",\n\t"version": "1.2.0"\n}\n5\t'
        self.assertEqual(run(body, view, file_read=True, listing=True, original=claude_listing(body)).corruptions, [])

    def test_counts_of_other_units_are_not_line_counts(self):
        view = "\n".join(ACCESS[:17] + ["… 2 sections elided (caveman) …"]) + "\n"
        whys = [c["why"] for c in run(LOG, view).corruptions]
        self.assertTrue(whys and not any("state" in w for w in whys), whys)

    def test_a_template_that_splits_a_number_is_not_literal(self):
        words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"]
        src = "".join(f"req {w} took 1.{i}ms\n" for i, w in enumerate(words))
        view = '[6 lines "req {1} took 1.{2}", values per line:]\n' + "".join(f"{w} {i}ms\n" for i, w in enumerate(words))
        v = run(src, view, lossless=True, expanded=src)
        self.assertEqual(v.corruptions, [])
        self.assertLess(v.literal, v.needles)

    def test_selector_placeholders(self):
        self.assertTrue(selector_regex("GET /a/{id} {n}").fullmatch("GET /a/17 200"))
        self.assertFalse(selector_regex("GET /a/{id} 200").fullmatch("GET /a/17 404"))
        self.assertTrue(selector_regex("at {*}").fullmatch("at main (x.js:1:2)"))


if __name__ == "__main__":
    unittest.main()
