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
* a cell may hold a multi-letter tile written as in racks and Scrabble boards, ``[CH]`` or
  ``[L·L]`` (also inside a row without spaces: ``A[L·L]BE``): in a lexicon that stores words
  as tiles (``tile_symbols``) it is that tile, as is a spaced cell spelling one (``NY``) and a
  typed tile symbol; elsewhere it is its letters, as a Qu die. A typed letter that is a tile of
  the language's set but no letter of the lexicon, and that folding would only transliterate
  (Bambara Ɲ in a lexicon without it), is refused rather than read as another letter;
* with ``multipliers=True`` (Ruzzle) a spaced cell may end with ``dl``/``tl`` (double/triple
  letter) and/or ``dw``/``tw`` (double/triple word): ``Ttl R S Ndl``. A row without spaces
  carries no suffixes;
* with ``size=N`` (Worddle ``-s N``) the text is a whitespace-separated stream of cells, N×N per
  grid, whatever the line breaks.

n-dimensional grids (a 4×4×4 cube, a 3×3×3×3 hypercube) are 2-D layers of the same size:

* written over several lines, layers are separated by a line ``---``, 3-D blocks (of a 4-D grid)
  by a line ``===``; blank lines around a separator are ignored. Each layer is read like a 2-D
  grid (one line without spaces: a square);
* on one line, rows are separated by ``/``, layers by ``|``, 3-D blocks by ``||``
  (``AB/CD|EF/GH`` is a 2×2×2 cube; a one-row layer ends with ``/``);
* with ``shape=(4, 4, 4)`` (``--shape 4x4x4``) the text is a stream of cells, the product of the
  sides per grid: each line is a row of the format (spaced cells, or letters run together),
  whatever the line breaks (``--shape 4x4x4`` and 64 letters); a 1-D shape ``N`` is one row,
  and leading sides of 1 are dropped (``1x4x4`` is a 4×4 grid).

A cell's neighbours are the cells whose every coordinate differs by at most one (adjacency 8:
3ⁿ − 1 of them inside the grid) or the 2n steps along one axis (adjacency 4). A grid is at most
``MAX_SIDE`` cells along any side, ``MAX_CELLS`` cells and ``MAX_DIMS`` dimensions.
"""

from __future__ import annotations

import itertools
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from lexforge.errors import UserError, excerpt
from lexforge.language import Language
from lexforge.text import fold_tiles, fold_word

# A board is something a person types or a generator writes: anything wider or taller than
# 64 cells is almost surely the wrong file (a word list, a log) and would only make the search
# and its output needlessly large; the compiled search itself has no smaller limit.
MAX_SIDE = 64
# n-D grids get the cells of the largest 2-D board. A cell has up to 3ⁿ − 1 neighbours and the
# search walks every path spelling a prefix, which multiply with them: with en, a 4×4×4 board
# takes 0.05–0.2 s, a 3×3×3×3 one (80 neighbours) 9–80 s, and a 3×3×3×3×3 one (242) did not end
# in 2 minutes. Hence at most 4 dimensions.
MAX_CELLS = MAX_SIDE * MAX_SIDE
MAX_DIMS = 4
# Real dice hold one or two letters (Qu, Th, In…); a longer "cell" is a typo or a word.
MAX_CELL_LETTERS = 4

LETTER_MULTIPLIERS = {"dl": 2, "tl": 3}
WORD_MULTIPLIERS = {"dw": 2, "tw": 3}
_LETTER_SUFFIX = {value: name for name, value in LETTER_MULTIPLIERS.items()}
_WORD_SUFFIX = {value: name for name, value in WORD_MULTIPLIERS.items()}
_COMPACT_CELL = re.compile(r"\[[^\[\]]*\]|Qu|.")
_LAYER_BARS = re.compile(r"(\|+)")

Cell = tuple[str, int, int]  # folded letters, letter multiplier, word multiplier


@dataclass(frozen=True)
class Grid:
    """A rows×cols grid, row-major; multipliers are all 1 for Boggle. An n-D grid is ``layers``
    (the sizes of its dimensions before the rows, e.g. ``(4,)`` for a 4×4×4 cube) of rows×cols
    grids, its cells in C order (the last coordinate fastest)."""

    rows: int
    cols: int
    cells: tuple[str, ...]  # row-major; each cell 1+ uppercase alphabet letters, e.g. "QU"
    letter_mult: tuple[int, ...]  # 1, 2 (dl) or 3 (tl) per cell
    word_mult: tuple[int, ...]  # 1, 2 (dw) or 3 (tw) per cell
    layers: tuple[int, ...] = ()  # () for a 2-D grid

    @classmethod
    def from_rows(cls, rows: list[list[str]]) -> Grid:
        """A grid without multipliers from rows of already-folded cells (for code and tests)."""
        cells = tuple(cell for row in rows for cell in row)
        ones = (1,) * len(cells)
        return cls(len(rows), len(rows[0]) if rows else 0, cells, ones, ones)

    @classmethod
    def from_cells(cls, shape: tuple[int, ...], cells: tuple[str, ...]) -> Grid:
        """A grid without multipliers of any ``shape`` (see ``normal_shape``) from its folded
        cells in C order."""
        shape = normal_shape(shape)
        ones = (1,) * len(cells)
        return cls(shape[-2], shape[-1], tuple(cells), ones, ones, tuple(shape[:-2]))

    @property
    def shape(self) -> tuple[int, ...]:
        """The sizes of all dimensions: ``(rows, cols)`` for a 2-D grid."""
        return (*self.layers, self.rows, self.cols)

    def coords(self, index: int) -> tuple[int, ...]:
        """(row, col) of a cell index; one coordinate per dimension for an n-D grid."""
        return cell_coords(self.shape)[index]


@lru_cache(maxsize=64)
def cell_coords(shape: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The coordinates of every cell of a grid of ``shape``, in cell order (C order)."""
    return tuple(itertools.product(*map(range, shape)))


def normal_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape a grid is stored with: a 1-D shape ``(n,)`` is one row ``(1, n)``, and leading
    sides of 1 are dropped (a 1×4×4 grid is the 4×4 one: same cells, same neighbours)."""
    shape = (1, *shape) if len(shape) == 1 else tuple(shape)
    while len(shape) > 2 and shape[0] == 1:
        shape = shape[1:]
    return shape


def format_shape(shape: tuple[int, ...]) -> str:
    """``4x4x4``: a shape as ``--shape`` takes it."""
    return "x".join(map(str, shape))


def parse_shape(text: str, where: str = "--shape") -> tuple[int, ...]:
    """The sides of ``4x4x4`` (``×`` or ``X`` also separate them); UserError unless every side is
    a whole number from 1 and the grid is within ``MAX_DIMS``, ``MAX_SIDE`` and ``MAX_CELLS``."""
    parts = re.split(r"[xX×]", text.strip())
    if not all(part.isascii() and part.isdigit() for part in parts):
        raise UserError(
            f"{where} {excerpt(text)!r}: expected sides separated by 'x', e.g. 4x4x4 or 3x3x3x3"
        )
    shape = tuple(int(part) for part in parts)
    check_shape(shape, f"{where} {excerpt(text)!r}")
    return shape


def check_shape(shape: tuple[int, ...], where: str) -> None:
    """UserError for a side below 1 or a grid beyond ``MAX_DIMS``, ``MAX_SIDE`` or ``MAX_CELLS``."""
    if min(shape, default=0) < 1:
        raise UserError(f"{where}: every side must be at least 1")
    if len(shape) > MAX_DIMS:
        raise UserError(f"{where}: {len(shape)} dimensions, at most {MAX_DIMS}")
    if max(shape) > MAX_SIDE or math.prod(shape) > MAX_CELLS:
        raise UserError(
            f"{where}: grid of {math.prod(shape)} cells ({format_shape(shape)}) is too large "
            f"(at most {MAX_SIDE} along a side and {MAX_CELLS} cells); is this really a board?"
        )


def parse_grids(
    text: str,
    language: Language,
    *,
    source: str = "<stdin>",
    multipliers: bool = False,
    size: int | None = None,
    shape: tuple[int, ...] | None = None,
) -> list[Grid]:
    """Parse every grid of ``text`` (see the module docstring); UserError on bad input."""
    if size is not None:
        return _parse_sized(text, language, source, multipliers, size)
    if shape is not None:
        return _parse_shaped(text, language, source, multipliers, shape)
    # Each block: its rows and separator levels (1 for ---/|, 2 for ===/||, …), and whether
    # it was written on one line ("/", "|").
    blocks: list[tuple[list[str | int], bool]] = [([], False)]
    for line in text.splitlines():
        level = _separator_level(line)
        if level:
            if not blocks[-1][0] and len(blocks) > 1 and not blocks[-2][1]:
                blocks.pop()  # a blank line before a separator: the grid goes on
            blocks[-1][0].append(level)
        elif "/" in line or "|" in line:
            blocks += [(_one_line_items(line), True), ([], False)]
        elif line.strip():
            blocks[-1][0].append(line)
        elif blocks[-1][0] and not isinstance(blocks[-1][0][-1], int):
            blocks.append(([], False))
    blocks = [block for block in blocks if block[0]]
    if not blocks:
        raise UserError(f"{source}: empty grid: expected rows of letters, e.g. 'A B C D'")
    return [
        _parse_block(items, language, f"{source}: grid {number}", multipliers, slashed)
        for number, (items, slashed) in enumerate(blocks, start=1)
    ]


def _separator_level(line: str) -> int:
    """1 for a line ``---`` (between layers), 2 for ``===``, 3 for ``====``…; 0 for any other."""
    line = line.strip()
    if line == "---":
        return 1
    return len(line) - 1 if len(line) >= 3 and line == "=" * len(line) else 0


def has_layers(text: str) -> bool:
    """Whether ``text`` holds an n-D grid's layer separators (``---``, ``===``…, ``|``)."""
    return "|" in text or any(map(_separator_level, text.splitlines()))


def _one_line_items(line: str) -> list[str | int]:
    """The rows and separator levels of a grid on one line: rows split at ``/``, ``|`` runs."""
    items: list[str | int] = []
    for part in _LAYER_BARS.split(line):
        if part.startswith("|"):
            items.append(len(part))
        else:
            items += [row for row in part.split("/") if row.strip()]
    return items


def _parse_block(
    items: list[str | int], language: Language, where: str, multipliers: bool, slashed: bool
) -> Grid:
    depth = max((item for item in items if isinstance(item, int)), default=0)
    if depth == 0:
        rows = _parse_rows(items, language, where, multipliers, slashed)
        _check_size(len(rows), len(rows[0]), where)
        return _grid((len(rows), len(rows[0])), [cell for row in rows for cell in row], where)
    if depth + 2 > MAX_DIMS:
        raise UserError(
            f"{where}: a separator of {depth + 2}-D blocks ('{'|' * depth}' or "
            f"'{'=' * (depth + 1)}'), but a grid has at most {MAX_DIMS} dimensions"
        )
    layers, lines = _nest(items, depth, where)
    cells: list[Cell] = []
    first: tuple[int, int] = (0, 0)
    for number, layer_lines in enumerate(lines, start=1):
        at = f"{where}, layer {number}"
        if not layer_lines:
            raise UserError(f"{at}: empty layer: a separator needs rows before and after it")
        rows = _parse_rows(layer_lines, language, at, multipliers, slashed)
        if number == 1:
            first = (len(rows), len(rows[0]))
        elif (len(rows), len(rows[0])) != first:
            raise UserError(
                f"{at}: ragged layers: {len(rows)}×{len(rows[0])} where layer 1 is "
                f"{first[0]}×{first[1]}; every layer needs the same rows and columns"
            )
        cells += [cell for row in rows for cell in row]
    shape = (*layers, *first)
    check_shape(shape, where)
    return _grid(shape, cells, where)


def _nest(items: list[str | int], level: int, where: str) -> tuple[tuple[int, ...], list[list]]:
    """Split ``items`` at separators of ``level`` and below: the sizes of the dimensions before
    the rows, and each layer's rows in order; UserError if blocks hold different numbers."""
    parts: list[list[str | int]] = [[]]
    for item in items:
        if item == level:
            parts.append([])
        else:
            parts[-1].append(item)
    if level == 1:
        return (len(parts),), [list(part) for part in parts]
    shape: tuple[int, ...] | None = None
    lines: list[list] = []
    for number, part in enumerate(parts, start=1):
        inner, part_lines = _nest(part, level - 1, where)
        if shape is not None and inner != shape:
            raise UserError(
                f"{where}: ragged layers: {level + 1}-D block {number} holds "
                f"{format_shape(inner)} layers where block 1 holds {format_shape(shape)}"
            )
        shape = inner
        lines += part_lines
    assert shape is not None
    return (len(parts), *shape), lines


def _parse_rows(
    lines: list, language: Language, where: str, multipliers: bool, slashed: bool
) -> list[list[Cell]]:
    """The cells of a 2-D grid's (or layer's) lines: rows of equal length; one line without
    ``/`` and of several cells is a square."""
    rows: list[list[Cell]] = []
    for number, line in enumerate(lines, start=1):
        at = f"{where}, row {number}"
        row = _parse_row(line, language, at, multipliers)
        if rows and len(row) != len(rows[0]):
            raise UserError(
                f"{at}: ragged row: {_cells(len(row))} where row 1 has {_cells(len(rows[0]))}; "
                "every row needs the same number of cells"
            )
        rows.append(row)
    if len(rows) == 1 and not slashed and len(rows[0]) > 1:
        rows = _square(rows[0], where)
    return rows


def _parse_row(line: str, language: Language, where: str, multipliers: bool) -> list[Cell]:
    """One row: cells separated by whitespace, or one letter a cell (Qu one) without spaces."""
    tokens = line.split()
    if len(tokens) == 1 and len(tokens[0]) > 1:
        return [
            _parse_cell(cell, language, where, False) for cell in _COMPACT_CELL.findall(tokens[0])
        ]
    return [_parse_cell(token, language, where, multipliers) for token in tokens]


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
        grids.append(_grid((size, size), cells, f"{source}: grid {number}"))
    return grids


def _parse_shaped(
    text: str, language: Language, source: str, multipliers: bool, shape: tuple[int, ...]
) -> list[Grid]:
    """Grids of ``shape`` from a stream of cells (each line a row of the format)."""
    check_shape(shape, f"{source}: shape {format_shape(shape)}")
    cells = [
        cell
        for number, line in enumerate(text.splitlines(), start=1)
        for cell in _parse_row(line, language, f"{source}: line {number}", multipliers)
    ]
    per_grid = math.prod(shape)
    if not cells or len(cells) % per_grid:
        raise UserError(
            f"{source}: {_cells(len(cells))} for grids of shape {format_shape(shape)}: expected "
            f"a multiple of {per_grid}"
        )
    return [
        _grid(shape, cells[start : start + per_grid], f"{source}: grid {start // per_grid + 1}")
        for start in range(0, len(cells), per_grid)
    ]


def _square(cells: list[Cell], where: str) -> list[list[Cell]]:
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


def _grid(shape: tuple[int, ...], cells: list[Cell], where: str) -> Grid:
    """The grid of these cells (a 1-D shape is one row); UserError for a one-column grid the
    board format cannot write back (see ``format_grid``): a multi-letter cell other than Qu, or
    a multiplier."""
    shape = normal_shape(shape)
    if shape[-1] == 1:
        for letters, letter_mult, word_mult in cells:
            if not compact_cell(letters) or (letter_mult, word_mult) != (1, 1):
                raise UserError(
                    f"{where}: a one-column grid cannot hold the cell {letters!r}"
                    f"{' with a multiplier' if (letter_mult, word_mult) != (1, 1) else ''} "
                    "(the board format reads a one-cell row as single letters); use two columns"
                )
    return Grid(
        shape[-2],
        shape[-1],
        tuple(letters for letters, _, _ in cells),
        tuple(letter_mult for _, letter_mult, _ in cells),
        tuple(word_mult for _, _, word_mult in cells),
        tuple(shape[:-2]),
    )


def _parse_cell(token: str, language: Language, where: str, multipliers: bool) -> Cell:
    """One cell token → (folded letters, letter multiplier, word multiplier)."""
    letters, letter_mult, word_mult = token, 1, 1
    if multipliers:
        # The letters are the leading capitals (at least one character); a lowercase tail is
        # the rest of a die such as "Qu", then up to two suffixes (one letter, one word booster).
        head = token.find("]") + 1 if token.startswith("[") else 1
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
    try:
        folded = cell_letters(letters, language)
    except UserError as error:
        raise UserError(f"{where}: cell {token!r}: {error}") from None
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


def cell_letters(letters: str, language: Language) -> str:
    """A cell's letters as the lexicon stores them: folded, and in a lexicon of multi-letter
    tiles each tile as its symbol (``[L·L]``, a spelled ``NY``, a typed symbol); a bracketed
    tile elsewhere is its letters. UserError for an unknown bracketed tile or a tile letter the
    lexicon does not hold."""
    for char in letters:
        upper = char.upper()
        if (
            upper in language.tile_counts
            and upper not in language.alphabet
            and not unicodedata.decomposition(upper)
        ):
            raise UserError(
                f"{upper!r} is a {language.name} tile but not a letter of this lexicon "
                f"(whose alphabet is {language.alphabet})"
            )
    if language.tile_symbols:
        return fold_tiles(letters, language, spelled=True)
    if letters.startswith("[") and letters.endswith("]"):
        letters = letters[1:-1]
    return fold_word(letters, language)


def format_grid(grid: Grid) -> str:
    """The grid as board text that ``parse_grids`` reads back (suffixes only when needed); an
    n-D grid as its layers separated by ``---`` (``===``… between blocks), or on one line when
    its layers are one row each.

    ValueError for a one-column grid with a multi-letter cell other than Qu, or a multiplier:
    the format reads a row without spaces one letter per cell, so it cannot hold them.
    """
    with_mults = any(m != 1 for m in grid.letter_mult + grid.word_mult)
    if grid.cols == 1 and (with_mults or not all(map(compact_cell, grid.cells))):
        raise ValueError(
            "a one-column grid with multipliers or multi-letter cells has no text form"
        )
    if grid.layers and grid.rows == 1:
        return format_grid_line(grid) + "\n"
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
    for row in range(len(cells) // grid.cols):
        if row and not row % grid.rows:
            level = _layer_level(grid, row // grid.rows)
            lines.append("---" if level == 1 else "=" * (level + 1))
        line = cells[row * grid.cols : (row + 1) * grid.cols]
        lines.append(" ".join(cell.ljust(width) for cell in line).rstrip())
    if grid.rows == 1 and grid.cols > 1:  # one line without "/" would be read as a square
        lines[0] += "/"
    return "\n".join(lines) + "\n"


def format_grid_line(grid: Grid) -> str:
    """The grid on one line, rows separated by ``/`` and layers by ``|`` (``||``… between
    blocks; ``parse_grids`` reads it back): letters run together when every cell is one letter
    or Qu, without multipliers, else spaced."""
    compact = all(map(compact_cell, grid.cells)) and not any(
        m != 1 for m in grid.letter_mult + grid.word_mult
    )
    cells = [c[0] + c[1:].lower() for c in grid.cells]
    if compact:
        rows = ["".join(cells[r : r + grid.cols]) for r in range(0, len(cells), grid.cols)]
    else:
        flat = Grid(
            len(cells) // grid.cols, grid.cols, grid.cells, grid.letter_mult, grid.word_mult
        )
        rows = [" ".join(line.split()) for line in format_grid(flat).splitlines()]
        rows[0] = rows[0].removesuffix("/")
    one_row = "/" if grid.rows == 1 and grid.cols > 1 else ""
    layers = [
        "/".join(rows[start : start + grid.rows]) + one_row
        for start in range(0, len(rows), grid.rows)
    ]
    line = layers[0]
    for number, layer in enumerate(layers[1:], start=1):
        line += "|" * _layer_level(grid, number) + layer
    return line


def _layer_level(grid: Grid, layer: int) -> int:
    """The separator level before layer ``layer`` (from 0, C order): 1 between layers, 2 where
    a 3-D block ends, and so on."""
    level = 1
    for side in reversed(grid.layers[1:]):
        layer, rest = divmod(layer, side)
        if rest:
            break
        level += 1
    return level


def neighbours(grid: Grid, adjacency: int = 8) -> list[tuple[int, ...]]:
    """Neighbour cell indices of each cell, ascending: the cells whose every coordinate differs
    by at most one (8: king moves in 2-D, 26 in 3-D) or one step along one axis (4: rook steps)."""
    return list(adjacent_cells(grid.shape, adjacency))


@lru_cache(maxsize=64)
def adjacent_cells(shape: tuple[int, ...], adjacency: int = 8) -> tuple[tuple[int, ...], ...]:
    """``neighbours`` of any grid of ``shape`` (cached: boards of one shape share it)."""
    if adjacency not in (4, 8):
        raise UserError(f"adjacency {adjacency}: expected 4 or 8")
    steps = [
        step
        for step in itertools.product((-1, 0, 1), repeat=len(shape))
        if any(step) and (adjacency == 8 or sum(map(abs, step)) == 1)
    ]
    strides = [math.prod(shape[axis + 1 :]) for axis in range(len(shape))]
    result = []
    for coords in itertools.product(*map(range, shape)):
        around = []
        for step in steps:
            moved = [c + d for c, d in zip(coords, step, strict=True)]
            if all(0 <= c < side for c, side in zip(moved, shape, strict=True)):
                around.append(sum(c * s for c, s in zip(moved, strides, strict=True)))
        result.append(tuple(sorted(around)))
    return tuple(result)
