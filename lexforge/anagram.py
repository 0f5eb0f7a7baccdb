"""Anagrams and racks with jokers, and crossword patterns.

``anagram`` finds every word that can be made from a subset of a rack (letters plus jokers),
like the Bash seed, through the anagram index: the compiled search (``lexforge._rack``) walks
the letter graph of sorted letter keys, extending a key only while some key starts with it, and
lists the words of every complete key met (its ``KEY=WORD`` lines of ``anagrams.txt``). A rack
letter is always preferred to a joker, so each key is reached once and jokers stand only for
what the rack lacks.

``pattern`` matches crossword patterns (``?`` one letter, ``*`` any run of letters), optionally
with the wildcard letters drawn from a rack.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter, namedtuple
from collections.abc import Iterator, Mapping
from functools import lru_cache
from itertools import repeat
from operator import itemgetter

from lexforge._rack import rack_keys, rack_matches
from lexforge.errors import UserError, excerpt
from lexforge.lexicon import Lexicon
from lexforge.text import fold_letter, fold_tiles

JOKERS = "*?"
MAX_JOKERS = 3  # each joker multiplies the search by the alphabet size; 4 gives no useful answer
SORT_KEYS = ("alpha", "length", "score")  # in the order of lexforge._rack's sort codes


# The records of a rack query are collections' named tuples, not typing's: importing typing took
# about a twelfth of a one-shot query.


class Rack(namedtuple("Rack", ["letters", "jokers"])):
    """A parsed rack: ``letters`` (a ``Counter[str]`` of letter counts) and ``jokers`` (int)."""

    __slots__ = ()

    @property
    def size(self) -> int:
        return sum(self.letters.values()) + self.jokers


class Match(namedtuple("Match", ["word", "shown", "score"])):
    """A word found (``word``, str), with the letters jokers stand for shown in lowercase
    (``shown``, str), and its score (``score``, int); a named tuple: racks find thousands, and
    a tuple is the cheapest object to make."""

    __slots__ = ()


def parse_rack(
    text: str, lexicon: Lexicon, *, allow_empty: bool = False, max_jokers: int = MAX_JOKERS
) -> Rack:
    """Letters (folded to the language's alphabet) and jokers (``*`` or ``?``) of a rack."""
    jokers = sum(text.count(j) for j in JOKERS)
    language = lexicon.language
    try:
        letters = fold_tiles(
            "".join(c for c in text if c not in JOKERS and not c.isspace()), language
        )
    except UserError as error:
        raise UserError(f"rack '{text}': {error}") from None
    unknown = sorted(set(letters) - set(language.alphabet))
    if unknown:
        raise UserError(
            f"rack '{text}': {''.join(unknown)} not in the {language.name} "
            f"alphabet ({language.spell(language.alphabet, bracket=True)})"
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


class _LetterTables(namedtuple("_LetterTables", ["order", "values", "upper", "lower"])):
    """Per letter of the graph's order (``order``, str; lexforge.graph's: code-point order):
    its tile value (``values``, an ``array``) and its UTF-8 forms, upper- and lowercase
    (``upper``, ``lower``: tuples of bytes), as the compiled search takes them."""

    __slots__ = ()


@lru_cache(maxsize=64)
def _letter_tables(alphabet: str, tile_values: tuple[tuple[str, int], ...]) -> _LetterTables:
    order = "".join(sorted(set(alphabet)))
    values = dict(tile_values)
    return _LetterTables(
        order,
        array("q", (values.get(letter, 0) for letter in order)),
        tuple(letter.encode("utf-8") for letter in order),
        tuple(letter.lower().encode("utf-8") for letter in order),
    )


def _tables(lexicon: Lexicon) -> _LetterTables:
    language = lexicon.language
    return _letter_tables(language.alphabet, tuple(language.tile_values.items()))


def _per_letter(counts: Mapping[str, int], order: str) -> bytes:
    """Each letter's count, in ``order``; counts above 255 mean the same as 255 (no key is
    that long)."""
    if counts and max(counts.values()) > 255:
        counts = {letter: min(n, 255) for letter, n in counts.items()}
    return bytes(map(counts.get, order, repeat(0)))


def _bounded(length: int) -> int:
    """A length as the compiled search's C int takes it (no key is 2³⁰ letters long)."""
    return max(0, min(length, 1 << 30))


def _index(lexicon: Lexicon) -> tuple[memoryview, memoryview, bytes]:
    nodes = lexicon.anagram_nodes
    offsets, text = lexicon.anagram_classes
    return nodes, offsets, memoryview(text)


def _damaged(lexicon: Lexicon, error: ValueError) -> UserError:
    where = lexicon.path if lexicon.path is not None else lexicon.name
    return UserError(
        f"{where}: damaged anagram index ({excerpt(str(error))}); check it with: lexforge verify"
    )


def candidate_keys(
    lexicon: Lexicon, letters: Counter[str], min_length: int, max_length: int
) -> list[str]:
    """The anagram keys of ``min_length``–``max_length`` letters that ``letters`` can make
    (no jokers), in the walk's order."""
    counts = _per_letter(letters, _tables(lexicon).order)
    try:
        return rack_keys(*_index(lexicon), counts, _bounded(min_length), _bounded(max_length))
    except ValueError as error:
        raise _damaged(lexicon, error) from None


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
    tables = _tables(lexicon)
    try:
        return rack_matches(
            *_index(lexicon),
            _per_letter(rack.letters, tables.order),
            rack.jokers,
            tables.values,
            _per_letter(required, tables.order),
            _bounded(low),
            _bounded(high),
            _bounded(rack.size) if exact else -1,
            SORT_KEYS.index(sort),
            tables.upper,
            tables.lower,
            Match,
        )
    except ValueError as error:
        raise _damaged(lexicon, error) from None


def sort_matches(matches: list[Match], sort: str) -> list[Match]:
    """Alphabetical, or by score or length (highest first), then alphabetical. A Match is a
    tuple led by its word, and words are distinct: plain tuple order is alphabetical order, and
    a stable sort by one key keeps it among equals (``reverse`` keeps sorts stable)."""
    ordered = sorted(matches)
    if sort == "score":
        ordered.sort(key=itemgetter(2), reverse=True)
    elif sort == "length":
        ordered.sort(key=_word_length, reverse=True)
    return ordered


def _word_length(match: Match) -> int:
    return len(match.word)


class _Pattern(namedtuple("_Pattern", ["prefix", "regex", "glob"])):
    """A crossword pattern compiled: its literal prefix, a regex whose groups are its wildcards,
    and the UTF-8 pattern the compiled scan matches (lexforge._pattern)."""

    __slots__ = ()


def _compile_pattern(pattern: str, lexicon: Lexicon) -> _Pattern:
    """The literal prefix, the regex and the scan's pattern of a crossword pattern."""
    letters = set(lexicon.language.alphabet)
    try:
        tiles = fold_tiles(pattern, lexicon.language, spelled=True)
    except UserError as error:
        raise UserError(f"pattern '{pattern}': {error}") from None
    parts, glob = [], []
    for char in tiles:
        if char == "?":
            parts.append("(.)")
        elif char == "*":
            parts.append("(.*)")
        else:
            folded = fold_letter(char, lexicon.language)
            if not set(folded) <= letters:
                raise UserError(
                    f"pattern '{pattern}': '{char}' is not a letter of the "
                    f"{lexicon.language.name} alphabet, '?' or '*'"
                )
            parts.append(re.escape(folded))
            char = folded
        glob.append(char)
    prefix = ""
    for char in tiles:
        if char in "?*":
            break
        prefix += fold_letter(char, lexicon.language)
    return _Pattern(prefix, re.compile("".join(parts)), "".join(glob).encode("utf-8"))


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
    chunks = pattern_chunks(lexicon, text, rack_text=rack_text)
    return (Match._make(row) for rows in chunks for row in rows)


def pattern_chunks(
    lexicon: Lexicon, text: str, *, rack_text: str | None = None
) -> Iterator[list[tuple[str, str, int]]]:
    """``iter_pattern``'s matches as lists of plain (word, shown, score) tuples, as the compiled
    scan finds them (the cheapest form for millions of rows). The pattern and rack are checked
    at once."""
    if not text:
        raise UserError("empty pattern")
    compiled = _compile_pattern(text, lexicon)
    rack = parse_rack(rack_text, lexicon) if rack_text is not None else None
    return _pattern_chunks(lexicon, compiled, rack)


def _pattern_chunks(
    lexicon: Lexicon, compiled: _Pattern, rack: Rack | None
) -> Iterator[list[tuple[str, str, int]]]:
    chunks = lexicon.pattern_rows(compiled.glob, compiled.prefix, _values_by_code(lexicon))
    if rack is None:
        yield from chunks
        return
    regex = compiled.regex
    for rows in chunks:
        kept = []
        for word, _, _ in rows:  # the scan found the words; the regex says which letters are wild
            found = regex.fullmatch(word)
            jokers = "".join((Counter("".join(found.groups())) - rack.letters).elements())
            if len(jokers) > rack.jokers:
                continue
            shown = show_jokers_at(word, jokers, wildcard_positions(found))
            kept.append((word, shown, score(word, jokers, lexicon)))
        if kept:
            yield kept


def _values_by_code(lexicon: Lexicon) -> array:
    """The tiles' values indexed by code point (0 where no tile), for the compiled scan."""
    values = {k: v for k, v in lexicon.language.tile_values.items() if len(k) == 1}
    table = array("i", bytes(4 * (max(map(ord, values), default=0) + 1)))
    for letter, value in values.items():
        table[ord(letter)] = value
    return table


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
