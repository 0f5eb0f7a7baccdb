"""The score-only Boggle search and ``best-board``, against listings, a brute force and an
exhaustive search of every board small enough to enumerate."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from itertools import permutations, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from solver_fixtures import ROOT, grids, language, small_lexicon

from lexforge import boggle, reference
from lexforge.bestboard import best_board
from lexforge.errors import UserError
from lexforge.grid import Grid
from lexforge.lexicon import Lexicon

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))
ENABLE = ROOT / "raw" / "en" / "enable2k" / "enable2k.txt"


@settings(max_examples=150, deadline=None)
@given(grid=grids("en"))
def test_scores_equal_the_brute_force_and_the_listing(grid):
    lexicon = small_lexicon("en")
    oracle = reference.boggle_brute_force(lexicon, grid)
    listed = boggle.solve_batch(lexicon, [grid])[0]
    expected = (sum(w.score for w in oracle), len(oracle))
    assert boggle.score_batch(lexicon, [grid], threads=1) == [expected]
    assert expected == (sum(map(boggle.boggle_score, listed)), len(listed))


def test_scores_of_many_boards_on_two_threads():
    lexicon = small_lexicon("en")
    boards = [Grid.from_rows([list("SERS"), list("PATG"), list("LINE"), list("SERS")])] * 3
    boards += [Grid.from_rows([["QU", "A"], ["I", "T"]]), Grid.from_rows([list("ZZZ")])] * 40
    expected = [
        (sum(map(boggle.boggle_score, words)), len(words))
        for words in boggle.solve_batch(lexicon, boards)
    ]
    assert boggle.score_batch(lexicon, boards, threads=2) == expected
    assert expected[0][0] > 100 and expected[-1] == (0, 0)


@cache
def letters_lexicon(letters: str) -> Lexicon:
    """The ENABLE2K words spelled with ``letters`` only: a small real lexicon."""
    words = ENABLE.read_text(encoding="ascii").upper().split()
    return Lexicon.from_words([w for w in words if set(w) <= set(letters)], language("en"))


def exhaustive_best(lexicon: Lexicon, boards: list[Grid]) -> tuple[tuple[int, int], int]:
    """The best (score, words) over ``boards`` and how many boards reach that score."""
    scores = boggle.score_batch(lexicon, boards)
    best = max(scores)
    return best, sum(score == best[0] for score, _ in scores)


@pytest.mark.parametrize(
    ("rows", "cols", "letters"), [(2, 3, "AELRST"), (2, 3, "EINOST"), (2, 4, "AERT")]
)
def test_finds_the_exhaustive_optimum(rows, cols, letters):
    lexicon = letters_lexicon(letters)
    cells = rows * cols
    boards = [
        Grid.from_rows([list(c[r * cols : (r + 1) * cols]) for r in range(rows)])
        for c in product(letters, repeat=cells)
    ]
    (best, words), reaching = exhaustive_best(lexicon, boards)
    assert reaching < len(boards) / 100  # a rare board, not found by chance
    for seed in range(3):
        found = best_board(lexicon, rows, cols, letters=letters, restarts=4, seed=seed)
        assert (found.score, found.words) == (best, words)
        oracle = reference.boggle_brute_force(lexicon, found.grid)
        assert (sum(w.score for w in oracle), len(oracle)) == (best, words)


def test_finds_the_exhaustive_optimum_with_dice():
    dice = [["A", "S"], ["E", "T"], ["R", "L"], ["T", "E"], ["S", "N"], ["QU", "I"]]
    lexicon = letters_lexicon("AEILNQRSTU")
    boards = [
        Grid.from_rows([[dice[d][f] for d, f in zip(order[:3], faces[:3], strict=True)],
                        [dice[d][f] for d, f in zip(order[3:], faces[3:], strict=True)]])
        for order in permutations(range(6))
        for faces in product((0, 1), repeat=6)
    ]  # fmt: skip
    (best, words), reaching = exhaustive_best(lexicon, boards)
    assert reaching < len(boards) / 100
    found = best_board(lexicon, 2, 3, dice=dice, restarts=6, seed=1)
    assert (found.score, found.words) == (best, words)
    used = sorted(found.grid.cells)
    assert any(
        sorted(die[f] for die, f in zip(dice, faces, strict=True)) == used
        for faces in product((0, 1), repeat=6)
    )  # one face of each die


def test_deterministic_for_a_seed():
    lexicon = letters_lexicon("AELRST")
    runs = [best_board(lexicon, 3, 3, letters="AELRST", restarts=2, seed=5) for _ in range(2)]
    assert runs[0] == runs[1]
    with pytest.raises(UserError, match="not in the alphabet"):
        best_board(lexicon, 2, 2, letters="AB1", restarts=1)


# --- the command ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def word_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bestboard") / "words.txt"
    path.write_text("\n".join(letters_lexicon("AELRST").words.keys()) + "\n", encoding="ascii")
    return path


def lexforge(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([LEXFORGE, *args], capture_output=True, text=True)


def test_command_text_and_json(word_list):
    options = ["best-board", "-d", str(word_list), "--size", "2x3", "--letters", "AELRST"]
    done = lexforge(*options, "--restarts", "3", "--seed", "2")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 4, done
    assert lines[2:] == ["score\t112", "words\t88"]
    answer = json.loads(lexforge(*options, "--restarts", "3", "--seed", "2", "--json").stdout)
    assert answer["schema"] == "lexforge/1" and answer["command"] == "best-board"
    (result,) = answer["results"]
    assert result["board"] == "/".join(line.replace(" ", "") for line in lines[:2])
    assert (result["score"], result["words"]) == (112, 88)
    assert answer["restarts"] == 3 and answer["evaluations"] > 100


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--size", "4y4"], "--size '4y4'"),
        (["--size", "0x3"], "--size '0x3'"),
        (["--letters", "AB7"], "not in the alphabet"),
        (["--seconds", "0"], "out of range"),
        (["--size", "2x3", "--dice"], "no dice set"),
        (["--dice", "--letters", "ABC"], "letters or dice, not both"),
        (["--size", "9x9"], "at most 64 cells"),
    ],
)
def test_command_errors_in_one_line(word_list, args, message):
    done = lexforge("best-board", "-d", str(word_list), "--restarts", "1", *args)
    usage = "--size" in message or message == "out of range"  # refused by argparse
    assert done.returncode == (2 if usage else 1) and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
