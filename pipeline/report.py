"""A lexicon's quality report, for a person reviewing it instead of grepping; written by the
``tables`` step (``write_report``), which has the statistics it is made from at hand.

Writes ``report.json`` (the figures and word lists; ``lexforge report`` prints it as text) and
``report.html`` (the same, static, with the histogram as inline SVG; no script, no network):
words by length and source, the full two- and three-letter lists, words found in one source
only, suspicious words (no vowel, a letter four times in a row, Roman-numeral shapes),
rejections by reason with examples (every entry of each rule in ``removed.tsv`` beside the
report, but those of the character classes), and the change since the previous build.

The previous build is kept in a history folder (``build/work/<lexicon>/history/``): the word list
and rejection counts of the last report, and of the one before when they differed. A rerun on
the same words leaves it as it is, so the report is the same given the same previous state.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lexforge.atomic import atomic_open
from lexforge.language import Language
from lexforge.reasons import LISTED_REASONS
from lexforge.report import FORMAT
from pipeline.report_html import render_html

SAMPLE = 12  # words shown per length of a source's own words
LISTED = 60  # suspicious words listed per kind
CHANGED = 40  # added or removed words listed
#: A rejection count "jumps" when it grows by at least this many entries and this factor.
JUMP_ENTRIES, JUMP_FACTOR = 100, 1.5
#: A reason that rejects at least this share of a source's entries is marked as large.
LARGE_SHARE = 0.01
#: Every entry the rules took away, beside the report (written by the tables step).
REMOVED_FILE = "removed.tsv"
ROMAN = r"M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})"


def sample(words: list[str] | np.ndarray, count: int) -> list[str]:
    """Up to ``count`` words spread evenly over the (sorted) list, first and last included."""
    return [str(words[i]) for i in sample_positions(len(words), count)]


def sample_positions(size: int, count: int) -> list[int]:
    """Up to ``count`` positions spread evenly over ``range(size)``, first and last included."""
    if size <= count:
        return list(range(size))
    return np.linspace(0, size - 1, count).round().astype(int).tolist()


class Words(NamedTuple):
    """A lexicon's sorted words with the length and the source bitmask of each (bit i: the i-th
    source)."""

    words: list[str]
    lengths: np.ndarray
    masks: np.ndarray

    @classmethod
    def of(cls, words: list[str], masks: np.ndarray) -> Words:
        """``words`` and their ``masks``, their lengths counted."""
        return cls(words, np.fromiter(map(len, words), dtype=np.int64, count=len(words)), masks)

    def spelled(self, language: Language) -> Words:
        """The words as the report shows them: tile symbols spelled (CH, not Ç), in the order of
        the spelled words (these words themselves where the language has no tile symbols)."""
        if not (language.tile_symbols and self.words):
            return self
        words = language.spell("\n".join(self.words)).split("\n")  # one text: 6× faster
        order = sorted(range(len(words)), key=words.__getitem__)
        return Words.of([words[i] for i in order], self.masks[np.array(order, dtype=np.intp)])


def source_ids(stats: list[dict]) -> list[str]:
    """The lexicon's sources in their order (bit i of a word's mask is the i-th)."""
    return list(dict.fromkeys(row["source"] for row in stats if row["metric"] == "read"))


def length_rows(words: Words, sources: list[str]) -> list[dict]:
    """Per length: the words, those held by several sources, those held by each alone."""
    lengths, masks = words.lengths, words.masks
    per_length = np.bincount(lengths)
    only = {
        source: np.bincount(lengths[masks == 1 << i], minlength=len(per_length))
        for i, source in enumerate(sources)
    }
    rows = []
    for length in np.flatnonzero(per_length):
        alone = {source: int(counts[length]) for source, counts in only.items()}
        rows.append(
            {
                "length": int(length),
                "words": int(per_length[length]),
                "shared": int(per_length[length]) - sum(alone.values()),
                "only": alone,
            }
        )
    return rows


def only_one_source(words: Words, sources: list[str]) -> list[dict]:
    """Words held by a single source, per source and length, with an even sample of each."""
    rows = []
    spelled, lengths, masks = words
    for index, source in enumerate(sources):
        alone = np.flatnonzero(masks == 1 << index)
        alone = alone[np.argsort(lengths[alone], kind="stable")]  # by length, then word
        starts = np.flatnonzero(np.diff(lengths[alone], prepend=-1))  # of each length
        for group in np.split(alone, starts[1:]) if len(alone) else []:
            rows.append(
                {
                    "source": source,
                    "length": int(lengths[group[0]]),
                    "count": len(group),
                    "sample": [spelled[group[i]] for i in sample_positions(len(group), SAMPLE)],
                }
            )
    return rows


def suspicious(words: list[str], alphabet: str, vowels: str | None) -> list[dict]:
    """Words of shapes that are seldom words: no vowel, a letter four times in a row, a Roman
    numeral (each list complete up to LISTED words, then an even sample; in ``words``' order)."""
    text = "\n" + "\n".join(words) + "\n"  # each word between two newlines
    kinds = []
    if vowels:
        no_vowel = re.compile(f"\n([^{re.escape(vowels)}\n]+)(?=\n)")
        kinds.append(("no-vowel", f"no vowel ({vowels})", no_vowel.findall(text)))
    repeated = [words[i] for i in _repeated_letter(text, alphabet)]
    kinds.append(("repeated-letter", "a letter four times in a row", repeated))
    roman = re.compile(ROMAN).fullmatch
    numerals = [w for w in re.findall(r"\n([MDCLXVI]{2,})(?=\n)", text) if roman(w)]
    kinds.append(("roman-numeral", "the shape of a Roman numeral", numerals))
    return [
        {"kind": kind, "title": title, "count": len(found), "words": sample(found, LISTED)}
        for kind, title, found in kinds
    ]


def _repeated_letter(text: str, alphabet: str) -> np.ndarray:
    """The indices of the words of ``text`` (``\\n``-separated, one before the first) holding a
    letter of ``alphabet`` four times in a row: runs found by comparing the text's code points
    with their neighbours, a few array passes instead of a scan per letter."""
    if text.isascii():
        codes = np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    else:
        codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    same = codes[1:] == codes[:-1]
    runs = np.flatnonzero(same[:-2] & same[1:-1] & same[2:])  # where four equal codes begin
    runs = runs[np.isin(codes[runs], [ord(letter) for letter in set(alphabet)])]
    newlines = np.flatnonzero(codes == ord("\n"))
    return np.unique(np.searchsorted(newlines, runs) - 1)


def rejection_rows(stats: list[dict], previous: dict[str, int] | None) -> list[dict]:
    """Every rejection (normalization) and removal (composition) count, by source and reason,
    with its share of the source's entries, examples, and the previous build's count."""
    read = {row["source"]: row["value"] for row in stats if row["metric"] == "read"}
    examples: dict[tuple[str, str], list[str]] = {}
    ranked = sorted((row for row in stats if row["metric"] == "example"), key=itemgetter("value"))
    for row in ranked:
        examples.setdefault((row["source"], row["reason"]), []).append(row["example"])
    rows = []
    for row in stats:
        if row["metric"] not in ("rejected", "removed"):
            continue
        source, count = row["source"], row["value"]
        before = None if previous is None else previous.get(summary_key(row))
        rows.append(
            {
                "source": source,
                "kind": row["metric"],
                "reason": row["reason"],
                "count": count,
                "share": count / read[source] if read.get(source) else 0.0,
                "previous": before,
                "jump": before is not None
                and count - before >= JUMP_ENTRIES
                and count >= JUMP_FACTOR * before,
                "large": bool(read.get(source)) and count >= LARGE_SHARE * read[source],
                "examples": examples.get((source, row["reason"]), []),
                "listed": row["metric"] == "removed" or row["reason"] in LISTED_REASONS,
            }
        )
    return rows


def summary_key(row: dict) -> str:
    return f"{row['metric']} {row['source']} {row['reason']}"


def summary(stats: list[dict]) -> dict[str, int]:
    """What the history keeps of a build besides its words: its rejection counts."""
    return {
        summary_key(row): row["value"] for row in stats if row["metric"] in ("rejected", "removed")
    }


class History:
    """The last build's words and rejection counts, and those of the build before it."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.words = folder / "words.txt"
        self.summary = folder / "summary.json"
        self.previous_words = folder / "previous-words.txt"
        self.previous_summary = folder / "previous-summary.json"

    def record(self, words: Path, counts: dict[str, int]) -> None:
        """Make ``words``/``counts`` the last build; the one recorded before becomes the
        previous build, unless it is the same (a rerun changes nothing)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps(counts, indent=1, sort_keys=True) + "\n"
        if self.words.is_file() and self.summary.is_file():
            same = _digest(self.words) == _digest(words) and self.summary.read_text() == text
            if same:
                return
            os.replace(self.words, self.previous_words)
            os.replace(self.summary, self.previous_summary)
        _copy(words, self.words)
        with atomic_open(self.summary) as out:
            out.write(text)

    def previous(self) -> tuple[Path, dict[str, int]] | None:
        if not (self.previous_words.is_file() and self.previous_summary.is_file()):
            return None
        return self.previous_words, json.loads(self.previous_summary.read_text())


def _digest(path: Path) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _copy(source: Path, target: Path) -> None:
    """``target`` becomes a copy of ``source`` (a copy, not a link: the history must not change
    when the build's file is rewritten)."""
    temporary = target.with_name(target.name + ".tmp")
    shutil.copyfile(source, temporary)
    os.replace(temporary, target)


def _lines(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            yield line.rstrip("\n")


def word_changes(before: Path, after: Path) -> tuple[list[str], list[str]]:
    """Words added and removed between two sorted word lists (one merge pass)."""
    added: list[str] = []
    removed: list[str] = []
    old, new = _lines(before), _lines(after)
    a, b = next(old, None), next(new, None)
    while a is not None or b is not None:
        if b is None or (a is not None and a < b):
            removed.append(a)
            a = next(old, None)
        elif a is None or b < a:
            added.append(b)
            b = next(new, None)
        else:
            a, b = next(old, None), next(new, None)
    return added, removed


def build_report(
    name: str,
    language: dict,
    words_path: Path,
    words: Words,
    stats: list[dict],
    history: History,
) -> dict:
    spell = Language.from_dict(language).spell  # multi-letter tiles as letters: CH, not Ç
    sources = source_ids(stats)
    counts = summary(stats)
    history.record(words_path, counts)
    previous = history.previous()
    change = None
    if previous is not None:
        added, removed = word_changes(previous[0], words_path)
        change = {
            "previous_words": sum(1 for _ in _lines(previous[0])),
            "added": len(added),
            "removed": len(removed),
            "added_sample": [spell(word) for word in sample(added, CHANGED)],
            "removed_sample": [spell(word) for word in sample(removed, CHANGED)],
        }
    vowels = (language.get("classify") or {}).get("vowels")
    return {
        "format": FORMAT,
        "lexicon": name,
        "language": language["code"],
        "words": len(words.words),
        "sources": [
            {
                "id": source,
                **{
                    row["metric"]: row["value"]
                    for row in stats
                    if row["metric"] in ("read", "kept", "words") and row["source"] == source
                },
            }
            for source in sources
        ],
        "lengths": length_rows(words, sources),
        "two_letter": [words.words[i] for i in np.flatnonzero(words.lengths == 2)],
        "three_letter": [words.words[i] for i in np.flatnonzero(words.lengths == 3)],
        "only_one_source": only_one_source(words, sources),
        "vowels": vowels,
        "suspicious": suspicious(words.words, language["alphabet"], vowels),
        "rejections": rejection_rows(stats, None if previous is None else previous[1]),
        "removed_file": REMOVED_FILE,
        "change": change,
    }


def write_report(
    name: str,
    language: dict,
    words_path: Path,
    words: Words,
    stats: list[dict],
    history: Path,
    out: Path,
) -> None:
    """``report.json`` and ``report.html`` of lexicon ``name`` into ``out``: ``words_path`` is
    its sorted ``words.txt``, ``words`` its ``words.tsv`` (the words as stored), ``stats`` its
    ``stats.parquet`` rows (dicts, every column), ``history`` the folder of its previous
    builds."""
    spelled = words.spelled(Language.from_dict(language))
    report = build_report(name, language, words_path, spelled, stats, History(history))
    with atomic_open(out / "report.json") as handle:
        json.dump(report, handle, indent=1, sort_keys=True, ensure_ascii=False)
        handle.write("\n")
    with atomic_open(out / "report.html") as handle:
        handle.write(render_html(report))
