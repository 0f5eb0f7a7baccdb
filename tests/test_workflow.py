"""The Snakefile end to end on a small fixture language (Swedish, added as data only)."""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
import tarfile
import threading
from pathlib import Path

import pytest
from build_helpers import ROOT, copy_newlang, snakemake

ARTIFACTS = (
    "words.txt",
    "words.marisa",
    "anagrams.txt",
    "graph.npy",
    "anagram-graph.npy",
    "anagram-classes.npy",
    "word-sources.npy",
    "sources.json",
    "language.json",
    "letters.parquet",
    "stats.parquet",
    "report.html",
    "report.json",
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


def test_steps_do_not_check_the_schemas_the_workflow_checked(swedish, tmp_path):
    """The workflow checks the configuration and its languages against their schemas before
    writing .snakemake/lexforge/config.json; a step reading that file does not import
    jsonschema to check them again, while the same document under any other name is checked
    (a schema mistake refused in one line)."""
    workflow_config = (swedish / ".snakemake/lexforge/config.json").read_text(encoding="utf-8")
    broken = json.loads(workflow_config)
    broken["lexicons"]["sv"]["min_sources"] = "two"
    (tmp_path / "broken.json").write_text(json.dumps(broken), encoding="utf-8")
    shutil.copytree(swedish / ".snakemake/lexforge", tmp_path / ".snakemake/lexforge")
    probe = (
        "import sys\n"
        "from pipeline.config import load_config\n"
        "load_config(sys.argv[1], check_files=False, only=('sv',))\n"
        "print('jsonschema' in sys.modules)\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}

    def load(name: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-c", probe, name]
        return subprocess.run(
            command, cwd=tmp_path, env=environment, capture_output=True, text=True
        )

    assert load(".snakemake/lexforge/config.json").stdout == "False\n"
    refused = load("broken.json")
    assert refused.returncode != 0 and "broken.json: lexicons/sv/min_sources" in refused.stderr
    # The workflow's file edited by hand into a shape that cannot resolve: the schema names it.
    del broken["lexicons"]["sv"]["sources"]
    (tmp_path / ".snakemake/lexforge/config.json").write_text(json.dumps(broken), encoding="utf-8")
    refused = load(".snakemake/lexforge/config.json")
    assert refused.returncode != 0
    assert "config.json: lexicons/sv: 'sources' is a required property" in refused.stderr


def test_only_the_certified_files_go_live(swedish, tmp_path):
    """A file the steps no longer write (an older layout's ``anagrams.marisa``) left in the
    staging directory is not published: the live version holds the manifest's artifacts and
    the two certificates, nothing else."""
    from lexforge.verify import manifest_entries
    from pipeline.live import go_live

    stage = tmp_path / "stage/sv"
    shutil.copytree(swedish / "build/stage/sv", stage)
    (stage / "anagrams.marisa").write_bytes(b"left by an older build")
    live = go_live(stage, tmp_path / "build")
    manifest = json.loads((stage / "manifest.json").read_text(encoding="utf-8"))
    listed = {name for name, _, _ in manifest_entries(manifest)}
    assert {p.name for p in live.iterdir()} == listed | {"manifest.json", "validation.json"}
    assert "anagrams.marisa" not in listed


def test_a_staged_lexicon_with_a_bad_manifest_does_not_go_live(swedish, tmp_path):
    """A manifest that is not JSON, or names a file the stage lacks: one line naming it, and
    nothing made in the build directory."""
    from lexforge.errors import UserError
    from pipeline.live import go_live

    stage = tmp_path / "stage/sv"
    shutil.copytree(swedish / "build/stage/sv", stage)
    manifest = stage / "manifest.json"
    good = json.loads(manifest.read_text(encoding="utf-8"))
    (stage / "graph.npy").unlink()
    for text, problem in (("{bad", "not a lexicon manifest"), (json.dumps(good), "missing")):
        manifest.write_text(text, encoding="utf-8")
        with pytest.raises(UserError, match=problem):
            go_live(stage, tmp_path / "build")
        assert not (tmp_path / "build").exists()


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
    assert "ELD" in (swedish / "build/stage/sv-ods/words.txt").read_text(encoding="utf-8").split()
    # a lexicon that fails validation does not go live
    assert "ELD" not in (swedish / "build/sv-ods/words.txt").read_text(encoding="utf-8").split()
    refresh = [
        sys.executable,
        "-m",
        "pipeline.validate",
        "--lexicon",
        "build/stage/sv-ods",
        "--reference",
        "raw/sv/reference",
        "--refresh",
    ]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}  # the steps live in the repository
    subprocess.run(refresh, cwd=swedish, check=True, capture_output=True, env=environment)
    snakemake(swedish, "all")
    assert "ELD" in (swedish / "build/sv-ods/words.txt").read_text(encoding="utf-8").split()
    change = json.loads((swedish / "build/sv-ods/report.json").read_text())["change"]
    assert change["added_sample"] == ["ELD"] and change["removed"] == 0


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


def test_sources_combine_by_role_through_the_config(tmp_path):
    """A lexicon of the fixture language combining its two lists by role, through Snakemake
    (schema, config resolution, the words step): expected words worked out by hand."""
    tree = copy_newlang(tmp_path / "tree")
    curation = tree / "raw/sv/curation"
    curation.mkdir()
    (curation / "allow.txt").write_text("# Source: test\nSKÅL\tin the ODS-style list\n")
    (curation / "two-letter.txt").write_text("# Source: test\nÅT\n")
    (curation / "deny.txt").write_text("# Source: test\nÄTA\tdenied for the test\n")
    config = tree / "config/config.yaml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + """  sv-mix:
    language: sv
    min_sources: 2
    sources:
      - {format: dict, path: raw/sv/dict/swedish-sample, encoding: iso-8859-1}
      - {format: ods, path: raw/sv/ods/svenska-ord.txt}
      - {format: curation, path: raw/sv/curation/allow.txt, name: allow, role: trusted}
      - {format: curation, path: raw/sv/curation/two-letter.txt, name: two, role: exact}
      - {format: curation, path: raw/sv/curation/deny.txt, name: deny, role: deny}
""",
        encoding="utf-8",
    )
    snakemake(tree, "build/work/sv-mix/words.tsv")
    rows = (tree / "build/work/sv-mix/words.tsv").read_text(encoding="utf-8").splitlines()
    # ÄTA is the only word of both lists (min_sources: 2), then denied; SKÅL is trusted; ÅT
    # comes from the exact two-letter list (EL, ÖL are in one list only).
    assert rows == ["SKÅL\t6", "ÅT\t8"]
    stats = {s["id"]: s for s in json.loads((tree / "build/work/sv-mix/sources.json").read_text())}
    ods = stats["ods:svenska-ord.txt"]
    assert ods["role"] == "add"
    assert ods["removed"] == {
        "too-few-sources": 8,  # 10 words, less ÄTA (in both lists) and SKÅL (trusted)
        "unconfirmed": 0,
        "not-in-list": 0,
        "denied": 1,
        "named": 0,  # no names source
        "affix-rule": 0,  # no affix rule refused
    }
    assert ods["examples"]["denied"] == ["ÄTA"]
    assert ods["examples"]["too-few-sources"] == ["BÅT", "HÄST", "KÖTT", "SMÖRGÅS", "TÅG"]
    assert stats["deny"]["removed"]["denied"] == 1


def test_bad_raw_file_fails_cleanly_without_partial_artifacts(tmp_path):
    tree = copy_newlang(tmp_path / "tree")
    (tree / "raw/sv/dict/swedish-sample").write_bytes(b"\x00\x01\x02binary")
    done = snakemake(tree, "build/work/sv/outputs/live.json", check=False)
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
    "compile": "build/stage/sv/graph.npy",
    "tables": "build/stage/sv/stats.parquet",
    "validate": "build/stage/sv/validation.json",
    "live": "build/work/sv/outputs/live.json",
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
    """Code hashes are derived from each step's imports: a base module (lexforge/grid.py) and a
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

    grid = code / "lexforge/grid.py"
    users_of_grid = {s for s in STEP_OUTPUTS if grid in module_files(f"pipeline.{s}", code)}
    assert users_of_grid == {"validate"}  # reading the reference grids
    with open(grid, "a") as module:
        module.write("\n# an edit\n")
    assert _rules_with_changed_code(tree, snakefile) == users_of_grid

    snakemake(tree, "all", "--snakefile", str(snakefile))
    with open(code / "pipeline/tables.py", "a") as module:
        module.write("\n# an edit\n")
    assert _rules_with_changed_code(tree, snakefile) == {"tables"}


@pytest.mark.parametrize(
    ("name", "damage"),
    [
        ("sv/words.marisa", lambda path: path.write_bytes(path.read_bytes()[:100])),
        ("sv/anagrams.txt", lambda path: path.unlink()),
        ("sv/manifest.json", lambda path: path.write_text("garbage")),
        ("sv/validation.json", lambda path: path.unlink()),
        (
            "sv/graph.npy",
            lambda path: path.write_bytes(
                path.read_bytes()[:200]
                + bytes([path.read_bytes()[200] ^ 1])
                + path.read_bytes()[201:]
            ),
        ),
        ("work/sv/words.tsv", lambda path: path.write_text("garbage\t1\n")),
    ],
)
def test_a_plain_rerun_repairs_damaged_or_missing_artifacts(swedish, tmp_path, name, damage):
    """A changed, truncated or deleted artifact, or a garbage manifest, is rebuilt by a plain
    ``snakemake`` — byte-identical to the original — and never certified as it was."""
    tree = tmp_path / "tree"
    # copy2 keeps modification times (the copy is up to date) and build/sv stays a link
    shutil.copytree(swedish, tree, symlinks=True)
    original = {p.relative_to(tree): p.read_bytes() for p in (tree / "build/sv").iterdir()}
    damage(tree / "build" / name)
    done = snakemake(tree, "all")
    assert f"build/{name}: " in done.stderr and "rebuilding" in done.stderr
    rebuilt = {p.relative_to(tree): p.read_bytes() for p in (tree / "build/sv").iterdir()}
    assert rebuilt == original
    assert "Nothing to be done" in snakemake(tree, "-n", "all").stdout


def test_a_retired_steps_record_is_removed_quietly(swedish, tmp_path):
    """A checkout built before the report step joined tables holds its record (of files the
    tables step now makes): removed without a rebuild, even where its hashes are out of date."""
    tree = tmp_path / "tree"
    shutil.copytree(swedish, tree, symlinks=True)
    retired = tree / "build/work/sv/outputs/report.json"
    retired.write_text('{"build/stage/sv/report.html": {"bytes": 1, "mtime_ns": 1, "sha256": "0"}}')
    done = snakemake(tree, "-n", "all")
    assert "Nothing to be done" in done.stdout and "rebuilding" not in done.stderr
    assert not retired.exists()


def test_queries_during_a_rebuild_answer_from_the_old_or_the_new_lexicon(swedish, tmp_path):
    """While every step of sv reruns and a new version goes live (pipeline.live swaps the link
    build/sv), queries opening the lexicon anew each time never fail and never change answer."""
    from lexforge import Lexicon, boggle
    from lexforge.grid import parse_grids

    tree = tmp_path / "tree"
    shutil.copytree(swedish, tree, symlinks=True)
    link = tree / "build/sv"
    grid_text = sorted((tree / "raw/sv/reference").glob("*.grid"))[0].read_text(encoding="utf-8")

    def answer() -> list[str]:
        lexicon = Lexicon.open(link)
        grid = parse_grids(grid_text, lexicon.language)[0]
        return [*sorted(w.word for w in boggle.solve(lexicon, grid)), str(len(lexicon))]

    expected = answer()
    before = os.readlink(link)
    answers: list[list[str] | Exception] = []
    done = threading.Event()

    def query_until_done() -> None:
        while not done.is_set():
            try:
                answers.append(answer())
            except Exception as error:  # every failure is the finding
                answers.append(error)

    reader = threading.Thread(target=query_until_done)
    reader.start()
    try:
        snakemake(tree, "all", "--forcerun", "words", "--config", "version=0.0.2")
    finally:
        done.set()
        reader.join()
    assert os.readlink(link) != before  # a new version went live during the queries
    assert len(answers) > 10
    assert [a for a in answers if a != expected] == []


def test_a_killed_jobs_temporary_file_does_not_survive_the_next_run(swedish, tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(swedish, tree, symlinks=True)
    dead_pid = subprocess.Popen(["true"])
    dead_pid.wait()
    leftover = tree / "build/stage/sv" / f".words.txt.tmp{dead_pid.pid}"
    leftover.write_bytes(b"half a file")
    live = tree / "build/stage/sv" / f".words.txt.tmp{os.getpid()}"  # a job still writing
    live.write_bytes(b"in progress")
    done = snakemake(tree, "all")
    assert not leftover.exists() and live.exists()
    assert "left by an interrupted job" in done.stderr
