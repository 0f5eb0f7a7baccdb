"""lexforge._wordstsv (the words step's words.tsv) against its definition: each word, a tab,
the bitmask of the sets holding it in decimal, a newline; UTF-8. words_tsv writes it,
parse_words_tsv reads it back for the later steps."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lexforge._wordstsv import parse_words_tsv, words_tsv


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


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.text(LETTERS, min_size=1, max_size=12).filter(
    lambda w: "\t" not in w), st.integers(0, 2**64 - 1)), max_size=40))  # fmt: skip
def test_parse_reads_back_what_the_definition_writes(lines):
    """parse_words_tsv against the lines as Python splits them."""
    text = "".join(f"{w}\t{m}\n" for w, m in lines).encode("utf-8")
    words, masks = parse_words_tsv(text, True)
    assert words == [w for w, _ in lines]
    assert list(memoryview(masks).cast("Q")) == [m for _, m in lines]
    assert parse_words_tsv(text, False) == (words, None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"AB\t1\nABC\n", "not WORD<TAB>MASK lines (line 2)"),
        (b"AB\t1\nABC\t\n", "line 2: no mask"),
        (b"AB\t1\nABC\t1", "line 2: no newline"),
        (b"AB\t1\t2\n", "line 1: the mask is not a number"),
        (b"AB\tx\n", "line 1: the mask is not a number"),
        (b"AB\t-1\n", "line 1: the mask is not a number"),
        (b"AB\t18446744073709551616\n", "line 1: the mask is not a number below 2**64"),
        (b"AB\t1\n\xff\xfe\t1\n", "line 2: 'utf-8' codec can't decode byte 0xff"),
    ],
)
def test_parse_names_the_bad_line(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_words_tsv(text, True)
