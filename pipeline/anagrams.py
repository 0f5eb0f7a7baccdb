"""Step ``anagrams``: the anagram index of one lexicon — what the Bash seed's loop prepared.

From ``words.tsv`` writes into ``build/stage/<lexicon>/``:

- ``anagrams.txt``: ``KEY=WORD`` lines (KEY = the word's letters sorted), sorted bytewise — the
  format of the Bash seed's ``ODS6.prep.txt``, so its ``egrep`` query runs unchanged on it;
- ``anagrams.marisa``: marisa-trie ``Trie`` of those lines (prefix ``KEY=`` lists a class);
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

import numpy as np

from lexforge.errors import report_user_errors
from lexforge.graph import build_sorted_graph, letter_matrix
from lexforge.lexicon import ANAGRAM_CLASSES_FILE, ANAGRAM_GRAPH_FILE, anagram_class_offsets
from pipeline.compile import read_words_tsv, save_array, save_trie, write_lines
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.anagrams")


def anagram_index(words: list[str]) -> tuple[list[str], list[str]]:
    """``KEY=WORD`` lines in bytewise order, and the distinct keys in order, for sorted ``words``
    (KEY: the word's letters sorted by code point).

    ``=`` sorts before every letter, so bytewise line order is (key, word) order: a stable sort
    of the already sorted words by key. The lines equal
    ``sorted("".join(sorted(w)) + "=" + w for w in words)`` (code point order is UTF-8 byte order).
    Vectorized over the words' letter codes (``lexforge.graph.letter_matrix``: a byte a letter
    for up to 254 distinct letters, as every shipped language has).
    """
    if not words:
        return [], []
    letters = sorted(set("".join(words)))  # code-point order, so code order is key order
    width = max(map(len, words))
    codes = letter_matrix(words, letters, width).copy()
    compact = codes.dtype == np.uint8
    pad = np.iinfo(codes.dtype).max  # padding (0) moved after every real letter, then back
    codes[codes == 0] = pad
    codes.sort(axis=1)
    codes[codes == pad] = 0
    keys = codes.view(f"S{width}" if compact else f"U{width}").ravel()
    del codes
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    spelled = _spell(keys, letters, compact)
    lines = [key + "=" + words[i] for key, i in zip(spelled, order.tolist(), strict=True)]
    return lines, [spelled[i] for i in first.tolist()]


def _spell(keys: np.ndarray, letters: list[str], compact: bool) -> list[str]:
    """The keys of a code matrix's row view (``S``/``U`` items, trailing 0s dropped), spelled."""
    table = {code: ord(letter) for code, letter in enumerate(letters, start=1)}
    if compact:
        return [key.decode("latin-1").translate(table) for key in keys.tolist()]
    return [key.translate(table) for key in keys.tolist()]


def anagram_lines(words: list[str]) -> list[str]:
    """The ``anagrams.txt`` lines of sorted ``words`` (see ``anagram_index``)."""
    return anagram_index(words)[0]


def build_index(words: list[str], alphabet: str, out: Path) -> int:
    """Write the four anagram artifacts of sorted ``words`` into ``out``; the number of lines.
    Each large list is dropped once written (a caller that passes its only reference to
    ``words`` lets that go too)."""
    lines, keys = anagram_index(words)
    del words
    ids = np.arange(len(keys), dtype=np.int32)  # a key's id is its rank
    save_array(build_sorted_graph(keys, ids, alphabet), out / ANAGRAM_GRAPH_FILE)
    del keys, ids
    write_lines(lines, out / "anagrams.txt")
    save_trie(lines, out / "anagrams.marisa")
    save_array(np.asarray(anagram_class_offsets(lines), dtype="<u8"), out / ANAGRAM_CLASSES_FILE)
    return len(lines)


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = lexicon_spec(args)
    count = build_index(read_words_tsv(args.words), spec.language.alphabet, args.out)
    log.info("%s: anagram index of %d words in %s", args.lexicon, count, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
