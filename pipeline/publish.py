"""Step ``publish``: deterministic release bundles of built lexicons.

``bundle`` packs a lexicon's manifest, every artifact it lists and its validation report into
``<lexicon>-<version>.tar.gz``: members sorted, under one ``<lexicon>-<version>/`` folder, with
fixed mtimes, owners and modes, and a gzip header without name or time, so two builds from the
same inputs give byte-identical bundles. ``sums`` writes ``SHA256SUMS`` for the bundles.

    python -m pipeline.publish bundle --version 0.1.0 --out build/dist/fr-0.1.0.tar.gz build/fr
    python -m pipeline.publish sums --out build/dist/SHA256SUMS build/dist/*.tar.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tarfile
from pathlib import Path

from lexforge.atomic import atomic_open, atomic_path
from lexforge.errors import UserError, report_user_errors
from lexforge.verify import sha256_file


def bundle_members(lexicon_dir: Path) -> list[Path]:
    manifest_path = lexicon_dir / "manifest.json"
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise UserError(f"{manifest_path}: cannot read the manifest ({error})") from None
    names = [artifact["name"] for artifact in manifest["artifacts"]]
    names += ["manifest.json", "validation.json"]
    members = [lexicon_dir / name for name in sorted(set(names))]
    for member in members:
        if not member.is_file():
            raise UserError(f"{member}: listed for the bundle but missing; rebuild with snakemake")
    return members


def write_bundle(lexicon_dir: Path, version: str, out: Path) -> None:
    folder = f"{lexicon_dir.name}-{version}"
    members = bundle_members(lexicon_dir)
    with (
        atomic_path(out) as tmp,
        open(tmp, "wb") as raw,
        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for member in members:
            info = tarfile.TarInfo(f"{folder}/{member.name}")
            info.size = member.stat().st_size
            info.mtime = 0
            info.mode = 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with open(member, "rb") as handle:
                tar.addfile(info, handle)


def write_sums(bundles: list[Path], out: Path) -> None:
    with atomic_open(out) as handle:
        for bundle in sorted(bundles, key=lambda p: p.name):
            handle.write(f"{sha256_file(bundle)}  {bundle.name}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    bundle = commands.add_parser("bundle", help="pack one lexicon directory")
    bundle.add_argument("--version", required=True)
    bundle.add_argument("--out", type=Path, required=True)
    bundle.add_argument("lexicon_dir", type=Path)
    sums = commands.add_parser("sums", help="write SHA256SUMS for bundles")
    sums.add_argument("--out", type=Path, required=True)
    sums.add_argument("bundles", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "bundle":
        write_bundle(args.lexicon_dir, args.version, args.out)
    else:
        write_sums(args.bundles, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
