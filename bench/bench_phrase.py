"""Phrase anagrams, lexforge against Debian's ``an``: prints figures, asserts nothing.

    .venv/bin/python bench/bench_phrase.py [--lexicon en] [--runs 5]

Both programs run as a user runs them, one process per query (process start included), output
captured, on the same word list: the lexicon's own words, written lowercase for ``an -d``. Each
line gives the phrase and options, the number of phrases each printed (they must agree), and
the median wall time of each, side by side. lexforge runs with Python's bytecode cache, as an
installed package has it (``PYTHONDONTWRITEBYTECODE`` is dropped, and a first run fills the
cache): without it every run compiles the modules again, about 30 ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lexforge.lexicon import Lexicon

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))

# (phrase, an's options, lexforge's same options)
CASES = [
    ("elephant", [], []),
    ("dormitory", [], []),
    ("paul martin", ["-c", "imp"], ["--contains", "imp"]),
    ("anagram solver", ["-m", "3", "-l", "3"], ["--min-length", "3", "--words", "3"]),
    ("william shakespeare", ["-l", "3"], ["--words", "3"]),
    ("lexforge phrase", [], []),
]


ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], runs: int) -> tuple[float, int]:
    """Median wall time of ``runs`` runs of ``command`` and the lines it printed."""
    walls, lines = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, check=True, capture_output=True, env=ENVIRONMENT)
        walls.append(time.perf_counter() - start)
        lines = done.stdout.count(b"\n")
    return statistics.median(walls), lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    an = shutil.which("an") or shutil.which("an", path="/usr/games")
    if an is None:
        sys.exit("Debian's `an` is not installed (apt-get install an)")
    lexicon = Lexicon.open(args.lexicon)
    print(f"lexicon {args.lexicon}: {len(lexicon):,} words; medians of {args.runs} runs")
    print(f"{'phrase':<40} {'phrases':>9} {'lexforge':>10} {'an':>10} {'an/lexforge':>12}")
    timed([LEXFORGE, "anagram", "--phrase", "warm", "--lexicon", args.lexicon], 1)  # .pyc
    with tempfile.TemporaryDirectory() as scratch:
        word_list = Path(scratch) / "words.txt"
        word_list.write_text("".join(f"{w.lower()}\n" for w in lexicon.words.iterkeys()))
        for phrase, an_options, options in CASES:
            ours, our_lines = timed(
                [LEXFORGE, "anagram", "--phrase", phrase, "--lexicon", args.lexicon, *options],
                args.runs,
            )
            theirs, their_lines = timed([an, "-d", str(word_list), *an_options, phrase], args.runs)
            count = f"{our_lines}" if our_lines == their_lines else f"{our_lines}≠{their_lines}"
            label = " ".join([repr(phrase), *options])
            print(
                f"{label:<40} {count:>9} {ours * 1e3:>8.0f}ms {theirs * 1e3:>8.0f}ms "
                f"{theirs / ours:>11.2f}×"
            )


if __name__ == "__main__":
    main()
