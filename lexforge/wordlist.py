"""``-d WORDLIST``: a user's own word list, read by a pipeline reader and normalized in memory.

This is the one place the solver uses pipeline code (the readers and normalization are pure
Python, with no pandas or pyarrow); a built lexicon never goes through here.
"""

from __future__ import annotations

from pathlib import Path

from lexforge.errors import UserError
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.normalize import Normalizer
from lexforge.sources import CASE_SENSITIVE
from lexforge.sources.read import read_entries


def lexicon_from_wordlist(path: Path, fmt: str, language_spec: str) -> Lexicon:
    """Read ``path`` as ``fmt``, normalize with the language's default rules, build in memory."""
    language = Language.load(language_spec)
    normalizer = Normalizer(language, case_sensitive=CASE_SENSITIVE[fmt])
    words = {
        word
        for entry in read_entries(fmt, path, reject_chars=normalizer.reject_chars())
        if (word := normalizer(entry)) is not None
    }
    if not words:
        raise UserError(
            f"{path}: no word of this list is valid in {language.name} "
            f"(alphabet {language.alphabet}, length {language.min_length}"
            f"–{language.max_length})"
        )
    return Lexicon.from_words(words, language, name=path.name)
