"""Readable reference searches the compiled ones are tested against (and validation uses).

Two independent algorithms, plain Python, no numba:

* the depth-first search of the Worddle brief: walk the grid from every cell, extending a path
  while its letters are a prefix of some word (marisa's prefix query) and reporting it when
  they are a word;
* a brute-force oracle that turns the question around: for every word of the lexicon that the
  grid's letters could spell (length and letter counts), try to trace it on the grid by
  backtracking over the cells.

Both return exactly what the fast solvers return: the same words, with the same path (Boggle:
the first in reading order; Ruzzle: the best-scoring, ties to the first in reading order) and
score, in the same order.

``rack_brute_force`` is the same kind of oracle for solver.anagram: it checks every word of the
lexicon against the rack's letter counts instead of walking the anagram-key graph.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING

from solver.boggle import BoggleWord, boggle_score
from solver.grid import Grid, neighbours
from solver.ruzzle import RuzzleWord, check_values, ruzzle_score, sort_words

if TYPE_CHECKING:
    from solver.lexicon import Lexicon

Path = tuple[int, ...]  # cell indices


def boggle_dfs(
    lexicon: Lexicon, grid: Grid, *, min_length: int = 3, adjacency: int = 8
) -> list[BoggleWord]:
    """Boggle by the Worddle brief's depth-first search over the marisa trie."""
    first: dict[str, Path] = {}
    for word, path in _dfs(lexicon, grid, neighbours(grid, adjacency), min_length):
        first.setdefault(word, path)
    return _boggle_words(grid, first)


def boggle_brute_force(
    lexicon: Lexicon, grid: Grid, *, min_length: int = 3, adjacency: int = 8
) -> list[BoggleWord]:
    """Boggle by tracing every plausible word of the lexicon on the grid."""
    around = neighbours(grid, adjacency)
    first = {}
    for word in _plausible_words(lexicon, grid, min_length):
        paths = list(_paths_spelling(word, grid, around))
        if paths:
            first[word] = min(paths)
    return _boggle_words(grid, first)


def ruzzle_dfs(
    lexicon: Lexicon, board: Grid, *, values: dict[str, int] | None = None, min_length: int = 2
) -> list[RuzzleWord]:
    """Ruzzle by depth-first search, keeping each word's best path."""
    values = _values(lexicon, board, values)
    best: dict[str, tuple[int, Path]] = {}
    for word, path in _dfs(lexicon, board, neighbours(board), min_length):
        score = ruzzle_score(board, _coords(board, path), values)
        if word not in best or score > best[word][0]:  # ties: the first path found
            best[word] = (score, path)
    return _ruzzle_words(board, best)


def ruzzle_brute_force(
    lexicon: Lexicon, board: Grid, *, values: dict[str, int] | None = None, min_length: int = 2
) -> list[RuzzleWord]:
    """Ruzzle by tracing every plausible word; best score, ties to the smallest path."""
    values = _values(lexicon, board, values)
    around = neighbours(board)
    best = {}
    for word in _plausible_words(lexicon, board, min_length):
        scored = [
            (ruzzle_score(board, _coords(board, path), values), path)
            for path in _paths_spelling(word, board, around)
        ]
        if scored:
            best[word] = min(scored, key=lambda item: (-item[0], item[1]))
    return _ruzzle_words(board, best)


def _dfs(
    lexicon: Lexicon, grid: Grid, around: list[Path], min_length: int
) -> Iterator[tuple[str, Path]]:
    """Every (word, path) of the grid, depth-first from each cell in reading order."""
    words = lexicon.words

    def extend(path: Path, prefix: str) -> Iterator[tuple[str, Path]]:
        if len(prefix) >= min_length and prefix in words:
            yield prefix, path
        for cell in around[path[-1]]:
            if cell not in path:
                longer = prefix + grid.cells[cell]
                if _is_prefix(words, longer):
                    yield from extend((*path, cell), longer)

    for cell, letters in enumerate(grid.cells):
        if _is_prefix(words, letters):
            yield from extend((cell,), letters)


def _is_prefix(words, prefix: str) -> bool:
    """Does some word start with ``prefix``? (marisa deprecates has_keys_with_prefix for this.)"""
    return next(words.iterkeys(prefix), None) is not None


def _plausible_words(lexicon: Lexicon, grid: Grid, min_length: int) -> Iterator[str]:
    """Words of the lexicon with the right length whose letters the grid holds (with counts)."""
    available = Counter("".join(grid.cells))
    total = sum(available.values())
    for word in lexicon.words.iterkeys():
        if min_length <= len(word) <= total and not Counter(word) - available:
            yield word


def _paths_spelling(word: str, grid: Grid, around: list[Path]) -> Iterator[Path]:
    """Every path of distinct adjacent cells whose letters are exactly ``word``."""

    def match(path: Path, position: int) -> Iterator[Path]:
        if position == len(word):
            yield path
            return
        for cell in around[path[-1]] if path else range(len(grid.cells)):
            letters = grid.cells[cell]
            if cell not in path and word.startswith(letters, position):
                yield from match((*path, cell), position + len(letters))

    yield from match((), 0)


def _values(lexicon: Lexicon, board: Grid, values: dict[str, int] | None) -> dict[str, int]:
    values = lexicon.language.ruzzle_values if values is None else values
    check_values(board, values, lexicon.language.code)
    return values


def _coords(grid: Grid, path: Path) -> tuple[tuple[int, int], ...]:
    return tuple(grid.coords(cell) for cell in path)


def _boggle_words(grid: Grid, paths: dict[str, Path]) -> list[BoggleWord]:
    words = [BoggleWord(w, _coords(grid, p), boggle_score(w)) for w, p in paths.items()]
    return sorted(words, key=lambda w: (-len(w.word), w.word))


def _ruzzle_words(board: Grid, best: dict[str, tuple[int, Path]]) -> list[RuzzleWord]:
    words = [RuzzleWord(w, score, _coords(board, p)) for w, (score, p) in best.items()]
    return sort_words(words, "score")


def rack_brute_force(lexicon, rack_text: str) -> list:
    """Racks by testing every word of the lexicon: the letters it needs beyond the rack must be
    no more than the jokers (they are then exactly what the jokers stand for)."""
    from solver.anagram import Match, parse_rack, show_jokers

    rack = parse_rack(rack_text, lexicon)
    language = lexicon.language
    values = language.tile_values
    matches = []
    for word in lexicon.words.iterkeys():
        if not language.min_length <= len(word) <= min(language.max_length, rack.size):
            continue
        lacking = Counter(word) - rack.letters
        if sum(lacking.values()) > rack.jokers:
            continue
        jokers = "".join(sorted(lacking.elements()))
        score = sum(values.get(c, 0) for c in word) - sum(values.get(c, 0) for c in jokers)
        matches.append(Match(word, show_jokers(word, jokers), score))
    return sorted(matches, key=lambda m: (-len(m.word), m.word))
