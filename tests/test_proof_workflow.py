"""The best-board proof as a workflow (rules/proof.smk): a slice of shards run locally, merged
into the certificate of their range, equal to one run over that range; and a slice of the 4×4
ENABLE2K proof through profiles/slurm on the one-node cluster (tests/slurm_cluster.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from solver_fixtures import ROOT

from lexforge.boardclass import (
    Space,
    check_certificate,
    default_classes,
    read_certificate,
    run_proof,
)
from lexforge.lexicon import Lexicon
from lexforge.wordlist import lexicon_from_wordlist
from pipeline.proof import shard_range

ENABLE = ROOT / "raw" / "en" / "enable2k" / "enable2k.txt"


@cache
def small_words(folder: Path) -> tuple[Path, Lexicon]:
    """A word list of the ENABLE2K words of AELRST, and its lexicon as the workflow reads it."""
    words = ENABLE.read_text(encoding="ascii").upper().split()
    path = folder / "aelrst.txt"
    path.write_text("\n".join(w for w in words if set(w) <= set("AELRST")) + "\n", "ascii")
    return path, lexicon_from_wordlist(path, "ods", "en", None, None, print, False)


def proof_snakemake(workdir: Path, config: dict[str, str], *args: str, env=None):
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(ROOT / "rules/proof.smk"),
        "--configfile",
        str(ROOT / "config/proof.yaml"),
        "--directory",
        str(workdir),
        "--config",
        *(f"{key}={value}" for key, value in config.items()),
        *args,
    ]
    return subprocess.run(command, capture_output=True, text=True, env=env)


def slice_config(word_list: Path, classes: tuple[str, ...]) -> dict[str, str]:
    return {
        "name": "aelrst-2x3",
        "word_list": str(word_list),
        "size": "2x3",
        "classes": " ".join(classes),
        "threshold": "100",
        "shards": "16",
        "first": "3",
        "last": "7",
    }


def test_a_slice_of_shards_merges_into_its_range(tmp_path):
    word_list, lexicon = small_words(tmp_path)
    classes = default_classes(lexicon)
    done = proof_snakemake(tmp_path, slice_config(word_list, classes), "--cores", "2")
    assert done.returncode == 0, done.stderr[-3000:]
    made = read_certificate(tmp_path / "build/proof/aelrst-2x3/certificate-3-7.json.gz")
    space = Space(2, 3, classes, classes)
    lo, hi = shard_range(space, 16, 3)[0], shard_range(space, 16, 6)[1]
    assert made["range"] == [lo, hi]
    assert made == run_proof(lexicon, space, 100, lo, hi)
    verdict = check_certificate(made, lexicon)
    assert not verdict.complete
    assert len(list((tmp_path / "build/proof/aelrst-2x3/shards").iterdir())) == 4


def test_a_bad_slice_is_one_line(tmp_path):
    config = {"first": "9", "last": "3"}
    done = proof_snakemake(tmp_path, config, "--cores", "1", "-n")
    assert done.returncode != 0 and "proof shards 9…3" in done.stderr


@pytest.mark.slow
def test_a_slice_of_the_4x4_proof_runs_on_slurm(tmp_path):
    from slurm_cluster import ClusterUnavailable, local_cluster

    config = {"name": "enable2k-4x4", "word_list": str(ENABLE), "first": "65535", "last": "65536"}
    try:
        with local_cluster(tmp_path / "slurm", cpus=2) as env:
            done = proof_snakemake(
                tmp_path,
                config,
                "--profile",
                str(ROOT / "profiles/slurm"),
                "--jobs",
                "2",
                "--slurm-no-account",
                "--slurm-status-command",
                "squeue",
                "--slurm-init-seconds-before-status-checks",
                "1",
                env={**env, "LEXFORGE_CACHE": os.environ["LEXFORGE_CACHE"]},
            )
    except ClusterUnavailable as error:
        if os.environ.get("LEXFORGE_REQUIRE_SLURM") == "1":
            pytest.fail(f"LEXFORGE_REQUIRE_SLURM=1 but SLURM cannot start: {error}")
        pytest.skip(f"SLURM cannot start here: {error}")
    assert done.returncode == 0, done.stderr[-4000:]
    assert "submitted with SLURM jobid" in done.stderr
    made = read_certificate(tmp_path / "build/proof/enable2k-4x4/certificate-65535-65536.json.gz")
    lexicon = lexicon_from_wordlist(ENABLE, "ods", "en", None, None, print, False)
    verdict = check_certificate(made, lexicon)
    assert not verdict.complete and made["stats"]["top_classes_processed"] >= 1
