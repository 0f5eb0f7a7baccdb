"""Scaling of the sharded workflows: the same `snakemake corpus` (or, with ``--workflow
leaves``, `snakemake leaves`) with 1 and 2 jobs locally, and through the local SLURM cluster
(tests/slurm_cluster.py) when it can start: prints boards/s (games/s) and the efficiency
(speed-up over the 1-job run, divided by the jobs). Asserts nothing.

    .venv/bin/python bench/bench_corpus.py [--lexicon en] [--shards 8] [--boards 2000]
    .venv/bin/python bench/bench_corpus.py --workflow leaves [--shards 8] [--boards 200]

Runs in a temporary tree whose build/ hard-links the repository's (the lexicon must be built),
so only the corpus jobs run. Two figures per run: the wall time of the whole `snakemake`
(planning and every job's start included: what a user waits for), and the boards per second
of the shard jobs (their benchmark files: a job's start, the lexicon's opening and the
solving). Last, the solving alone: one shard of each kind generated and solved in this process
(``pipeline.corpus.shard_table``), boards per second on one core.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # pipeline/, and the test cluster
from slurm_cluster import ClusterUnavailable, local_cluster  # noqa: E402

from lexforge import Lexicon  # noqa: E402
from pipeline.corpus import shard_table  # noqa: E402
from pipeline.corpusconfig import BoardKind, CorpusConfig  # noqa: E402

KINDS = {
    "boggle-4x4": {"game": "boggle", "rows": 4, "cols": 4},
    "ruzzle-4x4": {"game": "ruzzle", "rows": 4, "cols": 4},
}


def make_tree(folder: Path, lexicon: str, shards: int, boards: int) -> Path:
    tree = folder / "tree"
    (tree / "config").mkdir(parents=True)
    config = yaml.safe_load((ROOT / "config/config.yaml").read_text(encoding="utf-8"))
    config["leaves"] = {
        "lexicons": [lexicon],
        "seed": 1,
        "shards": shards,
        "games_per_shard": boards,
    }
    config["corpus"] = {
        "lexicons": [lexicon],
        "seed": 1,
        "shards": shards,
        "boards_per_shard": boards,
        "kinds": KINDS,
        "puzzles": {"kind": "boggle-4x4", "count": 1},
    }
    (tree / "config/config.yaml").write_text(yaml.safe_dump(config, allow_unicode=True))
    (tree / "config/languages").symlink_to(ROOT / "config/languages")  # the build's own (ca)
    (tree / "raw").symlink_to(ROOT / "raw")
    subprocess.run(["cp", "-al", str(ROOT / "build"), str(tree / "build")], check=True)
    for leftover in ("corpus", "puzzles", "leaves", "dist", "benchmarks", "logs"):
        shutil.rmtree(tree / "build" / leftover, ignore_errors=True)
    return tree


def run(
    tree: Path, lexicon: str, workflow: str, extra: list[str], env: dict | None = None
) -> tuple[float, float]:
    """(wall seconds of `snakemake WORKFLOW`, summed seconds of its shard jobs)."""
    shutil.rmtree(tree / f"build/{workflow}", ignore_errors=True)
    shutil.rmtree(tree / f"build/work/{lexicon}/{workflow}", ignore_errors=True)
    shutil.rmtree(tree / f"build/benchmarks/{workflow}", ignore_errors=True)
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(ROOT / "Snakefile")]
    command += ["--directory", str(tree), *extra, workflow]
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - start
    if done.returncode:
        sys.exit(f"snakemake failed:\n{done.stderr[-3000:]}")
    shard_seconds = 0.0
    shard_files = "*-[0-9]*.tsv" if workflow == "corpus" else "[0-9]*.tsv"
    for tsv in (tree / f"build/benchmarks/{workflow}").rglob(shard_files):
        shard_seconds += float(list(csv.DictReader(tsv.open(), delimiter="\t"))[-1]["s"])
    return wall, shard_seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", default="en")
    parser.add_argument("--shards", type=int, default=8)
    parser.add_argument("--workflow", choices=("corpus", "leaves"), default="corpus")
    parser.add_argument("--boards", type=int, default=2000, help="boards (games) per shard")
    parser.add_argument("--solving-only", action="store_true", help="skip the workflow runs")
    args = parser.parse_args()
    if not args.solving_only:
        run_workflow(args)
    if args.workflow == "corpus":
        solving_alone(args)


def run_workflow(args: argparse.Namespace) -> None:
    """The same workflow with 1 and 2 local jobs and 2 SLURM jobs."""
    if args.workflow == "corpus":
        unit, total = "boards", args.shards * args.boards * len(KINDS)
        print(
            f"corpus of {args.lexicon}: {', '.join(KINDS)}; {args.shards} shards × "
            f"{args.boards:,} boards each = {total:,} boards"
        )
    else:
        unit, total = "games", args.shards * args.boards
        print(
            f"leaves of {args.lexicon}: {args.shards} shards × {args.boards:,} greedy self-play "
            f"games each = {total:,} games"
        )
    print(
        f"{'run':<16} {'wall s':>7} {unit + '/s':>9} {'efficiency':>10} {'shard s':>8}"
        f" {unit + '/s/job':>12}"
    )
    with tempfile.TemporaryDirectory() as folder, ExitStack() as stack:
        tree = make_tree(Path(folder), args.lexicon, args.shards, args.boards)
        runs = [(f"local, {n} job{'s' * (n > 1)}", n, ["--cores", str(n)], None) for n in (1, 2)]
        try:
            env = stack.enter_context(local_cluster(Path(folder) / "slurm", cpus=2))
            slurm = ["--profile", str(ROOT / "profiles/slurm"), "--slurm-no-account"]
            slurm += ["--slurm-status-command", "squeue"]
            slurm += ["--slurm-init-seconds-before-status-checks", "1", "--jobs", "2"]
            runs.append(("SLURM, 2 jobs", 2, slurm, env))
        except ClusterUnavailable as error:
            print(f"(SLURM not measured: {error})")
        base = None
        for name, jobs, extra, env in runs:
            wall, shard_seconds = run(tree, args.lexicon, args.workflow, extra, env)
            rate = total / wall
            base = base or rate
            print(
                f"{name:<16} {wall:>7.1f} {rate:>9,.1f} {rate / base / jobs:>10.0%}"
                f" {shard_seconds:>8.1f} {total / shard_seconds:>12,.1f}"
            )


def solving_alone(args: argparse.Namespace) -> None:
    """One shard of each kind generated and solved in this process."""
    lexicon = Lexicon.open(ROOT / "build" / args.lexicon)
    kinds = {**KINDS, "boggle-5x5": {"game": "boggle", "rows": 5, "cols": 5}}
    config = CorpusConfig(
        lexicons=(args.lexicon,),
        shards=1,
        boards_per_shard=args.boards,
        kinds={name: BoardKind(**kind) for name, kind in kinds.items()},
    )
    for kind in kinds:
        start = time.perf_counter()
        table = shard_table(lexicon, config, args.lexicon, kind, 0)
        seconds = time.perf_counter() - start
        print(f"solving alone, {kind}: {len(table) / seconds:,.0f} boards/s on one core")


if __name__ == "__main__":
    main()
