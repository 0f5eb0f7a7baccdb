"""Short words by the book: the built lexicons against the published and checked lists kept in
raw/ (FISE-2's two- and three-tile words, the German two-letter words checked against the Duden
and those judged not playable, ODS 8's two-letter words, the French deny list's English words).

The lists are read from raw/; the words step does not derive them, and these tests do not
trust its curation roles: each compares the built words.txt with a list directly.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from build_helpers import ROOT

from lexforge.language import Language
from lexforge.normalize import Normalizer
from lexforge.sources.curation import read_curation
from pipeline.config import load_config

CONFIG = load_config(ROOT / "config/config.yaml", check_files=False)
FISE2 = ROOT / "raw/es/curation"
GERMAN = ROOT / "raw/de/curation"


def words_of(build_dir: Path, lexicon: str) -> set[str]:
    return set((build_dir / lexicon / "words.txt").read_text(encoding="utf-8").split())


def listed(path: Path) -> list[str]:
    """A curated list's words as written (FISE-2: CH, LL, RR are each one tile)."""
    return list(read_curation(path))


def as_stored(words: list[str], language: Language, *, every: bool = True) -> set[str]:
    """Words as a lexicon of ``language`` stores them: folded, multi-letter tiles as their
    symbols; no shape rule applied (the list is the authority). With ``every``, each word must
    have a stored form; else those without one (a letter outside the alphabet) are left out."""
    normalizer = Normalizer(language, case_sensitive=False, classify=False)
    stored = {normalizer(word.lower()) for word in words}
    assert not every or None not in stored
    return stored - {None}


def test_fise2_lists_are_whole():
    """The counts FISE-2's own document gives: 91 two-tile words (87 of two letters), 548 of
    three tiles."""
    two, three = listed(FISE2 / "fise2-two-tiles.txt"), listed(FISE2 / "fise2-three-tiles.txt")
    assert (len(two), len(set(two)), len(three), len(set(three))) == (91, 91, 548, 548)
    assert sum(len(word) == 2 for word in two) == 87


@pytest.mark.parametrize(
    ("tiles", "name"), [(2, "fise2-two-tiles.txt"), (3, "fise2-three-tiles.txt")]
)
def test_es_scrabble_words_of_two_and_three_tiles_equal_fise2(build_dir, tiles, name):
    """Every word of es-scrabble of two (three) tiles is in FISE-2's list of that many tiles,
    and every word of the list is in es-scrabble."""
    language = CONFIG.lexicons["es-scrabble"].language
    fise = as_stored(listed(FISE2 / name), language)
    assert {len(word) for word in fise} == {tiles}  # stored words: one symbol per tile
    built = {word for word in words_of(build_dir, "es-scrabble") if len(word) == tiles}
    assert sorted(built - fise) == [] and sorted(fise - built) == []


def test_es_short_letter_list_is_fise2_folded_by_letters():
    """fise2-short-letters.txt is exactly the FISE-2 words of two and three letters."""
    spelled = listed(FISE2 / "fise2-two-tiles.txt") + listed(FISE2 / "fise2-three-tiles.txt")
    expected = sorted(word for word in spelled if len(word) in (2, 3))
    assert listed(FISE2 / "fise2-short-letters.txt") == expected


def test_es_words_of_two_and_three_letters_equal_fise2_folded(build_dir):
    language = CONFIG.lexicons["es"].language
    fise = as_stored(listed(FISE2 / "fise2-short-letters.txt"), language)
    built = {word for word in words_of(build_dir, "es") if len(word) in (2, 3)}
    assert sorted(built - fise) == [] and sorted(fise - built) == []


@pytest.mark.parametrize("lexicon", ["de", "de-scrabble"])
def test_german_checked_two_letter_words_in_and_not_playable_out(build_dir, lexicon):
    language = CONFIG.lexicons[lexicon].language
    checked = as_stored(listed(GERMAN / "two-letter-checked.txt"), language)
    refused = as_stored(listed(GERMAN / "two-letter-not-playable.txt"), language)
    assert len(checked) == 26 and len(refused) == 28
    words = words_of(build_dir, lexicon)
    assert sorted(checked - words) == []
    assert sorted(refused & words) == []


def test_french_two_letter_words_are_ods8s(build_dir):
    """ODS 8 has 81 two-letter words (the encyclopaedia's count), among them those its editions
    added (BI EX AA in ODS 1-3, OM TO UD in ODS 6, QI in ODS 8) and not OK (Le Matin, 2019,
    quoting the ODS editorial committee); fr's two-letter words are exactly the list."""
    ods = listed(ROOT / "raw/fr/curation/two-letter.txt")
    assert len(ods) == len(set(ods)) == 81
    assert {"BI", "EX", "AA", "OM", "TO", "UD", "QI", "VS"} <= set(ods)
    assert "OK" not in ods
    stored = as_stored(ods, CONFIG.lexicons["fr"].language)
    built = {word for word in words_of(build_dir, "fr") if len(word) == 2}
    assert sorted(built - stored) == [] and sorted(stored - built) == []


def test_french_holds_no_listed_english_word_and_holds_mix(build_dir):
    """The English words the deny list names (those the issue reported among them) are out;
    MIX, an ODS word shaped like a Roman numeral, is in, with the other ODS three-letter words
    the encyclopaedia names."""
    deny = ROOT / "raw/fr/curation/deny.txt"
    english = set()
    for line in deny.read_text(encoding="utf-8").splitlines():
        word, _, reason = line.partition("\t")
        if not line.startswith("#") and reason.startswith("English word"):
            english.add(word)
    assert {"ANT", "DOG", "END", "EYE", "GUM", "MEN"} <= english
    words = words_of(build_dir, "fr")
    language = CONFIG.lexicons["fr"].language
    assert sorted(english & words) == []
    assert {"FIG", "REF"}.isdisjoint(words)
    assert "MIX" in words
    ods = as_stored(listed(ROOT / "raw/fr/curation/ods-three-letter-added.txt"), language)
    assert sorted(ods - words) == []


@pytest.mark.parametrize("lexicon", list(CONFIG.default))
def test_no_word_of_an_exact_list_is_denied(lexicon):
    """A deny list comes after the exact lists: it must not take back a word they fix."""
    spec = CONFIG.lexicons[lexicon]
    exact = {w for s in spec.sources if s.role == "exact" for w in read_curation(ROOT / s.path)}
    denied = {w for s in spec.sources if s.role == "deny" for w in read_curation(ROOT / s.path)}
    denied_words = as_stored(sorted(denied), spec.language, every=False)  # WAT: no W tile
    both = as_stored(sorted(exact), spec.language) & denied_words
    assert sorted(both) == []
