"""Phrase (multi-word) anagrams: every multiset of lexicon words using exactly a phrase's letters.

The classic approach (Debian's ``an``): the phrase's letters are folded like the lexicon's words
(spaces and punctuation dropped); the candidates are the anagram keys that fit in them (walked
on the anagram-key graph, as racks are in lexforge.anagram); a depth-first search over the keys
in a fixed order, each phrase's keys in non-decreasing order, finds each multiset of keys once
(compiled: lexforge._phrase, resumable, so results stream). A multiset of keys stands for every
multiset of their words (``AEHLNPT EH`` → ``PLANET EH``, ``PLATEN HE`` …), expanded as found.

Keys are ordered longest first, so phrases come out longest word first; ``sort="words"`` runs
the search once per word count (iterative deepening) to give the fewest words first, still
streaming. Within a phrase, words are longest first, then alphabetical.
"""

from __future__ import annotations

import unicodedata
from array import array
from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement, groupby, product
from time import monotonic

from lexforge._phrase import PhraseSearch
from lexforge.anagram import candidate_keys
from lexforge.errors import UserError
from lexforge.lexicon import Lexicon
from lexforge.text import fold_tiles

TYPE_CHECKING = False  # typing's constant, without importing typing
if TYPE_CHECKING:
    from typing import Any

PHRASE_SORTS = ("longest", "words")
MAX_LETTER_COUNT = 127  # of one letter: the packed counts' fields hold up to 7 bits
BATCH = 2048  # key multisets per call of the compiled search


def phrase_letters(text: str, lexicon: Lexicon) -> str:
    """The phrase's letters, folded with the lexicon's language (a word's CH one letter where
    the lexicon has CH tiles); spaces and punctuation are dropped; anything else outside the
    alphabet is a UserError."""
    language = lexicon.language
    try:
        folded = fold_tiles(text, language, spelled=True)
    except UserError as error:
        raise UserError(f"phrase '{text}': {error}") from None
    letters = "".join(c for c in folded if unicodedata.category(c)[0] not in "ZPC")
    unknown = sorted(set(letters) - set(language.alphabet))
    if unknown:
        raise UserError(
            f"phrase '{text}': {''.join(unknown)} not in the {language.name} alphabet "
            f"({language.alphabet})"
        )
    if not letters:
        raise UserError(f"phrase '{text}': no letters")
    most, count = Counter(letters).most_common(1)[0]
    if count > MAX_LETTER_COUNT:
        raise UserError(
            f"phrase '{text}': {count} × {most}; at most {MAX_LETTER_COUNT} of a letter"
        )
    return letters


def phrases(lexicon: Lexicon, text: str, **options: Any) -> Iterator[tuple[str, ...]]:
    """Every multiset of lexicon words (of ``min_length``–``max_length`` letters, at most
    ``max_words`` of them, one of them ``contains`` if given) using exactly the letters of
    ``text``, as tuples of words (longest first, then alphabetical), streamed in ``sort`` order:
    ``longest`` (longest word first) or ``words`` (fewest words first, then longest word).
    The options are ``phrase_batches``'s."""
    for batch in phrase_batches(lexicon, text, **options):
        yield from batch


class PhraseTimeout(UserError):
    """The phrase search ran out of its time limit before it was over."""


def phrase_batches(
    lexicon: Lexicon,
    text: str,
    *,
    max_words: int | None = None,
    min_length: int | None = None,
    max_length: int | None = None,
    contains: str = "",
    sort: str = "longest",
    seconds: float | None = None,
) -> Iterator[list[tuple[str, ...]]]:
    """``phrases`` in lists, each as soon as the compiled search gives it: a list comes at
    least every few milliseconds of search while there are phrases to find, so a caller that
    writes each list at once streams from the first phrase. With ``seconds``, PhraseTimeout
    when the search is not over after that long (the phrases found until then are given)."""
    if sort not in PHRASE_SORTS:
        raise UserError(f"unknown phrase sort '{sort}' (use one of: {', '.join(PHRASE_SORTS)})")
    deadline = None if seconds is None else monotonic() + seconds
    letters = phrase_letters(text, lexicon)
    low = 1 if min_length is None else min_length
    high = len(letters) if max_length is None else max_length
    words_cap = len(letters) if max_words is None else max_words
    given: tuple[str, ...] = ()
    if contains:
        word = fold_tiles(contains, lexicon.language, spelled=True)
        if word not in lexicon:
            raise UserError(f"--contains '{contains}': not a word of lexicon '{lexicon.name}'")
        rest = Counter(letters)
        rest.subtract(word)
        if min(rest.values()) < 0:
            raise UserError(f"--contains '{contains}': phrase '{text}' does not hold its letters")
        if not low <= len(word) <= high:
            return
        letters = "".join(sorted(rest.elements()))
        words_cap -= 1
        given = (word,)
        if not letters:
            yield [given]
            return
    if words_cap < 1:
        return
    keys = _candidate_keys(lexicon, letters, low, high)
    words_cap = min(words_cap, len(letters))
    counts = (range(1, words_cap + 1) if sort == "words" else [words_cap]) if keys else []
    words_of = _WordsOfKey(lexicon, keys)
    for count in counts:
        search = _search(letters, keys, count, exact=sort == "words")
        while not search.done:
            # Python runs its signal handlers between calls: Ctrl-C stops a search at once.
            if batch := search.next_batch(BATCH):
                # each phrase's words longest first, then alphabetical (the sort is stable)
                yield [
                    tuple(sorted(sorted(found + given), key=len, reverse=True))
                    for chosen in batch
                    for found in words_of.expand(chosen)
                ]
            if (
                deadline is not None
                and monotonic() > deadline
                and not (search.done and count == counts[-1])
            ):
                raise PhraseTimeout(f"phrase '{text}': the search was not over after {seconds:g} s")


def _word_order(word: str) -> tuple[int, str]:
    return -len(word), word


def _candidate_keys(lexicon: Lexicon, letters: str, low: int, high: int) -> list[str]:
    """The anagram keys of ``low``–``high`` letters that fit in ``letters``, longest first."""
    return sorted(candidate_keys(lexicon, Counter(letters), low, high), key=_word_order)


def _search(letters: str, keys: list[str], count: int, *, exact: bool) -> PhraseSearch:
    """The compiled search over ``keys`` (longest first) for ``letters``: up to ``count`` keys
    (exactly ``count`` when ``exact``)."""
    distinct = sorted(set(letters))
    table = {ord(letter): i for i, letter in enumerate(distinct)}
    encoded = "".join(keys).translate(table).encode("latin-1")
    starts = [0]
    for key in keys:
        starts.append(starts[-1] + len(key))
    tally = Counter(letters)
    counts = bytes(tally[letter] for letter in distinct)
    return PhraseSearch(encoded, array("i", starts), counts, count, exact)


class _WordsOfKey:
    """The words of each candidate key (looked up on first use) and the expansion of a
    multiset of keys into the multisets of words it stands for."""

    def __init__(self, lexicon: Lexicon, keys: list[str]) -> None:
        self._lexicon = lexicon
        self._keys = keys
        self._words: list[tuple[str, ...] | None] = [None] * len(keys)

    def words(self, key: int) -> tuple[str, ...]:
        found = self._words[key]
        if found is None:
            found = self._words[key] = tuple(self._lexicon.anagram_words(self._keys[key]))
        return found

    def expand(self, chosen: tuple[int, ...]) -> Iterator[tuple[str, ...]]:
        """The word multisets of a key multiset (keys in non-decreasing order), unordered."""
        if len(set(chosen)) == len(chosen):
            return product(*map(self.words, chosen))
        runs = [(key, len(list(group))) for key, group in groupby(chosen)]
        options = [combinations_with_replacement(self.words(key), n) for key, n in runs]
        return (sum(combination, ()) for combination in product(*options))
