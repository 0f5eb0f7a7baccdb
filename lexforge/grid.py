"""Letter grids for Boggle/Worddle and Ruzzle boards: the model, the text format, adjacency.

Board text format (elzzur's, extended):

* rows are lines; several grids in one text are separated by blank lines;
* a line holding ``/`` is a whole grid by itself, its rows separated by ``/`` (empty parts are
  ignored: ``A B C/`` is a one-row grid), so a batch can hold one grid per line;
* a grid written on one line without ``/`` is square: N² cells are read as N×N, row by row
  (``perslatgsineters`` is a 4×4 grid); any other count of cells on one line is an error;
* cells are separated by whitespace (several spaces count as one). A row without whitespace
  and longer than one character is one letter per cell, except ``Qu`` (Q + lowercase u),
  which is one cell: ``QuIT`` = ``Qu I T``;
* a spaced cell may hold several letters (``Qu``, ``Th``, ``In``…, at most 4): the cell matches
  them all in sequence and each counts as a letter for length and score;
* letters are folded like the lexicon's words (``é`` → ``E``, ``ß`` → ``SS``);
* with ``multipliers=True`` (Ruzzle) a spaced cell may end with ``dl``/``tl`` (double/triple
  letter) and/or ``dw``/``tw`` (double/triple word): ``Ttl R S Ndl``. A row without spaces
  carries no suffixes;
* with ``size=N`` (Worddle ``-s N``) the text is a whitespace-separated stream of cells, N×N per
  grid, whatever the line breaks.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.text import fold_word

# A board is something a person types or a generator writes: anything wider or taller than
# 64 cells is almost surely the wrong file (a word list, a log) and would only make the search
# and its output needlessly large; the compiled search itself has no smaller limit.
MAX_SIDE = 64
# Real dice hold one or two letters (Qu, Th, In…); a longer "cell" is a typo or a word.
MAX_CELL_LETTERS = 4

LETTER_MULTIPLIERS = {"dl": 2, "tl": 3}
WORD_MULTIPLIERS = {"dw": 2, "tw": 3}
_LETTER_SUFFIX = {value: name for name, value in LETTER_MULTIPLIERS.items()}
_WORD_SUFFIX = {value: name for name, value in WORD_MULTIPLIERS.items()}
_COMPACT_CELL = re.compile(r"Qu|.")


@dataclass(frozen=True)
class Grid:
    """A rows×cols grid, row-major; multipliers are all 1 for Boggle."""

    rows: int
    cols: int
    cells: tuple[str, ...]  # row-major; each cell 1+ uppercase alphabet letters, e.g. "QU"
    letter_mult: tuple[int, ...]  # 1, 2 (dl) or 3 (tl) per cell
    word_mult: tuple[int, ...]  # 1, 2 (dw) or 3 (tw) per cell

    @classmethod
    def from_rows(cls, rows: list[list[str]]) -> Grid:
        """A grid without multipliers from rows of already-folded cells (for code and tests)."""
        cells = tuple(cell for row in rows for cell in row)
        ones = (1,) * len(cells)
        return cls(len(rows), len(rows[0]) if rows else 0, cells, ones, ones)

    def coords(self, index: int) -> tuple[int, int]:
        """(row, col) of a cell index."""
        return divmod(index, self.cols)


def parse_grids(
    text: str,
    language: Language,
    *,
    source: str = "<stdin>",
    multipliers: bool = False,
    size: int | None = None,
) -> list[Grid]:
    """Parse every grid of ``text`` (see the module docstring); UserError on bad input."""
    if size is not None:
        return _parse_sized(text, language, source, multipliers, size)
    blocks: list[tuple[list[str], bool]] = [([], False)]  # (rows, written with "/")
    for line in text.splitlines():
        if "/" in line:
            blocks += [([part for part in line.split("/") if part.strip()], True), ([], False)]
        elif line.strip():
            blocks[-1][0].append(line)
        elif blocks[-1][0]:
            blocks.append(([], False))
    blocks = [block for block in blocks if block[0]]
    if not blocks:
        raise UserError(f"{source}: empty grid: expected rows of letters, e.g. 'A B C D'")
    return [
        _parse_block(lines, language, f"{source}: grid {number}", multipliers, slashed)
        for number, (lines, slashed) in enumerate(blocks, start=1)
    ]


def _parse_block(
    lines: list[str], language: Language, where: str, multipliers: bool, slashed: bool
) -> Grid:
    rows: list[list[tuple[str, int, int]]] = []
    for number, line in enumerate(lines, start=1):
        at = f"{where}, row {number}"
        tokens = line.split()
        if len(tokens) == 1 and len(tokens[0]) > 1:
            tokens = _COMPACT_CELL.findall(tokens[0])
            row = [_parse_cell(token, language, at, multipliers=False) for token in tokens]
        else:
            row = [_parse_cell(token, language, at, multipliers) for token in tokens]
        if rows and len(row) != len(rows[0]):
            raise UserError(
                f"{at}: ragged row: {_cells(len(row))} where row 1 has {_cells(len(rows[0]))}; "
                "every row needs the same number of cells"
            )
        rows.append(row)
    if len(rows) == 1 and not slashed and len(rows[0]) > 1:
        rows = _square(rows[0], where)
    _check_size(len(rows), len(rows[0]), where)
    return _grid(len(rows), len(rows[0]), [cell for row in rows for cell in row], where)


def _parse_sized(
    text: str, language: Language, source: str, multipliers: bool, size: int
) -> list[Grid]:
    if size < 1:
        raise UserError(f"{source}: grid size {size}: expected a positive size")
    _check_size(size, size, source)
    tokens = text.split()
    per_grid = size * size
    if not tokens or len(tokens) % per_grid:
        raise UserError(
            f"{source}: {_cells(len(tokens))} for grids of size {size}: expected a multiple of "
            f"{per_grid} ({size}×{size}) separated by spaces or newlines"
        )
    grids = []
    for start in range(0, len(tokens), per_grid):
        number = start // per_grid + 1
        cells = [
            _parse_cell(
                token, language, f"{source}: grid {number}, row {i // size + 1}", multipliers
            )
            for i, token in enumerate(tokens[start : start + per_grid])
        ]
        grids.append(_grid(size, size, cells, f"{source}: grid {number}"))
    return grids


def _square(cells: list[tuple[str, int, int]], where: str) -> list[list[tuple[str, int, int]]]:
    """The cells of a grid written on one line, as the rows of a square grid."""
    side = math.isqrt(len(cells))
    if side * side != len(cells):
        raise UserError(
            f"{where}: one line of {_cells(len(cells))} is not a square grid; put each row on "
            "its own line or separate rows with '/' (e.g. 'A B C/D E F')"
        )
    return [cells[start : start + side] for start in range(0, len(cells), side)]


def _cells(count: int) -> str:
    return f"{count} cell" if count == 1 else f"{count} cells"


def _check_size(rows: int, cols: int, where: str) -> None:
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise UserError(
            f"{where}: grid of {rows}×{cols} cells is too large (at most {MAX_SIDE}×{MAX_SIDE}); "
            "is this really a board file?"
        )


def compact_cell(letters: str) -> bool:
    """Whether a cell is written without spaces around it: one letter, or Qu. Only such cells
    and no multipliers fit a one-column grid (whose one-cell rows are read a letter a cell)."""
    return len(letters) == 1 or letters == "QU"


def _grid(rows: int, cols: int, cells: list[tuple[str, int, int]], where: str) -> Grid:
    """The grid of these cells; UserError for a one-column grid the board format cannot write
    back (see ``format_grid``): a multi-letter cell other than Qu, or a multiplier."""
    if cols == 1:
        for letters, letter_mult, word_mult in cells:
            if not compact_cell(letters) or (letter_mult, word_mult) != (1, 1):
                raise UserError(
                    f"{where}: a one-column grid cannot hold the cell {letters!r}"
                    f"{' with a multiplier' if (letter_mult, word_mult) != (1, 1) else ''} "
                    "(the board format reads a one-cell row as single letters); use two columns"
                )
    return Grid(
        rows,
        cols,
        tuple(letters for letters, _, _ in cells),
        tuple(letter_mult for _, letter_mult, _ in cells),
        tuple(word_mult for _, _, word_mult in cells),
    )


def _parse_cell(
    token: str, language: Language, where: str, multipliers: bool
) -> tuple[str, int, int]:
    """One cell token → (folded letters, letter multiplier, word multiplier)."""
    letters, letter_mult, word_mult = token, 1, 1
    if multipliers:
        # The letters are the leading capitals (at least one character); a lowercase tail is
        # the rest of a die such as "Qu", then up to two suffixes (one letter, one word booster).
        head = 1
        while head < len(token) and not token[head].islower():
            head += 1
        tail = rest = token[head:]
        while len(tail) >= 2 and tail[-2:] in LETTER_MULTIPLIERS | WORD_MULTIPLIERS:
            suffix, tail = tail[-2:], tail[:-2]
            letter_mult *= LETTER_MULTIPLIERS.get(suffix, 1)
            word_mult *= WORD_MULTIPLIERS.get(suffix, 1)
        if len(tail) > 1 or letter_mult > 3 or word_mult > 3:
            raise UserError(
                f"{where}: cell {token!r}: unknown multiplier suffix {rest!r}; "
                "use one of dl, tl (letter) and/or one of dw, tw (word)"
            )
        letters = token[:head] + tail
    folded = fold_word(letters, language)
    unknown = "".join(c for c in folded if c not in language.alphabet)
    if unknown or not folded:
        what = f"unknown letter {unknown[0]!r}" if unknown else "no letter"
        raise UserError(
            f"{where}: cell {token!r}: {what} (the {language.name} alphabet is {language.alphabet})"
        )
    if len(folded) > MAX_CELL_LETTERS:
        raise UserError(
            f"{where}: cell {token!r} holds {len(folded)} letters (at most {MAX_CELL_LETTERS}); "
            "separate cells with spaces"
        )
    return folded, letter_mult, word_mult


def format_grid(grid: Grid) -> str:
    """The grid as board text that ``parse_grids`` reads back (suffixes only when needed).

    ValueError for a one-column grid with a multi-letter cell other than Qu, or a multiplier:
    the format reads a row without spaces one letter per cell, so it cannot hold them.
    """
    with_mults = any(m != 1 for m in grid.letter_mult + grid.word_mult)
    if grid.cols == 1 and (with_mults or not all(map(compact_cell, grid.cells))):
        raise ValueError(
            "a one-column grid with multipliers or multi-letter cells has no text form"
        )
    cells = []
    for letters, letter_mult, word_mult in zip(
        grid.cells, grid.letter_mult, grid.word_mult, strict=True
    ):
        cell = letters[0] + letters[1:].lower()  # "Qu", "Th" as the dice show them
        if with_mults:
            cell += _LETTER_SUFFIX.get(letter_mult, "") + _WORD_SUFFIX.get(word_mult, "")
        cells.append(cell)
    width = max(map(len, cells), default=1)
    lines = []
    for row in range(grid.rows):
        line = cells[row * grid.cols : (row + 1) * grid.cols]
        lines.append(" ".join(cell.ljust(width) for cell in line).rstrip())
    if grid.rows == 1 and grid.cols > 1:  # one line without "/" would be read as a square
        lines[0] += "/"
    return "\n".join(lines) + "\n"


def format_grid_line(grid: Grid) -> str:
    """The grid on one line, rows separated by ``/`` (``parse_grids`` reads it back): letters
    run together when every cell is one letter or Qu, without multipliers, else spaced."""
    compact = all(map(compact_cell, grid.cells)) and not any(
        m != 1 for m in grid.letter_mult + grid.word_mult
    )
    if not compact:
        return "/".join(" ".join(line.split()) for line in format_grid(grid).splitlines())
    cells = [c[0] + c[1:].lower() for c in grid.cells]
    rows = ["".join(cells[r * grid.cols : (r + 1) * grid.cols]) for r in range(grid.rows)]
    return "/".join(rows) + ("/" if grid.rows == 1 and grid.cols > 1 else "")


def neighbours(grid: Grid, adjacency: int = 8) -> list[tuple[int, ...]]:
    """Neighbour cell indices of each cell, ascending: 8 (king moves) or 4 (rook steps) of them."""
    return list(adjacent_cells(grid.rows, grid.cols, adjacency))


@lru_cache(maxsize=64)
def adjacent_cells(rows: int, cols: int, adjacency: int = 8) -> tuple[tuple[int, ...], ...]:
    """``neighbours`` of any rows×cols grid (cached: boards of one shape share it)."""
    if adjacency not in (4, 8):
        raise UserError(f"adjacency {adjacency}: expected 4 or 8")
    result = []
    for row in range(rows):
        for col in range(cols):
            around = []
            for r in range(max(row - 1, 0), min(row + 2, rows)):
                for c in range(max(col - 1, 0), min(col + 2, cols)):
                    diagonal = r != row and c != col
                    if (r, c) != (row, col) and (adjacency == 8 or not diagonal):
                        around.append(r * cols + c)
            result.append(tuple(around))
    return tuple(result)
