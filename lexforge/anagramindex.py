"""The anagram index of sorted words (``anagram_index``): the ``KEY=WORD`` lines of
``anagrams.txt`` (KEY = the word's letters sorted), the offsets of each key's first line and
the letter graph of the keys. The pipeline's compile step and the ``-d`` word-list cache
(``lexforge.wordlist``) write it (``AnagramIndex.write``).
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from lexforge._anagramindex import index_lines
from lexforge.atomic import atomic_open
from lexforge.graph import graph_of_codes, letter_matrix
from lexforge.lexicon import (
    ANAGRAM_CLASSES_FILE,
    ANAGRAM_GRAPH_FILE,
    ANAGRAM_LINES_FILE,
    anagram_class_offsets,
)


class AnagramIndex(NamedTuple):
    """The anagram index of sorted words (``anagram_index``)."""

    text: bytes  # the KEY=WORD lines in UTF-8, each ending in a newline, in bytewise order
    key_codes: np.ndarray  # per distinct key in order (a key's id is its rank): its letter codes
    letters: str  # code c in key_codes is letters[c - 1]; 0 is padding
    offsets: np.ndarray  # per key, the UTF-8 byte offset of its first line; then the total

    @property
    def lines(self) -> list[str]:
        return self.text.decode("utf-8").split("\n")[:-1]

    @property
    def keys(self) -> list[str]:
        """The distinct keys, in order."""
        return _spell_rows(self.key_codes, self.letters)

    def graph(self) -> np.ndarray:
        """The letter graph of the keys (``lexforge.graph``), a key's id being its rank."""
        return graph_of_codes(self.key_codes, np.arange(len(self.key_codes), dtype=np.int32))

    def write(self, folder: Path) -> None:
        """``anagrams.txt``, ``anagram-graph.npy`` and ``anagram-classes.npy`` into ``folder``,
        each written atomically."""
        for name, array in (
            (ANAGRAM_GRAPH_FILE, self.graph()),
            (ANAGRAM_CLASSES_FILE, self.offsets),
        ):
            with atomic_open(folder / name, "wb") as handle:
                np.save(handle, array, allow_pickle=False)
        with atomic_open(folder / ANAGRAM_LINES_FILE, "wb") as handle:
            handle.write(self.text)


def anagram_index(words: list[str], alphabet: str | None = None) -> AnagramIndex:
    """The ``KEY=WORD`` lines (one text) in bytewise order, the distinct keys and their line
    offsets, for sorted ``words`` (KEY: the word's letters sorted by code point), whose letters
    are those of ``alphabet`` when given (faster than finding them).

    ``=`` sorts before every letter, so bytewise line order is (key, word) order: a stable sort
    of the already sorted words by key. The lines equal
    ``sorted("".join(sorted(w)) + "=" + w for w in words)`` (code point order is UTF-8 byte order).
    Made in C (``lexforge._anagramindex``) from the words' letter codes
    (``lexforge.graph.letter_matrix``: a byte a letter for up to 253 distinct letters, as every
    shipped language has): each word's codes sorted, a radix sort by key, the lines spelled.
    """
    # Code-point order, so code order is key order.
    letters = "".join(sorted(set(alphabet) if alphabet else set("".join(words))))
    if not words:
        return AnagramIndex(b"", np.zeros((0, 1), dtype=np.uint8), letters, np.zeros(1, "<u8"))
    width = max(map(len, words))
    spelled = letter_matrix(words, letters, width)
    if len(letters) > 253:  # no two one-byte codes left for "=" and newline
        return _anagram_index_by_string(words, letters, spelled)
    text, key_codes, offsets = index_lines(spelled, [c.encode("utf-8") for c in letters])
    key_matrix = np.frombuffer(key_codes, dtype=np.uint8).reshape(-1, width + 1)
    return AnagramIndex(text, key_matrix, letters, np.frombuffer(offsets, dtype="<u8"))


def _spell_rows(codes: np.ndarray, letters: str) -> list[str]:
    """Each row of a code matrix spelled (code c is ``letters[c - 1]``; padding, 0, dropped),
    decoded as one text."""
    characters = [*letters, "\n"]
    dtype = np.promote_types(codes.dtype, np.min_scalar_type(len(characters)))
    rows = np.zeros((codes.shape[0], codes.shape[1] + 1), dtype=dtype)
    rows[:, :-1] = codes
    rows[:, -1] = len(characters)  # the newline ending each row
    flat = rows[rows != 0]
    if max(map(ord, characters)) < 256:
        table = np.frombuffer(b"\0" + "".join(characters).encode("latin-1"), dtype=np.uint8)
        text = table[flat].tobytes().decode("latin-1")
    else:
        table = np.array([0, *map(ord, characters)], dtype="<u4")
        text = table[flat].tobytes().decode("utf-32-le")
    return text.split("\n")[:-1]


def _anagram_index_by_string(words: list[str], letters: str, spelled: np.ndarray) -> AnagramIndex:
    """``anagram_index`` for alphabets of more than 253 letters (``spelled``: the words' letter
    codes, four bytes each): keys sorted as strings of codes, lines spelled one by one."""
    width = spelled.shape[1]
    spelled = spelled.astype(np.uint32)
    codes = np.sort(np.where(spelled == 0, np.iinfo(spelled.dtype).max, spelled), axis=1)
    codes[codes == np.iinfo(spelled.dtype).max] = 0
    keys = codes.view(f"U{width}").ravel()
    order = np.argsort(keys, kind="stable")
    in_order = keys[order]
    first = np.flatnonzero(np.r_[True, in_order[1:] != in_order[:-1]])
    table = {code: ord(letter) for code, letter in enumerate(letters, start=1)}
    spelled_keys = [key.translate(table) for key in in_order.tolist()]
    lines = [key + "=" + words[i] for key, i in zip(spelled_keys, order.tolist(), strict=True)]
    offsets = np.asarray(anagram_class_offsets(lines), dtype="<u8")
    key_codes = np.zeros((len(first), width + 1), dtype=spelled.dtype)
    key_codes[:, :width] = codes[order[first]]
    text = "".join(line + "\n" for line in lines).encode("utf-8")
    return AnagramIndex(text, key_codes, letters, offsets)


def anagram_lines(words: list[str]) -> list[str]:
    """The ``anagrams.txt`` lines of sorted ``words`` (see ``anagram_index``)."""
    return anagram_index(words).lines
