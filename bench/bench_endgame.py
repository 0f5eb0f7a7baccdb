"""Scrabble endgames: how long lexforge.endgame takes to solve real ones, and how often it
finishes within a budget.

The endgames come from seeded self-play games between two greedy players, on a built lexicon:
by default the first position with the bag empty (racks of up to 7 tiles each, as games leave
them); with ``--full``, 7-vs-7 endgames: the board when the bag first holds fewer tiles than a
rack, both racks full (the bag's tiles set aside). Each is solved with ``--seconds`` as its
budget; the bench prints each endgame (rack sizes, the value, exact or not, positions searched,
wall and CPU time), the median and worst time and how many were solved exactly. On a loaded
machine the CPU time says what the search costs; the wall time is what the budget bounds.

    python bench/bench_endgame.py --lexicon en --games 10 --seconds 5
    python bench/bench_endgame.py --lexicon en --games 10 --seconds 2 --full
"""

from __future__ import annotations

import argparse
import statistics
import time

from lexforge import endgame
from lexforge.game import Game, play_game
from lexforge.lexicon import Lexicon
from lexforge.players import Greedy


class _Found(Exception):
    """The game reached its endgame: stop playing it."""


def first_endgame(lexicon: Lexicon, seed: int, full: bool = False) -> tuple | None:
    """(board, rack to move, the other rack) when the bag first empties (``full``: when it
    first holds fewer tiles than a rack, both racks full), or None."""
    found: list[tuple] = []
    size = lexicon.language.rack_size

    def on_turn(event, game: Game) -> None:
        if full:
            ready = len(game.bag) < size and all(len(rack) == size for rack in game.racks)
        else:
            ready = not game.bag and all(game.racks)
        if ready:
            mover = (event.player + 1) % 2
            found.append((game.board, game.racks[mover], game.racks[1 - mover]))
            raise _Found

    try:
        play_game(lexicon, [Greedy("one"), Greedy("two")], seed, on_turn=on_turn)
    except _Found:
        return found[0]
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("--games", type=int, default=10, help="self-play games (seeds 0…)")
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per endgame")
    parser.add_argument("--full", action="store_true", help="7-vs-7 endgames")
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    times, cpu_times, exact = [], [], 0
    print("seed  tiles  spread  exact  positions  seconds  cpu s  first turn")
    for seed in range(args.games):
        position = first_endgame(lexicon, seed, args.full)
        if position is None:
            continue
        board, rack, other = position
        start, cpu = time.perf_counter(), time.process_time()
        solved = endgame.solve(lexicon, board, rack, other, seconds=args.seconds)
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        times.append(took)
        cpu_times.append(cpu)
        exact += solved.exact
        first = getattr(solved.line[0], "notation", "pass") if solved.line else "-"
        print(
            f"{seed:4}  {len(rack)}v{len(other)}  {solved.spread:6}  {solved.exact!s:5}  "
            f"{solved.positions:9}  {took:7.2f}  {cpu:5.2f}  {first}"
        )
    if times:
        print(
            f"{len(times)} endgames: median {statistics.median(times):.2f} s "
            f"({statistics.median(cpu_times):.2f} s of CPU), worst {max(times):.2f} s, "
            f"{exact} solved exactly within {args.seconds:g} s"
        )


if __name__ == "__main__":
    main()
