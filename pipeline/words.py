"""Step ``words``: read every source of a lexicon, normalize, merge.

The sources combine by their roles (``pipeline.config.ROLES``): the words of ``trusted`` sources,
and those of ``add`` sources held by at least ``min_sources`` sources and, when the lexicon has
``confirm`` sources, by one of them; then each ``exact`` source decides the words of the lengths
it holds, and ``deny`` sources remove theirs. Last, where the lexicon has ``names`` sources,
``find_names`` removes the proper nouns they name (``named``).

A source's entries go through the junk rules (capitals mark names and abbreviations; the
language's shape rules, ``lexforge.classify``) only when it is ``clean``
(``pipeline.config.source_of``: by default a spell-checker list of role add or confirm); any
other list, a game list, is taken whole: folded, refused only an entry its language cannot
spell (a character outside the alphabet: apostrophe, hyphen, digit… as ``reject`` says; a
length outside the bounds).

Writes ``words.tsv`` (``WORD<TAB>sources-bitmask``, sorted by code point; bit i = i-th source
of the lexicon) and ``sources.json`` (per source: files and hashes, whether it was cleaned,
entries read, words kept, rejections at normalization by reason, words the composition removed
by reason, and the first few rejected entries or removed words of each reason in sorted order);
and ``removed.tsv``, every entry a rule took away (``SOURCE<TAB>KIND<TAB>REASON<TAB>ENTRY``,
KIND ``rejected`` for an entry normalization refused, by a reason of ``LISTED_REASONS``, or
``removed`` for a word the composition removed; by source in the spec's order, then kind,
reason and entry).

    python -m pipeline.words --config config/config.yaml --lexicon fr \
        --words build/work/fr/words.tsv --sources build/work/fr/sources.json \
        --removed build/work/fr/removed.tsv
"""

from __future__ import annotations

import gc
import heapq
import json
import logging
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from lexforge._wordsort import sort_words
from lexforge._wordstsv import words_tsv
from lexforge.atomic import atomic_open
from lexforge.errors import UserError, report_user_errors
from lexforge.normalize import Normalizer
from lexforge.reasons import EXAMPLES, LISTED_REASONS, REASONS, REMOVAL_REASONS
from lexforge.sources.affixrules import RefusedForms
from lexforge.sources.hunspell import read_hunspell_forms
from lexforge.sources.read import read_entries
from lexforge.verify import sha256_file
from pipeline.config import LexiconSpec, Source
from pipeline.outputs import record_outputs
from pipeline.step import lexicon_spec, step_parser

log = logging.getLogger("pipeline.words")
#: The roles whose words are the lexicon's own (not evidence about other words).
WORD_ROLES = ("add", "trusted", "exact")
#: One line of ``removed.tsv``: source id, kind (rejected, removed), reason, entry or word.
Removal = tuple[str, str, str, str]
#: Formats without affix information: with ``refuse_in_lists``, a word of theirs that a refused
#: affix rule of a later aspell or hunspell source made, and that source does not keep, goes.
PLAIN_LISTS = ("dict", "ods", "freelang")


@dataclass(frozen=True)
class NameRule:
    """How ``names`` sources remove proper nouns where capitals say nothing (``find_names``)."""

    min_sources: int
    common_endings: tuple[str, ...] = ()
    name_endings: tuple[str, ...] = ()


def collect_words(
    spec: LexiconSpec,
) -> tuple[list[str], list[set[str]], list[dict], list[Removal]]:
    """Sorted normalized words, the normalized words of each source (in the spec's order: a
    word's sources bitmask, bit i for the i-th), per-source statistics, and every entry a rule
    took away (the lines of ``removed.tsv``)."""
    per_source: list[set[str]] = []
    rejections: list[list[Removal]] = []
    stats = []
    naming = any(source.role == "names" for source in spec.sources)
    lowercase: set[str] = set()  # words the lexicon's own sources write in lowercase
    # refuse_in_lists: the raw entries of the plain word lists read so far (their index → the
    # entries), and the words of theirs a refused affix rule made (index → words)
    listed: dict[int, set[str]] = {}
    refused_in_lists: dict[int, set[str]] = {}
    for index, source in enumerate(spec.sources):
        reject = {**spec.reject, "proper_nouns": False} if source.role == "names" else spec.reject
        normalizer = Normalizer(
            spec.language,
            source.case_sensitive or source.role == "names",
            reject,
            classify=source.clean,
            track_case=naming,
            listed=frozenset(LISTED_REASONS),
        )
        pruned: Counter[frozenset[str]] = Counter()
        refusal = spec.affix_refusal(source)
        watch = frozenset().union(*listed.values()) if refusal and listed else frozenset()
        refused = RefusedForms(watch=watch, watch_classes=frozenset(spec.refuse_in_lists))
        if source.tags:
            forms = read_hunspell_forms(source.path, frozenset(source.tags))
            entries = (form for form, _ in forms)
        else:
            entries = read_entries(
                source.format,
                source.path,
                source.encoding,
                normalizer.reject_chars(),
                pruned,
                refusal,
                refused,
            )
        if spec.refuse_in_lists and source.format in PLAIN_LISTS and source.role == "add":
            entries = listed[index] = set(entries)
        unique = normalizer.normalize_distinct(entries)
        normalizer.count_pruned(pruned)
        normalizer.count_refused(refused)
        if refused.watched:  # words of the lists before that a refused rule made, and not kept
            plain = Normalizer(spec.language, False, spec.reject, classify=False)
            gone = plain.normalize_distinct(refused.watched) - unique
            for earlier in listed:
                hit = per_source[earlier] & gone
                per_source[earlier] -= hit
                refused_in_lists.setdefault(earlier, set()).update(hit)
        if source.role == "names" and not source.tags:
            unique -= normalizer.lowercase  # a name list's names: its capitalised-only words
        elif source.role in WORD_ROLES:
            lowercase |= normalizer.lowercase if source.case_sensitive else unique
        per_source.append(unique)
        rejections.append(
            [
                (source.id, "rejected", reason, entry)
                for reason in LISTED_REASONS
                for entry in sorted(set(normalizer.listed_entries.get(reason, ())))
            ]
        )
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
                "clean": source.clean,
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
    for index, words in refused_in_lists.items():
        removed[index]["affix-rule"] = words
    if naming:
        names = spec.language_data.get("names", {})
        rule = NameRule(
            spec.min_name_sources,
            tuple(names.get("common_endings", ())),
            tuple(names.get("name_endings", ())),
        )
        named = find_names(spec.sources, per_source, kept, lowercase, rule)
        kept -= named
        for source, removals, words in zip(spec.sources, removed, per_source, strict=True):
            if source.role in ("add", "names"):
                removals["named"] = words & named
    listing: list[Removal] = []
    for source, source_stats, removals, rejected in zip(
        spec.sources, stats, removed, rejections, strict=True
    ):
        source_stats["removed"] = {r: len(removals.get(r, ())) for r in REMOVAL_REASONS}
        listing += rejected
        for reason in REMOVAL_REASONS:
            gone = removals.get(reason)
            if gone:
                source_stats["examples"][reason] = heapq.nsmallest(EXAMPLES, gone)
                listing += [(source.id, "removed", reason, word) for word in sorted(gone)]
    words = sort_words(list(kept))  # sorted(kept), in C: 3 s → 0.5 s for Italian's 3 M
    if not words:
        raise UserError(f"lexicon '{spec.name}': no word survives normalization; check its sources")
    return words, per_source, stats, listing


def compose(
    sources: tuple[Source, ...], per_source: list[set[str]], min_sources: int
) -> tuple[set[str], list[dict[str, set[str]]]]:
    """The lexicon's words from each source's words, by role; and, per source, the words of it
    the composition removed, by reason (for a deny source: the words it removed)."""
    roles = [source.role for source in sources]

    def union(*wanted: str) -> set[str]:
        return set().union(*(w for w, r in zip(per_source, roles, strict=True) if r in wanted))

    trusted = union("trusted")
    candidates = union("add")
    candidates -= trusted
    few: set[str] = set()
    if min_sources > 1:
        counts: Counter[str] = Counter()
        for words, role in zip(per_source, roles, strict=True):
            if role in ("add", "trusted", "confirm"):
                counts.update(words & candidates)
        few = {word for word in candidates if counts[word] < min_sources}
    unconfirmed = candidates - few - union("confirm") if "confirm" in roles else set()
    kept = candidates - few - unconfirmed if few or unconfirmed else candidates
    kept |= trusted
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
        elif role == "names":
            removed.append({})
        else:
            removed.append({reason: (words & gone) - kept for reason, gone in by_reason.items()})
    return kept, removed


def find_names(
    sources: tuple[Source, ...],
    per_source: list[set[str]],
    kept: set[str],
    lowercase: set[str],
    rule: NameRule,
) -> set[str]:
    """The kept words that are names: words of the lexicon's own sources named by at least
    ``rule.min_sources`` names sources, written only capitalised by the own sources, held by no
    trusted or exact source, and with no common-noun form among the own sources' words (the word
    with one of ``rule.common_endings`` added, or removed and still a word: HAUS → HAUSES,
    WELTEN → WELT); with each name, its own forms (with one of ``rule.name_endings``: GOETHES,
    also where a deny list removed GOETHE itself)."""
    roles = [source.role for source in sources]
    own = set().union(*(w for w, r in zip(per_source, roles, strict=True) if r in WORD_ROLES))
    counts: Counter[str] = Counter()
    for words, role in zip(per_source, roles, strict=True):
        if role == "names":
            counts.update(words & own)
    protected = lowercase.union(
        *(w for w, r in zip(per_source, roles, strict=True) if r in ("trusted", "exact"))
    )

    def common(word: str) -> bool:
        return any(
            word + ending in own or (word.endswith(ending) and word[: -len(ending)] in own)
            for ending in rule.common_endings
        )

    named = {
        word
        for word, count in counts.items()
        if count >= rule.min_sources and word not in protected and not common(word)
    }
    forms = {name + ending for name in named for ending in rule.name_endings}
    return (named | (forms - protected)) & kept


def write_words_tsv(words: list[str], per_source: list[set[str]], path: Path) -> None:
    """``WORD<TAB>MASK`` lines, MASK the bitmask of the sources holding the word (in C: set
    lookups, the lines made in one buffer)."""
    with atomic_open(path, "wb") as out:
        out.write(words_tsv(words, per_source))


def write_removed(listing: list[Removal], path: Path) -> None:
    """``removed.tsv``: a header line, then one line per entry a rule took away."""
    with atomic_open(path) as out:
        out.write("source\tkind\treason\tentry\n")
        out.writelines("\t".join(removal) + "\n" for removal in listing)


def main(argv: list[str] | None = None) -> int:
    parser = step_parser(__doc__)
    parser.add_argument("--words", type=Path, required=True)
    parser.add_argument("--sources", type=Path, required=True)
    parser.add_argument("--removed", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = lexicon_spec(args, check_files=True)
    # Millions of strings and no reference cycles: the collector's passes over them cost
    # seconds (2.3 of Italian's 13) and free nothing.
    gc.disable()
    words, per_source, stats, listing = collect_words(spec)
    write_words_tsv(words, per_source, args.words)
    write_removed(listing, args.removed)
    with atomic_open(args.sources) as out:
        json.dump(stats, out, indent=1, sort_keys=True)
        out.write("\n")
    log.info("%s: %d words", args.lexicon, len(words))
    record_outputs(args)
    return 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
