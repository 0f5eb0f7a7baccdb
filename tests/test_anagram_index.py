"""The anagrams step's index against its definition, on random words (the real lexicons are
checked in test_artifacts)."""

from __future__ import annotations

import random

import pytest

from lexforge.lexicon import anagram_class_offsets
from pipeline.anagrams import anagram_index


def random_words(letters: str, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return sorted({"".join(rng.choices(letters, k=rng.randint(2, 7))) for _ in range(count)})


@pytest.mark.parametrize(
    "letters",
    [
        "ABCDE",  # ASCII: one-byte codes, latin-1 text
        "AEÄÖÜS",  # latin-1 letters, two UTF-8 bytes each
        "AEŁŃZ",  # beyond latin-1: the text decoded from four-byte code points
        "".join(chr(0x4E00 + i) for i in range(300)),  # over 253 letters: keys spelled one by one
    ],
)
def test_lines_keys_and_offsets_are_their_definitions(letters):
    words = random_words(letters, 3000, seed=len(letters))
    lines = sorted("".join(sorted(w)) + "=" + w for w in words)
    index = anagram_index(words)
    assert index.lines == lines
    assert index.keys == list(dict.fromkeys(line.partition("=")[0] for line in lines))
    assert index.offsets.tolist() == list(anagram_class_offsets(lines))
    given = anagram_index(words, letters)  # the alphabet given, not found
    assert given.lines == lines and given.keys == index.keys
    assert given.offsets.tolist() == index.offsets.tolist()
