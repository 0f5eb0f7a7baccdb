"""Fuzzing the command line: hostile input to every command gives an answer or one error line,
and the answers to random well-formed queries equal the brute-force oracles'.

Bounded for CI (``EXAMPLES`` per command); ``scripts/fuzz.py`` runs the same cases longer and
prints how many of each outcome it saw.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fuzz_harness import COMMANDS, command_lines, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexforge.grid import parse_grids
from lexforge.lexicon import Lexicon
from lexforge.reference import boggle_brute_force, rack_brute_force

EXAMPLES = 100
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
ORACLE = settings(FUZZ, max_examples=25)  # the brute force reads the whole lexicon per case


@pytest.fixture(scope="module", autouse=True)
def lexicons_by_name(build_dir: Path):
    """``--lexicon en`` finds the built lexicons wherever the tests run from."""
    before = os.environ.get("LEXFORGE_PATH")
    os.environ["LEXFORGE_PATH"] = str(build_dir)
    yield
    if before is None:
        os.environ.pop("LEXFORGE_PATH", None)
    else:
        os.environ["LEXFORGE_PATH"] = before


@pytest.fixture(scope="module")
def english(build_dir: Path) -> Lexicon:
    return Lexicon.open(build_dir / "en")


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_hostile_command_lines_answer_or_fail_in_one_line(command: str) -> None:
    @FUZZ
    @given(case=command_lines(command))
    def check(case: tuple[list[str], str]) -> None:
        argv, stdin = case
        outcome = run(argv, stdin)
        assert outcome.kind != "defect", (argv, stdin[:200], outcome)

    check()


#: Defects the fuzzing found, kept as fixed cases.
FOUND = [
    (["anagram", "ABC", "--lexicon", "a" * 300], ""),  # file name too long: a traceback
    (["pattern", "\r", "--lexicon", "en"], ""),  # a line break inside the error line
    (["ruzzle", "A" * 10_000, "--lexicon", "en"], ""),  # the whole board quoted
    (["ruzzle", "--values", "A" * 10_000, "--lexicon", "en"], "A B\nC D"),
    (["ruzzle", "ﬁ", "--lexicon", "en"], ""),  # a one-column grid with no text form
    (["boggle", "ﬁ", "--lexicon", "en", "--json"], ""),
    (["scrabble", "--layout", "\x00", "--rack", "ABC", "--lexicon", "en"], ""),  # NUL in a name
    (["boggle", "A B/C D", "--svg", "\x00", "--lexicon", "en"], ""),
    (["anagram", "ABC", "-d", "\x00"], ""),
    (["generate", "--multipliers", "--cols", "1", "--lexicon", "en"], ""),  # no text form
    (["anagram", "--phrase", "ab", "--limit", "99999999999999999999", "--lexicon", "en"], ""),
    (["ruzzle", "A B/C D", "--values", "A=99999999999999999999", "--lexicon", "en"], ""),
]


@pytest.mark.parametrize(("argv", "stdin"), FOUND)
def test_what_the_fuzzing_found(argv: list[str], stdin: str) -> None:
    outcome = run(argv, stdin)
    assert outcome.kind == "error", outcome


RACKS = st.tuples(
    st.text(alphabet="ABCDEEFGILMNORSTUé", min_size=1, max_size=6),
    st.sampled_from(("", "*", "?", "*?")),
).map("".join)


@ORACLE
@given(rack=RACKS)
def test_random_racks_answer_what_the_brute_force_finds(english: Lexicon, rack: str) -> None:
    outcome, answer = _json(["anagram", rack, "--lexicon", "en", "--json"])
    assert outcome.kind == "answer", outcome
    found = sorted((r["word"], r["shown"], r["score"]) for r in answer["results"])
    oracle = sorted((m.word, m.shown, m.score) for m in rack_brute_force(english, rack))
    assert found == oracle


SPANISH_RACKS = st.tuples(
    st.lists(st.sampled_from((*"AEOICHLRSNÑ", "[CH]", "[LL]", "[RR]", "[ch]")), max_size=5),
    st.sampled_from(("A", "?", "*?")),
).map(lambda parts: "".join(parts[0]) + parts[1])


@settings(ORACLE, max_examples=10)
@given(rack=SPANISH_RACKS)
def test_random_spanish_racks_with_digraph_tiles_answer_what_the_brute_force_finds(
    build_dir: Path, rack: str
) -> None:
    """es-scrabble: [CH], [LL] and [RR] are one tile each, C and H two; words come out spelled."""
    spanish = Lexicon.open(build_dir / "es-scrabble")
    outcome, answer = _json(["anagram", rack, "--lexicon", "es-scrabble", "--json"])
    assert outcome.kind == "answer", outcome
    found = sorted((r["word"], r["shown"], r["score"]) for r in answer["results"])
    spell = spanish.language.spell
    oracle = rack_brute_force(spanish, rack)
    assert found == sorted((spell(m.word), spell(m.shown), m.score) for m in oracle)


GRIDS = st.lists(st.text(alphabet="AEIOURSTLNCDP", min_size=4, max_size=4), min_size=4, max_size=4)


@ORACLE
@given(rows=GRIDS)
def test_random_grids_answer_what_the_brute_force_finds(english: Lexicon, rows: list[str]) -> None:
    text = "/".join(" ".join(row) for row in rows)
    outcome, answer = _json(["boggle", text, "--lexicon", "en", "--json", "--paths"])
    assert outcome.kind == "answer", outcome
    grid = parse_grids(text.replace("/", "\n"), english.language)[0]
    assert sorted(r["word"] for r in answer["results"]) == sorted(
        w.word for w in boggle_brute_force(english, grid)
    )


def _json(argv: list[str]) -> tuple:
    """The outcome of a command and its whole JSON answer (None unless it answered): no output
    cap, since an eight-tile rack with two jokers answers with more than the fuzz cap."""
    outcome = run(argv, cap=1 << 30)
    return outcome, json.loads(outcome.stdout) if outcome.kind == "answer" else None
