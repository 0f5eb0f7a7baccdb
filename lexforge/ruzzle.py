"""Ruzzle: every word of a board with its best-scoring path.

Scoring (pettarin/elzzur's documented rules; Zigazou/RuzzSolver agrees): a path scores the sum
of its letters' values, each times its cell's letter multiplier (dl ×2, tl ×3), times the product
of the word multipliers on the path (dw ×2, tw ×3; dw and tw together ×6), plus a length bonus:
5 letters +5, 6 +10, 7 +15, 8 +20, 9 and longer +25. elzzur marks the bonus of 10+ letters as
unconfirmed; RuzzSolver gives +25 for every length from 9, which is what lexforge does. A
multi-letter cell (``Qu``) scores the sum of its letters' values and counts each letter for the
length. Adjacency is always the 8 neighbours; each cell once per word.

Each word is listed once, with its best path; among equally good paths, the first in reading
order (the lexicographically smallest sequence of cells).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from lexforge.boggle import encode_boards, found_words, search_board
from lexforge.errors import UserError, excerpt
from lexforge.grid import Grid

if TYPE_CHECKING:
    from lexforge.lexicon import Lexicon

LENGTH_BONUS = {5: 5, 6: 10, 7: 15, 8: 20}  # 9 letters and more: 25
LONG_WORD_BONUS = 25
SORT_KEYS = ("score", "length", "start", "end")


@dataclass(frozen=True)
class RuzzleWord:
    word: str
    score: int
    path: tuple[tuple[int, int], ...]


def length_bonus(letters: int) -> int:
    """Points added after the multipliers for a word of ``letters`` letters."""
    return LONG_WORD_BONUS if letters >= 9 else LENGTH_BONUS.get(letters, 0)


def ruzzle_score(board: Grid, path: Sequence[tuple[int, int]], values: dict[str, int]) -> int:
    """Score of the word spelled by ``path`` ((row, col) cells) on ``board``."""
    cells = [row * board.cols + col for row, col in path]
    letters = sum(
        sum(values[letter] for letter in board.cells[cell]) * board.letter_mult[cell]
        for cell in cells
    )
    word_mult = 1
    for cell in cells:
        word_mult *= board.word_mult[cell]
    return letters * word_mult + length_bonus(sum(len(board.cells[cell]) for cell in cells))


def check_values(board: Grid, values: dict[str, int], language_code: str) -> None:
    """UserError naming the first letter of ``board`` that has no value."""
    for cell in board.cells:
        for letter in cell:
            if letter not in values:
                raise UserError(
                    f"no Ruzzle value for letter {letter!r} (language {language_code} lists "
                    "none; lexforge ruzzle takes them with --values A=1,B=4,...)"
                )


def solve(
    lexicon: Lexicon, board: Grid, *, values: dict[str, int] | None = None, min_length: int = 2
) -> list[RuzzleWord]:
    """Every word of ``lexicon`` on ``board`` with its best path, by score (then word);
    UserError for an n-D board (Ruzzle is 2-D)."""
    if board.layers:
        raise UserError(f"a Ruzzle board is 2-D; this one is {'×'.join(map(str, board.shape))}")
    if values is None:
        values = lexicon.language.ruzzle_values
    check_values(board, values, lexicon.language.code)
    boards = encode_boards(lexicon, [board], adjacency=8)
    cell_value = [
        sum(values[letter] for letter in cell) * mult
        for cell, mult in zip(board.cells, board.letter_mult, strict=True)
    ]
    total_letters = int(boards.cell_len.sum())
    _check_no_overflow(board, cell_value, lexicon.language.max_length)
    found = search_board(
        lexicon.graph,
        boards.cell_letters,
        boards.cell_len,
        np.array(cell_value, dtype=np.int64),
        np.array(board.word_mult, dtype=np.int64),
        boards.nbr,
        boards.nbr_count,
        min_length,
        np.array([length_bonus(n) for n in range(total_letters + 1)], dtype=np.int64),
    )
    return found_words(RuzzleWord, board, found, -found[1])  # by score (best first), then word


def _check_no_overflow(board: Grid, cell_value: list[int], max_letters: int) -> None:
    """UserError if some word could score 2⁶³ or more (the compiled search adds in 64 bits): a
    bound is the best ``n`` cell values times the best ``n`` word multipliers, for words of at
    most ``n`` letters, plus the largest length bonus."""
    n = min(len(cell_value), max_letters)
    bound = sum(sorted(cell_value)[-n:]) * math.prod(sorted(board.word_mult)[-n:])
    if bound + length_bonus(n) >= 2**63:
        raise UserError(
            "letter values and word multipliers so large that a score could overflow; "
            "use smaller --values or fewer word multipliers"
        )


def sort_words(words: list[RuzzleWord], key: str) -> list[RuzzleWord]:
    """Sort as elzzur does: by ``score`` (best first), ``length`` (longest first), ``start`` or
    ``end`` (the path's first or last cell, in reading order); ties by score, then word."""
    if key == "score":
        return sorted(words, key=lambda w: (-w.score, w.word))
    if key == "length":
        return sorted(words, key=lambda w: (-len(w.word), -w.score, w.word))
    if key == "start":
        return sorted(words, key=lambda w: (w.path[0], -w.score, w.word))
    if key == "end":
        return sorted(words, key=lambda w: (w.path[-1], -w.score, w.word))
    raise UserError(f"unknown sort key {key!r}: expected one of {', '.join(SORT_KEYS)}")


#: The most a letter may be worth: a word of 64×64 cells, each ×3, under 64 word multipliers
#: of ×3 still scores far below 2⁶³.
MAX_LETTER_VALUE = 1_000_000


def parse_values(spec: str, source: str) -> dict[str, int]:
    """Letter values from ``"A=1,B=4,..."`` or from a file of such pairs (one per line or
    comma-separated; ``#`` starts a comment). ``source`` names the option in error messages."""
    if "=" not in spec:
        try:
            text = Path(spec).read_text(encoding="utf-8")
        except (OSError, ValueError) as error:  # ValueError: undecodable text or a NUL in the name
            raise UserError(f"{spec}: cannot read letter values ({error})") from None
        source = spec
    else:
        text = spec
    values: dict[str, int] = {}
    for line in text.splitlines():
        for pair in re.split(r"[,\s]+", line.split("#", 1)[0].strip()):
            if not pair:
                continue
            letter, _, number = pair.partition("=")
            letter = letter.upper()
            if (
                len(letter) != 1
                or not letter.isalpha()
                or not (number.isascii() and number.isdigit())
            ):
                raise UserError(
                    f"{source}: bad letter value {pair!r}: expected LETTER=POINTS pairs, "
                    "e.g. A=1,B=4"
                )
            if letter in values:
                raise UserError(f"{source}: letter {letter} is given twice")
            if int(number) > MAX_LETTER_VALUE:  # so that no word's score can overflow
                raise UserError(
                    f"{source}: letter {letter} is worth {excerpt(number)}: at most "
                    f"{MAX_LETTER_VALUE:,} points"
                )
            values[letter] = int(number)
    if not values:
        raise UserError(f"{source}: no letter values: expected LETTER=POINTS pairs, e.g. A=1,B=4")
    return values
