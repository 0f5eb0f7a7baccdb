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
* ``boggle_chunk`` (used by ``solve_batch``) finds only the words, for many boards per call
  (``boggle_scores``, used by ``score_batch``, only their scores); calls run on all cores in
  threads, the search releasing the GIL. It returns each board's words as a list, in Worddle
  order, built in C: one ``str`` per distinct word of the chunk, shared by the boards that
  have it.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from operator import attrgetter
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from lexforge._search import boggle_chunk, boggle_scores, listed_words, search_board
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


#: Boards a thread of the batch searches gets at the least (fewer are not worth its start).
MIN_CHUNK = 16

#: The largest board the batch search takes (a 8×8 board); see ``solve_batch``.
BATCH_MAX_CELLS = 64


def solve_batch(
    lexicon: Lexicon,
    grids: list[Grid],
    *,
    min_length: int = 3,
    adjacency: int = 8,
    threads: int | None = None,
) -> list[list[str]]:
    """The words of each grid in Worddle order: the fast path for many boards.

    ``threads`` defaults to the number of cores this process may use. Boards of more than
    ``BATCH_MAX_CELLS`` cells go to the depth-first search instead: the batch search keeps
    the cells of a partial path as the bits of one 64-bit word.
    """
    large = {i for i, grid in enumerate(grids) if len(grid.cells) > BATCH_MAX_CELLS}
    if large:
        small = [grid for i, grid in enumerate(grids) if i not in large]
        batch = iter(
            solve_batch(lexicon, small, min_length=min_length, adjacency=adjacency, threads=threads)
        )
        return [
            [w.word for w in solve(lexicon, grid, min_length=min_length, adjacency=adjacency)]
            if i in large
            else next(batch)
            for i, grid in enumerate(grids)
        ]
    letter_bytes, letter_nbytes = _letter_bytes(lexicon.language.alphabet)

    def run(lo: int, hi: int) -> list[list[str]]:
        boards = encode_boards(lexicon, grids[lo:hi], adjacency)
        return boggle_chunk(
            lexicon.graph, *boards.chunk(0, hi - lo), min_length, letter_bytes, letter_nbytes
        )

    with _collection_paused():
        return [words for part in _in_chunks(len(grids), threads, run) for words in part]


_pause_lock = threading.Lock()
_pauses = 0  # batches running with automatic collection paused
_resume = False  # whether automatic collection was on when the first of them started


@contextmanager
def _collection_paused() -> Iterator[None]:
    """Automatic garbage collection off while a batch makes its lists (of strings only: no
    cycle to find). Each list it allocates counts towards a collection, which walks every
    tracked object (earlier batches' results among them) holding the GIL the other threads
    wait for: two threads listed 4×4 boards at 1.3× of one with earlier results alive, 1.6×
    with this pause. Concurrent batches share one pause; the collector resumes as it was."""
    global _pauses, _resume
    with _pause_lock:
        if _pauses == 0:
            _resume = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _resume:
                gc.enable()


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
    large = [len(grid.cells) > BATCH_MAX_CELLS for grid in grids]
    small = [grid for grid, big in zip(grids, large, strict=True) if not big]

    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        boards = encode_boards(lexicon, small[lo:hi], adjacency)
        return boggle_scores(lexicon.graph, *boards.chunk(0, hi - lo), min_length, POINTS_TABLE)

    totals, counts = _joined_scores(_in_chunks(len(small), threads, run))
    scored = iter(zip(totals.tolist(), counts.tolist(), strict=True))
    result = []
    for grid, big in zip(grids, large, strict=True):
        if big:
            words = solve(lexicon, grid, min_length=min_length, adjacency=adjacency)
            result.append((sum(w.score for w in words), len(words)))
        else:
            result.append(next(scored))
    return result


def score_boards(
    lexicon: Lexicon, boards: Boards, min_length: int = 3, threads: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Total scores and word counts of encoded boards (each of at most ``BATCH_MAX_CELLS``
    cells), on ``threads`` threads (default: the cores available)."""
    n_boards = len(boards.board_start) - 1

    def run(lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        return boggle_scores(lexicon.graph, *boards.chunk(lo, hi), min_length, POINTS_TABLE)

    return _joined_scores(_in_chunks(n_boards, threads, run))


def _joined_scores(
    parts: list[tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray]:
    """The totals and counts of consecutive chunks as two arrays (empty for no chunk)."""
    empty = np.zeros(0, np.int64)
    return (
        np.concatenate([empty, *(totals for totals, _ in parts)]),
        np.concatenate([empty, *(counts for _, counts in parts)]),
    )


T = TypeVar("T")


def _in_chunks(n_boards: int, threads: int | None, run: Callable[[int, int], T]) -> list[T]:
    """``run(lo, hi)`` over consecutive chunks of ``n_boards`` boards, on ``threads`` threads
    (default: the cores this process may use), results in board order.

    Two chunks per thread balance boards of uneven difficulty. Each chunk encodes its own
    boards, so that one thread's encoding and result lists (which hold the GIL) overlap the
    other threads' searches (which release it).
    """
    if n_boards == 0:
        return []
    workers = max(1, min(threads or len(os.sched_getaffinity(0)), n_boards // MIN_CHUNK))
    if workers == 1:
        return [run(0, n_boards)]
    bounds = np.linspace(0, n_boards, min(2 * workers, n_boards) + 1).astype(int).tolist()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(run, bounds[:-1], bounds[1:]))


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
    board_cells = list(map(attrgetter("cells"), grids))
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
    shapes = {grid.shape for grid in grids}
    if len(shapes) == 1:  # all boards alike: one neighbour table, repeated
        nbr, count = _neighbour_table(shapes.pop(), adjacency)  # shared by every board
    else:
        tables = {shape: _neighbour_table(shape, adjacency) for shape in shapes}
        width = max(table.shape[1] for table, _ in tables.values())
        nbr = np.concatenate([_widen(tables[grid.shape][0], width) for grid in grids])
        count = np.concatenate([tables[grid.shape][1] for grid in grids])
    return Boards(
        board_start=np.cumsum([0, *map(len, board_cells)]),
        cell_letters=cell_letters,
        cell_len=cell_len,
        nbr=nbr,
        nbr_count=count,
    )


@lru_cache(maxsize=16)
def _letter_index(alphabet: str) -> dict[str, int]:
    """Letter → its index in the letter graph."""
    return {letter: i for i, letter in enumerate(graph_letters(alphabet))}


@lru_cache(maxsize=32)
def _letter_table(alphabet: str, keep: bool) -> dict[int, int | None]:
    """``str.translate`` table: letter → chr(graph index) if ``keep``, else letter → deleted."""
    return {ord(letter): i if keep else None for letter, i in _letter_index(alphabet).items()}


@lru_cache(maxsize=16)
def _letter_bytes(alphabet: str) -> tuple[np.ndarray, np.ndarray]:
    """UTF-8 bytes of each graph letter (a row each, zero-padded) and their counts."""
    encoded = [letter.encode() for letter in graph_letters(alphabet)]
    table = np.zeros((len(encoded), max(map(len, encoded))), dtype=np.uint8)
    for index, data in enumerate(encoded):
        table[index, : len(data)] = np.frombuffer(data, dtype=np.uint8)
    return table, np.array([len(data) for data in encoded], dtype=np.int64)


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
