"""Board text format, Grid model and adjacency (lexforge.grid)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from solver_fixtures import LANGUAGES, grids, language

from lexforge.errors import UserError
from lexforge.grid import Grid, format_grid, neighbours, parse_grids

EN = language("en")
ELZZUR_DEMO = """\
Ttl R   S   Ndl
Odw Htw E   I
Cdw I   N   V
Etl A   D   E
"""


def test_elzzur_board_with_multipliers():
    (board,) = parse_grids(ELZZUR_DEMO, EN, multipliers=True)
    assert (board.rows, board.cols) == (4, 4)
    assert "".join(board.cells) == "TRSNOHEICINVEADE"
    assert board.letter_mult == (3, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 3, 1, 1, 1)
    assert board.word_mult == (1, 1, 1, 1, 2, 3, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1)


def test_compact_rows_qu_and_folding():
    (grid,) = parse_grids("QuIT\nabc\nÉtè", language("fr"))
    assert grid.cells == ("QU", "I", "T", "A", "B", "C", "E", "T", "E")
    (grid,) = parse_grids("QUIT", EN)  # capital U: two cells
    assert grid.cells == ("Q", "U", "I", "T")


def test_spaced_cells_hold_several_letters():
    (grid,) = parse_grids("Qu   Th\n  in   E  ", EN)
    assert grid.cells == ("QU", "TH", "IN", "E")
    assert grid.letter_mult == grid.word_mult == (1, 1, 1, 1)


def test_one_line_is_square_and_slash_separates_rows():
    (grid,) = parse_grids("perslatgsineters", EN)
    assert (grid.rows, grid.cols) == (4, 4) and "".join(grid.cells) == "PERSLATGSINETERS"
    (grid,) = parse_grids("Qu A I S T E R N E", EN)  # 9 spaced cells: 3×3
    assert (grid.rows, grid.cols) == (3, 3) and grid.cells[0] == "QU"
    # A line with '/' is a grid by itself; '/' separates its rows, a trailing one is one row.
    found = parse_grids("AB/CD\nEF\nGH\nA B C/\nX", EN)
    assert [(g.rows, g.cols, "".join(g.cells)) for g in found] == [
        (2, 2, "ABCD"),
        (2, 2, "EFGH"),
        (1, 3, "ABC"),
        (1, 1, "X"),
    ]


def test_several_grids_separated_by_blank_lines():
    found = parse_grids("\nA B\nC D\n\n   \n\nE F\nG H\n\n", EN)
    assert [g.cells for g in found] == [("A", "B", "C", "D"), ("E", "F", "G", "H")]


def test_size_reads_a_stream_of_cells():
    found = parse_grids("a b c\nd\ne f g h", EN, size=2)
    assert [g.cells for g in found] == [("A", "B", "C", "D"), ("E", "F", "G", "H")]
    assert all((g.rows, g.cols) == (2, 2) for g in found)


def test_multiplier_suffixes_combine():
    (board,) = parse_grids("Qudl Atw\nBdltw C", EN, multipliers=True)
    assert board.cells == ("QU", "A", "B", "C")
    assert board.letter_mult == (2, 1, 2, 1)
    assert board.word_mult == (1, 3, 3, 1)


@pytest.mark.parametrize(
    ("text", "options", "expected"),
    [
        ("A B\nC\n", {}, "b.txt: grid 1, row 2: ragged row: 1 cell where row 1 has 2 cells"),
        ("A B\nC D\n\nC D\nE F G", {}, "b.txt: grid 2, row 2: ragged row"),
        ("  \n\n", {}, "b.txt: empty grid"),
        ("A B\nC 1", {}, "b.txt: grid 1, row 2: cell '1': unknown letter '1'"),
        ("A Ø\nß Ω", {}, "b.txt: grid 1, row 2: cell 'Ω': unknown letter 'Ω'"),
        ("A " * 65 + "/", {}, "b.txt: grid 1: grid of 1×65 cells is too large"),
        ("A " * 65, {}, "b.txt: grid 1: one line of 65 cells is not a square grid"),
        ("ABC/DE", {}, "b.txt: grid 1, row 2: ragged row"),
        ("A\n" * 65, {}, "b.txt: grid 1: grid of 65×1 cells is too large"),
        ("Atl Bxx", {"multipliers": True}, "b.txt: grid 1, row 1: cell 'Bxx': unknown multiplier"),
        ("Atltl B", {"multipliers": True}, "cell 'Atltl': unknown multiplier suffix"),
        ("ABCDE F", {}, "cell 'ABCDE' holds 5 letters (at most 4)"),
        ("A B C", {"size": 2}, "b.txt: 3 cells for grids of size 2: expected a multiple of 4"),
        ("", {"size": 2}, "b.txt: 0 cells for grids of size 2"),
        ("A", {"size": 0}, "b.txt: grid size 0"),
        ("A " * 65**2, {"size": 65}, "b.txt: grid of 65×65 cells is too large"),
    ],
)
def test_bad_boards_are_one_line_user_errors(text, options, expected):
    with pytest.raises(UserError) as error:
        parse_grids(text, EN, source="b.txt", **options)
    message = str(error.value)
    assert expected in message
    assert "\n" not in message


def test_format_reads_back_and_shows_dice_capitalized():
    (board,) = parse_grids(ELZZUR_DEMO, EN, multipliers=True)
    assert format_grid(board) == ELZZUR_DEMO
    grid = Grid.from_rows([["QU", "A"], ["TH", "E"]])
    assert format_grid(grid) == "Qu A\nTh E\n"
    assert parse_grids(format_grid(grid), EN) == [grid]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(LANGUAGES).flatmap(lambda code: grids(code, multipliers=True)))
def test_format_parse_round_trip(grid):
    plain = set(grid.letter_mult + grid.word_mult) == {1}
    # A one-column grid has a text form only with single letters or Qu (see format_grid).
    assume(grid.cols > 1 or (plain and all(len(c) == 1 or c == "QU" for c in grid.cells)))
    assert parse_grids(format_grid(grid), EN, multipliers=True) == [grid]
    if plain:
        assert parse_grids(format_grid(grid), EN) == [grid]


@pytest.mark.parametrize("adjacency", [4, 8])
@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (1, 5), (4, 4), (3, 6)])
def test_neighbours(rows, cols, adjacency):
    grid = Grid.from_rows([["A"] * cols for _ in range(rows)])
    around = neighbours(grid, adjacency)
    assert len(around) == rows * cols
    for cell, cells in enumerate(around):
        assert list(cells) == sorted(set(cells)) and cell not in cells
        r, c = divmod(cell, cols)
        expected = {
            (r + dr) * cols + c + dc
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0)
            and 0 <= r + dr < rows
            and 0 <= c + dc < cols
            and (adjacency == 8 or 0 in (dr, dc))
        }
        assert set(cells) == expected
        assert all(cell in around[other] for other in cells)  # symmetric


def test_one_column_grid_with_multi_letter_cells_has_no_text_form():
    with pytest.raises(ValueError):
        format_grid(Grid.from_rows([["TH"], ["A"]]))
    assert format_grid(Grid.from_rows([["QU"], ["A"]])) == "Qu\nA\n"


def test_neighbours_counts_and_bad_adjacency():
    grid = Grid.from_rows([["A"] * 4 for _ in range(4)])
    assert [len(c) for c in neighbours(grid)] == [3, 5, 5, 3, 5, 8, 8, 5, 5, 8, 8, 5, 3, 5, 5, 3]
    assert [len(c) for c in neighbours(grid, 4)][:6] == [2, 3, 3, 2, 3, 4]
    with pytest.raises(UserError, match="adjacency 6: expected 4 or 8"):
        neighbours(grid, 6)
