"""The tile set as the board holds it, and the checks a position must pass against it.

A language's ``scrabble.tiles`` lists the published tiles; the board holds letters of the
lexicon's alphabet, so a tile that folds to one letter counts as that letter (Ä as A where the
alphabet has no Ä, Ñ as N in the default Spanish lexicon) and scores as it. A tile of several
letters (Spanish CH, LL, RR) is one letter where the lexicon gives it a symbol
(``tile_symbols``: es-scrabble, 100 tiles); elsewhere it is left out (``es``: 97 tiles).
"""

from __future__ import annotations

from collections import Counter

from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.scrabble import Board
from lexforge.text import fold_word

BLANK = "?"


def tile_counts(language: Language) -> Counter[str]:
    """How many tiles of each letter of the alphabet the set has (blanks not included)."""
    counts: Counter[str] = Counter()
    for tile, count in language.tile_counts.items():
        letter = language.tokenize(fold_word(tile, language))
        if len(letter) == 1 and letter in language.alphabet:
            counts[letter] += count
    return counts


def left_out(language: Language) -> dict[str, int]:
    """The set's tiles the board cannot hold (several letters), with their counts."""
    return {
        tile: count
        for tile, count in language.tile_counts.items()
        if len(letter := language.tokenize(fold_word(tile, language))) != 1
        or letter not in language.alphabet
    }


def check_tiles(board: Board, rack: str, language: Language, source: str) -> None:
    """UserError if the board and the rack (letters, ``?`` blanks) hold more tiles than the
    set has. The rack's letters are tiles; a board letter beyond the set's count must be a
    blank the set still has (an uppercase letter written for a blank is forgiven while blanks
    remain)."""
    if not language.tile_counts:
        return  # a language without Scrabble data: nothing to count against
    counts = tile_counts(language)
    in_rack = Counter(t for t in rack if t != BLANK)
    for tile, n in sorted(in_rack.items()):
        if n > counts[tile]:
            shown = language.spell(rack, bracket=True)
            raise UserError(
                f"rack {shown}: {n} {language.spell(tile, bracket=True)}, the {language.name} "
                f"set has {counts[tile]} (a blank is ?)"
            )
    used = Counter(t for i, t in enumerate(board.tiles) if t and i not in board.blanks)
    used.update(t for t in rack if t != BLANK)
    blanks = len(board.blanks) + rack.count(BLANK)
    over = {t: n for t, n in sorted(used.items()) if n > counts[t]}
    if blanks + sum(n - counts[t] for t, n in over.items()) <= language.blanks:
        return
    where = "the board and rack" if rack else "the board"
    detail = ", ".join(
        f"{n} {language.spell(t, bracket=True)} (the set has {counts[t]})" for t, n in over.items()
    )
    if blanks:
        detail = ", ".join(filter(None, [detail, f"{blanks} blanks"]))
    raise UserError(
        f"{source}: {where} hold more tiles than the {language.name} set: {detail}; it has "
        f"{language.blanks} blanks"
    )


def check_connected(board: Board, source: str) -> None:
    """UserError unless the tiles (if any) cover the start square and all connect to it."""
    tiles = {i for i, t in enumerate(board.tiles) if t}
    if not tiles:
        return
    start = board.layout.start
    if start not in tiles:
        row, col = divmod(start, board.cols)
        raise UserError(
            f"{source}: the start square ({row + 1}{chr(ord('A') + col)}) is empty but the "
            "board has tiles: no game reaches that"
        )
    seen, stack = {start}, [start]
    while stack:
        row, col = divmod(stack.pop(), board.cols)
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            square = r * board.cols + c
            if 0 <= r < board.rows and 0 <= c < board.cols and square in tiles - seen:
                seen.add(square)
                stack.append(square)
    if stray := sorted(tiles - seen):
        row, col = divmod(stray[0], board.cols)
        raise UserError(
            f"{source}: the tile at {row + 1}{chr(ord('A') + col)} is not connected to the "
            f"start square ({len(stray)} such tiles)"
        )
