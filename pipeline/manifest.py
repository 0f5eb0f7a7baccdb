"""Step ``manifest``: what a lexicon is made of, for consumers and for ``lexforge verify``.

``manifest.json``: lexicon, language, version, word count, sources (path, format, sha256 of every
file, counts), licenses (each source package's licence, from raw/<lang>/SOURCES: pipeline.licenses),
artifacts (name, bytes, sha256) and tool versions. No timestamps: the same inputs give a
byte-identical manifest.

    python -m pipeline.manifest --config config/config.yaml --lexicon fr \
        --sources build/work/fr/sources.json --records build/work/fr/outputs/*.json \
        --out build/stage/fr/manifest.json ARTIFACT...
"""

from __future__ import annotations

import json
import platform
import sys
from importlib.metadata import version
from pathlib import Path

from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.verify import sha256_file
from pipeline.licenses import licenses, source_entries
from pipeline.outputs import record_outputs, recorded_hashes
from pipeline.step import step_config, step_parser

TOOLS = ("lexforge", "marisa-trie", "numpy", "pyarrow", "snakemake", "unidecode")


def tool_versions() -> dict[str, str]:
    return {"python": platform.python_version(), **{name: version(name) for name in TOOLS}}


def certified(artifacts: list[Path], recorded: dict[str, str]) -> list[dict]:
    """Name, size and sha256 of each artifact, which must be as its producing job recorded it
    (``pipeline.outputs``): the manifest never certifies a file it did not see produced."""
    entries = []
    for path in sorted(artifacts, key=lambda p: p.name):
        sha256 = sha256_file(path)
        if recorded.get(str(path)) != sha256:
            raise UserError(
                f"{path}: not as its build step wrote it; run snakemake again to rebuild it"
            )
        entries.append({"name": path.name, "bytes": path.stat().st_size, "sha256": sha256})
    return entries


def count_lines(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for _ in handle)


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


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--records", type=Path, nargs="+", required=True, help="output records")
    parser.add_argument("--out", type=Path, required=True, help="manifest.json to write")
    parser.add_argument("artifacts", type=Path, nargs="+")
    args = parser.parse_args(argv)
    config = step_config(args)
    spec = config.lexicons[args.lexicon]
    sources = json.loads(args.sources.read_text(encoding="utf-8"))
    artifacts = certified(args.artifacts, recorded_hashes(args.records))
    words = count_lines(next(p for p in args.artifacts if p.name == "words.txt"))
    manifest = build_manifest(
        args.lexicon, spec.language.code, config.version, words, sources, artifacts
    )
    with atomic_open(args.out) as out:
        json.dump(manifest, out, indent=1, sort_keys=True, ensure_ascii=False)
        out.write("\n")
    record_outputs(args)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
