"""Score-only Boggle search against the listing one and hybrid-boggle, and best-board's time
to a target score: prints figures, asserts nothing.

    .venv/bin/python bench/bench_best_board.py throughput [--lexicon en] [--boards 5000]
        [--hybrid-boggle DIR]
    .venv/bin/python bench/bench_best_board.py search [-d WORDLIST | --lexicon en] [--size 4x4]
        [--seeds 1-10] [--target 3625] [--seconds 180] [--steps N]

- ``throughput``: 4×4 and 5×5 boards per second (random boards from the language's letter
  frequencies, fixed seed), median of ``--repeat`` runs on 1 thread and on all:
  ``solve_batch`` (every board's word list, what ``lexforge boggle`` prints) against
  ``score_batch`` (each board's total score and word count only, what ``best-board`` needs);
  with ``--hybrid-boggle DIR`` (a checkout of danvk/hybrid-boggle, or its ``cpp/`` files in
  ``DIR/cpp``), its ``Boggler::Score`` on one thread on the same boards and words, runs
  alternating with lexforge's, and the ratio (median of the runs' ratios); also on boards near
  the best (the search's own load: the best board with one to three cells changed).
- ``search``: ``best_board`` for each seed, stopping at ``--target`` (``stop_at``) or after
  ``--seconds``: per seed the time to reach the target (or "not reached"), the CPU time it
  took (all threads: on a loaded machine, what it would take alone is about the CPU time
  divided by the threads) and the best score, then the median and the worst time. Without
  ``--target``, each seed runs for ``--seconds`` and the best score is reported.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lexforge import boggle
from lexforge.bestboard import STEPS, best_board
from lexforge.generate import generate_boards
from lexforge.grid import Grid, format_grid_line
from lexforge.lexicon import Lexicon
from lexforge.wordlist import lexicon_from_wordlist

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hybrid_boggle import HybridBoggle


def boards_per_second(function, lexicon: Lexicon, boards: list, threads: int) -> float:
    start = time.perf_counter()
    function(lexicon, boards, threads=threads)
    return len(boards) / (time.perf_counter() - start)


def near_best(lexicon: Lexicon, count: int) -> list[Grid]:
    """``count`` boards of PERS/LATG/SINE/TERS with one to three random cells changed (to any
    letter but Q, which the peer takes for Qu)."""
    rng = random.Random(1)
    letters = sorted(set(lexicon.language.alphabet) - set(lexicon.language.symbols) - {"Q"})
    boards = []
    for _ in range(count):
        cells = list("PERSLATGSINETERS")
        for _ in range(rng.randint(1, 3)):
            cells[rng.randrange(16)] = rng.choice(letters)
        boards.append(Grid.from_rows([cells[i : i + 4] for i in range(0, 16, 4)]))
    return boards


def throughput(lexicon: Lexicon, args: argparse.Namespace) -> None:
    cores = len(os.sched_getaffinity(0))
    scratch = Path(tempfile.mkdtemp(prefix="bench-best-board-"))
    sets = {
        f"{side}×{side}": list(
            generate_boards(lexicon, rows=side, cols=side, count=args.boards, seed=side)
        )
        for side in (4, 5)
    }
    sets["4×4 near the best"] = near_best(lexicon, args.boards)
    peer = None
    if args.hybrid_boggle:
        qu_cells = any("QU" in grid.cells for grids in sets.values() for grid in grids)
        peer = HybridBoggle(args.hybrid_boggle, lexicon, scratch, qu_cells)
    for number, (label, boards) in enumerate(sets.items()):
        boggle.solve_batch(lexicon, boards[:100])  # graph pages in
        for threads in sorted({1, cores}):
            listing = statistics.median(
                boards_per_second(boggle.solve_batch, lexicon, boards, threads)
                for _ in range(args.repeat)
            )
            scores = statistics.median(
                boards_per_second(boggle.score_batch, lexicon, boards, threads)
                for _ in range(args.repeat)
            )
            print(
                f"{label}, {threads} thread(s): listing {listing:,.0f} boards/s, "
                f"score-only {scores:,.0f} boards/s ({scores / listing:.2f}×)"
            )
        peer_boards = peer.board_file(boards, f"boards-{number}.txt") if peer else None
        if peer_boards:
            ratios, ours, theirs = [], [], []
            for _ in range(args.repeat):
                ours.append(boards_per_second(boggle.score_batch, lexicon, boards, 1))
                theirs.append(peer.rate(peer_boards, "score")[0])
                ratios.append(ours[-1] / theirs[-1])
            found = sum(score for score, _ in boggle.score_batch(lexicon, boards))
            _, peer_found = peer.rate(peer_boards, "score")
            same = "the same points" if found == peer_found else f"{peer_found:,} points"
            print(
                f"  1 thread, score-only: lexforge {statistics.median(ours):,.0f} boards/s, "
                f"hybrid-boggle {statistics.median(theirs):,.0f} (Boggler::Score): "
                f"{statistics.median(ratios):.2f}× (median of {args.repeat} paired runs, "
                f"{min(ratios):.2f}–{max(ratios):.2f}); lexforge {found:,} points, it {same}"
            )
    print(f"load average {os.getloadavg()[0]:.2f}")


def search(lexicon: Lexicon, args: argparse.Namespace) -> None:
    rows, cols = args.size
    times, scores = [], []
    for seed in args.seeds:
        start, cpu = time.perf_counter(), time.process_time()
        found = best_board(
            lexicon,
            rows,
            cols,
            seconds=args.seconds,
            steps=args.steps,
            stop_at=args.target,
            seed=seed,
            threads=args.threads,
        )
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        reached = args.target is not None and found.score >= args.target
        times.append(seconds if reached else float("inf"))
        scores.append(found.score)
        when = f"{seconds:.1f} s" if reached or args.target is None else "not reached"
        print(
            f"seed {seed:3d}: {when:>11s} ({cpu:.1f} s of CPU)  score {found.score:,} "
            f"({found.words:,} words) {format_grid_line(found.grid)}  {found.restarts} restarts, "
            f"{found.evaluations:,} boards ({found.evaluations / seconds:,.0f}/s); "
            f"load {os.getloadavg()[0]:.1f}",
            flush=True,
        )
    if args.target is not None:
        hits = sum(t != float("inf") for t in times)
        print(
            f"{hits}/{len(times)} seeds reached {args.target:,} within {args.seconds:g} s; "
            f"median {statistics.median(times):.1f} s, worst {max(times):.1f} s"
        )
    print(f"best {max(scores):,}, median {statistics.median(scores):,}, worst {min(scores):,}")


def seed_range(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def board_size(text: str) -> tuple[int, int]:
    rows, _, cols = text.lower().partition("x")
    return int(rows), int(cols or rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("throughput", "search"))
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("-d", dest="wordlist", type=Path, help="a word list (ENABLE2K: en)")
    parser.add_argument("--language", default="en", help="of -d's list")
    parser.add_argument("--boards", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--hybrid-boggle", type=Path, metavar="DIR")
    parser.add_argument("--size", type=board_size, default=(4, 4))
    parser.add_argument("--seeds", type=seed_range, default=seed_range("1-10"))
    parser.add_argument("--target", type=int, help="stop a seed at this score")
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--threads", type=int)
    args = parser.parse_args()
    if args.wordlist:
        lexicon = lexicon_from_wordlist(args.wordlist, "ods", args.language)
    else:
        lexicon = Lexicon.open(args.lexicon)
    print(f"lexicon {lexicon.name}: {len(lexicon):,} words; load average {os.getloadavg()[0]:.2f}")
    (throughput if args.mode == "throughput" else search)(lexicon, args)


if __name__ == "__main__":
    main()
