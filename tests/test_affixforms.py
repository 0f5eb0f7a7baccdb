"""lexforge._affixforms (aspell's suffix forms in C) against its definition, Python's slicing and
concatenation: the same strings, in the narrowest kind (ASCII, Latin-1, two or four bytes a
character) that Python itself gives them, so that they hash and compare as Python's."""

from __future__ import annotations

import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from lexforge._affixforms import add_suffix_forms

# ASCII, Latin-1 beyond ASCII, two-byte and four-byte characters: each kind of string.
CHARACTERS = "aeiouxyz\u00e0\u00e9\u00ff\u0142\u0159\u4e2d\U0001f600"
texts = st.text(alphabet=CHARACTERS, max_size=8)
entries = st.lists(st.tuples(st.integers(0, 9), texts, st.booleans()), max_size=12)


def definition(root: str, suffixes: list[tuple[int, str, bool]]) -> list[str]:
    return [root[: len(root) - strip] + add for strip, add, _ in suffixes if strip < len(root)]


@settings(max_examples=400, deadline=None)
@given(texts, entries, st.lists(texts, max_size=3))
def test_forms_are_slices_and_concatenations(root, suffixes, before):
    forms = list(before)
    add_suffix_forms(forms, root, suffixes)
    expected = before + definition(root, suffixes)
    assert forms == expected
    # The same kind as Python's strings: a wider one would be a different object to the
    # interpreter (its size shows the kind) and break the ASCII fast paths.
    assert [sys.getsizeof(form) for form in forms] == [sys.getsizeof(form) for form in expected]
    assert [form.isascii() for form in forms] == [form.isascii() for form in expected]


def test_a_stripped_wide_character_leaves_a_narrow_form():
    """CAFFÈ without its È, plus an ASCII add: an ASCII string, as Python makes it."""
    forms: list[str] = []
    add_suffix_forms(forms, "caff\u00e8", [(1, "e", False), (0, "", True), (5, "x", False)])
    assert forms == ["caffe", "caff\u00e8"]
    assert forms[0].isascii() and {forms[0]: 1}["caffe"] == 1
