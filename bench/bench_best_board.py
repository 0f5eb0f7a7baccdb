"""Score-only Boggle search against the listing one, and best-board: prints figures, asserts
nothing.

    .venv/bin/python bench/bench_best_board.py [--lexicon en] [--boards 5000] [--seconds 30]

- 4×4 and 5×5 boards per second (random boards from the language's letter frequencies, fixed
  seed), median of ``--repeat`` runs on 1 thread and on all: ``solve_batch`` (every board's word
  list, what ``lexforge boggle`` prints) against ``score_batch`` (each board's total score and
  word count only, what ``best-board`` and corpus statistics need);
- ``best_board`` on 4×4 for ``--seconds``: the best score found, restarts and boards scored.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from lexforge import boggle
from lexforge.bestboard import best_board
from lexforge.generate import generate_boards
from lexforge.lexicon import Lexicon


def boards_per_second(function, lexicon: Lexicon, boards: list, threads: int, repeat: int) -> float:
    rates = []
    for _ in range(repeat):
        start = time.perf_counter()
        function(lexicon, boards, threads=threads)
        rates.append(len(boards) / (time.perf_counter() - start))
    return statistics.median(rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("--boards", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    cores = len(os.sched_getaffinity(0))
    print(f"lexicon {args.lexicon}: {len(lexicon):,} words; load average {os.getloadavg()[0]:.2f}")
    for side in (4, 5):
        boards = generate_boards(lexicon, rows=side, cols=side, count=args.boards, seed=side)
        boggle.solve_batch(lexicon, boards[:100])  # graph pages in
        for threads in sorted({1, cores}):
            listing = boards_per_second(boggle.solve_batch, lexicon, boards, threads, args.repeat)
            scores = boards_per_second(boggle.score_batch, lexicon, boards, threads, args.repeat)
            print(
                f"{side}×{side}, {threads} thread(s): listing {listing:,.0f} boards/s, "
                f"score-only {scores:,.0f} boards/s ({scores / listing:.2f}×)"
            )
    start = time.perf_counter()
    found = best_board(lexicon, 4, 4, seconds=args.seconds, seed=0)
    seconds = time.perf_counter() - start
    print(
        f"best-board 4×4, {seconds:.1f} s: score {found.score}, {found.words} words, "
        f"{found.restarts} restart(s), {found.evaluations:,} boards scored "
        f"({found.evaluations / seconds:,.0f}/s); {found.grid.cells}"
    )


if __name__ == "__main__":
    main()
