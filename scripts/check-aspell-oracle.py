#!/usr/bin/env python3
"""Check lexforge's pure-Python aspell reader against the real aspell binary.

    nice .venv/bin/python scripts/check-aspell-oracle.py [--lang it fr ...] [--work DIR] [--reuse]
                                                          [--counts-only] [--reject CHARS]

For each language, aspell itself compiles the raw word lists (``prezip-bin -d | aspell create
master``, as Debian's aspell-autobuildhash does) with the raw ``.dat``/affix files in a work
directory, then ``aspell dump master | aspell expand`` gives the reference forms. They are compared,
as sorted unique sets (external ``sort -u``, so memory stays flat even for Italian's 34.5 M forms),
with what ``read_aspell`` yields for the same raw dictionary. The pruned stream
(``reject_chars``) is also checked to equal the full set minus the forms holding a reject character.

The counts of what pruning leaves out (``read_aspell(..., pruned=Counter())``) are checked against a
brute force over the full stream, duplicates included: the pruned stream's length plus the counts
must be the full stream's length, and the count of each set of reject characters must be the number
of full-stream forms holding exactly that set of them. Both streams are consumed as they come.

``--reuse`` keeps reference files already in the work directory instead of running aspell again.
``--counts-only`` checks only the counts (no aspell, no sorting: a minute for all languages).
``--reject`` sets the reject characters of the pruning checks (default: the pipeline's); letters
make suffix strips remove some of them, e.g. ``--reject "'ae"``.
Exit status: 0 if every language is equal, 1 otherwise, 2 if a needed tool is missing.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

from lexforge.errors import report_user_errors
from lexforge.sources.aspell import read_aspell

REPO = Path(__file__).resolve().parent.parent
#: language → (top-level dictionary in raw/<lang>/aspell, aspell language name)
LANGUAGES = {
    "en": ("en.multi", "en"),
    "fr": ("fr.multi", "fr"),
    "de": ("de-neu.multi", "de"),
    "it": ("it.multi", "it"),
    "es": ("es.multi", "es"),
    "nl": ("nl.multi", "nl"),
    "pt": ("pt_PT.multi", "pt_PT"),
}
#: What the pipeline rejects (plus other non-letters): the pruning checks use it unless --reject.
REJECT_CHARS = frozenset("'-. 0123456789")
SHOWN_DIFFERENCES = 5
C_LOCALE = {**os.environ, "LC_ALL": "C"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", nargs="+", choices=LANGUAGES, default=list(LANGUAGES))
    parser.add_argument("--raw", type=Path, default=REPO / "raw", help="raw data directory")
    parser.add_argument("--work", type=Path, default=Path("/tmp/lexforge-aspell-oracle"))
    parser.add_argument("--reuse", action="store_true", help="reuse reference files in --work")
    parser.add_argument(
        "--counts-only", action="store_true", help="only check the counts of the pruned forms"
    )
    parser.add_argument(
        "--reject",
        type=frozenset,
        default=REJECT_CHARS,
        metavar="CHARS",
        help="reject characters of the pruning checks (default: the pipeline's)",
    )
    args = parser.parse_args()
    if args.counts_only:
        failures = [lang for lang in args.lang if not check_counts_only(lang, args)]
        print("all counts equal" if not failures else f"DIFFERENT: {' '.join(failures)}")
        return 1 if failures else 0
    for tool in ("aspell", "prezip-bin", "sort", "comm", "grep"):
        if shutil.which(tool) is None:
            print(f"check-aspell-oracle: {tool} not found", file=sys.stderr)
            return 2
    failures = [lang for lang in args.lang if not check_language(lang, args)]
    print("all equal" if not failures else f"DIFFERENT: {' '.join(failures)}")
    return 1 if failures else 0


def check_language(lang: str, args: argparse.Namespace) -> bool:
    """Compare one language (full, pruned and the pruned counts); print the report; True if all
    equal."""
    dictionary, aspell_lang = LANGUAGES[lang]
    source = args.raw / lang / "aspell"
    work = args.work / lang
    work.mkdir(parents=True, exist_ok=True)
    reference = work / "aspell.forms"
    started = time.perf_counter()
    if not (args.reuse and reference.is_file()):
        aspell_forms(source, work / "dict", dictionary, aspell_lang, reference)
    aspell_seconds = time.perf_counter() - started

    started = time.perf_counter()
    mine = work / "lexforge.forms"
    rejected: Counter[frozenset[str]] = Counter()
    yielded = sort_unique(
        tally_rejected(read_aspell(source / dictionary), args.reject, rejected), mine
    )
    mine_seconds = time.perf_counter() - started
    full_equal = report(lang, mine, reference, "aspell", yielded)
    print(f"    time: aspell {aspell_seconds:.1f} s, lexforge (+ sort) {mine_seconds:.1f} s")

    pruned = work / "lexforge.pruned.forms"
    expected = work / "expected.pruned.forms"
    counts: Counter[frozenset[str]] = Counter()
    kept = sort_unique(read_aspell(source / dictionary, args.reject, counts), pruned)
    without_rejected(mine, args.reject, expected)
    pruned_equal = report(f"{lang} pruned", pruned, expected, "expected (full minus rejected)")
    counts_equal = report_counts(lang, yielded, rejected, kept, counts)
    return full_equal and pruned_equal and counts_equal


def check_counts_only(lang: str, args: argparse.Namespace) -> bool:
    """Check the counts of the forms pruning leaves out of one language (see the module
    docstring); print the report; True if they are right."""
    dictionary = args.raw / lang / "aspell" / LANGUAGES[lang][0]
    rejected: Counter[frozenset[str]] = Counter()
    yielded = sum(1 for _ in tally_rejected(read_aspell(dictionary), args.reject, rejected))
    counts: Counter[frozenset[str]] = Counter()
    kept = sum(1 for _ in read_aspell(dictionary, args.reject, counts))
    return report_counts(lang, yielded, rejected, kept, counts)


def tally_rejected(
    forms: Iterable[str], reject: frozenset[str], rejected: Counter[frozenset[str]]
) -> Iterator[str]:
    """Pass `forms` through, counting in `rejected` each one holding characters of `reject` under
    the set of those it holds (the brute force the pruned counts must equal)."""
    for form in forms:
        chars = reject.intersection(form)
        if chars:
            rejected[chars] += 1
        yield form


def report_counts(
    lang: str,
    yielded: int,
    rejected: Counter[frozenset[str]],
    kept: int,
    counts: Counter[frozenset[str]],
) -> bool:
    """Print the pruned counts beside the brute force over the full stream (`yielded` forms, of
    which `rejected`) and the pruned stream (`kept` forms); True if they agree."""
    total_equal = kept + counts.total() == yielded
    sets_equal = counts == rejected
    print(
        f"{lang} pruned counts: {kept} kept + {counts.total()} pruned = "
        f"{kept + counts.total()}, full stream {yielded}: {'yes' if total_equal else 'NO'}; "
        f"per reject set equal to the brute force: {'yes' if sets_equal else 'NO'}"
    )
    for chars, count in sorted(counts.items(), key=lambda item: (-item[1], sorted(item[0]))):
        print(f"    {''.join(sorted(chars))!r}: {count}")
    differing = [
        chars for chars in counts.keys() | rejected.keys() if counts[chars] != rejected[chars]
    ]
    for chars in sorted(differing, key=sorted):
        print(
            f"    DIFFERENT {''.join(sorted(chars))!r}: "
            f"counted {counts[chars]}, brute force {rejected[chars]}"
        )
    return total_equal and sets_equal


def aspell_forms(source: Path, dict_dir: Path, dictionary: str, lang: str, out: Path) -> None:
    """Compile every word list of `source` with aspell into `dict_dir`, then write the sorted
    unique forms of ``aspell dump master | aspell expand`` for `dictionary` to `out`.

    `dict_dir` gets aspell's own language support files (phonetic tables…, which raw/ lacks and
    which do not change the forms), overlaid with the raw ``.dat``, affix and ``.multi`` files."""
    shutil.rmtree(dict_dir, ignore_errors=True)
    dict_dir.mkdir(parents=True)
    data_dir = Path(
        subprocess.run(
            ["aspell", "config", "data-dir"], capture_output=True, text=True, check=True
        ).stdout.strip()
    )
    for file in [*data_dir.glob(f"{lang}*.dat"), *source.glob("*.dat"), *source.glob("*.multi")]:
        shutil.copy(file, dict_dir)
    dirs = f"--dict-dir={shlex.quote(str(dict_dir))} --local-data-dir={shlex.quote(str(dict_dir))}"
    for part in sorted(source.glob("*.cwl.gz")):
        rws = shlex.quote(str(dict_dir / part.name.replace(".cwl.gz", ".rws")))
        shell(
            f"gzip -dc {shlex.quote(str(part))} | prezip-bin -d"
            f" | aspell {dirs} --lang={shlex.quote(lang)} --dont-warn create master {rws}"
        )
    master = shlex.quote(dictionary.removesuffix(".multi"))
    shell(
        f"aspell {dirs} -d {master} --encoding=utf-8 dump master"
        f" | aspell {dirs} -l {shlex.quote(lang)} --encoding=utf-8 expand"
        f" | tr ' ' '\\n' | sort -u --parallel=1 -o {shlex.quote(str(out))}"
    )


def shell(command: str) -> None:
    """Run a shell pipeline (C locale); any failing stage is an error."""
    subprocess.run(["bash", "-o", "pipefail", "-c", command], check=True, env=C_LOCALE)


def sort_unique(forms: Iterable[str], out: Path) -> int:
    """Write the forms sorted and unique (C order, like the reference) to `out`; return how many
    forms were yielded."""
    count = 0
    with subprocess.Popen(
        ["sort", "-u", "--parallel=1", "-o", str(out)], stdin=subprocess.PIPE, env=C_LOCALE
    ) as sorter:
        batch: list[str] = []
        for form in forms:
            batch.append(form)
            if len(batch) == 100_000:
                count += write_batch(sorter.stdin, batch)
        count += write_batch(sorter.stdin, batch)
        sorter.stdin.close()
    if sorter.returncode:
        raise RuntimeError(f"sort failed with status {sorter.returncode}")
    return count


def write_batch(stream: IO[bytes], batch: list[str]) -> int:
    """Write one batch of forms as UTF-8 lines and empty the batch; return its size."""
    size = len(batch)
    if batch:
        stream.write(("\n".join(batch) + "\n").encode("utf-8"))
        batch.clear()
    return size


def without_rejected(sorted_forms: Path, reject: frozenset[str], out: Path) -> None:
    """Copy the forms that hold no character of `reject`."""
    patterns = [arg for char in sorted(reject) for arg in ("-e", char)]
    with out.open("wb") as sink:
        result = subprocess.run(
            ["grep", "-v", "-F", *patterns, str(sorted_forms)], stdout=sink, env=C_LOCALE
        )
    if result.returncode > 1:
        raise RuntimeError(f"grep failed with status {result.returncode}")


def report(
    label: str, mine: Path, reference: Path, reference_name: str, yielded: int | None = None
) -> bool:
    """Print counts, equality and the first differences of two sorted files; True if equal."""
    equal = subprocess.run(["cmp", "-s", str(mine), str(reference)]).returncode == 0
    extra = f" ({yielded} yielded, duplicates included)" if yielded is not None else ""
    print(
        f"{label}: lexforge {line_count(mine)} forms{extra}, "
        f"{reference_name} {line_count(reference)} forms, equal: {'yes' if equal else 'NO'}"
    )
    if not equal:
        first = subprocess.run(
            f"comm -3 {shlex.quote(str(mine))} {shlex.quote(str(reference))}"
            f" | head -n {SHOWN_DIFFERENCES}",
            shell=True,
            capture_output=True,
            env=C_LOCALE,
        ).stdout.decode()
        for line in first.splitlines():
            side = f"only {reference_name}" if line.startswith("\t") else "only lexforge"
            print(f"    {side}: {line.strip()}")
    return equal


def line_count(path: Path) -> int:
    """Number of lines of a file."""
    with path.open("rb") as file:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: file.read(1 << 20), b""))


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
