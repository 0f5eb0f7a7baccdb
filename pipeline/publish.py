"""Step ``publish``: deterministic release bundles of built lexicons.

``bundle`` packs a lexicon's manifest, every artifact it lists, its validation report, the
``SOURCES`` lines and licence texts of its raw files (``licenses/<package>.copyright``), its
learned leave values where they are shipped (``leaves/<lexicon>.json.gz``, as
``leaves.json.gz``: lexforge.leaves) and a ``README`` of the files into
``<lexicon>-<version>.tar.gz``: members sorted, under one
``<lexicon>-<version>/`` folder, with fixed mtimes, owners and modes, and a gzip header without
name or time (level 6: level 9 took 5.7 times as long for 0.25 % less), so two builds from the same
inputs give byte-identical bundles. A lexicon whose manifest does not match the version asked
for, or with a raw file of unknown licence, is refused. ``puzzles`` packs a lexicon's puzzle
pack the same way, with the lexicon's provenance (``<lexicon>-puzzles-<version>.tar.gz``).
``sums`` writes ``SHA256SUMS``.

    python -m pipeline.publish bundle --version 0.1.0 --out build/dist/fr-0.1.0.tar.gz build/fr
    python -m pipeline.publish puzzles --version 0.1.0 --out build/dist/fr-puzzles-0.1.0.tar.gz \\
        --lexicon-dir build/fr build/puzzles/fr/puzzles.jsonl
    python -m pipeline.publish sums --out build/dist/SHA256SUMS build/dist/*.tar.gz
"""

from __future__ import annotations

import argparse
import gzip
import io
import json
import sys
import tarfile
from pathlib import Path

from lexforge.atomic import atomic_open, atomic_path
from lexforge.errors import UserError, report_user_errors
from lexforge.verify import sha256_file
from pipeline.licenses import licenses, missing_line, source_entries, stale_lines

COMPRESS_LEVEL = 6
LEAVES_FILE = "leaves.json.gz"  # lexforge.leaves.LEXICON_FILE
#: What the README says of each file a bundle may hold.
DESCRIPTIONS = {
    "README": "this file",
    "SOURCES": "each raw file: its package, version, licence and sha256",
    "licenses/": "each source package's copyright and licence terms",
    "manifest.json": "lexicon, language, version, words, sources, licences, every "
    "artifact's size and sha256 (checked by lexforge install and verify)",
    "validation.json": "the reference grids, boards and racks solved with this lexicon",
    "words.txt": "the words, one per line, sorted by code point",
    "words.marisa": "marisa-trie of the words",
    "anagrams.txt": "KEY=WORD lines, KEY the word's letters sorted, sorted bytewise",
    "graph.npy": "the words' letter graph (Boggle, Ruzzle, Scrabble search)",
    "anagram-graph.npy": "the anagram keys' letter graph (rack search)",
    "anagram-classes.npy": "where each anagram key's lines begin in anagrams.txt (rack search)",
    "language.json": "the language: alphabet, bounds, game tables",
    "letters.parquet": "per letter: occurrences, frequencies, tiles and values",
    "stats.parquet": "word lengths, per-source counts and rejections, anagram classes, overlap",
    "report.html": "the quality report, as a web page",
    "report.json": "the quality report's figures",
    "sources.json": "the sources' names, in the order of word-sources.npy's bits",
    "word-sources.npy": "per word: a bitmask of the sources that hold it",
    "leaves.json.gz": "the Scrabble leave values learned by self-play (the equity player's)",
}


def read_manifest(lexicon_dir: Path) -> dict:
    manifest_path = lexicon_dir / "manifest.json"
    try:
        return json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise UserError(f"{manifest_path}: cannot read the manifest ({error})") from None


def bundle_members(lexicon_dir: Path, manifest: dict) -> list[Path]:
    """The lexicon's own files in the bundle: its manifest, artifacts and validation report."""
    names = [artifact["name"] for artifact in manifest["artifacts"]]
    names += ["manifest.json", "validation.json"]
    members = [lexicon_dir / name for name in sorted(set(names))]
    for member in members:
        if not member.is_file():
            raise UserError(f"{member}: listed for the bundle but missing; rebuild with snakemake")
    return members


def provenance(lexicon_dir: Path, manifest: dict) -> tuple[str, dict[str, Path], list[dict]]:
    """The bundle's ``SOURCES`` text, licence texts (name in the bundle → file) and licence
    records (as the manifest's); UserError when a raw file has no ``SOURCES`` line or another
    content than its line records, or a package no licence text."""
    files = [Path(file) for source in manifest["sources"] for file in source["files"]]
    entries, unknown = source_entries(files)
    if unknown:
        raise UserError(
            f"{lexicon_dir}: cannot publish: {unknown[0]} has no line in a SOURCES file (its "
            f"licence is unknown): {missing_line(unknown[0])}"
        )
    stale = stale_lines(entries)
    if stale:
        raise UserError(f"cannot publish {lexicon_dir.name}: {stale[0]}")
    texts: dict[str, Path] = {}
    for entry in entries:
        name = f"licenses/{entry.text_file.name}"
        if not entry.text_file.is_file():
            raise UserError(
                f"{entry.text_file}: licence text missing; cannot publish {lexicon_dir.name}"
            )
        if name in texts and texts[name].read_bytes() != entry.text_file.read_bytes():
            raise UserError(
                f"{entry.text_file} and {texts[name]}: two licence texts for {name}; "
                f"cannot publish {lexicon_dir.name} (give the packages distinct names)"
            )
        texts.setdefault(name, entry.text_file)
    header = (
        f"# The raw files of lexicon {manifest['lexicon']}, from their folders' SOURCES files;\n"
        "# each package's copyright and licence terms are in licenses/.\n"
        "# path\tpackage\tversion\tlicense\tsha256\n"
    )
    sources_text = header + "".join(f"{entry.line}\n" for entry in entries)
    return sources_text, texts, licenses(entries, [])


def readme(manifest: dict, version: str, names: list[str], records: list[dict]) -> str:
    """The bundle's README: what it is, how to install it, each file, the licences."""
    name = manifest["lexicon"]
    lines = [
        f"{name} {version}: a lexforge lexicon ({manifest['language']}, "
        f"{manifest['words']:,} words)",
        "",
        f"Install:  lexforge install {name}-{version}.tar.gz  (checks it against SHA256SUMS "
        "beside it, or --sha256 HEX)",
        f"Query:    lexforge anagram LETTERS --lexicon {name}",
        "",
        "Files:",
    ]
    width = max(map(len, names))
    for member in names:
        key = "licenses/" if member.startswith("licenses/") else member
        lines.append(f"  {member:<{width}}  {DESCRIPTIONS.get(key, 'see the lexforge README')}")
    lines += ["", "Licences of the sources (the lexicon is derived from them):"]
    for record in records:
        lines.append(
            f"  {record['package']} {record['version']}: {record['license']} ({record['text']})"
        )
    return "\n".join(lines) + "\n"


def checked_manifest(lexicon_dir: Path, version: str) -> dict:
    """The lexicon's manifest; UserError unless it is of ``version``."""
    manifest = read_manifest(lexicon_dir)
    if manifest.get("version") != version:
        raise UserError(
            f"{lexicon_dir}/manifest.json: version {manifest.get('version')}, not {version}; "
            "rebuild it with snakemake"
        )
    return manifest


def write_bundle(lexicon_dir: Path, version: str, out: Path, leaves: Path | None = None) -> None:
    """The lexicon's bundle; with ``leaves``, its learned leave values as ``leaves.json.gz``."""
    manifest = checked_manifest(lexicon_dir, version)
    sources_text, texts, records = provenance(lexicon_dir, manifest)
    if manifest.get("licenses") != records:
        raise UserError(
            f"{lexicon_dir}/manifest.json: its licences are not those of the SOURCES files; "
            "rebuild it with snakemake"
        )
    files = {member.name: member for member in bundle_members(lexicon_dir, manifest)} | texts
    if leaves is not None:
        if not leaves.is_file():
            raise UserError(f"{leaves}: leave values missing; cannot publish {lexicon_dir.name}")
        files[LEAVES_FILE] = leaves
    names = sorted([*files, "README", "SOURCES"])
    generated = {
        "README": readme(manifest, version, names, records).encode(),
        "SOURCES": sources_text.encode(),
    }
    write_tar(out, f"{lexicon_dir.name}-{version}", files, generated)


def write_puzzle_bundle(lexicon_dir: Path, pack: Path, version: str, out: Path) -> None:
    """``<lexicon>-puzzles-<version>.tar.gz``: the puzzle pack, with the provenance and licences
    of the lexicon it was solved with (the solutions are derived from its words)."""
    manifest = checked_manifest(lexicon_dir, version)
    sources_text, texts, _ = provenance(lexicon_dir, manifest)
    name = manifest["lexicon"]
    files = {pack.name: pack} | texts
    lines = [
        f"{name}-puzzles {version}: daily puzzles of lexforge lexicon {name} {version}",
        "",
        f"  {pack.name}  JSON Lines: a header (kind, difficulty band), then one line per day:",
        "    the board (as lexforge boggle/ruzzle read it), its seed, word count, score and",
        "    solution (every word with its score and path of [row, col] cells)",
        "  SOURCES, licenses/  the raw files of the lexicon and their licences",
    ]
    generated = {"README": ("\n".join(lines) + "\n").encode(), "SOURCES": sources_text.encode()}
    write_tar(out, f"{name}-puzzles-{version}", files, generated)


def write_tar(out: Path, folder: str, files: dict[str, Path], generated: dict[str, bytes]) -> None:
    """A deterministic .tar.gz of ``files`` and ``generated`` texts (by name) under ``folder``."""
    with (
        atomic_path(out) as tmp,
        open(tmp, "wb") as raw,
        gzip.GzipFile(
            filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=COMPRESS_LEVEL
        ) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for name in sorted([*files, *generated]):
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.mtime = 0
            info.mode = 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            if name in generated:
                info.size = len(generated[name])
                tar.addfile(info, io.BytesIO(generated[name]))
                continue
            info.size = files[name].stat().st_size
            with open(files[name], "rb") as handle:
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
    bundle.add_argument("--leaves", type=Path, help="the lexicon's learned leave values")
    bundle.add_argument("lexicon_dir", type=Path)
    puzzles = commands.add_parser("puzzles", help="pack a lexicon's puzzle pack")
    puzzles.add_argument("--version", required=True)
    puzzles.add_argument("--out", type=Path, required=True)
    puzzles.add_argument("--lexicon-dir", type=Path, required=True)
    puzzles.add_argument("pack", type=Path)
    sums = commands.add_parser("sums", help="write SHA256SUMS for bundles")
    sums.add_argument("--out", type=Path, required=True)
    sums.add_argument("bundles", type=Path, nargs="+")
    args = parser.parse_args(argv)
    if args.command == "bundle":
        write_bundle(args.lexicon_dir, args.version, args.out, args.leaves)
    elif args.command == "puzzles":
        write_puzzle_bundle(args.lexicon_dir, args.pack, args.version, args.out)
    else:
        write_sums(args.bundles, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
