"""Pictures of an answer: a grid with a word's path, a Scrabble board with a move.

Two renderings of the same picture: text for the terminal (ANSI colour when the output is a
terminal, plain marks otherwise: ``[A]`` for a cell of the path or a tile of the move, with the
path's step numbers beside the grid) and SVG (cells and letters, the path as a numbered polyline
ending in an arrow; Scrabble premiums coloured and the move's tiles highlighted). SVG elements
carry ``data-row``/``data-col`` and classes (``cell``, ``path``, ``step``, ``tile new``) so a
program, and the tests, can read the picture back.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, TextIO
from xml.sax.saxutils import escape

from lexforge.errors import UserError
from lexforge.grid import Grid
from lexforge.language import Language
from lexforge.text import fold_tiles, fold_word

# ANSI styles: first cell of a path, the rest of it, a move's tiles, the premiums.
START = "\x1b[1;30;42m"
ON_PATH = "\x1b[1;30;43m"
NEW_TILE = "\x1b[1;30;43m"
RESET = "\x1b[0m"
PREMIUM_STYLE = {
    "l": "\x1b[46m",
    "L": "\x1b[44m",
    "w": "\x1b[45m",
    "W": "\x1b[41m",
    "*": "\x1b[45m",
}
PREMIUM_NAME = {"l": "DL", "L": "TL", "w": "DW", "W": "TW", "*": "★"}
# Empty premium squares in the text picture (Quackle's marks: letters would read as blanks).
PREMIUM_MARK = {".": ".", "l": "'", "L": '"', "w": "-", "W": "=", "*": "*"}
PREMIUM_LEGEND = "' DL  \" TL  - DW  = TW  * start  [X] the move's tiles, lowercase: blanks"
PREMIUM_FILL = {
    ".": "#f4f1e8",
    "l": "#bfe3f5",
    "L": "#3d8fd1",
    "w": "#f7c6c9",
    "W": "#d9534f",
    "*": "#f7c6c9",
}
MULTIPLIER_NAME = {(2, 1): "DL", (3, 1): "TL", (1, 2): "DW", (1, 3): "TW"}


def use_colour(stream: TextIO) -> bool:
    """Colour only for a terminal, and never with ``NO_COLOR`` set or ``TERM=dumb``."""
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def choose(words: Sequence[Any], word: str, language: Language) -> Any | None:
    """The result to draw: the one spelling ``word`` (folded like the lexicon), else the first
    listed when ``word`` is empty; None when the grid lacks it."""
    if not word:
        return words[0] if words else None
    wanted = fold_word(word, language)
    return next((w for w in words if w.word == wanted), None)


def choose_move(moves: Sequence[Any], word: str, language: Language) -> Any:
    """The best move, or the best one whose main word is ``word``; UserError if none."""
    if word:
        wanted = fold_tiles(word, language, spelled=True)
        moves = [m for m in moves if m.word.upper() == wanted]
    if not moves:
        what = f"no move plays '{word}'" if word else "no legal move"
        raise UserError(f"nothing to draw: {what}")
    return moves[0]


# --- grids ------------------------------------------------------------------------------


def cell_label(grid: Grid, index: int, multipliers: bool) -> str:
    """A cell as the board files write it: ``Qu``, and ``Ttl``-style suffixes if wanted."""
    letters = grid.cells[index]
    label = letters[0] + letters[1:].lower()
    if multipliers:
        name = MULTIPLIER_NAME.get((grid.letter_mult[index], 1), "")
        name += MULTIPLIER_NAME.get((1, grid.word_mult[index]), "")
        label += name.lower()
    return label


def grid_text(grid: Grid, found: Any | None, *, colour: bool, multipliers: bool = False) -> str:
    """The grid with ``found``'s path marked, its step numbers on the right, and a caption."""
    steps = {cell: step for step, cell in enumerate(found.path, start=1)} if found else {}
    labels = [cell_label(grid, i, multipliers) for i in range(len(grid.cells))]
    width = max(map(len, labels))
    digits = len(str(len(steps))) if steps else 1
    lines = []
    for row in range(grid.rows):
        cells, numbers = [], []
        for col in range(grid.cols):
            label = labels[row * grid.cols + col].ljust(width)
            step = steps.get((row, col))
            if step is None:
                cells.append(f" {label} ")
                numbers.append(".".rjust(digits))
            elif colour:
                style = START if step == 1 else ON_PATH
                cells.append(f"{style} {label} {RESET}")
                numbers.append(f"{style}{step:>{digits}}{RESET}")
            else:
                cells.append(f"[{label}]")
                numbers.append(f"{step:>{digits}}")
        lines.append("".join(cells) + "    " + " ".join(numbers))
    if found is None:
        lines.append("(the word is not on this grid)")
    else:
        path = " ".join(f"({r},{c})" for r, c in found.path)
        lines.append(f"{found.word}  score {found.score}  {path}")
    return "\n".join(lines) + "\n"


def _svg(width: int, height: int, body: list[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">'
    )
    defs = (
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="8" refY="5" markerWidth="5" '
        'markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
        'fill="#c0392b"/></marker></defs>'
    )
    background = f'<rect width="{width}" height="{height}" fill="white"/>'
    return "\n".join([head, defs, background, *body, "</svg>"]) + "\n"


GRID_CELL = 80
GRID_MARGIN = 20


def grid_svg(grid: Grid, found: Any, *, multipliers: bool = False) -> str:
    """The grid as SVG with ``found``'s path: cells ``GRID_CELL`` wide from ``GRID_MARGIN``;
    the polyline's points are the path's cell centres, in order."""
    size, margin = GRID_CELL, GRID_MARGIN
    steps = {cell: step for step, cell in enumerate(found.path, start=1)}
    body, letters_on_top = [], []
    for index in range(len(grid.cells)):
        row, col = divmod(index, grid.cols)
        x, y = margin + col * size, margin + row * size
        fill = "#ffe08a" if (row, col) in steps else "#f4f1e8"
        body.append(
            f'<rect class="cell" data-row="{row}" data-col="{col}" x="{x + 2}" y="{y + 2}" '
            f'width="{size - 4}" height="{size - 4}" rx="8" fill="{fill}" stroke="#8a7f66"/>'
        )
        letters = grid.cells[index][0] + grid.cells[index][1:].lower()
        letters_on_top.append(
            f'<text x="{x + size / 2}" y="{y + size / 2 + 12}" font-size="34" '
            f'text-anchor="middle" font-weight="bold" fill="#222">{escape(letters)}</text>'
        )
        name = MULTIPLIER_NAME.get((grid.letter_mult[index], 1), "") if multipliers else ""
        if multipliers:
            name += MULTIPLIER_NAME.get((1, grid.word_mult[index]), "")
        if name:
            body.append(
                f'<text class="multiplier" x="{x + size - 8}" y="{y + 20}" font-size="13" '
                f'text-anchor="end" fill="#1f5fa8">{name}</text>'
            )
    centres = [(margin + c * size + size / 2, margin + r * size + size / 2) for r, c in found.path]
    points = " ".join(f"{x:g},{y:g}" for x, y in centres)
    body.append(
        f'<polyline class="path" points="{points}" fill="none" stroke="#c0392b" '
        'stroke-width="5" stroke-opacity="0.75" stroke-linejoin="round" '
        'marker-end="url(#arrow)"/>'
    )
    body += letters_on_top  # over the path, so that it never hides a letter
    for step, (x, y) in enumerate(centres, start=1):
        body.append(
            f'<circle cx="{x - size / 2 + 16:g}" cy="{y - size / 2 + 16:g}" r="11" '
            f'fill="{"#2e8b57" if step == 1 else "#c0392b"}"/>'
        )
        body.append(
            f'<text class="step" x="{x - size / 2 + 16:g}" y="{y - size / 2 + 20:g}" '
            f'font-size="12" text-anchor="middle" fill="white">{step}</text>'
        )
    height = margin * 2 + grid.rows * size + 30
    body.append(
        f'<text class="caption" x="{margin}" y="{height - 18}" font-size="18" fill="#222">'
        f"{escape(found.word)} · score {found.score}</text>"
    )
    return _svg(margin * 2 + grid.cols * size, height, body)


# --- Scrabble -------------------------------------------------------------------------


def _placed(move: Any) -> dict[tuple[int, int], str]:
    """The tiles ``move`` places ((row, col) → letter); none for no move (a board alone)."""
    return {} if move is None else {(row, col): letter for row, col, letter in move.placed}


def scrabble_text(board: Any, move: Any, language: Language, *, colour: bool) -> str:
    """The board with column letters and row numbers; empty squares show their premium
    (``PREMIUM_MARK``), the move's tiles are ``[X]`` (or highlighted), a legend below."""
    picture = board_text(board, _placed(move), language, colour=colour)
    return picture + f"{move.score}  {move.position}  {language.spell(move.word)}\n"


def board_text(
    board: Any, new: dict[tuple[int, int], str], language: Language, *, colour: bool
) -> str:
    """The board as ``scrabble_text`` draws it, with the tiles ``new`` ((row, col) → letter)
    marked, and the legend. Squares are one letter wide plus a space each side, widened to
    the longest multi-letter tile (Spanish CH) where the lexicon has them."""
    width = 2 + max(map(len, language.tile_symbols), default=1)
    lines = ["    " + "".join(f"{chr(ord('A') + c):^{width}}" for c in range(board.cols)).rstrip()]
    for row in range(board.rows):
        squares = []
        for col in range(board.cols):
            index = row * board.cols + col
            premium = board.layout.squares[index]
            if (row, col) in new:
                letter = language.spell(new[(row, col)])
                squares.append(
                    f"{NEW_TILE}{letter:^{width}}{RESET}" if colour else f"{f'[{letter}]':^{width}}"
                )
            elif board.tiles[index]:
                tile = board.tiles[index]
                tile = language.spell(tile.lower() if index in board.blanks else tile)
                squares.append(f"{tile:^{width}}")
            elif colour and premium in PREMIUM_STYLE:
                squares.append(f"{PREMIUM_STYLE[premium]}{PREMIUM_MARK[premium]:^{width}}{RESET}")
            else:
                squares.append(f"{PREMIUM_MARK[premium]:^{width}}")
        lines.append(f"{row + 1:>3} " + "".join(squares).rstrip())
    lines.append(PREMIUM_LEGEND)
    return "\n".join(lines) + "\n"


BOARD_CELL = 40
BOARD_MARGIN = 30


def scrabble_svg(board: Any, move: Any, language: Language) -> str:
    """The board as SVG: premium squares coloured, tiles on the board, the move's tiles (if
    any) highlighted (class ``tile new``)."""
    size, margin = BOARD_CELL, BOARD_MARGIN
    new = _placed(move)
    body = []
    for col in range(board.cols):
        body.append(
            f'<text x="{margin + col * size + size / 2:g}" y="{margin - 10}" font-size="13" '
            f'text-anchor="middle" fill="#555">{chr(ord("A") + col)}</text>'
        )
    for row in range(board.rows):
        body.append(
            f'<text x="{margin - 8}" y="{margin + row * size + size / 2 + 5:g}" font-size="13" '
            f'text-anchor="end" fill="#555">{row + 1}</text>'
        )
        for col in range(board.cols):
            index = row * board.cols + col
            x, y = margin + col * size, margin + row * size
            premium = board.layout.squares[index]
            body.append(
                f'<rect class="square" data-row="{row}" data-col="{col}" x="{x}" y="{y}" '
                f'width="{size}" height="{size}" fill="{PREMIUM_FILL[premium]}" stroke="#fff"/>'
            )
            letter = new.get((row, col))
            if letter is None and board.tiles[index]:
                letter = board.tiles[index].lower() if index in board.blanks else board.tiles[index]
            if letter is not None:
                letter = language.spell(letter)
            if letter is None:
                if premium in PREMIUM_NAME:
                    body.append(
                        f'<text x="{x + size / 2:g}" y="{y + size / 2 + 4:g}" font-size="11" '
                        f'text-anchor="middle" fill="#333">{PREMIUM_NAME[premium]}</text>'
                    )
                continue
            is_new = (row, col) in new
            body.append(
                f'<rect class="{"tile new" if is_new else "tile"}" data-row="{row}" '
                f'data-col="{col}" x="{x + 2}" y="{y + 2}" width="{size - 4}" '
                f'height="{size - 4}" rx="4" fill="{"#ffd84d" if is_new else "#f3e2b3"}" '
                f'stroke="{"#c0392b" if is_new else "#b59b5c"}" '
                f'stroke-width="{3 if is_new else 1}"/>'
            )
            body.append(
                f'<text x="{x + size / 2:g}" y="{y + size / 2 + 8:g}" '
                f'font-size="{22 if len(letter) == 1 else 16}" '
                f'text-anchor="middle" font-weight="bold" '
                f'fill="{"#888" if letter.islower() else "#222"}">{escape(letter.upper())}</text>'
            )
    height = margin * 2 + board.rows * size + 20
    if move is not None:
        body.append(
            f'<text class="caption" x="{margin}" y="{height - 14}" font-size="16" fill="#222">'
            f"{escape(language.spell(move.word))} at {move.position} · score {move.score}</text>"
        )
    return _svg(margin * 2 + board.cols * size, height, body)
