"""Scrabble move generation benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_scrabble.py [--lexicon fr] [--runs 50] [--python-runs 5]

7-tile racks (drawn with a fixed seed from the language's tile bag, with no, one or two blanks)
on the standard 15×15 board: empty, and the mid-game board of
tests/fixtures/scrabble/fr-midgame.board. Median time per rack (wall clock and CPU),
in-process, lexicon loaded, of:

* ``all``: every legal move from the compiled generator, as its compact array
  (``scrabble.generate``: no Python object per move);
* ``all+Move``: the same turned into sorted ``Move`` objects (``scrabble.find_moves``);
* ``best``: the best move only (``find_moves(top=1)``, the bound per anchor on);
* ``python``: the plain-Python generator it replaced (``reference.scrabble_moves_python``), on
  the first ``--python-runs`` racks only (it takes up to a second a rack).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexforge import reference, scrabble  # noqa: E402
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


def median_ms(
    find: Callable[..., object],
    lexicon: Lexicon,
    board: scrabble.Board,
    rack_list: list[str],
    **options,
) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds of ``find(lexicon, board, rack)`` per rack."""
    wall, cpu = [], []
    for rack in rack_list:
        start, start_cpu = time.perf_counter(), time.process_time()
        find(lexicon, board, rack, **options)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall) * 1e3, statistics.median(cpu) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="fr")
    parser.add_argument("--runs", type=int, default=50, help="racks per board and blank count")
    parser.add_argument("--python-runs", type=int, default=5, help="racks for the Python one")
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    layout = scrabble.load_layout(None)
    print(f"lexicon {args.lexicon}: {len(lexicon):,} words; median ms per rack")
    print("wall-clock / CPU time")
    print(
        f"{'board':9} {'blanks':>6} {'moves':>7} {'all':>15} {'all+Move':>15} {'best':>15} "
        f"{'python':>15}"
    )
    for name, text in BOARDS.items():
        board = scrabble.parse_board(text, lexicon.language, layout, name)
        for blanks in (0, 1, 2):
            rack_list = racks(lexicon, args.runs, blanks, seed=blanks)
            moves = statistics.mean(len(scrabble.generate(lexicon, board, r)) for r in rack_list)
            figures = [
                median_ms(scrabble.generate, lexicon, board, rack_list),
                median_ms(scrabble.find_moves, lexicon, board, rack_list),
                median_ms(scrabble.find_moves, lexicon, board, rack_list, top=1),
                median_ms(
                    reference.scrabble_moves_python, lexicon, board, rack_list[: args.python_runs]
                ),
            ]
            shown = " ".join(f"{wall:>7.3f}/{cpu:<7.3f}" for wall, cpu in figures)
            print(f"{name:9} {blanks:>6} {moves:>7,.0f} {shown}")


if __name__ == "__main__":
    main()
