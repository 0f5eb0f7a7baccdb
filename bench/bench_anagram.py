"""Rack and one-shot command benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_anagram.py [--lexicon fr] [--runs 30]

- 8-letter racks in-process (the lexicon already open): no joker, one joker, two jokers;
- a one-shot ``lexforge anagram`` in a fresh process, wall time including interpreter start,
  taking turns rack by rack with Debian's ``an -w`` on the same words (when installed) and with
  ``--against``'s lexforge (another installation, e.g. a venv of an older version), so that all
  see the same moment of a noisy machine; each line gives the words printed per rack and on how
  many racks the words differ from this lexforge's (compared lowercase; all should agree);
- resident memory of a process with the lexicon open after a query;
- a one-shot ``lexforge anagram RACK -d WORDLIST`` (the lexicon's ``words.txt`` as a plain list,
  or ``--wordlist FILE``) with an empty cache (read, normalize, compile, cache), then again
  (the cached lexicon mapped).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
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
    parser.add_argument(
        "--against", metavar="LEXFORGE", help="another lexforge command, timed in turn with this"
    )
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
    bench_one_shot(lexicon, args.lexicon, args.against, racks(lexicon, args.runs, 0, seed=9))
    wordlist = args.wordlist or str(lexicon.path / "words.txt")
    bench_wordlist(wordlist, lexicon.language.code, racks(lexicon, max(5, args.runs // 3), 0, 7))


#: Python's bytecode cache on, as an installed package has it (without it every start compiles
#: the modules again: about 30 ms).
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def bench_one_shot(lexicon: Lexicon, name: str, against: str | None, rack_list: list[str]) -> None:
    """One-shot rack queries: each rack runs every command in turn (after one untimed round that
    fills the bytecode cache)."""
    commands = {"lexforge": [LEXFORGE, "anagram", "{}", "--lexicon", name]}
    if against:
        commands["--against"] = [against, "anagram", "{}", "--lexicon", name]
    an = shutil.which("an") or shutil.which("an", path="/usr/games")
    with tempfile.TemporaryDirectory() as folder:
        if an:
            words = Path(folder, "words.txt")
            words.write_text((lexicon.path / "words.txt").read_text(encoding="utf-8").lower())
            commands["an -w"] = [an, "-w", "-d", str(words), "{}"]
        walls: dict[str, list[float]] = {label: [] for label in commands}
        printed: dict[str, int] = dict.fromkeys(commands, 0)
        differing: dict[str, int] = dict.fromkeys(commands, 0)
        for rack in [rack_list[0], *rack_list]:
            found = {}
            for label, command in commands.items():
                text = rack.lower() if label == "an -w" else rack
                start = time.perf_counter()
                done = subprocess.run(
                    [text if part == "{}" else part for part in command],
                    check=True,
                    capture_output=True,
                    env=ENVIRONMENT,
                )
                walls[label].append(time.perf_counter() - start)
                found[label] = set(done.stdout.decode("utf-8").lower().split())
                printed[label] += len(found[label])
                differing[label] += found[label] != found["lexforge"]
    for label, times in walls.items():
        per_rack = printed[label] / len(times)
        print(
            f"one-shot rack query, {label} (process start included), {len(times) - 1} racks: "
            f"{median_ms(times[1:])} ({per_rack:.0f} words per rack; words differ from "
            f"lexforge's on {differing[label]} racks)"
        )


def bench_wordlist(wordlist: str, language: str, rack_list: list[str]) -> None:
    """One-shot ``-d`` queries: the first fills an empty cache, the others map it."""
    with tempfile.TemporaryDirectory() as cache:
        environment = {**ENVIRONMENT, "LEXFORGE_CACHE": cache}
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
