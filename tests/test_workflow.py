"""The Snakefile end to end on a small fixture language (Swedish, added as data only)."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from build_helpers import ROOT, copy_newlang, snakemake

ARTIFACTS = (
    "words.txt",
    "words.marisa",
    "anagrams.txt",
    "anagrams.marisa",
    "graph.npy",
    "anagram-graph.npy",
    "word-sources.npy",
    "sources.json",
    "language.json",
    "letters.parquet",
    "stats.parquet",
    "manifest.json",
    "validation.json",
)


@pytest.fixture(scope="module")
def swedish(tmp_path_factory) -> Path:
    tree = copy_newlang(tmp_path_factory.mktemp("sv") / "tree")
    snakemake(tree, "all", "dist")
    return tree


def test_new_language_builds_without_code(swedish):
    words = (swedish / "build/sv/words.txt").read_text(encoding="utf-8").split()
    assert "ADJÖ" in words and any("Å" in w for w in words)  # kept letters survive
    assert (swedish / "build/sv-ods/words.txt").read_text(encoding="utf-8").split() == [
        "BÅT",
        "HÄST",
        "KÖTT",
        "SKÅL",
        "SMÖRGÅS",
        "TÅG",
        "ÄLG",
        "ÄTA",
        "ÅKA",
        "ÖL",
    ]
    for lexicon in ("sv", "sv-ods"):
        for name in ARTIFACTS:
            assert (swedish / "build" / lexicon / name).is_file(), (lexicon, name)
        assert json.loads((swedish / "build" / lexicon / "validation.json").read_text())["ok"]


def test_dry_run_and_noop_rerun(swedish):
    assert "Nothing to be done" in snakemake(swedish, "-n", "all").stdout
    done = snakemake(swedish, "all")
    assert "Nothing to be done" in done.stdout + done.stderr


def test_changing_one_raw_file_rebuilds_only_its_lexicon(swedish):
    raw = swedish / "raw/sv/ods/svenska-ord.txt"
    raw.write_bytes(raw.read_bytes() + b"\r\nELD")
    plan = snakemake(swedish, "-n", "all").stdout
    assert "lexicon=sv-ods" in plan
    assert "lexicon=sv\n" not in plan and "lexicon=sv," not in plan
    failed = snakemake(swedish, "all", check=False)  # a new word: validation must notice
    assert failed.returncode != 0
    assert "racks.txt:ÄLG**: solver vs expected: 1 unexpected: eLd" in failed.stderr
    assert "ELD" in (swedish / "build/sv-ods/words.txt").read_text(encoding="utf-8").split()
    refresh = [
        sys.executable,
        "-m",
        "pipeline.validate",
        "--lexicon",
        "build/sv-ods",
        "--reference",
        "raw/sv/reference",
        "--refresh",
    ]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}  # the steps live in the repository
    subprocess.run(refresh, cwd=swedish, check=True, capture_output=True, env=environment)
    snakemake(swedish, "all")


def test_bundles_are_deterministic(swedish, tmp_path):
    again = copy_newlang(tmp_path / "again")
    snakemake(again, "all", "dist")
    for name in ARTIFACTS:
        assert filecmp.cmp(swedish / "build/sv" / name, again / "build/sv" / name, shallow=False), (
            name
        )
    first = swedish / "build/dist/sv-0.0.1.tar.gz"
    assert first.read_bytes() == (again / "build/dist/sv-0.0.1.tar.gz").read_bytes()
    with tarfile.open(first) as tar:
        members = tar.getmembers()
    assert [m.name for m in members] == sorted(m.name for m in members)
    assert all(m.mtime == 0 and m.uid == 0 and m.uname == "" for m in members)
    sums = (swedish / "build/dist/SHA256SUMS").read_text().split("\n")
    assert sums[0].endswith("  sv-0.0.1.tar.gz") or sums[1].endswith("  sv-0.0.1.tar.gz")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda tree: (tree / "config/config.yaml").write_text("lexicons: [1, 2]\n"),
            "config/config.yaml: lexicons: [1, 2] is not of type 'object'",
        ),
        (
            lambda tree: (tree / "config/config.yaml").write_text(
                "lexicons:\n  sv: {language: sv}\n"
            ),
            "'sources' is a required property",
        ),
        (
            lambda tree: (tree / "config/config.yaml").write_text("lexicons: {\n"),
            "config/config.yaml: invalid YAML",
        ),
        (
            lambda tree: (tree / "raw/sv/ods/svenska-ord.txt").unlink(),
            "source file raw/sv/ods/svenska-ord.txt not found",
        ),
        (
            lambda tree: (tree / "config/languages/sv.yaml").write_text(
                (tree / "config/languages/sv.yaml").read_text().replace("alphabet:", "alfabet:")
            ),
            "config/languages/sv.yaml",
        ),
    ],
)
def test_bad_config_is_one_line(tmp_path, edit, message):
    tree = copy_newlang(tmp_path / "tree")
    edit(tree)
    done = snakemake(tree, "all", check=False)
    assert done.returncode != 0
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tree / "build").exists()


def test_bad_raw_file_fails_cleanly_without_partial_artifacts(tmp_path):
    tree = copy_newlang(tmp_path / "tree")
    (tree / "raw/sv/dict/swedish-sample").write_bytes(b"\x00\x01\x02binary")
    done = snakemake(tree, "build/sv/manifest.json", check=False)
    assert done.returncode != 0
    assert "raw/sv/dict/swedish-sample: binary data" in done.stderr
    built = tree / "build"
    leftovers = (
        [
            p
            for p in built.rglob("*")
            if p.is_file() and "logs" not in p.parts and "benchmarks" not in p.parts
        ]
        if built.exists()
        else []
    )
    assert leftovers == []


#: One output of each step, for lexicon sv.
STEP_OUTPUTS = {
    "words": "build/work/sv/words.tsv",
    "compile": "build/sv/graph.npy",
    "anagrams": "build/sv/anagrams.txt",
    "tables": "build/sv/stats.parquet",
    "manifest": "build/sv/manifest.json",
    "validate": "build/sv/validation.json",
}


def _rules_with_changed_code(tree: Path, snakefile: Path) -> set[str]:
    """The steps Snakemake would rerun for their own sake: each step is planned alone
    (``--allowed-rules``), so no upstream job can trigger it; only its parameters (the code
    hash; the configuration is unchanged) can."""
    rerun = set()
    for step, output in STEP_OUTPUTS.items():
        plan = snakemake(
            tree, "-n", "--snakefile", str(snakefile), "--allowed-rules", step, "--", output
        )
        if "Nothing to be done" not in plan.stdout + plan.stderr:
            rerun.add(step)
    return rerun


def test_editing_a_module_reruns_exactly_the_steps_that_import_it(tmp_path):
    """Code hashes are derived from each step's imports: a base module (lexforge/text.py) and a
    step module (pipeline/tables.py) each rerun the steps that use them, and no other."""
    from pipeline.codedeps import module_files

    code = tmp_path / "code"
    code.mkdir()
    for name in ("Snakefile", "rules", "pipeline", "lexforge", "config"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, code / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(source, code / name)
    tree = copy_newlang(tmp_path / "tree")
    snakefile = code / "Snakefile"
    snakemake(tree, "all", "--snakefile", str(snakefile))

    text = code / "lexforge/text.py"
    users_of_text = {s for s in STEP_OUTPUTS if text in module_files(f"pipeline.{s}", code)}
    assert {"words", "validate"} <= users_of_text  # normalization; grid input folding
    assert "manifest" not in users_of_text and "tables" not in users_of_text
    with open(code / "lexforge/text.py", "a") as module:
        module.write("\n# an edit\n")
    assert _rules_with_changed_code(tree, snakefile) == users_of_text

    snakemake(tree, "all", "--snakefile", str(snakefile))
    with open(code / "pipeline/tables.py", "a") as module:
        module.write("\n# an edit\n")
    assert _rules_with_changed_code(tree, snakefile) == {"tables"}
