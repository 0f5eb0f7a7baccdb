"""Step ``compile``: the solver-ready artifacts of one lexicon, its words and its anagram index.

From ``words.tsv`` writes into ``build/stage/<lexicon>/``:

- ``words.txt``: one word per line, sorted by code point, ``\\n`` endings;
- ``words.marisa``: marisa-trie ``Trie`` of the words;
- ``graph.npy``: the node-array letter graph walked by the compiled Boggle/Ruzzle search;
- ``language.json``: the resolved language, so a published lexicon needs no config;
- ``word-sources.npy``: per word id of ``words.marisa``, the bitmask of the sources that have
  the word (bit i: the i-th name of ``sources.json``; uint8, uint16, … as the count needs);
- ``sources.json``: the source names (ids of the configuration), in bit order;
- ``anagrams.txt``: ``KEY=WORD`` lines (KEY = the word's letters sorted), sorted bytewise — the
  format of the Bash seed's ``ODS6.prep.txt``, so its ``egrep`` query runs unchanged on it;
- ``anagram-graph.npy``: the letter graph (lexforge.graph layout) of the keys, walked by the rack
  search (a key's id is its rank among the keys);
- ``anagram-classes.npy``: per key id, the byte offset of its first line in ``anagrams.txt``, then
  the text's length: the rack search reads a key's words there.

    python -m pipeline.compile --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --sources build/work/fr/sources.json --out build/fr
"""

from __future__ import annotations

import json
import logging
import sys
from operator import itemgetter
from pathlib import Path

import marisa_trie
import numpy as np

from lexforge._wordstsv import parse_words_tsv
from lexforge.anagramindex import anagram_index
from lexforge.atomic import atomic_open, atomic_path
from lexforge.errors import UserError, excerpt, report_user_errors
from lexforge.graph import GRAPH_FILE, build_sorted_graph
from lexforge.lexicon import SOURCE_NAMES_FILE, WORD_SOURCES_FILE, word_trie
from pipeline.config import language_json
from pipeline.outputs import record_outputs
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.compile")


def read_words_and_masks(path: Path) -> tuple[list[str], np.ndarray]:
    """The words of a ``words.tsv`` and the source bitmask of each (uint64), in one pass;
    UserError if it cannot be read or is not one."""
    words, masks = _parse(path, with_masks=True)
    return words, np.frombuffer(masks, dtype=np.uint64)


def _parse(path: Path, with_masks: bool) -> tuple[list[str], bytearray | None]:
    """``parse_words_tsv`` of the file, its errors as one UserError naming it."""
    try:
        return parse_words_tsv(path.read_bytes(), with_masks)
    except (OSError, ValueError) as error:  # not UTF-8: UnicodeDecodeError, a ValueError
        # The parser's messages name the line and what is wrong: long enough to keep whole.
        raise UserError(f"{path}: not a words.tsv ({excerpt(str(error), 120)})") from None


def save_trie(keys: list[str], path: Path) -> marisa_trie.Trie:
    """The lexicon's trie of ``keys`` (``word_trie``: in label order), saved."""
    trie = word_trie(keys)
    with atomic_path(path) as tmp:
        trie.save(str(tmp))
    return trie


def save_array(array: np.ndarray, path: Path) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as handle:
        np.save(handle, array, allow_pickle=False)


def write_lines(lines: list[str], path: Path) -> None:
    with atomic_open(path) as out:
        out.write("\n".join(lines))
        out.write("\n")


def trie_ids(trie: marisa_trie.Trie, words: list[str]) -> np.ndarray:
    """The key id of each of the sorted ``words`` in their label-order trie (``word_trie``):
    the ids as the trie's iteration gives them, twice as fast as looking each word up."""
    ids = map(itemgetter(1), trie.iteritems())
    return np.fromiter(ids, dtype=np.int32, count=len(words))


def source_masks(ids: np.ndarray, masks: np.ndarray, sources: int) -> np.ndarray:
    """The source bitmasks (``masks[i]`` of the word whose id is ``ids[i]``) indexed by word id,
    in the smallest unsigned type."""
    types = (np.uint8, np.uint16, np.uint32, np.uint64)
    dtype = next(t for t in types if sources <= 8 * np.dtype(t).itemsize)
    by_id = np.zeros(len(ids), dtype=dtype)
    by_id[ids] = masks.astype(dtype)
    return by_id


def compile_lexicon(
    words: list[str],
    masks: np.ndarray,
    source_names: list[str],
    language_text: str,
    alphabet: str,
    out: Path,
) -> None:
    write_lines(words, out / "words.txt")
    ids = trie_ids(save_trie(words, out / "words.marisa"), words)
    save_array(build_sorted_graph(words, ids, alphabet), out / GRAPH_FILE)
    save_array(source_masks(ids, masks, len(source_names)), out / WORD_SOURCES_FILE)
    with atomic_open(out / SOURCE_NAMES_FILE) as handle:
        handle.write(json.dumps(source_names, ensure_ascii=False, indent=1) + "\n")
    with atomic_open(out / "language.json") as handle:
        handle.write(language_text)


def build_index(words: list[str], alphabet: str, out: Path) -> None:
    """Write the three anagram artifacts of sorted ``words`` into ``out``. ``words`` is emptied
    once indexed: its strings are not needed to write the index."""
    index = anagram_index(words, alphabet)
    words.clear()
    index.write(out)


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = lexicon_spec(args)
    words, masks = read_words_and_masks(args.words)
    names = [source["id"] for source in json.loads(args.sources.read_text(encoding="utf-8"))]
    compile_lexicon(words, masks, names, language_json(spec), spec.language.alphabet, args.out)
    count = len(words)
    del masks
    build_index(words, spec.language.alphabet, args.out)
    log.info("%s: %d words compiled into %s", args.lexicon, count, args.out)
    record_outputs(args)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
