"""Racks with jokers and crossword patterns, against brute-force oracles."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solver_fixtures import LANGUAGES, language, small_lexicon

from lexforge import reference
from lexforge.anagram import anagram, parse_rack, pattern, show_jokers
from lexforge.errors import UserError
from lexforge.lexicon import Lexicon


@pytest.fixture(scope="module")
def toy() -> Lexicon:
    return Lexicon.from_words(TOY_WORDS, language("fr"))


TOY_WORDS = ("ELEPHANT", "PLANE", "PANEL", "PENAL", "NAPE", "PEN", "TEN", "NET", "ANT", "TAN",
             "CHAT", "CHATS", "TACHE", "EH", "HE")  # fmt: skip


def test_subset_anagrams_like_the_seed(toy):
    needs_c = {"CHAT", "CHATS", "TACHE"}  # ELEPHANT has no C
    assert {m.word for m in anagram(toy, "ELEPHANT")} == set(TOY_WORDS) - needs_c


def test_exact_and_bounds(toy):
    assert [m.word for m in anagram(toy, "ELPAN", exact=True)] == ["PANEL", "PENAL", "PLANE"]
    assert {m.word for m in anagram(toy, "ELEPHANT", min_length=4, max_length=5)} == {
        "PLANE",
        "PANEL",
        "PENAL",
        "NAPE",
    }


def test_jokers_are_shown_lowercase_and_score_zero(toy):
    found = {m.word: m for m in anagram(toy, "CHA*")}
    assert found["CHAT"].shown == "CHAt" and found["CHAT"].score == 3 + 4 + 1  # C H A, t = 0
    assert found["HE"].shown == "He" and found["EH"].shown == "eH"
    assert "CHATS" not in found and "TACHE" not in found  # would need two jokers
    assert {m.shown for m in anagram(toy, "??", exact=True)} == {"eh", "he"}


def test_contains_and_sorts(toy):
    assert {m.word for m in anagram(toy, "ELEPHANT", contains="PL")} == {
        "ELEPHANT",
        "PLANE",
        "PANEL",
        "PENAL",
    }
    by_score = anagram(toy, "ELEPHANT", sort="score")
    assert [m.score for m in by_score] == sorted((m.score for m in by_score), reverse=True)
    by_length = anagram(toy, "ELEPHANT")
    assert by_length[0].word == "ELEPHANT" and by_length[-1].word in ("EH", "HE")
    assert [m.word for m in anagram(toy, "ELEPHANT", sort="alpha")][:2] == ["ANT", "EH"]


def test_show_jokers_marks_last_occurrences():
    assert show_jokers("TATA", "T") == "TAtA"
    assert show_jokers("TATA", "TA") == "TAta"
    assert show_jokers("ELEPHANT", "") == "ELEPHANT"


@pytest.mark.parametrize(
    ("rack", "message"),
    [
        ("", "no letters"),
        ("  ", "no letters"),
        ("ab****", "4 jokers"),
        ("ab3", "not in the"),
        ("абв", "not in the"),
    ],
)
def test_bad_racks_are_one_line(toy, rack, message):
    with pytest.raises(UserError, match=message) as error:
        anagram(toy, rack)
    assert "\n" not in str(error.value)


def test_accents_in_racks_are_folded(toy):
    assert {m.word for m in anagram(toy, "éléphant", exact=True)} == {"ELEPHANT"}


def test_patterns(toy):
    assert [m.word for m in pattern(toy, "?EN")] == ["PEN", "TEN"]
    assert [m.word for m in pattern(toy, "P*")] == ["PANEL", "PEN", "PENAL", "PLANE"]
    assert [m.word for m in pattern(toy, "*A*E*")] == ["NAPE", "PANEL", "PLANE", "TACHE"]
    assert [m.shown for m in pattern(toy, "P?N??", rack_text="EA*")] == ["PANEl", "PENAl"]
    assert {m.word for m in pattern(toy, "P?N??", rack_text="EAL")} == {"PANEL", "PENAL"}
    assert pattern(toy, "P?N??", rack_text="XY") == []
    with pytest.raises(UserError, match="not a letter"):
        pattern(toy, "C#A")


def pattern_oracle(lexicon: Lexicon, text: str) -> set[str]:
    regex = re.compile(text.replace("?", ".").replace("*", ".*"))
    return {w for w in lexicon.words.iterkeys() if regex.fullmatch(w)}


RACK_ALPHABETS = {code: language(code).alphabet for code in LANGUAGES}


@st.composite
def racks(draw, code: str) -> str:
    letters = draw(st.text(alphabet=RACK_ALPHABETS[code], min_size=0, max_size=8))
    jokers = draw(st.integers(0, 2 if len(letters) < 7 else 1))
    if not letters and not jokers:
        letters = "E"
    return letters + "*" * jokers


@pytest.mark.parametrize("code", LANGUAGES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_racks_match_the_brute_force_oracle(code, data):
    lexicon = small_lexicon(code)
    rack = data.draw(racks(code))
    exact = data.draw(st.booleans())
    fast = {(m.word, m.shown, m.score) for m in anagram(lexicon, rack, exact=exact)}
    oracle = {(m.word, m.shown, m.score) for m in reference.rack_brute_force(lexicon, rack)}
    if exact:
        size = parse_rack(rack, lexicon).size
        oracle = {item for item in oracle if len(item[0]) == size}
    assert fast == oracle


@pytest.mark.parametrize("code", LANGUAGES)
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_patterns_match_a_regex_scan(code, data):
    lexicon = small_lexicon(code)
    letters = RACK_ALPHABETS[code]
    text = data.draw(st.text(alphabet=letters[:6] + "??*", min_size=1, max_size=6))
    assert {m.word for m in pattern(lexicon, text)} == pattern_oracle(lexicon, text)


def test_joker_letters_are_what_the_rack_lacks(toy):
    for match in anagram(toy, "ELEPHA**"):
        lacking = Counter(match.word) - Counter("ELEPHA")
        assert sorted(c.upper() for c in match.shown if c.islower()) == sorted(lacking.elements())
