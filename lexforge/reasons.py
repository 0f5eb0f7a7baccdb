"""Why normalization rejects an entry: the reasons it counts, and which a lexicon may switch off.

Kept apart from ``lexforge.normalize`` so that checking a configuration loads no folding code.
"""

#: Character classes an entry may be rejected for, in the order they are checked.
CHARACTER_REASONS: dict[str, str] = {
    "apostrophe": "'’ʼ`´",
    "hyphen": "-‐‑‒–—",
    "space": " \t\u00a0",
    "dot": ".",
    "digit": "0123456789",
}
CASE_REASONS = ("proper_nouns", "abbreviations")
#: Shape rules of the language's ``classify`` block (lexforge.classify), checked after folding.
CLASSIFY_REASONS = ("no-vowel", "roman-numeral", "unit")
REASONS = (
    *CHARACTER_REASONS,
    "abbreviation",
    "proper-noun",
    "alphabet",
    "too-short",
    "too-long",
    *CLASSIFY_REASONS,
    "affix-rule",  # made by an affix entry the lexicon refuses (lexforge.sources.affixrules)
)
#: Why composing a lexicon's sources removes a word a source holds (pipeline.words).
REMOVAL_REASONS = (
    "too-few-sources",
    "unconfirmed",
    "not-in-list",
    "denied",
    "named",
    "affix-rule",  # a plain list's word a refused affix rule made (refuse_in_lists)
)
#: How many rejected entries of each reason a source's statistics show (the first, sorted).
EXAMPLES = 5
DEFAULT_REJECT = {**dict.fromkeys(CHARACTER_REASONS, True), **dict.fromkeys(CASE_REASONS, True)}
