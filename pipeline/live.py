"""Step ``live``: put a validated lexicon live, atomically, so no reader sees it half-rebuilt.

The steps before write a lexicon's artifacts into its staging directory, ``build/stage/<name>/``
(Snakemake deletes a job's outputs before running it, so a staged lexicon is incomplete during a
rebuild). Once the lexicon is validated, this step hard-links the staged files into a version
directory, ``build/versions/<name>/<id>/`` (``id``: the first 16 hex digits of the sha256 of its
``manifest.json`` and ``validation.json``), then points the symbolic link ``build/<name>`` at it
with one ``rename``. A reader that resolves ``build/<name>`` once (``lexforge.Lexicon.open`` does)
therefore reads one version throughout. The previous version is kept, for readers that resolved
the link just before the swap; older ones are deleted.

    python -m pipeline.live --stage build/stage/fr --build build \
        --record build/work/fr/outputs/live.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from pathlib import Path

from lexforge.atomic import TEMPORARY_SUFFIX
from lexforge.errors import UserError, excerpt, report_user_errors
from lexforge.verify import manifest_entries
from pipeline.outputs import CERTIFICATES, record

VERSIONS = "versions"


def version_id(stage: Path) -> str:
    """The version of a staged lexicon: a digest of its certificates (the manifest holds every
    artifact's sha256)."""
    digest = hashlib.sha256()
    for name in CERTIFICATES:
        path = stage / name
        if not path.is_file():
            raise UserError(f"{path}: missing; the lexicon is not built and validated")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def certified_files(stage: Path) -> dict[str, Path]:
    """The staged files that go live: the certificates and the artifacts the manifest lists (a
    file an older version of the steps left in the staging directory stays behind)."""
    manifest = stage / CERTIFICATES[0]
    try:
        entries = manifest_entries(json.loads(manifest.read_text(encoding="utf-8")))
    except (OSError, ValueError) as error:  # JSONDecodeError is a ValueError
        raise UserError(f"{manifest}: not a lexicon manifest ({excerpt(str(error))})") from None
    names = [*CERTIFICATES, *(name for name, _, _ in entries)]
    missing = [name for name in names if not (stage / name).is_file()]
    if missing:
        raise UserError(f"{stage / missing[0]}: missing; the lexicon is not built and validated")
    return {name: stage / name for name in names}


def _fill(stage: Path, version: Path) -> None:
    """Make ``version`` hold exactly the certified staged files, as hard links to them (copies
    across file systems). Each file is replaced in one rename, and a file already there has the
    same bytes (the version id is a digest of them) unless it was damaged: a reader of this
    version never sees a file missing or changed."""
    staged = certified_files(stage)  # before anything is made: a bad manifest leaves nothing
    version.mkdir(parents=True, exist_ok=True)
    for name, path in sorted(staged.items()):
        destination = version / name
        if destination.is_file() and os.path.samefile(path, destination):
            continue
        temporary = version / f".{name}{TEMPORARY_SUFFIX}{os.getpid()}"
        temporary.unlink(missing_ok=True)
        try:
            os.link(path, temporary)
        except OSError:
            shutil.copy2(path, temporary)
        os.replace(temporary, destination)
    for extra in sorted(p for p in version.iterdir() if p.name not in staged and p.is_file()):
        extra.unlink()


def _point_link(link: Path, target: Path) -> Path | None:
    """Point the symbolic link ``link`` at ``target`` (relative) in one rename; the version it
    pointed at before, if any. A real directory there (a build from before versions) is moved
    aside first: the one swap that is not atomic."""
    previous = None
    if link.is_symlink():
        previous = (link.parent / os.readlink(link)).resolve()
    elif link.is_dir():
        legacy = target.parent / f".legacy{TEMPORARY_SUFFIX}{os.getpid()}"
        os.rename(link, legacy)
        shutil.rmtree(legacy)
    elif link.exists():
        raise UserError(f"{link}: a file is in the way of the lexicon's link; remove it")
    temporary = link.with_name(f".{link.name}{TEMPORARY_SUFFIX}{os.getpid()}")
    temporary.unlink(missing_ok=True)
    temporary.symlink_to(os.path.relpath(target, link.parent))
    os.replace(temporary, link)
    return previous


def _prune(versions: Path, keep: set[Path]) -> None:
    """Delete the version directories of a lexicon other than ``keep``."""
    for folder in sorted(versions.iterdir()):
        if folder.is_dir() and not folder.name.startswith(".") and folder.resolve() not in keep:
            shutil.rmtree(folder)


def go_live(stage: Path, build: Path) -> Path:
    """Make the staged lexicon ``stage`` the one ``build/<name>`` points at; its version
    directory."""
    name = stage.name
    versions = build / VERSIONS / name
    target = versions / version_id(stage)
    _fill(stage, target)
    previous = _point_link(build / name, target)
    _prune(versions, {target.resolve()} | ({previous} if previous else set()))
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", type=Path, required=True, help="build/stage/<lexicon>")
    parser.add_argument("--build", type=Path, default=Path("build"))
    parser.add_argument("--record", type=Path, required=True)
    args = parser.parse_args(argv)
    target = go_live(args.stage, args.build)
    # Recorded through the link: a link removed or pointed elsewhere makes the record stale too.
    record(args.record, [args.build / args.stage.name / p.name for p in sorted(target.iterdir())])
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
