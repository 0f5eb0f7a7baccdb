"""Anagrams and racks with jokers, and crossword patterns.

``anagram`` finds every word that can be made from a subset of a rack (letters plus jokers),
like the Bash seed, through the anagram index: it walks the letter graph of sorted letter keys,
extending a key only while some key starts with it, and lists the class of every complete key
met from ``anagrams.marisa`` (``KEY=WORD`` lines: prefix ``KEY=`` is the class). A rack letter
is always preferred to a joker, so each key is reached once and jokers stand only for what the
rack lacks.

``pattern`` matches crossword patterns (``?`` one letter, ``*`` any run of letters), optionally
with the wildcard letters drawn from a rack.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from lexforge.errors import UserError
from lexforge.lexicon import Lexicon
from lexforge.text import fold_word

JOKERS = "*?"
MAX_JOKERS = 3  # each joker multiplies the search by the alphabet size; 4 gives no useful answer
SORT_KEYS = ("length", "alpha", "score")


@dataclass(frozen=True)
class Rack:
    """A parsed rack: letter counts and the number of jokers."""

    letters: Counter[str]
    jokers: int

    @property
    def size(self) -> int:
        return sum(self.letters.values()) + self.jokers


@dataclass(frozen=True)
class Match:
    """A word found, with the letters jokers stand for shown in lowercase, and its score."""

    word: str
    shown: str
    score: int


def parse_rack(
    text: str, lexicon: Lexicon, *, allow_empty: bool = False, max_jokers: int = MAX_JOKERS
) -> Rack:
    """Letters (folded to the language's alphabet) and jokers (``*`` or ``?``) of a rack."""
    jokers = sum(text.count(j) for j in JOKERS)
    letters = fold_word(
        "".join(c for c in text if c not in JOKERS and not c.isspace()), lexicon.language
    )
    unknown = sorted(set(letters) - set(lexicon.language.alphabet))
    if unknown:
        raise UserError(
            f"rack '{text}': {''.join(unknown)} not in the {lexicon.language.name} "
            f"alphabet ({lexicon.language.alphabet})"
        )
    if not letters and not jokers and not allow_empty:
        raise UserError(f"rack '{text}': no letters")
    if jokers > max_jokers:
        raise UserError(
            f"rack '{text}': {jokers} jokers; at most {max_jokers} give a usable answer"
        )
    return Rack(Counter(letters), jokers)


def score(letters: str, jokers: str, lexicon: Lexicon) -> int:
    """Scrabble value of a word's letters; the letters played by jokers score 0."""
    values = lexicon.language.tile_values
    return sum(values.get(c, 0) for c in letters) - sum(values.get(c, 0) for c in jokers)


def show_jokers(word: str, jokers: str) -> str:
    """The word with the letters jokers stand for in lowercase (their last occurrences)."""
    for letter in jokers:
        i = word.rfind(letter)
        word = word[:i] + letter.lower() + word[i + 1 :]
    return word


NO_KEY = 0xFFFFFFFF


def _keys(
    lexicon: Lexicon, rack: Rack, min_length: int, max_length: int, exact: bool
) -> Iterator[tuple[str, str, int]]:
    """Every anagram key makeable from the rack, with the letters jokers stand for and its
    Scrabble value (letters played by jokers score 0).

    Walks the letter graph of anagram keys (see ``Lexicon.anagram_nodes``): from a key prefix,
    only letters not below its last one (keys are sorted), present as children, and available
    from the rack (any letter while a joker is left).
    """
    nodes = lexicon.anagram_nodes
    letters = "".join(sorted(set(lexicon.language.alphabet)))
    counts = [rack.letters.get(letter, 0) for letter in letters]
    values = [lexicon.language.tile_values.get(letter, 0) for letter in letters]
    every_letter = (1 << len(letters)) - 1
    jokers_used: list[str] = []
    want = rack.size if exact else None
    top = min(max_length, rack.size)

    def walk(
        node: int, key: str, value: int, below: int, rack_mask: int, jokers_left: int
    ) -> Iterator[tuple[str, str, int]]:
        mask = nodes[2 * node]
        info = nodes[2 * node + 1]
        if info >> 32 != NO_KEY and len(key) >= min_length and (want is None or len(key) == want):
            yield key, "".join(jokers_used), value
        if len(key) == top:
            return
        first = info & NO_KEY
        candidates = mask & (every_letter if jokers_left else rack_mask) & ~below
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            i = bit.bit_length() - 1
            child = first + (mask & (bit - 1)).bit_count()
            letter = letters[i]
            if counts[i]:
                counts[i] -= 1
                left = rack_mask if counts[i] else rack_mask & ~bit
                yield from walk(child, key + letter, value + values[i], bit - 1, left, jokers_left)
                counts[i] += 1
            else:
                jokers_used.append(letter)
                yield from walk(child, key + letter, value, bit - 1, rack_mask, jokers_left - 1)
                jokers_used.pop()

    rack_mask = sum(1 << i for i, n in enumerate(counts) if n)
    yield from walk(0, "", 0, 0, rack_mask, rack.jokers)


def anagram(
    lexicon: Lexicon,
    rack_text: str,
    *,
    exact: bool = False,
    min_length: int | None = None,
    max_length: int | None = None,
    contains: str = "",
    sort: str = "length",
) -> list[Match]:
    """Words makeable from a subset of the rack (all of it with ``exact``), sorted by ``sort``."""
    if sort not in SORT_KEYS:
        raise UserError(f"unknown sort '{sort}' (use one of: {', '.join(SORT_KEYS)})")
    rack = parse_rack(rack_text, lexicon)
    if any(joker in contains for joker in JOKERS):
        raise UserError(
            f"--contains '{contains}': jokers (* ?) mean nothing here; give the letters the "
            "word must contain (put jokers in the rack)"
        )
    required = parse_rack(contains, lexicon, allow_empty=True).letters
    low = lexicon.language.min_length if min_length is None else min_length
    high = lexicon.language.max_length if max_length is None else max_length
    matches = []
    for key, jokers, value in _keys(lexicon, rack, low, high, exact):
        if required and required - Counter(key):
            continue
        start = len(key) + 1
        for line in lexicon.anagrams.keys(key + "="):
            word = line[start:]
            matches.append(Match(word, show_jokers(word, jokers) if jokers else word, value))
    return sort_matches(matches, sort)


def sort_matches(matches: list[Match], sort: str) -> list[Match]:
    if sort == "alpha":
        return sorted(matches, key=lambda m: m.word)
    if sort == "score":
        return sorted(matches, key=lambda m: (-m.score, m.word))
    return sorted(matches, key=lambda m: (-len(m.word), m.word))


def _pattern_regex(pattern: str, lexicon: Lexicon) -> tuple[str, re.Pattern[str], int]:
    """Literal prefix, compiled regex and minimum length of a crossword pattern."""
    letters = set(lexicon.language.alphabet)
    parts = []
    for char in pattern:
        if char == "?":
            parts.append("(.)")
        elif char == "*":
            parts.append("(.*)")
        else:
            folded = fold_word(char, lexicon.language)
            if not set(folded) <= letters:
                raise UserError(
                    f"pattern '{pattern}': '{char}' is not a letter of the "
                    f"{lexicon.language.name} alphabet, '?' or '*'"
                )
            parts.append(re.escape(folded))
    prefix = ""
    for char in pattern:
        if char in "?*":
            break
        prefix += fold_word(char, lexicon.language)
    minimum = sum(1 for c in pattern if c != "*")
    return prefix, re.compile("".join(parts)), minimum


def pattern(
    lexicon: Lexicon, text: str, *, rack_text: str | None = None, sort: str = "alpha"
) -> list[Match]:
    """Words matching a crossword pattern; with a rack, the wildcards must be filled from it."""
    if sort not in SORT_KEYS:
        raise UserError(f"unknown sort '{sort}' (use one of: {', '.join(SORT_KEYS)})")
    matches = list(iter_pattern(lexicon, text, rack_text=rack_text))
    return matches if sort == "alpha" else sort_matches(matches, sort)


def iter_pattern(lexicon: Lexicon, text: str, *, rack_text: str | None = None) -> Iterator[Match]:
    """``pattern``'s matches in alphabetical order, found as the iterator is read (so a pattern
    matching millions of words streams in bounded memory). The pattern and rack are checked at
    once."""
    if not text:
        raise UserError("empty pattern")
    prefix, regex, minimum = _pattern_regex(text, lexicon)
    rack = parse_rack(rack_text, lexicon) if rack_text is not None else None
    return _pattern_matches(lexicon, prefix, regex, minimum, rack)


def _pattern_matches(
    lexicon: Lexicon, prefix: str, regex: re.Pattern[str], minimum: int, rack: Rack | None
) -> Iterator[Match]:
    values = lexicon.language.tile_values
    for word in lexicon.sorted_words(prefix):
        if len(word) < minimum:
            continue
        found = regex.fullmatch(word)
        if found is None:
            continue
        if rack is None:
            yield Match(word, word, sum(values.get(c, 0) for c in word))
            continue
        jokers = "".join((Counter("".join(found.groups())) - rack.letters).elements())
        if len(jokers) > rack.jokers:
            continue
        shown = show_jokers_at(word, jokers, wildcard_positions(found))
        yield Match(word, shown, score(word, jokers, lexicon))


def wildcard_positions(found: re.Match[str]) -> list[int]:
    """The positions of the word that the pattern's wildcards matched, in order."""
    return [i for group in range(1, found.re.groups + 1) for i in range(*found.span(group))]


def show_jokers_at(word: str, jokers: str, positions: list[int]) -> str:
    """The word with the letters jokers stand for in lowercase, marked only among
    ``positions`` (the wildcards: a pattern's own letters are never jokers), the last first."""
    letters = list(word)
    free = list(positions)
    for letter in jokers:
        i = max(p for p in free if letters[p] == letter)
        free.remove(i)
        letters[i] = letter.lower()
    return "".join(letters)
