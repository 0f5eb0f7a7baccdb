"""Boggle and Ruzzle grids whose cells hold multi-letter tiles (Catalan L·L, NY, QU): the cell
syntax, and the words found against a brute force that walks every path of hand-spelled cells.

The Catalan language file and the ``ca-scrabble`` lexicon's tile symbols come from the
configuration; the words and grids are written here, spelled as a reader spells them."""

from __future__ import annotations

import itertools

import pytest
from build_helpers import ROOT

from lexforge import boggle, ruzzle
from lexforge.errors import UserError
from lexforge.grid import parse_grids
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.normalize import Normalizer
from pipeline.config import load_config

CONFIG = load_config(ROOT / "config/config.yaml", check_files=False)
TILED = CONFIG.lexicons["ca-scrabble"].language  # L·L, NY, QU one tile each
FOLDED = CONFIG.lexicons["ca"].language  # L·L folded to LL, no tile symbols
WORDS = ["col·legi", "col·legis", "llibre", "llibres", "any", "anys", "canya", "quatre", "qui",
         "paral·lel", "cel·la", "cella", "bell", "belles", "byte", "sol", "les", "lle"]  # fmt: skip


def stored(language: Language) -> list[str]:
    """The words as the pipeline stores them for ``language`` (as tiles where it has them)."""
    return sorted(set(Normalizer(language, case_sensitive=False).normalize_all(WORDS)))


def lexicon_of(language: Language) -> Lexicon:
    return Lexicon.from_words(stored(language), language)


def brute_force(
    cells: list[list[str]], words: set[str], min_length: int = 3, *, by_letters: bool = False
) -> set[str]:
    """Every word of ``words`` (spelled) that a path of distinct neighbouring cells spells, at
    least ``min_length`` cells long (letters, ``by_letters``: a Qu die counts two); cells hold
    their spelling (``L·L``)."""
    rows, cols = len(cells), len(cells[0])
    spots = [(r, c) for r in range(rows) for c in range(cols)]
    found = set()

    def walk(path: list[tuple[int, int]], text: str) -> None:
        if text in words and len(text if by_letters else path) >= min_length:
            found.add(text)
        if not any(word.startswith(text) for word in words):
            return
        r, c = path[-1]
        for dr, dc in itertools.product((-1, 0, 1), repeat=2):
            nxt = (r + dr, c + dc)
            if nxt != (r, c) and nxt in spots and nxt not in path:
                walk([*path, nxt], text + cells[nxt[0]][nxt[1]])

    for spot in spots:
        walk([spot], cells[spot[0]][spot[1]])
    return found


GRID = "C O [L·L]\nI G E\nS NY A"
CELLS = [["C", "O", "L·L"], ["I", "G", "E"], ["S", "NY", "A"]]
GRID_2 = "B E [L·L]\nL L A\nS QU I"
CELLS_2 = [["B", "E", "L·L"], ["L", "L", "A"], ["S", "QU", "I"]]


@pytest.mark.parametrize(("text", "cells"), [(GRID, CELLS), (GRID_2, CELLS_2)])
def test_a_tile_cell_finds_what_the_brute_force_finds(text, cells):
    lexicon = lexicon_of(TILED)
    (grid,) = parse_grids(text, TILED)
    assert len(grid.cells) == 9 and all(len(cell) == 1 for cell in grid.cells)  # a tile a cell
    found = {TILED.spell(w.word) for w in boggle.solve(lexicon, grid)}
    spelled = {TILED.spell(word) for word in stored(TILED)}
    assert found == brute_force(cells, spelled)
    assert found & {"COL·LEGIS", "BELL"}  # the grids hold words: the test can fail


def test_the_tile_lexicon_keeps_ll_as_two_tiles_and_drops_untileable_words():
    words = {TILED.spell(word) for word in stored(TILED)}
    assert {"COL·LEGI", "LLIBRE", "CELLA", "CEL·LA", "ANY", "QUATRE", "BELL"} <= words
    assert "BYTE" not in words  # its Y is in no tile (Y only in NY)
    assert len(TILED.tokenize("COL·LEGI")) == 6 and len(TILED.tokenize("LLIBRE")) == 6
    (grid,) = parse_grids("B E L\nL L E\nS QU I", TILED)
    found = {TILED.spell(w.word) for w in boggle.solve(lexicon_of(TILED), grid)}
    assert "BELL" in found and "CEL·LA" not in found  # two L cells spell LL, never L·L


def test_a_bracketed_cell_in_a_lexicon_without_tiles_is_its_letters():
    lexicon = lexicon_of(FOLDED)
    (grid,) = parse_grids(GRID, FOLDED)
    assert grid.cells[2] == "LL" and grid.cells[7] == "NY"
    found = {w.word for w in boggle.solve(lexicon, grid)}
    plain = [[cell.replace("·", "") for cell in row] for row in CELLS]
    assert found == brute_force(plain, set(stored(FOLDED)), by_letters=True)
    assert {"COLLEGI", "COLLEGIS", "ANY", "ANYS"} <= found


def test_compact_rows_typed_symbols_and_ruzzle_cells():
    (compact,) = parse_grids("CO[L·L]/IGE/S[NY]A", TILED)
    (spaced,) = parse_grids(GRID, TILED)
    assert compact.cells == spaced.cells
    symbol = TILED.tokenize("[L·L]", spelled=False)
    (typed,) = parse_grids(f"C O {symbol}\nI G E\nS NY A", TILED)
    assert typed.cells == spaced.cells  # a typed tile symbol is that tile, never folded
    (board,) = parse_grids("C O [L·L]dl\nI G Etw\nS NY A", TILED, multipliers=True)
    assert board.cells == spaced.cells and board.letter_mult[2] == 2 and board.word_mult[5] == 3
    values = {letter: 1 for letter in TILED.alphabet}
    words = ruzzle.solve(lexicon_of(TILED), board, values=values)
    assert {TILED.spell(w.word) for w in words} == brute_force(
        CELLS, {TILED.spell(word) for word in stored(TILED)}, 2
    )


def test_an_unknown_tile_or_a_tile_letter_the_lexicon_lacks_is_one_line():
    with pytest.raises(UserError, match=r"row 1: cell '\[XY\]': \[XY\] is not a Catalan tile"):
        parse_grids("A B [XY]\nC D E\nF G H", TILED)
    bambara = Language.from_dict(
        {
            "code": "bm",
            "name": "Bambara",
            "alphabet": "ABCDEFGHIJKLMNOPRSTUWYZ",
            "length": {"min": 2, "max": 15},
            "scrabble": {"tiles": {"A": [1, 1], "N": [1, 1], "Ɲ": [1, 8]}},
        }
    )
    with pytest.raises(UserError, match=r"cell 'Ɲ': 'Ɲ' is a Bambara tile but not a letter"):
        parse_grids("A Ɲ\nN A", bambara)


def test_a_joined_tile_counts_its_letters_for_the_length_bounds():
    """INTEL·LECTUALITZACIONS has 21 letters (20 tiles): too long for both lexicons (at most 20
    letters); INTEL·LECTUALITZARIA has 20."""
    long, fits = "intel·lectualitzacions", "intel·lectualitzaria"
    for language in (TILED, FOLDED):
        normalizer = Normalizer(language, case_sensitive=False)
        assert [language.spell(w) for w in normalizer.normalize_all([long, fits])] == [
            fits.upper() if language is TILED else fits.upper().replace("·", "")
        ]
        assert normalizer.rejected == {"too-long": 1}


def test_a_tile_cell_scores_its_letters_in_ruzzle():
    spanish = CONFIG.lexicons["es-scrabble"].language
    values = spanish.ruzzle_values
    assert values[spanish.tile_symbols["CH"]] == values["C"] + values["H"]
    assert not TILED.ruzzle_values  # Catalan has no Ruzzle table: none invented for its tiles
