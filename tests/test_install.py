"""Lexicons found anywhere: the search path, ``lexforge lexicons``, ``lexforge install`` of a
published bundle (built from the fixture language by the real Snakefile), the ``-d`` cache."""

from __future__ import annotations

import filecmp
import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile
from collections import Counter
from pathlib import Path

import pytest
from build_helpers import NEWLANG, copy_newlang, snakemake
from test_cli import fails_in_one_line, run

ARTIFACTS = (
    "words.marisa",
    "anagrams.txt",
    "graph.npy",
    "anagram-graph.npy",
    "anagram-classes.npy",
    "language.json",
)


@pytest.fixture(scope="module")
def swedish(tmp_path_factory) -> Path:
    """The fixture language's tree after ``snakemake all dist``: build/sv/, build/dist/."""
    tree = copy_newlang(tmp_path_factory.mktemp("sv") / "tree")
    snakemake(tree, "all", "dist")
    return tree


@pytest.fixture
def data_home(tmp_path, monkeypatch) -> Path:
    """A fresh user data directory: lexicons are installed into <it>/lexforge/lexicons."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data" / "lexforge" / "lexicons"


def words_of(lexicon_dir: Path) -> list[str]:
    return (lexicon_dir / "words.txt").read_text(encoding="utf-8").split()


def subset_anagrams(words: list[str], letters: str) -> list[str]:
    """Brute force: the words made from a subset of these letters."""
    return sorted(w for w in words if Counter(w) <= Counter(letters))


def test_install_then_query_from_anywhere(swedish, data_home, tmp_path):
    bundle = swedish / "build/dist/sv-0.0.1.tar.gz"
    done = run("install", str(bundle), cwd=tmp_path)  # SHA256SUMS beside it is checked
    assert done.returncode == 0, done.stderr
    installed = data_home / "sv"
    assert str(installed) in done.stdout
    built = swedish / "build/sv"
    for name in json.loads((built / "manifest.json").read_text())["artifacts"]:
        assert filecmp.cmp(built / name["name"], installed / name["name"], shallow=False)
    assert (installed / "licenses/wswedish.copyright").is_file()
    assert "GPL-2+" in (installed / "README").read_text()
    assert [p.name for p in data_home.iterdir()] == ["sv"]  # no staging directory left

    listed = json.loads(run("lexicons", "--json", cwd=tmp_path).stdout)["results"]
    assert {"name": "sv", "language": "sv", "words": len(words_of(built)), "version": "0.0.1",
            "path": str(installed), "shadowed": False} in listed  # fmt: skip
    words = words_of(built)
    rack = max(words, key=len)
    answer = run("anagram", rack, "--lexicon", "sv", cwd="/")
    assert len(subset_anagrams(words, rack)) > 1
    assert sorted(answer.stdout.split()) == subset_anagrams(words, rack)
    assert run("verify", "--lexicon", "sv", cwd="/").returncode == 0
    assert run("install", str(bundle), cwd=tmp_path).returncode == 0  # again: replaced in place
    assert [p.name for p in data_home.iterdir()] == ["sv"]


def test_search_path_order_and_shadowing(swedish, data_home, tmp_path, monkeypatch):
    assert run("install", str(swedish / "build/dist/sv-0.0.1.tar.gz")).returncode == 0
    first = tmp_path / "mine"
    shutil.copytree(swedish / "build/sv-ods", first / "sv")  # another lexicon under the name sv
    monkeypatch.setenv("LEXFORGE_PATH", f"{tmp_path / 'empty'}{os.pathsep}{first}")
    listed = json.loads(run("lexicons", "--json", cwd=tmp_path).stdout)["results"]
    assert [(e["path"], e["shadowed"]) for e in listed if e["name"] == "sv"] == [
        (str(first / "sv"), False),
        (str(data_home / "sv"), True),
    ]
    only_ods = sorted(set(words_of(swedish / "build/sv-ods")) - set(words_of(swedish / "build/sv")))
    found = run("anagram", only_ods[0], "--exact", "--lexicon", "sv", cwd="/").stdout.split()
    assert only_ods[0] in found  # the first lexicon on the path answers
    monkeypatch.setenv("LEXFORGE_LEXICON", "sv")
    done = run("verify", cwd="/")
    assert done.returncode == 0 and "sv: every artifact matches" in done.stdout


def test_missing_lexicon_lists_where_it_looked(tmp_path, data_home, monkeypatch):
    monkeypatch.setenv("LEXFORGE_PATH", str(tmp_path / "shelf"))
    done = run("anagram", "ABC", "--lexicon", "xx", cwd=tmp_path)
    fails_in_one_line(done, f"{tmp_path / 'shelf'}/", f"{data_home}/", "build/", "lexforge install")
    fails_in_one_line(run("verify", cwd=tmp_path), "LEXFORGE_LEXICON")


def repack(bundle: Path, out: Path, edit) -> Path:
    """A copy of ``bundle`` whose members went through ``edit(tar_out, info, data)``."""
    with tarfile.open(bundle) as tar, tarfile.open(out, "w:gz") as new:
        for info in tar.getmembers():
            data = tar.extractfile(info).read()
            edit(new, info, data)
    return out


def keep(tar: tarfile.TarFile, info: tarfile.TarInfo, data: bytes) -> None:
    tar.addfile(info, io.BytesIO(data))


def with_extra(member: tarfile.TarInfo):
    """An edit adding ``member`` (empty) after ``words.txt``."""

    def edit(tar, info, data):
        keep(tar, info, data)
        if info.name.endswith("/words.txt"):
            tar.addfile(member, io.BytesIO(b"") if member.isfile() else None)

    return edit


def symlink(name: str, target: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = tarfile.SYMTYPE, target
    return info


def drop_manifest(tar, info, data):
    if not info.name.endswith("/manifest.json"):
        keep(tar, info, data)


def break_manifest(tar, info, data):
    if info.name.endswith("/manifest.json"):
        manifest = json.loads(data)
        manifest["artifacts"][0]["bytes"] = "many"
        data = json.dumps(manifest).encode()
        info.size = len(data)
    keep(tar, info, data)


def flip_graph(tar, info, data):
    if info.name.endswith("/graph.npy"):
        data = data[:-1] + bytes([data[-1] ^ 1])
    keep(tar, info, data)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (with_extra(tarfile.TarInfo("sv-0.0.1/../evil")), "unsafe path"),
        (with_extra(tarfile.TarInfo("/tmp/evil")), "unsafe path"),
        (with_extra(symlink("sv-0.0.1/link", "/etc/passwd")), "not a regular file"),
        (with_extra(tarfile.TarInfo("other-1/words.txt")), "one top folder"),
        (flip_graph, "graph.npy: content differs from manifest"),
        (drop_manifest, "no sv-0.0.1/manifest.json"),
        (break_manifest, "unreadable manifest.json (artifact "),
    ],
)
def test_install_refuses_a_bad_bundle(swedish, data_home, tmp_path, edit, message):
    assert run("install", str(swedish / "build/dist/sv-0.0.1.tar.gz")).returncode == 0
    before = {p.name: p.read_bytes() for p in (data_home / "sv").iterdir() if p.is_file()}
    bad = repack(swedish / "build/dist/sv-0.0.1.tar.gz", tmp_path / "sv-0.0.1.tar.gz", edit)
    digest = hashlib.sha256(bad.read_bytes()).hexdigest()  # its sha256 holds: the rest refuses
    fails_in_one_line(run("install", str(bad), "--sha256", digest), str(bad), message)
    assert [p.name for p in data_home.iterdir()] == ["sv"]  # nothing half-installed
    assert {p.name: p.read_bytes() for p in (data_home / "sv").iterdir() if p.is_file()} == before
    assert not (tmp_path / "evil").exists() and not Path("/tmp/evil").exists()


def test_install_checks_sha256sums(swedish, data_home, tmp_path):
    bundle = tmp_path / "sv-0.0.1.tar.gz"
    shutil.copy(swedish / "build/dist/sv-0.0.1.tar.gz", bundle)
    real = hashlib.sha256(bundle.read_bytes()).hexdigest()  # the oracle: hashlib on the bytes
    assert f"{real}  sv-0.0.1.tar.gz\n" in (swedish / "build/dist/SHA256SUMS").read_text()
    sums = tmp_path / "SHA256SUMS"
    sums.write_text(f"{hashlib.sha256(b'other').hexdigest()}  sv-0.0.1.tar.gz\n")
    fails_in_one_line(run("install", str(bundle)), "sha256 differs from", "SHA256SUMS")
    fails_in_one_line(run("install", str(bundle), "--sums", str(NEWLANG / "config/config.yaml")),
                      "no line for sv-0.0.1.tar.gz")  # fmt: skip
    assert not data_home.exists() or not any(data_home.iterdir())
    sums.write_text(f"{real}  sv-0.0.1.tar.gz\n")  # the right line beside it
    done = run("install", str(bundle), "--dir", str(tmp_path / "shelf"))
    assert done.returncode == 0 and (tmp_path / "shelf/sv/words.marisa").is_file(), done.stderr
    assert done.stderr == ""
    sums.unlink()
    junk = tmp_path / "junk.tar.gz"
    junk.write_bytes(gzip.compress(b"not a tar"))
    digest = hashlib.sha256(junk.read_bytes()).hexdigest()
    fails_in_one_line(run("install", str(junk), "--sha256", digest), "not a readable")
    fails_in_one_line(run("install", str(tmp_path / "none.tar.gz")), "file not found")


def test_install_refuses_a_bundle_it_cannot_check(swedish, data_home, tmp_path):
    bundle = tmp_path / "sv-0.0.1.tar.gz"  # no SHA256SUMS beside it
    shutil.copy(swedish / "build/dist/sv-0.0.1.tar.gz", bundle)
    real = hashlib.sha256(bundle.read_bytes()).hexdigest()
    fails_in_one_line(
        run("install", str(bundle)), str(bundle), "cannot check it", "--sha256", "--skip-sha256"
    )
    wrong = hashlib.sha256(b"other").hexdigest()
    fails_in_one_line(run("install", str(bundle), "--sha256", wrong), f"not the {wrong} given")
    fails_in_one_line(run("install", str(bundle), "--sha256", "abc"), "--sha256", "64 hex")
    fails_in_one_line(run("install", str(bundle), "--sha256", real, "--skip-sha256"), "contradicts")
    assert not data_home.exists() or not any(data_home.iterdir())  # nothing installed

    done = run("install", str(bundle), "--sha256", real.upper())
    assert done.returncode == 0 and (data_home / "sv/words.marisa").is_file(), done.stderr
    assert done.stderr == ""
    shutil.rmtree(data_home / "sv")

    done = run("install", str(bundle), "--skip-sha256")  # opt-out: installed, and said so
    assert done.returncode == 0 and (data_home / "sv/words.marisa").is_file(), done.stderr
    assert done.stderr.count("\n") == 1 and "sha256 NOT checked" in done.stderr
    assert str(bundle) in done.stderr and "manifest.json" in done.stderr


def test_wordlist_cache_holds_the_pipelines_artifacts(swedish, tmp_path, monkeypatch):
    """``-d`` compiles a list into the same files the pipeline builds from it, once."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("LEXFORGE_CACHE", str(cache))
    wordlist = tmp_path / "ord.txt"
    shutil.copy(swedish / "raw/sv/ods/svenska-ord.txt", wordlist)
    language = str(swedish / "config/languages/sv.yaml")
    first = run("anagram", "ÅTGBHÄSTK", "-d", str(wordlist), "--language", language)
    assert first.returncode == 0 and first.stdout
    (entry,) = cache.glob("wordlist-*")  # beside it: certified.json (lexforge.verify)
    for name in ARTIFACTS:
        assert filecmp.cmp(entry / name, swedish / "build/sv-ods" / name, shallow=False), name
    stamps = {p.name: p.stat().st_mtime_ns for p in entry.iterdir()}
    again = run("anagram", "ÅTGBHÄSTK", "-d", str(wordlist), "--language", language)
    assert again.stdout == first.stdout
    assert {p.name: p.stat().st_mtime_ns for p in entry.iterdir()} == stamps  # not rebuilt
    wordlist.write_text(wordlist.read_text(encoding="utf-8") + "\nTÅGET\n", encoding="utf-8")
    assert "TÅGET" in run("anagram", "TÅGET", "-d", str(wordlist), "--language", language).stdout
    assert len(list(cache.glob("wordlist-*"))) == 2  # a new key for the edited list
