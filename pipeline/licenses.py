"""Where each raw file comes from and under which licence: its line in ``raw/<lang>/SOURCES``.

A ``SOURCES`` file (found in the raw file's folder or the nearest folder above it) has one
tab-separated line per raw file: ``path package version license sha256``, the path relative to
the ``SOURCES`` file's folder; the package's copyright and licence text is
``licenses/<package>.copyright`` beside it. The manifest names the licences of a lexicon's
sources; the release bundle carries their lines and texts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lexforge.errors import UserError, excerpt

SOURCES_FILE = "SOURCES"
FIELDS = ("path", "package", "version", "license", "sha256")


@dataclass(frozen=True)
class SourceEntry:
    """One raw file's line of its ``SOURCES`` file."""

    file: Path  # the raw file, as the build names it (raw/fr/dict/french)
    sources_file: Path
    package: str
    version: str
    license: str
    line: str

    @property
    def text_file(self) -> Path:
        """The package's copyright and licence text (may be missing: see ``check_texts``)."""
        return self.sources_file.parent / "licenses" / f"{self.package}.copyright"


@cache
def read_sources(sources_file: Path) -> dict[str, tuple[str, ...]]:
    """A ``SOURCES`` file's lines by relative path (each line's five fields)."""
    entries = {}
    text = sources_file.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = tuple(line.split("\t"))
        if len(fields) != len(FIELDS) or not all(fields):
            raise UserError(
                f"{sources_file}: line {number}: expected {len(FIELDS)} tab-separated fields "
                f"({' '.join(FIELDS)}), got '{excerpt(line)}'"
            )
        entries[fields[0]] = fields
    return entries


def find_sources_file(file: Path) -> Path | None:
    """The ``SOURCES`` file of the raw file's folder or the nearest folder above it."""
    for folder in (file.parent, *file.parent.parents):
        if (folder / SOURCES_FILE).is_file():
            return folder / SOURCES_FILE
    return None


def source_entries(files: Iterable[Path]) -> tuple[list[SourceEntry], list[Path]]:
    """The ``SOURCES`` line of each raw file, and the files that have none (licence unknown)."""
    entries, unknown = [], []
    for file in sorted(set(files)):
        sources_file = find_sources_file(file)
        if sources_file is None:
            unknown.append(file)
            continue
        relative = file.relative_to(sources_file.parent).as_posix()
        fields = read_sources(sources_file).get(relative)
        if fields is None:
            unknown.append(file)
            continue
        _, package, version, license_name, sha256 = fields
        line = "\t".join((file.as_posix(), package, version, license_name, sha256))
        entries.append(SourceEntry(file, sources_file, package, version, license_name, line))
    return entries, unknown


def licenses(entries: list[SourceEntry], unknown: list[Path]) -> list[dict]:
    """The manifest's ``licenses``: one record per package (its raw files, licence, text in the
    bundle), then the files whose licence is unknown, if any."""
    packages: dict[tuple[str, str, str], list[str]] = {}
    for entry in entries:
        key = (entry.package, entry.version, entry.license)
        packages.setdefault(key, []).append(entry.file.as_posix())
    records = [
        {
            "package": package,
            "version": version,
            "license": license_name,
            "text": f"licenses/{package}.copyright",
            "files": files,
        }
        for (package, version, license_name), files in sorted(packages.items())
    ]
    if unknown:
        records.append(
            {
                "package": None,
                "version": None,
                "license": "unknown",
                "text": None,
                "files": [file.as_posix() for file in unknown],
            }
        )
    return records
