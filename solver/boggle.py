"""Boggle / Worddle: every word traceable on a grid, by a compiled walk of the letter graph.

Rules: a word is a path of adjacent cells (8 neighbours, or 4), each cell used at most once per
word, spelling a word of the lexicon of at least ``min_length`` letters; a multi-letter cell
(``Qu``, ``Th``…) contributes all its letters, which count for length and score. Results are in
Worddle order: longest first, then alphabetical; each word once, with one path (the first in
reading order: the lexicographically smallest sequence of cell indices).

The searches walk grid paths in lockstep with the node-array letter graph (solver.graph),
compiled with numba:

* ``search_board`` (used by ``solve`` and by solver.ruzzle) walks depth-first and keeps, for
  every word it meets, its best-scoring path: with all cell values 0 that is simply the first
  path, which is what Boggle needs; Ruzzle passes letter values and multipliers.
* ``boggle_chunk`` (used by ``solve_batch``) finds only the words, breadth-first (see
  ``_board_words``), for many boards per call; calls run on all cores in threads, the kernels
  releasing the GIL. It returns the distinct words of its boards once, as UTF-8 text, and each
  board's words as indices into them, already in Worddle order: Python only splits the text
  and slices, making one ``str`` per distinct word.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numba
import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from solver.errors import UserError
from solver.graph import ROOT, graph_letters
from solver.grid import Grid, adjacent_cells

if TYPE_CHECKING:
    from solver.lexicon import Lexicon

BOGGLE_POINTS = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}  # 8 letters and more: 11
WORD_SEPARATOR = ord("\n")
# Worddle sort key of a word: (_MAX_SORT_LENGTH − letters) << 32 | node (node indices are int32).
_LENGTH_SHIFT = 32
_MAX_SORT_LENGTH = 1 << 20


@dataclass(frozen=True)
class BoggleWord:
    word: str
    path: tuple[tuple[int, int], ...]  # one path, (row, col) cells
    score: int


def boggle_score(word: str) -> int:
    """Classic Boggle points by letters (Qu counts 2): 3–4 → 1, 5 → 2, 6 → 3, 7 → 5, 8+ → 11."""
    length = len(word)
    return 11 if length >= 8 else BOGGLE_POINTS.get(length, 0)


def solve(
    lexicon: Lexicon, grid: Grid, *, min_length: int = 3, adjacency: int = 8
) -> list[BoggleWord]:
    """Every word of ``lexicon`` on ``grid`` with one path and its score, in Worddle order."""
    boards = encode_boards(lexicon, [grid], adjacency)
    found = search_board(
        *graph_columns(lexicon),
        boards.cell_letters,
        boards.cell_len,
        np.zeros(len(grid.cells), dtype=np.int64),
        np.ones(len(grid.cells), dtype=np.int64),
        boards.nbr,
        boards.nbr_count,
        min_length,
        np.zeros(int(boards.cell_len.sum()) + 1, dtype=np.int64),
    )
    nodes, lengths = found[0], found[2]
    order = np.argsort((_MAX_SORT_LENGTH - lengths) << _LENGTH_SHIFT | nodes)  # Worddle order
    return [
        BoggleWord(word, path, boggle_score(word))
        for word, _, path in found_words(grid, found, order)
    ]


def solve_batch(
    lexicon: Lexicon,
    grids: list[Grid],
    *,
    min_length: int = 3,
    adjacency: int = 8,
    threads: int | None = None,
) -> list[list[str]]:
    """The words of each grid in Worddle order: the fast path for many boards.

    ``threads`` defaults to numba's thread count (all cores; ``NUMBA_NUM_THREADS`` caps it).
    """
    if not grids:
        return []
    boards = encode_boards(lexicon, grids, adjacency)
    letter_bytes, letter_nbytes = _letter_bytes(lexicon.language.alphabet)
    masks, firsts, word_ids = graph_columns(lexicon)

    def run(lo: int, hi: int) -> list[list[str]]:
        start, stop = boards.board_start[lo], boards.board_start[hi]
        indices, board_end, text = boggle_chunk(
            masks,
            firsts,
            word_ids,
            boards.board_start[lo : hi + 1] - start,
            boards.cell_letters[start:stop],
            boards.cell_len[start:stop],
            boards.nbr[start:stop],
            boards.nbr_count[start:stop],
            min_length,
            letter_bytes,
            letter_nbytes,
        )
        # Each distinct word becomes one str, shared by every board that has it.
        distinct = np.array(text.tobytes().decode("utf-8").split("\n")[:-1], dtype=object)
        words = distinct[indices].tolist()
        ends = board_end.tolist()
        return [words[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]

    workers = max(1, min(threads or numba.config.NUMBA_NUM_THREADS, len(grids)))
    if workers == 1:
        return run(0, len(grids))
    # A few chunks per worker balance boards of uneven difficulty.
    bounds = np.linspace(0, len(grids), min(4 * workers, len(grids)) + 1).astype(int)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        parts = pool.map(run, bounds[:-1], bounds[1:])
        return [words for part in parts for words in part]


# --- kernel inputs ------------------------------------------------------------------------


def graph_columns(lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The letter graph's mask, first and word columns as read-only plain arrays: one compiled
    signature whether the graph is mapped from disk or built in memory."""
    columns = []
    for name in ("mask", "first", "word"):
        column = lexicon.graph[name].view(np.ndarray)
        column.flags.writeable = False
        columns.append(column)
    return columns[0], columns[1], columns[2]


@dataclass(frozen=True)
class Boards:
    """Boards as the kernels see them: cells of all boards concatenated, board by board."""

    board_start: np.ndarray  # (boards + 1,) first cell of each board
    cell_letters: np.ndarray  # (cells, width) graph letter indices, padded
    cell_len: np.ndarray  # (cells,) letters per cell
    nbr: np.ndarray  # (cells, 8) neighbours as cell indices within the board, ascending
    nbr_count: np.ndarray  # (cells,)


def encode_boards(lexicon: Lexicon, grids: list[Grid], adjacency: int) -> Boards:
    """Encode ``grids`` for the kernels; UserError for a letter outside the lexicon's alphabet."""
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
    shapes = {(grid.rows, grid.cols) for grid in grids}
    if len(shapes) == 1:  # all boards alike: one neighbour table, repeated
        nbr, count = _neighbour_table(*shapes.pop(), adjacency)
        if len(grids) > 1:
            nbr, count = np.tile(nbr, (len(grids), 1)), np.tile(count, len(grids))
    else:
        tables = [_neighbour_table(grid.rows, grid.cols, adjacency) for grid in grids]
        nbr = np.concatenate([nbr for nbr, _ in tables])
        count = np.concatenate([count for _, count in tables])
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
def _neighbour_table(rows: int, cols: int, adjacency: int) -> tuple[np.ndarray, np.ndarray]:
    around = adjacent_cells(rows, cols, adjacency)
    table = np.full((rows * cols, 8), -1, dtype=np.int64)
    for cell, cells in enumerate(around):
        table[cell, : len(cells)] = cells
    return table, np.array([len(cells) for cells in around], dtype=np.int64)


def found_words(
    grid: Grid, found: tuple, order: np.ndarray | None = None
) -> list[tuple[str, int, tuple]]:
    """(word, score, path as (row, col) cells) of the words of a ``search_board`` result, in
    ``order`` (indices) or as found.

    The word is spelled from its path, which the letter graph guarantees is a lexicon word
    (cheaper than ``restore_key`` of its id, and the trie is not even touched).
    """
    _, scores, _, path_start, path_len, paths = found
    if order is not None:
        scores, path_start, path_len = scores[order], path_start[order], path_len[order]
    spell = grid.cells.__getitem__
    place = _coords(grid.rows, grid.cols).__getitem__
    all_paths = paths.tolist()
    result = []
    for score, start, length in zip(
        scores.tolist(), path_start.tolist(), path_len.tolist(), strict=True
    ):
        path = all_paths[start : start + length]
        result.append(("".join(map(spell, path)), score, tuple(map(place, path))))
    return result


@lru_cache(maxsize=64)
def _coords(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    return tuple(divmod(cell, cols) for cell in range(rows * cols))


# --- compiled kernels -----------------------------------------------------------------------

# Fields of a partial path ("state") in _board_words.
_NODE, _CELL, _LETTERS, _PARENT, _WORD = range(5)
_STATE_FIELDS = 5


@intrinsic
def _popcount(typingctx, value):
    """Set bits of an integer: LLVM's ctpop, one POPCNT instruction on x86-64."""
    if not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return value(value), codegen


@njit(cache=True, nogil=True, inline="always")
def _walk(masks, firsts, node, cell_letters, cell, count):
    """Follow the ``count`` letters of ``cell`` from ``node``; -1 if the graph has no such path."""
    for i in range(count):
        mask = masks[node]
        bit = np.uint64(1) << np.uint64(cell_letters[cell, i])
        if mask & bit == 0:
            return -1
        node = np.int64(firsts[node]) + np.int64(_popcount(mask & (bit - np.uint64(1))))
    return node


@njit(cache=True, nogil=True, inline="always")
def _step(masks, firsts, cell_letters, cell_len, nbr, nbr_count, reach, used, node, cell, k):
    """Scan the neighbours of ``cell`` from the k-th for a free one continuing ``node``.

    Returns ``(k past it, neighbour, child node)``, or a child of -1 when there is none.
    ``reach[cell]`` (first letters of the neighbours) rules most of them out in one test.
    """
    candidates = masks[node] & reach[cell]
    if candidates != 0:
        while k < nbr_count[cell]:
            next_cell = nbr[cell, k]
            k += 1
            first = np.uint64(cell_letters[next_cell, 0])
            if (candidates >> first) & np.uint64(1) and not used[next_cell]:
                child = _walk(masks, firsts, node, cell_letters, next_cell, cell_len[next_cell])
                if child >= 0:
                    return k, next_cell, child
    return k, -1, -1


@njit(cache=True, nogil=True)
def _reach(cell_letters, nbr, nbr_count):
    """Bit mask of the first letters of each cell's neighbours."""
    reach = np.zeros(len(nbr), np.uint64)
    for cell in range(len(nbr)):
        for k in range(nbr_count[cell]):
            reach[cell] |= np.uint64(1) << np.uint64(cell_letters[nbr[cell, k], 0])
    return reach


@njit(cache=True, nogil=True)
def search_board(
    masks,
    firsts,
    word_ids,
    cell_letters,
    cell_len,
    cell_value,
    cell_word_mult,
    nbr,
    nbr_count,
    min_length,
    length_bonus,
):
    """Depth-first search of one board; each word found once, with its best-scoring path.

    A path scores ``sum(cell_value) × product(cell_word_mult) + length_bonus[letters]``; among
    equal scores the first path in depth-first order (the lexicographically smallest sequence of
    cells) is kept. Returns, per word in discovery order: its graph node, score, letter count,
    and its path as ``paths[path_start : path_start + path_len]`` (cell indices).
    """
    capacity = 256
    while True:  # output arrays never grow during the walk: retry with more room instead
        nodes = np.empty(capacity, np.int64)
        scores = np.empty(capacity, np.int64)
        lengths = np.empty(capacity, np.int64)
        path_start = np.empty(capacity, np.int64)
        path_len = np.empty(capacity, np.int64)
        paths = np.empty(8 * capacity, np.int64)
        slots = np.full(2 * capacity, -1, np.int64)  # hash table: node → index of the word
        n_found, n_path_cells = _search(
            masks,
            firsts,
            word_ids,
            cell_letters,
            cell_len,
            cell_value,
            cell_word_mult,
            nbr,
            nbr_count,
            min_length,
            length_bonus,
            nodes,
            scores,
            lengths,
            path_start,
            path_len,
            paths,
            slots,
        )
        if n_found >= 0:
            return (
                nodes[:n_found],
                scores[:n_found],
                lengths[:n_found],
                path_start[:n_found],
                path_len[:n_found],
                paths[:n_path_cells],
            )
        capacity *= 4


@njit(cache=True, nogil=True)
def _search(
    masks,
    firsts,
    word_ids,
    cell_letters,
    cell_len,
    cell_value,
    cell_word_mult,
    nbr,
    nbr_count,
    min_length,
    length_bonus,
    nodes,
    scores,
    lengths,
    path_start,
    path_len,
    paths,
    slots,
):
    """The walk of ``search_board`` into the given arrays: (words, path cells), or -1 when full."""
    n_cells = len(cell_len)
    reach = _reach(cell_letters, nbr, nbr_count)
    n_found = 0
    n_path_cells = 0
    table_mask = len(slots) - 1
    used = np.zeros(n_cells, np.bool_)
    stack_cell = np.empty(n_cells, np.int64)
    stack_node = np.empty(n_cells, np.int64)
    stack_next = np.empty(n_cells, np.int64)  # next neighbour to try
    stack_sum = np.empty(n_cells, np.int64)
    stack_mult = np.empty(n_cells, np.int64)
    stack_letters = np.empty(n_cells, np.int64)

    for start in range(n_cells):
        node = _walk(masks, firsts, ROOT, cell_letters, start, cell_len[start])
        if node < 0:
            continue
        depth = 0
        stack_cell[0] = start
        stack_node[0] = node
        stack_next[0] = 0
        stack_sum[0] = cell_value[start]
        stack_mult[0] = cell_word_mult[start]
        stack_letters[0] = cell_len[start]
        used[start] = True
        while depth >= 0:
            node = stack_node[depth]
            if (
                stack_next[depth] == 0
                and word_ids[node] >= 0
                and stack_letters[depth] >= min_length
            ):
                # First visit of a word node: keep the path if the word is new or scores better.
                score = stack_sum[depth] * stack_mult[depth] + length_bonus[stack_letters[depth]]
                slot = _hash(node, table_mask)
                while slots[slot] >= 0 and nodes[slots[slot]] != node:
                    slot = (slot + 1) & table_mask
                found = slots[slot]
                if found < 0 or score > scores[found]:
                    if found < 0:
                        if n_found == len(nodes):
                            return -1, -1
                        found = n_found
                        n_found += 1
                        slots[slot] = found
                        nodes[found] = node
                        lengths[found] = stack_letters[depth]
                    if n_path_cells + depth + 1 > len(paths):
                        return -1, -1
                    scores[found] = score
                    path_start[found] = n_path_cells
                    path_len[found] = depth + 1
                    for i in range(depth + 1):
                        paths[n_path_cells + i] = stack_cell[i]
                    n_path_cells += depth + 1
            cell = stack_cell[depth]
            k, next_cell, child = _step(
                masks,
                firsts,
                cell_letters,
                cell_len,
                nbr,
                nbr_count,
                reach,
                used,
                node,
                cell,
                stack_next[depth],
            )
            if child >= 0:
                stack_next[depth] = k
                used[next_cell] = True
                depth += 1
                stack_cell[depth] = next_cell
                stack_node[depth] = child
                stack_next[depth] = 0
                stack_sum[depth] = stack_sum[depth - 1] + cell_value[next_cell]
                stack_mult[depth] = stack_mult[depth - 1] * cell_word_mult[next_cell]
                stack_letters[depth] = stack_letters[depth - 1] + cell_len[next_cell]
            else:
                used[cell] = False
                depth -= 1
    return n_found, n_path_cells


@njit(cache=True, nogil=True, inline="always")
def _hash(node, table_mask):
    """Slot of a node in a power-of-two hash table (Knuth's multiplicative hash)."""
    return (node * 2654435761 >> 16) & table_mask


@njit(cache=True, nogil=True)
def boggle_chunk(
    masks,
    firsts,
    word_ids,
    board_start,
    cell_letters,
    cell_len,
    nbr,
    nbr_count,
    min_length,
    letter_bytes,
    letter_nbytes,
):
    """Solve consecutive boards for ``solve_batch``.

    Returns ``(indices, board_end, text)``: ``text`` holds each distinct word of the chunk once
    (UTF-8, each followed by ``\\n``); ``indices[board_end[b - 1] : board_end[b]]`` are the
    positions in that list of the words of board ``b``, in Worddle order.
    """
    n_boards = len(board_start) - 1
    most_cells = max(np.diff(board_start).max(), 1) if n_boards else 1
    index = np.full(len(masks), -1, np.int32)  # node → position in text, -1 if not there yet
    text = np.empty(1 << 16, np.uint8)
    indices = np.empty(1 << 12, np.int32)
    board_end = np.empty(n_boards, np.int64)
    path = np.empty(most_cells, np.int64)
    text_size = 0
    n_words = 0
    n_distinct = 0
    capacity = 512  # words per board; a board holds about 8 times as many partial paths
    keys = np.empty(0, np.int64)
    key_state = np.empty(0, np.int64)
    slots = np.empty(0, np.int64)
    states = np.empty((0, _STATE_FIELDS), np.int64)
    state_mask = np.empty(0, np.uint64)
    state_used = np.empty((0, (most_cells + 63) // 64), np.uint64)
    for board in range(n_boards):
        lo, hi = board_start[board], board_start[board + 1]
        while True:  # retry the board with more room if it has more words than `keys` holds
            if len(keys) != capacity:
                keys = np.empty(capacity, np.int64)
                key_state = np.empty(capacity, np.int64)
                slots = np.empty(2 * capacity, np.int64)
                states = np.empty((8 * capacity, _STATE_FIELDS), np.int64)
                state_mask = np.empty(8 * capacity, np.uint64)
                state_used = np.empty((8 * capacity, state_used.shape[1]), np.uint64)
            slots[:] = -1
            n_keys = _board_words(
                masks,
                firsts,
                word_ids,
                cell_letters[lo:hi],
                cell_len[lo:hi],
                nbr[lo:hi],
                nbr_count[lo:hi],
                min_length,
                keys,
                key_state,
                slots,
                states,
                state_mask,
                state_used,
            )
            if n_keys >= 0:
                break
            capacity *= 4
        if n_words + n_keys > len(indices):
            indices = _grow(indices, n_words + n_keys)
        order = np.argsort(keys[:n_keys])
        nodes = keys[order] & 0xFFFFFFFF
        known = index[nodes]  # all the (cache-missing) loads at once, before any decision
        for rank, found in enumerate(order):
            if known[rank] < 0:  # new to the chunk (a board finds a node once): spell it
                known[rank] = index[nodes[rank]] = n_distinct
                n_distinct += 1
                letters = _MAX_SORT_LENGTH - (keys[found] >> _LENGTH_SHIFT)
                if text_size + letters * letter_bytes.shape[1] + 1 > len(text):
                    text = _grow(text, text_size + letters * letter_bytes.shape[1] + 1)
                depth = 0
                state = key_state[found]
                while state >= 0:  # the path's cells, last first
                    path[depth] = states[state, _CELL]
                    depth += 1
                    state = states[state, _PARENT]
                for i in range(depth - 1, -1, -1):
                    for j in range(cell_len[lo + path[i]]):
                        letter = cell_letters[lo + path[i], j]
                        for b in range(letter_nbytes[letter]):
                            text[text_size] = letter_bytes[letter, b]
                            text_size += 1
                text[text_size] = WORD_SEPARATOR
                text_size += 1
            indices[n_words] = known[rank]
            n_words += 1
        board_end[board] = n_words
    return indices[:n_words], board_end, text[:text_size]


@njit(cache=True, nogil=True)
def _board_words(
    masks,
    firsts,
    word_ids,
    cell_letters,
    cell_len,
    nbr,
    nbr_count,
    min_length,
    keys,
    key_state,
    slots,
    states,
    state_mask,
    state_used,
):
    """The lean search of one board for ``boggle_chunk``: breadth-first, nothing but words.

    Partial paths are expanded in the order they are found (a queue) rather than depth-first.
    Each new path loads its graph node when it is created, and since nothing waits for that
    load until the path's turn comes, the processor overlaps many of these cache misses (about
    1.3× faster than the depth-first ``_search`` on a 10 MB graph). A path is a row of
    ``states`` (node, last cell, letters, parent path, word id), its node's child mask and its
    used cells as bits.

    Writes the Worddle sort key ``(−letters, node)`` of each word found into ``keys`` (once:
    ``slots`` is a hash set of the nodes found) and the path that spelled it first into
    ``key_state``. Returns the number of keys, or -1 if ``keys`` or ``states`` is full.
    """
    n_cells = len(cell_len)
    reach = _reach(cell_letters, nbr, nbr_count)
    table_mask = len(slots) - 1
    n_keys = 0
    n_states = 0
    for start in range(n_cells):
        node = _walk(masks, firsts, ROOT, cell_letters, start, cell_len[start])
        if node < 0:
            continue
        if n_states == len(states):
            return -1
        states[n_states, _NODE] = node
        states[n_states, _CELL] = start
        states[n_states, _LETTERS] = cell_len[start]
        states[n_states, _PARENT] = -1
        states[n_states, _WORD] = word_ids[node]
        state_mask[n_states] = masks[node]
        state_used[n_states, :] = 0
        state_used[n_states, start >> 6] = np.uint64(1) << np.uint64(start & 63)
        n_states += 1
    path_of = 0
    while path_of < n_states:
        node = states[path_of, _NODE]
        cell = states[path_of, _CELL]
        letters = states[path_of, _LETTERS]
        if states[path_of, _WORD] >= 0 and letters >= min_length:
            slot = _hash(node, table_mask)
            while slots[slot] >= 0 and slots[slot] != node:
                slot = (slot + 1) & table_mask
            if slots[slot] < 0:  # new on this board
                if n_keys == len(keys):
                    return -1
                slots[slot] = node
                keys[n_keys] = (_MAX_SORT_LENGTH - letters) << _LENGTH_SHIFT | node
                key_state[n_keys] = path_of
                n_keys += 1
        candidates = state_mask[path_of] & reach[cell]
        if candidates != 0:
            for k in range(nbr_count[cell]):
                next_cell = nbr[cell, k]
                word = next_cell >> 6
                bit = np.uint64(1) << np.uint64(next_cell & 63)
                first_letter = np.uint64(cell_letters[next_cell, 0])
                if (candidates >> first_letter) & np.uint64(1) == 0:
                    continue
                if state_used[path_of, word] & bit:
                    continue
                child = _walk(masks, firsts, node, cell_letters, next_cell, cell_len[next_cell])
                if child < 0:
                    continue
                if n_states == len(states):
                    return -1
                states[n_states, _NODE] = child
                states[n_states, _CELL] = next_cell
                states[n_states, _LETTERS] = letters + cell_len[next_cell]
                states[n_states, _PARENT] = path_of
                states[n_states, _WORD] = word_ids[child]
                state_mask[n_states] = masks[child]
                for w in range(state_used.shape[1]):
                    state_used[n_states, w] = state_used[path_of, w]
                state_used[n_states, word] |= bit
                n_states += 1
        path_of += 1
    return n_keys


@njit(cache=True, nogil=True)
def _grow(array, size):
    """``array`` copied into a new array of at least ``size`` elements (doubling)."""
    bigger = np.empty(max(size, 2 * len(array)), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger
