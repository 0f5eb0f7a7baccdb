"""The compiled rack search (lexforge._rack) on built lexicons and on letters beyond ASCII,
against the brute force that tests every word (lexforge.reference.rack_brute_force): the same
words, shown jokers and scores, in the same order for every sort."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from build_helpers import NEWLANG
from hypothesis import given, settings
from hypothesis import strategies as st

from lexforge import reference
from lexforge.anagram import Match, anagram, parse_rack
from lexforge.language import Language, load_language_data
from lexforge.lexicon import Lexicon
from lexforge.wordlist import write_artifacts

ORDER = {
    "alpha": lambda m: m.word,
    "length": lambda m: (-len(m.word), m.word),
    "score": lambda m: (-m.score, m.word),
}


def oracle(lexicon: Lexicon, rack: str, sort: str, exact: bool, contains: str) -> list[Match]:
    size = parse_rack(rack, lexicon).size
    kept = [
        m
        for m in reference.rack_brute_force(lexicon, rack)
        if (not exact or len(m.word) == size) and not Counter(contains) - Counter(m.word)
    ]
    return sorted(kept, key=ORDER[sort])


def racks_from(lexicon: Lexicon, count: int, seed: int) -> list[tuple[str, str, bool, str]]:
    """(rack, sort, exact, contains): racks from shuffled words of 5–9 letters, some with one or
    two letters turned into jokers; a sort, sometimes exact, sometimes a required letter."""
    rng = random.Random(seed)
    words = [w for w in lexicon.words.iterkeys() if 5 <= len(w) <= 9]
    cases = []
    for word in rng.sample(words, count):
        letters = rng.sample(word, len(word))
        for i in range(rng.choice((0, 0, 1, 2))):
            letters[i] = "*"
        contains = rng.choice(word) if rng.random() < 0.3 else ""
        cases.append(("".join(letters), rng.choice(list(ORDER)), rng.random() < 0.3, contains))
    return cases


@pytest.mark.parametrize("name", ["en", "fr", "de"])
def test_built_lexicons_answer_like_the_brute_force(build_dir, name):
    lexicon = Lexicon.open(build_dir / name)
    assert (lexicon.path / "anagram-classes.npy").is_file()  # the mapped index, not a rebuild
    for rack, sort, exact, contains in racks_from(lexicon, 12, seed=len(name)):
        found = anagram(lexicon, rack, sort=sort, exact=exact, contains=contains)
        assert found == oracle(lexicon, rack, sort, exact, contains), (rack, sort, exact)


SWEDISH_FILE = NEWLANG / "config/languages/sv.yaml"
SWEDISH = Language.load(SWEDISH_FILE)
SWEDISH_JSON = json.dumps(load_language_data(SWEDISH_FILE), ensure_ascii=False)
SWEDISH_LETTERS = "AÅÄÖEKSTRLN"


@st.composite
def swedish_words(draw) -> list[str]:
    word = st.text(alphabet=SWEDISH_LETTERS, min_size=2, max_size=6)
    return sorted(set(draw(st.lists(word, min_size=1, max_size=60))))


@settings(max_examples=40, deadline=None)
@given(
    words=swedish_words(),
    rack=st.text(alphabet=SWEDISH_LETTERS, min_size=1, max_size=7),
    jokers=st.integers(0, 2),
    sort=st.sampled_from(list(ORDER)),
)
def test_letters_beyond_ascii_in_memory_and_mapped(tmp_path_factory, words, rack, jokers, sort):
    """Å, Ä and Ö are two UTF-8 bytes each: lengths count letters, jokers lowercase whole
    letters (å), and the order is code-point order, in an in-memory lexicon and in one written
    and mapped as ``-d`` writes it."""
    folder = tmp_path_factory.mktemp("sv")
    write_artifacts(folder, words, SWEDISH, SWEDISH_JSON, {"file": "generated"})
    mapped = Lexicon.open(folder)
    rack += "*" * jokers
    expected = oracle(Lexicon.from_words(words, SWEDISH), rack, sort, False, "")
    assert anagram(Lexicon.from_words(words, SWEDISH), rack, sort=sort) == expected
    assert anagram(mapped, rack, sort=sort) == expected
