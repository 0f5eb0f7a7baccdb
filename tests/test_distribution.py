"""The release as a user gets it: ``snakemake dist`` on the real default lexicons (every bundle,
the puzzle packs, ``SHA256SUMS``, each raw file's licence inside its bundle), the sdist and wheel
of ``python -m build`` (the wheel built from the sdist), the wheel installed into a fresh virtual
environment with its core dependencies only, two real bundles installed into it with their
``SHA256SUMS``, queries answered from ``/``. The release workflow runs the same commands."""

from __future__ import annotations

import hashlib
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
from build_helpers import ROOT, snakemake

from pipeline.config import load_config
from pipeline.corpusconfig import load_corpus_config
from pipeline.publish import write_bundle

pytestmark = pytest.mark.slow  # snakemake dist, then the extension compiled from the sdist


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


@pytest.fixture(scope="module")
def release() -> Path:
    """``snakemake dist`` in the repository: build/dist/ of the real default lexicons."""
    snakemake(ROOT, "dist")
    return ROOT / "build/dist"


def release_names() -> tuple[str, list[str]]:
    """The configured version, and the files ``snakemake dist`` must make (from the config)."""
    config = ROOT / "config/config.yaml"
    build = load_config(config, check_files=False)
    version = build.version
    names = [f"{name}-{version}.tar.gz" for name in build.default]
    names += [f"{name}-puzzles-{version}.tar.gz" for name in load_corpus_config(config).lexicons]
    return version, names


def members(bundle: Path) -> dict[str, bytes]:
    """A bundle's members by name below its top folder."""
    with tarfile.open(bundle) as tar:
        return {
            info.name.split("/", 1)[1]: tar.extractfile(info).read()
            for info in tar.getmembers()
            if info.isfile()
        }


def test_dist_bundles_every_default_lexicon_with_its_licences(release, tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the raw files' paths are the build's, relative to the repository
    version, names = release_names()
    assert set(names) <= {p.name for p in release.glob("*.tar.gz")}  # other versions may linger
    sums = (release / "SHA256SUMS").read_text().splitlines()
    assert sorted(sums) == sorted(  # the oracle: hashlib over each file's bytes
        f"{hashlib.sha256((release / name).read_bytes()).hexdigest()}  {name}" for name in names
    )
    for name in names:
        files = members(release / name)
        manifest = json.loads(files["manifest.json"]) if "manifest.json" in files else None
        lines = [
            line.split("\t")
            for line in files["SOURCES"].decode().splitlines()
            if not line.startswith("#")
        ]
        assert lines, name
        for path, package, _, license_name, sha256 in lines:
            assert hashlib.sha256((ROOT / path).read_bytes()).hexdigest() == sha256, path
            text = files[f"licenses/{package}.copyright"].decode()  # its licence, inside
            assert len(text) > 200 and license_name not in ("", "unknown"), (name, path)
        if manifest is None:  # a puzzle pack: the pack, its lexicon's SOURCES and licences
            continue
        raw = {file for source in manifest["sources"] for file in source["files"]}
        assert {line[0] for line in lines} == raw, name  # every raw file, curation lists too
        assert set(files) >= {entry["name"] for entry in manifest["artifacts"]}
        readme = files["README"].decode()
        assert "None" not in readme and "unknown" not in readme, name
        for record in manifest["licenses"]:
            assert f"{record['package']} {record['version']}: {record['license']}" in readme
    en = members(release / f"en-{version}.tar.gz")
    assert b"public domain" in en["licenses/enable2k.copyright"]
    assert (ROOT / "LICENSE").read_bytes().split(b"\n\nThe word lists")[0] in en[
        "licenses/lexforge.copyright"
    ]  # the curated lists the project wrote: the project's MIT licence
    # The learned leave values, where committed, ride in the bundle as they are.
    assert en["leaves.json.gz"] == (ROOT / "leaves/en.json.gz").read_bytes()
    again = tmp_path / f"pt-{version}.tar.gz"  # deterministic: packed again, the same bytes
    leaves = ROOT / "leaves/pt.json.gz"
    write_bundle(ROOT / "build/stage/pt", version, again, leaves if leaves.is_file() else None)
    assert again.read_bytes() == (release / f"pt-{version}.tar.gz").read_bytes()


def bundle_words(bundle: Path) -> list[str]:
    """The words a bundle carries, read from its tar (not through lexforge)."""
    return members(bundle)["words.txt"].decode("utf-8").split()


@pytest.mark.parametrize(
    ("lexicon", "rack", "known"),
    [
        ("en", "LISTEN", {"ENLIST", "INLETS", "LISTEN", "SILENT", "TINSEL"}),
        ("fr", "CHIEN", {"CHIEN", "NICHE", "CHINE"}),
    ],
)
def test_wheel_installs_real_bundles_and_answers_from_root(release, user_env, lexicon, rack, known):
    version, _ = release_names()
    bundle = release / f"{lexicon}-{version}.tar.gz"  # SHA256SUMS beside it is checked
    done = user_run(user_env, "lexforge", "install", str(bundle))
    assert done.returncode == 0 and done.stderr == "", done.stderr
    listed = json.loads(user_run(user_env, "lexforge", "lexicons", "--json").stdout)["results"]
    assert (lexicon, version) in [(e["name"], e["version"]) for e in listed]

    words = bundle_words(bundle)
    done = user_run(user_env, "lexforge", "anagram", rack, "--lexicon", lexicon)
    expected = sorted(w for w in words if Counter(w) <= Counter(rack))  # brute force
    assert sorted(done.stdout.split()) == expected, done.stderr
    exact = user_run(user_env, "lexforge", "anagram", rack, "--exact", "--lexicon", lexicon)
    assert known <= set(exact.stdout.split()), exact.stdout  # the published anagrams
    assert user_run(user_env, "lexforge", "verify", "--lexicon", lexicon).returncode == 0


def test_wheel_alone_runs_the_compiled_search_and_shipped_languages(release, user_env, tmp_path):
    version, _ = release_names()
    bundle = release / f"en-{version}.tar.gz"
    assert user_run(user_env, "lexforge", "install", str(bundle)).returncode == 0
    side = 4  # the compiled search: a 4×4 board whose every row spells a 4-letter word
    word = next(w for w in bundle_words(bundle) if len(w) == side)
    grid = tmp_path / "grid.txt"
    grid.write_text((" ".join(word) + "\n") * side, encoding="utf-8")
    done = user_run(user_env, "lexforge", "boggle", str(grid), "--lexicon", "en")
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
