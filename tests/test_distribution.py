"""The sdist and wheel as a user gets them: ``python -m build`` (the wheel built from the sdist),
the wheel installed into a fresh virtual environment with its core dependencies only, a bundle
of the fixture language installed into it, queries answered from ``/``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tarfile
import venv
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from build_helpers import ROOT, copy_newlang, snakemake

pytestmark = pytest.mark.slow  # compiles the extension from the sdist: about a minute


def snapshot(folder: Path) -> dict[str, int]:
    """Every file under ``folder`` with its modification time."""
    if not folder.is_dir():
        return {}
    return {str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*")}


def lexicon_dirs() -> list[Path]:
    return sorted(p.parent for p in (ROOT / "build").glob("*/manifest.json"))


def core_constraints(out: Path) -> Path:
    """Every pin of requirements.lock (``name==version ; marker``), the hashes left out."""
    pins = [
        line.rstrip(" \\")
        for line in (ROOT / "requirements.lock").read_text().splitlines()
        if "==" in line and not line.lstrip().startswith(("#", "--"))
    ]
    out.write_text("\n".join(pins) + "\n")
    return out


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> Path:
    """sdist and wheel built by ``python -m build`` from the repository."""
    out = tmp_path_factory.mktemp("dist")
    before = {folder: snapshot(folder) for folder in lexicon_dirs()}
    top_before = (
        {p.name for p in (ROOT / "build").iterdir()} if (ROOT / "build").is_dir() else set()
    )
    done = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    # Nothing of setuptools' in build/: no new entry, no lexicon touched.
    top_after = {p.name for p in (ROOT / "build").iterdir()} if (ROOT / "build").is_dir() else set()
    assert top_after == top_before
    assert {folder: snapshot(folder) for folder in lexicon_dirs()} == before
    return out


def test_sdist_contents(dists):
    (sdist,) = dists.glob("lexforge-*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for needed in ("lexforge/_search.pyx", "LICENSE", "setup.py", "pyproject.toml", "README.md"):
        assert needed in names
    shipped = {p.name for p in (ROOT / "lexforge/languages").glob("*.yaml")}
    assert shipped and {f"lexforge/languages/{n}" for n in shipped} <= names
    assert "lexforge/schema/language.schema.yaml" in names
    assert "lexforge/_search.c" not in names
    assert not any(name.startswith(("build/", "raw/", "tests/", "pipeline/")) for name in names)


def test_wheel_contents_and_metadata(dists):
    (wheel,) = dists.glob("lexforge-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA")))
    tops = {name.split("/")[0] for name in names}
    assert {t for t in tops if not t.endswith(".dist-info")} == {"lexforge"}
    assert any(n.startswith("lexforge/_search.") and n.endswith(".so") for n in names)
    assert "lexforge/py.typed" in names and "lexforge/languages/fr.yaml" in names
    for page in ("index.html", "app.js", "style.css"):  # lexforge serve's page
        assert f"lexforge/serve/static/{page}" in names
    assert [n for n in names if n.endswith(("_search.c", "_search.pyx"))] == []
    text = metadata.decode()
    for line in (
        "Name: lexforge",
        "License-Expression: MIT",
        "License-File: LICENSE",
        "Requires-Python: >=3.11",
        "Classifier: Typing :: Typed",
        "Project-URL: Issues, https://github.com/lexforge/lexforge/issues",
        "Provides-Extra: pipeline",
        "Provides-Extra: serve",
    ):
        assert line in text, line
    core = [line for line in text.splitlines() if line.startswith("Requires-Dist:")]
    assert not any(
        name in line and "extra ==" not in line
        for line in core
        for name in ("snakemake", "pandas", "pyarrow", "starlette", "uvicorn")
    )


@pytest.fixture(scope="module")
def user_env(dists, tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """A fresh venv holding the wheel and its core dependencies (pinned as in
    requirements.lock), and an environment with a private data directory."""
    home = tmp_path_factory.mktemp("user")
    venv.create(home / "venv", with_pip=True)
    (wheel,) = dists.glob("lexforge-*.whl")
    pip = [str(home / "venv/bin/python"), "-m", "pip", "install", "-q"]
    constraints = core_constraints(home / "constraints.txt")
    done = subprocess.run(
        [*pip, "-c", str(constraints), str(wheel)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LEXFORGE_", "PYTHON", "VIRTUAL_ENV"))
    }
    environment |= {"XDG_DATA_HOME": str(home / "data"), "LEXFORGE_CACHE": str(home / "cache")}
    return home / "venv/bin", environment


def user_run(user_env, *args: str) -> subprocess.CompletedProcess:
    bin_dir, environment = user_env
    return subprocess.run(
        [str(bin_dir / args[0]), *args[1:]], capture_output=True, text=True, cwd="/",
        env=environment,
    )  # fmt: skip


def test_wheel_alone_installs_a_bundle_and_answers_from_root(user_env, tmp_path):
    tree = copy_newlang(tmp_path / "tree")
    snakemake(tree, "dist")
    done = user_run(user_env, "lexforge", "install", str(tree / "build/dist/sv-0.0.1.tar.gz"))
    assert done.returncode == 0, done.stderr
    listed = json.loads(user_run(user_env, "lexforge", "lexicons", "--json").stdout)["results"]
    assert [(e["name"], e["version"]) for e in listed] == [("sv", "0.0.1")]

    words = (tree / "build/stage/sv/words.txt").read_text(encoding="utf-8").split()  # dist alone
    rack = max(words, key=len)
    done = user_run(user_env, "lexforge", "anagram", rack, "--lexicon", "sv")
    expected = sorted(v for v in words if Counter(v) <= Counter(rack))  # brute force
    assert len(expected) > 1 and sorted(done.stdout.split()) == expected

    side = 4  # the compiled search: a 4×4 board whose every row spells a 4-letter word
    word = next(w for w in words if len(w) == side)
    grid = tmp_path / "grid.txt"
    grid.write_text((" ".join(word) + "\n") * side, encoding="utf-8")
    done = user_run(user_env, "lexforge", "boggle", str(grid), "--lexicon", "sv")
    assert done.returncode == 0 and word in done.stdout.split(), done.stderr

    code = (
        "import importlib.util, lexforge, lexforge._search; print(lexforge._search.__file__);"
        " print([n for n in ('pipeline', 'solver') if importlib.util.find_spec(n)])"
    )
    done = user_run(user_env, "python", "-c", code)
    where, others = done.stdout.splitlines()
    assert Path(where).is_relative_to(user_env[0].parent) and others == "[]"

    wordlist = tmp_path / "mots.txt"  # -d with a language shipped inside the package
    wordlist.write_text("chat\nTACHE\nhache\n", encoding="utf-8")
    done = user_run(
        user_env, "lexforge", "anagram", "TACHE", "-d", str(wordlist), "--language", "fr"
    )
    assert done.stdout.split() == ["TACHE", "CHAT"], done.stderr
