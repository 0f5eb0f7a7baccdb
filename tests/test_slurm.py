"""The workflow through profiles/slurm on a real, one-node SLURM cluster (tests/slurm_cluster.py):
the fixture language's build, its sharded corpus, puzzle pack and bundles, byte-identical to a
local run, with several jobs at once. Skipped when SLURM cannot start here (Debian's slurm-wlm
and munge missing, not root), unless LEXFORGE_REQUIRE_SLURM=1 (.ci/run sets it)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from build_helpers import ROOT, copy_newlang, snakemake
from slurm_cluster import ClusterUnavailable, local_cluster

pytestmark = pytest.mark.slow

TARGETS = ("all", "corpus", "puzzles", "dist")
JOBS = 4


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[dict[str, str]]:
    try:
        with local_cluster(tmp_path_factory.mktemp("slurm"), cpus=JOBS) as env:
            yield env
    except ClusterUnavailable as error:
        if os.environ.get("LEXFORGE_REQUIRE_SLURM") == "1":
            pytest.fail(f"LEXFORGE_REQUIRE_SLURM=1 but SLURM cannot start: {error}")
        pytest.skip(f"SLURM cannot start here: {error}")


def built_files(tree: Path) -> dict[str, bytes]:
    """Every file the build made, but its logs, timings and the jobs' output records (which
    hold modification times)."""
    return {
        str(path.relative_to(tree)): path.read_bytes()
        for path in sorted((tree / "build").rglob("*"))
        if path.is_file()
        and not {"logs", "benchmarks", "outputs"} & set(path.relative_to(tree / "build").parts)
    }


def test_the_slurm_profile_builds_what_a_local_run_builds(cluster, tmp_path):
    local = copy_newlang(tmp_path / "local")
    snakemake(local, *TARGETS)

    tree = copy_newlang(tmp_path / "slurm")
    command = [
        "--profile",
        str(ROOT / "profiles/slurm"),
        "--jobs",
        str(JOBS),
        # this cluster: no accounts, no accounting database (squeue keeps finished jobs), and
        # jobs that last seconds, so status checks start at once
        "--slurm-no-account",
        "--slurm-status-command",
        "squeue",
        "--slurm-init-seconds-before-status-checks",
        "1",
        *TARGETS,
    ]
    snakefile = ["--snakefile", str(ROOT / "Snakefile"), "--directory", str(tree)]
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", *snakefile, *command],
        env=cluster,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "submitted with SLURM jobid" in done.stderr

    made, expected = built_files(tree), built_files(local)
    assert sorted(made) == sorted(expected)
    assert [name for name in made if made[name] != expected[name]] == []
    assert "build/corpus/sv/ruzzle-4x4.parquet" in made
    assert "build/dist/sv-puzzles-0.0.1.tar.gz" in made

    # every step ran as a SLURM job (but `live`, a local rule), each with its log, and at times
    # several at once
    logs = tree / "build/logs/slurm"
    rules = {path.name.removeprefix("rule_") for path in logs.iterdir()}
    assert {"words", "compile", "corpus_shard", "corpus_merge", "puzzle_pack", "dist"} <= rules
    spans = squeue_spans(cluster)
    assert len(spans) >= len(list(logs.rglob("*.log")))
    assert max_overlap(spans) >= 2


def squeue_spans(env: dict[str, str]) -> list[tuple[str, str]]:
    """(start, end) times of the cluster's finished jobs (squeue keeps them MinJobAge)."""
    listed = subprocess.run(
        ["squeue", "--states=all", "--noheader", "--format=%S|%e"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return [tuple(line.split("|")) for line in listed.stdout.split()]


def max_overlap(spans: list[tuple[str, str]]) -> int:
    """The most jobs running at one time (ISO times compare as text; a job ending when another
    starts does not overlap it)."""
    events = sorted([(end, -1) for _, end in spans] + [(start, 1) for start, _ in spans])
    running = most = 0
    for _, step in events:
        running += step
        most = max(most, running)
    return most
