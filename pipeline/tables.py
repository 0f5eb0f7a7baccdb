"""Step ``tables``: letter table and tidy statistics of one lexicon, as parquet.

``letters.parquet``: one row per alphabet letter, then one per Scrabble tile of the language
outside the lexicon's alphabet (a letter the lexicon folds, such as Ä in ``de``, or a two-letter
tile such as Spanish CH: never a letter of its words, so its counts are 0) — occurrences,
frequency, words containing it, word-initial count, whether it is in the alphabet, Scrabble tiles
and value, Ruzzle value (null where the language has none).

``stats.parquet``: tidy rows ``(metric, source, key, value)``: ``word_length`` (key = length),
``read`` / ``kept`` / ``words`` per source, ``rejected`` per source and reason (at
normalization), ``removed`` per source and reason (words the composition of sources removed),
``anagram_class_size`` (key = class size, value = number of classes) and ``source_overlap``
(key = the set of sources a word comes from, value = number of words).

    python -m pipeline.tables --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --sources build/work/fr/sources.json \
        --anagrams build/fr/anagrams.txt --out build/fr
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from lexforge.atomic import atomic_path
from lexforge.errors import report_user_errors
from lexforge.language import Language
from pipeline.step import lexicon_spec, step_parser


def letter_table(words: pd.Series, language: Language) -> pa.Table:
    alphabet = list(language.alphabet)
    letters = alphabet + [tile for tile in language.tile_counts if tile not in alphabet]
    occurrences = letter_counts("".join(words.tolist()))
    initial = words.str[0].value_counts()
    total = sum(occurrences.get(c, 0) for c in alphabet)
    frame = pd.DataFrame(
        {
            "letter": letters,
            "occurrences": [occurrences.get(c, 0) if c in alphabet else 0 for c in letters],
            "words_containing": [
                int(words.str.contains(c, regex=False).sum()) if c in alphabet else 0
                for c in letters
            ],
            "word_initial": [int(initial.get(c, 0)) if c in alphabet else 0 for c in letters],
        }
    )
    frame.insert(2, "frequency", frame["occurrences"] / total)
    return pa.table(
        {
            "letter": pa.array(frame["letter"].tolist(), pa.string()),
            "occurrences": pa.array(frame["occurrences"], pa.int64()),
            "frequency": pa.array(frame["frequency"], pa.float64()),
            "words_containing": pa.array(frame["words_containing"], pa.int64()),
            "word_initial": pa.array(frame["word_initial"], pa.int64()),
            "in_alphabet": pa.array([c in alphabet for c in letters], pa.bool_()),
            "scrabble_tiles": pa.array([language.tile_counts.get(c) for c in letters], pa.int32()),
            "scrabble_value": pa.array([language.tile_values.get(c) for c in letters], pa.int32()),
            "ruzzle_value": pa.array([language.ruzzle_values.get(c) for c in letters], pa.int32()),
        }
    )


def letter_counts(text: str) -> dict[str, int]:
    """Occurrences of each character of ``text`` (vectorized: millions of words)."""
    ascii_only = text.isascii()
    codes = np.frombuffer(
        text.encode("ascii" if ascii_only else "utf-32-le"), np.uint8 if ascii_only else np.uint32
    )
    counts = np.bincount(codes)
    return {chr(code): int(counts[code]) for code in np.flatnonzero(counts)}


def stats_table(words: pd.DataFrame, keys: pd.Series, sources: list[dict]) -> pa.Table:
    """Tidy statistics; ``words`` has columns word and mask, ``keys`` the anagram keys."""
    parts = [
        _rows("word_length", "", words["word"].str.len().value_counts()),
        _rows("anagram_class_size", "", keys.value_counts().value_counts()),
    ]
    for source in sources:
        counts = {metric: source[metric] for metric in ("read", "kept", "words")}
        parts.append(
            pd.DataFrame(
                {
                    "metric": list(counts),
                    "source": source["id"],
                    "key": "",
                    "value": list(counts.values()),
                }
            )
        )
        parts.append(_rows("rejected", source["id"], pd.Series(source["rejected"]), sort=False))
        removed = pd.Series(source.get("removed", {}), dtype="int64")
        parts.append(_rows("removed", source["id"], removed, sort=False))
    overlap = words["mask"].value_counts()
    overlap.index = [
        "+".join(s["id"] for i, s in enumerate(sources) if mask >> i & 1) for mask in overlap.index
    ]
    parts.append(_rows("source_overlap", "", overlap))
    frame = pd.concat(parts, ignore_index=True)
    return pa.table(
        {
            "metric": pa.array(frame["metric"].tolist(), pa.string()),
            "source": pa.array(frame["source"].tolist(), pa.string()),
            "key": pa.array(frame["key"].tolist(), pa.string()),
            "value": pa.array(frame["value"].tolist(), pa.int64()),
        }
    )


def _rows(metric: str, source: str, counts: pd.Series, sort: bool = True) -> pd.DataFrame:
    """One tidy row per entry of ``counts`` (sorted by key, numerically where keys are numbers)."""
    if sort:
        counts = counts.sort_index()
    return pd.DataFrame(
        {
            "metric": metric,
            "source": source,
            "key": [str(k) for k in counts.index],
            "value": counts.to_numpy(),
        }
    )


def write_parquet(table: pa.Table, path: Path) -> None:
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def read_words_tsv(path: Path) -> pd.DataFrame:
    return pd.read_csv(
        path,
        sep="\t",
        names=["word", "mask"],
        dtype={"word": str, "mask": "int64"},
        engine="pyarrow",
        keep_default_na=False,  # NA, NAN and NULL are words
        na_values=[],
    )


def read_anagram_keys(path: Path) -> pd.Series:
    lines = pd.read_csv(
        path,
        sep="=",
        names=["key", "word"],
        dtype=str,
        engine="pyarrow",
        keep_default_na=False,
        na_values=[],
    )
    return lines["key"]


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--anagrams", type=Path, required=True, help="the compiled anagrams.txt")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = lexicon_spec(args)
    words = read_words_tsv(args.words)
    sources = json.loads(args.sources.read_text(encoding="utf-8"))
    language = spec.language
    write_parquet(letter_table(words["word"], language), args.out / "letters.parquet")
    write_parquet(
        stats_table(words, read_anagram_keys(args.anagrams), sources), args.out / "stats.parquet"
    )
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
