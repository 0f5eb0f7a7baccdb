"""The oracles' first filter (lexforge.reference.LetterTable.within) against its definition,
word by word with Counter: the words of the right length whose letters the available ones hold,
at most ``spare`` of them missing (jokers), and, given pairs, whose consecutive letters are all
pairs of them."""

from __future__ import annotations

import json
from collections import Counter

from build_helpers import NEWLANG
from hypothesis import given, settings
from hypothesis import strategies as st

from lexforge.language import Language, load_language_data
from lexforge.lexicon import Lexicon
from lexforge.reference import LetterTable
from lexforge.wordlist import write_artifacts

SWEDISH_FILE = NEWLANG / "config/languages/sv.yaml"
SWEDISH = Language.load(SWEDISH_FILE)
LETTERS = "AÅÄÖEKS"  # three beyond ASCII: codes are code points, not UTF-8 bytes

words = st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=12), max_size=60)
letters = st.text(alphabet=LETTERS + "Z", max_size=14)  # Z: a letter no word holds


def definition(
    lexicon: Lexicon,
    available: Counter,
    spare: int,
    lo: int,
    hi: int,
    pairs: set[str] | None = None,
) -> list[str]:
    return sorted(
        word
        for word in lexicon.words.iterkeys()
        if lo <= len(word) <= hi
        and sum((Counter(word) - available).values()) <= spare
        and (pairs is None or all(word[i : i + 2] in pairs for i in range(len(word) - 1)))
    )


@settings(max_examples=150, deadline=None)
@given(words, letters, st.integers(0, 3), st.integers(1, 6), st.integers(0, 8))
def test_within_is_its_definition(vocabulary, rack, spare, shortest, extra):
    lexicon = Lexicon.from_words(vocabulary, SWEDISH)
    available = Counter(rack)
    longest = shortest + extra
    found = LetterTable(lexicon).within(available, spare, shortest, longest)
    assert found == definition(lexicon, available, spare, shortest, longest)


@settings(max_examples=150, deadline=None)
@given(
    words,
    letters,
    st.integers(0, 2),
    st.sets(st.text(alphabet=LETTERS + "Z", min_size=2, max_size=2)),
)
def test_within_pairs_is_its_definition(vocabulary, rack, spare, pairs):
    """Pairs of letters no word holds (Z) or that the lexicon lacks are allowed."""
    lexicon = Lexicon.from_words(vocabulary, SWEDISH)
    available = Counter(rack)
    found = LetterTable(lexicon).within(available, spare, 1, 12, pairs)
    assert found == definition(lexicon, available, spare, 1, 12, pairs)


def test_a_built_lexicon_is_read_from_its_word_list(tmp_path):
    """A built lexicon's table comes from words.txt: the same answers as from the trie."""
    vocabulary = ["AKÅ", "ÅSKA", "KASSE", "KÄKE", "ÖSA", "ÖÖÖ", "SE"]
    language_text = json.dumps(load_language_data(SWEDISH_FILE), ensure_ascii=False)
    write_artifacts(tmp_path, sorted(vocabulary), SWEDISH, language_text, {"file": "test"})
    built = Lexicon.open(tmp_path)
    for rack, spare in (("ÅSKA", 0), ("KASE", 1), ("ÖA", 2), ("", 1), ("KÄKEZ", 0)):
        available = Counter(rack)
        found = LetterTable(built).within(available, spare, 1, 64)
        assert found == definition(built, available, spare, 1, 64)
        assert found or rack == ""  # ("", 1): no one-letter word
