"""Character folding shared by the pipeline (for word lists) and the solver (for user input).

NFKD, drop combining marks, full uppercasing (ß → SS), then fold letters NFKD leaves whole
(Œ → OE, Æ → AE, Ø → O, Ł → L, Þ → TH …) with the language's own table first and Unidecode's
transliteration of Latin letters after. Letters listed in ``keep`` (e.g. Ñ) are left whole.
The language's ``joiners`` (Catalan's middle dot in L·L) are dropped between two letters, except
in a multi-letter tile spelt with one (``tile_symbols: {L·L: Ŀ}``), which becomes its symbol.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

TYPE_CHECKING = False  # typing's constant, without importing typing (a faster start)
if TYPE_CHECKING:
    from lexforge.language import Language  # which imports this module


@lru_cache(maxsize=4096)
def _fold_char(char: str, fold_items: tuple[tuple[str, str], ...]) -> str:
    """Fold one uppercase character NFKD left whole; other than Latin letters stay unchanged."""
    fold = dict(fold_items)
    if char in fold:
        return fold[char]
    if not unicodedata.category(char).startswith("L") or "LATIN" not in unicodedata.name(char, ""):
        return char
    from unidecode import unidecode  # loaded only when a word has such a letter

    folded = unidecode(char).upper()
    return folded if folded.isascii() and folded.isalpha() else char


def fold_word(word: str, language: Language) -> str:
    """``word`` folded to the language's letters (other characters stay, to be rejected).

    Letters of ``language.keep`` (in either case) are left whole; the runs between them fold.
    """
    if not language.keep:
        return _drop_joiners(_fold(word, language), language)
    composed = unicodedata.normalize("NFC", word)
    upper = composed.upper()  # a kept character's uppercase is in it: most words have none
    if not any(letter in upper for letter in language.keep):
        return _drop_joiners(_fold(composed, language), language)
    pieces = []
    run = ""
    for char in composed:
        if char.upper() in language.keep:
            pieces += [_fold(run, language), char.upper()]
            run = ""
        else:
            run += char
    pieces.append(_fold(run, language))
    return _drop_joiners("".join(pieces), language)


def fold_tiles(text: str, language: Language, *, spelled: bool = False) -> str:
    """``text`` folded (``fold_word``), multi-letter tiles as their symbols: bracketed ones
    (``[CH]``) always, spelled ones (``CH``) when ``spelled`` (a word, not a rack's tiles).
    Symbols already there (a rack passed on by the solver) stay."""
    symbols = language.symbols
    if symbols and any(c.upper() in symbols for c in text):
        pieces = re.split(f"([{re.escape(symbols + symbols.lower())}])", text)
        folded = "".join(
            p.upper() if i % 2 else fold_word(p, language) for i, p in enumerate(pieces)
        )
    else:
        folded = fold_word(text, language)
    return language.tokenize(folded, spelled=spelled)


def fold_letter(char: str, language: Language) -> str:
    """One character of a word or rack folded; a tile symbol stays (uppercased)."""
    if char.upper() in language.symbols:
        return char.upper()
    return fold_word(char, language)


def _drop_joiners(word: str, language: Language) -> str:
    """``word`` without the joiners that stand between two letters (others stay, to be
    rejected), except in a multi-letter tile spelt with one (Catalan L·L, kept as its symbol:
    LL stays two L). Runs after folding, so a letter that decomposes into one (Ŀ → L·) is
    covered."""
    joiners = language.joiners
    if not joiners or not any(joiner in word for joiner in joiners):
        return word
    for spelling, symbol in language.joined_tiles:
        word = word.replace(spelling, symbol)
    last = len(word) - 1
    return "".join(
        char
        for i, char in enumerate(word)
        if not (
            char in joiners and 0 < i < last and word[i - 1].isalpha() and word[i + 1].isalpha()
        )
    )


class _CombiningMarks(dict[int, int | None]):
    """A ``str.translate`` table that deletes combining marks, filled as characters are met
    (a character seen before costs no Python call)."""

    def __missing__(self, code: int) -> int | None:
        value = None if unicodedata.combining(chr(code)) else code
        self[code] = value
        return value


_DROP_MARKS = _CombiningMarks()


def _fold(text: str, language: Language) -> str:
    """NFKD, marks dropped, uppercased, letters NFKD leaves whole folded."""
    stripped = unicodedata.normalize("NFKD", text).translate(_DROP_MARKS).upper()
    if stripped.isascii():
        return stripped
    fold_items = tuple(sorted(language.fold.items()))
    return "".join(_fold_char(c, fold_items) if not c.isascii() else c for c in stripped)
