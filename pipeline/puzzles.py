"""Step ``puzzles``: a lexicon's daily puzzle pack, boards of known difficulty from its corpus.

    python -m pipeline.puzzles --config C --lexicon en --lexicon-dir build/stage/en \\
        --corpus build/corpus/en/boggle-4x4.parquet --out build/puzzles/en/puzzles.jsonl

Difficulty is the board's word count (fewer words, harder to find many). The band is taken
from the corpus: among its boards holding at least one word, the word counts at the config's
two quantiles (default the 25th and 75th percentiles: neither the sparse boards nor the rich
ones, the middle half). The pack is the first ``count`` boards of the corpus (board order, which
is random) whose word count lies in the band, day 1 to ``count``; each with its full solution,
every word with its score and path, as ``lexforge boggle --paths`` (or ``ruzzle``) gives it.

The file is JSON Lines: the header (``format: lexforge-puzzles/1``) on the first line, then a
line per day, so that a reader can stream it; deterministic for a given corpus.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from lexforge import boggle, ruzzle
from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.grid import parse_grids
from lexforge.lexicon import Lexicon
from pipeline.corpusconfig import load_corpus_config
from pipeline.step import step_config, step_parser

FORMAT = "lexforge-puzzles/1"


def band(words: np.ndarray, quantiles: tuple[float, float]) -> tuple[int, int]:
    """The word counts at ``quantiles`` of the boards that hold words (low rounded down, high
    up, so the band holds whole counts)."""
    counts = words[words > 0]
    if not len(counts):
        raise UserError("no board of the corpus holds a word: no puzzle can be chosen")
    low = int(np.quantile(counts, quantiles[0], method="lower"))
    high = int(np.quantile(counts, quantiles[1], method="higher"))
    return low, high


def solution(lexicon: Lexicon, game: str, board_text: str) -> list[dict]:
    """Every word of the board with its score and path ([row, col] cells)."""
    board = parse_grids(board_text, lexicon.language, multipliers=game == "ruzzle")[0]
    found = boggle.solve(lexicon, board) if game == "boggle" else ruzzle.solve(lexicon, board)
    return [
        {"word": w.word, "score": w.score, "path": [list(cell) for cell in w.path]} for w in found
    ]


def pack_lines(
    lexicon: Lexicon,
    lexicon_name: str,
    kind_name: str,
    game: str,
    corpus_path: Path,
    quantiles: tuple[float, float],
    count: int,
) -> list[str]:
    """The pack's lines: the header, then a JSON object per day."""
    table = pq.read_table(corpus_path, columns=["index", "board", "seed", "words", "score"])
    words = table["words"].to_numpy()
    low, high = band(words, quantiles)
    chosen = np.flatnonzero((words >= low) & (words <= high))[:count]
    if len(chosen) < count:
        raise UserError(
            f"{corpus_path}: {len(chosen)} boards have {low} to {high} words, the pack needs "
            f"{count}: raise corpus/shards or corpus/boards_per_shard"
        )
    header = {
        "format": FORMAT,
        "lexicon": lexicon_name,
        "kind": kind_name,
        "game": game,
        "days": count,
        "band": {
            "measure": "words",
            "quantiles": list(quantiles),
            "low": low,
            "high": high,
            "corpus_boards": len(words),
            "boards_with_words": int((words > 0).sum()),
        },
    }
    lines = [json.dumps(header, ensure_ascii=False)]
    rows = table.take(chosen).to_pylist()
    for day, row in enumerate(rows, start=1):
        entry = {"day": day, **row, "solution": solution(lexicon, game, row["board"])}
        lines.append(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--lexicon-dir", type=Path, required=True, help="the built lexicon")
    parser.add_argument("--corpus", type=Path, required=True, help="the corpus of the pack's kind")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    step_config(args)  # logging, and --lexicon checked
    corpus = load_corpus_config(args.config)
    kind = corpus.puzzle_kind
    lexicon = Lexicon.open(args.lexicon_dir)
    lines = pack_lines(
        lexicon,
        args.lexicon,
        kind,
        corpus.kinds[kind].game,
        args.corpus,
        corpus.puzzle_band,
        corpus.puzzle_count,
    )
    with atomic_open(args.out) as out:
        out.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
