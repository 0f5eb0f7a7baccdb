"""Step ``corpus``: seeded random boards of one lexicon and kind, solved, in shards.

    python -m pipeline.corpus shard --config C --lexicon en --kind boggle-4x4 --shard 0 \\
        --lexicon-dir build/stage/en --out build/work/en/corpus/boggle-4x4/0.parquet
    python -m pipeline.corpus merge --out build/corpus/en/boggle-4x4.parquet SHARD.parquet...

Board ``i`` of a lexicon and kind has its own seed (``board_seed``: a digest of the corpus seed,
the lexicon, the kind and ``i``), and shard ``s`` holds boards ``s·n … s·n + n − 1`` (``n`` boards
per shard). A board is thus the same whatever the shard count: 2 shards of 500 and 4 of 250
merge into byte-identical files, and ``lexforge generate --seed SEED`` with the kind's options
draws the board of a row again. Each row: the board (one line, as ``lexforge boggle`` reads it),
its seed, its word count, total score, longest word and best word (highest score; ties to the
longer word, then the alphabetically first), and the best word's score. Boggle counts words of
3 letters and more (classic scoring), Ruzzle of 2 and more (its scoring, best path per word).
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from lexforge import boggle, ruzzle
from lexforge.atomic import atomic_path
from lexforge.errors import UserError, report_user_errors
from lexforge.generate import board_drawer, dice_set
from lexforge.grid import Grid, format_grid_line
from lexforge.lexicon import Lexicon
from pipeline.corpusconfig import BoardKind, CorpusConfig, load_corpus_config

#: Seeds are below 10¹², the bound of lexforge's whole-number options (``generate --seed``).
SEED_BOUND = 10**12
#: Rows per row group of a merged corpus, whatever the shards: the file does not depend on them.
ROW_GROUP = 65_536
SCHEMA = pa.schema(
    [
        ("index", pa.int64()),
        ("board", pa.string()),
        ("seed", pa.int64()),
        ("words", pa.int64()),
        ("score", pa.int64()),
        ("longest", pa.string()),
        ("best", pa.string()),
        ("best_score", pa.int64()),
    ]
)


def board_seed(corpus_seed: int, lexicon: str, kind: str, index: int) -> int:
    """The seed of board ``index`` of a lexicon's corpus of ``kind``."""
    digest = hashlib.sha256(f"{corpus_seed}/{lexicon}/{kind}/{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % SEED_BOUND


def dice_for(lexicon: Lexicon, kind: BoardKind) -> list[list[str]] | None:
    """Boggle's dice: the language's first set with one die per cell, else None (letters are
    drawn from the lexicon's frequencies). Ruzzle has no dice."""
    cells = kind.rows * kind.cols
    if kind.game != "boggle" or not any(len(d) == cells for d in lexicon.language.dice.values()):
        return None
    return dice_set(lexicon, "", cells)


def summary(scored: list[tuple[str, int]]) -> tuple[int, int, str | None, str | None, int]:
    """(word count, total score, longest word, best word, best score) of (word, score) pairs."""
    if not scored:
        return 0, 0, None, None, 0
    longest = min(scored, key=lambda ws: (-len(ws[0]), -ws[1], ws[0]))[0]
    best, best_score = min(scored, key=lambda ws: (-ws[1], -len(ws[0]), ws[0]))
    return len(scored), sum(score for _, score in scored), longest, best, best_score


def solve_scored(lexicon: Lexicon, kind: BoardKind, boards: list[Grid]) -> list[list]:
    """Each board's (word, score) pairs: Boggle by the batch search on one thread, Ruzzle
    board by board."""
    if kind.game == "boggle":
        found = boggle.solve_batch(lexicon, boards, threads=1)
        return [[(word, boggle.boggle_score(word)) for word in words] for words in found]
    return [[(w.word, w.score) for w in ruzzle.solve(lexicon, board)] for board in boards]


def shard_table(
    lexicon: Lexicon, corpus: CorpusConfig, lexicon_name: str, kind_name: str, shard: int
) -> pa.Table:
    """The solved boards of one shard."""
    if not 0 <= shard < corpus.shards:
        raise UserError(f"shard {shard}: the corpus has shards 0 to {corpus.shards - 1}")
    kind = corpus.kinds[kind_name]
    draw = board_drawer(
        lexicon, kind.rows, kind.cols, dice_for(lexicon, kind), kind.game == "ruzzle"
    )
    first = shard * corpus.boards_per_shard
    indices = range(first, first + corpus.boards_per_shard)
    seeds = [board_seed(corpus.seed, lexicon_name, kind_name, i) for i in indices]
    boards = [draw(random.Random(seed)) for seed in seeds]
    rows = [summary(scored) for scored in solve_scored(lexicon, kind, boards)]
    columns = [list(indices), [format_grid_line(b) for b in boards], seeds]
    columns += [list(values) for values in zip(*rows, strict=True)]
    return pa.Table.from_arrays(
        [pa.array(c, t.type) for c, t in zip(columns, SCHEMA, strict=True)], schema=SCHEMA
    )


def merge(shards: list[Path], out: Path) -> int:
    """Concatenate shard files (in board order) into one parquet file of ``ROW_GROUP``-row groups,
    a shard in memory at a time; return the rows. UserError if boards are missing or repeated."""
    expected = 0
    pending: list[pa.Table] = []
    with atomic_path(out) as tmp, pq.ParquetWriter(tmp, SCHEMA, compression="zstd") as writer:
        for path in sorted(shards, key=_first_index):
            table = pq.read_table(path, schema=SCHEMA)
            if len(table) and table["index"][0].as_py() != expected:
                raise UserError(f"{path}: starts at board {table['index'][0]}, not {expected}")
            expected += len(table)
            pending.append(table)
            buffered = pa.concat_tables(pending)
            whole = len(buffered) // ROW_GROUP * ROW_GROUP
            if whole:
                writer.write_table(buffered.slice(0, whole).combine_chunks(), ROW_GROUP)
            pending = [buffered.slice(whole)]
        rest = pa.concat_tables(pending).combine_chunks() if pending else None
        if rest is not None and len(rest):
            writer.write_table(rest, ROW_GROUP)
    return expected


def _first_index(path: Path) -> int:
    table = pq.read_table(path, columns=["index"])
    if not len(table):
        raise UserError(f"{path}: an empty shard")
    return table["index"][0].as_py()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    shard = commands.add_parser("shard", help="generate and solve one shard")
    shard.add_argument("--config", type=Path, default=Path("config/config.yaml"))
    shard.add_argument("--lexicon", required=True)
    shard.add_argument("--kind", required=True)
    shard.add_argument("--shard", type=int, required=True)
    shard.add_argument("--lexicon-dir", type=Path, required=True, help="the built lexicon")
    shard.add_argument("--out", type=Path, required=True)
    merged = commands.add_parser("merge", help="merge the shards of a lexicon and kind")
    merged.add_argument("--out", type=Path, required=True)
    merged.add_argument("shards", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "merge":
        merge(args.shards, args.out)
        return 0
    corpus = load_corpus_config(args.config)
    if args.kind not in corpus.kinds:
        raise UserError(f"{args.config}: corpus/kinds: no kind '{args.kind}'")
    lexicon = Lexicon.open(args.lexicon_dir)
    table = shard_table(lexicon, corpus, args.lexicon, args.kind, args.shard)
    with atomic_path(args.out) as tmp:
        pq.write_table(table, tmp, compression="zstd", row_group_size=ROW_GROUP)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
