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
from lexforge.sources.curation import read_curation
from lexforge.text import fold_word
from pipeline.config import load_config

CONFIG = load_config(ROOT / "config/config.yaml", check_files=False)
LEXICONS = list(CONFIG.default)
#: Unit symbols and abbreviations players reported in the default lexicons (issue 8), by language.
KNOWN_BAD = {
    "en": {"BF", "BX", "CC", "KG", "KM", "QR", "QT", "RS", "XIV", "XCVII", "XXXVIII", "ETC", "ADJ"},
    "fr": {"AC", "BD", "CM", "CT", "DL", "HG", "KG", "KM", "ML", "PX", "APR", "AVR", "CPT", "ENV"},
    "de": {"HZ", "KG", "QM", "KW", "BERLIN", "GOETHE", "MERKEL", "MÜNCHEN", "ABK", "USW"},
    "it": {"KG", "KM", "ECC", "XIV"},
    "es": {"KM", "KW", "ETC", "XIV"},
    "nl": {"KG", "KM", "HBO", "VWO", "XIV"},
    "pt": {"KG", "KM", "ETC", "XIV"},
}
#: Unit symbols written by hand (SI Brochure), folded to capitals; none is a word of any
#: language unless its language file says so.
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


def two_letter_list(lexicon: str) -> Path | None:
    exact = [s.path for s in CONFIG.lexicons[lexicon].sources if s.role == "exact"]
    return ROOT / exact[0] if exact else None


@pytest.mark.parametrize("lexicon", LEXICONS)
def test_two_letter_words_equal_the_published_list(build_dir, lexicon):
    spec = CONFIG.lexicons[lexicon]
    listed = two_letter_list(lexicon)
    if listed is None:
        note = spec.language.classify.get("two_letter", "")
        assert note.startswith("no curated list"), f"{lexicon}: no list and no note saying why"
        pytest.skip(f"{lexicon}: {note}")
    published = set(read_curation(listed))
    assert published and all(len(word) == 2 for word in published)
    built = {word for word in words_of(build_dir, lexicon) if len(word) == 2}
    assert built == published


def test_english_holds_every_enable2k_word_of_2_to_15_letters(build_dir):
    enable = (ROOT / "raw/en/enable2k/enable2k.txt").read_text(encoding="ascii").split()
    wanted = {word.upper() for word in enable if 2 <= len(word) <= 15}
    assert len(wanted) > 169_000
    assert not wanted - words_of(build_dir, "en")


@pytest.mark.parametrize("lexicon", LEXICONS)
def test_no_known_bad_entry(build_dir, lexicon):
    language = CONFIG.lexicons[lexicon].language
    bad = {fold_word(word, language) for word in KNOWN_BAD[language.code]}
    assert not bad & words_of(build_dir, lexicon)


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
    """Unless a game list (a source taken whole, not cleaned) holds it: a game list is the
    authority on its words."""
    spec = CONFIG.lexicons[lexicon]
    language = spec.language
    allowed = set(language.classify.get("exceptions", ()))
    words = words_of(build_dir, lexicon)
    rules = Classifier.for_language(language)
    assert rules is not None
    suspects = (words & (ROMAN | UNITS)) - allowed | {word for word in words if rules.reason(word)}
    whole = {source.id for source in spec.sources if not source.clean}
    game = Lexicon.open(build_dir / lexicon)
    assert sorted(word for word in suspects if whole.isdisjoint(game.sources_of(word))) == []
