"""Step ``tables``: letter table and tidy statistics of one lexicon, as parquet; and the quality
report made from them (``pipeline.report``: ``report.json``, ``report.html``), in the same process:
the words and statistics are handed over, not written and read back.

``letters.parquet``: one row per alphabet letter, then one per Scrabble tile of the language
outside the lexicon's alphabet (a letter the lexicon folds, such as Ä in ``de``, or a two-letter
tile such as Spanish CH: never a letter of its words, so its counts are 0) — occurrences,
frequency, words containing it, word-initial count, whether it is in the alphabet, Scrabble tiles
and value, Ruzzle value (null where the language has none).

``stats.parquet``: one row per observation, a column per dimension (``STATS_SCHEMA``; null where
a dimension does not apply), the count in ``value``. Metrics: ``word_length``,
``anagram_class_size``, per source ``read`` / ``kept`` / ``words``, ``rejected`` and ``removed``
by reason, ``example`` (a rejected entry or removed word of a reason, ``value`` its rank),
``source_length`` and ``only_source`` (lexicon words of a length held by the source, by it
alone), ``overlap`` (lexicon words held by both ``source`` and ``other_source``). docs/artifacts.md
documents every column.

``removed.tsv``: the words step's list of every entry a rule took away (``pipeline.words``),
beside the report, which counts and samples it.

Last, the lexicon's ``manifest.json`` (``pipeline.manifest``), of the compile step's artifacts
(``--artifacts``, certified against ``--records``) and these.

    python -m pipeline.tables --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --sources build/work/fr/sources.json \
        --removed build/work/fr/removed.tsv --anagrams build/stage/fr/anagrams.txt \
        --classes build/stage/fr/anagram-classes.npy \
        --words-txt build/stage/fr/words.txt --history build/work/fr/history \
        --records build/work/fr/outputs/{words,compile}.json \
        --artifacts build/stage/fr/{words.txt,words.marisa,...} --out build/stage/fr
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from lexforge._letters import letter_tallies
from lexforge.atomic import atomic_path
from lexforge.errors import UserError, excerpt, report_user_errors
from lexforge.language import Language
from pipeline.compile import read_words_and_masks
from pipeline.manifest import certified, count_lines, write_manifest
from pipeline.outputs import file_entry, record_outputs, recorded_entries
from pipeline.report import Words, write_report
from pipeline.step import step_config, step_parser

#: The artifacts this step writes before the manifest.
PRODUCED = ("letters.parquet", "stats.parquet", "report.html", "report.json", "removed.tsv")
#: The columns of stats.parquet, in order; every one but lexicon, metric and value may be null.
STATS_SCHEMA = pa.schema(
    [
        pa.field("lexicon", pa.string(), nullable=False),
        pa.field("metric", pa.string(), nullable=False),
        pa.field("source", pa.string()),
        pa.field("other_source", pa.string()),
        pa.field("reason", pa.string()),
        pa.field("length", pa.int32()),
        pa.field("class_size", pa.int32()),
        pa.field("example", pa.string()),
        pa.field("value", pa.int64(), nullable=False),
    ]
)


def letter_table(lexicon: str, words: list[str], language: Language) -> pa.Table:
    alphabet = list(language.alphabet)
    spelled = [language.spell(c) for c in alphabet]  # a tile symbol as its tile (CH)
    letters = alphabet + [tile for tile in language.tile_counts if tile not in spelled]
    occurrences, containing, initial = letter_counts(words, alphabet)
    total = sum(occurrences.values())
    counts = [occurrences.get(c, 0) for c in letters]
    return pa.table(
        {
            "lexicon": pa.array([lexicon] * len(letters), pa.string()),
            "letter": pa.array([language.spell(c) for c in letters], pa.string()),
            "occurrences": pa.array(counts, pa.int64()),
            "frequency": pa.array([count / total for count in counts], pa.float64()),
            "words_containing": pa.array([containing.get(c, 0) for c in letters], pa.int64()),
            "word_initial": pa.array([initial.get(c, 0) for c in letters], pa.int64()),
            "in_alphabet": pa.array([c in alphabet for c in letters], pa.bool_()),
            "scrabble_tiles": pa.array(
                [language.tile_counts.get(language.spell(c)) for c in letters], pa.int32()
            ),
            "scrabble_value": pa.array([language.tile_values.get(c) for c in letters], pa.int32()),
            "ruzzle_value": pa.array([language.ruzzle_values.get(c) for c in letters], pa.int32()),
        }
    )


def letter_counts(
    words: list[str], alphabet: list[str]
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Per letter of ``alphabet`` (every letter of ``words`` is one): its occurrences, the words
    holding it, and the words it begins (counted in C, one pass over the words)."""
    tallies = letter_tallies(words, "".join(alphabet))
    occurrences, containing, initial = (dict(zip(alphabet, t, strict=True)) for t in tallies)
    return occurrences, containing, initial


def stats_table(
    lexicon: str, words: Words, class_sizes: np.ndarray, sources: list[dict]
) -> pa.Table:
    """Tidy statistics; ``words`` the lexicon's words, their lengths and source bitmasks,
    ``class_sizes`` the number of words of each anagram class, ``sources`` the words step's
    per-source statistics."""
    rows: list[dict] = []

    def add(metric: str, value: int, **dimensions: object) -> None:
        rows.append({"lexicon": lexicon, "metric": metric, **dimensions, "value": int(value)})

    lengths, masks = words.lengths, words.masks
    for length, count in _counts(lengths):
        add("word_length", count, length=length)
    for size, count in _counts(class_sizes):
        add("anagram_class_size", count, class_size=size)
    for source in sources:
        for metric in ("read", "kept", "words"):
            add(metric, source[metric], source=source["id"])
        for metric in ("rejected", "removed"):  # "removed": only where sources compose
            for reason, count in source.get(metric, {}).items():
                add(metric, count, source=source["id"], reason=reason)
        for reason, entries in source.get("examples", {}).items():
            for rank, entry in enumerate(entries, 1):
                add("example", rank, source=source["id"], reason=reason, example=entry)
    for index, source in enumerate(sources):
        bit = np.uint64(1 << index)
        for length, count in _counts(lengths[(masks & bit) != 0]):
            add("source_length", count, source=source["id"], length=length)
        for length, count in _counts(lengths[masks == bit]):
            add("only_source", count, source=source["id"], length=length)
        for other_index in range(index + 1, len(sources)):
            pair = bit | np.uint64(1 << other_index)
            both = int(np.count_nonzero((masks & pair) == pair))
            add("overlap", both, source=source["id"], other_source=sources[other_index]["id"])
    return pa.Table.from_pylist(rows, schema=STATS_SCHEMA)


def _counts(values: np.ndarray) -> list[tuple[int, int]]:
    """(value, how many times) for each distinct value (non-negative integers), by value."""
    counts = np.bincount(values)
    return [(int(value), int(counts[value])) for value in np.flatnonzero(counts)]


def write_parquet(table: pa.Table, path: Path) -> None:
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def anagram_class_sizes(anagrams: Path, offsets: Path) -> np.ndarray:
    """The number of lines of each anagram class: the newlines of ``anagrams.txt`` between the
    byte offsets of ``anagram-classes.npy`` where its classes begin. UserError if either is
    unreadable or the offsets do not fit the text."""
    text = _read(anagrams, lambda path: np.fromfile(path, dtype=np.uint8))
    starts = _read(offsets, lambda path: np.load(path, allow_pickle=False))
    fits = (
        starts.ndim == 1
        and starts.dtype.kind == "u"
        and len(starts) > 0
        and bool(np.all(starts[1:] > starts[:-1]))
        and int(starts[-1]) == len(text)
    )
    if not fits:
        raise UserError(f"{offsets}: not the class offsets of {anagrams}; rebuild the lexicon")
    line_ends = np.flatnonzero(text == ord("\n"))
    return np.diff(np.searchsorted(line_ends, starts))


def _read(path: Path, load: Callable[[Path], np.ndarray]) -> np.ndarray:
    """``load(path)``; UserError naming the file if it cannot be read."""
    try:
        return load(path)
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: cannot read ({excerpt(str(error))})") from None


class _PandasHidden:
    """A finder that refuses pandas (see ``pandas_hidden``)."""

    @staticmethod
    def find_spec(name: str, *_: object) -> None:
        if name.partition(".")[0] == "pandas":
            raise ModuleNotFoundError(f"{name} hidden from pyarrow by pipeline.tables", name=name)


@contextmanager
def pandas_hidden() -> Iterator[None]:
    """pyarrow imports pandas the first time it converts Python values, only to test whether
    they are pandas objects: 0.45 CPU-s, a third of a small lexicon's step. Within this block an
    ``import pandas`` fails (unless pandas is imported already), and pyarrow goes on without it."""
    finder = _PandasHidden()
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument(
        "--removed", type=Path, required=True, help="the words step's removed.tsv (copied)"
    )
    parser.add_argument("--anagrams", type=Path, required=True, help="the compiled anagrams.txt")
    parser.add_argument(
        "--classes", type=Path, required=True, help="the compiled anagram-classes.npy"
    )
    parser.add_argument(
        "--words-txt", type=Path, required=True, help="the compiled words.txt (for the report)"
    )
    parser.add_argument("--history", type=Path, required=True, help="the report's history folder")
    parser.add_argument(
        "--records", type=Path, nargs="+", required=True, help="the earlier steps' output records"
    )
    parser.add_argument(
        "--artifacts", type=Path, nargs="+", required=True, help="the compile step's artifacts"
    )
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    config = step_config(args)
    spec = config.lexicons[args.lexicon]
    words = Words.of(*read_words_and_masks(args.words))
    sources = json.loads(args.sources.read_text(encoding="utf-8"))
    sizes = anagram_class_sizes(args.anagrams, args.classes)  # every input read before writing
    for path in (args.words_txt, args.removed):
        if not path.is_file():
            raise UserError(f"{path}: cannot read (no such file)")
    compiled = certified(args.artifacts, recorded_entries(args.records))
    with pandas_hidden():
        letters = letter_table(args.lexicon, words.words, spec.language)
        stats = stats_table(args.lexicon, words, sizes, sources)
        write_parquet(letters, args.out / "letters.parquet")
        write_parquet(stats, args.out / "stats.parquet")
    with atomic_path(args.out / "removed.tsv") as tmp:
        shutil.copyfile(args.removed, tmp)
    write_report(
        args.lexicon,
        spec.language_data,
        args.words_txt,
        words,
        stats.to_pylist(),
        args.history,
        args.out,
    )
    produced = [args.out / name for name in PRODUCED]  # just written: taken as they are
    write_manifest(
        args.lexicon,
        spec.language.code,
        config.version,
        sources,
        compiled + certified(produced, {str(path): file_entry(path) for path in produced}),
        count_lines(args.words_txt),
        args.out / "manifest.json",
    )
    record_outputs(args)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
