"""Scrabble move generation benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_scrabble.py [--lexicon fr] [--runs 50] [--python-runs 5]
        [--positions 120]
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=builtin_eval \
        .venv/bin/python bench/bench_scrabble.py --callgrind best --blanks 1 --runs 20

7-tile racks (drawn with a fixed seed from the language's tile bag, with no, one or two blanks)
on the standard 15×15 board: empty, and the mid-game board of
tests/fixtures/scrabble/fr-midgame.board. Median time per rack (wall clock and CPU),
in-process, lexicon loaded, of:

* ``all``: every legal move from the compiled generator, as its compact array
  (``scrabble.generate``: no Python object per move);
* ``all+Move``: the same, sorted, every move read as a ``Move`` object
  (``list(scrabble.find_moves(...))``);
* ``best``: the best move only (``find_moves(top=1)``, the bound per anchor on);
* ``python``: the plain-Python generator it replaced (``reference.scrabble_moves_python``), on
  the first ``--python-runs`` racks only (it takes up to a second a rack);
* ``prepare``: preparing the board for the compiled generator (anchors, cross-checks), paid by
  the first rack on a board only: the other columns are per rack on a prepared board.

Then ``--positions`` mid-game positions (turns 6–12 of seeded greedy self-play games, seed k
stopping at turn 6 + k mod 7), each timed from its board's text: ``parse_board`` then
``find_moves`` (all moves, returned as the ``MoveList``: ``all``) or ``find_moves(top=1)``
(``best``), with the board prepared anew (no cache from an earlier query of the same board).
The racks hold the mover's tiles (then the next ones of the bag), with no, one or two of them
replaced by blanks. Median, 90th percentile and worst over the positions, wall clock.

``--callgrind all|best`` only runs that query on the mid-game board for ``--runs`` racks of
``--blanks`` blanks, inside ``eval`` so that callgrind can count its instructions alone (less
those of a run with ``--runs 0``: a few imports call ``eval`` too). ``--callgrind positions``
runs the *best* query of the ``--positions`` mid-game positions (racks of ``--blanks`` blanks),
board text to ``MoveList``, the same way (less a run with ``--positions 0``).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lexforge import reference, scrabble  # noqa: E402
from lexforge.game import play_game  # noqa: E402
from lexforge.lexicon import Lexicon  # noqa: E402
from lexforge.players import Greedy  # noqa: E402
from lexforge.plays import BLANK  # noqa: E402

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
    parser.add_argument(
        "--callgrind", choices=["all", "best", "positions"], help="only run this query"
    )
    parser.add_argument("--blanks", type=int, default=0, help="blanks per rack (--callgrind)")
    parser.add_argument("--positions", type=int, default=120, help="mid-game positions")
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    layout = scrabble.load_layout(None)
    if args.callgrind == "positions":
        callgrind_positions(lexicon, layout, args.blanks, args.positions)
        return
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
                median_ms(every_move, lexicon, board, rack_list),
                median_ms(scrabble.find_moves, lexicon, board, rack_list, top=1),
                median_ms(
                    reference.scrabble_moves_python, lexicon, board, rack_list[: args.python_runs]
                )
                if args.python_runs
                else (math.nan, math.nan),
                median_ms(prepare, lexicon, board, rack_list),
            ]
            shown = " ".join(f"{wall:>7.3f}/{cpu:<7.3f}" for wall, cpu in figures)
            print(f"{name:9} {blanks:>6} {moves:>7,.0f} {shown}")
    if args.positions:
        midgame_figures(lexicon, layout, args.positions)


class _Reached(Exception):
    """The self-play game reached the turn asked for."""


def midgame_positions(lexicon: Lexicon, count: int) -> list[tuple[str, str]]:
    """``count`` positions of seeded greedy self-play (seed k at turn 6 + k mod 7): the board's
    text and the tiles the mover holds then draws next (blanks left out), in that order."""
    positions: list[tuple[str, str]] = []
    seed = 0
    while len(positions) < count:
        turn = 6 + seed % 7

        def on_turn(event, game, turn=turn) -> None:
            if game.turns == turn:
                mover = game.racks[(event.player + 1) % len(game.racks)]
                tiles = (mover + "".join(reversed(game.bag))).replace(BLANK, "")
                text = scrabble.format_board(game.board, lexicon.language)
                positions.append((text, tiles))
                raise _Reached

        with contextlib.suppress(_Reached):
            play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
        seed += 1
    return positions


def midgame_figures(lexicon: Lexicon, layout: scrabble.Layout, count: int) -> None:
    """Parse + all moves and parse + best move, per position, for 0, 1 and 2 blanks."""
    positions = midgame_positions(lexicon, count)
    language = lexicon.language
    print(f"\n{count} mid-game positions (self-play turns 6-12), board text to moves; ms")
    print("wall-clock median/CPU median, wall-clock 90th percentile and worst")
    print(f"{'blanks':>6} {'moves':>7} {'all':>15} {'p90':>8} {'max':>8} {'best':>15} {'p90':>8}")
    for blanks in (0, 1, 2):
        racks = [tiles[: language.rack_size - blanks] + BLANK * blanks for _, tiles in positions]
        moves, shown = [], []
        for top in (None, 1):
            wall, cpu = [], []
            for (text, _), rack in zip(positions, racks, strict=True):
                scrabble._prepared.cache_clear()
                scrabble._last_position = None
                start, start_cpu = time.perf_counter(), time.process_time()
                board = scrabble.parse_board(text, language, layout)
                found = scrabble.find_moves(lexicon, board, rack, top)
                wall.append((time.perf_counter() - start) * 1e3)
                cpu.append((time.process_time() - start_cpu) * 1e3)
                if top is None:
                    moves.append(len(found))
            wall.sort()
            shown.append(f"{statistics.median(wall):>7.3f}/{statistics.median(cpu):<7.3f}")
            shown.append(f"{wall[len(wall) * 9 // 10]:>8.3f}")
            if top is None:
                shown.append(f"{wall[-1]:>8.3f}")
        print(f"{blanks:>6} {statistics.mean(moves):>7,.0f} {' '.join(shown)}")


def every_move(lexicon: Lexicon, board: scrabble.Board, rack: str) -> list[scrabble.Move]:
    """Every move as a ``Move`` object, best first."""
    return list(scrabble.find_moves(lexicon, board, rack))


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


def callgrind_positions(lexicon: Lexicon, layout: scrabble.Layout, blanks: int, count: int) -> None:
    """Parse + best move of ``count`` mid-game positions, each board prepared anew, after one
    warm-up pass (the rows read, as in the timed table), inside ``eval``."""
    language = lexicon.language
    positions = midgame_positions(lexicon, count)
    racks = [tiles[: language.rack_size - blanks] + BLANK * blanks for _, tiles in positions]

    def best_moves() -> None:
        for (text, _), rack in zip(positions, racks, strict=True):
            scrabble._prepared.cache_clear()
            scrabble._last_position = None
            scrabble.find_moves(lexicon, scrabble.parse_board(text, language, layout), rack, 1)

    best_moves()
    eval("best_moves()", {"best_moves": best_moves})


if __name__ == "__main__":
    main()
