"""The raw-format readers: each turns one source file into its entries (original spelling).

Readers know nothing of games or normalization. This module only names the formats (so that a
configuration can be checked without loading any reader); ``lexforge.sources.read`` reads.
"""

FORMATS = ("dict", "ods", "freelang", "aspell", "hunspell", "curation")
#: Formats whose capitalisation is meaningful (a capital marks a proper noun or an abbreviation).
CASE_SENSITIVE = {
    "dict": True,
    "ods": False,
    "freelang": True,
    "aspell": True,
    "hunspell": True,
    "curation": False,
}
#: Spell-checker formats: their lists hold abbreviations, symbols, numerals and names, which
#: the junk rules remove (capitals, and the language's shape rules, ``lexforge.classify``). A
#: list of another format, a game list, is taken whole (only folded) unless asked to be cleaned.
CLEANED = frozenset({"dict", "aspell", "hunspell"})
