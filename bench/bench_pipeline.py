"""Pipeline benchmark: prints figures, asserts nothing.

    .venv/bin/python bench/bench_pipeline.py [--runs 3] [--skip-build]

1. a clean full build of every default lexicon (fresh work directory, all cores): wall time and
   peak memory (sum of the RSS of Snakemake and all its jobs, sampled every 50 ms; and the largest
   single process, from the kernel's accounting);
2. a no-op rerun of the same build;
3. the anagram index (``anagrams.txt`` lines) of a 400,000-word lexicon;
4. the Bash seed's preparation loop on a 2,000-word sample, the same sample through lexforge,
   and the ratio (the seed's output is also checked equal to ours);
5. with ``--large N``, a lexicon of N synthetic words (seeded random letter strings of 2–15
   letters, Italian alphabet, one plain list) built to its manifest in a fresh work directory:
   wall time and peak memory, then per step its seconds, largest process and words per second
   (from Snakemake's benchmark files).

    .venv/bin/python bench/bench_pipeline.py --skip-build --large 4000000
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lexforge.anagramindex import anagram_index, anagram_lines  # noqa: E402

SNAKEMAKE = [sys.executable, "-m", "snakemake"]
SEED_LOOP = r"""
cat "$1" | while read ligne
do
    printf '%s' "$ligne" | sed 's/\(.\)/\1\n/g' | sort | tr -d '\n'
    echo
done > "$2.sorted"
paste -d '=' "$2.sorted" "$1" > "$2"
"""


def tree_rss(process: psutil.Process) -> int:
    """Summed RSS of ``process`` and its descendants (those that end while sampled count 0)."""
    members = [process]
    with contextlib.suppress(psutil.Error):  # a child ended while the tree was listed
        members += process.children(recursive=True)
    total = 0
    for member in members:
        with contextlib.suppress(psutil.Error):
            total += member.memory_info().rss
    return total


def children_cpu() -> float:
    """CPU seconds (user + system) of every finished descendant of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_build(workdir: Path, *targets: str) -> tuple[float, int, float]:
    """Wall seconds, peak summed RSS and CPU seconds (Snakemake and all its jobs: less
    dependent on the machine's other load than the wall time) of one snakemake run in
    ``workdir``."""
    cpu = children_cpu()
    start = time.perf_counter()
    process = psutil.Popen(
        [
            *SNAKEMAKE,
            "--snakefile",
            str(ROOT / "Snakefile"),
            "--directory",
            str(workdir),
            *targets,
            "--quiet",
            "all",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    peak = 0
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, tree_rss(process))
            time.sleep(0.05)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, stderr = process.communicate()
    done.set()
    sampler.join()
    if process.returncode:
        sys.exit(f"build failed in {workdir}:\n{stderr.decode()[-3000:]}")
    return time.perf_counter() - start, peak, children_cpu() - cpu


def fresh_workdir() -> Path:
    workdir = Path(tempfile.mkdtemp(prefix="lexforge-bench-"))
    for name in ("raw", "config"):
        (workdir / name).symlink_to(ROOT / name)
    return workdir


def bench_build(runs: int) -> None:
    walls, peaks, cpus, noops = [], [], [], []
    for _ in range(runs):
        workdir = fresh_workdir()
        try:
            wall, peak, cpu = timed_build(workdir)
            walls.append(wall)
            peaks.append(peak)
            cpus.append(cpu)
            noops.append(timed_build(workdir)[0])
        finally:
            shutil.rmtree(workdir)
    largest = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    print(
        f"clean full build ({os.cpu_count()} cores), median of {runs}: "
        f"{statistics.median(walls):.1f} s "
        f"(runs: {', '.join(f'{w:.1f}' for w in walls)}); "
        f"CPU {statistics.median(cpus):.1f} s (runs: {', '.join(f'{c:.1f}' for c in cpus)})"
    )
    print(
        f"  peak memory, all processes summed: {max(peaks) / 2**30:.2f} GiB; "
        f"largest single process: {largest / 2**30:.2f} GiB"
    )
    print(f"no-op rerun, median of {runs}: {statistics.median(noops):.2f} s")


def sample_words(count: int) -> list[str]:
    """``count`` real words: the largest built lexicon, topped up from the others if needed."""
    lexicons = sorted((ROOT / "build").glob("*/words.txt"), key=lambda p: -p.stat().st_size)
    if not lexicons:
        sys.exit("no built lexicon in build/: run snakemake first")
    words: set[str] = set()
    for path in lexicons:
        words.update(path.read_text(encoding="utf-8").split())
        if len(words) >= count:
            break
    return sorted(words)[:count] if len(words) >= count else sorted(words)


def bench_anagram_index(runs: int) -> None:
    words = sample_words(400_000)
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(runs):
            start = time.perf_counter()
            index = anagram_index(words)  # as the anagrams step: the text written as made
            Path(tmp, "anagrams.txt").write_bytes(index.text)
            times.append(time.perf_counter() - start)
    print(
        f"anagram index of {len(words):,} words (anagrams.txt), median of {runs}: "
        f"{statistics.median(times):.3f} s"
    )


def bench_seed(sample_size: int = 2000) -> None:
    words = sample_words(400_000)
    step = max(1, len(words) // sample_size)
    sample = words[::step][:sample_size]
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp, "sample.txt")
        source.write_text("\n".join(sample) + "\n", encoding="utf-8")
        start = time.perf_counter()
        subprocess.run(
            ["bash", "-c", SEED_LOOP, "seed", str(source), str(Path(tmp, "prep.txt"))],
            check=True,
            env={**os.environ, "LC_ALL": "C.UTF-8"},  # characters, not bytes; code-point order
        )
        seed_time = time.perf_counter() - start
        seed_lines = sorted(Path(tmp, "prep.txt").read_text(encoding="utf-8").splitlines())
    start = time.perf_counter()
    ours = anagram_lines(sample)
    our_time = time.perf_counter() - start
    same = "identical" if seed_lines == ours else "DIFFERENT"
    print(
        f"Bash seed loop on {len(sample):,} words: {seed_time:.2f} s "
        f"({seed_time / len(sample) * 1e3:.2f} ms/word; {len(words):,} words would take "
        f"{seed_time / len(sample) * len(words) / 60:.0f} min)"
    )
    print(
        f"lexforge on the same sample: {our_time * 1e3:.2f} ms; "
        f"ratio {seed_time / our_time:,.0f}×; "
        f"outputs {same}"
    )


LARGE_CONFIG = """version: "0.0.0"
default: [large]
lexicons:
  large:
    language: it
    reference: reference
    sources:
      - {format: ods, path: large.txt}
"""
LARGE_STEPS = ("words", "compile", "tables")


def synthetic_words(count: int, seed: int = 1) -> list[str]:
    """``count`` distinct seeded random words of 2–15 lowercase letters, sorted."""
    import random

    rng = random.Random(seed)
    letters = "abcdefghilmnopqrstuvz"  # the Italian letters in everyday use
    words: set[str] = set()
    while len(words) < count:
        words.update(
            "".join(rng.choices(letters, k=rng.randint(2, 15))) for _ in range(count - len(words))
        )
    return sorted(words)


def bench_large(count: int) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="lexforge-large-"))
    try:
        (workdir / "config").mkdir()
        (workdir / "config/config.yaml").write_text(LARGE_CONFIG, encoding="utf-8")
        (workdir / "large.txt").write_text("\n".join(synthetic_words(count)) + "\n")
        wall, peak, cpu = timed_build(workdir, "build/stage/large/manifest.json")
        print(
            f"large lexicon, {count:,} synthetic words to its manifest: {wall:.1f} s wall, "
            f"{cpu:.1f} s CPU, "
            f"peak memory {peak / 2**30:.2f} GiB summed"
        )
        for step in LARGE_STEPS:
            row = (workdir / f"build/benchmarks/{step}/large.tsv").read_text().splitlines()[-1]
            seconds, _, max_rss = row.split("\t")[:3]
            print(
                f"  {step:<9} {float(seconds):6.1f} s  {float(max_rss):7.0f} MB  "
                f"{count / float(seconds):>10,.0f} words/s"
            )
    finally:
        shutil.rmtree(workdir)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--skip-build", action="store_true", help="only the index and seed figures")
    parser.add_argument("--large", type=int, metavar="N", help="also build an N-word lexicon")
    args = parser.parse_args()
    if not args.skip_build:
        bench_build(args.runs)
    bench_anagram_index(max(args.runs, 3))
    bench_seed()
    if args.large:
        bench_large(args.large)


if __name__ == "__main__":
    main()
