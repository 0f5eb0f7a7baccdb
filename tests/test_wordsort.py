"""The words step's compiled sort against ``sorted``, on random words of one-byte characters
(the radix path, eight characters a key), of two-byte ones among them (four a key) and of wider
ones (``sorted`` itself)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lexforge._wordsort import sort_words


def random_words(letters: str, count: int, seed: int, longest: int) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(letters, k=rng.randint(0, longest))) for _ in range(count)]


@pytest.mark.parametrize(
    ("letters", "longest"),
    [
        ("AB", 30),  # long shared prefixes: keys refined eight characters at a time, many times
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 12),
        ("AEÄÖÜßÿ\x01", 20),  # latin-1 and control characters: one byte each, byte order
        ("AEŁŃZ", 10),  # beyond Latin-1: two bytes a character, four characters a key
        ("AŁ", 30),  # the same, long shared prefixes
        ("A\u0100\u0200", 20),  # two-byte characters whose low byte is 0 are not padding
        ("ABÑŘ\uffff", 14),  # one- and two-byte words mixed, the largest two-byte character
        ("AB\U0001f600", 10),  # beyond two bytes: sorted itself
    ],
)
def test_sort_words_is_sorted(letters, longest):
    words = random_words(letters, 5000, seed=len(letters), longest=longest)
    words += words[:500]  # duplicates
    assert sort_words(words) == sorted(words)


@given(st.lists(st.text(alphabet=st.characters(max_codepoint=300), max_size=20)))
def test_sort_words_matches_sorted_on_any_strings(words):
    """NUL characters and empty strings included (NUL sends the list to ``sorted``)."""
    assert sort_words(words) == sorted(words)


@given(st.lists(st.text(alphabet=st.characters(max_codepoint=0x1F600), max_size=12)))
def test_sort_words_matches_sorted_beyond_one_byte(words):
    """Two-byte characters among one-byte ones, four-byte ones, NUL."""
    assert sort_words(words) == sorted(words)


def test_sort_words_leaves_its_input_alone():
    words = ["B", "A", "C"] * 20
    before = list(words)
    assert sort_words(words) == sorted(before)
    assert words == before
