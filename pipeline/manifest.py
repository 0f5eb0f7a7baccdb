"""The manifest: what a lexicon is made of, for consumers and for ``lexforge verify``.

``manifest.json``: lexicon, language, version, word count, sources (path, format, sha256 of every
file, counts), licenses (each source package's licence, from raw/<lang>/SOURCES: pipeline.licenses),
artifacts (name, bytes, sha256) and tool versions. No timestamps: the same inputs give a
byte-identical manifest. The ``tables`` step, the last to write artifacts, writes it
(``write_manifest``): a process of its own cost more than the manifest itself.
"""

from __future__ import annotations

import json
import platform
from importlib.metadata import version
from pathlib import Path

from lexforge.atomic import atomic_open
from lexforge.errors import UserError
from pipeline.licenses import licenses, source_entries
from pipeline.outputs import as_recorded

TOOLS = ("lexforge", "marisa-trie", "numpy", "pyarrow", "snakemake", "unidecode")


def tool_versions() -> dict[str, str]:
    return {"python": platform.python_version(), **{name: version(name) for name in TOOLS}}


def certified(artifacts: list[Path], recorded: dict[str, dict]) -> list[dict]:
    """Name, size and sha256 of each artifact, which must be as its producing job recorded it
    (``pipeline.outputs``): the manifest never certifies a file it did not see produced. As in
    the build's repair check (``as_recorded``), a file of the recorded size and modification
    time is taken at its recorded sha256, and only another is hashed (hashing every artifact
    again cost Italian 0.8 s)."""
    entries = []
    for path in sorted(artifacts, key=lambda p: p.name):
        entry = recorded.get(str(path))
        try:
            as_built = entry is not None and as_recorded(path, entry)
        except OSError as error:
            raise UserError(f"{path}: cannot read ({error.strerror or error})") from None
        if not as_built:
            raise UserError(
                f"{path}: not as its build step wrote it; run snakemake again to rebuild it"
            )
        entries.append({"name": path.name, "bytes": entry["bytes"], "sha256": entry["sha256"]})
    return entries


def count_lines(path: Path) -> int:
    """The lines of a file, the last one even without its newline (as iterating it counts)."""
    lines = 0
    last = b"\n"
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            lines += chunk.count(b"\n")
            last = chunk[-1:]
    return lines + (last != b"\n")


def build_manifest(
    name: str,
    language: str,
    config_version: str,
    words: int,
    sources: list[dict],
    artifacts: list[dict],
) -> dict:
    return {
        "lexicon": name,
        "language": language,
        "version": config_version,
        "words": words,
        "sources": sources,
        "licenses": licenses(*source_entries(Path(f) for s in sources for f in s["files"])),
        "artifacts": artifacts,
        "tools": tool_versions(),
    }


def write_manifest(
    name: str,
    language: str,
    config_version: str,
    sources: list[dict],
    artifacts: list[dict],
    words: int,
    out: Path,
) -> None:
    """Write ``out``: the manifest of ``artifacts`` (``certified``'s entries, in any order) of a
    lexicon of ``words`` words (``sources``: the words step's ``sources.json``)."""
    entries = sorted(artifacts, key=lambda artifact: artifact["name"])
    manifest = build_manifest(name, language, config_version, words, sources, entries)
    with atomic_open(out) as handle:
        json.dump(manifest, handle, indent=1, sort_keys=True, ensure_ascii=False)
        handle.write("\n")
