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

from lexforge.anagramindex import anagram_index
from lexforge.atomic import atomic_open
from lexforge.errors import report_user_errors
from lexforge.lexicon import ANAGRAM_CLASSES_FILE, ANAGRAM_GRAPH_FILE
from pipeline.compile import read_words_tsv, save_array
from pipeline.outputs import record_outputs
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.anagrams")


def build_index(words: list[str], alphabet: str, out: Path) -> int:
    """Write the three anagram artifacts of sorted ``words`` into ``out``; the number of lines.
    Each large list is dropped once written (a caller that passes its only reference to
    ``words`` lets that go too)."""
    index = anagram_index(words, alphabet)
    count = len(words)
    del words
    save_array(index.graph(), out / ANAGRAM_GRAPH_FILE)
    save_array(index.offsets, out / ANAGRAM_CLASSES_FILE)
    with atomic_open(out / "anagrams.txt", "wb") as handle:
        handle.write(index.text)
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
