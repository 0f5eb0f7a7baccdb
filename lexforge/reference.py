"""Readable reference searches the compiled ones are tested against (and validation uses).

Two independent algorithms, plain Python, nothing compiled:

* the depth-first search of the Worddle brief: walk the grid from every cell, extending a path
  while its letters are a prefix of some word (marisa's prefix query) and reporting it when
  they are a word;
* a brute-force oracle that turns the question around: for every word of the lexicon that the
  grid's letters could spell (length and letter counts), try to trace it on the grid by
  backtracking over the cells.

Both return exactly what the fast solvers return: the same words, with the same path (Boggle:
the first in reading order; Ruzzle: the best-scoring, ties to the first in reading order) and
score, in the same order.

``rack_brute_force`` is the same kind of oracle for lexforge.anagram: it checks every word of the
lexicon against the rack's letter counts instead of walking the anagram-key graph; and
``scrabble_brute_force`` for lexforge.scrabble: it tries every word at every position of the
board and scores the board that results, instead of walking the letter graph from anchors.
``scrabble_moves_python`` is the plain-Python Appel–Jacobson generator the compiled one
(lexforge/_scrabble.pyx) was written from: the same algorithm, line by line, as a second oracle.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from lexforge.anagram import Match, parse_rack, show_jokers
from lexforge.boggle import BoggleWord, boggle_score
from lexforge.graph import ROOT, graph_letters
from lexforge.grid import Grid
from lexforge.ruzzle import RuzzleWord, check_values, ruzzle_score, sort_words
from lexforge.scrabble import Board, Move, best_first, parse_scrabble_rack, place

if TYPE_CHECKING:
    from lexforge.lexicon import Lexicon

Path = tuple[int, ...]  # cell indices


def boggle_dfs(
    lexicon: Lexicon, grid: Grid, *, min_length: int = 3, adjacency: int = 8
) -> list[BoggleWord]:
    """Boggle by the Worddle brief's depth-first search over the marisa trie."""
    first: dict[str, Path] = {}
    for word, path in _dfs(lexicon, grid, grid_neighbours(grid.shape, adjacency), min_length):
        first.setdefault(word, path)
    return _boggle_words(grid, first)


def boggle_brute_force(
    lexicon: Lexicon, grid: Grid, *, min_length: int = 3, adjacency: int = 8
) -> list[BoggleWord]:
    """Boggle by tracing every plausible word of the lexicon on the grid."""
    around = grid_neighbours(grid.shape, adjacency)
    index = cells_by_first_letter(grid, around)
    first = {}
    for word in _plausible_words(lexicon, grid, around, min_length):
        paths = _paths_spelling(word, grid, index)
        if paths:
            first[word] = min(paths)
    return _boggle_words(grid, first)


def ruzzle_dfs(
    lexicon: Lexicon, board: Grid, *, values: dict[str, int] | None = None, min_length: int = 2
) -> list[RuzzleWord]:
    """Ruzzle by depth-first search, keeping each word's best path."""
    values = _values(lexicon, board, values)
    best: dict[str, tuple[int, Path]] = {}
    for word, path in _dfs(lexicon, board, grid_neighbours(board.shape, 8), min_length):
        score = ruzzle_score(board, _coords(board, path), values)
        if word not in best or score > best[word][0]:  # ties: the first path found
            best[word] = (score, path)
    return _ruzzle_words(board, best)


def ruzzle_brute_force(
    lexicon: Lexicon, board: Grid, *, values: dict[str, int] | None = None, min_length: int = 2
) -> list[RuzzleWord]:
    """Ruzzle by tracing every plausible word; best score, ties to the smallest path."""
    values = _values(lexicon, board, values)
    around = grid_neighbours(board.shape, 8)
    index = cells_by_first_letter(board, around)
    best = {}
    for word in _plausible_words(lexicon, board, around, min_length):
        scored = [
            (ruzzle_score(board, _coords(board, path), values), path)
            for path in _paths_spelling(word, board, index)
        ]
        if scored:
            best[word] = min(scored, key=lambda item: (-item[0], item[1]))
    return _ruzzle_words(board, best)


def grid_neighbours(shape: tuple[int, ...], adjacency: int) -> list[Path]:
    """Each cell's neighbours on a grid of any number of dimensions, found without
    lexforge.grid: every other cell whose coordinates all differ by at most one (adjacency 8),
    or differ by one in exactly one of them (adjacency 4). Quadratic: for small grids."""
    coords = [cell_position(shape, cell) for cell in range(math.prod(shape))]

    def touch(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
        gaps = [abs(x - y) for x, y in zip(a, b, strict=True)]
        return max(gaps) == 1 if adjacency == 8 else sum(gaps) == 1

    return [tuple(j for j, b in enumerate(coords) if touch(a, b)) for a in coords]


def cell_position(shape: tuple[int, ...], cell: int) -> tuple[int, ...]:
    """The coordinates of a cell index (row-major: the last coordinate varies fastest)."""
    position = []
    for side in reversed(shape):
        cell, coordinate = divmod(cell, side)
        position.append(coordinate)
    return tuple(reversed(position))


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


def _plausible_words(
    lexicon: Lexicon, grid: Grid, around: list[Path], min_length: int
) -> list[str]:
    """Words of the lexicon the grid could spell: right length, letters held by the grid (with
    counts), and every pair of consecutive letters found inside a cell or across adjacent cells."""
    available = Counter("".join(grid.cells))
    pairs = {cell[i : i + 2] for cell in grid.cells for i in range(len(cell) - 1)}
    pairs |= {
        grid.cells[a][-1] + grid.cells[b][0] for a in range(len(grid.cells)) for b in around[a]
    }
    return letter_table(lexicon).within(available, 0, min_length, sum(available.values()), pairs)


class LetterTable:
    """Every word of a lexicon as letter codes, to filter all of them at once.

    The brute-force oracles test *every* word of the lexicon; in plain Python that is seconds per
    case for millions of words. Each word's set of letters, as a bitmask, makes the first test
    (could the grid or rack hold the word's letters?) one vectorized comparison; the few percent
    of words that pass have their letters counted, and only the survivors of that are traced one
    by one.
    """

    CHUNK = 1 << 16  # words turned into bitmasks at once: bounds the temporary arrays

    def __init__(self, lexicon: Lexicon) -> None:
        self.text = _word_lines(lexicon)
        self.letters = graph_letters(lexicon.language.alphabet)
        width = len(self.letters)
        try:  # a byte a character where the letters allow it: a quarter of the memory
            points = np.frombuffer(self.text.encode("latin-1"), dtype=np.uint8)
        except UnicodeEncodeError:
            points = np.frombuffer(self.text.encode("utf-32-le"), dtype=np.uint32)
        lookup = np.full(max(map(ord, self.letters)) + 1, width, dtype=np.uint8)  # width: "\n"
        lookup[[ord(letter) for letter in self.letters]] = np.arange(width)
        self.codes = lookup[points]
        ends = np.flatnonzero(points == ord("\n"))
        self.starts = np.zeros_like(ends)
        self.starts[1:] = ends[:-1] + 1
        self.lengths = ends - self.starts
        bits = np.append(np.uint64(1) << np.arange(width, dtype=np.uint64), np.uint64(0))
        self.masks = np.empty(len(self.starts), dtype=np.uint64)  # bit i: holds self.letters[i]
        for first in range(0, len(self.starts), self.CHUNK):
            starts = self.starts[first : first + self.CHUNK]
            end = ends[first + len(starts) - 1]
            self.masks[first : first + len(starts)] = np.bitwise_or.reduceat(
                bits[self.codes[starts[0] : end]], starts - starts[0]
            )

    def within(
        self,
        available: Counter[str],
        spare: int,
        shortest: int,
        longest: int,
        pairs: set[str] | None = None,
    ) -> list[str]:
        """Words of ``shortest``..``longest`` letters that ``available`` letters spell, with at
        most ``spare`` letters (jokers) missing, in code-point order; with ``pairs`` (two-letter
        strings), only those whose every two consecutive letters are one of them."""
        held = sum(1 << i for i, letter in enumerate(self.letters) if available.get(letter, 0))
        # A word lacking k distinct letters misses at least k: only those with k <= spare can.
        lacking = np.bitwise_count(self.masks & np.uint64(~held & (1 << 64) - 1))
        length_ok = (self.lengths >= shortest) & (self.lengths <= longest)
        rows = np.flatnonzero((lacking <= spare) & length_ok)
        starts, lengths = self.starts[rows], self.lengths[rows]
        # Their letters' codes, one row after the other: the letter counts of each row.
        firsts = np.cumsum(lengths) - lengths
        positions = np.arange(int(lengths.sum())) + (starts - firsts).repeat(lengths)
        width = len(self.letters)
        owner = np.arange(len(rows), dtype=np.int64).repeat(lengths)
        counts = np.bincount(owner * width + self.codes[positions], minlength=len(rows) * width)
        counts = counts.astype(np.uint8).reshape(len(rows), width)  # words: 64 letters at most
        # Capping what is available at 255 changes nothing and keeps the arithmetic in bytes:
        # max(count, cap) - cap is the count missing.
        cap = np.array([min(available.get(letter, 0), 255) for letter in self.letters], np.uint8)
        missing = (np.maximum(counts, cap) - cap).sum(axis=1, dtype=np.int64)
        keep = missing <= spare
        if pairs is not None:
            # Each letter with the code after it, the last one with the newline (code width),
            # which every letter may precede.
            allowed = np.zeros((width + 1, width + 1), dtype=bool)
            allowed[:, width] = True
            code = {letter: i for i, letter in enumerate(self.letters)}
            for pair in pairs:
                if pair[0] in code and pair[1] in code:
                    allowed[code[pair[0]], code[pair[1]]] = True
            broken = ~allowed[self.codes[positions], self.codes[positions + 1]]
            keep &= np.bincount(owner[broken], minlength=len(rows)) == 0
        return [
            self.text[start : start + length]
            for start, length in zip(starts[keep].tolist(), lengths[keep].tolist(), strict=True)
        ]


def _word_lines(lexicon: Lexicon) -> str:
    """The lexicon's words, one per line in code-point order: its ``words.txt`` as built, or its
    trie's keys."""
    if lexicon.path is not None and (lexicon.path / "words.txt").is_file():
        return (lexicon.path / "words.txt").read_text(encoding="utf-8")
    return "".join(word + "\n" for word in sorted(lexicon.words.iterkeys()))


@lru_cache(maxsize=4)
def letter_table(lexicon: Lexicon) -> LetterTable:
    return LetterTable(lexicon)


def _paths_spelling(word: str, grid: Grid, index: CellIndex) -> list[Path]:
    """Every path of distinct adjacent cells whose letters are exactly ``word``, depth-first
    (``index``: the grid's cells and each cell's neighbours by first letter)."""
    cells = grid.cells
    paths: list[Path] = []
    starts, steps = index

    def match(path: Path, position: int) -> None:
        if position == len(word):
            paths.append(path)
            return
        following = steps[path[-1]] if path else starts
        for cell in following.get(word[position], ()):
            letters = cells[cell]
            if cell not in path and word.startswith(letters, position):
                match((*path, cell), position + len(letters))

    match((), 0)
    return paths


CellIndex = tuple[dict[str, list[int]], list[dict[str, list[int]]]]


def cells_by_first_letter(grid: Grid, around: list[Path]) -> CellIndex:
    """The grid's cells by the first letter they hold; and each cell's neighbours so."""

    def by_first_letter(cells: Iterable[int]) -> dict[str, list[int]]:
        grouped: dict[str, list[int]] = {}
        for cell in cells:
            grouped.setdefault(grid.cells[cell][0], []).append(cell)
        return grouped

    return by_first_letter(range(len(grid.cells))), [by_first_letter(a) for a in around]


def _values(lexicon: Lexicon, board: Grid, values: dict[str, int] | None) -> dict[str, int]:
    values = lexicon.language.ruzzle_values if values is None else values
    check_values(board, values, lexicon.language.code)
    return values


def _coords(grid: Grid, path: Path) -> tuple[tuple[int, ...], ...]:
    return tuple(cell_position(grid.shape, cell) for cell in path)


def _boggle_words(grid: Grid, paths: dict[str, Path]) -> list[BoggleWord]:
    words = [BoggleWord(w, _coords(grid, p), boggle_score(w)) for w, p in paths.items()]
    return sorted(words, key=lambda w: (-len(w.word), w.word))


def _ruzzle_words(board: Grid, best: dict[str, tuple[int, Path]]) -> list[RuzzleWord]:
    words = [RuzzleWord(w, score, _coords(board, p)) for w, (score, p) in best.items()]
    return sort_words(words, "score")


def rack_brute_force(lexicon: Lexicon, rack_text: str) -> list[Match]:
    """Racks by testing every word of the lexicon: the letters it needs beyond the rack must be
    no more than the jokers (they are then exactly what the jokers stand for)."""
    rack = parse_rack(rack_text, lexicon)
    language = lexicon.language
    values = language.tile_values
    longest = min(language.max_length, rack.size)
    matches = []
    for word in letter_table(lexicon).within(
        rack.letters, rack.jokers, language.min_length, longest
    ):
        jokers = "".join(sorted((Counter(word) - rack.letters).elements()))
        score = sum(values.get(c, 0) for c in word) - sum(values.get(c, 0) for c in jokers)
        matches.append(Match(word, show_jokers(word, jokers), score))
    return sorted(matches, key=lambda m: (-len(m.word), m.word))


def scrabble_brute_force(lexicon: Lexicon, board: Board, rack_text: str) -> list[Move]:
    """Scrabble moves by placing every word the rack and the board's letters could spell at
    every position and direction, with every choice of the tiles blanks stand for, keeping the
    legal plays (they touch a tile, or cover the start square on an empty board; every word
    they form is in the lexicon), each scored on the board it leaves."""
    language = lexicon.language
    rack = parse_rack(rack_text, lexicon, max_jokers=language.blanks)
    rows, cols = board.rows, board.cols

    def tile(r: int, c: int) -> str:
        return board.tiles[r * cols + c] if 0 <= r < rows and 0 <= c < cols else ""

    on_board = Counter(letter for letter in board.tiles if letter)
    candidates = letter_table(lexicon).within(
        rack.letters + on_board, rack.jokers, language.min_length, max(rows, cols)
    )
    moves: dict[tuple, Move] = {}
    for across in (True, False):
        for word in candidates:
            for cells in _free_runs(rows, cols, len(word), across, tile):
                squares = list(zip(cells, word, strict=True))
                if any(tile(*cell) not in ("", letter) for cell, letter in squares):
                    continue
                new = [(cell, letter) for cell, letter in squares if not tile(*cell)]
                if not new or not _touches(board, [cell for cell, _ in new], tile):
                    continue
                for placed in _rack_tiles(new, rack.letters, rack.jokers):
                    move = _scored_move(lexicon, board, placed, across)
                    if move is not None:
                        moves.setdefault(tuple(sorted(move.placed)), move)
    return best_first(moves.values())


def _free_runs(rows: int, cols: int, length: int, across: bool, tile) -> Iterator[list]:
    """The squares of every run of ``length`` along the direction with no tile just before or
    just after it."""
    dr, dc = (0, 1) if across else (1, 0)
    for r in range(rows - dr * (length - 1)):
        for c in range(cols - dc * (length - 1)):
            if not tile(r - dr, c - dc) and not tile(r + length * dr, c + length * dc):
                yield [(r + i * dr, c + i * dc) for i in range(length)]


def _touches(board: Board, cells: list[tuple[int, int]], tile) -> bool:
    """A play must touch a tile; the first one must cover the start square."""
    if not any(board.tiles):
        return board.layout.start in {r * board.cols + c for r, c in cells}
    return any(
        tile(r + dr, c + dc) for r, c in cells for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
    )


def _rack_tiles(
    new: list[tuple[tuple[int, int], str]], letters: Counter[str], jokers: int
) -> Iterator[list[tuple[int, int, str]]]:
    """Every way of playing the ``new`` letters from the rack: blanks (lowercase) for any
    subset of them that leaves the rest to the rack's letters."""
    for count in range(min(jokers, len(new)) + 1):
        for by_blank in combinations(range(len(new)), count):
            rest = Counter(letter for i, (_, letter) in enumerate(new) if i not in by_blank)
            if not rest - letters:
                yield [
                    (r, c, letter.lower() if i in by_blank else letter)
                    for i, ((r, c), letter) in enumerate(new)
                ]


def _scored_move(
    lexicon: Lexicon, board: Board, placed: list[tuple[int, int, str]], across: bool
) -> Move | None:
    """The move of ``placed`` with its score, from the words on the board it leaves; None if
    one of those words is not in the lexicon."""
    rows, cols, layout = board.rows, board.cols, board.layout
    after = place(board, placed)
    new = {r * cols + c for r, c, _ in placed}

    def filled(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and after.tiles[r * cols + c] != ""

    def run_through(r: int, c: int, dr: int, dc: int) -> list[int]:
        """The squares of the maximal run of tiles through (r, c) along (dr, dc)."""
        while filled(r - dr, c - dc):
            r, c = r - dr, c - dc
        run = []
        while filled(r, c):
            run.append(r * cols + c)
            r, c = r + dr, c + dc
        return run

    def score(run: list[int]) -> int:
        total, multiplier = 0, 1
        for square in run:
            value = lexicon.language.tile_values.get(after.tiles[square], 0)
            if square in after.blanks:
                value = 0
            if square in new:
                value *= layout.letter_mult(square)
                multiplier *= layout.word_mult(square)
            total += value
        return total * multiplier

    dr, dc = (0, 1) if across else (1, 0)
    main = run_through(placed[0][0], placed[0][1], dr, dc)
    words = [main] + [run for r, c, _ in placed if len(run := run_through(r, c, dc, dr)) > 1]
    if any("".join(after.tiles[square] for square in run) not in lexicon for run in words):
        return None
    total = sum(score(run) for run in words)
    if len(placed) == lexicon.language.rack_size:
        total += lexicon.language.bingo_bonus
    shown = "".join(
        after.tiles[square].lower() if square in after.blanks else after.tiles[square]
        for square in main
    )
    row, col = divmod(main[0], cols)
    return Move(shown, row, col, across, total, tuple(placed))


def scrabble_moves_python(lexicon: Lexicon, board: Board, rack_text: str) -> list[Move]:
    """Every legal move, best first, by Appel & Jacobson's algorithm in plain Python: what
    lexforge.scrabble.find_moves returns (see lexforge/scrabble.py's docstring)."""
    rack = parse_scrabble_rack(lexicon, rack_text)
    moves: dict[tuple, Move] = {}
    for across in (True, False):
        direction = _ScrabbleDirection(lexicon, board, across)
        for move in direction.moves(rack.letters, rack.jokers):
            moves.setdefault(tuple(sorted(move.placed)), move)
    return best_first(moves.values())


NO_WORD = 0xFFFFFFFF  # the high half of a node's second word when no word ends there


class _ScrabbleDirection:
    """The board seen along one direction: rows are the lines words run along."""

    def __init__(self, lexicon: Lexicon, board: Board, across: bool) -> None:
        self.nodes = lexicon.word_nodes
        self.letters = graph_letters(lexicon.language.alphabet)
        index = {letter: i for i, letter in enumerate(self.letters)}
        values = lexicon.language.tile_values
        self.values = [values.get(letter, 0) for letter in self.letters]
        self.bingo = (lexicon.language.rack_size, lexicon.language.bingo_bonus)
        self.across = across
        self.rows, self.cols = (board.rows, board.cols) if across else (board.cols, board.rows)
        self.squares = [
            [r * board.cols + c if across else c * board.cols + r for c in range(self.cols)]
            for r in range(self.rows)
        ]
        layout = board.layout
        self.tile = [[index.get(board.tiles[s], -1) for s in line] for line in self.squares]
        self.tile_value = [
            [0 if s in board.blanks else values.get(board.tiles[s], 0) for s in line]
            for line in self.squares
        ]
        self.shown = [
            [board.tiles[s].lower() if s in board.blanks else board.tiles[s] for s in line]
            for line in self.squares
        ]
        self.letter_mult = [[layout.letter_mult(s) for s in line] for line in self.squares]
        self.word_mult = [[layout.word_mult(s) for s in line] for line in self.squares]
        self.empty_board = not any(board.tiles)
        self.start = layout.start

    # --- the letter graph ---

    def child(self, node: int, letter: int) -> int:
        """The node after ``letter``, or -1."""
        mask = self.nodes[2 * node]
        bit = 1 << letter
        if not mask & bit:
            return -1
        return (self.nodes[2 * node + 1] & NO_WORD) + (mask & (bit - 1)).bit_count()

    def is_word(self, node: int) -> bool:
        return self.nodes[2 * node + 1] >> 32 != NO_WORD

    def walk(self, node: int, letters: list[int]) -> int:
        for letter in letters:
            node = self.child(node, letter)
            if node < 0:
                break
        return node

    # --- the board ---

    def is_anchor(self, r: int, c: int) -> bool:
        if self.tile[r][c] >= 0:
            return False
        if self.empty_board:
            return self.squares[r][c] == self.start
        return any(
            0 <= rr < self.rows and 0 <= cc < self.cols and self.tile[rr][cc] >= 0
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        )

    def perpendicular(self, r: int, c: int) -> tuple[list[int], list[int], int] | None:
        """The tiles above and below the empty square (r, c), and their value; None if none."""
        top = r
        while top > 0 and self.tile[top - 1][c] >= 0:
            top -= 1
        bottom = r
        while bottom + 1 < self.rows and self.tile[bottom + 1][c] >= 0:
            bottom += 1
        if top == bottom:
            return None
        above = [self.tile[i][c] for i in range(top, r)]
        below = [self.tile[i][c] for i in range(r + 1, bottom + 1)]
        value = sum(self.tile_value[i][c] for i in range(top, bottom + 1) if i != r)
        return above, below, value

    def cross_check(self, r: int, c: int) -> tuple[int, int | None]:
        """(mask of the letters allowed on the empty square (r, c), value of the tiles of its
        cross word, or None when it has none)."""
        around = self.perpendicular(r, c)
        if around is None:
            return (1 << len(self.letters)) - 1, None
        above, below, value = around
        node = self.walk(ROOT, above)
        allowed = 0
        if node >= 0:
            for letter in range(len(self.letters)):
                child = self.child(node, letter)
                if child >= 0:
                    end = self.walk(child, below)
                    if end >= 0 and self.is_word(end):
                        allowed |= 1 << letter
        return allowed, value

    # --- the search ---

    def moves(self, rack: dict[str, int], blanks: int) -> Iterator[Move]:
        counts = [rack.get(letter, 0) for letter in self.letters]
        for r in range(self.rows):
            line = _ScrabbleLine(self, r, counts, blanks)
            yield from line.moves()


class _ScrabbleLine:
    """The search along one row of a direction (Appel & Jacobson's LeftPart/ExtendRight)."""

    def __init__(
        self, direction: _ScrabbleDirection, r: int, counts: list[int], blanks: int
    ) -> None:
        self.d = direction
        self.r = r
        self.counts = counts
        self.blanks = blanks
        self.tile = direction.tile[r]
        cols = direction.cols
        self.anchor = [direction.is_anchor(r, c) for c in range(cols)]
        self.allowed: list[int] = [0] * cols
        self.cross_value: list[int | None] = [None] * cols
        for c in range(cols):
            if self.tile[c] < 0:
                self.allowed[c], self.cross_value[c] = direction.cross_check(r, c)
        self.found: list[Move] = []

    def moves(self) -> list[Move]:
        tile = self.tile
        for c, is_anchor in enumerate(self.anchor):
            if not is_anchor:
                continue
            if c > 0 and tile[c - 1] >= 0:  # the tiles left of the anchor start the word
                start = c - 1
                while start > 0 and tile[start - 1] >= 0:
                    start -= 1
                node = self.d.walk(ROOT, tile[start:c])
                if node >= 0:
                    self.extend(node, c, c, start, [])
            else:
                limit = 0  # empty non-anchor squares before the anchor
                while c > limit and tile[c - limit - 1] < 0 and not self.anchor[c - limit - 1]:
                    limit += 1
                self.left_part(ROOT, c, limit, [])
        return self.found

    def use_tiles(self, letter: int) -> Iterator[bool]:
        """Take a rack tile for ``letter`` (then a blank, if any) for the caller's branch:
        yields whether it is a blank, and puts it back after."""
        if self.counts[letter]:
            self.counts[letter] -= 1
            yield False
            self.counts[letter] += 1
        if self.blanks:
            self.blanks -= 1
            yield True
            self.blanks += 1

    def left_part(self, node: int, anchor: int, limit: int, part: list[tuple[int, bool]]) -> None:
        """Every left part of up to ``limit`` rack tiles before ``anchor``, each extended."""
        start = anchor - len(part)
        placed = [(start + i, letter, blank) for i, (letter, blank) in enumerate(part)]
        self.extend(node, anchor, anchor, start, placed)
        if limit == 0:
            return
        mask = self.d.nodes[2 * node]
        while mask:
            bit = mask & -mask
            mask ^= bit
            letter = bit.bit_length() - 1
            child = self.d.child(node, letter)
            for blank in self.use_tiles(letter):
                part.append((letter, blank))
                self.left_part(child, anchor, limit - 1, part)
                part.pop()

    def extend(
        self, node: int, col: int, anchor: int, start: int, placed: list[tuple[int, int, bool]]
    ) -> None:
        """Grow the word from ``col`` rightwards; record it wherever it may end. ``placed``:
        the rack tiles laid so far, as (column, letter, is a blank)."""
        d = self.d
        if col == d.cols:
            if col > anchor and d.is_word(node):
                self.record(start, col, placed)
            return
        if self.tile[col] >= 0:
            child = d.child(node, self.tile[col])
            if child >= 0:
                self.extend(child, col + 1, anchor, start, placed)
            return
        if col > anchor and d.is_word(node):
            self.record(start, col, placed)
        candidates = d.nodes[2 * node] & self.allowed[col]
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            letter = bit.bit_length() - 1
            child = d.child(node, letter)
            for blank in self.use_tiles(letter):
                placed.append((col, letter, blank))
                self.extend(child, col + 1, anchor, start, placed)
                placed.pop()

    def record(self, start: int, end: int, placed: list[tuple[int, int, bool]]) -> None:
        """Score the word from ``start`` to ``end`` (excluded) with the rack tiles ``placed``."""
        d, r = self.d, self.r
        new = {col: (letter, blank) for col, letter, blank in placed}
        main = 0
        word_mult = 1
        crosses = 0
        word = []
        for col in range(start, end):
            if col not in new:
                main += d.tile_value[r][col]
                word.append(d.shown[r][col])
                continue
            letter, blank = new[col]
            value = 0 if blank else d.values[letter] * d.letter_mult[r][col]
            main += value
            word_mult *= d.word_mult[r][col]
            if self.cross_value[col] is not None:
                crosses += (self.cross_value[col] + value) * d.word_mult[r][col]
            word.append(d.letters[letter].lower() if blank else d.letters[letter])
        rack_size, bingo = d.bingo
        score = main * word_mult + crosses + (bingo if len(new) == rack_size else 0)
        tiles = []
        for col, letter, blank in placed:
            shown = d.letters[letter].lower() if blank else d.letters[letter]
            tiles.append((r, col, shown) if d.across else (col, r, shown))
        row, column = (r, start) if d.across else (start, r)
        self.found.append(Move("".join(word), row, column, d.across, score, tuple(tiles)))


def endgame_value(lexicon: Lexicon, board: Board, rack: str, other: str, scoreless: int = 0) -> int:
    """The endgame's exact value for the player holding ``rack`` (lexforge.endgame): plain
    minimax over every play and the pass, to the end of every line — no pruning, no table,
    no move order — with the game's end rules written out again."""
    from lexforge.scrabble import find_moves

    values = lexicon.language.tile_values

    def points(tiles: str) -> int:
        return sum(values.get(t, 0) for t in tiles if t != "?")

    def left_after(tiles: str, move: Move) -> str:
        held = Counter(tiles)
        held.subtract("?" if letter.islower() else letter for _, _, letter in move.placed)
        return "".join(sorted(held.elements()))

    def value(board: Board, mine: str, theirs: str, streak: int) -> int:
        options = []
        for move in [*find_moves(lexicon, board, mine), None]:  # None: a pass
            score = move.score if move else 0
            left = left_after(mine, move) if move else mine
            run = 0 if score else streak + 1
            if not left:
                options.append(score + 2 * points(theirs))
            elif run >= 6:
                options.append(score + points(theirs) - points(left))
            else:
                after = place(board, move.placed) if move else board
                options.append(score - value(after, theirs, left, run))
        return max(options)

    return value(board, rack, other, scoreless)
