"""What each build job produced, recorded, so that a damaged or missing artifact is rebuilt.

Every rule's step ends by recording its outputs, in its own process (``--record RECORD FILE…``,
``add_record_option``): size, modification time and sha256 of each, in
``build/work/<lexicon>/outputs/<rule>.json``, itself an output of the rule. Before Snakemake plans
anything, ``stale_records`` compares every record with the files: a file that is missing, or whose
contents changed (its size or time differ and so does its hash), makes the record stale. ``forget``
then deletes the record and the lexicon's certificates (``manifest.json``, ``validation.json`` of
``build/stage/<lexicon>/``): Snakemake must rebuild those, which needs the record, so it reruns the
job that damaged file came from, and everything after it, up to putting the lexicon live again
(``pipeline.live``, whose version files are hard links to the staged ones: damage to
``build/<lexicon>/X`` is damage to the staged X). (Deleting the record alone is not enough:
Snakemake does not rerun a job for a missing intermediate file while the final targets are up to
date.) The manifest certifies only files whose hash their producers recorded
(``recorded_entries``)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from pathlib import Path

from lexforge.atomic import atomic_open
from lexforge.errors import UserError
from lexforge.verify import sha256_file


def file_entry(path: Path) -> dict:
    """What a record holds of one file: its size, modification time and sha256."""
    stat = path.stat()
    return {"bytes": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": sha256_file(path)}


def record(record_path: Path, files: list[Path]) -> None:
    """Write the record of ``files`` (all but the record itself)."""
    entries = {str(path): file_entry(path) for path in sorted(set(files) - {record_path})}
    with atomic_open(record_path) as out:
        json.dump(entries, out, indent=1, sort_keys=True)
        out.write("\n")


def add_record_option(parser: argparse.ArgumentParser) -> None:
    """``--record RECORD FILE…``: the step records its outputs itself once it has written them
    all (``record_outputs``), without a second process."""
    parser.add_argument(
        "--record",
        type=Path,
        nargs="+",
        metavar="FILE",
        help="a record file, then the job's outputs: recorded there once the step succeeds",
    )


def record_outputs(args: argparse.Namespace) -> None:
    """Record the outputs ``--record`` names (nothing if it was not given)."""
    if args.record:
        record(args.record[0], args.record[1:])


#: What reading a record raises when it is missing or not a record.
_UNREADABLE = (OSError, ValueError, TypeError, KeyError, AttributeError)


def _read_record(record_path: Path) -> dict[str, dict]:
    """File name → its entry (``file_entry``) in one record; one of ``_UNREADABLE`` if it is
    missing or not a record."""
    entries = json.loads(record_path.read_text(encoding="utf-8"))
    return {
        name: {key: entry[key] for key in ("bytes", "mtime_ns", "sha256")}
        for name, entry in entries.items()
    }


def as_recorded(path: Path, entry: dict) -> bool:
    """Whether ``path`` is as its ``entry`` says: the same size and modification time, or else
    the same size and sha256 (only then is it read). OSError if it is missing."""
    stat = path.stat()
    if (stat.st_size, stat.st_mtime_ns) == (entry["bytes"], entry["mtime_ns"]):
        return True
    return stat.st_size == entry["bytes"] and sha256_file(path) == entry["sha256"]


def _problems(record_path: Path) -> Iterator[str]:
    """What no longer matches in one record (nothing if it all does)."""
    try:
        entries = _read_record(record_path)
    except _UNREADABLE:
        yield f"{record_path}: unreadable record"
        return
    for name, entry in entries.items():
        try:
            unchanged = as_recorded(Path(name), entry)
        except OSError:
            yield f"{name}: missing"
            continue
        if not unchanged:
            yield f"{name}: changed since it was built"


#: Records of steps since merged into others, whose files another step now makes and records:
#: a checkout built before the merge still holds them (the report and manifest steps joined
#: tables, the anagrams step compile).
RETIRED_RECORDS = ("report.json", "anagrams.json", "manifest.json")


def remove_retired_records(work_dir: Path) -> list[Path]:
    """Delete the records of retired steps under ``work_dir/*/outputs/``; the ones deleted."""
    retired = sorted(
        path for name in RETIRED_RECORDS for path in work_dir.glob(f"*/outputs/{name}")
    )
    for path in retired:
        path.unlink()
    return retired


def stale_records(work_dir: Path) -> dict[Path, str]:
    """Each record under ``work_dir/*/outputs/`` whose files no longer match, with the first
    problem found."""
    stale = {}
    for record_path in sorted(work_dir.glob("*/outputs/*.json")):
        problem = next(_problems(record_path), None)
        if problem is not None:
            stale[record_path] = problem
    return stale


#: What certifies a lexicon: rebuilt whenever any of its files is (the manifest by the tables
#: step, whose output it is).
CERTIFICATES = ("manifest.json", "validation.json")
#: The rules that validate a lexicon and put it live (pipeline.live): rerun after any repair.
FINAL_RULES = ("validate", "live")


def forget(record_path: Path, build_dir: Path = Path("build")) -> None:
    """Delete a stale record and, unless it is the live step's own (whose rerun repairs the link
    and the version directory), its lexicon's certificates and final records."""
    record_path.unlink(missing_ok=True)
    if record_path.stem == "live":
        return
    lexicon = record_path.parent.parent.name
    for name in CERTIFICATES:
        (build_dir / "stage" / lexicon / name).unlink(missing_ok=True)
    for rule in FINAL_RULES:
        (record_path.parent / f"{rule}.json").unlink(missing_ok=True)


def recorded_entries(records: list[Path]) -> dict[str, dict]:
    """File name → its entry (``file_entry``) as its producing jobs recorded it."""
    recorded: dict[str, dict] = {}
    for record_path in records:
        try:
            recorded.update(_read_record(record_path))
        except _UNREADABLE as error:
            raise UserError(f"{record_path}: unreadable output record ({error})") from None
    return recorded
