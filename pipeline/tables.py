"""Step ``tables``: letter table and tidy statistics of one lexicon, as parquet.

``letters.parquet``: one row per alphabet letter — occurrences, frequency, words containing it,
word-initial count, Scrabble tiles and value, Ruzzle value (null where the language has none).

``stats.parquet``: tidy rows ``(metric, source, key, value)``: ``word_length`` (key = length),
``read`` / ``kept`` / ``words`` per source, ``rejected`` per source and reason, ``anagram_class_size``
(key = class size, value = number of classes) and ``source_overlap`` (key = the set of sources a
word comes from, value = number of words).

    python -m pipeline.tables --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --sources build/work/fr/sources.json --out build/fr
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.atomic import atomic_path
from pipeline.config import load_config
from solver.errors import UserError, report_user_errors
from solver.language import Language


def letter_table(words: list[str], language: Language) -> pa.Table:
    occurrences = Counter("".join(words))
    containing = Counter(letter for word in words for letter in set(word))
    initial = Counter(word[0] for word in words)
    total = sum(occurrences.values())
    letters = list(language.alphabet)
    return pa.table({
        "letter": pa.array(letters, pa.string()),
        "occurrences": pa.array([occurrences[c] for c in letters], pa.int64()),
        "frequency": pa.array([occurrences[c] / total for c in letters], pa.float64()),
        "words_containing": pa.array([containing[c] for c in letters], pa.int64()),
        "word_initial": pa.array([initial[c] for c in letters], pa.int64()),
        "scrabble_tiles": pa.array([language.tile_counts.get(c) for c in letters], pa.int32()),
        "scrabble_value": pa.array([language.tile_values.get(c) for c in letters], pa.int32()),
        "ruzzle_value": pa.array([language.ruzzle_values.get(c) for c in letters], pa.int32()),
    })


def stats_rows(words: dict[str, int], sources: list[dict]) -> list[tuple[str, str, str, int]]:
    rows: list[tuple[str, str, str, int]] = []
    for length, count in sorted(Counter(map(len, words)).items()):
        rows.append(("word_length", "", str(length), count))
    for source in sources:
        for metric in ("read", "kept", "words"):
            rows.append((metric, source["id"], "", source[metric]))
        for reason, count in source["rejected"].items():
            rows.append(("rejected", source["id"], reason, count))
    classes = Counter("".join(sorted(word)) for word in words)
    for size, count in sorted(Counter(classes.values()).items()):
        rows.append(("anagram_class_size", "", str(size), count))
    for mask, count in sorted(Counter(words.values()).items()):
        names = "+".join(s["id"] for i, s in enumerate(sources) if mask >> i & 1)
        rows.append(("source_overlap", "", names, count))
    return rows


def stats_table(words: dict[str, int], sources: list[dict]) -> pa.Table:
    metric, source, key, value = zip(*stats_rows(words, sources), strict=True)
    return pa.table({
        "metric": pa.array(metric, pa.string()),
        "source": pa.array(source, pa.string()),
        "key": pa.array(key, pa.string()),
        "value": pa.array(value, pa.int64()),
    })


def write_parquet(table: pa.Table, path: Path) -> None:
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def read_words_tsv(path: Path) -> dict[str, int]:
    with open(path, encoding="utf-8") as handle:
        return {word: int(mask) for word, mask in (line.rstrip("\n").split("\t") for line in handle)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=Path("config/config.yaml"))
    parser.add_argument("--lexicon", required=True)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    config = load_config(args.config, check_files=False)
    if args.lexicon not in config.lexicons:
        raise UserError(f"{args.config}: no lexicon '{args.lexicon}'")
    words = read_words_tsv(args.words)
    sources = json.loads(args.sources.read_text(encoding="utf-8"))
    write_parquet(letter_table(list(words), config.lexicons[args.lexicon].language),
                  args.out / "letters.parquet")
    write_parquet(stats_table(words, sources), args.out / "stats.parquet")
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
