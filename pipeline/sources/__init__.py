"""The raw-format readers: each turns one source file into its entries (original spelling).

Readers know nothing of games or normalization; ``READERS`` maps a format name to its reader.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from pipeline.sources.dict import read_dict
from pipeline.sources.freelang import read_freelang
from pipeline.sources.ods import read_ods

FORMATS = ("dict", "ods", "freelang", "aspell")
#: Formats whose capitalisation is meaningful (a capital marks a proper noun or an abbreviation).
CASE_SENSITIVE = {"dict": True, "ods": False, "freelang": True, "aspell": True}


def read_entries(
    fmt: str,
    path: Path,
    encoding: str | None = None,
    reject_chars: frozenset[str] = frozenset(),
    pruned: Counter[frozenset[str]] | None = None,
) -> Iterator[str]:
    """Entries of ``path`` read as ``fmt``.

    ``reject_chars`` lets the aspell reader skip forms holding them without generating them;
    ``pruned`` then counts those forms by the set of reject characters each held.
    """
    if fmt == "aspell":
        from pipeline.sources.aspell import read_aspell

        return read_aspell(path, reject_chars, pruned)
    readers: dict[str, Callable[..., Iterator[str]]] = {
        "dict": read_dict,
        "ods": read_ods,
        "freelang": read_freelang,
    }
    reader = readers[fmt]
    return reader(path, encoding) if encoding else reader(path)
