"""Step ``words``: read every source of a lexicon, normalize, merge.

The sources combine by their roles (``pipeline.config.ROLES``): the words of ``trusted`` sources,
and those of ``add`` sources held by at least ``min_sources`` sources and, when the lexicon has
``confirm`` sources, by one of them; then each ``exact`` source decides the words of the lengths
it holds, and ``deny`` sources remove theirs.

Writes ``words.tsv`` (``WORD<TAB>sources-bitmask``, sorted by code point; bit i = i-th source
of the lexicon) and ``sources.json`` (per source: files and hashes, entries read, words kept,
rejections at normalization by reason, words the composition removed by reason, and the first
few rejected entries or removed words of each reason in sorted order).

    python -m pipeline.words --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --sources build/work/fr/sources.json
"""

from __future__ import annotations

import heapq
import json
import logging
import sys
from collections import Counter
from pathlib import Path

from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.normalize import Normalizer
from lexforge.reasons import EXAMPLES, REASONS, REMOVAL_REASONS
from lexforge.sources.read import read_entries
from lexforge.verify import sha256_file
from pipeline.config import LexiconSpec, Source
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.words")


def collect_words(spec: LexiconSpec) -> tuple[list[str], list[int], list[dict]]:
    """Sorted normalized words, the bitmask of sources of each, and per-source statistics."""
    per_source: list[set[str]] = []
    stats = []
    for source in spec.sources:
        normalizer = Normalizer(
            spec.language, source.case_sensitive, spec.reject, classify=source.role != "deny"
        )
        pruned: Counter[frozenset[str]] = Counter()
        entries = read_entries(
            source.format, source.path, source.encoding, normalizer.reject_chars(), pruned
        )
        unique = set(normalizer.normalize_all(entries))
        normalizer.count_pruned(pruned)
        per_source.append(unique)
        read = normalizer.read
        examples = normalizer.examples
        kept = read - sum(normalizer.rejected.values())
        log.info(
            "%s: %d entries read, %d kept, %d distinct words", source.path, read, kept, len(unique)
        )
        stats.append(
            {
                "id": source.id,
                "role": source.role,
                "format": source.format,
                "path": str(source.path),
                "files": {str(p): sha256_file(p) for p in source.files()},
                "read": read,
                "kept": kept,
                "words": len(unique),
                "rejected": {reason: normalizer.rejected.get(reason, 0) for reason in REASONS},
                "examples": {r: examples[r] for r in REASONS if r in examples},
            }
        )
    kept, removed = compose(spec.sources, per_source, spec.min_sources)
    for source_stats, removals in zip(stats, removed, strict=True):
        source_stats["removed"] = {r: len(removals.get(r, ())) for r in REMOVAL_REASONS}
        for reason, gone in sorted(removals.items()):
            if gone:
                source_stats["examples"][reason] = heapq.nsmallest(EXAMPLES, gone)
    words = sorted(kept)
    if not words:
        raise UserError(f"lexicon '{spec.name}': no word survives normalization; check its sources")
    masks = [0] * len(words)
    for index, unique in enumerate(per_source):
        bit = 1 << index
        masks = [
            mask | bit if word in unique else mask for word, mask in zip(words, masks, strict=True)
        ]
    return words, masks, stats


def compose(
    sources: tuple[Source, ...], per_source: list[set[str]], min_sources: int
) -> tuple[set[str], list[dict[str, set[str]]]]:
    """The lexicon's words from each source's words, by role; and, per source, the words of it
    the composition removed, by reason (for a deny source: the words it removed)."""
    roles = [source.role for source in sources]

    def union(*wanted: str) -> set[str]:
        return set().union(*(w for w, r in zip(per_source, roles, strict=True) if r in wanted))

    trusted = union("trusted")
    candidates = union("add") - trusted
    few: set[str] = set()
    if min_sources > 1:
        counts: Counter[str] = Counter()
        for words, role in zip(per_source, roles, strict=True):
            if role in ("add", "trusted", "confirm"):
                counts.update(words & candidates)
        few = {word for word in candidates if counts[word] < min_sources}
    unconfirmed = candidates - few - union("confirm") if "confirm" in roles else set()
    kept = trusted | (candidates - few - unconfirmed)
    not_in_list: set[str] = set()
    for words, role in zip(per_source, roles, strict=True):
        if role == "exact":
            lengths = {len(word) for word in words}
            outside = {word for word in kept if len(word) in lengths} - words
            not_in_list |= outside
            kept = (kept - outside) | words
    denied = kept & union("deny")
    kept -= denied
    by_reason = {
        "too-few-sources": few,
        "unconfirmed": unconfirmed,
        "not-in-list": not_in_list,
        "denied": denied,
    }
    removed = []
    for words, role in zip(per_source, roles, strict=True):
        if role == "deny":
            removed.append({"denied": words & denied})
        else:
            removed.append({reason: (words & gone) - kept for reason, gone in by_reason.items()})
    return kept, removed


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
