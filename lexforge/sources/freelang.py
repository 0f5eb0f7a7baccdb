"""Reader for FREELANG word lists (e.g. ``liste_francais.txt``).

Windows-1252 (byte 0x9C is œ: decoding as ISO-8859-1 would silently corrupt those words), CRLF,
no final newline. Entries may be multi-word (left for normalization to reject) or carry stray
punctuation around them (a trailing comma, surrounding quotes), which is removed here.
"""

from collections.abc import Iterator
from pathlib import Path

from lexforge.sources.textfile import read_lines

STRAY = ' \t,;:!?"«»()[]*'


def read_freelang(path: Path, encoding: str = "cp1252") -> Iterator[str]:
    """Yield each entry with surrounding stray punctuation removed (blank entries skipped)."""
    for line in read_lines(path, encoding):
        entry = line.strip(STRAY)
        if entry:
            yield entry
