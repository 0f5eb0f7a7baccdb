"""``lexforge check WORD…``: how a word normalizes and whether (and where from) a lexicon has it.

Each entry goes through the pipeline's normalization with the language's default rules, read
as a case-insensitive source (what a person types has no meaningful capitals): the folded word,
or the reason it is rejected (apostrophe, hyphen, alphabet, too-short…). A normalized word is
looked up in the lexicon, which may hold words the shape rules refuse (a game list is taken
whole): one it lacks that a shape rule refuses is rejected for that rule (no-vowel…). A built
lexicon also tells which of its sources have a word (``word-sources.npy`` and
``sources.json``, written by the compile step).
"""

from __future__ import annotations

from dataclasses import dataclass

from lexforge.classify import Classifier
from lexforge.lexicon import Lexicon
from lexforge.normalize import Normalizer


@dataclass(frozen=True)
class Check:
    entry: str  # as given
    word: str | None  # normalized, None when rejected
    reason: str | None  # the rejection reason, None when normalized
    found: bool
    sources: list[str] | None  # sources having the word; None when unknown (or not found)


def check_words(lexicon: Lexicon, entries: list[str]) -> list[Check]:
    """The normalization and membership of each entry."""
    normalizer = Normalizer(lexicon.language, case_sensitive=False, classify=False)
    rules = Classifier.for_language(lexicon.language)
    checks = []
    for entry in entries:
        word = normalizer(entry)
        if word is None:
            reason = next(iter(normalizer.rejected))
            normalizer.rejected.clear()
            checks.append(Check(entry, None, reason, False, None))
            continue
        found = word in lexicon
        reason = None if found or rules is None else rules.reason(lexicon.language.spell(word))
        if reason is not None:
            checks.append(Check(entry, None, reason, False, None))
            continue
        sources = lexicon.sources_of(word) if found else None
        checks.append(Check(entry, word, None, found, sources))
    return checks
