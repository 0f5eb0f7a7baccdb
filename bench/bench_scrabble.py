"""Scrabble move generation benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_scrabble.py [--lexicon fr] [--runs 20]

All the moves of 7-tile racks (drawn with a fixed seed from the language's tile bag, with no,
one or two blanks) on the standard 15×15 board: empty, and the mid-game board of
tests/fixtures/scrabble/fr-midgame.board; median and p95 time per rack and moves per rack.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexforge import scrabble  # noqa: E402
from lexforge.lexicon import Lexicon  # noqa: E402

BOARDS = {
    "empty": ("." * 15 + "\n") * 15,
    "mid-game": (ROOT / "tests/fixtures/scrabble/fr-midgame.board").read_text(encoding="utf-8"),
}


def racks(lexicon: Lexicon, count: int, blanks: int, seed: int) -> list[str]:
    """Racks of 7 − blanks tiles drawn from the language's bag (one-letter tiles), + blanks."""
    rng = random.Random(seed)
    alphabet = lexicon.language.alphabet
    bag = [t for t, n in lexicon.language.tile_counts.items() if t in alphabet for _ in range(n)]
    return ["".join(rng.sample(bag, 7 - blanks)) + "?" * blanks for _ in range(count)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="fr")
    parser.add_argument("--runs", type=int, default=20, help="racks per board and blank count")
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    layout = scrabble.load_layout(None)
    print(f"lexicon {args.lexicon}: {len(lexicon):,} words")
    for name, text in BOARDS.items():
        board = scrabble.parse_board(text, lexicon.language, layout, name)
        for blanks in (0, 1, 2):
            times, moves = [], 0
            for rack in racks(lexicon, args.runs, blanks, seed=blanks):
                start = time.perf_counter()
                moves += len(scrabble.find_moves(lexicon, board, rack))
                times.append(time.perf_counter() - start)
            p95 = sorted(times)[min(len(times) - 1, int(0.95 * len(times)))]
            print(
                f"{name:9} board, {blanks} blank(s): median {statistics.median(times) * 1e3:.0f} "
                f"ms, p95 {p95 * 1e3:.0f} ms, {moves / len(times):,.0f} moves per rack "
                f"({len(times)} racks)"
            )


if __name__ == "__main__":
    main()
