"""Step ``words``: read every source of a lexicon, normalize, merge.

Writes ``words.tsv`` (``WORD<TAB>sources-bitmask``, sorted by code point; bit i = i-th source
of the lexicon) and ``sources.json`` (per source: files and hashes, entries read, words kept,
rejections by reason).

    python -m pipeline.words --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --sources build/work/fr/sources.json
"""

from __future__ import annotations

import json
import logging
import sys
from collections import Counter
from pathlib import Path

from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.normalize import Normalizer
from lexforge.reasons import REASONS
from lexforge.sources.read import read_entries
from lexforge.verify import sha256_file
from pipeline.config import LexiconSpec
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.words")


def collect_words(spec: LexiconSpec) -> tuple[list[str], list[int], list[dict]]:
    """Sorted normalized words, the bitmask of sources of each, and per-source statistics."""
    per_source: list[set[str]] = []
    stats = []
    for source in spec.sources:
        normalizer = Normalizer(spec.language, source.case_sensitive, spec.reject)
        pruned: Counter[frozenset[str]] = Counter()
        entries = read_entries(
            source.format, source.path, source.encoding, normalizer.reject_chars(), pruned
        )
        unique = set(normalizer.normalize_all(entries))
        normalizer.count_pruned(pruned)
        per_source.append(unique)
        read = normalizer.read
        kept = read - sum(normalizer.rejected.values())
        log.info(
            "%s: %d entries read, %d kept, %d distinct words", source.path, read, kept, len(unique)
        )
        stats.append(
            {
                "id": source.id,
                "format": source.format,
                "path": str(source.path),
                "files": {str(p): sha256_file(p) for p in source.files()},
                "read": read,
                "kept": kept,
                "words": len(unique),
                "rejected": {reason: normalizer.rejected.get(reason, 0) for reason in REASONS},
            }
        )
    words = sorted(set().union(*per_source))
    if not words:
        raise UserError(f"lexicon '{spec.name}': no word survives normalization; check its sources")
    masks = [0] * len(words)
    for index, unique in enumerate(per_source):
        bit = 1 << index
        masks = [
            mask | bit if word in unique else mask for word, mask in zip(words, masks, strict=True)
        ]
    return words, masks, stats


def write_words_tsv(words: list[str], masks: list[int], path: Path) -> None:
    suffix = {mask: f"\t{mask}\n" for mask in set(masks)}
    with atomic_open(path) as out:
        out.write("".join([word + suffix[mask] for word, mask in zip(words, masks, strict=True)]))


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--sources", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = lexicon_spec(args, check_files=True)
    words, masks, stats = collect_words(spec)
    write_words_tsv(words, masks, args.words)
    with atomic_open(args.sources) as out:
        json.dump(stats, out, indent=1, sort_keys=True)
        out.write("\n")
    log.info("%s: %d words", args.lexicon, len(words))
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
