"""Damaged lexicon files: every outcome is the right answer or one line naming the file.

A small lexicon is compiled into a temporary directory by the pipeline's own functions, then one
artifact at a time is damaged (a byte changed anywhere, truncated, replaced by garbage) and every
search is run on it. The letter graphs are checked at load (lexforge._nodecheck), so every
single-byte change in a graph's nodes must be refused, never answered differently or crashed on,
even where the manifest does not list the graph (with it, the sha256 refuses a change as well).
"""

from __future__ import annotations

import ast
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from lexforge import boggle, ruzzle, scrabble
from lexforge.anagram import anagram
from lexforge.errors import UserError
from lexforge.grid import parse_grids
from lexforge.language import Language
from lexforge.lexicon import Lexicon
from lexforge.verify import sha256_file
from pipeline.compile import build_index, compile_lexicon

GRID = "S T A R\nE O N L\nR I E S\nT A P E\n"
RACK = "ETOILES?"
NODE_FILES = ("graph.npy", "anagram-graph.npy")
SOURCE_FILES = ("word-sources.npy", "sources.json")


def _queries(lexicon: Lexicon) -> list:
    """The answers of every search kind on this lexicon (each forces the graph it reads)."""
    grid = parse_grids(GRID, lexicon.language)[0]
    empty = scrabble.parse_board(
        ("." * 15 + "\n") * 15, lexicon.language, scrabble.load_layout(None)
    )
    return [
        [(m.word, m.row, m.col, m.score) for m in scrabble.find_moves(lexicon, empty, "ETOILES")],
        [(w.word, w.path) for w in boggle.solve(lexicon, grid)],
        boggle.solve_batch(lexicon, [grid]),
        [(w.word, w.score) for w in ruzzle.solve(lexicon, grid)],
        [m.shown for m in anagram(lexicon, RACK)],
        [lexicon.sources_of(word) for word in ("STAR", "TOILE", "SOIE")],
    ]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory, build_dir) -> tuple[Path, list]:
    """A 4,000-word French lexicon built like the pipeline builds one, and its answers."""
    folder = tmp_path_factory.mktemp("lexicon") / "fr-small"
    folder.mkdir()
    language = Language.load("fr")
    text = (build_dir / "fr/words.txt").read_text(encoding="utf-8").split()
    words = sorted([*random.Random(7).sample(text, 4000), "ETOILES", "STAR", "TOILE", "SOIE"])
    language_text = (build_dir / "fr/language.json").read_text(encoding="utf-8")
    unique = sorted(set(words))
    masks = np.array([1 + (i % 3 == 0) * 2 for i in range(len(unique))])  # two sources
    compile_lexicon(unique, masks, ["dict:a", "aspell:b"], language_text, language.alphabet, folder)
    build_index(sorted(set(words)), language.alphabet, folder)
    artifacts = [
        {"name": p.name, "bytes": p.stat().st_size, "sha256": sha256_file(p)}
        for p in sorted(folder.iterdir())
    ]
    (folder / "manifest.json").write_text(
        json.dumps({"lexicon": "fr-small", "artifacts": artifacts})
    )
    return folder, _queries(Lexicon.open(folder))


def _damaged_copy(pristine: Path, target: Path, name: str, damage) -> Path:
    shutil.copytree(pristine, target)
    path = target / name
    data = bytearray(path.read_bytes())
    path.write_bytes(bytes(damage(data)))
    return target


def _outcome(folder: Path, expected: list) -> str:
    try:
        answers = _queries(Lexicon.open(folder))
    except UserError as error:
        assert "\n" not in str(error) and str(folder) in str(error), str(error)
        return "refused"
    assert answers == expected, "a damaged lexicon answered differently without an error"
    return "same answer"


@pytest.mark.parametrize("name", NODE_FILES)
def test_every_changed_node_byte_is_refused(pristine, tmp_path, name):
    """Bytes changed at random places of the node records (not the header): always refused."""
    folder, expected = pristine
    size = (folder / name).stat().st_size
    header = 128  # .npy version-1 header of these files
    rng = random.Random(name)
    for case in range(40):
        offset = rng.randrange(header, size)
        flip = 1 << rng.randrange(8)

        def damage(data: bytearray, offset=offset, flip=flip) -> bytearray:
            data[offset] ^= flip
            return data

        copy = _damaged_copy(folder, tmp_path / f"{case}", name, damage)
        _unlist(copy, name)  # the structural check alone must refuse it
        assert _outcome(copy, expected) == "refused", (name, offset, flip)


def _unlist(folder: Path, name: str) -> None:
    """Drop artifact ``name`` from ``folder``'s manifest."""
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["artifacts"] = [a for a in manifest["artifacts"] if a["name"] != name]
    (folder / "manifest.json").write_text(json.dumps(manifest))


def _graph_checks(folder: Path, monkeypatch) -> int:
    """How many times opening ``folder`` and reading its three graph views checks a graph."""
    from lexforge import _nodecheck

    calls = []
    check = _nodecheck.check_nodes
    monkeypatch.setattr(_nodecheck, "check_nodes", lambda *a: calls.append(a) or check(*a))
    lexicon = Lexicon.open(folder)
    lexicon.graph, lexicon.word_nodes, lexicon.anagram_nodes  # noqa: B018 (mapped and checked)
    monkeypatch.setattr(_nodecheck, "check_nodes", check)
    return len(calls)


def test_graphs_are_checked_once_per_file_version(pristine, tmp_path, monkeypatch):
    """The check reads every node (a tenth of a one-shot rack query): it runs on a version
    not yet checked, then is remembered with the sha256, as tries are; not for a version that
    was only hashed, nor for a graph the manifest does not list."""
    from lexforge.verify import changed_since_certified

    folder = shutil.copytree(pristine[0], tmp_path / "lexicon")
    changed_since_certified(folder, NODE_FILES)  # hashed and remembered, without the check
    assert _graph_checks(folder, monkeypatch) == 2  # graph.npy (two views) and anagram-graph.npy
    assert _graph_checks(folder, monkeypatch) == 0
    graph = folder / "anagram-graph.npy"
    graph.write_bytes(graph.read_bytes())  # a new version of the same bytes
    assert _graph_checks(folder, monkeypatch) == 1
    _unlist(folder, "anagram-graph.npy")
    assert _graph_checks(folder, monkeypatch) == 1
    assert _graph_checks(folder, monkeypatch) == 1


def test_a_graph_changed_in_place_is_checked_again(pristine, tmp_path):
    """Changed in place with its modification time set back (``cp -p`` over it, a careless
    ``os.utime``): the change time still tells the version apart."""
    folder = shutil.copytree(pristine[0], tmp_path / "lexicon")
    Lexicon.open(folder).anagram_nodes  # noqa: B018 (checked and remembered)
    graph = folder / "anagram-graph.npy"
    before = graph.stat()
    time.sleep(0.05)  # past the change time's resolution (a clock tick on older kernels)
    with open(graph, "r+b") as handle:  # same file, same size: node 0's first child is 2
        handle.seek(8)
        handle.seek(10 + int.from_bytes(handle.read(2), "little") + 8)
        handle.write((2).to_bytes(4, "little"))
    os.utime(graph, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert graph.stat().st_ino == before.st_ino and graph.stat().st_mtime_ns == before.st_mtime_ns
    with pytest.raises(UserError, match=r"anagram-graph\.npy: damaged letter graph"):
        Lexicon.open(folder).anagram_nodes  # noqa: B018


def test_a_graph_is_checked_again_for_another_alphabet(pristine, tmp_path):
    """The check depends on the alphabet's size (``language.json``) as well as the graph: a
    version that passed with one alphabet is checked again with another."""
    folder = shutil.copytree(pristine[0], tmp_path / "lexicon")
    Lexicon.open(folder).word_nodes  # noqa: B018 (checked and remembered)
    language = json.loads((folder / "language.json").read_text(encoding="utf-8"))
    language["alphabet"] = language["alphabet"].replace("Z", "")
    (folder / "language.json").write_text(json.dumps(language), encoding="utf-8")
    with pytest.raises(UserError, match=r"/graph\.npy: damaged letter graph \(node 0: a child"):
        Lexicon.open(folder).word_nodes  # noqa: B018


@pytest.mark.parametrize("name", NODE_FILES)
def test_sound_graph_that_differs_from_the_manifest_is_refused(pristine, tmp_path, name):
    folder = shutil.copytree(pristine[0], tmp_path / "lexicon")
    manifest = json.loads((folder / "manifest.json").read_text())
    for artifact in manifest["artifacts"]:
        if artifact["name"] == name:
            artifact["sha256"] = "0" * 64
    (folder / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(UserError, match=f"{name}: damaged letter graph .differs from manifest"):
        _queries(Lexicon.open(folder))


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("words.marisa", "damaged trie"),
        ("anagrams.txt", "damaged anagram index"),
        ("anagram-classes.npy", "damaged anagram index"),
    ],
)
def test_every_changed_byte_of_a_hashed_file_is_refused(pristine, tmp_path, name, problem):
    """marisa reads a trie with a changed byte and may answer otherwise, and the rack search
    reads a key's words in ``anagrams.txt`` at the offsets of ``anagram-classes.npy`` without
    parsing either: each file is checked against the manifest's sha256 when first read (once
    per file version), so every change is refused."""
    folder, _ = pristine
    size = (folder / name).stat().st_size
    rng = random.Random(name)
    for case in range(20):
        offset, flip = rng.randrange(size), 1 << rng.randrange(8)

        def damage(data: bytearray, offset=offset, flip=flip) -> bytearray:
            data[offset] ^= flip
            return data

        copy = _damaged_copy(folder, tmp_path / f"{case}", name, damage)
        with pytest.raises(UserError, match=f"{name}: {problem}"):
            _queries(Lexicon.open(copy))


@pytest.mark.parametrize(
    "name",
    [
        *NODE_FILES,
        "words.marisa",
        "anagrams.txt",
        "anagram-classes.npy",
        "language.json",
        "word-sources.npy",
        "sources.json",
    ],
)
@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda data: data[: len(data) // 2], id="truncated"),
        pytest.param(lambda data: data[:9], id="header-only"),
        pytest.param(lambda data: bytearray(b"{bad"), id="garbage"),
        pytest.param(lambda data: bytearray(), id="empty"),
        pytest.param(lambda data: data[:8] + bytes([data[8] ^ 0x40]) + data[9:], id="header-byte"),
    ],
)
def test_damaged_files_give_one_line_or_the_right_answer(pristine, tmp_path, name, damage):
    folder, expected = pristine
    copy = _damaged_copy(folder, tmp_path / "copy", name, damage)
    assert _outcome(copy, expected) in {"refused", "same answer"}


@pytest.mark.parametrize(
    ("dtype", "shape", "fortran"),
    [
        ("|u1", (7,), False),
        ("<u2", (0,), False),
        ("<u8", (3, 2), True),
        ("<u4", (), False),
        ([("mask", "<u8"), ("first", "<i4"), ("word", "<i4")], (5,), False),
    ],
)
def test_npy_headers_read_as_numpy_reads_them(tmp_path, dtype, shape, fortran):
    """lexforge reads a ``.npy`` header without numpy (or ``ast``); numpy is the oracle."""
    from lexforge.lexicon import _map_npy

    array = np.zeros(shape, dtype=dtype, order="F" if fortran else "C")
    np.save(tmp_path / "a.npy", array)
    with open(tmp_path / "a.npy", "rb") as handle:
        np.lib.format.read_magic(handle)
        expected = np.lib.format.read_array_header_1_0(handle)
    descr, fortran_order, read_shape, data = _map_npy(tmp_path / "a.npy")
    assert (read_shape, fortran_order, np.dtype(ast.literal_eval(descr))) == expected
    assert len(data) == array.nbytes


SEARCHES_WITHOUT_THE_CHECK = """
import sys
from lexforge import _nodecheck, boggle, ruzzle, scrabble
from lexforge.anagram import anagram
from lexforge.errors import UserError
from lexforge.grid import parse_grids
from lexforge.lexicon import Lexicon

_nodecheck.check_nodes = lambda *args: None  # as if the damage came after the check
lexicon = Lexicon.open(sys.argv[1])
grid = parse_grids(sys.argv[2], lexicon.language)[0]
board = scrabble.parse_board(sys.argv[3], lexicon.language, scrabble.load_layout(None))
racks = ("ETOILES", "AER?", "RSTNE??")
searches = {
    "scrabble": lambda: [scrabble.find_moves(lexicon, board, rack) for rack in racks],
    "boggle": lambda: boggle.solve(lexicon, grid),
    "boggle batch": lambda: boggle.solve_batch(lexicon, [grid] * 3),
    "ruzzle": lambda: ruzzle.solve(lexicon, grid),
    "anagram": lambda: [anagram(lexicon, rack) for rack in racks],
}
for name, search in searches.items():
    try:
        search()
    except UserError as error:
        print(name, "refused:", error)
"""
# A mid-game board: cross-checks, anchors beside tiles and left parts all walk the graph.
MIDGAME = ["." * 15] * 3 + ["..SOIE........."] + ["." * 15]
MIDGAME += ["......S........", "......T........", "....ETOILES....", "......R........"]
MIDGAME += ["." * 15] * 6


@pytest.mark.parametrize("name", NODE_FILES)
@pytest.mark.parametrize(
    "damage", ["first child 2**20 past the end", "first child 2**31-1", "mask bit 63"]
)
def test_searches_never_read_outside_a_damaged_graph(pristine, tmp_path, name, damage):
    """The check runs once per file version: a graph damaged without a new version (a bit
    flipped on the disk) is not checked again. So every compiled search bounds the child
    indices it follows and ignores mask bits beyond the alphabet: with the check switched off
    and every third node below the root damaged, each search answers (maybe otherwise) or
    refuses in one line, never reading outside the graph or failing otherwise."""
    folder = shutil.copytree(pristine[0], tmp_path / "lexicon")
    _unlist(folder, name)
    nodes = np.load(folder / name)
    damaged = np.flatnonzero(nodes["mask"])[1::3]
    if damage.startswith("mask"):
        nodes["mask"][damaged] |= np.uint64(1 << 63)
    else:
        nodes["first"][damaged] = len(nodes) + 2**20 if "2**20" in damage else 2**31 - 1
    np.save(folder / name, nodes)
    board = "\n".join(MIDGAME) + "\n"
    done = subprocess.run(
        [sys.executable, "-c", SEARCHES_WITHOUT_THE_CHECK, str(folder), GRID, board],
        capture_output=True,
        text=True,
    )
    assert (done.returncode, done.stderr) == (0, ""), (done.returncode, done.stderr[-500:])
