#!/usr/bin/env python3
"""Check lexforge's pure-Python aspell reader against the real aspell binary.

    nice .venv/bin/python scripts/check-aspell-oracle.py [--lang it fr ...] [--work DIR] [--reuse]

For each language, aspell itself compiles the raw word lists (``prezip-bin -d | aspell create
master``, as Debian's aspell-autobuildhash does) with the raw ``.dat``/affix files in a work
directory, then ``aspell dump master | aspell expand`` gives the reference forms. They are compared,
as sorted unique sets (external ``sort -u``, so memory stays flat even for Italian's 34.5 M forms),
with what ``read_aspell`` yields for the same raw dictionary. The pruned stream
(``reject_chars``) is also checked to equal the full set minus the forms holding a reject character.

``--reuse`` keeps reference files already in the work directory instead of running aspell again.
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
from collections.abc import Iterable
from pathlib import Path
from typing import IO

from pipeline.sources.aspell import read_aspell
from solver.errors import report_user_errors

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
#: What the pipeline rejects (plus other non-letters): the pruning check uses it.
REJECT_CHARS = frozenset("'-. 0123456789")
SHOWN_DIFFERENCES = 5
C_LOCALE = {**os.environ, "LC_ALL": "C"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", nargs="+", choices=LANGUAGES, default=list(LANGUAGES))
    parser.add_argument("--raw", type=Path, default=REPO / "raw", help="raw data directory")
    parser.add_argument("--work", type=Path, default=Path("/tmp/lexforge-aspell-oracle"))
    parser.add_argument("--reuse", action="store_true", help="reuse reference files in --work")
    args = parser.parse_args()
    for tool in ("aspell", "prezip-bin", "sort", "comm", "grep"):
        if shutil.which(tool) is None:
            print(f"check-aspell-oracle: {tool} not found", file=sys.stderr)
            return 2
    failures = [lang for lang in args.lang if not check_language(lang, args)]
    print("all equal" if not failures else f"DIFFERENT: {' '.join(failures)}")
    return 1 if failures else 0


def check_language(lang: str, args: argparse.Namespace) -> bool:
    """Compare one language (full and pruned); print the report; True if all equal."""
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
    yielded = sort_unique(read_aspell(source / dictionary), mine)
    mine_seconds = time.perf_counter() - started
    full_equal = report(lang, mine, reference, "aspell", yielded)
    print(f"    time: aspell {aspell_seconds:.1f} s, lexforge (+ sort) {mine_seconds:.1f} s")

    pruned = work / "lexforge.pruned.forms"
    expected = work / "expected.pruned.forms"
    sort_unique(read_aspell(source / dictionary, REJECT_CHARS), pruned)
    without_rejected(mine, expected)
    pruned_equal = report(f"{lang} pruned", pruned, expected, "expected (full minus rejected)")
    return full_equal and pruned_equal


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


def without_rejected(sorted_forms: Path, out: Path) -> None:
    """Copy the forms that hold no reject character."""
    patterns = [arg for char in sorted(REJECT_CHARS) for arg in ("-e", char)]
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
