"""Reader for the French Scrabble list (ODS, "L'Officiel du Scrabble") and any plain word list.

One word per line, upper or lower case, LF or CRLF, optional UTF-8 BOM. The ODS is not
redistributable: point config/config.yaml at your own copy (see docs/lexicons.md).
"""

from collections.abc import Iterator
from pathlib import Path

from lexforge.sources.textfile import read_lines


def read_ods(path: Path, encoding: str = "utf-8") -> Iterator[str]:
    """Yield every word of an ODS-style list (blank lines skipped)."""
    for line in read_lines(path, encoding):
        word = line.strip()
        if word:
            yield word
