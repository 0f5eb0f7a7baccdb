"""Benchmark of the compiled Boggle/Worddle and Ruzzle searches. Prints figures; asserts nothing.

    python bench/bench_solver.py                    # raw/fr/dict/french, normalized first
    python bench/bench_solver.py --lexicon fr       # a built lexicon (build/fr/) or a directory

Figures: first calls, 4×4 Boggle boards per second through ``solve_batch`` on one thread and on
all (median of ``--repeat`` runs; on a shared machine the second depends on what else runs;
beside it, the same boards in as many forked processes at once, one thread each: the machine's
ceiling for parallel work that shares no GIL),
one-board latency of ``solve`` (median, p95), 10×10 Ruzzle latency, n-D Boggle (4×4×4 boards per
second through ``solve_batch`` on one thread; the depth-first walk's boards per second and time
per visited cell on 4×4, 4×4×4 and 3×3×3×3 boards: the cells it stepped on, as ``search_board``
counts them), and resident memory: of this
process, and (with ``--lexicon``) of one-shot ``lexforge boggle`` processes, one board and a
batch of 2,000, with their wall time. Boards are drawn with a fixed seed from the language's
first Boggle dice set (letters by the lexicon's frequencies if it has none); Ruzzle boards get
6 DL, 4 TL, 4 DW and 2 TW cells.
"""

from __future__ import annotations

import argparse
import gc
import math
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import marisa_trie
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hybrid_boggle import HybridBoggle  # noqa: E402

from lexforge import boggle, ruzzle  # noqa: E402
from lexforge.graph import GRAPH_FILE, build_graph  # noqa: E402
from lexforge.grid import Grid, format_grid  # noqa: E402
from lexforge.language import Language  # noqa: E402
from lexforge.lexicon import Lexicon  # noqa: E402
from lexforge.text import fold_word  # noqa: E402


def rss_mb(field: str = "VmRSS") -> float:
    """A memory figure of this process from /proc/self/status, in MB: VmRSS (resident), VmHWM
    (peak resident), RssAnon (private) or RssFile (file-backed: libraries, mapped lexicon)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return float("nan")


def french_language() -> Language:
    return Language.load("fr")


def french_lexicon(directory: Path) -> Lexicon:
    """The raw Debian French list, normalized and saved as words.marisa and graph.npy by a child
    process (so that this one holds no word list), then memory-mapped as a built lexicon is."""
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as child:
        child.submit(save_french, directory).result()
    words = marisa_trie.Trie()
    words.mmap(str(directory / "words.marisa"))
    name = "fr (raw/fr/dict/french, normalized here)"
    return Lexicon(name, french_language(), words, path=directory)


def save_french(directory: Path) -> None:
    """Write the French words' trie and letter graph into ``directory`` (as the pipeline would)."""
    language = french_language()
    alphabet = set(language.alphabet)
    words = set()
    with open(ROOT / "raw" / "fr" / "dict" / "french", encoding="utf-8") as lines:
        for line in lines:
            line = line.strip()
            if not line or not line[0].islower():
                continue
            word = fold_word(line, language)
            if language.min_length <= len(word) <= language.max_length and set(word) <= alphabet:
                words.add(word)
    trie = marisa_trie.Trie(words)
    trie.save(str(directory / "words.marisa"))
    np.save(directory / GRAPH_FILE, build_graph(trie, language.alphabet))


class BoardMaker:
    """Random boards from a dice set, or from letter frequencies, with a fixed seed."""

    def __init__(self, lexicon: Lexicon, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.dice_sets = {
            name: [[fold_word(face, lexicon.language) for face in die] for die in dice]
            for name, dice in lexicon.language.dice.items()
        }
        self.dice = next(iter(self.dice_sets.values()), [])
        self.dice_name = next(iter(self.dice_sets), None)
        if not self.dice:  # letter frequencies of (the start of) the lexicon instead
            counts = Counter()
            for word in lexicon.words.iterkeys():
                counts.update(word)
                if counts.total() > 2_000_000:
                    break
            self.letters = sorted(counts)
            weights = np.array([counts[letter] for letter in self.letters], dtype=float)
            self.weights = weights / weights.sum()

    def source(self, side: int) -> str:
        """Where ``boggle(side)`` takes its letters from."""
        name = self.dice_set(side * side)
        if name:
            return f"dice set '{name}'"
        return f"faces of dice set '{self.dice_name}'" if self.dice else "letter frequencies"

    def dice_set(self, cells: int) -> str | None:
        """The language's dice set of exactly ``cells`` dice, if it has one."""
        return next((name for name, dice in self.dice_sets.items() if len(dice) == cells), None)

    def boggle(self, side: int = 4) -> Grid:
        """A ``side``×``side`` board: the language's dice set of that size shaken, or else
        faces drawn from its first set (or letters by frequency)."""
        n = side * side
        name = self.dice_set(n)
        if name:
            dice = self.dice_sets[name]
            order = self.rng.permutation(n)
            cells = [dice[d][self.rng.integers(len(dice[d]))] for d in order]
            return Grid.from_rows([cells[row * side : (row + 1) * side] for row in range(side)])
        return self.nd((side, side))

    def nd(self, shape: tuple[int, ...]) -> Grid:
        """A Boggle board of ``shape`` (any dimensions), letters drawn like ``ruzzle``'s."""
        n = math.prod(shape)
        faces = [face for die in self.dice for face in die]
        if faces:
            cells = [faces[i] for i in self.rng.integers(len(faces), size=n)]
        else:
            cells = [str(c) for c in self.rng.choice(self.letters, size=n, p=self.weights)]
        return Grid.from_cells(shape, tuple(cells))

    def ruzzle(self, side: int = 10) -> Grid:
        n = side * side
        faces = [face for die in self.dice for face in die]
        if faces:
            cells = [faces[i] for i in self.rng.integers(len(faces), size=n)]
        else:
            cells = [str(c) for c in self.rng.choice(self.letters, size=n, p=self.weights)]
        letter_mult, word_mult = [1] * n, [1] * n
        boosted = self.rng.permutation(n)
        for cell in boosted[:6]:
            letter_mult[cell] = 2
        for cell in boosted[6:10]:
            letter_mult[cell] = 3
        for cell in boosted[10:14]:
            word_mult[cell] = 2
        for cell in boosted[14:16]:
            word_mult[cell] = 3
        return Grid(side, side, tuple(cells), tuple(letter_mult), tuple(word_mult))


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed(function, *args, **kwargs) -> tuple[float, object]:
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lexicon", help="built lexicon name or directory (default: raw French)")
    parser.add_argument("--boards", type=int, default=20_000, help="boards per batch run")
    parser.add_argument("--repeat", type=int, default=5, help="batch runs (median reported)")
    parser.add_argument("--single", type=int, default=1000, help="boards timed one by one")
    parser.add_argument("--ruzzle", type=int, default=50, help="10×10 Ruzzle boards timed")
    parser.add_argument("--cubes", type=int, default=500, help="4×4×4 boards per batch run")
    parser.add_argument("--hypercubes", type=int, default=1, help="3×3×3×3 boards timed")
    parser.add_argument("--threads", type=int, help="threads of the parallel batch (default: all)")
    parser.add_argument("--runs-cli", type=int, default=10, help="one-shot lexforge runs timed")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--hybrid-boggle",
        type=Path,
        metavar="DIR",
        help="a checkout of danvk/hybrid-boggle: time it on the same boards, side by side",
    )
    parser.add_argument("--batch-only", action="store_true", help="only the Boggle batch figures")
    args = parser.parse_args()

    print(f"machine            {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    rss_start = rss_mb()
    with tempfile.TemporaryDirectory() as scratch:
        if args.lexicon:
            seconds, lexicon = timed(Lexicon.open, args.lexicon)
        else:
            seconds, lexicon = timed(french_lexicon, Path(scratch))
        graph_seconds, graph = timed(lambda: lexicon.graph)
        print(f"lexicon            {lexicon.name}: {len(lexicon):,} words ({seconds:.2f} s)")
        print(
            f"letter graph       {len(graph):,} nodes, {graph.nbytes / 2**20:.1f} MB, "
            f"{'mapped' if isinstance(graph, np.memmap) else 'built'} in {graph_seconds:.3f} s"
        )
        if args.batch_only:
            batch_figures(lexicon, BoardMaker(lexicon, args.seed), args, Path(scratch))
        else:
            run(lexicon, args, rss_start, Path(scratch))


def run(lexicon: Lexicon, args: argparse.Namespace, rss_start: float, scratch: Path) -> None:

    maker = BoardMaker(lexicon, args.seed)
    first = maker.boggle()
    warm_single, _ = timed(boggle.solve, lexicon, first)
    warm_batch, _ = timed(boggle.solve_batch, lexicon, [first])
    warm_ruzzle, _ = timed(ruzzle.solve, lexicon, maker.ruzzle())
    print(
        f"first calls        solve {warm_single * 1e3:.1f} ms, "
        f"solve_batch {warm_batch * 1e3:.1f} ms, ruzzle {warm_ruzzle * 1e3:.1f} ms"
    )
    lexicon.graph["first"].sum()  # every page of the graph resident, as after many queries
    print(
        f"RSS                {rss_start:.0f} MB after imports; {rss_mb():.0f} MB with lexicon, "
        f"whole graph resident and compiled code loaded ({rss_mb('RssAnon'):.0f} MB private, "
        f"{rss_mb('RssFile'):.0f} MB file-backed: libraries and the mapped lexicon)"
    )

    boards = batch_figures(lexicon, maker, args, scratch)

    latencies = [timed(boggle.solve, lexicon, board)[0] for board in boards[: args.single]]
    print(
        f"Boggle one board   median {statistics.median(latencies) * 1e3:.3f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1e3:.3f} ms (solve, {len(latencies)} boards)"
    )

    latencies, counts = [], []
    for _ in range(args.ruzzle):
        seconds, found = timed(ruzzle.solve, lexicon, maker.ruzzle())
        latencies.append(seconds)
        counts.append(len(found))
    print(
        f"Ruzzle 10×10       median {statistics.median(latencies) * 1e3:.2f} ms, "
        f"p95 {percentile(latencies, 0.95) * 1e3:.2f} ms "
        f"({statistics.mean(counts):.0f} words/board, {len(latencies)} boards)"
    )
    nd_figures(lexicon, maker, boards[:200], args)
    print(
        f"RSS                {rss_mb():.0f} MB at the end, peak {rss_mb('VmHWM'):.0f} MB "
        f"(with the {len(boards):,} benchmark boards and a batch result); "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    if args.lexicon:
        for label, grids in (("one board", boards[:1]), ("2,000 boards", boards[:2000])):
            seconds, peak = one_shot_boggle(args.lexicon, grids, args.runs_cli)
            print(
                f"lexforge boggle    {label}: wall median {seconds * 1e3:.0f} ms, peak RSS "
                f"{peak:.0f} MB (separate processes, {args.runs_cli} runs, process start included)"
            )


def batch_figures(
    lexicon: Lexicon, maker: BoardMaker, args: argparse.Namespace, scratch: Path
) -> list[Grid]:
    """Boards per second of ``solve_batch`` (words) and ``score_batch`` (scores only) on 4×4
    and 5×5 boards, on one thread, on all, and in as many processes of one thread (the
    ceiling), with hybrid-boggle's one-thread figures beside
    them if ``--hybrid-boggle`` is given (runs alternate, so both see the same machine); then
    the fixed cost of a board. Returns the 4×4 boards."""
    threads = args.threads or len(os.sched_getaffinity(0))
    boards = {4: [maker.boggle(4) for _ in range(args.boards)]}
    boards[5] = [maker.boggle(5) for _ in range(args.boards // 2)]
    peer = None
    if args.hybrid_boggle:
        qu_cells = any("QU" in grid.cells for grids in boards.values() for grid in grids)
        peer = HybridBoggle(args.hybrid_boggle, lexicon, scratch, qu_cells)
    for side, grids in boards.items():
        peer_boards = peer.board_file(grids, f"boards-{side}.txt") if peer else None
        for kind, solver, mode in (
            ("words", boggle.solve_batch, "words"),
            ("scores", boggle.score_batch, "score"),
        ):
            rates: dict[str, list[float]] = {}
            for _ in range(args.repeat):
                for n in sorted({1, threads}):
                    seconds, result = timed(solver, lexicon, grids, threads=n)
                    rates.setdefault(f"{n}", []).append(len(grids) / seconds)
                if threads > 1:
                    rate = separate_processes(solver, lexicon, grids, threads)
                    rates.setdefault("processes", []).append(rate)
                if peer_boards and (side == 4 or mode == "score"):
                    rate, peer_found = peer.rate(peer_boards, mode)
                    rates.setdefault("peer", []).append(rate)
            found = sum(map(len, result)) if kind == "words" else sum(s for s, _ in result)
            one = statistics.median(rates["1"])
            line = f"Boggle {side}×{side} {kind:6s} {one:8,.0f} boards/s on 1 thread"
            if threads > 1:
                many = statistics.median(rates[f"{threads}"])
                # Runs alternate: the ratio of each pair saw the same moment of a shared machine.
                paired = [b / a for a, b in zip(rates["1"], rates[f"{threads}"], strict=True)]
                line += (
                    f", {many:,.0f} on {threads} ({many / one:.2f}×; paired runs "
                    f"{statistics.median(paired):.2f}×, {min(paired):.2f}–{max(paired):.2f})"
                )
                alone = [b / a for a, b in zip(rates["1"], rates["processes"], strict=True)]
                line += (
                    f"; {threads} processes of 1 thread at once {statistics.median(alone):.2f}× "
                    f"({min(alone):.2f}–{max(alone):.2f}: the machine's ceiling, no GIL shared)"
                )
            per_board = found / len(grids)
            line += (
                f"; median of {args.repeat}, {len(grids):,} boards from {maker.source(side)}, "
                f"{per_board:,.1f} {'words' if kind == 'words' else 'points'}/board"
            )
            print(line)
            if "peer" in rates:
                other = statistics.median(rates["peer"])
                pairs = zip(rates["1"], rates["peer"], strict=True)
                ratios = [ours / theirs for ours, theirs in pairs]
                same = "the same" if peer_found == found else f"{peer_found / len(grids):,.1f}"
                print(
                    f"  hybrid-boggle   {other:8,.0f} boards/s on 1 thread (Boggler::"
                    f"{'FindWords' if mode == 'words' else 'Score'}): lexforge is "
                    f"{statistics.median(ratios):.2f}× its speed (median of the runs' ratios, "
                    f"{min(ratios):.2f}–{max(ratios):.2f}); it finds {same} "
                    f"{'words' if kind == 'words' else 'points'}/board"
                )
            del result
            gc.collect()
    cells = [Grid.from_rows([[grid.cells[0]]]) for grid in boards[4]]
    seconds = statistics.median(
        timed(boggle.solve_batch, lexicon, cells, threads=1)[0] for _ in range(args.repeat)
    )
    print(
        f"fixed cost         {seconds / len(cells) * 1e6:.2f} µs a board (solve_batch of "
        f"{len(cells):,} one-cell boards, 1 thread: encoding, search set-up, result tuples)"
    )
    return boards[4]


def separate_processes(solver, lexicon: Lexicon, grids: list[Grid], processes: int) -> float:
    """Boards per second of ``processes`` forked processes solving ``grids`` on one thread each,
    all at once: what the machine gives parallel work that shares no GIL (summed rates)."""
    context = multiprocessing.get_context("fork")
    start = context.Barrier(processes)
    rates = context.SimpleQueue()

    def work() -> None:
        solver(lexicon, grids[:200], threads=1)  # warm, as the parent is
        start.wait()
        seconds, _ = timed(solver, lexicon, grids, threads=1)
        rates.put(len(grids) / seconds)

    children = [context.Process(target=work) for _ in range(processes)]
    for child in children:
        child.start()
    for child in children:
        child.join()
    if any(child.exitcode for child in children):
        sys.exit("a benchmark process failed")
    return sum(rates.get() for _ in children)


def nd_figures(lexicon: Lexicon, maker: BoardMaker, squares: list[Grid], args) -> None:
    """n-D Boggle: 4×4×4 boards/s (batch, one thread), then the depth-first walk (``solve``'s,
    and the batch's for boards over 64 cells) on 4×4, 4×4×4 and 3×3×3×3 boards: boards/s and
    time per visited cell."""
    cubes = [maker.nd((4, 4, 4)) for _ in range(args.cubes)]
    runs = [args.cubes / timed(boggle.solve_batch, lexicon, cubes, threads=1)[0] for _ in range(3)]
    words = statistics.mean(map(len, boggle.solve_batch(lexicon, cubes[:50], threads=1)))
    print(
        f"Boggle 4×4×4       {statistics.median(runs):,.1f} boards/s on 1 thread, median of 3 "
        f"(solve_batch, {args.cubes} boards, {words:,.0f} words/board)"
    )
    hypercubes = [maker.nd((3, 3, 3, 3)) for _ in range(args.hypercubes)]
    for label, grids in (("4×4", squares), ("4×4×4", cubes[:50]), ("3×3×3×3", hypercubes)):
        walked = [timed(visited_cells, lexicon, grid) for grid in grids]
        total = sum(seconds for seconds, _ in walked)
        cells = sum(visited for _, visited in walked)
        print(
            f"depth-first walk   {label}: {len(grids) / total:,.3g} boards/s, "
            f"{total / cells * 1e9:.1f} ns a visited cell, {cells / len(grids):,.0f} cells a "
            f"board ({len(grids)} boards)"
        )


def visited_cells(lexicon: Lexicon, grid: Grid) -> int:
    """The cells the depth-first walk of ``boggle.solve`` steps on for ``grid``."""
    boards = boggle.encode_boards(lexicon, [grid], 8)
    return boggle.search_board(
        lexicon.graph,
        boards.cell_letters,
        boards.cell_len,
        np.zeros(len(grid.cells), dtype=np.int64),
        np.ones(len(grid.cells), dtype=np.int64),
        boards.nbr,
        boards.nbr_count,
        3,
        np.zeros(int(boards.cell_len.sum()) + 1, dtype=np.int64),
    )[6]


# A one-shot `lexforge boggle` that reports its own peak resident memory (VmHWM) on stderr. The
# peak is read inside the process: a child's ru_maxrss would start from this process's own size.
ONE_SHOT = """
import sys
from pathlib import Path
from lexforge.cli import main
status = main(sys.argv[1:])
peak = next(line for line in Path("/proc/self/status").read_text().splitlines()
            if line.startswith("VmHWM:"))
print(int(peak.split()[1]) / 1024, file=sys.stderr)
sys.exit(status)
"""


def one_shot_boggle(lexicon: str, grids: list[Grid], runs: int) -> tuple[float, float]:
    """Median wall time and largest peak RSS (MB) of a ``lexforge boggle`` process solving
    ``grids``, process start included."""
    with tempfile.NamedTemporaryFile("w", suffix=".grid", encoding="utf-8") as grid_file:
        grid_file.write("\n\n".join(format_grid(grid) for grid in grids) + "\n")
        grid_file.flush()
        walls, peaks = [], []
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-c", ONE_SHOT, "boggle", "--lexicon", lexicon, grid_file.name],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
                check=True,
                cwd=ROOT,
            )
            walls.append(time.perf_counter() - start)
            peaks.append(float(done.stderr.split()[-1]))
    return statistics.median(walls), max(peaks)


if __name__ == "__main__":
    main()
