"""Step ``manifest``: what a lexicon is made of, for consumers and for ``lexforge verify``.

``manifest.json``: lexicon, language, version, word count, sources (path, format, sha256 of every
file, counts), licenses (each source package's licence, from raw/<lang>/SOURCES: pipeline.licenses),
artifacts (name, bytes, sha256) and tool versions. No timestamps: the same inputs give a
byte-identical manifest.

    python -m pipeline.manifest --config config/config.yaml --lexicon fr \
        --sources build/work/fr/sources.json --out build/fr ARTIFACT...
"""

from __future__ import annotations

import json
import platform
import sys
from importlib.metadata import version
from pathlib import Path

from lexforge.atomic import atomic_open
from lexforge.errors import report_user_errors
from lexforge.verify import sha256_file
from pipeline.licenses import licenses, source_entries
from pipeline.step import step_config, step_parser

TOOLS = ("lexforge", "marisa-trie", "numpy", "pyarrow", "snakemake", "unidecode")


def tool_versions() -> dict[str, str]:
    return {"python": platform.python_version(), **{name: version(name) for name in TOOLS}}


def build_manifest(
    name: str, language: str, config_version: str, sources: list[dict], artifacts: list[Path]
) -> dict:
    with open(next(p for p in artifacts if p.name == "words.txt"), "rb") as handle:
        words = sum(1 for _ in handle)
    return {
        "lexicon": name,
        "language": language,
        "version": config_version,
        "words": words,
        "sources": sources,
        "licenses": licenses(*source_entries(Path(f) for s in sources for f in s["files"])),
        "artifacts": [
            {"name": path.name, "bytes": path.stat().st_size, "sha256": sha256_file(path)}
            for path in sorted(artifacts, key=lambda p: p.name)
        ],
        "tools": tool_versions(),
    }


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True, help="manifest.json to write")
    parser.add_argument("artifacts", type=Path, nargs="+")
    args = parser.parse_args(argv)
    config = step_config(args)
    spec = config.lexicons[args.lexicon]
    sources = json.loads(args.sources.read_text(encoding="utf-8"))
    manifest = build_manifest(
        args.lexicon, spec.language.code, config.version, sources, args.artifacts
    )
    with atomic_open(args.out) as out:
        json.dump(manifest, out, indent=1, sort_keys=True, ensure_ascii=False)
        out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
