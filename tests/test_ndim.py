"""n-dimensional Boggle grids: the format, the compiled search against the oracles, the CLI."""

from __future__ import annotations

import json
import math
import re

import pytest
from fuzz_harness import run
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import language, small_lexicon

from lexforge import boggle, reference, ruzzle
from lexforge.errors import UserError
from lexforge.generate import generate_boards
from lexforge.grid import (
    MAX_CELLS,
    MAX_DIMS,
    Grid,
    adjacent_cells,
    format_grid,
    format_grid_line,
    parse_grids,
    parse_shape,
)
from lexforge.lexicon import Lexicon

EN = language("en")
CUBE = "AB/CD|EF/GH"  # a 2×2×2 cube: A at (0,0,0), H at (1,1,1)


def cube_lexicon(*words: str) -> Lexicon:
    return Lexicon.from_words(words, EN)


# --- the model and the format -----------------------------------------------------------------


def test_layers_on_lines_and_on_one_line_are_the_same_cube():
    (lines,) = parse_grids("A B\nC D\n---\nE F\nG H\n", EN)
    (one_line,) = parse_grids(CUBE, EN)
    (shaped,) = parse_grids("ABCDEFGH", EN, shape=(2, 2, 2))
    assert lines == one_line == shaped
    assert lines.shape == (2, 2, 2) and lines.layers == (2,)
    assert lines.cells == tuple("ABCDEFGH")
    assert lines.coords(7) == (1, 1, 1) and lines.coords(2) == (0, 1, 0)


def test_blank_lines_around_a_separator_and_several_grids():
    text = "AB\nCD\n\n---\n\nEF\nGH\n\nIJ\nKL\n"
    cube, square = parse_grids(text, EN)
    assert cube.shape == (2, 2, 2) and square.shape == (2, 2)


def test_four_dimensions_blocks_of_layers():
    text = "A B\nC D\n---\nE F\nG H\n===\nI J\nK L\n---\nM N\nO P\n"
    (grid,) = parse_grids(text, EN)
    assert grid.shape == (2, 2, 2, 2)
    assert grid.coords(8) == (1, 0, 0, 0) and grid.cells[8] == "I"
    assert format_grid(grid) == text
    assert format_grid_line(grid) == "AB/CD|EF/GH||IJ/KL|MN/OP"


def test_a_one_dimensional_shape_is_one_row():
    (grid,) = parse_grids("A B C", EN, shape=(3,))
    assert grid.shape == (1, 3) and grid == Grid.from_cells((3,), ("A", "B", "C"))


def test_shape_stream_spaced_cells_and_several_grids():
    first, second = parse_grids("Qu I\nT E\nABCD\n", EN, shape=(2, 2))
    assert first.cells == ("QU", "I", "T", "E") and second.cells == tuple("ABCD")


shapes = st.lists(st.integers(1, 4), min_size=1, max_size=4).filter(
    lambda shape: math.prod(shape) <= 40
)


@settings(max_examples=60, deadline=None)
@given(shapes, st.data())
def test_format_round_trips(shape, data):
    cells = data.draw(st.lists(st.sampled_from(["A", "B", "QU", "TH", "E"]), min_size=1))
    n = math.prod(shape)
    cells = tuple((cells * n)[:n])
    if shape[-1] == 1:
        cells = tuple(c if c != "TH" else "T" for c in cells)  # a one-column grid: no Th
    grid = Grid.from_cells(tuple(shape), cells)
    assert parse_grids(format_grid(grid), EN) == [grid]
    assert parse_grids(format_grid_line(grid), EN) == [grid]


def test_neighbour_counts():
    cube = adjacent_cells((3, 3, 3), 8)
    assert len(cube[13]) == 26 and len(cube[0]) == 7
    assert len(adjacent_cells((3, 3, 3), 4)[13]) == 6
    assert len(adjacent_cells((3, 3, 3, 3), 8)[40]) == 80
    assert len(adjacent_cells((3, 3, 3, 3), 4)[40]) == 8
    for shape in [(3, 3, 3), (2, 3, 4), (3, 1, 2, 2), (5,)]:
        for adjacency in (4, 8):
            assert list(adjacent_cells(shape, adjacency)) == reference.grid_neighbours(
                shape, adjacency
            )


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("AB\nCD\n---\nEFG\nHIJ\n", "ragged layers: 2×3 where layer 1 is 2×2"),
        ("AB/CD|EF/GH||IJ/KL", "ragged layers: 3-D block 2 holds 1 layers where block 1 holds 2"),
        ("AB\nCD\n---\n", "layer 2: empty layer"),
        ("AB/CD|EF/G", "layer 2, row 2: ragged row"),
        ("AB/CD|||EF/GH", "a separator of 5-D blocks ('|||' or '===='), but a grid has at most 4"),
        ("A\n" + "=" * 5000 + "\nB", "a separator of 5001-D blocks"),
    ],
)
def test_bad_layers_are_user_errors(text, fragment):
    with pytest.raises(UserError, match=re.escape(fragment)):
        parse_grids(text, EN, source="in")


@pytest.mark.parametrize(
    ("shape", "fragment"),
    [
        ("4x4x0", "every side must be at least 1"),
        ("4x-4", "expected sides separated by 'x'"),
        ("", "expected sides"),
        ("2x" * MAX_DIMS + "2", f"{MAX_DIMS + 1} dimensions, at most {MAX_DIMS}"),
        ("65x2", "too large"),
        ("16x16x17", f"{MAX_CELLS} cells"),
    ],
)
def test_bad_shapes_are_user_errors(shape, fragment):
    with pytest.raises(UserError, match=fragment):
        parse_shape(shape)


def test_cell_count_must_match_the_shape():
    with pytest.raises(UserError, match="7 cells for grids of shape 2x2x2: expected a multiple"):
        parse_grids("ABCDEFG", EN, shape=(2, 2, 2), source="in")


# --- the search against the oracles -------------------------------------------------------------


def test_hand_checked_cube_word_through_a_diagonal_across_layers():
    # AH: from (0,0,0) to (1,1,1), the cube's space diagonal; HGFE: along the back layer;
    # ACE: (0,0,0) → (0,1,0) → (1,0,0), a diagonal between layers. DAH needs D next to A.
    lexicon = cube_lexicon("AHB", "ACE", "HGFE", "DAH", "ABDC", "AEG")
    (grid,) = parse_grids(CUBE, EN)
    king = {w.word: w.path for w in boggle.solve(lexicon, grid)}
    assert king == {
        "ABDC": ((0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 0)),
        "HGFE": ((1, 1, 1), (1, 1, 0), (1, 0, 1), (1, 0, 0)),
        "ACE": ((0, 0, 0), (0, 1, 0), (1, 0, 0)),
        "AEG": ((0, 0, 0), (1, 0, 0), (1, 1, 0)),
        "AHB": ((0, 0, 0), (1, 1, 1), (0, 0, 1)),
        "DAH": ((0, 1, 1), (0, 0, 0), (1, 1, 1)),
    }
    rook = tuple(w.word for w in boggle.solve(lexicon, grid, adjacency=4))
    assert rook == ("ABDC", "AEG")  # every diagonal step is gone
    assert boggle.solve_batch(lexicon, [grid, grid], adjacency=4) == [rook, rook]


@st.composite
def nd_grids(draw, code: str) -> Grid:
    """A random grid of 1 to 4 dimensions (at most 40 cells), usually with a word planted."""
    shape = draw(shapes)
    n = math.prod(shape)
    pool = "".join(small_lexicon(code).words.keys())[::97]
    cells = draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    if draw(st.booleans()):
        word = draw(st.sampled_from(small_lexicon(code).words.keys()))
        around = reference.grid_neighbours(tuple(shape), 8)
        path = [draw(st.integers(0, n - 1))]
        for _ in word[1:]:
            free = [c for c in around[path[-1]] if c not in path]
            if not free:
                break
            path.append(draw(st.sampled_from(free)))
        for cell, letter in zip(path, word, strict=False):
            cells[cell] = letter
    return Grid.from_cells(tuple(shape), tuple(cells))


@settings(max_examples=80, deadline=None)
@given(nd_grids("en"), st.sampled_from((4, 8)))
def test_nd_search_matches_both_oracles(grid, adjacency):
    lexicon = small_lexicon("en")
    options = {"min_length": 3, "adjacency": adjacency}
    fast = boggle.solve(lexicon, grid, **options)
    assert fast == reference.boggle_brute_force(lexicon, grid, **options)
    assert fast == reference.boggle_dfs(lexicon, grid, **options)
    assert boggle.solve_batch(lexicon, [grid], **options) == [tuple(w.word for w in fast)]
    assert boggle.score_batch(lexicon, [grid], **options) == [
        (sum(w.score for w in fast), len(fast))
    ]


@settings(max_examples=10, deadline=None)
@given(st.lists(nd_grids("fr"), min_size=1, max_size=20), st.sampled_from((1, 2)))
def test_batch_of_mixed_dimensions_matches_single_solves(grids, threads):
    lexicon = small_lexicon("fr")
    batch = boggle.solve_batch(lexicon, grids, threads=threads)
    assert batch == [tuple(w.word for w in boggle.solve(lexicon, grid)) for grid in grids]


def test_boards_over_64_cells_go_to_the_depth_first_search():
    lexicon = small_lexicon("en")
    grids = list(generate_boards(lexicon, shape=(3, 3, 3, 3), count=2, seed=3))
    grids.append(next(generate_boards(lexicon, shape=(4, 4, 4), seed=3)))
    batch = boggle.solve_batch(lexicon, grids, threads=2)
    assert batch == [tuple(w.word for w in boggle.solve(lexicon, grid)) for grid in grids]
    assert all(batch)
    for adjacency in (4, 8):
        fast = boggle.solve(lexicon, grids[0], adjacency=adjacency)
        assert fast == reference.boggle_brute_force(lexicon, grids[0], adjacency=adjacency)


# --- the command line -----------------------------------------------------------------------------


def test_cli_paths_as_coordinate_tuples(build_dir):
    outcome = run(["boggle", CUBE, "--lexicon", "en", "--paths", "--json"])
    answer = json.loads(outcome.stdout)
    (summary,) = answer["grids"]
    assert summary["board"] == CUBE and summary["shape"] == [2, 2, 2]
    assert summary["count"] == len(answer["results"]) > 0
    assert all(len(cell) == 3 for row in answer["results"] for cell in row["path"])
    shaped = ["boggle", "--shape", "2x2x2", "ABCDEFGH", "--lexicon", "en", "--paths"]
    lines = run(shaped).stdout.decode().splitlines()
    first = {w.word: w.path for w in boggle.solve(Lexicon.open("en"), parse_grids(CUBE, EN)[0])}
    word, path = lines[0].split("\t")
    assert path == " ".join("({},{},{})".format(*cell) for cell in first[word])
    tsv = run([*shaped, "--format", "tsv"]).stdout.decode().splitlines()
    assert tsv[1].split("\t")[3] == " ".join("{},{},{}".format(*cell) for cell in first[word])


def test_generate_shape_reads_back(build_dir):
    argv = ["generate", "--shape", "3x3x3", "--seed", "5", "--count", "2", "--lexicon", "en"]
    generated = run(argv)
    assert generated.kind == "answer" and generated.stdout.decode().count("---") == 4
    listed = json.loads(run([*argv, "--json"]).stdout)
    assert listed["query"]["shape"] == [3, 3, 3] and "rows" not in listed["query"]
    solved = run(["boggle", "--lexicon", "en", "--json"], generated.stdout.decode())
    grids = json.loads(solved.stdout)["grids"]
    assert [g["board"] for g in grids] == [r["board"] for r in listed["results"]]
    assert all(g["shape"] == [3, 3, 3] for g in grids)


@pytest.mark.parametrize(
    ("argv", "stdin", "fragment"),
    [
        (["boggle", "--shape", "4x4x0", "ABC"], "", "--shape '4x4x0': every side"),
        (["boggle", "--shape", "2x2x2", "ABCDEFG"], "", "7 cells for grids of shape 2x2x2"),
        (["boggle", "--shape", "64x64x64", "-"], "A", "too large"),
        (["boggle"], "AB\nCD\n---\nEFG\nHIJ\n", "<stdin>: grid 1, layer 2: ragged layers"),
        (["boggle", CUBE, "--size", "2"], "", "grid 1 is 2×2×2, --size says 2×2"),
        (["boggle", CUBE, "--show"], "", "--show and --svg draw 2-D grids"),
        (["ruzzle", CUBE], "", "grid 1 is 2×2×2: Ruzzle boards are 2-D"),
        (["scrabble", "--rack", "ABC"], "AB\n---\nCD\n", "a Scrabble board is 2-D"),
        (["generate", "--shape", "2x2x2", "--multipliers"], "", "Ruzzle boards (--multipliers)"),
        (["generate", "--shape", "3x3x3x3x3"], "", "5 dimensions, at most 4"),
    ],
)
def test_bad_nd_input_is_one_error_line(build_dir, argv, stdin, fragment):
    outcome = run([*argv, "--lexicon", "en"], stdin)
    assert outcome.kind == "error" and outcome.code == 1, outcome
    assert fragment in outcome.stderr, outcome.stderr


def test_ruzzle_api_refuses_a_cube():
    (grid,) = parse_grids(CUBE, EN)
    with pytest.raises(UserError, match="Ruzzle board is 2-D"):
        ruzzle.solve(small_lexicon("en"), grid)
