"""Output formats benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_cli_output.py [--lexicon en] [--boards 1000] [--runs 5]

A one-shot ``lexforge boggle FILE`` on the same boards (``lexforge generate --seed 1``) in each
output format, process start included, and with ``--paths``: median wall time and output size.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("--boards", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        boards = Path(folder) / "boards.txt"
        generate = [LEXFORGE, "generate", "--count", str(args.boards), "--seed", "1"]
        boards.write_text(
            subprocess.run(
                [*generate, "--lexicon", args.lexicon], check=True, capture_output=True, text=True
            ).stdout
        )
        print(f"{args.boards} boards of 4×4, lexicon {args.lexicon}, median of {args.runs} runs")
        for extra in ([], ["--paths"]):
            for fmt in ("text", "json", "jsonl", "tsv"):
                command = [LEXFORGE, "boggle", str(boards), "--lexicon", args.lexicon]
                command += ["--format", fmt, *extra]
                walls, size = [], 0
                for _ in range(args.runs):
                    start = time.perf_counter()
                    done = subprocess.run(command, check=True, capture_output=True)
                    walls.append(time.perf_counter() - start)
                    size = len(done.stdout)
                label = f"--format {fmt} {' '.join(extra)}".strip()
                print(f"{label:<26} {statistics.median(walls):6.2f} s  {size / 1e6:6.2f} MB")


if __name__ == "__main__":
    main()
