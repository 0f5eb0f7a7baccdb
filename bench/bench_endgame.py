"""Scrabble endgames: how long lexforge.endgame takes to solve real ones, and how often it
finishes within a budget.

The endgames come from seeded self-play games between two greedy players, on a built lexicon:
by default the first position with the bag empty (racks of up to 7 tiles each, as games leave
them); with ``--full``, 7-vs-7 endgames: the board when the bag first holds fewer tiles than a
rack, both racks full (the bag's tiles set aside). Each is solved with ``--seconds`` as its
budget; the bench prints each endgame (rack sizes, the value, exact or not, positions searched,
wall and CPU time), the median and worst time and how many were solved exactly (and how many
within 2 s). On a loaded machine the CPU time says what the search costs; the wall time is what
the budget bounds. ``--threads N`` solves on N threads sharing one table: the wall time is then
the figure (the CPU time is the sum over the threads, the positions those of every thread);
the main thread's CPU time ("main s") is what the wall time would be with a core a thread,
which a loaded machine does not give.

    python bench/bench_endgame.py --lexicon en --games 10 --seconds 5
    python bench/bench_endgame.py --lexicon en --games 10 --seconds 2 --full
    python bench/bench_endgame.py --lexicon en --games 100 --seconds 10 --full --threads 2

``--depth D`` measures what a searched position costs, which a loaded machine does not distort:
on the same endgames (``--full``: the 7-vs-7 ones) it runs one search ``D`` turns deep from a
fresh ``_scrabble.EndgameSearch`` (no deepening, no budget) and prints per seed the positions
searched, the value and the CPU seconds (median of ``--runs``): the positions and values say
the search tree is unchanged, the CPU time what it cost. ``--callgrind`` runs those searches
once, inside ``eval``, so that callgrind counts their instructions alone (less those of a run
with ``--games 0``: a few imports call ``eval`` too):

    python bench/bench_endgame.py --lexicon en --games 10 --full --depth 3 --runs 3
    valgrind --tool=callgrind --collect-atstart=no --toggle-collect=builtin_eval \
        .venv/bin/python bench/bench_endgame.py --lexicon en --games 10 --full --depth 3 --callgrind
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


def fixed_depth(lexicon: Lexicon, position: tuple, depth: int) -> tuple[int, int]:
    """(value, positions) of one search ``depth`` turns deep from a fresh search object, as
    lexforge.endgame.solve builds it."""
    search = endgame.new_search(lexicon, *position)
    value, _ = search.search(depth, 0, None, None)
    return value, search.positions


def bench_depth(lexicon: Lexicon, positions: dict, depth: int, runs: int, callgrind: bool) -> None:
    """Per seed: the positions and value of a search ``depth`` turns deep, and its CPU time."""
    if callgrind:
        found = eval(
            "[fixed_depth(lexicon, p, depth) for p in endgames]",
            {
                "fixed_depth": fixed_depth,
                "lexicon": lexicon,
                "endgames": positions.values(),
                "depth": depth,
            },
        )
        for seed, (value, searched) in zip(positions, found, strict=True):
            print(f"{seed:4}  {value:6}  {searched:9}")
        return
    print(f"depth {depth}: seed  value  positions  cpu s (median of {runs})")
    total_cpu, total_positions = 0.0, 0
    for seed, position in positions.items():
        cpu_times = []
        for _ in range(runs):
            cpu = time.process_time()
            value, searched = fixed_depth(lexicon, position, depth)
            cpu_times.append(time.process_time() - cpu)
        cpu = statistics.median(cpu_times)
        total_cpu += cpu
        total_positions += searched
        print(f"{seed:4}  {value:6}  {searched:9}  {cpu:7.3f}")
    if total_cpu:
        print(
            f"{len(positions)} endgames: {total_positions:,} positions in {total_cpu:.2f} s of "
            f"CPU, {total_positions / total_cpu:,.0f} positions a second"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("--games", type=int, default=10, help="self-play games (seeds 0…)")
    parser.add_argument("--seconds", type=float, default=5.0, help="budget per endgame")
    parser.add_argument("--full", action="store_true", help="7-vs-7 endgames")
    parser.add_argument("--depth", type=int, help="one search this many turns deep per endgame")
    parser.add_argument("--runs", type=int, default=3, help="runs per endgame (--depth)")
    parser.add_argument("--callgrind", action="store_true", help="--depth once, inside eval")
    parser.add_argument("--threads", type=int, default=1, help="threads per endgame")
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    if args.depth is not None:
        positions = {}
        for seed in range(args.games):
            position = first_endgame(lexicon, seed, args.full)
            if position is not None:
                positions[seed] = position
        bench_depth(lexicon, positions, args.depth, args.runs, args.callgrind)
        return
    times, cpu_times, main_times, exact, quick = [], [], [], 0, 0
    print("seed  tiles  spread  exact  positions  seconds  cpu s  main s  first turn")
    for seed in range(args.games):
        position = first_endgame(lexicon, seed, args.full)
        if position is None:
            continue
        board, rack, other = position
        start, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
        solved = endgame.solve(
            lexicon, board, rack, other, seconds=args.seconds, threads=args.threads
        )
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
        main = time.thread_time() - main
        times.append(took)
        cpu_times.append(cpu)
        main_times.append(main)
        exact += solved.exact
        quick += solved.exact and took <= 2
        first = getattr(solved.line[0], "notation", "pass") if solved.line else "-"
        print(
            f"{seed:4}  {len(rack)}v{len(other)}  {solved.spread:6}  {solved.exact!s:5}  "
            f"{solved.positions:9}  {took:7.2f}  {cpu:5.2f}  {main:6.2f}  {first}"
        )
    if times:
        print(
            f"{len(times)} endgames, {args.threads} thread(s): "
            f"median {statistics.median(times):.2f} s "
            f"({statistics.median(cpu_times):.2f} s of CPU, the main thread's "
            f"{statistics.median(main_times):.2f} s), worst {max(times):.2f} s, "
            f"{exact} solved exactly within {args.seconds:g} s, {quick} within 2 s"
        )


if __name__ == "__main__":
    main()
