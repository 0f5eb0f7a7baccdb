#!/usr/bin/env python3
"""Check lexforge's pure-Python hunspell reader against the real hunspell and unmunch binaries.

    nice .venv/bin/python scripts/check-hunspell-oracle.py [--lang en fr ...] [--raw DIR]

For each shipped dictionary (``raw/<lang>/hunspell/*.dic``):

* the reader's forms (as a set) are fed to ``hunspell -d <dic> -G`` (one per line; ``-G`` prints
  the words it accepts): every form must come back. A form the tokenizer of ``hunspell`` cuts
  (at a character it does not count as a letter or one of the dictionary's WORDCHARS: ``-`` in
  English, subscript digits, a blank ending a word list line, which hunspell keeps in the word)
  cannot be checked whole by the binary: ``-G`` and ``-l`` (which prints the bad tokens) tell
  them apart (a line giving other tokens than the form itself); they are counted apart, with how
  many have every part accepted;
* ``unmunch <dic> <aff>`` (hunspell-tools) expands the same dictionary its own way; the two sets
  are compared, and the forms only one side makes are fed to ``hunspell -G`` as well: what only
  unmunch makes and hunspell rejects is unmunch's mistake, what only unmunch makes and hunspell
  accepts would be a form the reader misses, unless hunspell accepts it only as a compound or
  by breaking it at a BREAK character: those are checked again with a copy of the dictionary
  whose affix file has no compounding and no BREAK (``BREAK 0``), and only the forms that copy
  still accepts, and not as another case of one of the reader's forms (``Abbinde`` for
  ``abbinde``), are reported as missed.

Prints a short summary per language (docs/languages.md quotes them). Exit status: 0 if every form of
the reader is accepted and none is missed, 1 otherwise, 2 if a binary is missing.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from lexforge.errors import report_user_errors
from lexforge.sources.hunspell import _parse_affixes, read_hunspell_forms

REPO = Path(__file__).resolve().parent.parent
SHOWN = 5
ENV = {**os.environ, "LC_ALL": "C"}


def hunspell_accepts(dic: Path, words: set[str]) -> set[str]:
    """The words ``hunspell -G`` prints back whole (input and output in UTF-8)."""
    result = subprocess.run(
        ["hunspell", "-i", "UTF-8", "-d", str(dic.with_suffix("")), "-G"],
        input="".join(f"{word}\n" for word in sorted(words)).encode("utf-8"),
        capture_output=True,
        env=ENV,
        check=True,
    )
    return set(result.stdout.decode("utf-8", "replace").splitlines()) & words


def tokens_per_word(dic: Path, words: list[str], option: str, sentinel: str) -> list[list[str]]:
    """For each word, the tokens ``hunspell -G`` (good ones) or ``-l`` (bad ones) prints for it:
    each word is followed by a `sentinel` line that the option prints, which marks the ends."""
    result = subprocess.run(
        ["hunspell", "-i", "UTF-8", "-d", str(dic.with_suffix("")), option],
        input="".join(f"{word}\n{sentinel}\n" for word in words).encode("utf-8"),
        capture_output=True,
        env=ENV,
        check=True,
    )
    per_word: list[list[str]] = [[]]
    for token in result.stdout.decode("utf-8", "replace").splitlines():
        if token == sentinel:
            per_word.append([])
        else:
            per_word[-1].append(token)
    return per_word[: len(words)]


def tokenizer_cuts(dic: Path, words: set[str], good: str) -> tuple[set[str], set[str]]:
    """The words hunspell's tokenizer does not check whole, and those of them whose every part it
    accepts. A word checked whole and rejected gives one bad token, itself, and no good one.
    `good` is a word hunspell accepts (the sentinel of the -G run; "lexforgezzq" is the -l one)."""
    ordered = sorted(words)
    goods = tokens_per_word(dic, ordered, "-G", good)
    bads = tokens_per_word(dic, ordered, "-l", "lexforgezzq")
    cut, parts_ok = set(), set()
    for word, good_tokens, bad_tokens in zip(ordered, goods, bads, strict=True):
        if good_tokens or bad_tokens != [word]:
            cut.add(word)
            if not bad_tokens:
                parts_ok.add(word)
    return cut, parts_ok


_COMPOUNDING = re.compile(rb"^(COMPOUND\w*|BREAK|CHECKCOMPOUND\w*|FORCEUCASE)\b.*$", re.MULTILINE)


def without_compounds(dic: Path, work: Path) -> Path:
    """A copy of the dictionary whose affix file makes no compound and breaks no word."""
    work.mkdir(parents=True, exist_ok=True)
    copy = work / dic.name
    shutil.copy(dic, copy)
    aff = _COMPOUNDING.sub(b"", dic.with_suffix(".aff").read_bytes())
    copy.with_suffix(".aff").write_bytes(aff + b"\nBREAK 0\n")
    return copy


def unmunch_forms(dic: Path, encoding: str) -> set[str]:
    """What ``unmunch`` prints for the dictionary, decoded with the dictionary's encoding."""
    result = subprocess.run(
        ["unmunch", str(dic), str(dic.with_suffix(".aff"))],
        capture_output=True,
        env=ENV,
        check=True,
    )
    return set(result.stdout.decode(encoding, "replace").splitlines())


def sample(words: set[str]) -> str:
    """A few of `words`, sorted, for a report line."""
    return " ".join(sorted(words)[:SHOWN])


def check(lang: str, dic: Path, work: Path) -> bool:
    """Compare one dictionary; print its summary; return whether every form is accepted."""
    start = time.perf_counter()
    count = 0
    forms: set[str] = set()
    for form, _ in read_hunspell_forms(dic):
        count += 1
        forms.add(form)
    seconds = time.perf_counter() - start
    encoding = _parse_affixes(dic.with_suffix(".aff")).encoding
    print(f"{lang} {dic.name}: {count:,} forms ({len(forms):,} distinct) in {seconds:.1f} s")
    accepted = hunspell_accepts(dic, forms)
    rejected = forms - accepted
    cut, parts_ok = tokenizer_cuts(dic, rejected, min(accepted)) if rejected else (set(), set())
    rejected -= cut
    print(
        f"  hunspell -G: {len(accepted):,} accepted whole; {len(cut):,} cut by its tokenizer "
        f"(every part accepted for {len(parts_ok):,}"
        + (f"; not for e.g. {sample(cut - parts_ok)!r}" if cut - parts_ok else "")
        + f"); {len(rejected):,} rejected"
        + (f" (e.g. {sample(rejected)})" if rejected else "")
    )
    unmunched = unmunch_forms(dic, encoding)
    only_reader = forms - unmunched
    only_unmunch = unmunched - forms
    if not only_reader and not only_unmunch:
        print(f"  unmunch: equal ({len(unmunched):,} forms)")
        return not rejected
    unmunch_accepted = hunspell_accepts(dic, only_unmunch)
    missed = hunspell_accepts(without_compounds(dic, work / lang), unmunch_accepted)
    # hunspell also accepts a capitalized or upper-case word whose lower-case form it knows
    recased = {
        word for word in missed if word.lower() in forms or word[:1] + word[1:].lower() in forms
    }
    missed -= recased
    print(
        f"  unmunch: {len(unmunched):,} forms; {len(only_reader):,} only from the reader"
        + (f" (e.g. {sample(only_reader)})" if only_reader else "")
        + f"; {len(only_unmunch):,} only from unmunch, of which hunspell rejects "
        f"{len(only_unmunch) - len(unmunch_accepted):,}"
        + (f" (e.g. {sample(only_unmunch - unmunch_accepted)})" if only_unmunch else "")
        + f" and accepts {len(unmunch_accepted):,}"
        + (f" (e.g. {sample(unmunch_accepted)})" if unmunch_accepted else "")
        + f", {len(unmunch_accepted) - len(missed) - len(recased):,} of them only as compounds or"
        f" broken words, {len(recased):,} as another case of a form of the reader"
        + (f"; MISSED by the reader: {len(missed):,} (e.g. {sample(missed)})" if missed else "")
    )
    return not rejected and not missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", type=Path, default=REPO / "raw", help="raw data directory")
    parser.add_argument("--lang", nargs="+", help="languages (default: every raw/<lang>/hunspell)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/lexforge-hunspell-oracle"))
    args = parser.parse_args()
    missing = [tool for tool in ("hunspell", "unmunch") if shutil.which(tool) is None]
    if missing:
        print(f"not installed: {' '.join(missing)} (apt-get install hunspell hunspell-tools)")
        return 2
    dictionaries = sorted(args.raw.glob("*/hunspell/*.dic"))
    if args.lang:
        dictionaries = [dic for dic in dictionaries if dic.parent.parent.name in args.lang]
    failures = [dic for dic in dictionaries if not check(dic.parent.parent.name, dic, args.work)]
    print("all checks passed" if not failures else f"FAILED: {len(failures)} dictionaries")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(report_user_errors(main))
