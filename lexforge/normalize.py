"""Normalization: raw entries → game words, every rejection counted by reason.

Per language, in order: reject entries with an apostrophe, hyphen, space, dot or digit (each
configurable per lexicon: when not rejected, the character is dropped); in a case-sensitive source,
reject abbreviations (all capitals) and, where the language marks them so, proper nouns
(capitalised); then fold (NFKD, marks dropped, full uppercasing, letters NFKD leaves whole) and
keep the word only if every letter is in the alphabet and its length is within bounds; then the
language's shape rules (``lexforge.classify``: no vowel, Roman numeral, unit symbol), and, in a
case-sensitive source, an entry with capitals after its first letter (AGs, eBay) is an
abbreviation too. Last, a lexicon with multi-letter tiles (``tile_symbols``) stores the word as
tiles: each CH becomes the CH tile's symbol (``Language.tokenize``; rules and lengths apply to
the letters, and the word must also have ``min_length`` tiles: LL alone is too short), and a word
holding a letter no tile plays is rejected (``no-tile``: Catalan BYTE, whose Y exists only in the
NY tile; ``Language.untiled``). The first few rejected entries of each reason, in sorted order,
are kept as examples, and every entry of the reasons in ``listed`` (``listed_entries``, in the
order met); with
``track_case``, the words some entry wrote with a lowercase initial are kept too
(``lowercase``: where capitals say nothing, only those are sure not to be names).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import islice

from lexforge.classify import Classifier
from lexforge.language import Language
from lexforge.reasons import CHARACTER_REASONS, DEFAULT_REJECT, EXAMPLES
from lexforge.sources.affixrules import RefusedForms
from lexforge.text import fold_word

#: Entries taken at once by the compiled plain path (``Normalizer.normalize_distinct``).
CHUNK = 1 << 16
#: Characters the compiled plain path knows: Basic Latin to Latin Extended-B.
LATIN_CHARACTERS = 0x250


def latin_tables(language: Language) -> tuple[bytes, bytes]:
    """The compiled plain path's tables (``lexforge._normalize``), one entry per character
    below ``LATIN_CHARACTERS``: its classes (bits: 1 ``isalpha``, 2 a letter that leaves a
    lowercase word lowercase, 4 ``islower``, 8 ``isupper``) and, in four bytes, the length of
    its fold (``fold_word`` of the character alone) and its letters.

    A word's fold is its characters' folds joined, as ``lexforge.text`` folds runs character by
    character; the length is 0 (the entry goes to the Python path) where that could fail: a
    character that NFC changes, a fold of more than three letters or of characters outside the
    alphabet or Latin-1, and, with kept letters, a character that folds otherwise in a word
    without one (it only folds so beside one)."""
    plain = language.replace(keep="") if language.keep else language
    classes = bytearray(LATIN_CHARACTERS)
    folds = bytearray(4 * LATIN_CHARACTERS)
    for code in range(LATIN_CHARACTERS):
        char = chr(code)
        if not char.isalpha():
            continue
        lower_ok = ("a" + char).islower()
        classes[code] = 1 | lower_ok << 1 | char.islower() << 2 | char.isupper() << 3
        if unicodedata.normalize("NFC", char) != char:
            continue
        folded = fold_word(char, language)
        kept = len(char.upper()) == 1 and char.upper() in language.keep
        if not kept and folded != fold_word(char, plain):
            continue
        if 1 <= len(folded) <= 3 and all(
            letter in language.alphabet and letter not in language.untiled and ord(letter) < 256
            for letter in folded
        ):
            entry = bytes([len(folded)]) + folded.encode("latin-1")
            folds[4 * code : 4 * code + len(entry)] = entry
    return bytes(classes), bytes(folds)


def tile_pairs(language: Language) -> bytes | None:
    """The compiled plain path's screen before ``Language.tokenize``: a bit per pair of
    Latin-1 codes, set for the two first letters of each multi-letter tile's spelling (a word
    with no such pair holds no tile to tokenize); None (tokenize every word) if a spelling
    is not Latin-1."""
    pairs = bytearray(256 * 32)
    for spelling in language.tile_symbols:  # letters of the alphabet, as the words' (checked)
        if len(spelling) < 2 or max(map(ord, spelling)) > 255:
            return None
        first, second = map(ord, spelling[:2])
        pairs[first << 5 | second >> 3] |= 1 << (second & 7)
    return bytes(pairs)


@dataclass
class Normalizer:
    """Normalizes entries of one source for one language, counting rejections."""

    language: Language
    case_sensitive: bool = True
    reject: dict[str, bool] = field(default_factory=lambda: dict(DEFAULT_REJECT))
    classify: bool = True
    track_case: bool = False
    rejected: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    listed: frozenset[str] = frozenset()
    listed_entries: dict[str, list[str]] = field(default_factory=dict)
    read: int = 0
    lowercase: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        alphabet = re.escape(self.language.alphabet)
        self._word_re = re.compile(
            f"[{alphabet}]{{{self.language.min_length},{self.language.max_length}}}"
        )
        self._letters = frozenset(self.language.alphabet)
        self._classifier = Classifier.for_language(self.language) if self.classify else None
        #: the character classes that reject an entry, in ``CHARACTER_REASONS`` order; and the
        #: others, whose characters are removed instead
        self._rejecting = [
            (reason, frozenset(chars))
            for reason, chars in CHARACTER_REASONS.items()
            if self.reject[reason]
        ]
        self._removed = [
            re.compile(f"[{re.escape(chars)}]")
            for reason, chars in CHARACTER_REASONS.items()
            if not self.reject[reason]
        ]

    def reject_chars(self) -> frozenset[str]:
        """Characters whose presence always rejects an entry (lets readers prune early)."""
        return frozenset().union(*(chars for _, chars in self._rejecting))

    def _rejecting_class(self, chars: Iterable[str]) -> str | None:
        """The reason of the first rejecting character class that ``chars`` hold, if any."""
        return next(
            (reason for reason, held in self._rejecting if not held.isdisjoint(chars)), None
        )

    def normalize_all(self, entries: Iterable[str]) -> Iterator[str]:
        """The normalized words of ``entries`` (rejections counted, ``read`` counts entries).

        Plain lowercase entries, nearly all of a real list, take a short path that gives the
        same result as ``__call__``.
        """
        case_sensitive = self.case_sensitive
        language = self.language
        tokenize = language.tokenize if language.tile_symbols else None
        joined = bool(language.joined_tiles)
        shortest, longest = language.min_length, language.max_length
        letters = self._letters
        classifier = self._classifier
        lowercase = self.lowercase if self.track_case else None
        read = 0
        for entry in entries:
            read += 1
            if entry.isalpha() and (not case_sensitive or entry.islower()):
                word = entry.upper() if entry.isascii() else fold_word(entry, language)
                if not letters.issuperset(word):
                    reason = "alphabet"
                elif not shortest <= len(word) <= longest:
                    reason = "too-short" if len(word) < shortest else "too-long"
                elif joined and language.letter_count(word) > longest:
                    reason = "too-long"  # Catalan L·L: one symbol, two letters
                else:
                    reason = classifier.reason(word) if classifier else None
                    if reason is None and tokenize:
                        reason = self._tile_reason(word := tokenize(word))
                if reason is None:
                    if lowercase is not None and entry[0].islower():
                        lowercase.add(word)
                    yield word
                else:
                    self._reject(reason, entry)
                continue
            word = self(entry)
            if word is not None:
                if lowercase is not None and entry[:1].islower():
                    lowercase.add(word)
                yield word
        self.read += read

    def normalize_distinct(self, entries: Iterable[str]) -> set[str]:
        """``set(self.normalize_all(entries))``, faster: lowercase and capitalised entries of
        Latin letters (nearly all of a real list) take the compiled plain path
        (``lexforge._normalize``), the rest the Python one; the same words, counts and
        examples."""
        from lexforge._normalize import normalize_latin

        words: set[str] = set()
        classifier = self._classifier
        language = self.language
        screen = classifier.ascii_screen() if classifier else (bytes(256), False, frozenset())
        arguments = (
            self.lowercase if self.track_case else None,
            self.case_sensitive,
            self.case_sensitive and language.proper_nouns_by_case and self.reject["proper_nouns"],
            language.min_length,
            language.max_length,
            *latin_tables(language),
            *screen,
            classifier.reason if classifier else None,
            self.language.tokenize if self.language.tile_symbols else None,
            tile_pairs(language),
            self._reject,
        )
        entries = iter(entries)
        while chunk := list(islice(entries, CHUNK)):
            rest: list[str] = []
            self.read += normalize_latin(chunk, words, rest, *arguments)
            words.update(self.normalize_all(rest))
        return words

    def count_pruned(self, pruned: Counter[frozenset[str]]) -> None:
        """Count entries a reader pruned (never generated) as read and rejected: by the reject
        characters each held, under the first reason that ``__call__`` would have given."""
        for chars, count in pruned.items():
            reason = self._rejecting_class(chars)
            self.rejected[reason] += count
            self.read += count

    def count_refused(self, refused: RefusedForms) -> None:
        """Count the forms a reader left out by affix rule as read and rejected (affix-rule)."""
        if refused.count:
            self.rejected["affix-rule"] += refused.count
            self.read += refused.count
            self.examples["affix-rule"] = list(refused.examples)

    def __call__(self, entry: str) -> str | None:
        """The normalized word, or None (the reason is counted in ``rejected``)."""
        reason = self._reason(entry)
        if reason is None:
            return self._folded
        self._reject(reason, entry)
        return None

    def _reject(self, reason: str, entry: str) -> None:
        """Count a rejection; keep ``entry`` if it is among the first examples in sorted order,
        and in ``listed_entries`` if its reason is listed."""
        self.rejected[reason] += 1
        if reason in self.listed:
            self.listed_entries.setdefault(reason, []).append(entry)
        examples = self.examples.setdefault(reason, [])
        if (len(examples) < EXAMPLES or entry < examples[-1]) and entry not in examples:
            bisect.insort(examples, entry)
            del examples[EXAMPLES:]

    def _tile_reason(self, tiles: str) -> str | None:
        """Why a word stored as tiles is not one: fewer tiles than ``min_length`` (LL is one
        tile), or a letter no tile plays (``no-tile``: Catalan BYTE, whose Y is only in NY)."""
        if len(tiles) < self.language.min_length:
            return "too-short"
        if not self.language.untiled.isdisjoint(tiles):
            return "no-tile"
        return None

    def _reason(self, entry: str) -> str | None:
        if not entry.isalpha():
            reason = self._rejecting_class(entry)
            if reason is not None:
                return reason
            for pattern in self._removed:
                entry = pattern.sub("", entry)
        capitals_inside = False  # AGs, eBay, GmbH: an abbreviation unless a shape rule says more
        if self.case_sensitive and not entry.islower():
            if len(entry) > 1 and entry.isupper():
                if self.reject["abbreviations"]:
                    return "abbreviation"
            elif any(c.isupper() for c in entry[1:]):
                capitals_inside = self.reject["abbreviations"]
            elif (
                entry[:1].isupper()
                and self.language.proper_nouns_by_case
                and self.reject["proper_nouns"]
            ):
                return "proper-noun"
        word = fold_word(entry, self.language)
        if self._word_re.fullmatch(word):
            if self.language.letter_count(word) > self.language.max_length:
                return "too-long"  # Catalan L·L: one symbol, two letters
            if self._classifier is not None:
                reason = self._classifier.reason(word)
                if reason is not None:
                    return reason
            if capitals_inside:
                return "abbreviation"
            self._folded = self.language.tokenize(word)
            return self._tile_reason(self._folded)
        if not self._letters.issuperset(word):
            return "alphabet"
        return "too-short" if len(word) < self.language.min_length else "too-long"
