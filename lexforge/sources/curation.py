"""Reader for curated lists (``raw/<lang>/curation/*.txt``): deny and allow lists, two-letter lists.

UTF-8, one word per line, optionally followed by a TAB and the reason it is listed; ``#`` starts
a comment line. The file must begin with a comment naming where its words come from.
"""

from collections.abc import Iterator
from pathlib import Path

from lexforge.errors import UserError, excerpt
from lexforge.sources.textfile import read_lines


def read_curation(path: Path, encoding: str = "utf-8") -> Iterator[str]:
    """Yield the word of every entry line (blank and ``#`` comment lines skipped)."""
    lines = read_lines(path, encoding)
    if not lines[0].startswith("#"):
        raise UserError(f"{path}: line 1: a curated list starts with a comment naming its source")
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.startswith("#"):
            continue
        word = line.split("\t", 1)[0].strip()
        if not word or " " in word:
            raise UserError(
                f"{path}: line {number}: expected WORD or WORD<TAB>reason, got {excerpt(line)!r}"
            )
        yield word
