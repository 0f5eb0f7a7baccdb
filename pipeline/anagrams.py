"""Step ``anagrams``: the anagram index of one lexicon — what the Bash seed's loop prepared.

From ``words.tsv`` writes into ``build/stage/<lexicon>/``:

- ``anagrams.txt``: ``KEY=WORD`` lines (KEY = the word's letters sorted), sorted bytewise — the
  format of the Bash seed's ``ODS6.prep.txt``, so its ``egrep`` query runs unchanged on it;
- ``anagram-graph.npy``: the letter graph (lexforge.graph layout) of the keys, walked by the rack
  search (a key's id is its rank among the keys);
- ``anagram-classes.npy``: per key id, the byte offset of its first line in ``anagrams.txt``, then
  the text's length: the rack search reads a key's words there.

    python -m pipeline.anagrams --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --out build/fr
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lexforge.atomic import atomic_open
from lexforge.errors import report_user_errors
from lexforge.graph import build_sorted_graph, letter_matrix
from lexforge.lexicon import ANAGRAM_CLASSES_FILE, ANAGRAM_GRAPH_FILE, anagram_class_offsets
from pipeline.compile import read_words_tsv, save_array
from pipeline.outputs import record_outputs
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.anagrams")


class AnagramIndex(NamedTuple):
    """The anagram index of sorted words (``anagram_index``)."""

    text: str  # the KEY=WORD lines, each ending in a newline, in bytewise order
    keys: list[str]  # the distinct keys, in order (a key's id is its rank)
    offsets: np.ndarray  # per key, the UTF-8 byte offset of its first line; then the total

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")[:-1]


def anagram_index(words: list[str], alphabet: str | None = None) -> AnagramIndex:
    """The ``KEY=WORD`` lines (one text) in bytewise order, the distinct keys and their line
    offsets, for sorted ``words`` (KEY: the word's letters sorted by code point), whose letters
    are those of ``alphabet`` when given (faster than finding them).

    ``=`` sorts before every letter, so bytewise line order is (key, word) order: a stable sort
    of the already sorted words by key. The lines equal
    ``sorted("".join(sorted(w)) + "=" + w for w in words)`` (code point order is UTF-8 byte order).
    Vectorized over the words' letter codes (``lexforge.graph.letter_matrix``: a byte a letter
    for up to 253 distinct letters, as every shipped language has): the lines are assembled as
    one code matrix and decoded at once, not string by string.
    """
    if not words:
        return AnagramIndex("", [], np.zeros(1, dtype="<u8"))
    # Code-point order, so code order is key order.
    letters = sorted(set(alphabet) if alphabet else set("".join(words)))
    width = max(map(len, words))
    spelled = letter_matrix(words, letters, width)
    codes = _sorted_rows(spelled)
    if len(letters) > 253:  # no two one-byte codes left for "=" and newline
        return _anagram_index_by_string(words, letters, codes)
    order = np.argsort(codes.view(f"S{width}").ravel(), kind="stable")
    codes = codes[order]
    is_first = np.r_[True, np.any(codes[1:] != codes[:-1], axis=1)]
    equals, newline = len(letters) + 1, len(letters) + 2
    line_codes = np.zeros((len(words), 2 * width + 2), dtype=np.uint8)
    line_codes[:, :width] = codes
    line_codes[:, width] = equals
    line_codes[:, width + 1 : 2 * width + 1] = spelled[order]
    line_codes[:, -1] = newline
    del spelled
    characters = [*letters, "=", "\n"]
    text = _decode(line_codes, characters)
    del line_codes
    key_codes = np.zeros((int(np.count_nonzero(is_first)), width + 1), dtype=np.uint8)
    key_codes[:, :width] = codes[is_first]
    key_codes[:, -1] = newline
    keys = _decode(key_codes, characters).split("\n")[:-1]
    byte_lengths = np.array([0, *(len(c.encode("utf-8")) for c in letters)], dtype=np.uint8)
    key_bytes = byte_lengths[codes].sum(axis=1, dtype=np.uint64)
    line_bytes = 2 * key_bytes + 2  # KEY=WORD\n
    starts = np.r_[np.uint64(0), np.cumsum(line_bytes, dtype=np.uint64)]
    offsets = np.r_[starts[:-1][is_first], starts[-1:]].astype("<u8")
    return AnagramIndex(text, keys, offsets)


def _decode(codes: np.ndarray, characters: list[str]) -> str:
    """The text of a code matrix, row by row, padding (0) dropped; code c is
    ``characters[c - 1]``."""
    flat = codes[codes != 0]
    if max(map(ord, characters)) < 256:
        table = np.frombuffer(b"\0" + "".join(characters).encode("latin-1"), dtype=np.uint8)
        return table[flat].tobytes().decode("latin-1")
    table = np.array([0, *map(ord, characters)], dtype="<u4")
    return table[flat].tobytes().decode("utf-32-le")


def _sorted_rows(spelled: np.ndarray) -> np.ndarray:
    """A copy of a letter-code matrix with each row's codes sorted, padding (0) kept last:
    the anagram keys' codes."""
    codes = spelled.copy()
    pad = np.iinfo(codes.dtype).max  # padding moved after every real letter, then back
    codes[codes == 0] = pad
    codes.sort(axis=1)
    codes[codes == pad] = 0
    return codes


def _anagram_index_by_string(
    words: list[str], letters: list[str], codes: np.ndarray
) -> AnagramIndex:
    """``anagram_index`` for alphabets of more than 253 letters (``codes``: the keys' sorted
    letter codes): keys spelled one by one."""
    width = codes.shape[1]
    keys = codes.view(f"U{width}" if codes.dtype == np.uint32 else f"S{width}").ravel()
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    table = {code: ord(letter) for code, letter in enumerate(letters, start=1)}
    if keys.dtype.kind == "S":
        spelled = [key.decode("latin-1").translate(table) for key in keys.tolist()]
    else:
        spelled = [key.translate(table) for key in keys.tolist()]
    lines = [key + "=" + words[i] for key, i in zip(spelled, order.tolist(), strict=True)]
    offsets = np.asarray(anagram_class_offsets(lines), dtype="<u8")
    text = "".join(line + "\n" for line in lines)
    return AnagramIndex(text, [spelled[i] for i in first.tolist()], offsets)


def anagram_lines(words: list[str]) -> list[str]:
    """The ``anagrams.txt`` lines of sorted ``words`` (see ``anagram_index``)."""
    return anagram_index(words).lines


def build_index(words: list[str], alphabet: str, out: Path) -> int:
    """Write the three anagram artifacts of sorted ``words`` into ``out``; the number of lines.
    Each large list is dropped once written (a caller that passes its only reference to
    ``words`` lets that go too)."""
    text, keys, offsets = anagram_index(words, alphabet)
    count = len(words)
    del words
    ids = np.arange(len(keys), dtype=np.int32)  # a key's id is its rank
    save_array(build_sorted_graph(keys, ids, alphabet), out / ANAGRAM_GRAPH_FILE)
    del keys, ids
    save_array(offsets, out / ANAGRAM_CLASSES_FILE)
    with atomic_open(out / "anagrams.txt") as handle:
        handle.write(text)
    return count


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = lexicon_spec(args)
    count = build_index(read_words_tsv(args.words), spec.language.alphabet, args.out)
    log.info("%s: anagram index of %d words in %s", args.lexicon, count, args.out)
    record_outputs(args)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
