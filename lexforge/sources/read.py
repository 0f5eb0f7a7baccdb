"""``read_entries``: the entries of a raw file, read by its format's reader."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

from lexforge.sources.affixrules import AffixRefusal, RefusedForms
from lexforge.sources.aspell import read_aspell
from lexforge.sources.curation import read_curation
from lexforge.sources.dict import read_dict
from lexforge.sources.freelang import read_freelang
from lexforge.sources.hunspell import read_hunspell
from lexforge.sources.ods import read_ods


def read_entries(
    fmt: str,
    path: Path,
    encoding: str | None = None,
    reject_chars: frozenset[str] = frozenset(),
    pruned: Counter[frozenset[str]] | None = None,
    refusal: AffixRefusal | None = None,
    refused: RefusedForms | None = None,
) -> Iterator[str]:
    """Entries of ``path`` read as ``fmt``.

    ``reject_chars`` lets the aspell and hunspell readers skip forms holding them (aspell without
    generating them); ``pruned`` then counts those forms by the set of reject characters each held.
    ``refusal`` makes them leave out the forms of refused affix entries, counted in ``refused``.
    """
    if fmt == "aspell":
        return read_aspell(path, reject_chars, pruned, refusal, refused)
    if fmt == "hunspell":
        return read_hunspell(path, reject_chars, pruned, refusal, refused)
    readers: dict[str, Callable[..., Iterator[str]]] = {
        "dict": read_dict,
        "ods": read_ods,
        "freelang": read_freelang,
        "curation": read_curation,
    }
    reader = readers[fmt]
    return reader(path, encoding) if encoding else reader(path)
