"""Print the SLURM resources of each rule from the timings of a full build (build/benchmarks/).

Memory: the largest max_rss over every lexicon, times 1.5, rounded up to 256 MB; run time: ten
times the longest wall-clock run, at least 10 minutes (a shared node can be several times slower
than the build machine). The rules' ``resources:`` were set from this output; rerun it after a
change that moves a step's figures and update them.

    python scripts/size-resources.py [build/benchmarks]
"""

from __future__ import annotations

import csv
import math
import sys
from pathlib import Path


def main() -> None:
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "build/benchmarks")
    for rule in sorted(p for p in folder.iterdir() if p.is_dir()):
        rows = [
            list(csv.DictReader(tsv.open(encoding="utf-8"), delimiter="\t"))[-1]
            for tsv in sorted(rule.rglob("*.tsv"))
        ]
        if not rows:
            continue
        rss = max(float(r["max_rss"]) for r in rows if r["max_rss"] != "-")
        seconds = max(float(r["s"]) for r in rows)
        mem_mb = math.ceil(rss * 1.5 / 256) * 256
        runtime = max(10, math.ceil(seconds * 10 / 60))
        measured = f"max_rss {rss:.0f} MB, {seconds:.1f} s"
        print(f"{rule.name}: mem_mb={mem_mb}, runtime={runtime}  # {measured}")


if __name__ == "__main__":
    main()
