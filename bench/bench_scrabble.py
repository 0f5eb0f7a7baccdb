"""Scrabble move generation benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_scrabble.py [--lexicon fr] [--runs 50] [--python-runs 5]
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=builtin_eval \
        .venv/bin/python bench/bench_scrabble.py --callgrind best --blanks 1 --runs 20

7-tile racks (drawn with a fixed seed from the language's tile bag, with no, one or two blanks)
on the standard 15×15 board: empty, and the mid-game board of
tests/fixtures/scrabble/fr-midgame.board. Median time per rack (wall clock and CPU),
in-process, lexicon loaded, of:

* ``all``: every legal move from the compiled generator, as its compact array
  (``scrabble.generate``: no Python object per move);
* ``all+Move``: the same turned into sorted ``Move`` objects (``scrabble.find_moves``);
* ``best``: the best move only (``find_moves(top=1)``, the bound per anchor on);
* ``python``: the plain-Python generator it replaced (``reference.scrabble_moves_python``), on
  the first ``--python-runs`` racks only (it takes up to a second a rack);
* ``prepare``: preparing the board for the compiled generator (anchors, cross-checks), paid by
  the first rack on a board only: the other columns are per rack on a prepared board.

``--callgrind all|best`` only runs that query on the mid-game board for ``--runs`` racks of
``--blanks`` blanks, inside ``eval`` so that callgrind can count its instructions alone (less
those of a run with ``--runs 0``: a few imports call ``eval`` too).
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
    parser.add_argument("--callgrind", choices=["all", "best"], help="only run this query")
    parser.add_argument("--blanks", type=int, default=0, help="blanks per rack (--callgrind)")
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    layout = scrabble.load_layout(None)
    if args.callgrind:
        callgrind_loop(lexicon, layout, args.callgrind, args.blanks, args.runs)
        return
    print(f"lexicon {args.lexicon}: {len(lexicon):,} words; median ms per rack")
    print("wall-clock / CPU time")
    print(
        f"{'board':9} {'blanks':>6} {'moves':>7} {'all':>15} {'all+Move':>15} {'best':>15} "
        f"{'python':>15} {'prepare':>15}"
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
                median_ms(prepare, lexicon, board, rack_list),
            ]
            shown = " ".join(f"{wall:>7.3f}/{cpu:<7.3f}" for wall, cpu in figures)
            print(f"{name:9} {blanks:>6} {moves:>7,.0f} {shown}")


def prepare(lexicon: Lexicon, board: scrabble.Board, _rack: str) -> None:
    """The board prepared anew, as for the first rack on it."""
    scrabble._prepared.__wrapped__(lexicon, board)


def callgrind_loop(
    lexicon: Lexicon, layout: scrabble.Layout, query: str, blanks: int, runs: int
) -> None:
    """The query on the mid-game board for ``runs`` racks, after a warm-up, inside ``eval``."""
    board = scrabble.parse_board(BOARDS["mid-game"], lexicon.language, layout, "mid-game")
    top = 1 if query == "best" else None
    scrabble.find_moves(lexicon, board, "EIRST??", top=1)
    scrabble.generate(lexicon, board, "EIRST??")
    rack_list = racks(lexicon, runs, blanks, seed=blanks)
    eval(
        "[generate(lexicon, board, rack, top) for rack in rack_list]",
        {
            "generate": scrabble.generate if top is None else scrabble.find_moves,
            "lexicon": lexicon,
            "board": board,
            "rack_list": rack_list,
            "top": top,
        },
    )


if __name__ == "__main__":
    main()
