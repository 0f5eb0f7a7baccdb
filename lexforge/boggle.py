"""Boggle / Worddle: every word traceable on a grid, by a compiled walk of the letter graph.

Rules: a word is a path of adjacent cells (8 neighbours, or 4), each cell used at most once per
word, spelling a word of the lexicon of at least ``min_length`` letters; a multi-letter cell
(``Qu``, ``Th``…) contributes all its letters, which count for length and score. Results are in
Worddle order: longest first, then alphabetical; each word once, with one path (the first in
reading order: the lexicographically smallest sequence of cell indices).

The searches walk grid paths in lockstep with the node-array letter graph (lexforge.graph), in
the compiled module lexforge._search (Cython), which this module feeds:

* ``search_board`` (used by ``solve`` and by lexforge.ruzzle) walks depth-first and keeps, for
  every word it meets, its best-scoring path: with all cell values 0 that is simply the first
  path, which is what Boggle needs; Ruzzle passes letter values and multipliers. Its words
  become BoggleWord or RuzzleWord objects in ``listed_words`` (spelled, sorted, made in C).
* ``boggle_words`` (used by ``solve_batch``) finds only the words of many boards
  (``boggle_scores``, used by ``score_batch``, only their scores). Threads, one per core,
  take stretches of boards in turn and search them with the GIL released. Each board's words
  come back as a tuple, in Worddle order, built in C: one ``str`` per distinct word a thread
  finds, shared by the boards that have it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from lexforge._search import boggle_scores, boggle_words, listed_words, search_board
from lexforge.errors import UserError
from lexforge.graph import graph_letters
from lexforge.grid import Grid, adjacent_cells, cell_coords

if TYPE_CHECKING:
    from lexforge.lexicon import Lexicon

BOGGLE_POINTS = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}  # 8 letters and more: 11
#: Points by letter count for the compiled score-only search (the last entry: 8 and more).
POINTS_TABLE = np.array([0, 0, 0, 1, 1, 2, 3, 5, 11], dtype=np.int64)


@dataclass(frozen=True)
class BoggleWord:
    word: str
    path: tuple[tuple[int, ...], ...]  # one path, (row, col) cells (n-D: a coordinate each axis)
    score: int


W = TypeVar("W")  # a result class of ``found_words``
T = TypeVar("T")  # what a thread of a batch returns
R = TypeVar("R")  # a batch's result for one board


def boggle_score(word: str) -> int:
    """Classic Boggle points by letters (Qu counts 2): 3–4 → 1, 5 → 2, 6 → 3, 7 → 5, 8+ → 11."""
    length = len(word)
    return 11 if length >= 8 else BOGGLE_POINTS.get(length, 0)


def solve(
    lexicon: Lexicon, grid: Grid, *, min_length: int = 3, adjacency: int = 8
) -> list[BoggleWord]:
    """Every word of ``lexicon`` on ``grid`` with one path and its score, in Worddle order."""
    boards = encode_boards(lexicon, [grid], adjacency)
    letters = np.arange(int(boards.cell_len.sum()) + 1)
    found = search_board(
        lexicon.graph,
        boards.cell_letters,
        boards.cell_len,
        np.zeros(len(grid.cells), dtype=np.int64),
        np.ones(len(grid.cells), dtype=np.int64),
        boards.nbr,
        boards.nbr_count,
        min_length,
        POINTS_TABLE[np.minimum(letters, len(POINTS_TABLE) - 1)],  # every path: its word's points
    )
    # Worddle order: longest first, then alphabetical
    return found_words(BoggleWord, grid, found, -found[2])


#: Boards a stretch holds at the most: searched without the GIL between two short turns with it
#: (encoding the boards, making the objects of their words), short enough that a thread
#: waiting for the GIL waits little.
STRETCH = 256
#: ... and at the least: fewer are not worth a thread's turn.
MIN_STRETCH = 16

#: The largest board the batch search takes (a 8×8 board); see ``solve_batch``.
BATCH_MAX_CELLS = 64


def solve_batch(
    lexicon: Lexicon,
    grids: list[Grid],
    *,
    min_length: int = 3,
    adjacency: int = 8,
    threads: int | None = None,
) -> list[tuple[str, ...]]:
    """The words of each grid in Worddle order, a tuple each: the fast path for many boards.

    ``threads`` defaults to the number of cores this process may use. Boards of more than
    ``BATCH_MAX_CELLS`` cells go to the depth-first search instead: the batch search keeps
    the cells of a partial path as the bits of one 64-bit word.
    """
    if not _fit_the_batch(grids):
        return _large_apart(
            grids,
            lambda small: solve_batch(
                lexicon, small, min_length=min_length, adjacency=adjacency, threads=threads
            ),
            lambda grid: tuple(
                w.word for w in solve(lexicon, grid, min_length=min_length, adjacency=adjacency)
            ),
        )
    letter_chars = _letter_chars(lexicon.language.alphabet)
    stretches = _Stretches(len(grids), threads)

    def next_stretch() -> tuple[int, tuple[np.ndarray, ...]] | None:
        bounds = stretches.take()
        if bounds is None:
            return None
        return bounds[0], _encoded(lexicon, grids, adjacency, *bounds)

    def work() -> tuple[list[int], list[tuple[str, ...]]]:
        return boggle_words(lexicon.graph, next_stretch, min_length, letter_chars)

    parts = stretches.run(work)
    result: list[tuple[str, ...]] = [()] * len(grids)
    for firsts, words in parts:
        at = 0
        for lo in firsts:
            hi = min(lo + stretches.size, len(grids))
            result[lo:hi] = words[at : at + hi - lo]
            at += hi - lo
    return result


class _Stretches:
    """Consecutive stretches of a batch's boards, handed out to its threads as they ask, so
    that they finish together however uneven the boards.

    Each thread encodes its own stretch, and makes the objects of its words, holding the GIL
    for a stretch's worth of boards at the most, while the others search theirs without it.
    """

    def __init__(self, n_boards: int, threads: int | None) -> None:
        wanted = threads or len(os.sched_getaffinity(0))
        self.n_boards = n_boards
        self.size = max(MIN_STRETCH, min(STRETCH, -(-n_boards // (4 * wanted))))
        self.workers = max(1, min(wanted, -(-n_boards // self.size)))
        self._starts = iter(range(0, n_boards, self.size))
        self._lock = threading.Lock()

    def take(self) -> tuple[int, int] | None:
        """The next stretch's first board and the board after its last; None when all are
        taken (or a thread has failed)."""
        with self._lock:
            lo = next(self._starts, None)
        return None if lo is None else (lo, min(lo + self.size, self.n_boards))

    def run(self, work: Callable[[], T]) -> list[T]:
        """``work()`` on each thread (in this one when there is one), each taking stretches
        until none is left; their results. A failing thread, or an interrupt while waiting
        for them, stops the others' stretches."""
        if self.workers == 1:
            return [work()]

        def guarded() -> T:
            try:
                return work()
            except BaseException:
                self._stop()
                raise

        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            futures = [pool.submit(guarded) for _ in range(self.workers)]
            try:
                return [future.result() for future in futures]
            finally:
                self._stop()

    def _stop(self) -> None:
        """Hand out no more stretches."""
        with self._lock:
            self._starts = iter(())


def score_batch(
    lexicon: Lexicon,
    grids: list[Grid],
    *,
    min_length: int = 3,
    adjacency: int = 8,
    threads: int | None = None,
) -> list[tuple[int, int]]:
    """Each grid's total classic Boggle score and number of words, without listing them.

    Boards of more than ``BATCH_MAX_CELLS`` cells are scored from ``solve``'s words.
    """
    if not _fit_the_batch(grids):
        return _large_apart(
            grids,
            lambda small: score_batch(
                lexicon, small, min_length=min_length, adjacency=adjacency, threads=threads
            ),
            lambda grid: _scored(solve(lexicon, grid, min_length=min_length, adjacency=adjacency)),
        )

    def arrays(lo: int, hi: int) -> tuple[np.ndarray, ...]:
        return _encoded(lexicon, grids, adjacency, lo, hi)

    totals, counts = _scores(lexicon, len(grids), arrays, min_length, threads)
    return list(zip(totals.tolist(), counts.tolist(), strict=True))


def _large_apart(
    grids: list[Grid], batch: Callable[[list[Grid]], list[R]], one: Callable[[Grid], R]
) -> list[R]:
    """``batch`` of the grids of at most ``BATCH_MAX_CELLS`` cells, ``one`` of each larger
    grid (the batch search keeps a path's cells as the bits of one 64-bit word); in order."""
    large = [len(grid.cells) > BATCH_MAX_CELLS for grid in grids]
    batched = iter(batch([grid for grid, big in zip(grids, large, strict=True) if not big]))
    return [one(grid) if big else next(batched) for grid, big in zip(grids, large, strict=True)]


def _encoded(
    lexicon: Lexicon, grids: list[Grid], adjacency: int, lo: int, hi: int
) -> tuple[np.ndarray, ...]:
    """The search's arrays of grids ``lo`` to ``hi`` (``Boards.chunk``)."""
    return encode_boards(lexicon, grids[lo:hi], adjacency).chunk(0, hi - lo)


def _scored(words: list[BoggleWord]) -> tuple[int, int]:
    """Total score and number of ``words``."""
    return sum(w.score for w in words), len(words)


def _fit_the_batch(grids: list[Grid]) -> bool:
    """Whether every grid has at most ``BATCH_MAX_CELLS`` cells."""
    return max(map(len, map(_grid_cells, grids)), default=0) <= BATCH_MAX_CELLS


def score_boards(
    lexicon: Lexicon, boards: Boards, min_length: int = 3, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Total scores and word counts of encoded boards (each of at most ``BATCH_MAX_CELLS``
    cells), on ``threads`` threads (default: the cores available)."""
    return _scores(lexicon, len(boards.board_start) - 1, boards.chunk, min_length, threads)


def _scores(
    lexicon: Lexicon,
    n_boards: int,
    arrays: Callable[[int, int], tuple[np.ndarray, ...]],
    min_length: int,
    threads: int | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Total scores and word counts of ``n_boards`` boards, ``arrays(lo, hi)`` giving the
    search's arrays for boards ``lo`` to ``hi``; on ``threads`` threads, stretch by stretch."""
    stretches = _Stretches(n_boards, threads)

    def work() -> list[tuple[int, tuple[np.ndarray, np.ndarray]]]:
        parts = []
        while (bounds := stretches.take()) is not None:
            scores = boggle_scores(lexicon.graph, *arrays(*bounds), min_length, POINTS_TABLE)
            parts.append((bounds[0], scores))
        return parts

    totals = np.zeros(n_boards, np.int64)
    counts = np.zeros(n_boards, np.int64)
    for lo, (stretch_totals, stretch_counts) in chain.from_iterable(stretches.run(work)):
        totals[lo : lo + len(stretch_totals)] = stretch_totals
        counts[lo : lo + len(stretch_counts)] = stretch_counts
    return totals, counts


# --- inputs of the compiled search (lexforge._search) ---------------------------------------


@dataclass(frozen=True)
class Boards:
    """Boards as the compiled search sees them: cells of all boards concatenated, board by board."""

    board_start: np.ndarray  # (boards + 1,) first cell of each board
    cell_letters: np.ndarray  # (cells, width) graph letter indices, padded
    cell_len: np.ndarray  # (cells,) letters per cell
    # (cells, width) neighbours as cell indices within the board, ascending; when all boards
    # have one shape, one board's rows only, shared by all
    nbr: np.ndarray
    nbr_count: np.ndarray  # (cells,), or one board's

    def chunk(self, lo: int, hi: int) -> tuple[np.ndarray, ...]:
        """The search's board arrays for boards ``lo`` to ``hi`` (excluded): board starts from 0,
        then the cells' letters, lengths, neighbours and neighbour counts."""
        start, stop = self.board_start[lo], self.board_start[hi]
        shared = len(self.nbr) != len(self.cell_len)
        return (
            self.board_start[lo : hi + 1] - start,
            self.cell_letters[start:stop],
            self.cell_len[start:stop],
            self.nbr if shared else self.nbr[start:stop],
            self.nbr_count if shared else self.nbr_count[start:stop],
        )


def encode_boards(lexicon: Lexicon, grids: list[Grid], adjacency: int) -> Boards:
    """Encode ``grids`` for the search; UserError for a letter outside the lexicon's alphabet."""
    alphabet = lexicon.language.alphabet
    board_cells = list(map(_grid_cells, grids))
    flat = list(chain.from_iterable(board_cells))
    joined = "".join(flat)
    foreign = joined.translate(_letter_table(alphabet, keep=False))
    if foreign:
        cell = next(cell for cell in flat if foreign[0] in cell)
        raise UserError(
            f"grid cell {cell!r}: letter {foreign[0]!r} is not in the alphabet of lexicon "
            f"'{lexicon.name}' ({alphabet})"
        )
    # Every letter of every cell, as graph letter indices, all at once.
    codes = joined.translate(_letter_table(alphabet, keep=True)).encode("latin-1")
    letters = np.frombuffer(codes, dtype=np.uint8).astype(np.int64)
    if len(joined) == len(flat):  # one letter per cell (the usual case)
        cell_letters = letters.reshape(-1, 1)
        cell_len = np.ones(len(flat), dtype=np.int64)
    else:  # multi-letter cells (Qu): a row per cell, padded with zeros
        cell_len = np.fromiter(map(len, flat), dtype=np.int64, count=len(flat))
        cell_start = np.cumsum(cell_len) - cell_len
        cell_letters = np.zeros((len(flat), int(cell_len.max())), dtype=np.int64)
        for i in range(cell_letters.shape[1]):
            has = cell_len > i
            cell_letters[has, i] = letters[cell_start[has] + i]
    sizes = list(map(_grid_sizes, grids))  # (layers, rows, cols): cheaper than Grid.shape
    kinds = set(sizes)
    if len(kinds) == 1:  # all boards alike: one neighbour table, repeated
        nbr, count = _neighbour_table(_shape(*kinds.pop()), adjacency)  # shared by every board
        board_start = np.arange(len(grids) + 1) * len(board_cells[0])
    else:
        tables = {kind: _neighbour_table(_shape(*kind), adjacency) for kind in kinds}
        width = max(table.shape[1] for table, _ in tables.values())
        nbr = np.concatenate([_widen(tables[kind][0], width) for kind in sizes])
        count = np.concatenate([tables[kind][1] for kind in sizes])
        board_start = np.cumsum([0, *map(len, board_cells)])
    return Boards(
        board_start=board_start,
        cell_letters=cell_letters,
        cell_len=cell_len,
        nbr=nbr,
        nbr_count=count,
    )


_grid_cells = attrgetter("cells")
_grid_sizes = attrgetter("layers", "rows", "cols")


def _shape(layers: tuple[int, ...], rows: int, cols: int) -> tuple[int, ...]:
    return (*layers, rows, cols)


@lru_cache(maxsize=16)
def _letter_index(alphabet: str) -> dict[str, int]:
    """Letter → its index in the letter graph."""
    return {letter: i for i, letter in enumerate(graph_letters(alphabet))}


@lru_cache(maxsize=32)
def _letter_table(alphabet: str, keep: bool) -> dict[int, int | None]:
    """``str.translate`` table: letter → chr(graph index) if ``keep``, else letter → deleted."""
    return {ord(letter): i if keep else None for letter, i in _letter_index(alphabet).items()}


@lru_cache(maxsize=16)
def _letter_chars(alphabet: str) -> np.ndarray:
    """The code point of each graph letter, for the 64 letter indices a board may hold (those
    beyond the alphabet: U+FFFD, never part of a word)."""
    table = np.full(64, 0xFFFD, dtype=np.uint32)
    letters = graph_letters(alphabet)
    table[: len(letters)] = [ord(letter) for letter in letters]
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def _neighbour_table(shape: tuple[int, ...], adjacency: int) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's neighbours (a row each, padded with -1; 8 columns for a 2-D grid, 3ⁿ − 1 at
    most for an n-D one) and their counts."""
    around = adjacent_cells(shape, adjacency)
    width = max(8, max(map(len, around), default=0))
    table = np.full((len(around), width), -1, dtype=np.int64)
    for cell, cells in enumerate(around):
        table[cell, : len(cells)] = cells
    return table, np.array([len(cells) for cells in around], dtype=np.int64)


def _widen(table: np.ndarray, width: int) -> np.ndarray:
    """A neighbour table padded with -1 to ``width`` columns."""
    return np.pad(table, ((0, 0), (0, width - table.shape[1])), constant_values=-1)


def found_words(cls: type[W], grid: Grid, found: tuple, rank: np.ndarray) -> list[W]:
    """The words of a ``search_board`` result on ``grid`` as ``cls`` objects (a dataclass of
    ``word``, ``score`` and ``path``: (row, col) cells, n-D: coordinates), ordered by ``rank``
    (an entry per word, lowest first), then by word.

    A word is spelled from its path, which the letter graph guarantees is a lexicon word
    (cheaper than ``restore_key`` of its id, and the trie is not even touched); the compiled
    ``listed_words`` spells, sorts and makes the objects.
    """
    _, scores, _, path_start, path_len, paths = found[:6]
    coords = cell_coords(grid.shape)
    return listed_words(cls, grid.cells, coords, rank, scores, path_start, path_len, paths)
