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
* ``boggle_chunk`` (used by ``solve_batch``) finds only the words, breadth-first, for many
  boards per call; calls run on all cores in threads, the search releasing the GIL. It returns
  the distinct words of its boards once, as UTF-8 text, and each board's words as indices into
  them, already in Worddle order: Python only splits the text and slices, making one ``str``
  per distinct word.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
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


#: The largest board the breadth-first batch search takes (a 8×8 board); see ``solve_batch``.
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
    ``BATCH_MAX_CELLS`` cells go to the depth-first search instead: the breadth-first batch
    keeps a bit per board cell for every partial path, which a large board multiplies.
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
    if not grids:
        return []
    boards = encode_boards(lexicon, grids, adjacency)
    letter_bytes, letter_nbytes = _letter_bytes(lexicon.language.alphabet)

    def run(lo: int, hi: int) -> list[list[str]]:
        indices, board_end, text = boggle_chunk(
            lexicon.graph, *boards.chunk(lo, hi), min_length, letter_bytes, letter_nbytes
        )
        # Each distinct word becomes one str, shared by every board that has it.
        distinct = np.array(text.decode("utf-8").split("\n")[:-1], dtype=object)
        words = distinct[indices].tolist()
        ends = board_end.tolist()
        return [words[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]

    workers = max(1, min(threads or len(os.sched_getaffinity(0)), len(grids)))
    if workers == 1:
        return run(0, len(grids))
    # A few chunks per worker balance boards of uneven difficulty.
    bounds = np.linspace(0, len(grids), min(4 * workers, len(grids)) + 1).astype(int)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = pool.map(run, bounds[:-1], bounds[1:])
        return [words for part in parts for words in part]


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
    totals, counts = (
        score_boards(lexicon, encode_boards(lexicon, small, adjacency), min_length, threads)
        if small
        else (np.zeros(0, np.int64), np.zeros(0, np.int64))
    )
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

    workers = max(1, min(threads or len(os.sched_getaffinity(0)), n_boards))
    if workers == 1 or n_boards < 64:  # too few boards to be worth a thread's start
        return run(0, n_boards)
    bounds = np.linspace(0, n_boards, workers + 1).astype(int)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = list(pool.map(run, bounds[:-1], bounds[1:]))
    return np.concatenate([t for t, _ in parts]), np.concatenate([c for _, c in parts])


# --- inputs of the compiled search (lexforge._search) ---------------------------------------


@dataclass(frozen=True)
class Boards:
    """Boards as the compiled search sees them: cells of all boards concatenated, board by board."""

    board_start: np.ndarray  # (boards + 1,) first cell of each board
    cell_letters: np.ndarray  # (cells, width) graph letter indices, padded
    cell_len: np.ndarray  # (cells,) letters per cell
    nbr: np.ndarray  # (cells, width) neighbours as cell indices within the board, ascending
    nbr_count: np.ndarray  # (cells,)

    def chunk(self, lo: int, hi: int) -> tuple[np.ndarray, ...]:
        """The search's board arrays for boards ``lo`` to ``hi`` (excluded): board starts from 0,
        then the cells' letters, lengths, neighbours and neighbour counts."""
        start, stop = self.board_start[lo], self.board_start[hi]
        return (
            self.board_start[lo : hi + 1] - start,
            self.cell_letters[start:stop],
            self.cell_len[start:stop],
            self.nbr[start:stop],
            self.nbr_count[start:stop],
        )


def encode_boards(lexicon: Lexicon, grids: list[Grid], adjacency: int) -> Boards:
    """Encode ``grids`` for the search; UserError for a letter outside the lexicon's alphabet."""
    alphabet = lexicon.language.alphabet
    flat = [cell for grid in grids for cell in grid.cells]
    joined = "".join(flat)
    foreign = joined.translate(_letter_table(alphabet, keep=False))
    if foreign:
        cell = next(cell for cell in flat if foreign[0] in cell)
        raise UserError(
            f"grid cell {cell!r}: letter {foreign[0]!r} is not in the alphabet of lexicon "
            f"'{lexicon.name}' ({alphabet})"
        )
    if len(joined) == len(flat):  # one letter per cell (the usual case): all at once
        codes = joined.translate(_letter_table(alphabet, keep=True)).encode("latin-1")
        cell_letters = np.frombuffer(codes, dtype=np.uint8).astype(np.int64).reshape(-1, 1)
        cell_len = np.ones(len(flat), dtype=np.int64)
    else:
        index = _letter_index(alphabet)
        rows: dict[str, int] = {}  # distinct cell strings → row of `table`
        cell_rows = [rows.setdefault(cell, len(rows)) for cell in flat]
        width = max(map(len, rows))
        table = [[index[c] for c in cell] + [0] * (width - len(cell)) for cell in rows]
        cell_letters = np.array(table, dtype=np.int64)[cell_rows]
        cell_len = np.array([len(cell) for cell in rows], dtype=np.int64)[cell_rows]
    shapes = {grid.shape for grid in grids}
    if len(shapes) == 1:  # all boards alike: one neighbour table, repeated
        nbr, count = _neighbour_table(shapes.pop(), adjacency)
        if len(grids) > 1:
            nbr, count = np.tile(nbr, (len(grids), 1)), np.tile(count, len(grids))
    else:
        tables = {shape: _neighbour_table(shape, adjacency) for shape in shapes}
        width = max(table.shape[1] for table, _ in tables.values())
        nbr = np.concatenate([_widen(tables[grid.shape][0], width) for grid in grids])
        count = np.concatenate([tables[grid.shape][1] for grid in grids])
    return Boards(
        board_start=np.cumsum([0] + [len(grid.cells) for grid in grids]),
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
