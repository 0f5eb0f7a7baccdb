"""The default lexicons are game lists: published two-letter lists, ENABLE2K, no abbreviations.

Checked against data the pipeline does not derive: the committed published two-letter lists,
ENABLE2K itself, Roman numerals written by arithmetic and a hand-made list of unit symbols.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from build_helpers import ROOT

from lexforge.classify import Classifier
from lexforge.lexicon import Lexicon
from lexforge.normalize import Normalizer
from lexforge.sources.curation import read_curation
from lexforge.text import fold_tiles, fold_word
from pipeline.config import load_config

CONFIG = load_config(ROOT / "config/config.yaml", check_files=False)
LEXICONS = list(CONFIG.default)
#: Unit symbols written by hand (SI Brochure), folded to capitals; none is a word of a language
#: whose file applies the unit rule, unless that file says so.
UNITS = {"KG", "MG", "KM", "CM", "MM", "ML", "CL", "DL", "HL", "KW", "MW", "KWH", "HZ", "KHZ",
         "MHZ", "GHZ", "KPA", "HPA", "KCAL", "KJ", "MV", "KV", "NM", "MS", "NS"}  # fmt: skip


def roman(number: int) -> str:
    table = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"),
             (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]  # fmt: skip
    numeral = ""
    for value, letters in table:
        while number >= value:
            numeral, number = numeral + letters, number - value
    return numeral


ROMAN = {roman(n) for n in range(1, 4000)}


def words_of(build_dir: Path, lexicon: str) -> set[str]:
    return set((build_dir / lexicon / "words.txt").read_text(encoding="utf-8").split())


@pytest.mark.parametrize("lexicon", LEXICONS)
def test_exact_lists_fix_the_words_of_their_lengths(build_dir, lexicon):
    """Each exact list (a published two-letter list, FISE-2's two- and three-tile lists) holds
    exactly the lexicon's words of the lengths it holds (in tiles, as stored)."""
    spec = CONFIG.lexicons[lexicon]
    exact = [source for source in spec.sources if source.role == "exact"]
    if not exact:
        note = spec.language.classify.get("two_letter", "no exact list (role exact)")
        pytest.skip(f"{lexicon}: {note}")
    words = words_of(build_dir, lexicon)
    normalizer = Normalizer(spec.language, case_sensitive=False, classify=False)
    for source in exact:
        published = {normalizer(word.lower()) for word in read_curation(ROOT / source.path)}
        assert published and None not in published
        lengths = {len(word) for word in published}
        assert {word for word in words if len(word) in lengths} == published, source.id


def test_english_holds_every_enable2k_word_of_2_to_15_letters(build_dir):
    enable = (ROOT / "raw/en/enable2k/enable2k.txt").read_text(encoding="ascii").split()
    wanted = {word.upper() for word in enable if 2 <= len(word) <= 15}
    assert len(wanted) > 169_000
    assert not wanted - words_of(build_dir, "en")


@pytest.mark.parametrize("lexicon", LEXICONS)
def test_no_known_bad_entry(build_dir, lexicon):
    """The entries players reported (``not-words.txt`` in the lexicon's reference folder, as
    each language's file spells them) are not in the lexicon."""
    spec = CONFIG.lexicons[lexicon]
    listed = ROOT / spec.reference_dir / "not-words.txt"
    if not listed.is_file():
        pytest.skip(f"{lexicon}: no {listed.relative_to(ROOT)}")
    language = spec.language
    bad = {fold_tiles(word, language, spelled=True) for word in read_curation(listed)}
    assert bad and not bad & words_of(build_dir, lexicon)


def test_scrabble_variants_keep_the_letters_their_tiles_have(build_dir):
    german, variant = words_of(build_dir, "de"), words_of(build_dir, "de-scrabble")
    assert {"APFEL", "ÄPFEL", "ÖL", "MÄDCHEN", "STRASSE"} <= variant
    assert {"APFEL", "OL", "MADCHEN"} <= german and not any(set("ÄÖÜ") & set(w) for w in german)
    spanish, variant = words_of(build_dir, "es"), words_of(build_dir, "es-scrabble")
    assert {"NIÑO", "AÑO", "ANO", "ÑU"} <= variant and "NINO" in spanish
    assert not any(set("KW") & set(word) for word in variant)  # no K or W tiles


#: Written by hand: names of people, places and firms German lists hold (capitalised, like every
#: noun), and German common nouns that are also surnames or foreign names.
GERMAN_NAMES = {"OBAMA", "CLINTON", "EINSTEIN", "EINSTEINS", "MOZART", "BEETHOVEN", "WAGNER",
                "SHAKESPEARE", "THOMAS", "ANNA", "FRANKFURT", "HAMBURG", "LEIPZIG", "STUTTGART",
                "PARIS", "CHICAGO", "MICROSOFT", "TOYOTA", "GOETHES", "BERLINS"}  # fmt: skip
GERMAN_NOUNS = {"MANN", "BACH", "KREBS", "WEBER", "BUSCH", "FISCHER", "MÜLLER", "SCHNEIDER",
                "KOCH", "WOLF", "FUCHS", "VOGEL", "ROSE", "STEIN", "BERG", "BAUER", "KAISER",
                "KÖNIG", "APRIL", "INTERNET", "HAUS", "KIND", "ODER"}  # fmt: skip


@pytest.mark.parametrize("lexicon", ["de", "de-scrabble"])
def test_german_names_go_and_nouns_that_are_also_names_stay(build_dir, lexicon):
    language = CONFIG.lexicons[lexicon].language
    words = words_of(build_dir, lexicon)
    assert not {fold_word(word, language) for word in GERMAN_NAMES} & words
    assert {fold_word(word, language) for word in GERMAN_NOUNS} <= words


@pytest.mark.parametrize("lexicon", LEXICONS)
def test_no_roman_numeral_unit_or_vowelless_abbreviation(build_dir, lexicon):
    """Each shape rule the lexicon's language applies holds in the lexicon (Roman numerals and
    units also checked against lists written without lexforge.classify), unless a game list (a
    source taken whole, not cleaned) holds the word: a game list is the authority on its words."""
    spec = CONFIG.lexicons[lexicon]
    language = spec.language
    rules = Classifier.for_language(language)
    if rules is None:
        pytest.skip(f"{lexicon}: its language has no shape rules (classify)")
    allowed = set(language.classify.get("exceptions", ()))
    words = words_of(build_dir, lexicon)
    listed = (ROMAN if rules.roman_numerals else set()) | (UNITS if rules.units else set())
    suspects = (words & listed) - allowed | {word for word in words if rules.reason(word)}
    whole = {source.id for source in spec.sources if not source.clean}
    game = Lexicon.open(build_dir / lexicon)
    assert sorted(word for word in suspects if whole.isdisjoint(game.sources_of(word))) == []
