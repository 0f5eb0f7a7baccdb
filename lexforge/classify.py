"""Which folded words are not game words by their shape: abbreviations, unit symbols, numerals.

The rules are generic (a unit symbol with an SI prefix, a Roman numeral, a word with no vowel, a
word of one letter repeated, a run of one letter); which of them a language applies, its vowels
and what it accepts despite them (vowel-less interjections such as English HMM, words shaped
like Roman numerals such as MIX) are data: the language file's ``classify`` block (a lexicon of
the build configuration may change it key by key).
"""

from __future__ import annotations

import re
from collections.abc import Container
from dataclasses import dataclass

from lexforge.language import Language

ROMAN_NUMERAL = re.compile(r"M{0,4}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})")
ROMAN_LETTERS = frozenset("IVXLCDM")

#: The SI prefixes dictionaries use with units (BIPM SI Brochure, 9th ed., table 7); µ is not a
#: Latin letter (an entry holding it fails the alphabet) and deca (da) makes words (DAM, DAS).
SI_PREFIXES = ("p", "n", "m", "c", "d", "h", "k", "M", "G", "T")
#: Unit symbols dictionaries list with those prefixes (SI tables 2 and 4, the accepted litre,
#: tonne and electronvolt, and bar, calorie, byte and bit). Only prefixed forms count as units:
#: a bare BAR, MOL or PA is a word in several languages.
UNIT_SYMBOLS = ("m", "g", "s", "K", "mol", "Hz", "N", "Pa", "J", "W", "Wh", "C", "V", "F", "Ω",
                "T", "H", "L", "l", "t", "eV", "bar", "cal", "B", "b", "bit")  # fmt: skip


def unit_symbols() -> frozenset[str]:
    """Every prefixed unit symbol, uppercased (Ω spelt OHM)."""
    return frozenset((p + u).replace("Ω", "OHM").upper() for p in SI_PREFIXES for u in UNIT_SYMBOLS)


UNITS = unit_symbols()


@dataclass(frozen=True)
class Classifier:
    """Rejects folded words that a language's ``classify`` rules mark as non-words."""

    vowels: frozenset[str]
    vowelless: re.Pattern[str] | None
    roman_numerals: bool
    units: bool
    exceptions: frozenset[str]
    #: reject a word of one letter repeated (AA, UU, MMM)
    one_letter: bool = False
    #: reject a word holding one letter more than this many times in a row (DŁUUUUGI); 0: off
    max_run: int = 0

    @classmethod
    def for_language(cls, language: Language) -> Classifier | None:
        """The language's classifier, or None when its file has no ``classify`` rules."""
        rules = language.classify
        if not rules:
            return None
        pattern = rules.get("vowelless")
        return cls(
            vowels=frozenset(rules.get("vowels", "")),
            vowelless=re.compile(pattern) if pattern else None,
            roman_numerals=rules.get("roman_numerals", False),
            units=rules.get("units", False),
            exceptions=frozenset(rules.get("exceptions", ())),
            one_letter=rules.get("one_letter", False),
            max_run=rules.get("max_run", 0),
        )

    def ascii_screen(self) -> tuple[bytes, bool, Container[str]]:
        """How the compiled plain path (``lexforge._normalize``) finds, among words of Latin-1
        letters, every one ``reason`` could reject: per character code below 256, bit 1 for a
        vowel and bit 2 for a Roman-numeral letter (when numerals are a rule); whether a word
        with no vowel is a suspect; a container holding the other suspects (the unit symbols,
        and with the letter rules every word those rules reject). A rule added to ``reason``
        needs its suspects here."""
        roman = ROMAN_LETTERS if self.roman_numerals else frozenset()
        letters = bytes((chr(c) in self.vowels) | (chr(c) in roman) << 1 for c in range(256))
        units = UNITS if self.units else frozenset()
        if self.one_letter or self.max_run:
            return letters, bool(self.vowels), _Suspects(self, units)
        return letters, bool(self.vowels), units

    def letter_reason(self, word: str) -> str | None:
        """The letter rules' reason: one letter repeated, or a run longer than ``max_run``."""
        if self.one_letter and len(word) > 1 and word.count(word[0]) == len(word):
            return "one-letter"
        if self.max_run and re.search(f"(.)\\1{{{self.max_run}}}", word):
            return "letter-run"
        return None

    def reason(self, word: str) -> str | None:
        """Why ``word`` (folded, uppercase) is not a game word, or None."""
        if word in self.exceptions:
            return None
        if self.units and word in UNITS:
            return "unit"
        if self.roman_numerals and ROMAN_LETTERS.issuperset(word) and ROMAN_NUMERAL.fullmatch(word):
            return "roman-numeral"
        if (
            self.vowels
            and self.vowels.isdisjoint(word)
            and (self.vowelless is None or not self.vowelless.fullmatch(word))
        ):
            return "no-vowel"
        return self.letter_reason(word)


class _Suspects:
    """The compiled path's third screen with letter rules: the unit symbols and the words the
    letter rules reject (``word in screen``)."""

    def __init__(self, classifier: Classifier, units: frozenset[str]) -> None:
        self.classifier = classifier
        self.units = units

    def __contains__(self, word: object) -> bool:
        return word in self.units or self.classifier.letter_reason(str(word)) is not None
