"""One turn's action as people write it, checked and scored in plain Python.

Notation (as in Quackle and GCG records): a tile play is a position and a word — ``8H WORD``
runs across from row 8, column H; ``H8 WORD`` runs down — where the letters already on the
board may be written as themselves, in parentheses (``WO(R)D``) or as ``.`` (``WO.D``, GCG);
a lowercase letter is a blank played as that letter. ``-ABC`` exchanges A, B and C (``-?``: a
blank); ``-`` passes. A multi-letter tile (Spanish CH) is spelled in a word (a word's CH is always
the CH tile; ``ch`` a blank) or bracketed (``[CH]``); in racks and exchanges only bracketed.

``read_play`` turns a tile play into the tiles it places, ``check_play`` applies the placement
rules (one line, no gap, touching the tiles or covering the start square), ``words_formed``
lists the words it makes and ``score_play`` scores it (shared/game-data.md §4.3). None of it
uses the compiled move generator or a lexicon, so replaying a recorded game checks the
generator's scoring against recorded scores (tests/test_gcg.py), and a human's play is judged
without searching every move.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.scrabble import Board, Move, place, position_name
from lexforge.text import fold_letter

BLANK = "?"  # a blank on a rack, in racks and exchanges
PLAYED_THROUGH = "."  # GCG: a square whose tile is already on the board
_ACROSS = re.compile(r"(\d+)([A-Za-z])")
_DOWN = re.compile(r"([A-Za-z])(\d+)")

Placed = tuple[tuple[int, int, str], ...]  # (row, col, letter), lowercase for a blank


@dataclass(frozen=True)
class Exchange:
    """Tiles put back in the bag for as many new ones (letters, ``?`` for a blank)."""

    tiles: str

    @property
    def notation(self) -> str:
        return "-" + self.tiles


@dataclass(frozen=True)
class Pass:
    """A turn without tiles played or exchanged."""

    notation = "-"


Action = Move | Exchange | Pass


def parse_position(text: str, board: Board) -> tuple[int, int, bool]:
    """``8H`` (across) or ``H8`` (down), case-insensitive: 0-based row, column, across."""
    if found := _ACROSS.fullmatch(text):
        number, letter, across = found[1], found[2], True
    elif found := _DOWN.fullmatch(text):
        letter, number, across = found[1], found[2], False
    else:
        raise UserError(f"position {text!r}: expected a row and a column such as 8H or H8")
    row, col = int(number) - 1, ord(letter.upper()) - ord("A")
    if not (0 <= row < board.rows and 0 <= col < board.cols):
        raise UserError(f"position {text!r} is off the {board.rows}×{board.cols} board")
    return row, col, across


def parse_tiles(text: str, language: Language, what: str) -> str:
    """Rack or exchange tiles: letters of the alphabet (folded, uppercase) and ``?`` blanks
    (``*`` too), sorted with the blanks last."""
    letters = []
    try:
        tiles = language.tokenize(text, spelled=False)
    except UserError as error:
        raise UserError(f"{what} {text!r}: {error}") from None
    for char in tiles:
        if char in "?*":
            letters.append(BLANK)
            continue
        letter = fold_letter(char, language)
        if len(letter) != 1 or letter not in language.alphabet:
            raise UserError(
                f"{what} {text!r}: {char!r} is not a letter of the {language.name} alphabet "
                f"nor a blank (?)"
            )
        letters.append(letter)
    return "".join(sorted(letters, key=lambda t: (t == BLANK, t)))


def parse_action(text: str, board: Board, language: Language) -> Action | tuple[Placed, bool]:
    """A turn as typed: ``-`` (pass), ``-TILES`` (exchange), or ``POSITION WORD`` (the tiles
    placed and whether across, not yet checked nor scored)."""
    text = text.strip()
    if text == "-":
        return Pass()
    if text.startswith("-"):
        return Exchange(parse_tiles(text[1:], language, "exchange"))
    parts = text.split()
    if len(parts) != 2:
        raise UserError(f"play {text!r}: expected POSITION WORD (8H WORD), -TILES or -")
    return read_play(board, parts[0], parts[1], language)


def read_play(board: Board, position: str, word: str, language: Language) -> tuple[Placed, bool]:
    """The tiles a play written ``position word`` places, and whether it runs across. Letters
    over a board tile must be that tile (or ``.``, or inside parentheses); the word must start
    and end where its run of tiles does."""
    row, col, across = parse_position(position, board)
    dr, dc = (0, 1) if across else (1, 0)
    what = f"play {position} {word}"
    placed: list[tuple[int, int, str]] = []
    r, c, inside = row, col, False
    try:
        tiles = language.tokenize(word)
    except UserError as error:
        raise UserError(f"{what}: {error}") from None
    for char in tiles:
        if char in "()":
            if inside == (char == "("):
                raise UserError(f"{what}: unbalanced parentheses")
            inside = char == "("
            continue
        if not (0 <= r < board.rows and 0 <= c < board.cols):
            raise UserError(f"{what}: runs off the board")
        tile = board.tiles[r * board.cols + c]
        if (char == PLAYED_THROUGH or inside) and not tile:
            raise UserError(f"{what}: no tile at {position_name(r, c, across)} to play through")
        if char != PLAYED_THROUGH:
            letter = fold_letter(char, language)
            if len(letter) != 1 or letter not in language.alphabet:
                raise UserError(f"{what}: {char!r} is not a letter of the {language.name} alphabet")
            if tile and tile != letter:
                held, wanted = (
                    language.spell(tile, bracket=True),
                    language.spell(letter, bracket=True),
                )
                raise UserError(f"{what}: {position_name(r, c, across)} holds {held}, not {wanted}")
            if not tile:
                placed.append((r, c, letter.lower() if char.islower() else letter))
        r, c = r + dr, c + dc
    if inside:
        raise UserError(f"{what}: unbalanced parentheses")
    if not placed:
        raise UserError(f"{what}: places no tile")
    before = (row - dr, col - dc)
    if _filled(board, *before) or _filled(board, r, c):
        raise UserError(f"{what}: the word continues beyond the letters given")
    return tuple(placed), across


def _filled(board: Board, r: int, c: int) -> bool:
    return 0 <= r < board.rows and 0 <= c < board.cols and bool(board.tiles[r * board.cols + c])


def check_play(board: Board, placed: Placed, across: bool) -> None:
    """UserError unless the tiles go on empty squares of one line with no gap (tiles already
    there may fill it), touch a tile on the board, or on an empty board cover the start square
    with at least two tiles."""
    if not placed:
        raise UserError("a play places at least one tile")
    squares = [r * board.cols + c for r, c, _ in placed]
    if len(set(squares)) != len(squares) or any(board.tiles[s] for s in squares):
        raise UserError("a play puts its tiles on distinct empty squares")
    line = {r for r, _, _ in placed} if across else {c for _, c, _ in placed}
    if len(line) != 1:
        raise UserError("a play's tiles lie in one row or one column")
    after = place(board, placed)
    along = sorted(c if across else r for r, c, _ in placed)
    fixed = placed[0][0] if across else placed[0][1]
    for k in range(along[0], along[-1] + 1):
        r, c = (fixed, k) if across else (k, fixed)
        if not after.tiles[r * board.cols + c]:
            raise UserError("a play's tiles leave no gap (only tiles already there may fill one)")
    if not any(board.tiles):
        if board.layout.start not in squares:
            where = position_name(*divmod(board.layout.start, board.cols), True)
            raise UserError(f"the first play covers the start square ({where})")
        if len(placed) < 2:
            raise UserError("the first play places at least two tiles")
        return
    if not any(
        _filled(board, r + dr, c + dc)
        for r, c, _ in placed
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
    ):
        raise UserError("a play touches a tile already on the board")


def words_formed(board: Board, placed: Placed, across: bool) -> list[list[int]]:
    """The squares of each word the play makes: the main word (along ``across``) first, then a
    cross word through each placed tile that has one; words of one letter are not words."""
    after = place(board, placed)

    def run(r: int, c: int, dr: int, dc: int) -> list[int]:
        while _filled(after, r - dr, c - dc):
            r, c = r - dr, c - dc
        squares = []
        while _filled(after, r, c):
            squares.append(r * board.cols + c)
            r, c = r + dr, c + dc
        return squares

    dr, dc = (0, 1) if across else (1, 0)
    words = [run(placed[0][0], placed[0][1], dr, dc)]
    words += [w for r, c, _ in placed if len(w := run(r, c, dc, dr)) > 1]
    return [w for w in words if len(w) > 1]


def score_play(board: Board, placed: Placed, across: bool, language: Language) -> int:
    """The play's score: each word's letters (premiums only under the new tiles, blanks 0)
    times its new word premiums, summed, plus the bingo bonus for a whole rack."""
    after = place(board, placed)
    new = {r * board.cols + c for r, c, _ in placed}
    layout, values = board.layout, language.tile_values
    total = 0
    for word in words_formed(board, placed, across):
        points, multiplier = 0, 1
        for square in word:
            value = 0 if square in after.blanks else values.get(after.tiles[square], 0)
            if square in new:
                value *= layout.letter_mult(square)
                multiplier *= layout.word_mult(square)
            points += value
        total += points * multiplier
    if len(placed) == language.rack_size:
        total += language.bingo_bonus
    return total


def make_move(board: Board, placed: Placed, across: bool, language: Language) -> Move:
    """The ``Move`` of a checked play: its main word (blanks lowercase), start and score. A
    single tile whose only word runs the other way is shown along that word."""
    words = words_formed(board, placed, across)
    if not words:
        raise UserError("a play makes at least one word of two letters or more")
    after = place(board, placed)
    main = words[0]
    if len(main) > 1 and main[1] - main[0] != (1 if across else board.cols):
        across = not across  # one tile: its only word runs the other way
    word = "".join(after.tiles[s].lower() if s in after.blanks else after.tiles[s] for s in main)
    row, col = divmod(main[0], board.cols)
    score = score_play(board, placed, across, language)
    return Move(word, row, col, across, score, tuple(sorted(placed)))


def rack_after(rack: str, used: str) -> str:
    """The rack (letters and ``?``) without the tiles ``used`` (placed letters, lowercase for a
    blank, or exchanged tiles); UserError naming what the rack lacks."""
    need = Counter(BLANK if t.islower() or t == BLANK else t for t in used)
    have = Counter(rack)
    missing = need - have
    if missing:
        lacking = "".join(sorted(missing.elements()))
        raise UserError(f"rack {rack}: has no {lacking}")
    left = have - need
    return "".join(sorted(left.elements(), key=lambda t: (t == BLANK, t)))


def placed_tiles(placed: Placed) -> str:
    """The rack tiles a play uses: its letters, ``?`` for each blank."""
    return "".join(BLANK if letter.islower() else letter for _, _, letter in placed)
