"""Random boards: letters drawn from the lexicon's letter frequencies or from a dice set.

Frequencies are counted over the lexicon's words (in ``words.txt``'s bytes for a built
lexicon: a few milliseconds, no parquet reader on the query path). ``--dice`` rolls the
language's dice (one die per cell, shuffled, one face each). Ruzzle multipliers follow a
round-3 board: per 16 cells one DL, one TL, two DW and one TW (game-data.md §3), scaled to the
board's size.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator

from lexforge.errors import UserError
from lexforge.grid import Grid, check_shape, compact_cell, format_shape, normal_shape
from lexforge.lexicon import Lexicon

#: Ruzzle round-3 multipliers per 16 cells: (letter multiplier, word multiplier, how many).
RUZZLE_MULTIPLIERS = ((2, 1, 1), (3, 1, 1), (1, 2, 2), (1, 3, 1))
MAX_DRAWS = 20_000
BATCH = 256


def letter_weights(lexicon: Lexicon) -> dict[str, float]:
    """Letter → frequency in the lexicon's words (multi-letter Scrabble tiles are no cells)."""
    language = lexicon.language
    alphabet = "".join(c for c in language.alphabet if c not in language.symbols)
    if lexicon.path is not None and (lexicon.path / "words.txt").is_file():
        text = (lexicon.path / "words.txt").read_bytes()
        counts = Counter({letter: text.count(letter.encode()) for letter in alphabet})
    else:
        counts = Counter("".join(lexicon.words.iterkeys()))
    total = sum(counts[letter] for letter in alphabet) or 1
    weights = {letter: counts[letter] / total for letter in alphabet}
    weights = {letter: w for letter, w in weights.items() if w > 0}
    if not weights:
        raise UserError(f"lexicon '{lexicon.name}': no letter frequencies to draw from")
    return weights


def dice_set(lexicon: Lexicon, name: str, cells: int) -> list[list[str]]:
    """The named dice set (or the first one with ``cells`` dice when ``name`` is empty)."""
    sets = lexicon.language.dice
    code = lexicon.language.code
    if not sets:
        raise UserError(
            f"language '{code}' has no Boggle dice set (see its language file); "
            "drop --dice to draw from letter frequencies"
        )
    if name:
        if name not in sets:
            raise UserError(
                f"language '{code}' has no dice set '{name}' (known: {', '.join(sets)})"
            )
        chosen = sets[name]
    else:
        fitting = [dice for dice in sets.values() if len(dice) == cells]
        if not fitting:
            sizes = ", ".join(f"{n} ({len(d)} dice)" for n, d in sets.items())
            raise UserError(f"no dice set of language '{code}' has {cells} dice: {sizes}")
        chosen = fitting[0]
    if len(chosen) != cells:
        raise UserError(f"dice set '{name}' has {len(chosen)} dice; the board has {cells} cells")
    return chosen


def _ruzzle_multipliers(cells: int, rng: random.Random) -> tuple[list[int], list[int]]:
    letter = [1] * cells
    word = [1] * cells
    spots = list(range(cells))
    rng.shuffle(spots)
    for letter_mult, word_mult, per_16 in RUZZLE_MULTIPLIERS:
        for _ in range(max(1, round(per_16 * cells / 16))):
            if not spots:
                break
            spot = spots.pop()
            letter[spot], word[spot] = letter_mult, word_mult
    return letter, word


def _draw(
    shape: tuple[int, ...],
    rng: random.Random,
    weights: dict[str, float] | None,
    dice: list[list[str]] | None,
    multipliers: bool,
) -> Grid:
    cells = math.prod(shape)
    if dice is not None:
        order = list(dice)
        rng.shuffle(order)
        letters = [rng.choice(die).upper() for die in order]
    else:
        assert weights is not None
        letters = rng.choices(list(weights), weights=list(weights.values()), k=cells)
    if multipliers:
        letter_mult, word_mult = _ruzzle_multipliers(cells, rng)
    else:
        letter_mult = word_mult = [1] * cells
    rows, cols = shape[-2:]
    return Grid(rows, cols, tuple(letters), tuple(letter_mult), tuple(word_mult), shape[:-2])


def board_drawer(
    lexicon: Lexicon,
    rows: int,
    cols: int,
    dice: list[list[str]] | None = None,
    multipliers: bool = False,
    layers: tuple[int, ...] = (),
) -> Callable[[random.Random], Grid]:
    """A function drawing one board from a random generator: ``dice`` (a set from ``dice_set``)
    rolled, else letters from the lexicon's frequencies; Ruzzle ``multipliers`` placed; ``layers``
    of rows×cols for an n-D board (see ``Grid``).

    ``generate_boards(seed=S)``'s first board is ``board_drawer(...)(random.Random(S))``."""
    weights = None if dice is not None else letter_weights(lexicon)
    shape = (*layers, rows, cols)
    return lambda rng: _draw(shape, rng, weights, dice, multipliers)


def generate_boards(
    lexicon: Lexicon,
    *,
    rows: int = 4,
    cols: int = 4,
    count: int = 1,
    seed: int | None = None,
    dice: str | None = None,
    multipliers: bool = False,
    min_words: int = 0,
    threads: int | None = None,
    shape: tuple[int, ...] | None = None,
) -> Iterator[Grid]:
    """``count`` random boards, as they are drawn; with ``min_words``, only boards holding at least
    that many words (counted by the batch search on ``threads`` threads, default all cores).
    A ``shape`` (e.g. ``(4, 4, 4)``; a 1-D one is one row) replaces ``rows`` and ``cols``.

    The arguments are checked at once; the boards are drawn as the iterator is read, so any
    ``count`` runs in bounded memory. UserError (on the first read) when no board of the first
    ``MAX_DRAWS`` holds ``min_words`` words."""
    if shape is not None:
        check_shape(shape, f"--shape {format_shape(shape)}")
        *layers, rows, cols = normal_shape(shape)
        if layers and multipliers:
            raise UserError(f"--shape {format_shape(shape)}: Ruzzle boards (--multipliers) are 2-D")
    else:
        layers = []
    if not (1 <= rows <= 64 and 1 <= cols <= 64):
        raise UserError(f"board {rows}×{cols}: rows and columns must be between 1 and 64")
    if count < 1:
        raise UserError(f"--count {count}: must be at least 1")
    rng = random.Random(seed)
    cells = math.prod((*layers, rows, cols))
    dice_faces = dice_set(lexicon, dice, cells) if dice is not None else None
    digraphs = dice_faces is not None and not all(
        compact_cell(face) for die in dice_faces for face in die
    )
    if cols == 1 and (multipliers or digraphs):  # see lexforge.grid.compact_cell
        raise UserError(
            f"board {rows}×1: a one-column board cannot be written with "
            f"{'multipliers' if multipliers else 'multi-letter dice'}; use two columns"
        )
    draw_with = board_drawer(lexicon, rows, cols, dice_faces, multipliers, tuple(layers))

    def draw() -> Grid:
        return draw_with(rng)

    if min_words <= 0:
        return (draw() for _ in range(count))
    min_length = 2 if multipliers else 3  # Ruzzle's words are 2 letters and up, Boggle's 3
    words = (min_words, min_length)
    size = "×".join(map(str, (*layers, rows, cols)))
    return _boards_with_words(lexicon, draw, size, count, words, threads)


def _boards_with_words(
    lexicon: Lexicon,
    draw: Callable[[], Grid],
    size: str,
    count: int,
    words: tuple[int, int],
    threads: int | None,
) -> Iterator[Grid]:
    """Boards of ``draw`` holding at least ``min_words`` words of ``min_length`` letters and more
    (``words``), checked ``BATCH`` at a time. Gives up only if none of the first ``MAX_DRAWS``
    qualifies: once one has, the rest come."""
    from lexforge.boggle import solve_batch

    min_words, min_length = words
    found = drawn = 0
    while found < count:
        if found == 0 and drawn >= MAX_DRAWS:
            raise UserError(
                f"no {size} board with {min_words} words in {MAX_DRAWS} draws; lower --min-words"
            )
        batch = [draw() for _ in range(BATCH)]
        drawn += BATCH
        solved = solve_batch(lexicon, batch, min_length=min_length, threads=threads)
        for board, board_words in zip(batch, solved, strict=True):
            if len(board_words) >= min_words and found < count:
                found += 1
                yield board
