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
CLASSIFY_REASONS = ("no-vowel", "roman-numeral", "unit", "one-letter", "letter-run")
REASONS = (
    *CHARACTER_REASONS,
    "abbreviation",
    "proper-noun",
    "alphabet",
    "too-short",
    "too-long",
    *CLASSIFY_REASONS,
    "no-tile",  # a letter no tile plays, where words are stored as tiles (Catalan BYTE)
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
#: The normalization reasons whose every rejected entry the build lists (``removed.tsv`` beside
#: the quality report): all but the character classes, whose entries are many (Italian aspell:
#: 33 million with an apostrophe) and plain to see, and the affix rules (Italian aspell: 2.7
#: million enclitic forms, each made by a rule the language file states).
LISTED_REASONS = tuple(
    reason for reason in REASONS if reason not in (*CHARACTER_REASONS, "affix-rule")
)
DEFAULT_REJECT = {**dict.fromkeys(CHARACTER_REASONS, True), **dict.fromkeys(CASE_REASONS, True)}
