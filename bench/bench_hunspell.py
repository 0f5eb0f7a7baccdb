"""hunspell expansion benchmark: prints figures, asserts nothing.

    nice .venv/bin/python bench/bench_hunspell.py [--lang en fr ...]

For each shipped ``raw/<lang>/hunspell/*.dic``: the word list's roots, the forms the reader yields
(with duplicates, and distinct), the wall time to read and expand it all, forms per second, and
the time with the pipeline's reject characters (what ``pipeline.words`` pays).
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from pathlib import Path

from lexforge.sources.hunspell import read_hunspell, read_hunspell_forms

RAW = Path(__file__).resolve().parent.parent / "raw"
#: What the pipeline rejects by default (apostrophes, hyphens, dots, spaces, digits).
PIPELINE_REJECT = frozenset("'-. 0123456789")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", nargs="+", help="languages (default: every raw/<lang>/hunspell)")
    args = parser.parse_args()
    print(
        f"{'dictionary':24} {'roots':>8} {'forms':>11} {'distinct':>11} {'s':>6} {'forms/s':>9}"
        f" {'s (pruned)':>10}"
    )
    for dic in sorted(RAW.glob("*/hunspell/*.dic")):
        if args.lang and dic.parent.parent.name not in args.lang:
            continue
        roots = int(dic.read_bytes().split(b"\n", 1)[0].split()[0])
        start = time.perf_counter()
        count = 0
        distinct: set[str] = set()
        for form, _ in read_hunspell_forms(dic):
            count += 1
            distinct.add(form)
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        for _ in read_hunspell(dic, PIPELINE_REJECT, Counter()):
            pass
        pruned = time.perf_counter() - start
        name = f"{dic.parent.parent.name}/{dic.name}"
        print(
            f"{name:24} {roots:>8,} {count:>11,} {len(distinct):>11,} {seconds:>6.1f}"
            f" {count / seconds:>9,.0f} {pruned:>10.1f}"
        )


if __name__ == "__main__":
    main()
