"""Scrabble endgames: how long lexforge.endgame takes to solve real ones, and how often it
finishes within a budget.

The endgames are the first position with the bag empty of seeded self-play games between two
greedy players (so racks of up to 7 tiles each, as games leave them), on a built lexicon. Each
is solved with ``--seconds`` as its budget; the bench prints each endgame (rack sizes, the
value, exact or not, positions searched, time) and the medians.

    python bench/bench_endgame.py --lexicon en --games 10 --seconds 5
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


def first_endgame(lexicon: Lexicon, seed: int) -> tuple | None:
    """(board, rack to move, the other rack) when the bag first empties, or None."""
    found: list[tuple] = []

    def on_turn(event, game: Game) -> None:
        if not game.bag and all(game.racks):
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
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    times, exact = [], 0
    print("seed  tiles  spread  exact  positions  seconds  first turn")
    for seed in range(args.games):
        position = first_endgame(lexicon, seed)
        if position is None:
            continue
        board, rack, other = position
        start = time.perf_counter()
        solved = endgame.solve(lexicon, board, rack, other, seconds=args.seconds)
        took = time.perf_counter() - start
        times.append(took)
        exact += solved.exact
        first = getattr(solved.line[0], "notation", "pass") if solved.line else "-"
        print(
            f"{seed:4}  {len(rack)}v{len(other)}  {solved.spread:6}  {solved.exact!s:5}  "
            f"{solved.positions:9}  {took:7.2f}  {first}"
        )
    if times:
        print(
            f"{len(times)} endgames: median {statistics.median(times):.2f} s, "
            f"{exact} solved exactly within {args.seconds:g} s"
        )


if __name__ == "__main__":
    main()
