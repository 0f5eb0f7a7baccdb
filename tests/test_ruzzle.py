"""Ruzzle: scoring, best paths, sorting and letter values; fast path against both oracles."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import LANGUAGES, assert_valid_path, grids, language, small_lexicon

from lexforge import reference, ruzzle
from lexforge.errors import UserError
from lexforge.grid import Grid, parse_grids
from lexforge.lexicon import Lexicon

EN = language("en")
# pettarin/elzzur's documented English demo board and the top of its output.
ELZZUR_DEMO = """\
Ttl R   S   Ndl
Odw Htw E   I
Cdw I   N   V
Etl A   D   E
"""
ELZZUR_TOP = [
    ("COHESIVE", 224, ((2, 0), (1, 0), (1, 1), (1, 2), (0, 2), (1, 3), (2, 3), (3, 3))),
    ("CHORES", 154, ((2, 0), (1, 1), (1, 0), (0, 1), (1, 2), (0, 2))),
    ("HEROIC", 154, ((1, 1), (1, 2), (0, 1), (1, 0), (2, 1), (2, 0))),
    ("COHEN", 149, ((2, 0), (1, 0), (1, 1), (1, 2), (0, 3))),
    ("ECHO", 144, ((3, 0), (2, 0), (1, 1), (1, 0))),
]
ELZZUR_TAIL = {  # 2-letter words at the end of elzzur's listing, all worth 2
    "IA": ((2, 1), (3, 1)),
    "ES": ((1, 2), (0, 2)),
    "ER": ((1, 2), (0, 1)),
    "AN": ((3, 1), (2, 2)),
    "AI": ((3, 1), (2, 1)),
}


def demo_board() -> Grid:
    return parse_grids(ELZZUR_DEMO, EN, multipliers=True)[0]


def test_elzzur_demo_board_scores():
    words = [word for word, _, _ in ELZZUR_TOP] + list(ELZZUR_TAIL) + ["ZEBRA"]
    lex = Lexicon.from_words(words, EN)
    found = ruzzle.solve(lex, demo_board())
    assert [(w.word, w.score, w.path) for w in found[:5]] == ELZZUR_TOP
    assert {w.word: (w.score, w.path) for w in found[5:]} == {
        word: (2, path) for word, path in ELZZUR_TAIL.items()
    }
    for solve in (reference.ruzzle_dfs, reference.ruzzle_brute_force):
        assert solve(lex, demo_board()) == found


def test_score_rules():
    board = demo_board()
    values = EN.ruzzle_values
    cohesive = ELZZUR_TOP[0][2]
    # (C4 + O1 + H4 + E1 + S1 + I1 + V4 + E1) × dw × dw × tw + 20 for 8 letters.
    assert ruzzle.ruzzle_score(board, cohesive, values) == 17 * 12 + 20
    assert ruzzle.ruzzle_score(board, ((0, 0), (0, 1)), values) == 1 * 3 + 1  # Ttl R
    assert [ruzzle.length_bonus(n) for n in range(2, 13)] == [0, 0, 0, 5, 10, 15, 20] + [25] * 4


def test_qu_cell_scores_both_letters_and_counts_two():
    lex = Lexicon.from_words(["QUA", "QUOTA"], EN)
    board = Grid(2, 3, ("QU", "A", "X", "O", "T", "A"), (2, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 3))
    found = ruzzle.solve(lex, board)
    # QUOTA: ((10 + 2) × dl + 1 + 1 + 1) × tw + 5 for five letters; QUA: (10 + 2) × 2 + 1.
    assert [(w.word, w.score) for w in found] == [("QUOTA", 86), ("QUA", 25)]


def test_best_path_is_kept():
    lex = Lexicon.from_words(["TEA"], EN)
    # Two T cells: the plain one comes first in reading order, the tripled one scores more.
    board = Grid(2, 3, ("T", "E", "T", "X", "A", "X"), (1, 1, 3, 1, 1, 1), (1, 1, 1, 1, 1, 1))
    (tea,) = ruzzle.solve(lex, board)
    assert (tea.score, tea.path) == (5, ((0, 2), (0, 1), (1, 1)))
    plain = dataclasses.replace(board, letter_mult=(1,) * 6)
    (tea,) = ruzzle.solve(lex, plain)
    assert (tea.score, tea.path) == (3, ((0, 0), (0, 1), (1, 1)))  # tie: first path


def test_sort_words():
    words = [
        ruzzle.RuzzleWord("AB", 9, ((1, 1), (0, 0))),
        ruzzle.RuzzleWord("ABC", 5, ((0, 1), (1, 1), (0, 0))),
        ruzzle.RuzzleWord("BA", 9, ((0, 0), (1, 0))),
    ]
    by = {key: [w.word for w in ruzzle.sort_words(words, key)] for key in ruzzle.SORT_KEYS}
    assert by == {
        "score": ["AB", "BA", "ABC"],
        "length": ["ABC", "AB", "BA"],
        "start": ["BA", "ABC", "AB"],
        "end": ["AB", "ABC", "BA"],
    }
    with pytest.raises(UserError, match="unknown sort key 'size'"):
        ruzzle.sort_words(words, "size")


def test_missing_letter_value_is_a_user_error():
    lex = Lexicon.from_words(["AB"], EN)
    board = Grid.from_rows([["A", "B"]])
    with pytest.raises(UserError, match="no Ruzzle value for letter 'B' \\(language en lists none"):
        ruzzle.solve(lex, board, values={"A": 1})
    assert ruzzle.solve(lex, board, values={"A": 1, "B": 7})[0].score == 8


def test_parse_values(tmp_path):
    assert ruzzle.parse_values("a=1, B=4,C=10", "--values") == {"A": 1, "B": 4, "C": 10}
    path = tmp_path / "values.txt"
    path.write_text("# French\nA=1\nB=3,C=3\n\nK=10  # rare\n", encoding="utf-8")
    assert ruzzle.parse_values(str(path), "--values") == {"A": 1, "B": 3, "C": 3, "K": 10}
    path.write_text("# nothing yet\n", encoding="utf-8")
    with pytest.raises(UserError, match=f"^{path}: no letter values"):
        ruzzle.parse_values(str(path), "--values")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("A=1,B=x", "--values: bad letter value 'B=x'"),
        ("A=1,AB=2", "--values: bad letter value 'AB=2'"),
        ("A=-1", "--values: bad letter value 'A=-1'"),
        ("A=1,a=2", "--values: letter A is given twice"),
        ("missing-file.txt", "missing-file.txt: cannot read letter values"),
    ],
)
def test_parse_values_errors(spec, message):
    with pytest.raises(UserError) as error:
        ruzzle.parse_values(spec, "--values")
    assert str(error.value).startswith(message)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("code", LANGUAGES)
def test_fast_path_matches_both_oracles(code):
    lex = small_lexicon(code)

    @settings(max_examples=30, deadline=None)
    @given(grids(code, multipliers=True), st.sampled_from((1, 2, 3)))
    def check(board, min_length):
        fast = ruzzle.solve(lex, board, min_length=min_length)
        assert fast == reference.ruzzle_dfs(lex, board, min_length=min_length)
        assert fast == reference.ruzzle_brute_force(lex, board, min_length=min_length)
        for found in fast:
            assert len(found.word) >= min_length and found.word in lex
            assert_valid_path(board, found.word, found.path, 8)
            assert found.score == ruzzle.ruzzle_score(board, found.path, lex.language.ruzzle_values)

    check()


def test_boards_with_thousands_of_words_and_better_paths():
    """Many words, each with many paths of different scores: the kernel's buffers overflow."""
    words = ("".join(p) for n in range(1, 10) for p in itertools.product("ABC", repeat=n))
    lex = Lexicon.from_words(words, EN)
    board = parse_grids("Atl B Cdw\nC Adl B\nBtw C A", EN, multipliers=True)[0]
    expected = reference.ruzzle_dfs(lex, board, min_length=1)
    assert len(expected) > 2000
    assert ruzzle.solve(lex, board, min_length=1) == expected
