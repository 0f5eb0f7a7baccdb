"""lexforge._wordstsv.words_tsv (the words step's words.tsv) against its definition: each word,
a tab, the bitmask of the sets holding it in decimal, a newline; UTF-8."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexforge._wordstsv import words_tsv


def definition(words: list[str], sources: list[set[str]]) -> bytes:
    masks = [sum(1 << i for i, source in enumerate(sources) if word in source) for word in words]
    return "".join(f"{w}\t{m}\n" for w, m in zip(words, masks, strict=True)).encode("utf-8")


# ASCII, Latin-1 beyond ASCII (two UTF-8 bytes: 0xC2 or 0xC3 first), two-byte (Ł) and
# four-byte (emoji) strings
LETTERS = st.sampled_from("AZaz\tª°ÄÖÜßÑÿŁę€😀")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(LETTERS, max_size=12), max_size=40), st.data())
def test_lines_are_those_of_the_definition(words, data):
    count = data.draw(st.integers(0, 64))
    sources = [set(data.draw(st.lists(st.sampled_from(words)))) if words else set()
               for _ in range(count)]  # fmt: skip
    assert words_tsv(words, sources) == definition(words, sources)


def test_the_highest_bit_and_every_word_in_every_source():
    words = ["A", "AB", "ÉTÉ"]
    sources = [set(words)] * 64
    assert words_tsv(words, sources) == definition(words, sources)
    assert words_tsv(words, sources).endswith(b"\t18446744073709551615\n")
    assert words_tsv([], []) == b""


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="65 sources"):
        words_tsv(["A"], [set()] * 65)
    with pytest.raises(TypeError, match="sources must be sets"):
        words_tsv(["A"], [["A"]])
    with pytest.raises(TypeError, match="word 1 is a bytes"):
        words_tsv(["A", b"B"], [])
    with pytest.raises(UnicodeEncodeError):  # a lone surrogate: not UTF-8, as a text file says
        words_tsv(["A\ud800"], [])
