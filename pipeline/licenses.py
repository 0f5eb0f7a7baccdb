"""Where each raw file comes from and under which licence: its line in a ``SOURCES`` file.

A ``SOURCES`` file (found in the raw file's folder or the nearest folder above it) has one
tab-separated line per raw file: ``path package version license sha256``, the path relative to
the ``SOURCES`` file's folder, the sha256 the file's content; the package's copyright and licence
text is ``licenses/<package>.copyright`` beside it. ``raw/<lang>/SOURCES`` names the Debian
packages (scripts/import-debian-raw.sh rewrites it); a folder of files from elsewhere has its own
(``raw/en/enable2k/SOURCES``), and so does each ``raw/<lang>/curation/`` folder: a list the
lexforge authors wrote is package ``lexforge``, version ``in-tree``, licence ``MIT`` (text:
``licenses/lexforge.copyright``), a list read from a published source names that source. The
manifest names the licences of a lexicon's sources; the release bundle carries their lines and
texts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from lexforge.errors import UserError, excerpt
from lexforge.verify import sha256_file

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


def missing_line(file: Path) -> str:
    """What to do for a raw file without a ``SOURCES`` line: the exact line to add, in the
    ``SOURCES`` file of its own folder (found first)."""
    if not file.is_file():
        return "file not found"
    line = "\\t".join((file.name, "lexforge", "in-tree", "MIT", sha256_file(file)))
    text = file.parent / "licenses" / "lexforge.copyright"
    licence = "" if text.is_file() else f", and the project's licence as {text}"
    return (
        "add its line (if the lexforge authors wrote it; else its source's package, version "
        "and licence in place of 'lexforge in-tree MIT', and that licence's text as "
        f"licenses/<package>.copyright{licence}): printf '{line}\\n' >> "
        f"{file.parent / SOURCES_FILE}"
    )


def stale_lines(entries: list[SourceEntry]) -> list[str]:
    """One problem per raw file whose content is not the sha256 its ``SOURCES`` line records,
    saying the line to write."""
    problems = []
    for entry in entries:
        recorded = entry.line.rsplit("\t", 1)[1]
        actual = sha256_file(entry.file)
        if actual != recorded:
            relative = entry.file.relative_to(entry.sources_file.parent).as_posix()
            fields = (relative, entry.package, entry.version, entry.license, actual)
            problems.append(
                f"{entry.file}: changed since its line in {entry.sources_file} (sha256 "
                f"{recorded[:12]}…, now {actual[:12]}…); if the change is meant, make the line "
                f"'{chr(9).join(fields)}'"
            )
    return problems
