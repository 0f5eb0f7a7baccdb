"""Rack and one-shot command benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_anagram.py [--lexicon fr] [--runs 30]

- 8-letter racks in-process (the lexicon already open): no joker, one joker, two jokers;
- a one-shot ``lexforge anagram`` in a fresh process, wall time including interpreter start;
- resident memory of a process with the lexicon open after a query;
- a one-shot ``lexforge anagram RACK -d WORDLIST`` (the lexicon's ``words.txt`` as a plain list,
  or ``--wordlist FILE``) with an empty cache (read, normalize, compile, cache), then again
  (the cached lexicon mapped).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lexforge.anagram import anagram
from lexforge.lexicon import Lexicon

LEXFORGE = str(Path(sys.executable).with_name("lexforge"))


def racks(lexicon: Lexicon, count: int, jokers: int, seed: int) -> list[str]:
    """Racks of 8 − jokers letters taken from real 8-letter words, plus jokers."""
    rng = random.Random(seed)
    words = [w for w in lexicon.words.iterkeys() if len(w) == 8]
    chosen = rng.sample(words, count)
    return ["".join(rng.sample(w, 8 - jokers)) + "*" * jokers for w in chosen]


def median_ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples) * 1e3:.2f} ms, p95 {p95 * 1e3:.2f} ms"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="fr")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--wordlist", help="list for the -d case (default: the lexicon's words)")
    args = parser.parse_args()
    lexicon = Lexicon.open(args.lexicon)
    print(f"lexicon {args.lexicon}: {len(lexicon):,} words")
    for jokers in (0, 1, 2):
        times, found = [], 0
        for rack in racks(lexicon, args.runs, jokers, seed=jokers):
            start = time.perf_counter()
            found += len(anagram(lexicon, rack))
            times.append(time.perf_counter() - start)
        print(
            f"8-letter rack, {jokers} joker(s), {args.runs} racks: {median_ms(times)} "
            f"({found / args.runs:.0f} words per rack)"
        )
    print(f"resident memory with the lexicon open: {rss_mb():.0f} MB")
    walls = []
    for rack in racks(lexicon, max(5, args.runs // 3), 0, seed=9):
        start = time.perf_counter()
        subprocess.run(
            [LEXFORGE, "anagram", rack, "--lexicon", args.lexicon],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        walls.append(time.perf_counter() - start)
    print(
        f"one-shot `lexforge anagram RACK --lexicon {args.lexicon}` (process start included), "
        f"{len(walls)} runs: {median_ms(walls)}"
    )
    wordlist = args.wordlist or str(lexicon.path / "words.txt")
    bench_wordlist(wordlist, lexicon.language.code, racks(lexicon, max(5, args.runs // 3), 0, 7))


def bench_wordlist(wordlist: str, language: str, rack_list: list[str]) -> None:
    """One-shot ``-d`` queries: the first fills an empty cache, the others map it."""
    with tempfile.TemporaryDirectory() as cache:
        environment = {**os.environ, "LEXFORGE_CACHE": cache}
        walls = []
        for rack in rack_list:
            start = time.perf_counter()
            subprocess.run(
                [LEXFORGE, "anagram", rack, "-d", wordlist, "--language", language],
                check=True,
                stdout=subprocess.DEVNULL,
                env=environment,
            )
            walls.append(time.perf_counter() - start)
    print(
        f"one-shot `lexforge anagram RACK -d {Path(wordlist).name} --language {language}`: "
        f"first (empty cache) {walls[0]:.2f} s; then {len(walls) - 1} runs: {median_ms(walls[1:])}"
    )


if __name__ == "__main__":
    main()
