"""``lexforge install BUNDLE.tar.gz``: a published lexicon bundle into the data directory.

A bundle (``pipeline.publish``) is a gzip tar of one folder ``<lexicon>-<version>/`` holding the
lexicon's files, ``manifest.json`` (every artifact's size and sha256), its licences and a README.
Installing checks the bundle's own sha256 first: against ``--sha256``, ``--sums`` or the
``SHA256SUMS`` beside it, in that order; a bundle none of them can check is refused unless
``--skip-sha256`` says to install it unchecked (which is then said on stderr). It then refuses
any member that is not a plain file inside that folder (absolute paths, ``..``, links, devices),
extracts into a temporary directory beside the target, checks every artifact against the
manifest, and only then renames it into place: an interrupted or failed install leaves the
previous lexicon, if any, as it was.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
import zlib
from pathlib import Path, PurePosixPath

from lexforge.errors import UserError, excerpt
from lexforge.lexicon import REQUIRED
from lexforge.paths import MANIFEST, data_dir
from lexforge.verify import check_artifacts, manifest_entries, sha256_file

SUMS_FILE = "SHA256SUMS"
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
MAX_MEMBERS = 1000
HEX64 = re.compile(r"[0-9A-Fa-f]{64}")


def install_bundle(
    bundle: Path,
    target_root: Path | None = None,
    sums: Path | None = None,
    sha256: str | None = None,
    skip_sha256: bool = False,
) -> Path:
    """Install ``bundle`` as ``<target_root>/<lexicon>/`` (default: the data directory);
    return that directory. UserError, one line, on anything wrong; nothing is left behind."""
    if not bundle.is_file():
        raise UserError(f"{bundle}: file not found")
    check_bundle_sha256(bundle, sums, sha256, skip_sha256)
    root = target_root if target_root is not None else data_dir()
    try:
        with tarfile.open(bundle, "r:gz") as tar:
            folder, members = checked_members(bundle, tar)
            manifest = read_manifest(bundle, tar, folder)
            name = str(manifest["lexicon"])
            if not SAFE_NAME.fullmatch(name) or folder != f"{name}-{manifest['version']}":
                raise UserError(
                    f"{bundle}: folder '{excerpt(folder)}' does not match the manifest's "
                    f"lexicon and version ({excerpt(name)} {excerpt(str(manifest['version']))})"
                )
            root.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=f".{name}.install-", dir=root))
            try:
                extract(tar, members, folder, staging)
                problems = check_artifacts(staging, manifest_entries(manifest))
                if problems:
                    raise UserError(f"{bundle}: {problems[0].replace(f'{staging}/', '')}")
                replace_dir(staging, root / name)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile) as error:
        reason = excerpt(str(error))
        raise UserError(f"{bundle}: not a readable .tar.gz bundle ({reason})") from None
    except OSError as error:
        raise UserError(f"{root}: cannot install there ({excerpt(str(error), 80)})") from None
    return root / name


def check_bundle_sha256(
    bundle: Path, sums: Path | None, sha256: str | None, skip_sha256: bool
) -> None:
    """The bundle's sha256 must be ``sha256``, or its line of ``sums`` or of the SHA256SUMS
    beside it; with none of them, UserError unless ``skip_sha256`` (said on stderr)."""
    if skip_sha256 and (sums is not None or sha256 is not None):
        raise UserError("--skip-sha256 contradicts --sha256 and --sums: give one of them")
    if sha256 is not None:
        if not HEX64.fullmatch(sha256):
            raise UserError(f"--sha256: expected 64 hex digits, got '{excerpt(sha256)}'")
        actual = sha256_file(bundle)
        if actual != sha256.lower():
            raise UserError(
                f"{bundle}: sha256 is {actual}, not the {sha256} given; download it again"
            )
        return
    if sums is None and (bundle.parent / SUMS_FILE).is_file():
        sums = bundle.parent / SUMS_FILE
    if sums is not None:
        check_sums(bundle, sums)
    elif skip_sha256:
        print(
            f"lexforge install: {bundle}: sha256 NOT checked (--skip-sha256): no SHA256SUMS "
            "beside it and no --sha256; only its files are checked, against the manifest.json "
            "the bundle itself carries",
            file=sys.stderr,
        )
    else:
        raise UserError(
            f"{bundle}: cannot check it: no {SUMS_FILE} beside it; put the release's "
            f"{SUMS_FILE} beside it, or give --sums FILE or --sha256 HEX (from the release "
            "page), or --skip-sha256 to install it unchecked"
        )


def check_sums(bundle: Path, sums: Path) -> None:
    """The bundle's sha256 must be the one ``sums`` lists for its file name."""
    try:
        lines = sums.read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError) as error:  # ValueError: undecodable text or a NUL in the name
        raise UserError(f"{sums}: cannot read ({excerpt(str(error))})") from None
    listed = {}
    for line in lines:
        digest, _, file_name = line.partition("  ")
        listed[file_name.lstrip("*")] = digest.lower()
    if bundle.name not in listed:
        raise UserError(f"{sums}: no line for {bundle.name}")
    if sha256_file(bundle) != listed[bundle.name]:
        raise UserError(f"{bundle}: sha256 differs from {sums}; download it again")


def checked_members(bundle: Path, tar: tarfile.TarFile) -> tuple[str, list[tarfile.TarInfo]]:
    """The bundle's top folder and its file members; UserError on any unexpected member."""
    members = []
    folders = set()
    for member in tar:
        if len(members) >= MAX_MEMBERS:
            raise UserError(f"{bundle}: more than {MAX_MEMBERS} members; not a lexforge bundle")
        parts = PurePosixPath(member.name).parts
        unsafe = (
            member.name.startswith("/")
            or "\\" in member.name
            or any(part in {"", ".", ".."} for part in parts)
            or not all(SAFE_NAME.fullmatch(part) for part in parts)
        )
        if unsafe:
            raise UserError(f"{bundle}: refusing member '{excerpt(member.name)}' (unsafe path)")
        if member.isdir() and len(parts) <= 2:
            continue
        if not member.isfile():
            raise UserError(
                f"{bundle}: refusing member '{excerpt(member.name)}' (not a regular file)"
            )
        if len(parts) not in (2, 3):
            raise UserError(f"{bundle}: refusing member '{excerpt(member.name)}' (too deep)")
        folders.add(parts[0])
        members.append(member)
    if len(folders) != 1:
        raise UserError(f"{bundle}: expected one top folder, found {len(folders)}")
    return folders.pop(), members


def read_manifest(bundle: Path, tar: tarfile.TarFile, folder: str) -> dict:
    try:
        handle = tar.extractfile(f"{folder}/{MANIFEST}")
    except KeyError:
        handle = None
    if handle is None:
        raise UserError(f"{bundle}: no {folder}/{MANIFEST}; not a lexforge bundle")
    try:
        manifest = json.loads(handle.read())
        names = {name for name, _, _ in manifest_entries(manifest)}
        if "version" not in manifest or "lexicon" not in manifest:
            raise KeyError("lexicon or version")
    except (ValueError, KeyError, TypeError) as error:
        raise UserError(f"{bundle}: unreadable {MANIFEST} ({excerpt(str(error))})") from None
    for name in sorted(names):
        if not SAFE_NAME.fullmatch(name):
            raise UserError(f"{bundle}: {MANIFEST} lists an unsafe artifact '{excerpt(name)}'")
    missing = [name for name in REQUIRED if name != MANIFEST and name not in names]
    if missing:
        raise UserError(f"{bundle}: {MANIFEST} lists no {', '.join(missing)}")
    return manifest


def extract(
    tar: tarfile.TarFile, members: list[tarfile.TarInfo], folder: str, staging: Path
) -> None:
    """Write each member's bytes under ``staging`` (the folder prefix removed), mode 0644."""
    for member in members:
        relative = PurePosixPath(member.name).relative_to(folder)
        target = staging.joinpath(*relative.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        source = tar.extractfile(member)
        assert source is not None  # a regular file, checked above
        with open(target, "xb") as out:
            shutil.copyfileobj(source, out, 1 << 20)
        target.chmod(0o644)


def replace_dir(staging: Path, target: Path) -> None:
    """Rename ``staging`` to ``target``, moving a previous ``target`` aside until it is done."""
    staging.chmod(0o755)
    if not target.exists():
        os.rename(staging, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rename(target, old / target.name)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(old / target.name, target)
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)
