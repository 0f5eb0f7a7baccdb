"""``lexforge verify``: does a built lexicon still match its manifest?"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path

from lexforge.errors import excerpt
from lexforge.paths import build_command, cache_dir, find_lexicon_dir


def sha256_file(path: Path | str) -> str:
    """Hex sha256 of a file (also used by the pipeline to write manifests)."""
    import hashlib  # not imported at start: a one-shot query on certified files never hashes

    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


#: The pipeline step that writes each artifact (rules/*.smk), named in verify's advice.
PRODUCING_STEP = {
    "words.txt": "compile",
    "words.marisa": "compile",
    "graph.npy": "compile",
    "language.json": "compile",
    "word-sources.npy": "compile",
    "sources.json": "compile",
    "anagrams.txt": "compile",
    "anagram-graph.npy": "compile",
    "anagram-classes.npy": "compile",
    "letters.parquet": "tables",
    "stats.parquet": "tables",
    "report.html": "tables",
    "report.json": "tables",
    "removed.tsv": "tables",
    "manifest.json": "tables",
}


def manifest_entries(manifest: object) -> list[tuple[str, int, str]]:
    """(name, bytes, sha256) of each artifact; ValueError if the manifest is not of that shape
    or names a file outside its directory."""
    artifacts = manifest.get("artifacts") if isinstance(manifest, dict) else None
    if not isinstance(artifacts, list):
        raise ValueError("no list of artifacts")
    entries = []
    for artifact in artifacts:
        name = artifact.get("name") if isinstance(artifact, dict) else None
        size = artifact.get("bytes") if isinstance(artifact, dict) else None
        sha256 = artifact.get("sha256") if isinstance(artifact, dict) else None
        if not isinstance(name, str) or Path(name).name != name or name in {"", ".", ".."}:
            raise ValueError(f"artifact name {excerpt(str(name))!r} is not a file name")
        if not isinstance(size, int) or not isinstance(sha256, str):
            raise ValueError(f"artifact {excerpt(name)!r} has no size or sha256")
        entries.append((name, size, sha256))
    return entries


def _advice(folder: Path, name: str) -> str:
    step = PRODUCING_STEP.get(name, "tables")
    return f"rerun step {step}: {build_command(folder.name)}"


def verify(spec: str) -> list[str]:
    """Problems found (missing, resized or altered artifacts), each with the step to rerun;
    empty when all match."""
    folder = find_lexicon_dir(spec)
    manifest_path = folder / "manifest.json"
    rebuild = f"rerun step tables: {build_command(folder.name)}"
    try:
        entries = manifest_entries(json.loads(manifest_path.read_bytes()))
    except FileNotFoundError:
        return [f"{manifest_path}: missing; {rebuild}"]
    except (OSError, ValueError) as error:
        return [f"{manifest_path}: unreadable manifest ({excerpt(str(error))}); {rebuild}"]
    return check_artifacts(folder, entries)


def uncertified(folder: Path, names: tuple[str, ...]) -> list[str]:
    """Those of ``names`` that ``folder``'s manifest does not list with their current sha256
    (all of them if the manifest is missing or unreadable)."""
    listed = _listed_hashes(folder)
    if listed is None:
        return list(names)
    return [n for n in names if listed.get(n) is None or sha256_file(folder / n) != listed[n]]


def _listed_hashes(folder: Path) -> dict[str, str] | None:
    """Artifact name → sha256 as ``folder``'s manifest lists them; None if it is unreadable."""
    try:
        entries = manifest_entries(json.loads((folder / "manifest.json").read_bytes()))
    except (OSError, ValueError):
        return None
    return {name: sha256 for name, _, sha256 in entries}


#: How many verified file versions ``changed_since_certified`` remembers.
REMEMBERED = 256
CERTIFIED_CACHE = "certified.json"
#: The threads of one process (``lexforge serve``) write the cache one at a time.
_CACHE_LOCK = threading.Lock()


def changed_since_certified(
    folder: Path,
    names: tuple[str, ...],
    check: Callable[[Path], None] | None = None,
    check_id: str = "",
) -> list[str]:
    """Those of ``names`` whose sha256 differs from what ``folder``'s manifest lists.

    Each file version (path, size, inode, modification and change times: a write in place
    changes the last even where the modification time is set back, at the file system's
    timestamp resolution) is hashed once (per ``check_id``): once it matched, it is remembered
    in ``<cache dir>/certified.json`` and later calls only ``stat`` it (a fraction of a
    millisecond, where hashing Italian's tries takes about 20 ms). A folder without a readable
    manifest, or a file it does not list, cannot be checked and is not reported.

    ``check`` (which raises UserError for a file it refuses) runs before the hash on every
    version not remembered as passing the check named ``check_id`` (which names its inputs
    too; a version hashed without that check is hashed again with it); on an unlisted file,
    every time."""
    if check is not None and not check_id:
        raise ValueError("a check needs a check_id")
    listed = _listed_hashes(folder) or {}
    remembered = _remembered() if any(name in listed for name in names) else {}
    changed, learned = [], {}
    for name in names:
        path = folder / name
        if name not in listed:
            if check is not None:
                check(path)
            continue
        stat = path.stat()
        version = f"{path.resolve()}:{stat.st_size}:{stat.st_ino}:{stat.st_mtime_ns}"
        version += f":{stat.st_ctime_ns}:{check_id if check is not None else 'sha256'}"
        if remembered.get(version) == listed[name]:
            continue
        if check is not None:
            check(path)
        if sha256_file(path) != listed[name]:
            changed.append(name)
        else:
            learned[version] = listed[name]
    if learned:
        _remember(learned)
    return changed


def _remembered() -> dict:
    """The file versions ``changed_since_certified`` remembers, with their sha256."""
    try:
        remembered = json.loads((cache_dir() / CERTIFIED_CACHE).read_bytes())
    except (OSError, ValueError):
        return {}
    return remembered if isinstance(remembered, dict) else {}


def _remember(learned: dict) -> None:
    """Add ``learned`` versions to the remembered ones, keeping the last ``REMEMBERED``."""
    from lexforge.atomic import atomic_open

    with _CACHE_LOCK:
        kept = list(_remembered().items())[-(REMEMBERED - len(learned)) :]
        try:
            with atomic_open(cache_dir() / CERTIFIED_CACHE) as out:
                json.dump(dict([*kept, *learned.items()]), out)
        except OSError:
            pass  # a read-only cache: the files are hashed again next time


def check_artifacts(folder: Path, entries: list[tuple[str, int, str]]) -> list[str]:
    """Problems of ``folder``'s files against a manifest's entries (``manifest_entries``)."""
    problems = []
    for name, size, sha256 in entries:
        path = folder / name
        if not path.is_file():
            problem = "missing"
        elif path.stat().st_size != size:
            problem = f"{path.stat().st_size} bytes, manifest says {size}"
        elif sha256_file(path) != sha256:
            problem = "content differs from manifest (sha256)"
        else:
            continue
        problems.append(f"{path}: {problem}; {_advice(folder, name)}")
    return problems
