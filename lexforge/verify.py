"""``lexforge verify``: does a built lexicon still match its manifest?"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from lexforge.paths import find_lexicon_dir


def sha256_file(path: Path | str) -> str:
    """Hex sha256 of a file (also used by the pipeline to write manifests)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def verify(spec: str) -> list[str]:
    """Problems found (missing, resized or altered artifacts); empty when all match."""
    folder = find_lexicon_dir(spec)
    manifest_path = folder / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        artifacts = manifest["artifacts"]
    except FileNotFoundError:
        return [f"{manifest_path}: missing; rebuild with snakemake"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [f"{manifest_path}: unreadable manifest ({error}); rebuild with snakemake"]
    return check_artifacts(folder, artifacts)


def check_artifacts(folder: Path, artifacts: list[dict]) -> list[str]:
    """Problems of ``folder``'s files against a manifest's ``artifacts`` (name, bytes, sha256)."""
    problems = []
    for artifact in artifacts:
        path = folder / artifact["name"]
        if not path.is_file():
            problems.append(f"{path}: missing")
        elif path.stat().st_size != artifact["bytes"]:
            problems.append(
                f"{path}: {path.stat().st_size} bytes, manifest says {artifact['bytes']}"
            )
        elif sha256_file(path) != artifact["sha256"]:
            problems.append(f"{path}: content differs from manifest (sha256)")
    return problems
