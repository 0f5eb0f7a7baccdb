"""Reader for /usr/share/dict style lists (Debian's wamerican, wfrench, wngerman, …).

UTF-8, one entry per line. Entries are returned as written: proper nouns, possessives (``'s``),
hyphens, spaces, digits, abbreviations and duplicates are left for normalization to reject.
"""

from collections.abc import Iterator
from pathlib import Path

from lexforge.sources.textfile import read_lines


def read_dict(path: Path, encoding: str = "utf-8") -> Iterator[str]:
    """Every non-blank line of a dict list, surrounding whitespace removed."""
    return iter([entry for line in read_lines(path, encoding) if (entry := line.strip())])
