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
from lexforge.graph import build_graph
from lexforge.lexicon import ANAGRAM_CLASSES_FILE, ANAGRAM_GRAPH_FILE, anagram_class_offsets
from pipeline.compile import read_words_tsv, save_array, save_trie, write_lines
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.anagrams")


def anagram_keys(words: list[str]) -> np.ndarray:
    """Each word's letters sorted by code point, as a numpy string array (vectorized)."""
    width = max(map(len, words))
    codes = np.array(words, dtype=f"U{width}").view(np.uint32).reshape(len(words), width)
    past_unicode = np.uint32(0x110000)  # padding (0) moved after every real character
    keys = np.where(codes == 0, past_unicode, codes)
    keys.sort(axis=1)
    keys[keys == past_unicode] = 0
    return keys.view(f"U{width}").ravel()


def anagram_index(words: list[str]) -> tuple[list[str], list[str]]:
    """``KEY=WORD`` lines in bytewise order, and the distinct keys in order, for sorted ``words``.

    ``=`` sorts before every letter, so bytewise line order is (key, word) order: a stable sort
    of the already sorted words by key. The lines equal
    ``sorted("".join(sorted(w)) + "=" + w for w in words)`` (code point order is UTF-8 byte order).
    """
    if not words:
        return [], []
    keys = anagram_keys(words)
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order].tolist()
    lines = [key + "=" + words[i] for key, i in zip(sorted_keys, order.tolist(), strict=True)]
    return lines, list(dict.fromkeys(sorted_keys))


def anagram_lines(words: list[str]) -> list[str]:
    """The ``anagrams.txt`` lines of sorted ``words`` (see ``anagram_index``)."""
    return anagram_index(words)[0]


def build_index(words: list[str], alphabet: str, out: Path) -> None:
    lines, keys = anagram_index(words)
    write_lines(lines, out / "anagrams.txt")
    save_trie(lines, out / "anagrams.marisa")
    save_array(
        build_graph(dict(zip(keys, range(len(keys)), strict=True)), alphabet),
        out / ANAGRAM_GRAPH_FILE,
    )
    save_array(np.asarray(anagram_class_offsets(lines), dtype="<u8"), out / ANAGRAM_CLASSES_FILE)


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = lexicon_spec(args)
    words = read_words_tsv(args.words)
    build_index(words, spec.language.alphabet, args.out)
    log.info("%s: anagram index of %d words in %s", args.lexicon, len(words), args.out)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
